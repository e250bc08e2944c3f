//! The Eye in the session: its coming (summoned with a suspicious looking eye at night, or
//! on its own at dusk for a ready player, [`crate::sim::boss::may_come`]), its step, its
//! servants, its touch, the swings that hit it and its defeat. The rules are
//! [`crate::sim::boss`]; this is where they meet the players.

use super::message::{self, Tidings};
use super::{Changes, Event, LOCAL, PlayerId, Session, ticks};
use crate::sim::boss::{self, Boss};
use crate::sim::creatures::{self, Creature, Kind};
use crate::sim::vitals::Harm;

/// Seconds after the warning at dusk that the Eye comes.
pub const EYE_DELAY: f64 = 10.0;

/// The most health a player can have: the trigger's reading of it (life crystals raise it
/// per player where they exist).
fn max_health(p: &super::Seat) -> f32 {
    p.vitals.max_health
}

impl Session {
    /// The Eye's tick: a night begun rolls its coming for a ready player (with the
    /// warning), a due Eye comes, and one about moves, sends servants and leaves at dawn.
    pub(super) fn run_boss(&mut self, out: &mut Changes) {
        let content = std::sync::Arc::clone(&self.content);
        let rules = &content.rules;
        let night = crate::sim::day::is_night(self.time_of_day, rules);
        if night && !self.was_night {
            self.world.progress.nights = self.world.progress.nights.saturating_add(1);
            let n = self.world.progress.nights;
            let ready = self
                .players
                .iter()
                .any(|p| boss::may_come(max_health(p), p.vitals.defence, rules));
            if ready
                && self.boss.is_none()
                && self.eye_due.is_none()
                && boss::rolls_in(self.world.seed, n, rules)
            {
                self.eye_due = Some(self.tick + ticks(EYE_DELAY));
                out.say(LOCAL, message::Boss::EyeComing { night: n });
                self.tell_all(Tidings::EyeWarning, out);
            }
        }
        self.was_night = night;
        self.creatures.boss_about = self.boss.is_some();
        if let Some(due) = self.eye_due
            && self.tick >= due
        {
            self.eye_due = None;
            if night && !self.boss_about() {
                self.summon_eye(LOCAL, out);
            }
        }
        let Some(b) = self.boss.as_ref() else {
            return;
        };
        // The nearest living player present within range, by the middle of its body:
        // with none (every player dead or gone) it leaves.
        let target = self.nearest_living(b.pos, (boss::RANGE, boss::RANGE));
        let Some(b) = self.boss.as_mut() else {
            return;
        };
        let step = b.update(target, night, rules, super::TICK as f32);
        let (pos, health) = (b.pos, b.health);
        if step.charged {
            let (from, phase) = (pos, b.phase);
            let charges = message::Boss::EyeCharges {
                from,
                phase,
                health,
            };
            out.say(LOCAL, charges);
        }
        if step.phase_two {
            out.say(LOCAL, message::Boss::EyePhaseTwo { health });
            out.events.push(Event::BossPhase);
        }
        if let Some(at) = step.servant {
            let servants = self
                .creatures
                .list
                .iter()
                .filter(|c| c.kind == Kind::Servant)
                .count();
            let feet = (at.0, at.1 + 1.0);
            if servants < rules.eye_servants as usize
                && !creatures::eye_blocked(&self.world, feet.0, feet.1)
            {
                self.creatures.list.push(Creature::new(
                    &self.content.bestiary,
                    Kind::Servant,
                    feet,
                ));
                self.creatures.spawned += 1;
                out.events.push(Event::Spawned {
                    kind: Kind::Servant,
                    at: feet,
                });
            }
        }
        if step.leaving {
            out.say(LOCAL, message::Boss::EyeLeaves);
        }
        if step.gone {
            self.boss = None;
            out.events.push(Event::BossLeft);
            self.tell_all(Tidings::EyeLeft, out);
        }
    }

    /// `news` told to every player.
    pub(super) fn tell_all(&self, news: Tidings, out: &mut Changes) {
        for i in 0..self.players.len() {
            out.say(PlayerId(i), message::Boss::Told(news));
        }
    }

    /// The Eye comes, over player `who` and out of its view.
    pub(super) fn summon_eye(&mut self, who: PlayerId, out: &mut Changes) {
        let content = std::sync::Arc::clone(&self.content);
        let rules = &content.rules;
        let p = &self.players[who.0];
        let at = (
            p.body.pos.0,
            p.body.pos.1 - p.view_half.1 - 2.0 * boss::RADIUS,
        );
        self.boss = Some(Boss::of(at, rules, &content.bestiary.bosses.eye));
        let health = rules.eye_health;
        out.say(who, message::Boss::EyeCame { at, health });
        out.events.push(Event::BossCame { at });
        self.tell_all(Tidings::EyeAwoke, out);
    }

