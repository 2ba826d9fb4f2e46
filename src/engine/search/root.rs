//! The root of a search: iterative deepening with aspiration windows, multi-line analysis,
//! the final exact solve by windows that each hold one even score, and the reports. Each
//! iteration is either a midgame search or an endgame solve: this is the one place where the
//! search hands over from the midgame to the endgame. Under a clock, whether the midgame
//! iterations agree on a best move moves the time after which no iteration starts.

use super::endgame::levels::{endgame_levels, midgame_level, EXACT_LEVEL};
use super::level::{DepthAt, Plan, Selectivity};
use super::limits::{Limits, Line, Report, Stage};
use super::node::{Searcher, INFINITY, MAX_SCORE};
use crate::engine::board::{flips, Board, Squares};
use crate::engine::eval::{evaluate, DISC};
use std::time::{Duration, Instant};

/// A midgame iteration this deep orders the root of an endgame solve as well as deeper ones
/// would; the endgame's selective passes do the rest.
const ENDGAME_ORDER_DEPTH: u32 = 12;

/// The most empties for which a solve starts after that depth: FFO #59's 34 take a second
/// here, while bigger positions are better served by deeper midgame iterations first.
const EARLY_SOLVE_EMPTIES: u32 = 34;

/// Under a clock, a selective endgame search reaches further than the exact solve the time
/// allows: by this many empties at each selectivity, surest first (each stage costs about
/// what an exact solve of that many fewer empties costs; docs/levels.md).
const STAGE_REACH: [(Selectivity, u32); 4] = [
    (Selectivity::P98, 1),
    (Selectivity::P95, 2),
    (Selectivity::P87, 3),
    (Selectivity::P73, 4),
];

/// How much later than planned the next iteration may start when the last one changed the best
/// move: the search has not settled, and a deeper look is worth more of the clock...
const UNSETTLED_STRETCH: f64 = 1.6;
/// ...and how much earlier when the best move has come out of this many iterations in a row
/// unchanged: its time is better spent on later moves.
const SETTLED_ITERATIONS: u32 = 4;
const SETTLED_STRETCH: f64 = 0.7;
/// An iteration whose score fell this far below the last one of its parity has not settled
/// either, whatever its move: the best line met trouble that a deeper look may avoid.
const SCORE_DROP: i32 = 2 * DISC;

/// Whether the midgame iterations have settled, on a best move and on its score: the soft
/// deadline stretches with the answer (see [`UNSETTLED_STRETCH`]).
struct Settling {
    best: Option<u32>,
    /// Iterations in a row that ended on `best`, the first included.
    unchanged: u32,
    /// The scores of the last three iterations, the latest last. The evaluation's value
    /// bounces between odd and even depths, so a score is compared with the one two
    /// iterations before, and the next iteration's window is aimed at the last of its parity.
    scores: [Option<i32>; 3],
}

impl Settling {
    /// Before the first iteration, the best-ordered move counts as the answer of one.
    fn new(first: Option<u32>) -> Settling {
        Settling {
            best: first,
            unchanged: 1,
            scores: [None; 3],
        }
    }

    /// An iteration ended on `best` with `score`.
    fn record(&mut self, best: Option<u32>, score: i32) {
        self.scores = [self.scores[1], self.scores[2], Some(score)];
        if best == self.best {
            self.unchanged += 1;
        } else {
            self.best = best;
            self.unchanged = 1;
        }
    }

    /// The score of the last iteration of the next one's parity.
    fn same_parity_score(&self) -> Option<i32> {
        self.scores[1]
    }

    /// Whether the last iteration's score fell by [`SCORE_DROP`] below the last of its parity.
    fn dropped(&self) -> bool {
        matches!(self.scores, [Some(before), _, Some(last)] if last <= before - SCORE_DROP)
    }

    /// The soft deadline's stretch after the iterations recorded so far.
    fn stretch(&self) -> f64 {
        match self.unchanged {
            n if n == 1 || self.dropped() => UNSETTLED_STRETCH,
            n if n >= SETTLED_ITERATIONS => SETTLED_STRETCH,
            _ => 1.0,
        }
    }
}

/// A root move and its score in the last search of it.
#[derive(Copy, Clone)]
struct RootMove {
    sq: u32,
    score: i32,
}

/// The root's moves, best-ordered first, and a move proven better than the previous best in
/// the iteration under way, kept in case the iteration is stopped before it ends.
struct RootMoves {
    moves: Vec<RootMove>,
    improvement: Option<RootMove>,
}

/// Whether a search that has finished `depth` midgame plies has ordered a position of
/// `empties` well enough for its solve: at twice that depth (Edax's levels 1-10).
fn ordered_for_solve(depth: u32, empties: u32) -> bool {
    empties <= 2 * depth
}

