use super::*;
use crate::content::preset::Preset;
use crate::world::inventory::AsItem;

/// The built-in content, as a session without mods plays by.
fn content() -> crate::content::config::Content {
    crate::content::config::Content::builtin()
}

/// A small generated world in play (the game's test world).
pub(crate) fn session() -> Session {
    let p = Preset {
        width: 600,
        height: 300,
        ..Preset::default()
    };
    let (world, _) = crate::worldgen::generate(&p, 3);
    Session::new(world)
}

/// Steps `n` ticks with the same intents for the local player; returns what changed.
pub(super) fn run(s: &mut Session, n: usize, intents: &[Intent]) -> Changes {
    let list: Vec<(PlayerId, Intent)> = intents.iter().map(|&i| (LOCAL, i)).collect();
    let mut all = Changes::default();
    for _ in 0..n {
        all.extend(s.step(&list));
    }
    all
}

/// A session whose player has landed (two seconds without input).
pub(super) fn landed() -> Session {
    let mut s = session();
    run(&mut s, 120, &[]);
    assert!(s.me().body.on_ground);
    s
}

fn refusals(c: &Changes) -> Vec<EditRefusal> {
    c.messages
        .iter()
        .filter_map(|(_, m)| match m {
            Message::Refused(e) => Some(*e),
            _ => None,
        })
        .collect()
}

/// What the messages say, in the built-in content's words.
fn said(c: &Changes) -> Vec<crate::net::said::Said> {
    static BUILTIN: std::sync::OnceLock<Content> = std::sync::OnceLock::new();
    let content = BUILTIN.get_or_init(Content::builtin);
    (c.messages.iter())
        .filter(|(_, m)| !matches!(m, Message::Refused(_)))
        .map(|(_, m)| crate::net::said::said(m, content))
        .collect()
}

/// The lines on the players' screens (notices and talk), refusals aside.
pub(crate) fn notices(c: &Changes) -> Vec<String> {
    (said(c).into_iter())
        .filter_map(|s| Some(s.shown?.text().to_string()))
        .collect()
}

/// The log lines (the ones the window tests read).
pub(crate) fn log_lines(c: &Changes) -> Vec<String> {
    said(c).into_iter().filter_map(|s| s.log).collect()
}

#[test]
fn move_walks_each_way_and_stops_without_it() {
    let mut s = landed();
    let x0 = s.me().body.pos.0;
    let c = run(
        &mut s,
        30,
        &[Intent::Move {
            axis: 1,
            jump: false,
        }],
    );
    let x1 = s.me().body.pos.0;
    assert!(x1 > x0 + 1.0, "{x0} -> {x1}");
    assert!(c.events.iter().any(|e| matches!(e, Event::Moved { .. })));
    run(
        &mut s,
        30,
        &[Intent::Move {
            axis: -1,
            jump: false,
        }],
    );
    assert!(s.me().body.vel.0 < 0.0, "turned round");
    // No intent is no key: the player slows to a stop and nothing moves.
    run(&mut s, 60, &[]);
    let c = run(&mut s, 5, &[]);
    assert!(c.events.is_empty(), "{:?}", c.events);
}

#[test]
fn a_jump_press_jumps_once() {
    let mut s = landed();
    let y0 = s.me().body.pos.1;
    let c = s.step(&[(LOCAL, Intent::Jump)]);
    assert!(log_lines(&c).contains(&"jumps 1 strokes 0".to_string()));
    run(&mut s, 10, &[]);
    assert!(s.me().body.pos.1 < y0 - 0.5, "in the air");
    assert_eq!(s.me().body.jumps, 1);
}

#[test]
fn digging_under_the_feet_takes_time_and_reports_the_tile_and_the_light() {
    let mut s = landed();
    let (px, py) = s.me().body.pos;
    let below = (px.floor() as i64, py as i64);
    let (bx, by) = (below.0 as usize, below.1 as usize);
    let tile = s.world.tile(bx, by);
    assert!(tile.is_solid(), "{tile:?}");
    let dig = Intent::Use { at: Some(below) };
    let c = run(&mut s, 1, &[dig]);
    assert!(c.tiles.is_empty());
    assert!(s.me().digging.is_some_and(|p| p > 0.0 && p < 1.0));
    // Letting go forgets the progress.
    run(&mut s, 1, &[]);
    assert_eq!(s.me().digging, None);
    let mut all = Changes::default();
    for _ in 0..120 {
        all.extend(s.step(&[(LOCAL, dig)]));
        if s.world.tile(bx, by) == Tile::Air {
            break;
        }
    }
    assert_eq!(s.world.tile(bx, by), Tile::Air);
    assert_eq!(all.tiles.first(), Some(&(bx, by, Tile::Air)));
    assert_eq!((all.edits, s.edits), (1, 1));
    assert!(all.relit.iter().any(|r| r.contains(bx, by)));
    // The dug block lies in the world, then flies into the inventory.
    let item = edit::drop_of(tile).as_item(&content().catalog).unwrap();
    let dropped = Event::Dropped {
        item,
        count: 1,
        at: (bx as f32 + 0.5, by as f32 + 0.5),
    };
    assert!(all.events.contains(&dropped), "{:?}", all.events);
    assert_eq!(s.me().inventory.count(item), 0, "not yet");
    let c = run(&mut s, 30, &[]);
    assert_eq!(s.me().inventory.count(item), 1);
    let picked = Event::PickedUp {
        player: LOCAL,
        item,
        count: 1,
    };
    assert!(c.events.contains(&picked), "{:?}", c.events);
    assert!(s.world.dropped.is_empty());
    assert_eq!(
        s.light,
        LightMap::compute(&s.world),
        "relit like a fresh map"
    );
    let dug = format!(
        "dug {} at {} {}",
        edit::drop_of(tile).name(),
        below.0,
        below.1
    );
    let lines = log_lines(&all);
    assert!(lines.iter().any(|l| l.starts_with(&dug)), "{lines:?}");
}

#[test]
fn placing_needs_the_block_refuses_on_the_player_and_repeats_while_held() {
    let mut s = landed();
    let (px, py) = s.me().body.pos;
    let feet = (px.floor() as i64, py as i64 - 1);
    let press = |(x, y): (i64, i64)| Intent::Place {
        x,
        y,
        pressed: true,
    };
    s.me_mut().inventory.select(5); // empty
    let c = run(&mut s, 1, &[press(feet)]);
    assert_eq!(refusals(&c), [EditRefusal::NothingSelected]);
    s.me_mut().inventory.add(Tile::Dirt, 3);
    s.step(&[(LOCAL, Intent::Select(3))]);
    assert_eq!(s.me().inventory.selected_tile(), Some(Tile::Dirt));
    let c = run(&mut s, 1, &[press(feet)]);
    assert_eq!(refusals(&c), [EditRefusal::WouldTrapPlayer]);
    assert_eq!(s.world.tile(feet.0 as usize, feet.1 as usize), Tile::Air);
    // Holding the button refuses again only every PLACE_REPEAT seconds.
    let held = Intent::Place {
        x: feet.0,
        y: feet.1,
        pressed: false,
    };
    let c = run(&mut s, 60, &[held]);
    assert_eq!(refusals(&c).len(), (1.0 / PLACE_REPEAT) as usize);
    // Beside the player, on the ground: placed, one fewer.
    let bx = feet.0 + 2;
    let ground = (0..s.world.height() as i64 - 1)
        .find(|&y| s.world.tile(bx as usize, y as usize + 1).is_solid())
        .unwrap();
    assert_eq!(s.world.tile(bx as usize, ground as usize), Tile::Air);
    let c = run(&mut s, 1, &[press((bx, ground))]);
    assert_eq!(s.world.tile(bx as usize, ground as usize), Tile::Dirt);
    assert_eq!(c.tiles, [(bx as usize, ground as usize, Tile::Dirt)]);
    assert_eq!(s.me().inventory.count(Tile::Dirt), 2);
}

#[test]
fn select_and_scroll_move_the_hotbar_selection() {
    let mut s = session();
    s.step(&[(LOCAL, Intent::Select(4))]);
    assert_eq!(s.me().inventory.selected(), 4);
    s.act(LOCAL, Intent::Scroll(-2));
    assert_eq!(s.me().inventory.selected(), 2);
}

#[test]
fn crafting_takes_the_ingredients_or_says_why_not() {
    let mut s = landed();
    let content = Arc::clone(&s.content);
    let cat = &content.catalog;
    let torch = cat
        .recipes
        .iter()
        .position(|r| cat.item(r.make).name == "torch")
        .expect("a torch recipe");
    let torches = s.me().inventory.count(Tile::Torch);
    let c = s.act(LOCAL, Intent::Craft(torch));
    assert!(notices(&c)[0].starts_with("Can't craft"), "{c:?}");
    s.me_mut().inventory.add("wood", 1);
    s.me_mut().inventory.add("gel", 1);
    let c = s.act(LOCAL, Intent::Craft(torch));
    let made = cat.recipes[torch].count;
    assert_eq!(s.me().inventory.count(Tile::Torch), torches + made);
    assert_eq!(s.me().inventory.count("gel"), 0);
    assert!(notices(&c)[0].starts_with("Crafted"), "{c:?}");
    let c = s.act(LOCAL, Intent::Craft(usize::MAX));
    assert_eq!(notices(&c), ["No such recipe"]);
}

/// A landed player with a chest holding 6 gel two tiles to its right: the session, the
/// chest's tile and the gel.
fn chest_of_gel() -> (Session, (usize, usize), crate::content::items::ItemId) {
    let mut s = landed();
    let (px, py) = s.me().body.pos;
    let at = ((px + 2.0) as usize, py as usize - 1);
    s.world.set(at.0, at.1, Tile::Chest);
    let gel = content().catalog.id("gel").unwrap();
    s.world
        .chests
        .open(at.0, at.1)
        .add(&content().catalog, gel, 6);
    (s, at, gel)
}

