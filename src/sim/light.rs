//! Light levels 0..=[`MAX_LIGHT`] per tile: sunlight, torches and their spread.
//!
//! Sources: every tile of a column above its first solid tile or background wall sees the
//! sky ([`SUN`]: a wall stops sunlight, as in Terraria, so a walled room or cave is lit only
//! by what spreads in from its open edges and by its torches), a
//! torch gives [`TORCH`] and lava [`LAVA`]. Light spreads to the four neighbours, losing [`AIR_LOSS`] per
//! non-solid tile entered and [`SOLID_LOSS`] per solid tile, so sunlight reaches about a
//! dozen tiles into a cave mouth, lights the first few tiles of ground, and a cave sealed
//! by more than four tiles of rock stays at 0. A tile's level is the best over all sources
//! of (source level − cheapest path loss): a shortest-path problem with small integer
//! costs, solved by a bucket queue processed from the brightest level down (each tile is
//! settled once, like Dijkstra, with no heap).
//!
//! [`LightMap::update_region`] recomputes only a box around an edit: a changed tile can
//! alter light no further than [`MAX_LIGHT`] tiles away (every step loses at least 1),
//! except that opening or closing a column's sky changes the whole span of that column
//! whose sky status flipped, so the box grows to cover that span too. Tiles just outside
//! the box keep their (still correct) levels and feed light back in.

use crate::world::{Tile, Wall, World, tile_bits};

/// Brightest level.
pub const MAX_LIGHT: u8 = 15;
/// Level of open sky.
pub const SUN: u8 = 15;
/// Level of a torch's own tile.
pub const TORCH: u8 = 14;
/// Level of a lava tile: a dimmer torch, so a lava pool glows a few tiles around it.
pub const LAVA: u8 = 10;
/// Level of the light the player carries, at the player's tile.
pub const PLAYER: u8 = 8;
/// Loss entering a non-solid tile.
pub const AIR_LOSS: u8 = 1;
/// Loss entering a solid tile.
pub const SOLID_LOSS: u8 = 3;
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

/// Pending tiles by level (index = level).
type Buckets = [Vec<u32>; MAX_LIGHT as usize + 1];

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
                *level = if (y as u32) < s { SUN } else { 0 };
            }
        }
        let mut buckets: Buckets = Default::default();
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
                buckets[SUN as usize].push((y * w + x) as u32);
            }
        }
        for (kind, level) in [(Tile::Torch, TORCH), (Tile::Lava, LAVA)] {
            for i in world
                .find(kind)
                .into_iter()
                .map(|(x, y)| (y * w + x) as u32)
            {
                if map.levels[i as usize] < level {
                    map.levels[i as usize] = level;
                    buckets[level as usize].push(i);
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

    /// Level at `(x, y)`; 0 outside the world.
    pub fn get(&self, x: usize, y: usize) -> u8 {
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

    /// All levels, row-major.
    pub fn levels(&self) -> &[u8] {
        &self.levels
    }

    /// Source level of tile `(x, y)` alone.
    fn source(&self, world: &World, x: usize, y: usize) -> u8 {
        if (y as u32) < self.sky[x] {
            SUN
        } else {
            emits(world.tile(x, y))
        }
    }

    /// Settles the queued light, writing only inside `region`.
    fn spread(&mut self, world: &World, buckets: &mut Buckets, region: Rect) {
        let (w, h) = (self.width, self.height);
        let tiles = world.tiles();
        for level in (2..=MAX_LIGHT).rev() {
            while let Some(i) = buckets[level as usize].pop() {
                let i = i as usize;
                if self.levels[i] != level {
                    continue; // Raised since it was queued; processed at its new level.
                }
                let (x, y) = (i % w, i / w);
                let mut reach = |j: usize, nx: usize, ny: usize| {
                    if !region.contains(nx, ny) {
                        return;
                    }
                    let loss = if tiles[j].is_solid() {
                        SOLID_LOSS
                    } else {
                        AIR_LOSS
                    };
                    let l = level.saturating_sub(loss);
                    if l > self.levels[j] {
                        self.levels[j] = l;
                        buckets[l as usize].push(j as u32);
                    }
                };
                if x > 0 {
                    reach(i - 1, x - 1, y);
                }
                if x + 1 < w {
                    reach(i + 1, x + 1, y);
                }
                if y > 0 {
                    reach(i - w, x, y - 1);
                }
                if y + 1 < h {
                    reach(i + w, x, y + 1);
                }
            }
        }
        buckets.iter_mut().for_each(Vec::clear);
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
        let mut buckets: Buckets = Default::default();
        for y in region.y0..=region.y1 {
            for x in region.x0..=region.x1 {
                let s = self.source(world, x, y);
                self.levels[y * w + x] = s;
                if s > 1 {
                    buckets[s as usize].push((y * w + x) as u32);
                }
            }
        }
        // The ring just outside keeps its levels and shines in.
        let mut ring = |x: usize, y: usize| {
            let l = self.levels[y * w + x];
            if l > 1 {
                buckets[l as usize].push((y * w + x) as u32);
            }
        };
        for y in region.y0..=region.y1 {
            if region.x0 > 0 {
                ring(region.x0 - 1, y);
            }
            if region.x1 + 1 < w {
                ring(region.x1 + 1, y);
            }
        }
        for x in region.x0..=region.x1 {
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

/// The light a tile gives of itself: torches and lava.
pub fn emits(tile: Tile) -> u8 {
    match tile {
        Tile::Torch => TORCH,
        Tile::Lava => LAVA,
        _ => 0,
    }
}

/// The player's own light at tile `(x, y)`: [`PLAYER`] at the tile holding the body's
/// centre, one less per tile of (Manhattan) distance, through walls (it is cheap and the
/// renderer adds it every frame without touching the map).
pub fn player_light(player_centre: (f32, f32), x: i64, y: i64) -> u8 {
    carried_light(player_centre, PLAYER, x, y)
}

/// A light of `strength` carried at `at` (the player's own, or a mining helmet's at the
/// head) at tile `(x, y)`: `strength` at the tile holding `at`, one less per tile of
/// (Manhattan) distance, through walls.
pub fn carried_light(at: (f32, f32), strength: u8, x: i64, y: i64) -> u8 {
    let (px, py) = (at.0.floor() as i64, at.1.floor() as i64);
    let d = (x - px)
        .unsigned_abs()
        .saturating_add((y - py).unsigned_abs());
    (strength as u64).saturating_sub(d) as u8
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
