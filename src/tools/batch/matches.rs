//! `oxello match`: its options, turned into the match runner's configuration, and the run.

use crate::base::datafile::{remove_stale_temporaries, write_atomically};
use crate::play::values::{Count, Seconds};
use crate::tools::args::threads_or_cores;
use crate::tools::batch::match_shards::{self, ShardArgs};
use crate::tools::match_runner::config::{ClockSpec, EngineSpec, MatchConfig, Protocol};
use crate::tools::match_runner::openings::{load_openings, random_openings, Opening};
use crate::tools::match_runner::outcome::MatchReport;
use crate::tools::match_runner::scheduler::run_games;
use crate::tools::match_runner::seat::check_engines;
use crate::tools::match_runner::shard::Share;
use crate::tools::match_runner::stats::Sprt;
use crate::tools::match_runner::{record, summary};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// One value per engine (`what`: a time, a protocol...) from "given once" or "given per
/// engine" values.
pub fn per_engine<T: Copy>(values: &[T], what: &str) -> Result<Option<[T; 2]>, String> {
    match values {
        [] => Ok(None),
        [v] => Ok(Some([*v, *v])),
        [a, b] => Ok(Some([*a, *b])),
        _ => Err(format!("give {what} once, or once per engine")),
    }
}

/// `--protocol`'s value: `gtp` or `nboard`, in any case.
fn parse_protocol(s: &str) -> Result<Protocol, String> {
    match s.to_ascii_lowercase().as_str() {
        "gtp" => Ok(Protocol::Gtp),
        "nboard" => Ok(Protocol::Nboard),
        _ => Err(format!("unknown protocol '{s}' (gtp or nboard)")),
    }
}

pub fn parse_time_control(s: &str) -> Result<ClockSpec, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(ClockSpec::Unlimited);
    }
    let (main, inc) = s.split_once('+').unwrap_or((s, "0"));
    let number = |x: &str| {
        x.trim()
            .parse::<Seconds>()
            .map(Seconds::get)
            .map_err(|e| format!("bad time control '{s}': {e} (M+I in seconds, or none)"))
    };
    Ok(ClockSpec::Game {
        main: number(main)?,
        increment: number(inc)?,
    })
}

pub fn match_config(args: &MatchArgs) -> Result<MatchConfig, String> {
    let commands = <[String; 2]>::try_from(args.engines.clone())
        .map_err(|_| "give exactly two --engine command lines".to_string())?;
    let clocks = clocks(args)?;
    let names = engine_names(&args.names, [None, None], &commands)?;
    let protocols = per_engine(&args.protocols, "--protocol")?.unwrap_or([Protocol::Gtp; 2]);
    let levels = nboard_levels(args, protocols)?;
    let games = args.games.get() as usize;
    let openings = openings(args, games)?;
    let sprt = sprt(args.sprt.as_deref())?;
    let [first, second] = commands;
    let spec = |i: usize, command: String| EngineSpec {
        name: names[i].clone(),
        command,
        protocol: protocols[i],
        clock: clocks[i],
        level: levels[i],
    };
    Ok(MatchConfig {
        engines: [spec(0, first), spec(1, second)],
        openings,
        games,
        concurrency: args.concurrency.get() as usize,
        move_timeout: Duration::from_secs_f64(args.move_timeout.get()),
        grace: Duration::from_secs_f64(args.grace.get()),
        sprt,
    })
}

/// Each NBoard engine's level (`set depth`, which NTest needs before it plays); GTP engines
/// take none.
fn nboard_levels(args: &MatchArgs, protocols: [Protocol; 2]) -> Result<[Option<u64>; 2], String> {
    let levels = per_engine(&args.levels, "--level")?;
    let mut out = [None; 2];
    for (i, protocol) in protocols.iter().enumerate() {
        if *protocol == Protocol::Nboard {
            let level = levels.ok_or(format!(
                "engine {} speaks NBoard: give its --level N (sent as 'set depth N')",
                i + 1
            ))?;
            out[i] = Some(level[i].get());
        }
    }
    Ok(out)
}

