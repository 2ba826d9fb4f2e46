//! Training the evaluation: labelled positions from self-play and recorded games
//! ([`selfplay`]), in the format of [`record`], fitted into a weights file by [`fit`].

pub mod fit;
pub mod record;
pub mod selfplay;
