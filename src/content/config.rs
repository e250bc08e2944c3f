//! The content of play as one value: the rules, the item catalog and recipes, the chest
//! loot table and the town, as a [`Session`](crate::sim::session::Session) carries them
//! (`session.content.rules`, `session.content.catalog`, ...) and hands them down to what
//! needs them (the inventory holds its catalog). A test builds its own (other rules, a
//! mod) and hands it to the session; the front-ends build theirs with [`Content::gather`]:
//! the built-in files, the rules file `STRATA_RULES` may name, and the mods folder
//! ([`crate::content::mods`]). Nothing keeps content beyond the values made here.

use crate::content::items::Catalog;
use crate::content::loot::LootTable;
use crate::content::mods::{ModText, Outcome, Source};
use crate::content::rules::{Rules, RulesError};
use crate::content::town::Town;
use std::path::Path;
use std::sync::Arc;

/// Rules, catalog, loot table and town, checked together (the loot and the town name
/// items of the catalog), and the files they were made of.
#[derive(Clone, Debug, PartialEq)]
pub struct Content {
    pub rules: Rules,
    pub catalog: Arc<Catalog>,
    pub loot: LootTable,
    pub town: Town,
    /// Every creature kind: a [`crate::content::bestiary::Kind`] indexes it, and every
    /// lookup of a kind's numbers goes through it (a mod's kind is this content's alone).
    pub bestiary: Arc<crate::content::bestiary::Bestiary>,
    /// Every file read, in order, with the hash of its text: the built-in files, the
    /// rules file and each mod applied.
    pub files: Vec<Source>,
}

impl Content {
    /// The content compiled into the binary (`cargo test` checks every file of it, so it
    /// always parses).
    pub fn builtin() -> Content {
        Content::with_rules(builtin_rules())
    }

