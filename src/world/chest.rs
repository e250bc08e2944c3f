//! Chests: what each chest tile of a world holds, [`CHEST_SLOTS`] slots of stacks.
//!
//! A world carries a [`Chests`] map from tile position to contents. Every entry stands at
//! a [`Tile::Chest`](crate::world::Tile::Chest); a chest tile without an entry is empty
//! (so a chest placed by hand, or one in a save from before chests held anything, is an
//! empty chest). The dig and place rules keep the map in step with the tiles
//! ([`crate::sim::edit`]): a chest holding anything cannot be mined, as in Terraria (take its
//! contents out first), mining an empty one removes its entry, placing one makes it
//! empty.

use super::inventory::Stack;
use super::inventory::{HOTBAR_SLOTS, Inventory};
use super::inventory::{add_to_slots, click_slot, move_all, stack_ok};
use crate::content::items::{Catalog, ItemId};
use std::collections::BTreeMap;

pub use crate::content::items::CHEST_SLOTS;

/// Slots of a player's piggy bank (Terraria's 40).
pub const BANK_SLOTS: usize = 40;

/// A store of `N` slots of stacks: a chest's contents ([`Chest`]) or a player's piggy
/// bank ([`Bank`]); the inventory screen's chest panel shows either.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store<const N: usize> {
    slots: [Option<Stack>; N],
}

/// One chest's contents.
pub type Chest = Store<CHEST_SLOTS>;

/// A player's piggy bank: its own store, the same from every piggy bank in every world
/// (kept with the character, as Terraria's).
pub type Bank = Store<BANK_SLOTS>;

impl<const N: usize> Default for Store<N> {
    fn default() -> Store<N> {
        Store::empty()
    }
}

impl<const N: usize> Store<N> {
    /// A store holding nothing.
    pub fn empty() -> Store<N> {
        Store { slots: [None; N] }
    }

    /// A store from stored slots; `None` if a stack is empty, of an unknown item or larger
    /// than its item stacks.
    pub fn from_slots(cat: &Catalog, slots: [Option<Stack>; N]) -> Option<Store<N>> {
        slots
            .iter()
            .flatten()
            .all(|&s| stack_ok(cat, s))
            .then_some(Store { slots })
    }

    pub fn slots(&self) -> &[Option<Stack>; N] {
        &self.slots
    }

    /// Does it hold nothing?
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(Option::is_none)
    }

    /// Adds `n` of `id` (onto its stacks, then into empty slots); returns what did not fit.
    pub fn add(&mut self, cat: &Catalog, id: ItemId, n: u32) -> u32 {
        add_to_slots(cat, &mut self.slots, id, n)
    }

    /// Loot all: moves every stack into `inv` as far as it has room (what does not fit
    /// stays). Returns how many items moved.
    pub fn loot_all(&mut self, inv: &mut Inventory) -> u32 {
        let cat = std::sync::Arc::clone(inv.catalog());
        move_all(&cat, &mut self.slots, inv.slots_mut())
    }

    /// Deposit all: moves every stack of `inv` but the hotbar's into the store as far as
    /// it has room (Terraria's button leaves the hotbar too). Returns how many items moved.
    pub fn deposit_all(&mut self, inv: &mut Inventory) -> u32 {
        let cat = std::sync::Arc::clone(inv.catalog());
        move_all(&cat, &mut inv.slots_mut()[HOTBAR_SLOTS..], &mut self.slots)
    }

    /// A click on slot `i` with `held` on the cursor, as the inventory's slots take one
    /// ([`click_slot`]).
    pub fn click(&mut self, cat: &Catalog, i: usize, held: &mut Option<Stack>) {
        if let Some(slot) = self.slots.get_mut(i) {
            click_slot(cat, slot, held);
        }
    }
}

/// Every chest of a world that has an entry, by tile position `(x, y)`, in row-major
/// order of `(y, x)` (the order saves write them in).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chests {
    map: BTreeMap<(u32, u32), Chest>,
    /// Chests generation placed whose loot is still to be drawn ([`Chests::order`]).
    due: Vec<Stocking>,
}

