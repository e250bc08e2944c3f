//! Pass **lodes**: ore veins laid by random-walk runners, as Terraria's ore pass lays its
//! deposits, one ore of each pair per world.
//!
//! Expects: the ground, caves and tunnels (veins only turn ground into ore: dirt, stone
//! and the biomes' stone, never air, liquid or what grows on the surface). Leaves: ore.
//!
//! Each row of `lodes.table` is one ore, or a pair: the seed draws whether this world has
//! the `tile` or its `twin` ([`chosen`]), so a world has copper or tin, never both. A row
//! lays `per_million` veins per million tiles of ground at the top of its layers, rising
//! linearly to `deep_per_million` at their bottom; a vein starts at a random spot and
//! walks, moving each step by a velocity that turns a little at random; every other step
//! lays a blob `size` tiles across, smaller as it goes: a diamond whose every row reaches
//! out a little further at each end, by its own draw, so the vein's edge is ragged. Deeper
//! veins are larger (`size` to `deep_size`, `steps` to `deep_steps`). Rows are laid in
//! order; ore is no ground, so where veins of two rows cross the earlier row's stays.
//!
//! Vein `i` of row `r` draws everything from `hash3(key, r << 32 | i, n)`, and each blob
//! row's two ends from `hash3` of the vein, the blob and the row: the table's rows are
//! laid in order, and each row's veins are walked and laid straight into the world in
//! parallel. As a tile only ever turns from ground into its row's ore, the world is the
//! same whatever order one row's veins are laid in, on any number of threads.

use crate::base::noise::{ceil_i64, floor_i64};
use crate::base::rng::{PassRng, hash3, mix64, pass_rng};
use crate::content::items::{Catalog, ItemId};
use crate::content::preset::{Lode, Preset};
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;
use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;

/// A uniform number in `[0, 1)` from the top 53 bits of a hash.
#[inline]
fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// Draw salt of a row's choice between its tile and its twin.
const PAIR: u64 = 0x5041_4952;

/// Ground a vein may turn into ore.
#[inline]
pub fn is_ground(t: Tile) -> bool {
    (t as u32) < 128 && GROUND >> (t as u32) & 1 == 1
}

/// [`is_ground`]'s tiles as bits, one per tile number.
const GROUND: u128 = {
    let mut bits = 0u128;
    let ground = [
        Tile::Dirt,
        Tile::Stone,
        Tile::Sandstone,
        Tile::HardenedSand,
        Tile::Ice,
        Tile::Mud,
        Tile::Snow,
    ];
    let mut i = 0;
    while i < ground.len() {
        bits |= 1 << ground[i] as u32;
        i += 1;
    }
    bits
};

/// The ore each row of the table lays in the world made from `preset` and `seed`: its
/// tile or its twin.
pub fn chosen(preset: &Preset, seed: u64) -> Vec<Tile> {
    let key = pass_rng(seed, "lodes").next_u64();
    chosen_with(&preset.lodes.table, key)
}

fn chosen_with(table: &[Lode], key: u64) -> Vec<Tile> {
    table
        .iter()
        .enumerate()
        .map(|(r, l)| match l.twin {
            Some(twin) if hash3(key, r as u64, PAIR) & 1 == 1 => twin,
            _ => l.tile,
        })
        .collect()
}

/// What an item named after an ore may be: `copper_bar`, `copper_pickaxe`, ...
const ORE_ITEMS: [&str; 8] = [
    "ore",
    "bar",
    "pickaxe",
    "hammer",
    "sword",
    "helmet",
    "chainmail",
    "greaves",
];

/// The items named after the first ore of a pair that the world made from `preset` and
/// `seed` holds as its twin's (`copper_bar` to `tin_bar` in a world of tin), each with
/// the item it becomes: chests give the world's own ores. An item the twin has none of
/// (a silver sword, say) stays as it is. None with the lodes pass off.
pub fn twin_items(preset: &Preset, seed: u64, cat: &Catalog) -> Vec<(ItemId, ItemId)> {
    if !preset.lodes.enabled {
        return Vec::new();
    }
    let metal = |t: Tile| t.name().strip_suffix("_ore").unwrap_or(t.name());
    let mut swaps = Vec::new();
    for (lode, ore) in preset.lodes.table.iter().zip(chosen(preset, seed)) {
        if ore == lode.tile {
            continue;
        }
        for kind in ORE_ITEMS {
            let item = |t| cat.id(&format!("{}_{kind}", metal(t)));
            if let (Some(from), Some(to)) = (item(lode.tile), item(ore)) {
                swaps.push((from, to));
            }
        }
    }
    swaps
}

