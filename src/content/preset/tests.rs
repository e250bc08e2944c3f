//! Preset parsing and validation tests, and the shipped presets' checks.

use super::*;

fn err(text: &str) -> PresetError {
    parse(text, "test.ron").expect_err("should be refused")
}

#[test]
fn empty_preset_is_the_default() {
    assert_eq!(parse("()", "x").unwrap(), Preset::default());
}

#[test]
fn omitted_fields_take_defaults() {
    let p = parse("(width: 100, caves: (fill: 0.5))", "x").unwrap();
    assert_eq!(p.width, 100);
    assert_eq!(p.caves.fill, 0.5);
    assert_eq!(p.caves.iterations, CaveParams::default().iterations);
    assert_eq!(p.height, Preset::default().height);
}

#[test]
fn unknown_field_is_refused_with_position() {
    let e = err("(\n  caves: (fil: 0.5),\n)");
    assert_eq!(e.position.map(|p| p.0), Some(2));
    assert!(e.message.contains("fil"), "{e}");
    assert!(e.to_string().starts_with("test.ron:2:"), "{e}");
}

#[test]
fn syntax_and_type_errors_have_positions() {
    let e = err("(width: 100,\n height: \"tall\")");
    assert_eq!(e.position.map(|p| p.0), Some(2), "{e}");
    let e = err("(width: 100");
    assert!(e.position.is_some(), "{e}");
    let e = err("(grass: (mode: Sometimes))");
    assert!(e.message.contains("Sometimes"), "{e}");
}

#[test]
fn each_noise_field_names_its_basis_and_every_basis_validates_and_generates() {
    let all = [
        "surface: (basis: B, relief_basis: B, terrace_basis: B)",
        "layers: (wander_basis: B)",
        "caves: (fill_basis: B)",
        "tunnels: (basis: B)",
        "underworld: (basis: B)",
        "ores: (basis: B)",
        "biomes: (dune_basis: B, pocket_basis: B)",
        "trees: (basis: B)",
    ]
    .join(", ");
    let mut hashes = Vec::new();
    for basis in Basis::ALL {
        let text = format!(
            "(width: 300, height: 200, {})",
            all.replace('B', basis.name())
        );
        let p = parse(&text, "bases.ron").unwrap();
        assert_eq!(
            [
                p.surface.basis,
                p.surface.relief_basis,
                p.layers.wander_basis,
                p.caves.fill_basis,
                p.ores.basis,
                p.trees.basis,
                p.surface.terrace_basis,
                p.tunnels.basis,
                p.underworld.basis,
                p.biomes.dune_basis,
                p.biomes.pocket_basis,
            ],
            [basis; 11]
        );
        p.validate().unwrap();
        let world = crate::worldgen::generate(&p, 5).0;
        hashes.push(world.tile_hash());
        // Each basis makes a world of its own, which shows in its surface.
        if basis != Basis::Perlin {
            let perlin =
                crate::worldgen::generate(&parse("(width: 300, height: 200)", "p").unwrap(), 5);
            assert_ne!(perlin.0.surface, world.surface, "{basis:?}");
        }
    }
    hashes.dedup();
    assert_eq!(hashes.len(), 3);
    // A basis left out is Perlin's; a wrong one is refused where it stands.
    assert_eq!(parse("(ores: ())", "x").unwrap().ores.basis, Basis::Perlin);
    for (section, field) in [
        ("caves", "fill_basis"),
        ("surface", "terrace_basis"),
        ("tunnels", "basis"),
        ("underworld", "basis"),
        ("biomes", "dune_basis"),
        ("biomes", "pocket_basis"),
    ] {
        let e = err(&format!("(\n  {section}: (\n    {field}: Worley),\n)"));
        assert!(e.to_string().starts_with("test.ron:3:"), "{e}");
        let path = format!("{section}.{field}");
        assert!(
            e.message.contains(&path) && e.message.contains("Worley"),
            "{e}"
        );
    }
}

