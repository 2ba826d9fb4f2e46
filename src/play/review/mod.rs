//! A game's review: every move searched at a level, the move played against the best, the
//! discs it lost and its mark, and how the rows read (a table, JSON lines, CSV, a summary for
//! each side). `oxello review` and GTP's `oxello-review` both answer with these rows.

use crate::engine::search::Level;

mod output;
mod rows;

pub use output::{
    black_view, csv, csv_row, json, parse_csv_row, report, running_losses, side_summary, table,
    Mark, CSV_HEADER,
};
pub use rows::{jobs, review_all, Job, Row};

/// The level of a review that names none.
pub const DEFAULT_REVIEW_LEVEL: Level = Level::nearest(10);

/// The table of each review search, in MiB (cleared before each position).
pub const REVIEW_HASH_MIB: usize = 16;
