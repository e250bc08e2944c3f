//! The world as GPU textures, in square chunks of [`CHUNK`]x[`CHUNK`] texels, at two levels
//! of detail: level 0 has one texel per tile; the overview has one texel per
//! [`OVERVIEW_SCALE`]² tiles (their mean colour, sampled) and is drawn at far zoom, so a whole Large
//! world is 27 textures instead of 330 and never shimmers.
//!
//! This file is the pure part (chunk geometry, texel painting); the GPU side is
//! [`super::textures::ChunkTextures`].

use crate::world::depth::Layers;
use crate::world::{CAVE_BACKDROP, STONE_BACKDROP, Tile, UNDERWORLD_BACKDROP, Wall, World};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Chunk side in texels.
pub const CHUNK: usize = 256;
/// Tiles per overview texel, along each axis.
pub const OVERVIEW_SCALE: usize = 4;

/// How a world is cut into chunks (row-major chunk indices) at one level of detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// World size in tiles.
    pub width: usize,
    pub height: usize,
    /// Tiles per texel along each axis.
    pub scale: usize,
    pub cols: usize,
    pub rows: usize,
}

/// A chunk's tiles: `x0..x0 + w`, `y0..y0 + h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkRect {
    pub x0: usize,
    pub y0: usize,
    pub w: usize,
    pub h: usize,
}

impl Grid {
    /// One texel per tile.
    pub fn new(width: usize, height: usize) -> Grid {
        Grid::scaled(width, height, 1)
    }

    pub fn scaled(width: usize, height: usize, scale: usize) -> Grid {
        let side = CHUNK * scale;
        Grid {
            width,
            height,
            scale,
            cols: width.div_ceil(side),
            rows: height.div_ceil(side),
        }
    }

    pub fn len(&self) -> usize {
        self.cols * self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tiles per chunk side.
    pub fn side(&self) -> usize {
        CHUNK * self.scale
    }

    /// The tiles chunk `i` covers.
    pub fn rect(&self, i: usize) -> ChunkRect {
        let (cx, cy) = (i % self.cols, i / self.cols);
        let (x0, y0) = (cx * self.side(), cy * self.side());
        ChunkRect {
            x0,
            y0,
            w: self.side().min(self.width - x0),
            h: self.side().min(self.height - y0),
        }
    }

    /// Texture size of chunk `i` in texels.
    pub fn texels(&self, i: usize) -> (usize, usize) {
        let r = self.rect(i);
        (r.w.div_ceil(self.scale), r.h.div_ceil(self.scale))
    }

    /// The chunk holding tile `(x, y)`.
    pub fn index_of(&self, x: usize, y: usize) -> usize {
        (y / self.side()) * self.cols + x / self.side()
    }

    /// Chunks overlapping the half-open tile range, row by row.
    pub fn overlapping(
        &self,
        x0: usize,
        y0: usize,
        x1: usize,
        y1: usize,
    ) -> impl Iterator<Item = usize> + '_ {
        let s = self.side();
        let (cx0, cy0) = (x0 / s, y0 / s);
        let (cx1, cy1) = if x1 <= x0 || y1 <= y0 {
            (cx0, cy0) // an empty range overlaps nothing
        } else {
            (x1.div_ceil(s).min(self.cols), y1.div_ceil(s).min(self.rows))
        };
        (cy0..cy1).flat_map(move |cy| (cx0..cx1).map(move |cx| cy * self.cols + cx))
    }
}

/// The open sky's texel: transparent, so the sky drawn behind the world
/// ([`crate::game::draw::sky`]) shows through.
pub const OPEN_SKY: [u8; 4] = [0; 4];

/// The chunks' palette: [`Tile::color`], except that air is [`OPEN_SKY`] (underground air
/// is its layer's backdrop, chosen by the painter).
pub fn palette() -> [[u8; 4]; Tile::COUNT] {
    Tile::ALL.map(|t| if t == Tile::Air { OPEN_SKY } else { t.color() })
}

