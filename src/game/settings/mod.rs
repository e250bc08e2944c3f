//! The player's settings: window size, fullscreen, frame cap, UI scale, autosave, pausing
//! when the window loses focus, and key bindings, kept in a RON file (`settings.ron` in Strata's config folder,
//! [`crate::base::paths::Folders::settings`]). Every field
//! has a default, unknown fields are refused, and every value is checked against its
//! allowed range; a file that does not load never stops the game: it starts with the
//! defaults and says why, naming the file, line:column, field and allowed range as preset
//! errors do. The settings menu writes the file back atomically.
//!
//! Keys are written by name (`"A"`, `"Space"`, `"F5"`, `"Left"`, `"Key1"`, `"KpAdd"`...).
//! Esc (the pause menu and closing any menu) and the number keys (hotbar slots, menu
//! entries) are fixed and cannot be bound.

use macroquad::input::KeyCode;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// Largest settings file read.
pub const MAX_FILE_BYTES: u64 = 64 * 1024;
/// Most keys one command may have.
pub const MAX_KEYS: usize = 4;

/// A key, written in the file by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(pub KeyCode);

/// Every key that can be bound, by the name the file uses.
const KEYS: &[KeyCode] = {
    use KeyCode as K;
    &[
        K::A,
        K::B,
        K::C,
        K::D,
        K::E,
        K::F,
        K::G,
        K::H,
        K::I,
        K::J,
        K::K,
        K::L,
        K::M,
        K::N,
        K::O,
        K::P,
        K::Q,
        K::R,
        K::S,
        K::T,
        K::U,
        K::V,
        K::W,
        K::X,
        K::Y,
        K::Z,
        K::Key0,
        K::F1,
        K::F2,
        K::F3,
        K::F4,
        K::F5,
        K::F6,
        K::F7,
        K::F8,
        K::F9,
        K::F10,
        K::F11,
        K::F12,
        K::Space,
        K::Enter,
        K::Tab,
        K::Backspace,
        K::Insert,
        K::Delete,
        K::Left,
        K::Right,
        K::Up,
        K::Down,
        K::PageUp,
        K::PageDown,
        K::Home,
        K::End,
        K::Minus,
        K::Equal,
        K::LeftBracket,
        K::RightBracket,
        K::Semicolon,
        K::Apostrophe,
        K::Comma,
        K::Period,
        K::Slash,
        K::Backslash,
        K::GraveAccent,
        K::Kp0,
        K::KpDecimal,
        K::KpDivide,
        K::KpMultiply,
        K::KpSubtract,
        K::KpAdd,
        K::KpEnter,
        K::KpEqual,
        K::LeftShift,
        K::RightShift,
        K::LeftControl,
        K::RightControl,
        K::LeftAlt,
        K::RightAlt,
        K::CapsLock,
        K::Pause,
    ]
};

impl Key {
    /// The name the file uses for the key.
    pub fn name(self) -> String {
        format!("{:?}", self.0)
    }

    /// The key of a name, if it is one that can be bound.
    pub fn named(name: &str) -> Option<Key> {
        KEYS.iter()
            .copied()
            .map(Key)
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }

    /// Can this key be bound (not Esc, not a number key)?
    pub fn bindable(key: KeyCode) -> bool {
        KEYS.contains(&key) && digit(key).is_none()
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        let name = String::deserialize(d)?;
        Key::named(&name).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "\"{name}\" is not a key that can be bound: allowed A-Z, F1-F12, Space, \
                 Enter, Tab, Left, Right, Up, Down, Minus, Equal, KpAdd, ... (the README lists \
                 them; Escape and Key1-Key9 are fixed)"
            ))
        })
    }
}

/// A command that has keys of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    Left,
    Right,
    Jump,
    Down,
    ZoomIn,
    ZoomOut,
    Reseed,
    SeedBox,
    CopySeed,
    Overlay,
    Fit,
    Home,
    Presets,
    Minimap,
    Camera,
    Save,
    Load,
    Saves,
    Fullscreen,
    Help,
    Lab,
    Inventory,
    Mute,
    Housing,
    Throw,
    LootAll,
    DepositAll,
    ReloadContent,
    Hook,
}

