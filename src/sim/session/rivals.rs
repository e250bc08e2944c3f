//! The bosses after the Eye in the session ([`crate::sim::boss::Rival`], one at a time and
//! never beside the Eye): how each is called — the Eater of Worlds by the third shadow orb
//! broken or worm food used in the evil biome, Skeletron by talking to the Old Man at the
//! dungeon's door at night, the Wall of Flesh by a guide voodoo doll that falls into the
//! underworld's lava — its step, its touch, the strikes that hurt it, its fall (loot for
//! every player who hit it, the world's progress) and its leaving.

use super::message::{self, Boss as Said, Tidings};
use super::{Changes, Event, LOCAL, PlayerId, Session};
use crate::sim::boss::eater::Eater;
use crate::sim::boss::skeletron::Skeletron;
use crate::sim::boss::wall::Wall;
use crate::sim::boss::{Form, Rival, RivalKind, Role};
use crate::sim::creatures;
use crate::sim::vitals::Harm;
use crate::world::{Tile, World};

/// Shadow orbs broken that call the Eater (each third one).
pub const ORBS_PER_EATER: u32 = 3;
/// Evil tiles (corrupt grass, ebonstone, demonite) within [`EVIL_REACH`] tiles of a player
/// that put it in the evil biome (Terraria counts them on screen).
pub const EVIL_TILES: usize = 150;
pub const EVIL_REACH: i64 = 30;
/// Tiles from its target past which a boss gives up (the Wall: rows above the
/// underworld's top; it follows across the whole world's width).
pub const RANGE: f32 = 150.0;
/// Tiles from the player the Wall comes, toward the world's nearer edge.
pub const WALL_BEHIND: f32 = 60.0;
/// Columns either side of the dungeon's tallest brick the Old Man looks for ground in.
const OLD_MAN_LOOK: usize = 40;
/// The items that call a boss.
pub const WORM_FOOD: &str = "worm_food";
pub const VOODOO_DOLL: &str = "guide_voodoo_doll";

/// Where the Old Man stands (his feet): on the ground beside the dungeon's entrance (its
/// tallest brick column near the surface), or `None` with no dungeon or once Skeletron
/// has fallen (his curse is lifted).
pub fn old_man_place(world: &World) -> Option<(f32, f32)> {
    if world.progress.skeletron() {
        return None;
    }
    let (w, h) = (world.width(), world.height());
    let top_brick = |x: usize| {
        let to = (world.surface.get(x).copied().unwrap_or(0) as usize + 40).min(h);
        (0..to).find(|&y| world.tile(x, y) == Tile::DungeonBrick)
    };
    let (x, _) = (0..w)
        .filter_map(|x| top_brick(x).map(|y| (x, y)))
        .min_by_key(|&(x, y)| (y, x))?;
    // The first column beside it whose highest solid tile (from a little over the
    // surface: not a floating island's) is not brick: the ground.
    let ground = |x: usize| {
        let from = (world.surface.get(x).copied().unwrap_or(0) as usize).saturating_sub(20);
        (from..h).find(|&y| world.tile(x, y).is_solid())
    };
    (1..OLD_MAN_LOOK)
        .flat_map(|d| [x.checked_sub(d), Some(x + d).filter(|&c| c < w)])
        .flatten()
        .find_map(|c| {
            let y = ground(c)?;
            (world.tile(c, y) != Tile::DungeonBrick && y > 3).then_some((c as f32 + 0.5, y as f32))
        })
}

/// Is player box `b` near enough evil tiles to be in the evil biome?
fn in_evil(world: &World, centre: (f32, f32)) -> bool {
    let (cx, cy) = (centre.0 as i64, centre.1 as i64);
    let mut n = 0;
    for y in cy - EVIL_REACH..=cy + EVIL_REACH {
        for x in cx - EVIL_REACH..=cx + EVIL_REACH {
            if matches!(
                world.get(x, y),
                Some(Tile::CorruptGrass | Tile::Ebonstone | Tile::DemoniteOre)
            ) {
                n += 1;
            }
        }
    }
    n >= EVIL_TILES
}

impl Session {
    /// The nearest living player present within `range` tiles of `from` (by each axis),
    /// by the middle of its body.
    pub(super) fn nearest_living(&self, from: (f32, f32), range: (f32, f32)) -> Option<(f32, f32)> {
        self.players
            .iter()
            .enumerate()
            .filter(|(i, p)| !self.away[*i] && p.death.is_none())
            .map(|(_, p)| p.body.centre())
            .filter(|c| (c.0 - from.0).abs() <= range.0 && (c.1 - from.1).abs() <= range.1)
            .min_by(|a, c| {
                let d = |p: &(f32, f32)| (p.0 - from.0).powi(2) + (p.1 - from.1).powi(2);
                d(a).total_cmp(&d(c))
            })
    }

