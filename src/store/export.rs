//! Writing worlds out: ASCII art, one-pixel-per-tile PNG, and the stats JSON; and reading
//! the ASCII art back ([`read_ascii`], for `--from-ascii`).

pub mod read_ascii;

use crate::analysis::CaveReport;
use crate::world::depth::Layers;
use crate::world::{Tile, World};
use crate::worldgen::PassTiming;
use std::io::{self, Write};

/// The world as text, one line per row, top row first, using [`Tile::ascii`].
pub fn write_ascii(world: &World, out: &mut dyn Write) -> io::Result<()> {
    let mut line = String::with_capacity(world.width() + 1);
    for y in 0..world.height() {
        line.clear();
        line.extend(world.row(y).iter().map(|t| t.ascii()));
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Writes each column's surface row (`world.surface`, 0 = the top row), one number a line,
/// left to right: the world's relief, for checks from outside.
pub fn write_surface(world: &World, out: &mut dyn Write) -> io::Result<()> {
    let mut text = String::with_capacity(world.width() * 5);
    for s in &world.surface {
        text.push_str(&s.to_string());
        text.push('\n');
    }
    out.write_all(text.as_bytes())
}

/// RGBA pixel of a tile in the game's palette: air in front of a wall is the wall's colour
/// (darker than the tiles), other underground air its depth layer's backdrop
/// ([`Layers::backdrop`]: dirt, stone, the underworld's glow).
#[inline]
pub fn pixel(world: &World, x: usize, y: usize) -> [u8; 4] {
    layered_pixel(world, &Layers::of_world(world), x, y)
}

#[inline]
fn layered_pixel(world: &World, layers: &Layers, x: usize, y: usize) -> [u8; 4] {
    let t = world.tile(x, y);
    if t == Tile::Air && world.wall(x, y).is_some() {
        world.wall(x, y).texel(x, y)
    } else if t == Tile::Air && y as u32 >= world.surface[x] {
        layers.backdrop(y as u32, world.surface[x])
    } else {
        t.color()
    }
}

/// RGBA bytes of the whole world, one pixel per tile, row-major.
pub fn rgba(world: &World) -> Vec<u8> {
    let layers = Layers::of_world(world);
    let mut buf = Vec::with_capacity(world.width() * world.height() * 4);
    for y in 0..world.height() {
        for x in 0..world.width() {
            buf.extend_from_slice(&layered_pixel(world, &layers, x, y));
        }
    }
    buf
}

/// A PNG with one pixel per tile.
pub fn write_png(world: &World, out: &mut dyn Write) -> io::Result<()> {
    let mut enc = png::Encoder::new(out, world.width() as u32, world.height() as u32);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let mut w = enc.write_header().map_err(io::Error::other)?;
    w.write_image_data(&rgba(world)).map_err(io::Error::other)?;
    w.finish().map_err(io::Error::other)
}

/// What the stats say of a world's tiles: how many of each kind, and the world's hash.
pub struct Tally {
    pub counts: [u64; Tile::COUNT],
    pub hash: u64,
}

impl Tally {
    /// What one band of whole rows adds: its counts and its rows' hashes.
    pub fn band(rows: &[Tile], width: usize) -> TallyBand {
        (
            crate::world::count_of(rows),
            crate::world::row_hashes(rows, width),
        )
    }

    /// The tally from every band of a world, top to bottom.
    pub fn from_bands(world: &World, bands: Vec<TallyBand>) -> Tally {
        let mut counts = [0u64; Tile::COUNT];
        let mut rows = Vec::with_capacity(world.height());
        for (c, r) in bands {
            counts = crate::world::add_counts(counts, c);
            rows.extend(r);
        }
        Tally {
            counts,
            hash: world.hash_of_rows(rows),
        }
    }
}

/// One band's part of a [`Tally`]: tile counts and row hashes.
pub type TallyBand = ([u64; Tile::COUNT], Vec<u64>);

/// The stats object printed by `strata gen --stats`, on one line. Tools read it by field
/// name; the fields keep this order.
pub fn stats_json(
    world: &World,
    timings: &[PassTiming],
    report: &CaveReport,
    analysis_ms: f64,
    tally: &Tally,
) -> String {
    let counts = &tally.counts;
    let mut ms: Vec<(&str, f64)> = timings.iter().map(|t| (t.name, millis(t.ms))).collect();
    ms.push(("connectivity", millis(analysis_ms)));
    let stats = Stats {
        seed: world.seed,
        preset: &world.preset.name,
        width: world.width(),
        height: world.height(),
        ms: Ordered(ms),
        tiles: Ordered(
            Tile::ALL
                .iter()
                .map(|t| (t.name(), counts[*t as usize]))
                .collect(),
        ),
        connectivity: Connectivity {
            cave_count: report.cave_count,
            largest_cave_area: report.largest_cave_area(),
            largest_cave_bbox: report
                .largest_cave
                .and_then(|id| report.component(id))
                .map(|c| Bbox {
                    x0: c.bbox.x0,
                    y0: c.bbox.y0,
                    x1: c.bbox.x1,
                    y1: c.bbox.y1,
                }),
            cave_air: report.cave_air,
            sky_air: report.sky_air,
            open_caves: report.open_caves,
            mouths: report.mouths.len(),
        },
        hash: format!("{:016x}", tally.hash),
        wall_hash: format!("{:016x}", world.wall_hash()),
        structures: &world.structures,
    };
    // Serialising plain numbers and strings into a String cannot fail.
    serde_json::to_string(&stats).unwrap_or_default()
}

/// Milliseconds to the microsecond, as the stats print them.
fn millis(ms: f64) -> f64 {
    (ms * 1e3).round() / 1e3
}

#[derive(serde::Serialize)]
struct Stats<'a> {
    seed: u64,
    preset: &'a str,
    width: usize,
    height: usize,
    ms: Ordered<'a, f64>,
    tiles: Ordered<'a, u64>,
    connectivity: Connectivity,
    hash: String,
    /// [`World::wall_hash`]: the walls have their own, so `hash` stays the tiles'.
    wall_hash: String,
    /// The landmarks generation laid, each `{kind, x, y, w, h}`.
    structures: &'a [crate::world::structures::Structure],
}

#[derive(serde::Serialize)]
struct Connectivity {
    cave_count: usize,
    largest_cave_area: u64,
    largest_cave_bbox: Option<Bbox>,
    cave_air: u64,
    sky_air: u64,
    open_caves: usize,
    mouths: usize,
}

#[derive(serde::Serialize)]
struct Bbox {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

/// Names and values written as one JSON object, in this order.
struct Ordered<'a, T>(Vec<(&'a str, T)>);