/// Every command: its field in the file, what the help screen calls it, its default keys.
pub const COMMANDS: &[(Command, &str, &str, &[KeyCode])] = {
    use Command as C;
    use KeyCode as K;
    &[
        (
            C::Left,
            "left",
            "Move left (pan in the free camera)",
            &[K::A, K::Left],
        ),
        (C::Right, "right", "Move right", &[K::D, K::Right]),
        (
            C::Jump,
            "jump",
            "Jump, swim up (pan up)",
            &[K::Space, K::W, K::Up],
        ),
        (
            C::Down,
            "down",
            "Drop through a platform (pan down)",
            &[K::S, K::Down],
        ),
        (C::ZoomIn, "zoom_in", "Zoom in", &[K::Equal, K::KpAdd]),
        (
            C::ZoomOut,
            "zoom_out",
            "Zoom out",
            &[K::Minus, K::KpSubtract],
        ),
        (C::Reseed, "reseed", "New world, random seed", &[K::R]),
        (C::SeedBox, "seed_box", "Type a seed", &[K::T]),
        (C::CopySeed, "copy_seed", "Copy the seed", &[K::C]),
        (
            C::Overlay,
            "overlay",
            "Figures and legend overlay",
            &[K::F3],
        ),
        (C::Fit, "fit", "Whole world (free camera)", &[K::F]),
        (
            C::Home,
            "home",
            "Quick heal: drink a healing potion (free camera: back to the spawn)",
            &[K::H],
        ),
        (C::Presets, "presets", "Preset menu", &[K::P]),
        (C::Minimap, "minimap", "Minimap", &[K::M]),
        (C::Camera, "camera", "Play / free camera", &[K::V]),
        (C::Save, "save", "Save", &[K::F5]),
        (C::Load, "load", "Load this world's save", &[K::F9]),
        (C::Saves, "saves", "List of saves", &[K::L]),
        (
            C::Fullscreen,
            "fullscreen",
            "Fullscreen (also Alt+Enter)",
            &[K::F11],
        ),
        (C::Help, "help", "Help: the controls", &[K::F1]),
        (C::Lab, "lab", "World lab panel", &[K::F2]),
        (C::Inventory, "inventory", "Inventory and crafting", &[K::I]),
        (C::Mute, "mute", "Sound on / off", &[K::F8]),
        (
            C::Housing,
            "housing",
            "Is the room under the mouse a house?",
            &[K::X],
        ),
        (
            C::Throw,
            "throw",
            "Throw out the selected stack (or the one on the cursor)",
            &[K::G],
        ),
        (
            C::LootAll,
            "loot_all",
            "Loot all from the open chest",
            &[K::Z],
        ),
        (
            C::DepositAll,
            "deposit_all",
            "Deposit all but the hotbar into the open chest",
            &[K::N],
        ),
        (
            C::ReloadContent,
            "reload_content",
            "Reload items, recipes and mods (the world is made again)",
            &[K::F7],
        ),
        (
            C::Hook,
            "hook",
            "Fire the grappling hook toward the mouse (when one is worn)",
            &[K::E],
        ),
    ]
};

/// The `Bindings` struct (a field of keys per command, the file's `keys: (...)` section)
/// and its accessors by [`Command`], from one list of `Command field` pairs.
macro_rules! bindings {
    ($($cmd:ident $field:ident),* $(,)?) => {
        /// The keys of every command, as the file's `keys: (...)` section.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct Bindings {
            $(pub $field: Vec<Key>,)*
        }

        impl Bindings {
            /// The keys of a command.
            pub fn keys(&self, c: Command) -> &[Key] {
                match c {
                    $(Command::$cmd => &self.$field,)*
                }
            }

            fn keys_mut(&mut self, c: Command) -> &mut Vec<Key> {
                match c {
                    $(Command::$cmd => &mut self.$field,)*
                }
            }

            /// No command has a key.
            fn empty() -> Bindings {
                Bindings {
                    $($field: Vec::new(),)*
                }
            }
        }
    };
}

bindings! {
    Left left,
    Right right,
    Jump jump,
    Down down,
    ZoomIn zoom_in,
    ZoomOut zoom_out,
    Reseed reseed,
    SeedBox seed_box,
    CopySeed copy_seed,
    Overlay overlay,
    Fit fit,
    Home home,
    Presets presets,
    Minimap minimap,
    Camera camera,
    Save save,
    Load load,
    Saves saves,
    Fullscreen fullscreen,
    Help help,
    Lab lab,
    Inventory inventory,
    Mute mute,
    Housing housing,
    Throw throw,
    LootAll loot_all,
    DepositAll deposit_all,
    ReloadContent reload_content,
    Hook hook,
}

impl Default for Bindings {
    fn default() -> Bindings {
        let mut b = Bindings::empty();
        for &(c, _, _, keys) in COMMANDS {
            *b.keys_mut(c) = keys.iter().copied().map(Key).collect();
        }
        b
    }
}

