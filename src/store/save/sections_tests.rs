//! Tests of format 4's sections: chests (and what older formats load as).

use super::tests::{cat, decode, generated};
use super::*;
use crate::world::explored::Explored;

/// A small world with two chests holding things and one empty chest tile.
fn with_chests() -> (World, PlayerState) {
    let mut world = generated(80, 50, 3);
    let player = PlayerState::new((40.5, 10.0), &cat());
    for (x, y) in [(10, 2), (50, 4), (60, 4)] {
        world.set(x, y, Tile::Chest);
    }
    world.chests = Chests::default();
    world
        .chests
        .open(50, 4)
        .add(&cat(), cat().id("gold_bar").unwrap(), 7);
    let c = world.chests.open(10, 2);
    c.add(&cat(), cat().id("torch").unwrap(), 12);
    c.add(&cat(), cat().id("iron_pickaxe").unwrap(), 1);
    // An entry with nothing in it is not written (it loads as the same empty chest).
    world.chests.open(60, 4);
    (world, player)
}

/// A version 4 save of `world` and `player` with one chests section of `body`.
fn with_body(world: &World, player: &PlayerState, body: Vec<u8>) -> Vec<u8> {
    encode_with(world, player, 4, &[(CHESTS_TAG, body)])
}

/// A chests section body: `n` stated, then these chests with all-empty slots but the
/// first, which holds `first`.
fn body(n: u32, chests: &[(u32, u32)], first: (&str, u32)) -> Vec<u8> {
    let mut b = n.to_le_bytes().to_vec();
    for &(x, y) in chests {
        b.extend_from_slice(&x.to_le_bytes());
        b.extend_from_slice(&y.to_le_bytes());
        b.push(first.0.len() as u8);
        b.extend_from_slice(first.0.as_bytes());
        b.extend_from_slice(&first.1.to_le_bytes());
        b.extend(std::iter::repeat_n(0u8, CHEST_SLOTS - 1));
    }
    b
}

pub(super) fn refusal(bytes: &[u8]) -> String {
    decode(bytes).unwrap_err().to_string()
}

#[test]
fn chests_round_trip_and_only_chests_holding_something_are_written() {
    let (world, player) = with_chests();
    let bytes = encode(&world, &player);
    assert_eq!(
        u32::from_le_bytes(bytes[7..11].try_into().unwrap()),
        VERSION
    );
    let (w2, _) = decode(&bytes).unwrap();
    assert_eq!(w2.chests.len(), 2, "the empty entry is not kept");
    for (x, y) in [(10, 2), (50, 4)] {
        assert_eq!(w2.chests.get(x, y), world.chests.get(x, y));
    }
    assert!(w2.chests.get(60, 4).is_none() && w2.tile(60, 4) == Tile::Chest);
    assert_eq!(encode(&w2, &player), bytes, "encoding is deterministic");
}

#[test]
fn older_formats_load_with_empty_chests() {
    let (world, player) = with_chests();
    for version in [2, 3] {
        let (w, _) = decode(&encode_as(&world, &player, version)).unwrap();
        assert_eq!(w.tiles(), world.tiles(), "v{version}");
        assert!(w.chests.is_empty(), "v{version}");
    }
    // Version 3 never had sections: one there is refused.
    let v3 = encode_with(&world, &player, 3, &[(CHESTS_TAG, vec![0; 4])]);
    assert!(
        refusal(&v3).contains("format v3 has at most 0"),
        "{}",
        refusal(&v3)
    );
}

