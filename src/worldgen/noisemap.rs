//! Every noise field the generation passes read, by name, sampled as the passes sample
//! it (same keys from the world seed, same frequencies from the preset), so it can be
//! looked at: `strata noise --field NAME --png PATH` writes one as a greyscale picture, the
//! world lab lays one over the world.
//!
//! A 1D field (a value per column: the surface's fBm, the dirt/stone line's wander, the
//! tree groves) is drawn as vertical stripes; a 2D field (each ore's field, the caves'
//! regional fill) a value per tile. fBm fields can be drawn one octave at a time. Values
//! are scaled to [-1, 1] (black to white). A field is drawn in the basis its preset names
//! (`surface.basis`, `ores.basis`, ...), or in any other asked for (`--basis`): the field
//! as it would be if the preset named that one.

use super::caves;
use super::layers;
use super::ores;
use super::surface;
use crate::base::noise::{Basis, Fbm1, hash32};
use crate::base::rng::pass_rng;
use crate::content::preset::{Preset, Veins};
use rand::Rng;

/// One noise field.
#[derive(Clone, Debug, PartialEq)]
pub struct NoiseField {
    /// What `--field` takes: `surface`, `ores.iron_ore`, `caves.fill_variation`.
    pub name: String,
    /// What it decides, in a line.
    pub doc: String,
    /// Octaves it sums (1 for plain noise): `--octave` takes `0..octaves`.
    pub octaves: u32,
    /// A value per column only.
    pub is_1d: bool,
    /// The preset field that names its basis (`surface.basis`); every field has one.
    pub basis_field: Option<&'static str>,
}

/// What a field samples: built once per field, then read per tile.
enum Sampler {
    Fbm {
        fbm: Fbm1,
        frequency: f64,
        octave: Option<u32>,
    },
    /// `noise_1d(key, x * frequency)`, doubled into [-1, 1].
    Wave {
        basis: Basis,
        key: u32,
        frequency: f64,
    },
    /// The dirt/stone line: two octaves of 1D noise.
    Wander {
        basis: Basis,
        key: u32,
        frequency: f32,
    },
    /// `noise_2d(key, (x / cell) * f, (y / cell) * f)`.
    Plane {
        basis: Basis,
        key: u32,
        frequency: f32,
        cell: usize,
    },
}

impl Sampler {
    fn at(&self, x: usize, y: usize) -> f32 {
        match *self {
            Sampler::Fbm {
                fbm,
                frequency,
                octave: None,
            } => fbm.sample((x as f64 * frequency) as f32),
            Sampler::Fbm {
                fbm,
                frequency,
                octave: Some(k),
            } => {
                // Octave k alone, at its frequency, scaled to the full range.
                let key = fbm.octave_key(k);
                let f = (x as f64 * frequency) as f32 * fbm.lacunarity.powi(k as i32);
                2.0 * fbm.basis.noise_1d(key, f)
            }
            Sampler::Wave {
                basis,
                key,
                frequency,
            } => 2.0 * basis.noise_1d(key, (x as f64 * frequency) as f32),
            Sampler::Wander {
                basis,
                key,
                frequency,
            } => layers::wander_noise(basis, key, x, frequency) / 0.75,
            Sampler::Plane {
                basis,
                key,
                frequency,
                cell,
            } => basis.noise_2d(
                key,
                (x / cell) as f32 * frequency,
                (y / cell) as f32 * frequency,
            ),
        }
    }
}

/// The name of ore row `i` (its tile's name, `iron_ore`; with the row number when an
/// earlier row has the same tile).
fn ore_name(preset: &Preset, i: usize) -> String {
    let tile = preset.ores.table[i].tile;
    let base = tile.name().replace(' ', "_");
    if preset.ores.table[..i].iter().any(|o| o.tile == tile) {
        format!("ores.{base}.{i}")
    } else {
        format!("ores.{base}")
    }
}

