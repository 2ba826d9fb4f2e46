//! The `oxello` binary: with no subcommand it is the engine, speaking to a GUI or a match
//! runner on stdin/stdout ([`serve`]); each subcommand is one of the offline [`tools`].

use clap::{Parser, Subcommand};
use oxello::play::session::Settings;
use oxello::play::values::{Discs, HashMib, Seconds, Threads};
use oxello::tools::args::threads_or_cores;
use oxello::tools::cli::Tool;
use std::process::ExitCode;

/// Oxello, an Othello engine.
///
/// With no subcommand it speaks GTP on stdin/stdout, as GUIs (Quarry) and match scripts
/// expect, or NBoard's protocol when the first line is `nboard <version>` (as the NBoard GUI
/// sends): every command, reply and error is listed in protocol.md. The subcommands are batch
/// jobs.
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    /// GTP engine: transposition table size in MiB (1-4096).
    #[arg(long, default_value = "64", value_parser = str::parse::<HashMib>)]
    hash: HashMib,
    /// GTP engine: search this many plies per move (as `oxello-depth`), for matches.
    #[arg(long)]
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

fn main() -> ExitCode {
    let mut cli = Cli::parse();
    if let Err(e) = oxello::base::io::init_logging(cli.log_file.as_deref()) {
        eprintln!("oxello: {e}");
        return ExitCode::FAILURE;
    }
    match oxello::engine::eval::load(cli.eval_file.as_deref()) {
        Err(e) => {
            eprintln!("oxello: evaluation weights: {e}");
            return ExitCode::FAILURE;
        }
        Ok(id) if !oxello::engine::search::probcut::midgame_model_fits(id) => log::warn!(
            "the midgame ProbCut model was fitted to other weights: fit it to these with \
             `oxello fit-probcut midgame`"
        ),
        Ok(_) => {}
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
        depth: cli.depth.filter(|&d| d > 0),
        move_time: cli.move_time.map(Seconds::get).filter(|&t| t > 0.0),
        threads: threads_or_cores(cli.threads),
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
