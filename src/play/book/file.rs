//! The book file: a fixed header, then the entries sorted by key, so that one book always
//! makes the same bytes.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "OXBOOK\r\n"
//!      8     4  format version (1), little-endian
//!     12     4  position count
//!     16     8  evaluation id: the checksum of the weights that searched the book
//!     24     8  body length in bytes
//!     32     8  FNV-1a 64 checksum of the body
//!     40     -  body: per position, by key: player u64, opponent u64 (canonical), value i16
//!               (centi-discs), depth u8 (255: exact), move count u8, then per move
//!               square u8 (canonical orientation) and score i16, best first
//! ```
//!
//! Writes go through [`write_atomically`] (a synced temporary file beside `FILE`, renamed
//! over it): the file on disk is always a whole book. Reading refuses a foreign, truncated or corrupt file with a [`BookError`].

use super::store::{Book, Depth, Entry, Key, Scored};
use crate::base::datafile::{frame, write_atomically, Field, Frame, FrameError};
use std::fmt;
use std::path::{Path, PathBuf};

pub const MAGIC: &[u8; 8] = b"OXBOOK\r\n";
pub const VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 40;
/// The depth byte of an exact score.
const EXACT: u8 = 255;
/// Bytes of a position before its moves, and of one move.
const RECORD_BYTES: usize = 20;
const MOVE_BYTES: usize = 3;

/// Why a book could not be read or written.
#[derive(Debug)]
pub enum BookError {
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The header, or the body's length or checksum.
    Frame(FrameError),
    /// The body does not hold the header's positions, well formed and in key order.
    Record { index: usize, what: &'static str },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            BookError::Frame(e) => e.describe("book", f),
            BookError::Record { index, what } => {
                write!(f, "position {index}: {what}: the file is corrupt")
            }
        }
    }
}

impl std::error::Error for BookError {}

impl From<FrameError> for BookError {
    fn from(e: FrameError) -> BookError {
        BookError::Frame(e)
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> BookError + '_ {
    move |error| BookError::Io {
        path: path.to_path_buf(),
        error,
    }
}

impl Book {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.len() * (RECORD_BYTES + 10 * MOVE_BYTES));
        for (key, entry) in self.entries() {
            encode(&mut body, key, entry);
        }
        let fields = [
            Field::U32(self.len() as u32),
            Field::U64(self.evaluation()),
            Field::U64(body.len() as u64),
        ];
        frame(MAGIC, VERSION, &fields, &body)
    }

    /// Reads a book from a file's bytes, checking header, checksum and every record's form.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let (count, evaluation, body) = header(bytes)?;
        let mut book = Book::new(evaluation);
        let mut reader = Reader { body, at: 0 };
        let mut last: Option<Key> = None;
        for index in 0..count {
            let (key, entry) = reader
                .record()
                .map_err(|what| BookError::Record { index, what })?;
            if last.is_some_and(|l| l >= key) {
                return Err(BookError::Record {
                    index,
                    what: "positions out of order",
                });
            }
            last = Some(key);
            book.insert(key, entry);
        }
        if reader.at != body.len() {
            return Err(BookError::Record {
                index: count,
                what: "bytes after the last position",
            });
        }
        Ok(book)
    }

    /// Reads the book at `path`.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(io_error(path))?;
        Book::from_bytes(&bytes)
    }

    /// Reads the book at `path`, or an empty one for `evaluation` when there is no file yet.
    pub fn open_or_new(path: &Path, evaluation: u64) -> Result<Book, BookError> {
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Book::new(evaluation)),
            _ => Book::open(path),
        }
    }

    /// Writes the book to `path` atomically (see [`write_atomically`]).
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        write_atomically(path, &self.to_bytes()).map_err(io_error(path))
    }
}

/// The header's position count and evaluation id, and the body once its length and
/// checksum are right.
fn header(bytes: &[u8]) -> Result<(usize, u64, &[u8]), FrameError> {
    let frame = Frame::open(bytes, MAGIC, VERSION, HEADER_BYTES)?;
    let body = frame.payload(frame.u64_at(24), frame.u64_at(32))?;
    Ok((frame.u32_at(12) as usize, frame.u64_at(16), body))
}