/// Every field of `preset`'s passes.
pub fn fields(preset: &Preset) -> Vec<NoiseField> {
    let f = |name: &str, doc: &str, octaves: u32, is_1d: bool| NoiseField {
        name: name.into(),
        doc: doc.into(),
        octaves,
        is_1d,
        basis_field: match name {
            "surface" => Some("surface.basis"),
            "surface.relief" => Some("surface.relief_basis"),
            "surface.terraces" => Some("surface.terrace_basis"),
            "surface.dunes" => Some("biomes.dune_basis"),
            "layers.wander" => Some("layers.wander_basis"),
            "caves.fill_variation" => Some("caves.fill_basis"),
            "trees.groves" => Some("trees.basis"),
            n if n.starts_with("ores.") => Some("ores.basis"),
            _ => None,
        },
    };
    let mut out = vec![
        f(
            "surface",
            "the surface's fBm: its height above and below the base row",
            preset.surface.octaves,
            true,
        ),
        f(
            "surface.relief",
            "the slow fBm of mountains and valleys",
            3,
            true,
        ),
        f(
            "surface.terraces",
            "where the ground is terraced into plateaus and cliffs (high: terraced)",
            1,
            true,
        ),
        f(
            "surface.dunes",
            "the desert's dunes (ridged where it crosses zero)",
            1,
            true,
        ),
        f(
            "layers.wander",
            "how deep the dirt/stone line lies (high: deeper)",
            2,
            true,
        ),
        f(
            "caves.fill_variation",
            "the caves' regional fill: low opens caverns, high keeps rock solid",
            1,
            false,
        ),
    ];
    for i in 0..preset.ores.table.len() {
        out.push(f(
            &ore_name(preset, i),
            &format!(
                "ore row {i}: ore where the field is above the row's threshold ({})",
                preset.ores.table[i].threshold
            ),
            1,
            false,
        ));
    }
    out.push(f(
        "trees.groves",
        "tree groves (high) and clearings (low)",
        1,
        true,
    ));
    out
}

/// The basis `preset` names for the field called `name` (Perlin for those it names none
/// for).
pub fn basis_of(preset: &Preset, name: &str) -> Basis {
    match name {
        "surface" => preset.surface.basis,
        "surface.relief" => preset.surface.relief_basis,
        "surface.terraces" => preset.surface.terrace_basis,
        "surface.dunes" => preset.biomes.dune_basis,
        "layers.wander" => preset.layers.wander_basis,
        "caves.fill_variation" => preset.caves.fill_basis,
        "trees.groves" => preset.trees.basis,
        n if n.starts_with("ores.") => preset.ores.basis,
        _ => Basis::Perlin,
    }
}

