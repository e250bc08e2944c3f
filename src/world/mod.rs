//! The world model: one byte per tile in row-major order, the surface height of every
//! column, and where the world came from (seed and preset).
//!
//! Generation, analysis, export and the game all read the same `World`; the game is the
//! only place that mutates one after generation, through [`World::set`]. Beside the tiles
//! a world carries its chests' contents ([`Chests`]) and what the player has seen of it
//! ([`Explored`]), and behind them a grid of background walls, one byte per tile
//! ([`Wall`], [`World::wall`]).

pub mod chest;
pub mod depth;
pub mod dropped;
pub mod explored;
pub mod inventory;
pub mod progress;
pub mod structure;

use crate::content::preset::Preset;
use crate::world::chest::Chests;
use crate::world::explored::Explored;

pub use crate::base::tile::{
    CAVE_BACKDROP, Matter, SKY, STONE_BACKDROP, TILES, Tile, TileInfo, UNDERWORLD_BACKDROP,
};
pub use crate::base::wall::Wall;

/// Is `v` a coordinate inside a world side of `max` tiles: finite, `0..=max`
/// ([`World::holds`] for a point).
pub fn inside(v: f32, max: usize) -> bool {
    v.is_finite() && (0.0..=max as f32).contains(&v)
}

/// A generated world.
#[derive(Clone, Debug)]
pub struct World {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    /// The wall behind each tile, row-major like `tiles`.
    walls: Vec<Wall>,
    /// Row of the topmost generated ground tile of each column (0 is the top row).
    pub surface: Vec<u32>,
    /// The seed the world was generated from.
    pub seed: u64,
    /// The preset the world was generated from.
    pub preset: Preset,
    /// What the chest tiles hold (see [`Chests`]: every entry stands on a chest tile, a
    /// chest tile without one is empty). The dig and place rules keep it in step.
    pub chests: Chests,
    /// What the player has seen of it (the explored map the minimap and map view show).
    pub explored: Explored,
    /// The world's identity, made with it ([`fresh_id`]): its save is named by it
    /// ([`crate::store::save::file_name`]), so two worlds of one seed never share a file. A world
    /// loaded from a save has the save's.
    pub id: u64,
    /// Bosses defeated and nights gone by.
    pub progress: progress::Progress,
    /// Items lying in the world, in the order they were dropped.
    pub dropped: Vec<dropped::Dropped>,
    /// The landmarks generation built, in the order their passes built them (not saved:
    /// see [`structure`]).
    pub structures: Vec<structure::Structure>,
}

/// A new world's identity: 64 random bits from the OS-seeded generator (never the seed's
/// own, which is the identity an old save without one is given, see [`crate::store::save`]).
pub fn fresh_id(seed: u64) -> u64 {
    use rand::Rng;
    let mut rng = rand::rng();
    loop {
        let id = rng.next_u64();
        if id != seed {
            return id;
        }
    }
}

impl World {
    /// An all-air world of the given size. Sizes are validated by the preset; this only
    /// requires them to be non-zero.
    pub fn new(width: usize, height: usize, seed: u64, preset: Preset) -> World {
        assert!(width > 0 && height > 0, "world size must be non-zero");
        World {
            width,
            height,
            tiles: air_tiles(width * height),
            walls: no_walls(width * height),
            surface: vec![0; width],
            seed,
            preset,
            chests: Chests::default(),
            dropped: Vec::new(),
            structures: Vec::new(),
            explored: Explored::new(width, height),
            id: fresh_id(seed),
            progress: progress::Progress::default(),
        }
    }

    /// Builds a world from rows of ASCII art using the `--ascii` legend (tests and tools).
    /// Returns `None` for ragged rows or unknown characters.
    pub fn from_ascii(rows: &[&str]) -> Option<World> {
        let height = rows.len();
        let width = rows.first()?.chars().count();
        let mut world = World::new(width.max(1), height.max(1), 0, Preset::default());
        for (y, row) in rows.iter().enumerate() {
            if row.chars().count() != width {
                return None;
            }
            for (x, c) in row.chars().enumerate() {
                let tile = Tile::ALL.into_iter().find(|t| t.ascii() == c)?;
                world.set(x, y, tile);
            }
        }
        world.recompute_surface();
        Some(world)
    }

