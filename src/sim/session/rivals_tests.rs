//! The bosses after the Eye in a headless session: each called by its own trigger,
//! fighting, turning, falling for its loot, and the world's progress kept by a save.

use super::super::tests::{notices, session};
use super::super::{Changes, Event, Intent, LOCAL, Session};
use super::*;
use crate::sim::boss::Phase;

const NIGHT: f32 = 0.0;
const NOON: f32 = 0.5;

fn step(s: &mut Session, n: usize, intents: &[Intent]) -> Changes {
    super::super::tests::run(s, n, intents)
}

/// A landed player with no creatures about, at `time`.
fn landed(time: f32) -> Session {
    let mut s = session();
    step(&mut s, 120, &[]);
    s.creatures.list.clear();
    s.time_of_day = time;
    s
}

/// Selects the first slot holding `name` (added if missing).
fn hold(s: &mut Session, name: &str) {
    if s.me().inventory.count(name) == 0 {
        s.me_mut().inventory.add(name, 1);
    }
    let id = s.content.catalog.id(name).unwrap();
    let slot = s
        .me()
        .inventory
        .slots()
        .iter()
        .position(|x| x.is_some_and(|st| st.item == id))
        .unwrap();
    s.step(&[(LOCAL, Intent::Select(slot))]);
}

/// Every part of the rival, struck hard through a box over all of it.
fn strike_all(s: &mut Session) -> Changes {
    let mut out = Changes::default();
    let area = (-1e6, -1e6, 1e6, 1e6);
    assert!(s.strike_boss_in(LOCAL, area, 1e6, &mut out));
    out
}

/// The world's progress after a save and a load.
fn saved_progress(s: &Session) -> crate::world::progress::Progress {
    let bytes = crate::store::save::encode(&s.world, &s.player_state(LOCAL));
    let (w, _) = crate::store::save::decode(&bytes, &s.content.catalog).unwrap();
    w.progress
}

fn told(c: &Changes, text: &str) -> bool {
    notices(c).iter().any(|n| n.contains(text))
}

#[test]
fn the_third_shadow_orb_calls_the_eater_which_splits_bites_turns_and_falls() {
    let mut s = landed(NOON);
    hold(&mut s, "wooden_hammer");
    let me = s.me().body.centre();
    let (x, y) = (me.0 as i64 + 2, me.1 as i64);
    let mut all = Changes::default();
    for _ in 0..ORBS_PER_EATER {
        s.set_tile(x as usize, y as usize, Tile::ShadowOrb);
        let mut n = 0;
        while s.world.get(x, y) == Some(Tile::ShadowOrb) && n < 600 {
            all.extend(step(&mut s, 1, &[Intent::Use { at: Some((x, y)) }]));
            n += 1;
        }
        assert_eq!(s.world.get(x, y), Some(Tile::Air), "smashed");
    }
    assert!(told(&all, "A horrible chill") && told(&all, "Screams echo"));
    assert_eq!(s.world.progress.orbs_broken, ORBS_PER_EATER);
    let r = s.rival.as_ref().expect("the Eater came");
    assert_eq!(r.kind(), RivalKind::Eater);
    assert!(told(&all, "The Eater of Worlds has awoken!"));
    assert!(
        all.events
            .iter()
            .any(|e| matches!(e, Event::BossCame { .. }))
    );
    // It comes at the player through the ground.
    let before = r.parts()[0].pos;
    s.me_mut().vitals.invincible = 1e6;
    step(&mut s, 120, &[]);
    let r = s.rival.as_ref().expect("still here");
    let head = r.parts()[0].pos;
    let d = |p: (f32, f32)| ((p.0 - me.0).powi(2) + (p.1 - me.1).powi(2)).sqrt();
    assert!(d(head) < d(before) - 5.0, "{before:?} to {head:?}");
    // Its head bites.
    let Some(Form::Eater(e)) = s.rival.as_mut().map(|r| &mut r.form) else {
        panic!("an Eater");
    };
    let c = s.players[0].body.centre();
    e.worms[0].segs[0].pos = c;
    s.me_mut().vitals.invincible = 0.0;
    let health = s.me().vitals.health;
    let bit = step(&mut s, 1, &[]);
    assert!(s.me().vitals.health < health, "{bit:?}");
    // A swing that cuts a middle segment splits the worm: two heads.
    s.me_mut().vitals.invincible = 1e6;
    // The starting sword, in the hotbar's second slot.
    step(&mut s, 60, &[Intent::Select(1)]);
    assert!(s.me().inventory.selected_sword().is_some());
    let c = s.me().body.centre();
    let Some(Form::Eater(e)) = s.rival.as_mut().map(|r| &mut r.form) else {
        panic!("an Eater");
    };
    let w = &mut e.worms[0];
    // Laid along the player's row, the eleventh segment just in front.
    for (i, seg) in w.segs.iter_mut().enumerate() {
        seg.pos = (
            c.0 + 1.5 + (10.0 - i as f32) * crate::sim::boss::eater::SPACING,
            c.1,
        );
    }
    w.segs[10].health = 1.0;
    let at = Some(((c.0 + 2.0) as i64, c.1 as i64));
    let cut = step(&mut s, 1, &[Intent::Use { at }]);
    let Some(Form::Eater(e)) = s.rival.as_ref().map(|r| &r.form) else {
        panic!("an Eater");
    };
    assert_eq!(e.worms.len(), 2, "two heads: {cut:?}");
    assert!(
        cut.events
            .iter()
            .any(|ev| matches!(ev, Event::BossHit { .. }))
    );
    // Below half its health: phase two.
    let Some(Form::Eater(e)) = s.rival.as_mut().map(|r| &mut r.form) else {
        panic!("an Eater");
    };
    for seg in e.worms.iter_mut().flat_map(|w| &mut w.segs) {
        seg.health = 1.0;
    }
    let c = step(&mut s, 1, &[]);
    assert!(c.events.contains(&Event::BossPhase));
    assert_eq!(s.rival.as_ref().unwrap().phase, Phase::Two);
    // Every segment dead: it falls, its loot and trophy to the player who fought it.
    let c = strike_all(&mut s);
    assert!(s.rival.is_none());
    assert!(told(&c, "The Eater of Worlds has been defeated!"));
    let inv = &s.me().inventory;
    assert_eq!(inv.count("shadow_scale"), 15);
    assert_eq!(inv.count("demonite_ore"), 40);
    assert_eq!(inv.count("eater_trophy"), 1);
    assert_eq!(s.world.progress.eater_defeated, 1);
    assert_eq!(saved_progress(&s), s.world.progress);
}