/// The field called `name` of `preset` at `seed`, one octave of it with `octave`, in
/// `basis` (the preset's for it if `None`).
fn sampler(
    preset: &Preset,
    seed: u64,
    name: &str,
    octave: Option<u32>,
    basis: Option<Basis>,
) -> Result<Sampler, String> {
    let known = fields(preset);
    let Some(field) = known.iter().find(|f| f.name == name) else {
        let names: Vec<&str> = known.iter().map(|f| f.name.as_str()).collect();
        return Err(format!(
            "no noise field called {name:?}; the fields are {}",
            names.join(", ")
        ));
    };
    if let Some(k) = octave
        && (k >= field.octaves || !matches!(name, "surface" | "surface.relief"))
    {
        return Err(match field.octaves {
            1 | 2 if !matches!(name, "surface" | "surface.relief") => {
                format!(
                    "{name} has no octaves to show one at a time (surface and surface.relief do)"
                )
            }
            n => format!("{name} has octaves 0..={}, not {k}", n - 1),
        });
    }
    let basis = basis.unwrap_or_else(|| basis_of(preset, name));
    let key_of = |pass: &str| pass_rng(seed, pass).next_u32();
    let s = &preset.surface;
    Ok(match name {
        "surface" => Sampler::Fbm {
            fbm: Fbm1 {
                basis,
                key: key_of("surface"),
                octaves: s.octaves,
                persistence: s.persistence as f32,
                lacunarity: s.lacunarity as f32,
            },
            frequency: s.frequency,
            octave,
        },
        "surface.relief" => Sampler::Fbm {
            fbm: surface::relief(basis, key_of("surface")),
            frequency: s.relief_frequency,
            octave,
        },
        "surface.terraces" => Sampler::Wave {
            basis,
            key: hash32(key_of("surface") ^ surface::TERRACE_SALT),
            frequency: 1.0 / surface::TERRACE_REGION,
        },
        "surface.dunes" => Sampler::Wave {
            basis,
            key: hash32(key_of("surface") ^ surface::DUNE_SALT),
            frequency: 1.0 / surface::DUNE_WAVE as f64,
        },
        "layers.wander" => Sampler::Wander {
            basis,
            key: hash32(key_of("layers") ^ layers::WANDER_SALT),
            frequency: preset.layers.wander_frequency as f32,
        },
        "caves.fill_variation" => Sampler::Plane {
            basis,
            key: caves::variation_key(pass_rng(seed, "caves").next_u64()),
            frequency: caves::cell_frequency(&preset.caves) as f32,
            cell: preset.caves.scale.max(1) as usize,
        },
        "trees.groves" => Sampler::Wave {
            basis,
            key: key_of("trees"),
            frequency: preset.trees.frequency,
        },
        _ => {
            // An ore row: its own field (Separate) or the table's one (Shared).
            let i = (0..preset.ores.table.len())
                .find(|&i| ore_name(preset, i) == name)
                .ok_or_else(|| format!("no noise field called {name:?}"))?;
            let key = key_of("ores");
            let key = match preset.ores.veins {
                Veins::Shared => key,
                Veins::Separate => ores::vein_key(key, i),
            };
            Sampler::Plane {
                basis,
                key,
                frequency: preset.ores.frequency as f32,
                cell: 1,
            }
        }
    })
}

/// The field `name` (one octave of it with `octave`, in `basis` if given) over the tiles
/// `x0..x0+w` by `y0..y0+h` taken every `step` tiles: `w * h` values in [-1, 1], row by
/// row.
pub fn sample(
    preset: &Preset,
    seed: u64,
    name: &str,
    (octave, basis): (Option<u32>, Option<Basis>),
    (x0, y0, w, h, step): (usize, usize, usize, usize, usize),
) -> Result<Vec<f32>, String> {
    let s = sampler(preset, seed, name, octave, basis)?;
    let step = step.max(1);
    let mut out = Vec::with_capacity(w * h);
    for j in 0..h {
        for i in 0..w {
            out.push(s.at(x0 + i * step, y0 + j * step).clamp(-1.0, 1.0));
        }
    }
    Ok(out)
}

/// A value in [-1, 1] as a grey level.
pub fn grey(v: f32) -> u8 {
    ((v.clamp(-1.0, 1.0) + 1.0) * 127.5).round() as u8
}

