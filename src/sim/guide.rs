//! What the Guide says: a hint for the player's next step, from what the player carries
//! and has built near them, the time and whether he has a house ([`hint`], the hints and
//! their conditions are `config/town.ron`'s), and, when the player holds an item, every
//! recipe that uses it ([`uses`]). [`talk`] is what a right-click on him says.

use crate::content::items::{Catalog, ItemId};
use crate::content::town::{Hint, When};

/// What the hints' conditions ask about.
pub struct Facts<'a> {
    pub night: bool,
    /// The Guide has no house.
    pub homeless: bool,
    /// Does the player carry this item, or does it stand near them as a station?
    pub has: &'a dyn Fn(ItemId) -> bool,
    /// The world's own items for those of the first ore of a pair where the world has
    /// the twin (`copper_bar` to `tin_bar`: `worldgen::lodes::twin_items`).
    pub twins: &'a [(ItemId, ItemId)],
}

impl Facts<'_> {
    /// `i` as this world has it.
    fn own(&self, i: ItemId) -> ItemId {
        crate::worldgen::lodes::own_item(self.twins, i)
    }

    fn holds(&self, w: When) -> bool {
        match w {
            When::Night => self.night,
            When::Homeless => self.homeless,
            When::Has(i) => (self.has)(self.own(i)),
            When::Lacks(i) => !(self.has)(self.own(i)),
        }
    }
}

/// The first hint whose every condition holds (the town file's last has none, so there
/// always is one; an empty list says nothing), each `{iron}` (or `{Iron}`) in it the
/// name of the world's own ore of that pair (`lead` in a world of lead).
pub fn hint(cat: &Catalog, hints: &[Hint], facts: &Facts) -> String {
    let say = hints
        .iter()
        .find(|h| h.when.iter().all(|&w| facts.holds(w)))
        .map_or("", |h| h.say.as_str());
    let metal = |i: ItemId| {
        let name = cat.item(i).name.as_str();
        name.split('_').next().unwrap_or(name).to_string()
    };
    let capital = |m: &str| m[..1].to_uppercase() + &m[1..];
    let mut out = say.to_string();
    for &(from, to) in facts.twins {
        let (a, b) = (metal(from), metal(to));
        out = out
            .replace(&format!("{{{a}}}"), &b)
            .replace(&format!("{{{}}}", capital(&a)), &capital(&b));
    }
    // The pairs the world has the first ore of.
    out.replace(['{', '}'], "")
}

/// Every recipe that uses `item`, as a line (`wood makes: workbench (8), torch x4 (1
/// and 1 gel), ...`), or `None` when nothing is made from it.
pub fn uses(cat: &Catalog, item: ItemId) -> Option<String> {
    let made: Vec<String> = cat
        .recipes
        .iter()
        .filter_map(|r| {
            let n = r.from.iter().find(|&&(i, _)| i == item)?.1;
            let mut line = cat.item(r.make).label.clone();
            if r.count > 1 {
                line.push_str(&format!(" x{}", r.count));
            }
            let others: Vec<String> = r
                .from
                .iter()
                .filter(|&&(i, _)| i != item)
                .map(|&(i, k)| format!("{k} {}", cat.item(i).label))
                .collect();
            let mut need = n.to_string();
            if !others.is_empty() {
                need = format!("{need} with {}", others.join(", "));
            }
            if let Some(at) = r.at {
                need = format!("{need}, at a {}", at.label());
            }
            Some(format!("{line} ({need})"))
        })
        .collect();
    (!made.is_empty()).then(|| format!("{} makes: {}", cat.item(item).label, made.join("; ")))
}

