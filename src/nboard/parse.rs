//! NBoard lines and GGF game records, parsed with `nom` into typed commands. Nothing here
//! panics: every malformed line becomes an error that says what is wrong.

use crate::board::{Color, Position};
use crate::game::{Game, Move};
use crate::notation::{parse_board_chars, parse_side, parse_square};
use nom::branch::alt;
use nom::bytes::complete::{is_not, tag, tag_no_case, take_while1};
use nom::character::complete::{char, digit1, multispace0, space0, space1};
use nom::combinator::{all_consuming, map, map_res, opt, rest, value};
use nom::multi::many0;
use nom::sequence::{delimited, pair, preceded, terminated, tuple};
use nom::IResult;

/// Every NBoard command, with typed arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Hello(u32),
    SetGame(Game),
    SetDepth(u32),
    SetContempt(i64),
    Move(Move),
    Ping(u64),
    Go,
    Hint(usize),
    Learn,
    Analyze,
    Quit,
}

/// The deepest `set depth`.
pub const MAX_DEPTH: u32 = 60;
/// The most lines a `hint` gets.
pub const MAX_HINTS: usize = 32;

/// Parses one line (without its newline).
pub fn parse_command(line: &str) -> Result<Command, String> {
    let line = line.trim();
    let word = line.split_whitespace().next().unwrap_or("");
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
        map(preceded(pair(tag("hint"), space1), number), |n| {
            Command::Hint(n as usize)
        }),
        value(Command::Learn, tag("learn")),
        value(Command::Analyze, tag("analyze")),
        value(Command::Quit, tag("quit")),
    )))(line);
    match parsed {
        Ok((_, Command::SetDepth(d))) if !(1..=MAX_DEPTH).contains(&d) => {
            Err(format!("depth {d} is outside 1-{MAX_DEPTH}"))
        }
        Ok((_, Command::Hint(n))) if !(1..=MAX_HINTS).contains(&n) => {
            Err(format!("hint {n} is outside 1-{MAX_HINTS}"))
        }
        Ok((_, command)) => Ok(command),
        Err(_) => Err(match word {
            "" => "empty line".to_string(),
            "nboard" | "set" | "move" | "ping" | "hint" | "go" | "learn" | "analyze" | "quit" => {
                format!("malformed '{word}' command: '{}'", shorten(line))
            }
            _ => format!("unknown command '{}'", shorten(word)),
        }),
    }
}

fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push_str("...");
    }
    out
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
        map(preceded(pair(tag("depth"), space1), number), |d| {
            Command::SetDepth(d.min(u64::from(u32::MAX)) as u32)
        }),
        map(preceded(pair(tag("contempt"), space1), signed), |c| {
            Command::SetContempt(c)
        }),
        map_res(preceded(pair(tag("game"), space1), rest), |g: &str| {
            parse_ggf(g).map(Command::SetGame)
        }),
    ))(i)
}

/// A square or `PA`, either case.
fn nmove(i: &str) -> IResult<&str, Move> {
    alt((
        value(Move::Pass, tag_no_case("pa")),
        map_res(
            take_while1(|c: char| c.is_ascii_alphanumeric()),
            |s: &str| parse_square(s).map(Move::Play),
        ),
    ))(i)
}

/// A move with its optional `/eval/time` annotations (checked to be numbers, then dropped).
fn annotated_move(i: &str) -> IResult<&str, (Move, ())> {
    let annotation = |i| {
        preceded(
            char('/'),
            opt(map_res(is_not("/] \t"), |s: &str| {
                s.parse::<f64>().map(|_| ())
            })),
        )(i)
    };
    map(
        terminated(nmove, pair(opt(annotation), opt(annotation))),
        |m| (m, ()),
    )(i)
}

/// One `NAME[value]` property of a GGF record.
fn property(i: &str) -> IResult<&str, (&str, &str)> {
    delimited(
        multispace0,
        pair(
            take_while1(|c: char| c.is_ascii_uppercase()),
            delimited(char('['), opt(is_not("]")), char(']')),
        ),
        multispace0,
    )(i)
    .map(|(rest, (name, v))| (rest, (name, v.unwrap_or(""))))
}

/// Parses a GGF record, `(;GM[Othello]...BO[8 ...]B[f5]W[...]...;)`, into a game: the `BO`
/// position and every move after it, checked against the rules. Unknown properties are
/// skipped, in any order.
pub fn parse_ggf(text: &str) -> Result<Game, String> {
    let parsed: IResult<&str, Vec<(&str, &str)>> = all_consuming(delimited(
        tuple((multispace0, tag("(;"))),
        many0(property),
        tuple((tag(";)"), space0)),
    ))(text.trim());
    let properties = parsed
        .map(|(_, p)| p)
        .map_err(|_| "not a GGF record '(;...;)'".to_string())?;
    let mut game: Option<Game> = None;
    for (name, value) in properties {
        match name {
            "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                return Err(format!("game '{value}' is not Othello"));
            }
            "TY" if !value.trim().starts_with('8') => {
                return Err(format!("board type '{value}' is not 8x8"));
            }
            "BO" => {
                if game.is_some() {
                    return Err("two BO properties".into());
                }
                game = Some(Game::new(parse_board(value)?));
            }
            "B" | "W" => {
                let game = game.as_mut().ok_or("a move before the BO position")?;
                let color = if name == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let mv = match annotated_move(value.trim()) {
                    Ok(("", (mv, ()))) => mv,
                    _ => return Err(format!("malformed move {name}[{value}]")),
                };
                apply(game, color, mv).map_err(|e| {
                    format!("move {} {name}[{value}]: {e}", game.record().len() + 1)
                })?;
            }
            _ => {}
        }
    }
    game.ok_or_else(|| "no BO position".into())
}

/// Plays `mv` for `color` on `game`, a pass only when `color` has no move.
pub fn apply(game: &mut Game, color: Color, mv: Move) -> Result<(), String> {
    match mv {
        Move::Play(sq) => game.play(color, sq).map_err(|e| e.to_string()),
        Move::Pass => {
            let pos = game.position();
            if game.is_over() {
                Err("the game is over".into())
            } else if pos.side != color {
                Err(format!("{} is to move", pos.side.name()))
            } else if pos.moves_of(color) != 0 {
                Err(format!("{} has a legal move and cannot pass", color.name()))
            } else {
                game.pass(color).map_err(|e| e.to_string())
            }
        }
    }
}

/// `8 <64 squares, spaces allowed> <side>`, in the alphabet of
/// [`parse_board_chars`] and [`parse_side`] (`-` empty, `*` black, `O` white).
fn parse_board(value: &str) -> Result<Position, String> {
    let body = value
        .trim()
        .strip_prefix('8')
        .filter(|b| b.starts_with(char::is_whitespace))
        .ok_or("BO does not start with the board size 8")?;
    let cells: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    let Some((split, _)) = cells
        .char_indices()
        .nth(64)
        .filter(|_| cells.chars().count() == 65)
    else {
        return Err(format!(
            "BO has {} squares and side, expected 64 and 1",
            cells.chars().count()
        ));
    };
    let side = parse_side(&cells[split..]).map_err(|e| format!("BO: {e}"))?;
    parse_board_chars(&cells[..split], side).map_err(|e| format!("BO: {e}"))
}
