//! Tests of the dig and place rules: reach, dig times, inventory counts, and every refusal.

use super::*;
use crate::sim::player::Player;

/// The built-in content, as a session without mods plays by.
fn content() -> crate::content::config::Content {
    crate::content::config::Content::builtin()
}

/// Air over a stone floor at row 10; the player stands at (10, 10).
fn setup() -> (World, Player, Inventory) {
    let mut w = World::new(30, 20, 0, crate::content::preset::Preset::default());
    for y in 10..20 {
        for x in 0..30 {
            w.set(x, y, Tile::Stone);
        }
    }
    w.set(11, 10, Tile::Grass);
    w.set(12, 10, Tile::DiamondOre);
    let mut inv = Inventory::empty(&content().catalog);
    inv.add("gold_pickaxe", 1);
    (w, Player::new((10.5, 10.0)), inv)
}

/// How long the setup's gold pickaxe takes on `tile`.
fn gold_time(tile: Tile) -> f32 {
    let (.., inv) = setup();
    crate::content::items::mine_time(&content().catalog, tile, inv.best_pickaxe()).unwrap()
}

#[test]
fn dig_times_order_by_hardness() {
    let t = |tile| dig_time(tile).unwrap();
    assert!(t(Tile::Dirt) < t(Tile::Stone) && t(Tile::Stone) < t(Tile::IronOre));
    assert!(t(Tile::IronOre) < t(Tile::GoldOre) && t(Tile::GoldOre) < t(Tile::DiamondOre));
    assert_eq!(t(Tile::Grass), t(Tile::Dirt));
    assert_eq!((dig_time(Tile::Air), dig_time(Tile::Water)), (None, None));
}

#[test]
fn digging_fills_the_inventory_and_grass_drops_dirt() {
    let (mut w, p, mut inv) = setup();
    assert_eq!(try_dig(&mut w, &p, &mut inv, 11, 10), Ok(Tile::Dirt));
    assert_eq!(w.tile(11, 10), Tile::Air);
    assert_eq!(try_dig(&mut w, &p, &mut inv, 10, 10), Ok(Tile::Stone));
    assert_eq!(
        (
            inv.count(Tile::Dirt),
            inv.count(Tile::Stone),
            inv.count(Tile::Grass)
        ),
        (1, 1, 0)
    );
    assert_eq!(
        try_dig(&mut w, &p, &mut inv, 10, 5),
        Err(EditRefusal::NothingToDig)
    );
}

#[test]
fn reach_and_world_edges() {
    let (mut w, p, mut inv) = setup();
    assert!(can_reach(&p, 10, 14, REACH) && !can_reach(&p, 10, 16, REACH));
    assert!(can_reach(&p, 15, 9, REACH) && !can_reach(&p, 17, 9, REACH));
    assert_eq!(
        try_dig(&mut w, &p, &mut inv, 10, 16),
        Err(EditRefusal::OutOfReach)
    );
    assert_eq!(
        try_dig(&mut w, &p, &mut inv, -1, 9),
        Err(EditRefusal::OutOfWorld)
    );
    let edge = Player::new((0.5, 10.0));
    assert_eq!(
        try_dig(&mut w, &edge, &mut inv, -1, 10),
        Err(EditRefusal::OutOfWorld)
    );
    assert_eq!(w.tile(10, 16), Tile::Stone);
    assert_eq!(inv, setup().2);
    // The bottom row holds the world up: standing just above it, it is in reach but
    // cannot be dug.
    let deep = Player::new((10.5, 18.0));
    assert_eq!(
        try_dig(&mut w, &deep, &mut inv, 10, 19),
        Err(EditRefusal::WorldFloor)
    );
    assert_eq!(try_dig(&mut w, &deep, &mut inv, 10, 18), Ok(Tile::Stone));
}