/// Each engine's clock, from `--time-per-move` or else `--time-control` (none: no clock).
fn clocks(args: &MatchArgs) -> Result<[ClockSpec; 2], String> {
    if let Some(tpm) = per_engine(&args.time_per_move, "a time")? {
        return Ok(tpm.map(|s| match s.get() {
            0.0 => ClockSpec::Unlimited,
            s => ClockSpec::PerMove(s),
        }));
    }
    let specs: Vec<ClockSpec> = args
        .time_control
        .iter()
        .map(|s| parse_time_control(s))
        .collect::<Result<_, _>>()?;
    Ok(per_engine(&specs, "a time")?.unwrap_or([ClockSpec::Unlimited; 2]))
}

/// The names given, the rest those the engines gave (`reported`) or else their programs' file
/// names; two equal names get `#1` and `#2`.
fn engine_names(
    given: &[String],
    reported: [Option<String>; 2],
    commands: &[String; 2],
) -> Result<[String; 2], String> {
    let mut names: Vec<String> = given.to_vec();
    for (command, reported) in commands.iter().zip(reported).skip(names.len()) {
        let program = command.split_whitespace().next().unwrap_or("engine");
        names.push(reported.unwrap_or_else(|| {
            std::path::Path::new(program)
                .file_name()
                .map_or(program.into(), |f| f.to_string_lossy().into())
        }));
    }
    let mut names =
        <[String; 2]>::try_from(names).map_err(|_| "give at most two --name".to_string())?;
    if names[0] == names[1] {
        names[0].push_str("#1");
        names[1].push_str("#2");
    }
    Ok(names)
}

/// The openings of `--openings`, or enough random ones for `games` games.
fn openings(args: &MatchArgs, games: usize) -> Result<Vec<Opening>, String> {
    let Some(path) = &args.openings else {
        return Ok(random_openings(
            games.div_ceil(2),
            args.random_plies,
            args.seed.unwrap_or(1),
        ));
    };
    std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|text| load_openings(&text, args.seed))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The SPRT of `--sprt ELO0 ELO1 ALPHA BETA`, checked.
fn sprt(values: Option<&[f64]>) -> Result<Option<Sprt>, String> {
    let (elo0, elo1, alpha, beta) = match values {
        None => return Ok(None),
        Some(&[elo0, elo1, alpha, beta]) => (elo0, elo1, alpha, beta),
        Some(_) => return Err("--sprt wants four numbers: elo0 elo1 alpha beta".into()),
    };
    if !(0.0 < alpha && alpha < 1.0 && 0.0 < beta && beta < 1.0 && elo0 < elo1) {
        return Err("--sprt wants elo0 < elo1 and alpha, beta in (0, 1)".into());
    }
    Ok(Some(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    }))
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
    let played = if args.shards.merge.is_empty() {
        play(args)
    } else {
        match_shards::merge(&args.shards.merge)
    };
    match played.and_then(|(report, names)| publish(args, &report, [&names[0], &names[1]])) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oxello match: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Plays the match, or the shard of it that `--shard` asks for (unless it is complete).
fn play(args: &MatchArgs) -> Result<(MatchReport, [String; 2]), String> {
    let mut config = match_config(args)?;
    warn_if_oversubscribed(&config);
    if let Some(path) = &args.ggf_out {
        remove_stale_temporaries(path);
    }
    let reported = check_engines(&config)?;
    let commands = config.engines.each_ref().map(|e| e.command.clone());
    let names = engine_names(&args.names, reported, &commands)?;
    for (engine, name) in config.engines.iter_mut().zip(names.clone()) {
        engine.name = name;
    }
    let share = match_shards::share(&args.shards);
    if let Some((share, path)) = share {
        if let Some(report) = match_shards::completed(&config, share, path)? {
            return Ok((report, names));
        }
    }
    let report = play_games(
        &config,
        share.map(|(share, _)| share),
        [&names[0], &names[1]],
    );
    if let Some((share, path)) = share {
        match_shards::save(&config, share, path, &report)?;
    }
    Ok((report, names))
}

