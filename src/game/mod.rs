//! The game window: a player who runs, jumps, digs and builds in a lit world, with a
//! hotbar, a minimap, saves (and a list of them to load), a free camera on a toggle, reseeding, presets (menu, hot
//! reload) and the connectivity overlay. This file wires the frame loop; the pieces live in
//! `game/`: pure maths and text (camera, input, overlay, seedbox, presets) are unit-tested,
//! engine calls stay in chunks, masks, render and ui.

mod app;
pub mod audio;
pub mod draw;
pub mod input;
pub mod lab;
pub mod online;
pub mod settings;
pub mod text;
pub mod ui;
pub mod window;
pub mod worlds;

use crate::base::paths::Folders;
use crate::launch::{PlayError, PlayOptions};
use macroquad::miniquad;
use std::sync::{Arc, Mutex};

/// The settings the game starts with, the file they are saved to, and why they are the
/// defaults when that file did not load.
pub type StartSettings = (settings::Settings, std::path::PathBuf, Option<String>);

/// Quads (four vertices, six indices) in one macroquad draw call. macroquad gives every
/// draw call a frame has ever made a vertex and an index buffer of this capacity, kept for
/// good (40 bytes a vertex, 2 an index: 344 KB at 2048 quads), and every change of texture
/// (a text between two panels, an icon in a slot) starts a draw call: a small batch keeps
/// a busy screen's UI cheap, and the world's ~40k atlas quads still go in ~20 batches.
pub const BATCH_QUADS: usize = 2048;

/// Window configuration: "Strata", resizable, `size` (the settings' size fitted to the
/// display, [`window::display::fit`]), fullscreen as the settings say, high-DPI: the framebuffer
/// has the display's pixels and the UI scales to it.
fn conf(s: &settings::Settings, size: (u32, u32)) -> macroquad::conf::Conf {
    macroquad::conf::Conf {
        miniquad_conf: miniquad::conf::Conf {
            window_title: "Strata".into(),
            window_width: size.0 as i32,
            window_height: size.1 as i32,
            fullscreen: s.fullscreen,
            high_dpi: true,
            window_resizable: true,
            platform: miniquad::conf::Platform {
                // Ask for vsync; `--max-fps` caps the rate where the driver ignores this.
                swap_interval: Some(1),
                ..Default::default()
            },
            ..Default::default()
        },
        update_on: None,
        default_filter_mode: macroquad::prelude::FilterMode::Nearest,
        draw_call_vertex_capacity: 4 * BATCH_QUADS,
        draw_call_index_capacity: 6 * BATCH_QUADS,
    }
}

/// Opens the window and runs the game until it is closed (or `--frames` are done).
/// The player's files are in `folders`.
pub fn run(opts: PlayOptions, folders: Folders) -> Result<(), PlayError> {
    // What the game plays with: the built-in files, the rules `STRATA_RULES` may name and
    // the mods folder (a refused file is reported); the reload key reads them again.
    let content = Arc::new(crate::content::config::Content::from_env(&folders.mods));
    // A bad save is refused here, before any window opens (and the exit is non-zero).
    let start = match &opts.load {
        Some(path) => {
            // With what its journal kept since (a crash), as every load of a save.
            let (world, player, replayed) = crate::store::journal::load(path, &content.catalog)
                .map_err(|e| PlayError::Save(e.to_string()))?;
            if let Some(w) = &replayed.warning {
                log::warn!("{w}");
            }
            let loaded = (world, player);
            Some(worlds::worker::Source::Loaded(
                Box::new(loaded),
                path.clone(),
            ))
        }
        None => None,
    };
    // A name the server would refuse is refused here, before any window opens.
    if let Some(name) = &opts.name
        && !crate::net::chars::valid_name(name)
    {
        return Err(PlayError::Name(format!(
            "--name {name:?}: 1 to {} letters, digits, '_', '-' or spaces inside",
            crate::net::protocol::MAX_NAME
        )));
    }
    // So is a character that cannot be played.
    picked_character(&opts, &folders)?;
    // A preset that does not load is an error here too (in the game it is only shown);
    // a name that is no file may be a built-in preset's.
    if opts.preset.is_some() {
        crate::launch::load_preset(opts.preset.as_ref(), &folders.presets)
            .map_err(PlayError::Preset)?;
    }
    let shown = crate::launch::check_display()?;
    // A settings file that does not load never stops the game: the defaults, and why.
    let path = folders.settings.clone();
    let (settings, error) = settings::load(&path);
    if let Some(e) = &error {
        log::warn!("settings not loaded as written: {e}");
    }
    let wanted = (settings.window_width, settings.window_height);
    let size = window::display::fit(wanted, shown);
    if size != wanted {
        let on = shown.map_or("its size unknown".to_string(), |d| {
            format!("{}x{}", d.0, d.1)
        });
        log::info!(
            "window {}x{}: the settings ask for {}x{}, the display is {on}",
            size.0,
            size.1,
            wanted.0,
            wanted.1
        );
    }
    open_window(
        &settings,
        size,
        (
            opts,
            (content, start),
            (settings.clone(), path, error),
            folders,
        ),
    )
}

