//! Chest loot: `config/loot.ron`, tiers of weighted item rows by depth layer, compiled in
//! and checked by [`LootTable::parse`] against the item catalog (errors name the file,
//! line:col, the field and its allowed range, as items' and presets' do). [`LootTable::draw`]
//! draws one chest's contents from a random stream; the chests pass gives it one seeded by
//! the chest's position, so the same seed gives the same chests.

use crate::base::depth::Layer;
use crate::content::items::CHEST_SLOTS;
use crate::content::items::{Bad, Catalog, ItemId, bad, parse_ron, placed, range_u};
use crate::content::preset::PresetError;
use rand::RngExt;
use serde::Deserialize;

/// `config/loot.ron`, as compiled in.
pub const LOOT_RON: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/config/loot.ron"));
/// Most rows in one tier.
pub const MAX_ROWS: usize = 64;

/// One row of a tier: an item, how many, and how likely.
#[derive(Clone, Debug, PartialEq)]
pub struct LootRow {
    pub item: ItemId,
    /// Fewest and most of it one draw gives.
    pub count: (u32, u32),
    pub weight: u32,
}

/// What the chests of one layer (and the layers below it without a tier) hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Tier {
    pub layer: Layer,
    /// Fewest and most draws a chest gets.
    pub rolls: (u32, u32),
    pub rows: Vec<LootRow>,
}

/// What one kind of landmark's chests (or a smashed shadow orb) hold, by name.
#[derive(Clone, Debug, PartialEq)]
pub struct LootSet {
    pub name: String,
    pub rolls: (u32, u32),
    pub rows: Vec<LootRow>,
}

/// The names of the sets generation and the game draw from (a set of another name is
/// refused; a file without one of them gives nothing from it).
pub const SET_NAMES: [&str; 4] = ["dungeon", "sky", "shadow_orb", "cabin"];

