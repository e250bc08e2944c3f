//! Tests of the save format: round trips, size, and refusal of truncated, corrupted, foreign
//! and newer files.

use super::*;
use crate::content::preset::Preset;

/// The built-in catalog, as a save is read without mods.
pub(super) fn cat() -> Arc<Catalog> {
    Arc::new(Catalog::builtin().unwrap())
}

/// [`super::decode`] with the built-in catalog.
pub(super) fn decode(bytes: &[u8]) -> Result<(World, PlayerState), SaveError> {
    super::decode(bytes, &cat())
}

/// [`super::load`] with the built-in catalog.
pub(super) fn load(path: &Path) -> Result<(World, PlayerState), SaveError> {
    super::load(path, &cat())
}

/// [`super::load_game`] with the built-in catalog.
pub(super) fn load_game(path: &Path) -> Result<(World, PlayerState), SaveFileError> {
    super::load_game(path, &cat())
}

/// The world the default preset makes at `width` x `height` from `seed`, without the
/// passes whose tiles came after Strata's first 32 (so every format can hold it): the
/// save tests' generated fixture.
pub(super) fn generated(width: u32, height: u32, seed: u64) -> World {
    // Only tiles of Strata's first 32, which the older formats' runs hold: no lodes (tin,
    // lead, tungsten, platinum), no underground desert (hardened sand) and no mini-biomes.
    let mut preset = Preset {
        width,
        height,
        ..Default::default()
    };
    preset.lodes.enabled = false;
    preset.biomes.underground_desert = 0.0;
    preset.marble.enabled = false;
    preset.granite.enabled = false;
    preset.mushrooms.enabled = false;
    preset.hives.enabled = false;
    preset.spiders.enabled = false;
    preset.ruins.enabled = false;
    preset.gems.enabled = false;
    preset.deposits.enabled = false;
    crate::worldgen::generate(&preset, seed).0
}

/// A world of Strata's first nine tiles (all that format 1 could hold), seed 99, 10 x 8.
pub(super) fn first_tiles_world() -> World {
    let mut world = World::from_ascii(&[
        "          ",
        "          ",
        "          ",
        "          ",
        "      t   ",
        "wwww  ww  ",
        "....~~..i.",
        "##g#####D#",
    ])
    .unwrap();
    world.seed = 99;
    world
}

