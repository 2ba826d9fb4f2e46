//! The search thread: exact FFO endgame values, stopping, node limits, table size, analysis lines.

use crate::common;

use oxello::engine::board::Board;
use oxello::engine::eval::DISC;
use oxello::engine::game::Game;
use oxello::engine::notation::{parse_obf, ObfEntry};
use oxello::engine::search::{node_limit_slack, Limits, NODE_LIMIT_SLACK};
use oxello::play::thread::{Event, SearchThread};
use std::time::{Duration, Instant};

fn ffo(name: &str) -> Vec<ObfEntry> {
    let text = common::data(name);
    parse_obf(&text).unwrap()
}

fn solve_all(name: &str, threads: usize) {
    let engine = SearchThread::new(64);
    for (i, e) in ffo(name).iter().enumerate() {
        engine.clear();
        let r = engine.search(
            e.position.board,
            Limits {
                threads,
                ..Limits::default()
            },
        );
        assert!(r.exact, "{name} #{}", i + 1);
        assert_eq!(Some(r.score / DISC), e.value(), "{name} #{}", i + 1);
        let best = r.best_move().unwrap();
        assert!(
            e.best_moves().contains(&best),
            "{name} #{}: {best} not a best move",
            i + 1
        );
    }
}

#[test]
fn solves_ffo_1_to_19_exactly() {
    solve_all("fforum-1-19.obf", 1);
}

#[test]
fn solves_ffo_20_to_39_exactly() {
    solve_all("fforum-20-39.obf", 1);
}

#[test]
fn solves_ffo_1_to_39_exactly_on_two_threads() {
    solve_all("fforum-1-19.obf", 2);
    solve_all("fforum-20-39.obf", 2);
}

#[test]
fn every_move_of_ffo_positions_gets_its_exact_score_in_multi_line_mode() {
    multi_line_scores(1);
}

#[test]
fn every_move_gets_its_exact_score_in_multi_line_mode_on_two_threads() {
    multi_line_scores(2);
}

fn multi_line_scores(threads: usize) {
    let engine = SearchThread::new(32);
    // #1-#5: every legal move is annotated with its exact score.
    for e in ffo("fforum-1-19.obf").iter().take(5) {
        let lines = e.scores.len();
        let r = engine.search(
            e.position.board,
            Limits {
                lines,
                threads,
                ..Limits::default()
            },
        );
        assert_eq!(r.lines.len(), lines);
        for line in &r.lines {
            let expected = e.scores.iter().find(|&&(m, _)| m == line.pv[0]).unwrap().1;
            assert_eq!(line.score / DISC, expected, "move {}", line.pv[0]);
        }
        let scores: Vec<i32> = r.lines.iter().map(|l| l.score).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    }
}

#[test]
fn win_loss_draw_solve_gives_the_sign() {
    let engine = SearchThread::new(16);
    for e in ffo("fforum-1-19.obf").iter().take(10) {
        let r = engine.search(
            e.position.board,
            Limits {
                wld: true,
                ..Limits::default()
            },
        );
        assert!(r.wld);
        assert_eq!((r.score / DISC).signum(), e.value().unwrap().signum());
    }
}

fn midgame() -> Board {
    let game = Game::from_transcript("f5d6c3d3c4f4f6g5e6f7d7c5g3f3c6e7f8b4g6b6").unwrap();
    game.position().board
}

#[test]
fn a_stopped_search_returns_a_legal_move_promptly() {
    let engine = SearchThread::new(16);
    let board = midgame();
    engine.start(board, Limits::default());
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    engine.stop();
    let r = loop {
        match engine
            .events()
            .recv_timeout(Duration::from_secs(5))
            .expect("no answer after stop")
        {
            Event::Done(r) => break r,
            _ => continue,
        }
    };
    assert!(asked.elapsed() < Duration::from_secs(5));
    let best = r.best_move().unwrap();
    assert!(board.moves() >> best & 1 == 1);
}

#[test]
fn time_spent_before_the_search_started_counts_against_its_limits() {
    let engine = SearchThread::new(16);
    let board = midgame();
    // The request came 2 s ago with 1 s to spend: the search (which alone would reach depth
    // 10 or more in 1 s) may finish one iteration for a move, and no more.
    let r = engine.search(
        board,
        Limits {
            soft_time: Some(Duration::from_secs(1)),
            hard_time: Some(Duration::from_secs(1)),
            clock_start: Instant::now().checked_sub(Duration::from_secs(2)),
            ..Limits::default()
        },
    );
    assert!(r.depth <= 1, "searched to depth {}", r.depth);
    assert!(board.moves() >> r.best_move().unwrap() & 1 == 1);
}

#[test]
fn a_search_stopped_before_depth_1_still_has_a_legal_move() {
    let engine = SearchThread::new(1);
    let board = midgame();
    let r = engine.search(
        board,
        Limits {
            nodes: Some(1),
            ..Limits::default()
        },
    );
    assert!(board.moves() >> r.best_move().unwrap() & 1 == 1);
}

