//! The world on screen, its player and its caches. Every edit goes through
//! [`Loaded::set_tile`] (or [`Loaded::edited`] for a change made by the edit rules), which
//! marks the chunk textures (both levels) for rebuilding, relights the tiles around it and
//! asks the background re-analysis for fresh connectivity; it also counts as an unsaved
//! edit until the next save ([`Loaded::unsaved`]).

use super::chunks::{Grid, OVERVIEW_SCALE};
use super::masks::CaveMask;
use super::textures::ChunkTextures;
use super::worker::Generated;
use crate::analysis::CaveReport;
use crate::analysis::reanalyse::Reanalyser;
use crate::sim::edit::DigState;
use crate::sim::light::{LightMap, Rect};
use crate::sim::player::Player;
use crate::world::inventory::Inventory;
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

/// Water flow ticks a second: water falls 30 tiles a second.
pub const FLOW_RATE: f64 = 30.0;

/// Least time between repaints of overview chunks while water flows.
pub const OVERVIEW_WHILE_FLOWING: Duration = Duration::from_secs(1);

/// Changes closer than this many tiles are relit as one box.
pub const RELIGHT_GAP: usize = 16;

/// Boxes `(low corner, high corner)` around groups of `tiles`: a tile within `gap` tiles
/// of a box joins it (and boxes it then touches are merged), otherwise it starts one.
pub fn boxes(tiles: &[(usize, usize)], gap: usize) -> Vec<((usize, usize), (usize, usize))> {
    let mut out: Vec<((usize, usize), (usize, usize))> = Vec::new();
    let near = |a: &((usize, usize), (usize, usize)), b: &((usize, usize), (usize, usize))| {
        a.0.0 <= b.1.0.saturating_add(gap)
            && b.0.0 <= a.1.0.saturating_add(gap)
            && a.0.1 <= b.1.1.saturating_add(gap)
            && b.0.1 <= a.1.1.saturating_add(gap)
    };
    for &(x, y) in tiles {
        let mut b = ((x, y), (x, y));
        // Fold in every box this one reaches, until none is left.
        while let Some(i) = out.iter().position(|o| near(o, &b)) {
            let o = out.swap_remove(i);
            b = (
                (b.0.0.min(o.0.0), b.0.1.min(o.0.1)),
                (b.1.0.max(o.1.0), b.1.1.max(o.1.1)),
            );
        }
        out.push(b);
    }
    out
}

/// A world that is (being) shown, with its chunk textures and analysis.
pub struct Loaded {
    pub world: World,
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
    /// Water set moving by edits.
    pub flow: crate::sim::flow::Flow,
    /// When the next flow tick is due (game time, seconds).
    next_flow: f64,
    /// The flow's ticks and moves when it last woke, for the log line when it rests.
    flow_woke: Option<(u64, u64)>,
    /// Light levels, kept up to date by [`Loaded::edited`].
    pub light: LightMap,
    /// Bumped whenever light levels change, so views of them know to rebuild.
    pub light_version: u64,
    /// The last relit rectangle and how long the relighting took.
    pub last_relight: Option<(Rect, Duration)>,
    pub player: Player,
    pub inventory: Inventory,
    /// Health and breath.
    pub vitals: crate::sim::vitals::Vitals,
    /// Share of the day gone, 0..1 (0 is midnight).
    pub time_of_day: f32,
    /// Creatures about.
    pub creatures: crate::sim::creatures::Creatures,
    /// The Guide (not kept in saves yet: he starts again beside the spawn point).
    pub guide: crate::sim::npc::Npc,
    /// The world's depth layers (where creatures spawn).
    pub layers: crate::world::depth::Layers,
    pub dig: DigState,
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
    /// Edits (digs, placements, fellings) made to this world.
    pub edit_count: u64,
    /// [`Loaded::edit_count`] as of the last save that finished.
    pub saved_edits: u64,
    /// Cells of the explored map revealed since the fog texture last took them.
    pub revealed: Option<crate::world::explored::Cells>,
}