fn small() -> (World, PlayerState) {
    let world = generated(64, 40, 7);
    let mut inventory = Inventory::starting(&cat());
    inventory.add(Tile::Stone, 12);
    inventory.add(Tile::GoldOre, 3);
    inventory.select(4);
    (
        world,
        PlayerState {
            pos: (32.5, 11.0),
            inventory,
            health: 61.5,
            max_health: MAX_HEALTH,
            time_of_day: 0.8,
            town: Vec::new(),
            bed: None,
            max_mana: crate::sim::mana::START,
            bank: Default::default(),
        },
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-save-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn round_trip_keeps_everything() {
    let preset = Preset {
        width: 300,
        height: 160,
        name: "Round trip".into(),
        ..Default::default()
    };
    let (mut world, _) = crate::worldgen::generate(&preset, 0xDEAD_BEEF_1234);
    world.set(5, 5, Tile::Torch);
    world.set(6, 5, Tile::Water);
    let (_, player) = small();
    let bytes = encode(&world, &player);
    let (w2, p2) = decode(&bytes).unwrap();
    assert_eq!(w2.tiles(), world.tiles());
    assert_eq!(
        (w2.width(), w2.height(), w2.seed),
        (world.width(), world.height(), world.seed)
    );
    assert_eq!(w2.preset, world.preset);
    assert_eq!(w2.surface, world.surface);
    assert_eq!(p2, player);
    assert_eq!(encode(&w2, &p2), bytes, "encoding is deterministic");
}

#[test]
fn version_1_saves_still_load() {
    // A world of Strata's first nine tiles, as version 1 wrote it (4-bit tiles, 9 kinds).
    let world = first_tiles_world();
    let (_, mut player) = small();
    player.pos = (3.5, 5.0);
    let v1 = encode_as(&world, &player, 1);
    assert_eq!(u32::from_le_bytes(v1[7..11].try_into().unwrap()), 1);
    let (w2, p2) = decode(&v1).unwrap();
    assert_eq!(w2.tiles(), world.tiles());
    assert_loaded_as_old(&p2, &player, V1_KINDS);
    // Read with today's 5-bit layout, the same bytes would be other tiles.
    let mut as_v2 = v1.clone();
    as_v2[7..11].copy_from_slice(&VERSION.to_le_bytes());
    assert!(decode(&resum(as_v2)).is_err());
}

/// An old save's player: the same position, the blocks of its tile counts beside a new
/// player's tools, selected slot kept, full health in the morning.
fn assert_loaded_as_old(loaded: &PlayerState, saved: &PlayerState, kinds: usize) {
    assert_eq!(loaded.pos, saved.pos);
    for &t in &Tile::ALL[..kinds] {
        assert_eq!(loaded.inventory.count(t), saved.inventory.count(t), "{t:?}");
    }
    assert_eq!(
        loaded.inventory.best_pickaxe(),
        Inventory::starting(&cat()).best_pickaxe()
    );
    assert_eq!(loaded.inventory.selected(), saved.inventory.selected());
    assert_eq!((loaded.health, loaded.time_of_day), (MAX_HEALTH, MORNING));
}

#[test]
fn version_2_saves_still_load() {
    let (world, player) = small();
    let v2 = encode_as(&world, &player, 2);
    assert_eq!(u32::from_le_bytes(v2[7..11].try_into().unwrap()), 2);
    let (w2, p2) = decode(&v2).unwrap();
    assert_eq!(w2.tiles(), world.tiles());
    assert_loaded_as_old(&p2, &player, V2_KINDS);
    // Today's saves keep the health and the time of day, which version 2 had not.
    let (_, p3) = decode(&encode(&world, &player)).unwrap();
    assert_eq!((p3.health, p3.time_of_day), (61.5, 0.8));
}

#[test]
fn unknown_items_and_bad_vitals_are_refused() {
    let (world, mut player) = small();
    let bytes = encode(&world, &player);
    // Rename the stored "stone" to "stonf" (same length) and fix the checksum.
    let at = bytes
        .windows(6)
        .position(|w| w == b"\x05stone")
        .expect("stone is stored by name");
    let mut renamed = bytes.clone();
    renamed[at + 5] = b'f';
    let err = decode(&resum(renamed)).unwrap_err();
    let e = err.to_string();
    assert!(e.contains("unknown item \"stonf\""), "{e}");
    assert!(
        matches!(&err, SaveError::UnknownItem { name, place } if name == b"stonf" && place.starts_with("slot ")),
        "{err:?}"
    );
    player.health = -1.0;
    let e = decode(&encode(&world, &player)).unwrap_err();
    assert!(matches!(e, SaveError::Health(h) if h == -1.0), "{e:?}");
    player.health = 10.0;
    player.time_of_day = 1.5;
    let e = decode(&encode(&world, &player)).unwrap_err();
    assert!(matches!(e, SaveError::TimeOfDay(t) if t == 1.5), "{e:?}");
    player.time_of_day = 0.5;
    player.health = f32::NAN;
    assert!(
        decode(&encode(&world, &player))
            .unwrap_err()
            .to_string()
            .contains("health")
    );
    player.health = 10.0;
    player.time_of_day = 1.5;
    assert!(
        decode(&encode(&world, &player))
            .unwrap_err()
            .to_string()
            .contains("time of day")
    );
}

#[test]
fn file_round_trip_and_newest() {
    let dir = temp_dir("file");
    let (world, player) = small();
    let path = dir.join("sub").join("a.strata");
    save(&path, &world, &player).unwrap();
    let (w2, p2) = load(&path).unwrap();
    assert_eq!((w2.tiles(), p2), (world.tiles(), player));
    assert_eq!(newest_save(&dir.join("sub")), Some(path));
    // The path is named by load_game; load's reason alone follows it in the saves list.
    let missing = dir.join("missing.strata");
    assert!(
        load_game(&missing)
            .unwrap_err()
            .to_string()
            .contains("missing.strata")
    );
    assert!(matches!(load(&missing), Err(SaveError::Read(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_truncation_is_refused() {
    let (world, player) = small();
    let bytes = encode(&world, &player);
    for n in 0..bytes.len() {
        match decode(&bytes[..n]) {
            Err(SaveError::Truncated(_)) => {}
            other => panic!("prefix {n}: {:?}", other.map(|_| ())),
        }
    }
    let e = decode(&bytes[..bytes.len() - 10]).unwrap_err().to_string();
    assert_eq!(e, "truncated: ends in the tile data");
    assert_eq!(
        decode(&bytes[..bytes.len() - 2]).unwrap_err().to_string(),
        "truncated: ends in the checksum"
    );
}

#[test]
fn every_single_byte_corruption_is_refused() {
    let (world, player) = small();
    let bytes = encode(&world, &player);
    let mut copy = bytes.clone();
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            copy[i] = bytes[i] ^ flip;
            assert!(decode(&copy).is_err(), "byte {i} ^ {flip:#x} accepted");
            copy[i] = bytes[i];
        }
    }
    let mut tail = bytes.clone();
    tail.push(0);
    assert!(
        decode(&tail)
            .unwrap_err()
            .to_string()
            .contains("after the checksum")
    );
    let mut sum = bytes.clone();
    let last = sum.len() - 1;
    sum[last] ^= 4;
    assert!(matches!(decode(&sum).unwrap_err(), SaveError::Checksum));
}

/// Re-checksums a hand-edited save so the structure checks, not the checksum, speak.
fn resum(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 4;
    let sum = fnv1a32(&bytes[..n]);
    bytes[n..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

#[test]
fn foreign_newer_and_bad_values_have_clear_messages() {
    assert_eq!(
        decode(b"\x89PNG\r\n\x1a\n rest").unwrap_err().to_string(),
        "not a Strata save"
    );
    assert!(matches!(
        decode(b"{\"json\": true}").unwrap_err(),
        SaveError::NotASave
    ));
    let (world, player) = small();
    let bytes = encode(&world, &player);
    let mut newer = bytes.clone();
    newer[7..11].copy_from_slice(&(VERSION + 1).to_le_bytes());
    assert_eq!(
        decode(&newer).unwrap_err().to_string(),
        format!(
            "made by a newer Strata (format v{}, this build reads up to v{VERSION})",
            VERSION + 1
        )
    );
    // Oversized world: refused before any allocation.
    let mut big = bytes.clone();
    big[11..15].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(decode(&big).unwrap_err().to_string().contains("width"));
    // An unknown tile byte, checksum fixed up.
    let tiles_at = bytes.len() - 4 - rle_len(&world);
    let mut tile = bytes.clone();
    tile[tiles_at] = 127; // a run of one tile 127
    assert_eq!(
        decode(&resum(tile)).unwrap_err().to_string(),
        "damaged save: unknown tile byte 127 at tile 0"
    );
    // A player outside the world.
    let mut out = bytes.clone();
    let px = 7 + 4 + 4 + 4 + 8 + 4 + ron::to_string(&world.preset).unwrap().len();
    out[px..px + 4].copy_from_slice(&(-5.0f32).to_le_bytes());
    assert!(
        decode(&resum(out))
            .unwrap_err()
            .to_string()
            .contains("outside the world")
    );
}

/// Bytes of the tile runs of `world`.
fn rle_len(world: &World) -> usize {
    let mut v = Vec::new();
    encode_runs(world.tiles(), TILE_BITS, &mut v);
    v.len()
}

#[test]
fn runs_must_cover_the_world_exactly() {
    let (world, player) = small();
    let bytes = encode(&world, &player);
    let tiles_at = bytes.len() - 4 - rle_len(&world);
    // Replace the runs by one run longer than the world, then by an endless varint.
    let endless = [0xFFu8; 11];
    for (run, message) in [
        (&[0x82u8, 0xFF, 0x7F][..], "run of"),
        (&endless[..], "too long"),
    ] {
        let mut b = bytes[..tiles_at].to_vec();
        b.extend_from_slice(run);
        b.extend_from_slice(&[0; 4]);
        let e = decode(&resum(b)).unwrap_err().to_string();
        assert!(e.contains(message), "{e}");
    }
}

#[test]
fn atomic_save_keeps_the_previous_file() {
    let dir = temp_dir("atomic");
    let path = dir.join("w.strata");
    let (world, player) = small();
    save(&path, &world, &player).unwrap();
    let before = std::fs::read(&path).unwrap();
    // A failing write (as on a full disk) leaves the old save whole.
    let e = crate::base::fsio::write_file(&path, |f| {
        f.write_all(&before[..100])?;
        Err(std::io::Error::other("no space left on device"))
    });
    assert!(e.is_err());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // A save into a folder that cannot be created fails without touching anything.
    assert!(save(&path.join("not-a-dir").join("x.strata"), &world, &player).is_err());
    assert!(load(&path).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
/// About 5 s in a debug build, 0.6 s in release.
fn large_world_save_is_small() {
    let world = generated(8400, 2400, 1);
    let start = std::time::Instant::now();
    let player = PlayerState::new(crate::sim::player::spawn_point(&world), &cat());
    let bytes = encode(&world, &player);
    let enc = start.elapsed();
    let start = std::time::Instant::now();
    let (w2, _) = decode(&bytes).unwrap();
    let dec = start.elapsed();
    println!(
        "Large save: {} bytes, encode {enc:?}, decode {dec:?}",
        bytes.len()
    );
    assert!(bytes.len() < 4 << 20, "{} bytes", bytes.len());
    assert_eq!(w2.tiles(), world.tiles());
}

#[test]
fn gen_save_writes_a_loadable_file() {
    let dir = temp_dir("gen");
    let path = dir.join("gen.strata");
    let classic = concat!(env!("CARGO_MANIFEST_DIR"), "/config/presets/classic.ron");
    let opts = crate::cli::GenOptions {
        preset: Some(classic.into()),
        size: Some((96, 48)),
        seed: Some(9),
        save: Some(path.clone()),
        ..Default::default()
    };
    crate::cli::run_gen(&opts, &crate::base::paths::Folders::for_run(None)).unwrap();
    let (world, player) = load_game(&path).unwrap();
    assert_eq!((world.width(), world.height(), world.seed), (96, 48, 9));
    assert_eq!(player.pos, crate::sim::player::spawn_point(&world));
    assert_eq!(player.inventory, Inventory::starting(&cat()));
    std::fs::write(&path, b"garbage").unwrap();
    assert!(
        load_game(&path)
            .unwrap_err()
            .to_string()
            .ends_with("gen.strata: not a Strata save")
    );
    // A missing file names its path once.
    let missing = dir.join("missing.strata");
    let e = load_game(&missing).unwrap_err();
    // The reason is kept below the message: the read error, and the system's below it.
    let mut causes = Vec::new();
    let mut at = std::error::Error::source(&e);
    while let Some(cause) = at {
        causes.push(cause.to_string());
        at = cause.source();
    }
    assert_eq!(causes.len(), 3, "{causes:?}");
    assert!(matches!(
        &e,
        SaveFileError::Load {
            source: SaveError::Read(crate::base::fsio::ReadError::Io(io)),
            ..
        } if io.kind() == std::io::ErrorKind::NotFound
    ));
    let e = e.to_string();
    assert_eq!(e.matches("missing.strata").count(), 1, "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_preset_whose_saved_text_outgrows_its_file_still_saves_and_loads() {
    // 140,000 backslashes in a raw string: a valid preset file of 140 KB, whose saved
    // (escaped) text is twice that, more than a preset file may hold.
    let text = format!(
        "(name: r\"{}\", width: 64, height: 40)",
        "\\".repeat(140_000)
    );
    assert!((text.len() as u64) < MAX_FILE_BYTES);
    let preset = preset::parse(&text, "slashes.ron").unwrap();
    let (world, _) = crate::worldgen::generate(&preset, 3);
    let (_, player) = small();
    assert!(preset_text(&world).len() as u64 > MAX_FILE_BYTES);
    let dir = temp_dir("slashes");
    let path = dir.join("w.strata");
    save(&path, &world, &player).unwrap();
    let (w2, _) = load(&path).unwrap();
    assert_eq!(w2.preset.name, preset.name);
    // A preset too large for any save (only a program can make one) is refused at write
    // time, and nothing is written.
    let mut huge = world.clone();
    huge.preset.name = "\u{1}".repeat(MAX_PRESET_TEXT as usize / 4);
    let e = save(&dir.join("huge.strata"), &huge, &player).unwrap_err();
    assert!(matches!(e, SaveFileError::PresetTooLong { .. }), "{e:?}");
    let e = e.to_string();
    assert!(e.contains("not saved") && e.contains("huge.strata"), "{e}");
    assert!(!dir.join("huge.strata").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stored_preset_of_another_size_is_refused() {
    let (world, player) = small();
    let bytes = encode(&world, &player);
    // Splice in the default preset (6400x1800) for the 64x40 world's own.
    let at = 7 + 4 + 4 + 4 + 8;
    let old_len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let other = ron::to_string(&Preset::default()).unwrap();
    let mut forged = bytes[..at].to_vec();
    forged.extend_from_slice(&(other.len() as u32).to_le_bytes());
    forged.extend_from_slice(other.as_bytes());
    forged.extend_from_slice(&bytes[at + 4 + old_len..]);
    let e = decode(&resum(forged)).unwrap_err().to_string();
    assert!(e.contains("6400x1800") && e.contains("64x40"), "{e}");
    // A world whose preset disagrees with it is saved with its own size.
    let mut odd = world.clone();
    odd.preset.width = 9000;
    let (w2, _) = decode(&encode(&odd, &player)).unwrap();
    assert_eq!((w2.preset.width, w2.preset.height), (64, 40));
}

#[test]
fn a_save_keeps_the_one_it_replaces_as_a_backup_but_never_a_damaged_one() {
    let dir = temp_dir("backup");
    let path = dir.join("world.strata");
    let bak = backup_path(&path);
    assert_eq!(bak, dir.join("world.strata.bak"));
    let (mut world, player) = small();
    // The first save has nothing before it.
    assert_eq!(save_keeping_backup(&path, &world, &player).unwrap(), None);
    assert!(!bak.exists());
    let first = std::fs::read(&path).unwrap();
    assert!(is_whole(&first));
    world.set(3, 3, Tile::Torch);
    assert_eq!(
        save_keeping_backup(&path, &world, &player).unwrap(),
        Some(bak.clone())
    );
    assert_eq!(
        std::fs::read(&bak).unwrap(),
        first,
        "the backup is the old save"
    );
    let (w, _) = load(&path).unwrap();
    assert_eq!(w.tile(3, 3), Tile::Torch, "the save is the new world");
    // A damaged save at the path is replaced, but the good backup stays.
    let second = std::fs::read(&path).unwrap();
    std::fs::write(&path, &second[..100]).unwrap();
    assert!(!is_whole(&second[..100]));
    assert_eq!(save_keeping_backup(&path, &world, &player).unwrap(), None);
    assert_eq!(std::fs::read(&bak).unwrap(), first);
    let mut flipped = second.clone();
    flipped[40] ^= 1;
    assert!(!is_whole(&flipped) && !is_whole(b"STR") && !is_whole(&[]));
    // The backup loads like any save.
    assert!(load(&bak).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `bytes` with the count stored after the first `name` (a length byte, then the name)
/// set to `count` and the name's bytes replaced by `rename` (as long), the checksum fixed.
fn restack(bytes: &[u8], name: &str, rename: &[u8], count: u32) -> Vec<u8> {
    let mut stored = vec![name.len() as u8];
    stored.extend_from_slice(name.as_bytes());
    let at = bytes
        .windows(stored.len())
        .position(|w| w == stored)
        .expect("stored by name");
    let mut out = bytes.to_vec();
    out[at + 1..at + 1 + rename.len()].copy_from_slice(rename);
    let c = at + stored.len();
    out[c..c + 4].copy_from_slice(&count.to_le_bytes());
    resum(out)
}

#[test]
fn refused_slots_are_named_with_what_is_wrong_in_them() {
    let (world, player) = small();
    let slot = player
        .inventory
        .slots()
        .iter()
        .position(|s| s.is_some_and(|s| s.item == cat().id("stone").unwrap()))
        .unwrap();
    let most = cat().item(cat().id("stone").unwrap()).stack;
    let bytes = encode(&world, &player);
    let e = decode(&restack(&bytes, "stone", b"stone", most + 1)).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "damaged save: {} stone in slot {slot}, a stack holds 1 to {most}",
            most + 1
        )
    );
    let e = decode(&restack(&bytes, "stone", b"st\xffne", 12)).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("damaged save: unknown item \"st\\xffne\" (not UTF-8) in slot {slot}")
    );
    // A UTF-8 name that is no item is shown as it is.
    let e = decode(&restack(&bytes, "stone", "st\u{e9}n".as_bytes(), 12)).unwrap_err();
    assert!(
        e.to_string().contains("unknown item \"stén\" in slot"),
        "{e}"
    );
}

#[test]
fn an_old_inventory_of_too_many_kinds_names_the_range_its_format_had() {
    let (world, player) = small();
    for (version, expected) in [(1, "expected 9"), (2, "expected 9 to 25")] {
        let mut bytes = encode_as(&world, &player, version);
        // The kinds count follows the header, the preset text and the player's position.
        let text = u32::from_le_bytes(bytes[27..31].try_into().unwrap()) as usize;
        let at = 31 + text + 8;
        bytes[at..at + 4].copy_from_slice(&30u32.to_le_bytes());
        let err = decode(&bytes).unwrap_err();
        let e = err.to_string();
        assert!(
            e.ends_with(&format!("inventory of 30 kinds, {expected}")),
            "{e}"
        );
        assert!(
            matches!(
                err,
                SaveError::InventorySize {
                    count: 30,
                    unit: "kinds",
                    least: 9,
                    ..
                }
            ),
            "{err:?}"
        );
    }
}

#[test]
fn tiles_past_the_first_32_round_trip_and_format_5_still_loads() {
    let (mut world, player) = small();
    // Doors, platforms and furniture have bytes 29 and up: 31 and 32 need format 6's bits.
    let news = [Tile::ClosedDoor, Tile::Platform, Tile::Table, Tile::Bed];
    for (i, &t) in news.iter().enumerate() {
        world.set(i, 0, t);
    }
    assert!(news.iter().any(|&t| t as usize >= 32));
    let (w2, _) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(w2.tiles(), world.tiles());
    // A format 5 save (its tiles all below 32) loads as it did.
    let (old, _) = small();
    let v5 = encode_as(&old, &player, 5);
    assert_eq!(u32::from_le_bytes(v5[7..11].try_into().unwrap()), 5);
    assert_eq!(decode(&v5).unwrap().0.tiles(), old.tiles());
}

#[test]
fn format_8_packs_tiles_in_7_bits_and_format_7_still_loads() {
    let (mut world, mut player) = small();
    // Format 7's runs hold the tile in 6 bits and the wall in 4.
    world.set(0, 0, Tile::EyeTrophy);
    world.set_wall(1, 0, Wall::StoneBrick);
    player.max_health = MAX_HEALTH + 20.0;
    let v7 = encode_as(&world, &player, 7);
    assert_eq!(u32::from_le_bytes(v7[7..11].try_into().unwrap()), 7);
    let (w7, p7) = decode(&v7).unwrap();
    assert_eq!(w7.tiles(), world.tiles());
    assert_eq!(w7.walls(), world.walls());
    assert_eq!(p7.max_health, player.max_health);
    // The same world in format 8 is another file (7-bit tiles, 5-bit walls) that loads
    // to the same world.
    let v8 = encode_as(&world, &player, 8);
    assert_eq!(u32::from_le_bytes(v8[7..11].try_into().unwrap()), 8);
    assert_ne!(v7[11..], v8[11..]);
    let (w8, _) = decode(&v8).unwrap();
    assert_eq!(w8.tiles(), world.tiles());
    assert_eq!(w8.walls(), world.walls());
    // Read as format 7, a format 8 run's seventh bit would be part of its length: the
    // two layouts differ, so each version must be read with its own.
    let mut relabelled = v8.clone();
    relabelled[7..11].copy_from_slice(&7u32.to_le_bytes());
    let relabelled = resum(relabelled);
    assert!(
        decode(&relabelled)
            .map(|(w, _)| w.tiles() != world.tiles())
            .unwrap_or(true)
    );
}

#[test]
fn tiles_past_the_first_64_and_walls_past_16_round_trip() {
    let (mut world, player) = small();
    let news = [Tile::Marble, Tile::Honey, Tile::Ruby, Tile::ObsidianBrick];
    for (i, &t) in news.iter().enumerate() {
        world.set(i, 0, t);
    }
    world.set_wall(5, 0, Wall::ObsidianBrick);
    assert!(news.iter().any(|&t| t as usize >= 64));
    assert!(Wall::ObsidianBrick as usize >= 16);
    let (w2, _) = decode(&encode(&world, &player)).unwrap();
    assert_eq!(w2.tiles(), world.tiles());
    assert_eq!(w2.walls(), world.walls());
}

/// Each damage of a save's header, preset, player and tiles is told apart by its variant,
/// made here from a real save changed by hand.
#[test]
fn each_damage_of_a_save_is_its_own_variant() {
    let (world, player) = small();
    let bytes = encode(&world, &player);
    let err = |b: Vec<u8>| decode(&b).unwrap_err();
    // The header: magic (7), version, width, height (u32 each), seed (u64), preset length.
    let preset_at = 7 + 4 + 4 + 4 + 8 + 4;
    let mut v0 = bytes.clone();
    v0[7..11].copy_from_slice(&0u32.to_le_bytes());
    assert!(matches!(err(v0), SaveError::VersionZero));
    let mut wide = bytes.clone();
    wide[11..15].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = err(wide);
    assert!(
        matches!(&e, SaveError::WorldSize(r) if r.field == "width"),
        "{e:?}"
    );
    let mut long = bytes.clone();
    long[27..31].copy_from_slice(&(MAX_PRESET_TEXT as u32 + 1).to_le_bytes());
    let e = err(long);
    assert!(
        matches!(e, SaveError::PresetTooLong(n) if n == MAX_PRESET_TEXT + 1),
        "{e:?}"
    );
    let mut not_text = bytes.clone();
    not_text[preset_at] = 0xff;
    let e = err(resum(not_text));
    assert!(matches!(e, SaveError::PresetNotUtf8), "{e:?}");
    let mut not_ron = bytes.clone();
    not_ron[preset_at] = b'!';
    let e = err(resum(not_ron));
    assert!(
        matches!(&e, SaveError::Preset(p) if p.source == "saved preset"),
        "{e:?}"
    );
    let mut extra = bytes.clone();
    extra.push(0);
    let e = err(extra);
    assert!(
        matches!(
            e,
            SaveError::Trailing {
                part: "checksum",
                bytes: 1
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "damaged save: 1 unexpected bytes after the checksum"
    );
    // The player, after the preset.
    let px = preset_at + preset_text(&world).len();
    let mut out = bytes.clone();
    out[px..px + 4].copy_from_slice(&(-5.0f32).to_le_bytes());
    let e = err(resum(out));
    assert!(
        matches!(e, SaveError::Outside { what: Placed::Player, x, .. } if x == -5.0),
        "{e:?}"
    );
    // The tiles' runs, before the checksum.
    let tiles_at = bytes.len() - 4 - rle_len(&world);
    let runs = |run: &[u8]| {
        let mut b = bytes[..tiles_at].to_vec();
        b.extend_from_slice(run);
        b.extend_from_slice(&[0; 4]);
        err(resum(b))
    };
    let e = runs(&[127]);
    assert!(
        matches!(
            e,
            SaveError::UnknownCode {
                what: "tile",
                code: 127,
                at: 0
            }
        ),
        "{e:?}"
    );
    let e = runs(&[0x82, 0xFF, 0x7F]);
    let total = 64 * 40;
    assert!(
        matches!(e, SaveError::RunPastEnd { what: "tile", at: 0, total: t, len } if t == total && len > total as u64),
        "{e:?}"
    );
    let e = runs(&[0xFF; 11]);
    assert!(matches!(e, SaveError::RunTooLong { .. }), "{e:?}");
    // A file longer than a save of its world can be: refused by its length.
    let dir = temp_dir("too-long");
    let path = dir.join("world.strata");
    let mut padded = bytes.clone();
    padded.resize(max_save_len(&bytes) as usize + 1, 0);
    std::fs::write(&path, &padded).unwrap();
    let e = load(&path).unwrap_err();
    assert!(
        matches!(e, SaveError::TooLong { limit } if limit == max_save_len(&bytes)),
        "{e:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_most_mana_is_kept_and_a_save_without_it_loads_with_a_new_player_s() {
    let (world, mut player) = small();
    let plain = encode(&world, &player);
    assert_eq!(decode(&plain).unwrap().1.max_mana, crate::sim::mana::START);
    player.max_mana = 60;
    let raised = encode(&world, &player);
    assert_ne!(plain, raised);
    assert_eq!(decode(&raised).unwrap().1.max_mana, 60);
}
