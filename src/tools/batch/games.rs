//! `oxello data games IN... [--out OUT]`: game files read by `engine::gamefile` (any format)
//! and written as the name of OUT asks: `.wtb` a WTHOR database, `.ggf` GGF records, anything
//! else transcripts, one per line (to stdout without --out).

use crate::base::datafile::write_atomically;
use crate::engine::gamefile::{
    read_named, write_ggf, write_transcript, write_wtb, year_in_name, Record,
};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Reads every game of `inputs`, then writes them to `out` and says so, or answers them as
/// transcripts, one per line.
pub fn convert_games(inputs: &[PathBuf], out: Option<&Path>) -> Result<String, String> {
    let mut records = Vec::new();
    for input in inputs {
        let bytes = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
        let name = input.to_string_lossy();
        records.extend(read_named(&bytes, &name).map_err(|e| format!("{name}: {e}"))?);
    }
    let Some(out) = out else {
        let lines: Vec<String> = records.iter().map(|r| write_transcript(&r.game)).collect();
        return Ok(lines.join("\n"));
    };
    let bytes = encode(&records, out)?;
    write_atomically(out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(format!(
        "{} games written to {}",
        records.len(),
        out.display()
    ))
}

/// The games in the format `out`'s name asks for.
fn encode(records: &[Record], out: &Path) -> Result<Vec<u8>, String> {
    let name = out.to_string_lossy();
    let extension = out
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let lines =
        |f: &dyn Fn(&Record) -> String| records.iter().map(|r| f(r) + "\n").collect::<String>();
    Ok(match extension.as_deref() {
        Some("wtb") => {
            let [y, m, d] = today();
            let year = year_in_name(&name)
                .or_else(|| records.first().and_then(|r| r.year))
                .unwrap_or(y);
            let created = [(y / 100) as u8, (y % 100) as u8, m as u8, d as u8];
            write_wtb(records, year, created)?
        }
        Some("ggf") => lines(&write_ggf).into_bytes(),
        _ => lines(&|r| write_transcript(&r.game)).into_bytes(),
    })
}

/// Today's date (UTC) as year, month, day, from the days since 1970 (H. Hinnant's rule).
fn today() -> [u16; 3] {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    [year as u16, month as u16, day as u16]
}
