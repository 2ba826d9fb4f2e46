//! `oxello train`, run through the binary on binary records made by `oxello selfplay`: it
//! reports each phase's train and validation errors, the weights file it writes has the
//! documented header and checksum (checked here byte by byte), loads with `--eval-file`, and
//! fits its data better than all-zero weights, as `oxello accuracy` measures, by full-batch
//! passes or by mini-batches alike.

use crate::common;
use crate::common::run as oxello;

use oxello::engine::eval::weights::{Weights, PHASES, WEIGHTS_PER_PHASE};
use std::path::Path;
use std::process::Output;

/// `oxello train --data DATA --out OUT` and `options`.
fn train(data: &Path, out: &Path, options: &[&str]) -> Output {
    oxello(
        &[
            &[
                "train",
                "--data",
                common::path_str(data),
                "--out",
                common::path_str(out),
            ][..],
            options,
        ]
        .concat(),
    )
}

/// `oxello train` of `data` into `out` with `options` on one thread, then on three into a
/// file beside it; checks that both succeed and write the same weights, and returns the
/// one-thread run.
fn train_on_1_and_3_threads(data: &Path, out: &Path, options: &[&str]) -> Output {
    let run = train(data, out, &[options, &["--threads", "1"]].concat());
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let on_three = out.with_extension("three-threads.bin");
    assert!(
        train(data, &on_three, &[options, &["--threads", "3"]].concat())
            .status
            .success()
    );
    assert!(
        std::fs::read(&on_three).unwrap() == std::fs::read(out).unwrap(),
        "the weights depend on the threads, with {options:?}"
    );
    run
}

/// FNV-1a, 64 bits, as the weights file's header documents it.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The mean absolute error that `oxello accuracy` reports for `records` at `empties`, with the
/// weights of `eval_file`.
fn mean_absolute_error(eval_file: &Path, records: &Path, empties: u32) -> f64 {
    let out = oxello(&[
        "--eval-file",
        common::path_str(eval_file),
        "accuracy",
        common::path_str(records),
        "--empties",
        &empties.to_string(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = text
        .split("mean absolute error ")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    after.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn trained_weights_load_and_fit_their_data_better_than_zero_weights() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("records.bin");
    selfplay(&data, "20", "3");

    let weights = dir.path().join("trained.bin");
    let out = train_on_1_and_3_threads(&data, &weights, &[]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.starts_with("phase  empties   train  validation  train MAE  validation MAE\n"),
        "{report}"
    );
    check_phase_errors(&report);
    let bytes = std::fs::read(&weights).unwrap();
    // Mini-batches: shuffled by the phase and the pass, so the threads change nothing either.
    let on_batches = dir.path().join("batched.bin");
    train_on_1_and_3_threads(&data, &on_batches, &["--batch", "32", "--epochs", "40"]);
    assert!(
        std::fs::read(&on_batches).unwrap() != bytes,
        "--batch changed nothing"
    );

    // The header, field by field, and the checksum of the payload.
    assert_eq!(&bytes[..8], b"OXEVAL\r\n");
    assert_eq!(
        [u32_at(&bytes, 8), u32_at(&bytes, 12)],
        [1, 4],
        "version, feature set"
    );
    assert_eq!(u32_at(&bytes, 16) as usize, PHASES);
    assert_eq!(u32_at(&bytes, 20) as usize, WEIGHTS_PER_PHASE);
    assert_eq!(bytes.len(), 32 + 2 * PHASES * WEIGHTS_PER_PHASE);
    let checksum = fnv1a(&bytes[32..]);
    assert_eq!(
        u64::from_le_bytes(bytes[24..32].try_into().unwrap()),
        checksum
    );
    let wrote = report.lines().last().unwrap();
    assert!(
        wrote.contains(&format!("{} bytes, checksum {checksum:016x}", bytes.len())),
        "{wrote}"
    );

    // All-zero weights score every position 0; the trained ones must come much closer to the
    // exact scores they were fitted to.
    let zero = dir.path().join("zero.bin");
    std::fs::write(
        &zero,
        Weights::to_bytes(&vec![0; PHASES * WEIGHTS_PER_PHASE]),
    )
    .unwrap();
    for empties in [8, 10] {
        let untrained = mean_absolute_error(&zero, &data, empties);
        assert!(
            untrained > 4.0,
            "{empties} empties: zero weights miss by {untrained}"
        );
        for fitted in [&weights, &on_batches] {
            let trained = mean_absolute_error(fitted, &data, empties);
            assert!(
                trained < untrained / 2.0,
                "{empties} empties, {}: trained {trained} against zero weights {untrained}",
                fitted.display()
            );
        }
    }
}

/// The rows of the phases with data at 8-11 and 12-15 empties (the exact records) hold both
/// sets and errors in discs, the validation error above the train one.
fn check_phase_errors(report: &str) {
    for phase in ["8-11", "12-15"] {
        let row = report
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(phase))
            .unwrap_or_else(|| panic!("no row for {phase}: {report}"));
        let cells: Vec<f64> = row
            .split_whitespace()
            .skip(2)
            .map(|c| c.parse().unwrap())
            .collect();
        let [train, validation, train_mae, validation_mae] = cells[..] else {
            panic!("{row}");
        };
        assert!(train > 10.0 * validation && validation > 0.0, "{row}");
        assert!(train_mae < validation_mae && validation_mae < 64.0, "{row}");
    }
}

/// Runs `oxello train` on `data` into `out`, which must fail with a message naming `what`
/// and leave no file.
fn assert_train_fails(data: &Path, out: &Path, what: &str) {
    let run = train(data, out, &["--epochs", "1"]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.starts_with("oxello train: ") && err.contains(what),
        "{err}"
    );
    assert!(!out.exists());
}

#[test]
fn bad_records_or_an_unwritable_output_fail_without_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "# oxello training records v1\nnot a record\n").unwrap();
    assert_train_fails(&bad, &dir.path().join("w.bin"), "line 2");

    let good = dir.path().join("good.txt");
    std::fs::write(
        &good,
        "# oxello training records v1\n\
         ---------------------------OX------XXX-------------------------- O -4 played\n",
    )
    .unwrap();
    let nowhere = dir.path().join("missing").join("w.bin");
    assert_train_fails(&good, &nowhere, "missing");

    let out = dir.path().join("w.bin");
    let run = train(&good, &out, &["--searched-weight=-1"]);
    assert!(!run.status.success() && !out.exists());
    assert!(String::from_utf8_lossy(&run.stderr).contains(
        "'-1' for '--searched-weight <SEARCHED_WEIGHT>': expected a finite number of 0 or more"
    ));
}

