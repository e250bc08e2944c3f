//! Tests of the wall rules: placing walls, taking them down with a hammer, torches on walls.

use super::*;
use crate::sim::player::Player;

/// The built-in content, as a session without mods plays by.
fn content() -> crate::content::config::Content {
    crate::content::config::Content::builtin()
}

/// Air over a stone floor at row 10; the player stands at (10, 10) holding `item` in slot 0.
fn holding(item: &str, n: u32) -> (World, Player, Inventory) {
    let mut w = World::new(30, 20, 0, crate::content::preset::Preset::default());
    for y in 10..20 {
        for x in 0..30 {
            w.set(x, y, Tile::Stone);
        }
    }
    let mut inv = Inventory::empty(&content().catalog);
    inv.add(item, n);
    inv.select(0);
    (w, Player::new((10.5, 10.0)), inv)
}

#[test]
fn walls_go_into_empty_slots_next_to_a_tile_or_a_wall_and_use_the_inventory() {
    let (mut w, p, mut inv) = holding("wood_wall", 3);
    assert_eq!(inv.selected_wall(), Some(Wall::Wood));
    // Floating in the air with nothing beside it: refused, nothing taken.
    assert_eq!(
        try_place_wall(&mut w, &p, &mut inv, 12, 6),
        Err(EditRefusal::NoSupport)
    );
    // On the floor (a solid tile below), behind the player's own body.
    assert_eq!(try_place_wall(&mut w, &p, &mut inv, 10, 9), Ok(Wall::Wood));
    assert_eq!(w.wall(10, 9), Wall::Wood);
    assert_eq!(w.tile(10, 9), Tile::Air, "a wall leaves the tile alone");
    // Then up from that wall, one on the other.
    assert_eq!(try_place_wall(&mut w, &p, &mut inv, 10, 8), Ok(Wall::Wood));
    assert_eq!(
        try_place_wall(&mut w, &p, &mut inv, 10, 8),
        Err(EditRefusal::WallThere)
    );
    // Behind a solid tile.
    assert_eq!(try_place_wall(&mut w, &p, &mut inv, 12, 11), Ok(Wall::Wood));
    assert_eq!(inv.count("wood_wall"), 0);
    assert_eq!(
        try_place_wall(&mut w, &p, &mut inv, 11, 9),
        Err(EditRefusal::NothingSelected)
    );
    assert_eq!(
        try_place_wall(&mut w, &p, &mut inv, 25, 9),
        Err(EditRefusal::OutOfReach)
    );
}

#[test]
fn a_hammer_takes_walls_down_in_time_and_gives_placed_ones_back() {
    let (mut w, p, mut inv) = holding("wooden_hammer", 1);
    inv.add("wood_wall", 5);
    w.set_wall(11, 9, Wall::Wood);
    w.set_wall(12, 9, Wall::Dirt);
    w.set_wall(9, 9, Wall::Ash);
    let (wall, need) = check_hammer(&w, &p, &inv, 11, 9).unwrap();
    assert_eq!(wall, Wall::Wood);
    assert!(
        (need - Wall::Wood.info().hammer_time).abs() < 1e-6,
        "speed 1"
    );
    let mut d = DigState::default();
    assert_eq!(
        d.update(&mut w, &p, &mut inv, 11, 9, need / 2.0),
        DigStep::Digging(0.5)
    );
    assert_eq!(w.wall(11, 9), Wall::Wood, "not down yet");
    assert_eq!(
        d.update(&mut w, &p, &mut inv, 11, 9, need / 2.0),
        DigStep::Hammered {
            x: 11,
            y: 9,
            wall: Wall::Wood
        }
    );
    assert_eq!(w.wall(11, 9), Wall::None);
    assert_eq!(inv.count("wood_wall"), 6, "a placed wall comes back");
    // A natural wall comes down for nothing; the floor tile under the target stays.
    let (_, need) = check_hammer(&w, &p, &inv, 12, 9).unwrap();
    assert!(matches!(
        d.update(&mut w, &p, &mut inv, 12, 9, need),
        DigStep::Hammered { .. }
    ));
    assert_eq!(inv.count("wood_wall"), 6);
    assert_eq!(w.tile(12, 10), Tile::Stone);
    // Nothing there; an ash wall needs a metal hammer.
    assert_eq!(check_hammer(&w, &p, &inv, 11, 9), Err(EditRefusal::NoWall));
    let e = check_hammer(&w, &p, &inv, 9, 9).unwrap_err();
    assert_eq!(e, EditRefusal::NeedHammer(Wall::Ash.info().power));
    assert_eq!(e.text(&content().catalog), "needs a copper hammer");
    inv.remove("wooden_hammer", 1);
    inv.add("copper_hammer", 1);
    inv.select(
        inv.slots()
            .iter()
            .position(|s| {
                s.is_some_and(|s| s.item == content().catalog.id("copper_hammer").unwrap())
            })
            .unwrap(),
    );
    let (_, fast) = check_hammer(&w, &p, &inv, 9, 9).unwrap();
    assert!(
        fast < Wall::Ash.info().hammer_time,
        "a better hammer is faster"
    );
}

