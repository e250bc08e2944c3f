//! Which kind spawns at a spot ([`crate::content::bestiary::SpawnRule`]): the spot's
//! biome (what covers the ground round it, [`biome_at`]), depth layer, the time, whether
//! it is under the open sky or near the town, and the bosses that have fallen.

use crate::content::bestiary::{Bestiary, Biome, Kind, SpawnRule, Time};
use crate::world::Tile;
use crate::world::World;
use crate::world::depth::Layer;
use crate::world::progress::Progress;

/// Tiles each way round a spot whose tiles make its biome (every row, every other column
/// is looked at: a one-tile slab is never missed).
pub const BIOME_REACH: i64 = 12;
/// Tiles of a biome among those looked at that make the spot that biome (of 325).
pub const BIOME_TILES: u32 = 24;

/// The biome a tile speaks for, if any.
pub fn biome_of(t: Tile) -> Option<Biome> {
    Some(match t {
        Tile::Snow | Tile::Ice => Biome::Snow,
        Tile::Sand | Tile::Sandstone | Tile::HardenedSand | Tile::Cactus => Biome::Desert,
        Tile::Mud | Tile::JungleGrass | Tile::Hive | Tile::Honey => Biome::Jungle,
        Tile::CorruptGrass | Tile::Ebonstone | Tile::DemoniteOre | Tile::ShadowOrb => Biome::Evil,
        Tile::DungeonBrick | Tile::Spike => Biome::Dungeon,
        Tile::Cloud => Biome::Island,
        _ => return None,
    })
}

/// The biome round `(x, y)`: the dungeon where its brick is enough, else the biome with
/// the most tiles if it has [`BIOME_TILES`], else the forest.
pub fn biome_at(world: &World, x: i64, y: i64) -> Biome {
    let mut counts = [0u32; 7];
    for dy in -BIOME_REACH..=BIOME_REACH {
        for dx in (-BIOME_REACH..=BIOME_REACH).step_by(2) {
            if let Some(b) = world.get(x + dx, y + dy).and_then(biome_of) {
                // An island is a thin slab of cloud: each of its tiles counts thrice.
                counts[b as usize] += if b == Biome::Island { 3 } else { 1 };
            }
        }
    }
    if counts[Biome::Dungeon as usize] >= BIOME_TILES {
        return Biome::Dungeon;
    }
    let all = [
        Biome::Snow,
        Biome::Desert,
        Biome::Jungle,
        Biome::Island,
        Biome::Evil,
    ];
    // The last of equals: the evil biome, which spreads over the others.
    let best = all
        .into_iter()
        .max_by_key(|&b| counts[b as usize])
        .unwrap_or(Biome::Forest);
    if counts[best as usize] >= BIOME_TILES {
        best
    } else {
        Biome::Forest
    }
}

/// Where a spawn is tried.
#[derive(Clone, Copy, Debug)]
pub struct Spot<'a> {
    pub biome: Biome,
    pub layer: Layer,
    pub night: bool,
    /// Above its column's first ground row.
    pub open_sky: bool,
    /// Within the town round the spawn point.
    pub near_town: bool,
    /// The world's light level there (0..=15).
    pub light: u8,
    pub progress: &'a Progress,
}

/// Does `rule` let its kind spawn at `spot`?
pub fn fits(rule: &SpawnRule, spot: &Spot<'_>) -> bool {
    (rule.biomes.is_empty() || rule.biomes.contains(&spot.biome))
        && (rule.layers.is_empty() || rule.layers.contains(&spot.layer))
        && match rule.time {
            Time::Any => true,
            Time::Day => !spot.night,
            Time::Night => spot.night,
        }
        && (!rule.open_sky || spot.open_sky)
        && (!rule.away_from_town || !spot.near_town)
        && rule.max_light.is_none_or(|most| spot.light <= most)
        && rule
            .before
            .as_ref()
            .is_none_or(|b| !spot.progress.defeated(b).unwrap_or(false))
}