/// Under a clock that cannot afford the exact solve at `empties`, the surest selective endgame
/// search it can afford, if any.
fn affordable_stage(limits: &Limits, empties: u32) -> Option<Selectivity> {
    let exact = limits.exact_empties.filter(|_| limits.by_clock())?;
    STAGE_REACH
        .iter()
        .find(|&&(_, more)| empties <= exact + more)
        .map(|&(sel, _)| sel)
}

/// The endgame selectivity after `sel`, one step surer.
fn surer(sel: Selectivity) -> Selectivity {
    let next = sel.endgame_level() as usize + 1;
    Selectivity::ENDGAME[next.min(Selectivity::ENDGAME.len() - 1)]
}

/// What a search of `limits` does at `empties`: the deepest midgame iteration, whether a solve
/// may come before the midgame reaches the end, and the solve's selectivity.
fn root_plan(limits: &Limits, empties: u32) -> (u32, bool, Selectivity) {
    let timed_solve = limits.exact_empties.is_none_or(|e| empties <= e);
    match limits.level.map(|l| l.plan(empties)) {
        Some(Plan::Midgame { depth }) => (depth, false, Selectivity::Exact),
        Some(Plan::Endgame(sel)) => (u32::MAX, timed_solve, sel),
        None => (
            limits.depth.unwrap_or(u32::MAX).max(1),
            timed_solve,
            Selectivity::Exact,
        ),
    }
}

/// What an iteration of the root searches.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Iteration {
    /// The next midgame depth.
    Midgame,
    /// The solve that ends the search, at this selectivity.
    Solve(Selectivity),
    /// A selective endgame stage of a clock that cannot afford the exact solve yet.
    Stage(Selectivity),
}

/// The iteration after `completed` midgame plies and the stage `staged` (the last selective
/// stage searched, if any), or `None` when the search is over. A solve follows once the
/// empties are at most twice the depth done, or that depth orders the endgame's first moves
/// well enough (or the next iteration would reach the end anyway).
fn next_iteration(
    limits: &Limits,
    empties: u32,
    completed: u32,
    staged: Option<Selectivity>,
) -> Option<Iteration> {
    if let Some(last) = staged {
        return Some(Iteration::Stage(surer(last)));
    }
    let (max_depth, solvable, target) = root_plan(limits, empties);
    // Without a fixed depth or level, a solve small enough to finish here starts once the
    // midgame has ordered its first moves.
    let early =
        limits.by_clock() && completed >= ENDGAME_ORDER_DEPTH && empties <= EARLY_SOLVE_EMPTIES;
    let ordered = ordered_for_solve(completed, empties) || early;
    if completed + 1 >= empties {
        // The midgame reaching the end by itself is a solve: an exact one.
        Some(Iteration::Solve(Selectivity::Exact))
    } else if ordered && solvable {
        Some(Iteration::Solve(target))
    } else if let Some(sel) = ordered.then(|| affordable_stage(limits, empties)).flatten() {
        Some(Iteration::Stage(sel))
    } else {
        (completed < max_depth).then_some(Iteration::Midgame)
    }
}