impl<T: serde::Serialize> serde::Serialize for Ordered<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_round_trips() {
        let art = ["  w  ", "..#iD", "##g##"];
        let w = World::from_ascii(&art).unwrap();
        let mut out = Vec::new();
        write_ascii(&w, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), art.join("\n") + "\n");
    }

    #[test]
    fn png_has_one_pixel_per_tile_and_cave_backdrop() {
        let w = World::from_ascii(&["   ", ".#.", ". .", "..."]).unwrap();
        let mut out = Vec::new();
        write_png(&w, &mut out).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(out));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (3, 4));
        let px = |x: usize, y: usize| buf[(y * 3 + x) * 4..(y * 3 + x) * 4 + 4].to_vec();
        assert_eq!(px(0, 0), Tile::Air.color());
        assert_eq!(px(1, 2), Layers::of_world(&w).backdrop(2, w.surface[1]));
        assert_eq!(px(1, 1), Tile::Stone.color());
    }

    #[test]
    fn png_draws_walls_behind_air_only() {
        let mut w = World::from_ascii(&["   ", ".#.", ". .", "..."]).unwrap();
        w.set_wall(1, 2, crate::world::Wall::Stone);
        w.set_wall(0, 3, crate::world::Wall::Dirt);
        assert_eq!(pixel(&w, 1, 2), crate::world::Wall::Stone.texel(1, 2));
        assert_eq!(pixel(&w, 0, 3), Tile::Dirt.color(), "a tile hides its wall");
        let empty = Layers::of_world(&w).backdrop(2, w.surface[1]);
        assert_ne!(pixel(&w, 1, 2), empty);
    }

    #[test]
    fn underground_air_shows_its_layers_backdrop() {
        // A 100-row shaft: dirt backdrop to row 44, stone from the cavern layer (row 45),
        // the underworld's glow from row 92.
        let rows: Vec<String> = (0..100)
            .map(|y| if y < 5 { "   " } else { "# #" }.to_string())
            .collect();
        let refs: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
        let mut w = World::from_ascii(&refs).unwrap();
        w.surface = vec![5; 3];
        assert_eq!(pixel(&w, 1, 2), crate::world::SKY);
        assert_eq!(pixel(&w, 1, 44), crate::world::CAVE_BACKDROP);
        assert_eq!(pixel(&w, 1, 45), crate::world::STONE_BACKDROP);
        assert_eq!(pixel(&w, 1, 92), crate::world::UNDERWORLD_BACKDROP);
        assert_eq!(pixel(&w, 0, 92), Tile::Stone.color());
    }

    #[test]
    fn stats_keep_their_fields_in_order_and_escape_names() {
        let mut w = World::from_ascii(&["     ", "  ~  ", "# . #", "#####"]).unwrap();
        w.preset.name = "A \"quoted\"\nname".into();
        w.seed = 7;
        let report = crate::analysis::analyse(&w);
        let timings = [PassTiming {
            name: "surface",
            ms: 1.23456,
        }];
        // Counted band by band in the air grid's sweep: the world's own counts and hash.
        let (_, bands) =
            crate::analysis::AirGrid::of_with(&w, |_, rows| Tally::band(rows, w.width()));
        let tally = Tally::from_bands(&w, bands);
        assert_eq!((tally.counts, tally.hash), (w.counts(), w.tile_hash()));
        let text = stats_json(&w, &timings, &report, 0.5, &tally);
        assert!(!text.contains('\n'), "one line: {text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["preset"], "A \"quoted\"\nname");
        assert_eq!(
            (v["seed"].as_u64(), v["width"].as_u64()),
            (Some(7), Some(5))
        );
        assert_eq!(v["ms"]["surface"].as_f64(), Some(1.235));
        assert_eq!(v["ms"]["connectivity"].as_f64(), Some(0.5));
        assert_eq!(v["tiles"]["stone"].as_u64(), Some(7));
        assert_eq!(v["hash"], format!("{:016x}", w.tile_hash()));
        // Fields in the order tools have read them since the first --stats.
        let at = |key: &str| text.find(&format!("\"{key}\":")).unwrap();
        // ("connectivity" comes first as a timing in "ms".)
        let last = |key: &str| text.rfind(&format!("\"{key}\":")).unwrap();
        let order = [
            "seed",
            "preset",
            "width",
            "height",
            "ms",
            "tiles",
            "connectivity",
            "hash",
            "wall_hash",
        ];
        assert!(order.windows(2).all(|p| last(p[0]) < last(p[1])), "{text}");
        let inner = [
            "cave_count",
            "largest_cave_area",
            "largest_cave_bbox",
            "cave_air",
            "sky_air",
            "open_caves",
            "mouths",
        ];
        assert!(inner.windows(2).all(|p| at(p[0]) < at(p[1])), "{text}");
        // Pass timings in pass order, then connectivity; tiles in Tile::ALL order.
        assert!(at("surface") < at("connectivity") && at("connectivity") < at("tiles"));
        let names: Vec<&str> = Tile::ALL.iter().map(|t| t.name()).collect();
        assert!(names.windows(2).all(|p| at(p[0]) < at(p[1])), "{text}");
    }
}