    /// Is the point `(x, y)` (tiles; a player's feet, an item's centre, a town person's
    /// home) one this world may hold: finite and inside it, `0..=width` × `0..=height`?
    /// The one rule of positions that a save's loader checks ([`crate::store::save`])
    /// and that play keeps ([`World::keep_inside`]), so what loads and is played saves
    /// again as a save that loads.
    pub fn holds(&self, (x, y): (f32, f32)) -> bool {
        inside(x, self.width) && inside(y, self.height)
    }

    /// `p` moved into this world, `margin` tiles (at most half the smaller side) from
    /// its edges; a coordinate that is not finite goes to the edge nearest 0. What play
    /// does to anything that would leave the world ([`World::holds`]).
    pub fn keep_inside(&self, p: (f32, f32), margin: f32) -> (f32, f32) {
        let keep = |v: f32, max: usize| {
            let m = margin.clamp(0.0, max as f32 / 2.0);
            if v.is_finite() {
                v.clamp(m, max as f32 - m)
            } else {
                m
            }
        };
        (keep(p.0, self.width), keep(p.1, self.height))
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Tile at `(x, y)`; panics when out of bounds (use [`World::get`] for untrusted input).
    #[inline]
    pub fn tile(&self, x: usize, y: usize) -> Tile {
        self.tiles[y * self.width + x]
    }

    /// Tile at signed coordinates, `None` outside the world.
    #[inline]
    pub fn get(&self, x: i64, y: i64) -> Option<Tile> {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return None;
        }
        Some(self.tiles[y as usize * self.width + x as usize])
    }

