//! The world lab's views over the world: a noise field as a greyscale overlay, and Find
//! (a tile kind or a depth layer: every occurrence marked, its count and its share by
//! depth layer, the nearest one to jump to). Pure: pictures are RGBA bytes at a few tiles
//! a texel, built off the render thread by `lab_app`.

use crate::world::depth::{Layer, Layers};
use crate::world::structure::StructureKind;
use crate::world::{Tile, World};

/// Widest overlay picture, in texels (a texel covers `step` x `step` tiles).
pub const MAX_TEXELS: usize = 2048;

/// Tiles a texel for a world `width` tiles wide.
pub fn step_for(width: usize) -> usize {
    width.div_ceil(MAX_TEXELS).max(1)
}

/// A noise field over the world as an RGBA picture (`step` tiles a texel): grey, mostly
/// opaque, so the world's shapes still show through a little.
pub fn noise_picture(values: &[f32]) -> Vec<u8> {
    values
        .iter()
        .flat_map(|&v| {
            let g = crate::worldgen::noisemap::grey(v);
            [g, g, g, 215]
        })
        .collect()
}

/// Panels of `w` x `h` values each, laid side by side into one `panels.len() * w` wide
/// field (the lab draws each third in its own panel).
pub fn side_by_side(panels: &[Vec<f32>], w: usize, h: usize) -> Vec<f32> {
    let mut out = Vec::with_capacity(panels.len() * w * h);
    for y in 0..h {
        for p in panels {
            out.extend_from_slice(&p[y * w..(y + 1) * w]);
        }
    }
    out
}

/// What Find looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Tile(Tile),
    Layer(Layer),
    /// The landmarks of a kind: the tiles of their boxes.
    Structure(StructureKind),
}

impl Target {
    /// Every tile but air (and the numbers kept for tiles to come), then the depth
    /// layers, then the landmarks by kind.
    pub fn all() -> Vec<Target> {
        Tile::ALL
            .iter()
            .filter(|&&t| t != Tile::Air && !t.is_reserved())
            .map(|&t| Target::Tile(t))
            .chain(
                [
                    Layer::Surface,
                    Layer::Underground,
                    Layer::Cavern,
                    Layer::Underworld,
                ]
                .map(Target::Layer),
            )
            .chain(StructureKind::ALL.map(Target::Structure))
            .collect()
    }

    pub fn name(self) -> String {
        match self {
            Target::Tile(t) => t.label().to_string(),
            Target::Layer(l) => l.name().to_string(),
            Target::Structure(k) => format!("{} (landmark)", k.label()),
        }
    }
}

/// The depth layers Find reports shares by, in order.
pub const LAYERS: [Layer; 5] = [
    Layer::Sky,
    Layer::Surface,
    Layer::Underground,
    Layer::Cavern,
    Layer::Underworld,
];

/// What Find found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub target: Target,
    /// Occurrences (tiles).
    pub count: usize,
    /// Tiles in the world.
    pub total: usize,
    /// Occurrences in each of [`LAYERS`].
    pub by_layer: [usize; 5],
    /// Texels across and down, and tiles a texel.
    pub size: (usize, usize),
    pub step: usize,
    /// Whether each texel holds an occurrence, row by row.
    pub marked: Vec<bool>,
}

/// Finds `target` in `world`, marking texels of `step` x `step` tiles.
pub fn find(world: &World, target: Target, step: usize) -> Found {
    let (w, h) = (world.width(), world.height());
    let layers = Layers::of(&world.preset);
    let (bw, bh) = (w.div_ceil(step), h.div_ceil(step));
    let mut marked = vec![false; bw * bh];
    let mut by_layer = [0usize; 5];
    if let Target::Structure(kind) = target {
        // Only the landmarks' boxes: no sweep of the world.
        for st in world.structures.iter().filter(|s| s.kind == kind) {
            for y in st.y as usize..((st.y + st.h) as usize).min(h) {
                for x in st.x as usize..((st.x + st.w) as usize).min(w) {
                    let layer = layers.at(y, world.surface[x]);
                    by_layer[LAYERS.iter().position(|&l| l == layer).unwrap_or(0)] += 1;
                    marked[(y / step) * bw + x / step] = true;
                }
            }
        }
    } else {
        sweep(world, target, step, &mut by_layer, &mut marked);
    }
    Found {
        target,
        count: by_layer.iter().sum(),
        total: w * h,
        by_layer,
        size: (bw, bh),
        step,
        marked,
    }
}

/// Marks every tile of a tile or layer target: the whole world, row by row.
fn sweep(
    world: &World,
    target: Target,
    step: usize,
    by_layer: &mut [usize; 5],
    marked: &mut [bool],
) {
    let (w, h) = (world.width(), world.height());
    let layers = Layers::of(&world.preset);
    let bw = w.div_ceil(step);
    for y in 0..h {
        for x in 0..w {
            let layer = layers.at(y, world.surface[x]);
            let hit = match target {
                Target::Tile(t) => world.tile(x, y) == t,
                Target::Layer(l) => layer == l,
                Target::Structure(_) => false,
            };
            if hit {
                by_layer[LAYERS.iter().position(|&l| l == layer).unwrap_or(0)] += 1;
                marked[(y / step) * bw + x / step] = true;
            }
        }
    }
}

