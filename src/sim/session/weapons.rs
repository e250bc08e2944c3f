//! The four ways to fight in the session: a spear's thrust, a bow's arrows (used up from
//! the inventory), a staff's bolts (paid in mana), shuriken, and bombs and dynamite that
//! blow up creatures, players and tiles — never a town's house. The rules are
//! [`crate::sim::projectiles`] and [`crate::sim::mana`]; this is where they meet the
//! players, the creatures and the Eye.

use super::*;
use crate::content::items::Kind;
use crate::sim::projectiles::{self, Blast, Flight, Look, Projectile};

/// The item that raises the most mana when used ([`crate::sim::mana::Mana::use_crystal`]).
pub const MANA_CRYSTAL: &str = "mana_crystal";
/// The star a creature may drop for a player low on mana: picked up, it is mana.
pub const MANA_STAR: &str = "mana_star";
/// Tiles a second a bomb is thrown at.
const THROW_SPEED: f32 = 14.0;
/// Mixed into the world's seed for whether a kill leaves a star.
const STAR_SEED: u64 = 0x5354_4152_2121_2121;
/// Salt of the draws that set a creature on fire.
const FIRE_SEED: u64 = 0x4649_5245_2121_2121;

impl Session {
    /// The selected item is a weapon of the four ways (or a mana crystal): used toward the
    /// aim while the button is held. False when it is none of them (the hands go on).
    pub(super) fn fight(
        &mut self,
        who: PlayerId,
        using: Option<Option<(i64, i64)>>,
        out: &mut Changes,
    ) -> bool {
        let now = self.tick;
        let p = &mut self.players[who.0];
        let Some(item) = p.inventory.selected_item() else {
            return false;
        };
        let (kind, id_name) = (item.kind, item.name.clone());
        let weapon = matches!(
            kind,
            Kind::Spear { .. }
                | Kind::Bow { .. }
                | Kind::Staff { .. }
                | Kind::Thrown { .. }
                | Kind::Explosive { .. }
        );
        if !weapon && id_name != MANA_CRYSTAL {
            return false;
        }
        p.dig.reset();
        let Some(at) = using else {
            return true;
        };
        if now < p.next_swing {
            return true;
        }
        let centre = p.body.centre();
        let aim = at.map_or((centre.0 + f32::from(p.body.facing), centre.1), |(x, y)| {
            (x as f32 + 0.5, y as f32 + 0.5)
        });
        if (aim.0 - centre.0).abs() > 0.1 {
            p.body.facing = if aim.0 < centre.0 { -1 } else { 1 };
        }
        if id_name == MANA_CRYSTAL {
            p.next_swing = now + ticks(0.5);
            match p.mana.use_crystal() {
                Ok(most) => {
                    p.inventory.take(MANA_CRYSTAL);
                    out.say(who, Hand::ManaCrystal { most });
                }
                Err(e) => out.say(who, Hand::CantUseMana(e)),
            }
            return true;
        }
        let full = self.projectiles.len() >= projectiles::MAX_PROJECTILES;
        match kind {
            Kind::Spear {
                damage,
                reach,
                cooldown,
            } => {
                p.next_swing = now + ticks(f64::from(cooldown));
                out.events.push(Event::Swung { player: who });
                let d = projectiles::aim(centre, aim, reach, p.body.facing);
                let tip = (centre.0 + d.0, centre.1 + d.1);
                self.thrust(who, centre, tip, damage as f32, out);
            }
            Kind::Bow {
                damage,
                speed,
                cooldown,
            } if !full => {
                let ammo = p.inventory.slots().iter().flatten().find_map(|s| {
                    match self.content.catalog.item(s.item).kind {
                        Kind::Ammo { damage, fire } => Some((s.item, damage, fire)),
                        _ => None,
                    }
                });
                let Some((arrow, extra, fire)) = ammo else {
                    p.next_swing = now + ticks(0.5);
                    out.say(who, Fight::NoArrows);
                    return true;
                };
                p.inventory.remove(arrow, 1);
                p.next_swing = now + ticks(f64::from(cooldown));
                let look = if fire {
                    Look::FlamingArrow
                } else {
                    Look::Arrow
                };
                self.fire(who, look, aim, speed, (damage + extra) as f32, None, out);
            }
            Kind::Staff {
                damage,
                mana,
                speed,
                cooldown,
            } if !full => {
                p.next_swing = now + ticks(f64::from(cooldown));
                if !p.mana.spend(mana) {
                    out.say(who, Fight::NoMana);
                    return true;
                }
                self.fire(who, Look::Bolt, aim, speed, damage as f32, None, out);
            }
            Kind::Thrown {
                damage,
                speed,
                cooldown,
            } if !full => {
                p.next_swing = now + ticks(f64::from(cooldown));
                p.inventory.take(id_name.as_str());
                self.fire(who, Look::Shuriken, aim, speed, damage as f32, None, out);
            }
            Kind::Explosive {
                damage,
                radius,
                fuse,
                power,
            } if !full => {
                p.next_swing = now + ticks(0.5);
                p.inventory.take(id_name.as_str());
                let look = if id_name == "dynamite" {
                    Look::Dynamite
                } else {
                    Look::Bomb
                };
                let blast = Some((Blast { radius, power }, fuse));
                self.fire(who, look, aim, THROW_SPEED, damage as f32, blast, out);
            }
            _ => out.say(who, Fight::TooMuchFlying),
        }
        true
    }

