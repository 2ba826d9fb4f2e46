//! The offline tools built on the engine: the batch jobs behind the subcommands. They are
//! modules of the binary, not of the library, so the compiler holds the direction: the tools
//! call the engine (`crate::…`), and no engine module can name a tool.
//!
//! ```text
//! main.rs ── cli (clap: the subcommands and their options)
//!              └─ batch (one job per subcommand: perft, solve, analyze, bench, match,
//!                   │     selfplay, data, train, accuracy; reports on stdout)
//!                   ├─ bench          the fixed workload and its node signature
//!                   ├─ match_runner   engine-vs-engine matches, refereed
//!                   └─ training       self-play records, their formats, merging, fitting
//!              slurm   the sharded jobs as Slurm job arrays (runs this binary's subcommands)
//!                           │
//!                           ▼
//!        the engine library `oxello`: board, eval, search, play, front ends
//! ```

/// Writes to stdout; when nobody reads it any more (a closed pipe, as with `| head`), the job
/// has no one to report to and ends quietly instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        if write!(stdout, $($arg)*).and_then(|_| stdout.flush()).is_err() {
            std::process::exit(0);
        }
    }};
}

/// [`out!`] with a newline.
macro_rules! outln {
    ($($arg:tt)*) => {{
        out!($($arg)*);
        out!("\n");
    }};
}

pub mod args;
pub mod batch;
pub mod bench;
pub mod book;
pub mod cli;
pub mod fit_probcut;
pub mod match_runner;
pub mod review;
pub mod slurm;
pub mod training;
