//! Long fuzzing runs of the preset parser and the save decoder (see `strata::cli::fuzz`).
//!
//!     cargo run --release --example fuzz -- [presets|saves|all] [CASES] [SEED]
//!
//! Defaults: all, 100000 cases of each, seed 1 (saves: also a tenth as many played saves, see
//! `SaveFuzzer::played_case`). Cases run on every core; each failing case
//! is printed with its seed and number (reproduce one with CASES = number + 1), and the
//! exit status is 1 if any failed.

use rayon::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use strata::cli::fuzz::{SaveFuzzer, preset_case};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("all", String::as_str);
    let number = |i: usize, default: u64| {
        args.get(i).map_or(Ok(default), |s| {
            s.parse::<u64>()
                .map_err(|_| format!("expected a whole number, got '{s}'"))
        })
    };
    let (cases, seed) = match (number(1, 100_000), number(2, 1)) {
        (Ok(c), Ok(s)) => (c, s),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("fuzz: {e}\nusage: fuzz [presets|saves|all] [CASES] [SEED]");
            std::process::exit(2);
        }
    };
    if !["presets", "saves", "all"].contains(&what) {
        eprintln!("fuzz: unknown target '{what}' (presets, saves or all)");
        std::process::exit(2);
    }
    // Panics are reported as failing cases, one line each.
    std::panic::set_hook(Box::new(|_| {}));
    let mut failed = 0;
    if what != "saves" {
        failed += run("presets", seed, cases, &|case| preset_case(seed, case));
    }
    if what != "presets" {
        let fuzzer = SaveFuzzer::default();
        failed += run("saves", seed, cases, &|case| fuzzer.case(seed, case));
        // Played saves cost a session each: one in ten.
        let played = cases.div_ceil(10);
        failed += run("played", seed, played, &|case| {
            fuzzer.played_case(seed, case)
        });
    }
    std::process::exit(i32::from(failed > 0));
}

fn run(
    name: &str,
    seed: u64,
    cases: u64,
    check: &(dyn Fn(u64) -> Result<(), String> + Sync),
) -> usize {
    let start = std::time::Instant::now();
    let failures: Vec<(u64, String)> = (0..cases)
        .into_par_iter()
        .filter_map(
            |case| match catch_unwind(AssertUnwindSafe(|| check(case))) {
                Ok(Ok(())) => None,
                Ok(Err(e)) => Some((case, e)),
                Err(_) => Some((case, "panicked".to_string())),
            },
        )
        .collect();
    for (case, e) in &failures {
        println!("{name}: seed {seed} case {case}: {e}");
    }
    println!(
        "{name}: {cases} cases, {} failed, {:.1} s",
        failures.len(),
        start.elapsed().as_secs_f64()
    );
    failures.len()
}
