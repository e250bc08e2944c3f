//! The town: what makes a house and what the Guide says (`config/town.ron`, compiled in
//! and checked by [`Town::parse`] against the item catalog; errors name the file,
//! line:col, the field and its allowed range, as items' and loot's do). [`town`] is the
//! checked data; the rules that use it are [`crate::sim::housing`] and
//! [`crate::sim::guide`].

use crate::base::tile::Tile;
use crate::content::items::{Bad, Catalog, ItemId, bad, parse_ron, placed, range_u, tile_named};
use crate::content::preset::PresetError;
use serde::Deserialize;
use std::sync::OnceLock;

/// `config/town.ron`, as compiled in.
pub const TOWN_RON: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/config/town.ron"));
/// Most hints, and most conditions one hint has.
pub const MAX_HINTS: usize = 256;
pub const MAX_CONDITIONS: usize = 8;
/// Longest hint, bytes.
pub const MAX_SAY: usize = 400;

/// What makes a room a house.
#[derive(Clone, Debug, PartialEq)]
pub struct Housing {
    /// Fewest and most tiles of a house, its frame counted.
    pub min_tiles: u32,
    pub max_tiles: u32,
    /// A house needs one of each list inside it.
    pub lights: Vec<Tile>,
    pub flat: Vec<Tile>,
    pub comfort: Vec<Tile>,
}

/// How the Guide moves.
#[derive(Clone, Debug, PartialEq)]
pub struct GuideRules {
    /// Tiles from his home (or the spawn point) he walks about by day.
    pub wander: u32,
    /// Walking speed, tiles/s.
    pub walk_speed: f32,
}

/// One condition of a hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    Night,
    Homeless,
    /// The player carries the item or it stands near as a station.
    Has(ItemId),
    Lacks(ItemId),
}

/// A hint: said when every condition holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    pub when: Vec<When>,
    pub say: String,
}

