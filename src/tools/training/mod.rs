//! Training the evaluation: labelled positions from self-play and recorded games
//! ([`selfplay`]), in the formats of [`record`], joined by [`merge`], fitted into a weights
//! file by [`fit`].

pub mod fit;
pub mod merge;
pub mod record;
pub mod selfplay;
