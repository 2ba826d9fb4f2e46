//! Sharded jobs without a cluster, through the binary: a match split in shards merges into the
//! one-run report (and refuses missing, doubled and foreign shards, and skips a complete one);
//! `data relabel --shard` merges into the one-run file; `oxello slurm`'s tasks and merge, run
//! by hand as Slurm would run them, skip complete shards, refuse a missing or changed one, and
//! merge into the one-machine self-play file byte for byte. scripts/slurm-check.sh runs the
//! same on a real Slurm cluster.

use crate::common;
use std::path::Path;

/// Runs oxello; (success, stdout, stderr).
fn oxello(args: &[&str]) -> (bool, String, String) {
    let output = common::run(args);
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn ok(args: &[&str]) -> String {
    let (success, stdout, stderr) = oxello(args);
    assert!(success, "oxello {args:?}: {stderr}");
    stdout
}

fn refused(args: &[&str]) -> String {
    let (success, _, stderr) = oxello(args);
    assert!(!success, "oxello {args:?} succeeded");
    stderr
}

fn p(path: &Path) -> &str {
    common::path_str(path)
}

/// A report without its thinking times (the only part that varies from run to run).
fn untimed(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.starts_with("longest move") && !l.starts_with("thinking time"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Two depth-limited oxellos play the same moves in the same position every time.
fn match_args(engine: &[String; 2], games: &str, seed: &str) -> Vec<String> {
    [
        "match", "--engine", &engine[0], "--engine", &engine[1], "--games", games, "--seed", seed,
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_match_in_shards_merges_into_the_one_run_report() {
    let dir = tempfile::tempdir().unwrap();
    let engines = [2, 1].map(|d| format!("{} --depth {d} --threads 1", common::bin()));
    let base = match_args(&engines, "10", "3");
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    let whole = ok(&base);
    let shard = |k: u32, seed: &str| {
        let path = dir.path().join(format!("s{k}-{seed}.match"));
        let share = format!("{k}/3");
        let args = match_args(&engines, "10", seed);
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.extend(["--shard", &share, "--shard-out", p(&path)]);
        let (success, stdout, stderr) = oxello(&args);
        assert!(success, "{stderr}");
        (path, stdout, stderr)
    };
    let shards: Vec<_> = (0..3).map(|k| shard(k, "3")).collect();
    assert!(shards[1].1.contains(": 3 games"), "{}", shards[1].1);
    let paths: Vec<&str> = shards.iter().map(|s| p(&s.0)).collect();
    let merged = ok(&[&["match", "--merge"], &paths[..]].concat());
    assert!(whole.contains(": 10 games"), "{whole}");
    assert_eq!(untimed(&merged), untimed(&whole));
    let json = ok(&[&["match", "--json", "--merge"], &paths[..]].concat());
    assert!(json.contains("\"games\":10,"), "{json}");

    // A complete shard is not played again: the same file, reported as it stands.
    let before = std::fs::read(&shards[2].0).unwrap();
    let again = shard(2, "3");
    assert!(again.2.contains("is complete"), "{}", again.2);
    assert_eq!(std::fs::read(&shards[2].0).unwrap(), before);
    assert_eq!(untimed(&again.1), untimed(&shards[2].1));

    let missing = refused(&["match", "--merge", paths[0], paths[2]]);
    assert!(missing.contains("missing shard 1 of 3"), "{missing}");
    let twice = refused(&["match", "--merge", paths[0], paths[1], paths[1]]);
    assert!(twice.contains("shard 1 given twice"), "{twice}");
    let foreign = shard(1, "4");
    let other = refused(&["match", "--merge", paths[0], p(&foreign.0), paths[2]]);
    assert!(other.contains("a shard of another match"), "{other}");
    let mut corrupt = before.clone();
    *corrupt.last_mut().unwrap() ^= 1;
    std::fs::write(&shards[2].0, corrupt).unwrap();
    let bad = refused(&["match", "--merge", paths[0], paths[1], paths[2]]);
    assert!(bad.contains("checksum"), "{bad}");
}

#[test]
fn relabelling_in_shards_merges_into_the_one_run_file() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data.bin");
    let s = |name: &str| p(&dir.path().join(name)).to_string();
    let args = ["--games", "6", "--seed", "5", "--exact-empties", "12"];
    ok(&[&["selfplay", "--out", p(&data)], &args[..]].concat());
    let relabel = ["--empties", "13-40", "--depth", "2", "--threads", "1"];
    ok(&[&["data", "relabel", p(&data), &s("one.bin")], &relabel[..]].concat());
    for k in 0..3 {
        let (out, share) = (s(&format!("r{k}.bin")), format!("{k}/3"));
        ok(&[
            &["data", "relabel", p(&data), &out, "--shard", &share],
            &relabel[..],
        ]
        .concat());
    }
    ok(&[
        "data",
        "merge",
        &s("merged.bin"),
        &s("r0.bin"),
        &s("r1.bin"),
        &s("r2.bin"),
    ]);
    let one = std::fs::read(s("one.bin")).unwrap();
    assert!(one.len() > 1000 && one != std::fs::read(&data).unwrap());
    assert_eq!(std::fs::read(s("merged.bin")).unwrap(), one);
}

#[test]
fn slurm_tasks_skip_complete_shards_and_the_merge_refuses_missing_ones() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let job = [
        "--games",
        "8",
        "--seed",
        "9",
        "--exact-empties",
        "12",
        "--threads",
        "1",
    ];
    let submit = [
        "slurm",
        "submit",
        "selfplay",
        "--shards",
        "3",
        "--out",
        p(&run),
    ];
    let printed = ok(&[&submit[..], &["--dry-run", "--mem", "1G", "--"], &job[..]].concat());
    assert!(printed.contains("sbatch --parsable "), "{printed}");
    let script = std::fs::read_to_string(run.join("task.sh")).unwrap();
    assert!(script.contains("#SBATCH --array=0-2\n#"), "{script}");
    assert!(script.contains("#SBATCH --mem=1G\n"), "{script}");
    let weights = common::repo_path("src/engine/eval/weights.bin");
    let eval = refused(&[
        "--eval-file",
        &weights,
        "slurm",
        "submit",
        "book",
        "--shards",
        "2",
        "--out",
        p(&run),
    ]);
    assert!(
        eval.contains("give --eval-file among the job's arguments"),
        "{eval}"
    );
    let owned = refused(&[&submit[..], &["--", "--games", "9", "--out=x.bin"]].concat());
    assert!(
        owned.contains("--out=x.bin is oxello slurm's to give"),
        "{owned}"
    );
    let other = refused(&[&submit[..], &["--dry-run", "--", "--games", "9"]].concat());
    assert!(other.contains("holds the plan of another run"), "{other}");

    for k in ["0", "2"] {
        ok(&["slurm", "task", p(&run), k]);
    }
    let missing = refused(&["slurm", "merge", p(&run)]);
    assert!(missing.contains("shard 1 of 3 not complete"), "{missing}");
    assert!(missing.contains("sbatch --array=1 "), "{missing}");
    ok(&["slurm", "task", p(&run), "1"]);
    let (_, _, skipped) = oxello(&["slurm", "task", p(&run), "1"]);
    assert!(
        skipped.contains("shard 1/3 is complete; skipped"),
        "{skipped}"
    );
    ok(&["slurm", "merge", p(&run)]);
    let one = dir.path().join("one.bin");
    ok(&[&["selfplay", "--out", p(&one)], &job[..]].concat());
    let merged = std::fs::read(run.join("selfplay.bin")).unwrap();
    assert_eq!(merged, std::fs::read(&one).unwrap());

    // A shard changed after its stamp is refused, and its task runs it again.
    let shard = run.join("shard-1.bin");
    std::fs::write(&shard, b"not the shard").unwrap();
    let changed = refused(&["slurm", "merge", p(&run)]);
    assert!(changed.contains("does not match its stamp"), "{changed}");
    ok(&["slurm", "task", p(&run), "1"]);
    ok(&["slurm", "merge", p(&run)]);
    assert_eq!(std::fs::read(run.join("selfplay.bin")).unwrap(), merged);
    let out_of_range = refused(&["slurm", "task", p(&run), "3"]);
    assert!(
        out_of_range.contains("shard 3 of a plan of 3"),
        "{out_of_range}"
    );
}
