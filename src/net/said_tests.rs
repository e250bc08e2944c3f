//! Each kind of message in words, against the lines the session wrote before it spoke in
//! typed messages (the window tests and the keeper read these: they must not move).

use super::*;
use crate::base::wall::Wall;
use crate::content::items::ArmourSlot;
use crate::sim::creatures::Hit;
use crate::sim::projectiles::Look;
use crate::sim::respawn::BedLost;
use crate::sim::session::PlayerId;
use crate::sim::vitals::Harm;
use crate::world::Tile;
use crate::world::inventory::Stack;

fn content() -> Content {
    Content::builtin()
}

/// `m`'s log line and screen text.
fn words(c: &Content, m: impl Into<Message>) -> (Option<String>, Option<String>) {
    let s = said(&m.into(), c);
    (s.log, s.shown.map(|s| s.text().to_string()))
}

fn log(c: &Content, m: impl Into<Message>) -> String {
    let (log, shown) = words(c, m);
    assert_eq!(shown, None, "{log:?}: a log line alone");
    log.expect("a log line")
}

fn notice(c: &Content, m: impl Into<Message>) -> String {
    let (log, shown) = words(c, m);
    assert_eq!(log, None, "{shown:?}: a notice alone");
    shown.expect("a notice")
}

fn both(c: &Content, m: impl Into<Message>) -> (String, String) {
    let (log, shown) = words(c, m);
    (log.expect("a log line"), shown.expect("a notice"))
}

