//! The accessories a player wears, in the session: what they give the body and the vitals
//! each tick ([`fit`]), and the grappling hook's key ([`Session::hook`]).

use super::*;
use crate::content::items::Effect;

/// Gives the body and the vitals of `p` what its accessories do: Hermes boots and a cloud
/// in a bottle to the body, a lucky horseshoe and a band of regeneration to the vitals.
/// A hook caught while the grappling hook is no longer worn is let go.
pub(super) fn fit(p: &mut Seat) {
    let inv = &p.inventory;
    p.body.gear = crate::sim::player::Gear {
        boots: inv.wears(Effect::Run),
        cloud: inv.wears(Effect::DoubleJump),
    };
    p.vitals.no_fall = inv.wears(Effect::NoFallDamage);
    p.vitals.band = inv.wears(Effect::Regeneration);
    if !inv.wears(Effect::Hook) {
        p.body.hook = None;
    }
}

impl Session {
    /// The hook key of player `who`, aimed at `at` (tiles): with a grappling hook worn,
    /// its line catches the first solid tile toward `at` within
    /// [`crate::sim::player::HOOK_REACH`] tiles, and the body is pulled there.
    pub(super) fn hook(&mut self, who: PlayerId, at: (f32, f32), out: &mut Changes) {
        let p = &mut self.players[who.0];
        if p.death.is_some() || !p.inventory.wears(Effect::Hook) {
            return;
        }
        match p.body.fire_hook(&self.world, at) {
            Some((x, y)) => out.log(who, format!("hook caught at {x:.1} {y:.1}")),
            None => out.log(who, "hook caught nothing"),
        }
    }
}

/// Seconds a magic mirror is gazed into before it takes the player home (Terraria's
/// mirror: a use of 90 frames, 1.5 s).
pub const MIRROR_SECONDS: f64 = 1.5;

impl Session {
    /// The tools of player `who` this tick: a magic mirror selected starts its channel at
    /// a press of the left button (`using`), and a channel that ended takes the player
    /// to its spawn point (the bed, else the world's). Returns true when a tool was
    /// selected (the hands do nothing else this tick).
    pub(super) fn tools(&mut self, who: PlayerId, using: bool, out: &mut Changes) -> bool {
        let now = self.tick;
        let p = &mut self.players[who.0];
        if p.death.is_some() {
            p.mirror = None;
        }
        if let Some(end) = p.mirror
            && now >= end
        {
            p.mirror = None;
            let (at, _) = crate::sim::respawn::respawn_at(&self.world, p.bed);
            p.body = Player::new(at);
            out.log(who, format!("mirror: home at {:.1} {:.1}", at.0, at.1));
            out.events.push(Event::Moved {
                player: who,
                pos: at,
            });
        }
        let tool = match p.inventory.selected_item().map(|i| i.kind) {
            Some(crate::content::items::Kind::Tool { tool }) => tool,
            _ => return false,
        };
        p.dig.reset();
        match tool {
            crate::content::items::Tool::Mirror => {
                if using && p.mirror.is_none() {
                    p.mirror = Some(now + ticks(MIRROR_SECONDS));
                }
            }
        }
        true
    }
}
