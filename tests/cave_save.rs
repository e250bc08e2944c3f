//! Writes a save of the Large world (seed 42) with the player standing in a cave near the
//! centre and a torch placed a few tiles away: the starting point for the README's cave
//! screenshot and for timing play underground.
//!
//!     STRATA_CAVE_SAVE=/tmp/cave.strata cargo test --release --test cave_save -- --ignored
//!     strata play --load /tmp/cave.strata

use strata::sim::player::{Player, body_blocked};
use strata::store::save::{self, PlayerState};
use strata::world::Tile;

#[test]
#[ignore]
fn write_a_save_with_the_player_in_a_cave() {
    let preset =
        strata::content::preset::load(std::path::Path::new("config/presets/large.ron")).unwrap();
    let (mut world, _) = strata::worldgen::generate(&preset, 42);
    let (w, _) = (world.width(), world.height());
    let centre = w / 2;
    // The nearest column to the centre with a cave floor 80+ tiles below the surface and
    // room for the player and a torch beside them.
    let spot = (0..w / 4)
        .flat_map(|d| [centre + d, centre - d])
        .find_map(|x| {
            let top = world.surface[x] as usize + 80;
            (top..world.height() - 2).find_map(|y| {
                let (fx, fy) = (x as f32 + 0.5, y as f32);
                let stands = !body_blocked(&world, fx, fy) && body_blocked(&world, fx, fy + 0.5);
                let torch = (x + 5, y - 1);
                let torch_ok = world.tile(torch.0, torch.1) == Tile::Air
                    && world.tile(torch.0, torch.1 + 1).is_solid();
                (stands && torch_ok).then_some((fx, fy, torch))
            })
        })
        .expect("a cave near the centre");
    let (fx, fy, torch) = spot;
    world.set(torch.0, torch.1, Tile::Torch);
    let mut player = Player::new((fx, fy));
    player.unstick(&world);
    let path = std::env::var("STRATA_CAVE_SAVE").unwrap_or_else(|_| "/tmp/cave.strata".into());
    let state = PlayerState::new(
        player.pos,
        &strata::content::config::Content::builtin().catalog,
    );
    save::save(std::path::Path::new(&path), &world, &state).unwrap();
    eprintln!("player at {fx} {fy}, torch at {torch:?}: {path}");
}