    /// Sets one tile. The caller tells caches (textures, light, connectivity) what changed.
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, tile: Tile) {
        self.tiles[y * self.width + x] = tile;
    }

    /// One row of tiles, left to right.
    #[inline]
    pub fn row(&self, y: usize) -> &[Tile] {
        &self.tiles[y * self.width..(y + 1) * self.width]
    }

    /// All tiles, row-major, top row first.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// All tiles, mutable (generation passes work on rows of this).
    pub fn tiles_mut(&mut self) -> &mut [Tile] {
        &mut self.tiles
    }

    /// Rows as mutable slices, for passes that split the world into bands.
    pub fn rows_mut(&mut self) -> std::slice::ChunksExactMut<'_, Tile> {
        self.tiles.chunks_exact_mut(self.width)
    }

    /// Replaces every tile at once (save loading); `None` when the length is wrong.
    pub fn replace_tiles(&mut self, tiles: Vec<Tile>) -> Option<()> {
        if tiles.len() != self.width * self.height {
            return None;
        }
        self.tiles = tiles;
        Some(())
    }

    /// Wall at `(x, y)`; panics when out of bounds (use [`World::get_wall`] for untrusted
    /// input).
    #[inline]
    pub fn wall(&self, x: usize, y: usize) -> Wall {
        self.walls[y * self.width + x]
    }

    /// Wall at signed coordinates, `None` outside the world.
    #[inline]
    pub fn get_wall(&self, x: i64, y: i64) -> Option<Wall> {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return None;
        }
        Some(self.walls[y as usize * self.width + x as usize])
    }

    /// Sets one wall. The caller tells caches (textures, light) what changed.
    #[inline]
    pub fn set_wall(&mut self, x: usize, y: usize, wall: Wall) {
        self.walls[y * self.width + x] = wall;
    }

    /// The walls, giving the world up.
    pub fn into_walls(self) -> Vec<Wall> {
        self.walls
    }

    /// The tiles to read and the walls to write at once (the walls pass reads air).
    pub fn tiles_and_walls_mut(&mut self) -> (&[Tile], &mut [Wall]) {
        (&self.tiles, &mut self.walls)
    }

    /// One row of walls, left to right.
    #[inline]
    pub fn wall_row(&self, y: usize) -> &[Wall] {
        &self.walls[y * self.width..(y + 1) * self.width]
    }

    /// All walls, row-major, top row first.
    pub fn walls(&self) -> &[Wall] {
        &self.walls
    }

    /// All walls, mutable (the walls pass works on rows of this).
    pub fn walls_mut(&mut self) -> &mut [Wall] {
        &mut self.walls
    }

    /// Replaces every wall at once (save loading); `None` when the length is wrong.
    pub fn replace_walls(&mut self, walls: Vec<Wall>) -> Option<()> {
        if walls.len() != self.width * self.height {
            return None;
        }
        self.walls = walls;
        Some(())
    }

    /// A 64-bit hash of the size and walls, stable across runs, thread counts and
    /// machines, folded as [`World::tile_hash`] folds tiles (but from its own start, so
    /// a grid of walls and the same bytes of tiles never hash alike). The tile hash does
    /// not see the walls: worlds' golden tile hashes stay what they were before walls.
    pub fn wall_hash(&self) -> u64 {
        use rayon::prelude::*;
        // SAFETY: `Wall` is `repr(u8)`: a slice of walls is a slice of as many bytes.
        let bytes: &[u8] =
            unsafe { std::slice::from_raw_parts(self.walls.as_ptr().cast(), self.walls.len()) };
        let row_hashes: Vec<u64> = bytes
            .par_chunks(4 * self.width)
            .flat_map_iter(|rows| {
                rows.chunks(self.width)
                    .map(|r| crate::base::rng::mix64(hash_bytes(r) ^ 0x5741_4C4C))
                    .collect::<Vec<_>>()
            })
            .collect();
        self.hash_of_rows(row_hashes)
    }

    /// Recomputes `surface` as the first solid tile of each column (height if none).
    pub fn recompute_surface(&mut self) {
        for x in 0..self.width {
            self.surface[x] = (0..self.height)
                .find(|&y| self.tile(x, y).is_solid())
                .unwrap_or(self.height) as u32;
        }
    }

    /// How many tiles of each kind, indexed by `Tile as usize`.
    pub fn counts(&self) -> [u64; Tile::COUNT] {
        use rayon::prelude::*;
        self.tiles
            .par_chunks(1 << 16)
            .map(count_of)
            .reduce(|| [0u64; Tile::COUNT], add_counts)
    }

    /// Every tile of `kind` as `(x, y)`, in row-major order: rows in parallel, 64 tiles at
    /// a time.
    pub fn find(&self, kind: Tile) -> Vec<(usize, usize)> {
        use rayon::prelude::*;
        self.tiles
            .par_chunks(self.width)
            .enumerate()
            .flat_map_iter(|(y, row)| {
                let mut found = Vec::new();
                for (w, tiles) in row.chunks(64).enumerate() {
                    let mut m = tile_bits(tiles, kind);
                    while m != 0 {
                        found.push((w * 64 + m.trailing_zeros() as usize, y));
                        m &= m - 1;
                    }
                }
                found
            })
            .collect()
    }

    /// A 64-bit hash of the size and tiles, stable across runs, thread counts and
    /// machines: each row is hashed on its own (8 tiles per step, little-endian), then
    /// the row hashes are folded in order.
    pub fn tile_hash(&self) -> u64 {
        use rayon::prelude::*;
        let row_hashes: Vec<u64> = self
            .tiles
            .par_chunks(4 * self.width)
            .flat_map_iter(|rows| row_hashes(rows, self.width))
            .collect();
        self.hash_of_rows(row_hashes)
    }

    /// The world's hash from the hashes of its rows, top to bottom ([`row_hashes`]).
    pub fn hash_of_rows(&self, rows: impl IntoIterator<Item = u64>) -> u64 {
        let mut h = crate::base::rng::mix64(
            0x5354_5241_5441 ^ ((self.width as u64) << 32 | self.height as u64),
        );
        for r in rows {
            h = crate::base::rng::mix64(h ^ r).wrapping_add(0x9E37_79B9_7F4A_7C15);
        }
        h
    }
}

/// How many tiles of each kind `tiles` holds (AVX2 when the CPU has it).
pub fn count_of(tiles: &[Tile]) -> [u64; Tile::COUNT] {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has AVX2 and POPCNT (checked just above).
        return unsafe { count_tiles_avx2(tiles) };
    }
    count_tiles(tiles)
}

/// Adds two tile counts.
pub fn add_counts(mut a: [u64; Tile::COUNT], b: [u64; Tile::COUNT]) -> [u64; Tile::COUNT] {
    a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
    a
}

