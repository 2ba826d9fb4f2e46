//! A match split over machines: shard `K` of `N` plays the games whose index is `K` modulo
//! `N`, each the same game (opening, colours) as in the whole match, and writes them to a shard
//! file; the shards then merge into the whole match's report.
//!
//! A shard file is framed as the other data files are (see [`crate::base::datafile`]):
//!
//! ```text
//! offset  size  field
//!      0     8  magic "OXMATCH\n"
//!      8     4  format version (1)
//!     12     4  K
//!     16     4  N
//!     20     8  bytes of the identity (the payload's first part)
//!     28     8  bytes of the payload
//!     36     8  FNV-1a 64 checksum of the payload
//!     44     -  payload: the identity, then one line per game played
//! ```
//!
//! The identity is the match's description in text, one line per item: the engines (names,
//! commands, clocks), the referee's patience, the SPRT, the number of games and every opening
//! (after the seed's shuffle), so that two shards of one match have equal identities and a
//! shard of any other match is refused. A game's line holds what [`GameResult`] holds.
//!
//! The merge counts the games in index order, as a match of one game at a time plays them,
//! and stops where the SPRT (if any) decides, as that match would: for engines that play the
//! same move in the same position, the merged report is the one-run report.

use super::config::MatchConfig;
use super::outcome::{Forfeit, GameResult, MatchReport};
use super::stats::Sprt;
use crate::base::datafile::{frame, Field, Frame, FrameError};
use crate::engine::board::Color;
use crate::engine::game::Move;
use crate::engine::notation::square_name;
use std::fmt;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"OXMATCH\n";
const VERSION: u32 = 1;
const HEADER_BYTES: usize = 44;

/// Which share of a match a run plays: shard `k` of `n`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Share {
    pub k: u32,
    pub n: u32,
}

impl Share {
    /// Whether game `index` is this shard's.
    pub fn owns(self, index: usize) -> bool {
        index as u64 % u64::from(self.n) == u64::from(self.k)
    }
}

/// A shard's games and the match they belong to.
#[derive(Clone, Debug)]
pub struct Shard {
    pub share: Share,
    pub identity: String,
    pub results: Vec<GameResult>,
}

/// Why shard files cannot be read or merged.
#[derive(Debug)]
pub enum ShardError {
    Io(PathBuf, String),
    Frame(PathBuf, FrameError),
    /// A payload that does not parse: the file and what is wrong.
    Payload(PathBuf, String),
    /// A shard of another match: the file and the first line that differs (ours, theirs).
    Foreign(PathBuf, String, String),
    /// Shards of different splits (N).
    Split(PathBuf, u32, u32),
    /// One shard given twice.
    Twice(u32, PathBuf, PathBuf),
    /// The shards missing, of `n`.
    Missing(Vec<u32>, u32),
    NoFiles,
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            ShardError::Frame(p, e) => {
                write!(f, "{}: ", p.display())?;
                e.describe("match shard", f)
            }
            ShardError::Payload(p, e) => write!(f, "{}: not a match shard: {e}", p.display()),
            ShardError::Foreign(p, ours, theirs) => write!(
                f,
                "{}: a shard of another match: '{theirs}' where the others have '{ours}'",
                p.display()
            ),
            ShardError::Split(p, n, theirs) => write!(
                f,
                "{}: a shard of a split in {theirs}, the others are of a split in {n}",
                p.display()
            ),
            ShardError::Twice(k, a, b) => write!(
                f,
                "shard {k} given twice: {} and {}",
                a.display(),
                b.display()
            ),
            ShardError::Missing(ks, n) => {
                let ks: Vec<String> = ks.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "missing shard{} {} of {n}: rerun {} and merge again",
                    if ks.len() == 1 { "" } else { "s" },
                    ks.join(", "),
                    if ks.len() == 1 { "it" } else { "them" }
                )
            }
            ShardError::NoFiles => write!(f, "no shard files given"),
        }
    }
}

