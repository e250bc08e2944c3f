//! The words for what the session says ([`said`]): a [`Message`] (ids, kinds, amounts,
//! typed refusals) turned into the player's text and the log line, items and creatures
//! named as the session's [`Content`] names them.
//!
//! It lives in `net`, the lowest layer that talks to people: the server (headless, no
//! window) logs its players' lines and sends their notices as text, and the window (which
//! imports `net`) shows and logs the local player's; the simulation below says only what
//! happened. The log lines are the ones the window tests read (`dug ..`, `placed ..`,
//! `crafted ..`, `killed a ..`, `hurt by ..`): keep them word for word.

use crate::content::config::Content;
use crate::sim::boss::RivalKind;
use crate::sim::housing::describe;
use crate::sim::session::Message;
use crate::sim::session::message::{Blow, Boss, Fight, Foe, Hand, Relit, Tidings, Town};
use crate::sim::shop::copper_text;

/// What a player is told who opens a chest another player has open.
pub const CHEST_IN_USE: &str = "Someone else is using this chest";
/// Seconds what a townsperson says stays on the screen (a sentence to read, longer than
/// a notice).
pub const TALK_SECONDS: f64 = 8.0;
/// The warning the night the Eye comes on its own.
pub const EYE_WARNING: &str = "You feel an evil presence watching you...";
/// The announcement of the Eye's defeat.
pub const EYE_DEFEATED: &str = "The Eye has been defeated!";

/// What a message says: a log line, a warning, a line on the player's screen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Said {
    /// The line for the log (a debug line; the window tests read them).
    pub log: Option<String>,
    /// Something lost the player should hear of (logged as a warning; a server passes it
    /// to its player as a notice).
    pub warning: Option<String>,
    /// The line for the player's screen.
    pub shown: Option<Shown>,
}

/// A line for the player's screen.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// A short message, up a notice's time.
    Notice(String),
    /// A sentence to read (what a townsperson says), up `seconds`.
    Talk { text: String, seconds: f64 },
}

impl Shown {
    pub fn text(&self) -> &str {
        match self {
            Shown::Notice(t) | Shown::Talk { text: t, .. } => t,
        }
    }
}

impl Said {
    fn log(line: String) -> Said {
        Said {
            log: Some(line),
            ..Said::default()
        }
    }

    fn notice(text: impl Into<String>) -> Said {
        Said {
            shown: Some(Shown::Notice(text.into())),
            ..Said::default()
        }
    }

    fn both(line: String, text: impl Into<String>) -> Said {
        Said {
            log: Some(line),
            shown: Some(Shown::Notice(text.into())),
            warning: None,
        }
    }

    fn talk(line: String, text: String) -> Said {
        let seconds = TALK_SECONDS;
        Said {
            log: Some(line),
            shown: Some(Shown::Talk { text, seconds }),
            warning: None,
        }
    }
}

/// What `m` says, named as `content` names things. A refusal ([`Message::Refused`]) is
/// the front-end's to show (it keeps one up while it repeats): it says "Can't: ..." here.
pub fn said(m: &Message, content: &Content) -> Said {
    match m {
        Message::Refused(e) => Said::notice(format!("Can't: {}", e.text(&content.catalog))),
        Message::Hand(m) => hand(m, content),
        Message::Fight(m) => fight(m, content),
        Message::Boss(m) => boss(m, content),
        Message::Town(m) => town(m, content),
    }
}

/// ` (relit WxH)` after an edit's line.
fn relit(r: &Relit) -> String {
    r.map_or(String::new(), |(w, h)| format!(" (relit {w}x{h})"))
}

/// The chest's or the piggy bank's word.
fn store(bank: bool) -> &'static str {
    if bank { "piggy bank" } else { "chest" }
}

