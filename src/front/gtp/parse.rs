//! GTP command parsing with `nom`: preprocessing, the optional id, the command name and typed
//! arguments, into a [`Command`].

use crate::engine::board::{Color, Position};
use crate::engine::game::Move;
use crate::engine::notation::ascii_tag_no_case as tag_no_case;
use crate::engine::notation::{parse_board_chars, parse_side};
use crate::engine::search::Level;
use crate::play::review::DEFAULT_REVIEW_LEVEL;
use crate::play::values::{Discs, HashMib, Lines, Seconds, Threads, ValueError};
use nom::branch::alt;
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, digit1, one_of, space0, space1};
use nom::combinator::{all_consuming, map, map_res, opt, recognize, rest, value};
use nom::sequence::{pair, preceded, terminated, tuple};
use nom::IResult;
use std::str::FromStr;

/// Every command the engine knows, with typed arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    Boardsize(u64),
    ClearBoard,
    Komi(f64),
    Play(Color, Move),
    Genmove(Color),
    RegGenmove(Color),
    Undo,
    FinalScore,
    Showboard,
    TimeSettings {
        main: f64,
        byoyomi: f64,
        stones: u64,
    },
    TimeLeft {
        color: Color,
        time: f64,
        stones: u64,
    },
    ListGames,
    SetGame(String),
    Setboard(Position),
    Stop,
    Analyze {
        lines: usize,
        seconds: Option<f64>,
    },
    Perft(u32),
    Solve,
    Eval,
    Depth(Option<Level>),
    MoveTime(f64),
    Hash(usize),
    Threads(usize),
    Book(bool),
    BookRandomness(f64),
    /// A game given as a transcript, read by `engine::gamefile`.
    GameText(String),
    /// A game file's first game, played to a move number if given.
    LoadGgf(String, Option<usize>),
    SaveGgf(String),
    Transcript,
    Review(Level),
    Ponder(bool),
    /// The named opening of the game's current line.
    Opening,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    Unknown,
    Syntax(String),
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::Unknown => f.write_str("unknown command"),
            CommandError::Syntax(detail) => write!(f, "syntax error: {detail}"),
        }
    }
}

/// One input line: its id (digits, echoed verbatim) and the command or what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: Option<String>,
    pub command: Result<Command, CommandError>,
}

/// GTP preprocessing: control characters other than tab go (CR included), a `#` starts a
/// comment, tabs become spaces. `None` for a line that is blank after that.
pub fn preprocess(raw: &str) -> Option<String> {
    let text = raw.split('#').next().unwrap_or("");
    let cleaned: String = text
        .chars()
        .filter(|&c| c == '\t' || !c.is_control())
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let trimmed = cleaned.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

fn word(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace())(input)
}

/// `[id] name rest`.
fn framing(input: &str) -> IResult<&str, (Option<&str>, &str, &str)> {
    tuple((
        opt(terminated(digit1, alt((space1, nom::combinator::eof)))),
        preceded(space0, opt(word)),
        preceded(space0, rest),
    ))(input)
    .map(|(i, (id, name, args))| (i, (id, name.unwrap_or(""), args)))
}

/// Parses a preprocessed line into a request.
pub fn parse_request(line: &str) -> Request {
    match framing(line) {
        Ok((_, (id, name, args))) => Request {
            id: id.map(String::from),
            command: if name.is_empty() {
                Err(CommandError::Syntax("missing command name".into()))
            } else {
                parse_command(name, args.trim())
            },
        },
        Err(_) => Request {
            id: None,
            command: Err(CommandError::Syntax("unreadable line".into())),
        },
    }
}

fn syntax<T>(detail: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError::Syntax(detail.into()))
}

/// Applies a nom parser to a whole argument.
fn whole<'a, T>(
    arg: &'a str,
    what: &str,
    parser: impl FnMut(&'a str) -> IResult<&'a str, T>,
) -> Result<T, CommandError> {
    all_consuming(parser)(arg)
        .map(|(_, v)| v)
        .or_else(|_| syntax(format!("expected {what}, got '{}'", shorten(arg))))
}

/// An option value (see [`crate::play::values`]), its refusal as a syntax error.
fn option<T: FromStr<Err = ValueError>>(text: &str) -> Result<T, CommandError> {
    text.parse().or_else(|e: ValueError| syntax(e.to_string()))
}

fn shorten(s: &str) -> String {
    crate::base::io::quote(s, 40)
}

fn color(input: &str) -> IResult<&str, Color> {
    alt((
        value(Color::Black, tag_no_case("black")),
        value(Color::White, tag_no_case("white")),
        value(Color::Black, tag_no_case("b")),
        value(Color::White, tag_no_case("w")),
    ))(input)
}

