//! `oxello match --shard K/N --shard-out FILE` and `oxello match --merge FILES...`: a match
//! split over machines (see [`crate::tools::match_runner::shard`]), its options and files.

use crate::base::datafile::write_atomically;
use crate::tools::args::parse_shard;
use crate::tools::match_runner::config::MatchConfig;
use crate::tools::match_runner::outcome::MatchReport;
use crate::tools::match_runner::shard::{self, Shard, Share};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct ShardArgs {
    /// Play only shard K of N (0-based, `K/N`): the games whose index is K modulo N, each the
    /// same game (opening, colours) as in the whole match, without stopping by SPRT; written
    /// to --shard-out. A rerun that finds its shard complete reports it without playing.
    #[arg(long, value_parser = parse_shard, requires = "shard_out")]
    pub shard: Option<(u32, u32)>,
    /// Where a shard's games go (with --shard).
    #[arg(long, requires = "shard")]
    pub shard_out: Option<PathBuf>,
    /// Merge the shard files of one match into its report (text or --json, --ggf-out): the
    /// games in index order, up to the SPRT's decision. Refuses missing and foreign shards.
    #[arg(long, num_args = 1.., conflicts_with_all = ["engines", "shard"])]
    pub merge: Vec<PathBuf>,
}

/// The share to play, with the file it goes to.
pub fn share(args: &ShardArgs) -> Option<(Share, &Path)> {
    let (k, n) = args.shard?;
    Some((Share { k, n }, args.shard_out.as_deref()?))
}

/// The report of a shard already complete at `path`, if there is one; an error if `path`
/// holds another match's shard or another share (it is not overwritten).
pub fn completed(
    config: &MatchConfig,
    share: Share,
    path: &Path,
) -> Result<Option<MatchReport>, String> {
    if !path.exists() {
        return Ok(None);
    }
    let found = match shard::read(path) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("oxello match: {e}; playing the shard again");
            return Ok(None);
        }
    };
    if found.identity != shard::identity(config) || found.share != share {
        return Err(format!(
            "{}: holds a shard of another match or another share ({}/{}); remove it or write elsewhere",
            path.display(),
            found.share.k,
            found.share.n
        ));
    }
    eprintln!(
        "oxello match: {}: shard {}/{} is complete ({} games); not played again",
        path.display(),
        share.k,
        share.n,
        found.results.len()
    );
    let mut report = MatchReport::default();
    for game in found.results {
        report.add(game, None);
    }
    Ok(Some(report))
}

/// Writes the games of a shard, whole.
pub fn save(
    config: &MatchConfig,
    share: Share,
    path: &Path,
    report: &MatchReport,
) -> Result<(), String> {
    let shard = Shard {
        share,
        identity: shard::identity(config),
        results: report.results.clone(),
    };
    write_atomically(path, &shard::encode(&shard)).map_err(|e| format!("{}: {e}", path.display()))
}

/// The report of the whole match from its shard files, with the engines' names.
pub fn merge(paths: &[PathBuf]) -> Result<(MatchReport, [String; 2]), String> {
    let shards = shard::gather(paths).map_err(|e| e.to_string())?;
    let (report, names, left_out) = shard::merge(shards).map_err(|e| e.to_string())?;
    if left_out > 0 {
        eprintln!(
            "oxello match: the SPRT decided after game {}: {left_out} later games left out",
            report.results.len()
        );
    }
    Ok((report, names))
}
