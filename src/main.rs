//! The `oxello` binary: with no subcommand it is the engine, speaking to a GUI or a match
//! runner on stdin/stdout ([`serve`]); each subcommand is one of the offline [`tools`].

use clap::{CommandFactory, Parser, Subcommand};
use oxello::play::session::Settings;
use oxello::play::values::{Discs, HashMib, Seconds, Threads};
use oxello::tools::args::threads_or_cores;
use oxello::tools::cli::Tool;
use std::ffi::OsString;
use std::process::ExitCode;

/// Oxello, an Othello engine.
///
/// With no subcommand it speaks GTP on stdin/stdout, as GUIs (Quarry) and match scripts
/// expect, or NBoard's protocol when the first line is `nboard <version>` (as the NBoard GUI
/// sends): every command, reply and error is listed in protocol.md. The subcommands are batch
/// jobs.
#[derive(Parser)]
#[command(version, about, long_about, after_help = PEER_ALIASES)]
struct Cli {
    /// GTP engine: transposition table size in MiB (1-4096).
    #[arg(long, default_value = "64", value_parser = str::parse::<HashMib>)]
    hash: HashMib,
    /// GTP/NBoard engine: the level of every move, 1-60 (0: play by the clock; as
    /// `oxello-depth`): its midgame depth, and where and how surely it solves the endgame
    /// (see `oxello levels`).
    #[arg(long, value_parser = oxello::engine::search::Level::parse_arg)]
    depth: Option<u32>,
    /// GTP engine: think this many seconds per move whatever the clock (as `oxello-move_time`;
    /// 0 is off, at most a day).
    #[arg(long, allow_negative_numbers = true, value_parser = str::parse::<Seconds>)]
    move_time: Option<Seconds>,
    /// GTP/NBoard engine: also write the log (every search iteration, every move, and the
    /// protocol traffic both ways) to this file, emptied first.
    #[arg(long)]
    log_file: Option<std::path::PathBuf>,
    /// GTP engine: threads per search, 1-256 (default: every core; as `oxello-threads`).
    #[arg(long, value_parser = str::parse::<Threads>)]
    threads: Option<Threads>,
    /// GTP engine: play from this opening book (default: the shipped one); NBoard's `learn`
    /// adds games to it.
    #[arg(long, conflicts_with = "no_book")]
    book: Option<std::path::PathBuf>,
    /// GTP engine: play without the opening book (as `oxello-book off`).
    #[arg(long)]
    no_book: bool,
    /// GTP engine: choose among the book moves within this many discs of the best (0-64).
    #[arg(long, default_value = "0", value_parser = str::parse::<Discs>)]
    book_randomness: Discs,
    /// GTP/NBoard engine: think on the opponent's time on the reply it expects (as
    /// `oxello-ponder on`).
    #[arg(long)]
    ponder: bool,
    /// Evaluation weights file to use instead of the built-in one (see `oxello train`).
    #[arg(long, global = true)]
    eval_file: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Tool(Box<Tool>),
    /// Speak NBoard's protocol on stdin/stdout (also chosen when the first line is
    /// `nboard <version>`, so NBoard needs no flag).
    Nboard,
}

/// The help's note on the peers' words.
const PEER_ALIASES: &str = "Edax's and Egaroucid's words work too, before any subcommand, so \
that a GUI set up for them starts Oxello unchanged: -gtp (GTP, the default), -nboard (as \
`nboard`), -l N or -level N (as --depth N), -nobook (as --no-book), -ponder (as --ponder).";

/// The command line with the peers' words (see [`PEER_ALIASES`]) made Oxello's, up to the
/// first subcommand: a subcommand's arguments (a position starting with `-`) stay as they are.
fn peer_aliases(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let subcommands: Vec<String> = Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    let mut out = Vec::new();
    let mut nboard = false;
    let mut args = args.into_iter();
    out.extend(args.next());
    for arg in args.by_ref() {
        let word = arg.to_string_lossy();
        if subcommands.iter().any(|c| *c == word) {
            out.push(arg);
            nboard = false;
            break;
        }
        match word.as_ref() {
            "-gtp" => {}
            "-nboard" => nboard = true,
            "-l" | "-level" => out.push("--depth".into()),
            "-nobook" => out.push("--no-book".into()),
            "-ponder" => out.push("--ponder".into()),
            _ => out.push(arg),
        }
    }
    out.extend(args);
    if nboard {
        out.push("nboard".into());
    }
    out
}

fn main() -> ExitCode {
    if let Err(e) = oxello::base::cpu::check_this_processor() {
        eprintln!("oxello: {e}");
        return ExitCode::FAILURE;
    }
    let mut cli = Cli::parse_from(peer_aliases(std::env::args_os()));
    if let Err(e) = oxello::base::io::init_logging(cli.log_file.as_deref()) {
        eprintln!("oxello: {e}");
        return ExitCode::FAILURE;
    }
    match oxello::engine::eval::load(cli.eval_file.as_deref()) {
        Err(e) => {
            eprintln!("oxello: evaluation weights: {e}");
            return ExitCode::FAILURE;
        }
        Ok(id) => {
            for name in oxello::engine::search::probcut::unfitted_models(id) {
                log::warn!(
                    "the {name} ProbCut model was fitted to other weights: fit it to these \
                     with `oxello fit-probcut {name}`"
                );
            }
        }
    }
    match cli.command.take() {
        Some(Command::Tool(tool)) => tool.run(),
        None => serve(&cli, false),
        Some(Command::Nboard) => serve(&cli, true),
    }
}

/// The engine on stdin/stdout: NBoard's protocol when asked for or when the first line is
/// `nboard <version>`, GTP otherwise, until the input ends.
fn serve(cli: &Cli, nboard: bool) -> ExitCode {
    let book = oxello::play::book::policy::BookSettings::load(
        cli.book.as_deref(),
        !cli.no_book,
        cli.book_randomness.get(),
    );
    let book = match book {
        Ok(book) => book,
        Err(e) => {
            eprintln!("oxello: {e}");
            return ExitCode::FAILURE;
        }
    };
    let options = Settings {
        hash_mib: cli.hash.get(),
        level: cli.depth.and_then(oxello::engine::search::Level::new),
        move_time: cli.move_time.map(Seconds::get).filter(|&t| t > 0.0),
        threads: threads_or_cores(cli.threads),
        ponder: cli.ponder,
        book,
    };
    let input = oxello::base::io::spawn_readers();
    let first = input.recv().unwrap_or(oxello::base::io::Input::Eof);
    let stdout = std::io::stdout();
    if nboard || oxello::base::io::is_nboard_hello(&first) {
        oxello::front::nboard::run(first, input, stdout.lock(), &options);
    } else {
        oxello::front::gtp::run(first, input, stdout.lock(), &options);
    }
    ExitCode::SUCCESS
}
