//! NBoard lines, parsed with `nom` into typed commands (the GGF records and moves they carry
//! are read by [`crate::engine::ggf`]). Nothing here panics: every malformed line becomes an error that
//! says what is wrong.

use crate::engine::game::{Game, Move};
use crate::engine::ggf::{annotated_move, parse_ggf};
use crate::engine::search::level::MAX_LEVEL;
use crate::engine::search::Level;
use crate::play::values::Lines;
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, digit1, space1};
use nom::combinator::{all_consuming, map, map_res, opt, rest, value};
use nom::sequence::{pair, preceded};
use nom::IResult;

/// Every NBoard command, with typed arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Hello(u32),
    SetGame(Game),
    SetDepth(Level),
    SetContempt(i64),
    Move(Move),
    Ping(u64),
    Go,
    Hint(usize),
    Learn,
    Analyze,
    Quit,
}

/// Parses one line (without its newline).
pub fn parse_command(line: &str) -> Result<Command, String> {
    let line = line.trim();
    let word = line.split_whitespace().next().unwrap_or("");
    if let Some(("hint", count)) = line.split_once(char::is_whitespace) {
        return count
            .trim()
            .parse::<Lines>()
            .map(|n| Command::Hint(n.get()))
            .map_err(|e| format!("hint: {e}"));
    }
    let parsed: IResult<&str, Command> = all_consuming(alt((
        map(preceded(pair(tag("nboard"), space1), number), |v| {
            Command::Hello(v as u32)
        }),
        preceded(pair(tag("set"), space1), setting),
        map(
            preceded(pair(tag("move"), space1), annotated_move),
            |(m, _)| Command::Move(m),
        ),
        map(preceded(pair(tag("ping"), space1), number), Command::Ping),
        value(Command::Go, tag("go")),
        value(Command::Learn, tag("learn")),
        value(Command::Analyze, tag("analyze")),
        value(Command::Quit, tag("quit")),
    )))(line);
    match parsed {
        Ok((_, command)) => Ok(command),
        Err(_) => Err(match word {
            "" => "empty line".to_string(),
            "set" if line.split_whitespace().nth(1) == Some("depth") => {
                format!("'{}': the depth is a level 1-{MAX_LEVEL}", shorten(line))
            }
            "nboard" | "set" | "move" | "ping" | "hint" | "go" | "learn" | "analyze" | "quit" => {
                format!("malformed '{}' command: '{}'", shorten(word), shorten(line))
            }
            _ => format!("unknown command '{}'", shorten(word)),
        }),
    }
}

fn shorten(s: &str) -> String {
    crate::base::io::quote(s, 60)
}

fn number(i: &str) -> IResult<&str, u64> {
    map_res(digit1, str::parse)(i)
}

fn signed(i: &str) -> IResult<&str, i64> {
    map_res(
        nom::combinator::recognize(pair(opt(alt((char('-'), char('+')))), digit1)),
        str::parse,
    )(i)
}

fn setting(i: &str) -> IResult<&str, Command> {
    alt((
        map_res(preceded(pair(tag("depth"), space1), digit1), |d: &str| {
            d.parse()
                .ok()
                .and_then(Level::new)
                .map(Command::SetDepth)
                .ok_or(())
        }),
        map(preceded(pair(tag("contempt"), space1), signed), |c| {
            Command::SetContempt(c)
        }),
        map_res(preceded(pair(tag("game"), space1), rest), |g: &str| {
            parse_ggf(g).map(Command::SetGame)
        }),
    ))(i)
}
