//! The pause menu, the settings menu and the help screen as plain data: their entries,
//! what each shows and what choosing or adjusting it does to the settings. Engine-free and
//! tested; `ui` draws them and `app` carries out what they return.

use crate::game::settings::{
    AUTOSAVE_STEPS, Bindings, COMMANDS, Command, FPS_STEPS, Settings, UI_SCALE, step,
};

/// The pause menu's entries (Esc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseEntry {
    Resume,
    Settings,
    Save,
    Help,
    Join,
    /// Open to the network (the form).
    Host,
    /// The line that says the world is open (or opening): choosing it says who is on.
    Hosting,
    /// Close to the network.
    CloseHost,
    Quit,
}

/// The pause menu, in order, with labels, as the window is with the network: the Join
/// and Open entries while alone (or joined), the hosting line and Close while open.
pub fn pause(net: NetState) -> Vec<(PauseEntry, String)> {
    let mut out: Vec<(PauseEntry, String)> = [
        (PauseEntry::Resume, "Resume"),
        (PauseEntry::Settings, "Settings"),
        (PauseEntry::Save, "Save"),
        (PauseEntry::Help, "Help: controls"),
    ]
    .map(|(e, t)| (e, t.to_string()))
    .to_vec();
    match net {
        NetState::Alone | NetState::Joined => out.extend([
            (PauseEntry::Join, "Join a server".to_string()),
            (PauseEntry::Host, "Open to the network".to_string()),
        ]),
        NetState::Opening => out.extend([
            (PauseEntry::Hosting, "Opening to the network...".to_string()),
            (PauseEntry::CloseHost, "Close to the network".to_string()),
        ]),
        NetState::Hosting { port, players } => out.extend([
            (PauseEntry::Hosting, hosting_line(port, players)),
            (PauseEntry::CloseHost, "Close to the network".to_string()),
        ]),
    }
    out.push((PauseEntry::Quit, "Quit (saves unsaved edits)".to_string()));
    out
}

/// A row of the settings menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Fullscreen,
    FrameCap,
    UiScale,
    Autosave,
    PauseUnfocused,
    MasterVolume,
    MusicVolume,
    EffectsVolume,
    Muted,
    QuietWhenPaused,
    /// A command's keys (Enter, then the new key).
    Key(Command),
    ResetKeys,
    Back,
}

/// The settings menu's rows, in order.
pub fn rows() -> Vec<Row> {
    let mut out = vec![
        Row::Fullscreen,
        Row::FrameCap,
        Row::UiScale,
        Row::Autosave,
        Row::PauseUnfocused,
    ];
    out.extend(COMMANDS.iter().map(|c| Row::Key(c.0)));
    // The sound's rows last, just above Back (Up from the top row reaches them).
    out.extend([
        Row::ResetKeys,
        Row::MasterVolume,
        Row::MusicVolume,
        Row::EffectsVolume,
        Row::Muted,
        Row::QuietWhenPaused,
        Row::Back,
    ]);
    out
}

/// The text of a row; `rebinding`: the command waiting for its new key.
pub fn row_text(row: Row, s: &Settings, rebinding: Option<Command>) -> String {
    match row {
        Row::Fullscreen => format!(
            "Fullscreen: {}  (Enter; F11 or Alt+Enter in play)",
            if s.fullscreen { "on" } else { "off" }
        ),
        Row::FrameCap => match s.max_fps {
            0 => "Frame cap: none (vsync)  (<- ->)".into(),
            n => format!("Frame cap: {n} per second  (<- ->)"),
        },
        Row::UiScale => format!("UI scale: {:.1}  (<- ->)", s.ui_scale),
        Row::Autosave => match s.autosave_minutes {
            m if m <= 0.0 => "Autosave: off (closing still saves)  (<- ->)".into(),
            m => format!("Autosave: every {m} min  (<- ->)"),
        },
        Row::PauseUnfocused => format!(
            "Pause when another window has the keyboard: {}  (Enter)",
            if s.pause_unfocused { "on" } else { "off" }
        ),
        Row::MasterVolume => volume_text("Volume", s.master_volume),
        Row::MusicVolume => volume_text("Music", s.music_volume),
        Row::EffectsVolume => volume_text("Effects", s.effects_volume),
        Row::Muted => format!(
            "Sound: {}  (Enter; {} in play)",
            if s.muted { "muted" } else { "on" },
            s.keys.first(Command::Mute)
        ),
        Row::QuietWhenPaused => format!(
            "Silent while paused or without the keyboard: {}  (Enter)",
            if s.quiet_when_paused { "on" } else { "off" }
        ),
        Row::Key(c) => {
            let label = COMMANDS.iter().find(|x| x.0 == c).map_or("", |x| x.2);
            if rebinding == Some(c) {
                format!("{label}: press a key (Esc cancels)")
            } else {
                format!("{label}: {}", s.keys.describe(c))
            }
        }
        Row::ResetKeys => "Reset all keys to the defaults".into(),
        Row::Back => "Back".into(),
    }
}

