//! The accessories a player wears, in the session: what they give the body and the vitals
//! each tick ([`fit`]), and the grappling hook's key ([`Session::hook`]).

use super::*;
use crate::content::items::{Effect, Kind, Tool};

/// Seconds between two uses of a bucket while the button is held.
pub const BUCKET_SECONDS: f64 = 0.25;

/// The full bucket that holds `liquid`.
fn bucket_of(liquid: Tile) -> Option<Tool> {
    match liquid {
        Tile::Water => Some(Tool::WaterBucket),
        Tile::Lava => Some(Tool::LavaBucket),
        Tile::Honey => Some(Tool::HoneyBucket),
        _ => None,
    }
}

/// Gives the body and the vitals of `p` what its accessories do: Hermes boots and a cloud
/// in a bottle to the body, a lucky horseshoe and a band of regeneration to the vitals;
/// and an armour set's speed bonus to the body (its defence is the inventory's).
/// A hook caught while the grappling hook is no longer worn is let go.
pub(super) fn fit(p: &mut Seat) {
    let inv = &p.inventory;
    p.body.gear = crate::sim::player::Gear {
        boots: inv.wears(Effect::Run),
        cloud: inv.wears(Effect::DoubleJump),
        haste: inv.set_worn().map_or(0, |s| s.speed),
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
        let caught = p.body.fire_hook(&self.world, at);
        out.say(who, Hand::Hooked(caught));
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
    pub(super) fn tools(
        &mut self,
        who: PlayerId,
        using: Option<Option<(i64, i64)>>,
        out: &mut Changes,
    ) -> bool {
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
            out.say(who, Hand::MirrorHome { at });
            out.events.push(Event::Moved {
                player: who,
                pos: at,
            });
        }
        let tool = match p.inventory.selected_item().map(|i| i.kind) {
            Some(Kind::Tool { tool }) => tool,
            _ => return false,
        };
        p.dig.reset();
        match tool {
            Tool::Mirror => {
                if using.is_some() && p.mirror.is_none() {
                    p.mirror = Some(now + ticks(MIRROR_SECONDS));
                }
            }
            _ => {
                if let Some(Some(at)) = using
                    && now >= p.next_swing
                {
                    p.next_swing = now + ticks(BUCKET_SECONDS);
                    self.bucket(who, tool, at, out);
                }
            }
        }
        true
    }

    /// A bucket `tool` of player `who` used at tile `at`: an empty one scoops a liquid tile
    /// within reach into a full bucket, a full one pours its liquid into an empty tile
    /// within reach (the bucket comes back empty). Nothing happens out of reach, on the
    /// wrong tile, or when the bucket it would give has no room.
    fn bucket(&mut self, who: PlayerId, tool: Tool, (x, y): (i64, i64), out: &mut Changes) {
        let p = &self.players[who.0];
        let Some(here) = self.world.get(x, y) else {
            return;
        };
        if !crate::sim::edit::can_reach(&p.body, x, y, crate::sim::edit::REACH) {
            return;
        }
        let (give, tile) = match tool.liquid() {
            None if here.is_liquid() => (bucket_of(here), Tile::Air),
            Some(liquid) if here == Tile::Air && !p.body.overlaps_tile(x, y) => {
                (Some(Tool::EmptyBucket), liquid)
            }
            _ => return,
        };
        let cat = Arc::clone(&self.content.catalog);
        let named = |t: Tool| {
            cat.items
                .iter()
                .position(|i| i.kind == Kind::Tool { tool: t })
                .map(|i| crate::content::items::ItemId(i as u16))
        };
        let (Some(used), Some(given)) = (named(tool), give.and_then(named)) else {
            return;
        };
        let p = &mut self.players[who.0];
        if !p.inventory.take(used) {
            return;
        }
        if p.inventory.add(given, 1) > 0 {
            p.inventory.add(used, 1);
            out.say(who, Hand::NoRoomForBucket);
            return;
        }
        let (ux, uy) = (x as usize, y as usize);
        out.extend(self.set_tile(ux, uy, tile));
        self.stir(ux, uy);
        let (from, to) = (here, tile);
        out.say(who, Hand::Bucket { x, y, from, to });
    }
}
