//! A controller that goes away: when nobody reads the engine's output any more, a running
//! search stops and the engine exits, as it does at the end of its input.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::time::{Duration, Instant};

/// Far beyond the expected few milliseconds: failing it means the engine kept running.
const PATIENCE: Duration = Duration::from_secs(60);

#[test]
fn the_engine_exits_when_its_reader_closes_during_analysis() {
    let mut child = common::spawn_engine(&[]);
    let mut stdin = child.stdin.take().unwrap();
    // `analyze 4` has no time limit: it would run until `stop`, an exact solve or depth 60.
    stdin.write_all(b"analyze 4\n").unwrap();
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    // Deep enough that the next iteration takes a while: the engine must notice the closed
    // pipe without writing to it.
    while !line.starts_with("info depth 14 ") {
        line.clear();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "the analysis ended early"
        );
    }
    let closed = Instant::now();
    drop(out);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            closed.elapsed() < PATIENCE,
            "still searching after its reader closed"
        );
        std::thread::sleep(Duration::from_millis(1));
    };
    eprintln!("exited {:?} after its reader closed", closed.elapsed());
    assert!(status.success());
    // The engine's input is still open: it was the closed output that ended it.
    drop(stdin);
}
