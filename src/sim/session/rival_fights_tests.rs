//! The bosses after the Eye fought to the end by a scripted player with its tier's gear
//! (the fight harness of [`crate::sim::fight`], which tunes the Eye): the Eater with
//! platinum, Skeletron with demonite and shadow armour, the Wall with the molten fury and
//! molten armour, as Terraria's players meet them. A boss its tier cannot beat, or one
//! that falls to a bare player, fails here.

use super::{Intent, LOCAL, PlayerId, Session, TICK};
use crate::sim::boss::{Form, Part, RivalKind, Role};
use crate::sim::fight::{ARENA, Loadout, Outcome, arena, equip, slot_of};
use crate::world::{Tile, World};

/// Health missing at which the fighter drinks.
const DRINK_MISSING: f32 = 60.0;

/// The scripted player: to and fro beside the nearest part (a melee weapon), or running
/// ahead of the Wall and shooting back at its face (a bow).
struct Brawler {
    weapon: usize,
    run: i8,
}

impl Brawler {
    fn intents(&mut self, s: &Session) -> Vec<Intent> {
        let p = s.me();
        let me = p.body.centre();
        let mut out = vec![Intent::Select(self.weapon)];
        if p.vitals.health <= p.vitals.max_health - DRINK_MISSING && p.vitals.potion_sick <= 0.0 {
            out.push(Intent::QuickHeal);
        }
        let Some(r) = &s.rival else {
            return out;
        };
        let parts: Vec<Part> = r
            .parts()
            .into_iter()
            .filter(|q| q.role != Role::Laser)
            .collect();
        let dist = |q: &Part| (q.pos.0 - me.0).powi(2) + (q.pos.1 - me.1).powi(2);
        let nearest = parts.iter().min_by(|a, b| dist(a).total_cmp(&dist(b)));
        // Skeletron's skull first (its fall is the fight's), a hand only when it is close.
        let skull = parts
            .iter()
            .find(|q| matches!(r.form, Form::Skeletron(_)) && q.role == Role::Head);
        let Some(target) = nearest.filter(|q| dist(q) < 9.0).or(skull).or(nearest) else {
            return out;
        };
        let rel = (me.0 - target.pos.0, me.1 - target.pos.1);
        let mut jump = false;
        let bow = matches!(r.form, Form::Wall(_));
        if let Form::Wall(w) = &r.form {
            // Ahead of the Wall, at a bow's range: away while it is near.
            let ahead = (me.0 - w.x) * w.dir;
            self.run = if ahead < 22.0 { w.dir as i8 } else { 0 };
        } else {
            if rel.0.abs() < 2.5 {
                self.run = if rel.0 < 0.0 { -1 } else { 1 };
            } else if rel.0.abs() > 6.0 {
                self.run = if rel.0 < 0.0 { 1 } else { -1 };
            }
            // Over a part coming at the feet, or up at one overhead.
            jump = rel.0.abs() < 3.0 && rel.1 < 1.0 && rel.1 > -3.0 || rel.1 > 3.0;
        }
        let (w, ..) = ARENA;
        if me.0 < 12.0 {
            self.run = 1;
        } else if me.0 > w as f32 - 12.0 {
            self.run = -1;
        }
        out.push(Intent::Move {
            axis: self.run,
            jump,
        });
        if jump {
            out.push(Intent::Jump);
        }
        // A bow's arrow falls: aimed over the face, the more the farther.
        let lift = if bow { 0.25 * rel.0.abs() } else { 0.0 };
        out.push(Intent::Use {
            at: Some((
                target.pos.0.floor() as i64,
                (target.pos.1 - lift).floor() as i64,
            )),
        });
        out
    }
}

/// The Wall's field: as wide as [`ARENA`] and tall enough that the underworld's rows,
/// the band the Wall spans, hold a flat ash floor with room over it for the Wall's face.
fn underworld_arena(seed: u64) -> World {
    let (w, h) = (ARENA.0, 400);
    let preset = crate::content::preset::Preset {
        width: w as u32,
        height: h as u32,
        ..Default::default()
    };
    let mut world = World::new(w, h, seed, preset);
    let floor = h - 8;
    for y in floor..h {
        for x in 0..w {
            world.set(x, y, Tile::Ash);
        }
    }
    world.surface = vec![floor as u32; w];
    world
}

