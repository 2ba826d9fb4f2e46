//! Iterative-deepening PVS (NegaScout) over the midgame, with aspiration windows, a
//! transposition table and multi-line analysis at the root. When the remaining empties are
//! few enough, the last iteration is an exact (or win/loss/draw) solve by [`crate::endgame`].

use crate::board::{flips, Board, Squares};
use crate::endgame::{endgame_levels, EXACT_LEVEL};
use crate::eval::{evaluate, DISC};
use crate::tt::{TranspositionTable, NO_MOVE};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Bound above any score.
pub const INFINITY: i32 = 65 * DISC;

/// The best score there is (a wipe-out); the root's window never reaches past it, so that a
/// move proven to get it ends the search of the others.
const MAX_SCORE: i32 = 64 * DISC;

/// A midgame iteration this deep orders the root of an endgame solve as well as deeper ones
/// would; the endgame's selective passes do the rest.
const ENDGAME_ORDER_DEPTH: u32 = 12;

/// The most empties for which a solve starts after that depth: FFO #59's 34 take a second
/// here, while bigger positions are better served by deeper midgame iterations first.
const EARLY_SOLVE_EMPTIES: u32 = 34;

/// How far past a node limit a search may go: the nodes of one last-empties solve, which
/// counts without looking at the limit.
pub const NODE_LIMIT_SLACK: u64 = 2_000;

/// Nodes between two looks at the stop flag and the clock.
const POLL_INTERVAL: u64 = 4096;

/// What a search may spend, and what it is asked for.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest midgame iteration.
    pub depth: Option<u32>,
    /// Nodes at most: checked at every node but those of the last empties' solver and the
    /// children scored for ordering, so a search may end up to [`NODE_LIMIT_SLACK`] past it.
    pub nodes: Option<u64>,
    /// Do not start an iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Stop at once after this much time.
    pub hard_time: Option<Duration>,
    /// The endgame solve only tells win, draw or loss.
    pub wld: bool,
    /// How many best lines to report.
    pub lines: usize,
    /// The most empties an exact solve may be tried at before the midgame search reaches the
    /// end by itself (a time budget's guess of what can finish).
    pub exact_empties: Option<u32>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            soft_time: None,
            hard_time: None,
            wld: false,
            lines: 1,
            exact_empties: None,
        }
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

    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)
    }
}

/// Per-search state: counters, the stop conditions and the table.
pub struct Searcher<'a> {
    pub(crate) tt: &'a mut TranspositionTable,
    stop: &'a AtomicBool,
    pub(crate) nodes: u64,
    next_poll: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    pub(crate) stopped: bool,
    /// Selectivity of the endgame search under way: ProbCut below `EXACT_LEVEL`.
    pub(crate) level: u8,
    /// A root move proven better than the previous best in the iteration under way, kept in
    /// case the iteration is stopped before it ends.
    improvement: Option<RootMove>,
}

#[derive(Copy, Clone)]
struct RootMove {
    sq: u32,
    score: i32,
}