#[test]
fn worm_food_calls_the_eater_only_in_the_evil_biome() {
    let mut s = landed(NOON);
    hold(&mut s, WORM_FOOD);
    let c = step(&mut s, 2, &[Intent::Use { at: None }]);
    assert!(s.rival.is_none() && told(&c, "only in the evil biome"));
    assert_eq!(s.me().inventory.count(WORM_FOOD), 1, "kept");
    // Ebonstone under the player: the evil biome.
    let me = s.me().body.pos;
    for y in me.1 as usize + 3..me.1 as usize + 6 {
        for x in me.0 as usize - 25..me.0 as usize + 25 {
            s.world.set(x, y, Tile::Ebonstone);
        }
    }
    step(&mut s, 61, &[]);
    let c = step(&mut s, 1, &[Intent::Use { at: None }]);
    assert_eq!(s.rival.as_ref().map(|r| r.kind()), Some(RivalKind::Eater));
    assert_eq!(s.me().inventory.count(WORM_FOOD), 0, "used up");
    assert!(told(&c, "has awoken"));
    // And no Eye beside it.
    s.me_mut().inventory.add("suspicious_looking_eye", 1);
    hold(&mut s, "suspicious_looking_eye");
    s.time_of_day = NIGHT;
    step(&mut s, 61, &[Intent::Use { at: None }]);
    assert!(s.boss.is_none());
}

/// A session at `time` with the player beside the Old Man.
fn by_the_old_man(time: f32) -> (Session, (f32, f32)) {
    let mut s = landed(time);
    let man = s
        .old_man
        .expect("the test world has a dungeon and its Old Man");
    s.me_mut().body.pos = (man.0 + 2.0, man.1 - 0.01);
    s.me_mut().body.vel = (0.0, 0.0);
    (s, man)
}

fn talk(s: &mut Session, man: (f32, f32)) -> Changes {
    let (x, y) = (man.0 as i64, man.1 as i64 - 1);
    step(
        s,
        1,
        &[Intent::Place {
            x,
            y,
            pressed: true,
        }],
    )
}

