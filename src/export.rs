//! Writing worlds out: ASCII art, one-pixel-per-tile PNG, and the stats JSON.

use crate::analysis::CaveReport;
use crate::world::{Tile, World};
use crate::worldgen::PassTiming;
use crate::worldgen::layers::Layers;
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

/// RGBA pixel of a tile in the game's palette: underground air is its depth layer's
/// backdrop ([`Layers::backdrop`]: dirt, stone, the underworld's glow).
#[inline]
pub fn pixel(world: &World, x: usize, y: usize) -> [u8; 4] {
    layered_pixel(world, &Layers::of_world(world), x, y)
}

#[inline]
fn layered_pixel(world: &World, layers: &Layers, x: usize, y: usize) -> [u8; 4] {
    let t = world.tile(x, y);
    if t == Tile::Air && y as u32 >= world.surface[x] {
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

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The stats object printed by `strata gen --stats`, on one line.
pub fn stats_json(
    world: &World,
    timings: &[PassTiming],
    report: &CaveReport,
    analysis_ms: f64,
) -> String {
    let counts = world.counts();
    let tiles: Vec<String> = Tile::ALL
        .iter()
        .map(|t| format!("{}:{}", json_string(t.name()), counts[*t as usize]))
        .collect();
    let mut ms: Vec<String> = timings
        .iter()
        .map(|t| format!("{}:{:.3}", json_string(t.name), t.ms))
        .collect();
    ms.push(format!("\"connectivity\":{analysis_ms:.3}"));
    let bbox = report
        .largest_cave
        .and_then(|id| report.component(id))
        .map_or("null".to_string(), |c| {
            format!(
                "{{\"x0\":{},\"y0\":{},\"x1\":{},\"y1\":{}}}",
                c.bbox.x0, c.bbox.y0, c.bbox.x1, c.bbox.y1
            )
        });
    format!(
        "{{\"seed\":{},\"preset\":{},\"width\":{},\"height\":{},\"ms\":{{{}}},\"tiles\":{{{}}},\"connectivity\":{{\"cave_count\":{},\"largest_cave_area\":{},\"largest_cave_bbox\":{},\"cave_air\":{},\"sky_air\":{},\"open_caves\":{},\"mouths\":{}}},\"hash\":\"{:016x}\"}}",
        world.seed,
        json_string(&world.preset.name),
        world.width(),
        world.height(),
        ms.join(","),
        tiles.join(","),
        report.cave_count,
        report.largest_cave_area(),
        bbox,
        report.cave_air,
        report.sky_air,
        report.open_caves,
        report.mouths.len(),
        world.tile_hash()
    )
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
    fn json_strings_escape() {
        assert_eq!(json_string("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"");
    }
}