    /// Player `who` uses a suspicious looking eye (`item`): at night with no Eye about it
    /// is used up and calls the Eye; otherwise it says why nothing happens.
    pub(super) fn use_summon(
        &mut self,
        who: PlayerId,
        item: crate::content::items::ItemId,
        out: &mut Changes,
    ) {
        if self.content.catalog.item(item).name == super::rivals::WORM_FOOD {
            return self.use_worm_food(who, item, out);
        }
        let night = crate::sim::day::is_night(self.time_of_day, &self.content.rules);
        if self.rival.is_some() {
            out.say(who, message::Boss::BossAlreadyHere);
        } else if !night {
            out.say(who, message::Boss::SummonByDay { item });
        } else if self.boss.is_some() {
            out.say(who, message::Boss::EyeAlreadyHere);
        } else {
            self.players[who.0].inventory.take(item);
            self.summon_eye(who, out);
        }
    }

    /// The Eye's touch on player `who`: once per invincibility window and at most once per
    /// its own [`crate::content::rules::Rules::touch_cooldown`], thrown away from it. The
    /// harm if it killed the player.
    pub(super) fn eye_touch(&mut self, who: PlayerId, out: &mut Changes) -> Option<Harm> {
        let content = std::sync::Arc::clone(&self.content);
        let rules = &content.rules;
        let b = self
            .boss
            .as_mut()
            .filter(|b| !b.leaving() && b.touch_in <= 0.0)?;
        let p = &mut self.players[who.0];
        if !creatures::overlap(b.hitbox(), p.body.bounds()) {
            return None;
        }
        let damage = b.damage(rules);
        let killed = p.vitals.strike(damage, rules)?;
        b.touch_in = rules.touch_cooldown;
        crate::sim::combat::throw_player(&self.world, &mut p.body, b.hitbox(), rules);
        let health = p.vitals.health;
        out.say(who, message::Boss::HurtByEye { damage, health });
        out.events.push(Event::Hurt {
            player: who,
            damage,
            by: boss::NAME.into(),
        });
        killed.then_some(Harm::Creature(boss::NAME.into()))
    }

    /// A swing of player `who` with `damage` and `reach` against the Eye: a hit when its
    /// arc meets the Eye's box (or the player overlaps it); the Eye's death drops its ore
    /// and lenses into the inventory of every player still here who hit it (each its own,
    /// as Terraria's treasure bags) and is announced to everyone.
    pub(super) fn swing_at_eye(
        &mut self,
        who: PlayerId,
        damage: f32,
        reach: f32,
        out: &mut Changes,
    ) {
        let Some(b) = self.boss.as_mut() else {
            return;
        };
        let p = &self.players[who.0];
        let hb = b.ball();
        let inside = creatures::overlap(hb, p.body.bounds())
            || creatures::in_arc(p.body.centre(), p.body.facing, reach, hb);
        if inside {
            self.strike_eye(who, damage, super::Blow::Swing, out);
        }
    }

    /// Player `who`'s `what` (a swing, an arrow, a blast) struck the Eye for `damage`: its
    /// fighters are counted, and its fall gives each its loot.
    pub(super) fn strike_eye(
        &mut self,
        who: PlayerId,
        damage: f32,
        what: super::Blow,
        out: &mut Changes,
    ) {
        let Some(b) = self.boss.as_mut() else {
            return;
        };
        let dead = b.hit(damage);
        if !b.fighters.contains(&who.0) {
            b.fighters.push(who.0);
        }
        let health = b.health;
        out.say(who, message::Boss::HitEye { by: what, health });
        out.events.push(Event::BossHit {
            player: who,
            health,
        });
        if !dead {
            return;
        }
        let fighters = self.boss.take().map(|b| b.fighters).unwrap_or_default();
        self.world.progress.eye_defeated = self.world.progress.eye_defeated.saturating_add(1);
        for seat in fighters {
            let fighter = PlayerId(seat);
            if self.is_present(fighter) {
                self.eye_loot(fighter, out);
            }
        }
        out.events.push(Event::BossDefeated { by: who });
        self.tell_all(Tidings::EyeDefeated, out);
    }

