//! Training data: games, from self-play or from a file of transcripts, whose positions are
//! labelled with the solver's exact scores near the end and the game's exactly finished result
//! before that.
//!
//! Self-play starts each game with random moves (a random count in a range), then picks its
//! moves by a softmax over shallow multi-line search scores, so that the positions cover what a
//! search meets and not only best play. Once a game reaches `exact_empties` empties, every
//! position is solved exactly and self-play goes on with the solver's best move.
//!
//! Game `i` depends only on the seed and `i` (each starts from a cleared table with a
//! single-threaded, deterministic search), and records are written in game order, so a run is
//! the same whatever the number of threads. A shard plays every n-th game of the run; since
//! each record carries its game's index, the shards of a run merge ([`super::merge`]) into the
//! binary file the run alone writes.

use super::merge::merge;
use super::record::{
    is_binary_path, key, parse_records, read_file, write_file, Label, Record, HEADER,
};
use crate::base::rng::Rng;
use crate::engine::board::{Color, Position, Squares};
use crate::engine::game::Game;
use crate::engine::gamefile::read_line;
use crate::engine::search::{search, Limits};
use crate::engine::tt::TranspositionTable;
use crossbeam_channel::unbounded;
use std::collections::{BTreeMap, HashSet};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Where the games come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Oxello's own games.
    SelfPlay,
    /// Recorded games.
    Games(Vec<Game>),
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub source: Source,
    /// The first game's index: a self-play game is a function of the seed and its index, and
    /// a file's games are taken from this one on.
    pub start: usize,
    /// How many games (for a file: at most this many, after `start`).
    pub games: usize,
    /// Shard `k` of `n`: of the games above, only those whose index from the first is `k`
    /// modulo `n`, each the same game as in a run without shards.
    pub shard: (u32, u32),
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
    /// Self-play: the fewest and most random moves that open a game.
    pub random_plies: (u32, u32),
    /// Self-play: the depth of the searches that choose the moves after the random ones.
    pub noise_depth: u32,
    /// Self-play: the softmax temperature of that choice, in discs (0 plays the best move).
    pub temperature: f64,
    /// Self-play: from this many empties on, the searched moves are the best ones, without
    /// noise (so that the last moves before the exact region do not blur its labels).
    pub greedy_empties: u32,
    /// Self-play: leave the positions where a random opening move was played out of the
    /// data (they are not positions a search meets), as Egaroucid does.
    pub drop_random: bool,
    pub seed: u64,
    /// Worker threads, each with its own table and a single-threaded search.
    pub threads: usize,
    /// Each worker's table, in MiB.
    pub hash_mib: usize,
}

/// How far a run has come.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub games_done: usize,
    pub games: usize,
    /// Records written by this run.
    pub written: usize,
    /// Positions dropped: already in the file, in the run, or in the excluded games.
    pub duplicates: usize,
    pub elapsed: Duration,
}

impl Progress {
    /// Seconds left at the rate so far.
    pub fn eta(&self) -> Option<Duration> {
        let rate = self.games_done as f64 / self.elapsed.as_secs_f64();
        (self.games_done > 0 && rate > 0.0)
            .then(|| Duration::from_secs_f64((self.games - self.games_done) as f64 / rate))
    }
}

/// Reads a file of games: on each line, its first run of words that are moves, read by
/// `engine::gamefile` (so both `<transcript> <result>` and WTHOR's `<source> <score>
/// <transcript>` lines work). Lines without a legal game, and comments, are skipped.
pub fn read_games(text: &str) -> Vec<Game> {
    text.lines()
        .filter_map(|line| read_line(line, 0).ok())
        .map(|record| record.game)
        .collect()
}

/// Every position of `games`, in canonical form: positions to keep out of the data.
pub fn game_positions(games: &[Game]) -> HashSet<(u64, u64)> {
    games
        .iter()
        .flat_map(Game::positions)
        .map(|pos| key(&pos))
        .collect()
}

/// Runs the generation and adds its records to `out`: appended to a text file (created with a
/// header if need be) after every game, or written whole, merged, to a binary one at the end.
/// Positions already in `out` or in `excluded` are not written again. `progress` is called
/// after every game.
pub fn run(
    config: &SelfplayConfig,
    out: &Path,
    excluded: HashSet<(u64, u64)>,
    mut progress: impl FnMut(&Progress),
) -> Result<Progress, String> {
    let err = |e: std::io::Error| format!("{}: {e}", out.display());
    let (mut output, existing) = Output::open(out)?;
    let mut seen = excluded;
    seen.extend(existing.iter().map(Record::key));
    let indices = game_indices(config);
    let started = Instant::now();
    let mut status = Progress {
        games: indices.len(),
        ..Progress::default()
    };
    for_each_game(config, &indices, |records| {
        output.add_game(records, &mut seen, &mut status)?;
        status.games_done += 1;
        status.elapsed = started.elapsed();
        progress(&status);
        Ok(())
    })
    .map_err(err)?;
    output.finish(existing).map_err(err)?;
    Ok(status)
}