#[test]
fn dig_takes_time_and_restarts_on_a_new_target() {
    let (mut w, p, mut inv) = setup();
    let mut d = DigState::default();
    let diamond = gold_time(Tile::DiamondOre);
    // Half the time on diamond, then a switch to stone restarts the clock.
    assert_eq!(
        d.update(&mut w, &p, &mut inv, 12, 10, diamond / 2.0),
        DigStep::Digging(0.5)
    );
    assert!(matches!(d.update(&mut w, &p, &mut inv, 10, 10, 0.1), DigStep::Digging(f) if f < 1.0));
    assert!(
        matches!(d.update(&mut w, &p, &mut inv, 12, 10, diamond / 2.0), DigStep::Digging(f) if f <= 0.5)
    );
    assert_eq!(w.tile(12, 10), Tile::DiamondOre);
    assert_eq!(
        d.update(&mut w, &p, &mut inv, 12, 10, diamond / 2.0),
        DigStep::Dug {
            x: 12,
            y: 10,
            drop: Tile::DiamondOre
        }
    );
    assert_eq!(w.tile(12, 10), Tile::Air);
    assert_eq!(inv.count(Tile::DiamondOre), 1);
    assert_eq!(
        d.update(&mut w, &p, &mut inv, 12, 10, 0.5),
        DigStep::Refused(EditRefusal::NothingToDig)
    );
    // Dirt is quicker than stone.
    let (mut w, p, mut inv) = setup();
    let mut d = DigState::default();
    let t = gold_time(Tile::Dirt);
    assert!(matches!(
        d.update(&mut w, &p, &mut inv, 11, 10, t),
        DigStep::Dug { .. }
    ));
    assert!(matches!(
        d.update(&mut w, &p, &mut inv, 10, 10, t),
        DigStep::Digging(_)
    ));
}

#[test]
fn digging_needs_a_pickaxe_strong_enough() {
    let (mut w, p, _) = setup();
    let mut bare = Inventory::empty(&content().catalog);
    assert_eq!(
        try_dig(&mut w, &p, &mut bare, 10, 10),
        Err(EditRefusal::NeedPickaxe)
    );
    let mut copper = Inventory::starting(&content().catalog);
    assert_eq!(
        try_dig(&mut w, &p, &mut copper, 12, 10),
        Err(EditRefusal::TooWeak(55))
    );
    assert!(
        EditRefusal::TooWeak(55)
            .text(&content().catalog)
            .contains("gold pickaxe")
    );
    assert_eq!(w.tile(12, 10), Tile::DiamondOre);
    assert_eq!(try_dig(&mut w, &p, &mut copper, 10, 10), Ok(Tile::Stone));
    // A torch comes off by hand.
    w.set(13, 9, Tile::Torch);
    assert_eq!(try_dig(&mut w, &p, &mut bare, 13, 9), Ok(Tile::Torch));
    // A full inventory digs all the same; what it gives is the session's to drop.
    let mut full = Inventory::empty(&content().catalog);
    for _ in 0..crate::world::inventory::SLOTS {
        full.add("gold_pickaxe", 1);
    }
    assert_eq!(full.room_for(drop_of(Tile::Grass)), 0);
    assert!(check_mine(&w, &p, &full, 11, 10).is_ok());
    let mut d = DigState::default();
    let step = d.update(&mut w, &p, &mut full, 11, 10, 10.0);
    assert_eq!(w.tile(11, 10), Tile::Air);
    let dirt = drop_of(Tile::Grass).as_item(&content().catalog).unwrap();
    assert_eq!(
        step.gives(&content().catalog),
        Some((
            Stack {
                item: dirt,
                count: 1
            },
            (11, 10)
        ))
    );
}

