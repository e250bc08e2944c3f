//! Writes a save of a generated world whose town already holds its three people: the
//! Guide beside the spawn point, and the Merchant and the Nurse (homeless) a few tiles to
//! either side, so `strata play --load` runs with all of them on screen from the first
//! frame (BENCHMARKS.md's frame CPU with the Eye and the town on a Large world). Every
//! other part of the save is what `strata gen --save` writes.
//!
//! Run: `cargo run --release --example town_save -- PRESET SEED OUT.strata [TIME]` (TIME:
//! the share of the day gone, 0..1, as `start_time` in config/rules.ron).

use strata::content::preset::load;
use strata::sim::npc::{Npc, NpcState};
use strata::sim::session::PlayerState;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (preset, seed, out, time) = match args.as_slice() {
        [p, s, o] => (p, s, o, None),
        [p, s, o, t] => (p, s, o, Some(t.parse::<f32>().expect("TIME is a number"))),
        _ => {
            eprintln!("usage: town_save PRESET SEED OUT.strata [TIME]");
            std::process::exit(2);
        }
    };
    let preset = load(std::path::Path::new(preset)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let seed: u64 = seed.parse().expect("SEED is a number");
    let (world, _) = strata::generate(&preset, seed);
    let spawn = strata::sim::player::spawn_point(&world);
    let mut player = PlayerState::starting(spawn, &strata::content::config::Content::builtin());
    if let Some(t) = time {
        player.time_of_day = t.clamp(0.0, 0.999);
    }
    let guide = Npc::guide(&world, world.seed).state();
    let beside = |name: &'static str, dx: f32| {
        // A little above the ground: the session lets them down onto it.
        let at = (spawn.0 + dx, spawn.1 - 3.0);
        NpcState {
            name,
            pos: at,
            anchor: at,
            home: None,
        }
    };
    player.town = vec![guide, beside("Merchant", 7.0), beside("Nurse", -7.0)];
    strata::store::save::save(std::path::Path::new(out), &world, &player).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    println!(
        "wrote {out}: {}x{}, three town people",
        world.width(),
        world.height()
    );
}
