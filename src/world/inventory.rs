//! The inventory: [`SLOTS`] slots of stacks, the first [`HOTBAR_SLOTS`] of them the hotbar
//! (keys 1-9), one of which is selected.
//!
//! Adding fills stacks of the same item first (hotbar first), then empty slots; what does
//! not fit is returned. Tiles stand for the items that place them ([`AsItem`]), so the
//! dig rules add what they dig as tiles.

use crate::content::items::{ArmourSlot, Effect, Kind, Pick, START_PICKAXE, START_SWORD};
use crate::content::items::{Catalog, Item, ItemId};
use crate::world::Tile;
use std::sync::Arc;

/// Slots in the inventory: four rows of nine.
pub const SLOTS: usize = 36;
/// Slots in the hotbar (the inventory's first row; keys 1-9).
pub const HOTBAR_SLOTS: usize = 9;
/// Accessory slots beside the armour (Terraria's five before hardmode).
pub const ACCESSORY_SLOTS: usize = 5;
/// Torches a new player starts with.
pub const START_TORCHES: u32 = 20;

/// Some of one item in one slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stack {
    pub item: ItemId,
    pub count: u32,
}

/// An item, or a tile standing for the item that places it.
pub trait AsItem {
    /// The item of `cat` this stands for.
    fn as_item(&self, cat: &Catalog) -> Option<ItemId>;
}

impl AsItem for ItemId {
    fn as_item(&self, _: &Catalog) -> Option<ItemId> {
        Some(*self)
    }
}

impl AsItem for Tile {
    fn as_item(&self, cat: &Catalog) -> Option<ItemId> {
        cat.block_item(*self)
    }
}

impl AsItem for &str {
    fn as_item(&self, cat: &Catalog) -> Option<ItemId> {
        cat.id(self)
    }
}

/// The slots, the selected hotbar slot and the armour worn, and the catalog the items
/// are of (what stacks how high, what is armour).
#[derive(Clone)]
pub struct Inventory {
    cat: Arc<Catalog>,
    slots: [Option<Stack>; SLOTS],
    selected: usize,
    /// Worn, by [`ArmourSlot::index`].
    armour: [Option<ItemId>; 3],
    /// The accessories worn ([`ACCESSORY_SLOTS`]).
    accessories: [Option<ItemId>; ACCESSORY_SLOTS],
}

/// Why the selected item was not put on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WearRefusal {
    NotArmour,
    /// Armour for another slot (a helmet on the legs).
    OtherSlot,
    /// The same accessory is worn already (each is worn once).
    Worn,
}

impl std::fmt::Display for WearRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WearRefusal::NotArmour => write!(f, "that is not armour"),
            WearRefusal::OtherSlot => write!(f, "that is worn on another slot"),
            WearRefusal::Worn => write!(f, "one is worn already"),
        }
    }
}

/// Two inventories are the same when they hold the same (their catalogs aside).
impl PartialEq for Inventory {
    fn eq(&self, o: &Inventory) -> bool {
        (self.slots, self.selected, self.armour, self.accessories)
            == (o.slots, o.selected, o.armour, o.accessories)
    }
}

impl Eq for Inventory {}

impl std::fmt::Debug for Inventory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inventory")
            .field("slots", &self.slots)
            .field("selected", &self.selected)
            .field("armour", &self.armour)
            .field("accessories", &self.accessories)
            .finish()
    }
}

impl Inventory {
    /// A new player's inventory: a copper pickaxe, a copper sword and [`START_TORCHES`]
    /// torches in the first three slots, the first selected.
    pub fn starting(cat: &Arc<Catalog>) -> Inventory {
        let mut inv = Inventory::tools(cat);
        inv.add(Tile::Torch, START_TORCHES);
        inv
    }

    /// A new player's tools alone: a copper pickaxe and a copper sword (what an old save,
    /// which counted only blocks, is given on loading).
    pub fn tools(cat: &Arc<Catalog>) -> Inventory {
        let mut inv = Inventory::empty(cat);
        inv.add(START_PICKAXE, 1);
        inv.add(START_SWORD, 1);
        inv
    }