/// Plays the games of the match, or of its `share` (without the SPRT, which the merge
/// applies), with a progress line on stderr after each.
fn play_games(config: &MatchConfig, share: Option<Share>, names: [&str; 2]) -> MatchReport {
    let mut config = config.clone();
    if share.is_some() {
        config.sprt = None;
    }
    let indices: Vec<usize> = (0..config.games)
        .filter(|&i| share.is_none_or(|s| s.owns(i)))
        .collect();
    let (total, mut done) = (indices.len(), 0);
    run_games(&config, indices.into_iter(), |game, tally| {
        done += 1;
        let clocks = summary::final_clocks(game, names);
        eprintln!(
            "{}{}",
            summary::progress_line(done, total, tally, names),
            if clocks.is_empty() {
                String::new()
            } else {
                format!("; clocks left: {clocks}")
            }
        );
    })
}

/// The report on stdout (text, or JSON with `--json`), the games to `--ggf-out`.
fn publish(args: &MatchArgs, report: &MatchReport, names: [&str; 2]) -> Result<(), String> {
    if let Some(path) = &args.ggf_out {
        let records: String = report
            .results
            .iter()
            .map(|g| record::ggf(g, names) + "\n")
            .collect();
        write_atomically(path, records.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if args.json {
        outln!("{}", summary::json(report, names));
    } else {
        out!("{}", summary::text(report, names));
    }
    Ok(())
}

#[derive(Args)]
pub struct MatchArgs {
    /// An engine's command line (give two), e.g. "/usr/games/gtp-rhino -l 3".
    #[arg(long = "engine", required_unless_present = "merge", num_args = 1)]
    pub engines: Vec<String>,
    /// Names for the two engines (default: the names they give, GTP's `name` or NBoard's
    /// `set myname`, else the program names).
    #[arg(long = "name")]
    pub names: Vec<String>,
    /// The protocol the engines speak, gtp or nboard (NBoard's, as NTest and Edax speak it);
    /// once for both engines or once per engine: "--protocol gtp --protocol nboard".
    #[arg(long = "protocol", value_parser = parse_protocol)]
    pub protocols: Vec<Protocol>,
    /// An NBoard engine's level, sent as `set depth N` (NTest: 20), required for every NBoard
    /// engine; once, or once per engine (a GTP engine's is not used). An NBoard engine given a
    /// clock still plays at its level: the referee enforces the clock (a late move loses) and
    /// sends it as the GGF record's TI with every move's time, as the NBoard GUI does.
    #[arg(long = "level", value_parser = str::parse::<Count>)]
    pub levels: Vec<Count>,
    /// Openings, one transcript per line (e.g. the XOT list); random openings without it.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Shuffle the openings with this seed (also seeds random openings).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Plies of a random opening.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Number of games.
    #[arg(long, default_value = "2", value_parser = str::parse::<Count>)]
    pub games: Count,
    /// Games played at once.
    #[arg(long, default_value = "1", value_parser = str::parse::<Count>)]
    pub concurrency: Count,
    /// Seconds per move; once for both engines or once per engine (0: no clock, for an
    /// engine that plays by level).
    #[arg(long, conflicts_with = "time_control", allow_negative_numbers = true, value_parser = str::parse::<Seconds>)]
    pub time_per_move: Vec<Seconds>,
    /// Main time plus increment per move, "M+I" in seconds, or "none" for an engine without
    /// a clock (it is sent no time commands); once, or once per engine: "--time-control 5+0
    /// --time-control none" clocks the first engine only.
    #[arg(long)]
    pub time_control: Vec<String>,
    /// Seconds to wait for a move from an engine without a clock before it loses.
    #[arg(long, default_value = "600", allow_negative_numbers = true, value_parser = str::parse::<Seconds>)]
    pub move_timeout: Seconds,
    /// Seconds of lateness forgiven beyond the clock.
    #[arg(long, default_value = "0.5", allow_negative_numbers = true, value_parser = str::parse::<Seconds>)]
    pub grace: Seconds,
    /// Stop early by SPRT: elo0 elo1 alpha beta.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
    pub sprt: Option<Vec<f64>>,
    /// Write every game as a GGF record to this file.
    #[arg(long)]
    pub ggf_out: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub shards: ShardArgs,
}