impl Bindings {
    /// The command a key press gives, if any.
    pub fn command(&self, key: KeyCode) -> Option<Command> {
        COMMANDS
            .iter()
            .map(|c| c.0)
            .find(|&c| self.keys(c).contains(&Key(key)))
    }

    /// Is any key of `c` held (`held` asks about one key)?
    pub fn held(&self, c: Command, held: impl Fn(KeyCode) -> bool) -> bool {
        self.keys(c).iter().any(|k| held(k.0))
    }

    /// The keys of `c` as the help screen and the status line write them: `A, Left`.
    pub fn describe(&self, c: Command) -> String {
        let names: Vec<String> = self.keys(c).iter().map(|k| label(k.0)).collect();
        if names.is_empty() {
            "(no key)".into()
        } else {
            names.join(", ")
        }
    }

    /// The first key of `c`, for short hints (`R`), or `-`.
    pub fn first(&self, c: Command) -> String {
        self.keys(c).first().map_or("-".into(), |k| label(k.0))
    }

    /// Binds `key` to `c` as its first key (it leaves any other command it was bound to,
    /// and the keys `c` had stay as alternates, up to [`MAX_KEYS`]). Returns the command
    /// the key was taken from, if another. Keys that cannot be bound are refused.
    pub fn bind(&mut self, c: Command, key: KeyCode) -> Result<Option<Command>, String> {
        if !Key::bindable(key) {
            return Err(format!("{} cannot be bound", label(key)));
        }
        let k = Key(key);
        let from = self.command(key).filter(|&o| o != c);
        for &(o, ..) in COMMANDS {
            self.keys_mut(o).retain(|x| *x != k);
        }
        let keys = self.keys_mut(c);
        keys.insert(0, k);
        keys.truncate(MAX_KEYS);
        Ok(from)
    }

    /// Checks every command has at most [`MAX_KEYS`] keys, none of them fixed, and no key
    /// serves two commands. A command may have none (unbound: the menu leaves one so when
    /// its only key moves to another).
    pub fn validate(&self) -> Result<(), RangeError> {
        self.validate_in(|_| true)
    }

    /// [`Bindings::validate`] for a file in which `written` says which fields (dotted
    /// paths, `keys.save`) the player wrote: a key on two commands is blamed on the one
    /// written (a default the player never wrote is not to blame).
    pub fn validate_in(&self, written: impl Fn(&str) -> bool) -> Result<(), RangeError> {
        let mut seen: Vec<(Key, &str)> = Vec::new();
        for &(c, field, ..) in COMMANDS {
            let keys = self.keys(c);
            let path = format!("keys.{field}");
            if keys.len() > MAX_KEYS {
                return Err(RangeError {
                    field: path,
                    message: format!("has {} keys: allowed 0 to {MAX_KEYS} key names", keys.len()),
                });
            }
            for k in keys {
                if !Key::bindable(k.0) {
                    return Err(RangeError {
                        field: path,
                        message: format!("{} cannot be bound (number keys are fixed)", k.name()),
                    });
                }
                if let Some((_, other)) = seen.iter().find(|(s, _)| s == k) {
                    let theirs = format!("keys.{other}");
                    let (blamed, also) = if !written(&path) && written(&theirs) {
                        (theirs, format!("keys.{field}"))
                    } else {
                        (path, theirs)
                    };
                    return Err(RangeError {
                        field: blamed,
                        message: format!(
                            "\"{}\" is also bound to {also}: allowed one command a key",
                            k.name()
                        ),
                    });
                }
                seen.push((*k, field));
            }
        }
        Ok(())
    }
}

/// How the help screen and hints write a key: `A`, `Space`, `F5`, `Left`, `1`, `+`.
pub fn label(key: KeyCode) -> String {
    use KeyCode as K;
    match key {
        K::Equal => "=".into(),
        K::Minus => "-".into(),
        K::KpAdd => "Num+".into(),
        K::KpSubtract => "Num-".into(),
        K::Escape => "Esc".into(),
        k => {
            let name = Key(k).name();
            match name.strip_prefix("Key") {
                Some(d) if d.len() == 1 => d.into(),
                _ => name,
            }
        }
    }
}

/// Frame caps the settings menu steps through (0: none, vsync only).
pub const FPS_STEPS: [u32; 6] = [30, 60, 90, 120, 144, 0];
/// Autosave intervals the settings menu steps through, minutes (0: off).
pub const AUTOSAVE_STEPS: [f64; 6] = [1.0, 2.0, 5.0, 10.0, 30.0, 0.0];

