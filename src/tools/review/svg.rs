//! The review as a picture, hand-written SVG: the best value from Black's view over the moves
//! (one polyline point per move), each side's marked moves on it (circles for Black, squares
//! for White, coloured by mark, with `data-ply` and the mark as class), the running loss of
//! both sides drawn downward below, a vertical rule where the values become exact, and a
//! legend. The value scale is the smallest of ±16, ±32 and ±64 discs that holds the game.

use crate::engine::board::Color;
use crate::engine::notation::square_name;
use crate::play::review::{black_view, running_losses, Mark, Row};

const WIDTH: f64 = 900.0;
const LEFT: f64 = 50.0;
const RIGHT: f64 = 20.0;
const HEIGHT: f64 = 530.0;
/// The value chart's top and bottom (+scale and -scale).
const TOP: f64 = 60.0;
const MIDDLE: f64 = 300.0;
/// The running loss chart: from its zero line down to its bottom.
const LOSS_TOP: f64 = 350.0;
const BOTTOM: f64 = 490.0;
/// A mark's fill colour.
fn fill(mark: Mark) -> &'static str {
    match mark {
        Mark::Inaccuracy => "#fc3",
        Mark::Mistake => "#f80",
        Mark::Blunder => "#e00",
    }
}

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

/// The value chart's scale: the smallest of 16, 32 and 64 discs that holds every value.
fn scale(rows: &[Row]) -> i32 {
    let widest = rows.iter().map(|r| black_view(r).abs()).max().unwrap_or(0);
    [16, 32, 64]
        .into_iter()
        .find(|&s| widest <= s)
        .unwrap_or(64)
}

fn y(value: i32, scale: i32) -> f64 {
    TOP + (MIDDLE - TOP) * f64::from(scale - value) / f64::from(2 * scale)
}

/// The picture of one game's review, titled `title`.
pub fn svg(rows: &[Row], title: &str) -> String {
    let (n, scale) = (rows.len(), scale(rows));
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{LEFT}\" y=\"22\" font-size=\"15\">{}</text>\n",
        escape(title)
    );
    out.push_str(&axes(rows, scale));
    let points: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| format!("{:.1},{:.1}", x(i, n), y(black_view(r), scale)))
        .collect();
    out.push_str(&format!(
        "<polyline class=\"value\" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\" points=\"{}\"/>\n",
        points.join(" ")
    ));
    out.push_str(&loss_lines(rows));
    for (i, row) in rows.iter().enumerate() {
        if let Some(mark) = Mark::of(row.loss) {
            out.push_str(&marker(row, mark, x(i, n), y(black_view(row), scale)));
        }
    }
    out.push_str(&legend());
    out.push_str("</svg>\n");
    out
}

/// The grid: the 0 and ±scale/2 lines, the ±scale frame, move numbers, and the exact
/// region's rule.
fn axes(rows: &[Row], scale: i32) -> String {
    let n = rows.len();
    let mut out = format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n",
        WIDTH - LEFT - RIGHT,
        MIDDLE - TOP
    );
    for v in [scale, scale / 2, 0, -scale / 2, -scale] {
        let colour = if v == 0 { "#444" } else { "#ddd" };
        out.push_str(&format!(
            "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"{colour}\"/>\n<text x=\"{2}\" y=\"{3:.1}\" text-anchor=\"end\">{v:+}</text>\n",
            y(v, scale), WIDTH - RIGHT, LEFT - 4.0, y(v, scale) + 4.0
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
        LOSS_TOP - 8.0,
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
        let right = if color == Color::Black { 150.0 } else { 0.0 };
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"{stroke}\">{}: {total} discs</text>\n",
            WIDTH - RIGHT - right,
            LOSS_TOP - 8.0,
            color.name()
        ));
    }
    out
}

/// What the shapes and colours mean, in a line under the charts.
fn legend() -> String {
    let base = HEIGHT - 14.0;
    let mut out = format!(
        "<g class=\"legend\" stroke=\"black\" fill=\"white\">{}{}</g>\n<text x=\"{}\" y=\"{base}\">Black</text>\n<text x=\"{}\" y=\"{base}\">White</text>\n",
        shape(Color::Black, LEFT + 5.0, base - 4.0),
        shape(Color::White, LEFT + 65.0, base - 4.0),
        LEFT + 13.0,
        LEFT + 73.0
    );
    for (i, mark) in Mark::ALL.into_iter().enumerate() {
        let left = LEFT + 150.0 + 130.0 * i as f64;
        out.push_str(&format!(
            "<rect x=\"{left}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>\n<text x=\"{}\" y=\"{base}\">{}</text>\n",
            base - 9.0,
            fill(mark),
            left + 14.0,
            escape(&mark.label())
        ));
    }
    out
}

/// A circle for Black, a square for White, centred on (cx, cy).
fn shape(color: Color, cx: f64, cy: f64) -> String {
    match color {
        Color::Black => format!("<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"5\"/>"),
        Color::White => format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"9\" height=\"9\"/>",
            cx - 4.5,
            cy - 4.5
        ),
    }
}

/// A marked move: a circle for Black, a square for White, coloured by its mark.
fn marker(row: &Row, mark: Mark, cx: f64, cy: f64) -> String {
    let fill = fill(mark);
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
    format!(
        "<g class=\"{}\" data-ply=\"{}\" fill=\"{fill}\" stroke=\"black\">{tip}{}</g>\n",
        mark.name(),
        row.ply,
        shape(row.color, cx, cy)
    )
}