#[test]
fn a_chest_opens_in_reach_its_clicks_are_edits_and_it_closes_out_of_reach() {
    let (mut s, at, gel) = chest_of_gel();
    // With the sword selected: a right-click opens, never places or swings.
    s.me_mut().inventory.select(1);
    let right = Intent::Place {
        x: at.0 as i64,
        y: at.1 as i64,
        pressed: true,
    };
    let c = run(&mut s, 1, &[right]);
    assert_eq!(s.me().chest, Some(at));
    let opened = Event::ChestOpened {
        player: LOCAL,
        x: at.0,
        y: at.1,
        stacks: 1,
    };
    assert_eq!(c.events.iter().filter(|e| **e == opened).count(), 1);
    assert_eq!(s.world.tile(at.0, at.1), Tile::Chest);
    let c = s.act(LOCAL, Intent::ClickChest(0));
    assert_eq!(c.edits, 1, "taking from a chest is an edit");
    assert_eq!(s.me().held.map(|h| (h.item, h.count)), Some((gel, 6)));
    assert!(!s.world.chests.holds_items(at.0, at.1));
    s.act(LOCAL, Intent::ClickChest(26));
    let slots = s.world.chests.get(at.0, at.1).unwrap().slots();
    assert_eq!(slots[26].unwrap().count, 6);
    // Out of reach, it closes; a far chest does not open.
    s.me_mut().body.pos.0 += 20.0;
    run(&mut s, 1, &[]);
    assert_eq!(s.me().chest, None);
    let c = run(&mut s, 1, &[right]);
    assert_eq!(s.me().chest, None);
    assert_eq!(refusals(&c), [EditRefusal::OutOfReach]);
}

#[test]
fn one_player_at_a_time_uses_a_chest_until_it_closes_walks_off_leaves_or_dies() {
    let (mut s, at, gel) = chest_of_gel();
    let other = s.join();
    let (x, y) = (at.0 as i64, at.1 as i64);
    let beside = |s: &mut Session| {
        s.players[other.0].body = s.me().body.clone();
        s.players[other.0].chest = None;
    };
    let open = |s: &mut Session, who: PlayerId| s.act(who, Intent::OpenChest { x, y });
    beside(&mut s);
    open(&mut s, LOCAL);
    assert_eq!(s.chest_user(at.0, at.1), Some(LOCAL));
    // The other is refused, and its clicks on "the open chest" take nothing.
    let c = open(&mut s, other);
    assert_eq!(notices(&c), [crate::net::said::CHEST_IN_USE]);
    assert_eq!(s.players[other.0].chest, None);
    s.act(other, Intent::ClickChest(0));
    assert_eq!(s.players[other.0].held, None);
    assert_eq!(
        s.world.chests.get(at.0, at.1).unwrap().slots()[0]
            .unwrap()
            .item,
        gel
    );
    // The one using it may open it again (a second right-click).
    assert!(notices(&open(&mut s, LOCAL)).is_empty());
    // Closed: the other may open it.
    s.act(LOCAL, Intent::Close);
    assert!(notices(&open(&mut s, other)).is_empty());
    assert_eq!(s.chest_user(at.0, at.1), Some(other));
    assert_eq!(
        notices(&open(&mut s, LOCAL)),
        [crate::net::said::CHEST_IN_USE]
    );
    // Walked out of reach: freed.
    s.players[other.0].body.pos.0 += 20.0;
    s.step(&[]);
    assert_eq!(s.chest_user(at.0, at.1), None);
    open(&mut s, LOCAL);
    // Gone with a stack on the cursor: freed, and the stack is back in its slots.
    s.act(LOCAL, Intent::Close);
    beside(&mut s);
    open(&mut s, other);
    s.act(other, Intent::ClickChest(0));
    let gels = s.players[other.0].inventory.count(gel);
    s.leave(other);
    assert_eq!(s.players[other.0].held, None);
    assert_eq!(s.players[other.0].inventory.count(gel), gels + 6);
    assert_eq!(s.chest_user(at.0, at.1), None);
    assert!(notices(&open(&mut s, LOCAL)).is_empty());
    // Dead: freed.
    let back = s.join_as(&s.player_state(other));
    assert_eq!(back, other);
    beside(&mut s);
    s.act(LOCAL, Intent::Close);
    open(&mut s, other);
    assert_eq!(s.chest_user(at.0, at.1), Some(other));
    let mut c = Changes::default();
    s.die(other, Harm::Fall(500.0), &mut c);
    assert_eq!(s.chest_user(at.0, at.1), None);
    assert!(notices(&open(&mut s, LOCAL)).is_empty());
}

#[test]
fn closing_puts_the_cursor_stack_back() {
    let mut s = session();
    let before = s.me().inventory.clone();
    s.act(LOCAL, Intent::ClickSlot(2));
    assert!(s.me().held.is_some(), "the torches are on the cursor");
    assert_ne!(s.me().inventory, before);
    s.act(LOCAL, Intent::Close);
    assert_eq!(s.me().held, None);
    assert_eq!(
        s.me().inventory.count(Tile::Torch),
        before.count(Tile::Torch)
    );
}

#[test]
fn a_sword_kills_a_slime_in_front_for_gel() {
    let mut s = landed();
    s.creatures.list.clear();
    let (px, py) = s.me().body.pos;
    s.creatures.list.push(crate::sim::creatures::Creature::new(
        &s.content.bestiary,
        crate::sim::creatures::Kind::Slime,
        (px + 1.2, py),
    ));
    s.step(&[(LOCAL, Intent::Select(1))]);
    assert!(
        s.me().inventory.selected_sword().is_some(),
        "the copper sword"
    );
    // The first hit throws it back: the player walks after it, swinging at it.
    let mut c = Changes::default();
    let start = s.tick;
    for _ in 0..600 {
        let Some(slime) = s.creatures.list.first().map(|c| c.body.pos) else {
            break;
        };
        let me = s.me().body.pos;
        let axis = if slime.0 > me.0 { 1 } else { -1 };
        let at = Some((slime.0 as i64, slime.1 as i64 - 1));
        let walk = Intent::Move { axis, jump: false };
        c.extend(s.step(&[(LOCAL, walk), (LOCAL, Intent::Use { at })]));
    }
    // The gel lies where the slime died and flies to its killer.
    c.extend(run(&mut s, 30, &[]));
    assert!(s.me().inventory.count("gel") >= 1, "the slime dropped gel");
    assert_eq!(s.creatures.killed, 1);
    // And copper coins, by its health.
    let coins = &content().town.coins;
    let slime = s
        .content
        .bestiary
        .stats(crate::sim::creatures::Kind::Slime)
        .health;
    let copper = crate::sim::coins::drop_for(slime, coins);
    assert!(copper > 0);
    assert_eq!(crate::sim::coins::worth(&s.me().inventory, coins), copper);
    assert_eq!(s.me().inventory.count("copper_coin") as u64, copper);
    let killed = Event::Killed {
        kind: crate::sim::creatures::Kind::Slime,
        by: LOCAL,
    };
    assert!(c.events.contains(&killed));
    // Each hit says how hard it struck; the last one killed, the ones before did not.
    let hits: Vec<(f32, bool)> = c
        .events
        .iter()
        .filter_map(|e| match *e {
            Event::Hit { damage, killed, .. } => Some((damage, killed)),
            _ => None,
        })
        .collect();
    let sword = s.me().inventory.selected_sword().unwrap().0 as f32;
    assert!(hits.iter().all(|&(d, _)| d == sword), "{hits:?}");
    assert_eq!(hits.last().map(|h| h.1), Some(true), "{hits:?}");
    assert_eq!(hits.iter().filter(|h| h.1).count(), 1);
    let health = s
        .content
        .bestiary
        .stats(crate::sim::creatures::Kind::Slime)
        .health;
    assert_eq!(hits.len(), (health / sword).ceil() as usize, "{hits:?}");
    // The cooldown spaces the swings; swinging never digs.
    let swings = c.events.iter().filter(|e| matches!(e, Event::Swung { .. }));
    let most = (s.tick - start) / ticks(0.4) + 1;
    assert!((2..=most).contains(&(swings.count() as u64)), "{most}");
    assert!(c.tiles.is_empty());
}

/// A pool of lava three tiles deep on a stone floor, `dx` tiles right of the landed
/// player, its floor at the player's feet row; returns the feet of a body in its middle.
fn lava_pool(s: &mut Session, dx: i64) -> (f32, f32) {
    let (px, py) = s.me().body.pos;
    let (x0, feet) = (px as i64 + dx, py as i64);
    for x in x0..x0 + 6 {
        s.set_tile(x as usize, feet as usize, Tile::Stone);
        for y in feet - 4..feet {
            let t = if y == feet - 4 { Tile::Air } else { Tile::Lava };
            s.set_tile(x as usize, y as usize, t);
        }
    }
    (x0 as f32 + 3.0, feet as f32)
}