fn hand(m: &Hand, content: &Content) -> Said {
    let cat = &content.catalog;
    match m {
        Hand::Dug {
            tile,
            x,
            y,
            relit: r,
        } => Said::log(format!("dug {} at {x} {y}{}", tile.name(), relit(r))),
        Hand::Placed {
            tile,
            x,
            y,
            relit: r,
        } => Said::log(format!("placed {} at {x} {y}{}", tile.name(), relit(r))),
        Hand::PlacedWall {
            wall,
            x,
            y,
            relit: r,
        } => Said::log(format!("placed {} at {x} {y}{}", wall.label(), relit(r))),
        Hand::TookDown {
            wall,
            x,
            y,
            relit: r,
        } => Said::log(format!("took down {} at {x} {y}{}", wall.name(), relit(r))),
        Hand::Felled { count, tile, x, y } => {
            Said::log(format!("felled {count} {} at {x} {y}", tile.name()))
        }
        Hand::Door { tile, x, y } => {
            Said::log(format!("{} at {x} {y}", tile.name().replace('_', " ")))
        }
        Hand::WoreArmour { slot, defence } => Said::both(
            format!("wore {slot:?} armour: defence {defence}"),
            format!("Defence {defence}"),
        ),
        Hand::WoreAccessory { slot } => Said::log(format!("wore an accessory in slot {slot}")),
        Hand::ArmourSlot { slot, defence } => {
            Said::log(format!("armour slot {slot}: defence {defence}"))
        }
        Hand::AccessorySlot { slot } => Said::log(format!("accessory slot {slot}")),
        Hand::CantWear(e) => Said::notice(format!("Can't wear that: {e}")),
        Hand::LifeCrystal { most } => Said::both(
            format!("used a life crystal: most health {most:.0}"),
            format!("Most health {most:.0}"),
        ),
        Hand::CantUseLife(e) => Said::notice(format!("Can't use it: {e}")),
        Hand::ManaCrystal { most } => Said::both(
            format!("used a mana crystal: most mana {most}"),
            format!("Most mana {most}"),
        ),
        Hand::CantUseMana(e) => Said::notice(format!("Can't use it: {e}")),
        Hand::NoPotion => Said::both(
            "quick heal: no healing potion".into(),
            "No healing potion to drink",
        ),
        Hand::Drank { gained, health } => Said::both(
            format!("drank a potion: +{gained:.0}, health {health:.0}"),
            format!("+{gained:.0} health"),
        ),
        // Logged too, so that a script (or a test) sees a quick heal refused.
        Hand::CantDrink(e) => Said::both(format!("can't drink: {e}"), format!("Can't drink: {e}")),
        Hand::Threw { item, count } => Said::log(format!("threw {count} {}", cat.item(*item).name)),
        Hand::PickedUp { item, count } => {
            Said::log(format!("picked up {count} {}", cat.item(*item).name))
        }
        Hand::NoSuchRecipe => Said::notice("No such recipe"),
        Hand::Crafted { item, count } => {
            let item = cat.item(*item);
            Said::both(
                format!("crafted {} x{count}", item.name),
                format!("Crafted {} x{count}", item.label),
            )
        }
        Hand::CantCraft(e) => Said::notice(format!("Can't craft: {}", e.text(cat))),
        Hand::DidNotFit { item, count } => Said {
            warning: Some(format!("{count} {} did not fit back", cat.item(*item).name)),
            ..Said::default()
        },
        Hand::Hooked(Some((x, y))) => Said::log(format!("hook caught at {x:.1} {y:.1}")),
        Hand::Hooked(None) => Said::log("hook caught nothing".into()),
        Hand::MirrorHome { at } => Said::log(format!("mirror: home at {:.1} {:.1}", at.0, at.1)),
        Hand::NoRoomForBucket => Said::notice("No room for the bucket"),
        Hand::Bucket { x, y, from, to } => {
            Said::log(format!("bucket at {x} {y}: {from:?} to {to:?}"))
        }
        Hand::SpawnSet { x, y } => {
            Said::both(format!("spawn point set at {x} {y}"), "Spawn point set")
        }
        Hand::CantSleep(lost) => Said::notice(format!("Can't sleep here: {lost}")),
        Hand::Jumps { jumps, strokes } => Said::log(format!("jumps {jumps} strokes {strokes}")),
        Hand::PiggyBank { x, y, stacks } => {
            Said::log(format!("piggy bank at {x} {y}: {stacks} stacks"))
        }
        Hand::ChestInUse { x, y, by } => Said::both(
            format!("chest at {x} {y} in use by player {}", by.0),
            CHEST_IN_USE,
        ),
        Hand::StoreSlot { bank, x, y, slot } => {
            Said::log(format!("{} at {x} {y} slot {slot}", store(*bank)))
        }
        Hand::StoreMoved {
            looted,
            moved,
            bank,
            x,
            y,
        } => {
            let verb = if *looted { "looted" } else { "deposited" };
            let what = store(*bank);
            Said::log(format!("{verb} {moved} items at {what} {x} {y}"))
        }
        Hand::NotAllFitted { bank } => Said::notice(format!(
            "Not everything fitted: the rest stays in the {}",
            store(*bank)
        )),
        Hand::WaterAtRest { ticks, moves } => Said::log(format!(
            "water at rest after {ticks} ticks, {moves} tiles moved"
        )),
    }
}