/// The checked town file.
#[derive(Clone, Debug, PartialEq)]
pub struct Town {
    pub housing: Housing,
    pub guide: GuideRules,
    pub hints: Vec<Hint>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TownFile {
    housing: HousingRow,
    guide: GuideRow,
    hints: Vec<HintRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HousingRow {
    min_tiles: u32,
    max_tiles: u32,
    lights: Vec<String>,
    flat: Vec<String>,
    comfort: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GuideRow {
    wander: u32,
    walk_speed: f32,
}

#[derive(Deserialize)]
enum WhenRow {
    Night,
    Homeless,
    Has(String),
    Lacks(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HintRow {
    when: Vec<WhenRow>,
    say: String,
}

/// Tiles named by `names` (field `field`), 1 to 16 of them.
fn tiles(field: &str, names: &[String]) -> Result<Vec<Tile>, Bad> {
    if names.is_empty() || names.len() > 16 {
        let m = format!("{field} lists {} tiles: allowed 1..=16", names.len());
        return Err(bad(field, m));
    }
    // The error is placed at the list (a string in it has no field name to find).
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            tile_named(format!("{field}[{i}]"), n).map_err(|_| {
                let all: Vec<&str> = Tile::ALL.iter().map(|t| t.name()).collect();
                let m = format!(
                    "{field}[{i}] = {n:?} is not a tile: allowed {}",
                    all.join(", ")
                );
                bad(field, m)
            })
        })
        .collect()
}

impl Town {
    /// The town compiled into the binary, checked against `cat`.
    pub fn builtin(cat: &Catalog) -> Result<Town, PresetError> {
        Town::parse(TOWN_RON, "config/town.ron", cat)
    }

    /// Parses and checks town text; `source` names it in errors.
    pub fn parse(text: &str, source: &str, cat: &Catalog) -> Result<Town, PresetError> {
        let file: TownFile = parse_ron(text, source)?;
        Town::check(&file, cat).map_err(|b| placed(text, source, b, &[]))
    }

    fn check(file: &TownFile, cat: &Catalog) -> Result<Town, Bad> {
        let h = &file.housing;
        let min_tiles = range_u("housing.min_tiles".into(), h.min_tiles, 4, 10_000)?;
        let max_tiles = range_u("housing.max_tiles".into(), h.max_tiles, min_tiles, 10_000)?;
        let housing = Housing {
            min_tiles,
            max_tiles,
            lights: tiles("housing.lights", &h.lights)?,
            flat: tiles("housing.flat", &h.flat)?,
            comfort: tiles("housing.comfort", &h.comfort)?,
        };
        let g = &file.guide;
        let wander = range_u("guide.wander".into(), g.wander, 0, 200)?;
        if !(g.walk_speed.is_finite() && (0.5..=11.0).contains(&g.walk_speed)) {
            let m = format!(
                "guide.walk_speed = {}: allowed [0.5, 11] (the player runs at 11)",
                g.walk_speed
            );
            return Err(bad("guide.walk_speed", m));
        }
        if file.hints.is_empty() || file.hints.len() > MAX_HINTS {
            let m = format!(
                "hints lists {} hints: allowed 1..={MAX_HINTS}",
                file.hints.len()
            );
            return Err(bad("hints", m));
        }
        let mut hints = Vec::with_capacity(file.hints.len());
        for (i, row) in file.hints.iter().enumerate() {
            let at = |f: &str| format!("hints[{i}].{f}");
            if row.when.len() > MAX_CONDITIONS {
                let m = format!(
                    "{} lists {} conditions: allowed 0..={MAX_CONDITIONS}",
                    at("when"),
                    row.when.len()
                );
                return Err(bad(at("when"), m));
            }
            if row.say.trim().is_empty() || row.say.len() > MAX_SAY {
                let m = format!("{}: allowed 1 to {MAX_SAY} bytes", at("say"));
                return Err(bad(at("say"), m));
            }
            let mut when = Vec::with_capacity(row.when.len());
            for (j, w) in row.when.iter().enumerate() {
                let item = |name: &str| {
                    cat.id(name).ok_or_else(|| {
                        let f = format!("{}[{j}]", at("when"));
                        let m = format!("{f}: {name:?} is not an item of config/items.ron");
                        bad(at("when"), m)
                    })
                };
                when.push(match w {
                    WhenRow::Night => When::Night,
                    WhenRow::Homeless => When::Homeless,
                    WhenRow::Has(n) => When::Has(item(n)?),
                    WhenRow::Lacks(n) => When::Lacks(item(n)?),
                });
            }
            hints.push(Hint {
                when,
                say: row.say.clone(),
            });
        }
        if !hints.last().is_some_and(|h| h.when.is_empty()) {
            let m = format!(
                "hints[{}].when: the last hint must have no conditions, so the Guide \
                 always has something to say",
                hints.len() - 1
            );
            return Err(bad(format!("hints[{}].when", hints.len() - 1), m));
        }
        Ok(Town {
            housing,
            guide: GuideRules {
                wander,
                walk_speed: g.walk_speed,
            },
            hints,
        })
    }
}

/// The checked town compiled into the binary (`cargo test` checks it, so it always
/// parses).
pub fn town() -> &'static Town {
    static TOWN: OnceLock<Town> = OnceLock::new();
    TOWN.get_or_init(|| {
        Town::builtin(crate::content::items::catalog()).unwrap_or_else(|e| panic!("{e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::items::catalog;

    fn parse(text: &str) -> Result<Town, PresetError> {
        Town::parse(text, "town.ron", catalog())
    }

    /// The line of `text` holding `needle`, 1-based.
    fn line_of(text: &str, needle: &str) -> usize {
        text.lines().position(|l| l.contains(needle)).unwrap() + 1
    }

    #[test]
    fn the_shipped_town_parses_with_terraria_s_house_sizes() {
        let t = Town::builtin(catalog()).unwrap();
        assert_eq!((t.housing.min_tiles, t.housing.max_tiles), (60, 750));
        assert!(t.housing.lights.contains(&Tile::Torch));
        assert!(t.housing.flat.contains(&Tile::Table) && t.housing.flat.contains(&Tile::Workbench));
        assert_eq!(t.housing.comfort, vec![Tile::Chair]);
        assert!(t.hints.len() >= 5);
    }

    #[test]
    fn bad_fields_are_refused_at_their_line_with_the_range() {
        let text = TOWN_RON.replace("max_tiles: 750", "max_tiles: 20");
        let e = parse(&text).unwrap_err();
        assert_eq!(
            e.position.map(|p| p.0),
            Some(line_of(&text, "max_tiles: 20"))
        );
        assert!(e.message.contains("60..=10000"), "{e}");

        let text = TOWN_RON.replace("comfort: [\"chair\"]", "comfort: [\"sofa\"]");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.position.map(|p| p.0), Some(line_of(&text, "sofa")));
        assert!(e.message.contains("\"sofa\" is not a tile"), "{e}");

        let text = TOWN_RON.replace("Lacks(\"wood\")", "Lacks(\"wod\")");
        let e = parse(&text).unwrap_err();
        assert!(e.message.contains("\"wod\" is not an item"), "{e}");
        assert!(e.position.is_some());

        let text = TOWN_RON.replace("walk_speed: 3.0", "walk_speed: 40.0");
        let e = parse(&text).unwrap_err();
        assert_eq!(
            e.position.map(|p| p.0),
            Some(line_of(&text, "walk_speed: 40.0"))
        );
        assert!(e.message.contains("[0.5, 11]"), "{e}");

        let e = parse("(housing: (min_tiles: 6").unwrap_err();
        assert!(e.position.is_some(), "{e}");
    }

    #[test]
    fn the_last_hint_always_applies() {
        let last = TOWN_RON
            .lines()
            .rfind(|l| l.contains("(when: [], say:"))
            .unwrap();
        let text = TOWN_RON.replace(last, "");
        let e = parse(&text).unwrap_err();
        assert!(e.message.contains("must have no conditions"), "{e}");
    }
}
