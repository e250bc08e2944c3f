//! Tests of the item data, tool tiers, crafting and the inventory.

use super::*;
use crate::sim::craft::{CraftRefusal, Stations, craft};
use crate::world::inventory::{Inventory, SLOTS};
use crate::world::inventory::{Stack, WearRefusal};

/// The built-in catalog, parsed once for these tests.
fn catalog() -> &'static std::sync::Arc<Catalog> {
    static CAT: std::sync::OnceLock<std::sync::Arc<Catalog>> = std::sync::OnceLock::new();
    CAT.get_or_init(|| std::sync::Arc::new(Catalog::builtin().unwrap()))
}

fn id(name: &str) -> ItemId {
    catalog()
        .id(name)
        .unwrap_or_else(|| panic!("no item {name}"))
}

fn recipe_for(name: &str) -> &'static Recipe {
    catalog()
        .recipes
        .iter()
        .find(|r| r.make == id(name))
        .unwrap_or_else(|| panic!("no recipe for {name}"))
}

fn pick(name: &str) -> Option<Pick> {
    match catalog().item(id(name)).kind {
        Kind::Pickaxe { power, speed } => Some(Pick { power, speed }),
        _ => None,
    }
}

#[test]
fn the_shipped_files_parse_and_every_dug_tile_is_an_item() {
    let cat = Catalog::builtin().unwrap();
    assert!(cat.items.len() > 30 && cat.recipes.len() > 10);
    for t in Tile::ALL
        .into_iter()
        .filter(|t| t.info().dig_time.is_some())
    {
        assert!(
            cat.block_item(crate::base::tile::drop_of(t)).is_some(),
            "{t:?}"
        );
    }
    // Every solid tile that digging gives back is placeable.
    for t in Tile::ALL
        .into_iter()
        .filter(|t| t.is_solid() && crate::base::tile::drop_of(*t) == *t)
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
    // Hellstone takes a demonite pickaxe (Terraria's power 65).
    let demonite = pick("demonite_pickaxe");
    assert!(!can(Tile::Hellstone, gold) && can(Tile::Hellstone, demonite));
    assert!(can(Tile::DungeonBrick, demonite) && can(Tile::Ebonstone, demonite));
    assert_eq!(
        mine_time(cat, Tile::SilverOre, copper),
        Err(MineRefusal::TooWeak(40))
    );
    assert_eq!(
        MineRefusal::TooWeak(40).text(cat),
        "needs an iron pickaxe (pickaxe power 40)"
    );
    assert!(
        MineRefusal::TooWeak(45)
            .text(cat)
            .starts_with("needs a silver")
    );
    assert_eq!(
        CraftRefusal::NotNear(Tile::Anvil).text(cat),
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
        // (A creature's drops are checked against the catalog with the creatures:
        // content::bestiary.)
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
    let mut inv = Inventory::starting(catalog());
    let furnace = Stations::default().with(Tile::Furnace);
    inv.add(Tile::Sand, 1);
    inv.add("gel", 2);
    craft(recipe_for("glass"), &mut inv, furnace).unwrap();
    craft(recipe_for("bottle"), &mut inv, furnace).unwrap();
    assert_eq!(inv.count("bottle"), 2);
    assert_eq!(
        craft(recipe_for("lesser_healing_potion"), &mut inv, furnace),
        Err(CraftRefusal::NotNear(Tile::Workbench))
    );
    let bench = furnace.with(Tile::Workbench);
    craft(recipe_for("lesser_healing_potion"), &mut inv, bench).unwrap();
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
    let mut inv = Inventory::empty(catalog());
    let anvil = Stations::default().with(Tile::Anvil);
    inv.add("copper_bar", 15);
    inv.add("iron_bar", 20);
    craft(recipe_for("copper_helmet"), &mut inv, anvil).unwrap();
    craft(recipe_for("iron_helmet"), &mut inv, anvil).unwrap();
    assert_eq!(inv.defence(), 0, "carried is not worn");
    let slot_of = |inv: &Inventory, n: &str| {
        (0..SLOTS).find(|&i| inv.slots()[i].is_some_and(|s| s.item == id(n)))
    };
    inv.select(slot_of(&inv, "copper_helmet").unwrap());
    assert_eq!(
        inv.wear_selected(),
        Ok(crate::content::items::ArmourSlot::Head)
    );
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
    assert!(e.to_string().contains("stack 1 to a slot"), "{e}");
}

#[test]
fn the_armour_panel_puts_a_piece_on_its_own_slot_and_takes_it_off() {
    let mut inv = Inventory::empty(catalog());
    let one = |n: &str| {
        Some(Stack {
            item: id(n),
            count: 1,
        })
    };
    let mut held = one("copper_helmet");
    assert_eq!(inv.click_armour(2, &mut held), Err(WearRefusal::OtherSlot));
    assert_eq!(
        (held, inv.defence()),
        (one("copper_helmet"), 0),
        "nothing moved"
    );
    inv.click_armour(0, &mut held).unwrap();
    assert_eq!((held, inv.defence()), (None, 1));
    // A better one goes on; the worn one comes onto the cursor.
    let mut held = one("iron_helmet");
    inv.click_armour(0, &mut held).unwrap();
    assert_eq!((held, inv.defence()), (one("copper_helmet"), 2));
    let mut held = one("iron_greaves");
    inv.click_armour(2, &mut held).unwrap();
    assert_eq!(inv.defence(), 4);
    // An empty cursor takes off what is worn.
    let mut held = None;
    inv.click_armour(0, &mut held).unwrap();
    assert_eq!((held, inv.defence()), (one("iron_helmet"), 2));
    // Not armour, or no such slot: refused, nothing moves.
    let mut gel = Some(Stack {
        item: id("gel"),
        count: 3,
    });
    assert_eq!(inv.click_armour(1, &mut gel), Err(WearRefusal::NotArmour));
    assert_eq!(inv.click_armour(3, &mut gel), Err(WearRefusal::OtherSlot));
    assert_eq!((gel.map(|s| s.count), inv.defence()), (Some(3), 2));
}

#[test]
fn an_accessory_needs_its_effect_and_stacks_one_to_a_slot() {
    let cat = Catalog::parse(ITEMS_RON, "items.ron", RECIPES_RON, "recipes.ron").unwrap();
    let boots = cat.item(cat.id("hermes_boots").unwrap());
    assert_eq!(
        (boots.kind, boots.stack),
        (
            Kind::Accessory {
                effect: crate::content::items::Effect::Run
            },
            1
        )
    );
    let items = ITEMS_RON.replace("kind: Accessory, effect: Run,", "kind: Accessory,");
    let e = Catalog::parse(&items, "items.ron", RECIPES_RON, "recipes.ron").unwrap_err();
    let e = e.to_string();
    assert!(e.contains("effect") && e.contains("items.ron:"), "{e}");
    let items = ITEMS_RON.replace("effect: Run,", "effect: Run, stack: 2,");
    let e = Catalog::parse(&items, "items.ron", RECIPES_RON, "recipes.ron").unwrap_err();
    assert!(e.to_string().contains("stack 1 to a slot"), "{e}");
}

#[test]
fn a_bad_armour_set_is_refused_at_its_line_with_its_field() {
    let cat = catalog();
    assert_eq!(
        cat.sets.len(),
        9,
        "the eight metal sets and the shadow armour"
    );
    let line_of =
        |text: &str, needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    // A piece worn elsewhere: greaves as the body.
    let items = ITEMS_RON.replace(
        "[\"iron_helmet\", \"iron_chainmail\", \"iron_greaves\"]",
        "[\"iron_helmet\", \"iron_greaves\", \"iron_greaves\"]",
    );
    let e = Catalog::parse(&items, "items.ron", RECIPES_RON, "recipes.ron").unwrap_err();
    let s = e.to_string();
    assert!(
        s.contains("sets[2].pieces[1]") && s.contains("not Body armour"),
        "{s}"
    );
    assert_eq!(
        e.position.map(|p| p.0),
        Some(line_of(&items, "\"iron_greaves\", \"iron_greaves\"")),
        "{s}"
    );
    // A speed past its range.
    let items = ITEMS_RON.replace("speed: 15),", "speed: 150),");
    let e = Catalog::parse(&items, "items.ron", RECIPES_RON, "recipes.ron").unwrap_err();
    let s = e.to_string();
    assert!(s.contains("sets[8].speed") && s.contains("0..=100"), "{s}");
    assert_eq!(
        e.position.map(|p| p.0),
        Some(line_of(&items, "speed: 150")),
        "{s}"
    );
    // No such item.
    let items = ITEMS_RON.replace("\"gold_greaves\"]", "\"golden_greaves\"]");
    let s = Catalog::parse(&items, "items.ron", RECIPES_RON, "recipes.ron")
        .unwrap_err()
        .to_string();
    assert!(s.contains("\"golden_greaves\" is not an item"), "{s}");
}
