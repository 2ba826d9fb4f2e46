//! The opening book: its library API (as the front ends use it) and `oxello book ...` run
//! through the binary as a user would.

use crate::common;
use crate::common::run as oxello;

use oxello::base::rng::Rng;
use oxello::engine::board::{Board, Position};
use oxello::engine::eval::DISC;
use oxello::engine::game::Game;
use oxello::engine::notation::format_position;
use oxello::engine::search::{Level, Plan, Selectivity};
use oxello::engine::symmetry::{transform_board, transform_square};
use oxello::engine::tt::TranspositionTable;
use oxello::play::book::jobs::search_position;
use oxello::play::book::learn::game_keys;
use oxello::play::book::store::successor;
use oxello::play::book::{Book, Depth, JobOptions, Jobs, Key};
use oxello::tools::book::build::{build, BuildConfig};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `oxello book ARGS`, asserting success; returns stdout.
fn book_ok(args: &[&str]) -> String {
    let out = oxello(&[&["book"], args].concat());
    assert!(
        out.status.success(),
        "oxello book {args:?}: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// A quick build through the binary: the file and what it was built with.
fn quick_build(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let file = dir.join(name);
    let args = [
        &[
            "build",
            common::path_str(&file),
            "--plies",
            "6",
            "--depth",
            "4",
        ],
        extra,
    ]
    .concat();
    book_ok(&args);
    file
}

/// The library, as a front end uses it: build, look up in any orientation, choose, learn,
/// save and open again.
#[test]
fn library_api_example() {
    let mut book = Book::new(0);
    let options = JobOptions {
        depth: 4,
        threads: 2,
        checkpoint: None,
        report_every: Duration::MAX,
    };
    let mut quiet = |_: &oxello::play::book::Progress| {};
    let mut jobs = Jobs::new(options, &mut quiet);
    let config = BuildConfig {
        plies: 3,
        width: 200,
        line_error: None,
        free_plies: 0,
        shard: None,
    };
    build(&mut book, &config, &mut jobs).unwrap();
    // The start position: its four moves are one class, all in the book.
    let moves = book.moves(&Board::START);
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|m| !m.leaf));
    let chosen = book.choose(&Board::START, 0, &mut Rng::new(7)).unwrap();
    assert!(Board::START.play(chosen.square).is_some());
    // Learning a game adds its positions and keeps the book consistent.
    let game = Game::from_transcript("f5d6c3d3c4f4f6g5e6f7").unwrap();
    let added = book.learn(&game, 2);
    assert!(added > 0);
    assert!(game_keys(&game).iter().all(|k| book.get(k).is_some()));
    assert!(book.check().is_ok());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("api.bin");
    book.save(&path).unwrap();
    assert_eq!(Book::open(&path).unwrap(), book);
}

/// The shipped book: every stored move legal, every value the negamax of its moves.
#[test]
fn the_shipped_book_is_consistent() {
    let book = Book::embedded().expect("the shipped book loads");
    assert!(book.len() > 100, "{} positions", book.len());
    let moves = book.check().expect("consistent");
    assert!(moves >= book.len());
    for (key, entry) in book.entries() {
        let board = key.board();
        assert!(entry.scores.iter().all(|s| board.play(s.square).is_some()));
    }
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/src/play/book/book.bin");
    let info = book_ok(&["info", file]);
    assert!(info.contains("check: ok"), "{info}");
    assert!(
        info.contains(&format!("{} positions", book.len())),
        "{info}"
    );
}

/// The position after f5 d6 c3, which no symmetry maps onto itself, in each orientation
/// gets the same moves, mapped.
#[test]
fn each_orientation_gets_the_matching_moves() {
    let dir = tempfile::tempdir().unwrap();
    let file = quick_build(dir.path(), "sym.bin", &[]);
    let book = Book::open(&file).unwrap();
    let position = *Game::from_transcript("f5d6c3").unwrap().position();
    let expected = book.moves(&position.board);
    assert!(!expected.is_empty());
    let mut keys = std::collections::HashSet::new();
    for s in 0..8 {
        let board = transform_board(&position.board, s);
        keys.insert(Key::of(&board));
        let image = Position { board, ..position };
        let shown = book_ok(&["show", common::path_str(&file), &format_position(&image)]);
        let squares: Vec<String> = shown
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect();
        let mapped: Vec<String> = expected
            .iter()
            .map(|m| {
                oxello::engine::notation::square_name(transform_square(m.square, s)).to_uppercase()
            })
            .collect();
        assert_eq!(squares, mapped, "orientation {s}:\n{shown}");
    }
    assert_eq!(keys.len(), 1, "the 8 images share one entry");
    let images_added = (0..8).any(|s| {
        let mut b = book.clone();
        let game_from = |board: Board| Game::new(Position { board, ..position });
        b.learn(&game_from(transform_board(&position.board, s)), 2) > 0
    });
    assert!(
        !images_added,
        "an image of a stored position is not a new entry"
    );
}