/// What a chest generation placed is to hold. A generation pass knows where its chests
/// go but not the content the world is made with (built-in or with mods): it orders
/// their loot, and generation draws it from that content's loot table as soon as the
/// pass is done ([`Chests::take_due`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stocking {
    /// The chest's tile.
    pub at: (usize, usize),
    /// The seed of the draw (a hash of the pass's key and the chest's place).
    pub seed: u64,
    pub from: LootFrom,
}

/// Where a chest's loot is drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LootFrom {
    /// The tier of this depth layer ([`crate::content::loot::LootTable::draw`]).
    Tier(crate::base::depth::Layer),
    /// The named set ([`crate::content::loot::LootTable::draw_set`]).
    Set(&'static str),
}

impl Chests {
    /// The contents of the chest at `(x, y)`, if it has an entry.
    pub fn get(&self, x: usize, y: usize) -> Option<&Chest> {
        self.map.get(&key(x, y))
    }

    /// The chest at `(x, y)`, made empty first if it has no entry (the caller knows a
    /// chest tile is there).
    pub fn open(&mut self, x: usize, y: usize) -> &mut Chest {
        self.map.entry(key(x, y)).or_default()
    }

    /// Does the chest at `(x, y)` hold anything?
    pub fn holds_items(&self, x: usize, y: usize) -> bool {
        self.get(x, y).is_some_and(|c| !c.is_empty())
    }

    /// Sets the contents of the chest at `(x, y)`.
    pub fn insert(&mut self, x: usize, y: usize, chest: Chest) {
        self.map.insert(key(x, y), chest);
    }

    /// An empty chest at `(x, y)` whose loot is drawn `from` with `seed` once the content
    /// is at hand ([`Stocking`]).
    pub fn order(&mut self, x: usize, y: usize, from: LootFrom, seed: u64) {
        self.insert(x, y, Chest::empty());
        self.due.push(Stocking {
            at: (x, y),
            seed,
            from,
        });
    }

    /// The loot ordered and not drawn yet, in the order it was ordered.
    pub fn take_due(&mut self) -> Vec<Stocking> {
        std::mem::take(&mut self.due)
    }

    /// Forgets the chest at `(x, y)`, returning what it held.
    pub fn remove(&mut self, x: usize, y: usize) -> Option<Chest> {
        self.map.remove(&key(x, y))
    }

    /// How many chests have an entry.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Every entry as `((x, y), contents)`, top row first, left to right.
    pub fn iter(&self) -> impl Iterator<Item = ((usize, usize), &Chest)> {
        self.map
            .iter()
            .map(|(&(y, x), c)| ((x as usize, y as usize), c))
    }
}

