//! Writing a preset back out as RON, laid out as the shipped presets are: a first line
//! naming it, then every field of [`FIELDS`] in its section with its description and range
//! in a comment beside it, the ore table and biome spans one entry a line. What is written
//! parses back to the identical preset (floats are written in their shortest exact form).

use super::fields::{Field, Kind};
use super::{FIELDS, Preset, PresetError, parse};
use crate::base::tile::Tile;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Column the range comments start at (as in the shipped presets, roughly).
const COMMENT_AT: usize = 32;

/// A field's value as RON writes it, `None` for an unset optional field.
fn value_text(f: &Field, preset: &Preset, i: usize) -> Option<String> {
    let v = (f.get)(preset, i)?;
    Some(match f.kind {
        Kind::Float => format!("{v:?}"),
        Kind::Int => format!("{}", v as u64),
        Kind::Bool => (v >= 0.5).to_string(),
        Kind::Choice(names) => names.get(v as usize).copied().unwrap_or("?").to_string(),
        Kind::Tile => Tile::from_u8(v as u8).map_or("?".into(), |t| format!("{t:?}")),
    })
}

/// `name: value,` padded, then `// description, range`.
fn line(out: &mut String, indent: &str, f: &Field, preset: &Preset) {
    let Some(value) = value_text(f, preset, 0) else {
        return;
    };
    let head = format!("{indent}{}: {value},", f.name());
    let range = match f.kind {
        // The drop-down's names already close the description.
        Kind::Choice(_) | Kind::Bool => String::new(),
        _ => format!(", {}", f.range_doc()),
    };
    let pad = COMMENT_AT.saturating_sub(head.chars().count()).max(1);
    let _ = writeln!(out, "{head}{:pad$}// {}{range}", "", f.doc);
}

/// One entry of a list, on one line: `(tile: IronOre, threshold: 0.8, ...),`.
fn entry(out: &mut String, fields: &[&Field], preset: &Preset, i: usize) {
    let parts: Vec<String> = fields
        .iter()
        .filter_map(|f| {
            let v = value_text(f, preset, i)?;
            let v = match (f.path, f.kind) {
                ("ores.table[].deep_threshold" | "lodes.table[].twin", _) => format!("Some({v})"),
                _ => v,
            };
            Some(format!("{}: {v}", f.name()))
        })
        .collect();
    let _ = writeln!(out, "            ({}),", parts.join(", "));
}

/// The list block `name: [ ... ],` with a comment giving each entry field's range.
fn list(out: &mut String, list: &str, preset: &Preset) {
    let fields: Vec<&Field> = FIELDS.iter().filter(|f| f.list() == Some(list)).collect();
    let _ = writeln!(out, "        // One entry a line, each with");
    for f in &fields {
        let _ = writeln!(
            out,
            "        //   {}: {}, {}",
            f.name(),
            f.doc,
            f.range_doc()
        );
    }
    let n = fields
        .first()
        .map_or(0, |f| super::fields::entries(preset, f));
    let name = list.rsplit('.').next().unwrap_or(list);
    let _ = writeln!(out, "        {name}: [");
    for i in 0..n {
        entry(out, &fields, preset, i);
    }
    let _ = writeln!(out, "        ],");
}

/// The RON text of `preset`. `about` is the first line's description (after
/// `// {name}: `).
pub fn to_ron(preset: &Preset, about: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "// {}: {about}", preset.name);
    out.push_str(
        "// Every field is written; any field left out of a preset takes its default (the\n\
         // values in default.ron) and unknown fields are refused. Ranges are given beside each.\n",
    );
    out.push_str("(\n");
    let name = ron::to_string(&preset.name).unwrap_or_else(|_| "\"\"".into());
    let _ = writeln!(out, "    name: {name},");
    let mut section = "";
    let mut lists_done: Vec<&str> = Vec::new();
    for f in FIELDS {
        if f.section() != section {
            if !section.is_empty() {
                out.push_str("    ),\n");
            }
            section = f.section();
            let _ = writeln!(out, "    {section}: (");
        }
        match f.list() {
            Some(l) if !lists_done.contains(&l) => {
                list(&mut out, l, preset);
                lists_done.push(l);
            }
            Some(_) => {}
            None if section.is_empty() => line(&mut out, "    ", f, preset),
            None => line(&mut out, "        ", f, preset),
        }
    }
    if !section.is_empty() {
        out.push_str("    ),\n");
    }
    out.push_str(")\n");
    out
}