    /// Nothing held, first slot selected.
    pub fn empty(cat: &Arc<Catalog>) -> Inventory {
        Inventory {
            cat: Arc::clone(cat),
            slots: [None; SLOTS],
            selected: 0,
            armour: [None; 3],
            accessories: [None; ACCESSORY_SLOTS],
        }
    }

    /// An inventory from stored slots and the selected slot; `None` if the slot is out of
    /// the hotbar or a stack is empty or larger than its item stacks.
    pub fn from_parts(
        cat: &Arc<Catalog>,
        slots: [Option<Stack>; SLOTS],
        selected: usize,
    ) -> Option<Inventory> {
        let ok = slots.iter().flatten().all(|&s| stack_ok(cat, s));
        (ok && selected < HOTBAR_SLOTS).then_some(Inventory {
            cat: Arc::clone(cat),
            slots,
            selected,
            armour: [None; 3],
            accessories: [None; ACCESSORY_SLOTS],
        })
    }

    /// The catalog the items are of.
    pub fn catalog(&self) -> &Arc<Catalog> {
        &self.cat
    }

    /// The armour worn, by [`ArmourSlot::index`].
    pub fn armour(&self) -> [Option<ItemId>; 3] {
        self.armour
    }

    /// Wears `worn` (a save's), each piece on its own slot; `None` if one is not armour
    /// or sits on another's slot.
    pub fn with_armour(mut self, worn: [Option<ItemId>; 3]) -> Option<Inventory> {
        for (i, piece) in worn.iter().enumerate() {
            if let Some(id) = piece {
                match self.cat.item(*id).kind {
                    Kind::Armour { slot, .. } if slot.index() == i => {}
                    _ => return None,
                }
            }
        }
        self.armour = worn;
        Some(self)
    }

    /// The accessories worn, by slot.
    pub fn accessories(&self) -> [Option<ItemId>; ACCESSORY_SLOTS] {
        self.accessories
    }

    /// Wears `worn` (a save's) in the accessory slots; `None` if one is not an accessory
    /// or two are the same item (Terraria wears each accessory once).
    pub fn with_accessories(mut self, worn: [Option<ItemId>; ACCESSORY_SLOTS]) -> Option<Self> {
        for (i, piece) in worn.iter().enumerate() {
            if let Some(id) = piece {
                let again = worn[..i].contains(&Some(*id));
                if again || !matches!(self.cat.item(*id).kind, Kind::Accessory { .. }) {
                    return None;
                }
            }
        }
        self.accessories = worn;
        Some(self)
    }

    /// Is an accessory with `effect` worn?
    pub fn wears(&self, effect: Effect) -> bool {
        self.accessories.iter().flatten().any(
            |&id| matches!(self.cat.item(id).kind, Kind::Accessory { effect: e } if e == effect),
        )
    }

    /// Puts on the accessory in the selected slot (a right click): into the first empty
    /// accessory slot, else in place of the last one (which comes into the selected slot).
    /// Refused for what is not an accessory, or one already worn. Returns the slot used.
    pub fn wear_selected_accessory(&mut self) -> Result<usize, WearRefusal> {
        let s = self.slots[self.selected].ok_or(WearRefusal::NotArmour)?;
        if !matches!(self.cat.item(s.item).kind, Kind::Accessory { .. }) {
            return Err(WearRefusal::NotArmour);
        }
        if self.accessories.contains(&Some(s.item)) {
            return Err(WearRefusal::Worn);
        }
        let i = self
            .accessories
            .iter()
            .position(|a| a.is_none())
            .unwrap_or(ACCESSORY_SLOTS - 1);
        // Accessories stack one to a slot, so the slot holds just this one.
        let off = self.accessories[i].replace(s.item);
        self.slots[self.selected] = off.map(|item| Stack { item, count: 1 });
        Ok(i)
    }