#[test]
fn a_creature_lava_kills_leaves_its_coins_in_the_world_or_gives_them_to_its_striker() {
    use crate::sim::creatures::{CREDIT_SECONDS, Creature, Kind};
    let mut s = landed();
    s.creatures.list.clear();
    let coins = &content().town.coins;
    let copper = crate::sim::coins::drop_for(
        s.content
            .bestiary
            .stats(crate::sim::creatures::Kind::Slime)
            .health,
        coins,
    );
    s.me_mut().inventory.add("copper_coin", 90);
    let at = lava_pool(&mut s, 20);
    s.creatures
        .list
        .push(Creature::new(&s.content.bestiary, Kind::Slime, at));
    let c = run(&mut s, 30, &[]);
    assert_eq!(s.creatures.killed, 1, "{:?}", s.creatures.list);
    // No one's kill: its coins and gel lie in the world, the player got nothing.
    assert_eq!(crate::sim::coins::worth(&s.me().inventory, coins), 90);
    assert!(!c.events.iter().any(|e| matches!(e, Event::Killed { .. })));
    let lying: Vec<_> = s.world.dropped.iter().map(|d| (d.stack, d.owner)).collect();
    let worth: u64 = lying
        .iter()
        .filter(|(st, _)| crate::sim::coins::is_coin(st.item, coins))
        .map(|(st, _)| u64::from(st.count))
        .sum();
    assert_eq!(worth, copper, "{lying:?}");
    let gel = content().catalog.id("gel").unwrap();
    assert!(lying.iter().any(|(st, _)| st.item == gel), "{lying:?}");
    assert!(lying.iter().all(|(_, owner)| owner.is_none()), "{lying:?}");
    // Walked to, they are picked up, and the coins settle: 90 + 28 copper is a silver.
    let spot = s.world.dropped[0].pos;
    s.me_mut().body.pos = (spot.0 - 2.0, spot.1 - 3.0);
    s.me_mut().vitals.invincible = 100.0;
    run(&mut s, 60, &[]);
    assert_eq!(
        crate::sim::coins::worth(&s.me().inventory, coins),
        90 + copper
    );
    assert_eq!(s.me().inventory.count("silver_coin"), 1);
    assert_eq!(
        s.me().inventory.count("copper_coin") as u64,
        90 + copper - 100
    );
    // A slime the player struck a moment before it fell in is the player's kill: its
    // coins go straight to the player, far as it is.
    let mut s = landed();
    s.creatures.list.clear();
    let at = lava_pool(&mut s, 20);
    let mut slime = Creature::new(&s.content.bestiary, Kind::Slime, at);
    slime.struck_by = Some((LOCAL.0, CREDIT_SECONDS));
    s.creatures.list.push(slime);
    let c = run(&mut s, 30, &[]);
    let killed = Event::Killed {
        kind: Kind::Slime,
        by: LOCAL,
    };
    assert!(c.events.contains(&killed));
    assert_eq!(crate::sim::coins::worth(&s.me().inventory, coins), copper);
}

#[test]
fn lava_kills_the_death_screen_waits_and_the_player_respawns_with_everything() {
    let mut s = landed();
    s.me_mut().inventory.add(Tile::Stone, 7);
    let carried = s.me().inventory.clone();
    let c = die_in_lava(&mut s);
    assert!(
        notices(&c).contains(&"You were burned by lava".to_string()),
        "{c:?}"
    );
    let death = s.me().death.clone().expect("the death screen");
    assert_eq!(death.text, "You were burned by lava");
    let wait = s.content.rules.respawn_seconds;
    assert_eq!(death.seconds_left(s.tick), wait.ceil() as u64);
    // Dead: the keys do nothing, and the screen counts down.
    let walk = Intent::Move {
        axis: 1,
        jump: false,
    };
    let c = run(&mut s, ticks(f64::from(wait)) as usize - 1, &[walk]);
    assert!(s.me().death.is_some());
    assert_eq!(s.me().death.as_ref().unwrap().seconds_left(s.tick), 1);
    assert!(
        !c.events
            .iter()
            .any(|e| matches!(e, Event::Respawned { .. }))
    );
    let c = run(&mut s, 1, &[]);
    let spawn = crate::sim::player::spawn_point(&s.world);
    assert!(c.events.contains(&Event::Respawned {
        player: LOCAL,
        at: spawn
    }));
    assert_eq!(s.me().death, None);
    assert_eq!(s.me().body.pos, spawn);
    assert_eq!(s.me().vitals.health, crate::sim::vitals::MAX_HEALTH);
    assert_eq!(
        s.me().inventory,
        carried,
        "nothing the rules do not name is lost"
    );
}

#[test]
fn a_session_plays_by_the_rules_it_is_given() {
    let world = session().world;
    let rules = crate::content::rules::Rules {
        day_minutes: 2.0,
        start_time: 0.9,
        ..crate::content::rules::Rules::default()
    };
    let content = Arc::new(crate::content::config::Content::with_rules(rules));
    let light = LightMap::compute(&world);
    let mut fast = Session::start_with(content, world.clone(), light, None, false);
    let mut usual = Session::new(world);
    assert_eq!(fast.time_of_day, 0.9);
    assert_ne!(usual.time_of_day, 0.9);
    // A player made by the rules elsewhere (`gen --save`, a joining seat) starts then too.
    let made = PlayerState::starting((1.0, 1.0), &fast.content);
    assert_eq!(made.time_of_day, 0.9);
    let (t0, u0) = (fast.time_of_day, usual.time_of_day);
    run(&mut fast, 600, &[]);
    run(&mut usual, 600, &[]);
    // Ten seconds: a twelfth of a two-minute day, 1/144 of the usual 24-minute one.
    assert!((fast.time_of_day - t0 - 10.0 / 120.0).abs() < 1e-3);
    assert!((usual.time_of_day - u0 - 10.0 / (24.0 * 60.0)).abs() < 1e-3);
}

#[test]
fn time_of_day_moves_a_tick_at_a_time() {
    let mut s = session();
    let t = s.time_of_day;
    run(&mut s, 3600, &[]);
    let day = s.content.rules.day_seconds();
    assert!((s.time_of_day - t - 60.0 / day).abs() < 1e-3);
    assert_eq!(s.player_state(LOCAL).time_of_day, s.time_of_day);
    assert_eq!(s.tick, 3600);
    assert!((s.time() - 60.0).abs() < 1e-9);
}

#[test]
fn play_reveals_the_map_around_the_player_by_light_and_only_there() {
    let mut s = session();
    let c = run(&mut s, 120, &[]);
    assert!(c.revealed.is_some(), "the view is told");
    let map = &s.world.explored;
    let ctr = s.me().body.centre();
    let (px, py) = (ctr.0 as usize, ctr.1 as usize);
    assert!(map.seen(px, py), "where the player stands");
    assert!(map.seen(px, py.saturating_sub(20)), "the sky above");
    let far = crate::world::explored::REVEAL_RADIUS + crate::world::explored::CELL;
    assert!(!map.seen(px + far, py) && !map.seen(px - far, py));
    use crate::world::explored::CELL;
    let dark = |y: usize| {
        let (cx, cy) = (px / CELL * CELL, y / CELL * CELL);
        (cy..cy + CELL).all(|ty| (cx..cx + CELL).all(|tx| s.light.get_with_player(tx, ty, ctr) < 3))
    };
    let deep = (py..py + 28).find(|&y| dark(y)).expect("dark rock below");
    assert!(!map.seen(px, deep), "dark at {deep}");
    // Another tick on the same spot reveals nothing more, and revealing is no edit.
    let c = s.step(&[]);
    assert_eq!((c.revealed, c.edits, s.edits), (None, 0, 0));
}

#[test]
fn players_move_and_dig_each_on_their_own() {
    let mut s = landed();
    let two = s.join();
    assert_eq!(two, PlayerId(1));
    for _ in 0..120 {
        s.step(&[]);
    }
    let a0 = s.players[0].body.pos;
    let b0 = s.players[1].body.pos;
    let walk = Intent::Move {
        axis: 1,
        jump: false,
    };
    for _ in 0..30 {
        s.step(&[(two, walk)]);
    }
    assert_eq!(s.players[0].body.pos, a0, "player 0 stood still");
    assert!(s.players[1].body.pos.0 > b0.0 + 1.0);
    // Player 1 digs under its feet; player 0's inventory is untouched.
    let (px, py) = s.players[1].body.pos;
    let below = (px.floor() as i64, py as i64);
    let inv0 = s.players[0].inventory.clone();
    for _ in 0..120 {
        s.step(&[(two, Intent::Use { at: Some(below) })]);
    }
    assert_eq!(s.world.tile(below.0 as usize, below.1 as usize), Tile::Air);
    assert_eq!(s.players[0].inventory, inv0);
    assert_ne!(
        s.players[1].inventory,
        Inventory::starting(&content().catalog)
    );
    // An intent for a player who is not there is ignored.
    let h = s.world_hash();
    let mut t = s.step(&[(PlayerId(7), walk), (PlayerId(7), Intent::Select(3))]);
    t.events.clear();
    assert!(t.messages.is_empty() && t.tiles.is_empty());
    assert_ne!(s.world_hash(), h, "a tick passed");
}

#[test]
fn the_hash_follows_the_state_and_only_the_state() {
    let a = session();
    let mut b = session();
    assert_eq!(a.world_hash(), b.world_hash(), "same world, same start");
    b.me_mut().inventory.add(Tile::Dirt, 1);
    assert_ne!(a.world_hash(), b.world_hash(), "the inventory counts");
    let mut c = session();
    c.world.chests.open(5, 5);
    let gel = content().catalog.id("gel").unwrap();
    c.world.chests.open(5, 5).add(&content().catalog, gel, 1);
    assert_ne!(a.world_hash(), c.world_hash(), "chests count");
    let mut d = session();
    d.set_tile(10, 10, Tile::Torch);
    assert_ne!(a.world_hash(), d.world_hash(), "tiles count");
    let mut e = session();
    e.world.set_wall(10, 10, crate::world::Wall::Wood);
    assert_ne!(a.world_hash(), e.world_hash(), "walls count");
}

#[test]
fn set_tile_reports_the_tile_relights_and_counts_an_edit() {
    let mut s = session();
    let (x, y) = (100, s.world.height() - 3);
    let c = s.set_tile(x, y, Tile::Torch);
    assert_eq!(c.tiles, [(x, y, Tile::Torch)]);
    assert_eq!(c.edits, 1);
    assert!(s.light.get(x, y) >= crate::sim::light::TORCH);
    let v = s.light_version;
    assert!(s.set_tile(x, y, Tile::Torch).is_empty(), "no change");
    assert!(s.set_tile(9999, 0, Tile::Dirt).is_empty(), "outside");
    s.set_tile(x, y, Tile::Stone);
    assert!(s.light_version > v);
    assert_eq!(s.light, LightMap::compute(&s.world));
}