#[test]
fn out_of_range_values_name_field_value_range_and_line() {
    let cases = [
        ("(width: 0)", "width"),
        ("(height: 999999)", "height"),
        ("(surface: (octaves: 0))", "surface.octaves"),
        ("(surface: (frequency: -0.1))", "surface.frequency"),
        ("(surface: (amplitude: inf))", "surface.amplitude"),
        ("(surface: (persistence: NaN))", "surface.persistence"),
        ("(caves: (fill: 1.5))", "caves.fill"),
        ("(caves: (wall_above: 9))", "caves.wall_above"),
        ("(caves: (iterations: 100000))", "caves.iterations"),
        ("(caves: (scale: 0))", "caves.scale"),
        ("(caves: (scale: 5))", "caves.scale"),
        ("(caves: (smoothing: 65))", "caves.smoothing"),
        ("(water: (pools: 1.5))", "water.pools"),
        ("(water: (max_depth: 0))", "water.max_depth"),
        ("(water: (max_width: 20000))", "water.max_width"),
        (
            "(caves: (wall_above: 2, open_below: 6))",
            "caves.open_below",
        ),
        (
            "(ores: (table: [(tile: Stone, threshold: 0.1, min_depth: 1), (tile: Air, threshold: 0.1, min_depth: 1)]))",
            "ores.table[1].tile",
        ),
        (
            "(ores: (table: [(tile: IronOre, threshold: 2.0, min_depth: 1)]))",
            "ores.table[0].threshold",
        ),
        (
            "(ores: (table: [(tile: IronOre, threshold: 0.5, min_depth: 1, from: Cavern, to: Surface)]))",
            "ores.table[0].to",
        ),
        (
            "(ores: (table: [(tile: IronOre, threshold: 0.5, min_depth: 1, deep_threshold: Some(1.5))]))",
            "ores.table[0].deep_threshold",
        ),
        ("(layers: (cavern: 0.2, underground: 0.3))", "layers.cavern"),
        ("(tunnels: (mouth_radius: 0.5))", "tunnels.mouth_radius"),
        (
            "(underworld: (ceiling: 0.8, floor: 0.5))",
            "underworld.floor",
        ),
        ("(lava: (max_depth: 0))", "lava.max_depth"),
        ("(caves: (deepening: 2.0))", "caves.deepening"),
    ];
    for (text, field) in cases {
        let e = err(text);
        assert!(e.message.starts_with(&format!("{field} = ")), "{text}: {e}");
        assert!(e.message.contains("allowed"), "{text}: {e}");
        assert!(e.position.is_some(), "{text}: {e}");
    }
}

#[test]
fn generation_cliffs_are_refused_naming_field_and_range() {
    // Values the world lab's sliders reached, each of which made its pass take seconds
    // at the default size (tunnels walk worms x length steps; ore noise at frequency 1
    // hashes a lattice cell per tile per row).
    let rows = "(tile: IronOre, threshold: -1.0, min_depth: 4),".repeat(9);
    let too_many_ores = format!("(ores: (table: [{rows}]))");
    let cases = [
        (
            "(tunnels: (worms: 1000))",
            "tunnels.worms = 1000",
            "[0, 40]",
        ),
        ("(tunnels: (worms: 41))", "tunnels.worms = 41", "[0, 40]"),
        (
            "(tunnels: (length: 4000))",
            "tunnels.length = 4000",
            "0..=1500",
        ),
        (
            "(tunnels: (mouths: 100))",
            "tunnels.mouths = 100",
            "[0, 20]",
        ),
        (
            "(ores: (frequency: 1.0))",
            "ores.frequency = 1",
            "(0, 0.125]",
        ),
        (
            "(ores: (frequency: 0.13))",
            "ores.frequency = 0.13",
            "(0, 0.125]",
        ),
        (
            &too_many_ores,
            "ores.table = 9 entries",
            "at most 8 entries",
        ),
    ];
    for (text, named, range) in cases {
        let e = err(text);
        assert!(e.message.starts_with(named), "{text}: {e}");
        assert!(e.message.contains(range), "{text}: {e}");
        assert!(e.position.is_some(), "{text}: {e}");
    }
    // The bounds themselves are allowed.
    parse(
        "(tunnels: (worms: 40, length: 1500, mouths: 20), ores: (frequency: 0.125))",
        "x",
    )
    .unwrap();
}

