//! The accessories in play: each one's effect measured on a flat stone field.

use super::tests::run;
use super::*;
use crate::sim::player::{HOOK_REACH, MAX_RUN};
use crate::world::inventory::Stack;

/// Row of the field's floor.
const FLOOR: usize = crate::sim::fight::ARENA.2;

/// A flat stone field with the player standing still in the middle, wearing `worn`.
fn field(worn: &[&str]) -> Session {
    let mut s = Session::new(crate::sim::fight::arena(1));
    s.me_mut().body = crate::sim::player::Player::new((200.5, FLOOR as f32));
    for (i, name) in worn.iter().enumerate() {
        wear(&mut s, i, name).unwrap();
    }
    calm(&mut s, 10, &[]);
    s
}

/// Puts `name` on accessory slot `i` through the inventory screen's click.
fn wear(s: &mut Session, i: usize, name: &str) -> Result<(), String> {
    let item = s.content.catalog.id(name).unwrap();
    s.me_mut().held = Some(Stack { item, count: 1 });
    let c = s.act(LOCAL, Intent::ClickAccessory(i));
    match super::tests::notices(&c).first() {
        Some(n) => Err(n.clone()),
        None => Ok(()),
    }
}

/// Steps `n` ticks with no creature about (they would hurt and push the player).
fn calm(s: &mut Session, n: usize, intents: &[Intent]) {
    for _ in 0..n {
        s.creatures.list.clear();
        run(s, 1, intents);
    }
}

/// Gives the player one `name` and selects its hotbar slot; returns the slot.
fn hold(s: &mut Session, name: &str) -> usize {
    let inv = &mut s.me_mut().inventory;
    inv.add(name, 1);
    let id = inv.catalog().id(name);
    let slot = (0..9)
        .find(|&i| inv.slots()[i].map(|st| st.item) == id)
        .unwrap();
    s.act(LOCAL, Intent::Select(slot));
    slot
}

fn right() -> Intent {
    Intent::Move {
        axis: 1,
        jump: false,
    }
}

#[test]
fn hermes_boots_run_farther_in_the_same_time_and_past_the_usual_top_speed() {
    let ran = |worn: &[&str]| {
        let mut s = field(worn);
        let x0 = s.me().body.pos.0;
        calm(&mut s, 120, &[right()]);
        (s.me().body.pos.0 - x0, s.me().body.vel.0)
    };
    let (plain, plain_v) = ran(&[]);
    let (boots, boots_v) = ran(&["hermes_boots"]);
    assert!(plain_v <= MAX_RUN + 1e-3, "{plain_v}");
    assert!(boots_v > MAX_RUN * 1.5, "{boots_v}");
    assert!(
        boots > plain * 1.5,
        "2 s: {boots} tiles with boots, {plain} without"
    );
}

/// Jumps, then after `wait` ticks presses jump again; returns the highest point (least
/// feet row) before and in the 16 ticks after the second press (still in the air).
fn second_jump(s: &mut Session, wait: usize) -> (f32, f32) {
    calm(s, 1, &[Intent::Jump]);
    let mut top = f32::MAX;
    for _ in 0..wait {
        calm(s, 1, &[]);
        top = top.min(s.me().body.pos.1);
    }
    calm(s, 1, &[Intent::Jump]);
    let mut after = f32::MAX;
    for _ in 0..16 {
        calm(s, 1, &[]);
        after = after.min(s.me().body.pos.1);
    }
    (top, after)
}

#[test]
fn a_cloud_in_a_bottle_jumps_again_in_the_air_once_until_landing() {
    // At the top of a jump (about half a second up) a second press rises again.
    let mut s = field(&["cloud_in_a_bottle"]);
    let (top, after) = second_jump(&mut s, 25);
    assert!(after < top - 1.0, "rose again: top {top}, then {after}");
    // A third press before landing does nothing more.
    let y = s.me().body.pos.1;
    calm(&mut s, 1, &[Intent::Jump]);
    calm(&mut s, 10, &[]);
    assert!(
        s.me().body.pos.1 > y,
        "still falling: {y} -> {}",
        s.me().body.pos.1
    );
    // Landed, the cloud is there again.
    calm(&mut s, 240, &[]);
    assert!(s.me().body.on_ground);
    let (top, after) = second_jump(&mut s, 25);
    assert!(after < top - 1.0, "again after landing: {top} then {after}");
    // Without it, a press in the air does nothing.
    let mut s = field(&[]);
    let (top, after) = second_jump(&mut s, 25);
    assert!(after >= top, "no cloud: {top} then {after}");
}