/// The word for a blow in the log (`arrow hit 2`, `blast hit the Eye`).
fn blow(b: &Blow) -> String {
    match b {
        Blow::Blow => "blow".into(),
        Blow::Swing => "swing".into(),
        Blow::Thrust => "thrust".into(),
        Blow::Blast => "blast".into(),
        Blow::Shot(look) => format!("{look:?}").to_lowercase(),
    }
}

fn fight(m: &Fight, content: &Content) -> Said {
    let name = |kind: &crate::sim::creatures::Kind| &content.bestiary.def(*kind).name;
    match m {
        Fight::SwingHit { hits, hit } => {
            let each: Vec<String> = (hit.iter())
                .map(|(k, p)| format!("{} at {:.1} {:.1}", name(k), p.0, p.1))
                .collect();
            Said::log(format!("swing hit {hits}: {}", each.join(", ")))
        }
        Fight::Struck { by, hits } => Said::log(format!("{} hit {hits}", blow(by))),
        Fight::Killed {
            kind,
            item,
            n,
            kept,
        } => {
            let name = name(kind);
            if *n == 0 {
                Said::both(
                    format!("killed a {name}"),
                    format!("Killed a {name}: {kept} copper"),
                )
            } else {
                Said::both(
                    format!("killed a {name}, {item} x{n}"),
                    format!("Killed a {name}: {n} {item}, {kept} copper"),
                )
            }
        }
        Fight::TookCopper { kind, copper } => {
            Said::log(format!("took {copper} copper from the {}", name(kind)))
        }
        Fight::DiedInLava {
            kind,
            at,
            left,
            item,
            n,
        } => Said::log(format!(
            "a {} died in lava at {:.0} {:.0}, leaving {left} copper and {item} x{n}",
            name(kind),
            at.0,
            at.1
        )),
        Fight::SetOnFire { kind } => Said::log(format!("set a {} on fire", name(kind))),
        Fight::Shot { look, aim } => {
            Said::log(format!("shot {look:?} toward {:.1} {:.1}", aim.0, aim.1))
        }
        Fight::Blast { at } => Said::log(format!("blast at {:.1} {:.1}", at.0, at.1)),
        Fight::StarMana { mana } => Said::log(format!("a star gave mana: {mana:.0}")),
        Fight::NoArrows => Said::notice("No arrows"),
        Fight::NoMana => Said::notice("Not enough mana"),
        Fight::TooMuchFlying => Said::notice("Too much is flying already"),
        Fight::Appeared { kind, at } => Said::log(format!(
            "a {} appeared at {:.0} {:.0}",
            name(kind),
            at.0,
            at.1
        )),
        Fight::HurtBy {
            hit,
            tick,
            from_x,
            health,
            thrown,
        } => Said::log(format!(
            "hurt by {hit} at {:.2} s from {from_x:.1}: health {health:.0}, thrown {:.1} {:.1}",
            *tick as f64 * crate::sim::session::TICK,
            thrown.0,
            thrown.1
        )),
        Fight::HurtByPlayer { by, health } => {
            Said::log(format!("hurt by player {}: health {health:.0}", by.0))
        }
        Fight::Fell {
            rows,
            damage,
            health,
        } => Said::log(format!(
            "fell {rows:.0} tiles for {damage:.0}: health {health:.0}"
        )),
        Fight::Died { cause, dropped } => {
            let text = crate::sim::respawn::slain_by(cause);
            let kept = if dropped.is_empty() {
                "nothing dropped".to_string()
            } else {
                let each: Vec<String> = (dropped.iter())
                    .map(|s| format!("{} {}", s.count, content.catalog.item(s.item).name))
                    .collect();
                format!("dropped {}", each.join(", "))
            };
            Said::both(format!("died of {cause}: {text}; {kept}"), text)
        }
        Fight::Respawned { bed, at } => {
            let place = if *bed { "the bed" } else { "the spawn point" };
            Said::log(format!("respawned at {place} {:.1} {:.1}", at.0, at.1))
        }
        Fight::BedLost(lost) => Said::both(
            format!("bed lost: {lost}"),
            format!("{lost}: back at the world's spawn point"),
        ),
    }
}