    /// The Eye's loot into player `who`'s inventory; what does not fit lies in the world
    /// by the player, and flies to it.
    fn eye_loot(&mut self, who: PlayerId, out: &mut Changes) {
        let content = std::sync::Arc::clone(&self.content);
        let loot = &content.bestiary.bosses.loot.eye;
        self.give_loot(who, loot, message::Foe::Eye, out);
    }
}

#[cfg(test)]
mod tests {
    use super::super::Intent;
    use super::super::tests::{notices, session};
    use super::*;
    use crate::content::bosses::{DEMONITE_DROP, LENS_DROP, TROPHY_DROP};
    use crate::sim::boss::{Phase, RADIUS};

    /// Midnight.
    const NIGHT: f32 = 0.0;
    const NOON: f32 = 0.5;

    fn step(s: &mut Session, n: usize, intents: &[Intent]) -> Changes {
        let list: Vec<(PlayerId, Intent)> = intents.iter().map(|&i| (LOCAL, i)).collect();
        let mut all = Changes::default();
        for _ in 0..n {
            all.extend(s.step(&list));
        }
        all
    }

    /// A landed player holding a suspicious looking eye, selected, at `time`.
    fn holding_the_eye(time: f32) -> Session {
        let mut s = session();
        step(&mut s, 120, &[]);
        s.creatures.list.clear();
        s.time_of_day = time;
        s.me_mut().inventory.add("suspicious_looking_eye", 1);
        let slot = s
            .me()
            .inventory
            .slots()
            .iter()
            .position(|x| {
                x.is_some_and(|st| Some(st.item) == s.content.catalog.id("suspicious_looking_eye"))
            })
            .unwrap();
        s.step(&[(LOCAL, Intent::Select(slot))]);
        assert!(s.me().inventory.selected_summon().is_some());
        s
    }

    #[test]
    fn the_summoning_eye_calls_the_eye_at_night_and_does_nothing_by_day() {
        let use_it = Intent::Use { at: None };
        let mut s = holding_the_eye(NOON);
        let c = step(&mut s, 2, &[use_it]);
        assert!(s.boss.is_none());
        assert_eq!(s.me().inventory.count("suspicious_looking_eye"), 1, "kept");
        assert!(
            notices(&c)
                .iter()
                .any(|n| n.contains("does nothing by day")),
            "{c:?}"
        );
        let mut s = holding_the_eye(NIGHT);
        let c = step(&mut s, 1, &[use_it]);
        let b = s.boss.as_ref().expect("the Eye came");
        assert_eq!(
            s.me().inventory.count("suspicious_looking_eye"),
            0,
            "used up"
        );
        assert!(c.events.iter().any(|e| matches!(e, Event::BossCame { .. })));
        assert!(b.pos.1 < s.me().body.pos.1 - 10.0, "above, off screen");
        assert_eq!((b.health, b.phase), (b.max, Phase::One));
        // A second one while it is about is kept.
        s.me_mut().inventory.add("suspicious_looking_eye", 1);
        let c = step(&mut s, 70, &[use_it]);
        assert_eq!(s.me().inventory.count("suspicious_looking_eye"), 1);
        assert!(notices(&c).iter().any(|n| n.contains("already here")));
    }

    #[test]
    fn the_eye_hunts_sends_servants_turns_at_half_health_and_leaves_at_dawn() {
        let mut s = holding_the_eye(NIGHT);
        step(&mut s, 1, &[Intent::Use { at: None }]);
        let content = std::sync::Arc::clone(&s.content);
        let rules = &content.rules;
        // Watched, not fought: a player it killed would send it off (it hunts the living).
        s.me_mut().vitals.invincible = 1e6;
        let c = step(&mut s, 60 * 8, &[]);
        let lines = super::super::tests::log_lines(&c);
        let charges = (lines.iter())
            .filter(|l| l.starts_with("the Eye charges"))
            .count();
        assert!(
            charges >= rules.eye_charges as usize,
            "{charges} dashes in 8 s"
        );
        let servants = s
            .creatures
            .list
            .iter()
            .filter(|k| k.kind == Kind::Servant)
            .count();
        assert!(
            (1..=rules.eye_servants as usize).contains(&servants),
            "{servants}"
        );
        // Brought to half: phase two, announced by an event.
        let b = s.boss.as_mut().unwrap();
        b.health = b.max / 2.0;
        let c = step(&mut s, 1, &[]);
        assert!(c.events.contains(&Event::BossPhase));
        assert_eq!(s.boss.as_ref().unwrap().phase, Phase::Two);
        // Just before dawn: it leaves when the day comes and is gone in seconds.
        s.time_of_day = 0.18;
        let mut left = None;
        for i in 0..60 * 60 {
            let c = step(&mut s, 1, &[]);
            if c.events.contains(&Event::BossLeft) {
                left = Some(i);
                break;
            }
        }
        let dawn = crate::sim::day::is_night(s.time_of_day, rules);
        assert!(left.is_some() && s.boss.is_none() && !dawn, "{left:?}");
    }