    /// Player `who` lets fly a projectile of `look` toward `aim`.
    #[allow(clippy::too_many_arguments)]
    fn fire(
        &mut self,
        who: PlayerId,
        look: Look,
        aim: (f32, f32),
        speed: f32,
        damage: f32,
        blast: Option<(Blast, f32)>,
        out: &mut Changes,
    ) {
        let body = &self.players[who.0].body;
        let from = body.centre();
        let vel = projectiles::aim(from, aim, speed, body.facing);
        self.projectiles.push(Projectile {
            look,
            pos: from,
            vel,
            owner: who.0,
            damage,
            pierce: 0,
            life: blast.map_or(projectiles::LIFETIME, |b| b.1),
            blast: blast.map(|b| b.0),
        });
        out.say(who, Fight::Shot { look, aim });
        out.events.push(Event::Shot { player: who, look });
    }

    /// A spear's thrust from `from` to `tip`: every creature (and the Eye) the shaft
    /// crosses is struck.
    fn thrust(
        &mut self,
        who: PlayerId,
        from: (f32, f32),
        tip: (f32, f32),
        damage: f32,
        out: &mut Changes,
    ) {
        let crosses = |b: (f32, f32, f32, f32)| {
            let grown = (b.0 - 0.2, b.1 - 0.2, b.2 + 0.2, b.3 + 0.2);
            projectiles::segment_hits(from, tip, grown).is_some()
        };
        self.strike_all(who, &crosses, damage, from.0, Blow::Thrust, out);
    }

    /// Strikes for `damage` every creature whose hitbox `reaches` says, and the Eye if its
    /// ball is reached: the hits' events, the kills' rewards.
    fn strike_all(
        &mut self,
        who: PlayerId,
        reaches: &dyn Fn((f32, f32, f32, f32)) -> bool,
        damage: f32,
        from_x: f32,
        what: Blow,
        out: &mut Changes,
    ) -> bool {
        let content = Arc::clone(&self.content);
        let facing = self.players[who.0].body.facing;
        let s = self
            .creatures
            .strike(reaches, who.0, damage, (from_x, facing), &content.rules);
        if s.hits > 0 {
            out.say(
                who,
                Fight::Struck {
                    by: what,
                    hits: s.hits,
                },
            );
        }
        for at in self.credit_strike(who, &s, damage, (from_x, 0.0), out) {
            self.maybe_star(who, at, out);
        }
        let eye = self.boss.as_ref().is_some_and(|b| reaches(b.ball()));
        if eye {
            self.strike_eye(who, damage, what, out);
        }
        // The boss after the Eye: the parts of it the blow reaches.
        let rival = !eye && self.strike_rival_where(who, damage, reaches, out);
        s.hits > 0 || eye || rival
    }