/// What everyone is told.
fn tidings(t: &Tidings) -> String {
    match t {
        Tidings::EyeWarning => EYE_WARNING.into(),
        Tidings::EyeAwoke => "The Eye has awoken!".into(),
        Tidings::EyeLeft => "The Eye has left.".into(),
        Tidings::EyeDefeated => EYE_DEFEATED.into(),
        Tidings::RivalAwoke(k) => format!("{} has awoken!", k.name()),
        Tidings::RivalLeft(k) => format!("{} has left.", k.name()),
        Tidings::RivalDefeated(k) => format!("{} has been defeated!", k.name()),
        Tidings::Chill => "A horrible chill goes down your spine...".into(),
        Tidings::Screams => "Screams echo around you...".into(),
        Tidings::CurseLifted => "The dungeon's curse is lifted.".into(),
        Tidings::SpiritsReleased => {
            "The ancient spirits of light and dark have been released.".into()
        }
    }
}

fn boss(m: &Boss, content: &Content) -> Said {
    let rival = |k: &RivalKind| k.name();
    match m {
        Boss::Told(t) => {
            let text = tidings(t);
            Said::both(format!("told: {text}"), text)
        }
        Boss::EyeComing { night } => Said::log(format!("night {night}: the Eye is coming")),
        Boss::EyeCame { at, health } => Said::log(format!(
            "the Eye came at {:.1} {:.1} with health {health:.0}",
            at.0, at.1
        )),
        Boss::EyeCharges {
            from,
            phase,
            health,
        } => Said::log(format!(
            "the Eye charges from {:.1} {:.1} ({phase:?}, health {health:.0})",
            from.0, from.1
        )),
        Boss::EyePhaseTwo { health } => Said::log(format!(
            "the Eye opens its mouth: phase two at health {health:.0}"
        )),
        Boss::EyeLeaves => Said::log("the Eye leaves".into()),
        Boss::HurtByEye { damage, health } => Said::log(format!(
            "hurt by the Eye for {damage:.0}: health {health:.0}"
        )),
        Boss::HitEye { by, health } => {
            Said::log(format!("{} hit the Eye: health {health:.0}", blow(by)))
        }
        Boss::SummonByDay { item } => {
            let label = &content.catalog.item(*item).label;
            Said::both(
                format!("used {label} by day: nothing happens"),
                format!("The {label} does nothing by day"),
            )
        }
        Boss::BossAlreadyHere => Said::notice("A boss is already here"),
        Boss::EyeAlreadyHere => Said::notice("The Eye is already here"),
        Boss::RivalCame { kind, at, health } => Said::log(format!(
            "{} came at {:.1} {:.1} with health {health:.0}",
            rival(kind),
            at.0,
            at.1
        )),
        Boss::RivalPhaseTwo { kind, health } => Said::log(format!(
            "{} turns to phase two at health {health:.0}",
            rival(kind)
        )),
        Boss::RivalAttacks { kind, health } => {
            Said::log(format!("{} attacks (health {health:.0})", rival(kind)))
        }
        Boss::RivalLeaves { kind } => Said::log(format!("{} leaves", rival(kind))),
        Boss::HurtByRival {
            kind,
            damage,
            health,
        } => Said::log(format!(
            "hurt by {} for {damage:.0}: health {health:.0}",
            rival(kind)
        )),
        Boss::HitRival { kind, health } => {
            Said::log(format!("hit {}: health {health:.0}", rival(kind)))
        }
        Boss::CutInTwo { kind, heads } => {
            Said::log(format!("{} is cut in two: {heads} heads", rival(kind)))
        }
        Boss::OrbsBroken { n } => Said::log(format!("shadow orbs broken: {n}")),
        Boss::EaterStaysDown => Said::log("a boss is about: the Eater stays down".into()),
        Boss::WormFoodOutside => Said::notice("Worm food works only in the evil biome"),
        Boss::OldManByDay => Said::notice(
            "Old Man: I cannot let you enter the dungeon until I am free of this curse. Come back at night.",
        ),
        Boss::OldManBusy => Said::notice("Old Man: Not now, something else is here."),
        Boss::DollBurnt => Said::log("a guide voodoo doll burnt in the underworld's lava".into()),
        Boss::DollForNothing => Said::log("a boss is about: the doll burnt for nothing".into()),
        Boss::Loot { from, got } => {
            let what = match from {
                Foe::Eye => "the Eye",
                Foe::Rival(k) => k.name(),
            };
            let got: Vec<String> = got.iter().map(|(n, c)| format!("{n} x{c}")).collect();
            Said::log(format!("killed {what}: {}", got.join(", ")))
        }
    }
}

