//! Tests of the item data, tool tiers, crafting and the inventory.

use super::inventory::{HOTBAR_SLOTS, SLOTS, START_TORCHES};
use super::*;

fn id(name: &str) -> ItemId {
    named(name).unwrap_or_else(|| panic!("no item {name}"))
}

fn pick(name: &str) -> Option<Pick> {
    match catalog().item(id(name)).kind {
        Kind::Pickaxe { power, speed } => Some(Pick { power, speed }),
        _ => None,
    }
}

fn recipe_for(name: &str) -> &'static Recipe {
    catalog()
        .recipes
        .iter()
        .find(|r| r.make == id(name))
        .unwrap_or_else(|| panic!("no recipe for {name}"))
}

#[test]
fn the_shipped_files_parse_and_every_dug_tile_is_an_item() {
    let cat = Catalog::builtin().unwrap();
    assert!(cat.items.len() > 30 && cat.recipes.len() > 10);
    for t in Tile::ALL
        .into_iter()
        .filter(|t| t.info().dig_time.is_some())
    {
        assert!(cat.block_item(crate::edit::drop_of(t)).is_some(), "{t:?}");
    }
    // Every solid tile that digging gives back is placeable.
    for t in Tile::ALL
        .into_iter()
        .filter(|t| t.is_solid() && *t != Tile::Grass)
    {
        let item = cat.block_item(t).unwrap();
        assert_eq!(cat.item(item).kind, Kind::Block(t));
    }
}

#[test]
fn deeper_ores_need_the_pickaxe_of_the_ore_above() {
    let cat = catalog();
    let copper = pick("copper_pickaxe");
    let iron = pick("iron_pickaxe");
    let silver = pick("silver_pickaxe");
    let gold = pick("gold_pickaxe");
    let can = |t: Tile, p: Option<Pick>| mine_time(cat, t, p).is_ok();
    assert!(can(Tile::CopperOre, copper) && can(Tile::IronOre, copper));
    assert!(!can(Tile::SilverOre, copper) && can(Tile::SilverOre, iron));
    assert!(!can(Tile::GoldOre, iron) && can(Tile::GoldOre, silver));
    assert!(!can(Tile::DiamondOre, silver) && can(Tile::DiamondOre, gold));
    assert!(!can(Tile::Hellstone, silver) && can(Tile::Hellstone, gold));
    assert_eq!(
        mine_time(cat, Tile::SilverOre, copper),
        Err(MineRefusal::TooWeak(40))
    );
    assert_eq!(
        MineRefusal::TooWeak(40).to_string(),
        "needs an iron pickaxe (pickaxe power 40)"
    );
    assert!(
        MineRefusal::TooWeak(45)
            .to_string()
            .starts_with("needs a silver")
    );
    assert_eq!(
        CraftRefusal::NotNear(Tile::Anvil).to_string(),
        "stand near an anvil"
    );
    // Without a pickaxe: trees, torches and furniture, never stone.
    assert_eq!(
        mine_time(cat, Tile::Stone, None),
        Err(MineRefusal::NoPickaxe)
    );
    assert!(can(Tile::Trunk, None) && can(Tile::Torch, None) && can(Tile::Workbench, None));
    assert_eq!(
        mine_time(cat, Tile::Water, gold),
        Err(MineRefusal::Undiggable)
    );
}

#[test]
fn better_pickaxes_dig_faster() {
    let cat = catalog();
    let t = |p: &str| mine_time(cat, Tile::Stone, pick(p)).unwrap();
    assert_eq!(t("copper_pickaxe"), Tile::Stone.info().dig_time.unwrap());
    assert!(t("iron_pickaxe") < t("copper_pickaxe"));
    assert!(t("silver_pickaxe") < t("iron_pickaxe"));
    assert!(t("gold_pickaxe") < t("silver_pickaxe"));
}