    /// Is a boss about (the Eye or one after it)?
    pub fn boss_about(&self) -> bool {
        self.boss.is_some() || self.rival.is_some()
    }

    /// The rival's tick: it moves toward the nearest living player, turns, attacks,
    /// leaves at dawn (Skeletron) or with no one near, and is gone.
    pub(super) fn run_rival(&mut self, out: &mut Changes) {
        self.creatures.boss_about |= self.rival.is_some();
        let Some(r) = self.rival.as_ref() else {
            return;
        };
        let kind = r.kind();
        let target = match &r.form {
            Form::Wall(w) => {
                let mid = (w.x, (w.top + w.bottom) / 2.0);
                self.nearest_living(
                    mid,
                    (self.world.width() as f32, (w.bottom - w.top) / 2.0 + 10.0),
                )
            }
            _ => self.nearest_living(r.parts()[0].pos, (RANGE, RANGE)),
        };
        let day = !crate::sim::day::is_night(self.time_of_day, &self.content.rules);
        let world = &self.world;
        let solid = |x: f32, y: f32| {
            world
                .get(x.floor() as i64, y.floor() as i64)
                .is_none_or(|t| t.is_solid())
        };
        let Some(r) = self.rival.as_mut() else {
            return;
        };
        let step = r.update(target, day, &solid, super::TICK as f32);
        let health = r.health();
        if step.phase_two {
            out.say(LOCAL, Said::RivalPhaseTwo { kind, health });
            out.events.push(Event::BossPhase);
        }
        if step.attacked {
            out.say(LOCAL, Said::RivalAttacks { kind, health });
        }
        if step.leaving {
            out.say(LOCAL, Said::RivalLeaves { kind });
        }
        if step.gone {
            self.rival = None;
            out.events.push(Event::BossLeft);
            self.tell_all(Tidings::RivalLeft(kind), out);
        }
    }

    /// Calls boss `kind` for player `who` (nothing when a boss is about): the Eater below
    /// the player, Skeletron over the Old Man, the Wall across the underworld behind the
    /// player. True when it came.
    pub(super) fn summon_rival(
        &mut self,
        who: PlayerId,
        kind: RivalKind,
        out: &mut Changes,
    ) -> bool {
        if self.boss_about() {
            return false;
        }
        let p = self.players[who.0].body.centre();
        let n = &self.content.bestiary.bosses;
        let form = match kind {
            RivalKind::Eater => Form::Eater(Eater::of(
                (p.0, p.1 + 30.0),
                self.content.rules.eater_health,
                &n.eater,
            )),
            RivalKind::Skeletron => {
                let at = self.old_man.unwrap_or(p);
                Form::Skeletron(Skeletron::of((at.0, at.1 - 10.0), &n.skeletron))
            }
            RivalKind::Wall => {
                let layers = crate::world::depth::Layers::of(&self.world.preset);
                let (top, bottom) = (layers.underworld as f32, self.world.height() as f32);
                let width = self.world.width() as f32;
                let (x, dir) = if p.0 < width / 2.0 {
                    ((p.0 - WALL_BEHIND).max(0.0), 1.0)
                } else {
                    ((p.0 + WALL_BEHIND).min(width), -1.0)
                };
                Form::Wall(Wall::of(x, dir, (top, bottom), width, &n.wall))
            }
        };
        let rival = Rival::new(form);
        let at = rival.parts()[0].pos;
        let health = rival.max();
        out.say(who, Said::RivalCame { kind, at, health });
        self.rival = Some(rival);
        out.events.push(Event::BossCame { at });
        self.tell_all(Tidings::RivalAwoke(kind), out);
        true
    }

    /// A shadow orb broken by player `who`: counted in the world's progress; the first and
    /// second of each three warn, the third calls the Eater.
    pub(super) fn orb_broken(&mut self, who: PlayerId, out: &mut Changes) {
        let n = self.world.progress.orbs_broken.saturating_add(1);
        self.world.progress.orbs_broken = n;
        out.say(who, Said::OrbsBroken { n });
        match n % ORBS_PER_EATER {
            1 => self.tell_all(Tidings::Chill, out),
            2 => self.tell_all(Tidings::Screams, out),
            _ => {
                if !self.summon_rival(who, RivalKind::Eater, out) {
                    out.say(who, Said::EaterStaysDown);
                }
            }
        }
    }

