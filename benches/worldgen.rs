//! Strata's passes, its connectivity analysis and the whole pipeline at Terraria's three
//! world sizes, each beside the plain reference implementation in `reference/`, plus the
//! per-sample cost of gradient noise (Strata's kernels, the `noise` crate, a textbook
//! permutation-table Perlin).
//!
//! Run: `cargo bench --bench worldgen` (see BENCHMARKS.md). Pass benches use the classic
//! preset's parameters (five automaton steps) at each size; `pipeline_large_preset` uses
//! the default settings at 8400x2400, as `config/presets/large.ron` does.

mod reference;

use divan::{Bencher, black_box, counter::ItemsCount};
use strata::base::noise;
use strata::base::rng::pass_rng;
use strata::content::preset::Preset;
use strata::world::World;
use strata::worldgen::{PASSES, caves, grass, layers, ores, surface};

fn main() {
    divan::main();
}

const SIZES: &[&str] = &["small 4200x1200", "medium 6400x1800", "large 8400x2400"];
const SEED: u64 = 1;

fn classic(size: &str) -> Preset {
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/config/presets/classic.ron"
    ));
    let mut p = strata::content::preset::parse(text, "classic").expect("classic preset parses");
    (p.width, p.height) = match size.split(' ').next() {
        Some("small") => (4200, 1200),
        Some("medium") => (6400, 1800),
        _ => (8400, 2400),
    };
    p
}

/// The world as the named pass finds it (every earlier pass applied).
fn before(pass: &str, preset: &Preset) -> World {
    let mut world = World::new(
        preset.width as usize,
        preset.height as usize,
        SEED,
        preset.clone(),
    );
    for p in PASSES.iter().take_while(|p| p.name != pass) {
        (p.run)(&mut world, preset, &mut pass_rng(SEED, p.name));
    }
    world
}

fn finished(preset: &Preset) -> World {
    strata::worldgen::generate(preset, SEED).0
}

type PassFn = fn(&mut World, &Preset, &mut strata::base::rng::PassRng);

fn bench_pass(bencher: Bencher, size: &str, name: &str, run: PassFn) {
    let preset = classic(size);
    let world = before(name, &preset);
    bencher
        .with_inputs(|| world.clone())
        .bench_local_values(|mut w| {
            run(&mut w, &preset, &mut pass_rng(SEED, name));
            w
        });
}

fn bench_reference(bencher: Bencher, size: &str, name: &str, run: fn(&mut World, &Preset)) {
    let preset = classic(size);
    let world = before(name, &preset);
    bencher
        .with_inputs(|| world.clone())
        .bench_local_values(|mut w| {
            run(&mut w, &preset);
            w
        });
}

mod surface_pass {
    use super::*;
    #[divan::bench(args = SIZES, sample_count = 15, sample_size = 1)]
    fn strata(b: Bencher, size: &str) {
        bench_pass(b, size, "surface", surface::apply);
    }
    #[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
    fn reference(b: Bencher, size: &str) {
        bench_reference(b, size, "surface", |w, p| reference::surface(w, p, SEED));
    }
}

mod layers_pass {
    use super::*;
    #[divan::bench(args = SIZES, sample_count = 15, sample_size = 1)]
    fn strata(b: Bencher, size: &str) {
        bench_pass(b, size, "layers", layers::apply);
    }
    #[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
    fn reference(b: Bencher, size: &str) {
        bench_reference(b, size, "layers", |w, p| reference::layers(w, p, SEED));
    }
}

mod caves_pass {
    use super::*;
    #[divan::bench(args = SIZES, sample_count = 15, sample_size = 1)]
    fn strata(b: Bencher, size: &str) {
        bench_pass(b, size, "caves", caves::apply);
    }
    #[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
    fn reference(b: Bencher, size: &str) {
        bench_reference(b, size, "caves", |w, p| reference::caves(w, p, SEED));
    }
}

/// The random fill of the cave layer alone.
mod cave_fill {
    use super::*;
    #[divan::bench(args = SIZES, sample_count = 15, sample_size = 1)]
    fn strata(b: Bencher, size: &str) {
        let preset = classic(size);
        let w = before("caves", &preset);
        b.bench_local(|| {
            caves::random_fill(w.width(), w.height(), &w.surface, &preset.caves, 0x5EED)
        });
    }
    #[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
    fn reference(b: Bencher, size: &str) {
        let preset = classic(size);
        let w = before("caves", &preset);
        b.bench_local(|| reference::cave_fill(&w, &preset, SEED));
    }
}

