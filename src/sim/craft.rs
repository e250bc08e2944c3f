//! Crafting: which stations stand near the player ([`Stations`]), whether a recipe can be
//! made now ([`status`]) and making it ([`craft`]). The recipes themselves are content
//! ([`crate::content::items`]).

use crate::content::items::{CRAFT_RANGE, Catalog, ItemId, Recipe, a_or_an};
use crate::world::inventory::Inventory;
use crate::world::{Tile, World};

/// What the panel shows for a recipe: can it be made now, or what is missing.
pub fn status(recipe: &Recipe, inv: &Inventory, near: Stations) -> Result<(), CraftRefusal> {
    for &(id, n) in &recipe.from {
        let have = inv.count(id);
        if have < n {
            return Err(CraftRefusal::Missing(id, n - have));
        }
    }
    match recipe.at {
        Some(t) if !near.has(t) => Err(CraftRefusal::NotNear(t)),
        _ => Ok(()),
    }
}

/// The station tiles near the player: a set of tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stations(u128);

const _: () = assert!(Tile::COUNT <= 128);

impl Stations {
    pub fn with(self, t: Tile) -> Stations {
        Stations(self.0 | 1 << t as u32)
    }

    pub fn has(self, t: Tile) -> bool {
        self.0 & 1 << t as u32 != 0
    }

    /// The tiles within [`CRAFT_RANGE`] of the box `(left, top, right, bottom)` (a body,
    /// in tiles) that some recipe names as its station.
    pub fn near(world: &World, body: (f32, f32, f32, f32), cat: &Catalog) -> Stations {
        let mut wanted = Stations::default();
        for r in &cat.recipes {
            if let Some(t) = r.at {
                wanted = wanted.with(t);
            }
        }
        let (x0, y0) = (
            body.0.floor() as i64 - CRAFT_RANGE,
            body.1.floor() as i64 - CRAFT_RANGE,
        );
        let (x1, y1) = (
            body.2.ceil() as i64 + CRAFT_RANGE,
            body.3.ceil() as i64 + CRAFT_RANGE,
        );
        let mut out = Stations::default();
        for y in y0..=y1 {
            for x in x0..=x1 {
                if let Some(t) = world.get(x, y).filter(|&t| wanted.has(t)) {
                    out = out.with(t);
                }
            }
        }
        out
    }
}

/// Why a recipe cannot be made now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CraftRefusal {
    /// Short of this item by this many.
    Missing(ItemId, u32),
    /// Not near this station.
    NotNear(Tile),
    /// The result would not fit in the inventory.
    NoRoom,
}

impl CraftRefusal {
    /// What the player is told, naming `cat`'s items.
    pub fn text(&self, cat: &Catalog) -> String {
        match self {
            CraftRefusal::Missing(id, n) => format!("{n} more {}", cat.item(*id).label),
            CraftRefusal::NotNear(t) => {
                format!("stand near {} {}", a_or_an(t.label()), t.label())
            }
            CraftRefusal::NoRoom => "no room in the inventory".into(),
        }
    }
}

/// Crafts `recipe`: takes its ingredients from `inv` and adds its result, when everything
/// is carried, the station is `near` and the result fits; otherwise `inv` is unchanged.
pub fn craft(recipe: &Recipe, inv: &mut Inventory, near: Stations) -> Result<(), CraftRefusal> {
    status(recipe, inv, near)?;
    let mut after = inv.clone();
    for &(id, n) in &recipe.from {
        after.remove(id, n);
    }
    if after.add(recipe.make, recipe.count) > 0 {
        return Err(CraftRefusal::NoRoom);
    }
    *inv = after;
    Ok(())
}

#[cfg(test)]
mod tests;
