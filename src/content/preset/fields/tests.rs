use super::*;
use crate::content::preset::{locate_field, parse};

const DEFAULT_RON: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/config/presets/default.ron"
));

/// A value other than `v` that the field allows in `p`.
fn other(f: &Field, p: &Preset, v: f64) -> f64 {
    let (lo, hi) = f.bounds(p);
    let up = f.fit(p, v + f.step);
    if up != v && f.allows(p, up) {
        up
    } else {
        let down = f.fit(p, v - f.step);
        assert!(down != v, "{}: no other value in {lo}..{hi}", f.path);
        down
    }
}

#[test]
fn every_path_is_written_in_default_ron() {
    for f in FIELDS {
        assert!(
            locate_field(DEFAULT_RON, &f.path_at(0)).is_some(),
            "{} is not a field of default.ron",
            f.path
        );
    }
    // And every field default.ron writes has a row (the ore and span lists aside).
    let written = DEFAULT_RON
        .lines()
        .filter_map(|l| l.trim().split_once(": "))
        .filter(|(name, _)| {
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .filter(|(name, value)| name != &"name" && !value.starts_with(['(', '[']))
        .count();
    let rows = FIELDS.iter().filter(|f| f.list().is_none()).count();
    assert_eq!(written, rows);
}

#[test]
fn set_changes_only_its_own_field_and_get_reads_it_back() {
    let base = Preset::default();
    for f in FIELDS {
        let v = (f.get)(&base, 1).expect(f.path);
        let w = other(f, &base, v);
        let mut p = base.clone();
        (f.set)(&mut p, 1, Some(w));
        assert_eq!((f.get)(&p, 1), Some(w), "{}", f.path);
        assert_ne!(p, base, "{}", f.path);
        for g in FIELDS.iter().filter(|g| g.path != f.path) {
            for i in 0..entries(&base, g) {
                assert_eq!(
                    (g.get)(&p, i),
                    (g.get)(&base, i),
                    "{} moved {}",
                    f.path,
                    g.path
                );
            }
        }
        // Entry 1 only: entry 0 of a list is untouched.
        if f.list().is_some() {
            assert_eq!((f.get)(&p, 0), (f.get)(&base, 0), "{}", f.path);
        }
    }
}

#[test]
fn validate_refuses_each_field_just_outside_its_range_naming_it() {
    let base = Preset::default();
    for f in FIELDS.iter().filter(|f| f.is_number()) {
        let (lo, hi) = f.bounds(&base);
        let mut outside = vec![hi + f.step.max(1.0) * 2.0];
        if f.open_min {
            outside.push(lo);
        } else if lo >= 1.0 || f.kind == Kind::Float {
            outside.push(lo - 1.0);
        }
        for v in outside {
            if f.kind == Kind::Int && v > u32::MAX as f64 {
                continue;
            }
            let mut p = base.clone();
            (f.set)(&mut p, 0, Some(v));
            let e = p.validate().expect_err(f.path);
            assert_eq!(e.field, f.path_at(0), "{} = {v}: {e}", f.path);
            assert_eq!(e.allowed, f.range_in(&p), "{}", f.path);
        }
        for v in [lo, hi] {
            let mut p = base.clone();
            (f.set)(&mut p, 0, Some(f.fit(&base, v)));
            if let Err(e) = p.validate() {
                assert_ne!(e.field, f.path_at(0), "{} = {v} refused: {e}", f.path);
            }
        }
    }
}

#[test]
fn a_linked_minimum_follows_the_other_field() {
    let mut p = Preset::default();
    let cavern = field("layers.cavern").unwrap();
    p.layers.underground = 0.4;
    assert_eq!(cavern.bounds(&p), (0.4, 1.0));
    assert_eq!(cavern.range_in(&p), "[0.4, 1]");
    assert_eq!(cavern.range_doc(), "[underground, 1]");
    assert_eq!(cavern.fit(&p, 0.1), 0.4);
    let max_height = field("trees.max_height").unwrap();
    assert_eq!(max_height.range_doc(), "min_height..=64");
    assert_eq!(field("surface.frequency").unwrap().range_doc(), "(0, 1]");
    assert_eq!(
        field("layers.jitter").unwrap().range_doc(),
        "PerTile or PerColumn"
    );
}

#[test]
fn fit_rounds_whole_numbers_and_keeps_off_an_open_minimum() {
    let p = Preset::default();
    assert_eq!(field("caves.iterations").unwrap().fit(&p, 6.6), 7.0);
    assert_eq!(field("caves.iterations").unwrap().fit(&p, 1e9), 64.0);
    let freq = field("surface.frequency").unwrap();
    assert!(freq.fit(&p, 0.0) > 0.0 && freq.allows(&p, freq.fit(&p, 0.0)));
    assert_eq!(freq.fit(&p, f64::NAN), freq.fit(&p, 0.0));
}

#[test]
fn choices_and_optional_fields() {
    let mut p = parse("(layers: (jitter: PerColumn))", "x").unwrap();
    let jitter = field("layers.jitter").unwrap();
    assert_eq!((jitter.get)(&p, 0), Some(1.0));
    (jitter.set)(&mut p, 0, Some(0.0));
    assert_eq!(p.layers.jitter, Jitter::PerTile);
    let deep = field("ores.table[].deep_threshold").unwrap();
    (deep.set)(&mut p, 1, None);
    assert_eq!(p.ores.table[1].deep_threshold, None);
    assert_eq!((deep.get)(&p, 1), None);
    let twin = field("lodes.table[].twin").unwrap();
    assert_eq!((twin.get)(&p, 0), Some(Tile::TinOre as u8 as f64));
    (twin.set)(&mut p, 0, None);
    assert_eq!((p.lodes.table[0].twin, (twin.get)(&p, 0)), (None, None));
    assert_eq!((deep.get)(&p, 99), None);
    let tile = field("ores.table[].tile").unwrap();
    (tile.set)(&mut p, 0, Some(Tile::GoldOre as u8 as f64));
    assert_eq!(p.ores.table[0].tile, Tile::GoldOre);
    assert_eq!(
        field("biomes.spans[].width").unwrap().list(),
        Some("biomes.spans")
    );
    assert_eq!(field("caves.fill").unwrap().section(), "caves");
    assert_eq!(field("width").unwrap().section(), "");
}