/// Player `gear` (weapon `gear.sword`, plus `arrows` wooden arrows) against `kind` on
/// `world`, at midnight, standing at column `x`, until a side falls or `limit` seconds.
fn fight(
    world: World,
    kind: RivalKind,
    gear: &Loadout,
    arrows: u32,
    x: f32,
    limit: f64,
) -> Outcome {
    let light = crate::sim::light::LightMap::compute(&world);
    let content = std::sync::Arc::new(crate::content::config::Content::builtin());
    let mut s = Session::start_with(content, world, light, None, false);
    s.time_of_day = 0.9;
    equip(&mut s, gear);
    if arrows > 0 {
        s.me_mut().inventory.add("wooden_arrow", arrows);
    }
    let y = s.me().body.pos.1;
    s.me_mut().body.pos = (x, y);
    let world = s.world.clone();
    s.me_mut().body.unstick(&world);
    for _ in 0..60 {
        s.step(&[]);
    }
    s.creatures.list.clear();
    let mut out = super::Changes::default();
    assert!(s.summon_rival(LOCAL, kind, &mut out), "{kind:?} came");
    let mut brawler = Brawler {
        weapon: slot_of(&s, gear.sword).expect("the weapon is carried"),
        run: 1,
    };
    let potions = s.me().inventory.count("lesser_healing_potion");
    let (start, mut o) = (s.tick, Outcome::default());
    let name = kind.name();
    while ((s.tick - start) as f64 * TICK) < limit {
        let list: Vec<(PlayerId, Intent)> = brawler
            .intents(&s)
            .into_iter()
            .map(|i| (LOCAL, i))
            .collect();
        let c = s.step(&list);
        o.tally(&c.events, name);
        if o.won || o.died || s.rival.is_none() {
            break;
        }
    }
    o.seconds = (s.tick - start) as f64 * TICK;
    o.boss_health = s.rival.as_ref().map_or(0.0, |r| r.health());
    o.potions = potions - s.me().inventory.count("lesser_healing_potion");
    o
}

fn gear(weapon: &'static str, armour: [&'static str; 3], health: f32, potions: u32) -> Loadout {
    Loadout {
        sword: weapon,
        armour: armour.to_vec(),
        health,
        potions,
        summon: "wood",
    }
}

fn bare(g: &Loadout) -> Loadout {
    Loadout {
        armour: Vec::new(),
        health: 100.0,
        potions: 0,
        ..g.clone()
    }
}

fn platinum() -> Loadout {
    let armour = ["platinum_helmet", "platinum_chainmail", "platinum_greaves"];
    gear("platinum_sword", armour, 300.0, 10)
}

fn shadow() -> Loadout {
    let armour = ["shadow_helmet", "shadow_scalemail", "shadow_greaves"];
    gear("lights_bane", armour, 400.0, 10)
}

fn molten() -> Loadout {
    let armour = ["molten_helmet", "molten_breastplate", "molten_greaves"];
    gear("molten_fury", armour, 400.0, 15)
}

fn report(kind: RivalKind, runs: &[Outcome]) -> String {
    format!("{kind:?}: {runs:#?}")
}

/// A boss, the gear its tier gives, the arrows carried, its field and where the player
/// stands on it.
type Case = (RivalKind, Loadout, u32, fn(u64) -> World, f32);

#[test]
fn each_boss_after_the_eye_falls_to_its_tier_s_gear_and_not_to_a_bare_player() {
    let (w, ..) = ARENA;
    let mid = w as f32 / 2.0;
    let cases: [Case; 3] = [
        (RivalKind::Eater, platinum(), 0, arena, mid),
        (RivalKind::Skeletron, shadow(), 0, arena, mid),
        (RivalKind::Wall, molten(), 999, underworld_arena, 30.0),
    ];
    let (mut failures, mut seen) = (Vec::new(), Vec::new());
    for (kind, g, arrows, field, x) in cases {
        let runs: Vec<Outcome> = (1..=4)
            .map(|seed| fight(field(seed), kind, &g, arrows, x, 300.0))
            .collect();
        seen.push(report(kind, &runs));
        let won = runs.iter().filter(|o| o.won).count();
        if won < 3 {
            failures.push(format!("{won} of 4 won: {}", report(kind, &runs)));
        }
        if !runs.iter().all(|o| o.boss_hits > 0 && o.swings_landed > 0) {
            failures.push(format!("a side never hit: {}", report(kind, &runs)));
        }
        let naked = fight(field(1), kind, &bare(&g), arrows, x, 300.0);
        if naked.won {
            failures.push(format!("a bare player beat {kind:?}: {naked:#?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{}", seen.join("\n"));
}
