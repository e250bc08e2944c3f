//! A new player's first hour against the session: knockback that separates, a respawn
//! that lets the player breathe, potions never dropped, jumps out of holes, and the Eye
//! its tier can beat (through [`crate::sim::fight`]).

use super::tests::{notices, run, session};
use super::*;
use crate::content::rules::Rules;
use crate::sim::creatures::{Creature, Kind};
use crate::sim::fight::{ARENA, Loadout, arena, fight, slot_of};

/// A session on the open field of [`arena`] by `rules`, its player landed at the middle.
fn field(seed: u64, rules: Rules) -> Session {
    let world = arena(seed);
    let light = LightMap::compute(&world);
    let content = Arc::new(Content::with_rules(rules));
    let mut s = Session::start_with(content, world, light, None, false);
    s.time_of_day = 0.5;
    run(&mut s, 30, &[]);
    s
}

/// No creature spawns on its own.
fn quiet() -> Rules {
    Rules {
        creature_cap: 0,
        ..Rules::default()
    }
}

/// The ticks at which the local player was hurt, stepping `n` ticks idle; and the
/// highest its feet rose above `floor`.
fn hurt_ticks(s: &mut Session, n: usize) -> (Vec<u64>, f32) {
    let mut hits = Vec::new();
    let floor = s.me().body.pos.1;
    let mut rise: f32 = 0.0;
    for _ in 0..n {
        let c = s.step(&[]);
        if c.events.iter().any(|e| matches!(e, Event::Hurt { .. })) {
            hits.push(s.tick);
        }
        if !hits.is_empty() {
            rise = rise.max(floor - s.me().body.pos.1);
        }
    }
    (hits, rise)
}

#[test]
fn pinned_against_a_wall_a_demon_eye_s_hit_throws_the_player_clear_and_bounces_off() {
    let mut s = field(1, quiet());
    let (_, _, floor) = ARENA;
    let x = s.me().body.pos.0.floor() as usize;
    // A wall right of the player, the player against it, a demon eye coming from the left.
    for y in 0..floor {
        s.world.set(x + 1, y, Tile::Stone);
    }
    s.me_mut().body.pos = (
        x as f32 + 1.0 - crate::sim::player::WIDTH / 2.0 - 0.01,
        floor as f32,
    );
    s.creatures.list.push(Creature::new(
        &s.content.bestiary,
        Kind::DemonEye,
        (x as f32 - 4.0, floor as f32 - 0.5),
    ));
    let (hits, rise) = hurt_ticks(&mut s, 60 * 6);
    assert!(!hits.is_empty(), "the eye reached the player");
    let first = hits[0];
    let within = hits.iter().filter(|&&t| t < first + ticks(3.0)).count();
    assert!(within <= 2, "{within} hits in 3 s: {hits:?}");
    assert!(rise >= 2.0, "thrown clear over the eye: rose {rise}");
    let rules = &s.content.rules;
    for w in hits.windows(2) {
        assert!(
            (w[1] - w[0]) as f64 * TICK >= f64::from(rules.touch_cooldown) - 0.02,
            "one eye's hits at least its cooldown apart: {hits:?}"
        );
    }
    assert!(s.me().vitals.health > 50.0, "{}", s.me().vitals.health);
}

#[test]
fn a_slime_following_down_a_one_wide_shaft_does_not_chain_kill() {
    let mut s = field(2, quiet());
    let (_, _, floor) = ARENA;
    let x = s.me().body.pos.0.floor() as usize;
    // A shaft one tile wide, twenty deep, the player at its bottom, a slime dropping in.
    for y in floor..floor + 20 {
        s.world.set(x, y, Tile::Air);
    }
    s.me_mut().body.pos = (x as f32 + 0.5, (floor + 20) as f32);
    run(&mut s, 30, &[]);
    s.creatures.list.push(Creature::new(
        &s.content.bestiary,
        Kind::Slime,
        (x as f32 + 0.5, floor as f32 + 8.0),
    ));
    let (hits, _) = hurt_ticks(&mut s, 60 * 12);
    assert!(!hits.is_empty(), "the slime reached the player");
    let cooldown = f64::from(s.content.rules.touch_cooldown);
    assert!(hits.len() as f64 <= 12.0 / cooldown + 1.0, "{hits:?}");
    assert!(s.me().death.is_none() && s.me().vitals.health > 30.0);
    // Swinging up at it kills it.
    let sword = slot_of(&s, "copper_sword").expect("a new player carries a sword");
    let at = Some((x as i64, (floor + 17) as i64));
    run(&mut s, 60 * 4, &[Intent::Select(sword), Intent::Use { at }]);
    assert!(
        s.creatures.list.is_empty(),
        "killed: {:?}",
        s.creatures.list
    );
}

