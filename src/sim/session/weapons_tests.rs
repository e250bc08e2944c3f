//! The four ways to fight, in a session on a flat world: bows and arrows, staffs and
//! mana, mana crystals, bombs that dig (but never a town's house nor dungeon brick).

use super::tests::{build_house, notices, run, wall_house};
use super::*;
use crate::sim::creatures::{Creature, Kind as Creature_};
use crate::sim::projectiles::{Blast, Look, Projectile};

/// Ground from row 50 down, in a world 200 wide; the player landed on it.
fn flat() -> Session {
    let mut w = World::new(200, 100, 5, crate::content::preset::Preset::default());
    for y in 50..100 {
        for x in 0..200 {
            w.set(x, y, Tile::Dirt);
        }
    }
    let mut s = Session::new(w);
    run(&mut s, 60, &[]);
    s.creatures.list.clear();
    assert!(s.me().body.on_ground);
    s
}

/// Puts `n` of `item` into the player's inventory and selects it.
fn hold(s: &mut Session, item: &str, n: u32) {
    let inv = &mut s.me_mut().inventory;
    assert_eq!(inv.add(item, n), 0);
    let slot = (0..crate::world::inventory::HOTBAR_SLOTS)
        .find(|&i| {
            inv.select(i);
            inv.selected_item().is_some_and(|it| it.name == item)
        })
        .expect("in the hotbar");
    inv.select(slot);
}

fn shots(c: &Changes) -> usize {
    c.events
        .iter()
        .filter(|e| matches!(e, Event::Shot { .. }))
        .count()
}

/// Holds the use button aimed at the middle of the first creature for `n` ticks.
fn shoot_at_creature(s: &mut Session, n: usize) -> Changes {
    let mut all = Changes::default();
    for _ in 0..n {
        let at = s.creatures.list.first().map(|c| {
            let (l, t, r, b) = c.hitbox();
            (((l + r) / 2.0) as i64, ((t + b) / 2.0) as i64)
        });
        all.extend(s.step(&[(LOCAL, Intent::Use { at })]));
    }
    all
}

#[test]
fn a_bow_kills_a_slime_at_range_and_uses_up_its_arrows() {
    let mut s = flat();
    hold(&mut s, "wooden_bow", 1);
    s.me_mut().inventory.add("wooden_arrow", 30);
    s.me_mut().vitals.invincible = 1000.0;
    let me = s.me().body.pos;
    s.creatures.list.push(Creature::new(
        &s.content.bestiary,
        Creature_::Slime,
        (me.0 + 12.0, 50.0),
    ));
    let c = shoot_at_creature(&mut s, 400);
    let killed = c.events.iter().any(|e| {
        matches!(
            e,
            Event::Killed {
                kind: Creature_::Slime,
                by: LOCAL
            }
        )
    });
    assert!(killed, "{:?}", s.creatures.list);
    let fired = shots(&c);
    assert!(fired >= 2, "a slime takes more than one arrow: {fired}");
    assert_eq!(s.me().inventory.count("wooden_arrow") as usize, 30 - fired);
    // Out of arrows: the bow shoots nothing.
    let left = s.me().inventory.count("wooden_arrow");
    s.me_mut().inventory.remove("wooden_arrow", left);
    s.projectiles.clear();
    let c = run(
        &mut s,
        30,
        &[Intent::Use {
            at: Some((150, 48)),
        }],
    );
    assert_eq!(shots(&c), 0);
    assert!(s.projectiles.is_empty());
    assert!(
        notices(&c).contains(&"No arrows".to_string()),
        "{:?}",
        notices(&c)
    );
}

#[test]
fn a_staff_spends_mana_refuses_when_it_is_short_and_mana_comes_back() {
    let mut s = flat();
    hold(&mut s, "amethyst_staff", 1);
    let cost = match s.me().inventory.selected_item().map(|i| i.kind) {
        Some(crate::content::items::Kind::Staff { mana, .. }) => mana,
        k => panic!("a staff: {k:?}"),
    };
    assert_eq!(s.me().mana.now, crate::sim::mana::START as f32);
    // Each bolt costs its mana: a full 20 pays for four of 5, then it is refused.
    let aim = Intent::Use {
        at: Some((180, 40)),
    };
    let c = run(&mut s, 150, &[aim]);
    let paid = (crate::sim::mana::START / cost) as usize;
    assert_eq!(shots(&c), paid);
    assert!(notices(&c).contains(&"Not enough mana".to_string()));
    assert!(s.me().mana.now < cost as f32);
    // Left alone, mana comes back full.
    run(&mut s, 60 * 10, &[]);
    assert_eq!(s.me().mana.now, crate::sim::mana::START as f32);
}

