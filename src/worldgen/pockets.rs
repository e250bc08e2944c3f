//! What the mini-biome passes share: finding a spot for a landmark (a box clear of the
//! other landmarks and of the spawn point, whose ground suits it), walking the tiles of a
//! noisy ellipse, and the rules of what a landmark may change (solid rock and open air,
//! never a liquid, a chest or a tree, nor the ground under one), so a pass run late leaves
//! the chests standing and the pools at rest.
//!
//! Every spot is drawn from a counter-based hash of the pass's key, the landmark's number
//! and the try, and each landmark is laid before the next is looked for, in order: which
//! landmarks a world has depends only on the seed and the tiles, never on threads.

use crate::base::noise::perlin_2d;
use crate::base::rng::hash3;
use crate::world::structure::{Structure, StructureKind};
use crate::world::{Matter, Tile, World};

/// Spots tried for one landmark before it is given up.
pub const TRIES: u64 = 40;
/// Columns each side of the spawn point (the world's centre) no landmark's box covers.
pub const SPAWN_CLEAR: i32 = 40;
/// Rows of ground at least over a landmark's box (it never breaks the surface).
pub const UNDER: i32 = 20;

/// A landmark's place: its centre and its half-width and half-height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spot {
    pub cx: i32,
    pub cy: i32,
    pub rx: f32,
    pub ry: f32,
}

impl Spot {
    /// Its box as a structure of `kind`, clipped to the world.
    pub fn structure(&self, kind: StructureKind, world: &World) -> Structure {
        let x0 = (self.cx - self.rx.ceil() as i32).max(0);
        let y0 = (self.cy - self.ry.ceil() as i32).max(0);
        let x1 = (self.cx + self.rx.ceil() as i32).min(world.width() as i32 - 1);
        let y1 = (self.cy + self.ry.ceil() as i32).min(world.height() as i32 - 1);
        Structure {
            kind,
            x: x0,
            y: y0,
            w: x1 - x0 + 1,
            h: y1 - y0 + 1,
        }
    }
}

/// A uniform draw in [0, 1) from 24 bits of `r` starting at bit `shift`.
#[inline]
pub fn unit(r: u64, shift: u32) -> f32 {
    ((r >> shift) & 0xFF_FFFF) as f32 / (1u32 << 24) as f32
}

/// Looks for a spot for landmark `i`: a centre in rows `rows` (half-open) at least its
/// half-width from the world's sides, a half-width of `size` ± a third and a half-height
/// `aspect` times it, whose box overlaps no landmark already in `world.structures` nor
/// the spawn point's columns, and where `suits` holds. `None` after [`TRIES`] spots.
pub fn find(
    world: &World,
    key: u64,
    i: u64,
    rows: (usize, usize),
    size: f32,
    aspect: f32,
    suits: impl Fn(&World, &Spot) -> bool,
) -> Option<Spot> {
    let (w, h) = (world.width() as i32, world.height() as i32);
    let (top, bottom) = (rows.0 as i32, (rows.1 as i32).min(h));
    let centre = w / 2;
    for t in 0..TRIES {
        let r = hash3(key, i, t);
        let rx = (size * (0.67 + 0.67 * unit(hash3(key, i, t | 1 << 40), 0))).max(3.0);
        let ry = (rx * aspect).max(3.0);
        let (mx, my) = (rx.ceil() as i32 + 1, ry.ceil() as i32 + 1);
        if w <= 2 * mx || bottom <= top {
            return None;
        }
        let cx = mx + ((r & 0xFFFF_FFFF) % (w - 2 * mx) as u64) as i32;
        let cy = top + ((r >> 32 & 0xFF_FFFF) % (bottom - top) as u64) as i32;
        if cy - my < 0 || cy + my >= h {
            continue;
        }
        let spot = Spot { cx, cy, rx, ry };
        let b = spot.structure(StructureKind::Hive, world);
        if b.x < centre + SPAWN_CLEAR && centre - SPAWN_CLEAR < b.x + b.w {
            continue;
        }
        if world.structures.iter().any(|s| s.overlaps(&b)) {
            continue;
        }
        // Underground: [`UNDER`] rows of ground at least over the box in all its columns.
        let columns = b.x as usize..(b.x + b.w) as usize;
        if world.surface[columns]
            .iter()
            .any(|&s| b.y < s as i32 + UNDER)
        {
            continue;
        }
        if suits(world, &spot) {
            return Some(spot);
        }
    }
    None
}

/// How a pass lays its landmarks: their kind, the rows their centres lie in, their size
/// (half-width, a third either way), height over width, how far their edge wanders in,
/// and what ground suits them.
pub struct Plan {
    pub kind: StructureKind,
    pub rows: (usize, usize),
    pub size: f32,
    pub aspect: f32,
    pub rough: f32,
    pub suits: fn(&World, &Spot) -> bool,
}

impl Plan {
    /// Landmarks of `kind` in the cavern layer's stone, `size` and `(aspect, rough)` as
    /// [`Plan`] has them.
    pub fn in_caverns(
        kind: StructureKind,
        preset: &crate::content::preset::Preset,
        size: f64,
        (aspect, rough): (f32, f32),
    ) -> Plan {
        Plan {
            kind,
            rows: caverns(preset),
            size: size as f32,
            aspect,
            rough,
            suits: in_stone,
        }
    }
}

