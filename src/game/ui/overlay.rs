//! The F3 overlay's text, built from plain values so it is unit-tested without a window.

use crate::analysis::CaveReport;
use crate::content::preset::Biome;
use crate::world::depth::{Layer, Layers};
use crate::world::{Tile, World};
use crate::worldgen::PassTiming;
use crate::worldgen::biomes::BiomeMap;

/// What the mouse is over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hover {
    pub x: usize,
    pub y: usize,
    pub tile: Tile,
    /// Tiles below the column's surface (negative: above it).
    pub depth: i64,
    /// Cave id, area and whether it opens to the sky, for ground air.
    pub cave: Option<(u32, u64, bool)>,
    pub biome: Biome,
    /// The depth layer.
    pub layer: Layer,
}

impl Hover {
    pub fn at(world: &World, report: &CaveReport, x: usize, y: usize) -> Hover {
        let cave = report
            .component_at(x, y)
            .and_then(|id| report.component(id).map(|c| (id, c.area, c.open)));
        Hover {
            x,
            y,
            tile: world.tile(x, y),
            depth: y as i64 - world.surface[x] as i64,
            cave,
            biome: BiomeMap::new(&world.preset, world.seed).of_tile(world, x, y),
            layer: Layers::of_world(world).at(y, world.surface[x]),
        }
    }
}

/// Frame timing shown in the overlay.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// CPU time to build a frame, mean and worst over the last second.
    pub cpu_ms: f64,
    pub cpu_max_ms: f64,
    /// Wall time between frames.
    pub frame_ms: f64,
}

/// Largest cave's share of all cave air, in percent (0 without caves).
pub fn largest_share(report: &CaveReport) -> f64 {
    if report.cave_air == 0 {
        0.0
    } else {
        100.0 * report.largest_cave_area() as f64 / report.cave_air as f64
    }
}

/// A number with thin grouping: 20160000 → "20 160 000".
pub fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The overlay's lines.
#[allow(clippy::too_many_arguments)]
pub fn lines(
    world: &World,
    preset: &str,
    timings: &[PassTiming],
    report: &CaveReport,
    frame: FrameStats,
    regen_ms: Option<f64>,
    hover: Option<Hover>,
) -> Vec<String> {
    let mut out = vec![
        format!("Seed {}", world.seed),
        format!("Preset {preset}"),
        format!(
            "World {} x {} ({} tiles)",
            world.width(),
            world.height(),
            grouped((world.width() * world.height()) as u64)
        ),
        format!(
            "Frame {:.2} ms CPU (max {:.2}), {:.1} ms between frames",
            frame.cpu_ms, frame.cpu_max_ms, frame.frame_ms
        ),
    ];
    let total: f64 = timings.iter().map(|t| t.ms).sum();
    let passes: Vec<String> = timings
        .iter()
        .map(|t| format!("{} {:.0}", t.name, t.ms))
        .collect();
    out.push(format!("Build {:.0} ms: {}", total, passes.join(", ")));
    if let Some(ms) = regen_ms {
        out.push(format!(
            "Last new world on screen {ms:.0} ms after the request"
        ));
    }
    out.push(format!(
        "Caves {} ({} open, {} mouths), largest {} tiles ({:.1}% of cave air {}), sky air {}",
        report.cave_count,
        report.open_caves,
        report.mouths.len(),
        grouped(report.largest_cave_area()),
        largest_share(report),
        grouped(report.cave_air),
        grouped(report.sky_air)
    ));
    if let Some(line) = landmarks_line(world) {
        out.push(line);
    }
    if let Some(h) = hover {
        let depth = if h.depth >= 0 {
            format!("depth {}", h.depth)
        } else {
            format!("{} above the surface", -h.depth)
        };
        let mut line = format!("Tile {},{} {} {}", h.x, h.y, h.tile.name(), depth);
        match h.cave {
            Some((id, area, open)) => line.push_str(&format!(
                ", cave #{id} ({} tiles{})",
                grouped(area),
                if open { ", open to the sky" } else { "" }
            )),
            None if h.tile.is_open() && h.depth < 0 => line.push_str(", sky"),
            None => {}
        }
        line.push_str(&format!(", {}, {}", h.layer.name(), h.biome.label()));
        if let Some(s) = world.structures.iter().find(|s| s.contains(h.x, h.y)) {
            line.push_str(&format!(", in a {}", s.kind.label()));
        }
        out.push(line);
    }
    out
}

