//! What a search is asked for and what it answers: its [`Limits`], the node limit's slack, the
//! [`Report`] of each iteration with its [`Line`]s, and the [`Watch`] through which another
//! thread sees the [`Stage`] under way and the nodes so far ([`Running`]).

use super::level::{DepthAt, Level, Selectivity};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How far past a node limit a search on one thread may go: the nodes of one last-empties
/// solve, which counts without looking at the limit.
pub const NODE_LIMIT_SLACK: u64 = 2_000;

/// How far past a node limit a search on `threads` threads may go: each helper also searches
/// up to a poll interval before it adds its nodes to the count and sees the search end.
pub fn node_limit_slack(threads: usize) -> u64 {
    NODE_LIMIT_SLACK + (threads.max(1) as u64 - 1) * (POLL_INTERVAL + NODE_LIMIT_SLACK)
}

/// Nodes between two looks at the stop flag and the clock.
pub(crate) const POLL_INTERVAL: u64 = 4096;

/// What a search may spend, and what it is asked for.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest midgame iteration, solving exactly from twice that depth (a fixed depth, not a
    /// playing level: see `level`).
    pub depth: Option<u32>,
    /// The playing level: what it searches at the root's empties (see `search::level`);
    /// `depth` is then not read.
    pub level: Option<Level>,
    /// Nodes at most: checked at every node but those of the last empties' solver and the
    /// children scored for ordering, so a search may end up to [`node_limit_slack`] past it.
    pub nodes: Option<u64>,
    /// Do not start an iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Stop at once after this much time.
    pub hard_time: Option<Duration>,
    /// When the time limits started: the request's arrival, so that what the search waited for
    /// (a table being allocated or cleared by the search thread) is spent from them. `None`:
    /// when the search starts.
    pub clock_start: Option<Instant>,
    /// The time limits as the search reads them, which the caller may move while it runs (a
    /// ponder search gets its limits when the expected move is played). When given, they
    /// replace `soft_time` and `hard_time`.
    pub deadlines: Option<Arc<Deadlines>>,
    /// Where the search shows the stage under way and its node count to other threads.
    pub watch: Option<Arc<Watch>>,
    /// What a draw is worth to the side to move at the root, in centi-discs below 0: a
    /// positive contempt makes the search avoid draws. Within ±[`MAX_CONTEMPT`], so that a
    /// draw still ranks between a 2-disc loss and a 2-disc win (final scores are even).
    pub contempt: i32,
    /// The endgame solve only tells win, draw or loss.
    pub wld: bool,
    /// How many best lines to report.
    pub lines: usize,
    /// The most empties an exact solve may be tried at before the midgame search reaches the
    /// end by itself (a time budget's guess of what can finish).
    pub exact_empties: Option<u32>,
    /// Threads searching together; 1 is the deterministic search.
    pub threads: usize,
    /// Midgame iterations cut by Multi-ProbCut (see `search::probcut`); off, they search every
    /// node to its full depth (as the error model's fit needs).
    pub probcut: bool,
    /// Search only these root moves (a mask of squares), as UCI's `searchmoves`; `None`, or a
    /// mask with none of the legal moves, searches them all.
    pub root_moves: Option<u64>,
}

impl Limits {
    /// Whether the search plays by its time alone: no fixed depth, no level.
    pub fn by_clock(&self) -> bool {
        self.depth.is_none() && self.level.is_none()
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            level: None,
            nodes: None,
            soft_time: None,
            hard_time: None,
            clock_start: None,
            deadlines: None,
            watch: None,
            contempt: 0,
            wld: false,
            lines: 1,
            exact_empties: None,
            threads: 1,
            probcut: true,
            root_moves: None,
        }
    }
}

/// The widest contempt, in centi-discs: just under the 2 discs between a draw and the
/// nearest final score.
pub const MAX_CONTEMPT: i32 = 199;

/// A search's time limits, counted from its clock's start, read at every poll: one that
/// nobody set is never reached.
#[derive(Debug)]
pub struct Deadlines {
    /// No iteration starts after this many nanoseconds.
    soft: AtomicU64,
    /// Every thread stops at its next poll after this many nanoseconds.
    hard: AtomicU64,
}

/// Nanoseconds of `t`, `u64::MAX` (never) for none.
fn nanos(t: Option<Duration>) -> u64 {
    t.map_or(u64::MAX, |t| {
        u64::try_from(t.as_nanos()).unwrap_or(u64::MAX)
    })
}

impl Deadlines {
    pub fn new(soft: Option<Duration>, hard: Option<Duration>) -> Deadlines {
        Deadlines {
            soft: AtomicU64::new(nanos(soft)),
            hard: AtomicU64::new(nanos(hard)),
        }
    }

    /// Moves both limits (`None`: no limit).
    pub fn arm(&self, soft: Option<Duration>, hard: Option<Duration>) {
        self.soft.store(nanos(soft), Ordering::Relaxed);
        self.hard.store(nanos(hard), Ordering::Relaxed);
    }

    /// Whether `elapsed` is past the soft limit stretched by `stretch` (more than 1: later).
    /// Only a soft limit before the hard one stretches, as a game clock's plan sets them: a
    /// fixed time a move (`--move-time`, the two limits alike) has no later move to give what
    /// a settled search leaves, nor room to go past, so it is spent whole.
    pub(crate) fn past_soft(&self, elapsed: Duration, stretch: f64) -> bool {
        let soft = self.soft.load(Ordering::Relaxed);
        let elapsed = if soft < self.hard.load(Ordering::Relaxed) {
            elapsed.div_f64(stretch)
        } else {
            elapsed
        };
        nanos(Some(elapsed)) >= soft
    }