#[test]
fn place_needs_inventory_and_uses_it() {
    let (mut w, p, mut inv) = setup();
    inv.add(Tile::Stone, 2);
    inv.select(1); // stone
    assert_eq!(try_place(&mut w, &p, &mut inv, 13, 9), Ok(Tile::Stone));
    assert_eq!(try_place(&mut w, &p, &mut inv, 13, 8), Ok(Tile::Stone)); // on the first
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 14, 9),
        Err(EditRefusal::NothingSelected)
    );
    assert_eq!(inv.count(Tile::Stone), 0);
    assert_eq!(
        (w.tile(13, 9), w.tile(13, 8), w.tile(14, 9)),
        (Tile::Stone, Tile::Stone, Tile::Air)
    );
    // A pickaxe is no block.
    inv.select(0);
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 14, 9),
        Err(EditRefusal::NothingSelected)
    );
}

#[test]
fn furniture_stands_on_the_ground() {
    let (mut w, p, mut inv) = setup();
    inv.add(Tile::Workbench, 2);
    inv.select(1);
    w.set(14, 9, Tile::Stone);
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 13, 8),
        Err(EditRefusal::NoSupport),
        "beside a wall is not on the ground"
    );
    assert_eq!(try_place(&mut w, &p, &mut inv, 13, 9), Ok(Tile::Workbench));
    assert!(!Tile::Workbench.is_solid(), "walked through, as a torch");
    // Furniture comes off by hand and goes back into the inventory.
    assert_eq!(
        try_dig(&mut w, &p, &mut Inventory::empty(&content().catalog), 13, 9),
        Ok(Tile::Workbench)
    );
}

#[test]
fn place_refusals() {
    let (mut w, p, mut inv) = setup();
    inv.add(Tile::Dirt, 10);
    inv.select(1);
    let before = w.clone();
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 10, 10),
        Err(EditRefusal::Occupied)
    );
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 10, 9),
        Err(EditRefusal::WouldTrapPlayer)
    );
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 10, 8),
        Err(EditRefusal::WouldTrapPlayer)
    );
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 13, 5),
        Err(EditRefusal::NoSupport)
    );
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 20, 9),
        Err(EditRefusal::OutOfReach)
    );
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 10, -1),
        Err(EditRefusal::OutOfWorld)
    );
    assert_eq!(w.tiles(), before.tiles());
    assert_eq!(inv.count(Tile::Dirt), 10);
    // Right beside the body is fine.
    assert_eq!(try_place(&mut w, &p, &mut inv, 11, 9), Ok(Tile::Dirt));
}

#[test]
fn torches_hang_on_solid_tiles_and_may_overlap_the_player() {
    let (mut w, p, _) = setup();
    let mut inv = Inventory::starting(&content().catalog);
    inv.select(2);
    assert_eq!(inv.selected_tile(), Some(Tile::Torch));
    assert_eq!(try_place(&mut w, &p, &mut inv, 10, 9), Ok(Tile::Torch)); // on the floor, in the body
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 12, 7),
        Err(EditRefusal::NoSupport)
    );
    w.set(13, 7, Tile::Stone);
    assert_eq!(try_place(&mut w, &p, &mut inv, 12, 7), Ok(Tile::Torch)); // beside a wall
    assert_eq!(inv.count(Tile::Torch), START_TORCHES - 2);
    let mut d = DigState::default();
    assert_eq!(
        d.update(&mut w, &p, &mut inv, 12, 7, 0.0),
        DigStep::Dug {
            x: 12,
            y: 7,
            drop: Tile::Torch
        }
    );
    assert_eq!(inv.count(Tile::Torch), START_TORCHES - 1);
}

#[test]
fn hotbar_selects_and_wraps() {
    let mut inv = Inventory::starting(&content().catalog);
    assert_eq!((inv.selected(), inv.selected_tile()), (0, None));
    inv.scroll(-1);
    assert_eq!(inv.selected(), 8);
    inv.scroll(2);
    assert_eq!(inv.selected(), 1);
    inv.scroll(9 * 5 + 1);
    assert_eq!(inv.selected(), 2);
    assert_eq!(inv.selected_tile(), Some(Tile::Torch));
    inv.select(42);
    assert_eq!(inv.selected(), 2);
    let slots = *inv.slots();
    assert_eq!(Inventory::from_parts(&content().catalog, slots, 9), None);
    assert_eq!(
        Inventory::from_parts(&content().catalog, slots, 2),
        Some(inv)
    );
}

