//! The search: iterative-deepening PVS over the midgame, an exact (or win/loss/draw) solver
//! for the endgame, and the root that drives both and reports.
//!
//! Its modules, each depending only on those before it:
//!
//! 1. [`level`]: the playing levels' table; `limits`: what a search is asked for ([`Limits`]) and what it answers ([`Report`]);
//! 2. `movelist`: the moves of a node with their flips and sort keys;
//! 3. `parallel`: split points and the pool of idle threads (Young Brothers Wait), generic
//!    over the kind of node a split point holds;
//! 4. `node`: one thread's search state (`Searcher`) and the NegaScout move loop that every
//!    node runs, which shares a node's younger moves with idle threads; a node's kind
//!    (`NodeKind`) tells the loop how to search its children;
//! 5. `midgame`: PVS and null-window nodes on the evaluation, of kind `Midgame`;
//! 6. [`endgame`]: the exact solver (`last`: its last empties; `levels`: its selectivity
//!    levels), of kind `Exact`;
//! 7. `root`: iterative deepening, aspiration windows, multi-line analysis, the final solve;
//! 8. this file: [`search`], which starts the threads.
//!
//! The calls (`=>`: through `NodeKind`, to a module that depends on `node`):
//!
//! ```text
//! search           -> root::run           (helper threads: node::serve -> work_at)
//! root::run        -> midgame::pvs        a midgame iteration
//!                  -> endgame::solve      the final solve, at each selectivity level
//! midgame::pvs/nws -> node::search_moves  the move loop of a Midgame node
//! endgame::solve   -> node::search_moves  the move loop of an Exact node
//!                  -> midgame::pvs/nws    shallow searches: move ordering, ProbCut
//! node::move_loop  => Midgame::open/null  -> midgame::pvs/nws
//!                  => Exact::open/null    -> endgame::solve
//! ```
//!
//! The midgame never calls the endgame: it never reaches the end of the game by depth (see
//! `midgame`), and the root alone hands a position over to the solver.

pub mod endgame;
pub mod level;
mod limits;
mod midgame;
mod movelist;
mod node;
mod parallel;
pub mod probcut;
mod root;

pub use level::{DepthAt, Level, Plan, Selectivity};
pub use limits::{
    node_limit_slack, Deadlines, Kind, Limits, Line, Report, Running, Stage, Watch, MAX_CONTEMPT,
    NODE_LIMIT_SLACK,
};

use crate::engine::board::Board;
use crate::engine::tt::TranspositionTable;
use endgame::levels::EXACT_LEVEL;
use node::{Searcher, Shared};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Searches `board` on `limits.threads` threads sharing `tt`: the calling thread runs the
/// search it reports, with `progress` after each iteration; the others wait for nodes to share
/// (Young Brothers Wait, see `parallel`). A stop reaches them all at their next poll, and the
/// nodes reported are the sum over the threads.
pub fn search(
    tt: &TranspositionTable,
    stop: &AtomicBool,
    board: &Board,
    limits: &Limits,
    progress: impl FnMut(&Report),
) -> Report {
    let threads = limits.threads.max(1);
    let clock = limits.clock_start.unwrap_or_else(Instant::now);
    tt.new_search();
    let shared = Shared::new(tt, stop, (board, limits), clock);
    let mut report = std::thread::scope(|s| {
        for _ in 1..threads {
            let shared = &shared;
            s.spawn(move || Searcher::new(shared, EXACT_LEVEL).serve());
        }
        let report = Searcher::new(&shared, EXACT_LEVEL).run(board, limits, progress);
        shared.halt();
        report
    });
    report.nodes = shared.nodes();
    report
}
