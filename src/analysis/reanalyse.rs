//! Cave connectivity kept up to date off the frame: after an edit the game hands the
//! changed tiles to [`Reanalyser::request_edits`] and picks up the fresh [`CaveReport`]
//! with [`Reanalyser::poll`] a few frames later.
//!
//! A full [`analyse_air`] of the Large world (8400 × 2400) takes 10 to 20 ms in release on
//! two cores: too long for one frame, fine for a background thread. Requests coalesce: while
//! one analysis runs, only the newest waiting world is kept, so a burst of digging costs
//! at most one analysis behind the latest edit, and the overlay never shows a report
//! older than one it has already shown.
//!
//! The thread keeps its own copy of the world's air as bits ([`AirGrid`], an eighth of the
//! world's size), given once ([`Reanalyser::track`], packed off the render thread when
//! the world was made), and the game then sends only the changed tiles: the thread
//! applies them to its copy before analysing.
//!
//! Each report says how stale it was ([`Reanalyser::last_lag`]): the time from the oldest
//! request it answers that no earlier report answered to its arrival. While water flows,
//! every frame asks again before the last answer is in, so the game is never "current",
//! yet every report it shows is at most one analysis behind the newest edit.

use crate::analysis::{AirGrid, CaveReport, analyse_air};
use crate::world::{Tile, World};
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// When each unanswered request was made, to tell how long the edits a report answers
/// waited for it.
#[derive(Clone, Debug, Default)]
pub struct Lag {
    asked: VecDeque<(u64, Instant)>,
}

impl Lag {
    /// Request `n` was made at `at` (numbers rise).
    pub fn asked(&mut self, n: u64, at: Instant) {
        self.asked.push_back((n, at));
    }

    /// The report for request `n` arrived at `now`; it answers every request up to `n`.
    /// Returns how long the oldest of those not answered before waited.
    pub fn answered(&mut self, n: u64, now: Instant) -> Option<Duration> {
        let oldest = self
            .asked
            .front()
            .filter(|&&(m, _)| m <= n)
            .map(|&(_, at)| now.saturating_duration_since(at));
        while self.asked.front().is_some_and(|&(m, _)| m <= n) {
            self.asked.pop_front();
        }
        oldest
    }
}

#[derive(Default)]
struct Slot {
    /// The newest world's air waiting for analysis, with its request number.
    pending: Option<(u64, AirGrid)>,
    /// Air to keep as the thread's copy, without analysing it.
    track: Option<AirGrid>,
    /// Tiles changed in the thread's copy since it last took them.
    edits: Vec<(usize, usize, Tile)>,
    /// Request number of the newest edits.
    edits_request: u64,
    quit: bool,
}

impl Slot {
    fn idle(&self, done: u64) -> bool {
        self.pending.is_none() && self.track.is_none() && self.edits_request <= done
    }
}

type Shared = Arc<(Mutex<Slot>, Condvar)>;

/// A background thread that analyses the newest world it was given.
pub struct Reanalyser {
    shared: Shared,
    results: Receiver<(u64, CaveReport)>,
    worker: Option<JoinHandle<()>>,
    /// Number of the last request made.
    requested: u64,
    /// Number of the request behind the last report handed out.
    delivered: u64,
    lag: Lag,
    /// How long the oldest edit the last report answered waited for it.
    pub last_lag: Option<Duration>,
}

impl Default for Reanalyser {
    fn default() -> Self {
        Self::new()
    }
}

impl Reanalyser {
    /// Starts the worker thread.
    pub fn new() -> Reanalyser {
        let shared: Shared = Arc::default();
        let (tx, results) = channel();
        let theirs = Arc::clone(&shared);
        let worker = std::thread::Builder::new()
            .name("strata-reanalyse".into())
            .spawn(move || {
                let (lock, wake) = &*theirs;
                // The thread's copy of the world and the newest request it answered.
                let mut own: Option<AirGrid> = None;
                let mut done = 0u64;
                loop {
                    let job = {
                        let Ok(mut slot) = lock.lock() else { return };
                        while slot.idle(done) && !slot.quit {
                            slot = match wake.wait(slot) {
                                Ok(s) => s,
                                Err(_) => return,
                            };
                        }
                        if slot.quit {
                            return;
                        }
                        let mut job = 0;
                        if let Some(w) = slot.track.take() {
                            own = Some(w);
                        }
                        if let Some((n, w)) = slot.pending.take() {
                            own = Some(w);
                            job = n;
                        }
                        if slot.edits_request > done {
                            if let Some(air) = &mut own {
                                for (x, y, t) in slot.edits.drain(..) {
                                    air.set(x, y, t.is_open());
                                }
                            }
                            job = job.max(slot.edits_request);
                        }
                        job
                    };
                    if job > done {
                        done = job;
                        if let Some(air) = &own
                            && tx.send((job, analyse_air(air))).is_err()
                        {
                            return;
                        }
                    }
                }
            })
            .ok();
        Reanalyser {
            shared,
            results,
            worker,
            requested: 0,
            delivered: 0,
            lag: Lag::default(),
            last_lag: None,
        }
    }

    /// Asks for the connectivity of `world` (its air is packed here, on the caller's
    /// thread), replacing any request not yet started; later edits apply to it.
    pub fn request(&mut self, world: &World) {
        self.requested += 1;
        self.lag.asked(self.requested, Instant::now());
        if self.worker.is_none() {
            return; // No thread could be started: `poll` never answers, `is_current` stays false.
        }
        let (lock, wake) = &*self.shared;
        if let Ok(mut slot) = lock.lock() {
            slot.pending = Some((self.requested, AirGrid::of(world)));
            slot.edits.clear();
            wake.notify_one();
        }
    }