/// A kind that may spawn, its weight and how far up it spawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub kind: Kind,
    pub weight: u32,
    pub up: u32,
}

/// The kinds of `bestiary` that fit `spot` (the first fitting rule of each): those of the
/// weighted draw, and those that take the night's share ([`SpawnRule::night_share`]).
pub fn candidates(bestiary: &Bestiary, spot: &Spot<'_>) -> (Vec<Candidate>, Vec<Candidate>) {
    let (mut normal, mut share) = (Vec::new(), Vec::new());
    for kind in bestiary.all() {
        if let Some(r) = bestiary.def(kind).spawn.iter().find(|r| fits(r, spot)) {
            let c = Candidate {
                kind,
                weight: r.weight,
                up: r.up,
            };
            if r.night_share {
                share.push(c);
            } else {
                normal.push(c);
            }
        }
    }
    (normal, share)
}

/// The candidate `roll` (below the sum of the weights) lands on.
pub fn pick(list: &[Candidate], roll: u64) -> Option<Candidate> {
    let mut left = roll;
    for c in list {
        if left < u64::from(c.weight) {
            return Some(*c);
        }
        left -= u64::from(c.weight);
    }
    list.last().copied()
}

/// The sum of the weights.
pub fn total(list: &[Candidate]) -> u64 {
    list.iter().map(|c| u64::from(c.weight)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::creatures::{Creatures, DEMON_EYE_ONE_IN};
    use crate::world::depth::Layers;
    use std::collections::BTreeSet;

    const LAYERS: Layers = Layers {
        underground: 20,
        cavern: 40,
        underworld: 100,
        height: 120,
    };

    /// A world of `fill` from row 10 down (the surface row), with a cave of air across it
    /// whose floor is row `floor`; filled from the top when there is a cave (the open
    /// surface when `floor` is 10).
    fn world(fill: Tile, floor: usize) -> World {
        let mut w = World::new(200, 120, 0, crate::content::preset::Preset::default());
        let top = if floor > 10 { 0 } else { 10 };
        for y in top..120 {
            for x in 0..200 {
                let cave = floor > 10 && (floor - 4..floor).contains(&y);
                w.set(x, y, if cave { Tile::Air } else { fill });
            }
        }
        w.surface = vec![10; 200];
        w
    }

    /// The names of the kinds that spawn in many tries round a player standing on row
    /// `floor` of `w`.
    fn kinds(w: &World, floor: usize, night: bool) -> BTreeSet<String> {
        let mut c = Creatures::new(
            5,
            std::sync::Arc::clone(crate::sim::creatures::test_bestiary()),
        );
        let mut out = BTreeSet::new();
        for _ in 0..600 {
            if let Some(k) = c.try_spawn(
                w,
                &LAYERS,
                (100.0, floor as f32),
                (32.0, 18.0),
                usize::MAX,
                night,
                DEMON_EYE_ONE_IN,
                None,
            ) {
                out.insert(c.bestiary.def(k).name.clone());
            }
        }
        out
    }

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn each_place_and_time_has_its_own_creatures() {
        // The surface: slimes by day; zombies and demon eyes join them at night.
        let forest = world(Tile::Stone, 10);
        assert_eq!(kinds(&forest, 10, false), set(&["slime"]));
        assert_eq!(
            kinds(&forest, 10, true),
            set(&["demon eye", "slime", "zombie"])
        );
        // A snow cave in the caverns: ice slimes and ice bats, with the caverns' own
        // slimes and bats; no skeletons (theirs are the stone caverns).
        let snow = kinds(&world(Tile::Snow, 50), 50, false);
        assert!(
            snow.contains("ice slime") && snow.contains("ice bat"),
            "{snow:?}"
        );
        assert!(!snow.contains("skeleton"), "{snow:?}");
        let caverns = kinds(&world(Tile::Stone, 50), 50, false);
        assert!(
            caverns.contains("skeleton") && caverns.contains("cave bat"),
            "{caverns:?}"
        );
        assert!(!caverns.contains("ice bat"), "{caverns:?}");
        // The jungle underground: hornets alone.
        assert_eq!(kinds(&world(Tile::Mud, 30), 30, false), set(&["hornet"]));
        // The desert by day: antlions, vultures and slimes.
        assert_eq!(
            kinds(&world(Tile::Sand, 10), 10, false),
            set(&["antlion", "slime", "vulture"])
        );
        // The evil biome underground: eaters of souls.
        assert_eq!(
            kinds(&world(Tile::Ebonstone, 30), 30, false),
            set(&["eater of souls"])
        );
        // The dungeon (before Skeletron): angry bones and the guardian.
        assert_eq!(
            kinds(&world(Tile::DungeonBrick, 30), 30, false),
            set(&["angry bones", "dungeon guardian"])
        );
        // The underworld: lava slimes, fire imps and demons.
        assert_eq!(
            kinds(&world(Tile::Ash, 110), 110, true),
            set(&["demon", "fire imp", "lava slime"])
        );
    }

    #[test]
    fn the_caverns_creatures_keep_out_of_a_torchs_glow() {
        use crate::sim::light::LightMap;
        let dark = world(Tile::Stone, 50);
        let mut lit = dark.clone();
        // A torch every eighth tile along the cave's roof: its floor lit 10 and up
        // (within four tiles of one) but for a tile or two between.
        for x in (0..200).step_by(8) {
            lit.set(x, 46, Tile::Torch);
        }
        let mut glowing = lit.clone();
        for x in (0..200).step_by(3) {
            glowing.set(x, 46, Tile::Torch);
        }
        let spawned = |w: &World| {
            let light = LightMap::compute(w);
            let mut c = Creatures::new(5, std::sync::Arc::clone(super::super::test_bestiary()));
            let mut out = Vec::new();
            for _ in 0..600 {
                let k = c.try_spawn(
                    w,
                    &LAYERS,
                    (100.0, 50.0),
                    (32.0, 18.0),
                    usize::MAX,
                    false,
                    3,
                    Some(&light),
                );
                if let Some(k) = k {
                    let (x, y) = c.list.last().map(|c| c.body.pos).unwrap();
                    let name = c.bestiary.def(k).name.clone();
                    out.push((name, light.get(x as usize, y as usize - 1)));
                }
            }
            out
        };
        let cave = ["cave slime", "skeleton", "cave bat", "spider"];
        let d = spawned(&dark);
        assert!(d.iter().any(|(k, _)| cave.contains(&k.as_str())), "{d:?}");
        // Where torches are a few tiles apart, every spot glows: none of them comes.
        let g = spawned(&glowing);
        assert!(g.iter().all(|(k, _)| !cave.contains(&k.as_str())), "{g:?}");
        // Torches further apart: they come, but only between the torches' glows.
        let l = spawned(&lit);
        assert!(l.iter().any(|(k, _)| cave.contains(&k.as_str())), "{l:?}");
        assert!(
            l.iter()
                .all(|(k, light)| !cave.contains(&k.as_str()) || *light <= 9),
            "{l:?}"
        );
    }

    #[test]
    fn a_biome_is_what_covers_the_ground_round_a_spot() {
        let mut w = world(Tile::Stone, 10);
        assert_eq!(biome_at(&w, 100, 9), Biome::Forest);
        for y in 10..16 {
            for x in 90..110 {
                w.set(x, y, Tile::Snow);
            }
        }
        assert_eq!(biome_at(&w, 100, 9), Biome::Snow);
        assert_eq!(biome_at(&w, 20, 9), Biome::Forest, "far from the snow");
        // A little dungeon brick beats the rest.
        for y in 11..17 {
            for x in 96..104 {
                w.set(x, y, Tile::DungeonBrick);
            }
        }
        assert_eq!(biome_at(&w, 100, 9), Biome::Dungeon);
    }

    #[test]
    fn a_rule_waits_on_its_boss_the_time_and_the_town() {
        let rule = SpawnRule {
            biomes: vec![Biome::Dungeon],
            layers: vec![],
            time: Time::Night,
            open_sky: false,
            away_from_town: true,
            before: Some("eye".into()),
            night_share: false,
            up: 0,
            max_light: Some(9),
            weight: 1,
        };
        let fresh = Progress::default();
        let spot = Spot {
            biome: Biome::Dungeon,
            layer: Layer::Cavern,
            night: true,
            open_sky: false,
            near_town: false,
            light: 3,
            progress: &fresh,
        };
        assert!(fits(&rule, &spot));
        assert!(!fits(
            &rule,
            &Spot {
                night: false,
                ..spot
            }
        ));
        assert!(!fits(
            &rule,
            &Spot {
                near_town: true,
                ..spot
            }
        ));
        assert!(
            !fits(&rule, &Spot { light: 10, ..spot }),
            "lit past its most"
        );
        assert!(fits(&rule, &Spot { light: 9, ..spot }));
        assert!(!fits(
            &rule,
            &Spot {
                biome: Biome::Snow,
                ..spot
            }
        ));
        let after = Progress {
            eye_defeated: 1,
            ..Progress::default()
        };
        assert!(!fits(
            &rule,
            &Spot {
                progress: &after,
                ..spot
            }
        ));
    }

    #[test]
    fn the_cap_counts_the_creatures_near_each_player() {
        let mut w = World::new(400, 120, 0, crate::content::preset::Preset::default());
        for y in 10..120 {
            for x in 0..400 {
                w.set(x, y, Tile::Stone);
            }
        }
        w.surface = vec![10; 400];
        let mut c = Creatures::new(
            3,
            std::sync::Arc::clone(crate::sim::creatures::test_bestiary()),
        );
        let spawn = |c: &mut Creatures, x: f32| {
            for _ in 0..200 {
                c.try_spawn(&w, &LAYERS, (x, 10.0), (32.0, 18.0), 3, false, 3, None);
            }
        };
        spawn(&mut c, 40.0);
        assert_eq!(c.list.len(), 3);
        spawn(&mut c, 40.0);
        assert_eq!(c.list.len(), 3, "capped");
        spawn(&mut c, 360.0);
        assert_eq!(c.list.len(), 6, "a far player has a cap of its own");
    }

    #[test]
    fn a_generated_world_s_landmarks_are_their_biomes() {
        use crate::world::structure::StructureKind;
        let preset = crate::content::preset::Preset {
            width: 1000,
            height: 400,
            ..Default::default()
        };
        let (w, _) = crate::worldgen::generate(&preset, 4);
        let want = [
            (StructureKind::Dungeon, Biome::Dungeon),
            (StructureKind::Evil, Biome::Evil),
            (StructureKind::Island, Biome::Island),
        ];
        // Every spot a creature could stand on inside the landmark whose floor is the
        // landmark's own tile (on an island its grass too; not the roof of its house):
        // nearly all must be its biome.
        let mut seen = 0;
        for s in &w.structures {
            let Some(&(_, biome)) = want.iter().find(|(k, _)| *k == s.kind) else {
                continue;
            };
            let (mut spots, mut right) = (0, 0);
            for y in s.y as i64..(s.y + s.h) as i64 {
                for x in s.x as i64..(s.x + s.w) as i64 {
                    let floor = w.get(x, y + 1).and_then(biome_of);
                    let grass = w.get(x, y + 1) == Some(Tile::Grass);
                    let own = floor == Some(biome) || (s.kind == StructureKind::Island && grass);
                    if own && crate::sim::creatures::spawn_spot(&w, x, y) {
                        spots += 1;
                        right += u32::from(biome_at(&w, x, y) == biome);
                    }
                }
            }
            eprintln!("{:?}: {right} of {spots} spots", s.kind);
            assert!(right * 10 >= spots * 9, "{:?}: {right} of {spots}", s.kind);
            seen += u32::from(spots > 0);
        }
        assert!(seen >= 2, "{seen} landmarks looked at");
    }
}
