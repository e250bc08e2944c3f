//! Pass **grass**: dirt with air directly above becomes grass, jungle mud jungle grass.
//!
//! Expects: the finished ground. Leaves: grass on top of dirt (jungle grass on mud), per
//! the preset's mode:
//! `Exposed` grows it on any dirt under air (cave floors too), `SkyLit` only on the first
//! solid tile of a column when that is dirt under open sky.

use crate::base::rng::PassRng;
use crate::content::preset::{GrassMode, Preset};
use crate::world::{Tile, World};
use rayon::prelude::*;

pub fn apply(world: &mut World, preset: &Preset, _rng: &mut PassRng) {
    match preset.grass.mode {
        GrassMode::Exposed => exposed(world),
        GrassMode::SkyLit => sky_lit(world),
    }
}

fn exposed(world: &mut World) {
    let (width, height) = (world.width(), world.height());
    // Growing grass never changes which tiles are open, so a row may read the row above
    // while other rows change. Bands of rows run in parallel; each band first copies the
    // row just above it (owned by the previous band).
    let band_rows = height.div_ceil(rayon::current_num_threads() * 4).max(1);
    let above_band: Vec<Vec<Tile>> = (band_rows..height)
        .step_by(band_rows)
        .map(|y| world.row(y - 1).to_vec())
        .collect();
    world
        .tiles_mut()
        .par_chunks_mut(band_rows * width)
        .enumerate()
        .for_each(|(b, band)| {
            if b > 0 {
                grow_under(&mut band[..width], &above_band[b - 1]);
            }
            for r in 1..band.len() / width {
                let (upper, lower) = band.split_at_mut(r * width);
                grow_under(&mut lower[..width], &upper[(r - 1) * width..]);
            }
        });
}

/// What grows on `tile`: grass on dirt, jungle grass on mud, nothing on anything else.
#[inline(always)]
fn grown(tile: Tile) -> Tile {
    match tile {
        Tile::Dirt => Tile::Grass,
        Tile::Mud => Tile::JungleGrass,
        t => t,
    }
}

/// Dirt (mud) in `row` with air directly above (in `above`) grows grass (jungle grass).
/// 32 tiles at a time, each written only if one of them grows: most of a world grows
/// nothing, and the sky rows (never written since the surface pass) keep their pages
/// unmapped, where a write of the air they hold would make the kernel clear them.
#[inline]
fn grow_under(row: &mut [Tile], above: &[Tile]) {
    const LANES: usize = 32;
    let grows = |t: &Tile, a: &Tile| (*a == Tile::Air) & (grown(*t) != *t);
    for (tiles, above) in row.chunks_mut(LANES).zip(above.chunks(LANES)) {
        if tiles
            .iter()
            .zip(above)
            .fold(false, |any, (t, a)| any | grows(t, a))
        {
            for (t, &a) in tiles.iter_mut().zip(above) {
                *t = if a == Tile::Air { grown(*t) } else { *t };
            }
        }
    }
}

