//! Pass 3, **caves**: random fill, then a Moore-neighbourhood cellular automaton.
//!
//! Expects: ground below `world.surface`. Leaves: air wherever the automaton ends open.
//!
//! Cells start as wall above `surface + margin` and as wall with probability `fill` below
//! it; then `iterations` synchronous steps apply "more than `wall_above` of the 8
//! neighbours are walls → wall, fewer than `open_below` → open, otherwise unchanged", with
//! cells outside the world counting as walls.
//!
//! With `scale` > 1 the fill and the steps run on cells of `scale` x `scale` tiles (a grid
//! `scale` times smaller each way, with the fill noise's frequency scaled to match); the
//! cells are then scaled up to tiles, the rows above `surface + margin` sealed again, and
//! `smoothing` more steps at tile scale round off the cells' corners. The automaton's
//! structures are a few cells across whatever the cell size, so this makes caves and
//! caverns `scale` times larger, and costs less, not more.
//!
//! The grid is one bit per cell (1 = wall) in `u64` words, so one word holds 64 cells and
//! a step counts all 64 neighbourhoods at once with bit-sliced adders. Out-of-world
//! neighbours are all-ones guard words. The random fill draws 16 random words per 64 cells
//! from a counter-based hash and compares them, bit-sliced, against `fill` as a 16-bit
//! fraction (so `fill` is used to 1/65536).

mod automaton;
mod fill;
mod prune;

pub use automaton::{run_automaton, step_row};
pub use fill::{
    Adjust, Depth, VARIATION_SALT, random_fill, random_fill_at, random_fill_styled, seal_above,
    variation_key,
};
pub use prune::prune;

use super::biomes::BiomeMap;
use crate::base::noise::{LatticeRow, RowPlan, hash32, perlin_2d_row_cached};
use crate::base::rng::PassRng;
use crate::content::preset::{Biome, CaveParams, Preset};
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

/// Sets bits `x0..x1` of a row of words (bit `x % 64` of word `x / 64`), a word at a time.
pub fn set_span(row: &mut [u64], x0: usize, x1: usize) {
    let mut x = x0;
    while x < x1 {
        let (w, b) = (x / 64, x % 64);
        let n = (x1 - x).min(64 - b);
        row[w] |= (u64::MAX >> (64 - n)) << b;
        x += n;
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

/// [`open_row`] in AVX2: a mixed word's 64 bits are spread to a byte mask 32 at a time
/// (broadcast, byte shuffle, bit test) that clears the open tiles (`Air` is 0).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn open_row_avx2(row: &mut [Tile], words: &[u64]) {
    use std::arch::x86_64::*;
    const _: () = assert!(Tile::Air as u8 == 0);
    // Byte i of a lane takes byte i / 8 of its 32-bit source (lane 1: bytes 2 and 3).
    let spread = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, //
        2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
    );
    let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    let whole = row.len() / 64;
    for (w, &word) in words[..whole].iter().enumerate() {
        let open = !word;
        if open == 0 {
            continue;
        }
        let tiles = row[w * 64..w * 64 + 64].as_mut_ptr().cast::<__m256i>();
        for half in 0..2 {
            let bits = _mm256_set1_epi32((open >> (32 * half)) as u32 as i32);
            let lanes = _mm256_and_si256(_mm256_shuffle_epi8(bits, spread), bit);
            let clear = _mm256_cmpeq_epi8(lanes, bit);
            // SAFETY: `tiles` points at 64 tiles of the row; 32 from `half * 32`.
            unsafe {
                let at = tiles.add(half);
                _mm256_storeu_si256(at, _mm256_andnot_si256(clear, _mm256_loadu_si256(at)));
            }
        }
    }
    open_row(&mut row[whole * 64..], &words[whole..]);
}

/// `b`'s bits each repeated `s` times: bit `i` becomes bits `i * s .. i * s + s`.
fn spread_byte(b: u8, s: usize) -> u32 {
    (0..8)
        .filter(|i| b >> i & 1 == 1)
        .map(|i| ((1u32 << s) - 1) << (i * s))
        .fold(0, |a, m| a | m)
}