/// A file name for a preset called `name`: letters, digits, `-` and `_` kept, spaces to
/// `_`, the rest dropped; `preset` when nothing is left.
pub fn file_stem(name: &str) -> String {
    let stem: String = name
        .trim()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            ' ' => Some('_'),
            _ => None,
        })
        .take(64)
        .collect();
    if stem.is_empty() {
        "preset".into()
    } else {
        stem
    }
}

/// Writes `preset` as `dir/<file_stem(name)>.ron` (creating `dir`), after checking that the
/// text parses back to it. Returns the path written.
pub fn save_in(dir: &Path, preset: &Preset, about: &str) -> Result<PathBuf, PresetError> {
    let path = dir.join(format!("{}.ron", file_stem(&preset.name)));
    let source = path.display().to_string();
    let text = to_ron(preset, about);
    let back = parse(&text, &source)?;
    if &back != preset {
        return Err(PresetError {
            source,
            position: None,
            message: "the written text does not read back to the same preset".into(),
        });
    }
    crate::base::fsio::write_file_in_new_folder(&path, |w| w.write_all(text.as_bytes())).map_err(
        |e| PresetError {
            source: source.clone(),
            position: None,
            message: e.to_string(),
        },
    )?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::preset::{BUILTIN, builtin};

    #[test]
    fn every_built_in_preset_round_trips() {
        for (key, _) in BUILTIN {
            let p = builtin(key).unwrap().unwrap();
            let text = to_ron(&p, "a round trip of a shipped preset");
            let back = parse(&text, key).unwrap_or_else(|e| panic!("{key}: {e}\n{text}"));
            assert_eq!(back, p, "{key}:\n{text}");
        }
    }

    #[test]
    fn awkward_values_round_trip() {
        let mut p = Preset {
            name: "Odd \"quoted\" name\\ é".into(),
            ..Preset::default()
        };
        p.caves.fill = 0.1 + 0.2;
        p.surface.frequency = 1e-9;
        p.surface.base_height = 1.0 / 3.0;
        p.ores.table[1].deep_threshold = None;
        p.ores.table[1].from = crate::base::depth::Layer::Underground;
        p.lodes.table[2].twin = None;
        p.biomes.width_jitter = 0.1 + 0.7;
        p.biomes.spans.clear();
        p.underworld.enabled = false;
        let text = to_ron(&p, "odd values");
        assert_eq!(parse(&text, "x").unwrap(), p, "{text}");
    }

    #[test]
    fn every_field_has_its_range_comment_and_the_first_line_names_it() {
        let p = Preset::default();
        let text = to_ron(&p, "the default settings, saved");
        assert!(text.starts_with("// Default: the default settings, saved\n"));
        for f in FIELDS
            .iter()
            .filter(|f| f.list().is_none() && f.is_number())
        {
            let value = value_text(f, &p, 0).unwrap();
            let head = format!("{}: {value},", f.name());
            assert!(
                text.lines()
                    .any(|l| l.trim_start().starts_with(&head) && l.ends_with(&f.range_doc())),
                "{} missing:\n{text}",
                f.path
            );
        }
        assert!(text.contains("min_height..=64"));
        assert!(text.contains("(tile: Hellstone, threshold: 0.6, deep_threshold: Some(0.52)"));
    }

    #[test]
    fn saved_file_loads_back_and_names_are_file_safe() {
        let dir = std::env::temp_dir().join(format!("strata-save-preset-{}", std::process::id()));
        let mut p = Preset {
            name: "My Caves/../x".into(),
            ..Preset::default()
        };
        p.caves.fill = 0.5;
        let path = save_in(&dir.join("new"), &p, "tuned").unwrap();
        assert_eq!(path.file_name().unwrap(), "my_cavesx.ron");
        assert_eq!(crate::content::preset::load(&path).unwrap(), p);
        assert_eq!(file_stem("  "), "preset");
        let _ = std::fs::remove_dir_all(dir);
    }
}