/// The indices of the games to play or label: those of the run's range that fall to its
/// shard.
fn game_indices(config: &SelfplayConfig) -> Vec<usize> {
    let games = match &config.source {
        Source::SelfPlay => config.games,
        Source::Games(all) => all.len().saturating_sub(config.start).min(config.games),
    };
    let (shard, shards) = config.shard;
    (0..games)
        .filter(|i| i % shards as usize == shard as usize)
        .map(|i| config.start + i)
        .collect()
}

/// Plays or labels the games of `indices` on the configured threads, and hands each game's
/// records to `write` in the order of `indices` (games finish out of order).
fn for_each_game(
    config: &SelfplayConfig,
    indices: &[usize],
    mut write: impl FnMut(Vec<Record>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = unbounded();
    std::thread::scope(|s| {
        for _ in 0..config.threads.max(1) {
            let (sender, next) = (sender.clone(), &next);
            s.spawn(move || {
                let mut worker = Worker::new(config);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= indices.len() || sender.send((i, worker.game(indices[i]))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let (mut pending, mut done) = (BTreeMap::new(), 0);
        for (i, records) in receiver {
            pending.insert(i, records);
            while let Some(records) = pending.remove(&done) {
                write(records)?;
                done += 1;
            }
        }
        Ok(())
    })
}

/// Where a run's records go.
enum Output {
    /// A text file, appended to game by game.
    Text(std::fs::File),
    /// A binary file, written whole at the end: the records of this run, gathered here.
    Binary(PathBuf, Vec<Record>),
}

impl Output {
    /// Opens `path` and reads the records already in it.
    fn open(path: &Path) -> Result<(Output, Vec<Record>), String> {
        if !is_binary_path(path) {
            return Output::open_text(path).map_err(|e| format!("{}: {e}", path.display()));
        }
        let existing = match path.exists() {
            true => read_file(path)?,
            false => Vec::new(),
        };
        Ok((Output::Binary(path.to_path_buf(), Vec::new()), existing))
    }

    /// Opens a text file to append to, with its header if it is new.
    fn open_text(path: &Path) -> Result<(Output, Vec<Record>), Box<dyn std::error::Error>> {
        let mut file = open_for_append(path)?;
        let mut existing = String::new();
        file.seek(SeekFrom::Start(0))?;
        file.read_to_string(&mut existing)?;
        if existing.is_empty() {
            writeln!(file, "{HEADER}")?;
        }
        Ok((Output::Text(file), parse_records(&existing)?))
    }

    /// Adds a game's records but those of positions already `seen`, counted in `status`.
    fn add_game(
        &mut self,
        records: Vec<Record>,
        seen: &mut HashSet<(u64, u64)>,
        status: &mut Progress,
    ) -> std::io::Result<()> {
        let (new, old): (Vec<Record>, Vec<Record>) =
            records.into_iter().partition(|r| seen.insert(r.key()));
        status.written += new.len();
        status.duplicates += old.len();
        match self {
            Output::Text(file) => {
                new.iter().try_for_each(|r| writeln!(file, "{r}"))?;
                file.flush()
            }
            Output::Binary(_, records) => {
                records.extend(new);
                Ok(())
            }
        }
    }

    /// Writes a binary file: the records it held and the new ones, merged.
    fn finish(self, existing: Vec<Record>) -> std::io::Result<()> {
        match self {
            Output::Text(_) => Ok(()),
            Output::Binary(path, records) => {
                let merged = merge(existing.into_iter().chain(records));
                write_file(&path, &merged.records)
            }
        }
    }
}

/// Opens `path` for reading and appending, first cutting off a last line that a killed run
/// left unfinished.
fn open_for_append(path: &Path) -> std::io::Result<std::fs::File> {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)?;
    let mut text = Vec::new();
    file.read_to_end(&mut text)?;
    if !text.is_empty() && text.last() != Some(&b'\n') {
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        file.set_len(keep as u64)?;
    }
    Ok(file)
}

/// One worker thread: its table and the configuration.
struct Worker<'a> {
    config: &'a SelfplayConfig,
    tt: TranspositionTable,
    stop: AtomicBool,
}

impl<'a> Worker<'a> {
    fn new(config: &'a SelfplayConfig) -> Worker<'a> {
        Worker {
            config,
            tt: TranspositionTable::new(config.hash_mib),
            stop: AtomicBool::new(false),
        }
    }

    /// The records of game `index`.
    fn game(&mut self, index: usize) -> Vec<Record> {
        self.tt.clear();
        let game = index as u32;
        match &self.config.source {
            Source::SelfPlay => {
                let (moves, random) = self.self_play_opening(index);
                let skip = if self.config.drop_random { random } else { 0 };
                self.label(&moves, skip, true, game)
            }
            Source::Games(games) => self.label(&games[index].moves(), 0, false, game),
        }
    }

    /// The moves of a self-play game up to the solver's region: random ones, then noisy
    /// searched ones; and how many were random.
    fn self_play_opening(&mut self, index: usize) -> (Vec<u32>, usize) {
        let config = self.config;
        let mut rng = Rng::new(config.seed ^ (index as u64).wrapping_mul(0xD134_2543_DE82_EF95));
        let (low, high) = config.random_plies;
        let random = low as usize + rng.below((high - low + 1) as usize);
        let mut pos = Position::start();
        let mut moves = Vec::new();
        while !pos.is_game_over() && pos.board.empty_count() > config.exact_empties {
            if pos.board.moves() == 0 {
                pos = pos.pass();
                continue;
            }
            let sq = if moves.len() < random {
                let legal: Vec<u32> = Squares(pos.board.moves()).collect();
                legal[rng.below(legal.len())]
            } else {
                let greedy = pos.board.empty_count() <= config.greedy_empties;
                self.noisy_move(
                    &pos,
                    &mut rng,
                    if greedy { 0.0 } else { config.temperature },
                )
            };
            moves.push(sq);
            pos = pos
                .play(sq)
                .expect("a legal move from the position's own list");
        }
        let random = random.min(moves.len());
        (moves, random)
    }

    /// A move drawn with probability proportional to exp(score / temperature) over the scores
    /// of a shallow search of every move.
    fn noisy_move(&mut self, pos: &Position, rng: &mut Rng, temperature: f64) -> u32 {
        let limits = Limits {
            depth: Some(self.config.noise_depth),
            lines: pos.board.moves().count_ones() as usize,
            ..Limits::default()
        };
        let report = search(&self.tt, &self.stop, &pos.board, &limits, |_| {});
        let best = report.lines[0].score;
        let temperature = temperature * f64::from(crate::engine::eval::DISC);
        let weights: Vec<f64> = report
            .lines
            .iter()
            .map(|l| {
                if temperature > 0.0 {
                    (f64::from(l.score - best) / temperature).exp()
                } else if l.score == best {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        let mut pick = rng.unit() * weights.iter().sum::<f64>();
        for (line, w) in report.lines.iter().zip(&weights) {
            if pick < *w {
                return line.pv[0];
            }
            pick -= w;
        }
        report.lines[0].pv[0]
    }

    /// Plays `moves` from the start and labels every position where a move is to be made but
    /// the first `skip`: exactly from `exact_empties` on, and with the first exact score (the
    /// game's result with an exact finish) before. After the moves, `follow_best` goes on
    /// with the solver's best moves to the end. The records carry the index `game`.
    fn label(&mut self, moves: &[u32], skip: usize, follow_best: bool, game: u32) -> Vec<Record> {
        let mut records = Vec::new();
        let mut before = Vec::new();
        let mut result = None;
        let mut pos = Position::start();
        let mut next = moves.iter();
        // Positions where a move is made, counted: the first `skip` are left out.
        let mut ply = 0;
        while !pos.is_game_over() {
            if pos.board.moves() == 0 {
                pos = pos.pass();
                continue;
            }
            let mut sq = next.next().copied();
            let kept = ply >= skip;
            ply += 1;
            if pos.board.empty_count() <= self.config.exact_empties {
                let (score, best) = self.solve(&pos);
                result.get_or_insert(black_view(&pos, score));
                records.extend(kept.then_some(Record {
                    position: pos,
                    score,
                    label: Label::Exact,
                    game,
                }));
                if follow_best {
                    sq = sq.or(best);
                }
            } else if kept {
                before.push(pos);
            }
            let Some(next_pos) = sq.and_then(|sq| pos.play(sq)) else {
                break;
            };
            pos = next_pos;
        }
        if pos.is_game_over() {
            result.get_or_insert(pos.black_final_score());
        }
        // A game given without its end, before the exact region, tells nothing sure.
        let Some(result) = result else {
            return Vec::new();
        };
        let played = before.into_iter().map(|position| Record {
            position,
            score: black_view(&position, result),
            label: Label::Played,
            game,
        });
        played.chain(records).collect()
    }

    /// The exact score of `pos` for the side to move, in discs, and a best move.
    fn solve(&mut self, pos: &Position) -> (i32, Option<u32>) {
        let report = search(&self.tt, &self.stop, &pos.board, &Limits::default(), |_| {});
        (report.score / crate::engine::eval::DISC, report.best_move())
    }
}

/// A score for the side to move of `pos` seen from black, or back (the map is its own
/// inverse).
fn black_view(pos: &Position, score: i32) -> i32 {
    match pos.side {
        Color::Black => score,
        Color::White => -score,
    }
}
