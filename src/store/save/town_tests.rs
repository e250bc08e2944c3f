//! Tests of format 7's town section: the town people and their houses, and the Guide of
//! an older save.

use super::sections_tests::refusal;
use super::tests::{cat, decode};
use super::*;
use crate::content::preset::Preset;
use crate::sim::npc::NpcState;
use crate::sim::session::Session;

/// A small world of air over dirt and stone (tiles every format has) and a player
/// standing in it.
fn small() -> (World, PlayerState) {
    let mut world = World::new(80, 50, 5, Preset::default());
    for y in 30..50 {
        for x in 0..80 {
            world.set(x, y, if y < 36 { Tile::Dirt } else { Tile::Stone });
        }
    }
    world.recompute_surface();
    let player = PlayerState::new(crate::sim::player::spawn_point(&world), &cat());
    (world, player)
}

fn guide_at_home() -> NpcState {
    NpcState {
        name: "Guide",
        pos: (30.5, 20.0),
        anchor: (44.5, 18.0),
        home: Some((31.5, 20.0)),
    }
}

#[test]
fn the_town_people_and_their_houses_round_trip() {
    let (world, mut player) = small();
    player.town = vec![
        guide_at_home(),
        NpcState {
            name: "Merchant",
            pos: (50.25, 19.0),
            anchor: (50.25, 19.0),
            home: None,
        },
        NpcState {
            name: "Nurse",
            pos: (12.5, 19.0),
            anchor: (12.5, 19.0),
            home: Some((12.5, 19.0)),
        },
    ];
    let (_, p2) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(p2.town, player.town);
    assert_eq!(p2.town.len(), 3, "three town people");
    // A session from the save puts the Guide where he was, with his home.
    let s = Session::from_save(world.clone(), p2);
    assert_eq!(s.guide().home, Some((31.5, 20.0)));
    assert_eq!(s.guide().anchor, (44.5, 18.0));
    assert_eq!(s.folk("Nurse").and_then(|n| n.home), Some((12.5, 19.0)));
    // And its save keeps him as he is.
    let again = s.player_state(crate::sim::session::LOCAL);
    assert_eq!(again.town[0].home, Some((31.5, 20.0)));
    assert_eq!(again.town[0].pos, s.guide().body.pos);
}

#[test]
fn older_saves_load_with_the_guide_beside_the_spawn_point() {
    let (world, mut player) = small();
    player.town = vec![guide_at_home()];
    let new = Session::new(world.clone()).guide().clone();
    for version in [1, 2, 3, 4, 5, 6] {
        let bytes = encode_as(&world, &player, version);
        let (w, p) = decode(&bytes).unwrap_or_else(|e| panic!("v{version}: {e}"));
        assert!(p.town.is_empty(), "v{version} had no town");
        let s = Session::from_save(w, p);
        assert!(s.guide().homeless(), "v{version}");
        assert_eq!(
            s.guide().body.pos,
            new.body.pos,
            "v{version}: placed as a new world's"
        );
    }
    // Format 6 never had a town section: one there is refused, not taken.
    let body = town_bytes(&player.town);
    let mut sections = sections_of(&world, &cat(), V6_WALL_BITS);
    sections.push((TOWN_TAG, body));
    let v6 = encode_with(&world, &player, 6, &sections);
    assert!(
        refusal(&v6).contains("unknown or repeated"),
        "{}",
        refusal(&v6)
    );
}

#[test]
fn a_damaged_town_section_is_refused_with_what_is_wrong() {
    let (world, player) = small();
    let with = |body: Vec<u8>| {
        let mut sections = sections_of(&world, &cat(), WALL_BITS);
        sections.push((TOWN_TAG, body));
        refusal(&encode_with(&world, &player, VERSION, &sections))
    };
    let good = town_bytes(&[guide_at_home()]);
    let mut stranger = good.clone();
    stranger[5..10].copy_from_slice(b"Ghost");
    let e = with(stranger);
    assert!(e.contains("\"Ghost\" is not a town person"), "{e}");
    let twice = town_bytes(&[guide_at_home(), guide_at_home()]);
    assert!(with(twice).contains("the Guide is listed twice"));
    let far = NpcState {
        pos: (500.0, 20.0),
        ..guide_at_home()
    };
    let e = with(town_bytes(&[far]));
    assert!(
        e.contains("the Guide at (500, 20) is outside the world"),
        "{e}"
    );
    let nan = NpcState {
        home: Some((f32::NAN, 3.0)),
        ..guide_at_home()
    };
    assert!(with(town_bytes(&[nan])).contains("outside the world"));
    let mut flag = good.clone();
    let at = good.len() - 9;
    flag[at] = 7;
    assert!(with(flag).contains("home flag is 7"));
    let mut extra = good.clone();
    extra.push(0);
    assert!(with(extra).contains("1 unexpected bytes after the town"));
    let mut many = good.clone();
    many[..4].copy_from_slice(&1000u32.to_le_bytes());
    assert!(with(many).contains("1000 town people"));
    assert!(with(good[..good.len() - 3].to_vec()).contains("truncated: ends in the town"));
}

