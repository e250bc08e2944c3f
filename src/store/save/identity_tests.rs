//! Tests of a world's identity (format 5's `WRLD` section): each world's saves are its
//! own, and saves from before it keep their files.

use super::sections_tests::refusal;
use super::tests::{cat, decode, load};
use super::*;
use crate::content::preset::Preset;

fn world(seed: u64) -> World {
    super::tests::generated(64, 40, seed)
}

#[test]
fn two_worlds_of_one_seed_keep_their_own_saves_and_backups() {
    let dir = std::env::temp_dir().join(format!("strata-save-twins-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let player = PlayerState::new((32.5, 5.0), &cat());
    let (mut a, mut b) = (world(42), world(42));
    assert_eq!(a.tiles(), b.tiles());
    assert_ne!(a.id, b.id, "each world is made with an identity of its own");
    assert!(
        a.id != 42 && b.id != 42,
        "never the seed's, which old saves have"
    );
    let (pa, pb) = (save_path(&dir, &a), save_path(&dir, &b));
    assert_ne!(pa, pb);
    assert_eq!(newest_of(&dir, &a), None, "no save yet");
    let generated = a.tile(2, 1);
    // A is saved twice (a torch, then a second), then B twice (lava, then a second).
    for (w, path, tile) in [(&mut a, &pa, Tile::Torch), (&mut b, &pb, Tile::Lava)] {
        w.set(1, 1, tile);
        save_keeping_backup(path, w, &player).unwrap();
        w.set(2, 1, tile);
        save_keeping_backup(path, w, &player).unwrap();
    }
    let row = |p: &Path| {
        let (w, _) = load(p).unwrap();
        (w.id, w.tile(1, 1), w.tile(2, 1))
    };
    assert_eq!(row(&pa), (a.id, Tile::Torch, Tile::Torch));
    assert_eq!(row(&backup_path(&pa)), (a.id, Tile::Torch, generated));
    assert_eq!(row(&pb), (b.id, Tile::Lava, Tile::Lava));
    assert_eq!(row(&backup_path(&pb)), (b.id, Tile::Lava, generated));
    // F9 finds each world's own save, or its backup when only that is left.
    assert_eq!(newest_of(&dir, &a), Some(pa.clone()));
    std::fs::remove_file(&pb).unwrap();
    assert_eq!(newest_of(&dir, &b), Some(backup_path(&pb)));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn saves_from_before_identities_keep_their_file_name() {
    let (mut w, player) = (world(0x2a), PlayerState::new((32.5, 5.0), &cat()));
    for version in 2..=4 {
        let (old, _) = decode(&encode_as(&w, &player, version)).unwrap();
        assert_eq!(old.id, 0x2a, "v{version}: the seed is its identity");
        assert_eq!(file_name(&old), "world-000000000000002a.strata");
        // Saved again it stays that world: the same file.
        let (again, _) = decode(&encode(&old, &player)).unwrap();
        assert_eq!(file_name(&again), file_name(&old));
    }
    w.id = 0x0123_4567_89ab_cdef;
    let (new, _) = decode(&encode(&w, &player)).unwrap();
    assert_eq!(new.id, w.id);
    assert_eq!(file_name(&new), "world-0123456789abcdef.strata");
}

#[test]
fn a_missing_or_damaged_identity_is_refused() {
    let (w, player) = (world(3), PlayerState::new((32.5, 5.0), &cat()));
    let id = w.id.to_le_bytes().to_vec();
    let e = refusal(&encode_with(&w, &player, 5, &[]));
    assert!(e.contains("no world identity (WRLD section)"), "{e}");
    let e = refusal(&encode_with(
        &w,
        &player,
        5,
        &[(WORLD_TAG, id[..7].to_vec())],
    ));
    assert!(e.contains("world identity of 7 bytes, expected 8"), "{e}");
    let twice = [(WORLD_TAG, id.clone()), (WORLD_TAG, id.clone())];
    let e = refusal(&encode_with(&w, &player, 5, &twice));
    assert!(e.contains("\"WRLD\" unknown or repeated"), "{e}");
    // Format 4 had no identity: a section of one there is refused.
    let e = refusal(&encode_with(&w, &player, 4, &[(WORLD_TAG, id)]));
    assert!(e.contains("\"WRLD\" unknown or repeated"), "{e}");
}

#[test]
fn an_old_save_of_another_name_is_not_saved_over_the_world_of_its_seed() {
    let dir = std::env::temp_dir().join(format!("strata-save-oldname-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (w, player) = (world(0x2a), PlayerState::new((32.5, 5.0), &cat()));
    let v4 = encode_as(&w, &player, 4);
    let id_of = |name: &str| {
        std::fs::write(dir.join(name), &v4).unwrap();
        load(&dir.join(name)).unwrap().0.id
    };
    // The name F5 gave it, and its backup: the seed, so the same file.
    assert_eq!(id_of("world-000000000000002a.strata"), 0x2a);
    assert_eq!(id_of("world-000000000000002a.strata.bak"), 0x2a);
    // Another name: its own identity, the same on every load, saved beside the other.
    let other = id_of("other.strata");
    assert_ne!(other, 0x2a);
    assert_eq!(id_of("other.strata"), other);
    assert_ne!(id_of("copy.strata"), other);
    // Once saved in format 5 the identity is the save's, whatever the file's name.
    let mut w5 = load(&dir.join("other.strata")).unwrap().0;
    w5.set(1, 1, Tile::Torch);
    save(&dir.join("renamed.strata"), &w5, &player).unwrap();
    assert_eq!(load(&dir.join("renamed.strata")).unwrap().0.id, other);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_world_never_saved_finds_the_newest_save_of_its_seed_size_and_preset() {
    let dir = std::env::temp_dir().join(format!("strata-save-seedof-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let player = PlayerState::new((32.5, 5.0), &cat());
    let (a, b, fresh) = (world(42), world(42), world(42));
    assert_eq!(newest_of_seed(&dir, &fresh), None, "no save yet");
    let other_seed = world(43);
    save(&save_path(&dir, &other_seed), &other_seed, &player).unwrap();
    let other_size = super::tests::generated(72, 40, 42);
    save(&save_path(&dir, &other_size), &other_size, &player).unwrap();
    let other_preset = crate::worldgen::generate(
        &Preset {
            width: 64,
            height: 40,
            name: "Other".into(),
            ..Default::default()
        },
        42,
    )
    .0;
    save(&save_path(&dir, &other_preset), &other_preset, &player).unwrap();
    assert_eq!(
        newest_of_seed(&dir, &fresh),
        None,
        "another seed, size or preset is another world"
    );
    let (pa, pb) = (save_path(&dir, &a), save_path(&dir, &b));
    save(&pa, &a, &player).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    save(&pb, &b, &player).unwrap();
    assert_eq!(
        newest_of_seed(&dir, &fresh),
        Some(pb.clone()),
        "the newer one"
    );
    assert_eq!(newest_of(&dir, &fresh), None, "none of its own");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A missing identity, one of the wrong length, and a section given twice or unknown to
/// the format are told apart by their variants.
#[test]
fn identity_and_section_damage_are_their_own_variants() {
    let (w, player) = (world(3), PlayerState::new((32.5, 5.0), &cat()));
    let id = w.id.to_le_bytes().to_vec();
    let refused = |version: u32, sections: &[([u8; 4], Vec<u8>)]| {
        decode(&encode_with(&w, &player, version, sections)).unwrap_err()
    };
    let e = refused(5, &[]);
    assert!(matches!(e, SaveError::NoIdentity { version: 5 }), "{e:?}");
    let e = refused(5, &[(WORLD_TAG, id[..7].to_vec())]);
    assert!(
        matches!(
            e,
            SaveError::SectionLength {
                section: "world identity",
                len: 7,
                expected: 8
            }
        ),
        "{e:?}"
    );
    let e = refused(5, &[(WORLD_TAG, id.clone()), (WORLD_TAG, id.clone())]);
    assert!(
        matches!(e, SaveError::Section(t) if t == WORLD_TAG),
        "{e:?}"
    );
    let e = refused(4, &[(WORLD_TAG, id.clone())]);
    assert!(
        matches!(e, SaveError::Section(t) if t == WORLD_TAG),
        "{e:?}"
    );
    // Format 3 had no sections at all.
    let e = refused(3, &[(WORLD_TAG, id)]);
    assert!(
        matches!(
            e,
            SaveError::TooManySections {
                count: 1,
                version: 3,
                most: 0
            }
        ),
        "{e:?}"
    );
}
