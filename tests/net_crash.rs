//! `strata serve` killed with SIGKILL at random moments, 20 times, while a player digs,
//! picks up what it dug and leaves; each time `strata serve --load` brings the world
//! back from its save and journal. After every restart:
//! - no item exists twice: the dirt of the world (dirt and grass tiles) plus the dirt
//!   items (in the characters, chests and lying about) is what the new world had;
//! - at most about a second is lost: the character has at least the dirt it had a
//!   moment ([`LOSS_SECONDS`]) before the kill, and all it had when it left.
//!
//! Loopback only; every wait is bounded.

mod serving;

use serving::{after, serve, wait_for};
use std::path::Path;
use std::time::{Duration, Instant};
use strata::net::bots;
use strata::net::chars::{Characters, Stored};
use strata::net::client::{Client, JoinOptions};
use strata::net::protocol::Character;
use strata::sim::session::Intent;
use strata::world::{Tile, World};

/// Seconds of play a kill may lose: the journal's second, a tick and the network's way.
const LOSS_SECONDS: f64 = 1.6;
/// Kills.
const ROUNDS: usize = 20;

fn dirt_in(c: &Character) -> u32 {
    c.slots
        .iter()
        .flatten()
        .filter(|(n, _)| n == "dirt")
        .map(|(_, n)| n)
        .sum()
}

/// The dirt of a world: dirt and grass tiles, dirt in chests and lying about.
fn dirt_of(w: &World) -> u64 {
    let dirt = builtin().catalog.id("dirt").unwrap();
    let tiles = w
        .tiles()
        .iter()
        .filter(|&&t| t == Tile::Dirt || t == Tile::Grass)
        .count() as u64;
    let chests: u64 = w
        .chests
        .iter()
        .flat_map(|(_, c)| c.slots().iter().flatten())
        .filter(|s| s.item == dirt)
        .map(|s| s.count as u64)
        .sum();
    let lying: u64 = w
        .dropped
        .iter()
        .filter(|d| d.stack.item == dirt)
        .map(|d| d.stack.count as u64)
        .sum();
    tiles + chests + lying
}

/// The world and the digger's character as a restart finds them: the save, its journal
/// replayed, the character from the journal or else its file.
fn restored(save: &Path, name: &str) -> (World, Option<Character>) {
    let (world, _, replayed) = strata::store::journal::load(save, &builtin().catalog).unwrap();
    let from_journal = replayed.characters.get(name).map(|v| {
        serde_json::from_value::<Stored>(v.clone())
            .unwrap()
            .character
    });
    let chars = Characters::new(strata::launch::characters_dir(save));
    let from_file = chars.get(name, &bots::password_of(name)).unwrap();
    (world, from_journal.or(from_file))
}

/// A small counter-based stream, so the test's choices are the same every run.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        strata::base::rng::mix64(self.0) % n
    }
}

/// Digs the dirt and grass nearest the player's feet for `secs`, recording the dirt it
/// holds as the server tells it (time, count).
fn dig(c: &mut Client, secs: f64, seen: &mut Vec<(Instant, u32)>) {
    let start = Instant::now();
    let mut target: Option<(i64, i64)> = None;
    let mut tick = 0u64;
    while start.elapsed().as_secs_f64() < secs {
        c.poll();
        if let Some(ch) = c.character() {
            let n = dirt_in(ch);
            if seen.last().map(|s| s.1) != Some(n) {
                seen.push((Instant::now(), n));
            }
            let (fx, fy) = (ch.pos.0.floor() as i64, ch.pos.1.floor() as i64);
            let still = target.is_some_and(|(x, y)| {
                c.world()
                    .and_then(|w| w.get(x, y))
                    .is_some_and(|t| t == Tile::Dirt || t == Tile::Grass)
            });
            if !still {
                target = c.world().and_then(|w| {
                    // Below the feet first, then beside the body (it tunnels on).
                    [0i64, 1, -1, -2]
                        .into_iter()
                        .flat_map(|dy| (-2..=2i64).map(move |dx| (fx + dx, fy + dy)))
                        .find(|&(x, y)| {
                            w.get(x, y)
                                .is_some_and(|t| t == Tile::Dirt || t == Tile::Grass)
                        })
                });
            }
        }
        let mut intents = vec![Intent::Select(0)];
        match target {
            Some((x, y)) => intents.push(Intent::Use { at: Some((x, y)) }),
            None => intents.push(Intent::Move {
                axis: if (tick / 90).is_multiple_of(2) { 1 } else { -1 },
                jump: true,
            }),
        }
        c.send(&intents);
        tick += 1;
        std::thread::sleep(Duration::from_millis(16));
    }
}