#[test]
fn damaged_chests_are_refused_with_a_clear_message() {
    let (world, player) = with_chests();
    let ok = with_body(&world, &player, body(1, &[(10, 2)], ("gel", 5)));
    assert_eq!(decode(&ok).unwrap().0.chests.len(), 1);
    use ChestProblem as P;
    type Is = fn(&SaveError) -> bool;
    let cases: [(Vec<u8>, &str, Is); 7] = [
        (
            body(1, &[(11, 2)], ("gel", 5)),
            "chest 0 at 11 2 is not on a chest tile",
            |e| {
                matches!(
                    e,
                    SaveError::Chest {
                        index: 0,
                        x: 11,
                        y: 2,
                        problem: P::NotOnChestTile
                    }
                )
            },
        ),
        (
            body(1, &[(9999, 2)], ("gel", 5)),
            "not on a chest tile",
            |e| {
                matches!(
                    e,
                    SaveError::Chest {
                        x: 9999,
                        problem: P::NotOnChestTile,
                        ..
                    }
                )
            },
        ),
        (
            body(2, &[(50, 4), (10, 2)], ("gel", 5)),
            "chest 1 at 10 2 out of order",
            |e| {
                matches!(
                    e,
                    SaveError::Chest {
                        index: 1,
                        problem: P::OutOfOrder,
                        ..
                    }
                )
            },
        ),
        (
            body(1, &[(10, 2)], ("jelly", 5)),
            "unknown item \"jelly\" in chest 0",
            |e| matches!(e, SaveError::UnknownItem { name, .. } if name == b"jelly"),
        ),
        (
            body(1, &[(10, 2)], ("gel", 0)),
            "0 gel in chest 0 at 10 2, slot 0, a stack holds 1 to ",
            |e| matches!(e, SaveError::BadStack { count: 0, item, .. } if item == "gel"),
        ),
        (
            body(1, &[(10, 2)], ("gel", 100_000)),
            "100000 gel in chest 0 at 10 2, slot 0, a stack holds 1 to ",
            |e| matches!(e, SaveError::BadStack { count: 100_000, most, .. } if *most < 100_000),
        ),
        // A count far beyond what the bytes hold: refused before anything is allocated.
        (
            body(u32::MAX, &[(10, 2)], ("gel", 5)),
            "4294967295 chests in a section",
            |e| {
                matches!(
                    e,
                    SaveError::TooManyChests {
                        count: 4_294_967_295,
                        ..
                    }
                )
            },
        ),
    ];
    for (b, says, is) in cases {
        let err = decode(&with_body(&world, &player, b)).unwrap_err();
        let e = err.to_string();
        assert!(e.starts_with("damaged save: ") && e.contains(says), "{e}");
        assert!(is(&err), "{err:?}");
    }
    let mut empty_chest = 1u32.to_le_bytes().to_vec();
    empty_chest.extend_from_slice(&10u32.to_le_bytes());
    empty_chest.extend_from_slice(&2u32.to_le_bytes());
    empty_chest.extend(std::iter::repeat_n(0u8, CHEST_SLOTS));
    let err = decode(&with_body(&world, &player, empty_chest)).unwrap_err();
    assert!(
        matches!(
            err,
            SaveError::Chest {
                index: 0,
                x: 10,
                y: 2,
                problem: P::Empty
            }
        ),
        "{err:?}"
    );
    let mut extra = body(1, &[(10, 2)], ("gel", 5));
    extra.push(0);
    let err = decode(&with_body(&world, &player, extra)).unwrap_err();
    assert!(
        matches!(
            err,
            SaveError::Trailing {
                part: "chests",
                bytes: 1
            }
        ),
        "{err:?}"
    );
    let mut trailing = body(1, &[(10, 2)], ("gel", 5));
    trailing.push(0);
    let e = refusal(&with_body(&world, &player, trailing));
    assert!(e.contains("1 unexpected bytes after the chests"), "{e}");
    let mut empty = 1u32.to_le_bytes().to_vec();
    empty.extend_from_slice(&10u32.to_le_bytes());
    empty.extend_from_slice(&2u32.to_le_bytes());
    empty.extend(std::iter::repeat_n(0u8, CHEST_SLOTS));
    let e = refusal(&with_body(&world, &player, empty));
    assert!(e.contains("chest 0 at 10 2 holds nothing"), "{e}");
    let short = body(2, &[(10, 2)], ("gel", 5));
    let e = refusal(&with_body(&world, &player, short));
    assert!(e.contains("chests"), "{e}");
    let twice = encode_with(
        &world,
        &player,
        4,
        &[(CHESTS_TAG, vec![0; 4]), (CHESTS_TAG, vec![0; 4])],
    );
    assert!(refusal(&twice).contains("\"CHST\" unknown or repeated"));
    let unknown = encode_with(&world, &player, 4, &[(*b"ZZZZ", vec![])]);
    assert!(refusal(&unknown).contains("\"ZZZZ\" unknown"));
}

