//! The playing levels 1-60, the one table every taker of a level reads: for a level and a
//! number of empties, a midgame search of the level's depth or an endgame search at a stated
//! selectivity. Levels 1-10 solve exactly from twice their depth; from level 11 on the exact
//! solve starts at 20-30 empties and selective endgame stages come before it, as in Edax's
//! published table (the thresholds are Oxello's, measured with `scripts/levels.sh`).

use std::fmt;

/// How sure a search is: a ProbCut confidence, or exact. The endgame's selective passes cut at
/// `t` standard deviations of the shallow search's error (two-sided normal confidence).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Default, Hash)]
pub enum Selectivity {
    /// t = 1.0: the midgame's Multi-ProbCut (see `probcut::MIDGAME_MARGIN`).
    P68,
    P73,
    P87,
    P95,
    P98,
    P99,
    #[default]
    Exact,
}

impl Selectivity {
    /// The endgame's selectivities, least sure first: the order of its levels.
    pub const ENDGAME: [Selectivity; 6] = [
        Selectivity::P73,
        Selectivity::P87,
        Selectivity::P95,
        Selectivity::P98,
        Selectivity::P99,
        Selectivity::Exact,
    ];

    /// The ProbCut margin in tenths of a standard deviation; `None` when exact.
    pub fn t_tenths(self) -> Option<i32> {
        match self {
            Selectivity::P68 => Some(10),
            Selectivity::P73 => Some(11),
            Selectivity::P87 => Some(15),
            Selectivity::P95 => Some(20),
            Selectivity::P98 => Some(26),
            Selectivity::P99 => Some(33),
            Selectivity::Exact => None,
        }
    }

    /// The confidence in percent, as the peers print it.
    pub fn percent(self) -> u8 {
        match self {
            Selectivity::P68 => 68,
            Selectivity::P73 => 73,
            Selectivity::P87 => 87,
            Selectivity::P95 => 95,
            Selectivity::P98 => 98,
            Selectivity::P99 => 99,
            Selectivity::Exact => 100,
        }
    }

    /// The endgame level of this selectivity (its index in [`Selectivity::ENDGAME`]); the
    /// midgame's 68% is below every endgame pass.
    pub fn endgame_level(self) -> u8 {
        Selectivity::ENDGAME
            .iter()
            .position(|&s| s == self)
            .unwrap_or(0) as u8
    }
}

/// A depth with its selectivity, as the peers print it: `24@87%`, `24@100%`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct DepthAt(pub u32, pub Selectivity);

impl fmt::Display for DepthAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}%", self.0, self.1.percent())
    }
}

/// What a level searches at a number of empties.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Plan {
    /// Midgame iterations up to `depth` (with Multi-ProbCut), no solve before the end.
    Midgame { depth: u32 },
    /// An endgame search to the end at this selectivity.
    Endgame(Selectivity),
}

/// The most and fewest levels.
pub const MAX_LEVEL: u32 = 60;

/// A playing level, 1-60 (validated: see [`Level::parse`]).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Level(u32);

/// A level that is not one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LevelError(String);

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "level {:?}: expected a whole number from 0 (no level: play by the clock) to {MAX_LEVEL}",
            self.0
        )
    }
}

impl std::error::Error for LevelError {}

/// The endgame stages of a group of levels: the most empties searched at each endgame
/// selectivity or a surer one, in the order of [`Selectivity::ENDGAME`] reversed (exact,
/// 99%, 98%, 95%, 87%, 73%). Each is at least the one before.
type Reach = [u32; 6];

/// Levels 11 and up, by group: the first level of the group and its stages.
const GROUPS: [(u32, Reach); 5] = [
    (11, [20, 20, 22, 22, 24, 24]),
    (15, [21, 21, 23, 23, 25, 27]),
    (19, [22, 22, 24, 26, 28, 28]),
    (23, [23, 24, 26, 28, 30, 30]),
    (27, [24, 26, 28, 28, 30, 32]),
];

/// The first level whose stages follow Edax's formula (exact to level - 6, then a stage every
/// 3 empties: 99%, 98%, 95%, 87%, 73%).
const FORMULA_FROM: u32 = 31;

