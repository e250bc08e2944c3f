//! Light levels 0..=[`MAX_LIGHT`] per tile: sunlight, torches and their spread.
//!
//! Sources: every tile of a column above its first solid tile or background wall sees the
//! sky ([`SUN`]: a wall stops sunlight, as in Terraria, so a walled room or cave is lit only
//! by what spreads in from its open edges and by its torches), a
//! torch gives [`TORCH`], lava [`LAVA`], a glowing mushroom [`MUSHROOM`] and hellstone
//! [`HELLSTONE`]. Light is spread in [`SUB`]-ths of a level
//! ("sub-levels", what [`LightMap::levels`] holds; [`LightMap::get`] rounds them up to
//! levels): to the four neighbours, losing [`AIR_LOSS`] per non-solid tile entered and
//! [`SOLID_LOSS`] per solid tile, and to the four diagonal neighbours through the air,
//! losing [`DIAGONAL_LOSS`] (√2 of a straight step), so a torch's light falls off as a
//! rounded octagon, close to a circle, rather than the diamond of straight steps alone
//! (Terraria's light is round too). A diagonal step needs an open tile and at least one of
//! the two tiles it passes between open: light does not leak through a crack between two
//! blocks that only touch at a corner. Sunlight reaches about a dozen tiles into a cave
//! mouth, lights the first few tiles of ground, and a cave sealed by more than four tiles
//! of rock stays at 0. A tile's level is the best over all sources of (source level −
//! cheapest path loss): a shortest-path problem with small integer costs, solved by a
//! bucket queue processed from the brightest sub-level down (each tile is settled once,
//! like Dijkstra, with no heap).
//!
//! [`LightMap::update_region`] recomputes only a box around an edit: a changed tile can
//! alter light no further than [`MAX_LIGHT`] tiles away (every step loses at least 1),
//! except that opening or closing a column's sky changes the whole span of that column
//! whose sky status flipped, so the box grows to cover that span too. Tiles just outside
//! the box (its corners included, for the diagonal steps) keep their (still correct)
//! levels and feed light back in.

use crate::world::{Tile, Wall, World, tile_bits};

/// Brightest level.
pub const MAX_LIGHT: u8 = 15;
/// Level of open sky.
pub const SUN: u8 = 15;
/// Level of a torch's own tile.
pub const TORCH: u8 = 14;
/// Level of a lava tile: a dimmer torch, so a lava pool glows a few tiles around it.
pub const LAVA: u8 = 10;
/// Level of a shadow orb: a faint glow at the foot of an evil chasm, as in Terraria.
pub const ORB: u8 = 8;
/// Level of a glowing mushroom: the mushroom biome is lit by its mushrooms, as in Terraria.
pub const MUSHROOM: u8 = 11;
/// Level of a hellstone block: a faint glow in the rock (a solid tile, so it reaches only
/// the air beside it).
pub const HELLSTONE: u8 = 7;
/// Every tile that gives light of itself, with its level.
pub const EMITTERS: [(Tile, u8); 5] = [
    (Tile::Torch, TORCH),
    (Tile::Lava, LAVA),
    (Tile::ShadowOrb, ORB),
    (Tile::GlowMushroom, MUSHROOM),
    (Tile::Hellstone, HELLSTONE),
];
/// Level of the light the player carries, at the player's tile.
pub const PLAYER: u8 = 8;
/// Sub-levels per level: light spreads in these finer steps, so a diagonal step can cost
/// √2 of a straight one.
pub const SUB: u8 = 4;
/// The brightest sub-level (`MAX_LIGHT * SUB`).
pub const MAX_SUB: u8 = MAX_LIGHT * SUB;
/// Loss (sub-levels) entering a non-solid tile straight across: one level.
pub const AIR_LOSS: u8 = SUB;
/// Loss (sub-levels) entering a non-solid tile diagonally: √2 of [`AIR_LOSS`], rounded.
pub const DIAGONAL_LOSS: u8 = 6;
/// Loss (sub-levels) entering a solid tile: three levels.
pub const SOLID_LOSS: u8 = 3 * SUB;
/// Side of the square chunks the renderer caches (tiles).
pub const CHUNK: usize = 32;

/// An inclusive rectangle of tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

impl Rect {
    pub fn contains(&self, x: usize, y: usize) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    /// The `(cx, cy)` of every [`CHUNK`]-sized chunk the rectangle touches.
    pub fn chunks(&self) -> impl Iterator<Item = (usize, usize)> + use<> {
        let (cx0, cx1, cy0, cy1) = (
            self.x0 / CHUNK,
            self.x1 / CHUNK,
            self.y0 / CHUNK,
            self.y1 / CHUNK,
        );
        (cy0..=cy1).flat_map(move |cy| (cx0..=cx1).map(move |cx| (cx, cy)))
    }
}

