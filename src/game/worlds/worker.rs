//! World generation off the render thread. Each request gets a job number and a cancel
//! flag; a new request cancels the running job (which gives up at its next pass boundary)
//! and messages from old jobs are ignored, so pressing R again restarts cleanly.

use crate::analysis::{self, AirGrid, CaveReport};
use crate::content::config::Content;
use crate::content::preset::Preset;
use crate::game::worlds::chunks;
use crate::sim::light::LightMap;
use crate::store::save::PlayerState;
use crate::world::World;
use crate::worldgen::{self, PASSES, PassTiming};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

/// Everything the game needs to show a new world.
pub struct Generated {
    pub world: World,
    /// What it was made with (its chests' loot, its save's items) and is played with.
    pub content: Arc<Content>,
    pub report: CaveReport,
    /// The passes', then connectivity's and chunk painting's.
    pub timings: Vec<PassTiming>,
    /// The overview's chunk texels, see [`chunks::build_all`]. Level 0 is built from the
    /// world as it is uploaded.
    pub overview: Vec<Vec<u8>>,
    /// Light levels of every tile.
    pub light: LightMap,
    /// The world's air for the re-analysis thread's copy, packed here (connectivity packs
    /// it anyway) so the render thread never copies a world.
    pub air: AirGrid,
    /// Where the player stands and what they carry, for a world from a save (a new
    /// world spawns a fresh player).
    pub player: Option<PlayerState>,
    /// The save it came from, if any.
    pub loaded_from: Option<std::path::PathBuf>,
    /// When the request was made (to measure request → world on screen).
    pub requested: Instant,
    /// When the worker finished it.
    pub ready: Instant,
    /// [`World::tile_hash`] of the world, for the log.
    pub hash: u64,
}

/// Steps after the generation passes, as progress indices from `PASSES.len()`.
pub const EXTRA_STEPS: [&str; 1] = ["Mapping caves and light"];

/// The label of progress step `i` (a pass index, or one of [`EXTRA_STEPS`]).
pub fn step_label(i: usize) -> &'static str {
    PASSES
        .get(i)
        .map(|p| p.label)
        .or_else(|| EXTRA_STEPS.get(i - PASSES.len()).copied())
        .unwrap_or("Finishing")
}

fn ms_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

enum Message {
    Progress {
        job: u64,
        step: usize,
        fraction: f32,
    },
    Done {
        job: u64,
        generated: Box<Generated>,
    },
    Failed {
        job: u64,
        error: String,
    },
}

/// What a job starts from. (One a job, moved once: the preset's size does not matter.)
#[allow(clippy::large_enum_variant)]
pub enum Source {
    /// Generate a world.
    Preset(Box<Preset>, u64),
    /// Generate a world up to and including the pass `PASSES[k]` (the lab's pass stepper).
    Partial(Box<Preset>, u64, usize),
    /// Read a save file.
    File(std::path::PathBuf),
    /// A world already read from a save (`--load`).
    Loaded(Box<(World, PlayerState)>, std::path::PathBuf),
    /// A server's world as a joined client made and received it, with the player's
    /// character (no save of the window's: the server keeps it).
    Joined(Box<(World, PlayerState)>),
}

/// What finished: a world, or why a save could not be loaded.
pub enum Outcome {
    Ready(Box<Generated>),
    Failed(String),
}

/// What the running job is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Status {
    pub step: usize,
    pub fraction: f32,
}

pub struct Worker {
    /// The content worlds are made, loaded and played with (the game's: its reload key
    /// swaps it for the next world).
    pub content: Arc<Content>,
    tx: Sender<Message>,
    rx: Receiver<Message>,
    job: u64,
    cancel: Arc<AtomicBool>,
    status: Option<Status>,
}

impl Default for Worker {
    fn default() -> Self {
        let (tx, rx) = channel();
        Worker {
            content: Arc::new(Content::builtin()),
            tx,
            rx,
            job: 0,
            cancel: Arc::new(AtomicBool::new(false)),
            status: None,
        }
    }
}

/// Share of the progress bar taken by the generation passes; analysis and chunk
/// painting share the rest.
const PASS_SHARE: f32 = 0.8;

