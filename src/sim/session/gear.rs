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