#[test]
fn the_explored_map_round_trips_and_older_saves_load_it_all_seen() {
    let (mut world, player) = with_chests();
    assert_eq!(world.explored.seen_count(), 0, "a new world starts dark");
    world
        .explored
        .reveal((40.0, 10.0), 9, |x, y| (x + y) % 3 == 0);
    world.explored.mark(19, 12);
    let seen = world.explored.seen_count();
    assert!(seen > 5);
    let (w2, _) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(w2.explored, world.explored);
    // A map with nothing seen is one run: still written, and still dark when loaded.
    let mut dark = world.clone();
    dark.explored = Explored::new(dark.width(), dark.height());
    assert_eq!(
        decode(&encode(&dark, &player))
            .unwrap()
            .0
            .explored
            .seen_count(),
        0
    );
    // Formats 1-3 (and a format 4 save without the section) kept no map: all seen.
    let all = Explored::all_seen(world.width(), world.height());
    for version in [2, 3] {
        let (w, _) = decode(&encode_as(&world, &player, version)).unwrap();
        assert_eq!(w.explored, all, "v{version}");
    }
    let no_map = encode_with(&world, &player, 4, &[]);
    assert_eq!(decode(&no_map).unwrap().0.explored, all);
}

#[test]
fn a_damaged_explored_map_is_refused_with_a_clear_message() {
    let (world, player) = with_chests();
    let cells = world.explored.cells() as u64; // 20 x 13
    let seen = |runs: &[u64], extra: &[u8]| {
        let mut b = Vec::new();
        for &r in runs {
            put_varint(&mut b, r);
        }
        b.extend_from_slice(extra);
        refusal(&encode_with(&world, &player, 4, &[(SEEN_TAG, b)]))
    };
    assert!(seen(&[cells - 1], &[]).contains("explored map: runs cover 259 of 260"));
    assert!(seen(&[cells + 1], &[]).contains("a run of 261 cells at cell 0"));
    assert!(seen(&[3, 0, cells - 3], &[]).contains("an empty run at cell 3"));
    assert!(seen(&[u64::MAX], &[]).contains("a run of"));
    // A varint that never ends, and one too long for 64 bits.
    assert!(seen(&[5], &[0x80]).contains("truncated: ends in the explored map"));
    assert!(seen(&[], &[0xff; 11]).contains("run length too long"));
}

