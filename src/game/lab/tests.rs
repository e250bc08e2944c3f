use super::*;
use crate::content::preset::field;

fn select(lab: &mut Lab, path: &str, entry: usize) {
    lab.selected = lab
        .rows()
        .iter()
        .position(|r| matches!(r, Row::Field(f, i) if f.path == path && *i == entry))
        .unwrap_or_else(|| panic!("no row {path}"));
}

#[test]
fn rows_group_every_field_by_section_in_ron_order() {
    let p = Preset::default();
    let rows = rows(&p);
    let sections: Vec<&str> = rows
        .iter()
        .filter_map(|r| match r {
            Row::Section(s) => Some(*s),
            _ => None,
        })
        .collect();
    assert_eq!(
        sections,
        [
            "",
            "surface",
            "layers",
            "caves",
            "tunnels",
            "underworld",
            "ores",
            "lodes",
            "water",
            "lava",
            "grass",
            "ocean",
            "biomes",
            "lakes",
            "trees",
            "chests",
            "evil",
            "dungeon",
            "islands",
            "cabins",
            "crystals",
            "marble",
            "granite",
            "mushrooms",
            "hives",
            "spiders",
            "ruins",
            "hellstone",
            "gems",
            "deposits"
        ]
    );
    let fields = rows.iter().filter(|r| matches!(r, Row::Field(..))).count();
    let plain = FIELDS.iter().filter(|f| f.list().is_none()).count();
    // Two ores of six fields, three spans of three, four lodes of ten.
    assert_eq!(fields, plain + 2 * 6 + 3 * 3 + 4 * 10);
    assert!(rows.contains(&Row::Entry("ores.table", 1)));
    assert!(rows.contains(&Row::Entry("lodes.table", 3)));
    // Every field row sits under its own section's heading.
    let mut section = "";
    for r in &rows {
        match r {
            Row::Section(s) => section = s,
            Row::Field(f, _) => assert_eq!(f.section(), section, "{}", f.path),
            Row::Entry(..) => {}
        }
    }
}

#[test]
fn edits_mark_unsaved_and_undo_redo_walk_them_back_and_forth() {
    let mut lab = Lab::new(Preset::default());
    assert!(!lab.unsaved() && !lab.title().contains('*'));
    select(&mut lab, "caves.fill", 0);
    lab.nudge(2.0, 0.0);
    assert_eq!(lab.edited.caves.fill, 0.55);
    assert!(lab.unsaved() && lab.title().contains("* (unsaved changes)"));
    select(&mut lab, "caves.iterations", 0);
    lab.nudge(1.0, 0.1);
    assert_eq!(lab.edited.caves.iterations, 7);
    lab.undo(0.2);
    assert_eq!(lab.edited.caves.iterations, 6);
    lab.undo(0.3);
    assert_eq!(lab.edited, lab.base);
    assert!(!lab.unsaved());
    lab.undo(0.3); // nothing left: no change
    assert_eq!(lab.edited, lab.base);
    lab.redo(0.4);
    lab.redo(0.5);
    assert_eq!(lab.edited.caves.iterations, 7);
    // A new edit clears the redo steps.
    lab.undo(0.6);
    lab.nudge(-1.0, 0.7);
    lab.redo(0.8);
    assert_eq!(lab.edited.caves.iterations, 5);
}

#[test]
fn a_drag_is_one_undo_step_and_values_stay_in_range() {
    let mut lab = Lab::new(Preset::default());
    select(&mut lab, "caves.fill", 0);
    let f = field("caves.fill").unwrap();
    lab.start_drag(lab.selected);
    for (k, v) in [0.3, 0.5, 7.0].into_iter().enumerate() {
        lab.set(f, 0, Some(v), k as f64 * 0.01);
    }
    lab.end_drag();
    assert_eq!(lab.edited.caves.fill, 1.0, "clamped to the range");
    lab.undo(1.0);
    assert_eq!(lab.edited.caves.fill, 0.54);
    // A drag that moved nothing leaves no step behind.
    lab.start_drag(lab.selected);
    lab.end_drag();
    lab.undo(1.1);
    assert_eq!(lab.edited.caves.fill, 0.54);
    // A linked minimum: the cavern layer cannot go above the underground layer.
    lab.set(field("layers.cavern").unwrap(), 0, Some(0.1), 2.0);
    assert_eq!(lab.edited.layers.cavern, lab.edited.layers.underground);
}

