//! Tests of format 6's walls section, and of older formats loading their natural walls.

use super::sections_tests::refusal;
use super::tests::{cat, decode, first_tiles_world, generated};
use super::*;
use crate::content::preset::Preset;

/// A generated world whose player built a few walls and took some natural ones down, and
/// dug a hole.
fn built() -> (World, PlayerState) {
    let mut world = generated(120, 70, 41);
    for x in 10..16 {
        world.set_wall(x, 3, Wall::Wood);
        world.set_wall(x, 4, Wall::StoneBrick);
    }
    let (x, y) = (60, world.surface[60] as usize + 20);
    world.set_wall(x, y, Wall::None);
    world.set(x, y, Tile::Air);
    (world, PlayerState::new((60.5, 10.0), &cat()))
}

#[test]
fn walls_round_trip_in_their_own_section() {
    let (world, player) = built();
    assert!(world.walls().iter().any(|w| w.is_some()));
    let bytes = encode(&world, &player);
    assert_eq!(
        u32::from_le_bytes(bytes[7..11].try_into().unwrap()),
        VERSION
    );
    let (w2, _) = decode(&bytes).unwrap();
    assert_eq!(w2.walls(), world.walls());
    assert_eq!(w2.wall_hash(), world.wall_hash());
    assert_eq!(w2.tiles(), world.tiles());
    // Runs: a world's walls take a few bytes a row, not a byte a tile.
    let (_, walls) = sections_of(&world, &cat(), WALL_BITS)
        .into_iter()
        .find(|(t, _)| *t == WALLS_TAG)
        .unwrap();
    assert!(
        walls.len() < world.width() * world.height() / 8,
        "{}",
        walls.len()
    );
}

#[test]
fn older_formats_load_the_natural_walls_of_their_preset_and_seed() {
    let (world, player) = built();
    let natural = crate::worldgen::generate(&world.preset, world.seed).0;
    for version in [2, 3, 4, 5] {
        let (w, _) = decode(&encode_as(&world, &player, version)).unwrap();
        assert_eq!(w.walls(), natural.walls(), "v{version}");
        assert_eq!(
            w.tiles(),
            world.tiles(),
            "v{version}: the player's tiles stay"
        );
    }
    // A format 1 world (Strata's first nine tiles, no sections) too.
    let tiny = first_tiles_world();
    let (w, _) = decode(&encode_as(&tiny, &PlayerState::new((3.5, 5.0), &cat()), 1)).unwrap();
    let made = Preset {
        width: 10,
        height: 8,
        ..tiny.preset.clone()
    };
    assert_eq!(w.walls(), crate::worldgen::natural_walls(&made, tiny.seed));
}

#[test]
fn a_damaged_walls_section_is_refused_with_a_clear_message() {
    let (world, player) = built();
    let total = (world.width() * world.height()) as u64;
    let others: Vec<_> = sections_of(&world, &cat(), WALL_BITS)
        .into_iter()
        .filter(|(t, _)| *t != WALLS_TAG)
        .collect();
    let with = |runs: &[u64], extra: &[u8]| {
        let mut b = Vec::new();
        for &r in runs {
            put_varint(&mut b, r);
        }
        b.extend_from_slice(extra);
        let mut sections = others.clone();
        sections.push((WALLS_TAG, b));
        refusal(&encode_with(&world, &player, VERSION, &sections))
    };
    let run = |len: u64, wall: u64| (len - 1) << WALL_BITS | wall;
    assert!(with(&[run(total - 1, 1)], &[]).contains("truncated: ends in the walls"));
    let e = with(&[run(total + 1, 1)], &[]);
    assert!(
        e.contains(&format!("run of {} walls at tile 0", total + 1)),
        "{e}"
    );
    let e = with(&[run(5, 2), run(total - 5, 31)], &[]);
    assert!(e.contains("unknown wall byte 31 at tile 5"), "{e}");
    // The same damage, told apart by its variant.
    let mut runs = Vec::new();
    for r in [run(5, 2), run(total - 5, 31)] {
        put_varint(&mut runs, r);
    }
    let mut sections = others.clone();
    sections.push((WALLS_TAG, runs));
    let err = decode(&encode_with(&world, &player, VERSION, &sections)).unwrap_err();
    assert!(
        matches!(
            err,
            SaveError::UnknownCode {
                what: "wall",
                code: 31,
                at: 5
            }
        ),
        "{err:?}"
    );
    let e = with(&[run(total, 0)], &[7]);
    assert!(e.contains("1 unexpected bytes after the walls"), "{e}");
    // Twice is refused as every section is.
    let mut twice = others.clone();
    twice.push((WALLS_TAG, vec![]));
    twice.push((WALLS_TAG, vec![]));
    let e = refusal(&encode_with(&world, &player, 6, &twice));
    let repeated = e.contains("\"WALL\" unknown or repeated");
    assert!(
        repeated || e.contains("sections, format v6 has at most 4"),
        "{e}"
    );
    // Format 5 knew no walls section.
    let mut v5 = others.clone();
    v5.push((WALLS_TAG, vec![0]));
    assert!(refusal(&encode_with(&world, &player, 5, &v5)).contains("\"WALL\" unknown"));
}

#[test]
fn a_trophy_hung_on_a_wall_is_kept_with_its_wall() {
    let (mut world, player) = built();
    // Tile 37 needs the sixth bit of a run's tile.
    assert!((Tile::EyeTrophy as u8) >= 32 && (Tile::EyeTrophy as u8) < 64);
    world.set_wall(12, 6, Wall::Wood);
    world.set(12, 6, Tile::EyeTrophy);
    world.set(13, 6, Tile::EyeTrophy);
    let (w2, _) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(w2.tile(12, 6), Tile::EyeTrophy);
    assert_eq!(w2.tile(13, 6), Tile::EyeTrophy);
    assert_eq!(w2.wall(12, 6), Wall::Wood);
    assert_eq!(w2.tiles(), world.tiles());
}