impl Searcher<'_> {
    /// Iterative deepening from `board`, calling `progress` after every finished iteration.
    pub(crate) fn run(
        &mut self,
        board: &Board,
        limits: &Limits,
        mut progress: impl FnMut(&Report),
    ) -> Report {
        let start = Instant::now();
        self.stopped = false;

        let mut root = RootMoves {
            moves: self.ordered_root_moves(board, limits.root_moves),
            improvement: None,
        };
        let empties = board.empty_count();
        // Before the first iteration ends, the best-ordered move is the answer.
        let mut report = Report {
            depth: 0,
            selectivity: Selectivity::P68,
            exact: false,
            wld: false,
            lines: root
                .moves
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
        if root.moves.is_empty() {
            return self.report_without_moves(board, limits, start);
        }
        let lines = limits.lines.clamp(1, root.moves.len());
        let midgame_sel = if limits.probcut {
            Selectivity::P68
        } else {
            Selectivity::Exact
        };
        // The deepest midgame iteration finished.
        let mut completed = 0;
        // Midgame iterations cut by Multi-ProbCut, or not; the final solve (always the last
        // iteration) sets its own levels.
        self.level = midgame_level(limits.probcut);
        // Under a clock: the selective endgame stage last searched, after which each
        // iteration is a surer stage, the exact solve last, as long as time allows.
        let mut staged: Option<Selectivity> = None;
        let mut settling = Settling::new(report.best_move());
        while let Some(next) = next_iteration(limits, empties, completed, staged) {
            let (exact, stage, sel) = match next {
                Iteration::Midgame => (false, false, midgame_sel),
                Iteration::Solve(sel) => (true, false, sel),
                Iteration::Stage(sel) => (true, true, sel),
            };
            root.improvement = None;
            let score = if exact {
                let passes = endgame_levels(empties, sel)
                    .into_iter()
                    .filter(|&l| staged.is_none_or(|last| l > last.endgame_level()));
                self.root_endgame(board, &mut root, lines, limits.wld, report.score, passes)
            } else {
                let depth = completed as i32 + 1;
                self.enter(Stage::new(
                    DepthAt(completed + 1, midgame_sel),
                    false,
                    false,
                ));
                // The first iterations' scores swing too much to aim a window with.
                let guess = settling.same_parity_score().filter(|_| depth > 2);
                self.root_aspiration(board, &mut root, lines, guess, |s, b, a, be| {
                    s.pvs(b, depth - 1, a, be)
                })
            };
            if self.stopped {
                // A move that beat the old best in the unfinished iteration is the better bet.
                if let Some(m) = root.improvement.filter(|_| report.depth > 0) {
                    report.lines = vec![self.line(board, &m)];
                    report.score = m.score;
                }
                break;
            }
            report = Report {
                depth: if exact { empties } else { completed + 1 },
                selectivity: sel,
                exact: exact && sel == Selectivity::Exact,
                wld: exact && limits.wld,
                lines: root.moves[..lines]
                    .iter()
                    .map(|m| self.line(board, m))
                    .collect(),
                score,
                nodes: self.total_nodes(),
                elapsed: start.elapsed(),
            };
            progress(&report);
            if stage && sel != Selectivity::Exact {
                staged = Some(sel);
            } else if exact {
                break;
            }
            let stretch = if exact {
                1.0
            } else {
                settling.record(report.best_move(), score);
                settling.stretch()
            };
            if self.past_soft_deadline(stretch) {
                break;
            }
            completed += 1;
        }
        self.flush();
        report.nodes = self.total_nodes();
        report.elapsed = start.elapsed();
        report
    }

    /// The side to move has no move: report the game's end or the value after its pass.
    fn report_without_moves(&mut self, board: &Board, limits: &Limits, start: Instant) -> Report {
        let outcome = if board.opponent_moves() == 0 {
            Report {
                depth: 0,
                selectivity: Selectivity::Exact,
                exact: true,
                wld: false,
                lines: Vec::new(),
                score: self.final_value(board),
                nodes: 0,
                elapsed: Duration::ZERO,
            }
        } else {
            let all = Limits {
                root_moves: None,
                ..limits.clone()
            };
            let inner = self.after_pass(board, |s, passed| s.run(passed, &all, |_| {}));
            Report {
                score: -inner.score,
                ..inner
            }
        };
        Report {
            lines: Vec::new(),
            nodes: self.total_nodes(),
            elapsed: start.elapsed(),
            ..outcome
        }
    }

    /// The root moves (those of `only` when it holds any) ordered by the evaluation of the
    /// position after each, best first.
    fn ordered_root_moves(&self, board: &Board, only: Option<u64>) -> Vec<RootMove> {
        let legal = board.moves();
        let chosen = only.map_or(legal, |mask| mask & legal);
        let mut moves: Vec<RootMove> = Squares(if chosen == 0 { legal } else { chosen })
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
        root: &mut RootMoves,
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
        root: &mut RootMoves,
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
        root: &mut RootMoves,
        lines: usize,
        alpha: i32,
        beta: i32,
        mut child: impl FnMut(&mut Self, &Board, i32, i32) -> i32,
    ) -> i32 {
        let mut kept: Vec<i32> = Vec::with_capacity(lines);
        let mut cut = false;
        for (i, m) in root.moves.iter_mut().enumerate() {
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
                root.improvement = Some(RootMove { sq: m.sq, score });
            }
            m.score = score;
            kept.push(score);
            kept.sort_unstable_by(|a, b| b.cmp(a));
            cut = kept[0] >= beta;
        }
        // A stable sort keeps the earlier (better-ordered) move first among equal scores.
        root.moves.sort_by_key(|m| -m.score);
        kept[0]
    }

    /// An endgame iteration: every root move searched to the end at each of the selectivity
    /// levels `passes` in turn (the less sure ones leave a better move order behind); each pass
    /// aims its window at the last one's score.
    fn root_endgame(
        &mut self,
        board: &Board,
        root: &mut RootMoves,
        lines: usize,
        wld: bool,
        guess: i32,
        passes: impl Iterator<Item = u8>,
    ) -> i32 {
        let solve = |s: &mut Self, b: &Board, a, be| {
            let (a, be) = disc_window(a, be);
            s.solve(b, a, be) * DISC
        };
        let mut score = guess;
        let empties = board.empty_count();
        for level in passes {
            self.level = level;
            let depth = DepthAt(empties, Selectivity::ENDGAME[level as usize]);
            self.enter(Stage::new(depth, true, wld));
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
            log::debug!("endgame {depth}: score {score}, {} nodes", self.nodes);
        }
        self.level = EXACT_LEVEL;
        if wld {
            return score;
        }
        // A draw at the root is worth the contempt: the solver counts it as 0, and since
        // final scores are even and the contempt under 2 discs, its order is the same.
        for m in &mut root.moves {
            m.score = self.root_value(board, m.score);
        }
        self.root_value(board, score)
    }

    /// A root score of the solver with a draw valued at the contempt.
    fn root_value(&self, board: &Board, score: i32) -> i32 {
        if score == 0 {
            self.draw_value(board)
        } else {
            score
        }
    }
}