/// Next [`Loaded::serial`].
static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Loaded {
    pub fn new(g: Generated) -> Loaded {
        let (w, h) = (g.world.width(), g.world.height());
        let grids = [Grid::new(w, h), Grid::scaled(w, h, OVERVIEW_SCALE)];
        let largest = g.report.largest_cave;
        let seed = g.world.seed;
        let layers = crate::world::depth::Layers::of_world(&g.world);
        let state = g.player.unwrap_or_else(|| crate::store::save::PlayerState {
            time_of_day: crate::content::rules::rules().start_time,
            ..crate::store::save::PlayerState::new(crate::sim::player::spawn_point(&g.world))
        });
        let mut player = Player::new(state.pos);
        player.unstick(&g.world);
        // A save may have been taken while water was flowing: wake what can still move.
        let mut flow = crate::sim::flow::Flow::default();
        if g.loaded_from.is_some() {
            flow.wake_restless(&g.world);
        }
        let guide = crate::sim::npc::Npc::guide(&g.world, seed);
        let mut reanalyser = Reanalyser::new();
        reanalyser.track(g.air);
        Loaded {
            levels: [
                ChunkTextures::new(grids[0], Vec::new()),
                ChunkTextures::new(grids[1], g.overview),
            ],
            largest: grids.map(|grid| CaveMask::new(grid, largest)),
            hovered: grids.map(|grid| CaveMask::new(grid, None)),
            world: g.world,
            report: Arc::new(g.report),
            timings: g.timings,
            analysis_stale: false,
            light: g.light,
            flow,
            next_flow: 0.0,
            flow_woke: None,
            light_version: 0,
            last_relight: None,
            player,
            inventory: state.inventory,
            vitals: crate::sim::vitals::Vitals::new(state.health, crate::content::rules::rules()),
            time_of_day: state.time_of_day,
            creatures: crate::sim::creatures::Creatures::new(seed),
            guide,
            layers,
            dig: DigState::default(),
            reanalyser,
            edits: Vec::new(),
            last_analysis: None,
            logged_analysis: None,
            overview_painted: None,
            loaded_from: g.loaded_from,
            serial: SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            edit_count: 0,
            saved_edits: 0,
            revealed: None,
        }
    }

    /// Has anything been dug, placed or felled since the world was saved, loaded or made?
    pub fn unsaved(&self) -> bool {
        self.edit_count != self.saved_edits
    }

    /// The player's part of a save of this world.
    pub fn player_state(&self) -> crate::store::save::PlayerState {
        crate::store::save::PlayerState {
            pos: self.player.pos,
            inventory: self.inventory.clone(),
            health: self.vitals.health,
            time_of_day: self.time_of_day,
        }
    }

    pub fn size(&self) -> (usize, usize) {
        (self.world.width(), self.world.height())
    }

    /// The one way to change a tile after generation (digging and placing use it).
    pub fn set_tile(&mut self, x: usize, y: usize, tile: Tile) {
        if x >= self.world.width() || y >= self.world.height() || self.world.tile(x, y) == tile {
            return;
        }
        self.world.set(x, y, tile);
        self.edited(x, y);
    }

    /// Tile `(x, y)` was changed in `self.world` (by the dig and place rules): marks its
    /// chunks, relights around it and schedules a new analysis.
    pub fn edited(&mut self, x: usize, y: usize) {
        self.edited_tiles(&[(x, y)]);
    }

    /// Tiles were changed in `self.world`: marks their chunks, relights once over the box
    /// around them all and schedules a new analysis. Nothing for an empty list.
    pub fn edited_tiles(&mut self, tiles: &[(usize, usize)]) {
        self.edit_count += u64::from(!tiles.is_empty());
        self.redraw(tiles);
        self.relight(tiles);
    }

    /// Marks the chunks of `tiles` for repainting and queues them for the re-analysis.
    fn redraw(&mut self, tiles: &[(usize, usize)]) {
        for &(x, y) in tiles {
            self.levels.iter_mut().for_each(|l| l.mark_dirty(x, y));
            self.edits.push((x, y, self.world.tile(x, y)));
        }
        self.analysis_stale |= !tiles.is_empty();
    }

    /// Relights once over the box around `tiles`. Nothing for an empty list.
    fn relight(&mut self, tiles: &[(usize, usize)]) {
        if let Some(b) = boxes(tiles, usize::MAX).first() {
            self.relight_box(b.0, b.1);
        }
    }

    /// Relights the tiles `lo..=hi`.
    fn relight_box(&mut self, lo: (usize, usize), hi: (usize, usize)) {
        let start = Instant::now();
        let r = self
            .light
            .update_region(&self.world, lo.0, lo.1, hi.0, hi.1);
        self.last_relight = Some((r, start.elapsed()));
        self.light_version += 1;
    }

    /// Tile `(x, y)` was dug or built on: wakes the water around it.
    pub fn stir(&mut self, x: usize, y: usize) {
        self.flow.wake(&self.world, x, y);
    }

    /// Runs the water's flow at [`FLOW_RATE`] ticks a second (at most two ticks a frame),
    /// and redraws and re-analyses what it moved. Water lets light through like air, so
    /// moving it needs no relight; lava that moved or hardened is relit, a box around each
    /// group of nearby changes (two flows far apart are two small boxes, not one huge one).
    pub fn run_flow(&mut self, now: f64) {
        if self.flow.is_idle() {
            self.next_flow = now;
            if let Some((ticks, moves)) = self.flow_woke.take() {
                log::debug!(
                    "water at rest after {} ticks, {} tiles moved",
                    self.flow.ticks() - ticks,
                    self.flow.moves - moves
                );
            }
            return;
        }
        self.flow_woke
            .get_or_insert((self.flow.ticks(), self.flow.moves));
        for _ in 0..2 {
            if now < self.next_flow {
                break;
            }
            self.next_flow += 1.0 / FLOW_RATE;
            let changed = self.flow.tick(&mut self.world);
            self.redraw(&changed);
        }
        let lit = self.flow.take_relight();
        for (lo, hi) in boxes(&lit, RELIGHT_GAP) {
            self.relight_box(lo, hi);
        }
        // A long stall is not made up for.
        self.next_flow = self.next_flow.max(now - 1.0 / FLOW_RATE);
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
        let ready = self.levels[level].upload_some(&self.world, &first, budget);
        for l in [1, 0] {
            let left = budget.saturating_sub(start.elapsed());
            self.levels[l].upload_some(&self.world, &[], left);
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
        let every = if self.flow.is_idle() {
            Duration::ZERO
        } else {
            OVERVIEW_WHILE_FLOWING
        };
        if self.levels[0].refresh(&self.world, 16) == 0
            && self.levels[1].is_dirty()
            && self.overview_painted.is_none_or(|t| t.elapsed() >= every)
        {
            self.levels[1].refresh(&self.world, 1);
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
        let (x, y) = (300, l.world.surface[300] as usize);
        assert_eq!(l.world.tile(x, y - 1), Tile::Air);
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
            l.light,
            LightMap::compute(&l.world),
            "relit like a fresh map"
        );
    }

    #[test]
    fn a_torch_lights_a_sealed_spot_and_digging_relights() {
        let mut l = loaded();
        let (x, y) = (100, l.world.height() - 3);
        l.set_tile(x, y, Tile::Torch);
        assert!(l.light.get(x, y) >= crate::sim::light::TORCH);
        let v = l.light_version;
        l.set_tile(x, y, Tile::Stone);
        assert!(l.light_version > v);
        assert_eq!(l.light, LightMap::compute(&l.world));
    }

    /// Runs the flow at 60 frames a second until it rests, for a minute at most.
    fn run_flow_for_a_minute(l: &mut Loaded) {
        let mut now = 0.0;
        while !l.flow.is_idle() && now < 60.0 {
            now += 1.0 / 60.0;
            l.run_flow(now);
        }
    }

    #[test]
    fn water_over_a_dug_floor_flows_down_and_everything_follows() {
        let mut l = loaded();
        // Carve a pool five tiles wide into solid rock, a floor of one tile, and a room
        // under it.
        let (w, h) = (l.world.width(), l.world.height());
        let solid_box = |x: usize, y: usize| {
            (y - 2..=y + 6).all(|yy| (x - 6..=x + 6).all(|xx| l.world.tile(xx, yy).is_solid()))
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
        let water = l.world.counts()[Tile::Water as usize];
        l.set_tile(x, y + 1, Tile::Air);
        l.stir(x, y + 1);
        run_flow_for_a_minute(&mut l);
        assert!(l.flow.is_idle(), "still flowing after a minute");
        assert_eq!(
            l.world.counts()[Tile::Water as usize],
            water,
            "no water made or lost"
        );
        let in_row = |yy: usize| {
            (x - 5..=x + 5)
                .filter(|&xx| l.world.tile(xx, yy) == Tile::Water)
                .count()
        };
        assert_eq!(
            (in_row(y), in_row(y + 4)),
            (0, 5),
            "the pool fell onto the room's floor"
        );
        assert!(l.analysis_stale);
        l.settle();
        assert_eq!(
            l.light,
            LightMap::compute(&l.world),
            "relit like a fresh map"
        );
        assert_eq!(
            *l.report,
            crate::analysis::analyse(&l.world),
            "caves re-analysed"
        );
    }

    #[test]
    fn changes_far_apart_relight_as_separate_boxes() {
        let b = boxes(&[(10, 10), (12, 14), (500, 300), (26, 10), (505, 290)], 16);
        assert_eq!(b.len(), 2, "{b:?}");
        assert!(b.contains(&((10, 10), (26, 14))));
        assert!(b.contains(&((500, 290), (505, 300))));
        // A tile between two boxes joins them.
        let b = boxes(&[(0, 0), (30, 0), (15, 0)], 16);
        assert_eq!(b, vec![((0, 0), (30, 0))]);
        assert_eq!(
            boxes(&[(1, 2), (900, 900)], usize::MAX),
            vec![((1, 2), (900, 900))]
        );
        assert!(boxes(&[], 16).is_empty());
    }

    #[test]
    fn lava_that_flows_is_relit() {
        let mut l = loaded();
        let (w, h) = (l.world.width(), l.world.height());
        // Generated lava (pools, lakes) is at rest and stays as it is.
        let generated = l.world.counts()[Tile::Lava as usize];
        let solid_box = |x: usize, y: usize| {
            (y - 2..=y + 6).all(|yy| (x - 6..=x + 6).all(|xx| l.world.tile(xx, yy).is_solid()))
        };
        let (x, y) = (10..h - 10)
            .rev()
            .flat_map(|y| (10..w - 10).step_by(5).map(move |x| (x, y)))
            .find(|&(x, y)| solid_box(x, y))
            .expect("solid rock in the test world");
        for xx in x - 2..=x + 2 {
            l.set_tile(xx, y, Tile::Lava);
        }
        for yy in y + 2..=y + 4 {
            for xx in x - 5..=x + 5 {
                l.set_tile(xx, yy, Tile::Air);
            }
        }
        l.set_tile(x, y + 1, Tile::Air);
        l.stir(x, y + 1);
        run_flow_for_a_minute(&mut l);
        assert!(l.flow.is_idle());
        assert_eq!(l.world.counts()[Tile::Lava as usize], generated + 5);
        assert!(
            l.light.get(x, y + 4) >= crate::sim::light::LAVA,
            "the room glows"
        );
        assert_eq!(
            l.light,
            LightMap::compute(&l.world),
            "relit like a fresh map"
        );
    }

    #[test]
    fn overview_only_at_far_zoom() {
        assert_eq!(level_for(4.0), 0);
        assert_eq!(level_for(OVERVIEW_BELOW), 0);
        assert_eq!(level_for(0.15), 1);
    }
}