/// The landmarks generation built, counted by kind ("Landmarks 9: 1 dungeon, 2
/// corruption, ..."); `None` for a world without any.
pub fn landmarks_line(world: &World) -> Option<String> {
    use crate::world::structure::StructureKind;
    if world.structures.is_empty() {
        return None;
    }
    let parts: Vec<String> = StructureKind::ALL
        .iter()
        .map(|&k| (k, world.structures.iter().filter(|s| s.kind == k).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{n} {}", k.label()))
        .collect();
    Some(format!(
        "Landmarks {} (outlined): {}",
        world.structures.len(),
        parts.join(", ")
    ))
}

/// Splits `text` into lines of at most `max` characters, at spaces where it can.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let max = max.max(8);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word = word.to_string();
        while word.chars().count() > max {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            let cut: String = word.chars().take(max).collect();
            word = word.chars().skip(max).collect();
            lines.push(cut);
        }
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The progress bar's text: "Carving caves… 42%".
pub fn progress_text(label: &str, fraction: f32) -> String {
    format!("{label}... {:.0}%", (fraction * 100.0).clamp(0.0, 100.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse;

    fn world() -> World {
        // One sky component, two caves (4 tiles and 1 tile).
        let mut w =
            World::from_ascii(&["      ", "######", "#   ##", "### ##", "# ####", "######"])
                .unwrap();
        w.seed = 99;
        w
    }

    #[test]
    fn overlay_names_everything_the_issue_asks_for() {
        let w = world();
        let r = analyse(&w);
        let t = [
            PassTiming {
                name: "surface",
                ms: 1.4,
            },
            PassTiming {
                name: "caves",
                ms: 10.0,
            },
        ];
        let f = FrameStats {
            cpu_ms: 1.234,
            cpu_max_ms: 2.5,
            frame_ms: 16.7,
        };
        let hover = Hover::at(&w, &r, 2, 2);
        let text = lines(&w, "Classic", &t, &r, f, Some(180.0), Some(hover)).join("\n");
        for want in [
            "Seed 99",
            "Preset Classic",
            "World 6 x 6 (36 tiles)",
            "1.23 ms CPU",
            "surface 1, caves 10",
            "Caves 2 (0 open, 0 mouths), largest 4 tiles (80.0% of cave air 5), sky air 6",
            "180 ms",
            "Tile 2,2 air depth 1, cave #",
        ] {
            assert!(text.contains(want), "missing {want:?} in\n{text}");
        }
        assert!(text.ends_with(hover.biome.label()), "{text}");
        // Row 2 of a 6-row world lies in its cavern layer (45% of the height down).
        assert_eq!(hover.layer, Layer::Cavern);
        assert!(
            text.contains(", cavern layer, "),
            "the layer is named: {text}"
        );
        let sky = Hover::at(&w, &r, 0, 0);
        assert_eq!(sky.depth, -1);
        assert!(
            lines(&w, "C", &t, &r, f, None, Some(sky))
                .last()
                .unwrap()
                .contains("1 above the surface, sky, ")
        );
    }

    #[test]
    fn wrapping_keeps_words_and_splits_long_ones() {
        assert_eq!(
            wrap("a.ron:6:10: unknown field `bogus`", 16),
            vec!["a.ron:6:10:", "unknown field", "`bogus`"]
        );
        assert_eq!(wrap("short", 40), vec!["short"]);
        assert_eq!(
            wrap("/very/long/path/name.ron", 10),
            vec!["/very/long", "/path/name", ".ron"]
        );
        assert_eq!(wrap("", 10), vec![""]);
    }

    #[test]
    fn helpers() {
        assert_eq!(grouped(20_160_000), "20 160 000");
        assert_eq!(grouped(999), "999");
        assert_eq!(
            progress_text("Carving caves", 0.421),
            "Carving caves... 42%"
        );
    }
}