/// The hash of each row of `rows` (whole rows of `width` tiles), as [`World::tile_hash`]
/// folds them. Four rows at a time: each row's hash is a chain of multiplies, and four
/// chains side by side keep the multiplier busy where one would wait on it.
pub fn row_hashes(rows: &[Tile], width: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(rows.len() / width.max(1));
    let mut quads = rows.chunks_exact(4 * width);
    for q in &mut quads {
        let (a, rest) = q.split_at(width);
        let (b, rest) = rest.split_at(width);
        let (c, d) = rest.split_at(width);
        out.extend(hash_rows([a, b, c, d]));
    }
    out.extend(quads.remainder().chunks(width).map(hash_row));
    out
}

/// `n` air tiles. `vec![Tile::Air; n]` would write every byte; a zeroed allocation is
/// free to hand out fresh pages, which are zero already (a Large world is 20 MB).
fn air_tiles(n: usize) -> Vec<Tile> {
    const _: () = assert!(Tile::Air as u8 == 0);
    let mut bytes = std::mem::ManuallyDrop::new(vec![0u8; n]);
    // SAFETY: `Tile` is `repr(u8)` and 0 is `Tile::Air`, so every byte is a valid tile;
    // size and alignment are those of `u8`, so the allocation's layout is unchanged.
    unsafe {
        Vec::from_raw_parts(
            bytes.as_mut_ptr().cast::<Tile>(),
            bytes.len(),
            bytes.capacity(),
        )
    }
}

/// `n` walls of [`Wall::None`], from a zeroed allocation as [`air_tiles`].
fn no_walls(n: usize) -> Vec<Wall> {
    const _: () = assert!(Wall::None as u8 == 0);
    let mut bytes = std::mem::ManuallyDrop::new(vec![0u8; n]);
    // SAFETY: `Wall` is `repr(u8)` and 0 is `Wall::None`, so every byte is a valid wall;
    // size and alignment are those of `u8`, so the allocation's layout is unchanged.
    unsafe {
        Vec::from_raw_parts(
            bytes.as_mut_ptr().cast::<Wall>(),
            bytes.len(),
            bytes.capacity(),
        )
    }
}

/// A row's bytes hashed 8 at a time (little-endian), then the rest one by one.
fn hash_bytes(row: &[u8]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    let mut chunks = row.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().unwrap());
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
    for &b in chunks.remainder() {
        h = (h ^ b as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    h
}

/// Which of up to 64 tiles are `kind`, as bits (bit `i` = `tiles[i]`).
#[inline(always)]
pub fn tile_bits(tiles: &[Tile], kind: Tile) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if tiles.len() == 64 {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        // Compare 16 bytes at a time and move the byte masks into bits (SSE2, always
        // present on x86-64).
        // SAFETY: `Tile` is `repr(u8)`, so 64 tiles are 64 readable bytes; the loads are
        // unaligned loads inside the slice.
        unsafe {
            let p = tiles.as_ptr() as *const __m128i;
            let k = _mm_set1_epi8(kind as i8);
            let mask = |i: usize| {
                _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p.add(i)), k)) as u16 as u64
            };
            return mask(0) | mask(1) << 16 | mask(2) << 32 | mask(3) << 48;
        }
    }
    let mut m = 0u64;
    for (i, t) in tiles.iter().enumerate() {
        m |= ((*t == kind) as u64) << i;
    }
    m
}

/// Tiles of each kind in `tiles`, 32 at a time: the kind of the first lane not yet counted
/// is counted in every lane at once (a compare of the group, a mask, a popcount) until no
/// lane is left. A histogram (`counts[t] += 1`) would stall on long runs of one tile, each
/// increment waiting for the last.
#[inline(always)]
fn count_tiles(tiles: &[Tile]) -> [u64; Tile::COUNT] {
    const LANES: usize = 32;
    let mut total = [0u64; Tile::COUNT];
    let mut groups = tiles.chunks_exact(LANES);
    for g in &mut groups {
        // A group holds one to a few kinds (sky, rock and the odd ore or cave edge): take
        // the kind of the first lane not yet counted, count every lane of that kind at
        // once (a compare of the whole group, a mask, a popcount), until none is left.
        let mut rest = u32::MAX;
        while rest != 0 {
            let kind = g[rest.trailing_zeros() as usize] as u8;
            let same = g
                .iter()
                .enumerate()
                .fold(0u32, |m, (i, &t)| m | ((t as u8 == kind) as u32) << i);
            total[kind as usize] += (same & rest).count_ones() as u64;
            rest &= !same;
        }
    }
    for &t in groups.remainder() {
        total[t as usize] += 1;
    }
    total
}

