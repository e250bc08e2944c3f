//! Armour sets, burning arrows and the piggy bank in play.

use super::tests::run;
use super::*;
use crate::sim::player::MAX_RUN;
use crate::world::inventory::Stack;

/// Row of the field's floor.
const FLOOR: usize = crate::sim::fight::ARENA.2;

/// A flat stone field with the player standing still in the middle.
fn field() -> Session {
    let mut s = Session::new(crate::sim::fight::arena(1));
    s.me_mut().body = crate::sim::player::Player::new((200.5, FLOOR as f32));
    s
}

/// Puts the armour pieces `names` on (head, body, legs in turn) through the inventory
/// screen's clicks.
fn wear(s: &mut Session, names: &[&str]) {
    for (i, name) in names.iter().enumerate() {
        let item = s.content.catalog.id(name).unwrap();
        s.me_mut().held = Some(Stack { item, count: 1 });
        let c = s.act(LOCAL, Intent::ClickArmour(i));
        assert!(super::tests::notices(&c).is_empty(), "{name}");
    }
}

/// Steps `n` ticks with no creature about.
fn calm(s: &mut Session, n: usize, intents: &[Intent]) {
    for _ in 0..n {
        s.creatures.list.clear();
        run(s, 1, intents);
    }
}

#[test]
fn a_whole_metal_set_adds_its_bonus_defence_and_a_part_of_one_does_not() {
    let mut s = field();
    wear(&mut s, &["copper_helmet", "copper_chainmail"]);
    assert_eq!(s.me().vitals.defence, 3, "two pieces: their own 1 + 2");
    assert!(s.me().inventory.set_worn().is_none());
    wear(
        &mut s,
        &["copper_helmet", "copper_chainmail", "copper_greaves"],
    );
    assert_eq!(s.me().vitals.defence, 4 + 2, "the set's +2 on its 4");
    let set = s.me().inventory.set_worn().map(|s| s.label.clone());
    assert_eq!(set.as_deref(), Some("copper armour"));
    // A tin helmet on copper: no longer one set.
    wear(&mut s, &["tin_helmet"]);
    assert_eq!(s.me().vitals.defence, 2 + 2 + 1);
    // Platinum's set gives 4, on 5 + 5 + 3.
    wear(
        &mut s,
        &["platinum_helmet", "platinum_chainmail", "platinum_greaves"],
    );
    assert_eq!(s.me().vitals.defence, 13 + 4);
}

#[test]
fn the_shadow_set_runs_faster_than_its_pieces_alone() {
    let right = Intent::Move {
        axis: 1,
        jump: false,
    };
    let ran = |pieces: &[&str]| {
        let mut s = field();
        wear(&mut s, pieces);
        calm(&mut s, 5, &[]);
        let x0 = s.me().body.pos.0;
        calm(&mut s, 120, &[right]);
        (s.me().body.pos.0 - x0, s.me().body.vel.0)
    };
    let (part, part_v) = ran(&["shadow_helmet", "shadow_scalemail"]);
    let (whole, whole_v) = ran(&["shadow_helmet", "shadow_scalemail", "shadow_greaves"]);
    assert!(part_v <= MAX_RUN + 1e-3, "{part_v}");
    assert!(
        (whole_v - MAX_RUN * 1.15).abs() < 0.05,
        "{whole_v}: 15% over {MAX_RUN}"
    );
    assert!(
        whole > part * 1.1,
        "2 s: {whole} tiles with the set, {part} without"
    );
}
