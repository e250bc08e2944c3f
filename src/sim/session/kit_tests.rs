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
    // The Guide off to the side: a right click by the player is not a word with him.
    for m in &mut s.townsfolk {
        m.body.pos = (40.5, FLOOR as f32);
    }
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

/// Shoots `arrow`s from a wooden bow at a tough slime 12 tiles off, one at a time, until
/// one sets it on fire or `tries` arrows have flown; returns the session and the arrows shot.
fn shoot_until_burning(arrow: &str, tries: usize) -> (Session, usize) {
    let mut s = field();
    s.me_mut().vitals.invincible = 1e6;
    let inv = &mut s.me_mut().inventory;
    inv.add("wooden_bow", 1);
    inv.add(arrow, tries as u32);
    let bow = inv.catalog().id("wooden_bow");
    let slot = (0..9).find(|&i| inv.slots()[i].map(|st| st.item) == bow);
    s.act(LOCAL, Intent::Select(slot.unwrap()));
    let me = s.me().body.pos;
    let mut slime = crate::sim::creatures::Creature::new(
        &s.content.bestiary,
        crate::sim::creatures::Kind::Slime,
        (me.0 + 12.0, me.1),
    );
    slime.health = 10_000.0;
    s.creatures.list = vec![slime];
    let mut shot = 0;
    while shot < tries && s.creatures.list[0].burning.is_none() {
        let (l, t, r, b) = s.creatures.list[0].hitbox();
        let at = Some((((l + r) / 2.0) as i64, ((t + b) / 2.0) as i64));
        let before = s.me().inventory.count(arrow);
        s.step(&[(LOCAL, Intent::Use { at })]);
        shot += (before - s.me().inventory.count(arrow)) as usize;
        // Let it land before the next.
        for _ in 0..40 {
            if s.creatures.list[0].burning.is_some() || s.projectiles.is_empty() {
                break;
            }
            s.step(&[]);
        }
        s.creatures.list[0].body.vel = (0.0, 0.0);
    }
    (s, shot)
}

#[test]
fn a_flaming_arrow_sets_a_creature_on_fire_for_terrarias_four_a_second() {
    let (mut s, shot) = shoot_until_burning("flaming_arrow", 40);
    let burning = s.creatures.list[0].burning;
    let (who, left) =
        burning.unwrap_or_else(|| panic!("{shot} flaming arrows, none set it on fire"));
    assert_eq!(who, LOCAL.0);
    assert!(shot >= 1 && left > 2.5, "{shot} arrows, {left} s left");
    let rules = s.content.rules.clone();
    // One second on: 4 health gone to the fire alone.
    let h0 = s.creatures.list[0].health;
    for _ in 0..60 {
        s.creatures.list[0].body.vel = (0.0, 0.0);
        s.step(&[]);
    }
    let lost = h0 - s.creatures.list[0].health;
    assert!(
        (lost - rules.on_fire_damage).abs() < 0.2,
        "lost {lost} in a second"
    );
    // Out after its three seconds, and it burns no more.
    for _ in 0..150 {
        s.step(&[]);
    }
    assert_eq!(s.creatures.list[0].burning, None);
    let h1 = s.creatures.list[0].health;
    for _ in 0..60 {
        s.step(&[]);
    }
    assert_eq!(s.creatures.list[0].health, h1, "no fire, no loss");
}

#[test]
fn wooden_arrows_never_set_anything_on_fire() {
    let (s, shot) = shoot_until_burning("wooden_arrow", 12);
    assert_eq!(shot, 12);
    assert_eq!(s.creatures.list[0].burning, None);
    assert!(s.creatures.list[0].health < 10_000.0, "the arrows hit");
}

/// Places a piggy bank from the player's hand at `(x, FLOOR - 1)` with a right click.
fn place_bank(s: &mut Session, x: usize) {
    let inv = &mut s.me_mut().inventory;
    assert_eq!(inv.add("piggy_bank", 1), 0);
    let id = inv.catalog().id("piggy_bank");
    let slot = (0..9).find(|&i| inv.slots()[i].map(|st| st.item) == id);
    s.act(LOCAL, Intent::Select(slot.unwrap()));
    let (x, y) = (x as i64, FLOOR as i64 - 1);
    let c = s.step(&[(
        LOCAL,
        Intent::Place {
            x,
            y,
            pressed: true,
        },
    )]);
    let t = s.world.tile(x as usize, y as usize);
    assert_eq!(t, Tile::PiggyBank, "{:?}", c.messages);
}