/// Everything the settings file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Window size at start, in logical pixels (the display's scale makes them larger on a
    /// high-DPI screen).
    pub window_width: u32,
    pub window_height: u32,
    /// Start in fullscreen (F11 and Alt+Enter switch).
    pub fullscreen: bool,
    /// Most frames a second; 0: no cap beyond the display's vsync. `--max-fps` overrides it.
    pub max_fps: u32,
    /// Size of text and the HUD against the game's own choice for the window (1: as is).
    pub ui_scale: f64,
    /// Minutes between autosaves of unsaved edits; 0: no autosave (closing the window
    /// still saves).
    pub autosave_minutes: f64,
    /// The world stands still while another window has the keyboard (or the game's is
    /// minimised).
    pub pause_unfocused: bool,
    /// Loudness of everything, of the music and of the effects, 0..=1.
    pub master_volume: f64,
    pub music_volume: f64,
    pub effects_volume: f64,
    /// No sound at all (the mute key switches).
    pub muted: bool,
    /// Silent while the world stands still behind a menu or without the keyboard.
    pub quiet_when_paused: bool,
    pub keys: Bindings,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            window_width: 1280,
            window_height: 720,
            fullscreen: false,
            max_fps: crate::launch::DEFAULT_MAX_FPS,
            ui_scale: 1.0,
            autosave_minutes: super::worlds::guard::AUTOSAVE_MINUTES,
            pause_unfocused: true,
            master_volume: 1.0,
            music_volume: 0.6,
            effects_volume: 0.8,
            muted: false,
            quiet_when_paused: true,
            keys: Bindings::default(),
        }
    }
}

/// Window sides allowed, logical pixels.
pub const MIN_WINDOW: (u32, u32) = (640, 480);
pub const MAX_WINDOW: u32 = 16_384;
/// UI scale allowed.
pub const UI_SCALE: (f64, f64) = (0.5, 3.0);
/// Most minutes between autosaves.
pub const MAX_AUTOSAVE_MINUTES: f64 = 240.0;
/// Highest frame cap.
pub const MAX_FPS: u32 = 1000;

/// A field out of its allowed range, or a bad key list.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeError {
    /// Dotted path of the field, e.g. `ui_scale` or `keys.jump`.
    pub field: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.field, self.message)
    }
}

fn out_of_range(field: &str, value: impl fmt::Display, allowed: String) -> RangeError {
    RangeError {
        field: field.into(),
        message: format!("= {value} is out of range: allowed {allowed}"),
    }
}

impl Settings {
    /// Checks every field against its allowed range.
    pub fn validate(&self) -> Result<(), RangeError> {
        self.validate_in(|_| true)
    }

    /// [`Settings::validate`] for a file in which `written` says which fields the player
    /// wrote (see [`Bindings::validate_in`]).
    pub fn validate_in(&self, written: impl Fn(&str) -> bool) -> Result<(), RangeError> {
        let side = |field: &str, v: u32, lo: u32| {
            if (lo..=MAX_WINDOW).contains(&v) {
                Ok(())
            } else {
                Err(out_of_range(field, v, format!("{lo}..={MAX_WINDOW}")))
            }
        };
        side("window_width", self.window_width, MIN_WINDOW.0)?;
        side("window_height", self.window_height, MIN_WINDOW.1)?;
        if self.max_fps > MAX_FPS {
            return Err(out_of_range(
                "max_fps",
                self.max_fps,
                format!("0 (no cap) ..={MAX_FPS}"),
            ));
        }
        let (lo, hi) = UI_SCALE;
        if !(lo..=hi).contains(&self.ui_scale) {
            return Err(out_of_range(
                "ui_scale",
                self.ui_scale,
                format!("[{lo}, {hi}]"),
            ));
        }
        if !(0.0..=MAX_AUTOSAVE_MINUTES).contains(&self.autosave_minutes) {
            return Err(out_of_range(
                "autosave_minutes",
                self.autosave_minutes,
                format!("[0 (off), {MAX_AUTOSAVE_MINUTES}]"),
            ));
        }
        for (field, v) in [
            ("master_volume", self.master_volume),
            ("music_volume", self.music_volume),
            ("effects_volume", self.effects_volume),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(out_of_range(field, v, "[0, 1]".into()));
            }
        }
        self.keys.validate_in(written)
    }

    /// Seconds between autosaves, `None` when off.
    pub fn autosave_every(&self) -> Option<f64> {
        (self.autosave_minutes > 0.0).then_some(self.autosave_minutes * 60.0)
    }

    /// The file's text: a heading comment, then every field.
    pub fn to_text(&self) -> String {
        let pretty = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .compact_arrays(true);
        let body = ron::ser::to_string_pretty(self, pretty)
            .unwrap_or_else(|e| format!("// not written: {e}"));
        format!(
            "// Strata's settings. A field left out takes its default; the README's \
             Settings section lists them.\n{body}\n"
        )
    }

    /// Writes the settings to `path` atomically, creating its folder. A file there that
    /// does not load as written (the game started with some or all of the defaults in its
    /// place) is kept first ([`keep_unloaded`]), so the player's text is never lost to
    /// the menu; returns where it was kept.
    pub fn save(&self, path: &Path) -> Result<Option<PathBuf>, String> {
        let kept = keep_unloaded(path)?;
        let text = self.to_text();
        crate::base::fsio::write_file_in_new_folder(path, |f| f.write_all(text.as_bytes()))?;
        Ok(kept)
    }
}