#[test]
fn an_idle_player_at_the_spawn_point_survives_a_night_with_few_deaths() {
    let mut s = session();
    let rules = s.content.rules.clone();
    // Just before dusk, to the next morning.
    s.time_of_day = 0.5 + rules.daylight / 2.0 - 0.001;
    let (mut deaths, mut hurt, mut night) = (0, 0, false);
    for _ in 0..ticks(f64::from(rules.day_seconds()) * 0.45) {
        let c = s.step(&[]);
        night |= crate::sim::day::is_night(s.time_of_day, &rules);
        for e in &c.events {
            match e {
                Event::Died { .. } => deaths += 1,
                Event::Hurt { .. } => hurt += 1,
                _ => {}
            }
        }
        if night && !crate::sim::day::is_night(s.time_of_day, &rules) {
            break;
        }
    }
    assert!(
        !crate::sim::day::is_night(s.time_of_day, &rules),
        "a whole night"
    );
    assert!(hurt > 0, "the night's creatures came");
    assert!(deaths <= 3, "{deaths} deaths, {hurt} hits");
}

#[test]
fn a_potion_pressed_right_after_a_swing_is_drunk_and_the_quick_heal_takes_any() {
    let mut s = field(3, quiet());
    s.me_mut().inventory.add("lesser_healing_potion", 2);
    s.me_mut().vitals.health = 40.0;
    let sword = slot_of(&s, "copper_sword").unwrap();
    let potion = slot_of(&s, "lesser_healing_potion").unwrap();
    run(
        &mut s,
        1,
        &[Intent::Select(sword), Intent::Use { at: None }],
    );
    // One tick's click on the potion while the swing holds the hands.
    run(
        &mut s,
        1,
        &[Intent::Select(potion), Intent::Use { at: None }],
    );
    assert!(s.me().vitals.health < 45.0, "the hands are busy");
    let c = run(&mut s, 60, &[]);
    assert!(s.me().vitals.health >= 90.0, "drunk once free: {c:?}");
    assert_eq!(s.me().inventory.count("lesser_healing_potion"), 1);
    assert!(s.me().vitals.potion_sick > 50.0, "the HUD's timer runs");
    // The quick heal with the sword selected: sick, it says so.
    s.me_mut().vitals.health = 40.0;
    run(&mut s, 1, &[Intent::Select(sword)]);
    let c = s.act(LOCAL, Intent::QuickHeal);
    assert!(
        notices(&c).iter().any(|n| n.contains("no other potion")),
        "{c:?}"
    );
    s.me_mut().vitals.potion_sick = 0.0;
    s.me_mut().vitals.health = 40.0;
    s.act(LOCAL, Intent::QuickHeal);
    assert_eq!(s.me().vitals.health, 90.0);
    assert_eq!(s.me().inventory.count("lesser_healing_potion"), 0);
    s.me_mut().vitals.potion_sick = 0.0;
    let c = s.act(LOCAL, Intent::QuickHeal);
    assert!(
        notices(&c).iter().any(|n| n.contains("No healing potion")),
        "{c:?}"
    );
}

/// The highest a held jump lifts the feet from where they stand.
fn jump_height(s: &mut Session) -> f32 {
    let y0 = s.me().body.pos.1;
    let held = Intent::Move {
        axis: 0,
        jump: true,
    };
    let mut top = y0;
    for i in 0..60 {
        let list: &[Intent] = if i == 0 {
            &[held, Intent::Jump]
        } else {
            &[held]
        };
        run(s, 1, list);
        top = top.min(s.me().body.pos.1);
    }
    y0 - top
}