    /// Player `who` uses worm food (`item`): in the evil biome with no boss about it is used
    /// up and calls the Eater; otherwise it says why nothing happens.
    pub(super) fn use_worm_food(
        &mut self,
        who: PlayerId,
        item: crate::content::items::ItemId,
        out: &mut Changes,
    ) {
        let centre = self.players[who.0].body.centre();
        if !in_evil(&self.world, centre) {
            out.say(who, Said::WormFoodOutside);
        } else if self.boss_about() {
            out.say(who, Said::BossAlreadyHere);
        } else {
            self.players[who.0].inventory.take(item);
            self.summon_rival(who, RivalKind::Eater, out);
        }
    }

    /// Is the Old Man standing at tile `(x, y)`?
    pub(super) fn old_man_under(&self, x: i64, y: i64) -> bool {
        self.old_man.is_some_and(|(fx, fy)| {
            (x as f32 + 0.5 - fx).abs() <= 1.0 && y as f32 >= fy - 3.0 && (y as f32) < fy
        })
    }

    /// Player `who` talks to the Old Man: at night it calls Skeletron, by day he tells of
    /// his curse.
    pub(super) fn talk_to_old_man(&mut self, who: PlayerId, out: &mut Changes) {
        let night = crate::sim::day::is_night(self.time_of_day, &self.content.rules);
        if !night {
            out.say(who, Said::OldManByDay);
        } else if !self.summon_rival(who, RivalKind::Skeletron, out) {
            out.say(who, Said::OldManBusy);
        }
    }

    /// A guide voodoo doll lying in the underworld's lava burns; with no boss about it calls
    /// the Wall of Flesh for the player who threw it (or the first player here).
    pub(super) fn dolls_in_lava(&mut self, out: &mut Changes) {
        let Some(doll) = self.content.catalog.id(VOODOO_DOLL) else {
            return;
        };
        let underworld = crate::world::depth::Layers::of(&self.world.preset).underworld;
        let world = &self.world;
        let burnt = world.dropped.iter().position(|d| {
            let (x, y) = (d.pos.0.floor() as i64, d.pos.1.floor() as i64);
            d.stack.item == doll && y >= underworld as i64 && world.get(x, y) == Some(Tile::Lava)
        });
        let Some(i) = burnt else {
            return;
        };
        let d = self.world.dropped.remove(i);
        let who = d
            .thrown
            .map(|t| t.0)
            .or(d.owner)
            .filter(|&s| self.is_present(PlayerId(s)))
            .map_or(LOCAL, PlayerId);
        out.say(who, Said::DollBurnt);
        if !self.summon_rival(who, RivalKind::Wall, out) {
            out.say(who, Said::DollForNothing);
        }
    }

    /// The rival's touch on player `who` (its parts, the Wall's flesh and lasers): once per
    /// invincibility window and its own touch cooldown. The harm if it killed the player.
    pub(super) fn rival_touch(&mut self, who: PlayerId, out: &mut Changes) -> Option<Harm> {
        let content = std::sync::Arc::clone(&self.content);
        let rules = &content.rules;
        let r = self.rival.as_mut().filter(|r| r.touch_in <= 0.0)?;
        let p = &mut self.players[who.0];
        let bounds = p.body.bounds();
        let damage = r.touching(bounds)?;
        let killed = p.vitals.strike(damage, rules)?;
        r.touch_in = rules.touch_cooldown;
        let name = r.kind().name();
        let c = p.body.centre();
        let from = (c.0 - 1.0, c.1 - 1.0, c.0 + 1.0, c.1 + 1.0);
        let nearest = r
            .parts()
            .into_iter()
            .min_by(|a, b| {
                let d =
                    |q: &crate::sim::boss::Part| (q.pos.0 - c.0).powi(2) + (q.pos.1 - c.1).powi(2);
                d(a).total_cmp(&d(b))
            })
            .map_or(from, |q| q.bounds());
        crate::sim::combat::throw_player(&self.world, &mut p.body, nearest, rules);
        let (kind, health) = (r.kind(), p.vitals.health);
        let hurt = Said::HurtByRival {
            kind,
            damage,
            health,
        };
        out.say(who, hurt);
        out.events.push(Event::Hurt {
            player: who,
            damage,
            by: name.into(),
        });
        killed.then_some(Harm::Creature(name.into()))
    }

    /// A swing of player `who` with `damage` and `reach` against the rival: every segment
    /// or part its arc meets (the Wall: once).
    pub(super) fn swing_at_rival(
        &mut self,
        who: PlayerId,
        damage: f32,
        reach: f32,
        out: &mut Changes,
    ) {
        if self.rival.is_none() {
            return;
        }
        let p = &self.players[who.0];
        let (c, facing, bounds) = (p.body.centre(), p.body.facing, p.body.bounds());
        let met = |b: (f32, f32, f32, f32)| {
            creatures::overlap(b, bounds) || creatures::in_arc(c, facing, reach, b)
        };
        self.strike_rival_where(who, damage, met, out);
    }

