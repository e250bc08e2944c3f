//! The progression graph over the shipped presets' worlds ([`strata::sim::progression`]):
//! from a new world of each landscape preset, every boss can be called, each ore pair's
//! tier can be made, and the world's ore is many times what the tier's recipes take; over
//! a few worlds of default and large (Terraria's sizes, every biome and landmark), every
//! item of the catalog has a source a player can reach.
//!
//! Classic is left out: its worlds are the seed's five passes alone, with no trees, so
//! nothing past digging can be made there (a choice of that preset, not of the content).

use std::collections::BTreeSet;

use strata::base::tile::Tile;
use strata::content::config::Content;
use strata::content::items::Kind;
use strata::content::preset::{BUILTIN, builtin};
use strata::sim::progression::{Offer, ore_for_tier, walk};
use strata::worldgen::generate;

/// Seeds per preset (a debug build makes a full-size world in about a third of a second).
const SEEDS: [u64; 6] = [1, 2, 3, 7, 42, 1234];

/// How many times over a tier's needs the world's ore must be: a player digs up only a
/// part of a world's veins (measured: caverns, the smallest, holds 5.5 times its
/// platinum tier's ore; default and large over 20 times).
const ORE_MARGIN: u64 = 4;

/// The ore pairs, each world having one of each (`worldgen/lodes.rs`), and the pickaxe of
/// each.
const PAIRS: [(&str, &str); 4] = [
    ("copper", "tin"),
    ("iron", "lead"),
    ("silver", "tungsten"),
    ("gold", "platinum"),
];

fn ore_tile(content: &Content, metal: &str) -> Tile {
    let id = content.catalog.id(&format!("{metal}_ore")).unwrap();
    match content.catalog.item(id).kind {
        Kind::Block(t) => t,
        k => panic!("{metal}_ore is {k:?}"),
    }
}

fn offers(name: &str) -> Vec<Offer> {
    let preset = builtin(name).unwrap().unwrap();
    SEEDS
        .iter()
        .map(|&seed| Offer::of(&generate(&preset, seed).0))
        .collect()
}

#[test]
fn every_world_of_the_landscape_presets_calls_every_boss_and_makes_each_ore_tier() {
    let content = Content::builtin();
    let mut failures = Vec::new();
    let mut reached = BTreeSet::new();
    for (name, _) in BUILTIN.iter().filter(|(n, _)| *n != "classic") {
        for (offer, seed) in offers(name).iter().zip(SEEDS) {
            let at = format!("{name} seed {seed}");
            let reach = walk(&content, offer);
            for (boss, round) in &reach.bosses {
                if round.is_none() {
                    failures.push(format!("{at}: {boss} cannot be called"));
                }
            }
            for (a, b) in PAIRS {
                // The world's metal of the pair: the one with more ore.
                let (ta, tb) = (ore_tile(&content, a), ore_tile(&content, b));
                let metal = if offer.count(ta) >= offer.count(tb) {
                    a
                } else {
                    b
                };
                let ore = offer.count(ta).max(offer.count(tb));
                let need = ore_for_tier(&content, &format!("{metal}_ore")).unwrap();
                if ore < need * ORE_MARGIN {
                    failures.push(format!(
                        "{at}: {ore} {metal} ore, under {ORE_MARGIN} x the {need} its tier's \
                         recipes take"
                    ));
                }
                for tool in ["pickaxe", "sword"] {
                    let item = format!("{metal}_{tool}");
                    if !reach.has(&content, &item) {
                        failures.push(format!("{at}: no {item}"));
                    }
                }
            }
            if *name == "default" || *name == "large" {
                reached.extend(
                    (0..reach.got.len())
                        .filter(|&i| reach.got[i].is_some())
                        .map(|i| content.catalog.items[i].name.clone()),
                );
            }
        }
    }
    let missing: Vec<_> = content
        .catalog
        .items
        .iter()
        .map(|i| &i.name)
        .filter(|n| !reached.contains(*n))
        .collect();
    if !missing.is_empty() {
        failures.push(format!(
            "default and large, seeds {SEEDS:?}: no source for {missing:?}"
        ));
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
