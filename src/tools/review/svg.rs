//! The review as a picture, hand-written SVG: the best value from Black's view over the moves
//! (one polyline point per move), each side's marked moves on it (circles for Black, squares
//! for White, coloured by mark, with `data-ply` and the mark as class), the running loss of
//! both sides drawn downward below, and a vertical rule where the values become exact.

use crate::engine::board::Color;
use crate::engine::notation::square_name;
use crate::play::review::{black_view, running_losses, Mark, Row};

const WIDTH: f64 = 900.0;
const LEFT: f64 = 50.0;
const RIGHT: f64 = 20.0;
/// The value chart's top and bottom (+64 and -64).
const TOP: f64 = 60.0;
const MIDDLE: f64 = 300.0;
/// The running loss chart: from its zero line down to its bottom.
const LOSS_TOP: f64 = 330.0;
const BOTTOM: f64 = 480.0;

/// Text made safe for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn x(i: usize, n: usize) -> f64 {
    LEFT + (WIDTH - LEFT - RIGHT) * i as f64 / (n.max(2) - 1) as f64
}

fn y(value: i32) -> f64 {
    TOP + (MIDDLE - TOP) * f64::from(64 - value) / 128.0
}

/// The picture of one game's review, titled `title`.
pub fn svg(rows: &[Row], title: &str) -> String {
    let n = rows.len();
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"500\" viewBox=\"0 0 {WIDTH} 500\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{LEFT}\" y=\"22\" font-size=\"15\">{}</text>\n",
        escape(title)
    );
    out.push_str(&axes(rows));
    let points: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{:.1},{:.1}", x(i, n), y(black_view(r))))
        .collect();
    out.push_str(&format!(
        "<polyline class=\"value\" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\" points=\"{}\"/>\n",
        points.join(" ")
    ));
    out.push_str(&loss_lines(rows));
    for (i, row) in rows.iter().enumerate() {
        if let Some(mark) = Mark::of(row.loss) {
            out.push_str(&marker(row, mark, x(i, n), y(black_view(row))));
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The grid: 0 and ±32 lines, the ±64 frame, move numbers, and the exact region's rule.
fn axes(rows: &[Row]) -> String {
    let n = rows.len();
    let mut out = format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n",
        WIDTH - LEFT - RIGHT,
        MIDDLE - TOP
    );
    for v in [64, 32, 0, -32, -64] {
        let colour = if v == 0 { "#444" } else { "#ddd" };
        out.push_str(&format!(
            "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"{colour}\"/>\n<text x=\"{2}\" y=\"{3:.1}\" text-anchor=\"end\">{v:+}</text>\n",
            y(v), WIDTH - RIGHT, LEFT - 4.0, y(v) + 4.0
        ));
    }
    for (i, row) in rows.iter().enumerate().filter(|(_, r)| r.ply % 10 == 0) {
        out.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            x(i, n),
            MIDDLE + 16.0,
            row.ply
        ));
    }
    if let Some(i) = rows.iter().position(|r| r.exact) {
        out.push_str(&format!(
            "<line class=\"exact\" x1=\"{0:.1}\" y1=\"{TOP}\" x2=\"{0:.1}\" y2=\"{MIDDLE}\" stroke=\"#36c\" stroke-dasharray=\"4 3\"/>\n<text x=\"{1:.1}\" y=\"{2}\" fill=\"#36c\">exact</text>\n",
            x(i, n), x(i, n) + 3.0, TOP + 12.0
        ));
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\">best value, Black's view (discs)</text>\n",
        LEFT + 4.0,
        TOP - 6.0
    ));
    out
}

/// Both sides' running loss as step lines going down from the loss chart's zero line.
fn loss_lines(rows: &[Row]) -> String {
    let n = rows.len();
    let totals = running_losses(rows);
    let last = totals.last().copied().unwrap_or((0, 0));
    let scale = (BOTTOM - LOSS_TOP) / f64::from(last.0.max(last.1).max(10));
    let mut out = format!(
        "<text x=\"{}\" y=\"{}\">running loss (discs, downward)</text>\n<line x1=\"{LEFT}\" y1=\"{LOSS_TOP}\" x2=\"{}\" y2=\"{LOSS_TOP}\" stroke=\"#444\"/>\n",
        LEFT + 4.0,
        LOSS_TOP + 14.0,
        WIDTH - RIGHT
    );
    for (color, stroke, total) in [
        (Color::Black, "#000", last.0),
        (Color::White, "#c33", last.1),
    ] {
        let points: Vec<String> = totals
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let loss = if color == Color::Black { t.0 } else { t.1 };
                format!("{:.1},{:.1}", x(i, n), LOSS_TOP + scale * f64::from(loss))
            })
            .collect();
        out.push_str(&format!(
            "<polyline class=\"loss-{0}\" fill=\"none\" stroke=\"{stroke}\" stroke-dasharray=\"5 2\" points=\"{1}\"/>\n",
            color.name(),
            points.join(" ")
        ));
        let dy = if color == Color::Black { 14.0 } else { 28.0 };
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"{stroke}\">{} running loss: {total} discs</text>\n",
            WIDTH - RIGHT,
            LOSS_TOP + dy,
            color.name()
        ));
    }
    out
}

/// A marked move: a circle for Black, a square for White, coloured by its mark.
fn marker(row: &Row, mark: Mark, cx: f64, cy: f64) -> String {
    let fill = match mark {
        Mark::Inaccuracy => "#fc3",
        Mark::Mistake => "#f80",
        Mark::Blunder => "#e00",
    };
    let tip = format!(
        "<title>move {} {} {} {:+} (best {} {:+}), loses {}</title>",
        row.ply,
        row.color.name(),
        square_name(row.played),
        row.played_value,
        square_name(row.best),
        row.best_value,
        row.loss
    );
    let shape = match row.color {
        Color::Black => format!("<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"5\"/>"),
        Color::White => format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"9\" height=\"9\"/>",
            cx - 4.5,
            cy - 4.5
        ),
    };
    format!(
        "<g class=\"{}\" data-ply=\"{}\" fill=\"{fill}\" stroke=\"black\">{tip}{shape}</g>\n",
        mark.name(),
        row.ply
    )
}