/// A world with a workbench at (5, 9) on a stone floor at row 10.
fn bench_world() -> World {
    let mut w = World::new(40, 20, 0, crate::preset::Preset::default());
    for x in 0..40 {
        w.set(x, 10, Tile::Stone);
    }
    w.set(5, 9, Tile::Workbench);
    w
}

#[test]
fn stations_count_only_within_range() {
    let w = bench_world();
    let cat = catalog();
    let body_at = |x: f32| (x - 0.4, 8.2, x + 0.4, 10.0);
    assert!(Stations::near(&w, body_at(7.0), cat).has(Tile::Workbench));
    assert!(Stations::near(&w, body_at(9.5), cat).has(Tile::Workbench));
    assert!(!Stations::near(&w, body_at(10.5), cat).has(Tile::Workbench));
    assert!(Stations::near(&w, body_at(1.5), cat).has(Tile::Workbench));
    assert!(!Stations::near(&w, body_at(7.0), cat).has(Tile::Furnace));
}

#[test]
fn the_loop_from_a_tree_to_an_iron_pickaxe() {
    let cat = catalog();
    let mut inv = Inventory::default();
    let none = Stations::default();
    // Wood from a tree: a workbench needs no station.
    inv.add(Tile::Wood, 30);
    assert_eq!(
        craft(cat, recipe_for("wooden_sword"), &mut inv, none),
        Err(CraftRefusal::NotNear(Tile::Workbench))
    );
    craft(cat, recipe_for("workbench"), &mut inv, none).unwrap();
    assert_eq!((inv.count("workbench"), inv.count(Tile::Wood)), (1, 22));
    let bench = none.with(Tile::Workbench);
    // A furnace from stone and torches at the workbench.
    assert_eq!(
        craft(cat, recipe_for("furnace"), &mut inv, bench),
        Err(CraftRefusal::Missing(id("stone"), 15))
    );
    inv.add(Tile::Stone, 15);
    craft(cat, recipe_for("furnace"), &mut inv, bench).unwrap();
    assert_eq!(inv.count(Tile::Torch), START_TORCHES - 3);
    // Ore into bars at the furnace, bars into an anvil, then the pickaxe at the anvil.
    inv.add(Tile::IronOre, 45);
    let furnace = bench.with(Tile::Furnace);
    for _ in 0..15 {
        craft(cat, recipe_for("iron_bar"), &mut inv, furnace).unwrap();
    }
    assert_eq!((inv.count(Tile::IronOre), inv.count("iron_bar")), (0, 15));
    craft(cat, recipe_for("anvil"), &mut inv, furnace).unwrap();
    let before = inv.best_pickaxe().unwrap();
    let all = furnace.with(Tile::Anvil);
    craft(cat, recipe_for("iron_pickaxe"), &mut inv, all).unwrap();
    assert_eq!(inv.count("iron_bar"), 0);
    let after = inv.best_pickaxe().unwrap();
    assert!(after.power > before.power && after.speed > before.speed);
    assert!(mine_time(cat, Tile::SilverOre, Some(after)).is_ok());
}

#[test]
fn a_refused_craft_changes_nothing() {
    let cat = catalog();
    let mut inv = Inventory::empty();
    inv.add(Tile::Wood, 8);
    // Fill every other slot so the workbench has nowhere to go.
    for _ in 1..SLOTS {
        inv.add("iron_pickaxe", 1);
    }
    let before = inv.clone();
    // The wood's slot empties, so the workbench fits there.
    assert!(craft(cat, recipe_for("workbench"), &mut inv, Stations::default()).is_ok());
    let mut inv = before.clone();
    inv.add(Tile::Wood, 1);
    let full = inv.clone();
    assert_eq!(
        craft(cat, recipe_for("workbench"), &mut inv, Stations::default()),
        Err(CraftRefusal::NoRoom)
    );
    assert_eq!(inv, full);
}