/// The texel of tile `(x, y)` at a texel per tile: [`crate::store::export::pixel`]'s colour, but
/// air in front of a wall is the wall's texel and the open sky (air above its column's
/// surface) is [`OPEN_SKY`].
pub fn texel(world: &World, layers: &Layers, x: usize, y: usize) -> [u8; 4] {
    let (t, top) = (world.tile(x, y), world.surface[x]);
    let wall = world.wall(x, y);
    if t == Tile::Air && wall.is_some() {
        wall.texel(x, y)
    } else if t == Tile::Air && (y as u32) < top {
        OPEN_SKY
    } else if t == Tile::Air {
        layers.backdrop(y as u32, top)
    } else {
        t.color()
    }
}

/// Writes chunk `i`'s RGBA texels into `out`. At scale 1 a texel is [`texel`]: the tile's
/// colour in the palette of [`crate::store::export::pixel`] (air in front of a wall is the wall's texel, other
/// underground air the cave backdrop), the open sky transparent; at larger scales it is the mean colour of a sample
/// of the tiles it covers, its alpha the share of them that is not open sky. Works a row
/// slice at a time: this runs over all 20 M tiles of a Large world on every generation.
pub fn build_pixels(world: &World, grid: &Grid, i: usize, out: &mut Vec<u8>) {
    let palette = palette();
    let r = grid.rect(i);
    let (tw, th) = grid.texels(i);
    out.clear();
    out.resize(tw * th * 4, 255);
    let surface = &world.surface[r.x0..r.x0 + r.w];
    let layers = Layers::of_world(world);
    let color = |t: Tile, y: u32, top: u32, x: usize, wall: Wall| {
        if t == Tile::Air && wall.is_some() {
            wall.texel(x, y as usize)
        } else if t == Tile::Air && y >= top {
            layers.backdrop(y, top)
        } else {
            palette[t as usize]
        }
    };
    if grid.scale == 1 {
        for (row, line) in out.chunks_exact_mut(tw * 4).enumerate() {
            let y = (r.y0 + row) as u32;
            let tiles = &world.row(y as usize)[r.x0..r.x0 + r.w];
            let walls = &world.wall_row(y as usize)[r.x0..r.x0 + r.w];
            let cells = tiles.iter().zip(surface).zip(walls).enumerate();
            for (px, (i, ((&t, &top), &wall))) in line.chunks_exact_mut(4).zip(cells) {
                px.copy_from_slice(&color(t, y, top, r.x0 + i, wall));
            }
        }
        return;
    }
    // Overview: the mean of every other tile on every other row of each texel's block
    // (offsets 1, 3, .. or 0 where a block at the world's edge is one tile wide): a
    // quarter of the reads of a full mean, with the same look at two pixels a texel.
    // Colours are summed as three 16-bit lanes of one u64 (a sum of at most 64 samples of
    // 255 fits), one table read and one add a sample; the fourth lane counts the samples
    // that are not open sky (whose colour lanes are 0).
    let s = grid.scale;
    let picks = |len: usize| (if len > 1 { 1 } else { 0 }..len).step_by(2);
    let pack = |c: [u8; 4]| {
        c[0] as u64 | (c[1] as u64) << 16 | (c[2] as u64) << 32 | ((c[3] > 0) as u64) << 48
    };
    let mut lut = [0u64; Tile::COUNT + 3 + Wall::COUNT];
    for (l, c) in lut.iter_mut().zip(palette) {
        *l = pack(c);
    }
    // Underground air: the dirt, stone and underworld backdrops.
    const BACKDROP: usize = Tile::COUNT;
    lut[BACKDROP] = pack(CAVE_BACKDROP);
    lut[BACKDROP + 1] = pack(STONE_BACKDROP);
    lut[BACKDROP + 2] = pack(UNDERWORLD_BACKDROP);
    // Air in front of a wall: the wall's colour.
    const WALLS: usize = BACKDROP + 3;
    for w in Wall::ALL {
        lut[WALLS + w as usize] = pack(w.color());
    }
    let class = |t: Tile, y: u32, top: u32, wall: Wall| {
        if t == Tile::Air && wall.is_some() {
            WALLS + wall as usize
        } else if t == Tile::Air && y >= top {
            BACKDROP
                + (y as usize >= layers.cavern) as usize
                + (y as usize >= layers.underworld) as usize
        } else {
            t as usize
        }
    };
    let mut sums = vec![0u64; tw];
    for (trow, line) in out.chunks_exact_mut(tw * 4).enumerate() {
        sums.fill(0);
        let (y0, y1) = (r.y0 + trow * s, (r.y0 + trow * s + s).min(r.y0 + r.h));
        let rows = picks(y1 - y0).len();
        for y in picks(y1 - y0).map(|dy| y0 + dy) {
            let tiles = &world.row(y)[r.x0..r.x0 + r.w];
            let walls = &world.wall_row(y)[r.x0..r.x0 + r.w];
            let yy = y as u32;
            let blocks = tiles.chunks(s).zip(surface.chunks(s)).zip(walls.chunks(s));
            for (acc, ((block, tops), ws)) in sums.iter_mut().zip(blocks) {
                if block.len() == 4 {
                    // The usual full block: tiles 1 and 3.
                    *acc += lut[class(block[1], yy, tops[1], ws[1])]
                        + lut[class(block[3], yy, tops[3], ws[3])];
                } else {
                    for i in picks(block.len()) {
                        *acc += lut[class(block[i], yy, tops[i], ws[i])];
                    }
                }
            }
        }
        for (x, (px, &acc)) in line.chunks_exact_mut(4).zip(&sums).enumerate() {
            let n = (rows * picks((r.w - x * s).min(s)).len()).max(1) as u64;
            let solid = acc >> 48;
            let lane = |k: u32| ((acc >> (16 * k) & 0xffff) / solid.max(1)) as u8;
            let alpha = (solid * 255 / n) as u8;
            px.copy_from_slice(&[lane(0), lane(1), lane(2), alpha]);
        }
    }
}

