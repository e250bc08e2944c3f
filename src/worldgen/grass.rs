//! Pass 5, **grass**: dirt with air directly above becomes grass.
//!
//! Expects: the finished ground. Leaves: grass on top of dirt, per the preset's mode:
//! `Exposed` grows it on any dirt under air (cave floors too), `SkyLit` only on the first
//! solid tile of a column when that is dirt under open sky.

use crate::preset::{GrassMode, Preset};
use crate::rng::PassRng;
use crate::world::{Tile, World};
use rayon::prelude::*;

pub fn apply(world: &mut World, preset: &Preset, _rng: &mut PassRng) {
    match preset.grass.mode {
        GrassMode::Exposed => exposed(world),
        GrassMode::SkyLit => sky_lit(world),
    }
}

fn exposed(world: &mut World) {
    let width = world.width();
    // Air masks first (read-only), so rows can then be rewritten in parallel.
    let air: Vec<Vec<bool>> = world
        .tiles()
        .par_chunks(width)
        .map(|r| r.iter().map(|t| t.is_open()).collect())
        .collect();
    world
        .tiles_mut()
        .par_chunks_mut(width)
        .enumerate()
        .skip(1)
        .for_each(|(y, row)| {
            for (tile, &open_above) in row.iter_mut().zip(&air[y - 1]) {
                if *tile == Tile::Dirt && open_above {
                    *tile = Tile::Grass;
                }
            }
        });
}

fn sky_lit(world: &mut World) {
    let (width, height) = (world.width(), world.height());
    let mut open: Vec<usize> = (0..width).collect();
    for y in 0..height {
        if open.is_empty() {
            break;
        }
        open.retain(|&x| {
            let t = world.tile(x, y);
            if t.is_open() {
                return true;
            }
            if t == Tile::Dirt && y > 0 {
                world.set(x, y, Tile::Grass);
            }
            false
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grown(mode: GrassMode, art: &[&str]) -> Vec<String> {
        let mut w = World::from_ascii(art).unwrap();
        let mut preset = Preset::default();
        preset.grass.mode = mode;
        apply(&mut w, &preset, &mut crate::rng::pass_rng(0, "grass"));
        (0..w.height())
            .map(|y| w.row(y).iter().map(|t| t.ascii()).collect())
            .collect()
    }

    #[test]
    fn exposed_grows_on_any_dirt_under_air() {
        let got = grown(GrassMode::Exposed, &["  #  ", "....#", ". . .", "....."]);
        assert_eq!(got, vec!["  #  ", "ww.w#", ". . .", ".w.w."]);
    }

    #[test]
    fn sky_lit_grows_only_under_open_sky() {
        let got = grown(GrassMode::SkyLit, &["  #  ", "....#", ". . .", "....."]);
        assert_eq!(got, vec!["  #  ", "ww.w#", ". . .", "....."]);
        // Stone on top: no grass below it; dirt in the top row has no air above.
        let got = grown(GrassMode::SkyLit, &[". # ", "  . ", "....", "...."]);
        assert_eq!(got, vec![". # ", "  . ", ".w.w", "...."]);
    }
}