/// Steps until the flow rests, for a minute at most; returns what changed.
fn flow_for_a_minute(s: &mut Session) -> Changes {
    let mut all = Changes::default();
    for _ in 0..3600 {
        if s.flow.is_idle() {
            break;
        }
        all.extend(s.step(&[]));
    }
    all
}

/// A spot deep in solid rock of the test world, with room for a pool above a room.
fn solid_spot(s: &Session) -> (usize, usize) {
    let (w, h) = (s.world.width(), s.world.height());
    let solid_box = |x: usize, y: usize| {
        (y - 2..=y + 6).all(|yy| (x - 6..=x + 6).all(|xx| s.world.tile(xx, yy).is_solid()))
    };
    (10..h - 10)
        .rev()
        .flat_map(|y| (10..w - 10).step_by(5).map(move |x| (x, y)))
        .find(|&(x, y)| solid_box(x, y))
        .expect("solid rock in the test world")
}

/// Carves a pool of `liquid` five tiles wide, a floor of one tile and a room under it,
/// then opens the floor.
fn pour(s: &mut Session, liquid: Tile) -> (usize, usize) {
    let (x, y) = solid_spot(s);
    for xx in x - 2..=x + 2 {
        s.set_tile(xx, y, liquid);
    }
    for yy in y + 2..=y + 4 {
        for xx in x - 5..=x + 5 {
            s.set_tile(xx, yy, Tile::Air);
        }
    }
    s.set_tile(x, y + 1, Tile::Air);
    s.stir(x, y + 1);
    (x, y)
}

#[test]
fn water_over_a_dug_floor_flows_down_and_reports_its_tiles() {
    let mut s = session();
    let water = s.world.counts()[Tile::Water as usize] + 5;
    let (x, y) = pour(&mut s, Tile::Water);
    let c = flow_for_a_minute(&mut s);
    assert!(s.flow.is_idle(), "still flowing after a minute");
    assert_eq!(
        s.world.counts()[Tile::Water as usize],
        water,
        "none made or lost"
    );
    let in_row = |yy: usize| {
        (x - 5..=x + 5)
            .filter(|&xx| s.world.tile(xx, yy) == Tile::Water)
            .count()
    };
    assert_eq!(
        (in_row(y), in_row(y + 4)),
        (0, 5),
        "the pool fell to the floor"
    );
    // Every tile that ended as water was reported, and the box holds them.
    let f = c.flowed.expect("the flow moved tiles");
    for xx in x - 5..=x + 5 {
        if s.world.tile(xx, y + 4) == Tile::Water {
            assert!(c.tiles.contains(&(xx, y + 4, Tile::Water)));
            assert!(f.contains(xx, y + 4));
        }
    }
    assert_eq!(c.edits, 0, "flowing is no edit");
    assert_eq!(
        s.light,
        LightMap::compute(&s.world),
        "relit like a fresh map"
    );
}

#[test]
fn lava_that_flows_is_relit() {
    let mut s = session();
    let generated = s.world.counts()[Tile::Lava as usize];
    let (x, y) = pour(&mut s, Tile::Lava);
    let c = flow_for_a_minute(&mut s);
    assert!(s.flow.is_idle());
    assert!(!c.relit.is_empty());
    assert_eq!(s.world.counts()[Tile::Lava as usize], generated + 5);
    assert!(
        s.light.get(x, y + 4) >= crate::sim::light::LAVA,
        "the room glows"
    );
    assert_eq!(
        s.light,
        LightMap::compute(&s.world),
        "relit like a fresh map"
    );
}

#[test]
fn changes_far_apart_relight_as_separate_boxes() {
    let b = boxes(&[(10, 10), (12, 14), (500, 300), (26, 10), (505, 290)], 16);
    assert_eq!(b.len(), 2, "{b:?}");
    assert!(b.contains(&((10, 10), (26, 14))));
    assert!(b.contains(&((500, 290), (505, 300))));
    // A tile between two boxes joins them.
    let b = boxes(&[(0, 0), (30, 0), (15, 0)], 16);
    assert_eq!(b, vec![((0, 0), (30, 0))]);
    assert_eq!(
        boxes(&[(1, 2), (900, 900)], usize::MAX),
        vec![((1, 2), (900, 900))]
    );
    assert!(boxes(&[], 16).is_empty());
}

#[test]
fn intents_sort_into_held_controls_and_actions() {
    assert!(
        Intent::Move {
            axis: 1,
            jump: false
        }
        .is_held()
    );
    assert!(Intent::Use { at: None }.is_held());
    assert!(!Intent::Jump.is_held());
    assert!(!Intent::Craft(0).is_held());
    assert_eq!(intent::axis(true, true), 0);
    assert_eq!(intent::axis(true, false), -1);
    let w = intent::walk(-1, true, 2, true);
    assert!(w.left && !w.right && w.jump && w.presses == 2 && w.down);
}

#[test]
fn closing_with_no_room_warns_of_what_was_lost() {
    let mut s = session();
    s.act(LOCAL, Intent::ClickSlot(2));
    let torches = s.me().held.expect("the torches on the cursor").count;
    // Every slot taken by stone: the torches have nowhere to go.
    let left = s.me_mut().inventory.add(Tile::Stone, u32::MAX / 2);
    assert!(left > 0, "the slots are full");
    let c = s.act(LOCAL, Intent::Close);
    let cat = &s.content.catalog;
    let name = &cat.item(Tile::Torch.as_item(cat).unwrap()).name;
    let text = format!("{torches} {name} did not fit back");
    let said = said(&c);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].warning, Some(text));
    assert_eq!(s.me().held, None);
}

#[test]
fn right_clicking_a_door_opens_and_closes_it_and_places_nothing() {
    let mut s = landed();
    let (px, py) = s.me().body.pos;
    let (x, feet) = ((px + 2.0) as usize, py as usize);
    for y in [feet - 2, feet - 1] {
        s.world.set(x, y, Tile::ClosedDoor);
    }
    let torches = s.me().inventory.count(Tile::Torch);
    let click = Intent::Place {
        x: x as i64,
        y: feet as i64 - 1,
        pressed: true,
    };
    let edits = s.edits;
    let c = run(&mut s, 1, &[click]);
    let door = Event::Door {
        x: x as i64,
        y: feet as i64 - 1,
        open: true,
    };
    assert!(c.events.contains(&door), "{:?}", c.events);
    assert_eq!(
        (s.world.tile(x, feet - 2), s.world.tile(x, feet - 1)),
        (Tile::OpenDoor, Tile::OpenDoor)
    );
    assert!(s.edits > edits, "a door opened is an edit saved");
    assert_eq!(s.me().inventory.count(Tile::Torch), torches);
    run(&mut s, 1, &[click]);
    assert_eq!(s.world.tile(x, feet - 2), Tile::ClosedDoor);
}

#[test]
fn right_clicking_the_guide_talks_and_holding_wood_he_names_the_workbench() {
    let mut s = landed();
    let (px, py) = s.me().body.pos;
    let aim = Intent::Place {
        x: (px + 2.0) as i64,
        y: py as i64 - 1,
        pressed: true,
    };
    let before = s.world.tiles().to_vec();
    s.guide_mut().body.pos = (px + 2.0, py);
    let c = run(&mut s, 1, &[aim]);
    // What he says is a talk, kept up long enough to read, not a notice.
    let talk = said(&c).into_iter().find_map(|s| match s.shown? {
        crate::net::said::Shown::Talk { text, seconds } => Some((text, seconds)),
        _ => None,
    });
    let (text, seconds) = talk.expect("the Guide talks");
    assert!(text.starts_with("Guide: "), "{text}");
    assert_eq!(seconds, crate::net::said::TALK_SECONDS);
    let said = notices(&c);
    assert!(said.contains(&text), "{said:?}");
    assert_eq!(s.world.tiles(), &before[..], "talking places nothing");
    s.players[0].inventory.add("wood", 3);
    let slot = (0..crate::world::inventory::HOTBAR_SLOTS).find(|&i| {
        s.players[0].inventory.select(i);
        s.me().inventory.selected_tile() == Some(Tile::Wood)
    });
    assert!(slot.is_some());
    s.guide_mut().body.pos = (px + 2.0, py);
    let said = notices(&run(&mut s, 1, &[aim]));
    assert!(
        said.iter()
            .any(|t| t.starts_with("Guide: wood makes: workbench")),
        "{said:?}"
    );
}

#[test]
fn holding_the_button_on_a_townsperson_places_nothing_and_says_so() {
    let mut s = landed();
    let (px, py) = s.me().body.pos;
    s.players[0].inventory.add("wood", 3);
    let slot = (0..crate::world::inventory::HOTBAR_SLOTS).find(|&i| {
        s.players[0].inventory.select(i);
        s.me().inventory.selected_tile() == Some(Tile::Wood)
    });
    assert!(slot.is_some());
    let (x, y) = ((px + 2.0) as i64, py as i64 - 1);
    let held = Intent::Place {
        x,
        y,
        pressed: false,
    };
    let before = s.world.tiles().to_vec();
    s.guide_mut().body.pos = (px + 2.0, py);
    let c = run(&mut s, 1, &[held]);
    assert_eq!(refusals(&c), [EditRefusal::SomeoneThere]);
    assert_eq!(s.world.tiles(), &before[..], "nothing went into the Guide");
    assert!(
        EditRefusal::SomeoneThere
            .text(&s.content.catalog)
            .contains("someone")
    );
    // With nothing placeable selected, holding on him is no refusal (nothing was tried).
    let none = (0..crate::world::inventory::HOTBAR_SLOTS).find(|&i| {
        s.players[0].inventory.select(i);
        s.me().inventory.selected_tile().is_none() && s.me().inventory.selected_wall().is_none()
    });
    assert!(none.is_some());
    s.guide_mut().body.pos = (px + 2.0, py);
    assert!(refusals(&run(&mut s, 1, &[held])).is_empty());
}

