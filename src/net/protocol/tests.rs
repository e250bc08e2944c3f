use super::*;
use crate::content::preset::Preset;
use crate::sim::projectiles::Look;
use crate::world::chest::Chest;

/// The built-in catalog, as a server and client without mods share.
fn cat() -> std::sync::Arc<Catalog> {
    crate::content::config::Content::builtin().catalog
}

fn cell(world: &World, x: usize, y: usize) -> Cell {
    super::cell(&cat(), world, x, y)
}

fn apply_cell(world: &mut World, c: &Cell) -> bool {
    super::apply_cell(&cat(), world, c)
}

fn region(world: &World, rx: usize, ry: usize) -> Region {
    super::region(&cat(), world, rx, ry)
}

fn apply_region(world: &mut World, r: &Region) -> Result<(), String> {
    super::apply_region(&cat(), world, r)
}

fn lying_of(world: &World) -> Vec<Lying> {
    super::lying_of(&cat(), world)
}

fn lying_in(items: &[Lying]) -> Vec<crate::world::dropped::Dropped> {
    super::lying_in(&cat(), items)
}

/// A world of stone below row 40, 150 x 100 tiles (three regions across, two down).
fn world() -> World {
    let mut w = World::new(150, 100, 7, Preset::default());
    for y in 40..100 {
        for x in 0..150 {
            w.set(x, y, Tile::Stone);
        }
    }
    w
}

fn chest_with(item: &str, n: u32) -> Chest {
    let mut c = Chest::empty();
    let cat = cat();
    c.add(&cat, cat.id(item).unwrap(), n);
    c
}

#[test]
fn messages_round_trip() {
    let msgs = vec![
        ToServer::Hello {
            version: VERSION,
            name: "Ada".into(),
            password: "pw".into(),
            server_password: String::new(),
            content: crate::content::config::Content::builtin().files,
        },
        ToServer::Input {
            seq: 9,
            intents: vec![
                Intent::Move {
                    axis: -1,
                    jump: true,
                },
                Intent::Use { at: Some((3, -4)) },
                Intent::View { half: (30.0, 17.5) },
            ],
        },
        ToServer::Say("hello".into()),
    ];
    for m in msgs {
        let bytes = encode(&m);
        assert_eq!(decode::<ToServer>(&bytes), Ok(m.clone()));
    }
}

#[test]
fn every_truncation_and_any_trailing_byte_is_refused() {
    let m = ToClient::Cells(vec![cell(&world(), 5, 50), cell(&world(), 6, 20)]);
    let bytes = encode(&m);
    for n in 0..bytes.len() {
        assert!(
            decode::<ToClient>(&bytes[..n]).is_err(),
            "prefix of {n} bytes"
        );
    }
    let mut more = bytes.clone();
    more.push(0);
    assert!(matches!(
        decode::<ToClient>(&more),
        Err(DecodeError::Malformed(_))
    ));
}

#[test]
fn an_oversized_message_is_refused_before_decoding() {
    let big = vec![0u8; MAX_MESSAGE + 1];
    assert_eq!(
        decode::<ToServer>(&big),
        Err(DecodeError::TooLong(MAX_MESSAGE + 1))
    );
}

#[test]
fn a_claimed_length_beyond_the_bytes_fails_without_allocating_it() {
    // Say with a string of claimed length 2^35 (LEB128), then 3 bytes.
    let bytes = [3u8, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, b'a', b'b', b'c'];
    assert!(decode::<ToServer>(&bytes).is_err());
}

#[test]
fn regions_carry_tiles_walls_and_chests() {
    let untouched = world();
    let mut w = world();
    w.set(70, 45, Tile::Air);
    w.set_wall(71, 45, Wall::from_u8(1).unwrap());
    w.set(130, 90, Tile::Chest);
    w.chests.insert(130, 90, chest_with("wood", 7));
    let differs: Vec<(usize, usize)> = (0..2)
        .flat_map(|ry| (0..3).map(move |rx| (rx, ry)))
        .filter(|&(rx, ry)| region_differs(&w, &untouched, rx, ry))
        .collect();
    assert_eq!(differs, vec![(1, 0), (2, 1)]);
    let mut copy = untouched.clone();
    for &(rx, ry) in &differs {
        apply_region(&mut copy, &region(&w, rx, ry)).unwrap();
    }
    assert_eq!(view_hash(&copy), view_hash(&w));
    assert_ne!(view_hash(&untouched), view_hash(&w));
    assert_eq!(copy.chests.get(130, 90), w.chests.get(130, 90));
}

