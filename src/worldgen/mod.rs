//! World generation: a table of named passes run in order over one [`World`].
//!
//! Every pass has the same signature and gets its own random stream, derived from the world
//! seed and the pass's name only ([`crate::base::rng::pass_rng`]), so changing or adding one pass
//! never changes what the others produce. Passes use counter-based randomness and
//! parallelise over rows, so a world is the same for any thread count.

pub mod biomes;
pub mod build;
pub mod cabins;
pub mod caves;
pub mod chests;
pub mod crystals;
pub mod deposits;
pub mod dungeon;
pub mod evil;
pub mod gems;
pub mod granite;
pub mod grass;
pub mod hellstone;
pub mod hives;
pub mod islands;
pub mod lakes;
pub mod lava;
pub mod layers;
pub mod lodes;
pub mod marble;
pub mod mushrooms;
pub mod noisemap;
pub mod ocean;
pub mod ores;
pub mod pockets;
pub mod ruins;
pub mod spiders;
pub mod surface;
pub mod survey;
pub mod trees;
pub mod tunnels;
pub mod underworld;
pub mod walls;
pub mod water;

use crate::base::rng::{PassRng, pass_rng};
use crate::content::config::Content;
use crate::content::preset::Preset;
use crate::world::World;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// One generation step.
pub struct Pass {
    /// Short name: stats keys and the random stream's name.
    pub name: &'static str,
    /// What the progress bar says while it runs.
    pub label: &'static str,
    /// Share of the progress bar.
    pub weight: f32,
    pub run: fn(&mut World, &Preset, &mut PassRng),
}

/// The passes, in order.
pub const PASSES: &[Pass] = &[
    Pass {
        name: "surface",
        label: "Raising the surface",
        weight: 1.0,
        run: surface::apply,
    },
    Pass {
        name: "layers",
        label: "Laying dirt and stone",
        weight: 1.0,
        run: layers::apply,
    },
    Pass {
        name: "biomes",
        label: "Spreading the biomes",
        weight: 0.5,
        run: biomes::apply,
    },
    Pass {
        name: "caves",
        label: "Carving caves",
        weight: 3.0,
        run: caves::apply,
    },
    Pass {
        name: "tunnels",
        label: "Digging tunnels and cave mouths",
        weight: 1.0,
        run: tunnels::apply,
    },
    Pass {
        name: "underworld",
        label: "Kindling the underworld",
        weight: 0.5,
        run: underworld::apply,
    },
    Pass {
        name: "ores",
        label: "Seeding ores",
        weight: 3.0,
        run: ores::apply,
    },
    Pass {
        name: "lodes",
        label: "Running ore veins",
        weight: 1.0,
        run: lodes::apply,
    },
    Pass {
        name: "water",
        label: "Filling pools",
        weight: 0.3,
        run: water::apply,
    },
    Pass {
        name: "lava",
        label: "Pouring lava",
        weight: 0.3,
        run: lava::apply,
    },
    Pass {
        name: "ocean",
        label: "Filling the seas",
        weight: 0.2,
        run: ocean::apply,
    },
    Pass {
        name: "lakes",
        label: "Filling the lakes",
        weight: 0.2,
        run: lakes::apply,
    },
    Pass {
        name: "grass",
        label: "Growing grass",
        weight: 0.5,
        run: grass::apply,
    },
    Pass {
        name: "trees",
        label: "Planting trees",
        weight: 0.3,
        run: trees::apply,
    },
    Pass {
        name: "chests",
        label: "Hiding chests",
        weight: 0.2,
        run: chests::apply,
    },
    Pass {
        name: "walls",
        label: "Raising the walls",
        weight: 0.3,
        run: walls::apply,
    },
    Pass {
        name: "dungeon",
        label: "Building the dungeon",
        weight: 0.2,
        run: dungeon::apply,
    },
    Pass {
        name: "evil",
        label: "Spreading the corruption",
        weight: 0.2,
        run: evil::apply,
    },
    Pass {
        name: "islands",
        label: "Raising floating islands",
        weight: 0.1,
        run: islands::apply,
    },
    Pass {
        name: "cabins",
        label: "Building cabins",
        weight: 0.1,
        run: cabins::apply,
    },
    Pass {
        name: "marble",
        label: "Polishing marble caves",
        weight: 0.1,
        run: marble::apply,
    },
    Pass {
        name: "granite",
        label: "Setting granite caves",
        weight: 0.1,
        run: granite::apply,
    },
    Pass {
        name: "mushrooms",
        label: "Growing glowing mushrooms",
        weight: 0.1,
        run: mushrooms::apply,
    },
    Pass {
        name: "hives",
        label: "Building bee hives",
        weight: 0.1,
        run: hives::apply,
    },
    Pass {
        name: "spiders",
        label: "Spinning cobwebs",
        weight: 0.1,
        run: spiders::apply,
    },
    Pass {
        name: "ruins",
        label: "Ruining the underworld's houses",
        weight: 0.1,
        run: ruins::apply,
    },
    Pass {
        name: "hellstone",
        label: "Heating hellstone",
        weight: 0.1,
        run: hellstone::apply,
    },
    Pass {
        name: "gems",
        label: "Hiding gems",
        weight: 0.1,
        run: gems::apply,
    },
    Pass {
        name: "deposits",
        label: "Laying clay and silt",
        weight: 0.1,
        run: deposits::apply,
    },
    Pass {
        name: "crystals",
        label: "Growing life crystals",
        weight: 0.05,
        run: crystals::apply,
    },
];