/// A room of wood 12 wide and 8 tall (its frame counted) from column `x0`, its floor on
/// row `floor`, with a door on its left, a table, a chair and a torch: a house once walls
/// stand behind it.
pub(super) fn build_house(s: &mut Session, x0: usize, floor: usize) {
    let (py, top) = (floor, floor - 7);
    for y in top..py {
        for x in x0..x0 + 12 {
            let edge = x == x0 || x == x0 + 11 || y == top;
            s.world.set(x, y, if edge { Tile::Wood } else { Tile::Air });
        }
    }
    for x in x0..x0 + 12 {
        s.world.set(x, py, Tile::Wood);
    }
    s.world.set(x0, py - 1, Tile::ClosedDoor);
    s.world.set(x0, py - 2, Tile::ClosedDoor);
    s.world.set(x0 + 3, py - 1, Tile::Table);
    s.world.set(x0 + 4, py - 1, Tile::Chair);
    s.world.set(x0 + 5, py - 4, Tile::Torch);
}

/// Wood walls behind the inside of [`build_house`]'s room.
pub(super) fn wall_house(s: &mut Session, x0: usize, floor: usize) {
    for y in floor - 6..floor {
        for x in x0 + 1..x0 + 11 {
            s.world.set_wall(x, y, crate::world::Wall::Wood);
        }
    }
}

#[test]
fn the_guide_moves_into_a_house_shown_him_and_out_when_it_is_broken() {
    let mut s = landed();
    let (px, py) = (s.me().body.pos.0 as usize, s.me().body.pos.1 as usize);
    let x0 = px + 2;
    build_house(&mut s, x0, py);
    let ask = Intent::Housing {
        x: x0 as i64 + 6,
        y: py as i64 - 3,
    };
    // Without background walls it is no house, and the Guide stays where he is.
    let said = notices(&s.act(LOCAL, ask));
    assert!(
        said.iter()
            .any(|t| t.starts_with("Not a house") && t.contains("without a background wall")),
        "{said:?}"
    );
    assert!(s.guide().homeless());
    wall_house(&mut s, x0, py);
    let said = notices(&s.act(LOCAL, ask));
    assert!(
        said.iter().any(|t| t.ends_with("The Guide moves in.")),
        "{said:?}"
    );
    assert!(!s.guide().homeless());
    // Without its light the room is no house: within the next check he moves out.
    s.world.set(x0 + 5, py - 4, Tile::Air);
    let said = notices(&run(&mut s, 150, &[]));
    assert!(
        said.iter().any(|t| t.starts_with("The Guide moves out")),
        "{said:?}"
    );
    assert!(s.guide().homeless());
    // Back in a house, he moves in again; a wall hammered out of it sends him out too.
    s.world.set(x0 + 5, py - 4, Tile::Torch);
    s.act(LOCAL, ask);
    assert!(!s.guide().homeless());
    s.world.set_wall(x0 + 8, py - 2, crate::world::Wall::None);
    assert_eq!(
        s.room_at(x0 as i64 + 6, py as i64 - 3).lacks,
        vec![crate::sim::housing::Lack::Walls(1)]
    );
    let said = notices(&run(&mut s, 150, &[]));
    assert!(
        said.iter()
            .any(|t| t.starts_with("The Guide moves out") && t.contains("1 tiles without")),
        "{said:?}"
    );
    assert!(s.guide().homeless());
}

#[test]
fn a_wall_is_placed_on_the_place_button_and_a_held_hammer_takes_it_down() {
    use crate::world::Wall;
    let mut s = landed();
    let (px, py) = s.me().body.pos;
    // Beside the player's head: open sky, with the ground two tiles under it.
    let (x, y) = (px.floor() as i64 + 1, py as i64 - 2);
    assert_eq!(s.world.wall(x as usize, y as usize), Wall::None);
    s.me_mut().inventory.add("wood_wall", 2);
    s.me_mut().inventory.add("wooden_hammer", 1);
    let slot = |s: &Session, name: &str| {
        let id = content().catalog.id(name).unwrap();
        let i = s
            .me()
            .inventory
            .slots()
            .iter()
            .position(|k| k.is_some_and(|k| k.item == id));
        i.unwrap()
    };
    let (wall_slot, hammer_slot) = (slot(&s, "wood_wall"), slot(&s, "wooden_hammer"));
    s.step(&[(LOCAL, Intent::Select(wall_slot))]);
    // Floating in the sky with nothing beside it: refused.
    let c = run(
        &mut s,
        1,
        &[Intent::Place {
            x,
            y: y - 3,
            pressed: true,
        }],
    );
    assert_eq!(refusals(&c), [EditRefusal::NoSupport]);
    // On the ground, then on that wall.
    let ground = (0..s.world.height() as i64 - 1)
        .find(|&g| s.world.tile(x as usize, g as usize + 1).is_solid())
        .unwrap();
    let c = run(
        &mut s,
        1,
        &[Intent::Place {
            x,
            y: ground,
            pressed: true,
        }],
    );
    assert!(refusals(&c).is_empty(), "{:?}", refusals(&c));
    assert_eq!(s.world.wall(x as usize, ground as usize), Wall::Wood);
    assert_eq!(s.me().inventory.count("wood_wall"), 1);
    let before = s.light.get(x as usize, ground as usize);
    // A hammer held on it takes it down and gives it back.
    s.step(&[(LOCAL, Intent::Select(hammer_slot))]);
    let at = Some((x, ground));
    run(&mut s, 60, &[Intent::Use { at }]);
    assert_eq!(s.world.wall(x as usize, ground as usize), Wall::None);
    assert_eq!(s.me().inventory.count("wood_wall"), 2);
    assert!(s.light.get(x as usize, ground as usize) >= before);
}

#[test]
fn a_full_inventory_digs_and_hammers_and_what_it_gave_lies_until_there_is_room() {
    use crate::world::Wall;
    let mut s = landed();
    let (px, py) = s.me().body.pos;
    let (bx, by) = (px.floor() as usize, py as usize);
    s.world.set(bx, by, Tile::Dirt);
    let (wx, wy) = (bx + 1, by - 2);
    s.world.set_wall(wx, wy, Wall::Wood);
    s.me_mut().inventory.add("wooden_hammer", 1);
    let dirt = Tile::Dirt.as_item(&content().catalog).unwrap();
    let wood_wall = content().catalog.id("wood_wall").unwrap();
    let most = content().catalog.item(dirt).stack;
    s.me_mut()
        .inventory
        .add(dirt, most * crate::world::inventory::SLOTS as u32);
    let (dirt_held, walls_held) = (
        s.me().inventory.count(dirt),
        s.me().inventory.count(wood_wall),
    );
    assert_eq!(s.me().inventory.room_for(dirt), 0);
    assert_eq!(s.me().inventory.room_for(wood_wall), 0);
    let hammer = s
        .me()
        .inventory
        .slots()
        .iter()
        .position(|k| {
            k.is_some_and(|k| k.item == "wooden_hammer".as_item(&content().catalog).unwrap())
        })
        .unwrap();
    let pickaxe = s.me().inventory.selected();
    // The hammer takes the placed wall down: its item lies where it was.
    s.step(&[(LOCAL, Intent::Select(hammer))]);
    let at = Some((wx as i64, wy as i64));
    let mut c = Changes::default();
    for _ in 0..60 {
        c.extend(s.step(&[(LOCAL, Intent::Use { at })]));
        if s.world.wall(wx, wy) == Wall::None {
            break;
        }
    }
    assert!(refusals(&c).is_empty(), "{:?}", refusals(&c));
    assert_eq!(s.world.wall(wx, wy), Wall::None);
    let lying = |s: &Session, item| {
        s.world
            .dropped
            .iter()
            .filter(|d| d.stack.item == item)
            .count()
    };
    assert_eq!(lying(&s, wood_wall), 1);
    // The pickaxe digs the dirt under the feet: the tile goes, a dirt item lies there.
    s.step(&[(LOCAL, Intent::Select(pickaxe))]);
    let at = Some((bx as i64, by as i64));
    let c = run(&mut s, 120, &[Intent::Use { at }]);
    assert!(refusals(&c).is_empty(), "{:?}", refusals(&c));
    assert_eq!(s.world.tile(bx, by), Tile::Air);
    let dropped = Event::Dropped {
        item: dirt,
        count: 1,
        at: (bx as f32 + 0.5, by as f32 + 0.5),
    };
    assert!(c.events.contains(&dropped), "{:?}", c.events);
    // Nothing is picked up while there is no room, and nothing is lost.
    run(&mut s, 120, &[]);
    assert_eq!((lying(&s, dirt), lying(&s, wood_wall)), (1, 1));
    assert_eq!(s.me().inventory.count(dirt), dirt_held);
    // Room made: both fly in.
    s.me_mut().inventory.remove(dirt, 2 * most);
    run(&mut s, 120, &[]);
    assert!(s.world.dropped.is_empty(), "{:?}", s.world.dropped);
    assert_eq!(s.me().inventory.count(dirt), dirt_held - 2 * most + 1);
    assert_eq!(s.me().inventory.count(wood_wall), walls_held + 1);
}

