//! Chests in the session: opening one (one player at a time), keeping it open while its
//! player stands near, and who has it open ([`crate::world::chest`]).

use super::*;

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
            if self.world.get(xi, yi) != Some(Tile::Chest)
                || !edit::can_reach(&p.body, xi, yi, edit::REACH)
            {
                p.chest = None;
            }
        }
    }

    /// Opens the chest at `(x, y)` if it is within reach (or says it is not).
    pub(super) fn open_chest(&mut self, who: PlayerId, x: i64, y: i64, out: &mut Changes) {
        if self.world.get(x, y) != Some(Tile::Chest) {
            return;
        }
        let p = &mut self.players[who.0];
        if !edit::can_reach(&p.body, x, y, edit::REACH) {
            out.messages
                .push((who, Message::Refused(EditRefusal::OutOfReach)));
            return;
        }
        let (x, y) = (x as usize, y as usize);
        if let Some(other) = self.chest_user(x, y).filter(|&o| o != who) {
            out.log(
                who,
                format!("chest at {x} {y} in use by player {}", other.0),
            );
            out.notice(who, CHEST_IN_USE);
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
    /// leaves or dies).
    pub fn chest_user(&self, x: usize, y: usize) -> Option<PlayerId> {
        (0..self.players.len())
            .map(PlayerId)
            .find(|&p| self.is_present(p) && self.players[p.0].chest == Some((x, y)))
    }
}