/// Most backups of settings files that did not load: `settings.ron.bak`, then
/// `settings.ron.bak2` up to this.
pub const MAX_BACKUPS: usize = 9;

/// Keeps the file at `path` when it does not load as written, or was edited by hand (it
/// loads, but is not the text Strata writes: a rewrite would lose its comments), before
/// the settings are written over it: copied (atomically) to the first of `<name>.bak`, `<name>.bak2`, ...
/// [`MAX_BACKUPS`] that is free or already holds the same bytes. Nothing to keep (no file,
/// or one that loads): `None`. Refuses, so the file is not replaced, when it cannot be
/// read or every backup name holds another file.
pub fn keep_unloaded(path: &Path) -> Result<Option<PathBuf>, String> {
    use crate::base::fsio::{ReadError, read_bounded};
    let missing = |e: &ReadError| matches!(e, ReadError::Io(e) if e.kind() == ErrorKind::NotFound);
    // The file's bytes; `None` for one too large to load (copied as it is).
    let bytes = match read_bounded(path, MAX_FILE_BYTES) {
        Ok(b) => Some(b),
        Err(ReadError::TooLarge(_)) => None,
        Err(e) if missing(&e) => return Ok(None),
        Err(e) => {
            return Err(format!(
                "{}: not replaced: it cannot be read to keep it ({e})",
                path.display()
            ));
        }
    };
    // Strata's own text (what it writes) is nothing to keep; a file that loads but was
    // edited by hand (its comments, its order, its spacing) is kept as one that does not.
    let parsed = |b: &[u8]| std::str::from_utf8(b).ok().and_then(|t| parse(t, "").ok());
    if bytes
        .as_deref()
        .is_some_and(|b| parsed(b).is_some_and(|s| s.to_text().as_bytes() == b))
    {
        return Ok(None);
    }
    let why = if bytes.as_deref().is_some_and(|b| parsed(b).is_some()) {
        "it was edited by hand"
    } else {
        "it did not load"
    };
    let name = |i: usize| {
        let mut n = path.as_os_str().to_owned();
        n.push(if i == 1 {
            ".bak".to_string()
        } else {
            format!(".bak{i}")
        });
        PathBuf::from(n)
    };
    for bak in (1..=MAX_BACKUPS).map(name) {
        match read_bounded(&bak, MAX_FILE_BYTES) {
            Ok(old) if bytes.as_ref() == Some(&old) => return Ok(Some(bak)),
            Err(e) if missing(&e) => {
                crate::base::fsio::write_file(&bak, |f| match &bytes {
                    Some(b) => f.write_all(b),
                    None => std::io::copy(&mut std::fs::File::open(path)?, f).map(|_| ()),
                })?;
                return Ok(Some(bak));
            }
            _ => continue,
        }
    }
    Err(format!(
        "{}: not replaced: {why}, and {} to {} hold other files (move them away to keep \
         this one too)",
        path.display(),
        name(1).display(),
        name(MAX_BACKUPS).display()
    ))
}

/// Parses and validates settings text; `source` names it in errors (`file:line:col:
/// field ... allowed ...`).
pub fn parse(text: &str, source: &str) -> Result<Settings, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let settings: Settings = ron::Options::default().from_str(text).map_err(|e| {
        let (line, col) = (e.span.start.line, e.span.start.col);
        format!("{source}:{line}:{col}: {}", e.code)
    })?;
    let written = |field: &str| crate::content::preset::locate_field(text, field).is_some();
    settings.validate_in(written).map_err(|v| {
        match crate::content::preset::locate_field(text, &v.field) {
            Some((line, col)) => format!("{source}:{line}:{col}: {v}"),
            None => format!("{source}: {v}"),
        }
    })?;
    Ok(settings)
}