#[test]
fn reset_puts_one_field_back_and_leaves_the_others() {
    let mut lab = Lab::new(Preset::default());
    select(&mut lab, "surface.octaves", 0);
    lab.nudge(3.0, 0.0);
    select(&mut lab, "ores.table[].threshold", 1);
    lab.nudge(4.0, 0.0);
    let t = field("ores.table[].threshold").unwrap();
    assert!(lab.differs(t, 1) && !lab.differs(t, 0));
    assert_eq!(
        lab.changes(),
        ["surface.octaves = 9", "ores.table[1].threshold = 0.84"]
    );
    lab.reset_selected(0.1);
    assert!(!lab.differs(t, 1));
    assert_eq!(lab.edited.surface.octaves, 9);
    lab.undo(0.2);
    assert!(lab.differs(t, 1), "a reset is undone like any edit");
}

#[test]
fn the_debounce_hands_out_one_preset_per_run_of_edits() {
    let mut lab = Lab::new(Preset::default());
    select(&mut lab, "caves.fill", 0);
    assert!(lab.due(10.0).is_none(), "nothing edited");
    lab.nudge(1.0, 1.0);
    lab.nudge(1.0, 1.05);
    assert!(lab.due(1.06).is_none(), "still moving");
    let p = lab.due(1.05 + DEBOUNCE).expect("rested");
    assert_eq!(p.caves.fill, 0.55);
    assert!(lab.due(5.0).is_none(), "handed out once");
    // A preset breaking a rule between fields is not generated, and says why.
    select(&mut lab, "biomes.spans[].width", 0);
    lab.set(field("biomes.spans[].width").unwrap(), 0, Some(0.5), 6.0);
    lab.set(field("biomes.spans[].width").unwrap(), 1, Some(0.5), 6.0);
    assert!(lab.error.as_deref().unwrap().contains("biomes.spans"));
    assert!(lab.due(9.0).is_none());
}

#[test]
fn typed_values_are_checked_and_applied_exactly() {
    let mut lab = Lab::new(Preset::default());
    select(&mut lab, "caves.fill", 0);
    lab.begin_value();
    assert_eq!(lab.entry, Entry::Value("0.54".into()));
    for _ in 0..4 {
        lab.backspace();
    }
    "0.5123".chars().for_each(|c| lab.type_char(c));
    lab.commit_value(0.0).unwrap();
    assert_eq!(lab.edited.caves.fill, 0.5123);
    lab.begin_value();
    lab.entry = Entry::Value("1.5".into());
    let e = lab.commit_value(0.0).unwrap_err();
    assert!(
        e.contains("caves.fill = 1.5 is out of range: allowed [0, 1]"),
        "{e}"
    );
    select(&mut lab, "layers.jitter", 0);
    lab.entry = Entry::Value("percolumn".into());
    lab.commit_value(0.0).unwrap();
    assert_eq!(
        lab.edited.layers.jitter,
        crate::content::preset::Jitter::PerColumn
    );
    select(&mut lab, "ores.table[].deep_threshold", 0);
    lab.entry = Entry::Value("unset".into());
    lab.commit_value(0.0).unwrap();
    assert_eq!(lab.edited.ores.table[0].deep_threshold, None);
    select(&mut lab, "ores.table[].tile", 0);
    lab.nudge(1.0, 0.0);
    assert!(lab.edited.ores.table[0].tile.is_solid());
}