#[test]
fn a_jump_from_a_one_wide_two_deep_hole_rises_as_from_flat_ground() {
    let mut s = field(4, quiet());
    let flat = jump_height(&mut s);
    run(&mut s, 60, &[]);
    let (_, _, floor) = ARENA;
    let x = s.me().body.pos.0.floor() as usize;
    s.world.set(x, floor, Tile::Air);
    s.world.set(x, floor + 1, Tile::Air);
    s.me_mut().body.pos = (x as f32 + 0.5, (floor + 2) as f32);
    run(&mut s, 30, &[]);
    assert!(s.me().body.on_ground);
    let hole = jump_height(&mut s);
    assert!(flat > 5.0, "{flat}");
    assert!(
        (hole - flat).abs() < 0.5,
        "from the hole {hole}, flat {flat}"
    );
}

/// Iron gear and potions against the Eye, on seeds 1..=`n`, with or without the armour.
fn fights(n: u64, armour: bool) -> Vec<crate::sim::fight::Outcome> {
    let gear = if armour {
        Loadout::iron(5)
    } else {
        Loadout {
            armour: Vec::new(),
            ..Loadout::iron(5)
        }
    };
    (1..=n)
        .map(|seed| fight(arena(seed), &gear, 240.0))
        .collect()
}

#[test]
fn iron_gear_and_potions_beat_the_eye_in_most_seeds_and_no_armour_loses() {
    // Terraria's Eye is a fight for iron gear, 200 health and a few potions: won in one to
    // three minutes by a player who dodges its dashes, lost without the armour.
    let armoured = fights(10, true);
    let won = armoured
        .iter()
        .filter(|o| o.won && (60.0..=180.0).contains(&o.seconds))
        .count();
    assert!(won >= 7, "{won} of 10 won in 1-3 min: {armoured:#?}");
    assert!(
        armoured
            .iter()
            .all(|o| o.swings_landed > 0 && o.boss_hits > 0),
        "both sides hit: {armoured:#?}"
    );
    let bare = fights(6, false);
    let lost = bare.iter().filter(|o| o.died).count();
    assert!(lost >= 5, "{lost} of 6 lost without armour: {bare:#?}");
}