#[test]
fn blocks_can_be_built_into_water_but_torches_cannot() {
    let (mut w, p, mut inv) = setup();
    w.set(13, 9, Tile::Water);
    w.set(14, 9, Tile::Water);
    inv.add(Tile::Dirt, 1);
    inv.select(1); // dirt
    assert_eq!(try_place(&mut w, &p, &mut inv, 13, 9), Ok(Tile::Dirt));
    assert_eq!(w.tile(13, 9), Tile::Dirt, "the water gave way");
    inv.add(Tile::Torch, 1);
    inv.select(1);
    assert_eq!(inv.selected_tile(), Some(Tile::Torch));
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 14, 9),
        Err(EditRefusal::Occupied)
    );
    assert_eq!(w.tile(14, 9), Tile::Water);
}

#[test]
fn cutting_a_trunk_fells_the_tree_for_wood() {
    let mut w = World::from_ascii(&[
        "          ",
        "  %%%     ",
        " %%|%%    ",
        "   |      ",
        "   |      ",
        "..........",
    ])
    .unwrap();
    let p = Player::new((5.0, 5.0));
    let mut inv = Inventory::empty(&content().catalog);
    let mut dig = DigState::default();
    let mut step = dig.update(&mut w, &p, &mut inv, 3, 4, 0.0);
    for _ in 0..100 {
        if !matches!(step, DigStep::Digging(_)) {
            break;
        }
        step = dig.update(&mut w, &p, &mut inv, 3, 4, 0.05);
    }
    let DigStep::Felled {
        drop, count, tiles, ..
    } = step
    else {
        panic!("{step:?}");
    };
    assert_eq!((drop, count, tiles.len()), (Tile::Wood, 3, 3 + 7));
    assert_eq!(inv.count(Tile::Wood), 3);
    assert!((0..5).all(|y| (0..10).all(|x| w.tile(x, y) == Tile::Air)));
    // Wood is a block in the hotbar that builds like the others.
    inv.select(0);
    assert_eq!(try_place(&mut w, &p, &mut inv, 3, 4), Ok(Tile::Wood));
    assert!(Tile::Wood.is_solid());
}

#[test]
fn the_ground_under_furniture_stays_while_it_stands() {
    for furniture in crate::sim::edit::FURNITURE {
        let (mut w, p, mut inv) = setup();
        w.set(12, 9, furniture);
        w.set(12, 10, Tile::Dirt);
        assert_eq!(
            try_dig(&mut w, &p, &mut inv, 12, 10),
            Err(EditRefusal::HoldsUp(furniture)),
            "{furniture:?}"
        );
        assert_eq!(w.tile(12, 10), Tile::Dirt);
        // Once the furniture is gone, the ground comes up.
        assert_eq!(try_dig(&mut w, &p, &mut inv, 12, 9), Ok(drop_of(furniture)));
        assert_eq!(try_dig(&mut w, &p, &mut inv, 12, 10), Ok(Tile::Dirt));
    }
}

