//! The progression graph: from a new world, can a player come by every item of the
//! content and call every boss? A walk in rounds from the start items: each round mines
//! what the best pickaxe so far can dig in the world, crafts what the items and stations
//! so far allow, opens the chests of the layers and landmarks the world has, kills the
//! creatures, buys from the Merchant once a house and his coins are in hand, and calls a
//! boss once its summoning item is. What no round reaches has no source; `tests/
//! progression.rs` walks every shipped preset over several seeds and fails naming it.
//!
//! The walk is generous on purpose: it asks whether a source exists, not whether a player
//! finds it soon (that is the playtests' and the tier counts' question, [`Offer::tiles`]).

use crate::base::depth::Layer;
use crate::base::tile::{Tile, drop_of};
use crate::content::config::Content;
use crate::content::items::{ItemId, Kind, Tool};
use crate::content::town::Needs;
use crate::sim::boss::RivalKind;
use crate::world::World;
use crate::world::depth::Layers;
use crate::world::inventory::Inventory;
use crate::world::structure::StructureKind;

/// What one world offers a player: its tiles and the places its chests' loot comes from.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Offer {
    /// How many of each tile ([`Tile::ALL`]'s order) the world holds.
    pub tiles: Vec<u64>,
    /// Depth layers that hold a chest stocked by its layer's tier.
    pub chest_layers: Vec<Layer>,
    /// Named loot sets the world's landmarks draw from (`dungeon`, `sky`, `cabin`,
    /// `shadow_orb`).
    pub sets: Vec<String>,
    /// The kinds of landmark the world has.
    pub landmarks: Vec<StructureKind>,
}

impl Offer {
    /// What `world` offers.
    pub fn of(world: &World) -> Offer {
        let mut tiles = vec![0u64; Tile::COUNT];
        for t in world.tiles() {
            tiles[*t as usize] += 1;
        }
        let layers = Layers::of(&world.preset);
        let inside = |kind: StructureKind, (x, y): (usize, usize)| {
            world.structures.iter().any(|s| {
                s.kind == kind
                    && (s.x..s.x + s.w).contains(&(x as i32))
                    && (s.y..s.y + s.h).contains(&(y as i32))
            })
        };
        let mut offer = Offer {
            tiles,
            ..Offer::default()
        };
        for ((x, y), _) in world.chests.iter() {
            if inside(StructureKind::Dungeon, (x, y)) {
                offer.add_set("dungeon");
            } else if inside(StructureKind::Island, (x, y)) {
                offer.add_set("sky");
            } else if inside(StructureKind::Cabin, (x, y)) {
                offer.add_set("cabin");
            } else {
                let layer = layers.at(y, world.surface[x]);
                if !offer.chest_layers.contains(&layer) {
                    offer.chest_layers.push(layer);
                }
            }
        }
        if offer.count(Tile::ShadowOrb) > 0 {
            offer.add_set("shadow_orb");
        }
        for s in &world.structures {
            if !offer.landmarks.contains(&s.kind) {
                offer.landmarks.push(s.kind);
            }
        }
        offer
    }

    /// How many `tile`s the world holds.
    pub fn count(&self, tile: Tile) -> u64 {
        self.tiles.get(tile as usize).copied().unwrap_or(0)
    }

    fn add_set(&mut self, name: &str) {
        if !self.sets.iter().any(|s| s == name) {
            self.sets.push(name.to_string());
        }
    }
}

/// Where an item first came from in the walk.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The rules' start items.
    Start,
    /// Dug (or felled) from this tile of the world.
    Mined(Tile),
    /// Made by this recipe ([`crate::content::items::Catalog::recipes`]' index).
    Crafted(usize),
    /// A chest of this layer's tier.
    Chest(Layer),
    /// A landmark's chest or a smashed orb: the named loot set.
    Set(String),
    /// The Merchant's shop.
    Shop,
    /// Coins, from creatures killed (and changed up by a hundred).
    Coins,
    /// Dropped by this creature.
    Drop(String),
    /// Dropped by this boss.
    Boss(&'static str),
}

/// What calls a boss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// Using (or, the guide voodoo doll, burning in the underworld's lava) this item.
    Item(&'static str),
    /// Breaking the world's shadow orbs with a hammer (the third calls the Eater).
    Orbs,
    /// Talking at night to the Old Man at the dungeon's door.
    OldMan,
}

/// A boss the walk can call: its name, what calls it (any of them) and what it drops.
#[derive(Clone, Debug, PartialEq)]
pub struct BossRoute {
    pub name: &'static str,
    /// Its name in the world's progress (a town file's `Defeated(..)`).
    pub flag: &'static str,
    pub calls: Vec<Call>,
    pub loot: Vec<(String, u32)>,
}