    /// A click on accessory slot `i` with `held` on the cursor: an accessory is put on,
    /// what was worn there coming onto the cursor; an empty cursor takes it off. Anything
    /// else (not an accessory, one worn in another slot) is refused and nothing moves.
    pub fn click_accessory(
        &mut self,
        i: usize,
        held: &mut Option<Stack>,
    ) -> Result<(), WearRefusal> {
        if i >= ACCESSORY_SLOTS {
            return Err(WearRefusal::OtherSlot);
        }
        let Some(h) = *held else {
            *held = self.accessories[i]
                .take()
                .map(|item| Stack { item, count: 1 });
            return Ok(());
        };
        if !matches!(self.cat.item(h.item).kind, Kind::Accessory { .. }) || h.count != 1 {
            return Err(WearRefusal::NotArmour);
        }
        let elsewhere = (0..ACCESSORY_SLOTS).any(|j| j != i && self.accessories[j] == Some(h.item));
        if elsewhere {
            return Err(WearRefusal::Worn);
        }
        let off = self.accessories[i].replace(h.item);
        *held = off.map(|item| Stack { item, count: 1 });
        Ok(())
    }

    /// The defence of the armour worn, with its set's bonus when a whole set is worn.
    pub fn defence(&self) -> u32 {
        let pieces: u32 = self
            .armour
            .iter()
            .flatten()
            .map(|&id| match self.cat.item(id).kind {
                Kind::Armour { defence, .. } => defence,
                _ => 0,
            })
            .sum();
        pieces + self.set_worn().map_or(0, |s| s.defence)
    }

    /// The armour set worn whole, if any (its bonus applies).
    pub fn set_worn(&self) -> Option<&crate::content::items::sets::ArmourSet> {
        self.cat.sets.iter().find(|s| s.is_worn(&self.armour))
    }

    /// Empties slot `i`, returning what it held (`None` for an empty slot or no such slot).
    pub fn take_slot(&mut self, i: usize) -> Option<Stack> {
        self.slots.get_mut(i)?.take()
    }