#[test]
fn a_piggy_bank_opens_its_players_own_store_the_same_from_every_bank() {
    let mut s = field();
    s.me_mut().vitals.invincible = 1e6;
    place_bank(&mut s, 198);
    place_bank(&mut s, 203);
    let y = FLOOR as i64 - 1;
    let gel = s.content.catalog.id("gel").unwrap();
    // Opened with a right click; a stack put into its first slot.
    s.creatures.list.clear();
    s.step(&[(
        LOCAL,
        Intent::Place {
            x: 198,
            y,
            pressed: true,
        },
    )]);
    assert_eq!(s.me().chest, Some((198, FLOOR - 1)));
    s.me_mut().held = Some(Stack {
        item: gel,
        count: 7,
    });
    s.act(LOCAL, Intent::ClickChest(0));
    assert_eq!(s.me().held, None);
    assert_eq!(
        s.me().bank.slots()[0],
        Some(Stack {
            item: gel,
            count: 7
        })
    );
    assert!(
        s.world.chests.get(198, FLOOR - 1).is_none(),
        "no chest in the world"
    );
    // Its 40 slots: the last takes a stack too.
    s.me_mut().held = Some(Stack {
        item: gel,
        count: 1,
    });
    s.act(LOCAL, Intent::ClickChest(39));
    assert_eq!(s.me().bank.slots()[39].map(|st| st.count), Some(1));
    s.act(LOCAL, Intent::Close);
    // The other piggy bank holds the same; loot all takes it into the inventory.
    s.act(LOCAL, Intent::OpenChest { x: 203, y });
    assert_eq!(s.me().chest, Some((203, FLOOR - 1)));
    let carried = s.me().inventory.count("gel");
    s.act(LOCAL, Intent::LootAll);
    assert_eq!(s.me().inventory.count("gel"), carried + 8);
    assert!(s.me().bank.is_empty());
    // Deposit all: everything but the hotbar goes in.
    s.me_mut().inventory.add("wood", 20);
    let wood_in_hotbar = (0..9).any(|i| {
        s.me().inventory.slots()[i].is_some_and(|st| s.content.catalog.item(st.item).name == "wood")
    });
    s.act(LOCAL, Intent::DepositAll);
    let banked: u32 = s
        .me()
        .bank
        .slots()
        .iter()
        .flatten()
        .map(|st| st.count)
        .sum();
    assert!(banked > 0 || wood_in_hotbar, "{banked}");
    // Another player at the same bank opens its own, empty, and both have it open.
    let other = s.join();
    s.players[other.0].body = s.me().body.clone();
    let c = s.act(other, Intent::OpenChest { x: 203, y });
    assert!(super::tests::notices(&c).is_empty());
    assert_eq!(s.players[other.0].chest, Some((203, FLOOR - 1)));
    assert_eq!(s.me().chest, Some((203, FLOOR - 1)));
    assert!(s.players[other.0].bank.is_empty());
    s.players[other.0].held = Some(Stack {
        item: gel,
        count: 3,
    });
    s.act(other, Intent::ClickChest(5));
    assert_eq!(
        s.players[other.0].bank.slots()[5].map(|st| st.count),
        Some(3)
    );
    assert_eq!(s.me().bank.slots()[5], None, "each player's own");
}

#[test]
fn the_bank_is_kept_with_the_character_and_an_old_file_has_an_empty_one() {
    let mut s = field();
    let gel = s.content.catalog.id("gel").unwrap();
    let cat = Arc::clone(&s.content.catalog);
    s.me_mut().bank.add(&cat, gel, 12);
    let state = s.player_state(LOCAL);
    let c = crate::net::protocol::character_of(&state);
    let json = serde_json::to_string(&c).unwrap();
    let back: crate::store::character::Character = serde_json::from_str(&json).unwrap();
    let again = crate::net::chars::state_of(&cat, &back, 0.5).unwrap();
    assert_eq!(again.bank, state.bank);
    assert_eq!(
        again.bank.slots()[0],
        Some(Stack {
            item: gel,
            count: 12
        })
    );
    // A character file from before the bank: it loads with an empty one.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v.as_object_mut().unwrap().remove("bank");
    let old: crate::store::character::Character = serde_json::from_value(v).unwrap();
    let state = crate::net::chars::state_of(&cat, &old, 0.5).unwrap();
    assert!(state.bank.is_empty());
    // A bank of an item this build does not know is refused, as the slots' are.
    let mut odd = back.clone();
    odd.bank[1] = Some(("jelly".into(), 1));
    assert!(crate::net::chars::state_of(&cat, &odd, 0.5).is_none());
}

#[test]
fn the_merchant_sells_the_piggy_bank_for_a_gold_coin() {
    let s = field();
    let bank = s.content.catalog.id("piggy_bank").unwrap();
    let m = &s.content.town.merchant;
    assert!(m.sells.contains(&bank), "{:?}", m.sells);
    let price = m.prices.iter().find(|p| p.0 == bank).map(|p| p.1);
    assert_eq!(price, Some(10_000), "1 gold in copper");
}