#[test]
fn a_region_replaces_the_chests_it_covers() {
    let mut w = world();
    w.set(10, 10, Tile::Chest);
    w.chests.insert(10, 10, chest_with("wood", 2));
    let clean = world();
    let r = region(&clean, 0, 0);
    apply_region(&mut w, &r).unwrap();
    assert!(w.chests.get(10, 10).is_none());
    assert_eq!(view_hash(&w), view_hash(&clean));
}

#[test]
fn a_bad_region_is_refused_with_why() {
    let mut w = world();
    let mut r = region(&w, 0, 0);
    r.rx = 9;
    assert!(apply_region(&mut w, &r).unwrap_err().contains("outside"));
    // A deflate bomb: 1 MB of zeros inflates past the limit.
    use std::io::Write;
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&vec![0u8; 1 << 20]).unwrap();
    let bomb = Region {
        rx: 0,
        ry: 0,
        data: z.finish().unwrap(),
    };
    assert!(
        apply_region(&mut w, &bomb)
            .unwrap_err()
            .contains("inflates")
    );
    let junk = Region {
        rx: 0,
        ry: 0,
        data: vec![1, 2, 3],
    };
    assert!(apply_region(&mut w, &junk).is_err());
}

#[test]
fn regions_go_nearest_first() {
    let untouched = world();
    let mut w = world();
    w.set(5, 5, Tile::Stone);
    w.set(140, 95, Tile::Air);
    let near_right = regions_to_send(&w, &untouched, false, (149.0, 99.0));
    assert_eq!(near_right, vec![(2, 1), (0, 0)]);
    let near_left = regions_to_send(&w, &untouched, false, (0.0, 0.0));
    assert_eq!(near_left, vec![(0, 0), (2, 1)]);
    assert_eq!(regions_to_send(&w, &untouched, true, (0.0, 0.0)).len(), 6);
}

#[test]
fn a_cell_with_an_unknown_tile_or_outside_is_not_applied() {
    let mut w = world();
    let mut c = cell(&w, 3, 3);
    c.tile = 250;
    assert!(!apply_cell(&mut w, &c));
    let mut c = cell(&w, 3, 3);
    c.x = 1000;
    assert!(!apply_cell(&mut w, &c));
    let mut c = cell(&w, 3, 60);
    c.tile = Tile::Air as u8;
    assert!(apply_cell(&mut w, &c));
    assert_eq!(w.tile(3, 60), Tile::Air);
}

#[test]
fn a_full_snapshot_round_trips_within_the_bound() {
    use crate::sim::session::Session;
    use crate::world::dropped::Dropped;
    let mut s = Session::new(world());
    let gel = cat().id("gel").unwrap();
    // The most items a world keeps, in one snapshot: under the bound, and back.
    for i in 0..crate::sim::drops::MAX_ITEMS {
        let stack = Stack {
            item: gel,
            count: 1 + i as u32 % 9,
        };
        s.world
            .dropped
            .push(Dropped::new(stack, (i as f32 * 0.3, 20.0), None));
    }
    let items = lying_of(&s.world);
    let msg = ToClient::Snapshot {
        tick: 1,
        time: 0.5,
        bodies: vec![],
        beasts: vec![],
        items: items.clone(),
        hearts: vec![(1.0, 2.0)],
        boss: Some(eye_of(&crate::sim::boss::Boss::new(
            (40.0, 10.0),
            &s.content.rules,
        ))),
        rival: Some(foe_of(&crate::sim::boss::Rival::new(
            crate::sim::boss::Form::Eater(crate::sim::boss::eater::Eater::new((5.0, 5.0))),
        ))),
        town: crate::sim::npc::NAMES
            .iter()
            .map(|n| Folk {
                name: n.to_string(),
                pos: (f32::MAX, f32::MIN),
                vel: (f32::MAX, f32::MAX),
                facing: -1,
            })
            .collect(),
        // The most projectiles a snapshot carries, of every look.
        shots: (0..MAX_SHOTS)
            .map(|i| Shot {
                look: [
                    Look::Arrow,
                    Look::FlamingArrow,
                    Look::Bolt,
                    Look::Shuriken,
                    Look::Bomb,
                    Look::Dynamite,
                ][i % 6],
                pos: (i as f32 * 0.5, f32::MAX),
                vel: (-30.0, f32::MIN),
            })
            .collect(),
        // And the most casters' bolts, each named at length.
        bolts: (0..MAX_BOLTS)
            .map(|i| Bolt {
                from: "x".repeat(64),
                pos: (i as f32, f32::MAX),
                vel: (f32::MIN, f32::MAX),
            })
            .collect(),
        progress: crate::world::progress::Progress {
            nights: u64::MAX,
            wall_defeated: u32::MAX,
            ..Default::default()
        },
    };
    let bytes = encode(&msg);
    assert!(bytes.len() < MAX_MESSAGE, "{} bytes", bytes.len());
    assert_eq!(decode::<ToClient>(&bytes), Ok(msg));
    assert_eq!(lying_in(&items), s.world.dropped);
    let odd = [
        Lying {
            name: "no such item".into(),
            count: 1,
            pos: (0.0, 0.0),
        },
        Lying {
            name: "gel".into(),
            count: 0,
            pos: (0.0, 0.0),
        },
    ];
    assert!(lying_in(&odd).is_empty(), "unknown or empty: left out");
}

