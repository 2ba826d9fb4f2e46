//! The offline tools built on the engine: the batch jobs behind the subcommands. They are
//! modules of the binary, not of the library, so the compiler holds the direction: the tools
//! call the engine (`oxello::…`), and no engine module can name a tool.
//!
//! ```text
//! main.rs ── cli (clap: the subcommands and their options)
//!              └─ batch (one job per subcommand: perft, solve, analyze, bench, match,
//!                   │     selfplay, data, train, accuracy; reports on stdout)
//!                   ├─ bench          the fixed workload and its node signature
//!                   ├─ match_runner   engine-vs-engine matches, refereed
//!                   └─ training       self-play records, their formats, merging, fitting
//!                           │
//!                           ▼
//!        the engine library `oxello`: board, eval, search, play, front ends
//! ```

pub mod batch;
pub mod bench;
pub mod cli;
pub mod match_runner;
pub mod training;