/// `oxello selfplay` of `games` games (exact from 10 empties, seed `seed`) into `out`.
fn selfplay(out: &Path, games: &str, seed: &str) {
    let run = oxello(&[
        "selfplay",
        "--out",
        common::path_str(out),
        "--games",
        games,
        "--exact-empties",
        "10",
        "--seed",
        seed,
        "--noise-depth",
        "2",
        "--threads",
        "1",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn a_fine_tune_fits_its_new_records_and_keeps_the_phases_they_do_not_reach() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.bin"), dir.path().join("new.txt"));
    selfplay(&old, "20", "3");
    selfplay(&new, "20", "4");
    // Only the new positions of 8 and 9 empties, which phases 1 (0-7 empties, borrowing up to
    // 9) and 2 (8-11, borrowing from 6) learn from.
    let text = std::fs::read_to_string(&new).unwrap();
    let empties = |line: &str| line.bytes().take(64).filter(|&c| c == b'-').count();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with('#') || [8, 9].contains(&empties(l)))
        .collect();
    assert!(kept.len() > 20, "{} records", kept.len());
    let late = dir.path().join("late.txt");
    std::fs::write(&late, kept.join("\n") + "\n").unwrap();

    let base = dir.path().join("base.bin");
    assert!(train(&old, &base, &["--threads", "1"]).status.success());
    let tuned = dir.path().join("tuned.bin");
    let init = ["--init", common::path_str(&base), "--threads", "1"];
    let run = train(&late, &tuned, &init);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );

    let phases = |path: &Path| -> Vec<Vec<u8>> {
        let bytes = std::fs::read(path).unwrap();
        bytes[32..]
            .chunks(2 * WEIGHTS_PER_PHASE)
            .map(<[u8]>::to_vec)
            .collect()
    };
    let (before, after) = (phases(&base), phases(&tuned));
    for phase in 0..PHASES {
        let reached = (1..=2).contains(&phase);
        assert_eq!(
            before[phase] != after[phase],
            reached,
            "phase {phase} changed: {}",
            !reached
        );
    }
    for empties in [8, 9] {
        let (was, is) = (
            mean_absolute_error(&base, &late, empties),
            mean_absolute_error(&tuned, &late, empties),
        );
        assert!(is < was, "{empties} empties: {is} after, {was} before");
    }

    // A start that is not a weights file is refused before anything is written.
    let refused = dir.path().join("refused.bin");
    let run = train(&late, &refused, &["--init", common::path_str(&late)]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success() && !refused.exists());
    assert!(
        err.starts_with("oxello train: ") && err.contains("late.txt"),
        "{err}"
    );
}