#[test]
fn the_node_limit_is_respected() {
    let engine = SearchThread::new(16);
    for limit in [1_000, 50_000, 300_000] {
        engine.clear();
        let r = engine.search(
            midgame(),
            Limits {
                nodes: Some(limit),
                ..Limits::default()
            },
        );
        assert!(r.nodes <= limit + NODE_LIMIT_SLACK, "{} > {limit}", r.nodes);
        assert!(r.nodes >= limit / 2, "stopped early: {}", r.nodes);
    }
}

#[test]
fn the_node_limit_holds_on_two_threads_in_the_midgame_and_the_endgame() {
    let engine = SearchThread::new(16);
    // FFO #39 from the FFO 20-39 set: 24 empties.
    let endgame = ffo("fforum-20-39.obf")[19].position.board;
    for board in [midgame(), endgame] {
        for limit in [50_000, 300_000, 3_000_000] {
            engine.clear();
            let limits = Limits {
                nodes: Some(limit),
                threads: 2,
                ..Limits::default()
            };
            let r = engine.search(board, limits);
            assert!(
                r.nodes <= limit + node_limit_slack(2),
                "{} > {limit}",
                r.nodes
            );
            assert!(board.moves() >> r.best_move().unwrap() & 1 == 1);
        }
    }
}

#[test]
fn the_table_never_exceeds_its_size() {
    let engine = SearchThread::new(8);
    assert!(engine.table_bytes() <= 8 << 20);
    assert!(engine.table_bytes() >= 4 << 20);
    engine.search(
        midgame(),
        Limits {
            depth: Some(9),
            ..Limits::default()
        },
    );
    assert!(engine.table_bytes() <= 8 << 20);
    engine.resize(3);
    assert!(engine.table_bytes() <= 3 << 20);
    engine.search(ffo("fforum-20-39.obf")[5].position.board, Limits::default());
    assert!(engine.table_bytes() <= 3 << 20);
}

#[test]
fn searches_are_deterministic_and_report_each_iteration() {
    let engine = SearchThread::new(16);
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    engine.clear();
    engine.start(midgame(), limits.clone());
    let mut depths = Vec::new();
    let first = loop {
        match engine.events().recv().unwrap() {
            Event::Progress(r) => depths.push(r.depth),
            Event::Done(r) => break r,
            _ => {}
        }
    };
    assert_eq!(depths, (1..=7).collect::<Vec<_>>());
    engine.clear();
    let second = engine.search(midgame(), limits);
    assert_eq!(
        (first.nodes, first.best_move(), first.score),
        (second.nodes, second.best_move(), second.score)
    );
    // The principal variation is a legal line.
    let mut b = midgame();
    for &m in &first.lines[0].pv {
        if b.moves() == 0 {
            b = b.pass();
        }
        b = b.play(m).expect("illegal move in the PV");
    }
}

#[test]
fn a_position_without_moves_reports_no_move() {
    let engine = SearchThread::new(1);
    // Game over: the 9-move wipe-out, black's, with white to move.
    let over = Game::from_transcript("d3c3b3d2e1d6d7e3f4")
        .unwrap()
        .position()
        .board;
    // A pass: the side to move has b1 alone, the opponent a1 and the move c1, after which the
    // opponent owns all three discs and the 61 empties: -64 for the side passing.
    let pass = Board::new(1 << 1, 1 << 0);
    for (board, score) in [(over, -64), (pass, -64)] {
        let r = engine.search(board, Limits::default());
        assert_eq!(r.best_move(), None);
        assert!(r.lines.is_empty());
        assert!(r.exact);
        assert_eq!(r.score, score * DISC);
    }
}

#[test]
fn a_wipe_out_at_the_root_ends_the_search_of_the_other_moves() {
    // FFO #59 (34 empties) is won 64-0 by G8: once that is proven, no other root move can
    // do better, so the solve is small. Searching the other moves as well took over 200M nodes.
    let e = &ffo("fforum-40-59.obf")[19];
    let engine = SearchThread::new(64);
    let limits = Limits {
        nodes: Some(10_000_000),
        ..Limits::default()
    };
    let r = engine.search(e.position.board, limits);
    assert!(r.exact);
    assert_eq!(r.score, 64 * DISC);
    assert!(e.best_moves().contains(&r.best_move().unwrap()));
}

#[test]
fn a_fixed_depth_midgame_search_does_not_turn_into_a_solve() {
    // 13 plies at this many empties is a midgame search; the solver would not finish.
    let board = midgame();
    assert!(board.empty_count() > 26);
    let engine = SearchThread::new(16);
    let limits = Limits {
        depth: Some(13),
        nodes: Some(300_000_000),
        ..Limits::default()
    };
    let r = engine.search(board, limits);
    assert!(!r.exact);
    assert_eq!(r.depth, 13);
}

