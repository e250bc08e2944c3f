//! A mod that adds an item and a recipe, seen by every part of Strata that names items: a
//! session crafts the item into the inventory, a save and the protocol carry it by name,
//! the server takes the recipe's craft, the bots choose among its recipes; and a server
//! and a client with different mods refuse each other in one sentence (on loopback).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use strata::content::config::Content;
use strata::content::mods::ModText;
use strata::net::bots::{self, BotOptions};
use strata::net::client::JoinError::Refused;
use strata::net::client::{JoinOptions, Refusal};
use strata::net::protocol::{self, ToClient};
use strata::net::server::{self, ServeOptions, Server};
use strata::sim::session::{Intent, LOCAL, Session, TICK};
use strata::store::save;

/// A mod that adds a sword of gel and its recipe (no station).
const GEL_SWORD: &str = "(
    items: [(name: \"gel_sword\", label: \"gel sword\", kind: Sword, damage: 12, reach: 2.0,
             cooldown: 0.4)],
    recipes: [(make: \"gel_sword\", from: [(\"gel\", 5), (\"wood\", 2)])],
)";

fn modded() -> Arc<Content> {
    let gel = ModText {
        name: "mods/gel.ron".into(),
        text: GEL_SWORD.into(),
    };
    Arc::new(Content::with_mods(&[gel]).unwrap())
}

/// A session on a small world made and played with `content`.
fn session(content: &Arc<Content>) -> (Session, strata::World) {
    let preset = strata::Preset {
        width: 400,
        height: 200,
        ..strata::Preset::default()
    };
    let world = strata::worldgen::generate_for(&preset, 11, content).0;
    let light = strata::sim::light::LightMap::compute(&world);
    let s = Session::start_with(Arc::clone(content), world.clone(), light, None, false);
    (s, world)
}

#[test]
fn a_mod_s_item_is_crafted_saved_and_sent_by_name() {
    let content = modded();
    let builtin = Content::builtin();
    let (mut s, _) = session(&content);
    let sword = content.catalog.id("gel_sword").unwrap();
    let recipe = (content.catalog.recipes.iter())
        .position(|r| r.make == sword)
        .unwrap();
    assert!(
        recipe >= builtin.catalog.recipes.len(),
        "after the built-in recipes"
    );
    s.me_mut().inventory.add("gel", 5);
    s.me_mut().inventory.add("wood", 2);
    let wood = s.me().inventory.count("wood");
    s.step(&[(LOCAL, Intent::Craft(recipe))]);
    assert_eq!(
        s.me().inventory.count(sword),
        1,
        "crafted into the inventory"
    );
    assert_eq!(s.me().inventory.count("gel"), 0);
    assert_eq!(s.me().inventory.count("wood"), wood - 2);
    // A save names it; it reads back with the mod, and is refused without it.
    let state = s.player_state(LOCAL);
    let bytes = save::encode(&s.world, &state);
    let (_, back) = save::decode(&bytes, &content.catalog).unwrap();
    assert_eq!(back.inventory.count(sword), 1);
    let e = save::decode(&bytes, &builtin.catalog)
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"gel_sword\""), "{e}");
    // The protocol: the player's own state names it, round-trips, and puts it back.
    let own = protocol::own_of(&s, LOCAL, 1);
    let named = (own.character.slots.iter().flatten()).any(|(n, c)| n == "gel_sword" && *c == 1);
    assert!(named, "{:?}", own.character.slots);
    let msg = ToClient::Me(own.clone());
    assert_eq!(
        protocol::decode::<ToClient>(&protocol::encode(&msg)),
        Ok(msg)
    );
    let again = strata::net::chars::state_of(&content.catalog, &own.character, 0.0).unwrap();
    assert_eq!(again.inventory.count(sword), 1);
    // The server takes the mod's recipe as in range by its content, not by the built-in.
    assert!(server::check(&Intent::Craft(recipe), &content).is_ok());
    assert!(server::check(&Intent::Craft(recipe), &builtin).is_err());
}

#[test]
fn bots_with_the_mod_play_and_a_client_without_it_is_refused_in_one_sentence() {
    let content = modded();
    let (s, world) = session(&content);
    let dir = std::env::temp_dir().join(format!("strata-mods-net-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut server = Server::start(s, world, ServeOptions::loopback(&dir)).unwrap();
    let addr = server.addr();
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Arc::clone(&stop);
    // Ticks about 60 a second, for two minutes at most whatever happens.
    let ticking = std::thread::spawn(move || {
        let until = Instant::now() + Duration::from_secs(120);
        while !stopped.load(Ordering::SeqCst) && Instant::now() < until {
            server.tick(&[]);
            std::thread::sleep(Duration::from_secs_f64(TICK));
        }
    });
    // Without the mod: refused, in one sentence naming the file.
    let plain = JoinOptions {
        addr: addr.to_string(),
        name: "plain".into(),
        ..JoinOptions::default()
    };
    let builtin = Arc::new(Content::builtin());
    let err = bots::join_with(&plain, builtin, Duration::from_secs(30))
        .err()
        .expect("a client without the server's mod is refused");
    let Refused(Refusal::Content(says)) = &err else {
        panic!("not refused for its content: {err:?}");
    };
    assert!(
        says.ends_with(
            "The server's content differs from yours: mods/gel.ron (only the server has it)"
        ),
        "{err}"
    );
    // With it: a bot joins and plays, choosing among the mod's recipes too.
    let opts = BotOptions {
        addr: addr.to_string(),
        count: 1,
        seconds: 2.0,
        settle: 1.0,
        seed: 3,
        content: Arc::clone(&content),
        ..BotOptions::default()
    };
    let reports = bots::run(&opts).unwrap();
    stop.store(true, Ordering::SeqCst);
    ticking.join().unwrap();
    assert_eq!(reports[0].closed, None, "{}", reports[0].line());
    assert!(reports[0].ticks_sent > 0, "{}", reports[0].line());
    assert_eq!(reports[0].recipes, content.catalog.recipes.len());
    let _ = std::fs::remove_dir_all(&dir);
}