/// Where each raw material (one no recipe makes) comes from, as the Guide says it.
pub const SOURCES: &[(&str, &str)] = &[
    ("wood", "Trees give wood: hold the mouse button on a trunk."),
    (
        "leaves",
        "A felled tree's crown drops leaves, a few from every tree.",
    ),
    ("gel", "Slimes drop gel."),
    ("lens", "Demon eyes drop lenses; they fly at night."),
    ("stone", "Stone lies under the dirt: dig down."),
    ("dirt", "Dirt is the ground itself."),
    ("sand", "Sand lies in the deserts."),
    (
        "copper_ore",
        "Copper ore lies near the surface, in the dirt and the caves.",
    ),
    (
        "iron_ore",
        "Iron ore lies below the surface, in the dirt and stone.",
    ),
    ("silver_ore", "Silver ore lies deeper, in the caverns."),
    ("gold_ore", "Gold ore lies deeper still, in the caverns."),
    // A world has one ore of each pair: copper or tin, iron or lead, silver or tungsten,
    // gold or platinum.
    (
        "tin_ore",
        "Tin ore lies near the surface where copper does not: a world has one of the two.",
    ),
    (
        "lead_ore",
        "Lead ore lies below the surface where iron does not: a world has one of the two.",
    ),
    (
        "tungsten_ore",
        "Tungsten ore lies deeper, in the caverns of a world without silver.",
    ),
    (
        "platinum_ore",
        "Platinum ore lies deeper still, in the caverns of a world without gold.",
    ),
    (
        "demonite_ore",
        "Demonite ore lies in the corruption's ebonstone; the Eye drops some.",
    ),
    // The way to the later bosses' parts (src/sim/session/rivals.rs).
    ("ebonstone", "Ebonstone is the corruption's stone."),
    (
        "rotten_chunk",
        "Rotten chunks drop from the eaters of souls that fly over the corruption.",
    ),
    (
        "shadow_scale",
        "Shadow scales drop from the Eater of Worlds.",
    ),
    (
        "hellstone",
        "Hellstone lies by the underworld's lava; it takes a demonite pickaxe.",
    ),
    (
        "obsidian",
        "Obsidian forms where water meets lava; fire imps and the underworld's chests hold some. It takes a gold or better pickaxe.",
    ),
    ("cobweb", "Cobwebs hang in the spiders' caves."),
    ("sandstone", "Sandstone lies under the deserts."),
    (
        "hardened_sand",
        "Hardened sand lines the underground desert.",
    ),
    ("mud", "Mud lies under the jungle."),
    ("snow", "Snow covers the cold lands."),
    ("ice", "Ice lies under the snow and in its caves."),
    // Accessories: the hook for the grappling hook.
    (
        "hook",
        "Skeletons in the caverns and the dungeon sometimes drop a hook.",
    ),
    // The four ways to fight's raw parts.
    (
        "amethyst",
        "Amethyst lies in the caverns' stone, a purple gem.",
    ),
];

/// Where the raw material `name` comes from, if the Guide knows it.
pub fn source(name: &str) -> Option<&'static str> {
    SOURCES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// What the Guide says when talked to: what the item held makes, if anything is made