    #[test]
    fn swings_bring_the_eye_down_once_for_its_ore_and_the_world_remembers() {
        let mut s = holding_the_eye(NIGHT);
        step(&mut s, 1, &[Intent::Use { at: None }]);
        // The eye's use holds the button back a second.
        step(&mut s, 61, &[Intent::Select(1)]);
        assert!(s.me().inventory.selected_sword().is_some());
        // Right in front of the player, one hit from the end.
        let me = s.me().body.centre();
        let b = s.boss.as_mut().unwrap();
        b.pos = (me.0 + RADIUS, me.1);
        b.health = 1.0;
        s.me_mut().vitals.invincible = 100.0;
        let at = Some(((me.0 + 2.0) as i64, me.1 as i64));
        let c = step(&mut s, 2, &[Intent::Use { at }]);
        assert!(s.boss.is_none(), "{:?}", s.boss);
        assert!(
            c.events
                .iter()
                .any(|e| matches!(e, Event::BossDefeated { by: LOCAL }))
        );
        let told: Vec<String> = notices(&c)
            .into_iter()
            .filter(|n| n == crate::net::said::EYE_DEFEATED)
            .collect();
        assert_eq!(told.len(), 1, "announced once");
        assert_eq!(s.world.progress.eye_defeated, 1);
        assert_eq!(s.me().inventory.count("demonite_ore"), DEMONITE_DROP);
        // The count stays at its most rather than wrapping to "never defeated".
        let mut again = holding_the_eye(NIGHT);
        again.world.progress.eye_defeated = u32::MAX;
        step(&mut again, 1, &[Intent::Use { at: None }]);
        step(&mut again, 61, &[Intent::Select(1)]);
        let me = again.me().body.centre();
        let b = again.boss.as_mut().unwrap();
        b.pos = (me.0 + RADIUS, me.1);
        b.health = 1.0;
        again.me_mut().vitals.invincible = 100.0;
        step(&mut again, 2, &[Intent::Use { at }]);
        assert!(again.boss.is_none());
        assert_eq!(again.world.progress.eye_defeated, u32::MAX);
        assert!(s.me().inventory.count("lens") >= LENS_DROP);
        assert_eq!(s.me().inventory.count("eye_trophy"), TROPHY_DROP);
    }

    #[test]
    fn every_player_who_hit_the_eye_gets_its_own_loot() {
        let mut s = holding_the_eye(NIGHT);
        step(&mut s, 1, &[Intent::Use { at: None }]);
        step(&mut s, 61, &[Intent::Select(1)]);
        let (two, three) = (s.join(), s.join());
        s.step(&[(two, Intent::Select(1))]);
        assert!(s.players[two.0].inventory.selected_sword().is_some());
        let here = s.me().body.pos;
        s.players[two.0].body.pos = here;
        for p in &mut s.players {
            p.vitals.invincible = 1000.0;
        }
        let me = s.me().body.centre();
        let at = Some(((me.0 + 2.0) as i64, me.1 as i64));
        // Two lands a hit; then the player who summoned it lands the last.
        let b = s.boss.as_mut().unwrap();
        b.pos = (me.0 + RADIUS, me.1);
        let full = b.health;
        s.step(&[(two, Intent::Use { at })]);
        let b = s.boss.as_mut().unwrap();
        assert!(b.health < full, "two hit it");
        assert_eq!(b.fighters, [two.0]);
        b.pos = (me.0 + RADIUS, me.1);
        b.health = 1.0;
        step(&mut s, 2, &[Intent::Use { at }]);
        assert!(s.boss.is_none());
        for who in [LOCAL, two] {
            let inv = &s.players[who.0].inventory;
            assert_eq!(inv.count("demonite_ore"), DEMONITE_DROP, "{who:?}");
            assert_eq!(inv.count("eye_trophy"), TROPHY_DROP, "{who:?}");
        }
        assert_eq!(s.players[three.0].inventory.count("demonite_ore"), 0);
        assert_eq!(s.world.progress.eye_defeated, 1, "one Eye, counted once");
    }