/// Grass on the first solid tile of each column from the top, if it is dirt (mud) under
/// open sky. Rows go top down, 64 columns a word: `open` has bit `x % 64` of word `x / 64`
/// set while column `x` has been open sky down to the current row. A word whose columns
/// have all closed is skipped, and tiles are only written where grass grows, so the sky
/// rows above the ground (20% of a Large world, never written since the surface pass) keep
/// their pages unmapped: a write over them, even of the air they hold, would make the
/// kernel clear megabytes of fresh memory.
fn sky_lit(world: &mut World) {
    let (width, height) = (world.width(), world.height());
    let mut open: Vec<u64> = (0..width.div_ceil(64))
        .map(|w| !0u64 >> (64 - (width - w * 64).min(64)))
        .collect();
    for y in 0..height {
        let row = &mut world.tiles_mut()[y * width..(y + 1) * width];
        let mut any = 0;
        for (tiles, open) in row.chunks_mut(64).zip(open.iter_mut()) {
            if *open == 0 {
                continue;
            }
            let air = crate::world::tile_bits(tiles, Tile::Air);
            // The first non-air tile of a still-open column grows grass if it is dirt or
            // mud (not in the top row: grass needs sky above it).
            let mut meets = if y > 0 { *open & !air } else { 0 };
            while meets != 0 {
                let t = &mut tiles[meets.trailing_zeros() as usize];
                *t = grown(*t);
                meets &= meets - 1;
            }
            *open &= air;
            any |= *open;
        }
        if any == 0 {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grown_art(mode: GrassMode, art: &[&str]) -> Vec<String> {
        let mut w = World::from_ascii(art).unwrap();
        let mut preset = Preset::default();
        preset.grass.mode = mode;
        apply(&mut w, &preset, &mut crate::base::rng::pass_rng(0, "grass"));
        (0..w.height())
            .map(|y| w.row(y).iter().map(|t| t.ascii()).collect())
            .collect()
    }

    #[test]
    fn exposed_grows_the_same_across_groups_of_tiles() {
        // Rows wider than a group of 32, with groups that grow nothing, one tile, or many.
        let glyphs = [' ', '.', 'm', '#', '~'];
        let art: Vec<String> = (0..12u64)
            .map(|y| {
                (0..101u64)
                    .map(|x| {
                        let h = crate::base::rng::mix64(y * 1000 + x);
                        if x / 32 == 1 && y % 2 == 1 {
                            '#'
                        } else {
                            glyphs[(h % 5) as usize]
                        }
                    })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = art.iter().map(String::as_str).collect();
        let got = grown_art(GrassMode::Exposed, &rows);
        let before = World::from_ascii(&rows).unwrap();
        for (y, got) in got.iter().enumerate() {
            let want: String = (0..before.width())
                .map(|x| {
                    let t = before.tile(x, y);
                    let open = y > 0 && before.tile(x, y - 1) == Tile::Air;
                    if open { grown(t) } else { t }.ascii()
                })
                .collect();
            assert_eq!(*got, want, "row {y}");
        }
        assert_eq!(got.len(), before.height());
        assert!(got.concat().contains('w') && got.concat().contains('j'));
    }

    #[test]
    fn exposed_grows_on_any_dirt_under_air() {
        let got = grown_art(GrassMode::Exposed, &["  #  ", "....#", ". . .", "....."]);
        assert_eq!(got, vec!["  #  ", "ww.w#", ". . .", ".w.w."]);
        let got = grown_art(GrassMode::Exposed, &["  ~ ", "m.mm", "ss  ", "mmmm"]);
        assert_eq!(got, vec!["  ~ ", "jwmj", "ss  ", "mmjj"]);
    }

    #[test]
    fn sky_lit_matches_a_row_by_row_scan_from_the_sky() {
        let kinds = [
            Tile::Air,
            Tile::Air,
            Tile::Air,
            Tile::Dirt,
            Tile::Mud,
            Tile::Stone,
        ];
        for seed in 0..20u64 {
            let (w, h) = (37, 23);
            let mut world = World::new(w, h, 0, Preset::default());
            for y in 0..h {
                for x in 0..w {
                    let k = crate::base::rng::mix64(seed << 20 | (y * w + x) as u64) % 6;
                    // Denser ground lower down.
                    let k = if y > h / 2 { k.max(3) } else { k };
                    world.set(x, y, kinds[k as usize]);
                }
            }
            let mut want = world.clone();
            let mut open = vec![true; w];
            for y in 0..h {
                for (x, open) in open.iter_mut().enumerate() {
                    let t = want.tile(x, y);
                    if *open && y > 0 {
                        want.set(x, y, grown(t));
                    }
                    *open &= t == Tile::Air;
                }
            }
            sky_lit(&mut world);
            assert_eq!(world.tiles(), want.tiles(), "seed {seed}");
        }
    }

    #[test]
    fn sky_lit_grows_only_under_open_sky() {
        let got = grown_art(GrassMode::SkyLit, &["  #  ", "....#", ". . .", "....."]);
        assert_eq!(got, vec!["  #  ", "ww.w#", ". . .", "....."]);
        // Stone on top: no grass below it; dirt in the top row has no air above.
        let got = grown_art(GrassMode::SkyLit, &[". # ", "  . ", "....", "...."]);
        assert_eq!(got, vec![". # ", "  . ", ".w.w", "...."]);
    }
}
