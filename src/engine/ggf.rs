//! GGF game records (`(;GM[Othello]...BO[8 ...]B[f5]W[...]...;)`) and the moves they and
//! NBoard's lines carry (a square or `PA`, with optional `/eval/time` annotations), parsed with
//! `nom` into games checked against the rules. Nothing here panics: every malformed record
//! becomes an error that says what is wrong.

use crate::base::io::quote;
use crate::engine::board::{Color, Position};
use crate::engine::game::{Game, Move};
use crate::engine::notation::{
    ascii_tag_no_case as tag_no_case, parse_board_chars, parse_side, parse_square,
};
use nom::branch::alt;
use nom::bytes::complete::{is_not, tag, take_while1};
use nom::character::complete::{char, multispace0, space0};
use nom::combinator::{all_consuming, map, map_res, opt, value};
use nom::multi::many0;
use nom::sequence::{delimited, pair, preceded, terminated, tuple};
use nom::IResult;

/// A square or `PA`, either case.
pub fn nmove(i: &str) -> IResult<&str, Move> {
    alt((
        value(Move::Pass, tag_no_case("pa")),
        map_res(
            take_while1(|c: char| c.is_ascii_alphanumeric()),
            |s: &str| parse_square(s).map(Move::Play),
        ),
    ))(i)
}

/// A move with its optional `/eval/time` annotations (checked to be numbers, then dropped).
pub fn annotated_move(i: &str) -> IResult<&str, (Move, ())> {
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

/// One `NAME[value]` property of a GGF record; `\]` and `\\` in the value are a
/// bracket and a backslash.
fn property(i: &str) -> IResult<&str, (&str, String)> {
    let (i, name) = delimited(
        multispace0,
        take_while1(|c: char| c.is_ascii_uppercase()),
        char('['),
    )(i)?;
    let (i, value) = escaped_value(i)?;
    let (i, _) = multispace0(i)?;
    Ok((i, (name, value)))
}

/// The text up to the first `]` not escaped by a backslash, unescaped, and the rest after it.
fn escaped_value(i: &str) -> IResult<&str, String> {
    let mut value = String::new();
    let mut chars = i.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            ']' => return Ok((&i[at + 1..], value)),
            '\\' => value.extend(chars.next().map(|(_, c)| c)),
            c => value.push(c),
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(
        i,
        nom::error::ErrorKind::Char,
    )))
}

/// Escapes a property value for a GGF record: `]` and `\` get a backslash.
pub fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

/// Parses a GGF record, `(;GM[Othello]...BO[8 ...]B[f5]W[...]...;)`, into a game: the `BO`
/// position and every move after it, checked against the rules. Unknown properties are
/// skipped, in any order.
pub fn parse_ggf(text: &str) -> Result<Game, String> {
    parse_ggf_record(text).map(|(game, _)| game)
}

/// [`parse_ggf`] with the record's properties other than `BO`, `B` and `W`, as named and
/// unescaped (`PB`, `PW`, `RE`, `PC`, ...).
pub fn parse_ggf_record(text: &str) -> Result<(Game, Vec<(String, String)>), String> {
    let parsed: IResult<&str, Vec<(&str, String)>> = all_consuming(delimited(
        tuple((multispace0, tag("(;"))),
        many0(property),
        tuple((tag(";)"), space0)),
    ))(text.trim());
    let properties = parsed
        .map(|(_, p)| p)
        .map_err(|_| "not a GGF record '(;...;)'".to_string())?;
    let mut game: Option<Game> = None;
    let mut others = Vec::new();
    for (name, value) in properties {
        match name {
            "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                return Err(format!("game '{}' is not Othello", quote(&value, 40)));
            }
            "TY" if !value.trim().starts_with('8') => {
                return Err(format!("board type '{}' is not 8x8", quote(&value, 40)));
            }
            "BO" => {
                if game.is_some() {
                    return Err("two BO properties".into());
                }
                game = Some(Game::new(parse_board(&value)?));
            }
            "B" | "W" => {
                let game = game.as_mut().ok_or("a move before the BO position")?;
                record_move(game, name, &value)?;
            }
            _ => others.push((name.to_string(), value)),
        }
    }
    Ok((game.ok_or("no BO position")?, others))
}

/// Plays the record's `B[..]` or `W[..]` property on `game`.
fn record_move(game: &mut Game, name: &str, value: &str) -> Result<(), String> {
    let color = if name == "B" {
        Color::Black
    } else {
        Color::White
    };
    let mv = match annotated_move(value.trim()) {
        Ok(("", (mv, ()))) => mv,
        _ => return Err(format!("malformed move {name}[{}]", quote(value, 40))),
    };
    apply(game, color, mv).map_err(|e| {
        let n = game.record().len() + 1;
        format!("move {n} {name}[{}]: {e}", quote(value, 40))
    })
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
