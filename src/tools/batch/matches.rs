//! `oxello match`: its options, turned into the match runner's configuration, and the run.

use crate::tools::cli::{threads_or_cores, MatchArgs};
use crate::tools::files::write_atomically;
use crate::tools::match_runner::config::{ClockSpec, EngineSpec, MatchConfig};
use crate::tools::match_runner::openings::{load_openings, random_openings};
use crate::tools::match_runner::scheduler::run_match as run_match_games;
use crate::tools::match_runner::seat::check_engines;
use crate::tools::match_runner::stats::Sprt;
use crate::tools::match_runner::{record, summary};
use oxello::timeman::MAX_SECONDS;
use std::process::ExitCode;
use std::time::Duration;

/// One clock per engine from "given once" or "given per engine" values.
pub fn per_engine<T: Copy>(values: &[T]) -> Result<Option<[T; 2]>, String> {
    match values {
        [] => Ok(None),
        [v] => Ok(Some([*v, *v])),
        [a, b] => Ok(Some([*a, *b])),
        _ => Err("give a time once, or once per engine".into()),
    }
}

pub fn parse_time_control(s: &str) -> Result<ClockSpec, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(ClockSpec::Unlimited);
    }
    let (main, inc) = s.split_once('+').unwrap_or((s, "0"));
    let number = |x: &str| {
        x.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or(format!(
                "bad time control '{s}': expected M+I in seconds, or none"
            ))
    };
    Ok(ClockSpec::Game {
        main: number(main)?,
        increment: number(inc)?,
    })
}

pub fn match_config(args: &MatchArgs) -> Result<MatchConfig, String> {
    let [first, second] = <[String; 2]>::try_from(args.engines.clone())
        .map_err(|_| "give exactly two --engine command lines".to_string())?;
    let clocks = if let Some(tpm) = per_engine(&args.time_per_move)? {
        tpm.map(|s| {
            if s > 0.0 && s.is_finite() {
                ClockSpec::PerMove(s)
            } else {
                ClockSpec::Unlimited
            }
        })
    } else {
        let specs: Vec<ClockSpec> = args
            .time_control
            .iter()
            .map(|s| parse_time_control(s))
            .collect::<Result<_, _>>()?;
        per_engine(&specs)?.unwrap_or([ClockSpec::Unlimited; 2])
    };
    let mut names: Vec<String> = args.names.clone();
    for command in [&first, &second].into_iter().skip(names.len()) {
        let program = command.split_whitespace().next().unwrap_or("engine");
        names.push(
            std::path::Path::new(program)
                .file_name()
                .map_or(program.into(), |f| f.to_string_lossy().into()),
        );
    }
    if names.len() != 2 {
        return Err("give at most two --name".into());
    }
    if names[0] == names[1] {
        names[0].push_str("#1");
        names[1].push_str("#2");
    }
    let games = args.games.max(1);
    let openings = match &args.openings {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            load_openings(&text, args.seed).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => random_openings(games.div_ceil(2), args.random_plies, args.seed.unwrap_or(1)),
    };
    let sprt = args.sprt.as_ref().map(|v| Sprt {
        elo0: v[0],
        elo1: v[1],
        alpha: v[2],
        beta: v[3],
    });
    if sprt.is_some_and(|s| {
        !(0.0 < s.alpha && s.alpha < 1.0 && 0.0 < s.beta && s.beta < 1.0 && s.elo0 < s.elo1)
    }) {
        return Err("--sprt wants elo0 < elo1 and alpha, beta in (0, 1)".into());
    }
    let seconds = |x: f64, what: &str| {
        (x.is_finite() && x >= 0.0)
            .then(|| Duration::from_secs_f64(x.min(MAX_SECONDS)))
            .ok_or(format!("bad {what}"))
    };
    Ok(MatchConfig {
        engines: [
            EngineSpec {
                name: names[0].clone(),
                command: first,
                clock: clocks[0],
            },
            EngineSpec {
                name: names[1].clone(),
                command: second,
                clock: clocks[1],
            },
        ],
        openings,
        games,
        concurrency: args.concurrency.max(1),
        move_timeout: seconds(args.move_timeout, "--move-timeout")?,
        grace: seconds(args.grace, "--grace")?,
        sprt,
    })
}

/// The threads an engine command searches with: its `--threads N`, one per core for an
/// oxello without it, and one for any other engine (which the runner cannot see into).
pub fn engine_threads(command: &str) -> usize {
    let words: Vec<&str> = command.split_whitespace().collect();
    if let Some(n) = words
        .windows(2)
        .find(|w| w[0] == "--threads")
        .and_then(|w| w[1].parse().ok())
    {
        return n;
    }
    let program = words
        .first()
        .map_or("", |p| p.rsplit('/').next().unwrap_or(p));
    if program == "oxello" {
        threads_or_cores(None)
    } else {
        1
    }
}

/// Games at once times the threads of the engine that thinks (one at a time in a game) should
/// fit the cores, or the engines' clocks measure contention instead of thinking.
pub fn warn_if_oversubscribed(config: &MatchConfig) {
    let cores = threads_or_cores(None);
    let threads = config
        .engines
        .iter()
        .map(|e| engine_threads(&e.command))
        .max()
        .unwrap_or(1);
    if config.concurrency * threads > cores {
        eprintln!(
            "oxello match: warning: {} games at once x {threads} engine threads exceeds the {cores} cores; give the engines --threads or lower --concurrency",
            config.concurrency
        );
    }
}

pub fn run_match(args: &MatchArgs) -> ExitCode {
    let config = match match_config(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("oxello match: {e}");
            return ExitCode::FAILURE;
        }
    };
    warn_if_oversubscribed(&config);
    if let Err(e) = check_engines(&config) {
        eprintln!("oxello match: {e}");
        return ExitCode::FAILURE;
    }
    let names = [
        config.engines[0].name.as_str(),
        config.engines[1].name.as_str(),
    ];
    let mut done = 0;
    let report = run_match_games(&config, |game, tally| {
        done += 1;
        let clocks = summary::final_clocks(game, names);
        eprintln!(
            "{}{}",
            summary::progress_line(done, config.games, tally, names),
            if clocks.is_empty() {
                String::new()
            } else {
                format!("; clocks left: {clocks}")
            }
        );
    });
    if let Some(path) = &args.ggf_out {
        let records: String = report
            .results
            .iter()
            .map(|g| record::ggf(g, names) + "\n")
            .collect();
        if let Err(e) = write_atomically(path, records.as_bytes()) {
            eprintln!("oxello match: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    if args.json {
        outln!("{}", summary::json(&report, names));
    } else {
        out!("{}", summary::text(&report, names));
    }
    ExitCode::SUCCESS
}
