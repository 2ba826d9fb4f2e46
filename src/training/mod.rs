//! Making the evaluation's training data: labelled positions from self-play and recorded
//! games ([`selfplay`]), in the format of [`record`].

pub mod record;
pub mod selfplay;
