//! Mods: RON files in the `mods/` folder of Strata's data folder
//! ([`crate::base::paths::mods_dir`]) that add to or change the built-in content. A mod
//! file holds any of five sections, each in the shape of its built-in file:
//!
//! ```ron
//! (
//!     items: [(name: "ruby_sword", label: "ruby sword", kind: Sword, damage: 30,
//!              reach: 2.5, cooldown: 0.3)],   // an item of the same name replaces it
//!     mining: [(tile: "stone", power: 2)],     // as in items.ron, by tile
//!     recipes: [(make: "ruby_sword", from: [("ruby", 8)], at: Some("anvil"))],
//!     loot: (tiers: [...]),                    // replaces config/loot.ron whole
//!     town: (housing: ..., ...),               // replaces config/town.ron whole
//!     rules: (day_minutes: 12.0),              // a rules file: what it leaves out is built-in
//!     creatures: [(name: "ruby slime", ...)],  // as in creatures.ron, by name
//! )
//! ```
//!
//! New items come after the built-in ones (their ids follow); a recipe that makes the
//! same item from the same things at the same station replaces that recipe, any other
//! is added. Files are applied in name order, each on top of the ones before. A file
//! that does not parse or check is skipped whole, its error placed at its file:line:col
//! as a built-in file's would be: the content is then as if it were not there.
//!
//! Every file the content is made of is named with the hash of its text
//! ([`Source`]); two sides of a network game compare these lists ([`differs`]).

use crate::content::bestiary::{Bestiary, CREATURES_RON, CreaturesFile, Def};
use crate::content::items::{Catalog, ItemsFile, RecipeRow, RecipesFile, Which, parse_ron, placed};
use crate::content::loot::{LOOT_RON, LootFile, LootTable};
use crate::content::preset::{PresetError, locate_field};
use crate::content::rules::Rules;
use crate::content::town::{TOWN_RON, Town, TownFile};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Most mod files read from the folder (the rest are named and skipped).
pub const MAX_MODS: usize = 64;

/// One file the content is made of: its name (`config/items.ron`, `mods/ruby.ron`) and
/// the FNV-1a hash of its text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Source {
    pub name: String,
    pub hash: u64,
}

impl Source {
    /// `name` with the hash of `text`.
    pub fn of(name: &str, text: &str) -> Source {
        Source {
            name: name.to_string(),
            hash: fnv1a64(text.as_bytes()),
        }
    }
}

