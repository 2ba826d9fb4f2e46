//! The search thread. It owns the transposition table, takes jobs over a channel and answers
//! with progress reports and one final report per search; between them, the caller can read
//! the stage under way and the nodes so far at any time ([`SearchThread::running`]). A search
//! stops promptly when the shared stop flag is raised; the flag is only read every few
//! thousand nodes.

use crate::engine::board::Board;
use crate::engine::perft::{perft_until, PerftMode};
use crate::engine::search::{search, Deadlines, Limits, Report, Running, Watch};
use crate::engine::tt::TranspositionTable;
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long dropping the engine waits for its thread to end.
const DROP_PATIENCE: Duration = Duration::from_millis(500);

enum Request {
    Search(Board, Limits),
    Perft(Board, u32, PerftMode),
    Clear,
    Resize(usize),
    TableBytes,
}

/// What the search thread sends back.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// One finished iteration of the running search.
    Progress(Report),
    /// The search is over; the last report of a job.
    Done(Report),
    /// Bytes held by the transposition table.
    TableBytes(usize),
    /// A perft job's leaf count, `None` when it was stopped.
    Counted(Option<u64>),
}

pub struct SearchThread {
    requests: Option<Sender<Request>>,
    events: Receiver<Event>,
    stop: Arc<AtomicBool>,
    /// The time limits of the search under way, set anew by every start.
    deadlines: Arc<Deadlines>,
    /// What the search under way is doing.
    watch: Arc<Watch>,
    thread: Option<JoinHandle<()>>,
}

impl SearchThread {
    /// Starts the search thread with a table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> SearchThread {
        let (requests, jobs) = unbounded();
        let (events_out, events) = unbounded();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || serve(jobs, events_out, flag, hash_mib))
            .expect("cannot start the search thread");
        SearchThread {
            requests: Some(requests),
            events,
            stop,
            deadlines: Arc::new(Deadlines::new(None, None)),
            watch: Arc::default(),
            thread: Some(thread),
        }
    }

    fn send(&self, r: Request) {
        if let Some(s) = &self.requests {
            // The thread only ends when the engine is dropped, so a send cannot fail before.
            let _ = s.send(r);
        }
    }

    /// Starts a search; its reports arrive on [`SearchThread::events`].
    /// No other search may be running.
    pub fn start(&self, board: Board, limits: Limits) {
        self.stop.store(false, Ordering::SeqCst);
        self.deadlines.arm(limits.soft_time, limits.hard_time);
        // The last search's stage is not this one's.
        self.watch.reset();
        let limits = Limits {
            deadlines: Some(Arc::clone(&self.deadlines)),
            watch: Some(Arc::clone(&self.watch)),
            ..limits
        };
        self.send(Request::Search(board, limits));
    }

    /// Starts counting perft leaves (a job that the stop flag ends like a search); the count
    /// arrives as [`Event::Counted`].
    pub fn perft(&self, board: Board, depth: u32, mode: PerftMode) {
        self.stop.store(false, Ordering::SeqCst);
        self.send(Request::Perft(board, depth, mode));
    }

    /// Moves the time limits of the running search, counted from its clock's start.
    pub fn arm(&self, soft: Option<Duration>, hard: Option<Duration>) {
        self.deadlines.arm(soft, hard);
    }

    /// Asks the running search (if any) to stop now; it still sends its `Done` report.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The stage the running search is in, its nodes and time so far; `None` before its first
    /// stage (while the thread still clears or allocates the table, say).
    pub fn running(&self) -> Option<Running> {
        self.watch.running()
    }

    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Searches and waits for the result, dropping progress reports.
    pub fn search(&self, board: Board, limits: Limits) -> Report {
        self.start(board, limits);
        loop {
            match self.events.recv() {
                Ok(Event::Done(r)) => return r,
                Ok(_) => {}
                Err(_) => panic!("the search thread has died"),
            }
        }
    }

    /// Empties the transposition table. Like a resize, it is done on the search thread before
    /// the next job, so the caller does not wait for it.
    pub fn clear(&self) {
        self.send(Request::Clear);
    }

    /// Replaces the table by one of `mib` MiB. Allocating and zeroing a large table takes
    /// seconds: the search thread does it while the caller goes on answering.
    pub fn resize(&self, mib: usize) {
        self.send(Request::Resize(mib));
    }

    /// Bytes held by the transposition table (waiting for any clear or resize before it).
    pub fn table_bytes(&self) -> usize {
        self.send(Request::TableBytes);
        match self
            .events
            .iter()
            .find(|e| matches!(e, Event::TableBytes(_)))
        {
            Some(Event::TableBytes(n)) => n,
            _ => 0,
        }
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        self.stop();
        // Closing the request channel ends the thread's loop.
        self.requests = None;
        let Some(t) = self.thread.take() else { return };
        // A stopped search ends within milliseconds; a large table being allocated cannot be
        // interrupted, and nothing is lost by leaving it to the end of the process.
        let deadline = Instant::now() + DROP_PATIENCE;
        while !t.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        if t.is_finished() {
            let _ = t.join();
        }
    }
}

fn serve(jobs: Receiver<Request>, events: Sender<Event>, stop: Arc<AtomicBool>, hash_mib: usize) {
    let mut tt = TranspositionTable::new(hash_mib);
    for job in jobs {
        let event = match job {
            Request::Search(board, limits) => {
                let report = search(&tt, &stop, &board, &limits, |r| {
                    let _ = events.send(Event::Progress(r.clone()));
                });
                Event::Done(report)
            }
            Request::Perft(board, depth, mode) => {
                Event::Counted(perft_until(&board, depth, mode, &stop))
            }
            Request::Clear => {
                tt.clear();
                continue;
            }
            Request::Resize(mib) => {
                // Free the old table before allocating the new one, so the peak stays bounded.
                drop(std::mem::replace(&mut tt, TranspositionTable::new(1)));
                tt = TranspositionTable::new(mib);
                continue;
            }
            Request::TableBytes => Event::TableBytes(tt.size_bytes()),
        };
        if events.send(event).is_err() {
            return;
        }
    }
}