/// `coarse` scaled up `scale` times (1..=4) to `width` x `height` tiles: tile `(x, y)`
/// takes cell `(x / scale, y / scale)`. Each coarse row is spread into one tile row a byte
/// at a time through a table, then copied to the other `scale - 1` rows.
pub fn scale_up(coarse: &BitGrid, scale: usize, width: usize, height: usize) -> BitGrid {
    assert!((1..=4).contains(&scale), "cave scale {scale} outside 1..=4");
    // Every word is written below, so the grid starts zeroed: fresh pages the kernel
    // clears as the bands first write them, in parallel, where a grid of walls would be
    // written twice, the first time on one thread.
    let words_per_row = width.div_ceil(64);
    let mut fine = BitGrid {
        width,
        height,
        words_per_row,
        bits: vec![0; words_per_row * height],
    };
    let (wpr, cwpr) = (fine.words_per_row, coarse.words_per_row);
    let pad = fine.padding_mask();
    let table: [u32; 256] = std::array::from_fn(|b| spread_byte(b as u8, scale));
    fine.bits
        .par_chunks_mut(wpr * scale)
        .enumerate()
        .for_each(|(cy, rows)| {
            let (first, rest) = rows.split_at_mut(wpr);
            let cells = &coarse.bits[cy * cwpr..(cy + 1) * cwpr];
            let (mut acc, mut bits, mut w) = (0u128, 0, 0);
            for byte in cells.iter().flat_map(|word| word.to_le_bytes()) {
                acc |= (table[byte as usize] as u128) << bits;
                bits += 8 * scale;
                if bits >= 64 {
                    if let Some(out) = first.get_mut(w) {
                        *out = acc as u64;
                    }
                    (acc, bits, w) = (acc >> 64, bits - 64, w + 1);
                }
            }
            if let Some(out) = first.get_mut(w) {
                *out = acc as u64 | !0 << bits;
            }
            first[wpr - 1] |= pad;
            for row in rest.chunks_mut(wpr) {
                row.copy_from_slice(first);
            }
        });
    fine
}

/// The regional fill noise's frequency per cell: the preset's per tile, times the cell
/// size (at most 1).
pub fn cell_frequency(params: &CaveParams) -> f64 {
    (params.fill_frequency * params.scale.max(1) as f64).min(1.0)
}