#[test]
fn armour_worn_round_trips_and_format_5_saves_still_load() {
    let (world, mut player) = with_chests();
    let id = |n: &str| cat().id(n).unwrap();
    player.inventory.add("iron_helmet", 1);
    player.inventory.add("copper_greaves", 1);
    let wear = |inv: &mut Inventory, name: &str| {
        let i = (0..SLOTS)
            .find(|&i| inv.slots()[i].is_some_and(|s| s.item == id(name)))
            .unwrap();
        let mut parts = inv.slots().to_owned();
        parts.swap(0, i);
        *inv = Inventory::from_parts(&cat(), parts, 0)
            .unwrap()
            .with_armour(inv.armour())
            .unwrap();
        inv.wear_selected().unwrap();
    };
    wear(&mut player.inventory, "iron_helmet");
    wear(&mut player.inventory, "copper_greaves");
    assert_eq!(player.inventory.defence(), 3);
    let bytes = encode(&world, &player);
    let (_, back) = decode(&bytes).unwrap();
    assert_eq!(back.inventory, player.inventory);
    assert_eq!(
        back.inventory.armour(),
        [Some(id("iron_helmet")), None, Some(id("copper_greaves"))]
    );
    // Format 5 (no armour section) loads as it did, its world's identity kept.
    let old = encode_as(&world, &player, 5);
    let (w5, p5) = decode(&old).unwrap();
    assert_eq!((w5.id, p5.inventory.armour()), (world.id, [None; 3]));
    // A piece on another's slot, or no armour at all, is refused.
    let refused = |stacks: [Option<(&str, u32)>; 3]| {
        let mut body = Vec::new();
        let stacks = stacks.map(|s| s.map(|(n, count)| Stack { item: id(n), count }));
        put_slots(&cat(), &mut body, &stacks);
        let mut sections = sections_of(&world, &cat(), WALL_BITS);
        sections.push((ARMOUR_TAG, body));
        refusal(&encode_with(&world, &player, VERSION, &sections))
    };
    let e = refused([None, Some(("iron_helmet", 1)), None]);
    assert!(e.contains("armour worn on a slot not its own"), "{e}");
    let e = refused([Some(("gel", 1)), None, None]);
    assert!(e.contains("not armour"), "{e}");
    let e = refused([Some(("iron_helmet", 2)), None, None]);
    assert!(e.contains("armour slot 0"), "{e}");
}

#[test]
fn the_worlds_story_round_trips_in_format_7_and_older_formats_load_without_one() {
    let (mut world, player) = with_chests();
    // Nothing to tell: no section.
    assert!(
        !sections_of(&world, &cat(), WALL_BITS)
            .iter()
            .any(|(t, _)| *t == BOSS_TAG)
    );
    world.progress = crate::world::progress::Progress {
        eye_defeated: 1,
        nights: 12,
        ..Default::default()
    };
    let (w, _) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(w.progress, world.progress);
    assert!(w.progress.eye_down());
    for version in 4..=6 {
        let (w, _) = decode(&encode_as(&world, &player, version)).unwrap();
        assert_eq!(w.progress, Default::default(), "format {version}");
        assert!(!w.progress.eye_down());
    }
    // A section of the wrong size is refused by name.
    let mut sections = sections_of(&world, &cat(), V6_WALL_BITS);
    sections.push((BOSS_TAG, vec![1, 0, 0, 0]));
    sections.retain(|(t, b)| *t != BOSS_TAG || b.len() == 4);
    let e = refusal(&encode_with(&world, &player, 7, &sections));
    assert!(e.contains("boss section of 4 bytes"), "{e}");
}

#[test]
fn the_later_bosses_and_the_orbs_round_trip_in_the_boss_section() {
    let (mut world, player) = with_chests();
    world.progress.eye_defeated = 2;
    let short = sections_of(&world, &cat(), WALL_BITS);
    let boss = |s: &[([u8; 4], Vec<u8>)]| s.iter().find(|(t, _)| *t == BOSS_TAG).unwrap().1.len();
    assert_eq!(boss(&short), 12, "the Eye alone keeps the old section");
    world.progress.orbs_broken = 3;
    world.progress.eater_defeated = 1;
    world.progress.skeletron_defeated = 1;
    world.progress.wall_defeated = 4;
    assert_eq!(boss(&sections_of(&world, &cat(), WALL_BITS)), 28);
    let (w, _) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(w.progress, world.progress);
    assert!(w.progress.skeletron() && w.progress.past_the_wall());
    assert!(w.progress.summary().starts_with("past the Wall"));
}