/// `item` as the world whose [`twin_items`] are `twins` has it.
pub fn own_item(twins: &[(ItemId, ItemId)], item: ItemId) -> ItemId {
    twins
        .iter()
        .find(|&&(from, _)| from == item)
        .map_or(item, |&(_, to)| to)
}

/// Where `u` in `[0, 1)` falls in a band whose density rises linearly from `a` at its
/// top (0) to `b` at its bottom (1): the inverse of the density's distribution.
fn depth_share(u: f64, a: f64, b: f64) -> f64 {
    if (b - a).abs() < 1e-9 * (a + b).max(1e-9) {
        return u;
    }
    let t = (-a + (a * a + (b - a) * u * (a + b)).max(0.0).sqrt()) / (b - a);
    t.clamp(0.0, 1.0)
}

/// One blob of a vein: its centre and the reach of its rim, in tiles.
#[derive(Clone, Copy)]
struct Blob {
    x: f64,
    y: f64,
    rad: f64,
}

/// A vein's blobs, added to `out`: a runner from `(x, y)` over `steps` steps, its velocity
/// turning a little at random each step, laying a blob every other step (`size` across at
/// the first, smaller at each).
fn walk(key: u64, salt: u64, (x, y): (f64, f64), size: f64, steps: u32, out: &mut Vec<Blob>) {
    let draw = |n: u64| unit(hash3(key, salt, n)) * 2.0 - 1.0;
    let (mut x, mut y) = (x, y);
    let (mut vx, mut vy) = (draw(0), draw(1) * 0.6);
    for s in 0..steps {
        if s % 2 == 0 {
            let rad = 0.5 * size * (steps - s) as f64 / steps as f64 + 0.5;
            out.push(Blob { x, y, rad });
        }
        x += vx;
        y += vy;
        vx = (vx + draw(2 + 2 * s as u64) * 0.5).clamp(-1.0, 1.0);
        vy = (vy + draw(3 + 2 * s as u64) * 0.5).clamp(-0.8, 0.8);
    }
}

/// A blob and its columns and rows in the world (from [`bounds`]).
struct Placed {
    b: Blob,
    cols: (i64, i64),
    rows: (usize, usize),
}

impl Placed {
    /// Blob `b` in a world `width` x `height`.
    #[inline]
    fn of(b: Blob, width: usize, height: usize) -> Placed {
        let (left, right, top, bottom) = bounds(&b, width, height);
        Placed {
            b,
            cols: (left as i64, right as i64),
            rows: (top as usize, bottom as usize),
        }
    }
}

/// A blob's columns and rows, clamped to the world (as `f64`s: the rows' upper end may
/// be below 0, and then it is row 0, as a saturating cast makes it).
fn bounds(b: &Blob, width: usize, height: usize) -> (f64, f64, f64, f64) {
    (
        (floor_i64(b.x - b.rad) as f64).max(0.0),
        (ceil_i64(b.x + b.rad) as f64).min(width as f64 - 1.0),
        (floor_i64(b.y - b.rad) as f64).max(0.0),
        (ceil_i64(b.y + b.rad) as f64).min(height as f64 - 1.0),
    )
}

/// One row of the lode table as the pass lays it: its ore, each column's top row, the row
/// its layers end at, its vein count and what each vein draws from.
struct Plan<'a> {
    lode: &'a Lode,
    top: Vec<usize>,
    /// The deepest `top` of each [`CHUNK`] columns.
    chunk_top: Vec<usize>,
    /// What each tile turns into where a vein covers it: ground into `ore`, the rest as
    /// it is (indexed by the tile's number).
    into: [Tile; 256],
    end: usize,
    veins: u64,
    salt: u64,
}