    /// Gives the thread its own copy of a world's air that later edits apply to (no
    /// analysis).
    pub fn track(&mut self, air: AirGrid) {
        let (lock, wake) = &*self.shared;
        if let Ok(mut slot) = lock.lock() {
            slot.track = Some(air);
            slot.edits.clear();
            wake.notify_one();
        }
    }

    /// Asks for the connectivity of the tracked world after `edits` (tile positions and
    /// their new tiles, in order). Cheap: only the edits are copied.
    pub fn request_edits(&mut self, edits: &[(usize, usize, Tile)]) {
        self.requested += 1;
        self.lag.asked(self.requested, Instant::now());
        if self.worker.is_none() {
            return;
        }
        let (lock, wake) = &*self.shared;
        if let Ok(mut slot) = lock.lock() {
            slot.edits.extend_from_slice(edits);
            slot.edits_request = self.requested;
            wake.notify_one();
        }
    }

    /// The newest report finished since the last call, if any.
    pub fn poll(&mut self) -> Option<CaveReport> {
        let mut newest = None;
        while let Ok((n, report)) = self.results.try_recv() {
            if n > self.delivered {
                self.delivered = n;
                self.last_lag = self.lag.answered(n, Instant::now()).or(self.last_lag);
                newest = Some(report);
            }
        }
        newest
    }

    /// Has the report for the latest request been handed out?
    pub fn is_current(&self) -> bool {
        self.delivered == self.requested
    }
}

impl Drop for Reanalyser {
    fn drop(&mut self) {
        let (lock, wake) = &*self.shared;
        if let Ok(mut slot) = lock.lock() {
            slot.quit = true;
            wake.notify_one();
        }
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse;
    use crate::world::Tile;

    fn wait(r: &mut Reanalyser) -> Vec<CaveReport> {
        let mut got = vec![];
        let start = Instant::now();
        while !r.is_current() && start.elapsed() < Duration::from_secs(20) {
            got.extend(r.poll());
            std::thread::sleep(Duration::from_millis(1));
        }
        got
    }

    #[test]
    fn a_report_is_as_old_as_the_oldest_request_it_answers_first() {
        // Water flowing asks every 16 ms; reports arrive 30 ms after a request. Each
        // report's lag is counted from the oldest request no earlier report answered, not
        // from the first edit of the flow, so it stays bounded however long the flow runs.
        let t0 = Instant::now();
        let ms = |m: u64| t0 + Duration::from_millis(m);
        let mut lag = Lag::default();
        let mut worst = Duration::ZERO;
        let mut answered = 0;
        for n in 1..=200u64 {
            lag.asked(n, ms(16 * n));
            // The analysis started at the newest request when the last one finished.
            if (16 * n).is_multiple_of(48) {
                let got = lag.answered(n - 1, ms(16 * n + 5));
                worst = worst.max(got.unwrap());
                answered += 1;
            }
        }
        assert!(answered > 50);
        assert_eq!(worst, Duration::from_millis(3 * 16 + 5));
        assert_eq!(lag.answered(150, ms(4000)), None, "answered already");
        assert_eq!(
            lag.answered(200, ms(3300)),
            Some(Duration::from_millis(3300 - 16 * 198)),
            "requests 198 to 200 were not answered yet"
        );
    }

    #[test]
    fn newest_request_wins() {
        let preset = crate::content::preset::Preset {
            width: 300,
            height: 200,
            ..Default::default()
        };
        let (mut world, _) = crate::worldgen::generate(&preset, 2);
        let mut r = Reanalyser::new();
        assert!(r.is_current() && r.poll().is_none());
        let mut last = world.clone();
        for i in 0..10 {
            // Seal the top of the world row by row: the sky shrinks with every request.
            for x in 0..world.width() {
                world.set(x, i, Tile::Stone);
            }
            r.request(&world);
            last = world.clone();
        }
        let got = wait(&mut r);
        assert!(r.is_current(), "no answer in time");
        assert!(!got.is_empty() && got.len() <= 10);
        assert_eq!(got.last(), Some(&analyse(&last)));
        assert!(r.poll().is_none());
    }

    #[test]
    fn edits_apply_to_the_tracked_copy() {
        let preset = crate::content::preset::Preset {
            width: 300,
            height: 200,
            ..Default::default()
        };
        let (mut world, _) = crate::worldgen::generate(&preset, 4);
        let mut r = Reanalyser::new();
        r.track(AirGrid::of(&world));
        assert!(r.is_current(), "tracking alone asks for nothing");
        for i in 0..20 {
            let edits: Vec<_> = (0..world.width()).map(|x| (x, 30 + i, Tile::Air)).collect();
            for &(x, y, t) in &edits {
                world.set(x, y, t);
            }
            r.request_edits(&edits);
        }
        let got = wait(&mut r);
        assert!(r.is_current(), "no answer in time");
        assert_eq!(got.last(), Some(&analyse(&world)));
        // A whole world replaces the copy; edits then apply to that one.
        let (mut other, _) = crate::worldgen::generate(&preset, 5);
        r.request(&other);
        other.set(10, 150, Tile::Air);
        r.request_edits(&[(10, 150, Tile::Air)]);
        assert_eq!(wait(&mut r).last(), Some(&analyse(&other)));
    }
}