/// [`count_tiles`] with AVX2 compares and masks: a group is one 32-byte register.
///
/// Each group counts the kind of its first lane not yet counted, then the next, a fixed
/// number of times without a branch (a compare, a mask and a popcount each; a kind past
/// the group's last counts nothing); only the groups with more kinds than that loop over
/// the rest. A loop for every group would mispredict its end on nearly every mixed group.
/// Most stretches of a world hold one or two kinds a group (sky, rock, a cave's edge), so
/// two branch-free kinds suit them; where ore lies thick (classic's rings of iron and
/// copper), half the groups hold three to five, so a run of 64 groups after one in which
/// at least a quarter held a third kind counts four without a branch. Groups take turns
/// among four tables, so runs of one kind do not wait on each other's adds to the same
/// counter.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn count_tiles_avx2(tiles: &[Tile]) -> [u64; Tile::COUNT] {
    const LANES: usize = 32;
    /// Groups a run: the kernel for the next run is chosen by this run's groups.
    const RUN_QUADS: usize = 16;
    let mut tables = [[0u64; Tile::COUNT]; 4];
    let mut quads = tiles.chunks_exact(4 * LANES);
    let (mut wide, mut thirds) = (false, 0u32);
    for (i, quad) in (&mut quads).enumerate() {
        if i % RUN_QUADS == 0 {
            // A quarter of the last run's 4 * RUN_QUADS groups held a third kind.
            wide = thirds as usize >= RUN_QUADS;
            thirds = 0;
        }
        for (g, total) in quad.chunks_exact(LANES).zip(&mut tables) {
            let g: &[Tile; LANES] = g.try_into().unwrap();
            let third = if wide {
                count_group_avx2::<4>(g, total)
            } else {
                count_group_avx2::<2>(g, total)
            };
            thirds += third as u32;
        }
    }
    let mut total = tables
        .iter()
        .fold([0u64; Tile::COUNT], |a, &t| add_counts(a, t));
    for &t in quads.remainder() {
        total[t as usize] += 1;
    }
    total
}

/// Adds group `g`'s tiles to `total`: its first `KINDS` kinds without a branch, any more
/// in a loop. Whether the group holds a third kind.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
#[inline]
fn count_group_avx2<const KINDS: usize>(g: &[Tile; 32], total: &mut [u64; Tile::COUNT]) -> bool {
    use std::arch::x86_64::*;
    // SAFETY: `g` is 32 readable bytes (an unaligned load); AVX2 is enabled here.
    let v = unsafe { _mm256_loadu_si256(g.as_ptr().cast()) };
    let mask = |kind: Tile| {
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(kind as u8 as i8))) as u32
    };
    let mut rest = u32::MAX;
    let mut third = false;
    for k in 0..KINDS {
        // The first lane not yet counted; lane 0 again (counting nothing more) if none.
        let kind = g[(rest.trailing_zeros() & 31) as usize];
        let same = mask(kind) & rest;
        total[kind as usize] += same.count_ones() as u64;
        rest &= !same;
        if k == 1 {
            third = rest != 0;
        }
    }
    while rest != 0 {
        let kind = g[rest.trailing_zeros() as usize];
        let more = mask(kind) & rest;
        total[kind as usize] += more.count_ones() as u64;
        rest &= !more;
    }
    third
}

