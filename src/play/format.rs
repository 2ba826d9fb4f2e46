//! How search results read, wherever they are shown: moves in upper case, scores in discs,
//! the `info` / `best` lines that GTP's `analyze` and `oxello analyze` both print, the log's
//! line per finished iteration, and the line of a stage still running.

use crate::engine::eval::DISC;
use crate::engine::notation::square_name;
use crate::engine::search::{Kind, Report, Running};

/// A move as the protocols answer it: upper case, `pass` for none.
pub fn vertex_name(sq: Option<u32>) -> String {
    sq.map_or_else(|| "pass".to_string(), |s| square_name(s).to_uppercase())
}

/// A score in discs: `+4` when exact, `+1.25` otherwise.
pub fn format_score(centi: i32, exact: bool) -> String {
    if exact {
        format!("{:+}", centi / DISC)
    } else {
        format!("{:+.2}", f64::from(centi) / f64::from(DISC))
    }
}

/// A principal variation: upper-case moves separated by spaces.
pub fn format_pv(pv: &[u32]) -> String {
    pv.iter()
        .map(|&m| square_name(m).to_uppercase())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One `info` line for each line of a finished iteration.
pub fn info_lines(r: &Report) -> String {
    let stage = r.stage();
    let kind = match stage.kind {
        Kind::Midgame => String::new(),
        kind => format!(" {}", kind.name()),
    };
    r.lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            format!(
                "info depth {}{kind} line {} score {} nodes {} nps {:.0} time {:.3} pv {}\n",
                stage.depth,
                i + 1,
                format_score(l.score, r.exact),
                r.nodes,
                r.nodes_per_second(),
                r.elapsed.as_secs_f64(),
                format_pv(&l.pv)
            )
        })
        .collect()
}

/// The closing `best` line of an analysis.
pub fn best_line(r: &Report) -> String {
    format!(
        "best {} score {} depth {} nodes {} time {:.3}\n",
        vertex_name(r.best_move()),
        format_score(r.score, r.exact),
        r.depth_at(),
        r.nodes,
        r.elapsed.as_secs_f64()
    )
}

/// The log's line for a finished iteration: depth, what it searched, score, nodes, speed,
/// time and principal variation.
pub fn iteration_line(r: &Report) -> String {
    format!(
        "depth {} score {} nodes {} nps {:.0} time {:.3} pv {}",
        r.stage(),
        format_score(r.score, r.exact),
        r.nodes,
        r.nodes_per_second(),
        r.elapsed.as_secs_f64(),
        r.lines.first().map_or(String::new(), |l| format_pv(&l.pv))
    )
}

/// The line of a search still running, for the log and GTP's `analyze` (after `info`): the
/// stage under way (`stage 32@73% endgame`), the nodes, speed and time of the search so far.
pub fn stage_line(r: &Running) -> String {
    format!(
        "stage {} nodes {} nps {:.0} time {:.3}",
        r.stage,
        r.nodes,
        r.nodes_per_second(),
        r.elapsed.as_secs_f64()
    )
}