#[test]
fn locate_field_finds_nested_and_indexed_fields() {
    let text = "(\n  // fill: 9\n  caves: (\n    fill: 2.0,\n  ),\n  ores: (table: [\n    (tile: IronOre, threshold: 0.1, min_depth: 1),\n    (tile: GoldOre, threshold: 5.0, min_depth: 1),\n  ]),\n)";
    assert_eq!(locate_field(text, "caves.fill"), Some((4, 5)));
    assert_eq!(
        locate_field(text, "ores.table[1].threshold").map(|p| p.0),
        Some(8)
    );
    assert_eq!(locate_field(text, "surface.octaves"), None);
}

#[test]
fn positions_skip_block_comments_and_strings_and_count_characters() {
    let e = err("(\n  /* caves: (fill: 0.5) */ caves: (fill: 1.5),\n)");
    assert_eq!(e.position, Some((2, 36)), "{e}");
    let e = err("(/* a /* nested */ caves: (fill: 9) */ caves: (fill: 1.5))");
    assert_eq!(e.position, Some((1, 48)), "{e}");
    let e = err("(name: \"caves: (fill: 9)\", caves: (fill: 1.5))");
    assert_eq!(e.position, Some((1, 36)), "{e}");
    // Columns count characters, as RON's own do: "é" is one column of two bytes.
    let e = err("(name: \"ééé\", caves: (fill: 2.0))");
    assert_eq!(e.position, Some((1, 23)), "{e}");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let p = parse("\u{feff}(width: 100)", "bom.ron").unwrap();
    assert_eq!(p.width, 100);
    let e = err("\u{feff}(\n caves: (fill: 1.5))");
    assert_eq!(e.position, Some((2, 10)), "{e}");
}

#[test]
fn wrong_types_name_the_field_and_what_it_takes() {
    let cases = [
        (
            "(width: 1.0)",
            "width: expected a whole number",
            "found 1.0",
        ),
        (
            "(surface: (octaves: 1e3))",
            "surface.octaves: expected a whole number",
            "found 1e3",
        ),
        (
            "(caves: (fill: \"much\"))",
            "caves.fill: expected a number",
            "found \"much\"",
        ),
        ("(caves: 5)", "caves: expected a section", "found 5"),
        (
            "(ores: (table: [(tile: IronOre, threshold: x, min_depth: 1)]))",
            "ores.table[0].threshold: expected a number",
            "found x",
        ),
        (
            "(layers: (jitter: 3))",
            "layers.jitter: expected one of its named choices",
            "found 3",
        ),
    ];
    for (text, start, found) in cases {
        let e = err(text);
        assert!(
            e.message.starts_with(start) && e.message.ends_with(found),
            "{text}: {e}"
        );
    }
    // Errors that are not about a value's kind keep RON's words, with the field.
    let e = err("(caves: (fil: 0.5))");
    assert!(
        e.message.starts_with("caves.fil: ") && e.message.contains("`fil`"),
        "{e}"
    );
    // An unknown field after a known one is named, not the one before it.
    let e = err("(ores: (table: [(tile: IronOre, threshold: 0.5, deep: 1)]))");
    assert!(e.message.starts_with("ores.table[0].deep: "), "{e}");
}

#[test]
fn huge_and_tiny_values_print_short() {
    let e = err("(caves: (fill: 1e308))");
    assert_eq!(
        e.message,
        "caves.fill = 1e308 is out of range: allowed [0, 1]"
    );
    let e = err("(caves: (fill: -1e-300))");
    assert!(e.message.starts_with("caves.fill = -1e-300 "), "{e}");
}

