//! Tests of the settings file's load and save path: a file that does not load keeps
//! what it can and is never lost to the menu.

use super::*;
use KeyCode as K;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("strata-settings-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The file of the playtest: two bindings and a UI scale out of range.
const PLAYTEST: &str = "(\n  keys: (jump: [\"J\"], left: [\"Q\"]),\n  ui_scale: 9,\n)\n";

#[test]
fn values_out_of_range_take_their_defaults_and_the_rest_is_kept() {
    let d = scratch("salvage");
    let path = d.join("settings.ron");
    std::fs::write(&path, PLAYTEST).unwrap();
    let (s, why) = load(&path);
    assert_eq!(s.keys.keys(Command::Jump), &[Key(K::J)]);
    assert_eq!(s.keys.keys(Command::Left), &[Key(K::Q)]);
    assert_eq!(s.ui_scale, Settings::default().ui_scale);
    let why = why.unwrap();
    assert!(
        why.contains("settings.ron:3:3: ui_scale = 9 is out of range"),
        "{why}"
    );
    assert!(
        why.ends_with("(ui_scale: the default; the rest as written)"),
        "{why}"
    );
    // Every field out of range is set back, each named.
    let (s, reset) = salvage("(max_fps: 5000, window_width: 10, fullscreen: true)").unwrap();
    assert_eq!(reset, ["window_width, max_fps: the default"]);
    assert!(s.fullscreen && s.validate().is_ok());
    // A key that clashes with a default binding: the player's binding keeps it.
    let (s, changed) = salvage("(ui_scale: 2.0, keys: (left: [\"R\"]))").unwrap();
    assert_eq!(
        (s.ui_scale, s.keys.command(K::R)),
        (2.0, Some(Command::Left))
    );
    assert_eq!(changed, ["keys.reseed gives R to keys.left and has no key"]);
    // What does not parse is not salvaged: the defaults, and it says so.
    assert_eq!(salvage("(volume: 3)"), None);
    assert_eq!(salvage("(ui_scale: 2.0)"), None, "nothing to salvage");
    std::fs::write(&path, "(ui_scale: 2.0, volume: 3)").unwrap();
    let (s, why) = load(&path);
    assert_eq!(s, Settings::default());
    assert!(why.unwrap().ends_with("(playing with the defaults)"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_file_that_did_not_load_is_kept_before_the_first_write() {
    let d = scratch("keep");
    let path = d.join("settings.ron");
    let bak = d.join("settings.ron.bak");
    // No file, or a file that loads: nothing to keep.
    assert_eq!(Settings::default().save(&path), Ok(None));
    assert_eq!(Settings::default().save(&path), Ok(None));
    assert!(!bak.exists());
    std::fs::write(&path, PLAYTEST).unwrap();
    let (mut s, _) = load(&path);
    s.max_fps = 90;
    assert_eq!(s.save(&path), Ok(Some(bak.clone())));
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), PLAYTEST);
    assert_eq!(load(&path), (s.clone(), None), "the new file loads");
    assert_eq!(s.save(&path), Ok(None), "kept once");
    // Another such file goes beside it; the same one again is already kept.
    std::fs::write(&path, "(volume: 3)").unwrap();
    assert_eq!(s.save(&path), Ok(Some(d.join("settings.ron.bak2"))));
    std::fs::write(&path, PLAYTEST).unwrap();
    assert_eq!(s.save(&path), Ok(Some(bak.clone())));
    assert_eq!(
        std::fs::read_to_string(d.join("settings.ron.bak2")).unwrap(),
        "(volume: 3)"
    );
    // One too large to load is copied as it is.
    let big = format!("({})", " ".repeat(MAX_FILE_BYTES as usize));
    std::fs::write(&path, &big).unwrap();
    assert_eq!(s.save(&path), Ok(Some(d.join("settings.ron.bak3"))));
    assert_eq!(
        std::fs::read_to_string(d.join("settings.ron.bak3")).unwrap(),
        big
    );
    // Every backup name taken by another file: refused, and the file stays.
    for i in 4..=MAX_BACKUPS {
        std::fs::write(d.join(format!("settings.ron.bak{i}")), format!("({i}")).unwrap();
    }
    std::fs::write(&path, "(broken").unwrap();
    let e = s.save(&path).unwrap_err();
    assert!(e.contains("not replaced: it did not load"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "(broken");
    std::fs::remove_dir_all(&d).unwrap();
}

/// A file from before Throw had G, binding Fit to it, Jump to W and Help to a key too many.
const FIT_ON_G: &str = "(\n  keys: (fit: [\"G\"], jump: [\"W\"], save: [\"K\"], help: [\"F1\", \"J\", \"U\", \"Y\", \"O\"]),\n  max_fps: 90,\n)\n";

#[test]
fn a_key_the_player_bound_stays_theirs_when_it_became_another_commands_default() {
    let d = scratch("clash");
    let path = d.join("settings.ron");
    std::fs::write(&path, FIT_ON_G).unwrap();
    let (s, why) = load(&path);
    // Every binding of the player's is kept, and the rest of the file.
    assert_eq!(s.keys.keys(Command::Fit), &[Key(K::G)]);
    assert_eq!(s.keys.keys(Command::Jump), &[Key(K::W)]);
    assert_eq!(s.keys.keys(Command::Save), &[Key(K::K)]);
    assert_eq!(s.max_fps, 90);
    // Throw, whose default G collided, is left without a key and named; the list of too
    // many keys takes its default; every other command keeps its defaults.
    assert!(s.keys.keys(Command::Throw).is_empty());
    assert_eq!(s.keys.keys(Command::Help), &[Key(K::F1)]);
    assert_eq!(
        s.keys.keys(Command::Left),
        Bindings::default().keys(Command::Left)
    );
    assert_eq!(s.validate(), Ok(()));
    let why = why.unwrap();
    assert!(
        why.contains("settings.ron:2:48: keys.help has 5 keys"),
        "{why}"
    );
    assert!(
        why.ends_with(
            "(keys.help: the default; keys.throw gives G to keys.fit and has no key; \
             the rest as written)"
        ),
        "{why}"
    );
    // Saved and loaded again: the same bindings, and nothing to say.
    s.save(&path).unwrap();
    assert_eq!(load(&path), (s.clone(), None));
    // A command that collides on one of its default keys keeps the others.
    let (s, changed) = salvage("(keys: (save: [\"Up\"]))").unwrap();
    assert_eq!(s.keys.describe(Command::Jump), "Space, W");
    assert_eq!(s.keys.command(K::Up), Some(Command::Save));
    assert_eq!(changed, ["keys.jump gives Up to keys.save"]);
    // Two of the player's own bindings on one key: the first keeps it, the other keeps
    // the rest of its list.
    let (s, changed) = salvage("(keys: (reseed: [\"J\"], save: [\"J\", \"K\"]))").unwrap();
    assert_eq!(s.keys.command(K::J), Some(Command::Reseed));
    assert_eq!(s.keys.describe(Command::Save), "K");
    assert_eq!(changed, ["keys.save gives J to keys.reseed"]);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_hand_edited_file_is_kept_before_a_rewrite_drops_its_comments() {
    let d = scratch("hand");
    let path = d.join("settings.ron");
    let hand = "// my own settings\n(\n  max_fps: 60, // the monitor's rate\n)\n";
    std::fs::write(&path, hand).unwrap();
    let (mut s, e) = load(&path);
    assert_eq!((s.max_fps, e), (60, None), "it loads");
    s.max_fps = 90;
    let bak = d.join("settings.ron.bak");
    assert_eq!(s.save(&path), Ok(Some(bak.clone())));
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), hand);
    // What Strata wrote is its own: written over without another backup.
    s.max_fps = 120;
    assert_eq!(s.save(&path), Ok(None));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_key_on_two_commands_is_blamed_on_the_one_the_player_wrote_with_its_place() {
    // F5 is Save's by default; the player gave it to Reseed, which comes first.
    let e = parse("(\n  keys: (reseed: [\"F5\"]),\n)", "s.ron").unwrap_err();
    assert!(
        e.starts_with("s.ron:2:10: keys.reseed \"F5\" is also bound to keys.save"),
        "{e}"
    );
}