/// The bosses the simulation has, with what calls them and their loot (as the bosses'
/// data `b` has it).
pub fn bosses(b: &crate::content::bosses::Bosses) -> Vec<BossRoute> {
    let mut all = vec![BossRoute {
        name: "the Eye",
        flag: crate::sim::boss::FLAG,
        calls: vec![Call::Item("suspicious_looking_eye")],
        loot: b.loot.eye.clone(),
    }];
    for kind in RivalKind::ALL {
        let calls = match kind {
            RivalKind::Eater => vec![Call::Item(crate::sim::session::WORM_FOOD), Call::Orbs],
            RivalKind::Skeletron => vec![Call::OldMan],
            RivalKind::Wall => vec![Call::Item(crate::sim::session::VOODOO_DOLL)],
        };
        all.push(BossRoute {
            name: kind.name(),
            flag: kind.flag(),
            calls,
            loot: kind.loot(b).to_vec(),
        });
    }
    all
}

/// What a walk found.
#[derive(Clone, Debug, PartialEq)]
pub struct Reach {
    /// Per item ([`ItemId`]'s index): the round it was first had, and how.
    pub got: Vec<Option<(u32, Source)>>,
    /// Per boss of [`bosses`]: the round it can first be called (its summon in hand).
    pub bosses: Vec<(&'static str, Option<u32>)>,
    /// The best pickaxe power had at the end.
    pub pick_power: u32,
    /// Rounds walked.
    pub rounds: u32,
}

impl Reach {
    /// The names of the items no round reached, in catalog order.
    pub fn missing(&self, content: &Content) -> Vec<String> {
        let cat = &content.catalog;
        (0..self.got.len())
            .filter(|&i| self.got[i].is_none())
            .map(|i| cat.item(ItemId(i as u16)).name.clone())
            .collect()
    }

    /// Whether `name` was reached.
    pub fn has(&self, content: &Content, name: &str) -> bool {
        content
            .catalog
            .id(name)
            .is_some_and(|id| self.got[id.0 as usize].is_some())
    }

