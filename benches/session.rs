//! A headless session's tick on the default world (6400x1800): the player standing, the
//! player walking and digging, and the world hash. Prints each one's fastest and median
//! time per tick (or per hash) over the repetitions.
//!
//! Run: `cargo bench --bench session` (optionally `-- REPS`, default 5).

use std::time::{Duration, Instant};
use strata::content::preset::Preset;
use strata::sim::session::{Intent, LOCAL, Session};

/// Ticks stepped per repetition.
const TICKS: u32 = 600;

fn report(what: &str, mut times: Vec<Duration>, per: u32) {
    times.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6 / per as f64;
    println!(
        "{what:<28} fastest {:>9.1} us  median {:>9.1} us",
        us(times[0]),
        us(times[times.len() / 2])
    );
}

fn main() {
    let reps: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(5);
    let (world, _) = strata::generate(&Preset::default(), 42);
    println!(
        "default world {}x{}, {reps} repetitions of {TICKS} ticks",
        world.width(),
        world.height()
    );
    let mut standing = Vec::new();
    let mut playing = Vec::new();
    let mut hashing = Vec::new();
    for _ in 0..reps {
        let mut s = Session::new(world.clone());
        let t = Instant::now();
        for _ in 0..TICKS {
            s.step(&[]);
        }
        standing.push(t.elapsed());
        // Walking right and digging the tile ahead of the feet, jumping now and then.
        let t = Instant::now();
        for i in 0..TICKS {
            let (x, y) = s.me().body.pos;
            let ahead = Some((x as i64 + 1, y as i64 - 1));
            let mut list = vec![
                (
                    LOCAL,
                    Intent::Move {
                        axis: 1,
                        jump: false,
                    },
                ),
                (LOCAL, Intent::Use { at: ahead }),
            ];
            if i % 40 == 0 {
                list.push((LOCAL, Intent::Jump));
            }
            s.step(&list);
        }
        playing.push(t.elapsed());
        assert!(s.edits > 0, "the walk dug");
        let t = Instant::now();
        std::hint::black_box(s.world_hash());
        hashing.push(t.elapsed());
    }
    report("tick, standing", standing, TICKS);
    report("tick, walking and digging", playing, TICKS);
    report("world_hash", hashing, 1);
}
