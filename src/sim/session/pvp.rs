//! Players against players, as Terraria's: each player has PvP on or off
//! ([`super::Seat::pvp`]) and a team ([`super::Seat::team`], 0 for none); a swing hurts
//! another player only when both have PvP on and they are not on the same team.

use super::{Changes, Event, PlayerId, Session};
use crate::sim::creatures;
use crate::sim::vitals::Harm;

/// Teams a player may join (1 to this; 0 is none), as Terraria's five colours.
pub const TEAMS: u8 = 5;

/// What a death by another player's sword is called.
pub const PLAYER: &str = "player";

impl Session {
    /// May player `a` hurt player `b` (both PvP, not one team, not the same)?
    pub fn may_hurt(&self, a: PlayerId, b: PlayerId) -> bool {
        let (Some(pa), Some(pb)) = (self.players.get(a.0), self.players.get(b.0)) else {
            return false;
        };
        a != b && pa.pvp && pb.pvp && (pa.team == 0 || pa.team != pb.team)
    }

    /// A swing of player `who` with `damage` and `reach` against the other players it may
    /// hurt ([`Session::may_hurt`]) whose bodies its arc meets.
    pub(super) fn swing_at_players(
        &mut self,
        who: PlayerId,
        damage: f32,
        reach: f32,
        out: &mut Changes,
    ) {
        let (centre, facing, x) = {
            let b = &self.players[who.0].body;
            (b.centre(), b.facing, b.pos.0)
        };
        let rules = std::sync::Arc::clone(&self.content);
        let rules = &rules.rules;
        let targets: Vec<PlayerId> = (0..self.players.len())
            .map(PlayerId)
            .filter(|&o| self.is_present(o) && self.may_hurt(who, o))
            .filter(|&o| self.players[o.0].death.is_none())
            .filter(|&o| creatures::in_arc(centre, facing, reach, self.players[o.0].body.bounds()))
            .collect();
        for o in targets {
            let p = &mut self.players[o.0];
            let Some(killed) = p.vitals.strike(damage, rules) else {
                continue;
            };
            p.body.vel = crate::sim::vitals::knockback(p.body.pos.0, x, p.body.facing, rules);
            p.body.on_ground = false;
            out.events.push(Event::Hurt {
                player: o,
                damage,
                by: PLAYER.into(),
            });
            let health = p.vitals.health;
            out.say(o, super::Fight::HurtByPlayer { by: who, health });
            if killed {
                self.die(o, Harm::Creature(PLAYER.into()), out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::session;
    use super::super::{Intent, LOCAL};

    /// Two landed players side by side, the first holding its sword; the second's health
    /// after the first swings at it with PvP as given and teams as given.
    fn after_a_swing(pvp: (bool, bool), teams: (u8, u8)) -> f32 {
        let mut s = session();
        let two = s.join();
        for _ in 0..120 {
            s.step(&[]);
        }
        s.creatures.list.clear();
        s.step(&[(LOCAL, Intent::Select(1))]);
        assert!(s.me().inventory.selected_sword().is_some());
        let (x, y) = s.me().body.pos;
        s.players[two.0].body.pos = (x + 1.0, y);
        s.players[two.0].vitals.invincible = 0.0;
        (s.players[0].pvp, s.players[two.0].pvp) = pvp;
        (s.players[0].team, s.players[two.0].team) = teams;
        let before = s.players[two.0].vitals.health;
        let at = Some(((x + 1.0) as i64, y as i64 - 1));
        s.step(&[(LOCAL, Intent::Use { at })]);
        let after = s.players[two.0].vitals.health;
        assert!(after <= before);
        before - after
    }

    #[test]
    fn a_sword_hurts_another_player_only_when_both_have_pvp_on_and_no_team_in_common() {
        assert!(after_a_swing((true, true), (0, 0)) > 0.0, "both on");
        assert_eq!(after_a_swing((true, false), (0, 0)), 0.0, "his off");
        assert_eq!(after_a_swing((false, true), (0, 0)), 0.0, "mine off");
        assert_eq!(after_a_swing((true, true), (2, 2)), 0.0, "one team");
        assert!(after_a_swing((true, true), (1, 2)) > 0.0, "two teams");
    }
}
