//! Tests of crafting (stations, the loop from a tree to an iron pickaxe) and the
//! inventory's stacks, clicks and hotbar.

use super::*;
use crate::content::items::{Recipe, mine_time};
use crate::world::inventory::{HOTBAR_SLOTS, SLOTS, START_TORCHES};

/// The built-in content, as a session without mods plays by.
fn content() -> crate::content::config::Content {
    crate::content::config::Content::builtin()
}

fn id(name: &str) -> ItemId {
    content()
        .catalog
        .id(name)
        .unwrap_or_else(|| panic!("no item {name}"))
}

fn recipe_for(name: &str) -> Recipe {
    let c = content();
    let r = c.catalog.recipes.iter().find(|r| r.make == id(name));
    r.unwrap_or_else(|| panic!("no recipe for {name}")).clone()
}

/// A world with a workbench at (5, 9) on a stone floor at row 10.
fn bench_world() -> World {
    let mut w = World::new(40, 20, 0, crate::content::preset::Preset::default());
    for x in 0..40 {
        w.set(x, 10, Tile::Stone);
    }
    w.set(5, 9, Tile::Workbench);
    w
}

#[test]
fn stations_count_only_within_range() {
    let w = bench_world();
    let cat = &content().catalog;
    let body_at = |x: f32| (x - 0.4, 8.2, x + 0.4, 10.0);
    assert!(Stations::near(&w, body_at(7.0), cat).has(Tile::Workbench));
    assert!(Stations::near(&w, body_at(9.5), cat).has(Tile::Workbench));
    assert!(!Stations::near(&w, body_at(10.5), cat).has(Tile::Workbench));
    assert!(Stations::near(&w, body_at(1.5), cat).has(Tile::Workbench));
    assert!(!Stations::near(&w, body_at(7.0), cat).has(Tile::Furnace));
}

#[test]
fn the_loop_from_a_tree_to_an_iron_pickaxe() {
    let cat = &content().catalog;
    let mut inv = Inventory::starting(&content().catalog);
    let none = Stations::default();
    // Wood from a tree: a workbench needs no station.
    inv.add(Tile::Wood, 30);
    assert_eq!(
        craft(&recipe_for("wooden_sword"), &mut inv, none),
        Err(CraftRefusal::NotNear(Tile::Workbench))
    );
    craft(&recipe_for("workbench"), &mut inv, none).unwrap();
    assert_eq!((inv.count("workbench"), inv.count(Tile::Wood)), (1, 22));
    let bench = none.with(Tile::Workbench);
    // A furnace from stone and torches at the workbench.
    assert_eq!(
        craft(&recipe_for("furnace"), &mut inv, bench),
        Err(CraftRefusal::Missing(id("stone"), 15))
    );
    inv.add(Tile::Stone, 15);
    craft(&recipe_for("furnace"), &mut inv, bench).unwrap();
    assert_eq!(inv.count(Tile::Torch), START_TORCHES - 3);
    // Ore into bars at the furnace, bars into an anvil, then the pickaxe at the anvil.
    inv.add(Tile::IronOre, 45);
    let furnace = bench.with(Tile::Furnace);
    for _ in 0..15 {
        craft(&recipe_for("iron_bar"), &mut inv, furnace).unwrap();
    }
    assert_eq!((inv.count(Tile::IronOre), inv.count("iron_bar")), (0, 15));
    craft(&recipe_for("anvil"), &mut inv, furnace).unwrap();
    let before = inv.best_pickaxe().unwrap();
    let all = furnace.with(Tile::Anvil);
    craft(&recipe_for("iron_pickaxe"), &mut inv, all).unwrap();
    assert_eq!(inv.count("iron_bar"), 0);
    let after = inv.best_pickaxe().unwrap();
    assert!(after.power > before.power && after.speed > before.speed);
    assert!(mine_time(cat, Tile::SilverOre, Some(after)).is_ok());
}