#[test]
fn a_full_inventory_hammers_and_the_wall_is_given_to_drop() {
    let (mut w, p, mut inv) = holding("wooden_hammer", 1);
    for _ in 1..crate::world::inventory::SLOTS {
        inv.add("gold_pickaxe", 1);
    }
    assert_eq!(inv.room_for("wood_wall"), 0);
    w.set_wall(11, 9, Wall::Wood);
    w.set_wall(12, 9, Wall::Stone);
    let mut d = DigState::default();
    let step = d.update(&mut w, &p, &mut inv, 11, 9, 10.0);
    assert_eq!(w.wall(11, 9), Wall::None);
    let item = content().catalog.id("wood_wall").unwrap();
    assert_eq!(
        step.gives(&content().catalog),
        Some((Stack { item, count: 1 }, (11, 9)))
    );
    // A natural wall gives nothing.
    assert!(w.wall(12, 9).info().natural);
    let step = d.update(&mut w, &p, &mut inv, 12, 9, 10.0);
    assert!(matches!(step, DigStep::Hammered { .. }), "{step:?}");
    assert_eq!(step.gives(&content().catalog), None);
}

#[test]
fn with_a_hammer_held_the_dig_button_never_digs_tiles() {
    let (mut w, p, mut inv) = holding("wooden_hammer", 1);
    inv.add("gold_pickaxe", 1);
    let mut d = DigState::default();
    // No wall behind the floor tile: refused, and the tile stays.
    assert_eq!(
        d.update(&mut w, &p, &mut inv, 10, 10, 10.0),
        DigStep::Refused(EditRefusal::NoWall)
    );
    assert_eq!(w.tile(10, 10), Tile::Stone);
    // Without a hammer selected there is no hammering.
    inv.select(1);
    w.set_wall(11, 9, Wall::Stone);
    assert_eq!(
        check_hammer(&w, &p, &inv, 11, 9),
        Err(EditRefusal::NeedHammer(1))
    );
}

#[test]
fn a_torch_hangs_on_a_wall_in_open_air() {
    let (mut w, p, _) = holding("torch", 1);
    let mut inv = Inventory::empty(&content().catalog);
    inv.add("torch", 2);
    inv.select(0);
    // In open cave air with nothing solid beside it: refused without a wall...
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 12, 6),
        Err(EditRefusal::NoSupport)
    );
    // ...and it stays on a wall.
    w.set_wall(12, 6, Wall::Stone);
    assert_eq!(try_place(&mut w, &p, &mut inv, 12, 6), Ok(Tile::Torch));
    assert_eq!(w.tile(12, 6), Tile::Torch);
}

