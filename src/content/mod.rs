//! The content layer: what the RON files under `config/` describe, parsed and checked.
//! Generation presets ([`preset`]), the rules of play ([`rules`]), the item catalog and
//! recipes ([`items`]), the chest loot table ([`loot`]), the creature kinds
//! ([`bestiary`]), the bosses' numbers ([`bosses`]) and the town: houses and the Guide's
//! hints ([`town`]); [`config`] holds the rules, catalog, loot, creatures and town as one
//! value a session carries, built from the built-in files and the mods folder ([`mods`]).
//! Content knows tiles and depth layers ([`crate::base`]) and nothing of a world being
//! played.

pub mod bestiary;
pub mod bosses;
pub mod config;
pub mod items;
pub mod loot;
pub mod mods;
pub mod preset;
pub mod rules;
pub mod town;