#[test]
fn the_old_man_calls_skeletron_at_night_whose_hands_swipe_and_whose_fall_opens_the_dungeon() {
    let (mut s, man) = by_the_old_man(NOON);
    assert!(
        s.world
            .get(man.0 as i64, man.1 as i64)
            .is_some_and(|t| t.is_solid()),
        "on the ground"
    );
    let c = talk(&mut s, man);
    assert!(s.rival.is_none() && told(&c, "Come back at night"), "{c:?}");
    s.time_of_day = NIGHT;
    let c = talk(&mut s, man);
    assert_eq!(
        s.rival.as_ref().map(|r| r.kind()),
        Some(RivalKind::Skeletron)
    );
    assert!(told(&c, "Skeletron has awoken!"));
    s.me_mut().vitals.invincible = 1e6;
    let c = step(&mut s, 60 * 4, &[]);
    let lines = super::super::tests::log_lines(&c);
    let swipes = (lines.iter())
        .filter(|l| l.starts_with("Skeletron attacks"))
        .count();
    assert!(swipes >= 2, "{swipes} swipes in 4 s");
    // A hand hurts the player it reaches.
    let Some(Form::Skeletron(k)) = s.rival.as_mut().map(|r| &mut r.form) else {
        panic!("Skeletron");
    };
    k.hands[1].pos = s.players[0].body.centre();
    s.me_mut().vitals.invincible = 0.0;
    let health = s.me().vitals.health;
    step(&mut s, 1, &[]);
    assert!(s.me().vitals.health < health);
    s.me_mut().vitals.invincible = 1e6;
    // The skull at half its health: phase two, it spins.
    let Some(Form::Skeletron(k)) = s.rival.as_mut().map(|r| &mut r.form) else {
        panic!("Skeletron");
    };
    k.health = crate::sim::boss::skeletron::HEAD_HEALTH / 2.0;
    // Within a phase-two spin's wait.
    let every = crate::sim::boss::skeletron::SPIN_EVERY;
    let c = step(&mut s, (every * 60.0) as usize + 10, &[]);
    assert!(c.events.contains(&Event::BossPhase));
    let Some(Form::Skeletron(k)) = s.rival.as_ref().map(|r| &r.form) else {
        panic!("Skeletron");
    };
    assert!(k.spin > 0.0, "it spins in phase two");
    let c = strike_all(&mut s);
    assert!(s.rival.is_none() && told(&c, "Skeletron has been defeated!"));
    assert!(s.world.progress.skeletron(), "the dungeon is opened");
    assert!(s.old_man.is_none(), "his curse is lifted");
    assert_eq!(s.me().inventory.count("skeletron_trophy"), 1);
    assert!(s.me().inventory.count("gold_coin") >= 5);
    let story = saved_progress(&s);
    assert!(story.skeletron() && story == s.world.progress);
    let mut again = s.world.clone();
    again.progress = story;
    assert_eq!(old_man_place(&again), None, "he is not back after a load");
}

#[test]
fn skeletron_leaves_at_dawn() {
    let (mut s, man) = by_the_old_man(NIGHT);
    talk(&mut s, man);
    assert!(s.rival.is_some());
    s.me_mut().vitals.invincible = 1e6;
    s.time_of_day = 0.18;
    let mut gone = false;
    for _ in 0..60 * 60 {
        if step(&mut s, 1, &[]).events.contains(&Event::BossLeft) {
            gone = true;
            break;
        }
    }
    assert!(gone && s.rival.is_none());
    assert!(!s.world.progress.skeletron() && s.old_man.is_some());
}

/// A player standing in the underworld by a pool of lava: the session and the pool's
/// middle.
fn in_the_underworld() -> (Session, (i64, i64)) {
    let mut s = landed(NOON);
    let top = crate::world::depth::Layers::of(&s.world.preset).underworld;
    let (x, y) = (s.world.width() as i64 / 3, top as i64 + 10);
    for dx in -30..30 {
        for dy in -6..4 {
            let t = match dy {
                3 => Tile::Stone,
                1 | 2 if (5..10).contains(&dx) => Tile::Lava,
                _ => Tile::Air,
            };
            s.world.set((x + dx) as usize, (y + dy) as usize, t);
        }
    }
    s.me_mut().body.pos = (x as f32 + 0.5, y as f32 + 2.99);
    step(&mut s, 30, &[]);
    (s, (x + 7, y + 2))
}

