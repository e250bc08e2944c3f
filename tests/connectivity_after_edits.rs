//! Connectivity stays true as the world changes: after digs and placements through the
//! edit rules, a fresh `analyse` agrees tile for tile with an independent flood fill.

use strata::content::preset::Preset;
use strata::sim::edit;
use strata::sim::player::Player;
use strata::world::inventory::Inventory;
use strata::{Tile, World, analyse};

fn assert_matches(world: &World, when: &str) {
    if let Err(e) = strata::analysis::oracle::check(world, &analyse(world)) {
        panic!("{when}: {e}");
    }
}

#[test]
fn analysis_after_random_digs_and_places_matches_a_flood_fill() {
    let (mut world, _) = strata::generate(
        &Preset {
            width: 240,
            height: 150,
            // Caves near the surface as dense as deeper down, where the edits happen, and
            // every pocket kept (at this size most caverns are under `min_cavern`).
            caves: strata::content::preset::CaveParams {
                shallow: 0.0,
                min_cavern: 0,
                ..Default::default()
            },
            ..Default::default()
        },
        21,
    );
    assert_matches(&world, "fresh");
    // Dirt and stone in the first two slots, and a pickaxe that mines anything.
    let mut inv = Inventory::empty(&strata::content::config::Content::builtin().catalog);
    inv.add(Tile::Dirt, 990);
    inv.add(Tile::Stone, 990);
    inv.add("gold_pickaxe", 1);
    let mut state = 5u64;
    let mut rand = |n: usize| {
        state = strata::base::rng::mix64(state.wrapping_add(0x9E37_79B9_7F4A_7C15));
        (state % n as u64) as usize
    };
    let (mut dug, mut placed) = (0, 0);
    for step in 0..900 {
        // Stand somewhere random (the rules need a player within reach), then edit near it.
        // Near the surface and in the caves below it, where there is both air and ground.
        let col = rand(world.width());
        let row = (world.surface[col] as usize + rand(60)).clamp(2, world.height() - 1);
        let (px, py) = (col as f32 + 0.5, row as f32);
        let player = Player::new((px, py));
        let x = px as i64 + rand(9) as i64 - 4;
        let y = py as i64 + rand(9) as i64 - 5;
        if rand(2) == 0 {
            dug += edit::try_dig(&mut world, &player, &mut inv, x, y).is_ok() as u32;
        } else {
            inv.select(rand(2));
            placed += edit::try_place(&mut world, &player, &mut inv, x, y).is_ok() as u32;
        }
        if step % 60 == 59 {
            assert_matches(&world, &format!("after edit {step}"));
        }
    }
    assert!(dug > 150 && placed > 25, "dug {dug}, placed {placed}");
}

#[test]
#[ignore = "Large world timing: cargo test --release --test connectivity_after_edits -- --ignored --nocapture"]
fn measure_analyse_on_a_large_world() {
    let (mut world, _) = strata::generate(
        &Preset {
            width: 8400,
            height: 2400,
            ..Default::default()
        },
        1,
    );
    let mut times = vec![];
    for i in 0..5 {
        let x = 1000 + i * 1300;
        world.set(x, world.surface[x] as usize + 5, Tile::Air);
        let start = std::time::Instant::now();
        let report = analyse(&world);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        assert!(report.cave_count > 0);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "analyse on 8400x2400: min {:.1} ms, median {:.1} ms, max {:.1} ms",
        times[0], times[2], times[4]
    );
}