    /// Whether `elapsed` is past the hard limit.
    pub(crate) fn past_hard(&self, elapsed: Duration) -> bool {
        nanos(Some(elapsed)) >= self.hard.load(Ordering::Relaxed)
    }
}

/// One analysed line: its moves and score (centi-discs, side to move's view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub pv: Vec<u32>,
    pub score: i32,
}

/// What an iteration found, streamed while the search goes on, and the final result.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Midgame depth, or the number of empties for an endgame solve.
    pub depth: u32,
    /// How sure the search was: the midgame's ProbCut, or the endgame pass's.
    pub selectivity: Selectivity,
    /// The score is the exact final result (or its win/loss/draw sign if `wld`).
    pub exact: bool,
    pub wld: bool,
    /// Best lines first; empty when the side to move has no legal move.
    pub lines: Vec<Line>,
    /// Score of the best line, centi-discs.
    pub score: i32,
    /// Positions searched, and the children looked at to order their moves (Edax's count).
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Report {
    pub fn best_move(&self) -> Option<u32> {
        self.lines.first().and_then(|l| l.pv.first().copied())
    }

    /// The depth and selectivity, as the peers print them: `14@68%`, `24@100%`.
    pub fn depth_at(&self) -> DepthAt {
        DepthAt(self.depth, self.selectivity)
    }

    /// The stage this report finished: the midgame's selectivities are 68% (with
    /// Multi-ProbCut) or 100% (without), and only the endgame's are marked exact or wld.
    pub fn stage(&self) -> Stage {
        let midgame = !(self.exact || self.wld)
            && matches!(self.selectivity, Selectivity::P68 | Selectivity::Exact);
        Stage::new(self.depth_at(), !midgame, self.wld)
    }

    pub fn nodes_per_second(&self) -> f64 {
        speed(self.nodes, self.elapsed)
    }
}

/// Nodes per second.
fn speed(nodes: u64, elapsed: Duration) -> f64 {
    nodes as f64 / elapsed.as_secs_f64().max(1e-6)
}

/// What a stage of a search searches.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A midgame iteration, to a depth.
    Midgame,
    /// A selective endgame search, to the end.
    Endgame,
    /// The exact solve.
    Exact,
    /// A win/loss/draw solve.
    Wld,
}

impl Kind {
    /// The word the protocols and the log print.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Midgame => "midgame",
            Kind::Endgame => "endgame",
            Kind::Exact => "exact",
            Kind::Wld => "wld",
        }
    }
}

/// One stage of a search: a midgame iteration or an endgame pass, with its depth (the empties,
/// for the endgame) and selectivity as the level table names them: `16@68% midgame`,
/// `32@73% endgame`, `30@100% exact`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Stage {
    pub depth: DepthAt,
    pub kind: Kind,
}

impl Stage {
    /// The stage at `depth`: a midgame iteration unless `endgame`, a pass of a win/loss/draw
    /// solve if `wld`.
    pub fn new(depth: DepthAt, endgame: bool, wld: bool) -> Stage {
        let kind = match (endgame, wld, depth.1) {
            (false, _, _) => Kind::Midgame,
            (true, true, _) => Kind::Wld,
            (true, false, Selectivity::Exact) => Kind::Exact,
            (true, false, _) => Kind::Endgame,
        };
        Stage { depth, kind }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.depth, self.kind.name())
    }
}

/// What a running search is doing, as another thread sees it: the stage under way, its nodes
/// and the time since the search began.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct Running {
    pub stage: Stage,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Running {
    pub fn nodes_per_second(&self) -> f64 {
        speed(self.nodes, self.elapsed)
    }
}

/// A search's window for other threads: the node count every thread adds to (at each poll,
/// every few thousand nodes), when the search's clock started, and the stage the root entered
/// last. The root writes the stage once per iteration or endgame pass, so reading it costs
/// the search nothing.
#[derive(Debug, Default)]
pub struct Watch {
    pub(crate) nodes: AtomicU64,
    state: Mutex<WatchState>,
}

#[derive(Debug, Default)]
struct WatchState {
    start: Option<Instant>,
    stage: Option<Stage>,
}

impl Watch {
    /// Forgets the last search: no start, no stage, no nodes.
    pub fn reset(&self) {
        self.begin(None);
    }

    /// A search whose clock started at `start` begins: no stage yet, no nodes.
    pub(crate) fn begin(&self, start: Option<Instant>) {
        self.nodes.store(0, Ordering::Relaxed);
        *self.state() = WatchState { start, stage: None };
    }

    /// The root enters `stage`.
    pub(crate) fn enter(&self, stage: Stage) {
        self.state().stage = Some(stage);
    }

    fn state(&self) -> std::sync::MutexGuard<'_, WatchState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What the search is doing now; `None` before its first stage.
    pub fn running(&self) -> Option<Running> {
        let state = self.state();
        Some(Running {
            stage: state.stage?,
            nodes: self.nodes.load(Ordering::Relaxed),
            elapsed: state.start?.elapsed(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_soft_limit_before_the_hard_one_stretches() {
        let ms = Duration::from_millis;
        let clock = Deadlines::new(Some(ms(1000)), Some(ms(3000)));
        assert!(!clock.past_soft(ms(1500), 1.6));
        assert!(clock.past_soft(ms(1700), 1.6));
        assert!(clock.past_soft(ms(750), 0.7));
        let fixed = Deadlines::new(Some(ms(1000)), Some(ms(1000)));
        assert!(!fixed.past_soft(ms(750), 0.7));
        assert!(fixed.past_soft(ms(1000), 1.6));
    }
}