#[cfg(unix)]
#[test]
fn a_server_killed_at_random_loses_a_second_and_duplicates_nothing() {
    let dir = std::env::temp_dir().join(format!("strata-net-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("w.strata");
    let save_s = save.to_str().unwrap();
    let home = dir.to_str().unwrap();
    let name = "digger";
    let mut rng = Rng(2026);
    let mut log = Vec::new();
    let mut dirt_at_start = None;
    let mut history: Vec<(Instant, u32)> = Vec::new();
    // When the digger last left, with what it had then; the kill's moment.
    let mut left: Option<(Instant, u32)> = None;
    let mut killed_at: Option<Instant> = None;
    let mut worst_loss: f64 = 0.0;
    for round in 0..ROUNDS {
        let fresh = ["--size", "200x120", "--seed", "3", "--save", save_s];
        let load = ["--load", save_s];
        let args: &[&str] = if round == 0 { &fresh } else { &load };
        // The digger digs by the spawn point: no spawn protection here.
        let common = [
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--autosave",
            "3",
            "--spawn-protection",
            "0",
        ];
        let mut all: Vec<&str> = args.to_vec();
        all.extend(common);
        all.extend(["--home", home]);
        let (mut server, rx) = serve(&all);
        let line = wait_for(&rx, "serving", 120.0, &mut log);
        let addr = after(&line, " on ").to_string();
        // What the restart found.
        let (world, character) = restored(&save, name);
        let held = character.as_ref().map_or(0, dirt_in);
        let total = dirt_of(&world) + held as u64;
        let start = *dirt_at_start.get_or_insert(total);
        assert_eq!(total, start, "round {round}: dirt appeared or vanished");
        if let Some(kill) = killed_at {
            let had = |at: Instant| history.iter().rev().find(|s| s.0 <= at).map_or(0, |s| s.1);
            match left {
                Some((t, n)) if kill.duration_since(t).as_secs_f64() > 0.2 => {
                    // Its window may not have heard of a last dig before it left.
                    assert!(held >= n, "round {round}: {held} dirt, it left with {n}")
                }
                _ => {
                    let before = kill - Duration::from_secs_f64(LOSS_SECONDS);
                    assert!(
                        held >= had(before),
                        "round {round}: {held} dirt, it had {} {LOSS_SECONDS} s before the kill",
                        had(before)
                    );
                }
            }
            // How far back the restart went, for the message.
            if let Some(s) = history.iter().find(|s| s.1 > held) {
                worst_loss = worst_loss.max(kill.duration_since(s.0).as_secs_f64());
            }
        }
        history.clear();
        history.push((Instant::now(), held));
        left = None;
        // Play: dig, sometimes leave and come back, then the kill at a random moment.
        let join = JoinOptions {
            addr,
            name: name.into(),
            password: bots::password_of(name),
            server_password: String::new(),
            known_servers: None,
        };
        let mut c = bots::join_one(&join, Duration::from_secs(60)).unwrap();
        dig(&mut c, 0.3 + rng.below(1500) as f64 / 1000.0, &mut history);
        if rng.below(3) == 0 {
            c.close();
            // The server hears of the leave, and keeps the character.
            wait_for(&rx, &format!("{name} left"), 10.0, &mut log);
            left = Some((Instant::now(), history.last().map_or(0, |s| s.1)));
            std::thread::sleep(Duration::from_millis(250 + rng.below(500)));
        } else {
            dig(&mut c, rng.below(1000) as f64 / 1000.0, &mut history);
        }
        server.kill().unwrap();
        killed_at = Some(Instant::now());
        server.wait().unwrap();
        c.close();
    }
    let dug = history.last().map_or(0, |s| s.1);
    eprintln!("{ROUNDS} kills: {dug} dirt dug and kept, at most {worst_loss:.2} s lost");
    assert!(dug >= 20, "the digger dug: {dug}");
    assert!(
        worst_loss <= LOSS_SECONDS,
        "at most {LOSS_SECONDS} s lost, {worst_loss:.2} s was"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The content the server and the test play with: the built-in files.
fn builtin() -> strata::content::config::Content {
    strata::content::config::Content::builtin()
}