    /// A flaming arrow of player `who` hit the creature whose hitbox is `hb`: one time in
    /// [`Rules::on_fire_chance`] (if it lives) it is set on fire for
    /// [`Rules::on_fire_seconds`] (Terraria's On Fire!).
    fn ignite(&mut self, who: PlayerId, hb: (f32, f32, f32, f32), out: &mut Changes) {
        let rules = &self.content.rules;
        let key = crate::base::rng::hash3(
            self.world.seed ^ FIRE_SEED,
            self.tick,
            u64::from(self.creatures.spawned),
        );
        if (key % 1000) as f32 >= rules.on_fire_chance * 1000.0 {
            return;
        }
        let seconds = rules.on_fire_seconds;
        if let Some(c) = self.creatures.list.iter_mut().find(|c| c.hitbox() == hb) {
            c.burning = Some((who.0, seconds));
            out.say(who, Fight::SetOnFire { kind: c.kind });
        }
    }

    /// A kill by player `who` at `at` leaves a star, one time in three, when its mana is
    /// below half (as Terraria's stars come to a player who needs them).
    fn maybe_star(&mut self, who: PlayerId, at: (f32, f32), out: &mut Changes) {
        if !self.players[who.0].mana.low() {
            return;
        }
        let key = crate::base::rng::hash3(
            self.world.seed ^ STAR_SEED,
            self.tick,
            u64::from(self.creatures.killed),
        );
        if !key.is_multiple_of(3) {
            return;
        }
        if let Some(item) = self.content.catalog.id(MANA_STAR) {
            self.drop_item(Stack { item, count: 1 }, at, Some(who), out);
        }
    }

    /// Every player's mana comes back; a star picked up is mana at once (it never stays
    /// in the inventory).
    pub(super) fn run_mana(&mut self, out: &mut Changes) {
        let dt = TICK as f32;
        for (i, p) in self.players.iter_mut().enumerate() {
            p.mana.update(dt);
            let stars = p.inventory.count(MANA_STAR);
            if stars > 0 && p.inventory.remove(MANA_STAR, stars) {
                p.mana.restore(crate::sim::mana::STAR * stars as f32);
                out.say(PlayerId(i), Fight::StarMana { mana: p.mana.now });
            }
        }
    }

    /// The projectiles' tick: each flies, strikes the first creature (or the Eye) on its
    /// path, stops at walls; a bomb whose fuse is out blows up.
    pub(super) fn run_projectiles(&mut self, out: &mut Changes) {
        let dt = TICK as f32;
        let mut list = std::mem::take(&mut self.projectiles);
        let mut kept = Vec::with_capacity(list.len());
        for mut p in list.drain(..) {
            let who = PlayerId(p.owner);
            if p.owner >= self.players.len() {
                continue;
            }
            let flight = p.fly(&self.world, dt);
            let (from, to, wall) = match flight {
                Flight::Out => {
                    if let Some(b) = p.blast {
                        self.blow_up(who, p.pos, b, p.damage, out);
                    }
                    continue;
                }
                Flight::Moved(a, b) => (a, b, false),
                Flight::Wall(a, b) => (a, b, true),
            };
            if p.blast.is_some() {
                kept.push(p);
                continue;
            }
            // The first thing on the path: a creature's hitbox, the Eye's ball or a part
            // of the boss after it.
            let parts = self.rival.as_ref().map(|r| r.parts()).unwrap_or_default();
            let first = self
                .creatures
                .list
                .iter()
                .map(|c| c.hitbox())
                .chain(self.boss.as_ref().map(|b| b.ball()))
                .chain(
                    parts
                        .iter()
                        .filter(|q| q.role != crate::sim::boss::Role::Laser)
                        .map(|q| q.bounds()),
                )
                .filter_map(|b| projectiles::segment_hits(from, to, b).map(|t| (t, b)))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((_, hb)) = first {
                let same = |b: (f32, f32, f32, f32)| b == hb;
                self.strike_all(who, &same, p.damage, from.0, Blow::Shot(p.look), out);
                if p.look == Look::FlamingArrow {
                    self.ignite(who, hb, out);
                }
                if p.pierce == 0 {
                    continue;
                }
                p.pierce -= 1;
            }
            if !wall {
                kept.push(p);
            }
        }
        kept.append(&mut self.projectiles);
        self.projectiles = kept;
    }