#[test]
fn a_mana_crystal_raises_the_most_mana_once_and_is_used_up() {
    let mut s = flat();
    hold(&mut s, MANA_CRYSTAL, 1);
    let c = run(
        &mut s,
        5,
        &[Intent::Use {
            at: Some((100, 48)),
        }],
    );
    assert_eq!(
        s.me().mana.most,
        crate::sim::mana::START + crate::sim::mana::CRYSTAL
    );
    assert_eq!(s.me().inventory.count(MANA_CRYSTAL), 0);
    assert!(notices(&c).contains(&"Most mana 40".to_string()));
    run(
        &mut s,
        60,
        &[Intent::Use {
            at: Some((100, 48)),
        }],
    );
    assert_eq!(s.me().mana.most, 40);
}

#[test]
fn a_bomb_digs_a_round_hole_but_no_town_house_nor_dungeon_brick_and_hurts_who_is_caught() {
    let mut s = flat();
    // A house on the ground at 20..32, shown to be one.
    build_house(&mut s, 20, 49);
    wall_house(&mut s, 20, 49);
    let said = notices(&s.act(LOCAL, Intent::Housing { x: 26, y: 46 }));
    assert!(said.iter().any(|t| t.contains("house")), "{said:?}");
    let before: Vec<Tile> = (20..32)
        .flat_map(|x| (42..50).map(move |y| (x, y)))
        .map(|(x, y)| s.world.tile(x, y))
        .collect();
    s.world.set(36, 52, Tile::DungeonBrick);
    s.me_mut().body.pos = (150.0, 50.0);
    let bomb = |at: (f32, f32)| Projectile {
        look: Look::Bomb,
        pos: at,
        vel: (0.0, 0.0),
        owner: 0,
        damage: 70.0,
        pierce: 0,
        life: 0.01,
        blast: Some(Blast {
            radius: 4.0,
            power: 50,
        }),
    };
    // Beside the house's right wall, in the ground.
    s.projectiles.push(bomb((34.0, 51.0)));
    let c = run(&mut s, 1, &[]);
    assert!(c.events.iter().any(|e| matches!(e, Event::Blast { .. })));
    assert_eq!(s.world.tile(34, 51), Tile::Air, "the middle is gone");
    assert_eq!(s.world.tile(37, 51), Tile::Air);
    assert_eq!(s.world.tile(34, 54), Tile::Air);
    assert_eq!(s.world.tile(37, 54), Tile::Dirt, "round: the corner stands");
    assert_eq!(s.world.tile(36, 52), Tile::DungeonBrick);
    let after: Vec<Tile> = (20..32)
        .flat_map(|x| (42..50).map(move |y| (x, y)))
        .map(|(x, y)| s.world.tile(x, y))
        .collect();
    assert_eq!(before, after, "the house stands whole");
    assert!(!s.world.dropped.is_empty(), "the dirt lies about");
    assert_eq!(
        s.me().vitals.health,
        s.me().vitals.max_health,
        "far away: unhurt"
    );
    // The player caught in a blast is hurt.
    s.me_mut().body.pos = (100.0, 50.0);
    s.me_mut().vitals.invincible = 0.0;
    s.projectiles.push(bomb((100.0, 50.5)));
    run(&mut s, 1, &[]);
    assert!(s.me().vitals.health < s.me().vitals.max_health);
}

#[test]
fn an_arrow_stops_at_a_wall_and_hurts_nothing_behind_it() {
    let mut s = flat();
    let me = s.me().body.pos;
    let wall_x = me.0 as usize + 6;
    for y in 40..50 {
        s.world.set(wall_x, y, Tile::Stone);
    }
    s.creatures.list.push(Creature::new(
        &s.content.bestiary,
        Creature_::Slime,
        (me.0 + 10.0, 50.0),
    ));
    s.projectiles.push(Projectile {
        look: Look::Arrow,
        pos: (me.0, 49.0),
        vel: (900.0, 0.0),
        owner: 0,
        damage: 1000.0,
        pierce: 0,
        life: 2.0,
        blast: None,
    });
    let c = run(&mut s, 20, &[]);
    assert!(s.projectiles.is_empty(), "it stopped");
    assert!(!c.events.iter().any(|e| matches!(e, Event::Hit { .. })));
    assert_eq!(s.creatures.list.len(), 1);
}

#[test]
fn a_star_picked_up_is_mana_at_once_and_never_stays_in_the_inventory() {
    let mut s = flat();
    assert!(s.me_mut().mana.spend(crate::sim::mana::START));
    assert!(s.me().mana.low());
    let star = s.content.catalog.id(MANA_STAR).unwrap();
    let at = s.me().body.centre();
    s.world.dropped.push(crate::sim::drops::Dropped::new(
        Stack {
            item: star,
            count: 1,
        },
        at,
        Some(0),
    ));
    run(&mut s, 30, &[]);
    assert_eq!(s.me().inventory.count(MANA_STAR), 0);
    assert!(s.world.dropped.is_empty(), "picked up");
    assert_eq!(
        s.me().mana.now,
        crate::sim::mana::START as f32,
        "full again"
    );
}
