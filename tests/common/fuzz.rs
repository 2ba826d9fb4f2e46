//! Fuzzed input for both front ends: valid commands, the same with one strange character
//! put in (case-folding letters such as U+212A KELVIN SIGN, combining marks, separators,
//! bidi controls, NUL and control bytes), ASCII case flips, invalid UTF-8, arbitrary Unicode
//! and lines near the 64 KiB limit. Also what a front end should make of a line, written
//! from the protocols' words, not from the engine's code.

use proptest::prelude::*;

/// The engine's longest line (`base::io::MAX_LINE`).
pub const MAX_LINE: usize = 64 * 1024;

/// Characters that broke or could break a parser: Unicode case folding into ASCII (U+212A,
/// U+212B, U+0130, U+0131, U+017F, U+1E9E, U+2126, U+FB01), combining marks, full-width
/// digits, spaces and separators that are not ASCII, a BOM, a joiner and a bidi override.
pub const STRANGE: &[char] = &[
    '\u{212A}', '\u{212B}', '\u{0130}', '\u{0131}', '\u{017F}', '\u{1E9E}', '\u{2126}', '\u{FB01}',
    '\u{0301}', '\u{0307}', '\u{0338}', '\u{FF10}', '\u{FF13}', '\u{00A0}', '\u{2028}', '\u{2029}',
    '\u{0085}', '\u{FEFF}', '\u{200D}', '\u{202E}', '\0', '\r', '\u{1b}', '\u{7}', '\u{7f}', '\t',
    '#',
];

/// Byte strings that are not UTF-8: a lone continuation byte, a cut 3-byte character, an
/// overlong `/`, a surrogate and bytes that never start a character.
pub const INVALID: &[&[u8]] = &[
    b"\x80",
    b"\xbf",
    b"\xe2\x84",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf5",
    b"\xff",
];

/// Whether an output line may not hold `c`: a control character, a line or paragraph
/// separator or a bidi control (what the engine escapes when it echoes input).
pub fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'
                ..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// One fuzzed line (without its newline) from `valid`, and whether it is `valid`'s own text.
pub fn line(valid: &'static [&'static str]) -> impl Strategy<Value = (Vec<u8>, bool)> {
    let command = || proptest::sample::select(valid);
    prop_oneof![
        8 => command().prop_map(|c| (c.as_bytes().to_vec(), true)),
        6 => (command(), any::<prop::sample::Index>(), proptest::sample::select(STRANGE), any::<bool>())
            .prop_map(|(c, at, strange, replace)| (with_char(c, at, strange, replace), false)),
        2 => (command(), any::<prop::sample::Index>()).prop_map(|(c, at)| (flip_case(c, at), false)),
        2 => (command(), any::<prop::sample::Index>(), proptest::sample::select(INVALID))
            .prop_map(|(c, at, bad)| (with_bytes(c, at, bad), false)),
        2 => "(?s).{0,40}".prop_map(|s: String| (s.replace('\n', " ").into_bytes(), false)),
        1 => (command(), MAX_LINE - 8..MAX_LINE + 8, proptest::sample::select(STRANGE))
            .prop_map(|(c, len, strange)| (long(c, len, strange), false)),
    ]
}

/// `command` with `strange` put in at a character boundary, or in place of a character.
fn with_char(command: &str, at: prop::sample::Index, strange: char, replace: bool) -> Vec<u8> {
    let mut chars: Vec<char> = command.chars().collect();
    let i = at.index(chars.len() + 1);
    if replace && i < chars.len() {
        chars[i] = strange;
    } else {
        chars.insert(i, strange);
    }
    chars.into_iter().collect::<String>().into_bytes()
}

/// `command` with the case of its letters from the `at`-th on flipped (`BLACK`, `Pass`).
fn flip_case(command: &str, at: prop::sample::Index) -> Vec<u8> {
    let from = at.index(command.len() + 1);
    let flip = |(i, b): (usize, u8)| match b {
        b'a'..=b'z' if i >= from => b.to_ascii_uppercase(),
        b'A'..=b'Z' if i >= from => b.to_ascii_lowercase(),
        b => b,
    };
    command.bytes().enumerate().map(flip).collect()
}

/// `command` with `bad` bytes put in at byte `at` (which may cut nothing: commands are ASCII).
fn with_bytes(command: &str, at: prop::sample::Index, bad: &[u8]) -> Vec<u8> {
    let i = at.index(command.len() + 1);
    let mut bytes = command.as_bytes()[..i].to_vec();
    bytes.extend_from_slice(bad);
    bytes.extend_from_slice(&command.as_bytes()[i..]);
    bytes
}

/// `command`, then `strange` repeated to about `len` bytes: a cut at the limit may fall inside
/// a character.
fn long(command: &str, len: usize, strange: char) -> Vec<u8> {
    let mut text = format!("{command} ");
    while text.len() < len {
        text.push(strange);
    }
    text.into_bytes()
}

/// What GTP's preprocessing leaves of a line as the engine reads it (cut at the limit and
/// decoded with U+FFFD for invalid bytes): a `#` starts a comment, control characters go
/// (a tab becomes a space), white space at the ends goes. `None` for a line that gets no
/// response.
pub fn gtp_text(line: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(&line[..line.len().min(MAX_LINE)]);
    let text = text.split('#').next().unwrap_or("");
    let kept: String = text
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let kept = kept.trim();
    (!kept.is_empty()).then(|| kept.to_string())
}

/// The words of NBoard's protocol: a line whose first word is none of them is refused as an
/// unknown command.
pub const NBOARD_WORDS: &[&str] = &[
    "nboard", "set", "move", "ping", "go", "hint", "learn", "analyze", "quit",
];