/// A fall of `rows` down a cleared shaft to the ground, holding down all the way, with a
/// rope hanging from `rope` rows above the ground to three rows above it (or none): the
/// health lost, whether the player held the rope on the way, and whether a hurting fall
/// was logged.
fn fall_down_a_shaft(rows: usize, rope: Option<usize>) -> (f32, bool, bool) {
    let mut s = landed();
    s.creatures.list.clear();
    s.me_mut().vitals.invincible = 1e6;
    let (px, py) = s.me().body.pos;
    let (x, ground) = (px.floor() as usize, py as usize);
    for y in ground - rows - 5..ground {
        for xx in x - 1..=x + 1 {
            s.world.set(xx, y, Tile::Air);
        }
    }
    for y in rope.map_or(ground, |r| ground - r)..ground - 3 {
        s.world.set(x, y, Tile::Rope);
    }
    let health = s.me().vitals.health;
    s.me_mut().body.pos = (x as f32 + 0.5, (ground - rows) as f32);
    s.me_mut().body.on_ground = false;
    let (mut held, mut all) = (false, Changes::default());
    for _ in 0..60 * 10 {
        all.extend(s.step(&[(LOCAL, Intent::Down)]));
        held |= s.me().body.climbing;
        if s.me().body.on_ground {
            break;
        }
    }
    all.extend(run(&mut s, 10, &[]));
    assert!(s.me().body.on_ground, "landed");
    let fell = log_lines(&all).iter().any(|l| l.starts_with("fell "));
    (health - s.me().vitals.health, held, fell)
}

#[test]
fn a_rope_grabbed_mid_fall_ends_the_fall_without_damage() {
    let content = Content::builtin();
    let safe = content.rules.safe_fall as usize;
    // Without a rope the fall hurts.
    let (lost, held, fell) = fall_down_a_shaft(safe + 8, None);
    assert!(
        !held && fell && lost >= 5.0 * content.rules.fall_damage,
        "{lost}"
    );
    // A rope reached partway down is grabbed (down held) and climbed down to its end: the
    // fall above it and the drop off its end each stay short of hurting.
    let (lost, held, fell) = fall_down_a_shaft(safe + 8, Some(safe));
    assert!(held, "the rope was held");
    assert_eq!((lost, fell), (0.0, false));
}

/// A house with walls built at `x0` on the ground row `py`, and the housing query of its
/// room.
pub(super) fn walled_house(s: &mut Session, x0: usize, py: usize) -> Intent {
    build_house(s, x0, py);
    wall_house(s, x0, py);
    Intent::Housing {
        x: x0 as i64 + 6,
        y: py as i64 - 3,
    }
}

#[test]
fn the_merchant_comes_to_a_free_house_once_fifty_silver_is_carried_and_trades() {
    let mut s = landed();
    let (px, py) = (s.me().body.pos.0 as usize, s.me().body.pos.1 as usize);
    let x0 = px + 2;
    let house = |s: &mut Session, x0: usize| walled_house(s, x0, py);
    let ask = house(&mut s, x0);
    // The Guide takes the first house: none is free, and coins alone bring no one.
    s.act(LOCAL, ask);
    assert!(!s.guide().homeless());
    s.me_mut().inventory.add("silver_coin", 60);
    run(&mut s, 150, &[]);
    assert!(s.folk("Merchant").is_none(), "no free house");
    // A second house beside it, shown with X, but only 49 silver carried.
    let x1 = x0 + 14;
    let ask2 = house(&mut s, x1);
    s.act(LOCAL, ask2);
    s.me_mut().inventory.remove("silver_coin", 11);
    run(&mut s, 150, &[]);
    assert!(s.folk("Merchant").is_none(), "49 silver is short");
    // 50 silver: he arrives in the free house.
    s.me_mut().inventory.add("copper_coin", 100);
    crate::sim::coins::settle(&mut s.me_mut().inventory, &content().town.coins);
    assert_eq!(s.me().inventory.count("silver_coin"), 50);
    let c = run(&mut s, 150, &[]);
    let m = s.folk("Merchant").cloned().expect("the Merchant arrived");
    let home = m.home.unwrap();
    assert!(home.0 > x1 as f32 && home.0 < (x1 + 11) as f32, "{home:?}");
    assert!(
        notices(&c)
            .iter()
            .any(|t| t.starts_with("The Merchant has arrived"))
    );
    let said = notices(&s.act(LOCAL, ask2));
    assert!(
        said.iter().any(|t| t.ends_with("The Merchant lives here.")),
        "{said:?}"
    );
    // Right-click him: his shop opens; buy a torch, sell a stack of gel.
    let c = super::town_tests::click_on(&mut s, "Merchant");
    assert!(
        c.events.contains(&Event::ShopOpened { player: LOCAL }),
        "{:?}",
        c.events
    );
    assert_eq!(s.me().shop, Some("Merchant"));
    let coins = &content().town.coins;
    let before = crate::sim::coins::worth(&s.me().inventory, coins);
    let torches = s.me().inventory.count("torch");
    let torch = content().catalog.id("torch").unwrap();
    let wares = &content().town.merchant.sells;
    let i = wares.iter().position(|&w| w == torch).unwrap();
    s.act(LOCAL, Intent::Buy(i));
    assert_eq!(s.me().inventory.count("torch"), torches + 1);
    assert_eq!(
        crate::sim::coins::worth(&s.me().inventory, coins),
        before - 50
    );
    s.me_mut().inventory.add("gel", 20);
    let gel = s
        .me()
        .inventory
        .slots()
        .iter()
        .position(|k| k.is_some_and(|k| k.item == content().catalog.id("gel").unwrap()))
        .unwrap();
    let said = notices(&s.act(LOCAL, Intent::Sell(gel)));
    assert_eq!(said, ["Sold 20 gel for 20 copper"]);
    assert_eq!(
        crate::sim::coins::worth(&s.me().inventory, coins),
        before - 30
    );
    // Closed, the shop sells nothing.
    s.act(LOCAL, Intent::Close);
    s.act(LOCAL, Intent::Buy(i));
    assert_eq!(s.me().inventory.count("torch"), torches + 1);
    // A save keeps him in his house.
    let state = s.player_state(LOCAL);
    let back = Session::from_save(s.world.clone(), state);
    assert_eq!(back.folk("Merchant").and_then(|m| m.home), Some(home));
    assert_eq!(back.guide().home, s.guide().home);
}

#[test]
fn the_nurse_comes_to_a_free_house_once_a_life_crystal_is_used_and_heals_for_coins() {
    let mut s = landed();
    let (px, py) = (s.me().body.pos.0 as usize, s.me().body.pos.1 as usize);
    let x0 = px + 2;
    let house = |s: &mut Session, x0: usize| walled_house(s, x0, py);
    let ask = house(&mut s, x0);
    s.act(LOCAL, ask);
    assert!(!s.guide().homeless());
    // A free house, but the first most health: she does not come.
    let ask2 = house(&mut s, x0 + 14);
    s.act(LOCAL, ask2);
    run(&mut s, 150, &[]);
    assert!(s.folk("Nurse").is_none(), "no life crystal used");
    // A life crystal used: she arrives in the free house within a check.
    let rules = std::sync::Arc::clone(&s.content);
    s.me_mut().vitals.use_crystal(&rules.rules).unwrap();
    let c = run(&mut s, 150, &[]);
    let n = s.folk("Nurse").cloned().expect("the Nurse arrived");
    assert!(
        c.events
            .iter()
            .any(|e| matches!(e, Event::NurseArrived { .. }))
    );
    assert!(
        notices(&c)
            .iter()
            .any(|t| t.starts_with("The Nurse has arrived")),
        "{:?}",
        notices(&c)
    );
    assert_eq!(s.town().count(), 2, "the Guide and the Nurse");
    let said = notices(&s.act(LOCAL, ask2));
    assert!(
        said.iter().any(|t| t.ends_with("The Nurse lives here.")),
        "{said:?}"
    );
    // Right-clicked, healthy: nothing to heal. Hurt by 45.5 with 30 copper carried: short.
    let (nx, _) = n.body.centre();
    s.me_mut().body.pos = (nx - 2.0, n.body.pos.1);
    s.me_mut().body.vel = (0.0, 0.0);
    let click = |s: &mut Session| {
        let n = s.folk("Nurse").unwrap().body.centre();
        let at = Intent::Place {
            x: n.0.floor() as i64,
            y: n.1.floor() as i64,
            pressed: true,
        };
        s.step(&[(LOCAL, at)])
    };
    let c = click(&mut s);
    assert_eq!(notices(&c), ["Nurse: you look healthy to me"]);
    let coins = &content().town.coins;
    let most = s.me().vitals.max_health;
    s.me_mut().vitals.health = most - 45.5;
    s.me_mut().inventory.add("copper_coin", 30);
    let c = click(&mut s);
    assert_eq!(notices(&c), ["Nurse: 16 copper more is needed"]);
    assert_eq!(crate::sim::coins::worth(&s.me().inventory, coins), 30);
    // With a silver more: 46 copper paid (a part point whole), healed to the most (the
    // tick's regeneration may have taken a little off the 45.5 first).
    s.me_mut().inventory.add("silver_coin", 1);
    let c = click(&mut s);
    assert_eq!(s.me().vitals.health, most);
    assert_eq!(crate::sim::coins::worth(&s.me().inventory, coins), 130 - 46);
    assert!(
        c.events
            .iter()
            .any(|e| matches!(e, Event::Healed { player: LOCAL, amount } if (45.0..=45.5).contains(amount))),
        "{:?}",
        c.events
    );
    // A save keeps her in her house.
    let back = Session::from_save(s.world.clone(), s.player_state(LOCAL));
    assert_eq!(back.folk("Nurse").and_then(|n| n.home), n.home);
    assert!(back.folk("Merchant").is_none());
}