#[test]
fn damaged_and_foreign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read(quick_build(dir.path(), "good.bin", &[])).unwrap();
    let mut corrupt = good.clone();
    let middle = good.len() / 2;
    corrupt[middle] ^= 0x40;
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("corrupt", corrupt, "corrupt"),
        ("truncated", good[..good.len() - 7].to_vec(), "truncated"),
        (
            "foreign",
            b"(;GM[Othello]PC[x];)\n".repeat(4),
            "not an Oxello book",
        ),
        (
            "weights",
            std::fs::read(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/engine/eval/weights.bin"
            ))
            .unwrap()[..4096]
                .to_vec(),
            "not an Oxello book",
        ),
    ];
    for (name, bytes, message) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        for args in [
            vec!["info", common::path_str(&path)],
            vec!["show", common::path_str(&path), "f5"],
            vec![
                "build",
                common::path_str(&path),
                "--plies",
                "2",
                "--depth",
                "2",
            ],
        ] {
            let out = oxello(&[&["book"], args.as_slice()].concat());
            let err = text(&out.stderr);
            assert!(!out.status.success(), "{name} {args:?} succeeded");
            assert!(
                err.contains(message) && !err.contains("panicked"),
                "{name}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "one clear line: {err}");
        }
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{name} left as it was"
        );
    }
}

/// The header's position count of the book at `path`, if it is a whole book.
fn positions_in(path: &Path) -> Option<usize> {
    Book::open(path).ok().map(|b| b.len())
}

#[test]
fn a_killed_build_resumes_to_the_same_book() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("killed.bin");
    let args = |file: &Path, checkpoint: &str| {
        [
            "book",
            "build",
            common::path_str(file),
            "--plies",
            "8",
            "--depth",
            "4",
            "--threads",
            "2",
            "--checkpoint",
            checkpoint,
        ]
        .map(String::from)
    };
    let mut child = Command::new(common::bin())
        .args(args(&file, "0"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while positions_in(&file).unwrap_or(0) < 60 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "the build ended before the kill"
    );
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    let partial = positions_in(&file).expect("a valid book after the kill");
    let info = book_ok(&["info", common::path_str(&file)]);
    assert!(info.contains("check: ok"), "{info}");
    let status = |a: [String; 11]| oxello(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(status(args(&file, "60")).status.success());
    let whole = dir.path().join("whole.bin");
    assert!(status(args(&whole, "60")).status.success());
    let (resumed, uninterrupted) = (
        std::fs::read(&file).unwrap(),
        std::fs::read(&whole).unwrap(),
    );
    assert!(partial < Book::from_bytes(&resumed).unwrap().len());
    assert!(resumed == uninterrupted, "the resumed book differs");
}

#[test]
fn two_shards_merged_equal_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let one = quick_build(dir.path(), "one.bin", &[]);
    let shard = |k: &str, name| quick_build(dir.path(), name, &["--shard", k, "--shard-ply", "5"]);
    let (a, b) = (shard("0/2", "shard0.bin"), shard("1/2", "shard1.bin"));
    let (len_a, len_b) = (positions_in(&a).unwrap(), positions_in(&b).unwrap());
    let total = positions_in(&one).unwrap();
    assert!(len_a < total && len_b < total, "{len_a} {len_b} of {total}");
    let merged = dir.path().join("merged.bin");
    book_ok(&[
        "merge",
        common::path_str(&merged),
        common::path_str(&a),
        common::path_str(&b),
    ]);
    assert!(std::fs::read(&merged).unwrap() == std::fs::read(&one).unwrap());
}

/// A line build, with shards split at ply 5: `--line-error 1 --free-plies 2`, 8 plies.
fn line_build(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let file = dir.join(name);
    let args = [
        &[
            "build",
            common::path_str(&file),
            "--plies",
            "8",
            "--depth",
            "4",
        ],
        &["--line-error", "1", "--free-plies", "2"][..],
        extra,
    ]
    .concat();
    book_ok(&args);
    file
}