/// Light levels of every tile of a world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LightMap {
    width: usize,
    height: usize,
    levels: Vec<u8>,
    /// First row of each column that is solid or has a wall (height when none): rows
    /// above it see the sky.
    sky: Vec<u32>,
}

/// Pending tiles by sub-level (index = sub-level).
pub type Buckets = [Vec<u32>; MAX_SUB as usize + 1];

/// Empty [`Buckets`].
pub fn buckets() -> Buckets {
    std::array::from_fn(|_| Vec::new())
}

/// Sub-level of a level.
pub const fn sub(level: u8) -> u8 {
    level * SUB
}

/// Level of a sub-level, rounded up (any light at all is at least level 1).
pub const fn level(sub: u8) -> u8 {
    sub.div_ceil(SUB)
}

/// Settles the queued light of a `w`×`h` grid of sub-levels `levels` (row-major): each
/// pending tile passes its light to its neighbours as the module header says, `solid(i)`
/// telling which tiles are solid and `inside(x, y)` which ones may be written. Queued
/// tiles are in `buckets` at their sub-level; the buckets are left empty.
pub fn settle(
    levels: &mut [u8],
    (w, h): (usize, usize),
    solid: impl Fn(usize) -> bool,
    inside: impl Fn(usize, usize) -> bool,
    buckets: &mut Buckets,
) {
    // A tile below AIR_LOSS + 1 gives its neighbours nothing.
    for level in (AIR_LOSS + 1..=MAX_SUB).rev() {
        while let Some(i) = buckets[level as usize].pop() {
            let i = i as usize;
            if levels[i] != level {
                continue; // Raised since it was queued; processed at its new level.
            }
            let (x, y) = (i % w, i / w);
            let mut reach = |j: usize, loss: u8| {
                let l = level.saturating_sub(loss);
                if l > levels[j] {
                    levels[j] = l;
                    buckets[l as usize].push(j as u32);
                }
            };
            let straight = |j: usize| if solid(j) { SOLID_LOSS } else { AIR_LOSS };
            let (west, east, north, south) = (x > 0, x + 1 < w, y > 0, y + 1 < h);
            if west && inside(x - 1, y) {
                reach(i - 1, straight(i - 1));
            }
            if east && inside(x + 1, y) {
                reach(i + 1, straight(i + 1));
            }
            if north && inside(x, y - 1) {
                reach(i - w, straight(i - w));
            }
            if south && inside(x, y + 1) {
                reach(i + w, straight(i + w));
            }
            if level <= DIAGONAL_LOSS {
                continue;
            }
            // Diagonals: into open air, past at least one open side.
            let mut diagonal = |nx: usize, ny: usize| {
                let j = ny * w + nx;
                if inside(nx, ny) && !solid(j) && !(solid(y * w + nx) && solid(ny * w + x)) {
                    reach(j, DIAGONAL_LOSS);
                }
            };
            for (ok, ny) in [(north, y.wrapping_sub(1)), (south, y + 1)] {
                if ok && west {
                    diagonal(x - 1, ny);
                }
                if ok && east {
                    diagonal(x + 1, ny);
                }
            }
        }
    }
}

/// The first row of column `x` that stops sunlight: a solid tile or a wall.
fn first_solid(world: &World, x: usize) -> u32 {
    (0..world.height())
        .find(|&y| world.tile(x, y).is_solid() || world.wall(x, y).is_some())
        .unwrap_or(world.height()) as u32
}

/// Which of up to 64 walls are walls (not [`Wall::None`]), as bits.
#[inline(always)]
fn wall_bits(walls: &[Wall]) -> u64 {
    walls
        .iter()
        .enumerate()
        .fold(0, |m, (i, w)| m | (w.is_some() as u64) << i)
}

/// Which of up to 64 tiles are solid, as bits (bit `i` = `tiles[i]`).
#[inline(always)]
fn solid_bits(tiles: &[Tile]) -> u64 {
    let open = Tile::ALL
        .into_iter()
        .filter(|t| !t.is_solid())
        .fold(0, |m, t| m | tile_bits(tiles, t));
    let all = if tiles.len() == 64 {
        !0
    } else {
        (1u64 << tiles.len()) - 1
    };
    !open & all
}