#[test]
fn saving_writes_a_preset_that_loads_back_and_clears_the_mark() {
    let dir = std::env::temp_dir().join(format!("strata-lab-save-{}", std::process::id()));
    let mut lab = Lab::new(Preset::default());
    select(&mut lab, "caves.fill", 0);
    lab.nudge(-6.0, 0.0);
    lab.begin_name();
    assert_eq!(lab.entry, Entry::Name("Default (tuned)".into()));
    let path = lab.commit_name(&dir).unwrap();
    assert_eq!(path.file_name().unwrap(), "default_tuned.ron");
    let back = crate::content::preset::load(&path).unwrap();
    assert_eq!(back, lab.edited);
    assert_eq!(back.caves.fill, 0.51);
    assert!(!lab.unsaved());
    lab.entry = Entry::Name("  ".into());
    assert!(lab.commit_name(&dir).is_err());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_stepper_walks_the_passes_and_ends_on_the_whole_world() {
    let mut lab = Lab::new(Preset::default());
    let last = PASSES.len() - 1;
    assert_eq!(lab.step_by(-1), Some(last - 1));
    assert_eq!(lab.step_by(-100), Some(0));
    assert_eq!(lab.step_by(1), Some(1));
    assert_eq!(lab.step_by(100), None);
}

#[test]
fn selection_skips_headings() {
    let mut lab = Lab::new(Preset::default());
    assert!(matches!(lab.rows()[lab.selected], Row::Field(f, _) if f.path == "width"));
    lab.select_by(2);
    assert!(
        matches!(lab.rows()[lab.selected], Row::Field(f, _) if f.path == "surface.base_height")
    );
    lab.select_by(-100);
    assert!(matches!(lab.rows()[lab.selected], Row::Field(f, _) if f.path == "width"));
    lab.select_by(10_000);
    assert!(matches!(lab.rows()[lab.selected], Row::Field(f, _) if f.path == "deposits.silt"));
}

#[test]
fn overlays_cycle_through_their_choices_and_off() {
    assert_eq!(cycle(None, 3, 1), Some(0));
    assert_eq!(cycle(Some(2), 3, 1), None);
    assert_eq!(cycle(None, 3, -1), Some(2));
    assert_eq!(cycle(Some(0), 3, -1), None);
    let mut lab = Lab::new(Preset::default());
    let names: Vec<String> = ["surface", "trees.groves"].map(String::from).to_vec();
    lab.next_noise(&names, 1);
    assert_eq!(lab.noise.as_deref(), Some("surface"));
    lab.next_octave(2);
    lab.next_octave(2);
    assert_eq!(lab.octave, Some(1));
    lab.next_octave(2);
    assert_eq!(lab.octave, None);
    lab.next_octave(2);
    lab.next_noise(&names, 1);
    assert_eq!(
        (lab.noise.as_deref(), lab.octave),
        (Some("trees.groves"), None)
    );
    lab.next_noise(&names, 1);
    assert_eq!(lab.noise, None);
}

#[test]
fn the_noise_basis_view_cycles_through_each_basis_and_side_by_side() {
    use crate::base::noise::Basis;
    let mut lab = Lab::new(Preset::default());
    let mut seen = vec![lab.noise_bases];
    for _ in 0..5 {
        lab.next_noise_bases();
        seen.push(lab.noise_bases);
    }
    assert_eq!(
        seen,
        [
            NoiseBases::Preset,
            NoiseBases::One(Basis::Perlin),
            NoiseBases::One(Basis::Simplex),
            NoiseBases::One(Basis::Value),
            NoiseBases::SideBySide,
            NoiseBases::Preset,
        ]
    );
    assert_eq!(
        NoiseBases::Preset.label(Basis::Value),
        "Value, the preset's"
    );
    assert_eq!(
        NoiseBases::SideBySide.label(Basis::Perlin),
        "Perlin | Simplex | Value"
    );
}