fn vertex(input: &str) -> IResult<&str, Move> {
    alt((
        value(Move::Pass, tag_no_case("pass")),
        map(
            pair(one_of("abcdefghABCDEFGH"), one_of("12345678")),
            |(c, r)| {
                Move::Play(
                    (r as u32 - '1' as u32) * 8 + (c.to_ascii_lowercase() as u32 - 'a' as u32),
                )
            },
        ),
    ))(input)
}

fn unsigned(input: &str) -> IResult<&str, u64> {
    map_res(digit1, str::parse)(input)
}

/// Parses decimal text, refusing what overflows to infinity.
fn finite(text: &str) -> Result<f64, &'static str> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or("not a finite number")
}

/// A finite, non-negative decimal number such as `15`, `0.5` or `2.`.
fn seconds(input: &str) -> IResult<&str, f64> {
    map_res(
        recognize(pair(digit1, opt(pair(char('.'), opt(digit1))))),
        finite,
    )(input)
}

/// A finite decimal number with an optional sign (komi may be negative).
fn signed_number(input: &str) -> IResult<&str, f64> {
    map_res(recognize(pair(opt(one_of("+-")), seconds)), finite)(input)
}

/// One command: its name, its arguments as `usage:` errors and protocol.md show them, how
/// many words they take, and how those are read. [`COMMANDS`] is the only list of commands:
/// the parser, `known_command` and `list_commands` read it, and so does protocol.md's test.
pub struct Spec {
    pub name: &'static str,
    pub args: &'static str,
    arity: (usize, usize),
    parse: fn(&[&str]) -> Result<Command, CommandError>,
}

impl Spec {
    /// `name args`, as the command's line in protocol.md starts.
    pub fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }
}

const fn spec(
    name: &'static str,
    args: &'static str,
    arity: (usize, usize),
    parse: fn(&[&str]) -> Result<Command, CommandError>,
) -> Spec {
    Spec {
        name,
        args,
        arity,
        parse,
    }
}

/// Every command, in the order `list_commands` shows them.
pub const COMMANDS: &[Spec] = &[
    spec("protocol_version", "", (0, 0), |_| {
        Ok(Command::ProtocolVersion)
    }),
    spec("name", "", (0, 0), |_| Ok(Command::Name)),
    spec("version", "", (0, 0), |_| Ok(Command::Version)),
    spec("known_command", "<name>", (1, 1), |a| {
        Ok(Command::KnownCommand(a[0].to_string()))
    }),
    spec("list_commands", "", (0, 0), |_| Ok(Command::ListCommands)),
    spec("quit", "", (0, 0), |_| Ok(Command::Quit)),
    spec("boardsize", "<n>", (1, 1), |a| {
        whole(a[0], "a board size", unsigned).map(Command::Boardsize)
    }),
    spec("clear_board", "", (0, 0), |_| Ok(Command::ClearBoard)),
    spec("komi", "<x>", (1, 1), |a| {
        whole(a[0], "a number", signed_number).map(Command::Komi)
    }),
    spec("play", "<colour> <vertex>", (2, 2), |a| {
        Ok(Command::Play(
            whole(a[0], "a color", color)?,
            whole(a[1], "a vertex a1..h8 or pass", vertex)?,
        ))
    }),
    spec("genmove", "<colour>", (1, 1), |a| {
        whole(a[0], "a color", color).map(Command::Genmove)
    }),
    spec("reg_genmove", "<colour>", (1, 1), |a| {
        whole(a[0], "a color", color).map(Command::RegGenmove)
    }),
    spec("undo", "", (0, 0), |_| Ok(Command::Undo)),
    spec("final_score", "", (0, 0), |_| Ok(Command::FinalScore)),
    spec("showboard", "", (0, 0), |_| Ok(Command::Showboard)),
    spec(
        "time_settings",
        "<main> <byoyomi> <stones>",
        (3, 3),
        time_settings,
    ),
    spec(
        "time_left",
        "<colour> <seconds> <stones>",
        (3, 3),
        time_left,
    ),
    spec("list_games", "", (0, 0), |_| Ok(Command::ListGames)),
    spec("set_game", "<name>", (1, usize::MAX), |a| {
        Ok(Command::SetGame(a.join(" ")))
    }),
    spec("setboard", "<64 squares> <side>", (2, 2), setboard),
    spec("analyze", "[lines] [seconds]", (0, 2), analyze),
    spec("stop", "", (0, 0), |_| Ok(Command::Stop)),
    spec("solve", "", (0, 0), |_| Ok(Command::Solve)),
    spec("perft", "<depth>", (1, 1), |a| {
        match whole(a[0], "a depth 1..12", unsigned)? {
            d @ 1..=12 => Ok(Command::Perft(d as u32)),
            _ => syntax("expected a depth 1..12"),
        }
    }),
    spec("eval", "", (0, 0), |_| Ok(Command::Eval)),
    spec("oxello-depth", "<n>", (1, 1), |a| {
        Level::parse(a[0])
            .map(Command::Depth)
            .or_else(|_| syntax(format!("expected a level 0..60, got '{}'", shorten(a[0]))))
    }),
    spec("oxello-move_time", "<seconds>", (1, 1), |a| {
        option(a[0]).map(|s: Seconds| Command::MoveTime(s.get()))
    }),
    spec("oxello-hash", "<MiB>", (1, 1), |a| {
        option(a[0]).map(|m: HashMib| Command::Hash(m.get()))
    }),
    spec("oxello-threads", "<n>", (1, 1), |a| {
        option(a[0]).map(|n: Threads| Command::Threads(n.get()))
    }),
    spec("oxello-book", "<on/off>", (1, 1), |a| {
        on_off(a[0]).map(Command::Book)
    }),
    spec("oxello-book-randomness", "<discs>", (1, 1), |a| {
        option(a[0]).map(|d: Discs| Command::BookRandomness(d.get()))
    }),
    spec("oxello-game", "<transcript>", (1, usize::MAX), |a| {
        Ok(Command::GameText(a.join(" ")))
    }),
    spec("oxello-loadggf", "<file> [move]", (1, 2), load_ggf),
    spec("oxello-saveggf", "<file>", (1, 1), |a| {
        Ok(Command::SaveGgf(a[0].to_string()))
    }),
    spec("oxello-transcript", "", (0, 0), |_| Ok(Command::Transcript)),
    spec("oxello-review", "[level]", (0, 1), review),
    spec("oxello-ponder", "<on/off>", (1, 1), |a| {
        on_off(a[0]).map(Command::Ponder)
    }),
    spec("oxello-opening", "", (0, 0), |_| Ok(Command::Opening)),
];

