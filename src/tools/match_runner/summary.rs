//! The end-of-match summary, as text for people and JSON for scripts.

use super::outcome::{GameResult, MatchReport};
use super::stats::SprtVerdict;
use std::fmt::Write;

fn signed_elo(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        // Adding 0.0 turns -0.0 into 0.0, so an even score reads "+0".
        format!("{:+.0}", x.round() + 0.0)
    }
}

/// Forfeits by engine and reason: `(engine, reason, count)`, sorted.
fn forfeits(results: &[GameResult]) -> Vec<(usize, &'static str, usize)> {
    let mut counts: Vec<(usize, &'static str, usize)> = Vec::new();
    for (loser, reason) in results.iter().filter_map(|g| g.forfeit.as_ref()) {
        match counts
            .iter_mut()
            .find(|(l, r, _)| l == loser && *r == reason.kind())
        {
            Some(entry) => entry.2 += 1,
            None => counts.push((*loser, reason.kind(), 1)),
        }
    }
    counts.sort();
    counts
}

fn mean_disc_difference(results: &[GameResult]) -> f64 {
    let n = results.len().max(1) as f64;
    results
        .iter()
        .map(|g| f64::from(g.first_disc_difference()))
        .sum::<f64>()
        / n
}

/// The least time an engine had left on its game clock at the end of a game, if it played on one.
fn smallest_final_clock(results: &[GameResult], engine: usize) -> Option<f64> {
    results
        .iter()
        .filter_map(|g| g.final_clock[engine])
        .min_by(f64::total_cmp)
}

/// A game's final clocks, as `name 3.21 s` for each engine on a game clock.
pub fn final_clocks(game: &GameResult, names: [&str; 2]) -> String {
    names
        .iter()
        .zip(game.final_clock)
        .filter_map(|(name, left)| left.map(|s| format!("{name} {s:.2} s")))
        .collect::<Vec<_>>()
        .join(", ")
}

fn longest(results: &[GameResult], engine: usize) -> f64 {
    results
        .iter()
        .map(|g| g.longest_move[engine])
        .fold(0.0, f64::max)
}

/// An engine's thinking time per game: (mean, longest, total) in seconds over the games.
fn thinking(results: &[GameResult], engine: usize) -> (f64, f64, f64) {
    let per_game = results.iter().map(|g| g.thinking[engine]);
    let total: f64 = per_game.clone().sum();
    let longest = per_game.fold(0.0, f64::max);
    (total / results.len().max(1) as f64, longest, total)
}

/// A one-line progress report.
pub fn progress_line(
    done: usize,
    total: usize,
    report_tally: &super::stats::Tally,
    names: [&str; 2],
) -> String {
    let (elo, lo, hi) = report_tally.elo();
    format!(
        "[{done}/{total}] {} vs {}: W-D-L {}-{}-{}, score {:.1}%, Elo {} [{}, {}]",
        names[0],
        names[1],
        report_tally.wins,
        report_tally.draws,
        report_tally.losses,
        100.0 * report_tally.score(),
        signed_elo(elo),
        signed_elo(lo),
        signed_elo(hi)
    )
}

pub fn text(report: &MatchReport, names: [&str; 2]) -> String {
    let t = &report.tally;
    let (elo, lo, hi) = t.elo();
    let mut out = String::new();
    let _ = writeln!(out, "{} vs {}: {} games", names[0], names[1], t.games());
    let _ = writeln!(
        out,
        "{}: W-D-L {}-{}-{}, score {:.1}%, Elo {} (95% interval {} to {})",
        names[0],
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        signed_elo(elo),
        signed_elo(lo),
        signed_elo(hi)
    );
    let _ = writeln!(
        out,
        "mean disc differential for {}: {:+.2}",
        names[0],
        mean_disc_difference(&report.results)
    );
    let lost = forfeits(&report.results);
    if lost.is_empty() {
        let _ = writeln!(out, "forfeits: none");
    }
    for (engine, reason, count) in lost {
        let _ = writeln!(
            out,
            "forfeits: {} lost {count} game(s): {reason}",
            names[engine]
        );
    }
    for (i, name) in names.iter().enumerate() {
        let _ = writeln!(
            out,
            "longest move by {name}: {:.2} s",
            longest(&report.results, i)
        );
        let (mean, most, total) = thinking(&report.results, i);
        let _ = writeln!(
            out,
            "thinking time per game of {name}: mean {mean:.2} s, longest {most:.2} s (total {total:.2} s)"
        );
        if let Some(least) = smallest_final_clock(&report.results, i) {
            let _ = writeln!(out, "smallest final clock of {name}: {least:.2} s");
        }
    }
    if let Some((verdict, llr)) = report.sprt {
        let word = match verdict {
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::AcceptH1 => "H1 accepted",
            SprtVerdict::Continue => "no decision",
        };
        let _ = writeln!(out, "SPRT: {word} (LLR {llr:.2})");
    }
    out
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        "null".into()
    }
}

pub fn json(report: &MatchReport, names: [&str; 2]) -> String {
    let t = &report.tally;
    let (elo, lo, hi) = t.elo();
    let forfeits: Vec<String> = forfeits(&report.results)
        .into_iter()
        .map(|(e, r, n)| {
            format!(
                "{{\"engine\":{},\"reason\":{},\"games\":{n}}}",
                json_string(names[e]),
                json_string(r)
            )
        })
        .collect();
    let games: Vec<String> = report
        .results
        .iter()
        .map(|g| {
            format!(
                "{{\"game\":{},\"black\":{},\"black_score\":{},\"thinking\":[{},{}],\"final_clock\":[{}],\"forfeit\":{}}}",
                g.index + 1,
                json_string(names[g.black]),
                g.black_score,
                json_number(g.thinking[0]),
                json_number(g.thinking[1]),
                g.final_clock
                    .map(|c| c.map_or("null".into(), json_number))
                    .join(","),
                g.forfeit.as_ref().map_or("null".into(), |(e, r)| format!(
                    "{{\"engine\":{},\"reason\":{}}}",
                    json_string(names[*e]),
                    json_string(r.kind())
                ))
            )
        })
        .collect();
    let thinking: Vec<String> = (0..2)
        .map(|i| {
            let (mean, longest, total) = thinking(&report.results, i);
            format!(
                "{{\"mean\":{},\"longest\":{},\"total\":{}}}",
                json_number(mean),
                json_number(longest),
                json_number(total)
            )
        })
        .collect();
    let sprt = report.sprt.map_or("null".into(), |(v, llr)| {
        format!("{{\"verdict\":\"{v:?}\",\"llr\":{}}}", json_number(llr))
    });
    format!(
        "{{\"engines\":[{},{}],\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"score\":{},\"elo\":{},\"elo_low\":{},\"elo_high\":{},\"mean_disc_difference\":{},\"longest_move\":[{},{}],\"thinking_per_game\":[{}],\"forfeits\":[{}],\"sprt\":{},\"results\":[{}]}}",
        json_string(names[0]),
        json_string(names[1]),
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        json_number(t.score()),
        json_number(elo),
        json_number(lo),
        json_number(hi),
        json_number(mean_disc_difference(&report.results)),
        json_number(longest(&report.results, 0)),
        json_number(longest(&report.results, 1)),
        thinking.join(","),
        forfeits.join(","),
        sprt,
        games.join(",")
    )
}