/// How long one pass took.
#[derive(Clone, Debug, PartialEq)]
pub struct PassTiming {
    pub name: &'static str,
    pub ms: f64,
}

/// Where generation has got to, for a progress bar.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Index into [`PASSES`] of the pass about to run.
    pub pass: usize,
    /// Share of the work done before this pass, 0..1.
    pub fraction: f32,
}

/// Generates a world with the built-in content (its chests' loot). The preset must be
/// valid ([`Preset::validate`]).
pub fn generate(preset: &Preset, seed: u64) -> (World, Vec<PassTiming>) {
    generate_for(preset, seed, &Content::builtin())
}

/// Generates a world with `content`'s loot in its chests.
pub fn generate_for(preset: &Preset, seed: u64, content: &Content) -> (World, Vec<PassTiming>) {
    let never = AtomicBool::new(false);
    generate_with(preset, seed, content, &mut |_| {}, &never)
        .expect("generation without cancel always finishes")
}

/// The natural walls of the world made from `preset` and `seed` (a valid preset): what a
/// save from before walls were saved loads with. Generates the whole world, since the walls
/// follow its air.
pub fn natural_walls(preset: &Preset, seed: u64) -> Vec<crate::world::Wall> {
    generate(preset, seed).0.into_walls()
}

/// Generates a world, reporting progress before each pass and giving up between passes
/// (returning `None`) once `cancel` is set.
pub fn generate_with(
    preset: &Preset,
    seed: u64,
    content: &Content,
    progress: &mut dyn FnMut(Progress),
    cancel: &AtomicBool,
) -> Option<(World, Vec<PassTiming>)> {
    generate_until(preset, seed, content, PASSES.len() - 1, progress, cancel)
}

/// A pass name that is not in [`PASSES`]; its message names the passes there are.
#[derive(Clone, Debug, PartialEq)]
pub struct UnknownPass(pub String);