#[test]
fn a_life_crystal_used_raises_the_most_health_and_a_save_keeps_it() {
    let mut s = landed();
    s.me_mut().inventory.add("life_crystal", 2);
    let id = content().catalog.id("life_crystal").unwrap();
    let slot = s
        .me()
        .inventory
        .slots()
        .iter()
        .position(|k| k.is_some_and(|k| k.item == id))
        .unwrap();
    s.step(&[(LOCAL, Intent::Select(slot))]);
    let (px, py) = s.me().body.pos;
    // Aimed at the ground under the feet: using it digs nothing there.
    let (gx, gy) = (px as usize, py as usize);
    let ground = s.world.tile(gx, gy);
    assert!(ground.is_solid());
    let at = Some((gx as i64, gy as i64));
    let said = notices(&run(&mut s, 20, &[Intent::Use { at }]));
    assert_eq!(said, ["Most health 120"]);
    assert_eq!(s.world.tile(gx, gy), ground, "using it digs nothing");
    // The next one after the half-second wait.
    let said = notices(&run(&mut s, 15, &[Intent::Use { at }]));
    assert_eq!(said, ["Most health 140"]);
    assert_eq!(s.me().vitals.max_health, 140.0);
    assert_eq!(s.me().inventory.count("life_crystal"), 0);
    let state = s.player_state(LOCAL);
    assert_eq!(state.max_health, 140.0);
    let back = Session::from_save(s.world.clone(), state);
    assert_eq!(back.me().vitals.max_health, 140.0);
}

#[test]
fn a_life_crystal_tile_breaks_into_the_item() {
    assert_eq!(
        crate::base::tile::drop_of(Tile::LifeCrystal),
        Tile::LifeCrystal
    );
    let cat = &content().catalog;
    let item = cat.item(content().catalog.id("life_crystal").unwrap());
    assert_eq!(
        item.kind,
        crate::content::items::Kind::Block(Tile::LifeCrystal)
    );
}

/// Pours lava around the player and steps until it dies (at most four seconds); returns
/// the changes of the tick it died in.
fn die_in_lava(s: &mut Session) -> Changes {
    pour_lava_on(s, LOCAL);
    for _ in 0..60 * 4 {
        let c = s.step(&[]);
        if c.events.contains(&Event::Died { player: LOCAL }) {
            return c;
        }
    }
    panic!("lava kills within four seconds");
}

/// Lava around player `who`'s body.
fn pour_lava_on(s: &mut Session, who: PlayerId) {
    let (px, py) = s.players[who.0].body.pos;
    for y in (py - 2.0) as usize..py as usize {
        for x in (px - 1.0) as usize..=(px + 1.0) as usize {
            s.world.set(x, y, Tile::Lava);
        }
    }
}

/// A bed beside the landed player, on a stone floor with room above it: its tile.
fn bed_beside(s: &mut Session) -> (usize, usize) {
    let (px, py) = s.me().body.pos;
    bed_at(s, (px + 3.0) as usize, py as usize)
}

/// A bed in column `x` standing on a stone tile at row `feet`, with room above it: its
/// tile.
fn bed_at(s: &mut Session, x: usize, feet: usize) -> (usize, usize) {
    s.world.set(x, feet, Tile::Stone);
    for y in feet - 4..feet {
        s.world.set(x, y, Tile::Air);
    }
    s.world.set(x, feet - 1, Tile::Bed);
    (x, feet - 1)
}

#[test]
fn a_used_bed_is_where_a_death_comes_back_until_it_is_broken() {
    let mut s = landed();
    let (x, y) = bed_beside(&mut s);
    let torches = s.me().inventory.count(Tile::Torch);
    let click = Intent::Place {
        x: x as i64,
        y: y as i64,
        pressed: true,
    };
    let c = run(&mut s, 1, &[click]);
    assert_eq!(notices(&c), vec!["Spawn point set".to_string()]);
    assert_eq!(s.me().bed, Some((x, y)));
    assert_eq!(
        s.me().inventory.count(Tile::Torch),
        torches,
        "nothing placed"
    );
    assert_eq!(s.player_state(LOCAL).bed, Some((x, y)), "saves keep it");
    die_in_lava(&mut s);
    run(&mut s, ticks(10.0) as usize, &[]);
    let (bx, by) = s.me().body.pos;
    assert_eq!(bx, x as f32 + 0.5);
    assert!(
        (by - (y as f32 + 1.0)).abs() < 0.01,
        "{by} in the bed at {y}"
    );
    // Broken: the next death is at the world's spawn point, and says so.
    s.world.set(x, y, Tile::Air);
    let mut all = die_in_lava(&mut s);
    all.extend(run(&mut s, ticks(10.0) as usize, &[]));
    assert!(
        notices(&all).iter().any(|n| n.contains("your bed is gone")),
        "{:?}",
        notices(&all)
    );
    assert_eq!(s.me().bed, None);
    let spawn = crate::sim::player::spawn_point(&s.world);
    assert!((s.me().body.pos.0 - spawn.0).abs() < 0.01);
}

#[test]
fn a_bed_out_of_reach_or_blocked_sets_nothing() {
    let mut s = landed();
    let (x, y) = bed_beside(&mut s);
    s.world.set(x, y - 1, Tile::Stone);
    let click = |x: usize| Intent::Place {
        x: x as i64,
        y: y as i64,
        pressed: true,
    };
    let c = run(&mut s, 1, &[click(x)]);
    assert_eq!(
        notices(&c),
        vec!["Can't sleep here: your bed is blocked".to_string()]
    );
    assert_eq!(s.me().bed, None);
    let far = x + 12;
    s.world.set(far, y, Tile::Bed);
    let c = run(&mut s, 1, &[click(far)]);
    assert_eq!(refusals(&c), vec![EditRefusal::OutOfReach]);
    assert_eq!(s.me().bed, None);
}

#[test]
fn a_thrown_stack_lies_in_the_world_is_saved_with_it_and_a_full_inventory_leaves_it() {
    let mut s = landed();
    s.me_mut().inventory.add("gel", 5);
    let slot = (0..crate::world::inventory::HOTBAR_SLOTS)
        .find(|&i| {
            s.me().inventory.slots()[i]
                .is_some_and(|st| st.item == "gel".as_item(&content().catalog).unwrap())
        })
        .expect("gel in the hotbar");
    s.act(LOCAL, Intent::Select(slot));
    let c = s.act(LOCAL, Intent::Throw);
    assert_eq!(s.me().inventory.count("gel"), 0);
    assert!(
        c.events
            .iter()
            .any(|e| matches!(e, Event::Dropped { count: 5, .. }))
    );
    assert_eq!(s.world.dropped.len(), 1);
    // Too soon to take back; it lands ahead of the player.
    run(&mut s, 30, &[]);
    assert_eq!(s.me().inventory.count("gel"), 0);
    let a = s.world_hash();
    s.world.dropped[0].pos.0 += 0.25;
    assert_ne!(a, s.world_hash(), "the hash sees items lying about");
    s.world.dropped[0].pos.0 -= 0.25;
    // A full inventory leaves it lying.
    let full = s.me().inventory.clone();
    let dirt = Tile::Dirt.as_item(&content().catalog).unwrap();
    let most = content().catalog.item(dirt).stack;
    s.me_mut()
        .inventory
        .add(dirt, most * crate::world::inventory::SLOTS as u32);
    assert_eq!(s.me().inventory.room_for("gel"), 0);
    run(&mut s, 120, &[]);
    assert_eq!(s.world.dropped.len(), 1, "it stays");
    s.me_mut().inventory = full;
    run(&mut s, 60, &[]);
    assert_eq!(
        s.me().inventory.count("gel"),
        5,
        "picked up once there is room"
    );
    assert!(s.world.dropped.is_empty());
}

#[test]
fn loot_all_and_deposit_all_move_stacks_of_the_open_chest_only() {
    let (mut s, at, gel) = chest_of_gel();
    // No chest open: nothing moves.
    let c = s.act(LOCAL, Intent::LootAll);
    assert_eq!((c.edits, s.me().inventory.count(gel)), (0, 0));
    s.act(
        LOCAL,
        Intent::OpenChest {
            x: at.0 as i64,
            y: at.1 as i64,
        },
    );
    let c = s.act(LOCAL, Intent::LootAll);
    assert_eq!((c.edits, s.me().inventory.count(gel)), (1, 6));
    assert!(s.world.chests.get(at.0, at.1).is_none_or(|c| c.is_empty()));
    // The gel went to the hotbar's first free slot: deposit all leaves it there; wood
    // past the hotbar goes in.
    let most = content()
        .catalog
        .item("wood".as_item(&content().catalog).unwrap())
        .stack;
    s.me_mut().inventory.add("wood", most * 9);
    let c = s.act(LOCAL, Intent::DepositAll);
    assert_eq!(c.edits, 1);
    assert_eq!(s.me().inventory.count(gel), 6);
    let chest = s.world.chests.get(at.0, at.1).unwrap();
    let held = s.me().inventory.count("wood");
    let stored: u32 = chest.slots().iter().flatten().map(|s| s.count).sum();
    assert_eq!(held + stored, most * 9);
    assert!(stored > 0 && held > 0, "{held} {stored}");
}

/// Scripted intents for three players over `n` ticks: walking, jumping, digging below.
fn three_players(n: u64) -> Session {
    let mut s = landed();
    let b = s.join();
    let c = s.join();
    for t in 0..n {
        let mut list = Vec::new();
        for (k, who) in [LOCAL, b, c].into_iter().enumerate() {
            let (px, py) = s.players[who.0].body.pos;
            let axis = [1, -1, 0][(k + (t / 90) as usize) % 3];
            list.push((who, Intent::Move { axis, jump: false }));
            if (t + k as u64).is_multiple_of(50) {
                list.push((who, Intent::Jump));
            }
            if t % 120 > 60 {
                let at = Some((px.floor() as i64, py as i64));
                list.push((who, Intent::Use { at }));
            }
        }
        s.step(&list);
    }
    s
}

#[test]
fn many_players_step_the_same_from_the_same_intents() {
    let a = three_players(600);
    let b = three_players(600);
    assert_eq!(a.world_hash(), b.world_hash());
    assert!(a.edits > 0, "they dug");
    let fewer = three_players(599);
    assert_ne!(a.world_hash(), fewer.world_hash());
}