#[test]
fn a_refused_craft_changes_nothing() {
    let mut inv = Inventory::empty(&content().catalog);
    inv.add(Tile::Wood, 8);
    // Fill every other slot so the workbench has nowhere to go.
    for _ in 1..SLOTS {
        inv.add("iron_pickaxe", 1);
    }
    let before = inv.clone();
    // The wood's slot empties, so the workbench fits there.
    assert!(craft(&recipe_for("workbench"), &mut inv, Stations::default()).is_ok());
    let mut inv = before.clone();
    inv.add(Tile::Wood, 1);
    let full = inv.clone();
    assert_eq!(
        craft(&recipe_for("workbench"), &mut inv, Stations::default()),
        Err(CraftRefusal::NoRoom)
    );
    assert_eq!(inv, full);
}

#[test]
fn stacks_fill_before_new_slots_and_overflow_is_returned() {
    let mut inv = Inventory::empty(&content().catalog);
    assert_eq!(inv.add(Tile::Dirt, 1500), 0);
    assert_eq!(inv.slots()[0].unwrap().count, 999);
    assert_eq!(inv.slots()[1].unwrap().count, 501);
    assert_eq!(inv.add(Tile::Dirt, 10), 0);
    assert_eq!(inv.slots()[1].unwrap().count, 511);
    assert_eq!(inv.add(Tile::Air, 3), 3, "air is no item");
    assert_eq!(inv.add(Tile::Grass, 1), 1, "grass is no item");
    assert!(inv.remove(Tile::Dirt, 600));
    assert_eq!(inv.count(Tile::Dirt), 910);
    assert!(inv.slots()[1].is_none(), "the last stack went first");
    assert!(!inv.remove(Tile::Dirt, 911));
    assert_eq!(inv.count(Tile::Dirt), 910);
    let mut full = Inventory::empty(&content().catalog);
    for _ in 0..SLOTS {
        full.add("gold_sword", 1);
    }
    assert_eq!(full.add("gold_sword", 1), 1);
    assert_eq!(full.room_for(Tile::Dirt), 0);
}

#[test]
fn clicks_and_drags_move_merge_and_swap_stacks() {
    let mut inv = Inventory::empty(&content().catalog);
    inv.add(Tile::Dirt, 990);
    inv.add(Tile::Stone, 5);
    // Drag the stone to slot 20, then back onto the hotbar's slot 0 (the dirt): a swap.
    inv.move_stack(1, 20);
    assert!(inv.slots()[1].is_none());
    assert_eq!(inv.slots()[20].unwrap().item, id("stone"));
    inv.move_stack(20, 0);
    assert_eq!(inv.slots()[0].unwrap().item, id("stone"));
    assert_eq!(inv.slots()[20].unwrap().item, id("dirt"));
    // Dirt onto dirt merges up to the stack size; the rest stays where it was.
    inv.add(Tile::Dirt, 20);
    let second = (0..SLOTS)
        .find(|&i| i != 20 && inv.slots()[i].is_some_and(|s| s.item == id("dirt")))
        .unwrap();
    inv.move_stack(second, 20);
    assert_eq!(inv.slots()[20].unwrap().count, 999);
    assert_eq!(inv.slots()[second].unwrap().count, 11);
    assert_eq!(inv.count(Tile::Dirt), 1010);
    // Pick up with a click, put down with another.
    let mut held = None;
    inv.click(0, &mut held);
    assert_eq!(held.unwrap().count, 5);
    inv.click(35, &mut held);
    assert!(held.is_none() && inv.slots()[35].unwrap().item == id("stone"));
}

#[test]
fn the_hotbar_selects_and_names_the_block_it_places() {
    let mut inv = Inventory::starting(&content().catalog);
    assert!(inv.best_pickaxe().is_some());
    assert!(inv.selected_sword().is_none());
    inv.select(1);
    assert_eq!(inv.selected_sword().map(|s| s.0), Some(9));
    inv.select(2);
    assert_eq!(inv.selected_tile(), Some(Tile::Torch));
    inv.select(HOTBAR_SLOTS);
    assert_eq!(inv.selected(), 2, "out of the hotbar: ignored");
    inv.scroll(-3);
    assert_eq!(inv.selected(), HOTBAR_SLOTS - 1);
    assert!(inv.take(Tile::Torch) && inv.count(Tile::Torch) == START_TORCHES - 1);
}
