//! The shipped presets, compiled into the binary: an installed `strata` needs no
//! `config/` folder beside it. `--preset NAME` picks one by name when no file of that name
//! exists.

use super::{Preset, PresetError, parse};

/// Name and RON text of every shipped preset, in the order `strata presets` lists them.
pub const BUILTIN: [(&str, &str); 6] = [
    (
        "default",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/presets/default.ron"
        )),
    ),
    (
        "large",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/presets/large.ron"
        )),
    ),
    (
        "caverns",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/presets/caverns.ron"
        )),
    ),
    (
        "plains",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/presets/plains.ron"
        )),
    ),
    (
        "highlands",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/presets/highlands.ron"
        )),
    ),
    (
        "classic",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/presets/classic.ron"
        )),
    ),
];

/// The built-in preset called `name` (as its file stem, any case, `.ron` optional), parsed;
/// `None` when no built-in preset has that name.
pub fn builtin(name: &str) -> Option<Result<Preset, PresetError>> {
    let key = builtin_key(name)?;
    let (_, text) = BUILTIN.iter().find(|(k, _)| *k == key)?;
    Some(parse(text, &format!("built-in preset {key}")))
}

/// The key in [`BUILTIN`] of the built-in preset called `name` (any case, `.ron`
/// optional).
pub fn builtin_key(name: &str) -> Option<&'static str> {
    let stem = name.strip_suffix(".ron").unwrap_or(name);
    BUILTIN
        .iter()
        .map(|(key, _)| *key)
        .find(|key| key.eq_ignore_ascii_case(stem))
}

/// The names of the built-in presets, for messages.
pub fn builtin_names() -> String {
    BUILTIN.map(|(k, _)| k).join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn every_built_in_preset_is_its_shipped_file() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("config/presets");
        let files = super::super::files_in(&dir).len();
        assert_eq!(
            files,
            BUILTIN.len(),
            "a shipped preset is missing from BUILTIN"
        );
        for (name, _) in BUILTIN {
            let from_file = super::super::load(&dir.join(format!("{name}.ron"))).unwrap();
            assert_eq!(builtin(name).unwrap().unwrap(), from_file, "{name}");
        }
    }

    #[test]
    fn names_match_in_any_case_with_or_without_extension() {
        assert_eq!(
            builtin("LARGE").unwrap().unwrap(),
            builtin("large.ron").unwrap().unwrap()
        );
        assert!(
            builtin("large").unwrap().unwrap().width > builtin("classic").unwrap().unwrap().width
        );
        assert!(builtin("nowhere").is_none());
        assert!(builtin_names().contains("caverns"));
    }
}