/// FNV-1a, 64 bits: the same on every machine.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One sentence naming the files that differ between `ours` and `theirs` (`None` when
/// the two lists are the same): "the server's content differs from yours: mods/ruby.ron
/// (only the server has it), mods/long_days.ron (only you have it)". `them` names the
/// other side ("the server", "the client").
pub fn differs(ours: &[Source], theirs: &[Source], them: &str) -> Option<String> {
    if ours == theirs {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    for t in theirs {
        match ours.iter().find(|o| o.name == t.name) {
            None => parts.push(format!("{} (only {them} has it)", t.name)),
            Some(o) if o.hash != t.hash => parts.push(format!("{} (not the same)", t.name)),
            Some(_) => {}
        }
    }
    for o in ours {
        if !theirs.iter().any(|t| t.name == o.name) {
            parts.push(format!("{} (only you have it)", o.name));
        }
    }
    if parts.is_empty() {
        parts.push("the same files in another order".into());
    }
    Some(format!(
        "{}'s content differs from yours: {}",
        capitalised(them),
        parts.join(", ")
    ))
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModFile {
    #[serde(default)]
    items: Vec<crate::content::items::ItemRow>,
    #[serde(default)]
    mining: Vec<crate::content::items::MiningRow>,
    #[serde(default)]
    recipes: Vec<RecipeRow>,
    #[serde(default)]
    loot: Option<LootFile>,
    #[serde(default)]
    town: Option<TownFile>,
    #[serde(default)]
    rules: Option<Rules>,
    #[serde(default)]
    creatures: Vec<Def>,
}

/// A mod file's name (`mods/ruby.ron`) and text.
#[derive(Clone, Debug, PartialEq)]
pub struct ModText {
    pub name: String,
    pub text: String,
}

/// What a mod file came to: applied, or skipped and why.
#[derive(Debug)]
pub struct Outcome {
    pub path: PathBuf,
    pub result: Result<(), String>,
}

/// Where the loot table or the town comes from: the built-in file or a mod (its index).
#[derive(Clone, Copy)]
enum Origin {
    Builtin,
    Mod(usize),
}

/// The parts of a [`crate::content::config::Content`], checked together.
pub(crate) struct Parts {
    pub rules: Rules,
    pub catalog: Catalog,
    pub loot: LootTable,
    pub town: Town,
    pub bestiary: Bestiary,
    pub files: Vec<Source>,
}

/// Puts mod `m`'s `rows` into `into`: a row `same` as one there replaces it in its place,
/// any other is added at the end; `from` keeps where each row of `into` came from (`None`
/// built in, else the mod and the row in it).
fn merge<T: Clone>(
    into: &mut Vec<T>,
    from: &mut Vec<Option<(usize, usize)>>,
    rows: &[T],
    m: usize,
    same: impl Fn(&T, &T) -> bool,
) {
    for (j, row) in rows.iter().enumerate() {
        match into.iter().position(|r| same(r, row)) {
            Some(k) => {
                into[k] = row.clone();
                from[k] = Some((m, j));
            }
            None => {
                into.push(row.clone());
                from.push(Some((m, j)));
            }
        }
    }
}

/// The built-in content (`rules` as the base rules, `rules_source` its file) with `mods`
/// applied in order; the error of the first mod that does not parse or check (placed in
/// that mod's text where it can be).
pub(crate) fn build(
    rules: &Rules,
    rules_source: Option<&Source>,
    mods: &[ModText],
) -> Result<Parts, PresetError> {
    let mut items: ItemsFile = parse_ron(crate::content::items::ITEMS_RON, "config/items.ron")?;
    let mut recipes: RecipesFile =
        parse_ron(crate::content::items::RECIPES_RON, "config/recipes.ron")?;
    // Where each row came from: `None` built in, else (mod, row in that mod).
    let mut item_from: Vec<Option<(usize, usize)>> = vec![None; items.items.len()];
    let mut recipe_from: Vec<Option<(usize, usize)>> = vec![None; recipes.recipes.len()];
    let mut mining_from: Vec<Option<(usize, usize)>> = vec![None; items.mining.len()];
    let mut loot_from = Origin::Builtin;
    let mut town_from = Origin::Builtin;
    let mut rules_from = Origin::Builtin;
    let mut rules = rules.clone();
    let mut files = vec![
        Source::of("config/items.ron", crate::content::items::ITEMS_RON),
        Source::of("config/recipes.ron", crate::content::items::RECIPES_RON),
        Source::of("config/loot.ron", LOOT_RON),
        Source::of("config/town.ron", TOWN_RON),
    ];
    let mut creatures: CreaturesFile = parse_ron(CREATURES_RON, "config/creatures.ron")?;
    let mut creature_from: Vec<Option<(usize, usize)>> = vec![None; creatures.creatures.len()];
    files.push(
        rules_source
            .cloned()
            .unwrap_or_else(|| Source::of("config/rules.ron", crate::content::rules::RULES_RON)),
    );
    files.push(Source::of("config/creatures.ron", CREATURES_RON));
    let mut parsed: Vec<ModFile> = Vec::with_capacity(mods.len());
    for (m, md) in mods.iter().enumerate() {
        let file: ModFile = parse_ron(&md.text, &md.name)?;
        merge(&mut items.items, &mut item_from, &file.items, m, |a, b| {
            a.name == b.name
        });
        merge(
            &mut items.mining,
            &mut mining_from,
            &file.mining,
            m,
            |a, b| a.tile == b.tile,
        );
        merge(
            &mut recipes.recipes,
            &mut recipe_from,
            &file.recipes,
            m,
            |a, b| {
                a.make == b.make
                    && a.at == b.at
                    && a.from.len() == b.from.len()
                    && a.from
                        .iter()
                        .all(|(n, _)| b.from.iter().any(|(o, _)| o == n))
            },
        );
        merge(
            &mut creatures.creatures,
            &mut creature_from,
            &file.creatures,
            m,
            |a, b| a.name == b.name,
        );
        if file.loot.is_some() {
            loot_from = Origin::Mod(m);
        }
        if file.town.is_some() {
            town_from = Origin::Mod(m);
        }
        if let Some(r) = &file.rules {
            r.validate().map_err(|e| PresetError {
                source: md.name.clone(),
                position: locate_field(&md.text, &format!("rules.{}", e.field)),
                message: e.to_string(),
            })?;
            rules = r.clone();
            rules_from = Origin::Mod(m);
        }
        files.push(Source::of(&md.name, &md.text));
        parsed.push(file);
    }
    // An error in a row names that row in its own file; one in a built-in row (a mod
    // changed what it leans on) is the last mod's.
    let last = mods.len().saturating_sub(1);
    let in_mod = |m: usize, field: &str, fb: &[String], message: String| {
        let md = &mods[m];
        let position = std::iter::once(field)
            .chain(fb.iter().map(String::as_str))
            .find_map(|f| locate_field(&md.text, f));
        PresetError {
            source: md.name.clone(),
            position,
            message,
        }
    };
    let catalog = Catalog::from_files(&items, &recipes).map_err(|(which, b, fb)| {
        if mods.is_empty() {
            let (text, source) = match which {
                Which::Items => (crate::content::items::ITEMS_RON, "config/items.ron"),
                Which::Recipes => (crate::content::items::RECIPES_RON, "config/recipes.ron"),
            };
            return placed(text, source, b, &fb);
        }
        let (list, from) = match which {
            Which::Items if b.field.starts_with("mining[") => ("mining", &mining_from),
            Which::Items => ("items", &item_from),
            Which::Recipes => ("recipes", &recipe_from),
        };
        let renumber = |f: &str, to: usize| -> Option<String> {
            let rest = f.strip_prefix(list)?.strip_prefix('[')?;
            let close = rest.find(']')?;
            Some(format!("{list}[{to}]{}", &rest[close + 1..]))
        };
        let row = b
            .field
            .strip_prefix(list)
            .and_then(|r| r.strip_prefix('['))
            .and_then(|r| r[..r.find(']')?].parse::<usize>().ok());
        match row.and_then(|k| from.get(k).copied().flatten()) {
            Some((m, j)) => {
                let field = renumber(&b.field, j).unwrap_or(b.field.clone());
                let fb: Vec<String> = fb.iter().filter_map(|f| renumber(f, j)).collect();
                let message = b.message.replace(&b.field, &field);
                in_mod(m, &field, &fb, message)
            }
            None => in_mod(last, list, &[], b.message),
        }
    })?;
    let loot = match loot_from {
        Origin::Builtin => LootTable::parse(LOOT_RON, "config/loot.ron", &catalog)
            .map_err(|e| in_mod(last, "items", &[], e.to_string()))?,
        Origin::Mod(m) => {
            let file = parsed[m].loot.as_ref().expect("a mod's loot section");
            LootTable::check(file, &catalog).map_err(|b| {
                let field = format!("loot.{}", b.field);
                in_mod(m, &field, &["loot".into()], b.message)
            })?
        }
    };
    let town = match town_from {
        Origin::Builtin => Town::parse(TOWN_RON, "config/town.ron", &catalog)
            .map_err(|e| in_mod(last, "items", &[], e.to_string()))?,
        Origin::Mod(m) => {
            let file = parsed[m].town.as_ref().expect("a mod's town section");
            Town::check(file, &catalog).map_err(|b| {
                let field = format!("town.{}", b.field);
                in_mod(m, &field, &["town".into()], b.message)
            })?
        }
    };
    rules.check_items(&catalog).map_err(|e| match rules_from {
        Origin::Mod(m) => {
            let field = format!("rules.{}", e.field);
            in_mod(m, &field, &["rules".into()], e.to_string())
        }
        Origin::Builtin => PresetError {
            source: files[4].name.clone(),
            position: None,
            message: e.to_string(),
        },
    })?;
    let mut bestiary = Bestiary::check(&creatures.creatures, Some(&catalog)).map_err(|b| {
        let row = b
            .field
            .strip_prefix("creatures[")
            .and_then(|r| r[..r.find(']')?].parse::<usize>().ok());
        match row.and_then(|k| creature_from.get(k).copied().flatten()) {
            Some((m, j)) => {
                let field = b.field.replacen(
                    &format!("creatures[{}]", row.unwrap_or(0)),
                    &format!("creatures[{j}]"),
                    1,
                );
                let message = b.message.replace(&b.field, &field);
                in_mod(m, &field, &["creatures".into()], message)
            }
            None if mods.is_empty() => placed(CREATURES_RON, "config/creatures.ron", b, &[]),
            None => in_mod(last, "creatures", &[], b.message),
        }
    })?;
    // The bosses' numbers come from the built-in file only.
    bestiary.bosses = crate::content::bestiary::checked_bosses(
        creatures.bosses,
        &catalog,
        CREATURES_RON,
        "config/creatures.ron",
    )?;
    Ok(Parts {
        rules,
        catalog,
        loot,
        town,
        bestiary,
        files,
    })
}

/// The `.ron` files of the folder `dir`, by name, read as text (`Err`: why one could not
/// be read). No folder is no mods.
pub fn read_dir(dir: &Path) -> Vec<(PathBuf, Result<String, String>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron") && p.is_file())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            if i >= MAX_MODS {
                return (p, Err(format!("more than {MAX_MODS} mods: skipped")));
            }
            let text = crate::base::fsio::read_bounded(&p, crate::content::preset::MAX_FILE_BYTES)
                .map_err(|e| e.to_string())
                .and_then(|b| String::from_utf8(b).map_err(|e| e.to_string()));
            (p, text)
        })
        .collect()
}

/// The name a mod file goes by in the content's [`Source`]s: `mods/` and its file name.
pub fn mod_name(path: &Path) -> String {
    let file = path.file_name().unwrap_or_default().to_string_lossy();
    format!("mods/{file}")
}

#[cfg(test)]
pub(crate) mod tests;