/// The lines a `line_build` follows, found by walking every line from the start in colours:
/// for each colour as the book's player, its own moves the best searched move, the other
/// colour's within 2 discs of the best and losing at most 1 disc in all, every move free in
/// the first 2 plies.
fn walk_lines(
    book: &Book,
    key: Key,
    ply: u32,
    black_moves: bool,
    spent: [Option<i32>; 2],
    found: &mut BTreeSet<Key>,
) {
    found.insert(key);
    if ply == 8 {
        return;
    }
    let entry = book.get(&key).expect("every followed position is searched");
    let best = entry.scores[0].score;
    for s in &entry.scores {
        let loss = if ply < 2 { 0 } else { best - s.score };
        // spent[0]: black is the book's player; spent[1]: white is.
        let spend = |book_player_is_black: bool, spent: Option<i32>| {
            let spent = spent?;
            if book_player_is_black == black_moves {
                (loss == 0).then_some(spent)
            } else {
                (loss <= 200 && spent + loss <= 100).then_some(spent + loss)
            }
        };
        let next = [spend(true, spent[0]), spend(false, spent[1])];
        if next == [None, None] {
            continue;
        }
        if let Some((child, passed)) = successor(&key, s.square) {
            walk_lines(book, child, ply + 1, black_moves == passed, next, found);
        }
    }
}

#[test]
fn a_line_build_holds_the_lines_of_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    let book = Book::open(&line_build(dir.path(), "lines.bin", &[])).unwrap();
    let mut found = BTreeSet::new();
    walk_lines(
        &book,
        Key::of(&Board::START),
        0,
        true,
        [Some(0), Some(0)],
        &mut found,
    );
    let held: BTreeSet<Key> = book.entries().map(|(k, _)| *k).collect();
    assert_eq!(held, found);
    let wide = dir.path().join("wide.bin");
    book_ok(&[
        "build",
        common::path_str(&wide),
        "--plies",
        "8",
        "--depth",
        "4",
    ]);
    let wide = positions_in(&wide).unwrap();
    assert!(
        held.len() * 2 < wide,
        "{} line positions, {wide} wide",
        held.len()
    );
    // Two shards merged equal one run here too.
    let (a, b) = (
        line_build(
            dir.path(),
            "line0.bin",
            &["--shard", "0/2", "--shard-ply", "5"],
        ),
        line_build(
            dir.path(),
            "line1.bin",
            &["--shard", "1/2", "--shard-ply", "5"],
        ),
    );
    let merged = dir.path().join("line-merged.bin");
    book_ok(&[
        "merge",
        common::path_str(&merged),
        common::path_str(&a),
        common::path_str(&b),
    ]);
    let one = std::fs::read(dir.path().join("lines.bin")).unwrap();
    assert!(std::fs::read(&merged).unwrap() == one);
}

/// FFO #`number` (40-59) of `tests/data`, with its published best score.
fn ffo(number: usize) -> (Board, i32) {
    let text = common::data("fforum-40-59.obf");
    let entry = &oxello::engine::notation::parse_obf(&text).unwrap()[number - 40];
    (entry.position.board, entry.value().unwrap())
}

/// A book search is a search at its level, as the level table says: FFO #40 (20 empties) at
/// level 10 is solved to its published value, FFO #49 (26 empties) at level 13 stays a
/// midgame search.
#[test]
fn a_book_search_solves_only_where_its_level_does() {
    let mut tt = TranspositionTable::new(16);
    let stop = AtomicBool::new(false);
    let (board, value) = ffo(40);
    let plan = |level, b: &Board| Level::new(level).unwrap().plan(b.empty_count());
    assert_eq!(plan(10, &board), Plan::Endgame(Selectivity::Exact));
    let entry = search_position(&mut tt, &Key::of(&board), 10, &stop);
    assert_eq!(entry.depth, Depth::Exact);
    assert_eq!(entry.best_score(), Some(value * DISC));
    let (board, _) = ffo(49);
    assert_eq!(plan(13, &board), Plan::Midgame { depth: 13 });
    let entry = search_position(&mut tt, &Key::of(&board), 13, &stop);
    assert_eq!(entry.depth, Depth::Plies(13));
    assert_eq!(entry.scores.len(), board.moves().count_ones() as usize);
}

