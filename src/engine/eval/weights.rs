//! The evaluation's weights file: a versioned header, then the weights.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "OXEVAL\r\n"
//!      8     4  format version (1), little-endian
//!     12     4  feature-set id (4: the 70 instances of `patterns::SHAPES`, the count
//!                tables of `eval::COUNT_TABLES`, then mobility, potential mobility and parity)
//!     16     4  phase count (16: empties 0-3, 4-7, ..., 60)
//!     20     4  weights per phase (521,786: every shape's table, the count tables,
//!                the constant, 3 scalars)
//!     24     8  FNV-1a 64 checksum of the payload
//!     32     -  payload: the weights, phase by phase, each an i16 in centi-discs, LE
//! ```
//!
//! The shipped file, `src/engine/eval/weights.bin`, is embedded in the binary; `--eval-file` loads
//! another. `oxello train` writes them (see README.md for the commands that make the shipped
//! one from nothing).

use super::patterns::PHASE_WEIGHTS;
use crate::base::datafile::{frame, Field, Frame, FrameError};
use std::fmt;

pub const MAGIC: &[u8; 8] = b"OXEVAL\r\n";
pub const VERSION: u32 = 1;
/// Set 1 had no parity feature; set 2 had Edax's 11 shapes only; set 3 no count tables.
pub const FEATURE_SET: u32 = 4;
/// Empties per phase: phase `empties / PHASE_WIDTH` has its own weights.
pub const PHASE_WIDTH: u32 = 4;
pub const PHASES: usize = 60 / PHASE_WIDTH as usize + 1;
/// Weights after the tables in each phase: a constant for the side to move, then one per
/// scalar feature (`eval::scalar_features`).
pub const SCALARS: usize = 1 + super::SCALAR_FEATURES;
/// Index of the constant in a phase's weights, after the pattern and count tables; the scalar
/// features' weights follow it.
pub const BIAS: usize = PHASE_WEIGHTS + super::COUNT_WEIGHTS;
pub const WEIGHTS_PER_PHASE: usize = BIAS + SCALARS;
/// One phase's weights: the pattern tables, the count tables, the constant and the scalars'.
pub type PhaseWeights = [i16; WEIGHTS_PER_PHASE];
const HEADER_BYTES: usize = 32;

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The header, or the payload's length or checksum.
    Frame(FrameError),
    FeatureSet(u32),
    Shape {
        phases: u32,
        per_phase: u32,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Frame(e) => e.describe("weights", f),
            WeightsError::FeatureSet(id) => {
                write!(f, "feature set {id}; this build uses feature set {FEATURE_SET}")
            }
            WeightsError::Shape { phases, per_phase } => write!(
                f,
                "{phases} phases of {per_phase} weights; this build needs {PHASES} of {WEIGHTS_PER_PHASE}"
            ),
        }
    }
}

impl std::error::Error for WeightsError {}

impl From<FrameError> for WeightsError {
    fn from(e: FrameError) -> WeightsError {
        WeightsError::Frame(e)
    }
}

/// Validated weights, `WEIGHTS_PER_PHASE` per phase.
pub struct Weights {
    values: Box<[i16]>,
    checksum: u64,
}

impl Weights {
    /// Reads and checks a weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let frame = Frame::open(bytes, MAGIC, VERSION, HEADER_BYTES)?;
        match frame.u32_at(12) {
            FEATURE_SET => {}
            id => return Err(WeightsError::FeatureSet(id)),
        }
        let (phases, per_phase) = (frame.u32_at(16), frame.u32_at(20));
        if (phases as usize, per_phase as usize) != (PHASES, WEIGHTS_PER_PHASE) {
            return Err(WeightsError::Shape { phases, per_phase });
        }
        let stored = frame.u64_at(24);
        let payload = frame.payload((PHASES * WEIGHTS_PER_PHASE * 2) as u64, stored)?;
        let values = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Weights {
            values,
            checksum: stored,
        })
    }

    /// Reads and checks the weights file at `path`; an error names the file.
    pub fn read(path: &std::path::Path) -> Result<Weights, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Weights::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The file of `values` (`WEIGHTS_PER_PHASE` per phase), header included.
    pub fn to_bytes(values: &[i16]) -> Vec<u8> {
        assert_eq!(
            values.len(),
            PHASES * WEIGHTS_PER_PHASE,
            "weights of every phase"
        );
        let payload: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let fields = [FEATURE_SET, PHASES as u32, WEIGHTS_PER_PHASE as u32].map(Field::U32);
        frame(MAGIC, VERSION, &fields, &payload)
    }

    /// Every phase's weights, in the file's order (`WEIGHTS_PER_PHASE` per phase).
    pub fn values(&self) -> &[i16] {
        &self.values
    }

    /// One phase's weights.
    #[inline]
    pub fn phase(&self, phase: usize) -> &PhaseWeights {
        self.values[phase * WEIGHTS_PER_PHASE..(phase + 1) * WEIGHTS_PER_PHASE]
            .try_into()
            .expect("a phase's range is WEIGHTS_PER_PHASE long")
    }

    /// The payload's checksum: the name of these weights.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }
}