/// [`hash_row`] of `N` rows of one length, in lockstep.
fn hash_rows<const N: usize>(rows: [&[Tile]; N]) -> [u64; N] {
    let mut h = [0x243F_6A88_85A3_08D3u64; N];
    let len = rows[0].len();
    debug_assert!(rows.iter().all(|r| r.len() == len));
    let words = len / 8;
    for i in 0..words {
        for (h, row) in h.iter_mut().zip(&rows) {
            let c = &row[i * 8..i * 8 + 8];
            let w = u64::from_le_bytes(std::array::from_fn(|b| c[b] as u8));
            *h = (*h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
    }
    for (h, row) in h.iter_mut().zip(&rows) {
        for &t in &row[words * 8..] {
            *h = (*h ^ t as u64)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(29);
        }
    }
    h.map(crate::base::rng::mix64)
}

fn hash_row(row: &[Tile]) -> u64 {
    // SAFETY: `Tile` is `repr(u8)`: a slice of tiles is a slice of as many bytes.
    let bytes: &[u8] = unsafe { std::slice::from_raw_parts(row.as_ptr().cast(), row.len()) };
    crate::base::rng::mix64(hash_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_lists_every_tile_of_a_kind_in_row_major_order() {
        let mut w = World::new(130, 5, 0, Preset::default());
        let spots = [(129, 0), (0, 1), (63, 1), (64, 1), (65, 3), (7, 4)];
        for &(x, y) in &spots {
            w.set(x, y, Tile::Torch);
        }
        w.set(5, 2, Tile::Water);
        assert_eq!(w.find(Tile::Torch), spots);
        assert_eq!(w.find(Tile::Water), [(5, 2)]);
        assert_eq!(w.find(Tile::Stone), []);
    }

    #[test]
    fn tile_bytes_round_trip_and_are_dense() {
        for (i, t) in Tile::ALL.into_iter().enumerate() {
            assert_eq!(t as usize, i);
            assert_eq!(Tile::from_u8(i as u8), Some(t));
        }
        assert_eq!(Tile::from_u8(Tile::COUNT as u8), None);
    }

    #[test]
    fn ascii_legend_is_unique_and_round_trips() {
        let w = World::from_ascii(&["  w ", ".#iD", "g~t#"]).expect("valid art");
        assert_eq!(w.tile(2, 0), Tile::Grass);
        assert_eq!(w.tile(3, 1), Tile::DiamondOre);
        assert_eq!(w.tile(1, 2), Tile::Water);
        let mut chars: Vec<char> = Tile::ALL.iter().map(|t| t.ascii()).collect();
        chars.dedup();
        chars.sort();
        chars.dedup();
        assert_eq!(chars.len(), Tile::COUNT);
        assert!(World::from_ascii(&["  ", "   "]).is_none());
        assert!(World::from_ascii(&["?"]).is_none());
    }

    #[test]
    fn solid_and_open_are_disjoint() {
        for t in Tile::ALL {
            assert!(!(t.is_solid() && t.is_open()), "{t:?}");
        }
        assert!(Tile::Air.is_open() && !Tile::Water.is_open() && !Tile::Torch.is_solid());
        assert!(Tile::Lava.is_liquid() && Tile::Obsidian.is_solid() && !Tile::Trunk.is_solid());
    }

    #[test]
    fn atlas_has_every_tile_with_its_palette_colour() {
        let decoder = png::Decoder::new(std::io::Cursor::new(
            &include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/tiles.png"))[..],
        ));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        // A row per tile, 141 pictures a row (47 frames: 16 neighbour masks and 31 with
        // inner corners, three variants each).
        assert_eq!(
            (info.width, info.height),
            (16 * 141, 16 * Tile::COUNT as u32)
        );
        assert_eq!(info.color_type, png::ColorType::Rgba);
        let w = info.width as usize;
        // The pixels of tile `t`'s frame in atlas column `col`.
        let frame = |t: Tile, col: usize| -> Vec<[u8; 4]> {
            (0..16)
                .flat_map(|y| (0..16).map(move |x| (y, x)))
                .map(|(y, x)| {
                    let i = ((t as usize * 16 + y) * w + col * 16 + x) * 4;
                    [buf[i], buf[i + 1], buf[i + 2], buf[i + 3]]
                })
                .collect()
        };
        // Ores are grey stone round nuggets of their colour, so a good share of their
        // pixels are near it; grass shows its turf on an exposed top (mask 14).
        let ores = [
            Tile::IronOre,
            Tile::GoldOre,
            Tile::DiamondOre,
            Tile::CopperOre,
            Tile::SilverOre,
            Tile::TinOre,
            Tile::LeadOre,
            Tile::TungstenOre,
            Tile::PlatinumOre,
            Tile::Amethyst,
            Tile::Topaz,
            Tile::Sapphire,
            Tile::Emerald,
            Tile::Ruby,
        ];
        for t in ores {
            let near = frame(t, 45)
                .iter()
                .filter(|p| (0..3).all(|c| (p[c] as i32 - t.color()[c] as i32).abs() < 40))
                .count();
            assert!(near >= 20, "{t:?}: {near} pixels of its colour");
        }
        for t in [Tile::Grass, Tile::JungleGrass] {
            let top = &frame(t, 14 * 3)[16 * 2..16 * 3];
            assert!(
                top.iter().all(|p| p[1] > p[0] && p[1] > p[2]),
                "{t:?}: {top:?}"
            );
        }
        // Everything else: the frame with all four neighbours joined (column 45, the
        // most common on screen) has the palette colour as its mean.
        for t in Tile::ALL.into_iter().filter(|&t| {
            ![
                Tile::Air,
                Tile::Torch,
                Tile::Grass,
                Tile::JungleGrass,
                Tile::CorruptGrass,
            ]
            .contains(&t)
                && !ores.contains(&t)
                && !t.is_reserved()
        }) {
            let (mut sum, mut n) = ([0f64; 3], 0f64);
            for p in frame(t, 45) {
                if p[3] > 0 {
                    (0..3).for_each(|c| sum[c] += p[c] as f64);
                    n += 1.0;
                }
            }
            for (c, total) in sum.iter().enumerate() {
                let mean = total / n;
                assert!(
                    (mean - t.color()[c] as f64).abs() < 2.0,
                    "{t:?} channel {c}: atlas mean {mean}, palette {}",
                    t.color()[c]
                );
            }
        }
    }

    #[test]
    fn tile_table_names_are_unique_and_labels_readable() {
        let mut names: Vec<&str> = Tile::ALL.iter().map(|t| t.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Tile::COUNT);
        for t in Tile::ALL {
            assert_eq!(
                t.label(),
                t.name().replace('_', " ").replace("trunk", "tree trunk")
            );
            assert_eq!(t.color()[3], 255, "{t:?} must be opaque in the palette");
            // A shadow orb is smashed with a hammer, never dug.
            assert_eq!(
                t.info().dig_time.is_some(),
                (t.is_solid() || t.info().matter == Matter::Decor) && t != Tile::ShadowOrb
            );
        }
    }

    #[test]
    fn hash_sees_every_tile_and_the_size() {
        let a = World::from_ascii(&["..........", "##########"]).unwrap();
        let base = a.tile_hash();
        for y in 0..2 {
            for x in 0..10 {
                let mut b = a.clone();
                b.set(x, y, Tile::Air);
                assert_ne!(b.tile_hash(), base, "change at {x},{y} not seen");
            }
        }
        let c = World::from_ascii(&[".....", "#####", ".....", "#####"]).unwrap();
        assert_ne!(c.tile_hash(), base);
    }

    #[test]
    fn tile_bits_match_per_tile_checks() {
        let tiles: Vec<Tile> = (0..64 * 3 + 17)
            .map(|i| Tile::ALL[(crate::base::rng::mix64(i) % 4) as usize])
            .collect();
        for kind in [Tile::Air, Tile::Stone, Tile::Torch] {
            for chunk in tiles.chunks(64) {
                let bits = tile_bits(chunk, kind);
                for (i, t) in chunk.iter().enumerate() {
                    assert_eq!(bits >> i & 1 == 1, *t == kind);
                }
                assert_eq!(bits >> chunk.len().min(63) >> 1, 0);
            }
        }
    }

    #[test]
    fn rows_hashed_in_lockstep_hash_as_one_by_one() {
        for width in [1, 7, 8, 9, 64, 131] {
            let rows: Vec<Vec<Tile>> = (0..4u64)
                .map(|r| {
                    (0..width as u64)
                        .map(|i| {
                            let k = crate::base::rng::mix64(r << 32 | i) % Tile::COUNT as u64;
                            Tile::ALL[k as usize]
                        })
                        .collect()
                })
                .collect();
            let got = hash_rows([&rows[0][..], &rows[1], &rows[2], &rows[3]]);
            let want: Vec<u64> = rows.iter().map(|r| hash_row(r)).collect();
            assert_eq!(got.to_vec(), want, "width {width}");
        }
    }

    #[test]
    fn counts_match_a_plain_histogram() {
        let tiles: Vec<Tile> = (0..200_003u64)
            .map(|i| Tile::ALL[(crate::base::rng::mix64(i / 7) % Tile::COUNT as u64) as usize])
            .collect();
        let mut w = World::new(200_003, 1, 0, Preset::default());
        w.replace_tiles(tiles.clone()).unwrap();
        let mut want = [0u64; Tile::COUNT];
        for t in &tiles {
            want[*t as usize] += 1;
        }
        assert_eq!(w.counts(), want);
        assert_eq!(count_tiles(&tiles[..1000]).iter().sum::<u64>(), 1000);
        // Long runs of one kind (whole groups counted at once) among mixed stretches,
        // with more mixed groups than a lane's counter holds between flushes.
        let runs: Vec<Tile> = (0..300_000u64)
            .map(|i| {
                let k = if (i / 4096) % 3 == 0 { i } else { i / 4096 };
                Tile::ALL[(crate::base::rng::mix64(k) % Tile::COUNT as u64) as usize]
            })
            .collect();
        let mut want = [0u64; Tile::COUNT];
        for t in &runs {
            want[*t as usize] += 1;
        }
        assert_eq!(count_tiles(&runs), want);
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has AVX2 and POPCNT (checked just above).
            assert_eq!(unsafe { count_tiles_avx2(&runs) }, want);
            assert_eq!(unsafe { count_tiles_avx2(&tiles) }, count_tiles(&tiles));
        }
    }

    #[test]
    fn counts_of_groups_with_a_few_kinds() {
        // Stretches of 2000 tiles whose groups hold one to six kinds (rock with rings of
        // ore), so that both kernels run and each takes over from the other mid-band.
        let tiles: Vec<Tile> = (0..400_001u64)
            .map(|i| {
                let kinds = 1 + (i / 2000) % 6;
                let pick = crate::base::rng::mix64(i) % 8;
                let k = if pick < kinds { pick } else { 0 };
                Tile::ALL[((k * 5 + i / 100_000) % Tile::COUNT as u64) as usize]
            })
            .collect();
        let mut want = [0u64; Tile::COUNT];
        for t in &tiles {
            want[*t as usize] += 1;
        }
        assert_eq!(count_tiles(&tiles), want);
        assert_eq!(count_of(&tiles), want);
        for start in [0, 1, 31, 4097] {
            let part = &tiles[start..];
            let mut want = [0u64; Tile::COUNT];
            for t in part {
                want[*t as usize] += 1;
            }
            assert_eq!(count_of(part), want, "from {start}");
        }
    }

    #[test]
    fn walls_sit_beside_the_tiles_and_hash_on_their_own() {
        let mut w = World::from_ascii(&["....", "####"]).unwrap();
        let (tiles, walls) = (w.tile_hash(), w.wall_hash());
        assert_eq!(w.wall(0, 0), Wall::None);
        w.set_wall(3, 1, Wall::Stone);
        assert_eq!(w.get_wall(3, 1), Some(Wall::Stone));
        assert_eq!(w.get_wall(4, 1), None);
        assert_eq!(w.get_wall(-1, 0), None);
        assert_eq!(w.tile(3, 1), Tile::Stone, "a wall leaves the tile alone");
        assert_eq!(w.tile_hash(), tiles, "the tile hash does not see walls");
        assert_ne!(w.wall_hash(), walls);
        assert_eq!(
            w.wall_row(1),
            [Wall::None, Wall::None, Wall::None, Wall::Stone]
        );
        assert!(w.replace_walls(vec![Wall::Dirt; 3]).is_none());
        w.replace_walls(vec![Wall::Dirt; 8]).unwrap();
        assert!(w.walls().iter().all(|&x| x == Wall::Dirt));
    }

    #[test]
    fn surface_is_first_solid_tile() {
        let w = World::from_ascii(&["   ", " . ", "..#"]).unwrap();
        assert_eq!(w.surface, vec![2, 1, 2]);
    }
}