/// The plan of each row of the lode table in `world` (its ore drawn from `key`).
fn plans<'a>(world: &World, preset: &'a Preset, key: u64) -> Vec<Plan<'a>> {
    let p = &preset.lodes;
    let layers = Layers::of(preset);
    let ores = chosen_with(&p.table, key);
    p.table
        .iter()
        .zip(ores)
        .enumerate()
        .map(|(r, (lode, ore))| {
            let (first, end) = layers.rows(lode.from, lode.to);
            // Each column's band: from its top (under the surface) to the layers' end.
            let top: Vec<usize> = world
                .surface
                .iter()
                .map(|&s| first.max(s as usize + p.min_depth as usize))
                .collect();
            let end = end.min(world.height());
            let ground: f64 = top.iter().map(|&t| end.saturating_sub(t) as f64).sum();
            let (a, b) = (lode.per_million, lode.deep_per_million);
            let veins = ((a + b) / 2.0 * ground / 1e6).round() as u64;
            let salt = (r as u64) << 32;
            let chunk_top = top
                .chunks(CHUNK)
                .map(|c| c.iter().copied().max().unwrap_or(0))
                .collect();
            let mut into = [Tile::Air; 256];
            for t in Tile::ALL {
                into[t as usize] = if is_ground(t) { ore } else { t };
            }
            Plan {
                lode,
                top,
                chunk_top,
                into,
                end,
                veins,
                salt,
            }
        })
        .collect()
}

/// A vein's start, size (tiles across at its first blob) and steps.
type Start = ((f64, f64), f64, u32);

impl Plan<'_> {
    /// Vein `i`'s start, size and steps (`None`: its column has no ground in the band).
    fn start(&self, key: u64, i: u64, width: usize) -> Option<Start> {
        let (lode, (a, b)) = (
            self.lode,
            (self.lode.per_million, self.lode.deep_per_million),
        );
        let s = self.salt | i;
        let x = unit(hash3(key, s, u64::MAX)) * width as f64;
        let t0 = self.top[(x as usize).min(width - 1)];
        if t0 >= self.end {
            return None;
        }
        let t = depth_share(unit(hash3(key, s, u64::MAX - 1)), a, b);
        let y = t0 as f64 + t * (self.end - t0) as f64;
        let size = lode.size + (lode.deep_size - lode.size) * t;
        let steps = (lode.steps as f64 + (lode.deep_steps as f64 - lode.steps as f64) * t)
            .round()
            .max(1.0) as u32;
        Some(((x, y), size, steps))
    }
}

/// The columns `a..=z` blob `p` covers in world row `ty` (`None`: none there): within 80%
/// of its radius from its centre (a diamond), and at each end of the row a rim reaching a
/// further 0-40% of it, drawn once per row end (the low and high halves of
/// `hash3(key, 0, ty)`, `key` the blob's own), clamped to the blob's columns.
#[cfg(test)]
fn span(p: &Placed, key: u64, ty: usize) -> Option<(usize, usize)> {
    span_hashed(p, ty, || hash3(key, 0, ty as u64))
}

/// The row's half of [`span`]'s hash: `hash3(key, 0, ty)` is `mix64(key ^ row_mix(ty))`
/// (its second input is 0), so a band works this out once a row, not once a blob row.
#[inline]
fn row_mix(ty: usize) -> u64 {
    mix64((ty as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
}

/// [`span`], its hash drawn by `h` (only for a row the blob reaches).
#[inline(always)]
fn span_hashed(p: &Placed, ty: usize, h: impl FnOnce() -> u64) -> Option<(usize, usize)> {
    let b = &p.b;
    let dy = (ty as f64 + 0.5 - b.y).abs();
    let inner = b.rad * 0.8 - dy;
    if inner + b.rad * 0.4 <= 0.0 {
        return None;
    }
    let h = h();
    let rim = b.rad * 0.4 / (1u64 << 32) as f64;
    let left = inner + rim * (h & 0xffff_ffff) as f64;
    let right = inner + rim * (h >> 32) as f64;
    let a = ceil_i64(b.x - 0.5 - left).max(p.cols.0);
    let z = floor_i64(b.x - 0.5 + right).min(p.cols.1);
    (a <= z).then_some((a as usize, z as usize))
}

/// Blob `j` of the vein whose rim key is `rim`: its own key for [`span`].
#[inline]
fn blob_key(rim: u64, j: usize) -> u64 {
    hash3(rim, j as u64, BLOB)
}

/// Draw salt of a blob's key.
const BLOB: u64 = 0x424c_4f42;

/// Columns of one step of [`Plan::shallow`].
const CHUNK: usize = 64;

impl Plan<'_> {
    /// Whether any column of `a..=z` has its top below row `ty`, so that each tile's
    /// column must be checked.
    #[inline]
    fn shallow(&self, ty: usize, a: usize, z: usize) -> bool {
        self.chunk_top[a / CHUNK..=z / CHUNK]
            .iter()
            .any(|&t| ty < t)
    }
}

/// The world's tiles as bytes that the threads laying one row of the table share. A
/// tile only ever turns from ground into that row's ore, so whichever thread reads or
/// writes a tile first, it ends as the same ore: the world does not depend on the order.
struct Shared<'a>(&'a [AtomicU8]);