/// The map's key: `(y, x)`, so the map's order is row-major.
fn key(x: usize, y: usize) -> (u32, u32) {
    (y as u32, x as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn catalog() -> Arc<Catalog> {
        Arc::new(Catalog::builtin().unwrap())
    }

    #[test]
    fn loot_all_takes_what_fits_and_deposit_all_leaves_the_hotbar() {
        let cat = catalog();
        let gel = cat.id("gel").unwrap();
        let wood = cat.id("wood").unwrap();
        let mut c = Chest::empty();
        c.add(&cat, gel, 30);
        c.add(&cat, wood, 12);
        let mut inv = Inventory::starting(&cat);
        let held = inv.clone();
        assert_eq!(c.loot_all(&mut inv), 42);
        assert!(c.is_empty());
        assert_eq!((inv.count(gel), inv.count(wood)), (30, 12));
        // Deposit all: the gel and wood went into the hotbar's free slots, so they stay;
        // what lies beyond the hotbar goes in.
        let mut inv = held.clone();
        let most = cat.item(wood).stack;
        inv.add(wood, most * 9 + 5);
        let beyond: u32 = inv.slots()[HOTBAR_SLOTS..]
            .iter()
            .flatten()
            .map(|s| s.count)
            .sum();
        assert!(beyond > 0);
        let hotbar = inv.slots()[..HOTBAR_SLOTS].to_vec();
        assert_eq!(c.deposit_all(&mut inv), beyond);
        assert_eq!(inv.slots()[..HOTBAR_SLOTS], hotbar[..]);
        assert!(inv.slots()[HOTBAR_SLOTS..].iter().all(Option::is_none));
        assert_eq!(
            c.slots().iter().flatten().map(|s| s.count).sum::<u32>(),
            beyond
        );
        // A full inventory: loot all takes what fits, the rest stays in the chest.
        let mut full = Inventory::empty(&cat);
        full.add(wood, most * crate::world::inventory::SLOTS as u32 - 3);
        let mut c = Chest::empty();
        c.add(&cat, wood, 10);
        assert_eq!(c.loot_all(&mut full), 3);
        assert_eq!(
            c.slots()[0],
            Some(Stack {
                item: wood,
                count: 7
            })
        );
    }

    #[test]
    fn chests_fill_stacks_first_and_give_back_what_does_not_fit() {
        let cat = catalog();
        let torch = cat.id("torch").unwrap();
        let pick = cat.id("iron_pickaxe").unwrap();
        let mut c = Chest::empty();
        assert!(c.is_empty());
        assert_eq!(c.add(&cat, torch, 1000), 0, "999 and 1 in two slots");
        assert_eq!(c.slots()[0].unwrap().count, 999);
        assert_eq!(c.slots()[1].unwrap().count, 1);
        // Pickaxes stack one a slot: 25 more slots, so 5 of 30 do not fit.
        assert_eq!(c.add(&cat, pick, 30), 5);
        assert!(c.slots().iter().all(Option::is_some));
        assert!(!c.is_empty());
    }

    #[test]
    fn a_click_takes_and_puts_as_the_inventory_does() {
        let cat = catalog();
        let torch = cat.id("torch").unwrap();
        let mut c = Chest::empty();
        c.add(&cat, torch, 10);
        let mut held = None;
        c.click(&cat, 0, &mut held);
        assert_eq!(held.map(|h| h.count), Some(10));
        assert!(c.is_empty());
        c.click(&cat, 4, &mut held);
        assert_eq!(held, None);
        assert_eq!(c.slots()[4].map(|s| s.count), Some(10));
        // Out of range: nothing happens.
        let mut held = Some(Stack {
            item: torch,
            count: 3,
        });
        c.click(&cat, CHEST_SLOTS, &mut held);
        assert_eq!(held.map(|h| h.count), Some(3));
    }

    #[test]
    fn the_map_is_row_major_and_open_makes_an_empty_entry() {
        let cat = catalog();
        let mut m = Chests::default();
        m.insert(9, 1, Chest::empty());
        m.insert(2, 5, Chest::empty());
        m.insert(30, 0, Chest::empty());
        let order: Vec<(usize, usize)> = m.iter().map(|(p, _)| p).collect();
        assert_eq!(order, [(30, 0), (9, 1), (2, 5)]);
        assert!(!m.holds_items(7, 7) && m.get(7, 7).is_none());
        m.open(7, 7).add(&cat, cat.id("gel").unwrap(), 2);
        assert!(m.holds_items(7, 7));
        assert_eq!(m.remove(7, 7).map(|c| c.is_empty()), Some(false));
        assert_eq!(m.len(), 3);
    }

    #[test]
    fn stored_slots_are_checked() {
        let cat = catalog();
        let gel = cat.id("gel").unwrap();
        let mut slots = [None; CHEST_SLOTS];
        slots[3] = Some(Stack {
            item: gel,
            count: 5,
        });
        assert!(Chest::from_slots(&cat, slots).is_some());
        slots[4] = Some(Stack {
            item: gel,
            count: 0,
        });
        assert!(Chest::from_slots(&cat, slots).is_none());
        slots[4] = Some(Stack {
            item: ItemId(60000),
            count: 1,
        });
        assert!(Chest::from_slots(&cat, slots).is_none());
    }
}