/// The caves' bit grid (1 = wall) and the first row that may hold open cells.
pub fn carve(
    width: usize,
    height: usize,
    surface: &[u32],
    params: &CaveParams,
    depth: Depth,
    key: u64,
    style: Option<&Style>,
) -> (BitGrid, usize) {
    let scale = params.scale.max(1) as usize;
    let adjust = style.map(|s| move |y: usize, out: &mut [f64]| s.adjust(y, out));
    let adjust = adjust.as_ref().map(|a| a as Adjust<'_>);
    if scale == 1 {
        let (mut grid, first_random) =
            random_fill_styled(width, height, surface, params, depth, key, adjust);
        let first_row = first_random.saturating_sub(params.iterations as usize);
        run_styled(&mut grid, params, first_row, style);
        prune(&mut grid, depth.cavern, params.min_cavern as u64);
        return smooth(grid, params, first_row);
    }
    // Cells: random from the first cell row that lies wholly below every one of its
    // columns' `surface + margin`.
    let start: Vec<usize> = surface
        .iter()
        .map(|&s| s as usize + params.margin as usize)
        .collect();
    let cell_start: Vec<u32> = start
        .chunks(scale)
        .map(|c| c.iter().max().map_or(0, |&m| m.div_ceil(scale)) as u32)
        .collect();
    let cells = CaveParams {
        margin: 0,
        fill_frequency: cell_frequency(params),
        ..params.clone()
    };
    let (cw, ch) = (width.div_ceil(scale), height.div_ceil(scale));
    let depth = Depth {
        row_scale: scale,
        ..depth
    };
    let (mut coarse, first_cell) =
        random_fill_styled(cw, ch, &cell_start, &cells, depth, key, adjust);
    run_styled(
        &mut coarse,
        &cells,
        first_cell.saturating_sub(params.iterations as usize),
        style,
    );
    let cell_area = (scale * scale) as u64;
    prune(
        &mut coarse,
        depth.cavern.div_ceil(scale),
        (params.min_cavern as u64).div_ceil(cell_area),
    );
    let mut grid = scale_up(&coarse, scale, width, height);
    seal_above(&mut grid, &start);
    let first_open = start.iter().copied().min().unwrap_or(height).min(height);
    smooth(grid, params, first_open)
}

/// The automaton's `iterations` steps; where the cave style says winding passages, the
/// cells keep what they were after its fewer `style_passages` steps.
fn run_styled(grid: &mut BitGrid, params: &CaveParams, first_row: usize, style: Option<&Style>) {
    let (Some(style), Some(k)) = (style, style.and_then(|s| s.passages)) else {
        run_automaton(grid, params, first_row);
        return;
    };
    let steps = |n: u32| CaveParams {
        iterations: n,
        ..params.clone()
    };
    run_automaton(grid, &steps(k), first_row);
    let early = grid.bits.clone();
    run_automaton(grid, &steps(params.iterations - k), first_row);
    let wpr = grid.words_per_row;
    grid.bits[first_row * wpr..]
        .par_chunks_mut(wpr)
        .zip(early[first_row * wpr..].par_chunks(wpr))
        .enumerate()
        .for_each_init(
            || (Vec::new(), vec![0u64; wpr]),
            |(field, masks), (i, (row, was))| {
                style.passage_masks(first_row + i, field, masks);
                for ((word, &old), &m) in row.iter_mut().zip(was).zip(masks.iter()) {
                    *word = (old & m) | (*word & !m);
                }
            },
        );
}

/// Where the cave style field turns from winding passages to open caverns (above) or
/// dense pockets (below), and over how much of it the change is complete.
const STYLE_EDGE: f32 = 0.1;
const STYLE_RAMP: f32 = 0.12;
/// How much of `style_open` the passages' regions take off the fill: about even wall and
/// air, so the passages join into networks.
const PASSAGE_OPENING: f64 = 0.5;
/// Tiles inside a biome's edge over which its own caves come in.
const BIOME_CAVE_RAMP: f64 = 48.0;

/// The cave style: a slow noise field over the world that sorts the caves into regions,
/// large open caverns where it is high, dense pockets where it is low, narrow winding
/// passages (fewer automaton steps) between; and the biomes' own caves (the jungle's open
/// caverns, the snow's ice caves, the underground desert's wide cavern).
pub struct Style {
    key: u32,
    /// Cycles per grid cell.
    frequency: f32,
    /// Tiles per grid cell.
    scale: usize,
    open: f64,
    dense: f64,
    /// Automaton steps in the passages' regions, when fewer than `iterations`.
    passages: Option<u32>,
    biome: f64,
    map: BiomeMap,
    tops: Vec<u32>,
    /// The grid's word centres, where [`Style::adjust`] samples the field.
    centres: RowPlan,
    /// Eight columns a word (the middle of each eighth), where [`Style::passage_mask`]
    /// samples it.
    eighths: RowPlan,
}

impl Style {
    /// The style of the world made from `preset` and `seed` with these surface rows;
    /// `None` when the preset turns it all off (the caves are the automaton's alone).
    pub fn new(preset: &Preset, seed: u64, surface: &[u32], key: u64) -> Option<Style> {
        let p = &preset.caves;
        let passages = (p.style_passages < p.iterations).then_some(p.style_passages);
        if p.style_open == 0.0 && p.style_dense == 0.0 && passages.is_none() && p.biome_caves == 0.0
        {
            return None;
        }
        let scale = p.scale.max(1) as usize;
        let map = BiomeMap::new(preset, seed);
        let tops = map.tops(surface);
        let frequency = (p.style_frequency * scale as f64) as f32;
        let words = surface.len().div_ceil(scale).div_ceil(64);
        Some(Style {
            key: hash32((key >> 32) as u32 ^ 0x57_11E5),
            frequency,
            scale,
            open: p.style_open,
            dense: p.style_dense,
            passages,
            biome: p.biome_caves,
            map,
            tops,
            centres: RowPlan::at((0..words).map(|w| w * 64 + 32), frequency),
            eighths: RowPlan::at((0..words * 8).map(|g| g * 8 + 4), frequency),
        })
    }

    /// The style field (about -0.7..0.7) along grid row `cy` at the plan's columns, into
    /// `out` (the point noise's values, a row at a time).
    fn row(&self, plan: &RowPlan, cy: usize, out: &mut Vec<f32>) {
        out.resize(plan.len(), 0.0);
        let mut lattice = LatticeRow::default();
        perlin_2d_row_cached(self.key, plan, &mut lattice, cy, self.frequency, out);
    }

    /// The change of fill the style field `s` makes.
    fn delta(&self, s: f32) -> f64 {
        let ramp = |v: f32| ((v - STYLE_EDGE) / STYLE_RAMP).clamp(0.0, 1.0) as f64;
        let passage = if self.passages.is_some() && s.abs() < STYLE_EDGE {
            -self.open * PASSAGE_OPENING
        } else {
            0.0
        };
        passage - self.open * ramp(s) + self.dense * ramp(-s)
    }

    /// The biomes with caves of their own in tile row `y`: each one's edges there and
    /// its change of fill, in the spans' order.
    fn biome_rows(&self, y: usize) -> Vec<(f64, f64, f64)> {
        if self.biome == 0.0 {
            return Vec::new();
        }
        let spans = self.map.spans.iter().zip(&self.tops);
        spans
            .filter_map(|(span, &top)| {
                let k = match span.biome {
                    Biome::Jungle => 1.0,
                    Biome::Snow => 0.8,
                    Biome::Desert if self.map.under_desert(y, top) => 1.3,
                    _ => return None,
                };
                let (l, r) = self.map.edges(span, y, top)?;
                Some((l, r, -self.biome * k))
            })
            .collect()
    }

    /// Adds the change of fill of each word of grid row `cy` (at the word's centre): the
    /// style's, or where a biome has caves of its own the biome's, blended over
    /// [`BIOME_CAVE_RAMP`] tiles inside its edge.
    pub fn adjust(&self, cy: usize, out: &mut [f64]) {
        let y = cy * self.scale + self.scale / 2;
        let biomes = self.biome_rows(y);
        let mut field = Vec::new();
        self.row(&self.centres, cy, &mut field);
        for (w, (d, &s)) in out.iter_mut().zip(&field).enumerate() {
            let cx = w * 64 + 32;
            let x = (cx * self.scale) as f64;
            let (biome, inside) = biomes
                .iter()
                .map(|&(l, r, k)| (k, (x - l).min(r - x)))
                .find(|&(_, inside)| inside > 0.0)
                .map_or((0.0, 0.0), |(k, inside)| {
                    (k, (inside / BIOME_CAVE_RAMP).min(1.0))
                });
            *d += (1.0 - inside) * self.delta(s) + inside * biome;
        }
    }

    /// The cells of each word of grid row `cy` in a passages' region (eight at a time),
    /// into `masks`; `field` is scratch.
    fn passage_masks(&self, cy: usize, field: &mut Vec<f32>, masks: &mut [u64]) {
        self.row(&self.eighths, cy, field);
        for (m, eighths) in masks.iter_mut().zip(field.chunks_exact(8)) {
            *m = (0..8)
                .filter(|&g| eighths[g].abs() < STYLE_EDGE)
                .fold(0, |m, g| m | 0xFF << (g * 8));
        }
    }
}

/// `smoothing` more steps over a grid whose open cells start at `first_row`.
fn smooth(mut grid: BitGrid, params: &CaveParams, first_row: usize) -> (BitGrid, usize) {
    let steps = params.smoothing as usize;
    let first_row = first_row.saturating_sub(steps);
    if steps > 0 {
        let rule = CaveParams {
            iterations: params.smoothing,
            ..params.clone()
        };
        run_automaton(&mut grid, &rule, first_row);
    }
    (grid, first_row)
}

pub fn apply(world: &mut World, preset: &Preset, rng: &mut PassRng) {
    let params = &preset.caves;
    let (width, height) = (world.width(), world.height());
    let layers = crate::world::depth::Layers::of(preset);
    let depth = Depth {
        cavern: layers.cavern,
        underworld: layers.underworld.max(layers.cavern + 1),
        row_scale: 1,
    };
    let key = rng.next_u64();
    let style = Style::new(preset, world.seed, &world.surface, key);
    let (grid, first_row) = carve(
        width,
        height,
        &world.surface,
        params,
        depth,
        key,
        style.as_ref(),
    );
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
    use crate::base::rng::hash3;

    #[test]
    fn scale_up_gives_each_tile_its_cells_bit() {
        for scale in 1..=4usize {
            for (width, height) in [(1usize, 1usize), (63, 5), (64, 8), (130, 9), (257, 13)] {
                let (cw, ch) = (width.div_ceil(scale), height.div_ceil(scale));
                let mut coarse = BitGrid::walls(cw, ch);
                for y in 0..ch {
                    for x in 0..cw {
                        coarse.set(x, y, hash3(scale as u64, x as u64, y as u64) & 1 == 1);
                    }
                }
                let fine = scale_up(&coarse, scale, width, height);
                for y in 0..height {
                    for x in 0..width {
                        assert_eq!(
                            fine.get(x, y),
                            coarse.get(x / scale, y / scale),
                            "scale {scale} {width}x{height} at ({x}, {y})"
                        );
                    }
                }
                // Bits past the width stay walls.
                let pad = fine.padding_mask();
                assert!(
                    (0..height).all(|y| fine.bits[(y + 1) * fine.words_per_row - 1] & pad == pad)
                );
            }
        }
    }

    #[test]
    fn scaled_caves_keep_the_margin_and_grow_larger() {
        let preset = |scale| {
            Preset {
                width: 800,
                height: 400,
                caves: CaveParams {
                    scale,
                    shallow: 0.0,
                    deepening: 0.0,
                    min_cavern: 0,
                    ..CaveParams::default()
                },
                // Caves alone: no tunnels or mouths through the margin.
                tunnels: crate::content::preset::TunnelParams {
                    worms: 0.0,
                    mouths: 0.0,
                    ..Default::default()
                },
                ..Preset::default()
            }
            .without_landmarks()
        };
        let mean_cave = |scale| {
            let p = preset(scale);
            let (w, _) = crate::worldgen::generate(&p, 21);
            let solid_below = (p.caves.margin - p.caves.smoothing) as usize;
            for x in 0..w.width() {
                let s = w.surface[x] as usize;
                for y in s..(s + solid_below).min(w.height()) {
                    assert!(
                        w.tile(x, y).is_solid(),
                        "scale {scale}: air at ({x}, {y}) in the margin"
                    );
                }
            }
            let r = crate::analysis::analyse(&w);
            r.cave_air as f64 / r.cave_count.max(1) as f64
        };
        let (one, two) = (mean_cave(1), mean_cave(2));
        assert!(
            two > 2.5 * one,
            "mean cave {one:.1} tiles at scale 1, {two:.1} at scale 2"
        );
    }

    #[test]
    fn caves_are_small_near_the_surface_and_open_up_with_depth() {
        let p = Preset {
            width: 1200,
            height: 600,
            tunnels: crate::content::preset::TunnelParams {
                worms: 0.0,
                mouths: 0.0,
                ..Default::default()
            },
            ..Preset::default()
        }
        .without_landmarks();
        let l = crate::world::depth::Layers::of(&p);
        let w = crate::worldgen::generate(&p, 4).0;
        let air = |rows: std::ops::Range<usize>| {
            let n = rows.len() * w.width();
            let open: usize = rows
                .map(|y| w.row(y).iter().filter(|t| t.is_open()).count())
                .sum();
            open as f64 / n as f64
        };
        let mid = (l.cavern + l.underworld) / 2;
        let (shallow, upper, lower) = (
            air(l.underground..l.cavern),
            air(l.cavern..mid),
            air(mid..l.underworld),
        );
        assert!(
            shallow < 0.15 && shallow < upper && upper < lower,
            "air {shallow:.3} above the cavern layer, {upper:.3} {lower:.3} in its halves"
        );
        // The same preset with the same fill at every depth has no such gradient.
        let flat = Preset {
            caves: CaveParams {
                shallow: 0.0,
                deepening: 0.0,
                min_cavern: 0,
                ..p.caves.clone()
            },
            ..p.clone()
        };
        let f = crate::worldgen::generate(&flat, 4).0;
        let count = |w: &World, y0: usize, y1: usize| {
            (y0..y1)
                .map(|y| w.row(y).iter().filter(|t| t.is_open()).count())
                .sum::<usize>()
        };
        assert!(count(&f, l.underground, l.cavern) > 2 * count(&w, l.underground, l.cavern));
    }

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
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                let mut fast = vec![Tile::Stone; width];
                // SAFETY: the CPU has AVX2 (checked just above).
                unsafe { open_row_avx2(&mut fast, &words) };
                assert_eq!(fast, row, "width {width}");
            }
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