/// The settings in `path`, and what went wrong when some or all are the defaults instead
/// of the file's: a missing file is the defaults and no message (the first run); a file
/// whose fields are all known and well-formed but some out of range keeps the others
/// ([`salvage`]); any other file that cannot be read or does not load is the defaults.
/// The message names the file, the place and the field, and what the game plays with.
/// The file itself is kept when the settings are next written ([`Settings::save`]).
pub fn load(path: &Path) -> (Settings, Option<String>) {
    let bytes = match crate::base::fsio::read_bounded(path, MAX_FILE_BYTES) {
        Ok(b) => b,
        Err(crate::base::fsio::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return (Settings::default(), None);
        }
        Err(e) => {
            return (
                Settings::default(),
                Some(format!("{}: {e}", path.display())),
            );
        }
    };
    let source = path.display().to_string();
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => return defaults_because(format!("{source}: not UTF-8 text ({e})")),
    };
    match parse(&text, &source) {
        Ok(s) => (s, None),
        Err(e) => match salvage(&text) {
            Some((s, changed)) => {
                let changed = changed.join("; ");
                let e = format!("{e} ({changed}; the rest as written)");
                (s, Some(e))
            }
            None => defaults_because(e),
        },
    }
}

fn defaults_because(e: String) -> (Settings, Option<String>) {
    (
        Settings::default(),
        Some(format!("{e} (playing with the defaults)")),
    )
}

/// Settings text whose fields are all known and well-formed but not all in range: the
/// settings with each field out of range set back to its default and the player's key
/// bindings mended ([`mend_keys`]), and what was changed, each named. `None` for text that
/// does not parse, or parses in range.
pub fn salvage(text: &str) -> Option<(Settings, Vec<String>)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut s: Settings = ron::Options::default().from_str(text).ok()?;
    let mut reset: Vec<String> = Vec::new();
    let mut moved = mend_keys(&mut s.keys, &mut reset);
    // Each pass sets one field back; bounded by the fields there are.
    for _ in 0..=COMMANDS.len() + 8 {
        let Err(bad) = s.validate() else {
            if !reset.is_empty() {
                let fields = reset.join(", ");
                moved.insert(0, format!("{fields}: the default"));
            }
            return (!moved.is_empty()).then_some((s, moved));
        };
        if reset.contains(&bad.field) || !reset_field(&mut s, &bad.field) {
            break;
        }
        reset.push(bad.field);
    }
    Some((Settings::default(), vec!["every field: the default".into()]))
}

/// Makes the key lists of a file valid, keeping what the player bound: a list too long,
/// or holding a key that cannot be bound, takes its default (named in `reset`); a key
/// that two commands hold stays with the one the player bound it to (a list other than
/// its default; of two such, the first), and the other gives it up, keeping its other
/// keys or none. What was given up, each as `keys.throw gives G to keys.fit`, with `and
/// has no key` for a command left unbound.
fn mend_keys(keys: &mut Bindings, reset: &mut Vec<String>) -> Vec<String> {
    let d = Bindings::default();
    for &(c, field, ..) in COMMANDS {
        let list = keys.keys(c);
        if list.len() > MAX_KEYS || list.iter().any(|k| !Key::bindable(k.0)) {
            *keys.keys_mut(c) = d.keys(c).to_vec();
            reset.push(format!("keys.{field}"));
        }
    }
    let mine = |keys: &Bindings, c: Command| keys.keys(c) != d.keys(c);
    let field = |c: Command| COMMANDS.iter().find(|e| e.0 == c).map_or("", |e| e.1);
    let mut moved = Vec::new();
    for &(c, ..) in COMMANDS {
        for k in keys.keys(c).to_vec() {
            let holders: Vec<Command> = COMMANDS
                .iter()
                .map(|e| e.0)
                .filter(|&h| keys.keys(h).contains(&k))
                .collect();
            let keeper = holders
                .iter()
                .copied()
                .find(|&h| mine(keys, h))
                .unwrap_or(c);
            for h in holders.into_iter().filter(|&h| h != keeper) {
                keys.keys_mut(h).retain(|x| *x != k);
                let unbound = if keys.keys(h).is_empty() {
                    " and has no key"
                } else {
                    ""
                };
                let (from, to) = (field(h), field(keeper));
                moved.push(format!(
                    "keys.{from} gives {} to keys.{to}{unbound}",
                    k.name()
                ));
            }
        }
    }
    moved
}