/// Every tier, top to bottom, and every named set, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct LootTable {
    pub tiers: Vec<Tier>,
    pub sets: Vec<LootSet>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LootFile {
    tiers: Vec<TierRow>,
    #[serde(default)]
    sets: Vec<SetRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetRow {
    name: String,
    rolls: (u32, u32),
    items: Vec<ItemRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TierRow {
    layer: Layer,
    rolls: (u32, u32),
    items: Vec<ItemRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ItemRow {
    item: String,
    count: (u32, u32),
    weight: u32,
}

/// A `(min, max)` pair within `lo..=hi`, min at most max.
fn range_pair(field: String, v: (u32, u32), lo: u32, hi: u32) -> Result<(u32, u32), Bad> {
    let min = range_u(format!("{field}.0"), v.0, lo, hi)?;
    let max = range_u(format!("{field}.1"), v.1, min, hi)?;
    Ok((min, max))
}

impl LootTable {
    /// The table compiled into the binary, checked against `cat`.
    pub fn builtin(cat: &Catalog) -> Result<LootTable, PresetError> {
        LootTable::parse(LOOT_RON, "config/loot.ron", cat)
    }

    /// Parses and checks loot text; `source` names it in errors.
    pub fn parse(text: &str, source: &str, cat: &Catalog) -> Result<LootTable, PresetError> {
        let file: LootFile = parse_ron(text, source)?;
        LootTable::check(&file, cat).map_err(|b| placed(text, source, b, &[]))
    }

    pub(crate) fn check(file: &LootFile, cat: &Catalog) -> Result<LootTable, Bad> {
        if file.tiers.is_empty() || file.tiers.len() > 4 {
            let m = format!("tiers lists {} tiers: allowed 1..=4", file.tiers.len());
            return Err(bad("tiers", m));
        }
        let mut tiers: Vec<Tier> = Vec::with_capacity(file.tiers.len());
        for (i, t) in file.tiers.iter().enumerate() {
            let at = |f: &str| format!("tiers[{i}].{f}");
            let above = tiers.last().map(|p| p.layer);
            if t.layer == Layer::Sky || above.is_some_and(|a| t.layer <= a) {
                let m = format!(
                    "{} = {:?}: allowed Surface, Underground, Cavern or Underworld, each \
                     once, top to bottom",
                    at("layer"),
                    t.layer
                );
                return Err(bad(at("layer"), m));
            }
            let rolls = range_pair(at("rolls"), t.rolls, 1, CHEST_SLOTS as u32)?;
            let rows = check_rows(&at("items"), &t.items, cat)?;
            tiers.push(Tier {
                layer: t.layer,
                rolls,
                rows,
            });
        }
        let mut sets: Vec<LootSet> = Vec::with_capacity(file.sets.len());
        for (i, t) in file.sets.iter().enumerate() {
            let at = |f: &str| format!("sets[{i}].{f}");
            if !SET_NAMES.contains(&t.name.as_str()) || sets.iter().any(|s| s.name == t.name) {
                let m = format!(
                    "{} = {:?}: allowed {}, each once",
                    at("name"),
                    t.name,
                    SET_NAMES.join(", ")
                );
                return Err(bad(at("name"), m));
            }
            sets.push(LootSet {
                name: t.name.clone(),
                rolls: range_pair(at("rolls"), t.rolls, 1, CHEST_SLOTS as u32)?,
                rows: check_rows(&at("items"), &t.items, cat)?,
            });
        }
        Ok(LootTable { tiers, sets })
    }

    /// The set called `name` (one of [`SET_NAMES`]).
    pub fn set(&self, name: &str) -> Option<&LootSet> {
        self.sets.iter().find(|s| s.name == name)
    }

    /// One draw of the set called `name`: items and counts (nothing for a name the file
    /// has no set for; the shipped file has every one of [`SET_NAMES`]).
    pub fn draw_set(&self, name: &str, rng: &mut impl RngExt) -> Vec<(ItemId, u32)> {
        self.set(name)
            .map(|s| draw_rows(s.rolls, &s.rows, rng))
            .unwrap_or_default()
    }

    /// The tier for a chest in `layer`: that layer's, else the nearest above it, else the
    /// first.
    pub fn tier(&self, layer: Layer) -> &Tier {
        self.tiers
            .iter()
            .rev()
            .find(|t| t.layer <= layer)
            .unwrap_or(&self.tiers[0])
    }

    /// One chest's contents for a chest in `layer`, drawn from `rng`: items and counts, in
    /// the order they go in (at most [`CHEST_SLOTS`] draws, each at most a stack, so they
    /// always fit in a chest).
    pub fn draw(&self, layer: Layer, rng: &mut impl RngExt) -> Vec<(ItemId, u32)> {
        let tier = self.tier(layer);
        draw_rows(tier.rolls, &tier.rows, rng)
    }
}

/// Draws `rolls` times from `rows` by weight (at most [`CHEST_SLOTS`] draws, each at most
/// a stack, so they always fit in a chest).
fn draw_rows(rolls: (u32, u32), rows: &[LootRow], rng: &mut impl RngExt) -> Vec<(ItemId, u32)> {
    let total: u32 = rows.iter().map(|r| r.weight).sum();
    let mut out = Vec::new();
    for _ in 0..rng.random_range(rolls.0..=rolls.1) {
        let mut pick = rng.random_range(0..total);
        let row = rows
            .iter()
            .find(|r| {
                let hit = pick < r.weight;
                pick = pick.saturating_sub(r.weight);
                hit
            })
            .unwrap_or(&rows[0]);
        out.push((row.item, rng.random_range(row.count.0..=row.count.1)));
    }
    out
}

/// Checks the rows of a tier or set (`at` names its `items` field).
fn check_rows(at_items: &str, items: &[ItemRow], cat: &Catalog) -> Result<Vec<LootRow>, Bad> {
    if items.is_empty() || items.len() > MAX_ROWS {
        let m = format!(
            "{at_items} lists {} rows: allowed 1..={MAX_ROWS}",
            items.len()
        );
        return Err(bad(at_items.to_string(), m));
    }
    let mut rows = Vec::with_capacity(items.len());
    for (j, r) in items.iter().enumerate() {
        let at = |f: &str| format!("{at_items}[{j}].{f}");
        let item = cat.id(&r.item).ok_or_else(|| {
            let m = format!(
                "{} = {:?} is not an item of config/items.ron",
                at("item"),
                r.item
            );
            bad(at("item"), m)
        })?;
        let most = cat.item(item).stack;
        rows.push(LootRow {
            item,
            count: range_pair(at("count"), r.count, 1, most)?,
            weight: range_u(at("weight"), r.weight, 1, 1000)?,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::items::{Catalog, Kind};
    use rand::SeedableRng;

    fn catalog() -> Catalog {
        Catalog::builtin().unwrap()
    }

    fn loot() -> LootTable {
        LootTable::builtin(&catalog()).unwrap()
    }

    fn parse(text: &str) -> Result<LootTable, String> {
        LootTable::parse(text, "loot.ron", &catalog()).map_err(|e| e.to_string())
    }

    #[test]
    fn the_shipped_table_is_deeper_richer() {
        let t = loot();
        let cat = catalog();
        let layers: Vec<Layer> = t.tiers.iter().map(|t| t.layer).collect();
        assert_eq!(
            layers,
            [Layer::Underground, Layer::Cavern, Layer::Underworld]
        );
        // More draws deeper, and the best pickaxe on offer better deeper.
        let best_pick = |tier: &Tier| {
            tier.rows
                .iter()
                .filter_map(|r| match cat.item(r.item).kind {
                    Kind::Pickaxe { power, .. } => Some(power),
                    _ => None,
                })
                .max()
                .unwrap_or(0)
        };
        for w in t.tiers.windows(2) {
            assert!(w[1].rolls.0 > w[0].rolls.0 && w[1].rolls.1 > w[0].rolls.1);
            assert!(best_pick(&w[1]) > best_pick(&w[0]), "{:?}", w[1].layer);
        }
        // A surface chest takes the first tier, the underworld's its own.
        assert_eq!(t.tier(Layer::Surface).layer, Layer::Underground);
        assert_eq!(t.tier(Layer::Underworld).layer, Layer::Underworld);
    }

    #[test]
    fn the_shipped_file_has_every_named_set_and_a_stranger_is_refused() {
        let t = loot();
        for name in SET_NAMES {
            let set = t.set(name).unwrap_or_else(|| panic!("no set {name}"));
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
            let drawn = t.draw_set(name, &mut rng);
            assert!(drawn.len() as u32 >= set.rolls.0, "{name}");
        }
        let orb = t.set("shadow_orb").unwrap();
        let demonite = catalog().id("demonite_ore").unwrap();
        assert!(orb.rows.iter().any(|r| r.item == demonite));
        assert!(
            t.draw_set("nowhere", &mut rand_pcg::Pcg64Mcg::seed_from_u64(1))
                .is_empty()
        );
        let text = r#"(tiers: [(layer: Cavern, rolls: (1, 1), items: [(item: "torch", count: (1, 2), weight: 1)])],
            sets: [(name: "attic", rolls: (1, 1), items: [(item: "torch", count: (1, 1), weight: 1)])])"#;
        let e = parse(text).unwrap_err();
        assert!(e.contains("sets[0].name") && e.contains("dungeon"), "{e}");
    }

    #[test]
    fn fill_is_a_function_of_the_stream_and_keeps_to_the_tier() {
        let t = &loot();
        let draw = |seed| t.draw(Layer::Cavern, &mut rand_pcg::Pcg64Mcg::seed_from_u64(seed));
        assert_eq!(draw(5), draw(5));
        assert!((0..20).any(|s| draw(s) != draw(5)));
        let tier = t.tier(Layer::Cavern);
        for s in 0..200 {
            let d = draw(s);
            assert!((tier.rolls.0 as usize..=tier.rolls.1 as usize).contains(&d.len()));
            for (item, n) in d {
                let row = tier.rows.iter().find(|r| r.item == item);
                assert!(
                    row.is_some_and(|r| (r.count.0..=r.count.1).contains(&n)),
                    "{item:?}"
                );
            }
        }
    }

    #[test]
    fn mistakes_name_the_place_the_field_and_the_range() {
        let ok = "(tiers: [(layer: Cavern, rolls: (1, 2), items: [(item: \"gel\", count: (1, 3), weight: 5)])])";
        assert!(parse(ok).is_ok());
        let e = parse(&ok.replace("weight: 5", "weight: 0")).unwrap_err();
        assert!(
            e.starts_with("loot.ron:1:")
                && e.contains("tiers[0].items[0].weight = 0")
                && e.contains("1..=1000"),
            "{e}"
        );
        let e = parse(&ok.replace("\"gel\"", "\"jelly\"")).unwrap_err();
        assert!(
            e.contains("tiers[0].items[0].item = \"jelly\" is not an item"),
            "{e}"
        );
        let e = parse(&ok.replace("rolls: (1, 2)", "rolls: (3, 2)")).unwrap_err();
        assert!(
            e.contains("tiers[0].rolls.1 = 2") && e.contains("3..=27"),
            "{e}"
        );
        let e = parse(&ok.replace("count: (1, 3)", "count: (1, 5000)")).unwrap_err();
        assert!(e.contains("1..=999"), "{e}");
        let two = ok.replace("])])", "]), (layer: Underground, rolls: (1, 1), items: [(item: \"gel\", count: (1, 1), weight: 1)])])");
        let e = parse(&two).unwrap_err();
        assert!(e.contains("tiers[1].layer = Underground"), "{e}");
        let e = parse("(tiers: [], extra: 1)").unwrap_err();
        assert!(e.starts_with("loot.ron:1:"), "{e}");
        let e = parse(&ok.replace("weight: 5", "weight: 5, rare: true")).unwrap_err();
        assert!(e.contains("rare"), "{e}");
    }
}
