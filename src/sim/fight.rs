//! A boss fight with no window: a scripted player with the gear, health and potions a
//! test gives ([`Loadout`]) calls a boss at night on an open field ([`arena`]) and fights
//! it as a player would ([`Fighter`]): it swings at the boss (or at a creature that
//! comes close), runs out of the line of a dash and jumps a flat one, keeps under the
//! boss between dashes, and drinks a potion (the quick heal) when low. [`fight`] plays
//! it to a win, a death or the time limit ([`Outcome`]). It is how the Eye is tuned
//! ([`crate::content::rules::Rules`]' `eye_*`), and serves every boss to come: a boss
//! is summoned by its item and seen through [`crate::sim::session::Session::boss`].

use crate::sim::boss::{Mode, RADIUS};
use crate::sim::session::{Event, Intent, LOCAL, PlayerId, Session, TICK};
use crate::world::{Tile, World};

/// What the scripted player carries.
#[derive(Clone, Debug, PartialEq)]
pub struct Loadout {
    pub sword: &'static str,
    /// Armour pieces worn (item names).
    pub armour: Vec<&'static str>,
    /// Its most health (and health at the start).
    pub health: f32,
    /// Lesser healing potions carried.
    pub potions: u32,
    /// The item that calls the boss.
    pub summon: &'static str,
}

impl Loadout {
    /// Terraria's gear for the Eye: an iron sword and iron armour, 200 health, potions.
    pub fn iron(potions: u32) -> Loadout {
        Loadout {
            sword: "iron_sword",
            armour: vec!["iron_helmet", "iron_chainmail", "iron_greaves"],
            health: 200.0,
            potions,
            summon: "suspicious_looking_eye",
        }
    }
}

/// How a fight ended.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The boss was defeated.
    pub won: bool,
    /// The player died.
    pub died: bool,
    /// Seconds of game time from the boss's coming to the end.
    pub seconds: f64,
    /// The boss's health at the end (0 when won).
    pub boss_health: f32,
    /// Hits the player took: from the boss and from creatures.
    pub boss_hits: u32,
    pub creature_hits: u32,
    /// The player's swings that hit the boss.
    pub swings_landed: u32,
    /// Potions drunk.
    pub potions: u32,
}

impl Outcome {
    /// Counts a step's `events` of a fight with the boss called `boss`.
    pub fn tally(&mut self, events: &[Event], boss: &str) {
        for e in events {
            match e {
                Event::Hurt { by, .. } if *by == boss => self.boss_hits += 1,
                Event::Hurt { .. } => self.creature_hits += 1,
                Event::BossHit { .. } => self.swings_landed += 1,
                Event::BossDefeated { .. } => self.won = true,
                Event::Died { .. } => self.died = true,
                _ => {}
            }
        }
    }
}

/// Width and height of [`arena`], tiles; the floor's row.
pub const ARENA: (usize, usize, usize) = (400, 120, 90);

/// An open field of stone: a flat floor at row [`ARENA`].2, air above, nothing to hide
/// behind. `seed` is the world's (the creatures' spawns follow from it).
pub fn arena(seed: u64) -> World {
    let (w, h, floor) = ARENA;
    let mut world = World::new(w, h, seed, crate::content::preset::Preset::default());
    for y in floor..h {
        for x in 0..w {
            world.set(x, y, Tile::Stone);
        }
    }
    world.surface = vec![floor as u32; w];
    world
}

/// The scripted player's mind: what it does each tick.
#[derive(Clone, Debug, Default)]
pub struct Fighter {
    /// Its hotbar slot of the sword.
    sword_slot: usize,
    /// The way it runs between dashes (−1 or +1).
    run: i8,
}

/// Tiles across from the boss the fighter keeps between, running to and fro (a dash aimed
/// where it was misses a player that keeps moving).
pub const KEEP: (f32, f32) = (2.0, 6.0);

/// Health missing at which the fighter drinks a potion (a lesser healing potion's worth:
/// the sickness that follows makes one drunk early worth more than one kept).
pub const DRINK_MISSING: f32 = 50.0;
/// Tiles within which a creature is swung at before the boss.
pub const CLOSE: f32 = 3.0;
/// Tiles across and up or down from the boss's middle within which it is swung at first.
pub const REACH: f32 = 5.0;