#[test]
fn a_name_in_a_comment_or_a_string_or_a_section_is_not_the_presets_name() {
    let dir = std::env::temp_dir().join(format!("strata-preset-name-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (text, expected) in [
        ("(/* name: \"Hidden\", */ width: 64)", "mine"),
        ("(\n// name: \"Hidden\"\nwidth: 64)", "mine"),
        ("(width: 64 /* name: \n \"Hidden\" */)", "mine"),
        ("(name: \"Shown\", width: 64)", "Shown"),
    ] {
        let path = dir.join("mine.ron");
        std::fs::write(&path, text).unwrap();
        assert_eq!(load(&path).unwrap().name, expected, "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let text = format!("(name: {}{})", "[".repeat(100_000), "]".repeat(100_000));
    let _ = err(&text);
}

#[test]
fn default_validates() {
    Preset::default().validate().unwrap();
}

mod shipped {

    use super::*;
    use std::path::PathBuf;

    fn shipped() -> Vec<PathBuf> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config/presets");
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("config/presets exists")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        files.sort();
        files
    }

    #[test]
    fn every_shipped_preset_loads_and_generates() {
        let files = shipped();
        assert!(files.len() >= 5, "{files:?}");
        for path in files {
            let p = load(&path).unwrap_or_else(|e| panic!("{e}"));
            let small = Preset {
                width: 200,
                height: 120,
                ..p
            };
            let (world, _) = crate::worldgen::generate(&small, 1);
            let counts = world.counts();
            assert!(
                counts[Tile::Stone as usize] > 0 && counts[Tile::Air as usize] > 0,
                "{}",
                path.display()
            );
        }
    }

    #[test]
    fn every_shipped_preset_opens_with_its_name_and_character() {
        for path in shipped() {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = load(&path).unwrap().name;
            let first = text.lines().next().unwrap_or_default();
            let says = first
                .strip_prefix(&format!("// {name}: "))
                .unwrap_or_else(|| panic!("{}: first line {first:?}", path.display()));
            assert!(says.len() > 20, "{}: {first:?}", path.display());
        }
    }

    #[test]
    fn default_ron_is_preset_default() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config/presets");
        assert_eq!(load(&dir.join("default.ron")).unwrap(), Preset::default());
        let large = load(&dir.join("large.ron")).unwrap();
        assert_eq!((large.width, large.height), (8400, 2400));
        let classic = load(&dir.join("classic.ron")).unwrap();
        assert_eq!(
            (classic.width, classic.height, classic.caves.fill),
            (1000, 500, 0.48)
        );
        assert_eq!(classic.grass.mode, GrassMode::Exposed);
    }

    /// Golden hashes: what each shipped preset makes at 256x160 with seed 2026. A change
    /// here is a change of every world players have seen: only on purpose, and documented.
    #[test]
    fn golden_hashes() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config/presets");
        let mut got = Vec::new();
        for name in [
            "classic",
            "default",
            "large",
            "caverns",
            "plains",
            "highlands",
        ] {
            let p = load(&dir.join(format!("{name}.ron"))).unwrap();
            let p = Preset {
                width: 256,
                height: 160,
                ..p
            };
            got.push((
                name,
                format!("{:016x}", crate::worldgen::generate(&p, 2026).0.tile_hash()),
            ));
        }
        let expected: Vec<(&str, String)> =
            GOLDEN.iter().map(|&(n, h)| (n, h.to_string())).collect();
        assert_eq!(got, expected);
    }

    // Changed on purpose, moving every preset but classic: `ores.veins: Separate` (each
    // ore its own noise field, iron and gold thresholds raised to 0.44 and 0.575 to keep
    // their shares), then `caves.scale: 2, smoothing: 2` (caves on 2x2-tile cells), then
    // the water pass (at this size only plains gets a pool), then the surface's relief,
    // terraces and oceans, then the biomes (plains' desert lies outside 256 columns), then
    // the underground: a wandering dirt/stone line with blobs, caves by depth layer,
    // tunnels and mouths, then the trees, then the underworld and lava, then
    // the biome plan drawn per seed (counts, widths, snow and jungle apart, the deep jungle,
    // the underground desert), the cave style and the biomes' caves, winding tunnels and
    // the lodes pass's ore veins (copper to gold and their twins) in place of the noise
    // table's copper, iron, silver and gold, and the mini-biomes (at this size: hellstone by
    // the lava, gems, clay and silt; classic has them off), then the lodes pass's cheaper
    // vein shape (a blob every other step, each blob row's ends drawn once a row).
    const GOLDEN: [(&str, &str); 6] = [
        ("classic", "2667f34767bfbaf8"),
        ("default", "06a59d7e2b66807f"),
        ("large", "06a59d7e2b66807f"),
        ("caverns", "8e725c0d8d57e1d9"),
        ("plains", "3fae556c7fb96750"),
        ("highlands", "0acfaaf244164682"),
    ];
}