fn on_off(arg: &str) -> Result<bool, CommandError> {
    match arg {
        "on" => Ok(true),
        "off" => Ok(false),
        other => syntax(format!("expected on or off, got '{}'", shorten(other))),
    }
}

/// The command called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|c| c.name == name)
}

fn parse_command(name: &str, text: &str) -> Result<Command, CommandError> {
    let spec = find(name).ok_or(CommandError::Unknown)?;
    let words: Vec<&str> = text.split_whitespace().collect();
    let (min, max) = spec.arity;
    if words.len() < min || words.len() > max {
        return syntax(format!("usage: {}", spec.usage()));
    }
    (spec.parse)(&words)
}

fn time_settings(a: &[&str]) -> Result<Command, CommandError> {
    Ok(Command::TimeSettings {
        main: whole(a[0], "seconds", seconds)?,
        byoyomi: whole(a[1], "seconds", seconds)?,
        stones: whole(a[2], "a stone count", unsigned)?,
    })
}

fn time_left(a: &[&str]) -> Result<Command, CommandError> {
    Ok(Command::TimeLeft {
        color: whole(a[0], "a color", color)?,
        time: whole(a[1], "seconds", seconds)?,
        stones: whole(a[2], "a stone count", unsigned)?,
    })
}

fn setboard(a: &[&str]) -> Result<Command, CommandError> {
    let side = parse_side(a[1]).or_else(|e| syntax(e.0))?;
    parse_board_chars(a[0], side)
        .map(Command::Setboard)
        .or_else(|e| syntax(e.0))
}

fn analyze(a: &[&str]) -> Result<Command, CommandError> {
    let lines = a.first().map(|l| option(l)).transpose()?;
    let seconds = a.get(1).map(|s| option(s)).transpose()?;
    Ok(Command::Analyze {
        lines: lines.map_or(1, Lines::get),
        seconds: seconds.map(Seconds::get),
    })
}

fn load_ggf(a: &[&str]) -> Result<Command, CommandError> {
    let ply = a
        .get(1)
        .map(|n| whole(n, "a move number", unsigned))
        .transpose()?;
    Ok(Command::LoadGgf(a[0].to_string(), ply.map(|n| n as usize)))
}

/// The review's level, 1-60 (default [`DEFAULT_REVIEW_LEVEL`]).
fn review(a: &[&str]) -> Result<Command, CommandError> {
    let Some(text) = a.first() else {
        return Ok(Command::Review(DEFAULT_REVIEW_LEVEL));
    };
    Level::parse_some(text)
        .map(Command::Review)
        .or_else(|_| syntax(format!("expected a level 1..60, got '{}'", shorten(text))))
}