#[test]
fn two_threads_stopped_at_random_points_always_give_a_legal_move() {
    let engine = SearchThread::new(16);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let games: Vec<Game> = [10, 500, 2000]
        .iter()
        .map(|&n| {
            let text = common::data("wthor_2024_2025_transcripts.txt");
            let line = text.lines().nth(n - 1).unwrap();
            Game::from_transcript(line.split_whitespace().nth(2).unwrap()).unwrap()
        })
        .collect();
    for i in 0..1000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // A position from any ply of three tournament games, midgame to endgame.
        let moves = games[i % 3].moves();
        let plies = (seed % moves.len() as u64) as usize;
        let game = oxello::engine::game::Game::replay(
            oxello::engine::board::Position::start(),
            &moves[..plies],
        )
        .unwrap();
        let board = game.position().board;
        engine.start(
            board,
            Limits {
                threads: 2,
                ..Limits::default()
            },
        );
        std::thread::sleep(Duration::from_micros((seed >> 20) % 3000));
        engine.stop();
        let r = loop {
            match engine.events().recv_timeout(Duration::from_secs(60)) {
                Ok(Event::Done(r)) => break r,
                Ok(_) => {}
                Err(e) => panic!("search {i} hung: {e}"),
            }
        };
        match r.best_move() {
            Some(m) => assert!(board.moves() >> m & 1 == 1, "search {i}: illegal {m}"),
            None => assert_eq!(board.moves(), 0, "search {i}: no move"),
        }
    }
}

/// Positions with `empties` empties from the first held-out WTHOR games, at most `count`.
fn holdout_positions(empties: usize, count: usize) -> Vec<Board> {
    let text = common::data("wthor_holdout.txt");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let moves =
                oxello::engine::notation::parse_transcript(l.split_whitespace().nth(2)?).ok()?;
            let game = Game::replay(
                oxello::engine::board::Position::start(),
                moves.get(..60 - empties)?,
            );
            let board = game.ok()?.position().board;
            (board.moves() != 0).then_some(board)
        })
        .take(count)
        .collect()
}

#[test]
fn multi_probcut_halves_the_nodes_of_a_depth_9_search_and_stays_near_its_score() {
    let engine = SearchThread::new(16);
    let (mut full_nodes, mut cut_nodes, mut drift) = (0, 0, 0);
    let positions = holdout_positions(30, 24);
    assert_eq!(positions.len(), 24);
    for board in &positions {
        let run = |probcut| {
            engine.clear();
            let limits = Limits {
                depth: Some(9),
                probcut,
                ..Limits::default()
            };
            engine.search(*board, limits)
        };
        let (full, cut) = (run(false), run(true));
        assert_eq!((full.depth, cut.depth), (9, 9));
        full_nodes += full.nodes;
        cut_nodes += cut.nodes;
        drift += (full.score - cut.score).abs();
    }
    assert!(
        2 * cut_nodes < full_nodes,
        "{cut_nodes} of {full_nodes} nodes"
    );
    let mean_drift = f64::from(drift) / f64::from(DISC) / positions.len() as f64;
    assert!(mean_drift < 1.5, "mean score drift {mean_drift:.2} discs");
}

/// Under a clock that cannot afford the exact solve, the search goes on from its midgame
/// iterations to selective endgame stages, least sure first, each surer than the one before
/// and the exact solve last; an exact result agrees with the solver.
#[test]
fn a_clock_too_short_for_the_solve_searches_selective_endgame_stages_first() {
    let engine = SearchThread::new(64);
    for board in holdout_positions(24, 3) {
        engine.clear();
        let limits = Limits {
            soft_time: Some(Duration::from_secs(20)),
            hard_time: Some(Duration::from_secs(120)),
            // 24 empties are 4 more than the clock's exact solve: a 73% stage, at most.
            exact_empties: Some(20),
            threads: 1,
            ..Limits::default()
        };
        engine.start(board, limits);
        let mut stages = Vec::new();
        let done = loop {
            match engine.events().recv().unwrap() {
                Event::Progress(r) if r.depth == 24 => stages.push(r.selectivity.percent()),
                Event::Done(r) => break r,
                _ => {}
            }
        };
        assert_eq!(stages.first(), Some(&73), "stages {stages:?}");
        assert!(stages.windows(2).all(|w| w[0] < w[1]), "stages {stages:?}");
        assert_eq!(stages.last(), Some(&100), "stages {stages:?}");
        engine.clear();
        let exact = engine.search(board, Limits::default());
        assert!(done.exact && exact.exact);
        assert_eq!(done.score, exact.score);
    }
}

/// Without ProbCut a midgame search is exact: every node's pattern indices, carried from its
/// parent's over the move at either parity of depth, evaluate as a plain reading does.
#[test]
fn searches_without_probcut_find_the_plain_negamax_value() {
    let tt = oxello::engine::tt::TranspositionTable::new(1);
    let stop = std::sync::atomic::AtomicBool::new(false);
    for plies in (4..=52).step_by(6) {
        let b = common::random_walk(Board::START, 7, plies);
        if b.is_game_over() {
            continue;
        }
        for depth in 1..=5 {
            let limits = Limits {
                depth: Some(depth),
                // Never an exact solve: every iteration a midgame one.
                exact_empties: Some(0),
                probcut: false,
                ..Limits::default()
            };
            let r = oxello::engine::search::search(&tt, &stop, &b, &limits, |_| {});
            assert_eq!(r.score, common::negamax(&b, depth), "{b:?} depth {depth}");
        }
    }
}