/// What choosing or adjusting a row did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Nothing,
    /// The settings changed (save them, apply them).
    Changed,
    /// Wait for a key for this command.
    Rebind(Command),
    /// Back to the pause menu.
    Back,
}

fn volume_text(name: &str, v: f64) -> String {
    format!("{name}: {:.0}%  (<- ->)", v * 100.0)
}

/// Volume step of the left/right keys.
pub const VOLUME_STEP: f64 = 0.1;

/// `v` stepped by `dir` tenths, within 0..=1 (Enter, `dir` 0 here, steps up, wrapping
/// from full to nothing).
fn step_volume(v: f64, dir: i32) -> f64 {
    let tenths = (v / VOLUME_STEP).round();
    let next = match dir {
        0 if tenths >= 10.0 => 0.0,
        0 => tenths + 1.0,
        d => (tenths + d as f64).clamp(0.0, 10.0),
    };
    // Tenths divided (not multiplied by 0.1), so the file says 0.7, not 0.7000000000000001.
    next / (1.0 / VOLUME_STEP).round()
}

/// UI scale step of the left/right keys.
pub const UI_SCALE_STEP: f64 = 0.1;

/// Left/right (`dir` -1 or +1) or Enter (`dir` 0) on `row`.
pub fn adjust(s: &mut Settings, row: Row, dir: i32) -> Effect {
    let forward = if dir == 0 { 1 } else { dir };
    match row {
        Row::Fullscreen => s.fullscreen = !s.fullscreen,
        Row::PauseUnfocused => s.pause_unfocused = !s.pause_unfocused,
        Row::MasterVolume => s.master_volume = step_volume(s.master_volume, dir),
        Row::MusicVolume => s.music_volume = step_volume(s.music_volume, dir),
        Row::EffectsVolume => s.effects_volume = step_volume(s.effects_volume, dir),
        Row::Muted => s.muted = !s.muted,
        Row::QuietWhenPaused => s.quiet_when_paused = !s.quiet_when_paused,
        Row::FrameCap => s.max_fps = step(&FPS_STEPS, s.max_fps, forward),
        Row::UiScale => {
            // Tenths, so repeated steps land on round values.
            let tenths = (s.ui_scale * 10.0).round() + forward as f64;
            s.ui_scale = (tenths / 10.0).clamp(UI_SCALE.0, UI_SCALE.1);
        }
        Row::Autosave => s.autosave_minutes = step(&AUTOSAVE_STEPS, s.autosave_minutes, forward),
        Row::Key(c) if dir == 0 => return Effect::Rebind(c),
        Row::Key(_) => return Effect::Nothing,
        Row::ResetKeys if dir == 0 => s.keys = Bindings::default(),
        Row::ResetKeys => return Effect::Nothing,
        Row::Back if dir == 0 => return Effect::Back,
        Row::Back => return Effect::Nothing,
    }
    Effect::Changed
}