fn town(m: &Town, content: &Content) -> Said {
    let copper = |c: &u64| copper_text(content, *c);
    match m {
        Town::Guide { hint } => Said::talk(format!("guide says: {hint}"), format!("Guide: {hint}")),
        Town::Says { name, line } => Said::talk(
            format!("{} says: {line}", name.to_lowercase()),
            format!("{name}: {line}"),
        ),
        Town::GuideMovesIn { x, y } => {
            Said::log(format!("the Guide moves into the house at {x} {y}"))
        }
        Town::Housing {
            room,
            lives,
            moved_in,
        } => {
            let mut text = describe(room);
            if let Some(name) = lives {
                text.push_str(&format!(". The {name} lives here."));
            } else if *moved_in {
                text.push_str(". The Guide moves in.");
            }
            Said::both(format!("housing: {text}"), text)
        }
        Town::MovesOut { name, room } => {
            let text = format!("The {name} moves out: {}", describe(room));
            Said::both(text.clone(), text)
        }
        Town::MerchantArrived => {
            Said::notice("The Merchant has arrived! (right-click him to trade)")
        }
        Town::NurseArrived => Said::notice("The Nurse has arrived! (right-click her to be healed)"),
        Town::FolkArrived { name, trades } => {
            let how = if *trades {
                " (right-click to trade)"
            } else {
                ""
            };
            Said::notice(format!("The {name} has arrived!{how}"))
        }
        Town::Arrives { name, x, y } => {
            Said::log(format!("the {name} arrives at the house at {x} {y}"))
        }
        Town::ShopOpen { money } => Said::log(format!("shop open: carrying {}", copper(money))),
        Town::Bought { item, price, left } => {
            let name = &content.catalog.item(*item).label;
            let price = copper(price);
            Said::both(
                format!("bought {name} for {price}, {} left", copper(left)),
                format!("Bought {name} for {price}"),
            )
        }
        Town::CantBuy(e) => Said::notice(format!("Can't buy: {}", e.text(content))),
        Town::Sold { item, n, got } => {
            let name = &content.catalog.item(*item).label;
            let got = copper(got);
            Said::both(
                format!("sold {n} {name} for {got}"),
                format!("Sold {n} {name} for {got}"),
            )
        }
        Town::CantSell(e) => Said::notice(format!("Can't sell: {}", e.text(content))),
        Town::NurseHealed {
            healed,
            price,
            health,
        } => {
            let price = copper(price);
            Said::both(
                format!("the Nurse healed {healed:.0} for {price}: health {health:.0}"),
                format!("Nurse: healed {healed:.0} for {price}"),
            )
        }
        Town::NurseRefused(e) => {
            let e = e.text(content);
            Said::both(
                format!("the Nurse did not heal: {e}"),
                format!("Nurse: {e}"),
            )
        }
    }
}

#[cfg(test)]
#[path = "said_tests.rs"]
mod tests;
