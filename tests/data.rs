//! Training record files through the binary: `oxello selfplay --shard` and `oxello data
//! merge` (shards merged equal one run, byte for byte), `oxello data convert` (text to binary
//! to text gives the text back), and damaged binary files refused by every reader.

use crate::common;
use crate::common::run as oxello;

use std::path::Path;

/// Runs oxello, which must succeed; its stdout.
fn ok(args: &[&str]) -> String {
    let out = oxello(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

const RUN: [&str; 10] = [
    "selfplay",
    "--games",
    "9",
    "--exact-empties",
    "6",
    "--seed",
    "11",
    "--noise-depth",
    "1",
    "--threads=1",
];

#[test]
fn shards_merged_equal_one_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.bin");
    ok(&[&RUN[..], &["--out", common::path_str(&one)]].concat());
    let mut shards = Vec::new();
    for k in 0..3 {
        let shard = dir.path().join(format!("shard-{k}.bin"));
        let spec = format!("{k}/3");
        ok(&[
            &RUN[..],
            &["--out", common::path_str(&shard), "--shard", &spec],
        ]
        .concat());
        shards.push(shard);
    }
    // A shard run again over its own file finds every position there and leaves it as it was.
    let first = std::fs::read(&shards[0]).unwrap();
    let again = oxello(
        &[
            &RUN[..],
            &["--out", common::path_str(&shards[0]), "--shard", "0/3"],
        ]
        .concat(),
    );
    let log = String::from_utf8_lossy(&again.stderr);
    assert!(log.contains(" 0 positions written"), "{log}");
    assert!(
        std::fs::read(&shards[0]).unwrap() == first,
        "a rerun changed the shard"
    );
    let merged = dir.path().join("merged.bin");
    let report = ok(&[
        "data",
        "merge",
        common::path_str(&merged),
        common::path_str(&shards[2]),
        common::path_str(&shards[0]),
        common::path_str(&shards[1]),
    ]);
    let bytes = std::fs::read(&one).unwrap();
    assert!(bytes.starts_with(b"OXDATA\r\n") && bytes.len() > 32 + 22 * 200);
    assert!(
        std::fs::read(&merged).unwrap() == bytes,
        "the shards merged differ from the run"
    );
    let count = (bytes.len() - 32) / 22;
    assert!(
        report.starts_with(&format!(
            "{}: {count} positions from 3 files",
            common::path_str(&merged)
        )),
        "{report}"
    );
}

#[test]
fn text_to_binary_to_text_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("run.txt");
    ok(&[&RUN[..], &["--out", common::path_str(&text)]].concat());
    let (binary, back) = (dir.path().join("run.bin"), dir.path().join("back.txt"));
    let report = ok(&[
        "data",
        "convert",
        common::path_str(&text),
        common::path_str(&binary),
    ]);
    assert!(report.ends_with("records (binary)\n"), "{report}");
    ok(&[
        "data",
        "convert",
        common::path_str(&binary),
        common::path_str(&back),
    ]);
    let original = std::fs::read(&text).unwrap();
    assert!(
        std::fs::read(&back).unwrap() == original,
        "text to binary to text changed the text"
    );
    assert!(std::fs::metadata(&binary).unwrap().len() * 3 < original.len() as u64);
}

/// Every reader of record files refuses `file` with exit status 1 and one line naming it
/// and `reason`.
fn assert_refused(dir: &Path, file: &Path, reason: &str) {
    let out = dir.join("out.bin");
    let runs: [&[&str]; 4] = [
        &[
            "data",
            "convert",
            common::path_str(file),
            common::path_str(&out),
        ],
        &[
            "data",
            "merge",
            common::path_str(&out),
            common::path_str(file),
        ],
        &[
            "train",
            "--data",
            common::path_str(file),
            "--out",
            common::path_str(&out),
            "--epochs",
            "1",
        ],
        &["accuracy", common::path_str(file)],
    ];
    for args in runs {
        let run = oxello(args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("{}: ", common::path_str(file))) && stderr.contains(reason),
            "{args:?}: {stderr}"
        );
        assert!(!out.exists(), "{args:?} wrote its output");
    }
}

#[test]
fn damaged_or_foreign_binary_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.bin");
    ok(&[&RUN[..], &["--out", common::path_str(&good)]].concat());
    let bytes = std::fs::read(&good).unwrap();
    let damaged = dir.path().join("damaged.bin");
    std::fs::write(&damaged, &bytes[..bytes.len() - 7]).unwrap();
    assert_refused(dir.path(), &damaged, "truncated?");
    let mut flipped = bytes.clone();
    flipped[40] ^= 0x10;
    std::fs::write(&damaged, &flipped).unwrap();
    assert_refused(dir.path(), &damaged, "the file is corrupt");
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/src/engine/eval/weights.bin");
    std::fs::copy(weights, &damaged).unwrap();
    assert_refused(dir.path(), &damaged, "not a training record file");
}

/// The records of a text file: position, score and label words.
fn text_records(file: &Path) -> Vec<(String, i32, String)> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (
                format!("{} {}", w[0], w[1]),
                w[2].parse().unwrap(),
                w[3].into(),
            )
        })
        .collect()
}