impl Worker {
    /// Starts generating, cancelling any running job.
    pub fn start(&mut self, preset: Preset, seed: u64) {
        self.start_from(Source::Preset(Box::new(preset), seed));
    }

    /// Cancels the running job, if any (its world never arrives).
    pub fn cancel(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.job += 1;
        self.status = None;
    }

    /// Starts a job from any [`Source`], cancelling any running job.
    pub fn start_from(&mut self, source: Source) {
        self.cancel.store(true, Ordering::Relaxed);
        self.cancel = Arc::new(AtomicBool::new(false));
        self.job += 1;
        self.status = Some(Status {
            step: 0,
            fraction: 0.0,
        });
        let (job, cancel, tx) = (self.job, self.cancel.clone(), self.tx.clone());
        let content = Arc::clone(&self.content);
        let requested = Instant::now();
        let spawned = std::thread::Builder::new()
            .name(format!("worldgen-{job}"))
            .spawn(move || {
                let send = |step, fraction| {
                    tx.send(Message::Progress {
                        job,
                        step,
                        fraction,
                    })
                    .is_ok()
                };
                let mut progress = |p: worldgen::Progress| {
                    send(p.pass, p.fraction * PASS_SHARE);
                };
                let (world, mut timings, player, loaded_from) = match source {
                    Source::Preset(preset, seed) => {
                        let Some((world, timings)) = worldgen::generate_with(
                            &preset,
                            seed,
                            &content,
                            &mut progress,
                            &cancel,
                        ) else {
                            return;
                        };
                        (world, timings, None, None)
                    }
                    Source::Partial(preset, seed, last) => {
                        let made = worldgen::generate_until(
                            &preset,
                            seed,
                            &content,
                            last,
                            &mut progress,
                            &cancel,
                        );
                        let Some((world, timings)) = made else {
                            return;
                        };
                        (world, timings, None, None)
                    }
                    Source::File(path) => {
                        let start = Instant::now();
                        // With what its journal kept since (a crash).
                        match crate::store::journal::load(&path, &content.catalog) {
                            Ok((world, player, replayed)) => {
                                if let Some(w) = &replayed.warning {
                                    log::warn!("{w}");
                                }
                                let t = vec![PassTiming {
                                    name: "load",
                                    ms: ms_since(start),
                                }];
                                (world, t, Some(player), Some(path))
                            }
                            Err(error) => {
                                let error = error.to_string();
                                let _ = tx.send(Message::Failed { job, error });
                                return;
                            }
                        }
                    }
                    Source::Loaded(both, path) => {
                        let (world, player) = *both;
                        (world, Vec::new(), Some(player), Some(path))
                    }
                    Source::Joined(both) => {
                        let (world, player) = *both;
                        (world, Vec::new(), Some(player), None)
                    }
                };
                // Connectivity, light and the overview only read the world: side by side.
                send(PASSES.len(), PASS_SHARE);
                let (w, h) = (world.width(), world.height());
                let overview_grid = chunks::Grid::scaled(w, h, chunks::OVERVIEW_SCALE);
                // Analysis beside light and the overview.
                let (
                    (air, (report, hash), analysis_ms),
                    ((light, light_ms), (overview, overview_ms)),
                ) = rayon::join(
                    || {
                        let start = Instant::now();
                        let air = AirGrid::of(&world);
                        let report = analysis::analyse_air(&air);
                        (air, (report, world.tile_hash()), ms_since(start))
                    },
                    || {
                        rayon::join(
                            || {
                                let start = Instant::now();
                                (LightMap::compute(&world), ms_since(start))
                            },
                            || {
                                let start = Instant::now();
                                let o = chunks::build_all(&world, &overview_grid, &cancel);
                                (o, ms_since(start))
                            },
                        )
                    },
                );
                let Some(overview) = overview else { return };
                timings.push(PassTiming {
                    name: "light",
                    ms: light_ms,
                });
                timings.push(PassTiming {
                    name: "connectivity",
                    ms: analysis_ms,
                });
                timings.push(PassTiming {
                    name: "overview",
                    ms: overview_ms,
                });
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                let generated = Box::new(Generated {
                    world,
                    content,
                    report,
                    timings,
                    overview,
                    light,
                    air,
                    player,
                    loaded_from,
                    requested,
                    ready: Instant::now(),
                    hash,
                });
                let _ = tx.send(Message::Done { job, generated });
            });
        if spawned.is_err() {
            self.status = None;
        }
    }

