//! The tools' output files, written whole or not at all.

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` by way of a temporary file beside it, synced and then renamed over
/// `path`, so that neither a reader nor a crash ever sees half a file. On an error `path` is
/// left as it was and the temporary file is removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_os_string();
    name.push(format!(".tmp{}", std::process::id()));
    let temporary = path.with_file_name(name);
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::write_atomically;

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