#[test]
fn a_lucky_horseshoe_makes_a_forty_tile_fall_cost_nothing() {
    let fall = |worn: &[&str]| {
        let mut s = field(worn);
        s.me_mut().body = crate::sim::player::Player::new((200.5, FLOOR as f32 - 40.0));
        let before = s.me().vitals.health;
        calm(&mut s, 240, &[]);
        assert!(s.me().body.on_ground);
        before - s.me().vitals.health
    };
    assert!(fall(&[]) > 20.0, "{}", fall(&[]));
    assert_eq!(fall(&["lucky_horseshoe"]), 0.0);
}

#[test]
fn a_band_of_regeneration_gives_health_back_even_just_after_harm() {
    let healed = |worn: &[&str]| {
        let mut s = field(worn);
        s.me_mut().vitals.hurt(50.0);
        let before = s.me().vitals.health;
        calm(&mut s, 180, &[]);
        s.me().vitals.health - before
    };
    // Three seconds after harm: the usual regeneration has not begun, the band's has.
    assert_eq!(healed(&[]), 0.0);
    let band = healed(&["band_of_regeneration"]);
    assert!((band - 3.0).abs() < 0.1, "{band}");
}

/// A field with a stone block at `(x, y)` and the player wearing a grappling hook.
fn hook_field(block: (usize, usize), worn: &[&str]) -> Session {
    let mut s = field(worn);
    s.world.set(block.0, block.1, Tile::Stone);
    s
}

#[test]
fn the_hook_pulls_the_player_to_a_tile_in_reach_and_a_jump_lets_go() {
    let mut s = hook_field((210, FLOOR - 10), &["grappling_hook"]);
    let at = (210.5, (FLOOR - 10) as f32 + 0.5);
    s.act(LOCAL, Intent::Hook { at });
    assert!(s.me().body.hook.is_some());
    calm(&mut s, 60, &[]);
    let c = s.me().body.centre();
    let d = ((c.0 - at.0).powi(2) + (c.1 - at.1).powi(2)).sqrt();
    assert!(d < 1.5, "pulled to the block: centre {c:?}, {d} tiles off");
    // Held there: a second later it has not fallen.
    calm(&mut s, 60, &[]);
    assert!((s.me().body.centre().1 - c.1).abs() < 0.01);
    // A jump lets go, and the body falls back to the floor.
    calm(&mut s, 1, &[Intent::Jump]);
    assert!(s.me().body.hook.is_none());
    calm(&mut s, 180, &[]);
    assert!(s.me().body.on_ground);
}

#[test]
fn the_hook_catches_nothing_beyond_its_reach_through_air_or_unworn() {
    // A block farther than the reach, straight along the line: nothing caught.
    let far = 200 + HOOK_REACH as usize + 3;
    let mut s = hook_field((far, FLOOR - 1), &["grappling_hook"]);
    let y = s.me().body.centre().1;
    s.act(
        LOCAL,
        Intent::Hook {
            at: (far as f32 + 0.5, y),
        },
    );
    assert!(s.me().body.hook.is_none());
    // Straight up is air for far more than the reach.
    s.act(LOCAL, Intent::Hook { at: (200.5, 0.0) });
    assert!(s.me().body.hook.is_none());
    // In reach but not worn: nothing.
    let mut s = hook_field((205, FLOOR - 3), &[]);
    s.act(
        LOCAL,
        Intent::Hook {
            at: (205.5, (FLOOR - 3) as f32 + 0.5),
        },
    );
    assert!(s.me().body.hook.is_none());
}

