//! Pass **underworld**: the bottom band of the world, unlike anything above it.
//!
//! Expects: caves and tunnels carved, the layer rows of [`Layers`]. Leaves (when
//! `enabled`): from a ragged top edge near the underworld row down, every non-air tile is
//! ash; a wide open band runs across the whole width between a ceiling and a floor that
//! rise and fall with slow noise (`ceiling` and `floor` are their mean depths as shares of
//! the underworld's height, `roughness` their swing in tiles, at most 15% of that height);
//! everything below the floor is solid ash (caves there are filled), so the floor holds
//! the lava lakes the lava pass lays on it. The caves and tunnels above reach down into the band's ceiling, which joins
//! it to the network. Rows in parallel; per column, three noise samples.

use crate::base::noise::Basis;
use crate::base::rng::PassRng;
use crate::content::preset::{Preset, UnderworldParams};
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;

/// The mean row of the open band's ceiling, if the preset lays an underworld: the long
/// tunnels reach a little below it, so they open into the band.
pub fn band_ceiling(preset: &Preset) -> Option<usize> {
    let p = &preset.underworld;
    if !p.enabled {
        return None;
    }
    let l = Layers::of(preset);
    Some(l.underworld + (p.ceiling * (l.height - l.underworld) as f64) as usize)
}

/// Smooth noise mostly in [-1, 1] (rarely to ±1.9): two octaves of 1D noise in `basis`.
fn wave(basis: Basis, key: u32, x: usize, frequency: f32) -> f64 {
    let x = x as f32 * frequency;
    let n = basis.noise_1d(key, x) + 0.5 * basis.noise_1d(key ^ 0x2545_f491, 2.0 * x);
    // Perlin's values rarely pass ±0.4 (the other bases' more often; the callers clamp
    // what comes of them): this scales the usual range to about ±1.
    (n / 0.4) as f64
}

/// Per column: the first underworld row, the band's ceiling and its floor.
fn edges(
    key: u32,
    width: usize,
    height: usize,
    l: &Layers,
    p: &UnderworldParams,
) -> Vec<[usize; 3]> {
    let span = (height - l.underworld) as f64;
    let last = height.saturating_sub(3) as f64;
    (0..width)
        .into_par_iter()
        .with_min_len(256)
        .map(|x| {
            // A small underworld gets a smaller swing, so its band stays open.
            let r = p.roughness.min(0.15 * span);
            let top = l.underworld as f64 + 0.5 * r * wave(p.basis, key, x, 0.01);
            // The ceiling hangs down in knobs (a faster octave, one-sided), the floor rolls in
            // hills and hollows that hold the lava lakes.
            let knobs = wave(p.basis, key ^ 3, x, 0.05).max(0.0);
            let ceiling = l.underworld as f64
                + p.ceiling * span
                + r * (wave(p.basis, key ^ 1, x, 0.012) + 0.8 * knobs);
            let floor = l.underworld as f64
                + p.floor * span
                + r * (wave(p.basis, key ^ 2, x, 0.008) + 0.6 * wave(p.basis, key ^ 4, x, 0.03));
            let top = top.clamp(0.0, last);
            let ceiling = ceiling.clamp(top, last);
            let floor = floor.clamp(ceiling + 4.0, last.max(ceiling + 4.0));
            [top as usize, ceiling as usize, (floor as usize).min(height)]
        })
        .collect()
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let key = rng.next_u32();
    let p = &preset.underworld;
    let (width, height) = (world.width(), world.height());
    let l = Layers::of(preset);
    if !p.enabled || l.underworld >= height {
        return;
    }
    let cols = edges(key, width, height, &l, p);
    let first = cols.iter().map(|c| c[0]).min().unwrap_or(height);
    world.tiles_mut()[first * width..]
        .par_chunks_mut(width)
        .with_min_len(4)
        .enumerate()
        .for_each(|(i, row)| {
            let y = first + i;
            for (t, &[top, ceiling, floor]) in row.iter_mut().zip(&cols) {
                if y < top {
                    continue;
                }
                // Air in the band and wherever the caves above left it; ash elsewhere.
                let open = y < floor && (y >= ceiling || *t == Tile::Air);
                *t = if open { Tile::Air } else { Tile::Ash };
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_underworld_is_ash_over_an_open_band_and_a_solid_floor() {
        // Without the ruins pass, whose obsidian houses stand on this floor.
        let mut p = Preset {
            width: 900,
            height: 500,
            ..Preset::default()
        };
        p.ruins.enabled = false;
        let w = crate::worldgen::generate(&p, 6).0;
        let l = Layers::of(&p);
        let span = (l.height - l.underworld) as f64;
        let r = p.underworld.roughness.min(0.15 * span) as usize;
        // Below the top edge's swing: ash and hellstone, air and lava, nothing else.
        let deep = l.underworld + r..w.height();
        for y in deep.clone() {
            for x in 0..w.width() {
                let t = w.tile(x, y);
                assert!(
                    matches!(t, Tile::Air | Tile::Ash | Tile::Lava | Tile::Hellstone),
                    "{t:?} at ({x}, {y})"
                );
            }
        }
        // Every column has an open band of at least a few rows (air or lava), and solid
        // ground under it.
        for x in 0..w.width() {
            let open = deep.clone().filter(|&y| !w.tile(x, y).is_solid()).count();
            assert!(open >= 4, "column {x}: {open} open rows");
            assert!(w.tile(x, w.height() - 1).is_solid());
        }
        // The band is about as tall as the preset says.
        let open: usize = deep
            .map(|y| w.row(y).iter().filter(|t| !t.is_solid()).count())
            .sum();
        let band = (p.underworld.floor - p.underworld.ceiling) * span * w.width() as f64;
        assert!(
            (0.7..1.4).contains(&(open as f64 / band)),
            "{open} open of {band}"
        );
        // Hellstone only in the underworld.
        for y in 0..l.underworld {
            assert!(
                w.row(y).iter().all(|&t| t != Tile::Hellstone),
                "hellstone in row {y}"
            );
        }
        let off = Preset {
            underworld: UnderworldParams {
                enabled: false,
                ..p.underworld.clone()
            },
            ..p.clone()
        };
        let counts = crate::worldgen::generate(&off, 6).0.counts();
        assert_eq!(counts[Tile::Ash as usize], 0);
    }
}