impl<'a> Searcher<'a> {
    pub fn new(tt: &'a mut TranspositionTable, stop: &'a AtomicBool) -> Searcher<'a> {
        Searcher {
            tt,
            stop,
            nodes: 0,
            next_poll: POLL_INTERVAL,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            level: EXACT_LEVEL,
            improvement: None,
        }
    }

    /// Counts a node; every few thousand nodes (and at the node limit) checks whether to stop.
    #[inline(always)]
    pub(crate) fn visit(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
    }

    #[cold]
    fn poll(&mut self) {
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        if self.nodes >= self.node_limit || late || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.next_poll = (self.nodes + POLL_INTERVAL).min(self.node_limit);
    }

    /// Iterative deepening from `board`, calling `progress` after every finished iteration.
    pub fn run(
        &mut self,
        board: &Board,
        limits: &Limits,
        mut progress: impl FnMut(&Report),
    ) -> Report {
        let start = Instant::now();
        self.tt.new_search();
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.next_poll = POLL_INTERVAL.min(self.node_limit);
        self.deadline = limits.hard_time.map(|t| start + t);
        self.stopped = false;

        let mut root = self.ordered_root_moves(board);
        let empties = board.empty_count();
        // Before the first iteration ends, the best-ordered move is the answer.
        let mut report = Report {
            depth: 0,
            exact: false,
            wld: false,
            lines: root
                .iter()
                .take(1)
                .map(|m| Line {
                    pv: vec![m.sq],
                    score: 0,
                })
                .collect(),
            score: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if root.is_empty() {
            return self.report_without_moves(board, limits, start);
        }
        let lines = limits.lines.clamp(1, root.len());
        let max_depth = limits.depth.unwrap_or(u32::MAX).max(1);
        // The deepest midgame iteration finished; an exact solve follows once the empties are
        // at most twice that depth, or that depth orders the endgame's first moves well enough
        // (or the next iteration would reach the end anyway).
        let mut completed = 0;
        loop {
            let solvable = limits.exact_empties.is_none_or(|e| empties <= e);
            // Without a fixed depth, a solve small enough to finish here starts once the
            // midgame has ordered its first moves.
            let early = limits.depth.is_none()
                && completed >= ENDGAME_ORDER_DEPTH
                && empties <= EARLY_SOLVE_EMPTIES;
            let ordered = empties <= 2 * completed || early;
            let exact = completed + 1 >= empties || (ordered && solvable);
            if !exact && completed >= max_depth {
                break;
            }
            self.improvement = None;
            let score = if exact {
                self.root_endgame(board, &mut root, lines, limits.wld, report.score)
            } else {
                let depth = completed as i32 + 1;
                // The first iterations' scores swing too much to aim a window with.
                let guess = (depth > 2).then_some(report.score);
                self.root_aspiration(board, &mut root, lines, guess, |s, b, a, be| {
                    s.pvs(b, depth - 1, a, be)
                })
            };
            if self.stopped {
                // A move that beat the old best in the unfinished iteration is the better bet.
                if let Some(m) = self.improvement.filter(|_| report.depth > 0) {
                    report.lines = vec![self.line(board, &m)];
                    report.score = m.score;
                }
                break;
            }
            report = Report {
                depth: if exact { empties } else { completed + 1 },
                exact,
                wld: exact && limits.wld,
                lines: root[..lines].iter().map(|m| self.line(board, m)).collect(),
                score,
                nodes: self.nodes,
                elapsed: start.elapsed(),
            };
            progress(&report);
            let out_of_time = limits.soft_time.is_some_and(|t| start.elapsed() >= t);
            if exact || out_of_time {
                break;
            }
            completed += 1;
        }
        report.nodes = self.nodes;
        report.elapsed = start.elapsed();
        report
    }

    /// The side to move has no move: report the game's end or the value after its pass.
    fn report_without_moves(&mut self, board: &Board, limits: &Limits, start: Instant) -> Report {
        let passed = board.pass();
        let inner = if passed.moves() == 0 {
            Report {
                depth: 0,
                exact: true,
                wld: false,
                lines: Vec::new(),
                score: passed.final_score() * DISC,
                nodes: 0,
                elapsed: Duration::ZERO,
            }
        } else {
            self.run(&passed, limits, |_| {})
        };
        Report {
            lines: Vec::new(),
            score: -inner.score,
            nodes: self.nodes,
            elapsed: start.elapsed(),
            ..inner
        }
    }

    /// The root moves ordered by a static look: corners first, then fewest replies.
    fn ordered_root_moves(&self, board: &Board) -> Vec<RootMove> {
        let mut moves: Vec<RootMove> = Squares(board.moves())
            .map(|sq| {
                let child = board.apply(sq, flips(board.player, board.opponent, sq));
                RootMove {
                    sq,
                    score: -evaluate(&child),
                }
            })
            .collect();
        moves.sort_by_key(|m| -m.score);
        moves
    }

    /// The principal variation of a root move, read from the table.
    fn line(&self, board: &Board, m: &RootMove) -> Line {
        let mut pv = vec![m.sq];
        let mut b = board.apply(m.sq, flips(board.player, board.opponent, m.sq));
        while pv.len() < 64 {
            if b.moves() == 0 {
                if b.opponent_moves() == 0 {
                    break;
                }
                b = b.pass();
            }
            let Some(best) = self.tt.probe(&b).map(|p| u32::from(p.best)) else {
                break;
            };
            let Some(next) = b.play(best) else { break };
            pv.push(best);
            b = next;
        }
        Line { pv, score: m.score }
    }

    /// One iteration with an aspiration window around `guess` (a full window without one, or
    /// when several lines are wanted), widened until the score falls inside.
    fn root_aspiration(
        &mut self,
        board: &Board,
        root: &mut [RootMove],
        lines: usize,
        guess: Option<i32>,
        mut child: impl FnMut(&mut Self, &Board, i32, i32) -> i32,
    ) -> i32 {
        let Some(guess) = guess.filter(|_| lines == 1) else {
            return self.root_search(board, root, lines, -MAX_SCORE, MAX_SCORE, child);
        };
        let mut delta = DISC;
        let (mut alpha, mut beta) = (
            (guess - delta).max(-MAX_SCORE),
            (guess + delta).min(MAX_SCORE),
        );
        loop {
            let score = self.root_search(board, root, lines, alpha, beta, &mut child);
            log::debug!(
                "aspiration ({alpha}, {beta}): {score}, {} nodes",
                self.nodes
            );
            // A bound at the end of the score range is as good as exact.
            let failed_low = score <= alpha && alpha > -MAX_SCORE;
            let failed_high = score >= beta && beta < MAX_SCORE;
            if self.stopped || !(failed_low || failed_high) {
                return score;
            }
            delta *= 3;
            if failed_low {
                alpha = (score - delta).max(-MAX_SCORE);
            } else {
                beta = (score + delta).min(MAX_SCORE);
            }
        }
    }

    /// The exact score of the root by windows that each hold one even disc score: final
    /// scores are even (the empties go to the winner), so (s - 1, s + 1) either proves s or
    /// fails with a bound that aims the next window. Each search is as cheap as a null-window
    /// one, where a wider window would search every line inside it as a principal one.
    fn root_even_probes(
        &mut self,
        board: &Board,
        root: &mut [RootMove],
        guess: i32,
        mut child: impl FnMut(&mut Self, &Board, i32, i32) -> i32,
    ) -> i32 {
        // The even disc score nearest the guess, and the bounds proven so far.
        let mut target = 2 * (guess as f64 / (2 * DISC) as f64).round() as i32;
        let (mut low, mut high) = (-64, 64);
        loop {
            target = target.clamp(low, high);
            let (alpha, beta) = ((target - 1) * DISC, ((target + 1) * DISC).min(MAX_SCORE));
            let score = self.root_search(board, root, 1, alpha, beta, &mut child);
            log::debug!("probe {target}: {score}, {} nodes", self.nodes);
            if self.stopped || (alpha < score && score < beta) {
                return score;
            }
            // A fail-soft bound beyond the window is where the next one goes. Selective
            // searches may contradict themselves: once the bounds meet, the last score stands.
            let found = score.div_euclid(DISC);
            if score >= beta {
                low = found.max(target + 1);
                target = low + low.rem_euclid(2);
            } else {
                high = found.min(target - 1);
                target = high - high.rem_euclid(2);
            }
            if low >= high {
                return score;
            }
        }
    }

    /// Searches every root move, the first `lines` with an open window and the rest with a null
    /// window against the worst of the lines kept, then sorts them. `child` searches the
    /// position after a root move with a window, from that position's side.
    fn root_search(
        &mut self,
        board: &Board,
        root: &mut [RootMove],
        lines: usize,
        alpha: i32,
        beta: i32,
        mut child: impl FnMut(&mut Self, &Board, i32, i32) -> i32,
    ) -> i32 {
        let mut kept: Vec<i32> = Vec::with_capacity(lines);
        let mut cut = false;
        for (i, m) in root.iter_mut().enumerate() {
            if cut {
                // Not searched after a fail-high: below every searched move.
                m.score = -INFINITY;
                continue;
            }
            let next = board.apply(m.sq, flips(board.player, board.opponent, m.sq));
            // The worst score among the lines kept so far is what a new move has to beat.
            let floor = if kept.len() < lines {
                alpha
            } else {
                alpha.max(kept[lines - 1])
            };
            let score = if i < lines {
                -child(self, &next, -beta, -floor)
            } else {
                let probe = -child(self, &next, -floor - 1, -floor);
                if probe > floor && probe < beta && !self.stopped {
                    -child(self, &next, -beta, -floor)
                } else {
                    probe
                }
            };
            if self.stopped {
                return kept.first().copied().unwrap_or(alpha);
            }
            if lines == 1 && i > 0 && score > floor {
                self.improvement = Some(RootMove { sq: m.sq, score });
            }
            m.score = score;
            kept.push(score);
            kept.sort_unstable_by(|a, b| b.cmp(a));
            cut = kept[0] >= beta;
        }
        // A stable sort keeps the earlier (better-ordered) move first among equal scores.
        root.sort_by_key(|m| -m.score);
        kept[0]
    }

    /// Principal-variation node of the midgame search (open window).
    pub(crate) fn pvs(&mut self, b: &Board, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.visit();
        if self.stopped {
            return 0;
        }
        let empties = b.empty_count() as i32;
        if depth >= empties {
            return self.solve_in_midgame(b, alpha, beta);
        }
        if depth <= 0 {
            return evaluate(b).clamp(-MAX_SCORE, MAX_SCORE);
        }
        let moves = b.moves();
        if moves == 0 {
            return self.pass_or_end(b, |s, p| -s.pvs(p, depth, -beta, -alpha));
        }
        let hash_move = self.tt.probe(b).map_or(NO_MOVE, |p| p.best);
        let mut list = self.midgame_moves(b, moves, hash_move, depth);
        let Some((best, best_sq)) = self.principal_variation(
            b,
            &mut list,
            (alpha, beta),
            |s, child, a, be| -s.pvs(child, depth - 1, -be, -a),
            |s, child, a| -s.nws(child, depth - 1, -a - 1),
        ) else {
            return 0;
        };
        self.tt.store(b, depth as u8, alpha, beta, best, best_sq);
        best
    }

    /// The move loop of a PV node (NegaScout): the first move with the open window, the others
    /// with a null window, searched again with the open window when they beat alpha.
    /// `open(child, alpha, beta)` and `null(child, alpha)` return scores from this node's side.
    /// Returns the best score and move, or `None` when the search was stopped.
    pub(crate) fn principal_variation(
        &mut self,
        b: &Board,
        list: &mut MoveList,
        (mut alpha, beta): (i32, i32),
        mut open: impl FnMut(&mut Self, &Board, i32, i32) -> i32,
        mut null: impl FnMut(&mut Self, &Board, i32) -> i32,
    ) -> Option<(i32, u8)> {
        let (mut best, mut best_sq) = (-INFINITY, NO_MOVE);
        let mut first = true;
        while let Some((sq, f)) = list.next_best() {
            let child = b.apply(sq, f);
            let score = if first {
                open(self, &child, alpha, beta)
            } else {
                let s = null(self, &child, alpha);
                if s > alpha && s < beta && !self.stopped {
                    open(self, &child, alpha, beta)
                } else {
                    s
                }
            };
            first = false;
            if self.stopped {
                return None;
            }
            if score > best {
                best = score;
                best_sq = sq as u8;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        Some((best, best_sq))
    }

    /// Null-window node of the midgame search: is the score above `alpha`?
    pub(crate) fn nws(&mut self, b: &Board, depth: i32, alpha: i32) -> i32 {
        self.visit();
        if self.stopped {
            return 0;
        }
        let empties = b.empty_count() as i32;
        if depth >= empties {
            return self.solve_in_midgame(b, alpha, alpha + 1);
        }
        if depth <= 0 {
            return evaluate(b).clamp(-MAX_SCORE, MAX_SCORE);
        }
        let moves = b.moves();
        if moves == 0 {
            return self.pass_or_end(b, |s, p| -s.nws(p, depth, -alpha - 1));
        }
        let mut hash_move = NO_MOVE;
        if let Some(p) = self.tt.probe(b) {
            if i32::from(p.depth) >= depth {
                if p.lower > alpha {
                    return p.lower;
                }
                if p.upper <= alpha {
                    return p.upper;
                }
            }
            hash_move = p.best;
        }
        let mut list = self.midgame_moves(b, moves, hash_move, depth);
        let (mut best, mut best_sq) = (-INFINITY, NO_MOVE);
        while let Some((sq, f)) = list.next_best() {
            let score = -self.nws(&b.apply(sq, f), depth - 1, -alpha - 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_sq = sq as u8;
                if score > alpha {
                    break;
                }
            }
        }
        self.tt
            .store(b, depth as u8, alpha, alpha + 1, best, best_sq);
        best
    }

    /// A node whose side to move cannot play: the game is over, or the turn passes at no depth.
    #[inline]
    pub(crate) fn pass_or_end(
        &mut self,
        b: &Board,
        search_passed: impl FnOnce(&mut Self, &Board) -> i32,
    ) -> i32 {
        let passed = b.pass();
        if passed.moves() == 0 {
            b.final_score() * DISC
        } else {
            search_passed(self, &passed)
        }
    }

    /// An exact endgame search called from the midgame tree, with the window in centi-discs.
    fn solve_in_midgame(&mut self, b: &Board, alpha: i32, beta: i32) -> i32 {
        let (a, be) = disc_window(alpha, beta);
        self.solve(b, a, be) * DISC
    }

    /// The final iteration: every root move solved to the end, after selective passes that
    /// leave a better move order behind; each pass aims its window at the last one's score.
    fn root_endgame(
        &mut self,
        board: &Board,
        root: &mut [RootMove],
        lines: usize,
        wld: bool,
        guess: i32,
    ) -> i32 {
        let solve = |s: &mut Self, b: &Board, a, be| {
            let (a, be) = disc_window(a, be);
            s.solve(b, a, be) * DISC
        };
        let mut score = guess;
        for level in endgame_levels(board) {
            self.level = level;
            score = if wld {
                self.root_search(board, root, lines, -DISC, DISC, solve)
            } else if lines == 1 {
                self.root_even_probes(board, root, score, solve)
            } else {
                self.root_aspiration(board, root, lines, Some(score), solve)
            };
            if self.stopped {
                break;
            }
            log::debug!("endgame level {level}: score {score}, {} nodes", self.nodes);
        }
        self.level = EXACT_LEVEL;
        score
    }
}

impl Searcher<'_> {
    /// Midgame move ordering: hash move first; from depth 2 on, by the evaluation after the
    /// move (a one-ply search, each child counted as a node); at depth 1 the leaves are cheap
    /// and order matters less.
    fn midgame_moves(&mut self, b: &Board, moves: u64, hash_move: u8, depth: i32) -> MoveList {
        let list = MoveList::new(b, moves, |sq, child| {
            if sq as u8 == hash_move {
                i32::MAX
            } else if depth >= 2 {
                -evaluate(child)
            } else {
                0
            }
        });
        if depth >= 2 {
            self.count_scored(&list);
        }
        list
    }

    /// Counts the children of a list scored for move ordering as nodes, as Edax counts them.
    #[inline]
    pub(crate) fn count_scored(&mut self, list: &MoveList) {
        self.nodes += list.len() as u64;
    }
}

/// The disc window that holds a centi-disc window: exact disc scores outside it stay outside.
fn disc_window(alpha: i32, beta: i32) -> (i32, i32) {
    let a = alpha.div_euclid(DISC).clamp(-64, 63);
    let b = (-(-beta).div_euclid(DISC)).clamp(a + 1, 64);
    (a, b)
}

/// The legal moves of a node with sort keys, handed out best first (a selection sort, which
/// costs little when an early move cuts off).
pub(crate) struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

/// The most legal moves an Othello position has is 33.
const MAX_MOVES: usize = 34;

/// A move of a [`MoveList`]: 16 bytes, so that a list stays small to build.
#[derive(Copy, Clone, Default)]
struct Move {
    flips: u64,
    key: i32,
    sq: u8,
}

impl MoveList {
    /// The moves of `b` in `moves`, each keyed by `key(square, board after the move)`.
    #[inline]
    pub(crate) fn new(b: &Board, moves: u64, key: impl FnMut(u32, &Board) -> i32) -> MoveList {
        let mut list = MoveList::unkeyed(b, moves);
        list.key(b, key);
        list
    }

    /// The moves of `b` in `moves` with their flips, all keyed alike until `key` is called.
    #[inline]
    pub(crate) fn unkeyed(b: &Board, moves: u64) -> MoveList {
        let mut list = MoveList {
            moves: [Move::default(); MAX_MOVES],
            len: 0,
        };
        for sq in Squares(moves) {
            list.moves[list.len] = Move {
                flips: flips(b.player, b.opponent, sq),
                key: 0,
                sq: sq as u8,
            };
            list.len += 1;
        }
        list
    }

    /// How many moves are left in the list.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Keys every move by `key(square, board after the move)`.
    #[inline]
    pub(crate) fn key(&mut self, b: &Board, mut key: impl FnMut(u32, &Board) -> i32) {
        for m in &mut self.moves[..self.len] {
            m.key = key(u32::from(m.sq), &b.apply(u32::from(m.sq), m.flips));
        }
    }

    /// The boards after each move, in list order.
    #[inline]
    pub(crate) fn children<'a>(&'a self, b: &'a Board) -> impl Iterator<Item = Board> + 'a {
        self.moves[..self.len]
            .iter()
            .map(move |m| b.apply(u32::from(m.sq), m.flips))
    }

    #[inline]
    pub(crate) fn next_best(&mut self) -> Option<(u32, u64)> {
        if self.len == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..self.len {
            if self.moves[i].key > self.moves[best].key {
                best = i;
            }
        }
        let m = self.moves[best];
        self.len -= 1;
        self.moves[best] = self.moves[self.len];
        Some((u32::from(m.sq), m.flips))
    }
}