/// The match's identity: what decides its games and their number.
pub fn identity(config: &MatchConfig) -> String {
    let mut lines = vec![format!(
        "names {} {}",
        token(&config.engines[0].name),
        token(&config.engines[1].name)
    )];
    for (i, engine) in config.engines.iter().enumerate() {
        lines.push(format!("engine {} {engine:?}", i + 1));
    }
    lines.push(format!(
        "games {} move timeout {:?} grace {:?}",
        config.games, config.move_timeout, config.grace
    ));
    lines.push(config.sprt.map_or("sprt none".into(), |s| {
        format!("sprt {} {} {} {}", s.elo0, s.elo1, s.alpha, s.beta)
    }));
    for opening in &config.openings {
        let moves: String = opening.plays().map(|(_, sq)| square_name(sq)).collect();
        lines.push(format!("opening {moves}"));
    }
    lines.join("\n") + "\n"
}

/// The engines' names of an identity.
fn names(identity: &str) -> Option<[String; 2]> {
    let mut words = identity.lines().next()?.strip_prefix("names ")?.split(' ');
    let first = untoken(words.next()?)?;
    let second = untoken(words.next()?)?;
    Some([first, second])
}

/// `s` as one word: no whitespace, `\` escaped, the empty string as `\e`.
fn token(s: &str) -> String {
    if s.is_empty() {
        return "\\e".into();
    }
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ' ' => out.push_str("\\s"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// The string of a [`token`].
fn untoken(word: &str) -> Option<String> {
    if word == "\\e" {
        return Some(String::new());
    }
    let mut out = String::new();
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        out.push(match c {
            '\\' => match chars.next()? {
                '\\' => '\\',
                's' => ' ',
                't' => '\t',
                'n' => '\n',
                'r' => '\r',
                _ => return None,
            },
            c => c,
        });
    }
    Some(out)
}

/// A forfeit's kind and detail (empty where it has none).
fn forfeit_words(reason: &Forfeit) -> (&'static str, &str) {
    let detail = match reason {
        Forfeit::IllegalMove(s) | Forfeit::Malformed(s) | Forfeit::ErrorReply(s) => s.as_str(),
        Forfeit::FalsePass
        | Forfeit::Resigned
        | Forfeit::Late
        | Forfeit::Crashed
        | Forfeit::Hung => "",
    };
    (reason.kind(), detail)
}

/// The forfeit of a kind (as [`Forfeit::kind`] names it) and detail.
fn forfeit_of(kind: &str, detail: &str) -> Option<Forfeit> {
    let d = || detail.to_string();
    [
        Forfeit::IllegalMove(d()),
        Forfeit::Malformed(d()),
        Forfeit::FalsePass,
        Forfeit::Resigned,
        Forfeit::Late,
        Forfeit::Crashed,
        Forfeit::Hung,
        Forfeit::ErrorReply(d()),
    ]
    .into_iter()
    .find(|f| f.kind() == kind)
}

fn optional(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| x.to_string())
}

/// One game as a line: index, black, score, longest moves, thinking times, final clocks,
/// forfeit (engine, kind, detail, or three `-`), then the moves as `B37/0.52` (`W-/0` for a
/// pass).
fn game_line(g: &GameResult) -> String {
    let forfeit = g.forfeit.as_ref().map_or("- - -".into(), |(e, reason)| {
        let (kind, detail) = forfeit_words(reason);
        format!("{e} {} {}", token(kind), token(detail))
    });
    let mut line = format!(
        "game {} {} {} {} {} {} {} {} {} {forfeit}",
        g.index,
        g.black,
        g.black_score,
        g.longest_move[0],
        g.longest_move[1],
        g.thinking[0],
        g.thinking[1],
        optional(g.final_clock[0]),
        optional(g.final_clock[1]),
    );
    for &(c, mv, secs) in &g.moves {
        let side = if c == Color::Black { 'B' } else { 'W' };
        let square = match mv {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "-".into(),
        };
        line.push_str(&format!(" {side}{square}/{secs}"));
    }
    line
}