/// Sets the value field `field` (as a [`RangeError`] names it) back to its default; false
/// for a name that is no such field (the keys are mended by [`mend_keys`]).
fn reset_field(s: &mut Settings, field: &str) -> bool {
    let d = Settings::default();
    match field {
        "window_width" => s.window_width = d.window_width,
        "window_height" => s.window_height = d.window_height,
        "max_fps" => s.max_fps = d.max_fps,
        "ui_scale" => s.ui_scale = d.ui_scale,
        "autosave_minutes" => s.autosave_minutes = d.autosave_minutes,
        "master_volume" => s.master_volume = d.master_volume,
        "music_volume" => s.music_volume = d.music_volume,
        "effects_volume" => s.effects_volume = d.effects_volume,
        _ => return false,
    }
    true
}

/// The next value after `current` in `steps` (wrapping), for the settings menu's
/// left/right keys: `dir` is +1 or -1. A value not in the list starts from the first.
pub fn step<T: PartialEq + Copy>(steps: &[T], current: T, dir: i32) -> T {
    let n = steps.len() as i32;
    let i = steps
        .iter()
        .position(|&s| s == current)
        .map_or(-1, |i| i as i32);
    let next = if i < 0 { 0 } else { (i + dir).rem_euclid(n) };
    steps[next as usize]
}