/// Writes the field over the whole world (`preset.width` x `preset.height`, a pixel a
/// tile) as an 8-bit greyscale PNG.
pub fn write_png(
    preset: &Preset,
    seed: u64,
    name: &str,
    (octave, basis): (Option<u32>, Option<Basis>),
    out: &mut dyn std::io::Write,
) -> Result<(), String> {
    let (w, h) = (preset.width as usize, preset.height as usize);
    let s = sampler(preset, seed, name, octave, basis)?;
    let mut enc = png::Encoder::new(out, w as u32, h as u32);
    enc.set_color(png::ColorType::Grayscale);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let mut wr = enc.write_header().map_err(|e| e.to_string())?;
    let mut stream = wr.stream_writer().map_err(|e| e.to_string())?;
    let mut row = vec![0u8; w];
    for y in 0..h {
        for (x, px) in row.iter_mut().enumerate() {
            *px = grey(s.at(x, y));
        }
        std::io::Write::write_all(&mut stream, &row).map_err(|e| e.to_string())?;
    }
    stream.finish().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::preset::{Ore, OreParams};
    use crate::world::Tile;
    use crate::worldgen::{PASSES, generate_until, pass_named};
    use std::sync::atomic::AtomicBool;

    fn until(p: &Preset, seed: u64, pass: &str) -> crate::world::World {
        let never = AtomicBool::new(false);
        generate_until(
            p,
            seed,
            &crate::content::config::Content::builtin(),
            pass_named(pass).unwrap(),
            &mut |_| {},
            &never,
        )
        .unwrap()
        .0
    }

    #[test]
    fn the_surface_field_is_the_surface_the_pass_raises() {
        // Without terraces, relief, oceans and dunes the surface is base + amplitude * fBm.
        let mut p = Preset {
            width: 900,
            height: 300,
            ..Preset::default()
        };
        p.surface.terrace_height = 0.0;
        p.surface.relief = 0.0;
        p.ocean.width = 0.0;
        p.biomes.dune_height = 0.0;
        for seed in [1, 77] {
            let w = until(&p, seed, "surface");
            let n = sample(&p, seed, "surface", (None, None), (0, 0, 900, 1, 1)).unwrap();
            for (x, v) in n.iter().enumerate() {
                let y = (p.surface.base_height * 300.0 + p.surface.amplitude * *v as f64)
                    .round()
                    .clamp(1.0, 299.0) as u32;
                assert_eq!(w.surface[x], y, "seed {seed} column {x}");
            }
        }
    }

    #[test]
    fn the_relief_field_is_the_relief_the_pass_adds() {
        // With relief on (terraces, oceans and dunes off) the surface is base + amplitude
        // * fBm + relief * the relief's fBm: the field reads the pass's own salt.
        let mut p = Preset {
            width: 1200,
            height: 300,
            ..Preset::default()
        };
        p.surface.terrace_height = 0.0;
        p.surface.relief = 40.0;
        p.ocean.width = 0.0;
        p.biomes.dune_height = 0.0;
        for seed in [2, 31] {
            let w = until(&p, seed, "surface");
            let at = (0, 0, 1200, 1, 1);
            let hills = sample(&p, seed, "surface", (None, None), at).unwrap();
            let relief = sample(&p, seed, "surface.relief", (None, None), at).unwrap();
            let mut moved = 0;
            for x in 0..1200 {
                let h = p.surface.amplitude * hills[x] as f64 + p.surface.relief * relief[x] as f64;
                let y = (p.surface.base_height * 300.0 + h)
                    .round()
                    .clamp(1.0, 299.0) as u32;
                assert_eq!(w.surface[x], y, "seed {seed} column {x}");
                moved += usize::from((p.surface.relief * relief[x] as f64).abs() >= 1.0);
            }
            assert!(
                moved > 300,
                "seed {seed}: the relief moved only {moved} columns"
            );
        }
    }

    #[test]
    fn each_ore_field_is_where_the_pass_puts_its_ore() {
        let mut p = Preset {
            width: 400,
            height: 200,
            ..Preset::default()
        };
        // Stone to check against, not the biomes' mud and ice.
        p.biomes.spans.clear();
        let mut ore = Ore::everywhere(Tile::IronOre, 0.4, 0);
        ore.to = crate::base::depth::Layer::Underworld;
        p.ores = OreParams {
            table: vec![Ore::everywhere(Tile::GoldOre, 0.95, 0), ore],
            ..p.ores.clone()
        };
        for basis in Basis::ALL {
            p.ores.basis = basis;
            ore_field_check(&p);
        }
    }

    /// Every stone tile below the surface is iron exactly where `ores.iron_ore` is above
    /// its threshold (and gold's is not above its own).
    fn ore_field_check(p: &Preset) {
        let before = until(p, 9, PASSES[pass_named("ores").unwrap() - 1].name);
        let after = until(p, 9, "ores");
        let field = sample(p, 9, "ores.iron_ore", (None, None), (0, 0, 400, 200, 1)).unwrap();
        let gold = sample(p, 9, "ores.gold_ore", (None, None), (0, 0, 400, 200, 1)).unwrap();
        let (mut checked, mut iron) = (0, 0);
        for y in 0..200 {
            for x in 0..400 {
                let n = field[y * 400 + x];
                let deep = y as i64 > after.surface[x] as i64;
                if before.tile(x, y) != Tile::Stone || !deep || gold[y * 400 + x] > 0.95 {
                    continue;
                }
                if (n - 0.4).abs() < 1e-5 {
                    continue; // the pass's row kernel may differ in the last bits
                }
                checked += 1;
                let is_iron = after.tile(x, y) == Tile::IronOre;
                iron += usize::from(is_iron);
                assert_eq!(is_iron, n > 0.4, "({x}, {y}) field {n}");
            }
        }
        let basis = p.ores.basis;
        assert!(
            checked > 10_000 && iron > 300,
            "{basis:?}: {checked} {iron}"
        );
    }

    #[test]
    fn a_field_is_drawn_in_its_preset_s_basis_or_the_one_asked_for() {
        let mut p = Preset::default();
        p.caves.fill_basis = Basis::Value;
        let at = (0, 0, 64, 32, 3);
        let field = |basis| sample(&p, 4, "caves.fill_variation", (None, basis), at).unwrap();
        assert_eq!(field(None), field(Some(Basis::Value)));
        assert_ne!(field(None), field(Some(Basis::Perlin)));
        assert_ne!(field(Some(Basis::Simplex)), field(Some(Basis::Perlin)));
        assert_eq!(basis_of(&p, "caves.fill_variation"), Basis::Value);
        assert_eq!(basis_of(&p, "surface.dunes"), Basis::Perlin);
        for f in fields(&p) {
            let named = f.basis_field.map(|path| {
                let row = crate::content::preset::FIELDS
                    .iter()
                    .find(|r| r.path == path)
                    .unwrap();
                Basis::ALL[(row.get)(&p, 0).unwrap() as usize]
            });
            assert_eq!(
                named.unwrap_or(Basis::Perlin),
                basis_of(&p, &f.name),
                "{}",
                f.name
            );
        }
    }

    #[test]
    fn fields_differ_by_seed_stay_in_range_and_octaves_add_detail() {
        let p = Preset::default();
        for f in fields(&p) {
            let a = sample(&p, 1, &f.name, (None, None), (0, 0, 256, 64, 7)).unwrap();
            let b = sample(&p, 2, &f.name, (None, None), (0, 0, 256, 64, 7)).unwrap();
            assert_ne!(a, b, "{}", f.name);
            assert!(a.iter().all(|v| v.abs() <= 1.0), "{}", f.name);
            let spread = a.iter().fold(0f32, |m, v| m.max(v.abs()));
            assert!(spread > 0.05, "{} is flat", f.name);
            if f.is_1d {
                assert_eq!(a[..256], a[256..512], "{} is a value per column", f.name);
            }
        }
        // A finer octave changes faster from column to column than the first.
        let wiggle = |k| {
            let v = sample(&p, 1, "surface", (Some(k), None), (0, 0, 2000, 1, 1)).unwrap();
            v.windows(2).map(|w| (w[1] - w[0]).abs()).sum::<f32>()
        };
        assert!(wiggle(4) > 4.0 * wiggle(0));
    }

    #[test]
    fn an_unknown_name_or_octave_is_an_error_listing_what_there_is() {
        let p = Preset::default();
        let e = sample(&p, 1, "surfce", (None, None), (0, 0, 1, 1, 1)).unwrap_err();
        assert!(
            e.contains("surfce") && e.contains("ores.diamond_ore") && e.contains("trees.groves"),
            "{e}"
        );
        let e = sample(&p, 1, "surface", (Some(6), None), (0, 0, 1, 1, 1)).unwrap_err();
        assert!(e.contains("0..=5"), "{e}");
        assert!(sample(&p, 1, "ores.diamond_ore", (Some(0), None), (0, 0, 1, 1, 1)).is_err());
        let mut png = Vec::new();
        let small = Preset {
            width: 64,
            height: 32,
            ..p
        };
        write_png(&small, 3, "caves.fill_variation", (None, None), &mut png).unwrap();
        let mut dec = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut buf = vec![0; dec.output_buffer_size()];
        let info = dec.next_frame(&mut buf).unwrap();
        assert_eq!(
            (info.width, info.height, info.color_type),
            (64, 32, png::ColorType::Grayscale)
        );
    }
}