    /// Strikes every part of the rival (not a laser) whose ball `met` takes, with `damage`
    /// from player `who` (the Wall: once); true when one was struck.
    pub(super) fn strike_rival_where(
        &mut self,
        who: PlayerId,
        damage: f32,
        met: impl Fn((f32, f32, f32, f32)) -> bool,
        out: &mut Changes,
    ) -> bool {
        let Some(r) = self.rival.as_mut() else {
            return false;
        };
        let mut hit: Vec<(u16, u16)> = r
            .parts()
            .iter()
            .filter(|q| q.role != Role::Laser)
            .filter(|q| met(q.bounds()))
            .map(|q| q.index)
            .collect();
        if matches!(r.form, Form::Wall(_)) {
            hit.truncate(1);
        }
        // Last first: a cut worm keeps the indices of what is still to strike.
        hit.sort_unstable_by(|a, b| b.cmp(a));
        if hit.is_empty() {
            return false;
        }
        if !r.fighters.contains(&who.0) {
            r.fighters.push(who.0);
        }
        let kind = r.kind();
        let mut fallen = false;
        for index in hit {
            let s = r.strike(index, damage);
            if s.split {
                let heads = match &r.form {
                    Form::Eater(e) => e.worms.len(),
                    _ => 0,
                };
                out.say(who, Said::CutInTwo { kind, heads });
            }
            fallen |= s.fallen;
        }
        let health = r.health();
        out.say(who, Said::HitRival { kind, health });
        out.events.push(Event::BossHit {
            player: who,
            health,
        });
        if fallen {
            self.rival_fell(who, out);
        }
        true
    }

    /// A blow of `damage` from player `who` landing on the box `area` (`(left, top, right,
    /// bottom)`, tiles), as a projectile's: strikes the Eye or the parts of the boss about
    /// there. The one entry for blows that are not swings; true when it struck.
    pub fn strike_boss_in(
        &mut self,
        who: PlayerId,
        area: (f32, f32, f32, f32),
        damage: f32,
        out: &mut Changes,
    ) -> bool {
        if who.0 >= self.players.len() {
            return false;
        }
        if self
            .boss
            .as_ref()
            .is_some_and(|b| creatures::overlap(b.ball(), area))
        {
            self.strike_eye(who, damage, super::Blow::Blow, out);
            return true;
        }
        self.strike_rival_where(who, damage, |b| creatures::overlap(b, area), out)
    }

    /// The rival fell to player `who`'s blow: the world remembers, every player still here
    /// who hit it gets its loot, everyone is told.
    fn rival_fell(&mut self, who: PlayerId, out: &mut Changes) {
        let Some(r) = self.rival.take() else {
            return;
        };
        let kind = r.kind();
        let story = &mut self.world.progress;
        let count = match kind {
            RivalKind::Eater => &mut story.eater_defeated,
            RivalKind::Skeletron => &mut story.skeletron_defeated,
            RivalKind::Wall => &mut story.wall_defeated,
        };
        *count = count.saturating_add(1);
        let content = std::sync::Arc::clone(&self.content);
        for seat in r.fighters {
            if self.is_present(PlayerId(seat)) {
                let loot = kind.loot(&content.bestiary.bosses);
                self.give_loot(PlayerId(seat), loot, message::Foe::Rival(kind), out);
            }
        }
        out.events.push(Event::BossDefeated { by: who });
        self.tell_all(Tidings::RivalDefeated(kind), out);
        match kind {
            RivalKind::Skeletron => {
                self.old_man = None;
                self.tell_all(Tidings::CurseLifted, out);
            }
            RivalKind::Wall => self.tell_all(Tidings::SpiritsReleased, out),
            RivalKind::Eater => {}
        }
    }

    /// `drops` into player `who`'s inventory; what does not fit lies in the world by the
    /// player and flies to it. Logged as the loot of `what`.
    pub(super) fn give_loot(
        &mut self,
        who: PlayerId,
        drops: &[(String, u32)],
        from: message::Foe,
        out: &mut Changes,
    ) {
        let p = &mut self.players[who.0];
        let mut got = Vec::new();
        let mut spilt = Vec::new();
        for (name, n) in drops {
            let (name, n) = (name.as_str(), *n);
            let lost = p.inventory.add(name, n);
            got.push((name.to_string(), n));
            if let Some(item) = self.content.catalog.id(name).filter(|_| lost > 0) {
                spilt.push(crate::world::inventory::Stack { item, count: lost });
            }
        }
        let at = p.body.centre();
        for stack in spilt {
            self.drop_item(stack, at, Some(who), out);
        }
        out.say(who, Said::Loot { from, got });
    }
}

#[cfg(test)]
#[path = "rivals_tests.rs"]
mod tests;