impl Fighter {
    /// This tick's intents for player `who` of `s`.
    pub fn intents(&mut self, s: &Session, who: PlayerId) -> Vec<Intent> {
        let p = &s.players[who.0];
        let me = p.body.centre();
        let mut out = vec![Intent::Select(self.sword_slot)];
        if p.vitals.health <= p.vitals.max_health - DRINK_MISSING && p.vitals.potion_sick <= 0.0 {
            out.push(Intent::QuickHeal);
        }
        let Some(b) = &s.boss else {
            return out;
        };
        let (mut axis, mut jump) = (0i8, false);
        let rel = (me.0 - b.pos.0, me.1 - b.pos.1);
        let speed = (b.vel.0 * b.vel.0 + b.vel.1 * b.vel.1).sqrt();
        let charging = matches!(b.mode, Mode::Charge { .. }) && speed > 1.0;
        if self.run == 0 {
            self.run = 1;
        }
        let mut in_line = false;
        if charging {
            let d = (b.vel.0 / speed, b.vel.1 / speed);
            let along = rel.0 * d.0 + rel.1 * d.1;
            let off = (rel.0 - along * d.0, rel.1 - along * d.1);
            let miss = (off.0 * off.0 + off.1 * off.1).sqrt();
            if along > -RADIUS && miss < RADIUS + 1.5 {
                // Out of the dash's line: across, the way the player is off it already,
                // else on the way it runs (turning round loses the moment).
                in_line = true;
                if off.0.abs() > 0.2 {
                    self.run = off.0.signum() as i8;
                }
                axis = self.run;
                // Over a flat one, or one from level or below.
                jump = d.1.abs() < 0.5 || rel.1 < 1.0;
            }
        }
        if in_line {
        } else if matches!(b.mode, Mode::Aim { .. }) {
            // It rushes at where the player is when it ends: be running across its line
            // then, away from under it.
            if rel.0.abs() > 0.5 {
                self.run = rel.0.signum() as i8;
            }
            axis = self.run;
        } else {
            // To and fro beside it: away when too near, back when too far.
            if rel.0.abs() < KEEP.0 {
                self.run = if rel.0 < 0.0 { -1 } else { 1 };
            } else if rel.0.abs() > KEEP.1 {
                self.run = if rel.0 < 0.0 { 1 } else { -1 };
            }
            axis = self.run;
        }
        // Away from the field's edges.
        let (w, ..) = ARENA;
        if me.0 < 20.0 {
            (axis, self.run) = (1, 1);
        } else if me.0 > w as f32 - 20.0 {
            (axis, self.run) = (-1, -1);
        }
        out.push(Intent::Move { axis, jump });
        if jump {
            out.push(Intent::Jump);
        }
        // The boss within a sword's reach of its ball, else the nearest creature close
        // by, else the boss.
        let near = rel.0.abs() < REACH && rel.1.abs() < REACH;
        let close = s
            .creatures
            .list
            .iter()
            .map(|c| (c.body.pos.0, c.body.pos.1 - 0.5))
            .filter(|c| (c.0 - me.0).abs() < CLOSE && (c.1 - me.1).abs() < CLOSE)
            .min_by(|a, c| (a.0 - me.0).abs().total_cmp(&(c.0 - me.0).abs()))
            .filter(|_| !near);
        let aim = close.unwrap_or(b.pos);
        out.push(Intent::Use {
            at: Some((aim.0.floor() as i64, aim.1.floor() as i64)),
        });
        out
    }
}

/// Plays a fight: a session on `world` with its player given `gear` at midnight, the
/// boss called, and the [`Fighter`] at the controls until the boss falls, the player
/// dies or `limit` seconds pass.
pub fn fight(world: World, gear: &Loadout, limit: f64) -> Outcome {
    fight_by(
        std::sync::Arc::new(crate::content::config::Content::builtin()),
        world,
        gear,
        limit,
    )
}

/// [`fight`] by the rules of `content` (a boss's numbers being tried).
pub fn fight_by(
    content: std::sync::Arc<crate::content::config::Content>,
    world: World,
    gear: &Loadout,
    limit: f64,
) -> Outcome {
    let light = crate::sim::light::LightMap::compute(&world);
    let mut s = Session::start_with(content, world, light, None, false);
    s.time_of_day = 0.9;
    let mut fighter = equip(&mut s, gear);
    // Landed, then the summoning item used.
    for _ in 0..60 {
        s.step(&[]);
    }
    let summon = slot_of(&s, gear.summon).expect("the summoning item is carried");
    s.step(&[(LOCAL, Intent::Select(summon))]);
    s.step(&[(LOCAL, Intent::Use { at: None })]);
    let mut out = Outcome::default();
    if s.boss.is_none() {
        return out;
    }
    let start = s.tick;
    let potions = count(&s, "lesser_healing_potion");
    while (s.tick - start) as f64 * TICK < limit {
        let list: Vec<(PlayerId, Intent)> = fighter
            .intents(&s, LOCAL)
            .into_iter()
            .map(|i| (LOCAL, i))
            .collect();
        let c = s.step(&list);
        out.tally(&c.events, crate::sim::boss::NAME);
        if out.won || out.died || s.boss.is_none() {
            break;
        }
    }
    out.seconds = (s.tick - start) as f64 * TICK;
    out.boss_health = s.boss.as_ref().map_or(0.0, |b| b.health);
    out.potions = potions - count(&s, "lesser_healing_potion");
    out
}

/// Gives the local player of `s` what `gear` names (worn armour, its health), and the
/// fighter that knows where its sword is.
pub(crate) fn equip(s: &mut Session, gear: &Loadout) -> Fighter {
    let rules = std::sync::Arc::clone(&s.content);
    let cat = &rules.catalog;
    let p = s.me_mut();
    p.inventory = crate::world::inventory::Inventory::empty(cat);
    p.inventory.add(gear.sword, 1);
    p.inventory.add(gear.summon, 1);
    if gear.potions > 0 {
        p.inventory.add("lesser_healing_potion", gear.potions);
    }
    for piece in &gear.armour {
        p.inventory.add(*piece, 1);
        let slot = p
            .inventory
            .slots()
            .iter()
            .position(|x| x.is_some_and(|st| cat.id(piece) == Some(st.item)))
            .expect("the piece was added");
        p.inventory.select(slot);
        p.inventory.wear_selected().expect("armour is worn");
    }
    p.vitals = crate::sim::vitals::Vitals::with_most(gear.health, gear.health, &rules.rules);
    p.vitals.defence = p.inventory.defence();
    Fighter {
        sword_slot: slot_of(s, gear.sword).expect("the sword is carried"),
        run: 1,
    }
}

/// The slot holding `item` in the local player's inventory.
pub fn slot_of(s: &Session, item: &str) -> Option<usize> {
    let id = s.content.catalog.id(item)?;
    s.me()
        .inventory
        .slots()
        .iter()
        .position(|x| x.is_some_and(|st| st.item == id))
}

fn count(s: &Session, item: &str) -> u32 {
    s.me().inventory.count(item)
}