/// The help screen: what each control does and its keys as bound, the fixed ones after.
pub fn help_lines(keys: &Bindings) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = vec![
        ("Dig / fell".into(), "left mouse button".into()),
        (
            "Place the selected block".into(),
            "right mouse button".into(),
        ),
        ("Hotbar slot".into(), "1-9, mouse wheel".into()),
        (
            "Zoom".into(),
            "Ctrl+wheel (wheel in the free camera)".into(),
        ),
    ];
    out.extend(
        COMMANDS
            .iter()
            .map(|&(c, _, label, _)| (label.to_string(), keys.describe(c))),
    );
    out.extend([
        ("Pause menu, close a menu".into(), "Esc".into()),
        ("Chat (Enter sends, Esc cancels)".into(), "Enter".into()),
        ("List of players (hold)".into(), "Tab".into()),
        ("Paste a seed (seed box)".into(), "Ctrl+V".into()),
    ]);
    out
}

/// The first of `n` rows to show so that `selected` is in view with `fit` rows shown.
pub fn first_shown(n: usize, selected: usize, fit: usize) -> usize {
    let fit = fit.max(1);
    if n <= fit {
        0
    } else {
        selected.saturating_sub(fit / 2).min(n - fit)
    }
}

/// The first entry shown of a list of `n` in `fit` rows that showed from `first`, scrolled
/// as little as keeps `selected` in view. A click on a shown row so never moves the rows
/// under the mouse (the crafting panel: a second click on the same place makes the same
/// item again, not the row that scrolled there); Up and Down scroll a row at the edge.
pub fn keep_shown(first: usize, n: usize, selected: usize, fit: usize) -> usize {
    let fit = fit.max(1);
    if n <= fit {
        return 0;
    }
    let first = if selected < first {
        selected
    } else if selected >= first + fit {
        selected + 1 - fit
    } else {
        first
    };
    first.min(n - fit)
}

/// The status line's key hints, as bound: `key what` pairs.
pub fn hints(keys: &Bindings, follow: bool) -> Vec<String> {
    let k = |c: Command| keys.first(c);
    let mut out = vec![format!("{} help", k(Command::Help)), "Esc menu".into()];
    if follow {
        out.extend([
            format!("{}/{} move", k(Command::Left), k(Command::Right)),
            format!("{} jump", k(Command::Jump)),
            "LMB dig".into(),
            "RMB place".into(),
            "1-9 slot".into(),
            format!("{} inventory", k(Command::Inventory)),
            format!("{} save", k(Command::Save)),
            format!("{} load", k(Command::Load)),
            format!("{} saves", k(Command::Saves)),
            format!("{} free camera", k(Command::Camera)),
            format!("{} map", k(Command::Minimap)),
            format!("{} presets", k(Command::Presets)),
            format!("{} lab", k(Command::Lab)),
        ]);
    } else {
        out.extend([
            "drag pan".into(),
            "wheel zoom".into(),
            format!("{} fit", k(Command::Fit)),
            format!("{} home", k(Command::Home)),
            format!("{} play", k(Command::Camera)),
            format!("{} map", k(Command::Minimap)),
            format!("{} presets", k(Command::Presets)),
            format!("{} lab", k(Command::Lab)),
        ]);
    }
    out
}

/// Joins `parts` after `head` with two spaces, as many as fit in `width` (by `measure`):
/// the status line drops its last hints on a narrow window rather than running off it.
pub fn fit_line(head: &str, parts: &[String], width: f32, measure: impl Fn(&str) -> f32) -> String {
    let mut line = head.to_string();
    for p in parts {
        let longer = format!("{line}  {p}");
        if measure(&longer) > width {
            break;
        }
        line = longer;
    }
    line
}

/// Where the window is with the network, for the pause menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetState {
    /// Playing alone.
    Alone,
    /// The untouched world is being made; the server starts next.
    Opening,
    /// Open to the network on `port`, with `players` joined.
    Hosting { port: u16, players: usize },
    /// Joined to someone else's server.
    Joined,
}