/// A game of a [`game_line`].
fn parse_game(line: &str) -> Option<GameResult> {
    let w: Vec<&str> = line.strip_prefix("game ")?.split(' ').collect();
    if w.len() < 12 {
        return None;
    }
    let float = |s: &str| s.parse::<f64>().ok();
    let clock = |s: &str| {
        if s == "-" {
            Some(None)
        } else {
            float(s).map(Some)
        }
    };
    let mut g = GameResult::new(w[0].parse().ok()?, w[1].parse().ok()?);
    g.black_score = w[2].parse().ok()?;
    g.longest_move = [float(w[3])?, float(w[4])?];
    g.thinking = [float(w[5])?, float(w[6])?];
    g.final_clock = [clock(w[7])?, clock(w[8])?];
    if w[9] != "-" {
        let reason = forfeit_of(&untoken(w[10])?, &untoken(w[11])?)?;
        g.forfeit = Some((w[9].parse().ok()?, reason));
    }
    for word in &w[12..] {
        g.moves.push(parse_move(word)?);
    }
    (g.black < 2 && g.forfeit.as_ref().is_none_or(|(e, _)| *e < 2)).then_some(g)
}

/// A move of a [`game_line`]: `B37/0.52`, `W-/0`.
fn parse_move(word: &str) -> Option<(Color, Move, f64)> {
    let (square, secs) = word.get(1..)?.split_once('/')?;
    let side = match word.as_bytes()[0] {
        b'B' => Color::Black,
        b'W' => Color::White,
        _ => return None,
    };
    let mv = match square {
        "-" => Move::Pass,
        sq => Move::Play(sq.parse().ok().filter(|&sq: &u32| sq < 64)?),
    };
    Some((side, mv, secs.parse().ok()?))
}

/// The shard file's bytes.
pub fn encode(shard: &Shard) -> Vec<u8> {
    let mut payload = shard.identity.clone();
    for game in &shard.results {
        payload.push_str(&game_line(game));
        payload.push('\n');
    }
    frame(
        MAGIC,
        VERSION,
        &[
            Field::U32(shard.share.k),
            Field::U32(shard.share.n),
            Field::U64(shard.identity.len() as u64),
            Field::U64(payload.len() as u64),
        ],
        payload.as_bytes(),
    )
}

/// Reads a shard file, checked whole.
pub fn read(path: &Path) -> Result<Shard, ShardError> {
    let bytes = std::fs::read(path).map_err(|e| ShardError::Io(path.into(), e.to_string()))?;
    let framed = Frame::open(&bytes, MAGIC, VERSION, HEADER_BYTES)
        .map_err(|e| ShardError::Frame(path.into(), e))?;
    let payload = framed
        .payload(framed.u64_at(28), framed.u64_at(36))
        .map_err(|e| ShardError::Frame(path.into(), e))?;
    let bad = |what: &str| ShardError::Payload(path.into(), what.into());
    let text = std::str::from_utf8(payload).map_err(|_| bad("not UTF-8"))?;
    let share = Share {
        k: framed.u32_at(12),
        n: framed.u32_at(16),
    };
    let cut = usize::try_from(framed.u64_at(20)).unwrap_or(usize::MAX);
    let (identity, games) = match text.get(..cut).zip(text.get(cut..)) {
        Some(split) if share.k < share.n && names(split.0).is_some() => split,
        _ => return Err(bad("bad header")),
    };
    let results = games
        .lines()
        .map(|line| parse_game(line).filter(|g| share.owns(g.index)))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| bad("a bad game line"))?;
    Ok(Shard {
        share,
        identity: identity.to_string(),
        results,
    })
}

/// The first line where two identities differ: (ours, theirs).
fn first_difference(ours: &str, theirs: &str) -> (String, String) {
    let mut a = ours.lines().chain(std::iter::repeat("(nothing)"));
    let mut b = theirs.lines().chain(std::iter::repeat("(nothing)"));
    loop {
        let (x, y) = (a.next().unwrap_or(""), b.next().unwrap_or(""));
        if x != y {
            return (x.into(), y.into());
        }
    }
}