#[test]
fn the_most_health_a_life_crystal_raised_is_kept() {
    let (world, mut player) = small();
    player.max_health = 160.0;
    player.health = 150.0;
    let (_, p2) = decode(&encode(&world, &player)).unwrap();
    assert_eq!((p2.health, p2.max_health), (150.0, 160.0));
    let s = Session::from_save(world.clone(), p2);
    assert_eq!(s.me().vitals.max_health, 160.0);
    // An older format has no most health: 100, as then.
    player.max_health = MAX_HEALTH;
    player.health = 90.0;
    let (_, p6) = decode(&encode_as(&world, &player, 6)).unwrap();
    assert_eq!(p6.max_health, MAX_HEALTH);
    // Damage is named.
    let with = |life: f32, health: f32| {
        let p = PlayerState {
            health,
            ..player.clone()
        };
        let mut sections = sections_of(&world, &cat(), WALL_BITS);
        sections.push((LIFE_TAG, life.to_le_bytes().to_vec()));
        refusal(&encode_with(&world, &p, VERSION, &sections))
    };
    assert!(with(5000.0, 50.0).contains("most health 5000"));
    assert!(with(f32::NAN, 50.0).contains("most health NaN"));
    assert!(with(120.0, 130.0).contains("health 130 above the most health 120"));
    let p = PlayerState {
        health: 130.0,
        ..player.clone()
    };
    let e = refusal(&encode(&world, &p));
    assert!(e.contains("health 130 above the most health 100"), "{e}");
}

/// Each damage of the town and life sections is told apart by its variant.
#[test]
fn town_and_life_damage_are_their_own_variants() {
    let (world, player) = small();
    let with = |tag: [u8; 4], body: Vec<u8>, health: f32| {
        let p = PlayerState {
            health,
            ..player.clone()
        };
        let mut sections = sections_of(&world, &cat(), WALL_BITS);
        sections.push((tag, body));
        decode(&encode_with(&world, &p, VERSION, &sections)).unwrap_err()
    };
    let town = |body: Vec<u8>| with(TOWN_TAG, body, player.health);
    let good = town_bytes(&[guide_at_home()]);
    let mut stranger = good.clone();
    stranger[5..10].copy_from_slice(b"Ghost");
    let e = town(stranger);
    assert!(
        matches!(&e, SaveError::NotATownPerson(n) if n == b"Ghost"),
        "{e:?}"
    );
    let e = town(town_bytes(&[guide_at_home(), guide_at_home()]));
    assert!(matches!(e, SaveError::TownTwice("Guide")), "{e:?}");
    let far = NpcState {
        pos: (500.0, 20.0),
        ..guide_at_home()
    };
    let e = town(town_bytes(&[far]));
    let outside = |e: &SaveError| matches!(e, SaveError::Outside { what: Placed::Town("Guide"), x, .. } if *x == 500.0);
    assert!(outside(&e), "{e:?}");
    let mut flag = good.clone();
    flag[good.len() - 9] = 7;
    let e = town(flag);
    assert!(
        matches!(
            e,
            SaveError::HomeFlag {
                name: "Guide",
                flag: 7
            }
        ),
        "{e:?}"
    );
    let mut many = good.clone();
    many[..4].copy_from_slice(&1000u32.to_le_bytes());
    let e = town(many);
    assert!(
        matches!(
            e,
            SaveError::TooMany {
                what: "town people",
                count: 1000,
                most: MAX_TOWN
            }
        ),
        "{e:?}"
    );
    // The most health: out of range, below the health, or not four bytes.
    let life = |most: f32, health: f32| with(LIFE_TAG, most.to_le_bytes().to_vec(), health);
    let e = life(5000.0, 50.0);
    assert!(
        matches!(e, SaveError::MostHealth { value, least, .. } if value == 5000.0 && least == MAX_HEALTH),
        "{e:?}"
    );
    let e = life(120.0, 130.0);
    assert!(
        matches!(e, SaveError::HealthAboveMost { health, most } if (health, most) == (130.0, 120.0)),
        "{e:?}"
    );
    let e = with(LIFE_TAG, vec![0; 3], player.health);
    assert!(
        matches!(
            e,
            SaveError::SectionLength {
                section: "most health",
                len: 3,
                expected: 4
            }
        ),
        "{e:?}"
    );
}

#[test]
fn the_newcomers_round_trip_and_come_back_in_the_names_order() {
    let (world, mut player) = small();
    let at = |name, x| NpcState {
        name,
        pos: (x, 19.0),
        anchor: (x, 19.0),
        home: Some((x, 19.0)),
    };
    player.town = vec![guide_at_home(), at("Arms Dealer", 60.5), at("Dryad", 20.5)];
    let (_, p2) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(p2.town, player.town);
    let s = Session::from_save(world.clone(), p2);
    let names: Vec<&str> = s.town().map(|n| n.name).collect();
    assert_eq!(names, ["Guide", "Dryad", "Arms Dealer"]);
    assert_eq!(s.folk("Dryad").and_then(|n| n.home), Some((20.5, 19.0)));
}