#[test]
fn the_bed_spawn_point_round_trips_and_format_6_saves_load_without_one() {
    let (world, mut player) = with_chests();
    let bytes = encode(&world, &player);
    assert_eq!(decode(&bytes).unwrap().1.bed, None, "no bed, no section");
    player.bed = Some((10, 12));
    let (_, back) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(back.bed, Some((10, 12)));
    // Format 6 has no spawn point section: it loads with the world's spawn point.
    let (_, p6) = decode(&encode_as(&world, &player, 6)).unwrap();
    assert_eq!((p6.bed, p6.inventory), (None, player.inventory.clone()));
    // A spawn point outside the world, or of the wrong length, is refused.
    let refused = |body: Vec<u8>| {
        let mut sections = sections_of(&world, &cat(), WALL_BITS);
        sections.push((SPAWN_TAG, body));
        refusal(&encode_with(&world, &player, VERSION, &sections))
    };
    let outside = [(world.width() as u32).to_le_bytes(), 0u32.to_le_bytes()].concat();
    let e = refused(outside);
    assert!(e.contains("spawn point") && e.contains("outside"), "{e}");
    let e = refused(vec![1, 2, 3]);
    assert!(e.contains("spawn point section of 3 bytes"), "{e}");
}

#[test]
fn items_lying_in_the_world_round_trip_at_rest_and_damaged_ones_are_refused() {
    let (mut world, player) = with_chests();
    let gel = cat().id("gel").unwrap();
    let stack = Stack {
        item: gel,
        count: 7,
    };
    let mut lying = Dropped::new(stack, (10.5, 3.25), Some(0));
    lying.vel = (1.0, 2.0);
    world.dropped.push(lying);
    let (back, _) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(back.dropped, vec![Dropped::new(stack, (10.5, 3.25), None)]);
    // Format 6 keeps none.
    let (w6, _) = decode(&encode_as(&world, &player, 6)).unwrap();
    assert!(w6.dropped.is_empty());
    let refused = |body: Vec<u8>| {
        let mut sections = sections_of(&world, &cat(), WALL_BITS);
        sections.retain(|(t, _)| *t != ITEMS_TAG);
        sections.push((ITEMS_TAG, body));
        refusal(&encode_with(&world, &player, VERSION, &sections))
    };
    let item = |x: f32, count: u32| {
        let mut b = 1u32.to_le_bytes().to_vec();
        b.extend_from_slice(&x.to_le_bytes());
        b.extend_from_slice(&2.0f32.to_le_bytes());
        put_slots(&cat(), &mut b, &[Some(Stack { item: gel, count })]);
        b
    };
    let e = refused(item(f32::NAN, 1));
    assert!(e.contains("item 0 at (NaN, 2), outside the world"), "{e}");
    let e = refused(item(1.0, 0));
    assert!(e.contains("item 0 lying in the world"), "{e}");
    let e = refused(u32::MAX.to_le_bytes().to_vec());
    assert!(e.contains("at most 400 are kept"), "{e}");
    let mut long = item(1.0, 1);
    long.push(0);
    assert!(refused(long).contains("longer than its items"));
}