fn s(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

#[test]
fn the_hands_lines_read_as_before() {
    let c = content();
    let cat = &c.catalog;
    let relit = Some((3, 4));
    let (x, y) = (10, 20);
    let tile = Tile::Torch;
    assert_eq!(
        log(&c, Hand::Placed { tile, x, y, relit }),
        "placed torch at 10 20 (relit 3x4)"
    );
    let tile = Tile::Dirt;
    let relit = None;
    assert_eq!(
        log(&c, Hand::Dug { tile, x, y, relit }),
        "dug dirt at 10 20"
    );
    let wall = Wall::Wood;
    let placed = log(&c, Hand::PlacedWall { wall, x, y, relit });
    assert_eq!(placed, format!("placed {} at 10 20", wall.label()));
    let down = log(&c, Hand::TookDown { wall, x, y, relit });
    assert_eq!(down, format!("took down {} at 10 20", wall.name()));
    let felled = Hand::Felled {
        count: 5,
        tile: Tile::Wood,
        x,
        y,
    };
    assert_eq!(log(&c, felled), "felled 5 wood at 10 20");
    let door = Hand::Door {
        tile: Tile::OpenDoor,
        x,
        y,
    };
    assert_eq!(log(&c, door), "open door at 10 20");
    let slot = ArmourSlot::Head;
    assert_eq!(
        both(&c, Hand::WoreArmour { slot, defence: 7 }),
        s("wore Head armour: defence 7", "Defence 7")
    );
    assert_eq!(
        log(
            &c,
            Hand::ArmourSlot {
                slot: 1,
                defence: 2
            }
        ),
        "armour slot 1: defence 2"
    );
    assert_eq!(log(&c, Hand::AccessorySlot { slot: 2 }), "accessory slot 2");
    assert_eq!(
        log(&c, Hand::WoreAccessory { slot: 2 }),
        "wore an accessory in slot 2"
    );
    let e = crate::world::inventory::WearRefusal::NotArmour;
    assert_eq!(
        notice(&c, Hand::CantWear(e)),
        format!("Can't wear that: {e}")
    );
    assert_eq!(
        both(&c, Hand::LifeCrystal { most: 120.0 }),
        s("used a life crystal: most health 120", "Most health 120")
    );
    assert_eq!(
        both(&c, Hand::ManaCrystal { most: 40 }),
        s("used a mana crystal: most mana 40", "Most mana 40")
    );
    let e = crate::sim::mana::AtMost;
    assert_eq!(
        notice(&c, Hand::CantUseMana(e)),
        format!("Can't use it: {e}")
    );
    assert_eq!(
        both(&c, Hand::NoPotion),
        s(
            "quick heal: no healing potion",
            "No healing potion to drink"
        )
    );
    let sick = crate::sim::vitals::DrinkRefusal::Sick(12.0);
    assert_eq!(
        both(&c, Hand::CantDrink(sick)),
        s(
            &format!("can't drink: {sick}"),
            &format!("Can't drink: {sick}")
        )
    );
    let drank = Hand::Drank {
        gained: 50.0,
        health: 90.4,
    };
    assert_eq!(
        both(&c, drank),
        s("drank a potion: +50, health 90", "+50 health")
    );
    let wood = cat.id("wood").unwrap();
    let (name, label) = (&cat.item(wood).name, &cat.item(wood).label);
    let threw = log(
        &c,
        Hand::Threw {
            item: wood,
            count: 3,
        },
    );
    assert_eq!(threw, format!("threw 3 {name}"));
    let picked = log(
        &c,
        Hand::PickedUp {
            item: wood,
            count: 3,
        },
    );
    assert_eq!(picked, format!("picked up 3 {name}"));
    let crafted = both(
        &c,
        Hand::Crafted {
            item: wood,
            count: 4,
        },
    );
    let want = (format!("crafted {name} x4"), format!("Crafted {label} x4"));
    assert_eq!(crafted, want);
    assert_eq!(notice(&c, Hand::NoSuchRecipe), "No such recipe");
    let lost = said(
        &Hand::DidNotFit {
            item: wood,
            count: 9,
        }
        .into(),
        &c,
    );
    let want = format!("9 {name} did not fit back");
    assert_eq!((lost.log, lost.warning), (None, Some(want)));
    assert_eq!(
        log(&c, Hand::Hooked(Some((1.25, 2.0)))),
        "hook caught at 1.2 2.0"
    );
    assert_eq!(log(&c, Hand::Hooked(None)), "hook caught nothing");
    let home = Hand::MirrorHome { at: (5.0, 6.5) };
    assert_eq!(log(&c, home), "mirror: home at 5.0 6.5");
    let (from, to) = (Tile::Water, Tile::Air);
    assert_eq!(
        log(&c, Hand::Bucket { x, y, from, to }),
        "bucket at 10 20: Water to Air"
    );
    assert_eq!(notice(&c, Hand::NoRoomForBucket), "No room for the bucket");
    assert_eq!(
        both(&c, Hand::SpawnSet { x, y }),
        s("spawn point set at 10 20", "Spawn point set")
    );
    assert_eq!(
        notice(&c, Hand::CantSleep(BedLost::Blocked)),
        "Can't sleep here: your bed is blocked"
    );
    let jumps = Hand::Jumps {
        jumps: 1,
        strokes: 0,
    };
    assert_eq!(log(&c, jumps), "jumps 1 strokes 0");
    let (x, y) = (4usize, 5usize);
    let bank = Hand::PiggyBank { x, y, stacks: 2 };
    assert_eq!(log(&c, bank), "piggy bank at 4 5: 2 stacks");
    let by = PlayerId(1);
    assert_eq!(
        both(&c, Hand::ChestInUse { x, y, by }),
        s("chest at 4 5 in use by player 1", CHEST_IN_USE)
    );
    let slot = Hand::StoreSlot {
        bank: false,
        x,
        y,
        slot: 3,
    };
    assert_eq!(log(&c, slot), "chest at 4 5 slot 3");
    let moved = Hand::StoreMoved {
        looted: true,
        moved: 7,
        bank: true,
        x,
        y,
    };
    assert_eq!(log(&c, moved), "looted 7 items at piggy bank 4 5");
    assert_eq!(
        notice(&c, Hand::NotAllFitted { bank: false }),
        "Not everything fitted: the rest stays in the chest"
    );
    let rest = Hand::WaterAtRest {
        ticks: 9,
        moves: 30,
    };
    assert_eq!(log(&c, rest), "water at rest after 9 ticks, 30 tiles moved");
}

#[test]
fn the_fights_lines_read_as_before() {
    let c = content();
    let kind = c.bestiary.all().next().unwrap();
    let name = c.bestiary.def(kind).name.clone();
    let hit = vec![(kind, (1.0, 2.25))];
    assert_eq!(
        log(&c, Fight::SwingHit { hits: 1, hit }),
        format!("swing hit 1: {name} at 1.0 2.2")
    );
    let by = Blow::Shot(Look::FlamingArrow);
    assert_eq!(log(&c, Fight::Struck { by, hits: 2 }), "flamingarrow hit 2");
    let (item, n, kept) = ("gel".to_string(), 2, 15);
    let killed = both(
        &c,
        Fight::Killed {
            kind,
            item,
            n,
            kept,
        },
    );
    let want = (
        format!("killed a {name}, gel x2"),
        format!("Killed a {name}: 2 gel, 15 copper"),
    );
    assert_eq!(killed, want);
    let item = String::new();
    let killed = both(
        &c,
        Fight::Killed {
            kind,
            item,
            n: 0,
            kept,
        },
    );
    let want = (
        format!("killed a {name}"),
        format!("Killed a {name}: 15 copper"),
    );
    assert_eq!(killed, want);
    let took = log(&c, Fight::TookCopper { kind, copper: 15 });
    assert_eq!(took, format!("took 15 copper from the {name}"));
    let lava = Fight::DiedInLava {
        kind,
        at: (3.4, 8.6),
        left: 20,
        item: "gel".into(),
        n: 1,
    };
    let want = format!("a {name} died in lava at 3 9, leaving 20 copper and gel x1");
    assert_eq!(log(&c, lava), want);
    let fire = log(&c, Fight::SetOnFire { kind });
    assert_eq!(fire, format!("set a {name} on fire"));
    let shot = Fight::Shot {
        look: Look::FlamingArrow,
        aim: (1.0, 2.0),
    };
    assert_eq!(log(&c, shot), "shot FlamingArrow toward 1.0 2.0");
    assert_eq!(log(&c, Fight::Blast { at: (1.0, 2.0) }), "blast at 1.0 2.0");
    assert_eq!(
        log(&c, Fight::StarMana { mana: 60.0 }),
        "a star gave mana: 60"
    );
    assert_eq!(notice(&c, Fight::NoArrows), "No arrows");
    assert_eq!(notice(&c, Fight::NoMana), "Not enough mana");
    assert_eq!(
        notice(&c, Fight::TooMuchFlying),
        "Too much is flying already"
    );
    let at = (10.4, 20.6);
    let appeared = log(&c, Fight::Appeared { kind, at });
    assert_eq!(appeared, format!("a {name} appeared at 10 21"));
    let hit = Hit {
        damage: 6.0,
        name: "green slime".into(),
        from_x: 3.25,
        killed: false,
    };
    let hurt = Fight::HurtBy {
        hit,
        tick: 90,
        from_x: 3.25,
        health: 94.0,
        thrown: (-4.0, -5.5),
    };
    assert_eq!(
        log(&c, hurt),
        "hurt by a green slime for 6 at 1.50 s from 3.2: health 94, thrown -4.0 -5.5"
    );
    let pvp = Fight::HurtByPlayer {
        by: PlayerId(2),
        health: 80.0,
    };
    assert_eq!(log(&c, pvp), "hurt by player 2: health 80");
    let fell = Fight::Fell {
        rows: 30.0,
        damage: 40.0,
        health: 60.0,
    };
    assert_eq!(log(&c, fell), "fell 30 tiles for 40: health 60");
    let cause = Harm::Lava;
    let text = crate::sim::respawn::slain_by(&cause);
    let wood = c.catalog.id("wood").unwrap();
    let dropped = vec![Stack {
        item: wood,
        count: 4,
    }];
    let died = both(&c, Fight::Died { cause, dropped });
    let want = format!(
        "died of lava: {text}; dropped 4 {}",
        c.catalog.item(wood).name
    );
    assert_eq!(died, (want, text.clone()));
    let died = both(
        &c,
        Fight::Died {
            cause: Harm::Lava,
            dropped: vec![],
        },
    );
    assert_eq!(died.0, format!("died of lava: {text}; nothing dropped"));
    let back = Fight::Respawned {
        bed: true,
        at: (1.0, 2.0),
    };
    assert_eq!(log(&c, back), "respawned at the bed 1.0 2.0");
    assert_eq!(
        both(&c, Fight::BedLost(BedLost::Broken)),
        s(
            "bed lost: your bed is gone",
            "your bed is gone: back at the world's spawn point"
        )
    );
}

#[test]
fn the_bosses_lines_read_as_before() {
    let c = content();
    let skeletron = RivalKind::Skeletron;
    let told = both(&c, Boss::Told(Tidings::RivalDefeated(skeletron)));
    let want = s(
        "told: Skeletron has been defeated!",
        "Skeletron has been defeated!",
    );
    assert_eq!(told, want);
    let warning = EYE_WARNING;
    let told = both(&c, Boss::Told(Tidings::EyeWarning));
    assert_eq!(told, (format!("told: {warning}"), warning.to_string()));
    assert_eq!(
        log(&c, Boss::EyeComing { night: 3 }),
        "night 3: the Eye is coming"
    );
    let came = Boss::EyeCame {
        at: (1.0, 2.0),
        health: 2800.0,
    };
    assert_eq!(log(&c, came), "the Eye came at 1.0 2.0 with health 2800");
    let charges = Boss::EyeCharges {
        from: (1.0, 2.0),
        phase: crate::sim::boss::Phase::One,
        health: 100.0,
    };
    assert_eq!(
        log(&c, charges),
        "the Eye charges from 1.0 2.0 (One, health 100)"
    );
    let hit = Boss::HitEye {
        by: Blow::Swing,
        health: 50.0,
    };
    assert_eq!(log(&c, hit), "swing hit the Eye: health 50");
    let eye = c.catalog.id("suspicious_looking_eye").unwrap();
    let label = &c.catalog.item(eye).label;
    let day = both(&c, Boss::SummonByDay { item: eye });
    let want = (
        format!("used {label} by day: nothing happens"),
        format!("The {label} does nothing by day"),
    );
    assert_eq!(day, want);
    let hurt = Boss::HurtByRival {
        kind: RivalKind::Wall,
        damage: 50.0,
        health: 10.0,
    };
    assert_eq!(log(&c, hurt), "hurt by The Wall of Flesh for 50: health 10");
    let attacks = Boss::RivalAttacks {
        kind: skeletron,
        health: 400.0,
    };
    assert_eq!(log(&c, attacks), "Skeletron attacks (health 400)");
    let loot = Boss::Loot {
        from: Foe::Eye,
        got: vec![("lens".into(), 2), ("demonite_ore".into(), 30)],
    };
    assert_eq!(log(&c, loot), "killed the Eye: lens x2, demonite_ore x30");
    assert_eq!(
        notice(&c, Boss::OldManBusy),
        "Old Man: Not now, something else is here."
    );
}

#[test]
fn the_towns_lines_read_as_before() {
    let c = content();
    let hint = "wood makes: workbench".to_string();
    let said = said(&Town::Guide { hint }.into(), &c);
    assert_eq!(
        said.log.as_deref(),
        Some("guide says: wood makes: workbench")
    );
    let talk = Shown::Talk {
        text: "Guide: wood makes: workbench".into(),
        seconds: TALK_SECONDS,
    };
    assert_eq!(said.shown, Some(talk));
    let says = Town::Says {
        name: "Arms Dealer",
        line: "Arrows!".into(),
    };
    assert_eq!(
        words(&c, says),
        (
            Some("arms dealer says: Arrows!".into()),
            Some("Arms Dealer: Arrows!".into())
        )
    );
    let room = crate::sim::housing::Room {
        inside: vec![],
        size: 3,
        lacks: vec![crate::sim::housing::Lack::Light],
    };
    let what = describe(&room);
    let housing = Town::Housing {
        room: room.clone(),
        lives: None,
        moved_in: false,
    };
    assert_eq!(
        both(&c, housing),
        (format!("housing: {what}"), what.clone())
    );
    let mut house = room.clone();
    house.lacks.clear();
    let home = describe(&house);
    let lives = Town::Housing {
        room: house.clone(),
        lives: Some("Nurse"),
        moved_in: false,
    };
    assert_eq!(both(&c, lives).1, format!("{home}. The Nurse lives here."));
    let moved = Town::Housing {
        room: house,
        lives: None,
        moved_in: true,
    };
    assert_eq!(both(&c, moved).1, format!("{home}. The Guide moves in."));
    let out = Town::MovesOut {
        name: "Merchant",
        room,
    };
    let text = format!("The Merchant moves out: {what}");
    assert_eq!(both(&c, out), (text.clone(), text));
    let folk = Town::FolkArrived {
        name: "Arms Dealer",
        trades: true,
    };
    assert_eq!(
        notice(&c, folk),
        "The Arms Dealer has arrived! (right-click to trade)"
    );
    let wood = c.catalog.id("wood").unwrap();
    let label = &c.catalog.item(wood).label;
    let copper = |n| copper_text(&c, n);
    let bought = Town::Bought {
        item: wood,
        price: 150,
        left: 10_000,
    };
    let want = (
        format!(
            "bought {label} for {}, {} left",
            copper(150),
            copper(10_000)
        ),
        format!("Bought {label} for {}", copper(150)),
    );
    assert_eq!(both(&c, bought), want);
    let e = crate::sim::shop::ShopRefusal::Full;
    let cant = notice(&c, Town::CantSell(e.clone()));
    assert_eq!(cant, format!("Can't sell: {}", e.text(&c)));
    let healed = Town::NurseHealed {
        healed: 40.0,
        price: 300,
        health: 100.0,
    };
    let want = (
        format!("the Nurse healed 40 for {}: health 100", copper(300)),
        format!("Nurse: healed 40 for {}", copper(300)),
    );
    assert_eq!(both(&c, healed), want);
    let shop = log(&c, Town::ShopOpen { money: 12 });
    assert_eq!(shop, format!("shop open: carrying {}", copper(12)));
    let arrives = Town::Arrives {
        name: "Merchant",
        x: 3,
        y: 4,
    };
    assert_eq!(log(&c, arrives), "the Merchant arrives at the house at 3 4");
}