    /// Takes the finished world (or load failure) of the current job, if it is ready.
    pub fn poll(&mut self) -> Option<Outcome> {
        let mut done = None;
        while let Ok(msg) = self.rx.try_recv() {
            match msg {
                Message::Progress {
                    job,
                    step,
                    fraction,
                } if job == self.job => {
                    self.status = Some(Status { step, fraction });
                }
                Message::Done { job, generated } if job == self.job => {
                    self.status = None;
                    done = Some(Outcome::Ready(generated));
                }
                Message::Failed { job, error } if job == self.job => {
                    self.status = None;
                    done = Some(Outcome::Failed(error));
                }
                _ => {}
            }
        }
        done
    }

    /// Progress of the running job, `None` when idle.
    pub fn status(&self) -> Option<Status> {
        self.status
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::save;
    use std::time::Duration;

    fn tiny() -> Preset {
        Preset {
            width: 300,
            height: 120,
            ..Preset::default()
        }
    }

    fn wait_outcome(w: &mut Worker) -> Outcome {
        let start = Instant::now();
        loop {
            if let Some(o) = w.poll() {
                return o;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "generation timed out"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn generates_off_thread_with_chunks_and_report() {
        let mut w = Worker::default();
        w.start(tiny(), 7);
        assert!(w.status().is_some());
        let g = wait(&mut w);
        assert_eq!(g.world.seed, 7);
        let overview = chunks::Grid::scaled(300, 120, chunks::OVERVIEW_SCALE);
        assert_eq!(g.overview.len(), overview.len());
        assert_eq!(g.report.width, 300);
        assert!(w.status().is_none());
        let names: Vec<&str> = g.timings.iter().map(|t| t.name).collect();
        assert_eq!(names[names.len() - 2..], ["connectivity", "overview"]);
    }

    fn wait(w: &mut Worker) -> Box<Generated> {
        match wait_outcome(w) {
            Outcome::Ready(g) => g,
            Outcome::Failed(e) => panic!("{e}"),
        }
    }

    #[test]
    fn loads_saves_and_reports_bad_ones() {
        let dir = std::env::temp_dir().join(format!("strata-worker-{}", std::process::id()));
        let path = dir.join("w.strata");
        let (world, _) = worldgen::generate(&tiny(), 5);
        let mut w = Worker::default();
        let player = PlayerState::new((10.5, 20.0), &w.content.catalog);
        save::save(&path, &world, &player).unwrap();
        w.start_from(Source::File(path.clone()));
        let g = wait(&mut w);
        assert_eq!(g.world.tile_hash(), world.tile_hash());
        assert_eq!(g.player, Some(player));
        assert_eq!(g.light, LightMap::compute(&world));
        std::fs::write(&path, b"not a save").unwrap();
        w.start_from(Source::File(path.clone()));
        match wait_outcome(&mut w) {
            Outcome::Failed(e) => assert!(e.contains("w.strata"), "{e}"),
            Outcome::Ready(_) => panic!("a damaged save loaded"),
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_new_request_replaces_the_running_one() {
        let mut w = Worker::default();
        w.start(tiny(), 1);
        w.start(tiny(), 2);
        let g = wait(&mut w);
        assert_eq!(g.world.seed, 2);
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            w.poll().is_none(),
            "the cancelled job must not deliver a world"
        );
    }

    #[test]
    fn a_partial_world_stops_after_its_pass() {
        let mut w = Worker::default();
        w.start_from(Source::Partial(Box::new(tiny()), 3, 1));
        let g = wait(&mut w);
        let names: Vec<&str> = g.timings.iter().map(|t| t.name).collect();
        assert_eq!(names[..2], [PASSES[0].name, PASSES[1].name]);
        assert!(!names.contains(&PASSES[2].name));
        assert_eq!(g.world.counts()[crate::world::Tile::IronOre as usize], 0);
    }

    #[test]
    fn every_step_has_a_label() {
        for i in 0..PASSES.len() + EXTRA_STEPS.len() {
            assert!(!step_label(i).is_empty());
        }
        assert_eq!(step_label(PASSES.len()), "Mapping caves and light");
    }
}