/// A relabelled self-play run: where it is, the run's file and the relabelled one, the
/// report, and how many records changed.
struct Relabelled {
    dir: tempfile::TempDir,
    data: std::path::PathBuf,
    out: std::path::PathBuf,
    report: String,
    count: usize,
}

/// Relabels a small self-play run with `options` (text files, to read them back) and checks
/// that exactly its `played` records with `empties` changed, each to `expected` of its board
/// (score in discs, label).
fn relabel_run(
    options: &[&str],
    empties: std::ops::RangeInclusive<u32>,
    expected: impl Fn(&oxello::engine::board::Board) -> (i32, &'static str),
) -> Relabelled {
    let dir = tempfile::tempdir().unwrap();
    let (data, out) = (dir.path().join("run.txt"), dir.path().join("out.txt"));
    ok(&[&RUN[..], &["--out", common::path_str(&data)]].concat());
    let args = [
        "data",
        "relabel",
        common::path_str(&data),
        common::path_str(&out),
    ];
    let report = ok(&[&args[..], options].concat());
    let (before, after) = (text_records(&data), text_records(&out));
    assert_eq!(before.len(), after.len());
    let mut count = 0;
    for ((position, score, label), (position2, score2, label2)) in before.iter().zip(&after) {
        assert_eq!(position, position2);
        let board = oxello::engine::notation::parse_position(position)
            .unwrap()
            .board;
        if label == "played" && empties.contains(&board.empty_count()) {
            let (score, label) = expected(&board);
            assert_eq!((*score2, label2.as_str()), (score, label), "{position}");
            count += 1;
        } else {
            assert_eq!((score, label), (score2, label2), "{position}");
        }
    }
    Relabelled {
        dir,
        data,
        out,
        report,
        count,
    }
}

#[test]
fn relabel_exact_gives_the_chosen_records_their_minimax_value() {
    let options = ["--empties", "7-9", "--exact"];
    // A plain minimax to the end: a depth no game of 9 empties reaches.
    let run = relabel_run(&options, 7..=9, |board| {
        (
            common::negamax(board, 64) / oxello::engine::eval::DISC,
            "exact",
        )
    });
    assert!(run.count >= 9 * 2, "{} relabelled", run.count);
    let count = format!("{} relabelled by exact solves", run.count);
    assert!(run.report.contains(&count), "{}", run.report);
    let args = [
        "data",
        "relabel",
        common::path_str(&run.data),
        common::path_str(&run.out),
    ];
    let both = oxello(&[&args[..], &options, &["--depth", "2"]].concat());
    assert!(!both.status.success());
    assert!(String::from_utf8_lossy(&both.stderr).contains("cannot be used with"));
}

/// The label a depth-2 relabelling gives `board`: a plain negamax's value, in whole discs.
fn depth2_label(board: &oxello::engine::board::Board) -> (i32, &'static str) {
    let value = common::negamax(board, 2) as f64 / oxello::engine::eval::DISC as f64;
    (value.round().clamp(-64.0, 64.0) as i32, "searched")
}

#[test]
fn relabel_gives_the_chosen_records_a_fixed_depth_negamax_value() {
    let run = relabel_run(&["--empties", "9-14", "--depth", "2"], 9..=14, depth2_label);
    assert!(run.count >= 9 * 6, "{} relabelled", run.count);
    let count = format!("{} relabelled by depth-2 searches", run.count);
    assert!(run.report.contains(&count), "{}", run.report);
    let (data, relabelled) = (&run.data, &run.out);
    let args = [
        "data",
        "relabel",
        common::path_str(data),
        common::path_str(relabelled),
    ];
    // Threads share the work, not the labels; a bad range is refused.
    let one = run.dir.path().join("one-thread.txt");
    ok(&[
        &args[..2],
        &[
            common::path_str(data),
            common::path_str(&one),
            "--empties",
            "9-14",
            "--depth",
            "2",
            "--threads",
            "1",
        ],
    ]
    .concat());
    assert_eq!(
        std::fs::read(&one).unwrap(),
        std::fs::read(relabelled).unwrap()
    );
    let bad = oxello(&[&args[..], &["--empties", "14-9"]].concat());
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--empties '14-9'"));
}

#[test]
fn relabel_only_relabelled_writes_just_the_records_it_relabels() {
    let options = ["--empties", "9-14", "--depth", "2"];
    let run = relabel_run(&options, 9..=14, depth2_label);
    // The run's records are `played` or `exact`: the whole file's `searched` ones, in order,
    // are the relabelled ones, each checked against negamax above.
    let expected: Vec<_> = text_records(&run.out)
        .into_iter()
        .filter(|(_, _, label)| label == "searched")
        .collect();
    assert_eq!(expected.len(), run.count);
    let only = run.dir.path().join("only.txt");
    let args = ["data", "relabel", common::path_str(&run.data)];
    let paths = [common::path_str(&only), "--only-relabelled"];
    let report = ok(&[&args[..], &paths, &options].concat());
    assert_eq!(text_records(&only), expected);
    let counts = format!("{0} records, {0} relabelled", run.count);
    assert!(report.contains(&counts), "{report}");
}