#[test]
fn stacks_fill_before_new_slots_and_overflow_is_returned() {
    let mut inv = Inventory::empty();
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
    let mut full = Inventory::empty();
    for _ in 0..SLOTS {
        full.add("gold_sword", 1);
    }
    assert_eq!(full.add("gold_sword", 1), 1);
    assert_eq!(full.room_for(Tile::Dirt), 0);
}

#[test]
fn clicks_and_drags_move_merge_and_swap_stacks() {
    let mut inv = Inventory::empty();
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
    let mut inv = Inventory::default();
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

#[test]
fn bad_data_is_refused_with_file_line_and_field() {
    let items = ITEMS_RON.replace("power: 40, speed: 1.3", "power: 4000, speed: 1.3");
    let e = Catalog::parse(&items, "items.ron", RECIPES_RON, "recipes.ron").unwrap_err();
    let s = e.to_string();
    assert!(s.starts_with("items.ron:"), "{s}");
    assert!(s.contains("power = 4000") && s.contains("1..=1000"), "{s}");
    let line = items
        .lines()
        .position(|l| l.contains("power: 4000"))
        .unwrap()
        + 1;
    assert_eq!(e.position.map(|p| p.0), Some(line), "{s}");

    let items = ITEMS_RON.replace("tile: \"mud\"", "tile: \"mudd\"");
    let s = Catalog::parse(&items, "items.ron", RECIPES_RON, "recipes.ron")
        .unwrap_err()
        .to_string();
    assert!(
        s.contains("\"mudd\" is not a tile") && s.contains("tile"),
        "{s}"
    );

    let recipes = RECIPES_RON.replace("(\"iron_ore\", 3)", "(\"iron_oar\", 3)");
    let e = Catalog::parse(ITEMS_RON, "items.ron", &recipes, "recipes.ron").unwrap_err();
    let s = e.to_string();
    assert!(
        s.starts_with("recipes.ron:") && s.contains("\"iron_oar\" is not an item"),
        "{s}"
    );
    let line = recipes
        .lines()
        .position(|l| l.contains("iron_oar"))
        .unwrap()
        + 1;
    assert_eq!(e.position.map(|p| p.0), Some(line), "{s}");

    let recipes = RECIPES_RON.replace("at: \"anvil\"", "at: \"anvi\"");
    assert!(Catalog::parse(ITEMS_RON, "i", &recipes, "r").is_err());
    let items = ITEMS_RON.replace("(name: \"wood\"", "(name: \"Wood!\"");
    assert!(
        Catalog::parse(&items, "i", RECIPES_RON, "r")
            .unwrap_err()
            .to_string()
            .contains("a-z")
    );
    // Syntax errors have a position too.
    let e = Catalog::parse("(items: [", "i", RECIPES_RON, "r").unwrap_err();
    assert!(e.position.is_some());
    // An item a tile needs, removed: digging would lose it.
    let items = ITEMS_RON.replace(
        "(name: \"sand\", label: \"sand\", kind: Block, tile: \"sand\"),",
        "",
    );
    let s = Catalog::parse(&items, "i", RECIPES_RON, "r")
        .unwrap_err()
        .to_string();
    assert!(s.contains("no Block item places \"sand\""), "{s}");
}

/// The error of items and recipes text, with the line it points at.
fn refusal(items: &str, recipes: &str) -> (String, Option<usize>) {
    let e = Catalog::parse(items, "items.ron", recipes, "recipes.ron").unwrap_err();
    (e.to_string(), e.position.map(|p| p.0))
}

/// The 1-based line of `text` holding the `n`-th (0-based) `needle`.
fn line_of(text: &str, needle: &str, n: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .nth(n)
        .unwrap()
        .0
        + 1
}

#[test]
fn a_tile_mined_twice_a_recipe_from_itself_and_a_recipe_twice_are_refused() {
    let twice = "(tile: \"gold_ore\", power: 45),";
    let items = ITEMS_RON.replace(
        twice,
        &format!("{twice}\n(tile: \"silver_ore\", power: 50),"),
    );
    let (s, line) = refusal(&items, RECIPES_RON);
    assert!(
        s.contains("mining[2].tile = \"silver_ore\" is listed twice (mining[0] too)"),
        "{s}"
    );
    assert_eq!(
        line,
        Some(line_of(&items, "\"silver_ore\", power", 1)),
        "{s}"
    );

    let torch = "(make: \"torch\", count: 4, from: [(\"wood\", 1), (\"gel\", 1)]),";
    assert!(RECIPES_RON.contains(torch));
    let looped = RECIPES_RON.replace(
        torch,
        &format!("{torch}\n(make: \"torch\", count: 4, from: [(\"torch\", 1)]),"),
    );
    let (s, line) = refusal(ITEMS_RON, &looped);
    assert!(
        s.starts_with("recipes.ron:")
            && s.contains("recipes[2].from[0]: \"torch\" is what the recipe makes"),
        "{s}"
    );
    assert_eq!(line, Some(line_of(&looped, "(\"torch\", 1)", 0)), "{s}");

    // The same items in another order and other counts is the same recipe.
    let again = RECIPES_RON.replace(
        torch,
        &format!("{torch}\n(make: \"torch\", count: 3, from: [(\"gel\", 2), (\"wood\", 1)]),"),
    );
    let (s, line) = refusal(ITEMS_RON, &again);
    assert!(
        s.contains(
            "recipes[2] makes \"torch\" from the same items at the same station as recipes[1]"
        ),
        "{s}"
    );
    assert_eq!(line, Some(line_of(&again, "make: \"torch\"", 1)), "{s}");
    // At another station it is another recipe.
    let elsewhere = RECIPES_RON.replace(
        torch,
        &format!(
            "{torch}\n(make: \"torch\", from: [(\"wood\", 1), (\"gel\", 1)], at: \"workbench\"),"
        ),
    );
    assert!(Catalog::parse(ITEMS_RON, "i", &elsewhere, "r").is_ok());
}

#[test]
fn the_items_the_game_names_must_be_there_as_their_kind() {
    for (name, why) in [
        ("copper_pickaxe", "a new player's pickaxe"),
        ("copper_sword", "a new player's sword"),
        ("gel", "what a slime drops"),
    ] {
        let row = ITEMS_RON
            .lines()
            .find(|l| l.contains(&format!("(name: \"{name}\"")))
            .unwrap();
        // Without recipes that name it either: nothing else would miss it.
        let items = ITEMS_RON.replace(row, "");
        let (s, line) = refusal(&items, "(recipes: [])");
        assert!(
            s.starts_with("items.ron:")
                && s.contains(&format!("items has no item \"{name}\", which is {why}")),
            "{s}"
        );
        assert_eq!(line, Some(line_of(&items, "items: [", 0)), "{s}");
    }
    let items = ITEMS_RON.replace(
        "(name: \"copper_sword\", label: \"copper sword\", kind: Sword, damage: 9, reach: 2.2, cooldown: 0.4,",
        "(name: \"copper_sword\", label: \"copper sword\", kind: Material,",
    );
    let (s, line) = refusal(&items, RECIPES_RON);
    assert!(
        s.contains(".kind: \"copper_sword\" must be a Sword, as it is a new player's sword"),
        "{s}"
    );
    assert_eq!(
        line,
        Some(line_of(&items, "name: \"copper_sword\"", 0)),
        "{s}"
    );
}

#[test]
fn a_healing_potion_from_sand_and_gel_and_its_bad_data() {
    let cat = catalog();
    let mut inv = Inventory::default();
    let furnace = Stations::default().with(Tile::Furnace);
    inv.add(Tile::Sand, 1);
    inv.add("gel", 2);
    craft(cat, recipe_for("glass"), &mut inv, furnace).unwrap();
    craft(cat, recipe_for("bottle"), &mut inv, furnace).unwrap();
    assert_eq!(inv.count("bottle"), 2);
    assert_eq!(
        craft(cat, recipe_for("lesser_healing_potion"), &mut inv, furnace),
        Err(CraftRefusal::NotNear(Tile::Workbench))
    );
    let bench = furnace.with(Tile::Workbench);
    craft(cat, recipe_for("lesser_healing_potion"), &mut inv, bench).unwrap();
    assert_eq!((inv.count("bottle"), inv.count("gel")), (1, 0));
    let slot = (0..SLOTS)
        .find(|&i| inv.slots()[i].is_some_and(|s| s.item == id("lesser_healing_potion")))
        .unwrap();
    inv.select(slot);
    assert_eq!(
        inv.selected_potion(),
        Some((id("lesser_healing_potion"), 50, 60.0)),
        "Terraria's lesser healing potion"
    );
    inv.select((slot + 1) % SLOTS);
    assert_eq!(inv.selected_potion(), None);
    // A potion needs its numbers, in range, refused at their line.
    let row = "kind: Potion, heal: 50, sickness: 60.0,";
    let items = ITEMS_RON.replace(row, "kind: Potion, sickness: 60.0,");
    let e = Catalog::parse(&items, "items.ron", RECIPES_RON, "recipes.ron").unwrap_err();
    assert!(e.to_string().contains("heal"), "{e}");
    let items = ITEMS_RON.replace(row, "kind: Potion, heal: 50, sickness: 6000.0,");
    let e = Catalog::parse(&items, "items.ron", RECIPES_RON, "recipes.ron").unwrap_err();
    let line = items.lines().position(|l| l.contains("6000.0")).unwrap() + 1;
    assert!(e.to_string().contains("sickness"), "{e}");
    assert_eq!(e.position.map(|p| p.0), Some(line), "{e}");
}

#[test]
fn armour_is_crafted_at_the_anvil_worn_by_a_right_click_and_swapped() {
    let cat = catalog();
    let mut inv = Inventory::empty();
    let anvil = Stations::default().with(Tile::Anvil);
    inv.add("copper_bar", 15);
    inv.add("iron_bar", 20);
    craft(cat, recipe_for("copper_helmet"), &mut inv, anvil).unwrap();
    craft(cat, recipe_for("iron_helmet"), &mut inv, anvil).unwrap();
    assert_eq!(inv.defence(), 0, "carried is not worn");
    let slot_of = |inv: &Inventory, n: &str| {
        (0..SLOTS).find(|&i| inv.slots()[i].is_some_and(|s| s.item == id(n)))
    };
    inv.select(slot_of(&inv, "copper_helmet").unwrap());
    assert_eq!(inv.wear_selected(), Ok(crate::items::ArmourSlot::Head));
    assert_eq!(inv.defence(), 1);
    assert_eq!(inv.selected_item(), None, "the slot it came from is empty");
    // The better helmet goes on; the copper one comes off into its slot.
    let iron = slot_of(&inv, "iron_helmet").unwrap();
    inv.select(iron);
    inv.wear_selected().unwrap();
    assert_eq!(inv.defence(), 2);
    assert_eq!(slot_of(&inv, "copper_helmet"), Some(iron));
    assert_eq!(inv.armour()[0], Some(id("iron_helmet")));
    // Not armour: nothing changes.
    inv.add("gel", 1);
    inv.select(slot_of(&inv, "gel").unwrap());
    assert!(inv.wear_selected().is_err());
    assert_eq!((inv.defence(), inv.count("gel")), (2, 1));
    // A piece of armour stacks one to a slot.
    let items = ITEMS_RON.replace(
        "slot: Head, defence: 1,",
        "slot: Head, defence: 1, stack: 5,",
    );
    let e = Catalog::parse(&items, "items.ron", RECIPES_RON, "recipes.ron").unwrap_err();
    assert!(e.to_string().contains("stacks 1 to a slot"), "{e}");
}
