//! The content of play as one value: the rules, the item catalog and recipes, the chest
//! loot table and the town, as a [`Session`](crate::sim::session::Session) carries them
//! (`session.content.rules`, `session.content.catalog`, ...). A test builds its own (other
//! rules, say) and hands it to the session; the front-ends load it once with
//! [`Content::from_env`], where `STRATA_RULES` may name a rules file.

use crate::content::items::Catalog;
use crate::content::loot::LootTable;
use crate::content::rules::{Rules, RulesError};
use crate::content::town::Town;
use std::path::Path;

/// Rules, catalog, loot table and town, checked together (the loot and the town name
/// items of the catalog).
#[derive(Clone, Debug, PartialEq)]
pub struct Content {
    pub rules: Rules,
    pub catalog: Catalog,
    pub loot: LootTable,
    pub town: Town,
}

impl Content {
    /// The content compiled into the binary (`cargo test` checks every file of it, so it
    /// always parses).
    pub fn builtin() -> Content {
        Content::with_rules(builtin_rules())
    }

    /// The built-in catalog, loot table and town with `rules`.
    pub fn with_rules(rules: Rules) -> Content {
        let catalog = crate::content::items::catalog().clone();
        Content {
            rules,
            loot: crate::content::loot::loot().clone(),
            town: crate::content::town::town().clone(),
            catalog,
        }
    }

    /// The built-in content with the rules of the file at `path`.
    pub fn load(rules: &Path) -> Result<Content, RulesError> {
        crate::content::rules::load(rules).map(Content::with_rules)
    }

    /// What a front-end plays by: the rules of the file `STRATA_RULES` names if it is set
    /// (a refused file is reported on standard error and the built-in rules used), else the
    /// built-in content.
    pub fn from_env() -> Content {
        match std::env::var_os("STRATA_RULES") {
            None => Content::builtin(),
            Some(path) => Content::load(Path::new(&path)).unwrap_or_else(|e| {
                eprintln!("strata: {e}; playing by the built-in rules");
                Content::builtin()
            }),
        }
    }
}

impl Default for Content {
    fn default() -> Content {
        Content::builtin()
    }
}

/// The rules compiled into the binary.
fn builtin_rules() -> Rules {
    let text = crate::content::rules::RULES_RON;
    Rules::parse(text, "config/rules.ron").unwrap_or_else(|e| panic!("{e}"))
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