impl Found {
    /// One line: the count, its share of the world and its share in each layer it is in.
    pub fn summary(&self) -> String {
        let pct = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
        let mut s = format!(
            "{}: {} tiles ({:.2}% of the world)",
            self.target.name(),
            self.count,
            pct(self.count, self.total)
        );
        if self.count > 0 {
            let parts: Vec<String> = LAYERS
                .iter()
                .zip(self.by_layer)
                .filter(|(_, n)| *n > 0)
                .map(|(l, n)| format!("{} {:.0}%", l.name(), pct(n, self.count)))
                .collect();
            s.push_str(&format!(": {}", parts.join(", ")));
        }
        s
    }

    /// The marks as an RGBA picture: marked texels bright, the rest dimmed.
    pub fn picture(&self) -> Vec<u8> {
        self.marked
            .iter()
            .flat_map(|&m| {
                if m {
                    [255, 40, 220, 235]
                } else {
                    [0, 0, 0, 120]
                }
            })
            .collect()
    }

    /// The centre (in tiles) of the marked texel nearest to tile `(x, y)`.
    pub fn nearest(&self, (x, y): (f64, f64)) -> Option<(f64, f64)> {
        let s = self.step as f64;
        self.marked
            .iter()
            .enumerate()
            .filter(|(_, m)| **m)
            .map(|(i, _)| {
                let (bx, by) = ((i % self.size.0) as f64, (i / self.size.0) as f64);
                ((bx + 0.5) * s, (by + 0.5) * s)
            })
            .min_by(|a, b| {
                let d = |p: &(f64, f64)| (p.0 - x).powi(2) + (p.1 - y).powi(2);
                d(a).total_cmp(&d(b))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::preset::Preset;

    fn world() -> World {
        let p = Preset {
            width: 300,
            height: 160,
            ..Preset::default()
        };
        crate::worldgen::generate(&p, 12).0
    }

    #[test]
    fn find_counts_every_tile_of_a_kind_by_layer_and_marks_them() {
        let w = world();
        let counts = w.counts();
        for t in [Tile::Stone, Tile::IronOre, Tile::Water] {
            let f = find(&w, Target::Tile(t), 4);
            assert_eq!(f.count as u64, counts[t as usize], "{t:?}");
            assert_eq!(f.marked.len(), 75 * 40);
            let marked = f.marked.iter().filter(|m| **m).count();
            assert!(marked <= f.count && (f.count == 0) == (marked == 0));
        }
        let stone = find(&w, Target::Tile(Tile::Stone), 4);
        assert_eq!(stone.by_layer[0], 0, "no stone in the sky");
        assert!(
            stone.summary().starts_with("stone: "),
            "{}",
            stone.summary()
        );
        // The layers split the world between them.
        let all: usize = LAYERS[1..]
            .iter()
            .map(|&l| find(&w, Target::Layer(l), 8).count)
            .sum();
        let sky = w.surface.iter().map(|&s| s as usize).sum::<usize>();
        assert_eq!(all + sky, 300 * 160);
    }

    #[test]
    fn find_marks_a_landmarks_box_and_leads_to_it() {
        let mut w = world();
        w.structures
            .push(crate::world::structure::Structure::spanning(
                StructureKind::Cabin,
                (100, 90),
                (111, 96),
            ));
        let f = find(&w, Target::Structure(StructureKind::Cabin), 4);
        assert_eq!(f.count, 12 * 7);
        assert_eq!(f.target.name(), "cabin (landmark)");
        let (x, y) = f.nearest((0.0, 0.0)).unwrap();
        assert!(
            (98.0..=114.0).contains(&x) && (88.0..=98.0).contains(&y),
            "{x} {y}"
        );
        assert_eq!(
            find(&w, Target::Structure(StructureKind::Island), 4).count,
            0
        );
    }

    #[test]
    fn nearest_is_the_closest_marked_texel() {
        let f = Found {
            target: Target::Tile(Tile::GoldOre),
            count: 2,
            total: 100,
            by_layer: [0, 0, 0, 2, 0],
            size: (10, 10),
            step: 2,
            marked: (0..100).map(|i| i == 11 || i == 88).collect(),
        };
        assert_eq!(f.nearest((0.0, 0.0)), Some((3.0, 3.0)));
        assert_eq!(f.nearest((19.0, 19.0)), Some((17.0, 17.0)));
        assert_eq!(f.picture().len(), 400);
        assert!(
            f.summary().ends_with(": cavern layer 100%"),
            "{}",
            f.summary()
        );
        let none = Found {
            marked: vec![false; 100],
            ..f
        };
        assert_eq!(none.nearest((0.0, 0.0)), None);
    }

    #[test]
    fn targets_and_steps() {
        let all = Target::all();
        assert!(!all.contains(&Target::Tile(Tile::Air)));
        assert!(!all.contains(&Target::Tile(Tile::Reserved43)));
        assert!(all.contains(&Target::Structure(StructureKind::Dungeon)));
        assert!(all.contains(&Target::Layer(Layer::Cavern)));
        assert_eq!(step_for(8400), 5);
        assert_eq!(step_for(1000), 1);
        assert_eq!(
            noise_picture(&[-1.0, 1.0]),
            [0, 0, 0, 215, 255, 255, 255, 215]
        );
        let a = vec![0.1, 0.2, 0.3, 0.4];
        let b = vec![0.5, 0.6, 0.7, 0.8];
        assert_eq!(
            side_by_side(&[a, b], 2, 2),
            [0.1, 0.2, 0.5, 0.6, 0.3, 0.4, 0.7, 0.8]
        );
    }
}
