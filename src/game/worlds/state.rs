//! The world on screen: the [`Session`] in play and the caches that show it. The session
//! steps and says what changed ([`Changes`]); [`Loaded::take`] marks the changed tiles'
//! chunk textures (both levels) for rebuilding, notes the revealed cells for the fog and
//! asks the background re-analysis for fresh connectivity. An edit counts as unsaved until
//! the next save ([`Loaded::unsaved`]).

use super::worker::Generated;
use crate::analysis::CaveReport;
use crate::analysis::reanalyse::Reanalyser;
use crate::game::worlds::chunks::{Grid, OVERVIEW_SCALE};
use crate::game::worlds::masks::CaveMask;
use crate::game::worlds::textures::ChunkTextures;
use crate::sim::session::Changes;
use crate::sim::session::Intent;
use crate::sim::session::PlayerId;
use crate::sim::session::Session;
use crate::world::{Tile, World};
use crate::worldgen::PassTiming;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Below this zoom (screen pixels per tile) the overview is drawn instead of level 0: an
/// overview texel then covers at most two screen pixels.
pub const OVERVIEW_BELOW: f64 = 2.0 / OVERVIEW_SCALE as f64;

/// Level of detail for a zoom: 0 (a texel per tile) or 1 (the overview).
pub fn level_for(zoom: f64) -> usize {
    usize::from(zoom < OVERVIEW_BELOW)
}

/// Least time between repaints of overview chunks while water flows.
pub const OVERVIEW_WHILE_FLOWING: Duration = Duration::from_secs(1);

/// Longest frame time stepped: the rest of a longer frame is dropped (six ticks).
pub const MAX_FRAME: f64 = 0.1;

/// Longest frame time a game joined to a server sends ticks for: the server takes one
/// tick of input a tick, so a slow frame's ticks are all sent (a held dig stays held),
/// while the window's own work per tick is only the body's physics.
pub const MAX_REMOTE_FRAME: f64 = 0.5;

/// A world that is (being) shown, with its chunk textures and analysis.
pub struct Loaded {
    /// The simulation: world, players, creatures, water, light, day.
    pub session: Session,
    /// Shared with the threads that compute cave tints.
    pub report: Arc<CaveReport>,
    pub timings: Vec<PassTiming>,
    /// Chunk textures by level of detail: `[level 0, overview]`.
    pub levels: [ChunkTextures; 2],
    /// Tint of the largest cave, per level.
    pub largest: [CaveMask; 2],
    /// Tint of the cave under the mouse, per level.
    pub hovered: [CaveMask; 2],
    /// Tiles changed since the last analysis request.
    pub analysis_stale: bool,
    /// Those tiles and their new values, for the re-analysis thread's copy of the world.
    edits: Vec<(usize, usize, Tile)>,
    /// Frame time not yet stepped (less than a tick).
    carry: f64,
    /// Connectivity after edits, off the render thread.
    pub reanalyser: Reanalyser,
    /// Edit → fresh cave figures on screen, for the last analysis.
    pub last_analysis: Option<Duration>,
    /// When that was last written to the log.
    logged_analysis: Option<Instant>,
    /// When an overview chunk was last repainted.
    overview_painted: Option<Instant>,
    /// The save this world came from.
    pub loaded_from: Option<std::path::PathBuf>,
    /// Tells this world from every other one shown in this run (saves finishing after a
    /// swap belong to the old world).
    pub serial: u64,
    /// The session's edit count ([`Session::edits`]) as of the last save that finished.
    pub saved_edits: u64,
    /// Cells of the explored map revealed since the fog texture last took them.
    pub revealed: Option<crate::world::explored::Cells>,
    /// While the world is open to the network ([`crate::game::online::host::Host`]): the cells the
    /// local player's actions between ticks changed (a chest's slots, tiles), for the
    /// players who joined.
    pub acted: Option<Vec<(usize, usize)>>,
    /// Milliseconds the last tick or action that relit took (the F3 overlay).
    pub relit_ms: Option<f64>,
}

