//! Chests in the session: opening one (one player at a time), keeping it open while its
//! player stands near, and who has it open ([`crate::world::chest`]). A piggy bank opens
//! as a chest does, but what it shows is its player's own bank ([`Seat::bank`]): any
//! number of players may each have theirs open at one piggy bank.

use super::*;
use crate::world::chest::Store as Slots;

/// A click in the open chest's (or piggy bank's) panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Store {
    /// On slot `i`: takes, puts, merges or swaps with the stack on the cursor.
    Click(usize),
    /// Everything of the store into the inventory, as far as it has room.
    LootAll,
    /// Everything but the hotbar into the store, as far as it has room.
    DepositAll,
}

/// What a click in a store's panel did: the cursor's stack changed, the items moved,
/// and whether the store still holds something.
struct Done {
    changed: bool,
    moved: u32,
    left: bool,
}

/// Does `act` on `store` with the inventory `inv` and the cursor's `held`.
fn apply<const N: usize>(
    store: &mut Slots<N>,
    inv: &mut Inventory,
    held: &mut Option<Stack>,
    cat: &Catalog,
    act: Store,
) -> Done {
    let before = *held;
    let moved = match act {
        Store::Click(i) => {
            store.click(cat, i, held);
            0
        }
        Store::LootAll => store.loot_all(inv),
        Store::DepositAll => store.deposit_all(inv),
    };
    Done {
        changed: *held != before || moved > 0,
        moved,
        left: !store.is_empty(),
    }
}

/// Is `tile` one that opens as a chest (a chest, or a piggy bank)?
pub fn opens(tile: Option<Tile>) -> bool {
    matches!(tile, Some(Tile::Chest | Tile::PiggyBank))
}

impl Session {
    /// Closes the open chest once it is out of reach or no longer there, and the shop
    /// once its seller is.
    pub(super) fn keep_chest(&mut self, who: PlayerId) {
        let p = &mut self.players[who.0];
        if let Some(seller) = p.shop {
            let near = self.townsfolk.iter().any(|m| {
                m.name == seller && {
                    let (mx, my) = m.body.centre();
                    edit::can_reach(
                        &p.body,
                        mx.floor() as i64,
                        my.floor() as i64,
                        edit::REACH + 2.0,
                    )
                }
            });
            if !near {
                p.shop = None;
            }
        }
        if let Some((x, y)) = p.chest {
            let (xi, yi) = (x as i64, y as i64);
            if !opens(self.world.get(xi, yi)) || !edit::can_reach(&p.body, xi, yi, edit::REACH) {
                p.chest = None;
            }
        }
    }

    /// Opens the chest (or piggy bank) at `(x, y)` if it is within reach (or says it is
    /// not).
    pub(super) fn open_chest(&mut self, who: PlayerId, x: i64, y: i64, out: &mut Changes) {
        let tile = self.world.get(x, y);
        if !opens(tile) {
            return;
        }
        let p = &mut self.players[who.0];
        if !edit::can_reach(&p.body, x, y, edit::REACH) {
            out.messages
                .push((who, Message::Refused(EditRefusal::OutOfReach)));
            return;
        }
        let (x, y) = (x as usize, y as usize);
        if tile == Some(Tile::PiggyBank) {
            let stacks = p.bank.slots().iter().flatten().count();
            p.chest = Some((x, y));
            out.say(who, Hand::PiggyBank { x, y, stacks });
            out.events.push(Event::ChestOpened {
                player: who,
                x,
                y,
                stacks,
            });
            return;
        }
        if let Some(other) = self.chest_user(x, y).filter(|&o| o != who) {
            out.say(who, Hand::ChestInUse { x, y, by: other });
            return;
        }
        let p = &mut self.players[who.0];
        let stacks = self
            .world
            .chests
            .get(x, y)
            .map_or(0, |c| c.slots().iter().flatten().count());
        p.chest = Some((x, y));
        out.events.push(Event::ChestOpened {
            player: who,
            x,
            y,
            stacks,
        });
    }

    /// The present player who has the chest at `(x, y)` open, if any: one player at a
    /// time uses a chest (it is freed when that player closes it, walks out of reach,
    /// leaves or dies). A piggy bank has none: each player opens its own bank there.
    pub fn chest_user(&self, x: usize, y: usize) -> Option<PlayerId> {
        if self.world.tile(x, y) != Tile::Chest {
            return None;
        }
        (0..self.players.len())
            .map(PlayerId)
            .find(|&p| self.is_present(p) && self.players[p.0].chest == Some((x, y)))
    }

    /// A click of player `who` in the panel of its open chest or piggy bank (`act`): on
    /// the chest's slots in the world, or on the player's own bank.
    pub(super) fn use_store(&mut self, who: PlayerId, act: Store, out: &mut Changes) {
        let p = &mut self.players[who.0];
        let Some((x, y)) = p.chest else {
            return;
        };
        let cat = Arc::clone(&self.content.catalog);
        let (inv, held) = (&mut p.inventory, &mut p.held);
        let (bank, done) = match self.world.tile(x, y) {
            Tile::Chest => (
                false,
                apply(self.world.chests.open(x, y), inv, held, &cat, act),
            ),
            Tile::PiggyBank => (true, apply(&mut p.bank, inv, held, &cat, act)),
            _ => return,
        };
        if done.changed {
            self.edits += 1;
            out.edits += 1;
        }
        match act {
            Store::Click(slot) if done.changed => {
                out.say(who, Hand::StoreSlot { bank, x, y, slot })
            }
            Store::Click(_) => {}
            Store::LootAll | Store::DepositAll => {
                let (looted, moved) = (act == Store::LootAll, done.moved);
                out.say(
                    who,
                    Hand::StoreMoved {
                        looted,
                        moved,
                        bank,
                        x,
                        y,
                    },
                );
                if looted && done.left {
                    out.say(who, Hand::NotAllFitted { bank });
                }
            }
        }
    }
}