/// The disc window that holds a centi-disc window: exact disc scores outside it stay outside.
fn disc_window(alpha: i32, beta: i32) -> (i32, i32) {
    let a = alpha.div_euclid(DISC).clamp(-64, 63);
    let b = (-(-beta).div_euclid(DISC)).clamp(a + 1, 64);
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::level::Level;

    fn clock(exact_empties: u32) -> Limits {
        Limits {
            exact_empties: Some(exact_empties),
            ..Limits::default()
        }
    }

    #[test]
    fn a_clock_affords_surer_stages_nearer_its_exact_solve() {
        assert_eq!(affordable_stage(&clock(20), 21), Some(Selectivity::P98));
        assert_eq!(affordable_stage(&clock(20), 22), Some(Selectivity::P95));
        assert_eq!(affordable_stage(&clock(20), 23), Some(Selectivity::P87));
        assert_eq!(affordable_stage(&clock(20), 24), Some(Selectivity::P73));
        assert_eq!(affordable_stage(&clock(20), 25), None);
        let level = Limits {
            level: Level::new(20),
            ..clock(20)
        };
        assert_eq!(affordable_stage(&level, 22), None);
        assert_eq!(affordable_stage(&Limits::default(), 22), None);
    }

    #[test]
    fn a_clock_goes_from_the_midgame_to_stages_once_the_root_is_ordered() {
        let next = |completed, staged| next_iteration(&clock(20), 24, completed, staged);
        assert_eq!(next(5, None), Some(Iteration::Midgame));
        assert_eq!(next(12, None), Some(Iteration::Stage(Selectivity::P73)));
        let p87 = Some(Iteration::Stage(Selectivity::P87));
        assert_eq!(next(12, Some(Selectivity::P73)), p87);
        assert_eq!(next(23, None), Some(Iteration::Solve(Selectivity::Exact)));
        assert_eq!(
            next_iteration(&clock(24), 24, 12, None),
            Some(Iteration::Solve(Selectivity::Exact))
        );
        let fixed = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        assert_eq!(
            next_iteration(&fixed, 40, 6, None),
            Some(Iteration::Midgame)
        );
        assert_eq!(next_iteration(&fixed, 40, 7, None), None);
    }

    #[test]
    fn a_changed_best_move_stretches_the_soft_deadline_and_a_settled_one_shrinks_it() {
        let mut settling = Settling::new(Some(19));
        let stretches: Vec<f64> = [19, 26, 26, 26, 26, 26, 37]
            .into_iter()
            .map(|best| {
                settling.record(Some(best), 0);
                settling.stretch()
            })
            .collect();
        let (u, s) = (UNSETTLED_STRETCH, SETTLED_STRETCH);
        assert_eq!(stretches, [1.0, u, 1.0, 1.0, s, s, u]);
        assert!(u > 1.0 && s < 1.0);
    }

    #[test]
    fn a_score_fallen_from_the_last_of_its_parity_stretches_the_soft_deadline() {
        let mut settling = Settling::new(Some(19));
        // Odd and even depths bounce apart; only a fall within one parity counts.
        let scores = [300, 0, 250, -100, 50, -100, 60];
        let stretches: Vec<f64> = scores
            .into_iter()
            .map(|score| {
                settling.record(Some(19), score);
                settling.stretch()
            })
            .collect();
        let (u, s) = (UNSETTLED_STRETCH, SETTLED_STRETCH);
        assert_eq!(stretches, [1.0, 1.0, s, s, u, s, s]);
        assert_eq!(SCORE_DROP, 2 * DISC);
    }

    #[test]
    fn stages_grow_surer_up_to_the_exact_solve() {
        let mut sel = Selectivity::P73;
        let mut seen = vec![sel];
        while sel != Selectivity::Exact {
            sel = surer(sel);
            seen.push(sel);
        }
        assert_eq!(seen, Selectivity::ENDGAME);
        assert_eq!(surer(Selectivity::Exact), Selectivity::Exact);
    }
}