/// Every chunk's texels at one level, in parallel; `None` once `cancel` is set.
pub fn build_all(world: &World, grid: &Grid, cancel: &AtomicBool) -> Option<Vec<Vec<u8>>> {
    let chunks: Vec<Option<Vec<u8>>> = (0..grid.len())
        .into_par_iter()
        .map(|i| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let mut buf = Vec::new();
            build_pixels(world, grid, i, &mut buf);
            Some(buf)
        })
        .collect();
    chunks.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::export;

    #[test]
    fn grid_covers_the_world_with_edge_chunks() {
        let g = Grid::new(600, 300);
        assert_eq!((g.cols, g.rows, g.len()), (3, 2, 6));
        assert_eq!(
            g.rect(2),
            ChunkRect {
                x0: 512,
                y0: 0,
                w: 88,
                h: 256
            }
        );
        assert_eq!(
            g.rect(5),
            ChunkRect {
                x0: 512,
                y0: 256,
                w: 88,
                h: 44
            }
        );
        let area: usize = (0..g.len()).map(|i| g.rect(i).w * g.rect(i).h).sum();
        assert_eq!(area, 600 * 300);
        assert_eq!(g.index_of(599, 299), 5);
        assert_eq!(g.index_of(255, 256), 3);
        let o = Grid::scaled(8400, 2400, OVERVIEW_SCALE);
        assert_eq!((o.cols, o.rows), (9, 3));
        assert_eq!(o.texels(8), (52, 256)); // 8400 - 8 * 1024 = 208 tiles = 52 texels
    }

    #[test]
    fn overlapping_chunks_of_a_range() {
        let g = Grid::new(8400, 2400);
        assert_eq!(g.overlapping(0, 0, 8400, 2400).count(), g.len());
        assert_eq!(
            g.overlapping(250, 250, 260, 260).collect::<Vec<_>>(),
            vec![0, 1, g.cols, g.cols + 1]
        );
        assert_eq!(
            g.overlapping(300, 300, 301, 301).collect::<Vec<_>>(),
            vec![g.cols + 1]
        );
        assert_eq!(g.overlapping(10, 10, 10, 20).count(), 0);
    }

    #[test]
    fn level_zero_matches_the_export_palette() {
        let mut w = World::from_ascii(&["  w ", ".#  ", ".###"]).unwrap();
        // A wall behind air shows; one behind a tile is hidden by it.
        w.set_wall(3, 1, Wall::StoneBrick);
        w.set_wall(1, 1, Wall::Dirt);
        let g = Grid::new(w.width(), w.height());
        let all = build_all(&w, &g, &AtomicBool::new(false)).unwrap();
        assert_eq!(all.len(), 1);
        let px = |x: usize, y: usize| &all[0][(y * 4 + x) * 4..(y * 4 + x) * 4 + 4];
        let layers = Layers::of_world(&w);
        for y in 0..3 {
            for x in 0..4 {
                assert_eq!(px(x, y), texel(&w, &layers, x, y), "{x},{y}");
                // The export's palette, but the open sky is left for the sky behind.
                let sky = w.tile(x, y) == Tile::Air
                    && (y as u32) < w.surface[x]
                    && !w.wall(x, y).is_some();
                let want = if sky {
                    OPEN_SKY
                } else {
                    export::pixel(&w, x, y)
                };
                assert_eq!(px(x, y), want, "{x},{y}");
            }
        }
        assert_eq!(px(0, 0), OPEN_SKY, "the sky above the columns' surface");
        assert_eq!(px(2, 0)[3], 255, "grass, the top of its column");
        // Row 1 of a 3-row world lies in its cavern layer (45% of the height down).
        assert_eq!(px(2, 1), STONE_BACKDROP);
        assert_eq!(px(3, 1), Wall::StoneBrick.texel(3, 1));
        assert_eq!(px(1, 1), Tile::Stone.color());
        assert!(build_all(&w, &g, &AtomicBool::new(true)).is_none());
    }

    #[test]
    fn overview_texels_are_mean_colours_of_a_sample() {
        // 6x3 tiles at scale 4, one texel row: rows sampled at offset 1 (3 is outside);
        // texel 0 samples columns 1 and 3, texel 1 (two tiles wide) column 5.
        let w = World::from_ascii(&["######", "#..#.#", "######"]).unwrap();
        let g = Grid::scaled(6, 3, 4);
        let mut out = Vec::new();
        build_pixels(&w, &g, 0, &mut out);
        assert_eq!(out.len(), 2 * 4);
        let (s, d) = (Tile::Stone.color(), Tile::Dirt.color());
        let mean: Vec<u8> = (0..3)
            .map(|c| ((s[c] as u32 + d[c] as u32) / 2) as u8)
            .collect();
        assert_eq!(&out[..3], &mean[..]);
        assert_eq!(&out[4..8], &s[..]);
        // The overview (and the minimap drawn from it) shows a wall behind air.
        let mut w = World::from_ascii(&["######", "#..#. ", "######"]).unwrap();
        w.set_wall(5, 1, Wall::Wood);
        build_pixels(&w, &g, 0, &mut out);
        assert_eq!(&out[4..7], &Wall::Wood.color()[..3]);
    }

    #[test]
    fn overview_alpha_is_the_share_of_ground_and_its_colour_the_grounds_mean() {
        // 8x2 tiles at scale 4: row 1 is sampled; texel 0 sees sky at columns 1 and 3,
        // texel 1 sees sky at 5 and stone at 7.
        let w = World::from_ascii(&["      ##", "      ##"]).unwrap();
        let g = Grid::scaled(8, 2, 4);
        let mut out = Vec::new();
        build_pixels(&w, &g, 0, &mut out);
        assert_eq!(out[3], 0, "all sky: transparent");
        let s = Tile::Stone.color();
        assert_eq!(
            &out[4..7],
            &s[..3],
            "the ground's own colour, not greyed by the sky"
        );
        assert_eq!(out[7], 127, "half of the samples are ground");
    }
}

#[cfg(test)]
mod bench {
    use super::*;

    /// `cargo test --release time_chunk_painting -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn time_chunk_painting_on_large() {
        let p = crate::content::preset::Preset {
            width: 8400,
            height: 2400,
            ..Default::default()
        };
        let (w, _) = crate::worldgen::generate(&p, 1);
        let no = AtomicBool::new(false);
        let overview = Grid::scaled(8400, 2400, OVERVIEW_SCALE);
        for _ in 0..3 {
            let t = std::time::Instant::now();
            let v = build_all(&w, &overview, &no).unwrap();
            eprintln!("overview: {:?} ({} chunks)", t.elapsed(), v.len());
        }
        let g = Grid::new(8400, 2400);
        let mut buf = Vec::new();
        let t = std::time::Instant::now();
        (0..g.len()).for_each(|i| build_pixels(&w, &g, i, &mut buf));
        eprintln!(
            "level 0, one chunk at a time: {:?} per chunk",
            t.elapsed() / g.len() as u32
        );
    }
}