    /// The round `name` was first had in.
    pub fn round_of(&self, content: &Content, name: &str) -> Option<u32> {
        let id = content.catalog.id(name)?;
        self.got[id.0 as usize].as_ref().map(|g| g.0)
    }
}

/// Walks `content` in the world(s) `offer` describes.
pub fn walk(content: &Content, offer: &Offer) -> Reach {
    let cat = &content.catalog;
    let n = cat.items.len();
    let mut got: Vec<Option<(u32, Source)>> = vec![None; n];
    let bosses = bosses(&content.bestiary.bosses);
    let mut called: Vec<Option<u32>> = vec![None; bosses.len()];
    let id = |name: &str| cat.id(name);
    let kit = Inventory::starting(&content.catalog);
    for (i, g) in got.iter_mut().enumerate() {
        if kit.count(ItemId(i as u16)) > 0 {
            *g = Some((0, Source::Start));
        }
    }
    for (name, _) in &content.rules.start_items {
        if let Some(i) = id(name) {
            got[i.0 as usize] = Some((0, Source::Start));
        }
    }
    let mut round = 0;
    loop {
        round += 1;
        let has = |got: &[Option<(u32, Source)>], i: ItemId| got[i.0 as usize].is_some();
        let has_name =
            |got: &[Option<(u32, Source)>], name: &str| id(name).is_some_and(|i| has(got, i));
        let pick = (0..n)
            .filter(|&i| got[i].is_some())
            .filter_map(|i| match cat.items[i].kind {
                Kind::Pickaxe { power, .. } => Some(power),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let placeable =
            |got: &[Option<(u32, Source)>], t: Tile| cat.block_item(t).is_some_and(|i| has(got, i));
        let mut found: Vec<(ItemId, Source)> = Vec::new();
        // Mining and felling.
        for t in Tile::ALL {
            if offer.count(t) == 0 || (pick == 0 && cat.power_needed(t) > 0) {
                continue;
            }
            if cat.power_needed(t) <= pick
                && let Some(i) = cat.block_item(drop_of(t))
            {
                found.push((i, Source::Mined(t)));
            }
        }
        if offer.count(Tile::Trunk) > 0
            && let Some(i) = cat.block_item(Tile::Leaves)
        {
            found.push((i, Source::Mined(Tile::Leaves)));
        }
        // Crafting.
        for (r, recipe) in cat.recipes.iter().enumerate() {
            let station = recipe.at.is_none_or(|t| placeable(&got, t));
            if station && recipe.from.iter().all(|(i, _)| has(&got, *i)) {
                found.push((recipe.make, Source::Crafted(r)));
            }
        }
        let skeletron_down = bosses
            .iter()
            .zip(&called)
            .any(|(b, c)| b.name == RivalKind::Skeletron.name() && c.is_some());
        // Chests, by layer and by landmark.
        for tier in &content.loot.tiers {
            if offer.chest_layers.contains(&tier.layer) {
                found.extend(
                    tier.rows
                        .iter()
                        .map(|r| (r.item, Source::Chest(tier.layer))),
                );
            }
        }
        for set in &content.loot.sets {
            let open = offer.sets.contains(&set.name)
                && match set.name.as_str() {
                    "shadow_orb" => has_hammer(content, &got),
                    // Its guardian keeps the dungeon until Skeletron falls.
                    "dungeon" => skeletron_down,
                    _ => true,
                };
            if open {
                found.extend(
                    set.rows
                        .iter()
                        .map(|r| (r.item, Source::Set(set.name.clone()))),
                );
            }
        }
        // Creatures: their drops and their coins (changed up into every coin).
        for kind in content
            .bestiary
            .kinds
            .iter()
            .filter(|k| !k.spawn.is_empty())
        {
            for drop in &kind.drops {
                if let Some(i) = id(&drop.item).filter(|_| drop.chance > 0.0 && drop.count.1 > 0) {
                    found.push((i, Source::Drop(kind.name.clone())));
                }
            }
        }
        // A kill while the player's mana is low leaves a star.
        if let Some(i) = id(crate::sim::session::MANA_STAR) {
            found.push((i, Source::Drop("a creature, at low mana".into())));
        }
        // An empty bucket fills with the liquids the world holds.
        if (0..n).any(|i| {
            got[i].is_some()
                && matches!(
                    cat.items[i].kind,
                    Kind::Tool {
                        tool: Tool::EmptyBucket
                    }
                )
        }) {
            for (i, item) in cat.items.iter().enumerate() {
                if let Kind::Tool { tool } = item.kind
                    && let Some(liquid) = tool.liquid()
                    && offer.count(liquid) > 0
                {
                    found.push((ItemId(i as u16), Source::Mined(liquid)));
                }
            }
        }
        for coin in &content.town.coins.items {
            found.push((*coin, Source::Coins));
        }
        // The Merchant, once a house can be built and his coins carried.
        let house = [
            &content.town.housing.lights,
            &content.town.housing.flat,
            &content.town.housing.comfort,
        ]
        .iter()
        .all(|list| list.iter().any(|t| placeable(&got, *t)))
            && placeable(&got, Tile::ClosedDoor);
        let coins = content.town.coins.items.iter().all(|c| has(&got, *c));
        if house && coins {
            found.extend(
                content
                    .town
                    .merchant
                    .sells
                    .iter()
                    .map(|i| (*i, Source::Shop)),
            );
        }
        // The newcomers' shops, once a house stands and each one's conditions can hold.
        for n in content.town.newcomers.iter().filter(|_| house) {
            let can = n.when.iter().all(|need| match *need {
                Needs::Has(i) => has(&got, i),
                Needs::Defeated(boss) => bosses
                    .iter()
                    .zip(&called)
                    .any(|(b, c)| b.flag == boss && c.is_some()),
                Needs::Carries(_) => coins,
                Needs::MostHealth(_) => has_name(&got, "life_crystal"),
                Needs::Night | Needs::Lacks(_) => true,
            });
            if let Some(shop) = n.shop.as_ref().filter(|_| can) {
                found.extend(shop.sells.iter().map(|i| (*i, Source::Shop)));
            }
        }
        // Bosses.
        for (b, boss) in bosses.iter().enumerate() {
            let can = boss.calls.iter().any(|c| match *c {
                Call::Item(name) => has_name(&got, name),
                Call::Orbs => offer.count(Tile::ShadowOrb) >= 3 && has_hammer(content, &got),
                Call::OldMan => offer.landmarks.contains(&StructureKind::Dungeon),
            });
            if called[b].is_none() && can {
                called[b] = Some(round);
            }
            if called[b].is_some() {
                found.extend(
                    boss.loot
                        .iter()
                        .filter_map(|(name, _)| id(name))
                        .map(|i| (i, Source::Boss(boss.name))),
                );
            }
        }
        let mut changed = false;
        for (i, how) in found {
            if got[i.0 as usize].is_none() {
                got[i.0 as usize] = Some((round, how));
                changed = true;
            }
        }
        if !changed {
            return Reach {
                pick_power: pick,
                got,
                bosses: bosses.iter().map(|b| b.name).zip(called).collect(),
                rounds: round,
            };
        }
    }
}

fn has_hammer(content: &Content, got: &[Option<(u32, Source)>]) -> bool {
    let cat = &content.catalog;
    (0..got.len()).any(|i| got[i].is_some() && matches!(cat.items[i].kind, Kind::Hammer { .. }))
}

/// How much of `ore` (an item) a player needs to make one of everything its bars make:
/// every recipe that takes the bar, once, in ore (the bar's own recipe's ore per bar).
/// `None` if no recipe smelts `ore` into a bar.
pub fn ore_for_tier(content: &Content, ore: &str) -> Option<u64> {
    let cat = &content.catalog;
    let ore = cat.id(ore)?;
    let bar_recipe = cat
        .recipes
        .iter()
        .find(|r| r.from.len() == 1 && r.from[0].0 == ore)?;
    let per_bar = bar_recipe.from[0].1 as u64 / bar_recipe.count.max(1) as u64;
    let bars: u64 = cat
        .recipes
        .iter()
        .filter_map(|r| r.from.iter().find(|(i, _)| *i == bar_recipe.make))
        .map(|(_, n)| *n as u64)
        .sum();
    Some(bars * per_bar.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::mods::ModText;

    #[test]
    fn each_boss_flag_is_one_the_world_keeps_and_each_boss_has_its_own() {
        let mut p = crate::world::progress::Progress::default();
        let shipped = crate::content::bosses::Bosses::default();
        let flags: Vec<&str> = bosses(&shipped).iter().map(|b| b.flag).collect();
        assert_eq!(flags, crate::content::town::BOSSES);
        p.wall_defeated = 1;
        for kind in RivalKind::ALL {
            let down = kind == RivalKind::Wall;
            assert_eq!(p.defeated(kind.flag()), Some(down), "{kind:?}");
        }
    }

    /// A world of every tile, chests in every layer and every landmark.
    fn everything() -> Offer {
        Offer {
            tiles: vec![1000; Tile::COUNT],
            chest_layers: vec![
                Layer::Surface,
                Layer::Underground,
                Layer::Cavern,
                Layer::Underworld,
            ],
            sets: ["dungeon", "sky", "cabin", "shadow_orb"]
                .map(String::from)
                .to_vec(),
            landmarks: StructureKind::ALL.to_vec(),
        }
    }

    /// Every tile, but no chests.
    fn tiles_only() -> Offer {
        Offer {
            tiles: vec![1000; Tile::COUNT],
            ..Offer::default()
        }
    }

    #[test]
    fn the_start_kit_digs_stone_at_once_and_silver_waits_for_a_better_pickaxe() {
        let content = Content::builtin();
        let reach = walk(&content, &tiles_only());
        let kit = content.catalog.id("copper_pickaxe").unwrap();
        assert_eq!(
            reach.got[kit.0 as usize].as_ref().map(|g| &g.1),
            Some(&Source::Start)
        );
        assert_eq!(reach.round_of(&content, "stone"), Some(1));
        // Silver ore needs power 40 (an iron or lead pickaxe): iron bars need a furnace,
        // which needs stone and a workbench first.
        let copper = reach.round_of(&content, "copper_ore").unwrap();
        let silver = reach.round_of(&content, "silver_ore").unwrap();
        assert!(silver > copper + 1, "copper {copper} silver {silver}");
        assert!(reach.pick_power >= 55, "{}", reach.pick_power);
    }

    #[test]
    fn a_station_out_of_reach_gates_its_recipes() {
        let content = Content::builtin();
        assert!(walk(&content, &everything()).has(&content, "copper_bar"));
        // No stone anywhere, no furnace to take from a cabin and no chests: no furnace,
        // so no bars.
        let mut no_stone = tiles_only();
        no_stone.tiles[Tile::Stone as usize] = 0;
        no_stone.tiles[Tile::Furnace as usize] = 0;
        let reach = walk(&content, &no_stone);
        assert!(!reach.has(&content, "furnace"));
        assert!(!reach.has(&content, "copper_bar"));
        assert!(reach.has(&content, "copper_ore"));
    }

    #[test]
    fn the_hellstone_tier_waits_for_the_demonite_pickaxe() {
        let content = Content::builtin();
        let reach = walk(&content, &tiles_only());
        // Hellstone needs power 65: the demonite pickaxe, after the Eater's scales.
        let demonite = reach.round_of(&content, "demonite_pickaxe").unwrap();
        let hellstone = reach.round_of(&content, "hellstone").unwrap();
        let bar = reach.round_of(&content, "hellstone_bar").unwrap();
        assert!(
            hellstone > demonite && bar > hellstone,
            "{demonite} {hellstone} {bar}"
        );
        assert!(reach.round_of(&content, "molten_pickaxe").unwrap() > bar);
        let mut c = Content::builtin();
        let pick = c.catalog.id("demonite_pickaxe").unwrap();
        let cat = std::sync::Arc::make_mut(&mut c.catalog);
        cat.recipes.retain(|r| r.make != pick);
        let reach = walk(&c, &tiles_only());
        assert!(!reach.has(&c, "hellstone") && !reach.has(&c, "fiery_greatsword"));
    }

    #[test]
    fn an_item_with_no_source_is_named_and_one_made_from_it_too() {
        let text = r#"(
            items: [
                (name: "unobtainium", label: "unobtainium", kind: Material),
                (name: "unobtainium_bar", label: "unobtainium bar", kind: Material),
            ],
            recipes: [
                (make: "unobtainium_bar", from: [("unobtainium", 3)], at: "furnace"),
            ],
        )"#;
        let content = Content::with_mods(&[ModText {
            name: "mods/unobtainium.ron".into(),
            text: text.into(),
        }])
        .unwrap();
        let missing = walk(&content, &everything()).missing(&content);
        assert!(
            missing.ends_with(&["unobtainium".into(), "unobtainium_bar".into()]),
            "{missing:?}"
        );
        let builtin = Content::builtin();
        assert_eq!(
            walk(&builtin, &everything()).missing(&builtin).len() + 2,
            missing.len()
        );
    }

    #[test]
    fn a_boss_is_called_only_once_its_summon_is_in_hand() {
        let content = Content::builtin();
        // A world without demonite of its own: the Eye is its only source.
        let mut offer = tiles_only();
        offer.tiles[Tile::DemoniteOre as usize] = 0;
        let reach = walk(&content, &offer);
        let eye = reach.bosses[0].1.unwrap();
        let summon = reach.round_of(&content, "suspicious_looking_eye").unwrap();
        assert!(eye > summon, "eye {eye} summon {summon}");
        // The Eye's demonite comes after it.
        assert!(reach.round_of(&content, "demonite_ore").unwrap() > summon);
        // Without lenses (no demon eyes drop them here) and no chests, no Eye.
        let mut c = Content::builtin();
        let lens = c.catalog.id("lens").unwrap();
        let cat = std::sync::Arc::make_mut(&mut c.catalog);
        cat.recipes.retain(|r| !r.from.iter().any(|f| f.0 == lens));
        let reach = walk(&c, &Offer::default());
        assert_eq!(reach.bosses[0].1, None);
        assert!(
            reach
                .missing(&c)
                .contains(&"suspicious_looking_eye".to_string())
        );
    }

    #[test]
    fn skeletron_needs_the_dungeon_and_opens_its_chests() {
        let skeletron = |r: &Reach| {
            r.bosses
                .iter()
                .find(|b| b.0 == RivalKind::Skeletron.name())
                .unwrap()
                .1
        };
        // A key only the dungeon's chests hold.
        let mut content = Content::with_mods(&[ModText {
            name: "mods/key.ron".into(),
            text: r#"(items: [(name: "golden_key", label: "golden key", kind: Material)])"#.into(),
        }])
        .unwrap();
        let only_dungeon = content.catalog.id("golden_key").unwrap();
        let set = content
            .loot
            .sets
            .iter_mut()
            .find(|s| s.name == "dungeon")
            .unwrap();
        set.rows.push(crate::content::loot::LootRow {
            item: only_dungeon,
            count: (1, 1),
            weight: 1,
        });
        let reach = walk(&content, &everything());
        let called = skeletron(&reach).unwrap();
        assert!(reach.got[only_dungeon.0 as usize].as_ref().unwrap().0 > called);
        let mut no_dungeon = everything();
        no_dungeon
            .landmarks
            .retain(|k| *k != StructureKind::Dungeon);
        let reach = walk(&content, &no_dungeon);
        assert_eq!(skeletron(&reach), None);
        assert!(reach.got[only_dungeon.0 as usize].is_none());
    }

    #[test]
    fn a_tier_needs_the_ore_of_each_of_its_recipes() {
        let content = Content::builtin();
        let copper = ore_for_tier(&content, "copper_ore").unwrap();
        // A pickaxe, a sword, a hammer and three pieces of armour, several bars each.
        assert!(copper >= 3 * 6 * 3, "{copper}");
        assert_eq!(ore_for_tier(&content, "dirt"), None);
    }
}