/// The shards of `paths`, checked to be all the shards of one match, in order of K.
pub fn gather(paths: &[PathBuf]) -> Result<Vec<Shard>, ShardError> {
    let mut shards: Vec<(PathBuf, Shard)> = Vec::new();
    for path in paths {
        let shard = read(path)?;
        if let Some((_, first)) = shards.first() {
            if first.identity != shard.identity {
                let (ours, theirs) = first_difference(&first.identity, &shard.identity);
                return Err(ShardError::Foreign(path.clone(), ours, theirs));
            }
            if first.share.n != shard.share.n {
                return Err(ShardError::Split(
                    path.clone(),
                    first.share.n,
                    shard.share.n,
                ));
            }
        }
        if let Some((other, _)) = shards.iter().find(|(_, s)| s.share.k == shard.share.k) {
            return Err(ShardError::Twice(
                shard.share.k,
                other.clone(),
                path.clone(),
            ));
        }
        shards.push((path.clone(), shard));
    }
    let n = shards.first().ok_or(ShardError::NoFiles)?.1.share.n;
    let missing: Vec<u32> = (0..n)
        .filter(|k| !shards.iter().any(|(_, s)| s.share.k == *k))
        .collect();
    if !missing.is_empty() {
        return Err(ShardError::Missing(missing, n));
    }
    shards.sort_by_key(|(_, s)| s.share.k);
    Ok(shards.into_iter().map(|(_, s)| s).collect())
}

/// The whole match's report from all its shards, with the engines' names: the games counted
/// in index order up to the SPRT's decision, as a match of one game at a time counts them;
/// and how many games were left out after that decision.
pub fn merge(shards: Vec<Shard>) -> Result<(MatchReport, [String; 2], usize), ShardError> {
    let first = shards.first().ok_or(ShardError::NoFiles)?;
    // `read` checked that every identity names its engines.
    let names = names(&first.identity).unwrap_or_default();
    let sprt = sprt(&first.identity);
    let mut games: Vec<GameResult> = shards.into_iter().flat_map(|s| s.results).collect();
    games.sort_by_key(|g| g.index);
    let total = games.len();
    let mut report = MatchReport::default();
    for game in games {
        if report.add(game, sprt.as_ref()) {
            break;
        }
    }
    let left_out = total - report.results.len();
    Ok((report, names, left_out))
}

/// The SPRT of an identity's `sprt` line (none for `sprt none`).
fn sprt(identity: &str) -> Option<Sprt> {
    let line = identity.lines().find_map(|l| l.strip_prefix("sprt "))?;
    let v: Vec<f64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
    match v[..] {
        [elo0, elo1, alpha, beta] => Some(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_hold_any_string_in_one_word() {
        for s in ["", "oxello#1", "a b\tc\nd\\e", "\\e", " ", "naïve"] {
            let word = token(s);
            assert!(
                !word.is_empty() && !word.contains(char::is_whitespace),
                "{word}"
            );
            assert_eq!(untoken(&word).as_deref(), Some(s));
        }
        assert_eq!(untoken("bad\\q"), None);
    }

    #[test]
    fn a_game_line_reads_back_as_the_game() {
        let mut game = GameResult::new(7, 1);
        game.record_move(Color::Black, 37, 0.0);
        game.record_move(Color::Black, 29, 0.123_456_789);
        game.longest_move = [0.5, 1.0 / 3.0];
        game.thinking = [0.75, 2.0 / 3.0];
        game.final_clock = [Some(2.25), None];
        game.forfeit(0, Forfeit::ErrorReply("genmove w: ? no\nmore".into()));
        let back = parse_game(&game_line(&game)).unwrap();
        assert_eq!(back.moves, game.moves);
        assert_eq!(back.moves[1].1, Move::Pass);
        assert_eq!(
            (
                back.index,
                back.black,
                back.black_score,
                back.forfeit.clone()
            ),
            (7, 1, game.black_score, game.forfeit.clone())
        );
        assert_eq!(
            (back.longest_move, back.thinking, back.final_clock),
            (game.longest_move, game.thinking, game.final_clock)
        );
        for reason in [
            Forfeit::Late,
            Forfeit::IllegalMove(String::new()),
            Forfeit::Hung,
        ] {
            let mut g = GameResult::new(0, 0);
            g.forfeit(1, reason.clone());
            assert_eq!(
                parse_game(&game_line(&g)).unwrap().forfeit,
                Some((1, reason))
            );
        }
        assert!(
            parse_game("game 1 2 0 0 0 0 0 - - - - -").is_none(),
            "black must be 0 or 1"
        );
        assert!(parse_game("game 1 0 0 0 0 0 0 - - - - - B64/0").is_none());
        assert!(parse_game("game 1 0 0 0 0 0 0 - - - - - B63/0").is_some());
    }
}
