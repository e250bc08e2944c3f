//! What loads stays loadable: a save the loader accepts, played and saved again, is a
//! save the loader accepts. The case found by fuzzing: an item lying at exactly x = width
//! (the loader takes points on the world's far edge) rose out of the top of the world
//! once played, and the next save held it at y < 0, which the loader refuses.

use strata::content::preset::Preset;
use strata::sim::session::{Intent, LOCAL, PlayerState, Session};
use strata::store::save;
use strata::world::dropped::Dropped;
use strata::world::inventory::Stack;

/// The built-in catalog, as a save is read without mods.
fn cat() -> std::sync::Arc<strata::content::items::Catalog> {
    strata::content::config::Content::builtin().catalog
}

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("strata-loadable-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn an_item_on_the_worlds_edge_is_played_saved_and_loads_again() {
    let d = dir("edge");
    let path = d.join("edge.strata");
    let p = Preset {
        width: 100,
        height: 60,
        ..Default::default()
    };
    let mut world = strata::worldgen::generate(&p, 11).0;
    let (w, h) = (world.width() as f32, world.height() as f32);
    let gel = cat().id("gel").unwrap();
    let one = Stack {
        item: gel,
        count: 1,
    };
    // The far edge, the far corner, the top corner, the bottom edge.
    for at in [(w, 20.0), (w, h), (0.0, 0.0), (w / 2.0, h)] {
        world.dropped.push(Dropped::new(one, at, None));
    }
    let player = PlayerState::new(strata::sim::player::spawn_point(&world), &cat());
    save::save(&path, &world, &player).expect("the edge-item save is written");
    let (world, player) = save::load_game(&path, &cat()).expect("and loads");
    assert_eq!(world.dropped.len(), 4);
    let mut session = Session::from_save(world, player);
    for t in 0..600 {
        let axis = if t % 200 < 100 { 1 } else { -1 };
        session.step(&[(LOCAL, Intent::Move { axis, jump: false })]);
    }
    for d in &session.world.dropped {
        assert!(
            session.world.holds(d.pos),
            "an item left the world: {:?}",
            d.pos
        );
    }
    save::save(&path, &session.world, &session.player_state(LOCAL)).expect("saved again");
    let (again, _) = save::load_game(&path, &cat()).expect("the played save loads");
    let lying: u32 = again.dropped.iter().map(|d| d.stack.count).sum();
    assert_eq!(
        lying + session.me().inventory.count("gel"),
        4,
        "every item is still there, lying or picked up"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_save_that_would_not_load_is_kept_beside_the_last_one_not_over_it() {
    let d = dir("bad");
    let path = d.join("w.strata");
    let p = Preset {
        width: 80,
        height: 50,
        ..Default::default()
    };
    let world = strata::worldgen::generate(&p, 3).0;
    let player = PlayerState::new(strata::sim::player::spawn_point(&world), &cat());
    save::save(&path, &world, &player).unwrap();
    let before = std::fs::read(&path).unwrap();
    // Health above the most health: the loader refuses such a save.
    let broken = PlayerState {
        health: 1e6,
        ..player.clone()
    };
    let e = save::save_keeping_backup(&path, &world, &broken).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("would not load") && text.contains("w.strata.bad"),
        "{text}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "the last save stays");
    assert!(!save::backup_path(&path).exists(), "nothing rotated");
    assert!(
        save::load(&save::bad_path(&path), &cat()).is_err(),
        "the refused bytes are kept"
    );
    let _ = std::fs::remove_dir_all(&d);
}
