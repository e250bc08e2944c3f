//! A player's life in the session: falling, breath, lava and creatures' touch, healing
//! ([`crate::sim::vitals`]), death and the drops it leaves, coming back at the bed or
//! the spawn point ([`crate::sim::respawn`]), and the map it has seen.

use super::*;

impl Session {
    /// The player's health, and for the local player the creatures (they follow it); a
    /// death shows the death screen, and its end respawns the player.
    pub(super) fn live(&mut self, who: PlayerId, out: &mut Changes) {
        if let Some(d) = &self.players[who.0].death {
            if self.tick >= d.until {
                self.respawn(who, out);
            }
            return;
        }
        let content = Arc::clone(&self.content);
        let rules = &content.rules;
        let dt = TICK as f32;
        let p = &mut self.players[who.0];
        // Holding a rope ends a fall as the ground does.
        let held = p.body.on_ground || p.body.climbing;
        let senses = Senses::of(&self.world, p.body.pos, held);
        let mut killer = p.vitals.update(senses, dt, rules);
        let players = &self.players;
        let chased = |i: usize, away: bool| !away && players[i].death.is_none();
        if self
            .away
            .iter()
            .enumerate()
            .position(|(i, &a)| chased(i, a))
            == Some(who.0)
        {
            // The first living player present moves the creatures, among every living
            // player present (the dead wait out their death screen).
            let night = crate::sim::day::is_night(self.time_of_day, rules);
            let before = self.creatures.spawned;
            let away = &self.away;
            let (ids, mut list): (Vec<PlayerId>, Vec<_>) = self
                .players
                .iter_mut()
                .enumerate()
                .filter(|(i, p)| !away[*i] && p.death.is_none())
                .map(|(i, p)| {
                    let half = p.view_half;
                    let t = crate::sim::creatures::Target {
                        body: &mut p.body,
                        vitals: &mut p.vitals,
                        half,
                    };
                    (PlayerId(i), t)
                })
                .unzip();
            let light = Some(&self.light);
            let hits = self.creatures.update_many(
                &self.world,
                &self.layers,
                &mut list,
                night,
                rules,
                dt,
                light,
            );
            drop(list);
            self.hits = hits.into_iter().map(|(i, h)| (ids[i], h)).collect();
            for f in self.creatures.take_fallen() {
                let by = f.by.map(PlayerId).filter(|p| p.0 < self.players.len());
                self.reward(f.kind, &f.drop, f.count, f.at, by, out);
            }
            if self.creatures.spawned != before
                && let Some(c) = self.creatures.list.last()
            {
                let (kind, at) = (c.kind, c.body.pos);
                out.say(who, Fight::Appeared { kind, at });
                out.events.push(Event::Spawned { kind, at });
            }
        }
        let p = &mut self.players[who.0];
        if let Some(k) = self.hits.iter().position(|(w, _)| *w == who) {
            let (_, hit) = self.hits.swap_remove(k);
            let v = p.body.vel;
            out.say(
                who,
                Fight::HurtBy {
                    hit: hit.clone(),
                    tick: self.tick,
                    from_x: hit.from_x,
                    health: p.vitals.health,
                    thrown: v,
                },
            );
            out.events.push(Event::Hurt {
                player: who,
                damage: hit.damage,
                by: hit.name.clone(),
            });
            if hit.killed && killer.is_none() {
                killer = Some(Harm::Creature(hit.name));
            }
        }
        if let Some(harm) = self.eye_touch(who, out)
            && killer.is_none()
        {
            killer = Some(harm);
        }
        if let Some(harm) = self.rival_touch(who, out)
            && killer.is_none()
        {
            killer = Some(harm);
        }
        let p = &mut self.players[who.0];
        if let Some((rows, damage)) = p.vitals.last_fall.take() {
            let health = p.vitals.health;
            out.say(
                who,
                Fight::Fell {
                    rows,
                    damage,
                    health,
                },
            );
        }
        if let Some(harm) = killer {
            self.die(who, harm, out);
        }
    }

    /// Player `who` died of `harm`: the death screen for [`Rules::respawn_seconds`]
    /// (`Seat::death`), and what the rules drop of its inventory lies where it died.
    ///
    /// [`Rules::respawn_seconds`]: crate::content::rules::Rules::respawn_seconds
    pub(super) fn die(&mut self, who: PlayerId, harm: Harm, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let rules = &content.rules;
        let p = &mut self.players[who.0];
        let text = crate::sim::respawn::slain_by(&harm);
        let until = self.tick + ticks(f64::from(rules.respawn_seconds));
        let dropped = crate::sim::respawn::death_drops(&mut p.inventory, &content.catalog, rules);
        let at = p.body.centre();
        p.death = Some(Death {
            text: text.clone(),
            until,
        });
        p.body.vel = (0.0, 0.0);
        p.dig.reset();
        p.digging = None;
        p.chest = None;
        let died = Fight::Died {
            cause: harm,
            dropped: dropped.clone(),
        };
        out.say(who, died);
        out.events.push(Event::Died { player: who });
        for stack in dropped {
            self.drop_item(stack, at, None, out);
        }
    }

    /// The death screen of player `who` is over: it comes back at its bed (or the world's
    /// spawn point, saying why not the bed), with full health, invincible a while.
    pub(super) fn respawn(&mut self, who: PlayerId, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let rules = &content.rules;
        let p = &mut self.players[who.0];
        p.death = None;
        let (at, lost) = crate::sim::respawn::respawn_at(&self.world, p.bed);
        let bed = p.bed.is_some() && lost.is_none();
        out.say(who, Fight::Respawned { bed, at });
        if let Some(lost) = lost {
            p.bed = None;
            out.say(who, Fight::BedLost(lost));
        }
        p.body = Player::new(at);
        p.vitals = Vitals::respawned_with(p.vitals.max_health, rules);
        p.vitals.defence = p.inventory.defence();
        if who == LOCAL {
            self.creatures.respawned(at);
        }
        out.events.push(Event::Respawned { player: who, at });
    }

    /// Reveals the explored map around the player by the light there (see
    /// [`crate::world::explored`]). Revealing is not an edit: it never makes a world ask to be
    /// saved, but every save keeps it.
    pub(super) fn reveal(&mut self, who: PlayerId, out: &mut Changes) {
        use crate::world::explored::{REVEAL_LIGHT, REVEAL_RADIUS};
        let c = self.players[who.0].body.centre();
        let light = &self.light;
        let lit = |x, y| light.get_with_player(x, y, c) >= REVEAL_LIGHT;
        if let Some(new) = self.world.explored.reveal(c, REVEAL_RADIUS, lit) {
            out.revealed = Some(out.revealed.map_or(new, |r| r.union(new)));
        }
    }
}
