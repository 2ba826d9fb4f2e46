//! Training the evaluation: labelled positions from self-play and recorded games
//! ([`selfplay`]), in the formats of [`record`], joined by [`merge`], given backed-up labels
//! by [`relabel`], fitted into a weights file by [`fit`].

pub mod fit;
pub mod merge;
pub mod record;
pub mod relabel;
pub mod selfplay;