/// The damages of the spawn point, armour, items, explored map and boss sections are told
/// apart by their variants.
#[test]
fn section_damage_is_told_apart_by_its_variant() {
    let (world, player) = with_chests();
    let gel = cat().id("gel").unwrap();
    let refused = |tag: [u8; 4], body: Vec<u8>| {
        let mut sections = sections_of(&world, &cat(), WALL_BITS);
        sections.retain(|(t, _)| *t != tag);
        sections.push((tag, body));
        decode(&encode_with(&world, &player, VERSION, &sections)).unwrap_err()
    };
    let (w, h) = (world.width(), world.height());
    let outside = [(w as u32).to_le_bytes(), 0u32.to_le_bytes()].concat();
    let e = refused(SPAWN_TAG, outside);
    assert!(
        matches!(e, SaveError::SpawnOutside { x, y: 0, width, height } if x == w && (width, height) == (w, h)),
        "{e:?}"
    );
    let e = refused(SPAWN_TAG, vec![1, 2, 3]);
    assert!(
        matches!(
            e,
            SaveError::SectionLength {
                section: "spawn point section",
                len: 3,
                expected: 8
            }
        ),
        "{e:?}"
    );
    let e = refused(BOSS_TAG, vec![1, 0, 0, 0]);
    assert!(
        matches!(
            e,
            SaveError::SectionLength {
                section: "boss section",
                len: 4,
                expected: 12
            }
        ),
        "{e:?}"
    );
    // Armour: a helmet on the body's slot.
    let helmet = Stack {
        item: cat().id("iron_helmet").unwrap(),
        count: 1,
    };
    let mut armour = Vec::new();
    put_slots(&cat(), &mut armour, &[None, Some(helmet), None]);
    assert!(matches!(
        refused(ARMOUR_TAG, armour.clone()),
        SaveError::Armour
    ));
    armour.push(0);
    assert!(matches!(
        refused(ARMOUR_TAG, armour),
        SaveError::Overlong("armour")
    ));
    // Items lying in the world.
    let item = |x: f32, count: u32| {
        let mut b = 1u32.to_le_bytes().to_vec();
        b.extend_from_slice(&x.to_le_bytes());
        b.extend_from_slice(&2.0f32.to_le_bytes());
        put_slots(&cat(), &mut b, &[Some(Stack { item: gel, count })]);
        b
    };
    let e = refused(ITEMS_TAG, item(-3.0, 1));
    assert!(
        matches!(e, SaveError::Outside { what: Placed::Item(0), x, y } if (x, y) == (-3.0, 2.0)),
        "{e:?}"
    );
    let e = refused(ITEMS_TAG, item(1.0, 0));
    assert!(
        matches!(&e, SaveError::BadStack { count: 0, place, .. } if place.contains("item 0")),
        "{e:?}"
    );
    let e = refused(ITEMS_TAG, u32::MAX.to_le_bytes().to_vec());
    assert!(
        matches!(
            e,
            SaveError::TooMany {
                what: "items lying in the world",
                most: 400,
                ..
            }
        ),
        "{e:?}"
    );
    let mut long = item(1.0, 1);
    long.push(0);
    assert!(matches!(
        refused(ITEMS_TAG, long),
        SaveError::Overlong("items")
    ));
    // The explored map: runs that cover less than the map.
    let mut seen = Vec::new();
    put_varint(&mut seen, world.explored.cells() as u64 - 1);
    let e = refused(SEEN_TAG, seen);
    assert!(
        matches!(&e, SaveError::Explored(m) if m.contains("runs cover")),
        "{e:?}"
    );
}

#[test]
fn accessories_worn_round_trip_and_format_8_saves_load_without_them() {
    let (world, mut player) = with_chests();
    let id = |n: &str| cat().id(n).unwrap();
    let worn = [
        Some(id("hermes_boots")),
        None,
        Some(id("lucky_horseshoe")),
        None,
        Some(id("grappling_hook")),
    ];
    player.inventory = player.inventory.clone().with_accessories(worn).unwrap();
    let (_, back) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(back.inventory.accessories(), worn);
    assert_eq!(back.inventory, player.inventory);
    // Format 8 (no accessories section) loads as it did, wearing none.
    let (w8, p8) = decode(&encode_as(&world, &player, 8)).unwrap();
    assert_eq!((w8.id, p8.inventory.accessories()), (world.id, [None; 5]));
    // Armour in an accessory slot, or the same accessory twice, is refused.
    let refused = |stacks: [Option<&str>; 5]| {
        let mut body = Vec::new();
        let stacks = stacks.map(|s| {
            s.map(|n| Stack {
                item: id(n),
                count: 1,
            })
        });
        put_slots(&cat(), &mut body, &stacks);
        let mut sections = sections_of(&world, &cat(), WALL_BITS);
        sections.push((ACCESSORIES_TAG, body));
        refusal(&encode_with(&world, &player, VERSION, &sections))
    };
    let e = refused([Some("iron_helmet"), None, None, None, None]);
    assert!(e.contains("not an accessory"), "{e}");
    let e = refused([Some("hermes_boots"), Some("hermes_boots"), None, None, None]);
    assert!(e.contains("worn twice"), "{e}");
}
