//! `oxello bench`: its perft part against the published count, and its node signature, which
//! changes only with the search (a commit that changes it says so and updates it here).

use crate::common;

/// The total search nodes of `oxello bench --threads 1`.
const SIGNATURE: u64 = 73_776_871;

#[test]
fn bench_prints_the_expected_signature() {
    let out = common::run(&["bench", "--threads", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // Convention A at depth 11, from tests/data/perft.txt.
    assert!(
        text.contains("perft 11                     1    212258800"),
        "{text}"
    );
    let signature: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("signature: "))
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("no signature in:\n{text}"));
    assert_eq!(signature, SIGNATURE, "{text}");
}
