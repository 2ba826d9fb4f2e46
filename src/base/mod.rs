//! The leaves: what every layer may use and what uses nothing of the crate.
//!
//! - [`io`]: the engine's standard input and output, line by line, and the log.
//! - [`datafile`]: the frame (magic, version, checksum) and atomic saves of the data files.
//! - [`rng`]: a small deterministic generator.
//! - [`cpu`]: the x86-64 level this binary was built for, checked against the processor.

pub mod cpu;
pub mod datafile;
pub mod io;
pub mod rng;