#[test]
fn accessories_are_worn_once_each_taken_off_and_nothing_else_fits() {
    let mut s = field(&["hermes_boots"]);
    let e = wear(&mut s, 1, "hermes_boots").unwrap_err();
    assert!(e.contains("worn already"), "{e}");
    let e = wear(&mut s, 1, "iron_helmet").unwrap_err();
    assert!(e.contains("not armour") || e.contains("Can't wear"), "{e}");
    wear(&mut s, 4, "lucky_horseshoe").unwrap();
    let boots = s.content.catalog.id("hermes_boots");
    assert_eq!(s.me().inventory.accessories()[0], boots);
    // An empty cursor takes the boots off: the body runs as usual again.
    s.me_mut().held = None;
    s.act(LOCAL, Intent::ClickAccessory(0));
    assert_eq!(s.me().held.map(|h| Some(h.item)), Some(boots));
    assert_eq!(s.me().inventory.accessories()[0], None);
    calm(&mut s, 1, &[]);
    assert!(!s.me().body.gear.boots);
    // A right click with an accessory selected wears it in the first free slot.
    let band = s.content.catalog.id("band_of_regeneration");
    let slot = hold(&mut s, "band_of_regeneration");
    run(
        &mut s,
        1,
        &[Intent::Place {
            x: 0,
            y: 0,
            pressed: true,
        }],
    );
    assert_eq!(s.me().inventory.accessories()[0], band);
    assert!(s.me().inventory.slots()[slot].is_none());
}

#[test]
fn a_magic_mirror_takes_the_player_home_after_its_channel() {
    let mut s = field(&[]);
    let home = crate::sim::respawn::respawn_at(&s.world, None).0;
    s.me_mut().body = crate::sim::player::Player::new((120.5, FLOOR as f32));
    calm(&mut s, 5, &[]);
    hold(&mut s, "magic_mirror");
    let away = s.me().body.pos;
    assert!((away.0 - home.0).abs() > 50.0, "{away:?} {home:?}");
    // One press: a second later it is still gazing, where it was.
    calm(&mut s, 1, &[Intent::Use { at: None }]);
    calm(&mut s, 60, &[]);
    assert_eq!(s.me().body.pos, away);
    // Past the channel's 1.5 s, home, and the mirror is kept.
    calm(&mut s, 40, &[]);
    let at = s.me().body.pos;
    assert!((at.0 - home.0).abs() < 0.5, "{at:?} {home:?}");
    assert!(s.me().body.on_ground || (at.1 - home.1).abs() < 1.0);
    assert_eq!(s.me().inventory.count("magic_mirror"), 1);
}

#[test]
fn a_bucket_scoops_a_tile_of_water_and_pours_it_back_elsewhere() {
    let mut s = field(&[]);
    // Two one-tile holes in the floor beside the player: one of water, one empty.
    let (wet, dry) = ((202, FLOOR), (198, FLOOR));
    s.world.set(wet.0, wet.1, Tile::Water);
    s.world.set(dry.0, dry.1, Tile::Air);
    hold(&mut s, "empty_bucket");
    let use_at = |(x, y): (usize, usize)| Intent::Use {
        at: Some((x as i64, y as i64)),
    };
    let buckets = |s: &Session| {
        let inv = &s.me().inventory;
        (inv.count("water_bucket"), inv.count("empty_bucket"))
    };
    calm(&mut s, 1, &[use_at(wet)]);
    assert_eq!(s.world.tile(wet.0, wet.1), Tile::Air);
    assert_eq!(buckets(&s), (1, 0));
    // Poured into the dry hole, the water is there and the bucket empty again.
    calm(&mut s, 30, &[]);
    calm(&mut s, 1, &[use_at(dry)]);
    assert_eq!(s.world.tile(dry.0, dry.1), Tile::Water);
    assert_eq!(buckets(&s), (0, 1));
    // An empty bucket on a solid tile, or a liquid out of reach, does nothing.
    calm(&mut s, 30, &[]);
    s.world.set(300, FLOOR, Tile::Water);
    calm(&mut s, 1, &[use_at((300, FLOOR))]);
    calm(&mut s, 30, &[]);
    calm(&mut s, 1, &[use_at((201, FLOOR))]);
    assert_eq!(s.world.tile(300, FLOOR), Tile::Water);
    assert_eq!(s.me().inventory.count("empty_bucket"), 1);
}