#[test]
fn the_eye_goes_out_and_comes_back_as_the_server_has_it() {
    use crate::sim::boss::{Boss, Mode, Phase};
    let rules = &crate::content::rules::Rules::default();
    let mut b = Boss::new((30.5, 12.25), rules);
    b.vel = (-4.0, 2.5);
    b.health = b.max * 0.4;
    b.phase = Phase::Two;
    b.hit_flash = 0.05;
    b.spin = 1.5;
    b.mode = Mode::Turn { left: 0.3 };
    let e = eye_of(&b);
    let back = decode::<Eye>(&encode(&e)).unwrap();
    let shown = boss_in(&back, rules).unwrap();
    assert_eq!((shown.pos, shown.vel), (b.pos, b.vel));
    assert_eq!(
        (shown.health, shown.max, shown.phase),
        (b.health, b.max, b.phase)
    );
    assert!(shown.hit_flash > 0.0 && shown.spin == b.spin);
    assert!(
        matches!(shown.mode, Mode::Turn { .. }),
        "it spins as it turns"
    );
    // Health over the most is cut to it; numbers that make no sense show no Eye.
    let over = Eye {
        health: 1e9,
        ..e.clone()
    };
    assert_eq!(boss_in(&over, rules).map(|b| b.health), Some(b.max));
    let odd = Eye {
        pos: (f32::NAN, 0.0),
        ..e.clone()
    };
    assert!(boss_in(&odd, rules).is_none());
    assert!(boss_in(&Eye { max: 0.0, ..e }, rules).is_none());
}

#[test]
fn projectiles_in_flight_round_trip_through_a_snapshot_and_broken_ones_are_left_out() {
    let mut s =
        crate::sim::session::Session::new(crate::world::World::new(64, 64, 1, Preset::default()));
    let p = |look, pos, vel| crate::sim::projectiles::Projectile {
        look,
        pos,
        vel,
        owner: 0,
        damage: 9.0,
        pierce: 0,
        life: 1.0,
        blast: None,
    };
    s.projectiles = vec![
        p(Look::Arrow, (3.0, 4.0), (20.0, -1.5)),
        p(Look::Bomb, (10.5, 2.25), (0.0, 0.0)),
    ];
    let shots = shots_of(&s);
    let bytes = encode(&shots);
    let back: Vec<Shot> = decode(&bytes).unwrap();
    let drawn = shots_in(&back);
    let seen: Vec<_> = drawn.iter().map(|p| (p.look, p.pos, p.vel)).collect();
    let sent: Vec<_> = s
        .projectiles
        .iter()
        .map(|p| (p.look, p.pos, p.vel))
        .collect();
    assert_eq!(seen, sent);
    let broken = [Shot {
        look: Look::Bolt,
        pos: (f32::NAN, 1.0),
        vel: (0.0, 0.0),
    }];
    assert!(shots_in(&broken).is_empty());
    let many = vec![back[0].clone(); MAX_SHOTS + 10];
    assert_eq!(shots_in(&many).len(), MAX_SHOTS);
}
