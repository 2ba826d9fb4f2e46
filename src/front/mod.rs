//! The front ends: each translates its protocol's lines into calls on
//! [`crate::play::session::Play`] and formats what comes back. They own no game state.
//!
//! - [`gtp`]: GTP version 2 with the Othello conventions of Quarry, gtp-rhino and Edax.
//! - [`nboard`]: the NBoard GUI's protocol.

pub mod gtp;
pub mod nboard;
