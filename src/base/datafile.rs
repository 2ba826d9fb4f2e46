//! What the engine's data files share: the FNV-1a checksum of the payload, the errors of the
//! frame around it, and [`write_atomically`], which replaces a file whole or not at all.
//!
//! The weights (`eval::weights`), the book (`book::file`) and the binary training records (in
//! the binary's `tools::training::record`) each frame a payload the same way: a fixed header
//! that starts with an 8-byte magic and a little-endian u32 format version and holds the
//! payload's length (or what makes it) and checksum, then the payload. [`Frame::open`] checks
//! the header's length, magic and version; each format checks its own fields; then
//! [`Frame::payload`] checks the payload's length and checksum. [`frame`] writes them all. Each format's error wraps a
//! [`FrameError`] and names its kind of file in the message.

use std::fmt;
use std::io::{self, Write};
use std::path::Path;

/// The header's bytes before the version field: the magic.
const MAGIC_BYTES: usize = 8;

/// FNV-1a, 64 bits.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// What is wrong with a data file's frame: its header, or its payload's length or checksum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameError {
    /// The file's size: less than a header.
    TooShort(usize),
    /// The file does not start with the format's magic.
    Magic,
    Version {
        found: u32,
        expected: u32,
    },
    /// The payload's size is not the one the header gives.
    Length {
        expected: u64,
        found: usize,
    },
    Checksum {
        stored: u64,
        computed: u64,
    },
}

impl FrameError {
    /// Writes the error of a `file` file ("book", "weights", ...).
    pub fn describe(&self, file: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FrameError::TooShort(n) => write!(f, "{n} bytes is too short for a {file} file"),
            FrameError::Magic => write!(f, "not an Oxello {file} file (bad magic)"),
            FrameError::Version { found, expected } => write!(
                f,
                "{file} format version {found}; this build reads version {expected}"
            ),
            FrameError::Length { expected, found } => write!(
                f,
                "payload of {found} bytes, the header says {expected}: truncated?"
            ),
            FrameError::Checksum { stored, computed } => write!(
                f,
                "checksum {computed:016x} does not match the header's {stored:016x}: the file is corrupt"
            ),
        }
    }
}

/// A field of a header after its version, written little-endian by [`frame`].
#[derive(Copy, Clone, Debug)]
pub enum Field {
    U32(u32),
    U64(u64),
}

/// A data file's bytes, as [`Frame`] reads them back: `magic`, `version`, the format's
/// `fields`, the payload's checksum (the header's last field), then the payload.
pub fn frame(magic: &[u8; MAGIC_BYTES], version: u32, fields: &[Field], payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(MAGIC_BYTES + 12 + 8 * fields.len() + payload.len());
    bytes.extend_from_slice(magic);
    bytes.extend_from_slice(&version.to_le_bytes());
    for field in fields {
        match *field {
            Field::U32(value) => bytes.extend_from_slice(&value.to_le_bytes()),
            Field::U64(value) => bytes.extend_from_slice(&value.to_le_bytes()),
        }
    }
    bytes.extend_from_slice(&checksum(payload).to_le_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

/// A data file whose header has the right size, magic and version: the header's fields, and
/// the payload after it.
pub struct Frame<'a> {
    header: &'a [u8],
    payload: &'a [u8],
}

impl<'a> Frame<'a> {
    /// Splits `bytes` after a header of `header_bytes` (at least 12), once the header starts
    /// with `magic` and then `version`.
    pub fn open(
        bytes: &'a [u8],
        magic: &[u8; MAGIC_BYTES],
        version: u32,
        header_bytes: usize,
    ) -> Result<Frame<'a>, FrameError> {
        if bytes.len() < header_bytes {
            return Err(FrameError::TooShort(bytes.len()));
        }
        let (header, payload) = bytes.split_at(header_bytes);
        if !header.starts_with(magic) {
            return Err(FrameError::Magic);
        }
        let frame = Frame { header, payload };
        match frame.u32_at(MAGIC_BYTES) {
            found if found != version => Err(FrameError::Version {
                found,
                expected: version,
            }),
            _ => Ok(frame),
        }
    }

    /// The header's little-endian u32 at `at`.
    pub fn u32_at(&self, at: usize) -> u32 {
        u32::from_le_bytes(self.field(at))
    }

    /// The header's little-endian u64 at `at`.
    pub fn u64_at(&self, at: usize) -> u64 {
        u64::from_le_bytes(self.field(at))
    }

    fn field<const N: usize>(&self, at: usize) -> [u8; N] {
        self.header[at..at + N]
            .try_into()
            .expect("a field of the header")
    }

    /// The payload, once it is `expected` bytes long and its checksum is `stored`.
    pub fn payload(&self, expected: u64, stored: u64) -> Result<&'a [u8], FrameError> {
        let found = self.payload.len();
        if found as u64 != expected {
            return Err(FrameError::Length { expected, found });
        }
        let computed = checksum(self.payload);
        if computed != stored {
            return Err(FrameError::Checksum { stored, computed });
        }
        Ok(self.payload)
    }
}

