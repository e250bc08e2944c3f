//! Pass **deposits**: clay in the dirt near the surface and silt in the caverns' stone,
//! as Terraria lays them: round blobs of [`RADIUS`] tiles or less.
//!
//! Expects: the finished dirt and stone. Leaves: `deposits.clay` blobs of clay per 100
//! columns, each centred 3 to 3 + [`CLAY_DEPTH`] rows under its column's surface, turning
//! dirt (only dirt) into clay; `deposits.silt` blobs of silt per million tiles of the
//! cavern layer, turning stone (only stone) into silt. Each blob is drawn from a
//! counter-based hash of its number.

use crate::base::depth::Layer;
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use crate::worldgen::pockets::unit;
use rand::Rng;

/// Largest radius of a blob, tiles.
pub const RADIUS: f32 = 4.0;
/// Rows under the surface a clay blob's centre may lie, below the first three.
pub const CLAY_DEPTH: u64 = 20;

/// Turns `from` into `to` in the disc of radius `r` round `(cx, cy)`.
fn blob(world: &mut World, (cx, cy): (i64, i64), r: f32, from: Tile, to: Tile) {
    let ri = r.ceil() as i64;
    for y in cy - ri..=cy + ri {
        for x in cx - ri..=cx + ri {
            let (dx, dy) = ((x - cx) as f32, (y - cy) as f32);
            if dx * dx + dy * dy <= r * r && world.get(x, y) == Some(from) {
                world.set(x as usize, y as usize, to);
            }
        }
    }
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let p = &preset.deposits;
    let key = rng.next_u64();
    if !p.enabled {
        return;
    }
    let (w, h) = (world.width(), world.height());
    let clay = (p.clay * w as f64 / 100.0).round() as u64;
    for i in 0..clay {
        let r = hash3(key, i, 0);
        let x = (r % w as u64) as usize;
        let y = world.surface[x] as u64 + 3 + (r >> 32) % CLAY_DEPTH;
        let radius = 1.5 + (RADIUS - 1.5) * unit(hash3(key, i, 1), 0);
        blob(world, (x as i64, y as i64), radius, Tile::Dirt, Tile::Clay);
    }
    let (top, bottom) = Layers::of(preset).rows(Layer::Cavern, Layer::Cavern);
    let bottom = bottom.min(h);
    if bottom <= top {
        return;
    }
    let silt = (p.silt * (w * (bottom - top)) as f64 / 1e6).round() as u64;
    for i in 0..silt {
        let r = hash3(key ^ 0x5117, i, 0);
        let x = (r % w as u64) as i64;
        let y = (top as u64 + (r >> 32) % (bottom - top) as u64) as i64;
        let radius = 1.5 + (RADIUS - 1.5) * unit(hash3(key ^ 0x5117, i, 1), 0);
        blob(world, (x, y), radius, Tile::Stone, Tile::Silt);
    }
}