    /// The brightest light the armour worn gives at the head (a mining helmet's), 0 for
    /// none.
    pub fn head_light(&self) -> u8 {
        self.armour
            .iter()
            .flatten()
            .map(|&id| match self.cat.item(id).kind {
                Kind::Armour { light, .. } => light,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// Puts on the armour in the selected slot; what was worn there goes into that slot.
    /// Returns the slot it was worn on.
    pub fn wear_selected(&mut self) -> Result<ArmourSlot, WearRefusal> {
        let Some(s) = self.slots[self.selected] else {
            return Err(WearRefusal::NotArmour);
        };
        let Kind::Armour { slot, .. } = self.cat.item(s.item).kind else {
            return Err(WearRefusal::NotArmour);
        };
        // Armour stacks one to a slot (its default), so the slot holds just this piece.
        let off = self.armour[slot.index()].replace(s.item);
        self.slots[self.selected] = off.map(|item| Stack { item, count: 1 });
        Ok(slot)
    }

    /// A click on armour slot `i` (head, body, legs) with `held` on the cursor: a piece
    /// for that slot is put on, what was worn coming onto the cursor; an empty cursor
    /// takes the worn piece off. Anything else is refused and nothing moves.
    pub fn click_armour(&mut self, i: usize, held: &mut Option<Stack>) -> Result<(), WearRefusal> {
        if i >= self.armour.len() {
            return Err(WearRefusal::OtherSlot);
        }
        let Some(h) = *held else {
            *held = self.armour[i].take().map(|item| Stack { item, count: 1 });
            return Ok(());
        };
        match self.cat.item(h.item).kind {
            Kind::Armour { slot, .. } if slot.index() != i => Err(WearRefusal::OtherSlot),
            // Armour stacks one to a slot (its default): the cursor holds one piece.
            Kind::Armour { .. } if h.count == 1 => {
                let off = self.armour[i].replace(h.item);
                *held = off.map(|item| Stack { item, count: 1 });
                Ok(())
            }
            _ => Err(WearRefusal::NotArmour),
        }
    }

    pub fn slots(&self) -> &[Option<Stack>; SLOTS] {
        &self.slots
    }

    /// How many of `item` are held, over every slot.
    pub fn count(&self, item: impl AsItem) -> u32 {
        let Some(id) = item.as_item(&self.cat) else {
            return 0;
        };
        self.slots
            .iter()
            .flatten()
            .filter(|s| s.item == id)
            .map(|s| s.count)
            .fold(0u32, u32::saturating_add)
    }

    /// How many more of `item` would fit.
    pub fn room_for(&self, item: impl AsItem) -> u32 {
        let Some(id) = item.as_item(&self.cat) else {
            return 0;
        };
        let most = self.cat.item(id).stack;
        self.slots
            .iter()
            .map(|s| match s {
                None => most,
                Some(s) if s.item == id => most - s.count,
                Some(_) => 0,
            })
            .fold(0u32, u32::saturating_add)
    }

    /// Adds `n` of `item`: onto its stacks first, then into empty slots, in slot order.
    /// Returns how many did not fit (all of them for a tile no item places).
    pub fn add(&mut self, item: impl AsItem, n: u32) -> u32 {
        let Some(id) = item.as_item(&self.cat) else {
            return n;
        };
        add_to_slots(&self.cat, &mut self.slots, id, n)
    }

    /// Removes `n` of `item` (last slots first), all or nothing: false when fewer are held.
    pub fn remove(&mut self, item: impl AsItem, n: u32) -> bool {
        let Some(id) = item.as_item(&self.cat) else {
            return n == 0;
        };
        if self.count(id) < n {
            return false;
        }
        let mut left = n;
        for slot in self.slots.iter_mut().rev() {
            if let Some(s) = slot.as_mut().filter(|s| s.item == id) {
                let take = left.min(s.count);
                s.count -= take;
                left -= take;
                if s.count == 0 {
                    *slot = None;
                }
            }
        }
        true
    }

    /// Takes one of `item` from the selected slot if it holds it, else from the last
    /// slot that does; false when there is none.
    pub fn take(&mut self, item: impl AsItem) -> bool {
        let Some(id) = item.as_item(&self.cat) else {
            return false;
        };
        let sel = self.selected;
        if let Some(s) = self.slots[sel].as_mut().filter(|s| s.item == id) {
            s.count -= 1;
            if s.count == 0 {
                self.slots[sel] = None;
            }
            return true;
        }
        self.remove(id, 1)
    }

    /// The selected slot, 0-based (key 1 is slot 0).
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// What the selected slot holds.
    pub fn selected_stack(&self) -> Option<Stack> {
        self.slots[self.selected]
    }

    /// The selected item's description.
    pub fn selected_item(&self) -> Option<&Item> {
        self.selected_stack().map(|s| self.cat.item(s.item))
    }

    /// The tile the selected item places, if it is a block.
    pub fn selected_tile(&self) -> Option<Tile> {
        match self.selected_item()?.kind {
            Kind::Block(t) => Some(t),
            _ => None,
        }
    }

    /// Selects a slot (number keys); out-of-range slots are ignored.
    pub fn select(&mut self, slot: usize) {
        if slot < HOTBAR_SLOTS {
            self.selected = slot;
        }
    }

    /// Moves the selection by `steps` (the mouse wheel), wrapping round.
    pub fn scroll(&mut self, steps: i32) {
        let n = HOTBAR_SLOTS as i64;
        self.selected = (self.selected as i64 + steps as i64).rem_euclid(n) as usize;
    }

    /// The strongest pickaxe carried anywhere (Strata digs with it whatever is selected).
    pub fn best_pickaxe(&self) -> Option<Pick> {
        self.slots
            .iter()
            .flatten()
            .filter_map(|s| match self.cat.item(s.item).kind {
                Kind::Pickaxe { power, speed } => Some(Pick { power, speed }),
                _ => None,
            })
            .max_by(|a, b| {
                (a.power, a.speed)
                    .partial_cmp(&(b.power, b.speed))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
    }

    /// The wall the selected item places, if it is a wall.
    pub fn selected_wall(&self) -> Option<crate::world::Wall> {
        match self.selected_item()?.kind {
            Kind::Wall(w) => Some(w),
            _ => None,
        }
    }

    /// The hammer in the selected slot, as its power and speed (walls come down with the
    /// hammer held, as in Terraria; a pickaxe digs whatever is selected).
    pub fn selected_hammer(&self) -> Option<Pick> {
        match self.selected_item()?.kind {
            Kind::Hammer { power, speed } => Some(Pick { power, speed }),
            _ => None,
        }
    }

    /// The sword in the selected slot, as (damage, reach, cooldown).
    pub fn selected_sword(&self) -> Option<(u32, f32, f32)> {
        match self.selected_item()?.kind {
            Kind::Sword {
                damage,
                reach,
                cooldown,
            } => Some((damage, reach, cooldown)),
            _ => None,
        }
    }

    /// The summoning item in the selected slot, if it is one.
    pub fn selected_summon(&self) -> Option<ItemId> {
        let s = self.slots[self.selected]?;
        matches!(self.cat.item(s.item).kind, Kind::Summon).then_some(s.item)
    }

    /// The potion in the selected slot, as (its item, heal, sickness seconds).
    pub fn selected_potion(&self) -> Option<(ItemId, u32, f32)> {
        let s = self.slots[self.selected]?;
        match self.cat.item(s.item).kind {
            Kind::Potion { heal, sickness } => Some((s.item, heal, sickness)),
            _ => None,
        }
    }

    /// A click on slot `i` with `held` on the cursor (the inventory screen): an empty
    /// cursor picks the stack up; a held stack is put down, merged onto the same item (what
    /// does not fit stays held) or swapped with another.
    pub fn click(&mut self, i: usize, held: &mut Option<Stack>) {
        if let Some(slot) = self.slots.get_mut(i) {
            click_slot(&self.cat, slot, held);
        }
    }

    /// The slots, to change (a chest's loot all and deposit all move stacks in and out).
    pub fn slots_mut(&mut self) -> &mut [Option<Stack>; SLOTS] {
        &mut self.slots
    }

    /// Drags the stack of slot `from` onto slot `to`: merged onto the same item, else the
    /// two swap.
    pub fn move_stack(&mut self, from: usize, to: usize) {
        if from == to || from >= SLOTS || to >= SLOTS {
            return;
        }
        let mut held = self.slots[from].take();
        self.click(to, &mut held);
        if let Some(h) = held {
            // What did not merge (or what was swapped out) goes back where the drag began.
            self.slots[from] = Some(h);
        }
    }
}

/// A click on one slot (of the inventory or a chest) with `held` on the cursor: an empty
/// cursor picks the stack up; a held stack is put down, merged onto the same item (what
/// does not fit stays held) or swapped with another.
pub fn click_slot(cat: &Catalog, slot: &mut Option<Stack>, held: &mut Option<Stack>) {
    match (slot.as_mut(), held.as_mut()) {
        (Some(s), Some(h)) if s.item == h.item => {
            let most = cat.item(s.item).stack;
            let put = h.count.min(most - s.count);
            s.count += put;
            h.count -= put;
            if h.count == 0 {
                *held = None;
            }
        }
        _ => std::mem::swap(slot, held),
    }
}

/// Moves every stack of `from` into `to` (onto its stacks, then into empty slots, as
/// [`add_to_slots`]); what does not fit stays where it was. Returns how many items moved.
pub fn move_all(cat: &Catalog, from: &mut [Option<Stack>], to: &mut [Option<Stack>]) -> u32 {
    let mut moved = 0;
    for slot in from.iter_mut() {
        let Some(s) = *slot else { continue };
        let left = add_to_slots(cat, to, s.item, s.count);
        moved += s.count - left;
        *slot = (left > 0).then_some(Stack {
            item: s.item,
            count: left,
        });
    }
    moved
}

/// Is `s` a stack the catalog allows: a known item, at least one, at most its stack size?
pub fn stack_ok(cat: &Catalog, s: Stack) -> bool {
    (s.item.0 as usize) < cat.items.len() && s.count >= 1 && s.count <= cat.item(s.item).stack
}

/// Adds `n` of `id` to `slots`: onto its stacks first, then into empty slots, in slot
/// order. Returns how many did not fit.
pub fn add_to_slots(cat: &Catalog, slots: &mut [Option<Stack>], id: ItemId, n: u32) -> u32 {
    let most = cat.item(id).stack;
    let mut left = n;
    for s in slots.iter_mut().flatten().filter(|s| s.item == id) {
        let put = left.min(most - s.count);
        s.count += put;
        left -= put;
    }
    for slot in slots.iter_mut().filter(|s| s.is_none()) {
        if left == 0 {
            break;
        }
        let put = left.min(most);
        *slot = Some(Stack {
            item: id,
            count: put,
        });
        left -= put;
    }
    left
}