/// The temporary file that this process writes `path` through: `<name>.tmp<pid>` beside it.
fn temporary_name(path: &Path) -> io::Result<std::path::PathBuf> {
    let mut name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_os_string();
    name.push(format!(".tmp{}", std::process::id()));
    Ok(path.with_file_name(name))
}

/// Whether the process `pid` is still running. Where that cannot be told (no `/proc`), every
/// process counts as alive, so a live writer's temporary file is never taken for stale.
fn alive(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return true;
    }
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes the temporary files that writers of `path` killed before their rename left beside
/// it (`<name>.tmp<pid>` of a process that is no longer running). A reused pid only keeps a
/// stale file longer; a live writer's file is never removed. Tools call it when they open
/// their output, and [`write_atomically`] before every write.
pub fn remove_stale_temporaries(path: &Path) {
    let (Some(name), Some(dir)) = (path.file_name(), path.parent()) else {
        return;
    };
    let prefix = format!("{}.tmp", name.to_string_lossy());
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let pid = file.to_str().and_then(|f| f.strip_prefix(&prefix));
        let pid = pid.filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        if let Some(pid) = pid.and_then(|p| p.parse::<u32>().ok()) {
            if pid != std::process::id() && !alive(pid) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Writes `bytes` to `path` by way of a temporary file beside it, synced and then renamed over
/// `path`, so that neither a reader nor a crash ever sees half a file (the directory is synced
/// too, so the rename itself reaches the disk). The temporary's name carries the process id,
/// so two processes writing one file never share it. On an error `path` is left as it was and
/// the temporary file is removed; those that killed writers left are removed first.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temporary = temporary_name(path)?;
    remove_stale_temporaries(path);
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
        return written;
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Ok(dir) = std::fs::File::open(dir.unwrap_or(Path::new("."))) {
        let _ = dir.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAGIC: &[u8; 8] = b"OXTEST\r\n";

    /// A file of a 28-byte header (magic, version 1, payload length, checksum), then `payload`.
    fn file(payload: &[u8]) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&1u32.to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&checksum(payload).to_le_bytes());
        bytes.extend_from_slice(payload);
        bytes
    }

    fn payload(bytes: &[u8]) -> Result<&[u8], FrameError> {
        let frame = Frame::open(bytes, MAGIC, 1, 28)?;
        frame.payload(frame.u64_at(12), frame.u64_at(20))
    }

    #[test]
    fn fnv1a_of_known_strings() {
        assert_eq!(checksum(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(checksum(b"a"), 0xAF63_DC4C_8601_EC8C);
    }

    #[test]
    fn frame_lays_out_magic_version_fields_checksum_and_payload() {
        let fields = [Field::U64(7)];
        assert_eq!(frame(MAGIC, 1, &fields, b"payload"), file(b"payload"));
        let bytes = frame(MAGIC, 3, &[Field::U32(0x0102_0304), Field::U64(5)], b"xy");
        assert_eq!(bytes.len(), 8 + 4 + 4 + 8 + 8 + 2);
        assert_eq!(bytes[8..16], [3, 0, 0, 0, 4, 3, 2, 1]);
        assert_eq!(bytes[16..24], [5, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(bytes[24..32], checksum(b"xy").to_le_bytes());
        assert_eq!(&bytes[32..], b"xy");
    }

    #[test]
    fn a_frame_gives_back_its_payload_or_what_is_wrong() {
        let bytes = file(b"payload");
        assert_eq!(payload(&bytes), Ok(&b"payload"[..]));
        assert_eq!(payload(&bytes[..20]), Err(FrameError::TooShort(20)));
        let found = bytes.len() - 29;
        let short = payload(&bytes[..bytes.len() - 1]);
        assert_eq!(short, Err(FrameError::Length { expected: 7, found }));
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(
            payload(&flipped),
            Err(FrameError::Checksum { .. })
        ));
        let mut foreign = bytes.clone();
        foreign[0] = b'X';
        assert_eq!(payload(&foreign), Err(FrameError::Magic));
        let mut future = bytes;
        future[8] = 2;
        let version = FrameError::Version {
            found: 2,
            expected: 1,
        };
        assert_eq!(payload(&future), Err(version));
    }

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bin");
        std::fs::write(&path, b"old contents, longer than the new").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["out.bin"]);
    }

    #[test]
    fn a_failed_write_leaves_the_target_as_it_was_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing-dir").join("out.bin");
        assert!(write_atomically(&missing, b"x").is_err());
        assert!(!missing.exists());
        // A directory in the way: the temporary is written, the rename fails.
        let taken = dir.path().join("taken");
        std::fs::create_dir(&taken).unwrap();
        std::fs::write(taken.join("inside"), b"kept").unwrap();
        assert!(write_atomically(&taken, b"x").is_err());
        assert_eq!(std::fs::read(taken.join("inside")).unwrap(), b"kept");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["taken"]);
    }
}