#[test]
fn a_player_who_left_stands_still_and_a_joining_one_takes_the_seat() {
    let mut s = landed();
    let two = s.join();
    assert!(s.is_present(two));
    s.leave(two);
    assert!(!s.is_present(two) && s.is_present(LOCAL));
    let at = s.players[two.0].body.pos;
    let walk = Intent::Move {
        axis: 1,
        jump: false,
    };
    for _ in 0..60 {
        s.step(&[(two, walk)]);
    }
    assert_eq!(s.players[two.0].body.pos, at, "no intents, no physics");
    // A kept character sits down in the empty seat, with what it had.
    let mut kept = PlayerState::new(s.players[LOCAL.0].body.pos, &s.content.catalog);
    kept.inventory.add(Tile::Wood, 42);
    kept.health = 55.0;
    let back = s.join_as(&kept);
    assert_eq!(back, two);
    assert_eq!(s.players[two.0].inventory.count(Tile::Wood), 42);
    assert_eq!(s.players[two.0].vitals.health, 55.0);
    let third = s.join_as(&kept);
    assert_eq!(third, PlayerId(2), "no seat free: a new one");
    // With player 0 gone the creatures still come, for those who stay.
    s.leave(LOCAL);
    for _ in 0..60 * 20 {
        s.step(&[]);
    }
    assert!(s.creatures.spawned > 0);
}

#[test]
fn each_seat_comes_back_at_its_own_bed_and_one_without_a_bed_at_the_worlds_spawn() {
    let mut s = landed();
    let spawn = crate::sim::player::spawn_point(&s.world);
    // Two beds well apart, left and right of the spawn point, under the open sky.
    let bed_a = bed_at(&mut s, spawn.0 as usize - 40, 40);
    let bed_b = bed_at(&mut s, spawn.0 as usize + 40, 40);
    let at = |(x, y): (usize, usize)| (x as f32 + 0.5, y as f32 + 1.0);
    let seat = |pos, bed| PlayerState {
        bed,
        ..PlayerState::new(pos, &content().catalog)
    };
    // Characters a server kept: two with beds, one without, each on the ground apart.
    let ground = |s: &Session, dx: i64| {
        let x = (spawn.0 as i64 + dx) as usize;
        (x as f32 + 0.5, s.world.surface[x] as f32)
    };
    let a = s.join_as(&seat(ground(&s, -25), Some(bed_a)));
    let b = s.join_as(&seat(ground(&s, 25), Some(bed_b)));
    let c = s.join_as(&seat(ground(&s, 12), None));
    run(&mut s, 120, &[]);
    let mut died = Vec::new();
    let mut back = Vec::new();
    let wait = ticks(f64::from(s.content.rules.respawn_seconds) + 5.0) as usize;
    for t in 0..wait {
        // Lava on each of them until it has died (a body may step out of the first).
        for who in [a, b, c] {
            if t % 30 == 0 && t < 240 && !died.contains(&who) {
                pour_lava_on(&mut s, who);
            }
        }
        for e in s.step(&[]).events {
            match e {
                Event::Died { player } => died.push(player),
                Event::Respawned { player, at } => back.push((player, at)),
                _ => {}
            }
        }
    }
    for who in [a, b, c] {
        assert!(died.contains(&who), "seat {} died: {died:?}", who.0);
    }
    let where_back = |who: PlayerId| back.iter().find(|(p, _)| *p == who).map(|&(_, at)| at);
    assert_eq!(where_back(a), Some(at(bed_a)), "{back:?}");
    assert_eq!(where_back(b), Some(at(bed_b)));
    assert_eq!(
        where_back(c),
        Some(spawn),
        "no bed: the world's spawn point"
    );
    assert_eq!(s.players[a.0].bed, Some(bed_a), "the beds stay theirs");
    assert_eq!(
        s.player_state(b).bed,
        Some(bed_b),
        "and go with the character"
    );
    assert_eq!(s.me().bed, None, "the host's own spawn point is untouched");
}

#[test]
fn a_player_saved_while_dead_is_saved_as_its_death_leaves_it() {
    let mut s = landed();
    // Walk off a little, then die there.
    run(
        &mut s,
        60,
        &[Intent::Move {
            axis: 1,
            jump: false,
        }],
    );
    let died_at = s.me().body.pos;
    let mut c = Changes::default();
    s.die(LOCAL, Harm::Fall(500.0), &mut c);
    s.me_mut().vitals.health = 0.0;
    let saved = s.player_state(LOCAL);
    let (back, _) = crate::sim::respawn::respawn_at(&s.world, s.me().bed);
    assert_eq!(
        saved.pos, back,
        "at the spawn point, not where it died ({died_at:?})"
    );
    assert_eq!(saved.health, saved.max_health, "with full health");
    // Its own window still sees it lying dead.
    assert_eq!(s.live_state(LOCAL).pos, s.me().body.pos);
    assert_eq!(s.live_state(LOCAL).health, 0.0);
    // What the save holds is what the death screen's end gives.
    let c = run(&mut s, 60 * 30, &[]);
    assert!(s.me().death.is_none());
    assert!(
        c.events.contains(&Event::Respawned {
            player: LOCAL,
            at: back
        }),
        "{:?}",
        c.events
    );
}

#[test]
fn no_block_or_door_shuts_another_player_in() {
    let mut s = landed();
    let two = s.join();
    let (px, py) = s.me().body.pos;
    let feet = py as i64;
    // Player two stands two tiles to the right, on the same ground.
    let x = (px + 2.0).floor() as i64;
    // Flat ground there, open above it.
    for dx in -1..=1 {
        let xx = (x + dx) as usize;
        s.world.set(xx, feet as usize, Tile::Stone);
        for y in feet - 4..feet {
            s.world.set(xx, y as usize, Tile::Air);
        }
    }
    s.players[two.0].body.pos = (x as f32 + 0.5, py);
    run(&mut s, 5, &[]);
    assert!(s.someone_in(x, (feet - 1, feet - 1)), "two stands there");
    s.me_mut().inventory.add(Tile::Dirt, 3);
    s.step(&[(LOCAL, Intent::Select(3))]);
    assert_eq!(s.me().inventory.selected_tile(), Some(Tile::Dirt));
    let press = Intent::Place {
        x,
        y: feet - 1,
        pressed: true,
    };
    let c = run(&mut s, 1, &[press]);
    assert_eq!(refusals(&c), [EditRefusal::WouldTrapPlayer]);
    assert_eq!(s.world.tile(x as usize, feet as usize - 1), Tile::Air);
    // An open door where two stands does not close on him.
    for y in [feet - 2, feet - 1] {
        s.world.set(x as usize, y as usize, Tile::OpenDoor);
    }
    let c = run(&mut s, 1, &[press]);
    assert_eq!(refusals(&c), [EditRefusal::WouldTrapPlayer]);
    assert_eq!(s.world.tile(x as usize, feet as usize - 1), Tile::OpenDoor);
    // Once he has gone, it closes.
    s.players[two.0].body.pos = (x as f32 + 6.5, py - 3.0);
    run(&mut s, 30, &[]);
    assert!(!s.someone_in(x, (feet - 2, feet - 1)));
    run(&mut s, 1, &[press]);
    assert_eq!(
        s.world.tile(x as usize, feet as usize - 1),
        Tile::ClosedDoor
    );
}

#[test]
fn two_sessions_with_different_bestiaries_do_not_see_each_others_kinds() {
    // A mod's kind that spawns anywhere, often: one session plays with it, the other
    // (in the same process, on the same world) by the built-in content.
    let ruby = crate::content::mods::ModText {
        name: "mods/ruby.ron".into(),
        text: "(creatures: [(name: \"ruby slime\", label: \"Ruby slime\", health: 90.0,
            damage: 20.0, color: (220, 30, 50), size: (1.1, 0.9),
            behaviour: Hopper(every: 1.0, high: true), drops: [(item: \"ruby\", count: (1, 2))],
            spawn: [(weight: 1000)])])"
            .into(),
    };
    let often = |mut c: crate::content::config::Content| {
        c.rules.spawn_every_day = 0.2;
        (c.rules.day_cap, c.rules.home_day_cap) = (7, 7);
        Arc::new(c)
    };
    let modded = often(crate::content::config::Content::with_mods(&[ruby]).unwrap());
    let plain = often(content());
    let b0 = session();
    let (world, light) = (b0.world.clone(), b0.light.clone());
    let mut a = Session::start_with(modded, world.clone(), light.clone(), None, false);
    let mut b = Session::start_with(plain, world, light, None, false);
    let k = a
        .content
        .bestiary
        .kind("ruby slime")
        .expect("the mod's kind");
    assert_eq!(b.content.bestiary.kind("ruby slime"), None);
    assert_eq!(b.creatures.bestiary.kind("ruby slime"), None);
    let spawned = |s: &mut Session| {
        let c = run(s, 60 * 12, &[]);
        let kinds: Vec<crate::sim::creatures::Kind> = (c.events.iter())
            .filter_map(|e| match e {
                Event::Spawned { kind, .. } => Some(*kind),
                _ => None,
            })
            .collect();
        let said_ruby = c
            .messages
            .iter()
            .any(|(_, m)| format!("{m:?}").contains("ruby"));
        (kinds, said_ruby)
    };
    let (in_a, a_said) = spawned(&mut a);
    let (in_b, b_said) = spawned(&mut b);
    assert!(in_a.contains(&k) && a_said, "{in_a:?}");
    assert!(!in_b.is_empty(), "the plain session spawns its own kinds");
    assert!(!in_b.contains(&k) && !b_said, "{in_b:?}");
    // A ruby slime in play has the mod's numbers, in its own session.
    let ruby = a.creatures.list.iter().find(|c| c.kind == k).unwrap();
    assert!(ruby.health <= 90.0 && ruby.health > 14.0, "{}", ruby.health);
}