    /// The built-in catalog, loot table and town with `rules` (whose start items must be
    /// built-in items).
    pub fn with_rules(rules: Rules) -> Content {
        build(&rules, None, &[]).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The built-in content with `mods` applied in order (the first that does not parse
    /// or check is the error, placed at its file:line:col).
    pub fn with_mods(mods: &[ModText]) -> Result<Content, crate::content::preset::PresetError> {
        build(&builtin_rules(), None, mods)
    }

    /// The built-in content with the rules of the file at `path`.
    pub fn load(rules: &Path) -> Result<Content, RulesError> {
        let rules = crate::content::rules::load(rules)?;
        build(&rules, None, &[]).map_err(RulesError::Refused)
    }

    /// The built-in content, the rules of the file `rules` if given (a refused file is
    /// reported and the built-in rules used) and every mod of the folder `mods` that
    /// parses and checks, each on top of those before; what became of each rules or mod
    /// file, in order. A mod that is refused is skipped whole.
    pub fn gather(rules: Option<&Path>, mods: &Path) -> (Content, Vec<Outcome>) {
        let mut outcomes = Vec::new();
        let (base, source) = match rules {
            None => (builtin_rules(), None),
            Some(path) => match read_rules(path) {
                Ok((r, s)) => {
                    outcomes.push(Outcome {
                        path: path.to_path_buf(),
                        result: Ok(()),
                    });
                    (r, Some(s))
                }
                Err(e) => {
                    outcomes.push(Outcome {
                        path: path.to_path_buf(),
                        result: Err(format!("{e}; playing by the built-in rules")),
                    });
                    (builtin_rules(), None)
                }
            },
        };
        let built = build(&base, source.as_ref(), &[]);
        let (base, source, mut content) = match (built, rules) {
            (Ok(c), _) => (base, source, c),
            // The rules file names an item there is not: refused as a whole.
            (Err(e), Some(path)) => {
                if let Some(o) = outcomes.last_mut() {
                    o.result = Err(format!("{e}; playing by the built-in rules"));
                } else {
                    outcomes.push(Outcome {
                        path: path.to_path_buf(),
                        result: Err(e.to_string()),
                    });
                }
                (builtin_rules(), None, Content::builtin())
            }
            (Err(e), None) => panic!("{e}"),
        };
        let with = |mods: &[ModText]| build(&base, source.as_ref(), mods);
        let mut applied: Vec<ModText> = Vec::new();
        for (path, text) in crate::content::mods::read_dir(mods) {
            let name = crate::content::mods::mod_name(&path);
            let result = text.and_then(|text| {
                applied.push(ModText { name, text });
                match with(&applied) {
                    Ok(c) => {
                        content = c;
                        Ok(())
                    }
                    Err(e) => {
                        applied.pop();
                        Err(e.to_string())
                    }
                }
            });
            outcomes.push(Outcome { path, result });
        }
        (content, outcomes)
    }

    /// What a front-end plays by: [`Content::gather`] from the rules file `STRATA_RULES`
    /// names, if set, and the mods folder `mods` (the data folder's,
    /// [`crate::base::paths::Folders::mods`]); a refused file is reported on standard
    /// error.
    pub fn from_env(mods: &Path) -> Content {
        let rules = std::env::var_os("STRATA_RULES");
        let (content, outcomes) = Content::gather(rules.as_deref().map(Path::new), mods);
        for o in outcomes {
            if let Err(e) = o.result {
                eprintln!("strata: {e}");
            }
        }
        content
    }

    /// The hash of every file the content was made of (names and texts).
    pub fn hash(&self) -> u64 {
        let mut bytes = Vec::new();
        for f in &self.files {
            bytes.extend_from_slice(f.name.as_bytes());
            bytes.push(0);
            bytes.extend_from_slice(&f.hash.to_le_bytes());
        }
        crate::content::mods::fnv1a64(&bytes)
    }

    /// What is loaded, a line each: the counts, then each file.
    pub fn summary(&self) -> Vec<String> {
        let mut out = vec![format!(
            "{} items, {} recipes, {} loot tiers, {} hints, {} wares; content hash {:016x}",
            self.catalog.items.len(),
            self.catalog.recipes.len(),
            self.loot.tiers.len(),
            self.town.hints.len(),
            self.town.merchant.sells.len(),
            self.hash()
        )];
        for f in &self.files {
            out.push(format!("  {} ({:016x})", f.name, f.hash));
        }
        out
    }
}

impl Default for Content {
    fn default() -> Content {
        Content::builtin()
    }
}

/// [`crate::content::mods::build`] as a [`Content`].
fn build(
    rules: &Rules,
    source: Option<&Source>,
    mods: &[ModText],
) -> Result<Content, crate::content::preset::PresetError> {
    crate::content::mods::build(rules, source, mods).map(|p| Content {
        rules: p.rules,
        catalog: Arc::new(p.catalog),
        loot: p.loot,
        town: p.town,
        bestiary: Arc::new(p.bestiary),
        files: p.files,
    })
}

/// The rules compiled into the binary.
fn builtin_rules() -> Rules {
    let text = crate::content::rules::RULES_RON;
    Rules::parse(text, "config/rules.ron").unwrap_or_else(|e| panic!("{e}"))
}

/// The rules of the file at `path` and its [`Source`].
fn read_rules(path: &Path) -> Result<(Rules, Source), RulesError> {
    let rules = crate::content::rules::load(path)?;
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    Ok((rules, Source::of(&format!("rules {name}"), &text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_content_is_the_shipped_files_and_a_rules_file_changes_only_the_rules() {
        let c = Content::builtin();
        assert_eq!(c.rules, Rules::default());
        assert!(c.catalog.id("stone").is_some());
        assert!(!c.loot.tiers.is_empty());
        let dir = std::env::temp_dir().join(format!("strata-content-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("short-days.ron");
        std::fs::write(&path, "(day_minutes: 2.0)").unwrap();
        let short = Content::load(&path).unwrap();
        assert_eq!(short.rules.day_minutes, 2.0);
        assert_ne!(short.rules, c.rules);
        assert_eq!(
            (&short.catalog, &short.loot, &short.town),
            (&c.catalog, &c.loot, &c.town)
        );
        std::fs::write(&path, "(day_minutes: -1.0)").unwrap();
        let e = Content::load(&path).unwrap_err().to_string();
        assert!(
            e.contains("short-days.ron:1:2") && e.contains("day_minutes"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