/// The character `--character` names: its file, or a new one of that name; an error for a
/// name no character may have or a file that does not read.
pub(crate) fn picked_character(
    opts: &PlayOptions,
    folders: &Folders,
) -> Result<Option<crate::store::character::Sheet>, PlayError> {
    use crate::store::character as ch;
    let Some(name) = &opts.character else {
        return Ok(None);
    };
    if !ch::valid_name(name) {
        return Err(PlayError::Name(format!(
            "--character {name:?}: 1 to {} letters, digits, '_', '-' or spaces inside",
            ch::MAX_NAME
        )));
    }
    let file = ch::file_of(&folders.characters, name);
    match file.exists() {
        true => ch::read(&file)
            .map(Some)
            .map_err(|e| PlayError::Save(e.to_string())),
        false => Ok(Some(ch::Sheet::blank(name))),
    }
}

/// What the game starts with: the options, the content and the world to load, the
/// settings, and where the player's files are.
type Start = (
    PlayOptions,
    (
        Arc<crate::content::config::Content>,
        Option<worlds::worker::Source>,
    ),
    StartSettings,
    Folders,
);

/// Whether a panic now is the window library failing to open the window (silenced and
/// turned into an error by [`open_window`]) rather than the game's own.
static OPENING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Times the window is opened when the display drops the connection (the X server was
/// asked a moment before, by [`crate::launch::check_display`], so it is there).
const OPEN_TRIES: u32 = 3;

/// Opens the window and runs the game in it. The window library panics when X refuses the
/// connection (`XOpenDisplay() failed!`) or a window cannot be made: before the game has
/// started that is the window not opening, tried again when the display refused it and
/// then one line; once the game runs, a panic is the game's own and goes on as one.
fn open_window(
    settings: &settings::Settings,
    size: (u32, u32),
    start: Start,
) -> Result<(), PlayError> {
    use std::sync::atomic::Ordering;
    let slot = Arc::new(Mutex::new(Some(start)));
    let result = Arc::new(Mutex::new(Ok(())));
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !OPENING.load(Ordering::SeqCst) {
            hook(info);
        }
    }));
    let mut failure = None;
    for try_ in 1..=OPEN_TRIES {
        let (slot, out) = (slot.clone(), result.clone());
        OPENING.store(true, Ordering::SeqCst);
        let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            macroquad::Window::from_config(conf(settings, size), async move {
                OPENING.store(false, Ordering::SeqCst);
                let taken = slot.lock().ok().and_then(|mut s| s.take());
                let r = match taken {
                    Some((opts, start, settings, folders)) => {
                        window::frame::main_loop(opts, start, settings, folders).await
                    }
                    None => Err(PlayError::Game("the game started twice".into())),
                };
                if let Ok(mut slot) = out.lock() {
                    *slot = r;
                }
            })
        }));
        let Err(panic) = opened else { break };
        if !OPENING.swap(false, Ordering::SeqCst) {
            std::panic::resume_unwind(panic);
        }
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "the window library gave up".into());
        let refused = why.contains("XOpenDisplay");
        failure = Some(match refused {
            true => format!("X refused the connection ({try_} tries)"),
            false => why,
        });
        if !refused {
            break;
        }
        if try_ < OPEN_TRIES {
            std::thread::sleep(std::time::Duration::from_millis(300));
        }
    }
    if let Some(why) = failure.filter(|_| slot.lock().is_ok_and(|s| s.is_some())) {
        let display = std::env::var("DISPLAY").unwrap_or_default();
        return Err(PlayError::Display(format!(
            "the game window did not open on display {display}: {why}; `strata gen` works \
             without a display"
        )));
    }
    result
        .lock()
        .map_err(|_| PlayError::Game("the game thread panicked".into()))?
        .clone()
}