impl<'a> Shared<'a> {
    fn new(tiles: &'a mut [Tile]) -> Shared<'a> {
        // SAFETY: `Tile` is one byte (`repr(u8)`), as `AtomicU8` is, and the borrow is
        // exclusive for as long as the view lives; only tile numbers are stored back (each
        // tile's own, or a row's ore), so every byte stays a valid `Tile`.
        const _: () = assert!(std::mem::size_of::<Tile>() == 1);
        Shared(unsafe { &*(tiles as *mut [Tile] as *const [AtomicU8]) })
    }
}

impl Plan<'_> {
    /// Turns the ground tiles of world row `ty`, columns `a..=z`, at or below their
    /// column's top into the plan's ore. A tile that is no ground (air, liquid, ore of
    /// this or an earlier row) stays.
    #[inline]
    fn lay_run(&self, tiles: &Shared, width: usize, ty: usize, (a, z): (usize, usize)) {
        let line = &tiles.0[ty * width + a..=ty * width + z];
        let turn = |t: &AtomicU8| {
            let v = t.load(Relaxed);
            t.store(self.into[v as usize] as u8, Relaxed);
        };
        if self.shallow(ty, a, z) {
            for (t, &top) in line.iter().zip(&self.top[a..=z]) {
                if ty >= top {
                    turn(t);
                }
            }
        } else {
            line.iter().for_each(turn);
        }
    }

