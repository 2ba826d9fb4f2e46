//! How a review reads: the marks, the table, JSON lines, CSV (also the `--resume` file's
//! lines, read back by [`parse_csv_row`]) and the summary for each side.

use super::rows::Row;
use crate::engine::board::Color;
use crate::engine::notation::{parse_square, square_name};

/// The marks, by the discs a move lost: 1-3 an inaccuracy, 4-9 a mistake, 10 or more a
/// blunder.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub fn of(loss: i32) -> Option<Mark> {
        match loss {
            i32::MIN..=0 => None,
            1..=3 => Some(Mark::Inaccuracy),
            4..=9 => Some(Mark::Mistake),
            _ => Some(Mark::Blunder),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// Every mark, mildest first.
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The symbol and the name, as the table and the picture show them: `?! inaccuracy`.
    pub fn label(self) -> String {
        format!("{} {}", self.symbol(), self.name())
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// Each row's running loss for Black and for White, after its move.
pub fn running_losses(rows: &[Row]) -> Vec<(i32, i32)> {
    let mut totals = (0, 0);
    rows.iter()
        .map(|r| {
            match r.color {
                Color::Black => totals.0 += r.loss,
                Color::White => totals.1 += r.loss,
            }
            totals
        })
        .collect()
}

/// The value of the best move from Black's view.
pub fn black_view(row: &Row) -> i32 {
    match row.color {
        Color::Black => row.best_value,
        Color::White => -row.best_value,
    }
}

/// The table's columns for one game; the last names the opening a move reaches.
pub fn table(rows: &[Row]) -> String {
    let mut out = format!(
        " ply color empties played value  best value loss black-loss white-loss black-view mark        {:<66} opening\n",
        "position"
    );
    for (row, (black, white)) in rows.iter().zip(running_losses(rows)) {
        let mark = Mark::of(row.loss).map_or(String::new(), Mark::label);
        let estimate = if row.exact { "" } else { "~" };
        let line = format!(
            "{:>4} {:<5} {:>7} {:>6} {:>+5}{estimate:1} {:>4} {:>+5} {:>4} {:>10} {:>10} {:>+10} {:<11} {:<66} {}",
            row.ply,
            row.color.name(),
            row.empties,
            square_name(row.played),
            row.played_value,
            square_name(row.best),
            row.best_value,
            row.loss,
            black,
            white,
            black_view(row),
            mark,
            row.position,
            row.opening().unwrap_or("")
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The table, then each side's summary, as the command line and GTP both print a review.
pub fn report(rows: &[Row]) -> String {
    format!(
        "{}{}\n{}",
        table(rows),
        side_summary(rows, Color::Black),
        side_summary(rows, Color::White)
    )
}

/// One JSON object per row, one per line.
pub fn json(rows: &[Row]) -> String {
    let mut out = String::new();
    for (row, (black, white)) in rows.iter().zip(running_losses(rows)) {
        let quoted = |text: Option<&str>| text.map_or("null".to_string(), |t| format!("\"{t}\""));
        let mark = quoted(Mark::of(row.loss).map(Mark::name));
        let opening = quoted(row.opening());
        out.push_str(&format!(
            "{{\"game\":{},\"ply\":{},\"empties\":{},\"color\":\"{}\",\"position\":\"{}\",\"played\":\"{}\",\"played_value\":{},\"best\":\"{}\",\"best_value\":{},\"loss\":{},\"black_loss\":{black},\"white_loss\":{white},\"exact\":{},\"mark\":{mark},\"opening\":{opening}}}\n",
            row.game, row.ply, row.empties, row.color.name(), row.position, square_name(row.played),
            row.played_value, square_name(row.best), row.best_value, row.loss, row.exact
        ));
    }
    out
}

/// The CSV header.
pub const CSV_HEADER: &str =
    "game,ply,empties,color,position,played,played_value,best,best_value,loss,exact";

/// One row as a CSV line (no running totals, so that it reads back alone).
pub fn csv_row(row: &Row) -> String {
    format!(
        "{},{},{},{},{},{},{},{},{},{},{}",
        row.game,
        row.ply,
        row.empties,
        row.color.name(),
        row.position,
        square_name(row.played),
        row.played_value,
        square_name(row.best),
        row.best_value,
        row.loss,
        row.exact
    )
}

/// The CSV of a review: the header, then one line per row, each with the opening its move
/// reaches (a column the resume file does without: it follows from the position and move).
pub fn csv(rows: &[Row]) -> String {
    let mut out = format!("{CSV_HEADER},opening\n");
    for row in rows {
        let opening = row.opening().unwrap_or("");
        out.push_str(&format!("{},{opening}\n", csv_row(row)));
    }
    out
}

/// A line of [`csv_row`] read back; `None` for anything else (a header, a cut-off line).
pub fn parse_csv_row(line: &str) -> Option<Row> {
    let f: Vec<&str> = line.trim_end().split(',').collect();
    let [game, ply, empties, color, position, played, played_value, best, best_value, loss, exact] =
        f.as_slice()
    else {
        return None;
    };
    Some(Row {
        game: game.parse().ok()?,
        ply: ply.parse().ok()?,
        empties: empties.parse().ok()?,
        color: match *color {
            "black" => Color::Black,
            "white" => Color::White,
            _ => return None,
        },
        position: position.to_string(),
        played: parse_square(played).ok()?,
        played_value: played_value.parse().ok()?,
        best: parse_square(best).ok()?,
        best_value: best_value.parse().ok()?,
        loss: loss.parse().ok()?,
        exact: exact.parse().ok()?,
    })
}

/// One side's summary: total loss, the marks' counts and the worst move.
pub fn side_summary(rows: &[Row], color: Color) -> String {
    let mine: Vec<&Row> = rows.iter().filter(|r| r.color == color).collect();
    let total: i32 = mine.iter().map(|r| r.loss).sum();
    let count = |m| mine.iter().filter(|r| Mark::of(r.loss) == Some(m)).count();
    let worst = mine
        .iter()
        .filter(|r| r.loss > 0)
        .max_by_key(|r| (r.loss, std::cmp::Reverse(r.ply)))
        .map_or("none".to_string(), |r| {
            format!(
                "move {} {} ({:+}, best {} {:+})",
                r.ply,
                square_name(r.played),
                r.played_value,
                square_name(r.best),
                r.best_value
            )
        });
    format!(
        "{}: {} moves, total loss {total} discs, {} inaccuracies, {} mistakes, {} blunders, worst {worst}",
        color.name(),
        mine.len(),
        count(Mark::Inaccuracy),
        count(Mark::Mistake),
        count(Mark::Blunder)
    )
}