/// Next [`Loaded::serial`].
static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Loaded {
    pub fn new(g: Generated) -> Loaded {
        let (w, h) = (g.world.width(), g.world.height());
        let grids = [Grid::new(w, h), Grid::scaled(w, h, OVERVIEW_SCALE)];
        let largest = g.report.largest_cave;
        let from_save = g.loaded_from.is_some();
        let mut reanalyser = Reanalyser::new();
        reanalyser.track(g.air);
        Loaded {
            levels: [
                ChunkTextures::new(grids[0], Vec::new()),
                ChunkTextures::new(grids[1], g.overview),
            ],
            largest: grids.map(|grid| CaveMask::new(grid, largest)),
            hovered: grids.map(|grid| CaveMask::new(grid, None)),
            session: Session::start_with(g.content, g.world, g.light, g.player, from_save),
            report: Arc::new(g.report),
            timings: g.timings,
            analysis_stale: false,
            carry: 0.0,
            reanalyser,
            edits: Vec::new(),
            last_analysis: None,
            logged_analysis: None,
            overview_painted: None,
            loaded_from: g.loaded_from,
            serial: SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            saved_edits: 0,
            revealed: None,
            acted: None,
            relit_ms: None,
        }
    }

    /// The world in play.
    pub fn world(&self) -> &World {
        &self.session.world
    }

    /// The local player.
    pub fn me(&self) -> &crate::sim::session::Seat {
        self.session.me()
    }

    /// Has anything been dug, placed or felled since the world was saved, loaded or made?
    pub fn unsaved(&self) -> bool {
        self.session.edits != self.saved_edits
    }

    /// The local player's part of a save of this world.
    pub fn player_state(&self) -> crate::store::save::PlayerState {
        self.session.player_state(crate::sim::session::LOCAL)
    }

    pub fn size(&self) -> (usize, usize) {
        (self.session.world.width(), self.session.world.height())
    }

    /// Sets a tile outside the rules of play ([`Session::set_tile`]) and shows it.
    pub fn set_tile(&mut self, x: usize, y: usize, tile: Tile) {
        let c = self.session.set_tile(x, y, tile);
        self.take(&c);
    }

    /// Takes the tiles `changed` of `src` (a server's world as a joined client keeps it):
    /// their tiles, walls and chests, relit over the box around them and shown. They are
    /// not this window's edits (the server saves them), so nothing becomes unsaved.
    pub fn mirror(&mut self, src: &World, changed: &[(usize, usize)]) {
        let (w, h) = self.size();
        if (src.width(), src.height()) != (w, h) {
            return;
        }
        let mut c = Changes::default();
        let world = &mut self.session.world;
        for &(x, y) in changed.iter().filter(|&&(x, y)| x < w && y < h) {
            world.set(x, y, src.tile(x, y));
            world.set_wall(x, y, src.wall(x, y));
            match src.chests.get(x, y) {
                Some(chest) => world.chests.insert(x, y, chest.clone()),
                None => drop(world.chests.remove(x, y)),
            }
            c.tiles.push((x, y, src.tile(x, y)));
        }
        let all: Vec<(usize, usize)> = c.tiles.iter().map(|&(x, y, _)| (x, y)).collect();
        for (lo, hi) in crate::sim::session::boxes(&all, crate::sim::session::RELIGHT_GAP) {
            let r = self
                .session
                .light
                .update_region(&self.session.world, lo.0, lo.1, hi.0, hi.1);
            c.relit.push(r);
            self.session.light_version += 1;
        }
        self.take(&c);
    }

    /// Adds `dt` seconds of frame time (at most [`MAX_FRAME`]) and returns how many
    /// session ticks are due now; the rest waits for the next frame.
    pub fn ticks_due(&mut self, dt: f64) -> usize {
        self.ticks_due_within(dt, MAX_FRAME)
    }

    /// [`Loaded::ticks_due`] with frames counted up to `cap` seconds.
    pub fn ticks_due_within(&mut self, dt: f64, cap: f64) -> usize {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, cap)
        } else {
            0.0
        };
        self.carry += dt;
        let n = (self.carry / crate::sim::session::TICK + 1e-9).floor();
        self.carry = (self.carry - n * crate::sim::session::TICK).max(0.0);
        n as usize
    }

    /// One session tick with `intents`; the changes are shown ([`Loaded::take`]) and
    /// returned for the messages and events.
    pub fn step(&mut self, intents: &[(PlayerId, Intent)]) -> Changes {
        let start = std::time::Instant::now();
        let c = self.session.step(intents);
        self.timed(&c, start);
        self.take(&c);
        c
    }

    /// Keeps how long the tick or action begun at `start` took when it relit (the F3
    /// overlay's "relit WxH in T ms": the wall clock is the window's, not the session's).
    fn timed(&mut self, c: &Changes, start: std::time::Instant) {
        if !c.relit.is_empty() {
            self.relit_ms = Some(start.elapsed().as_secs_f64() * 1e3);
        }
    }

    /// An action between ticks ([`Session::act`]), shown.
    pub fn act(&mut self, intent: Intent) -> Changes {
        let start = std::time::Instant::now();
        let c = self.session.act(crate::sim::session::LOCAL, intent);
        self.timed(&c, start);
        self.take(&c);
        if let Some(list) = &mut self.acted {
            list.extend(c.tiles.iter().map(|&(x, y, _)| (x, y)));
            list.extend(self.session.me().chest);
        }
        c
    }

    /// Shows what the session changed: marks the changed tiles' chunks for repainting,
    /// queues them for the re-analysis and keeps the revealed cells for the fog. (Light
    /// levels are the session's: views of them follow [`Session::light_version`].)
    pub fn take(&mut self, c: &Changes) {
        for &(x, y, tile) in &c.tiles {
            self.levels.iter_mut().for_each(|l| l.mark_dirty(x, y));
            self.edits.push((x, y, tile));
        }
        self.analysis_stale |= !c.tiles.is_empty();
        if let Some(new) = c.revealed {
            self.revealed = Some(self.revealed.map_or(new, |r| r.union(new)));
        }
    }

    /// Uploads pending chunk textures within `budget`: the chunks of `level` in the tile
    /// range `visible` first, then the rest (overview before level 0). Returns whether the
    /// visible ones are all up.
    pub fn upload(
        &mut self,
        level: usize,
        visible: (usize, usize, usize, usize),
        budget: Duration,
    ) -> bool {
        let start = Instant::now();
        let first: Vec<usize> = self.levels[level]
            .grid
            .overlapping(visible.0, visible.1, visible.2, visible.3)
            .collect();
        let ready = self.levels[level].upload_some(&self.session.world, &first, budget);
        for l in [1, 0] {
            let left = budget.saturating_sub(start.elapsed());
            self.levels[l].upload_some(&self.session.world, &[], left);
        }
        ready
    }

    /// Brings caches up to date after edits: chunk textures (a few per frame; an overview
    /// chunk covers a million tiles, so one) and, when tiles changed, connectivity and
    /// the cave tints.
    pub fn refresh(&mut self) {
        // An edit's overview chunk is repainted a frame after its level-0 chunk, so a dig
        // never pays for both in one frame. While water flows, at most once a second: an
        // overview chunk covers a million tiles (about 4 ms to repaint), and flowing water
        // would otherwise repaint it every other frame.
        let every = if self.session.flow.is_idle() {
            Duration::ZERO
        } else {
            OVERVIEW_WHILE_FLOWING
        };
        if self.levels[0].refresh(&self.session.world, 16) == 0
            && self.levels[1].is_dirty()
            && self.overview_painted.is_none_or(|t| t.elapsed() >= every)
        {
            self.levels[1].refresh(&self.session.world, 1);
            self.overview_painted = Some(Instant::now());
        }
        if self.analysis_stale {
            self.analysis_stale = false;
            self.reanalyser.request_edits(&self.edits);
            self.edits.clear();
        }
        if let Some(report) = self.reanalyser.poll() {
            self.set_report(report);
            self.last_analysis = self.reanalyser.last_lag;
            // While water flows a new request is always waiting: log twice a second then.
            let due = self
                .logged_analysis
                .is_none_or(|t| t.elapsed().as_secs_f64() >= 0.5);
            if (self.reanalyser.is_current() || due)
                && let Some(lag) = self.last_analysis
            {
                self.logged_analysis = Some(Instant::now());
                log::debug!(
                    "cave figures updated {:.0} ms after the edit",
                    lag.as_secs_f64() * 1e3
                );
            }
        }
    }

    /// Shows a fresh analysis: figures, the largest cave's tint, the hovered one's.
    pub fn set_report(&mut self, report: CaveReport) {
        self.report = Arc::new(report);
        let id = self.report.largest_cave;
        self.largest = self.levels.each_ref().map(|l| CaveMask::new(l.grid, id));
        self.hovered = self.levels.each_ref().map(|l| CaveMask::new(l.grid, None));
    }

    /// Blocks until the background analysis has caught up with every edit (tests).
    #[cfg(test)]
    pub fn settle(&mut self) {
        let start = Instant::now();
        self.refresh();
        while !self.reanalyser.is_current() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(2));
            self.refresh();
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::content::preset::Preset;
    use crate::sim::light::LightMap;
    use std::sync::atomic::AtomicBool;

    pub(crate) fn loaded() -> Loaded {
        let p = Preset {
            width: 600,
            height: 300,
            ..Preset::default()
        };
        let (world, timings) = crate::worldgen::generate(&p, 3);
        let report = crate::analysis::analyse(&world);
        let no = AtomicBool::new(false);
        let (w, h) = (world.width(), world.height());
        let overview_grid = Grid::scaled(w, h, OVERVIEW_SCALE);
        let overview = super::super::chunks::build_all(&world, &overview_grid, &no).unwrap();
        Loaded::new(Generated {
            content: Arc::new(crate::content::config::Content::builtin()),
            hash: world.tile_hash(),
            light: LightMap::compute(&world),
            air: crate::analysis::AirGrid::of(&world),
            world,
            report,
            timings,
            overview,
            player: None,
            loaded_from: None,
            requested: Instant::now(),
            ready: Instant::now(),
        })
    }

    #[test]
    fn set_tile_marks_the_chunk_and_the_analysis() {
        let mut l = loaded();
        let before = l.report.sky_air;
        let mouths = l.report.mouths.len();
        let (x, y) = (300, l.world().surface[300] as usize);
        assert_eq!(l.world().tile(x, y - 1), Tile::Air);
        l.set_tile(x, y - 1, Tile::Air);
        assert!(!l.analysis_stale, "no change, nothing to redo");
        assert!(!l.unsaved(), "no change, nothing to save");
        l.set_tile(x, y, Tile::Air);
        assert!(l.analysis_stale);
        assert!(l.unsaved());
        l.set_tile(9999, 0, Tile::Dirt); // outside: ignored
        l.settle();
        assert!(!l.analysis_stale);
        // The dug surface tile is ground air: a cave mouth, open to the sky.
        assert_eq!(l.report.sky_air, before);
        let id = l
            .report
            .component_at(x, y)
            .expect("the dug tile is cave air");
        assert!(l.report.component(id).unwrap().open);
        assert!(
            l.report
                .mouths
                .iter()
                .any(|m| (m.0..m.1).contains(&(x as u32)))
        );
        assert!(l.report.mouths.len() <= mouths + 1);
        assert_eq!(
            l.session.light,
            LightMap::compute(l.world()),
            "relit like a fresh map"
        );
    }

    #[test]
    fn water_over_a_dug_floor_flows_down_and_the_caves_follow() {
        let mut l = loaded();
        // Carve a pool five tiles wide into solid rock, a floor of one tile, and a room
        // under it.
        let (w, h) = l.size();
        let world = l.world();
        let solid_box = |x: usize, y: usize| {
            (y - 2..=y + 6).all(|yy| (x - 6..=x + 6).all(|xx| world.tile(xx, yy).is_solid()))
        };
        let spot = (10..h - 10)
            .rev()
            .flat_map(|y| (10..w - 10).step_by(5).map(move |x| (x, y)))
            .find(|&(x, y)| solid_box(x, y));
        let Some((x, y)) = spot else {
            panic!("no solid rock in the test world");
        };
        for xx in x - 2..=x + 2 {
            l.set_tile(xx, y, Tile::Water);
        }
        for yy in y + 2..=y + 4 {
            for xx in x - 5..=x + 5 {
                l.set_tile(xx, yy, Tile::Air);
            }
        }
        l.set_tile(x, y + 1, Tile::Air);
        l.session.stir(x, y + 1);
        l.settle();
        for _ in 0..3600 {
            if l.session.flow.is_idle() {
                break;
            }
            l.step(&[]);
        }
        assert!(l.session.flow.is_idle(), "still flowing after a minute");
        assert!(
            l.analysis_stale,
            "the water's moves are queued for the analysis"
        );
        assert!(l.levels[0].is_dirty(), "and for the chunk textures");
        l.settle();
        assert_eq!(
            *l.report,
            crate::analysis::analyse(l.world()),
            "caves re-analysed"
        );
    }

    #[test]
    fn frame_time_becomes_whole_ticks_and_the_rest_waits() {
        let mut l = loaded();
        let tick = crate::sim::session::TICK;
        assert_eq!(l.ticks_due(tick), 1);
        assert_eq!(l.ticks_due(tick / 2.0), 0);
        assert_eq!(l.ticks_due(tick / 2.0), 1, "two halves make a tick");
        assert_eq!(l.ticks_due(2.5 * tick), 2);
        assert_eq!(l.ticks_due(tick / 2.0), 1);
        // A stalled frame steps at most MAX_FRAME.
        assert_eq!(l.ticks_due(5.0), (MAX_FRAME / tick).round() as usize);
        assert_eq!(l.ticks_due(f64::NAN), 0);
        // Joined to a server, a slow frame's ticks are all sent, up to half a second.
        assert_eq!(l.ticks_due_within(0.25, MAX_REMOTE_FRAME), 15);
        assert_eq!(l.ticks_due_within(3.0, MAX_REMOTE_FRAME), 30);
    }

    #[test]
    fn overview_only_at_far_zoom() {
        assert_eq!(level_for(4.0), 0);
        assert_eq!(level_for(OVERVIEW_BELOW), 0);
        assert_eq!(level_for(0.15), 1);
    }
}