    /// A blast of player `who`'s bomb at `at`: creatures and players within its radius
    /// are struck for `damage` (the thrower too), and the tiles [`projectiles::blast_tiles`]
    /// names break as digging breaks them, their items dropped — none inside a town's
    /// houses.
    fn blow_up(
        &mut self,
        who: PlayerId,
        at: (f32, f32),
        blast: Blast,
        damage: f32,
        out: &mut Changes,
    ) {
        out.events.push(Event::Blast {
            at,
            radius: blast.radius,
        });
        out.say(who, Fight::Blast { at });
        let r = blast.radius;
        let reaches = |b: (f32, f32, f32, f32)| projectiles::reaches(at, r, b);
        self.strike_all(who, &reaches, damage, at.0, Blow::Blast, out);
        let content = Arc::clone(&self.content);
        let caught: Vec<PlayerId> = (0..self.players.len())
            .map(PlayerId)
            .filter(|&w| self.is_present(w) && self.players[w.0].death.is_none())
            .filter(|w| reaches(self.players[w.0].body.bounds()))
            .collect();
        for w in caught {
            let v = &mut self.players[w.0].vitals;
            if v.strike(damage, &content.rules) == Some(true) {
                self.die(w, Harm::Creature("bomb".into()), out);
            } else {
                out.events.push(Event::Hurt {
                    player: w,
                    damage,
                    by: "bomb".into(),
                });
            }
        }
        let houses = self.house_tiles();
        let cat = &content.catalog;
        let tiles = projectiles::blast_tiles(
            &self.world,
            at,
            blast,
            |t| cat.power_needed(t),
            |x, y| houses.contains(&(x, y)),
        );
        for &(x, y) in &tiles {
            let drop = crate::base::tile::drop_of(self.world.tile(x, y));
            self.world.set(x, y, Tile::Air);
            if let Some(item) = crate::world::inventory::AsItem::as_item(&drop, cat) {
                let centre = (x as f32 + 0.5, y as f32 + 0.5);
                self.drop_item(Stack { item, count: 1 }, centre, Some(who), out);
            }
        }
        self.edited(&tiles, out);
        for &(x, y) in &tiles {
            self.stir(x, y);
        }
    }

    /// Every tile of the town's houses, their frames too: the rooms the players showed
    /// to be houses and the town people's homes, those that are houses now.
    fn house_tiles(&self) -> std::collections::HashSet<(usize, usize)> {
        let homes = self.town().filter_map(|n| n.home).map(home_tile);
        let mut out = std::collections::HashSet::new();
        for (x, y) in self.houses.iter().copied().chain(homes) {
            let room = self.room_at(x, y);
            if !room.is_house() {
                continue;
            }
            for &(ix, iy) in &room.inside {
                for dy in -1..=1i64 {
                    for dx in -1..=1i64 {
                        let (fx, fy) = (ix as i64 + dx, iy as i64 + dy);
                        if fx >= 0 && fy >= 0 {
                            out.insert((fx as usize, fy as usize));
                        }
                    }
                }
            }
        }
        out
    }
}