/// 1..=9 for the number keys (top row or keypad).
pub fn digit(key: KeyCode) -> Option<usize> {
    use KeyCode as K;
    let d = match key {
        K::Key1 | K::Kp1 => 1,
        K::Key2 | K::Kp2 => 2,
        K::Key3 | K::Kp3 => 3,
        K::Key4 | K::Kp4 => 4,
        K::Key5 | K::Kp5 => 5,
        K::Key6 | K::Kp6 => 6,
        K::Key7 | K::Kp7 => 7,
        K::Key8 | K::Kp8 => 8,
        K::Key9 | K::Kp9 => 9,
        _ => return None,
    };
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use KeyCode as K;

    #[test]
    fn the_defaults_round_trip_through_the_file_and_are_valid() {
        let d = Settings::default();
        assert_eq!(d.validate(), Ok(()));
        let text = d.to_text();
        assert!(text.contains("jump: [\"Space\", \"W\", \"Up\"]"), "{text}");
        assert_eq!(parse(&text, "settings.ron"), Ok(d.clone()));
        // Fields left out take their defaults.
        let s = parse("(fullscreen: true, keys: (jump: [\"J\"]))", "s.ron").unwrap();
        assert!(s.fullscreen);
        assert_eq!(s.keys.keys(Command::Jump), &[Key(K::J)]);
        assert_eq!(s.keys.left, d.keys.left);
        assert_eq!(s.window_width, 1280);
    }

    #[test]
    fn sound_settings_round_trip_and_files_from_before_them_load() {
        let s = Settings {
            master_volume: 0.3,
            music_volume: 0.0,
            effects_volume: 1.0,
            muted: true,
            quiet_when_paused: false,
            ..Settings::default()
        };
        assert_eq!(parse(&s.to_text(), "settings.ron"), Ok(s));
        // A file written before the sound settings: their defaults, sound on.
        let old = parse("(window_width: 1600, pause_unfocused: false)", "old.ron").unwrap();
        assert_eq!(old.master_volume, 1.0);
        assert!(!old.muted && old.quiet_when_paused);
        let e = parse("(music_volume: 1.5)", "s.ron").unwrap_err();
        assert!(e.contains("music_volume") && e.contains("[0, 1]"), "{e}");
        assert_eq!(
            Settings::default().keys.keys(Command::Mute),
            &[Key(K::F8)],
            "the mute key"
        );
    }

    #[test]
    fn bad_files_name_the_place_the_field_and_the_allowed_range() {
        let e = parse("(\n  max_fps: 60,\n  ui_scale: 9.0,\n)", "s.ron").unwrap_err();
        assert_eq!(
            e,
            "s.ron:3:3: ui_scale = 9 is out of range: allowed [0.5, 3]"
        );
        let e = parse("(window_width: 100)", "s.ron").unwrap_err();
        assert!(e.starts_with("s.ron:1:2: window_width = 100"), "{e}");
        assert!(e.ends_with("allowed 640..=16384"), "{e}");
        let e = parse("(keys: (jump: [\"Space\", \"Sapce\"]))", "s.ron").unwrap_err();
        assert!(e.starts_with("s.ron:1:"), "{e}");
        assert!(e.contains("\"Sapce\" is not a key"), "{e}");
        let e = parse("(keys: (save: [\"R\"]))", "s.ron").unwrap_err();
        assert!(
            e.contains("keys.save \"R\" is also bound to keys.reseed"),
            "{e}"
        );
        let e = parse(
            "(keys: (help: [\"F1\", \"J\", \"K\", \"U\", \"Y\"]))",
            "s.ron",
        );
        let e = e.unwrap_err();
        assert!(e.starts_with("s.ron:1:9: keys.help has 5 keys"), "{e}");
        // A command may have no key, as the menu leaves one whose only key moved.
        let s = parse("(keys: (help: []))", "s.ron").unwrap();
        assert_eq!(s.keys.describe(Command::Help), "(no key)");
        let e = parse("(keys: (help: [\"Key1\"]))", "s.ron").unwrap_err();
        assert!(e.contains("\"Key1\" is not a key that can be bound"), "{e}");
        let e = parse("(volume: 3)", "s.ron").unwrap_err();
        assert!(e.starts_with("s.ron:1:2: ") && e.contains("volume"), "{e}");
        let e = parse("(autosave_minutes: -1.0)", "s.ron").unwrap_err();
        assert!(e.contains("allowed [0 (off), 240]"), "{e}");
    }

    #[test]
    fn a_bad_or_missing_file_gives_the_defaults_and_says_why() {
        let d = std::env::temp_dir().join(format!("strata-settings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        let path = d.join("settings.ron");
        assert_eq!(load(&path), (Settings::default(), None), "first run");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(&path, "(ui_scale: 2.0, max_fps: 5000)").unwrap();
        let (s, why) = load(&path);
        assert_eq!(s.max_fps, Settings::default().max_fps);
        assert_eq!(s.ui_scale, 2.0, "the field in range is kept");
        let why = why.unwrap();
        assert!(why.contains("settings.ron:1:17: max_fps = 5000"), "{why}");
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(load(&path).1.unwrap().contains("not UTF-8"));
        // What the menu writes loads back.
        let mut s = Settings {
            ui_scale: 1.5,
            fullscreen: true,
            ..Default::default()
        };
        s.keys.bind(Command::Save, K::K).unwrap();
        s.save(&path).unwrap();
        assert_eq!(load(&path), (s, None));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn binding_a_key_moves_it_from_the_command_that_had_it() {
        let mut b = Bindings::default();
        assert_eq!(b.command(K::R), Some(Command::Reseed));
        assert_eq!(b.command(K::Up), Some(Command::Jump));
        assert_eq!(b.bind(Command::Save, K::R), Ok(Some(Command::Reseed)));
        assert_eq!(b.command(K::R), Some(Command::Save));
        assert_eq!(b.keys(Command::Save), &[Key(K::R), Key(K::F5)]);
        assert!(b.keys(Command::Reseed).is_empty());
        // Rebinding to the same command just moves the key first.
        assert_eq!(b.bind(Command::Jump, K::Up), Ok(None));
        assert_eq!(b.describe(Command::Jump), "Up, Space, W");
        assert!(b.bind(Command::Jump, K::Escape).is_err());
        assert!(b.bind(Command::Jump, K::Key3).is_err());
        for k in [K::G, K::J, K::K, K::Y, K::U] {
            b.bind(Command::Help, k).unwrap();
        }
        assert_eq!(b.keys(Command::Help).len(), MAX_KEYS);
        assert_eq!(b.describe(Command::Help), "U, Y, K, J");
    }

    #[test]
    fn every_default_key_is_bindable_and_named_once() {
        let d = Bindings::default();
        for &(c, field, _, keys) in COMMANDS {
            assert!(!keys.is_empty(), "{field}");
            for &k in keys {
                assert!(Key::bindable(k), "{field}: {k:?}");
                assert_eq!(Key::named(&Key(k).name()), Some(Key(k)));
                assert_eq!(d.command(k), Some(c), "{field}: {k:?} twice");
            }
        }
        assert_eq!(Key::named("space"), Some(Key(K::Space)));
        assert_eq!(Key::named("Escape"), None);
        assert_eq!(label(K::Key0), "0");
        assert_eq!(label(K::Equal), "=");
        assert_eq!(label(K::F11), "F11");
    }

    #[test]
    fn menu_steps_wrap_both_ways() {
        assert_eq!(step(&FPS_STEPS, 60, 1), 90);
        assert_eq!(step(&FPS_STEPS, 0, 1), 30);
        assert_eq!(step(&FPS_STEPS, 30, -1), 0);
        assert_eq!(step(&FPS_STEPS, 75, 1), 30, "a value from the file");
        assert_eq!(step(&AUTOSAVE_STEPS, 5.0, 1), 10.0);
        let s = Settings {
            autosave_minutes: 0.0,
            ..Default::default()
        };
        assert_eq!(s.autosave_every(), None);
        assert_eq!(Settings::default().autosave_every(), Some(300.0));
    }
}

#[cfg(test)]
mod file_tests;