/// The cavern layer's rows, where most landmarks lie.
pub fn caverns(preset: &crate::content::preset::Preset) -> (usize, usize) {
    use crate::base::depth::Layer;
    crate::world::depth::Layers::of(preset).rows(Layer::Cavern, Layer::Cavern)
}

/// Ground of stone: at least five of nine samples over the spot ([`samples`]).
pub fn in_stone(world: &World, s: &Spot) -> bool {
    samples(world, s, 0.6, |t| t == Tile::Stone) >= 5
}

/// Lays `count` landmarks by `plan`, one after another: for each a spot ([`find`]; a
/// landmark without one is left out), then `build(world, spot, noise key, tiles)` with the
/// tiles of its ellipse ([`each_tile`]), then its box pushed to `world.structures`.
pub fn lay(
    world: &mut World,
    key: u64,
    count: usize,
    plan: &Plan,
    mut build: impl FnMut(&mut World, &Spot, u32, &[(usize, usize, f32)]),
) {
    for i in 0..count as u64 {
        let Some(s) = find(world, key, i, plan.rows, plan.size, plan.aspect, plan.suits) else {
            continue;
        };
        let k = key as u32 ^ i as u32;
        let mut cells = Vec::new();
        each_tile(world, &s, k, plan.rough, |x, y, d| cells.push((x, y, d)));
        build(world, &s, k, &cells);
        world.structures.push(s.structure(plan.kind, world));
    }
}

/// Of nine points spread over the spot's ellipse (its centre and eight around it at
/// `reach` of its radii), how many hold a tile `is`.
pub fn samples(world: &World, s: &Spot, reach: f32, is: impl Fn(Tile) -> bool) -> usize {
    const DIRS: [(f32, f32); 9] = [
        (0.0, 0.0),
        (1.0, 0.0),
        (-1.0, 0.0),
        (0.0, 1.0),
        (0.0, -1.0),
        (0.7, 0.7),
        (-0.7, 0.7),
        (0.7, -0.7),
        (-0.7, -0.7),
    ];
    DIRS.iter()
        .filter(|(dx, dy)| {
            let x = s.cx as i64 + (dx * s.rx * reach) as i64;
            let y = s.cy as i64 + (dy * s.ry * reach) as i64;
            world.get(x, y).is_some_and(&is)
        })
        .count()
}

/// Rock a landmark is cut from: solid ground that is not a made thing (furniture, doors).
pub fn is_rock(t: Tile) -> bool {
    t.is_solid() && !t.is_door()
}

/// Calls `f(x, y, d)` for every tile of the spot's ellipse whose edge wanders inward by
/// up to `rough` of its radii (noise of key `key`; never outward, so every tile lies in
/// the spot's box), `d` the tile's distance from the centre as a share of the (wandering)
/// edge: 0 at the centre, 1 at the edge.
pub fn each_tile(
    world: &World,
    s: &Spot,
    key: u32,
    rough: f32,
    mut f: impl FnMut(usize, usize, f32),
) {
    let (w, h) = (world.width() as i32, world.height() as i32);
    let (x0, x1) = (
        (s.cx - s.rx.ceil() as i32 - 1).max(0),
        (s.cx + s.rx.ceil() as i32 + 1).min(w - 1),
    );
    let (y0, y1) = (
        (s.cy - s.ry.ceil() as i32 - 1).max(0),
        (s.cy + s.ry.ceil() as i32 + 1).min(h - 1),
    );
    for y in y0..=y1 {
        for x in x0..=x1 {
            let (dx, dy) = ((x - s.cx) as f32 / s.rx, (y - s.cy) as f32 / s.ry);
            let n = perlin_2d(key, x as f32 / 9.0, y as f32 / 9.0);
            let edge = 1.0 - rough * (0.5 + 0.5 * n.clamp(-1.0, 1.0));
            let d = (dx * dx + dy * dy).sqrt() / edge;
            if d <= 1.0 {
                f(x as usize, y as usize, d);
            }
        }
    }
}

/// May a landmark open tile `(x, y)` into air? Only rock with nothing resting on it (a
/// chest, a tree, a crystal) and no liquid beside it (a pool stays at rest).
pub fn may_carve(world: &World, x: usize, y: usize) -> bool {
    if !is_rock(world.tile(x, y)) {
        return false;
    }
    if y > 0 && world.tile(x, y - 1).info().matter == Matter::Decor {
        return false;
    }
    let (w, h) = (world.width() as i64, world.height() as i64);
    [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)]
        .iter()
        .all(|(dx, dy)| {
            let (nx, ny) = (x as i64 + dx, y as i64 + dy);
            nx < 0
                || ny < 0
                || nx >= w
                || ny >= h
                || !world.tile(nx as usize, ny as usize).is_liquid()
        })
}

/// Opens `(x, y)` into air where [`may_carve`] allows.
pub fn carve(world: &mut World, x: usize, y: usize) {
    if may_carve(world, x, y) {
        world.set(x, y, Tile::Air);
    }
}

/// Turns rock at `(x, y)` into `to` (air, liquids and made things stay).
pub fn recolour(world: &mut World, x: usize, y: usize, to: Tile) {
    if is_rock(world.tile(x, y)) {
        world.set(x, y, to);
    }
}

#[cfg(test)]
mod tests;