    /// Lays the vein whose rim key is `rim` and whose blobs are `blobs`: each of its rows
    /// once, as the union of its blobs' [`span`]s (neighbouring blobs overlap by about
    /// half), so a tile is tested once per vein. `mixes` are the world's rows'
    /// [`row_mix`]es; `runs` is room for the vein's rows' runs.
    fn lay_vein(
        &self,
        tiles: &Shared,
        (rim, blobs): (u64, &[Blob]),
        mixes: &[u64],
        runs: &mut Vec<(usize, usize)>,
    ) {
        let (width, height) = (self.top.len(), mixes.len());
        let placed = |b: &Blob| Placed::of(*b, width, height);
        let (mut r0, mut r1) = (usize::MAX, 0);
        for b in blobs {
            let p = placed(b);
            (r0, r1) = (r0.min(p.rows.0), r1.max(p.rows.1));
        }
        let r1 = r1.min(self.end.saturating_sub(1));
        if r0 > r1 {
            return;
        }
        // Each row's run so far (`a > z`: none yet).
        runs.clear();
        runs.resize(r1 - r0 + 1, (usize::MAX, 0));
        for (j, b) in blobs.iter().enumerate() {
            let p = placed(b);
            let (from, to) = (p.rows.0.max(r0), p.rows.1.min(r1));
            if from > to {
                continue;
            }
            let key = blob_key(rim, j);
            for ty in from..=to {
                let Some((a, z)) = span_hashed(&p, ty, || mix64(key ^ mixes[ty])) else {
                    continue;
                };
                let run = &mut runs[ty - r0];
                if run.0 > run.1 {
                    *run = (a, z);
                } else if a <= run.1 + 1 && z + 1 >= run.0 {
                    *run = (run.0.min(a), run.1.max(z));
                } else {
                    // Apart from the run so far: lay that, go on with this.
                    self.lay_run(tiles, width, ty, *run);
                    *run = (a, z);
                }
            }
        }
        for (ty, &run) in (r0..).zip(runs.iter()) {
            if run.0 <= run.1 {
                self.lay_run(tiles, width, ty, run);
            }
        }
    }
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u64();
    let p = &preset.lodes;
    if !p.enabled || p.table.is_empty() {
        return;
    }
    let (width, height) = (world.width(), world.height());
    let plans = plans(world, preset, key);
    let mixes: Vec<u64> = (0..height).map(row_mix).collect();
    let tiles = Shared::new(world.tiles_mut());
    // The table's rows in order, so where veins of two rows cross the earlier row's ore
    // stays; a row's veins are walked and laid straight into the world in parallel, in
    // the order of their starting rows (threads work on nearby rows of the world).
    for plan in &plans {
        let mut starts: Vec<(u32, u64, Start)> = (0..plan.veins)
            .into_par_iter()
            .filter_map(|i| {
                let start = plan.start(key, i, width)?;
                Some((start.0.1 as u32, i, start))
            })
            .collect();
        starts.sort_unstable_by_key(|s| (s.0, s.1));
        starts.par_iter().for_each_init(
            || (Vec::new(), Vec::new()),
            |(blobs, runs), &(_, i, (at, size, steps))| {
                blobs.clear();
                walk(key, plan.salt | i, at, size, steps, blobs);
                plan.lay_vein(&tiles, (key ^ (plan.salt | i), blobs), &mixes, runs);
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worldgen::generate;

    #[test]
    fn depth_share_follows_a_rising_density() {
        // Flat: uniform. Rising: more of the draws deep down.
        assert_eq!(depth_share(0.3, 5.0, 5.0), 0.3);
        assert!((depth_share(1.0, 1.0, 4.0) - 1.0).abs() < 1e-12);
        assert_eq!(depth_share(0.0, 1.0, 4.0), 0.0);
        let deep = (0..1000)
            .filter(|&i| depth_share(i as f64 / 1000.0, 1.0, 4.0) > 0.5)
            .count();
        // Density 1 + 3t: the bottom half holds (0.5 + 1.125) / 2.5 = 65% of it.
        assert!((630..=670).contains(&deep), "{deep}");
    }

    /// The world made from `p` and `seed` as the lodes pass leaves it.
    fn after_lodes(p: &Preset, seed: u64) -> World {
        let never = std::sync::atomic::AtomicBool::new(false);
        let last = crate::worldgen::pass_named("lodes").unwrap();
        let content = crate::content::config::Content::builtin();
        crate::worldgen::generate_until(p, seed, &content, last, &mut |_| {}, &never)
            .unwrap()
            .0
    }

    /// The lodes pass written plainly: vein after vein, blob after blob, every tile of a
    /// blob's box tested on its own.
    fn plain_lodes(world: &mut World, preset: &Preset, seed: u64) {
        let key = pass_rng(seed, "lodes").next_u64();
        let (width, height) = (world.width(), world.height());
        for plan in plans(world, preset, key) {
            // Dirt is ground: what it turns into is the plan's ore.
            let (ore, end, salt) = (plan.into[Tile::Dirt as usize], plan.end, plan.salt);
            for i in 0..plan.veins {
                let Some((at, size, steps)) = plan.start(key, i, width) else {
                    continue;
                };
                let mut blobs = Vec::new();
                walk(key, salt | i, at, size, steps, &mut blobs);
                for (j, b) in blobs.into_iter().enumerate() {
                    let (x0, x1, y0, y1) = bounds(&b, width, height);
                    let p = Placed {
                        b,
                        cols: (x0 as i64, x1 as i64),
                        rows: (y0 as usize, y1 as usize),
                    };
                    let blob = blob_key(key ^ (salt | i), j);
                    for ty in y0 as usize..=y1 as usize {
                        for tx in x0 as usize..=x1 as usize {
                            let t = world.tile(tx, ty);
                            if ty < end
                                && ty >= plan.top[tx]
                                && is_ground(t)
                                && span(&p, blob, ty).is_some_and(|(a, z)| (a..=z).contains(&tx))
                            {
                                world.set(tx, ty, ore);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn veins_laid_in_parallel_are_the_plain_veins_on_any_thread_count() {
        let p = Preset {
            width: 700,
            height: 400,
            ..Preset::default()
        };
        let never = std::sync::atomic::AtomicBool::new(false);
        let before = crate::worldgen::pass_named("lodes").unwrap() - 1;
        let content = crate::content::config::Content::builtin();
        for seed in [1, 7, 42] {
            let (world, _) =
                crate::worldgen::generate_until(&p, seed, &content, before, &mut |_| {}, &never)
                    .unwrap();
            let mut plain = world.clone();
            plain_lodes(&mut plain, &p, seed);
            for threads in [1, 3] {
                let mut laid = world.clone();
                crate::worldgen::on_threads(threads, || {
                    apply(&mut laid, &p, &mut pass_rng(seed, "lodes"))
                });
                assert!(
                    laid.tiles() == plain.tiles(),
                    "seed {seed}, {threads} threads: the veins laid in parallel differ from the plain ones"
                );
            }
            assert!(
                plain.tiles() != world.tiles(),
                "seed {seed}: no veins at all"
            );
        }
    }

    #[test]
    fn copper_or_tin_lies_near_the_spawn_in_most_seeds() {
        // Within 40 columns and 60 rows of the spawn point (the centre column's surface):
        // what a new player finds digging around where they start.
        let p = Preset {
            width: 1000,
            height: 700,
            ..Preset::default()
        };
        let near = |seed| {
            let w = after_lodes(&p, seed);
            let (cx, cy) = (w.width() / 2, w.surface[w.width() / 2] as usize);
            (cx - 40..=cx + 40).any(|x| {
                (cy.saturating_sub(60)..=cy + 60)
                    .any(|y| matches!(w.tile(x, y), Tile::CopperOre | Tile::TinOre))
            })
        };
        let hits = (0..10).filter(|&s| near(s)).count();
        assert!(
            hits >= 8,
            "copper or tin near the spawn in {hits} of 10 seeds"
        );
    }

    #[test]
    fn iron_or_lead_is_at_least_twice_as_dense_deep_down() {
        // Share of the ground that is iron or lead, 10-25% of the way from each column's
        // surface to the underworld against the deepest quarter of that.
        let p = Preset {
            width: 1400,
            height: 900,
            ..Preset::default()
        };
        let layers = Layers::of(&p);
        let (mut shallow, mut deep) = ([0u64; 2], [0u64; 2]);
        for seed in 0..3 {
            let w = after_lodes(&p, seed);
            for x in 0..w.width() {
                let s = w.surface[x] as usize;
                let u = layers.underworld;
                if s + 20 >= u {
                    continue;
                }
                for y in s..u {
                    let f = (y - s) as f64 / (u - s) as f64;
                    let band = if (0.1..0.25).contains(&f) {
                        &mut shallow
                    } else if f >= 0.75 {
                        &mut deep
                    } else {
                        continue;
                    };
                    let t = w.tile(x, y);
                    band[0] += t.is_solid() as u64;
                    band[1] += matches!(t, Tile::IronOre | Tile::LeadOre) as u64;
                }
            }
        }
        let share = |b: [u64; 2]| b[1] as f64 / b[0].max(1) as f64;
        let ratio = share(deep) / share(shallow);
        assert!(
            share(shallow) > 0.0 && ratio >= 2.0,
            "iron or lead {:.4} of the ground 10-25% down, {:.4} in the deepest quarter: {ratio:.2}x",
            share(shallow),
            share(deep)
        );
    }

    #[test]
    fn chests_give_the_worlds_own_ores() {
        let p = Preset {
            width: 1400,
            height: 700,
            ..Preset::default()
        };
        let content = crate::content::config::Content::builtin();
        let cat = &content.catalog;
        let mut twins_given = 0;
        for seed in 0..6 {
            let (w, _) = generate(&p, seed);
            let held: Vec<&str> = w
                .chests
                .iter()
                .flat_map(|(_, c)| c.slots().iter().flatten())
                .map(|s| cat.item(s.item).name.as_str())
                .collect();
            assert!(
                held.len() > 20,
                "seed {seed}: {} stacks in chests",
                held.len()
            );
            for (lode, ore) in p.lodes.table.iter().zip(chosen(&p, seed)) {
                let twin = lode.twin.unwrap();
                let (have, other) = if ore == lode.tile {
                    (lode.tile, twin)
                } else {
                    (twin, lode.tile)
                };
                // Its ore, bars, tools and armour (coins are no ore's).
                let of = |t: Tile, n: &str| {
                    let metal = t.name().strip_suffix("_ore").unwrap();
                    ORE_ITEMS.iter().any(|k| n == format!("{metal}_{k}"))
                };
                let wrong = held.iter().find(|n| of(other, n));
                assert!(
                    wrong.is_none(),
                    "seed {seed}: {wrong:?} in a world of {have:?}"
                );
                twins_given += held.iter().filter(|n| have == twin && of(twin, n)).count();
            }
        }
        assert!(twins_given > 0, "no chest gave a twin's item");
    }

    #[test]
    fn a_world_has_one_ore_of_each_pair_and_seeds_differ() {
        let p = Preset {
            width: 600,
            height: 300,
            ..Preset::default()
        };
        let mut seen = std::collections::HashSet::new();
        for seed in 0..6 {
            let (w, _) = generate(&p, seed);
            let counts = w.counts();
            let ores = chosen(&p, seed);
            for (lode, ore) in p.lodes.table.iter().zip(&ores) {
                let twin = lode.twin.unwrap();
                let other = if *ore == lode.tile { twin } else { lode.tile };
                assert_eq!(
                    counts[other as usize], 0,
                    "seed {seed}: {other:?} beside {ore:?}"
                );
                assert!(counts[*ore as usize] > 0, "seed {seed}: no {ore:?}");
            }
            seen.extend(ores);
        }
        assert!(seen.len() > 4, "every seed drew the same ores: {seen:?}");
    }
}