#[test]
fn a_chest_holding_anything_is_not_mined_an_empty_one_is_and_a_placed_one_is_empty() {
    let (mut w, p, mut inv) = setup();
    let gel = content().catalog.id("gel").unwrap();
    // A chest on the floor beside the player, holding gel.
    w.set(12, 9, Tile::Chest);
    w.chests.open(12, 9).add(&content().catalog, gel, 4);
    assert_eq!(
        try_dig(&mut w, &p, &mut inv, 12, 9),
        Err(EditRefusal::ChestNotEmpty)
    );
    assert_eq!(w.tile(12, 9), Tile::Chest);
    assert!(w.chests.holds_items(12, 9), "nothing taken");
    // Emptied (its slot taken), it comes off by hand and its entry goes with it.
    let mut held = None;
    w.chests.open(12, 9).click(&content().catalog, 0, &mut held);
    assert_eq!(held.map(|h| h.count), Some(4));
    assert_eq!(try_dig(&mut w, &p, &mut inv, 12, 9), Ok(Tile::Chest));
    assert!(w.chests.get(12, 9).is_none() && w.chests.is_empty());
    assert_eq!(inv.count(Tile::Chest), 1);
    // Placed again where a stale entry was: empty.
    w.chests.open(12, 9).add(&content().catalog, gel, 1);
    let chest = content().catalog.block_item(Tile::Chest);
    let slot = inv.slots().iter().position(|s| s.map(|s| s.item) == chest);
    inv.select(slot.unwrap());
    assert_eq!(try_place(&mut w, &p, &mut inv, 12, 9), Ok(Tile::Chest));
    assert!(!w.chests.holds_items(12, 9));
}

#[test]
fn a_door_stands_two_tiles_tall_on_the_ground_and_goes_as_a_whole() {
    let (mut w, p, mut inv) = setup();
    inv.add(Tile::ClosedDoor, 2);
    inv.select(1);
    // Clicked at its bottom tile (ground below) or its top tile (ground two below).
    assert_eq!(try_place(&mut w, &p, &mut inv, 13, 9), Ok(Tile::ClosedDoor));
    assert_eq!(
        (w.tile(13, 8), w.tile(13, 9)),
        (Tile::ClosedDoor, Tile::ClosedDoor)
    );
    assert_eq!(try_place(&mut w, &p, &mut inv, 15, 8), Ok(Tile::ClosedDoor));
    assert_eq!(
        (w.tile(15, 8), w.tile(15, 9)),
        (Tile::ClosedDoor, Tile::ClosedDoor)
    );
    assert_eq!(inv.count(Tile::ClosedDoor), 0);
    // Up in the air there is nothing to stand on, nor on top of another door; on the
    // player, it would trap them.
    inv.add(Tile::ClosedDoor, 1);
    assert_eq!(
        check_place(&w, &p, &inv, 13, 7),
        Err(EditRefusal::NoSupport)
    );
    assert_eq!(
        check_place(&w, &p, &inv, 13, 6),
        Err(EditRefusal::NoSupport)
    );
    assert_eq!(
        check_place(&w, &p, &inv, 14, 6),
        Err(EditRefusal::NoSupport)
    );
    assert_eq!(
        check_place(&w, &p, &inv, 10, 9),
        Err(EditRefusal::WouldTrapPlayer)
    );
    // Mining its top takes both tiles for one door; the ground under a door stays.
    assert_eq!(
        check_mine(&w, &p, &inv, 13, 10),
        Err(EditRefusal::HoldsUp(Tile::ClosedDoor))
    );
    assert_eq!(try_dig(&mut w, &p, &mut inv, 13, 8), Ok(Tile::ClosedDoor));
    assert_eq!((w.tile(13, 8), w.tile(13, 9)), (Tile::Air, Tile::Air));
    assert_eq!(inv.count(Tile::ClosedDoor), 2);
    // An open door mined by its bottom gives a (closed) door too.
    assert_eq!(toggle_door(&mut w, &p, 15, 9), Ok(Tile::OpenDoor));
    assert_eq!(try_dig(&mut w, &p, &mut inv, 15, 9), Ok(Tile::ClosedDoor));
    assert_eq!((w.tile(15, 8), w.tile(15, 9)), (Tile::Air, Tile::Air));
    assert_eq!(inv.count(Tile::ClosedDoor), 3);
}