impl Level {
    /// The level `n`, if it is one (1-60).
    pub fn new(n: u32) -> Option<Level> {
        (1..=MAX_LEVEL).contains(&n).then_some(Level(n))
    }

    /// The level nearest to `n` (1-60), for constants.
    pub const fn nearest(n: u32) -> Level {
        if n < 1 {
            Level(1)
        } else if n > MAX_LEVEL {
            Level(MAX_LEVEL)
        } else {
            Level(n)
        }
    }

    /// Reads a level as every front end and option takes it: `0` is no level (play by the
    /// clock), `1`-`60` a level, anything else an error.
    pub fn parse(text: &str) -> Result<Option<Level>, LevelError> {
        match text.trim().parse::<u32>() {
            Ok(0) => Ok(None),
            Ok(n) => Level::new(n)
                .map(Some)
                .ok_or_else(|| LevelError(text.into())),
            Err(_) => Err(LevelError(text.into())),
        }
    }

    /// Reads a level that must be one (1-60): for a job that has no clock to play by.
    pub fn parse_some(text: &str) -> Result<Level, LevelError> {
        Level::parse(text)?.ok_or_else(|| LevelError(text.into()))
    }

    /// For clap: the number of a level, or 0 for none, validated as [`Level::parse`] does
    /// (read it back with [`Level::new`]).
    pub fn parse_arg(text: &str) -> Result<u32, String> {
        let level = Level::parse(text).map_err(|e| e.to_string())?;
        Ok(level.map_or(0, Level::value))
    }

    pub fn value(self) -> u32 {
        self.0
    }

    /// The midgame depth of the level.
    pub fn depth(self) -> u32 {
        self.0
    }

    /// The level's endgame stages (see [`Reach`]).
    fn reach(self) -> Reach {
        let l = self.0;
        match l {
            MAX_LEVEL => [MAX_LEVEL; 6],
            1..=10 => [2 * l; 6],
            FORMULA_FROM.. => [l - 6, l - 3, l, l + 3, l + 6, l + 9].map(|e| e.min(MAX_LEVEL)),
            _ => {
                let group = GROUPS.iter().rev().find(|(first, _)| *first <= l);
                group.map_or([2 * l; 6], |g| g.1)
            }
        }
    }

    /// What the level searches at `empties` empties.
    pub fn plan(self, empties: u32) -> Plan {
        let reach = self.reach();
        let surest = Selectivity::ENDGAME
            .iter()
            .rev()
            .zip(reach)
            .find(|&(_, r)| empties <= r);
        match surest {
            Some((&sel, _)) => Plan::Endgame(sel),
            None => Plan::Midgame {
                depth: self.depth(),
            },
        }
    }

    /// The most empties the level solves exactly.
    pub fn exact_empties(self) -> u32 {
        self.reach()[0]
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One line of the level table: the level, its midgame depth and its endgame stages, widest
/// first, e.g. `20  midgame 20@68%  28-27@87%  26-25@95%  24-23@98%  22-1@100%`.
pub fn table_line(level: Level) -> String {
    let mut stages: Vec<(u32, u32, Selectivity)> = Vec::new();
    for e in (1..=MAX_LEVEL).rev() {
        let Plan::Endgame(sel) = level.plan(e) else {
            continue;
        };
        match stages.last_mut() {
            Some((_, low, s)) if *s == sel => *low = e,
            _ => stages.push((e, e, sel)),
        }
    }
    let mut line = format!(
        "{:2}  midgame {}",
        level.0,
        DepthAt(level.depth(), Selectivity::P68)
    );
    for (high, low, sel) in stages {
        line.push_str(&format!("  {high}-{low}@{}%", sel.percent()));
    }
    line
}

/// The whole table, one line per level, with a header.
pub fn table() -> String {
    let mut text = String::from(
        "level  midgame depth@selectivity  endgame stages: empties high-low@selectivity\n",
    );
    for l in (1..=MAX_LEVEL).filter_map(Level::new) {
        text.push_str(&table_line(l));
        text.push('\n');
    }
    text
}
