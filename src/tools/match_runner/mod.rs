//! `oxello match`: engine-vs-engine matches between any two Othello engines that speak GTP or
//! NBoard's protocol.
//!
//! The runner is the referee: it keeps its own board and clocks and trusts no engine. A move
//! that is illegal, malformed, a pass while a move exists, or too late loses the game; so does
//! an engine that crashes or stops answering (it is restarted for the next game). What is
//! wrong before any game (an opening that is not legal, an engine that does not start) is an
//! error of the match's set-up.
//!
//! One module per concern: [`config`] (what a match is), [`openings`], [`client`] (an engine
//! process and its GTP exchange), [`nboard`] (NBoard's exchange), [`seat`] (an engine as the referee sees it), [`clock`]
//! (the referee's clock of one side), [`referee`] (one game), [`scheduler`] (the games spread
//! over workers, the SPRT stop), [`outcome`] (forfeits, game results, the match's report),
//! then [`stats`], [`summary`] and [`record`] (GGF) for what is reported; [`shard`] splits a
//! match over machines and merges the shards' games into one report.

pub mod client;
pub mod clock;
pub mod config;
pub mod nboard;
pub mod openings;
pub mod outcome;
pub mod record;
pub mod referee;
pub mod scheduler;
pub mod seat;
pub mod shard;
pub mod stats;
pub mod summary;
