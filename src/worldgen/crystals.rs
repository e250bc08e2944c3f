//! Pass **crystals**: life crystals on cave floors in the cavern layer, a few a world.
//!
//! Expects: the world finished but for them (the last pass: it changes no tile the other
//! passes made but the crystals' own). Leaves: some cavern air turned into
//! [`Tile::LifeCrystal`], nothing else touched. Terraria puts about 50 in a Large world
//! (8400 x 2400); Strata places the preset's `crystals.per_large` (50 in the shipped
//! presets, [`PER_LARGE`]; 0 in `classic`, whose worlds are the seed's alone) scaled by the
//! world's area (rounded, so a small test world may have none), each where a chest could stand
//! ([`super::chests::may_stand`]: on a solid tile, air above, no liquid beside) and not
//! beside another crystal.
//!
//! Crystal `i` looks from a spot drawn from a counter-based hash of `i` (a column, and a
//! row in the cavern layer), down its column to the layer's bottom, and tries again from
//! another spot at most [`TRIES`] times: which crystals there are depends only on the seed
//! and the world's tiles.

use crate::base::depth::Layer;
use crate::base::rng::{PassRng, hash3};
use crate::content::preset::Preset;
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use rand::Rng;

/// Crystals in a world of Terraria's Large size.
pub const PER_LARGE: f64 = 50.0;
/// A Large world's tiles (8400 x 2400).
const LARGE_AREA: f64 = 8400.0 * 2400.0;
/// Spots tried for one crystal before it is given up.
pub const TRIES: u64 = 16;

/// How many crystals a `width` x `height` world gets at `per_large` a Large world.
pub fn count_for(per_large: f64, width: usize, height: usize) -> usize {
    (per_large * (width * height) as f64 / LARGE_AREA).round() as usize
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u64();
    let layers = Layers::of(preset);
    let (top, bottom) = layers.rows(Layer::Cavern, Layer::Cavern);
    let (width, height) = (world.width(), world.height());
    let bottom = bottom.min(height);
    if top >= bottom || width < 3 {
        return;
    }
    for i in 0..count_for(preset.crystals.per_large, width, height) as u64 {
        for t in 0..TRIES {
            let r = hash3(key, i, t);
            let x = 1 + (r % (width as u64 - 2)) as usize;
            let y0 = top + ((r >> 32) % (bottom - top) as u64) as usize;
            let spot = (y0..bottom).find(|&y| {
                super::chests::may_stand(world, x, y)
                    && (x - 1..=x + 1).all(|xx| world.tile(xx, y) != Tile::LifeCrystal)
            });
            if let Some(y) = spot {
                world.set(x, y, Tile::LifeCrystal);
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_fifty_in_a_large_world_scaled_by_area() {
        assert_eq!(count_for(PER_LARGE, 8400, 2400), 50);
        assert_eq!(count_for(PER_LARGE, 6400, 1800), 29);
        assert_eq!(count_for(PER_LARGE, 4200, 1200), 13);
        assert_eq!(count_for(PER_LARGE, 256, 160), 0);
        assert_eq!(count_for(0.0, 8400, 2400), 0);
    }

    #[test]
    fn crystals_stand_on_cavern_floors_and_nothing_else_moves() {
        let preset = Preset {
            width: 1600,
            height: 800,
            ..Preset::default()
        };
        let made = crate::worldgen::generate(&preset, 11).0;
        let layers = Layers::of(&preset);
        let (top, bottom) = layers.rows(Layer::Cavern, Layer::Cavern);
        let spots: Vec<(usize, usize)> = (0..made.height())
            .flat_map(|y| (0..made.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| made.tile(x, y) == Tile::LifeCrystal)
            .collect();
        let want = count_for(PER_LARGE, 1600, 800);
        assert!(want >= 3, "{want}");
        assert!(
            spots.len() + 1 >= want && spots.len() <= want,
            "{} of {want}",
            spots.len()
        );
        for &(x, y) in &spots {
            assert!((top..bottom).contains(&y), "{x} {y} outside the caverns");
            assert!(made.tile(x, y + 1).is_solid(), "{x} {y} stands on nothing");
        }
        // Without the pass the world is the same but for the crystals.
        let last = crate::worldgen::pass_named("crystals").unwrap();
        assert_eq!(last, crate::worldgen::PASSES.len() - 1, "the last pass");
        let never = std::sync::atomic::AtomicBool::new(false);
        let before = crate::worldgen::generate_until(
            &preset,
            11,
            &crate::content::config::Content::builtin(),
            last - 1,
            &mut |_| {},
            &never,
        )
        .unwrap()
        .0;
        let moved = (0..made.height())
            .flat_map(|y| (0..made.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| made.tile(x, y) != before.tile(x, y))
            .count();
        assert_eq!(moved, spots.len());
        assert_eq!(made.walls(), before.walls());
        // The same seed places them the same.
        assert_eq!(
            crate::worldgen::generate(&preset, 11).0.tile_hash(),
            made.tile_hash()
        );
    }
}