impl std::fmt::Display for UnknownPass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = PASSES.iter().map(|p| p.name).collect();
        write!(
            f,
            "no pass called {:?}; the passes are {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownPass {}

impl From<UnknownPass> for String {
    fn from(e: UnknownPass) -> String {
        e.to_string()
    }
}

/// The index in [`PASSES`] of the pass called `name` (any case).
pub fn pass_named(name: &str) -> Result<usize, UnknownPass> {
    PASSES
        .iter()
        .position(|p| p.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| UnknownPass(name.to_string()))
}

/// [`generate_with`], stopping after the pass `PASSES[last]`: the world as it stands after
/// that pass, and the timings of the passes run.
pub fn generate_until(
    preset: &Preset,
    seed: u64,
    content: &Content,
    last: usize,
    progress: &mut dyn FnMut(Progress),
    cancel: &AtomicBool,
) -> Option<(World, Vec<PassTiming>)> {
    let mut world = World::new(
        preset.width as usize,
        preset.height as usize,
        seed,
        preset.clone(),
    );
    let total: f32 = PASSES.iter().map(|p| p.weight).sum();
    let mut done = 0.0;
    let mut timings = Vec::with_capacity(PASSES.len());
    for (i, pass) in PASSES.iter().enumerate().take(last.saturating_add(1)) {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        progress(Progress {
            pass: i,
            fraction: done / total,
        });
        let start = Instant::now();
        (pass.run)(&mut world, preset, &mut pass_rng(seed, pass.name));
        // The chests the pass placed get their loot from the content (built-in or mods).
        build::stock(&mut world, content);
        timings.push(PassTiming {
            name: pass.name,
            ms: start.elapsed().as_secs_f64() * 1e3,
        });
        done += pass.weight;
    }
    Some((world, timings))
}

/// Runs `f` on a pool of `threads` threads (tests: a world must not depend on them).
#[cfg(test)]
pub(crate) fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Tile;

    fn small(preset: &Preset) -> Preset {
        Preset {
            width: 300,
            height: 150,
            ..preset.clone()
        }
    }

    #[test]
    fn same_seed_same_world_other_seed_other_world() {
        let p = small(&Preset::default());
        let a = generate(&p, 1).0.tile_hash();
        assert_eq!(a, generate(&p, 1).0.tile_hash());
        assert_ne!(a, generate(&p, 2).0.tile_hash());
    }

    #[test]
    fn thread_count_does_not_change_the_world() {
        let p = Preset {
            width: 700,
            height: 300,
            ..Preset::default()
        };
        let run = |threads| on_threads(threads, || generate(&p, 99).0.tile_hash());
        assert_eq!(run(1), run(2));
        assert_eq!(run(1), run(3));
    }

    #[test]
    fn changing_one_pass_leaves_the_others_alone() {
        // Different ore settings must not move the caves: air is the same everywhere.
        let p = small(&Preset::default());
        let mut q = p.clone();
        q.ores.frequency *= 1.7;
        let (a, b) = (generate(&p, 5).0, generate(&q, 5).0);
        assert_ne!(a.tile_hash(), b.tile_hash());
        let air = |w: &World| w.tiles().iter().map(|t| t.is_open()).collect::<Vec<_>>();
        assert_eq!(air(&a), air(&b));
        assert_eq!(a.surface, b.surface);
    }

    #[test]
    fn cancel_stops_generation() {
        let cancel = AtomicBool::new(true);
        assert!(
            generate_with(
                &small(&Preset::default()),
                1,
                &Content::builtin(),
                &mut |_| {},
                &cancel
            )
            .is_none()
        );
    }

    #[test]
    fn progress_reports_every_pass_in_order() {
        let mut seen = vec![];
        let never = AtomicBool::new(false);
        generate_with(
            &small(&Preset::default()),
            1,
            &Content::builtin(),
            &mut |p| seen.push((p.pass, p.fraction)),
            &never,
        )
        .unwrap();
        assert_eq!(
            seen.iter().map(|s| s.0).collect::<Vec<_>>(),
            (0..PASSES.len()).collect::<Vec<_>>()
        );
        assert!(seen.windows(2).all(|w| w[0].1 < w[1].1) && seen[0].1 == 0.0);
    }

    #[test]
    fn generation_stops_after_the_named_pass() {
        let p = small(&Preset::default());
        let never = AtomicBool::new(false);
        let caves = pass_named("CAVES").unwrap();
        let content = Content::builtin();
        let (w, t) = generate_until(&p, 4, &content, caves, &mut |_| {}, &never).unwrap();
        let names: Vec<&str> = t.iter().map(|t| t.name).collect();
        assert_eq!(names, ["surface", "layers", "biomes", "caves"]);
        let counts = w.counts();
        // Before the ores, water and grass passes: none of theirs, but caves already.
        for tile in [Tile::IronOre, Tile::Water, Tile::Grass] {
            assert_eq!(counts[tile as usize], 0, "{tile:?}");
        }
        let full = generate(&p, 4).0;
        let iron = full.counts()[Tile::IronOre as usize] + full.counts()[Tile::LeadOre as usize];
        assert!(iron > 0);
        // The surface pass alone leaves the same surface the full run starts from.
        let (first, _) = generate_until(&p, 4, &content, 0, &mut |_| {}, &never).unwrap();
        assert_ne!(first.tile_hash(), full.tile_hash());
        let last = generate_until(&p, 4, &content, PASSES.len() - 1, &mut |_| {}, &never).unwrap();
        assert_eq!(last.0.tile_hash(), full.tile_hash());
        let e = pass_named("cavez").unwrap_err();
        assert_eq!(e, UnknownPass("cavez".into()));
        let e = e.to_string();
        assert!(e.contains("cavez") && e.contains("surface, layers"), "{e}");
    }

    #[test]
    fn generated_world_has_every_layer() {
        let (w, timings) = generate(&small(&Preset::default()), 3);
        assert_eq!(timings.len(), PASSES.len());
        let counts = w.counts();
        for t in [Tile::Air, Tile::Dirt, Tile::Stone, Tile::Grass] {
            assert!(counts[t as usize] > 0, "no {t:?}");
        }
        // Iron, or lead in its place.
        assert!(counts[Tile::IronOre as usize] + counts[Tile::LeadOre as usize] > 0);
        // Nothing solid above any column's surface (sky, sea, lakes, trees) but the
        // landmarks built on it or floating over it.
        for x in 0..w.width() {
            assert!(
                (0..w.surface[x] as usize)
                    .all(|y| !w.tile(x, y).is_solid()
                        || w.structures.iter().any(|s| s.contains(x, y)))
            );
        }
    }
}