/// The cellular automaton alone (the preset's five steps).
mod cave_automaton {
    use super::*;
    #[divan::bench(args = SIZES, sample_count = 15, sample_size = 1)]
    fn strata(b: Bencher, size: &str) {
        let preset = classic(size);
        let w = before("caves", &preset);
        let (grid, first) =
            caves::random_fill(w.width(), w.height(), &w.surface, &preset.caves, 0x5EED);
        let first_row = first.saturating_sub(preset.caves.iterations as usize);
        b.with_inputs(|| grid.clone()).bench_local_values(|mut g| {
            caves::run_automaton(&mut g, &preset.caves, first_row);
            g
        });
    }
    #[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
    fn reference(b: Bencher, size: &str) {
        let preset = classic(size);
        let w = before("caves", &preset);
        let cells = reference::cave_fill(&w, &preset, SEED);
        b.with_inputs(|| reference::Cells {
            w: cells.w,
            h: cells.h,
            wall: cells.wall.clone(),
        })
        .bench_local_values(|mut c| {
            reference::cave_automaton(&mut c, &preset);
            c
        });
    }
}

mod ores_pass {
    use super::*;
    #[divan::bench(args = SIZES, sample_count = 15, sample_size = 1)]
    fn strata(b: Bencher, size: &str) {
        bench_pass(b, size, "ores", ores::apply);
    }
    #[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
    fn reference(b: Bencher, size: &str) {
        bench_reference(b, size, "ores", |w, p| reference::ores(w, p, SEED));
    }
}

mod grass_pass {
    use super::*;
    #[divan::bench(args = SIZES, sample_count = 15, sample_size = 1)]
    fn strata(b: Bencher, size: &str) {
        bench_pass(b, size, "grass", grass::apply);
    }
    #[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
    fn reference(b: Bencher, size: &str) {
        bench_reference(b, size, "grass", |w, _| reference::grass(w));
    }
}

/// Connectivity of the finished world: counts, sizes, boxes and per-tile ids.
mod connectivity {
    use super::*;
    #[divan::bench(args = SIZES, sample_count = 15, sample_size = 1)]
    fn strata(b: Bencher, size: &str) {
        let w = finished(&classic(size));
        b.bench_local(|| strata::analysis::analyse(&w));
    }
    #[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
    fn reference(b: Bencher, size: &str) {
        let w = finished(&classic(size));
        b.bench_local(|| reference::bfs(&w));
    }
}

/// Generate (all five passes, world allocation included) and analyse.
mod pipeline {
    use super::*;
    #[divan::bench(args = SIZES, sample_count = 10, sample_size = 1)]
    fn strata(b: Bencher, size: &str) {
        let preset = classic(size);
        b.bench_local(|| {
            let (w, _) = strata::worldgen::generate(&preset, SEED);
            let r = strata::analysis::analyse(&w);
            (w, r)
        });
    }
    #[divan::bench(args = SIZES, sample_count = 2, sample_size = 1)]
    fn reference(b: Bencher, size: &str) {
        let preset = classic(size);
        b.bench_local(|| reference::pipeline(&preset, SEED));
    }
}

/// The default settings at 8400x2400 (`config/presets/large.ron`), six automaton steps.
mod pipeline_large_preset {
    use super::*;
    fn large() -> Preset {
        Preset {
            width: 8400,
            height: 2400,
            ..Preset::default()
        }
    }
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn strata(b: Bencher) {
        let preset = large();
        b.bench_local(|| {
            let (w, _) = strata::worldgen::generate(&preset, SEED);
            let r = strata::analysis::analyse(&w);
            (w, r)
        });
    }
    #[divan::bench(sample_count = 2, sample_size = 1)]
    fn reference(b: Bencher) {
        let preset = large();
        b.bench_local(|| reference::pipeline(&preset, SEED));
    }
}

/// Per-sample cost of 2D gradient noise: a row of 8400 samples at the ores' frequency.
mod noise_per_sample {
    use super::*;
    const N: usize = 8400;
    const F: f32 = 0.08;

    #[divan::bench(sample_count = 200)]
    fn strata_row(b: Bencher) {
        // Rows in order, as the ores pass samples them: one lattice row serves 1 / F rows.
        let plan = noise::RowPlan::new(0, N, F);
        let mut lattice = noise::LatticeRow::default();
        let mut out = vec![0f32; N];
        let mut y = 0;
        b.counter(ItemsCount::new(N)).bench_local(|| {
            y = (y + 1) % 2400;
            noise::perlin_2d_row_cached(7, &plan, &mut lattice, black_box(y), F, &mut out);
            black_box(&out);
        });
    }

    #[divan::bench(sample_count = 200)]
    fn strata_point(b: Bencher) {
        b.counter(ItemsCount::new(N)).bench_local(|| {
            let mut s = 0.0;
            for x in 0..N {
                s += noise::perlin_2d(7, black_box(x as f32) * F, 3.3);
            }
            s
        });
    }

    #[divan::bench(sample_count = 200)]
    fn noise_crate_perlin(b: Bencher) {
        use ::noise::NoiseFn;
        let perlin = ::noise::Perlin::new(7);
        b.counter(ItemsCount::new(N)).bench_local(|| {
            let mut s = 0.0;
            for x in 0..N {
                s += perlin.get([black_box(x as f64) * F as f64, 3.3]);
            }
            s
        });
    }

