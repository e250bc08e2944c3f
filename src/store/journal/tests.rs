use super::*;
use crate::content::preset::Preset;

/// The built-in catalog, as a save is read without mods.
fn cat() -> Arc<Catalog> {
    Arc::clone(&crate::content::config::Content::builtin().catalog)
}

/// [`super::load`] with the built-in catalog.
fn load(path: &Path) -> Result<(World, PlayerState, Replayed), SaveFileError> {
    super::load(path, &cat())
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("strata-journal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn small() -> (World, PlayerState) {
    let p = Preset {
        width: 120,
        height: 80,
        ..Default::default()
    };
    let world = crate::worldgen::generate(&p, 5).0;
    let player = PlayerState::new(crate::sim::player::spawn_point(&world), &cat());
    (world, player)
}

/// Changes of every kind a record holds.
fn play(world: &mut World, player: &mut PlayerState, n: usize) {
    let cat = cat();
    let gel = cat.id("gel").unwrap();
    world.set(10 + n, 30, Tile::Air);
    world.set(11 + n, 31, Tile::Wood);
    world.set_wall(12 + n, 32, crate::world::Wall::Wood);
    world.set(20, 20 + n, Tile::Chest);
    world.chests.open(20, 20 + n).add(&cat, gel, 3 + n as u32);
    world.dropped.push(Dropped::new(
        Stack {
            item: gel,
            count: 2,
        },
        (30.5, 10.5 + n as f32),
        None,
    ));
    world.progress.nights += 1;
    // The later bosses' story too (the second record: the Wall fell).
    world.progress.orbs_broken += 1;
    world.progress.wall_defeated = n as u32;
    player.inventory.add(gel, 1);
    player.pos.0 += 1.0;
    player.health = 55.0;
}

/// A small world saved in its own folder, its journal started and one record of play in it.
struct Begun {
    d: PathBuf,
    path: PathBuf,
    world: World,
    player: PlayerState,
    j: Journal,
}

fn begun(name: &str) -> Begun {
    let d = dir(name);
    let path = d.join("w.strata");
    let (mut world, mut player) = small();
    save::save(&path, &world, &player).unwrap();
    let mut j = Journal::start(&path, &world, &player, &[]).unwrap();
    play(&mut world, &mut player, 0);
    j.flush(&world, &player, &[]).unwrap();
    Begun {
        d,
        path,
        world,
        player,
        j,
    }
}

#[test]
fn a_journal_replays_to_the_moment_of_its_last_record() {
    let d = dir("replay");
    let path = d.join("w.strata");
    let (mut world, mut player) = small();
    save::save(&path, &world, &player).unwrap();
    let who = serde_json::json!({"name": "ann", "hp": 5});
    let mut j = Journal::start(&path, &world, &player, &[("ann".into(), who.clone())]).unwrap();
    assert!(!j.flush(&world, &player, &[]).unwrap(), "nothing changed");
    play(&mut world, &mut player, 0);
    let ann = serde_json::json!({"name": "ann", "hp": 4});
    assert!(
        j.flush(&world, &player, &[("ann".into(), ann.clone())])
            .unwrap()
    );
    play(&mut world, &mut player, 1);
    world.chests.remove(20, 20);
    assert!(
        j.flush(&world, &player, &[("ann".into(), ann.clone())])
            .unwrap()
    );
    let (w, p, r) = load(&path).unwrap();
    assert_eq!(r.records, 2, "{r:?}");
    assert_eq!(r.warning, None);
    assert_eq!(
        r.characters.get("ann"),
        Some(&ann),
        "the character's last record"
    );
    assert_eq!(w.tiles(), world.tiles());
    assert_eq!(w.walls(), world.walls());
    assert_eq!(full_chests(&w.chests), full_chests(&world.chests));
    assert_eq!(w.dropped, world.dropped);
    assert_eq!(w.progress, world.progress);
    assert_eq!(p, player);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_torn_last_record_is_left_out_and_the_rest_replayed() {
    let Begun {
        d,
        path,
        mut world,
        mut player,
        mut j,
    } = begun("torn");
    let (first_w, first_p) = (world.clone(), player.clone());
    play(&mut world, &mut player, 1);
    j.flush(&world, &player, &[]).unwrap();
    drop(j);
    // A crash in the middle of the second record.
    let jp = path_of(&path);
    let text = std::fs::read(&jp).unwrap();
    std::fs::write(&jp, &text[..text.len() - 40]).unwrap();
    let (w, p, r) = load(&path).unwrap();
    assert_eq!(r.records, 1);
    assert!(r.warning.as_deref().unwrap_or("").contains("torn"), "{r:?}");
    assert_eq!(w.tiles(), first_w.tiles());
    assert_eq!(w.dropped, first_w.dropped);
    assert_eq!(p, first_p);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_journal_of_an_older_save_is_not_replayed() {
    let Begun {
        d,
        path,
        mut world,
        mut player,
        ..
    } = begun("older");
    // Saved again, and a crash before the journal started over.
    play(&mut world, &mut player, 1);
    save::save(&path, &world, &player).unwrap();
    let (w, p, r) = load(&path).unwrap();
    assert_eq!(r.records, 0);
    assert!(r.warning.unwrap().contains("another save"));
    assert_eq!(w.tiles(), world.tiles());
    assert_eq!(p, player);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_journal_that_would_make_an_unloadable_world_is_set_aside() {
    let d = dir("bad");
    let path = d.join("w.strata");
    let (world, player) = small();
    save::save(&path, &world, &player).unwrap();
    let j = Journal::start(&path, &world, &player, &[]).unwrap();
    // A well-formed record whose health is above the most health: no save holds it.
    let mut bad = player_of(&player);
    bad.health = 1e9;
    let line = line_text(&Line {
        player: Some(bad),
        ..Line::default()
    });
    let jp = j.path().to_path_buf();
    drop(j);
    let mut f = std::fs::OpenOptions::new().append(true).open(&jp).unwrap();
    f.write_all(line.as_bytes()).unwrap();
    drop(f);
    let (w, p, r) = load(&path).unwrap();
    assert_eq!(r.records, 0);
    assert!(r.warning.unwrap().contains("would not load"));
    assert_eq!((w.tiles(), &p), (world.tiles(), &player));
    assert!(!jp.exists() && d.join("w.strata.journal.bad").exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_resumed_journal_cuts_a_torn_line_and_goes_on_after_the_last_record() {
    let Begun { d, path, j, .. } = begun("resume");
    drop(j);
    let jp = path_of(&path);
    let mut f = std::fs::OpenOptions::new().append(true).open(&jp).unwrap();
    f.write_all(b"0badc0de {\"tiles\":[[1,").unwrap();
    drop(f);
    let (w, p, r) = load(&path).unwrap();
    assert_eq!(r.records, 1);
    let (mut j, kept) = Journal::resume(&path, &w, &p, &[]).unwrap();
    assert_eq!(kept, 1);
    let (mut world, mut player) = (w, p);
    play(&mut world, &mut player, 1);
    j.flush(&world, &player, &[]).unwrap();
    let (w, p, r) = load(&path).unwrap();
    assert_eq!((r.records, r.warning), (2, None), "the torn line is gone");
    assert_eq!(w.tiles(), world.tiles());
    assert_eq!(p, player);
    let _ = std::fs::remove_dir_all(&d);
}