/// [`first_solid`] of every column, found by scanning rows top-down, 64 columns at a time,
/// while any column is still open (row-major, so it reads memory in order).
fn sky_rows(world: &World) -> Vec<u32> {
    let (w, h) = (world.width(), world.height());
    let mut sky = vec![h as u32; w];
    // Columns still open to the sky, as bits.
    let mut open: Vec<u64> = (0..w.div_ceil(64))
        .map(|i| {
            if w - i * 64 >= 64 {
                !0
            } else {
                (1u64 << (w - i * 64)) - 1
            }
        })
        .collect();
    for y in 0..h {
        let row = world.row(y);
        let mut any = false;
        for (i, open) in open.iter_mut().enumerate() {
            if *open == 0 {
                continue;
            }
            let span = i * 64..(i * 64 + 64).min(w);
            let solid = solid_bits(&row[span.clone()]) | wall_bits(&world.wall_row(y)[span]);
            let mut closing = *open & solid;
            while closing != 0 {
                sky[i * 64 + closing.trailing_zeros() as usize] = y as u32;
                closing &= closing - 1;
            }
            *open &= !solid;
            any |= *open != 0;
        }
        if !any {
            break;
        }
    }
    sky
}

impl LightMap {
    /// Lights a whole world.
    pub fn compute(world: &World) -> LightMap {
        let (w, h) = (world.width(), world.height());
        let sky = sky_rows(world);
        let mut map = LightMap {
            width: w,
            height: h,
            levels: vec![0; w * h],
            sky,
        };
        // Sunlit rows, row by row (a column at a time would stride through memory).
        let lowest = map.sky.iter().copied().max().unwrap_or(0) as usize;
        for (y, row) in map.levels.chunks_exact_mut(w).take(lowest).enumerate() {
            for (level, &s) in row.iter_mut().zip(&map.sky) {
                *level = if (y as u32) < s { sub(SUN) } else { 0 };
            }
        }
        let mut buckets = buckets();
        for x in 0..w {
            let s = map.sky[x] as usize;
            // Only sky tiles with a neighbour outside the sky can pass light on.
            let left = if x > 0 { map.sky[x - 1] as usize } else { s };
            let right = if x + 1 < w {
                map.sky[x + 1] as usize
            } else {
                s
            };
            for y in left.min(right).min(s.saturating_sub(1))..s {
                buckets[sub(SUN) as usize].push((y * w + x) as u32);
            }
        }
        for (kind, level) in EMITTERS {
            for i in world
                .find(kind)
                .into_iter()
                .map(|(x, y)| (y * w + x) as u32)
            {
                if map.levels[i as usize] < sub(level) {
                    map.levels[i as usize] = sub(level);
                    buckets[sub(level) as usize].push(i);
                }
            }
        }
        let all = Rect {
            x0: 0,
            y0: 0,
            x1: w - 1,
            y1: h - 1,
        };
        map.spread(world, &mut buckets, all);
        map
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Level at `(x, y)` (its sub-level rounded up); 0 outside the world.
    pub fn get(&self, x: usize, y: usize) -> u8 {
        level(self.get_sub(x, y))
    }

    /// Sub-level at `(x, y)`; 0 outside the world.
    pub fn get_sub(&self, x: usize, y: usize) -> u8 {
        if x < self.width && y < self.height {
            self.levels[y * self.width + x]
        } else {
            0
        }
    }

    /// Level at `(x, y)` with the player's own light added (the brighter of the two).
    pub fn get_with_player(&self, x: usize, y: usize, player_centre: (f32, f32)) -> u8 {
        self.get(x, y)
            .max(player_light(player_centre, x as i64, y as i64))
    }

    /// All sub-levels, row-major.
    pub fn levels(&self) -> &[u8] {
        &self.levels
    }

    /// Source sub-level of tile `(x, y)` alone.
    fn source(&self, world: &World, x: usize, y: usize) -> u8 {
        if (y as u32) < self.sky[x] {
            sub(SUN)
        } else {
            sub(emits(world.tile(x, y)))
        }
    }

    /// Settles the queued light, writing only inside `region`.
    fn spread(&mut self, world: &World, buckets: &mut Buckets, region: Rect) {
        let tiles = world.tiles();
        settle(
            &mut self.levels,
            (self.width, self.height),
            |j| tiles[j].is_solid(),
            |x, y| region.contains(x, y),
            buckets,
        );
    }

    /// Relights after the tiles in `x0..=x1, y0..=y1` changed (clamped to the world).
    /// Returns the rectangle whose levels may have changed: redraw its chunks.
    pub fn update_region(
        &mut self,
        world: &World,
        x0: usize,
        y0: usize,
        x1: usize,
        y1: usize,
    ) -> Rect {
        let (w, h) = (self.width, self.height);
        debug_assert_eq!((w, h), (world.width(), world.height()));
        let (x0, x1) = (x0.min(w - 1), x1.min(w - 1));
        let (mut ey0, mut ey1) = (y0.min(h - 1), y1.min(h - 1));
        for x in x0.min(x1)..=x1.max(x0) {
            let (old, new) = (self.sky[x] as usize, first_solid(world, x) as usize);
            if old != new {
                ey0 = ey0.min(old.min(new));
                ey1 = ey1.max(old.max(new).min(h) - 1);
            }
            self.sky[x] = new as u32;
        }
        let r = MAX_LIGHT as usize;
        let region = Rect {
            x0: x0.min(x1).saturating_sub(r),
            y0: ey0.min(ey1).saturating_sub(r),
            x1: (x1.max(x0) + r).min(w - 1),
            y1: (ey1.max(ey0) + r).min(h - 1),
        };
        let mut buckets = buckets();
        for y in region.y0..=region.y1 {
            for x in region.x0..=region.x1 {
                let s = self.source(world, x, y);
                self.levels[y * w + x] = s;
                if s > AIR_LOSS {
                    buckets[s as usize].push((y * w + x) as u32);
                }
            }
        }
        // The ring just outside, its corners included, keeps its levels and shines in.
        let mut ring = |x: usize, y: usize| {
            let l = self.levels[y * w + x];
            if l > AIR_LOSS {
                buckets[l as usize].push((y * w + x) as u32);
            }
        };
        let (rx0, rx1) = (region.x0.saturating_sub(1), (region.x1 + 1).min(w - 1));
        for y in region.y0..=region.y1 {
            if region.x0 > 0 {
                ring(region.x0 - 1, y);
            }
            if region.x1 + 1 < w {
                ring(region.x1 + 1, y);
            }
        }
        for x in rx0..=rx1 {
            if region.y0 > 0 {
                ring(x, region.y0 - 1);
            }
            if region.y1 + 1 < h {
                ring(x, region.y1 + 1);
            }
        }
        self.spread(world, &mut buckets, region);
        region
    }
}

/// The light a tile gives of itself: torches, lava, shadow orbs, glowing mushrooms and
/// hellstone ([`EMITTERS`]).
pub fn emits(tile: Tile) -> u8 {
    match tile {
        Tile::Torch => TORCH,
        Tile::Lava => LAVA,
        Tile::ShadowOrb => ORB,
        Tile::GlowMushroom => MUSHROOM,
        Tile::Hellstone => HELLSTONE,
        _ => 0,
    }
}

/// The player's own light at tile `(x, y)`: [`PLAYER`] at the tile holding the body's
/// centre, one less per tile of straight-line distance, rounded up (a disc, as the spread
/// is round), through walls (it is cheap and the renderer adds it every frame without
/// touching the map).
pub fn player_light(player_centre: (f32, f32), x: i64, y: i64) -> u8 {
    level(player_light_sub(player_centre, x, y))
}

/// [`player_light`] in sub-levels: [`SUB`] per tile of distance between tile centres.
pub fn player_light_sub(player_centre: (f32, f32), x: i64, y: i64) -> u8 {
    carried_light_sub(player_centre, PLAYER, x, y)
}

/// A light of `strength` carried at `at` (the player's own, or a mining helmet's at the
/// head) at tile `(x, y)`: `strength` at the tile holding `at`, one less per tile of
/// straight-line distance, rounded up, through walls.
pub fn carried_light(at: (f32, f32), strength: u8, x: i64, y: i64) -> u8 {
    level(carried_light_sub(at, strength, x, y))
}

/// [`carried_light`] in sub-levels: [`SUB`] per tile of distance between tile centres.
pub fn carried_light_sub(at: (f32, f32), strength: u8, x: i64, y: i64) -> u8 {
    let (px, py) = (at.0.floor() as i64, at.1.floor() as i64);
    let (dx, dy) = ((x - px).unsigned_abs(), (y - py).unsigned_abs());
    if dx.max(dy) >= strength as u64 {
        return 0;
    }
    let d = ((dx * dx + dy * dy) as f32).sqrt() * SUB as f32;
    (sub(strength) as f32 - d).max(0.0).round() as u8
}

/// The player's light: where it is carried and how strong, from the body's centre and
/// the head light of the armour worn (`head`, 0 for none): a head light brighter than
/// the player's own is carried at the head, half a body above the centre.
pub fn players_light(centre: (f32, f32), head: u8) -> ((f32, f32), u8) {
    if head > PLAYER {
        ((centre.0, centre.1 - 1.0), head.min(MAX_LIGHT))
    } else {
        (centre, PLAYER)
    }
}

#[cfg(test)]
mod tests;