/// What a new world gives a new player, to a fixed point: its start kit, the drops of
/// every tile the world holds that its best pickaxe digs (a tree's trunk its wood, its
/// crown its leaves), what the surface's creatures drop (slimes' gel, demon eyes' lenses)
/// and every recipe whose parts it has at a station it can make.
fn reachable(s: &Session) -> std::collections::BTreeSet<String> {
    use crate::content::items::Kind as ItemKind;
    use crate::world::inventory::AsItem;
    let cat = &s.content.catalog;
    let w = &s.world;
    let mut have: std::collections::BTreeSet<String> = s
        .me()
        .inventory
        .slots()
        .iter()
        .flatten()
        .map(|st| cat.item(st.item).name.clone())
        .collect();
    let mut tiles = std::collections::BTreeSet::new();
    let mut crowns = false;
    for y in 0..w.height() {
        for x in 0..w.width() {
            let t = w.tile(x, y);
            tiles.insert(t as usize);
            if t == Tile::Trunk
                && w.get(x as i64, y as i64 + 1)
                    .is_some_and(|b| b != Tile::Trunk)
            {
                crowns |= crate::sim::edit::fell::crown(w, x, y).is_some();
            }
        }
    }
    if crowns {
        have.insert("leaves".into());
    }
    for kind in [Kind::Slime, Kind::DemonEye] {
        have.insert(s.content.bestiary.stats(kind).drop.into());
    }
    loop {
        let before = have.len();
        let power = have
            .iter()
            .filter_map(|n| match cat.item(cat.id(n)?).kind {
                ItemKind::Pickaxe { power, .. } => Some(power),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        for t in crate::base::tile::Tile::ALL {
            let diggable = t.info().dig_time.is_some() && t != Tile::Leaves;
            if tiles.contains(&(t as usize)) && diggable && cat.power_needed(t) <= power {
                let drop = crate::base::tile::drop_of(t);
                if let Some(i) = drop.as_item(cat) {
                    have.insert(cat.item(i).name.clone());
                }
            }
        }
        for r in &cat.recipes {
            let station = r.at.is_none_or(|t| {
                t.as_item(cat)
                    .is_some_and(|i| have.contains(&cat.item(i).name))
            });
            let parts = r
                .from
                .iter()
                .all(|(i, _)| have.contains(&cat.item(*i).name));
            if station && parts {
                have.insert(cat.item(r.make).name.clone());
            }
        }
        if have.len() == before {
            return have;
        }
    }
}

/// The first hour: what a new player makes on the way to an iron pickaxe, a bed, a house
/// for the Guide, potions and the Eye.
const FIRST_HOUR: &[&str] = &[
    "wood",
    "workbench",
    "torch",
    "platform",
    "door",
    "table",
    "chair",
    "bed",
    "wood_wall",
    "furnace",
    "copper_bar",
    "iron_bar",
    "anvil",
    "copper_pickaxe",
    "iron_pickaxe",
    "iron_sword",
    "iron_helmet",
    "iron_chainmail",
    "iron_greaves",
    "chest",
    "rope",
    "glass",
    "bottle",
    "lesser_healing_potion",
    "suspicious_looking_eye",
];

#[test]
fn every_item_of_the_first_hour_is_reachable_from_a_new_world() {
    let s = session();
    let have = reachable(&s);
    for item in FIRST_HOUR {
        // A world has copper or tin, iron or lead: either of a pair will do.
        let twin = item.replace("copper", "tin").replace("iron", "lead");
        assert!(
            have.contains(*item) || have.contains(&twin),
            "{item} cannot be reached from a new world (reached: {have:?})"
        );
    }
    // And the Guide knows where every recipe's raw parts come from.
    let cat = &s.content.catalog;
    for r in &cat.recipes {
        for &(i, _) in &r.from {
            let name = &cat.item(i).name;
            let made = cat.recipes.iter().any(|m| m.make == i);
            assert!(
                made || crate::sim::guide::source(name).is_some(),
                "the Guide cannot say where {name} (for {}) comes from",
                cat.item(r.make).name
            );
        }
    }
}

#[test]
fn felling_a_tree_drops_its_crown_s_leaves_by_the_player() {
    let mut s = session();
    run(&mut s, 120, &[]);
    // The nearest tree's lowest trunk tile.
    let me = s.me().body.pos;
    let w = &s.world;
    let (x, y) = (0..w.width())
        .flat_map(|x| (0..w.height()).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            w.tile(x, y) == Tile::Trunk && w.get(x as i64, y as i64 + 1) != Some(Tile::Trunk)
        })
        .filter(|&(x, y)| crate::sim::edit::fell::crown(w, x, y).is_some())
        .min_by_key(|&(x, _)| (x as f32 - me.0).abs() as i64)
        .expect("a tree with a crown");
    let (n, _) = crate::sim::edit::fell::crown(w, x, y).unwrap();
    s.me_mut().body.pos = (x as f32 - 0.6, y as f32 + 1.0);
    let world = s.world.clone();
    s.me_mut().body.unstick(&world);
    let before = s.me().inventory.count("leaves");
    let axe = Intent::Use {
        at: Some((x as i64, y as i64)),
    };
    run(&mut s, 60 * 6, &[axe]);
    run(&mut s, 60 * 4, &[]);
    assert_eq!(s.world.tile(x, y), Tile::Air, "felled");
    assert_eq!(s.me().inventory.count("leaves"), before + n);
}

/// Tries the Eye's numbers of `FIGHT_RULES` (rules RON) on five seeds (tuning aid).
#[test]
#[ignore]
fn try_the_eye() {
    let text = std::env::var("FIGHT_RULES").unwrap_or("()".into());
    let rules = Rules::parse(&text, "FIGHT_RULES").unwrap();
    let content = Arc::new(Content::with_rules(rules));
    let n: u64 = std::env::var("FIGHT_SEEDS").map_or(5, |v| v.parse().unwrap());
    for armour in [true, false] {
        let mut line = Vec::new();
        for seed in 1..=n {
            let gear = if armour {
                Loadout::iron(5)
            } else {
                Loadout {
                    armour: Vec::new(),
                    ..Loadout::iron(5)
                }
            };
            let o = crate::sim::fight::fight_by(Arc::clone(&content), arena(seed), &gear, 240.0);
            line.push(format!(
                "{}{:.0}s/{:.0}hp b{} c{} p{} s{}",
                if o.won { "W" } else { "L" },
                o.seconds,
                o.boss_health,
                o.boss_hits,
                o.creature_hits,
                o.potions,
                o.swings_landed
            ));
        }
        println!("armour {armour}: {}", line.join(" | "));
    }
}
