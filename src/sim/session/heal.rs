//! Potions in the session: the selected one drunk with the primary button (a press while
//! a swing still holds the hands is kept and drunk when they are free, never dropped),
//! and the quick heal (Terraria's H: the first healing potion carried, whatever is
//! selected). Every refusal says why. The sickness left is
//! [`crate::sim::vitals::Vitals::potion_sick`], for the HUD.

use super::{Changes, Hand, PlayerId, Session, ticks};
use crate::content::items::{ItemId, Kind};

/// Seconds a potion press waits for hands still busy with a swing.
pub const QUEUE_SECONDS: f32 = 1.0;
/// Seconds the hands are busy after a drink.
pub const DRINK_SECONDS: f64 = 0.25;

impl Session {
    /// The selected potion `item` (`heal`, `sickness`) with the primary button held
    /// (`using`): drunk when the hands are free; a press while they are busy is kept for
    /// [`QUEUE_SECONDS`] and drunk the moment they are free.
    pub(super) fn use_potion(
        &mut self,
        who: PlayerId,
        (item, heal, sickness): (ItemId, u32, f32),
        using: bool,
        out: &mut Changes,
    ) {
        let now = self.tick;
        let p = &mut self.players[who.0];
        if now < p.next_swing {
            if using {
                p.vitals.potion_queued = QUEUE_SECONDS;
            }
            return;
        }
        if !using && p.vitals.potion_queued <= 0.0 {
            return;
        }
        p.vitals.potion_queued = 0.0;
        p.next_swing = now + ticks(DRINK_SECONDS);
        self.drink(who, item, heal, sickness, out);
    }

    /// The quick heal: the first healing potion in player `who`'s slots is drunk, or it is
    /// told why not (none carried, sick, full).
    pub(super) fn quick_heal(&mut self, who: PlayerId, out: &mut Changes) {
        let content = std::sync::Arc::clone(&self.content);
        let p = &self.players[who.0];
        let potion = p.inventory.slots().iter().flatten().find_map(|s| {
            match content.catalog.item(s.item).kind {
                Kind::Potion { heal, sickness } if heal > 0 => Some((s.item, heal, sickness)),
                _ => None,
            }
        });
        match potion {
            Some((item, heal, sickness)) => self.drink(who, item, heal, sickness, out),
            None => {
                out.say(who, Hand::NoPotion);
            }
        }
    }

    /// Player `who` drinks one `item` (wherever it is carried) of `heal`, sick
    /// `sickness` seconds after, or is told why not.
    fn drink(&mut self, who: PlayerId, item: ItemId, heal: u32, sickness: f32, out: &mut Changes) {
        let p = &mut self.players[who.0];
        match p.vitals.drink(heal as f32, sickness) {
            Ok(gained) => {
                take_one(&mut p.inventory, item);
                let health = p.vitals.health;
                out.say(who, Hand::Drank { gained, health });
            }
            Err(e) => out.say(who, Hand::CantDrink(e)),
        }
    }
}

/// Takes one `item` out of `inv`: from the selected slot if it holds it, else the first
/// slot that does.
fn take_one(inv: &mut crate::world::inventory::Inventory, item: ItemId) {
    if inv.take(item) {
        return;
    }
    if let Some(slot) = inv
        .slots_mut()
        .iter_mut()
        .find(|s| s.is_some_and(|s| s.item == item))
    {
        let s = slot.as_mut().expect("found");
        s.count -= 1;
        if s.count == 0 {
            *slot = None;
        }
    }
}