/// from it, and where it comes from, if he knows; else the hint for the player's next
/// step.
pub fn talk(cat: &Catalog, hints: &[Hint], facts: &Facts, held: Option<ItemId>) -> String {
    let from = held.and_then(|i| source(&cat.item(i).name));
    match (held.and_then(|i| uses(cat, i)), from) {
        (Some(u), Some(f)) => format!("{u}. {f}"),
        (Some(u), None) => u,
        (None, Some(f)) => f.to_string(),
        (None, None) => hint(cat, hints, facts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in content, as a session without mods plays by.
    fn content() -> crate::content::config::Content {
        crate::content::config::Content::builtin()
    }

    /// The hint for a player holding (or standing by) exactly `items`.
    /// Wood is carried at every stage but the first (which asks for it).
    fn hint_with(items: &[&str], night: bool, homeless: bool) -> String {
        hint_in(items, night, homeless, &[])
    }

    /// [`hint_with`] in a world whose own items are `twins`.
    fn hint_in(items: &[&str], night: bool, homeless: bool, twins: &[(ItemId, ItemId)]) -> String {
        let content = content();
        let mut ids: Vec<ItemId> = items
            .iter()
            .map(|n| content.catalog.id(n).unwrap())
            .collect();
        if !items.is_empty() {
            ids.push(content.catalog.id("wood").unwrap());
        }
        let has = move |i: ItemId| ids.contains(&i);
        hint(
            &content.catalog,
            &content.town.hints,
            &Facts {
                night,
                homeless,
                has: &has,
                twins,
            },
        )
    }

    #[test]
    fn in_a_world_of_lead_the_guide_sends_a_player_for_lead() {
        let lead = ["ore", "bar", "pickaxe"].map(|k| {
            let id = |m: &str| content().catalog.id(&format!("{m}_{k}")).unwrap();
            (id("iron"), id("lead"))
        });
        let say = |items: &[&str]| hint_in(items, false, true, &lead);
        let dig = say(&["workbench", "furnace"]);
        assert!(dig.contains("Dig for lead ore"), "{dig}");
        assert!(!dig.contains("iron") && !dig.contains('{'), "{dig}");
        let smelt = say(&["workbench", "furnace", "lead_ore"]);
        assert!(smelt.contains("lead bar"), "{smelt}");
        let anvil = say(&["workbench", "furnace", "lead_bar"]);
        assert!(anvil.contains("Five lead bars make an anvil"), "{anvil}");
        let pick = say(&["workbench", "furnace", "anvil"]);
        assert!(pick.contains("lead pickaxe"), "{pick}");
        // A lead pickaxe counts as the iron one did.
        let housed = say(&["workbench", "furnace", "anvil", "lead_pickaxe"]);
        assert!(housed.contains("I could use a house"), "{housed}");
        // Coins keep their metals.
        let coins = say(&[
            "workbench",
            "furnace",
            "anvil",
            "lead_pickaxe",
            "copper_coin",
        ]);
        assert!(!coins.contains("lead"), "{coins}");
    }

    #[test]
    fn each_stage_gets_its_hint() {
        let day = |items: &[&str]| hint_with(items, false, true);
        assert!(day(&[]).contains("Trees give wood"));
        assert!(day(&["wood"]).contains("workbench"));
        assert!(day(&["wood", "workbench"]).contains("furnace"));
        let smelt = day(&["workbench", "furnace", "copper_ore"]);
        assert!(smelt.contains("smelts 3 ore into a bar"), "{smelt}");
        assert!(day(&["workbench", "furnace", "iron_ore"]).contains("iron bar"));
        assert!(day(&["workbench", "furnace", "iron_bar"]).contains("make an anvil"));
        assert!(day(&["workbench", "furnace"]).contains("Dig for iron ore"));
        let anvil = ["workbench", "furnace", "anvil"];
        assert!(day(&anvil).contains("iron pickaxe"));
        let housed = hint_with(
            &["workbench", "furnace", "anvil", "iron_pickaxe"],
            false,
            true,
        );
        assert!(housed.contains("I could use a house"), "{housed}");
        let deeper = hint_with(
            &["workbench", "furnace", "anvil", "iron_pickaxe"],
            false,
            false,
        );
        assert!(deeper.contains("caverns"), "{deeper}");
        let all = ["workbench", "furnace", "anvil", "gold_pickaxe"];
        assert!(hint_with(&all, false, false).contains("underworld"));
        // Past the tools: what is carried from the caverns, the night and the creatures.
        let tools = ["workbench", "furnace", "anvil", "iron_pickaxe"];
        let with = |item: &str| {
            let mut items = tools.to_vec();
            items.push(item);
            hint_with(&items, false, false)
        };
        assert!(with("life_crystal").contains("20 more health"));
        assert!(with("life_crystal").contains("a nurse will move into a free house"));
        assert!(with("lens").contains("six make a suspicious looking eye"));
        assert!(with("suspicious_looking_eye").contains("Use it at night"));
        assert!(with("copper_coin").contains("100 copper make a silver"));
        assert!(with("silver_coin").contains("a merchant will move in"));
        // Homeless, the house comes before the coins.
        let mut coins = tools.to_vec();
        coins.push("copper_coin");
        assert!(hint_with(&coins, false, true).contains("I could use a house"));
    }

    #[test]
    fn at_night_a_homeless_guide_asks_for_a_house_first() {
        assert!(hint_with(&["wood"], true, true).contains("Build a house"));
        // With a house, the night is like the day.
        assert!(hint_with(&["wood"], true, false).contains("workbench"));
    }

    #[test]
    fn holding_an_item_he_names_every_recipe_that_uses_it() {
        let cat = &content().catalog;
        let wood = content().catalog.id("wood").unwrap();
        let line = uses(cat, wood).unwrap();
        assert!(line.starts_with("wood makes: workbench (8)"), "{line}");
        for r in cat
            .recipes
            .iter()
            .filter(|r| r.from.iter().any(|f| f.0 == wood))
        {
            assert!(line.contains(&cat.item(r.make).label), "{line}");
        }
        assert!(line.contains("torch x4 (1 with 1 gel)"), "{line}");
        assert!(line.contains("wooden door (6, at a workbench)"), "{line}");
        // A pickaxe makes nothing: the hint is said instead.
        let pick = content().catalog.id("copper_pickaxe").unwrap();
        assert_eq!(uses(cat, pick), None);
        let none = |_: ItemId| false;
        let facts = Facts {
            night: false,
            homeless: true,
            has: &none,
            twins: &[],
        };
        let said = talk(cat, &content().town.hints, &facts, Some(pick));
        assert!(said.contains("Trees give wood"), "{said}");
        assert!(talk(cat, &content().town.hints, &facts, Some(wood)).starts_with("wood makes:"));
        // Holding leaves: the bed they make, and where they come from.
        let leaves = cat.id("leaves").unwrap();
        let said = talk(cat, &content().town.hints, &facts, Some(leaves));
        assert!(said.contains("bed (5 with 15 wood"), "{said}");
        assert!(said.contains("felled tree's crown"), "{said}");
    }
}