#[test]
fn a_voodoo_doll_in_underworld_lava_calls_the_wall_which_crosses_shoots_and_falls() {
    let (mut s, lava) = in_the_underworld();
    let doll = s.content.catalog.id(VOODOO_DOLL).unwrap();
    s.world.dropped.push(crate::world::dropped::Dropped {
        stack: crate::world::inventory::Stack {
            item: doll,
            count: 1,
        },
        pos: (lava.0 as f32 + 0.5, lava.1 as f32 + 0.5),
        vel: (0.0, 0.0),
        owner: None,
        thrown: Some((0, 1.0)),
    });
    let c = step(&mut s, 1, &[]);
    assert!(told(&c, "The Wall of Flesh has awoken!"), "{c:?}");
    assert!(
        s.world.dropped.iter().all(|d| d.stack.item != doll),
        "burnt"
    );
    let Some(Form::Wall(w)) = s.rival.as_ref().map(|r| &r.form) else {
        panic!("the Wall");
    };
    let me = s.me().body.centre();
    assert!(
        w.dir > 0.0 && w.x < me.0,
        "behind the player, coming toward the far side"
    );
    let top = crate::world::depth::Layers::of(&s.world.preset).underworld as f32;
    assert_eq!(
        (w.top, w.bottom),
        (top, s.world.height() as f32),
        "the underworld's height"
    );
    let x0 = w.x;
    s.me_mut().vitals.invincible = 1e6;
    let c = step(&mut s, 60 * 5, &[]);
    let Some(Form::Wall(w)) = s.rival.as_ref().map(|r| &r.form) else {
        panic!("the Wall");
    };
    let went = w.x - x0;
    let speed = crate::sim::boss::wall::SPEED;
    assert!(
        (went - 5.0 * speed).abs() < 0.5,
        "it crossed {went} tiles in 5 s"
    );
    assert!(w.shots >= 4, "its eyes shot");
    assert!(c.events.iter().all(|e| *e != Event::BossLeft));
    // Faster as it loses health, and at half it turns.
    let Some(Form::Wall(w)) = s.rival.as_mut().map(|r| &mut r.form) else {
        panic!("the Wall");
    };
    w.health = crate::sim::boss::wall::HEALTH / 2.0;
    let x1 = w.x;
    let c = step(&mut s, 60, &[]);
    assert!(c.events.contains(&Event::BossPhase));
    let Some(Form::Wall(w)) = s.rival.as_mut().map(|r| &mut r.form) else {
        panic!("the Wall");
    };
    assert!(w.x - x1 > speed * 1.3, "faster: {}", w.x - x1);
    // A player behind it is hurt.
    w.lasers.clear();
    w.x = me.0 + 5.0;
    s.me_mut().vitals.invincible = 0.0;
    let health = s.me().vitals.health;
    step(&mut s, 1, &[]);
    assert!(s.me().vitals.health < health);
    let c = strike_all(&mut s);
    assert!(s.rival.is_none() && told(&c, "The Wall of Flesh has been defeated!"));
    assert!(s.world.progress.past_the_wall());
    assert_eq!(s.me().inventory.count("wall_trophy"), 1);
    assert_eq!(s.me().inventory.count("pwnhammer"), 1);
    let story = saved_progress(&s);
    assert!(story.past_the_wall() && story.summary().contains("past the Wall"));
}

#[test]
fn two_players_fight_the_eater_together_and_each_gets_its_loot() {
    let mut s = landed(NOON);
    let (two, three) = (s.join(), s.join());
    let mut c = Changes::default();
    assert!(s.summon_rival(LOCAL, RivalKind::Eater, &mut c));
    // No second boss while one is about.
    assert!(!s.summon_rival(two, RivalKind::Wall, &mut c));
    for p in &mut s.players {
        p.vitals.invincible = 1e6;
    }
    step(&mut s, 30, &[]);
    // Player two's blow (a projectile's entry) lands on the head, then the first player's
    // finishes every segment.
    let head = s.rival.as_ref().unwrap().parts()[0].pos;
    let near = (head.0 - 0.5, head.1 - 0.5, head.0 + 0.5, head.1 + 0.5);
    let full = s.rival.as_ref().unwrap().health();
    assert!(s.strike_boss_in(two, near, 10.0, &mut c));
    assert_eq!(s.rival.as_ref().unwrap().health(), full - 10.0);
    assert!(
        !s.strike_boss_in(two, (-9.0, -9.0, -8.0, -8.0), 10.0, &mut c),
        "nothing there"
    );
    strike_all(&mut s);
    assert!(s.rival.is_none());
    for who in [LOCAL, two] {
        let inv = &s.players[who.0].inventory;
        assert_eq!(inv.count("eater_trophy"), 1, "{who:?}");
        assert_eq!(inv.count("shadow_scale"), 15, "{who:?}");
    }
    assert_eq!(s.players[three.0].inventory.count("eater_trophy"), 0);
    assert_eq!(
        s.world.progress.eater_defeated, 1,
        "one Eater, counted once"
    );
}