    #[test]
    fn the_eye_s_trophy_is_not_lost_in_a_full_inventory_and_hangs_on_a_wall() {
        let mut s = holding_the_eye(NIGHT);
        step(&mut s, 1, &[Intent::Use { at: None }]);
        let me = s.me().body.centre();
        let b = s.boss.as_mut().unwrap();
        b.pos = (me.0 + RADIUS, me.1);
        b.health = 1.0;
        s.me_mut().vitals.invincible = 100.0;
        // A full inventory: what does not fit lies in the world and is not lost.
        let before = s.me().inventory.clone();
        while s.me_mut().inventory.add("dirt", 999) == 0 {}
        step(&mut s, 61, &[Intent::Select(1)]);
        let at = Some(((me.0 + 2.0) as i64, me.1 as i64));
        step(&mut s, 2, &[Intent::Use { at }]);
        assert!(s.boss.is_none());
        let trophy = s.content.catalog.id("eye_trophy").unwrap();
        assert!(
            s.world.dropped.iter().any(|d| d.stack.item == trophy),
            "the trophy lies in the world: {:?}",
            s.world.dropped
        );
        // With room again it flies in.
        s.me_mut().inventory = before;
        step(&mut s, 120, &[]);
        assert_eq!(s.me().inventory.count("eye_trophy"), 1);
        // Placed on a wall above the player's head, within reach.
        let (x, y) = (me.0 as i64 + 1, me.1 as i64 - 2);
        s.world
            .set_wall(x as usize, y as usize, crate::world::Wall::Wood);
        let slot = s
            .me()
            .inventory
            .slots()
            .iter()
            .position(|x| x.is_some_and(|st| st.item == trophy))
            .unwrap();
        s.step(&[(LOCAL, Intent::Select(slot))]);
        step(
            &mut s,
            1,
            &[Intent::Place {
                x,
                y,
                pressed: true,
            }],
        );
        assert_eq!(s.world.get(x, y), Some(crate::world::Tile::EyeTrophy));
        assert_eq!(s.me().inventory.count("eye_trophy"), 0);
    }

    #[test]
    fn the_eye_leaves_when_its_only_player_dies() {
        let mut s = holding_the_eye(NIGHT);
        step(&mut s, 1, &[Intent::Use { at: None }]);
        step(&mut s, 60, &[]);
        assert!(!s.boss.as_ref().unwrap().leaving(), "it hunts the living");
        let mut c = Changes::default();
        s.die(LOCAL, Harm::Creature(boss::NAME.into()), &mut c);
        // A death screen longer than its flight, to see it go while nobody lives.
        s.me_mut().death.as_mut().unwrap().until += 600;
        let c = step(&mut s, 1, &[]);
        assert!(s.boss.as_ref().unwrap().leaving(), "it flies off at once");
        let lines = super::super::tests::log_lines(&c);
        assert!(lines.contains(&"the Eye leaves".to_string()), "{lines:?}");
        // Gone within its leaving time, at night, the player still on the death screen.
        let c = step(&mut s, 60 * boss::LEAVE_SECONDS as usize + 2, &[]);
        assert!(s.boss.is_none() && c.events.contains(&Event::BossLeft));
        assert!(notices(&c).iter().any(|n| n == "The Eye has left."));
        assert!(s.me().death.is_some(), "before the respawn");
        let content = std::sync::Arc::clone(&s.content);
        assert!(crate::sim::day::is_night(s.time_of_day, &content.rules));
    }

    #[test]
    fn nights_are_counted_and_an_unready_player_is_never_visited() {
        let mut s = session();
        s.creatures.list.clear();
        let content = std::sync::Arc::clone(&s.content);
        let rules = &content.rules;
        // Just before dusk, three times.
        let dusk = 0.5 + rules.daylight / 2.0;
        let mut c = Changes::default();
        for _ in 0..3 {
            s.time_of_day = dusk - 0.002;
            s.was_night = false;
            c.extend(step(&mut s, 60 * 60, &[]));
        }
        assert_eq!(s.world.progress.nights, 3);
        // At its most the count stays there (a wrap would start the Eye's nights over).
        s.world.progress.nights = u64::MAX;
        s.time_of_day = dusk - 0.002;
        s.was_night = false;
        step(&mut s, 60 * 60, &[]);
        assert_eq!(s.world.progress.nights, u64::MAX);
        assert!(!boss::may_come(
            max_health(s.me()),
            s.me().vitals.defence,
            rules
        ));
        assert!(
            !notices(&c)
                .iter()
                .any(|n| n == crate::net::said::EYE_WARNING)
        );
        assert!(s.boss.is_none() && s.eye_due.is_none());
    }
}