#[test]
fn a_trophy_hangs_only_on_a_wall_and_the_wall_stays_while_it_hangs() {
    let (mut w, p, mut inv) = holding("eye_trophy", 2);
    assert_eq!(inv.selected_tile(), Some(Tile::EyeTrophy));
    // In the air over the floor, beside a block, with no wall behind: refused.
    w.set(13, 8, Tile::Stone);
    for at in [(12, 9), (12, 8)] {
        assert_eq!(
            try_place(&mut w, &p, &mut inv, at.0, at.1),
            Err(EditRefusal::NoSupport),
            "{at:?}"
        );
    }
    assert_eq!(inv.count("eye_trophy"), 2, "nothing taken");
    // On a wall, up in the air: it hangs there, walked through.
    w.set_wall(11, 7, Wall::Wood);
    assert_eq!(try_place(&mut w, &p, &mut inv, 11, 7), Ok(Tile::EyeTrophy));
    assert_eq!(
        (w.tile(11, 7), inv.count("eye_trophy")),
        (Tile::EyeTrophy, 1)
    );
    assert!(!Tile::EyeTrophy.is_solid());
    // A hammer does not take the wall down from behind it.
    inv.add("wooden_hammer", 1);
    let hammer = inv
        .slots()
        .iter()
        .position(|s| s.is_some_and(|s| s.item == content().catalog.id("wooden_hammer").unwrap()))
        .unwrap();
    inv.select(hammer);
    let e = check_hammer(&w, &p, &inv, 11, 7).unwrap_err();
    assert_eq!(e, EditRefusal::HangsThere(Tile::EyeTrophy));
    assert_eq!(e.text(&content().catalog), "the eye trophy hangs on it");
    // Taken down by hand, it goes back into the inventory; then the wall may go.
    assert_eq!(try_dig(&mut w, &p, &mut inv, 11, 7), Ok(Tile::EyeTrophy));
    assert_eq!(inv.count("eye_trophy"), 2);
    assert!(check_hammer(&w, &p, &inv, 11, 7).is_ok());
}

#[test]
fn a_hammer_smashes_a_shadow_orb_and_a_pickaxe_cannot() {
    let (mut w, p, mut inv) = holding("gold_pickaxe", 1);
    w.set(11, 9, Tile::ShadowOrb);
    let mut d = DigState::default();
    let step = d.update(&mut w, &p, &mut inv, 11, 9, 10.0);
    assert_eq!(step, DigStep::Refused(EditRefusal::SmashWithHammer));
    assert!(step_text(&step).contains("hammer"));
    assert_eq!(w.tile(11, 9), Tile::ShadowOrb);
    let (mut w2, p, mut inv) = holding("wooden_hammer", 1);
    w2.set(11, 9, Tile::ShadowOrb);
    let mut d = DigState::default();
    assert!(matches!(
        d.update(&mut w2, &p, &mut inv, 11, 9, 0.1),
        DigStep::Digging(_)
    ));
    let step = d.update(&mut w2, &p, &mut inv, 11, 9, ORB_TIME);
    assert_eq!(step, DigStep::Smashed { x: 11, y: 9 });
    assert_eq!(
        step.gives(&content().catalog),
        None,
        "the session draws the orb's loot"
    );
    assert_eq!(w2.tile(11, 9), Tile::Air);
}

#[test]
fn dungeon_brick_refuses_the_first_tiers_of_pickaxe() {
    let (mut w, p, inv) = holding("gold_pickaxe", 1);
    w.set(11, 10, Tile::DungeonBrick);
    let e = check_mine(&w, &p, &inv, 11, 10).unwrap_err();
    assert_eq!(e, EditRefusal::TooWeak(65));
    let text = e.text(&content().catalog);
    assert!(text.contains("pickaxe power 65"), "{text}");
    w.set(11, 10, Tile::Ebonstone);
    assert!(
        check_mine(&w, &p, &inv, 11, 10).is_ok(),
        "a gold pickaxe mines ebonstone"
    );
}

fn step_text(step: &DigStep) -> String {
    match step {
        DigStep::Refused(e) => e.text(&content().catalog),
        _ => String::new(),
    }
}
