//! Pass 3, **caves**: random fill, then a Moore-neighbourhood cellular automaton.
//!
//! Expects: ground below `world.surface`. Leaves: air wherever the automaton ends open.
//!
//! Cells start as wall above `surface + margin` and as wall with probability `fill` below
//! it; then `iterations` synchronous steps apply "more than `wall_above` of the 8
//! neighbours are walls → wall, fewer than `open_below` → open, otherwise unchanged", with
//! cells outside the world counting as walls.
//!
//! The grid is one bit per cell (1 = wall) in `u64` words, so one word holds 64 cells and
//! a step counts all 64 neighbourhoods at once with bit-sliced adders. Out-of-world
//! neighbours are all-ones guard words. The random fill draws 16 random words per 64 cells
//! from a counter-based hash and compares them, bit-sliced, against `fill` as a 16-bit
//! fraction (so `fill` is used to 1/65536).

mod automaton;
mod fill;

pub use automaton::{run_automaton, step_row};
pub use fill::random_fill;

use crate::preset::Preset;
use crate::rng::PassRng;
use crate::world::{Tile, World};
use rand::Rng;
use rayon::prelude::*;

/// A grid of bits, one per cell, rows padded to whole words with wall bits.
#[derive(Clone, Debug, PartialEq)]
pub struct BitGrid {
    pub width: usize,
    pub height: usize,
    pub words_per_row: usize,
    pub bits: Vec<u64>,
}

impl BitGrid {
    /// An all-wall grid.
    pub fn walls(width: usize, height: usize) -> BitGrid {
        let words_per_row = width.div_ceil(64);
        BitGrid {
            width,
            height,
            words_per_row,
            bits: vec![!0; words_per_row * height],
        }
    }

    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.bits[y * self.words_per_row + x / 64] >> (x % 64) & 1 == 1
    }

    #[inline]
    pub fn set(&mut self, x: usize, y: usize, wall: bool) {
        let w = &mut self.bits[y * self.words_per_row + x / 64];
        if wall {
            *w |= 1 << (x % 64);
        } else {
            *w &= !(1 << (x % 64));
        }
    }

    /// Bits of the last word of a row that lie outside the world (kept as walls).
    fn padding_mask(&self) -> u64 {
        match self.width % 64 {
            0 => 0,
            r => !0u64 << r,
        }
    }
}

/// Opens the tiles of one row whose bit is clear, 64 at a time: all-wall words are
/// skipped, all-open words are a fill, mixed words a branch-free select per tile.
#[inline(always)]
fn open_row(row: &mut [Tile], words: &[u64]) {
    for (tiles, &word) in row.chunks_mut(64).zip(words) {
        let open = !word;
        if open == 0 {
            continue;
        }
        if open == !0 {
            tiles.fill(Tile::Air);
            continue;
        }
        for (lane, t) in tiles.iter_mut().enumerate() {
            *t = if open & (1u64 << lane) != 0 {
                Tile::Air
            } else {
                *t
            };
        }
    }
}

/// [`open_row`] compiled for AVX2 (per-lane variable shifts).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn open_row_avx2(row: &mut [Tile], words: &[u64]) {
    open_row(row, words)
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let params = &preset.caves;
    let (width, height) = (world.width(), world.height());
    let (mut grid, first_random) =
        random_fill(width, height, &world.surface, params, rng.next_u64());
    let first_row = first_random.saturating_sub(params.iterations as usize);
    run_automaton(&mut grid, params, first_row);
    let wpr = grid.words_per_row;
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::is_x86_feature_detected!("avx2");
    world
        .tiles_mut()
        .par_chunks_mut(width)
        .with_min_len(8)
        .enumerate()
        .skip(first_row)
        .for_each(|(y, row)| {
            let words = &grid.bits[y * wpr..(y + 1) * wpr];
            #[cfg(target_arch = "x86_64")]
            if avx2 {
                // SAFETY: the CPU has AVX2 (checked at run time above).
                unsafe { open_row_avx2(row, words) };
                return;
            }
            open_row(row, words);
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::hash3;

    #[test]
    fn open_row_opens_exactly_the_clear_bits() {
        for width in [1usize, 63, 64, 65, 200] {
            let words: Vec<u64> = (0..width.div_ceil(64) as u64)
                .map(|w| hash3(9, w, width as u64))
                .collect();
            let mut words = words;
            if width > 64 {
                words[0] = !0; // all wall
            }
            if width > 128 {
                words[1] = 0; // all open
            }
            let mut row = vec![Tile::Stone; width];
            open_row(&mut row, &words);
            for (x, t) in row.iter().enumerate() {
                let wall = words[x / 64] >> (x % 64) & 1 == 1;
                assert_eq!(
                    *t,
                    if wall { Tile::Stone } else { Tile::Air },
                    "width {width} x {x}"
                );
            }
        }
    }
}
