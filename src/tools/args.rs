//! The argument values several tools share: thread counts, shards (the values themselves
//! are validated by [`crate::play::values`]).

use crate::play::values::Threads;

/// Parses a shard `K/N`, 0 <= K < N.
pub fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| format!("'{s}': expected K/N, such as 0/4"))?;
    let number = |x: &str| {
        x.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{s}': expected K/N"))
    };
    let (k, n) = (number(k)?, number(n)?);
    if k >= n {
        return Err(format!("'{s}': shards are numbered 0 to N - 1"));
    }
    Ok((k, n))
}

/// The threads asked for, or one per core.
pub fn threads_or_cores(requested: Option<Threads>) -> usize {
    requested.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        Threads::get,
    )
}

#[cfg(test)]
mod tests {
    use super::parse_shard;

    #[test]
    fn shards_parse_as_k_slash_n_with_k_below_n() {
        assert_eq!(parse_shard("1/4"), Ok((1, 4)));
        assert!(parse_shard("1-4").is_err());
        assert!(parse_shard("a/4").is_err());
        assert!(parse_shard("4/4").is_err());
        assert!(parse_shard("0/0").is_err());
    }
}
