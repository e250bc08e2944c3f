//! Pass **ocean**: the seas at both ends of the world.
//!
//! Expects: the finished ground, with the surface pass's basins at both ends (caves and
//! tunnels may reach under them). Leaves: water from sea level down to the ground in every
//! column reached from an edge over ground below sea level (the sea stops at the first
//! column whose ground is at or above sea level: the beach), and sand under it:
//! `sand_depth` tiles under the sea floor, deep enough at every step of the floor that the
//! sea rests on sand and never touches a cave, tapering to nothing across the beach.
//! Nothing else. Work is per column of the sea and shore only.

use crate::base::rng::PassRng;
use crate::content::preset::{OceanParams, Preset};
use crate::world::{Tile, World};

/// Rows the top of a beach lies above sea level.
const BEACH_LIFT: f64 = 2.0;

/// The ocean basins at both ends of a world.
#[derive(Clone, Copy, Debug)]
pub struct Oceans {
    /// Sea level row.
    pub sea: f64,
    /// Columns of sea at each end.
    pub columns: f64,
    depth: f64,
    shore: f64,
    width: usize,
}

impl Oceans {
    /// The basins a preset asks for, or `None` when it has no oceans.
    pub fn new(width: usize, height: usize, p: &OceanParams) -> Option<Oceans> {
        let columns = (p.width * width as f64).round();
        (columns >= 1.0).then_some(Oceans {
            sea: p.sea_level * height as f64,
            columns,
            depth: p.depth as f64,
            shore: p.shore as f64,
            width,
        })
    }

    /// The ground row at column `x` given the land's row `y` there: towards the edges a
    /// sea floor sinking to `depth` below sea level, within `columns` of the edge a floor
    /// rising to a beach just above sea level, then over `shore` columns a smooth blend
    /// into the land. The beach is always above sea level, so the sea never reaches
    /// further inland than `columns`.
    pub fn shape(&self, x: usize, y: f64) -> f64 {
        let d = x.min(self.width - 1 - x) as f64;
        if d >= self.columns + self.shore {
            return y;
        }
        let t = (d / self.columns).min(1.0);
        let floor = self.sea - BEACH_LIFT + (self.depth + BEACH_LIFT) * (1.0 - t).powf(1.5);
        let w = if d < self.columns {
            0.0
        } else {
            let u = (d - self.columns) / self.shore.max(1.0);
            u * u * (3.0 - 2.0 * u)
        };
        floor + w * (y - floor)
    }
}

pub fn apply(world: &mut World, preset: &Preset, _rng: &mut PassRng) {
    let (width, height) = (world.width(), world.height());
    let Some(oceans) = Oceans::new(width, height, &preset.ocean) else {
        return;
    };
    let p = &preset.ocean;
    let sea = oceans.sea.round() as usize;
    let half = width / 2;
    let left: Vec<usize> = (0..half).collect();
    let right: Vec<usize> = (half..width).rev().collect();
    for columns in [left, right] {
        let flooded = columns
            .iter()
            .take_while(|&&x| world.surface[x] as usize > sea)
            .count();
        for &x in &columns[..flooded] {
            for y in sea..world.surface[x] as usize {
                if world.tile(x, y) == Tile::Air {
                    world.set(x, y, Tile::Water);
                }
            }
        }
        // Sand under the sea, down past the floor of any flooded neighbour (so no water
        // tile has a cave beside it), then a wedge thinning across the beach.
        let shore = p.shore.max(1) as usize;
        let reach = (flooded + shore).min(columns.len());
        for i in 0..reach {
            let x = columns[i];
            let top = world.surface[x] as usize;
            let mut bottom = if i < flooded {
                top + p.sand_depth as usize
            } else {
                let left = (shore - (i - flooded)) as f64 / shore as f64;
                top + (p.sand_depth as f64 * left).round() as usize
            };
            for j in [i.wrapping_sub(1), i + 1] {
                if j < flooded {
                    bottom = bottom.max(world.surface[columns[j]] as usize);
                }
            }
            for y in top..bottom.min(height) {
                world.set(x, y, Tile::Sand);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worldgen::generate;

    fn world(seed: u64) -> World {
        let preset = Preset {
            width: 1200,
            height: 400,
            ..Preset::default()
        };
        generate(&preset, seed).0
    }

    #[test]
    fn both_ends_hold_sea_up_to_sea_level_resting_on_sand() {
        for seed in [1, 2, 3] {
            let w = world(seed);
            let sea = (w.preset.ocean.sea_level * w.height() as f64).round() as usize;
            for x in [0, w.width() - 1] {
                assert_eq!(w.tile(x, sea), Tile::Water, "seed {seed} column {x}");
                assert_eq!(w.tile(x, sea - 1), Tile::Air, "seed {seed} column {x}");
            }
            let half = w.width() / 2;
            for columns in [
                (0..half).collect::<Vec<_>>(),
                (half..w.width()).rev().collect(),
            ] {
                let sea_columns = columns.iter().take_while(|&&x| w.surface[x] as usize > sea);
                for &x in sea_columns {
                    for y in sea..w.surface[x] as usize {
                        assert_eq!(w.tile(x, y), Tile::Water, "seed {seed} ({x}, {y})");
                        for (nx, ny) in [(x.wrapping_sub(1), y), (x + 1, y), (x, y + 1)] {
                            if let Some(t) = w.get(nx as i64, ny as i64) {
                                assert!(
                                    matches!(t, Tile::Water | Tile::Sand),
                                    "seed {seed}: {t:?} beside the sea at ({x}, {y})"
                                );
                            }
                        }
                    }
                }
            }
            // The sea stays within its columns at each end.
            let most = Oceans::new(w.width(), w.height(), &w.preset.ocean)
                .unwrap()
                .columns as usize;
            let left = (0..half)
                .take_while(|&x| w.surface[x] as usize > sea)
                .count();
            let right = (half..w.width())
                .rev()
                .take_while(|&x| w.surface[x] as usize > sea)
                .count();
            assert!(
                left <= most && right <= most,
                "seed {seed}: {left}, {right} of {most}"
            );
        }
    }
}