#[test]
fn add_learns_transcripts_wthor_lines_and_ggf() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.txt");
    let transcript = "f5d6c3d3c4f4f6g5e6f7d7";
    let wthor = "WTH_2024 33 f5d6c3d3c4f4f6g5e6f7d7c5g3f3c6e7f8b4g6b6e8c7h4c8b3d2";
    let ggf = "(;GM[Othello]PC[test]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.0]W[F6]B[E6]W[F4];)";
    std::fs::write(&games, format!("# games\n{transcript}\n{wthor}\n\n{ggf}\n")).unwrap();
    let file = dir.path().join("learned.bin");
    let out = book_ok(&[
        "add",
        common::path_str(&file),
        common::path_str(&games),
        "--depth",
        "2",
    ]);
    assert!(out.contains("3 games"), "{out}");
    let book = Book::open(&file).unwrap();
    for moves in [
        transcript,
        "f5d6c3d3c4f4f6g5e6f7d7c5g3f3c6e7f8b4g6b6e8c7h4c8b3d2",
        "f5f6e6f4",
    ] {
        let game = Game::from_transcript(moves).unwrap();
        let keys = game_keys(&game);
        assert_eq!(keys.len(), game.moves().len() + 1);
        assert!(keys.iter().all(|k| book.get(k).is_some()), "{moves}");
    }
    assert!(book.check().is_ok());
    // A line that holds no game is refused, and the book stays as it was.
    std::fs::write(&games, "f5d6\nf5f5\n").unwrap();
    let before = std::fs::read(&file).unwrap();
    let out = oxello(&[
        "book",
        "add",
        common::path_str(&file),
        common::path_str(&games),
        "--depth",
        "2",
    ]);
    let err = text(&out.stderr);
    assert!(!out.status.success() && err.contains("line 2"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn show_lists_book_moves_best_first_and_the_leaf() {
    let dir = tempfile::tempdir().unwrap();
    let file = quick_build(dir.path(), "show.bin", &["--width", "0"]);
    // With width 0 only the best move is followed: after f5, one book move and the leaf.
    let shown = book_ok(&["show", common::path_str(&file), "f5"]);
    let rows: Vec<&str> = shown.lines().skip(2).collect();
    assert!(!rows.is_empty(), "{shown}");
    let values: Vec<f64> = rows
        .iter()
        .map(|r| r.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{shown}");
    assert_eq!(
        rows.iter().filter(|r| r.ends_with("leaf")).count(),
        1,
        "{shown}"
    );
    let beyond = book_ok(&["show", common::path_str(&file), "f5d6c3d3c4f4f6g5"]);
    assert!(beyond.contains("not in the book"), "{beyond}");
    let out = oxello(&["book", "show", common::path_str(&file), "z9"]);
    assert!(!out.status.success() && text(&out.stderr).contains("neither a position"));
}

#[test]
fn every_subcommand_has_help() {
    for (sub, option) in [
        ("build", "--plies"),
        ("add", "--depth"),
        ("show", "POSITION"),
        ("info", "FILE"),
        ("merge", "INPUTS"),
    ] {
        let help = book_ok(&[sub, "--help"]);
        assert!(help.contains(option), "{sub}: {help}");
    }
}

#[test]
fn a_build_reports_its_rate_and_eta_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("progress.bin");
    let out = oxello(&[
        "book",
        "build",
        common::path_str(&file),
        "--plies",
        "3",
        "--depth",
        "2",
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("positions") && !stdout.contains("ETA"),
        "{stdout}"
    );
    let last = stderr.lines().last().unwrap_or("");
    assert!(
        last.starts_with("ply 3: ") && last.contains("positions/h, ETA "),
        "{stderr}"
    );
}

#[test]
fn a_book_of_another_evaluation_loads_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let file = quick_build(dir.path(), "other.bin", &[]);
    let mut book = Book::open(&file).unwrap();
    book.set_evaluation(book.evaluation() ^ 1);
    book.save(&file).unwrap();
    let out = oxello(&["book", "show", common::path_str(&file), "f5"]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning") && err.contains("evaluation"),
        "{err}"
    );
    assert!(text(&out.stdout).contains("book"));
    assert!(book_ok(&["info", common::path_str(&file)]).contains("(not this build's)"));
}

#[test]
fn a_rerun_with_more_plies_and_depth_deepens_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deepened.bin");
    book_ok(&[
        "build",
        common::path_str(&file),
        "--plies",
        "4",
        "--depth",
        "2",
    ]);
    let shallow = Book::open(&file).unwrap();
    book_ok(&[
        "build",
        common::path_str(&file),
        "--plies",
        "6",
        "--depth",
        "4",
    ]);
    let deepened = Book::open(&file).unwrap();
    let direct = Book::open(&quick_build(dir.path(), "direct.bin", &[])).unwrap();
    assert!(deepened.len() > shallow.len());
    for (key, entry) in direct.entries() {
        let found = deepened
            .get(key)
            .expect("every position of the direct build");
        assert_eq!(found.scores, entry.scores, "the same search");
    }
    assert!(deepened.check().is_ok());
}