#[test]
fn a_right_click_opens_and_closes_a_door_but_not_on_the_player() {
    let (mut w, p, _) = setup();
    w.set(12, 8, Tile::ClosedDoor);
    w.set(12, 9, Tile::ClosedDoor);
    assert_eq!(toggle_door(&mut w, &p, 12, 8), Ok(Tile::OpenDoor));
    assert_eq!(
        (w.tile(12, 8), w.tile(12, 9)),
        (Tile::OpenDoor, Tile::OpenDoor)
    );
    assert!(Tile::ClosedDoor.is_solid() && !Tile::OpenDoor.is_solid());
    assert_eq!(toggle_door(&mut w, &p, 12, 9), Ok(Tile::ClosedDoor));
    assert_eq!(toggle_door(&mut w, &p, 13, 9), Err(EditRefusal::NotADoor));
    // The player standing in the doorway keeps it open.
    assert_eq!(toggle_door(&mut w, &p, 12, 9), Ok(Tile::OpenDoor));
    let inside = Player::new((12.5, 10.0));
    assert_eq!(
        toggle_door(&mut w, &inside, 12, 9),
        Err(EditRefusal::WouldTrapPlayer)
    );
    assert_eq!(w.tile(12, 9), Tile::OpenDoor);
    let far = Player::new((25.5, 10.0));
    assert_eq!(
        toggle_door(&mut w, &far, 12, 9),
        Err(EditRefusal::OutOfReach)
    );
}

#[test]
fn platforms_hang_beside_blocks_or_platforms_and_hold_furniture() {
    let (mut w, p, mut inv) = setup();
    inv.add(Tile::Platform, 3);
    inv.select(1);
    w.set(15, 7, Tile::Stone);
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 14, 5),
        Err(EditRefusal::NoSupport)
    );
    assert_eq!(try_place(&mut w, &p, &mut inv, 14, 7), Ok(Tile::Platform));
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 13, 7),
        Ok(Tile::Platform),
        "beside one"
    );
    // A table, chair and bed stand on a platform as on the ground.
    for t in [Tile::Table, Tile::Chair, Tile::Bed] {
        assert!(is_furniture(t) && !t.is_solid(), "{t:?}");
    }
    inv.add(Tile::Table, 1);
    inv.select(2);
    assert_eq!(try_place(&mut w, &p, &mut inv, 13, 6), Ok(Tile::Table));
    assert_eq!(
        check_mine(&w, &p, &inv, 13, 7),
        Err(EditRefusal::HoldsUp(Tile::Table))
    );
}

#[test]
fn a_door_edit_changes_its_column_and_anything_else_one_tile() {
    assert_eq!(changed_by(Tile::Stone, 4, 7, 20), vec![(4, 7)]);
    assert_eq!(
        changed_by(Tile::ClosedDoor, 4, 7, 20),
        vec![(4, 6), (4, 7), (4, 8)]
    );
    assert_eq!(changed_by(Tile::OpenDoor, 4, 0, 20), vec![(4, 0), (4, 1)]);
    assert_eq!(
        changed_by(Tile::OpenDoor, 4, 19, 20),
        vec![(4, 18), (4, 19)]
    );
}

#[test]
fn a_rope_hangs_from_a_block_and_a_click_on_it_lets_it_down_one_more_tile() {
    let (mut w, p, mut inv) = setup();
    inv.add("rope", 5);
    inv.select(1);
    // A ledge of stone at row 4 over columns 13-15; the rope hangs under it.
    for x in 13..=15 {
        w.set(x, 4, Tile::Stone);
    }
    assert_eq!(
        try_place(&mut w, &p, &mut inv, 12, 5),
        Err(EditRefusal::NoSupport),
        "nothing above"
    );
    assert_eq!(try_place(&mut w, &p, &mut inv, 14, 5), Ok(Tile::Rope));
    // Clicking the rope: the next piece goes under its bottom.
    for bottom in [6, 7] {
        let (x, y) = place_spot(&w, &inv, 14, 5);
        assert_eq!((x, y), (14, bottom));
        assert_eq!(try_place(&mut w, &p, &mut inv, x, y), Ok(Tile::Rope));
    }
    assert_eq!(inv.count("rope"), 2);
    // Another item aims where it is aimed.
    inv.select(0);
    assert_eq!(place_spot(&w, &inv, 14, 5), (14, 5));
}