fn encode(out: &mut Vec<u8>, key: &Key, entry: &Entry) {
    out.extend_from_slice(&key.player.to_le_bytes());
    out.extend_from_slice(&key.opponent.to_le_bytes());
    out.extend_from_slice(&(entry.value as i16).to_le_bytes());
    out.push(match entry.depth {
        Depth::Plies(d) => d,
        Depth::Exact => EXACT,
    });
    out.push(entry.scores.len() as u8);
    for s in &entry.scores {
        out.push(s.square as u8);
        out.extend_from_slice(&(s.score as i16).to_le_bytes());
    }
}

/// Reads records off a checked body.
struct Reader<'a> {
    body: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], &'static str> {
        let bytes = self
            .body
            .get(self.at..self.at + N)
            .ok_or("the body ends inside it")?;
        self.at += N;
        Ok(bytes.try_into().expect("N bytes"))
    }

    fn record(&mut self) -> Result<(Key, Entry), &'static str> {
        let key = Key {
            player: u64::from_le_bytes(self.take()?),
            opponent: u64::from_le_bytes(self.take()?),
        };
        if key.player & key.opponent != 0 || Key::of(&key.board()) != key {
            return Err("not a canonical board");
        }
        let value = i32::from(i16::from_le_bytes(self.take()?));
        let depth = match self.take::<1>()?[0] {
            EXACT => Depth::Exact,
            d => Depth::Plies(d),
        };
        let count = self.take::<1>()?[0];
        let scores = (0..count)
            .map(|_| {
                let [square] = self.take::<1>()?;
                let score = i16::from_le_bytes(self.take()?);
                (square < 64)
                    .then_some(Scored {
                        square: u32::from(square),
                        score: i32::from(score),
                    })
                    .ok_or("a move off the board")
            })
            .collect::<Result<_, _>>()?;
        Ok((
            key,
            Entry {
                value,
                depth,
                scores,
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::{Board, Squares};

    fn small_book() -> Book {
        let key = Key::of(&Board::START);
        let scores = Squares(key.board().moves())
            .map(|square| Scored { square, score: -40 })
            .collect();
        let mut book = Book::new(0x1234);
        book.insert(key, Entry::searched(Depth::Exact, scores));
        book
    }

    #[test]
    fn a_book_reads_back_as_written() {
        let book = small_book();
        let bytes = book.to_bytes();
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
    }

    #[test]
    fn damaged_files_are_refused_with_their_reason() {
        let bytes = small_book().to_bytes();
        let err = |b: &[u8]| Book::from_bytes(b).unwrap_err();
        let frame = |b: &[u8]| match err(b) {
            BookError::Frame(e) => e,
            e => panic!("not a frame error: {e}"),
        };
        assert_eq!(frame(&bytes[..10]), FrameError::TooShort(10));
        let short = frame(&bytes[..bytes.len() - 1]);
        assert!(matches!(short, FrameError::Length { .. }));
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(frame(&flipped), FrameError::Checksum { .. }));
        let mut foreign = bytes.clone();
        foreign[..8].copy_from_slice(b"OXEVAL\r\n");
        assert_eq!(frame(&foreign), FrameError::Magic);
        let mut future = bytes.clone();
        future[8] = 2;
        let version = frame(&future);
        assert!(matches!(version, FrameError::Version { found: 2, .. }));
    }

    #[test]
    fn a_record_that_is_not_canonical_is_refused() {
        let mut book = small_book();
        let key = *book.entries().next().unwrap().0;
        let entry = book.entries.remove(&key).unwrap();
        let mirrored = Key {
            player: key.opponent,
            opponent: key.player,
        };
        book.entries.insert(mirrored, entry);
        let err = Book::from_bytes(&book.to_bytes()).unwrap_err();
        assert!(matches!(err, BookError::Record { index: 0, .. }), "{err}");
    }

    #[test]
    fn save_replaces_the_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.bin");
        std::fs::write(&path, b"old").unwrap();
        small_book().save(&path).unwrap();
        assert_eq!(Book::open(&path).unwrap(), small_book());
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["book.bin"], "no temporary left beside the book");
    }
}