    #[divan::bench(sample_count = 200)]
    fn textbook_perlin(b: Bencher) {
        let perlin = reference::Perlin::new(7);
        b.counter(ItemsCount::new(N)).bench_local(|| {
            let mut s = 0.0;
            for x in 0..N {
                s += perlin.noise2(black_box(x as f64) * F as f64, 3.3);
            }
            s
        });
    }
}

/// The three bases per sample: a row of 8400 samples and one sample at a time, Strata's
/// kernels beside the `noise` crate's Perlin, OpenSimplex and Value.
mod bases_per_sample {
    use super::*;
    use strata::base::noise::Basis;
    const N: usize = 8400;
    const F: f32 = 0.08;

    /// One row, its plan and caches built anew each time (no row shares them).
    #[divan::bench(args = ["Perlin", "Simplex", "Value"], sample_count = 200)]
    fn strata_one_row(b: Bencher, basis: &str) {
        let basis = Basis::named(basis).unwrap();
        let mut out = vec![0f32; N];
        let mut y = 0;
        b.counter(ItemsCount::new(N)).bench_local(|| {
            y = (y + 7) % 2400;
            let plan = noise::RowPlan::new(0, N, F);
            noise::RowNoise::new(basis).row(7, &plan, black_box(y), F, &mut out);
            black_box(&out);
        });
    }

    /// Rows in order over one plan, the caches kept (as the passes sample fields).
    #[divan::bench(args = ["Perlin", "Simplex", "Value"], sample_count = 200)]
    fn strata_rows_in_order(b: Bencher, basis: &str) {
        let basis = Basis::named(basis).unwrap();
        let plan = noise::RowPlan::new(0, N, F);
        let mut rows = noise::RowNoise::new(basis);
        let mut out = vec![0f32; N];
        let mut y = 0;
        b.counter(ItemsCount::new(N)).bench_local(|| {
            y = (y + 1) % 2400;
            rows.row(7, &plan, black_box(y), F, &mut out);
            black_box(&out);
        });
    }

    /// 120 rows in order per run, the caches kept: each run includes the terms made
    /// again per lattice row (Perlin's about every 12 rows at 0.08, Simplex's per pair of
    /// lattice lines about every 9), which the single rows' medians above leave out.
    #[divan::bench(args = ["Perlin", "Simplex", "Value"], sample_count = 100)]
    fn strata_rows_in_order_with_their_lattice_rows(b: Bencher, basis: &str) {
        let basis = Basis::named(basis).unwrap();
        let plan = noise::RowPlan::new(0, N, F);
        let mut rows = noise::RowNoise::new(basis);
        let mut out = vec![0f32; N];
        let mut y = 0;
        b.counter(ItemsCount::new(N * 120)).bench_local(|| {
            for _ in 0..120 {
                y = (y + 1) % 2400;
                rows.row(7, &plan, black_box(y), F, &mut out);
                black_box(&out);
            }
        });
    }

    /// Simplex rows without AVX2 (the baseline build's 4 lanes).
    #[divan::bench(sample_count = 200)]
    fn strata_simplex_rows_plain(b: Bencher) {
        let xs: Vec<f32> = (0..N).map(|x| x as f32 * F).collect();
        let mut out = vec![0f32; N];
        let mut y = 0;
        b.counter(ItemsCount::new(N)).bench_local(|| {
            y = (y + 1) % 2400;
            noise::simplex::simplex_2d_xs_plain(7, &xs, black_box(y) as f32 * F, &mut out);
            black_box(&out);
        });
    }

    #[divan::bench(args = ["Perlin", "Simplex", "Value"], sample_count = 200)]
    fn strata_point(b: Bencher, basis: &str) {
        let basis = Basis::named(basis).unwrap();
        b.counter(ItemsCount::new(N)).bench_local(|| {
            let mut s = 0.0;
            for x in 0..N {
                s += basis.noise_2d(7, black_box(x as f32) * F, 3.3);
            }
            s
        });
    }

    fn noise_crate(b: Bencher, f: &dyn ::noise::NoiseFn<f64, 2>) {
        b.counter(ItemsCount::new(N)).bench_local(|| {
            let mut s = 0.0;
            for x in 0..N {
                s += f.get([black_box(x as f64) * F as f64, 3.3]);
            }
            s
        });
    }

    #[divan::bench(sample_count = 200)]
    fn noise_crate_perlin(b: Bencher) {
        noise_crate(b, &::noise::Perlin::new(7));
    }

    #[divan::bench(sample_count = 200)]
    fn noise_crate_open_simplex(b: Bencher) {
        noise_crate(b, &::noise::OpenSimplex::new(7));
    }

    #[divan::bench(sample_count = 200)]
    fn noise_crate_value(b: Bencher) {
        noise_crate(b, &::noise::Value::new(7));
    }
}