/// The pause menu's line of a world open to the network.
pub fn hosting_line(port: u16, players: usize) -> String {
    let s = if players == 1 { "" } else { "s" };
    format!("Hosting on port {port} ({players} player{s})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use macroquad::input::KeyCode as K;

    #[test]
    fn every_command_has_a_row_and_a_help_line() {
        let r = rows();
        for &(c, ..) in COMMANDS {
            assert!(r.contains(&Row::Key(c)));
        }
        assert_eq!(r.last(), Some(&Row::Back));
        let help = help_lines(&Bindings::default());
        assert!(help.contains(&("Save".to_string(), "F5".to_string())));
        assert!(help.contains(&(
            "Jump, swim up (pan up)".to_string(),
            "Space, W, Up".to_string()
        )));
        assert_eq!(help.len(), COMMANDS.len() + 8);
    }

    #[test]
    fn help_follows_the_bindings() {
        let mut keys = Bindings::default();
        keys.bind(Command::Save, K::K).unwrap();
        let help = help_lines(&keys);
        assert!(help.contains(&("Save".to_string(), "K, F5".to_string())));
        let s = Settings {
            keys,
            ..Default::default()
        };
        assert_eq!(row_text(Row::Key(Command::Save), &s, None), "Save: K, F5");
        assert_eq!(
            row_text(Row::Key(Command::Save), &s, Some(Command::Save)),
            "Save: press a key (Esc cancels)"
        );
        assert!(hints(&s.keys, true).contains(&"K save".to_string()));
    }

    #[test]
    fn volume_rows_step_in_tenths_within_range_and_mute_switches() {
        let mut s = Settings::default();
        assert_eq!(row_text(Row::MusicVolume, &s, None), "Music: 60%  (<- ->)");
        assert_eq!(adjust(&mut s, Row::MusicVolume, -1), Effect::Changed);
        assert_eq!(s.music_volume, 0.5);
        adjust(&mut s, Row::MusicVolume, 1);
        adjust(&mut s, Row::MusicVolume, 1);
        assert_eq!(
            s.music_volume.to_string(),
            "0.7",
            "written as the menu shows it"
        );
        for _ in 0..20 {
            adjust(&mut s, Row::MasterVolume, 1);
        }
        assert_eq!(s.master_volume, 1.0, "stops at full");
        adjust(&mut s, Row::MasterVolume, 0);
        assert_eq!(s.master_volume, 0.0, "Enter wraps from full to nothing");
        for _ in 0..20 {
            adjust(&mut s, Row::EffectsVolume, -1);
        }
        assert_eq!(s.effects_volume, 0.0, "stops at nothing");
        assert_eq!(s.validate(), Ok(()));
        adjust(&mut s, Row::Muted, 0);
        assert!(s.muted);
        assert!(row_text(Row::Muted, &s, None).starts_with("Sound: muted  (Enter; F8"));
        adjust(&mut s, Row::QuietWhenPaused, 0);
        assert!(!s.quiet_when_paused);
    }

    #[test]
    fn adjusting_rows_changes_the_settings_within_range() {
        let mut s = Settings::default();
        assert_eq!(adjust(&mut s, Row::Fullscreen, 0), Effect::Changed);
        assert!(s.fullscreen);
        assert!(s.pause_unfocused, "on by default");
        assert_eq!(adjust(&mut s, Row::PauseUnfocused, 1), Effect::Changed);
        assert!(!s.pause_unfocused);
        assert_eq!(
            row_text(Row::PauseUnfocused, &s, None),
            "Pause when another window has the keyboard: off  (Enter)"
        );
        adjust(&mut s, Row::FrameCap, 1);
        assert_eq!(s.max_fps, 90);
        adjust(&mut s, Row::FrameCap, -1);
        adjust(&mut s, Row::FrameCap, -1);
        assert_eq!(s.max_fps, 30);
        for _ in 0..40 {
            adjust(&mut s, Row::UiScale, 1);
        }
        assert_eq!(s.ui_scale, UI_SCALE.1);
        for _ in 0..5 {
            adjust(&mut s, Row::UiScale, -1);
        }
        assert_eq!(row_text(Row::UiScale, &s, None), "UI scale: 2.5  (<- ->)");
        adjust(&mut s, Row::Autosave, -1);
        assert_eq!(s.autosave_minutes, 2.0);
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(
            adjust(&mut s, Row::Key(Command::Jump), 0),
            Effect::Rebind(Command::Jump)
        );
        assert_eq!(adjust(&mut s, Row::Key(Command::Jump), 1), Effect::Nothing);
        s.keys.bind(Command::Jump, K::J).unwrap();
        assert_eq!(adjust(&mut s, Row::ResetKeys, 0), Effect::Changed);
        assert_eq!(s.keys, Bindings::default());
        assert_eq!(adjust(&mut s, Row::Back, 0), Effect::Back);
    }

    #[test]
    fn the_pause_menu_opens_to_the_network_alone_and_closes_while_open() {
        let entries = |net| -> Vec<PauseEntry> { pause(net).into_iter().map(|e| e.0).collect() };
        use PauseEntry as P;
        let alone = entries(NetState::Alone);
        assert_eq!(
            alone,
            [
                P::Resume,
                P::Settings,
                P::Save,
                P::Help,
                P::Join,
                P::Host,
                P::Quit
            ]
        );
        assert_eq!(entries(NetState::Joined), alone);
        let open = entries(NetState::Hosting {
            port: 7777,
            players: 2,
        });
        assert_eq!(open[4..], [P::Hosting, P::CloseHost, P::Quit]);
        assert_eq!(
            open.len(),
            alone.len(),
            "the entries keep their numbers (1-7)"
        );
        let lines = pause(NetState::Hosting {
            port: 7000,
            players: 1,
        });
        assert_eq!(lines[4].1, "Hosting on port 7000 (1 player)");
        assert_eq!(lines[5].1, "Close to the network");
        assert_eq!(pause(NetState::Opening)[4].1, "Opening to the network...");
        assert_eq!(entries(NetState::Opening)[5], P::CloseHost);
    }

    #[test]
    fn long_lists_keep_the_selection_in_view() {
        assert_eq!(first_shown(5, 4, 10), 0);
        assert_eq!(first_shown(30, 0, 10), 0);
        assert_eq!(first_shown(30, 15, 10), 10);
        assert_eq!(first_shown(30, 29, 10), 20);
        for sel in 0..30 {
            let f = first_shown(30, sel, 7);
            assert!((f..f + 7).contains(&sel) && f + 7 <= 30);
        }
    }

    #[test]
    fn a_click_on_a_shown_row_leaves_the_rows_in_place_and_the_keys_scroll_at_the_edge() {
        // The crafting panel: 30 recipes in 11 rows, shown from the top. Clicking the
        // sixth, then the last shown: the rows stay where they were (centring on the
        // click moved them under the mouse, so the next click made another item).
        let (n, fit) = (30, 11);
        assert_eq!(keep_shown(0, n, 5, fit), 0);
        assert_eq!(keep_shown(0, n, 10, fit), 0);
        assert_ne!(first_shown(n, 10, fit), 0, "the centring this replaces");
        // Every row shown, clicked from anywhere in the list, stays put.
        for first in 0..=n - fit {
            for k in first..first + fit {
                assert_eq!(keep_shown(first, n, k, fit), first);
            }
        }
        // Down past the last row shown scrolls one row; Up past the first, one back.
        assert_eq!(keep_shown(0, n, 11, fit), 1);
        assert_eq!(keep_shown(5, n, 4, fit), 4);
        // A list that shrank, or fits whole, shows from its top or as far as it goes.
        assert_eq!(keep_shown(19, 25, 24, fit), 14);
        assert_eq!(keep_shown(7, 9, 3, fit), 0);
    }

    #[test]
    fn the_status_line_drops_hints_that_do_not_fit() {
        let parts: Vec<String> = ["F1 help", "Esc menu", "A/D move"]
            .map(String::from)
            .to_vec();
        let chars = |t: &str| t.chars().count() as f32;
        assert_eq!(
            fit_line("Seed 1", &parts, 100.0, chars),
            "Seed 1  F1 help  Esc menu  A/D move"
        );
        assert_eq!(
            fit_line("Seed 1", &parts, 26.0, chars),
            "Seed 1  F1 help  Esc menu"
        );
        assert_eq!(fit_line("Seed 1", &parts, 3.0, chars), "Seed 1");
    }

    #[test]
    fn the_pause_menus_hosting_line_counts_the_players() {
        assert_eq!(hosting_line(7777, 0), "Hosting on port 7777 (0 players)");
        assert_eq!(hosting_line(7000, 1), "Hosting on port 7000 (1 player)");
        assert_eq!(hosting_line(7000, 3), "Hosting on port 7000 (3 players)");
    }
}
