//! GTP command parsing with `nom`: preprocessing, the optional id, the command name and typed
//! arguments, into a [`Command`].

use crate::board::{Color, Position};
use crate::notation::{parse_board_chars, parse_side};
use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_while1};
use nom::character::complete::{char, digit1, one_of, space0, space1};
use nom::combinator::{all_consuming, map, map_res, opt, recognize, rest, value};
use nom::sequence::{pair, preceded, terminated, tuple};
use nom::IResult;

/// A move in a command: a square or a pass.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Vertex {
    Square(u32),
    Pass,
}

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
    Play(Color, Vertex),
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
    Depth(u32),
    MoveTime(f64),
    Hash(usize),
    Threads(usize),
}

/// The names of every command, as `list_commands` shows them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "final_score",
    "showboard",
    "time_settings",
    "time_left",
    "list_games",
    "set_game",
    "setboard",
    "stop",
    "analyze",
    "perft",
    "solve",
    "eval",
    "oxello-depth",
    "oxello-move_time",
    "oxello-hash",
    "oxello-threads",
];

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

fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

fn color(input: &str) -> IResult<&str, Color> {
    alt((
        value(Color::Black, tag_no_case("black")),
        value(Color::White, tag_no_case("white")),
        value(Color::Black, tag_no_case("b")),
        value(Color::White, tag_no_case("w")),
    ))(input)
}

fn vertex(input: &str) -> IResult<&str, Vertex> {
    alt((
        value(Vertex::Pass, tag_no_case("pass")),
        map(
            pair(one_of("abcdefghABCDEFGH"), one_of("12345678")),
            |(c, r)| {
                Vertex::Square(
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

/// Splits the argument text and checks the count.
fn args<'a>(
    text: &'a str,
    min: usize,
    max: usize,
    usage: &str,
) -> Result<Vec<&'a str>, CommandError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < min || words.len() > max {
        return syntax(format!("usage: {usage}"));
    }
    Ok(words)
}

fn no_args(text: &str, command: Command, name: &str) -> Result<Command, CommandError> {
    args(text, 0, 0, name).map(|_| command)
}

fn parse_command(name: &str, text: &str) -> Result<Command, CommandError> {
    use Command::*;
    match name {
        "protocol_version" => no_args(text, ProtocolVersion, name),
        "name" => no_args(text, Name, name),
        "version" => no_args(text, Version, name),
        "list_commands" => no_args(text, ListCommands, name),
        "quit" => no_args(text, Quit, name),
        "clear_board" => no_args(text, ClearBoard, name),
        "undo" => no_args(text, Undo, name),
        "final_score" => no_args(text, FinalScore, name),
        "showboard" => no_args(text, Showboard, name),
        "list_games" => no_args(text, ListGames, name),
        "stop" => no_args(text, Stop, name),
        "solve" => no_args(text, Solve, name),
        "eval" => no_args(text, Eval, name),
        "known_command" => {
            let a = args(text, 1, 1, "known_command <name>")?;
            Ok(KnownCommand(a[0].to_string()))
        }
        "boardsize" => {
            let a = args(text, 1, 1, "boardsize <size>")?;
            whole(a[0], "a board size", unsigned).map(Boardsize)
        }
        "komi" => {
            let a = args(text, 1, 1, "komi <number>")?;
            whole(a[0], "a number", signed_number).map(Komi)
        }
        "play" => {
            let a = args(text, 2, 2, "play <color> <vertex>")?;
            Ok(Play(
                whole(a[0], "a color", color)?,
                whole(a[1], "a vertex a1..h8 or pass", vertex)?,
            ))
        }
        "genmove" | "reg_genmove" => {
            let a = args(text, 1, 1, &format!("{name} <color>"))?;
            let c = whole(a[0], "a color", color)?;
            Ok(if name == "genmove" {
                Genmove(c)
            } else {
                RegGenmove(c)
            })
        }
        "time_settings" => {
            let a = args(text, 3, 3, "time_settings <main> <byoyomi> <stones>")?;
            Ok(TimeSettings {
                main: whole(a[0], "seconds", seconds)?,
                byoyomi: whole(a[1], "seconds", seconds)?,
                stones: whole(a[2], "a stone count", unsigned)?,
            })
        }
        "time_left" => {
            let a = args(text, 3, 3, "time_left <color> <seconds> <stones>")?;
            Ok(TimeLeft {
                color: whole(a[0], "a color", color)?,
                time: whole(a[1], "seconds", seconds)?,
                stones: whole(a[2], "a stone count", unsigned)?,
            })
        }
        "set_game" => {
            if text.is_empty() {
                return syntax("usage: set_game <name>");
            }
            Ok(SetGame(text.to_string()))
        }
        "setboard" => {
            let a = args(text, 2, 2, "setboard <64 squares> <side>")?;
            let side = parse_side(a[1]).or_else(|e| syntax(e.0))?;
            parse_board_chars(a[0], side)
                .map(Setboard)
                .or_else(|e| syntax(e.0))
        }
        "analyze" => {
            let a = args(text, 0, 2, "analyze [lines] [seconds]")?;
            let lines = match a.first() {
                Some(l) => whole(l, "a line count 1..32", unsigned)?,
                None => 1,
            };
            if !(1..=32).contains(&lines) {
                return syntax("expected a line count 1..32");
            }
            let seconds = a.get(1).map(|s| whole(s, "seconds", seconds)).transpose()?;
            Ok(Analyze {
                lines: lines as usize,
                seconds,
            })
        }
        "perft" => {
            let a = args(text, 1, 1, "perft <depth 1..12>")?;
            match whole(a[0], "a depth 1..12", unsigned)? {
                d @ 1..=12 => Ok(Perft(d as u32)),
                _ => syntax("expected a depth 1..12"),
            }
        }
        "oxello-depth" => {
            let a = args(text, 1, 1, "oxello-depth <plies, 0 = off>")?;
            match whole(a[0], "a depth 0..60", unsigned)? {
                d @ 0..=60 => Ok(Depth(d as u32)),
                _ => syntax("expected a depth 0..60"),
            }
        }
        "oxello-move_time" => {
            let a = args(text, 1, 1, "oxello-move_time <seconds, 0 = off>")?;
            let s = whole(a[0], "seconds", seconds)?;
            if s > 86_400.0 {
                return syntax("expected at most 86400 seconds");
            }
            Ok(MoveTime(s))
        }
        "oxello-hash" => {
            let a = args(text, 1, 1, "oxello-hash <MiB 1..4096>")?;
            match whole(a[0], "a size in MiB 1..4096", unsigned)? {
                m if crate::tt::HASH_MIB.contains(&(m as usize)) => Ok(Hash(m as usize)),
                _ => syntax("expected a size in MiB 1..4096"),
            }
        }
        "oxello-threads" => {
            let a = args(text, 1, 1, "oxello-threads <n 1..256>")?;
            match whole(a[0], "a thread count 1..256", unsigned)? {
                n @ 1..=256 => Ok(Threads(n as usize)),
                _ => syntax("expected a thread count 1..256"),
            }
        }
        _ => Err(CommandError::Unknown),
    }
}
