//! The game window: a player who runs, jumps, digs and builds in a lit world, with a
//! hotbar, a minimap, saves (and a list of them to load), a free camera on a toggle, reseeding, presets (menu, hot
//! reload) and the connectivity overlay. This file wires the frame loop; the pieces live in
//! `game/`: pure maths and text (camera, input, overlay, seedbox, presets) are unit-tested,
//! engine calls stay in chunks, masks, render and ui.

pub mod camera;
pub mod chunks;
pub mod fog;
pub mod guard;
pub mod hud;
pub mod input;
pub mod invscreen;
pub mod lab;
pub mod lab_app;
pub mod lab_ui;
pub mod lab_views;
pub mod layout;
pub mod lighting;
pub mod masks;
pub mod menus;
pub mod minimap;
pub mod overlay;
pub mod pacer;
pub mod play;
pub mod presets;
pub mod render;
pub mod saves;
pub mod seedbox;
pub mod settings;
pub mod sprite;
pub mod state;
pub mod textures;
pub mod ui;
pub mod worker;

mod app;
mod frame;

use crate::cli::PlayOptions;
use macroquad::miniquad;
use std::sync::{Arc, Mutex};

/// The settings the game starts with, the file they are saved to, and why they are the
/// defaults when that file did not load.
pub type StartSettings = (settings::Settings, std::path::PathBuf, Option<String>);

/// Window configuration: "Strata", resizable, sized (and fullscreen) as the settings say,
/// high-DPI: the framebuffer has the display's pixels and the UI scales to it.
fn conf(s: &settings::Settings) -> macroquad::conf::Conf {
    macroquad::conf::Conf {
        miniquad_conf: miniquad::conf::Conf {
            window_title: "Strata".into(),
            window_width: s.window_width as i32,
            window_height: s.window_height as i32,
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
        // Room for ~10k atlas quads per batch (indices are u16).
        draw_call_vertex_capacity: 40_000,
        draw_call_index_capacity: 60_000,
    }
}

/// Opens the window and runs the game until it is closed (or `--frames` are done).
pub fn run(opts: PlayOptions) -> Result<(), String> {
    // A bad save is refused here, before any window opens (and the exit is non-zero).
    let start = match &opts.load {
        Some(path) => {
            let loaded = crate::save::load_game(path)?;
            Some(worker::Source::Loaded(Box::new(loaded), path.clone()))
        }
        None => None,
    };
    // A preset that does not load is an error here too (in the game it is only shown);
    // a name that is no file may be a built-in preset's.
    if opts.preset.is_some() {
        crate::cli::load_preset(opts.preset.as_ref())?;
    }
    crate::cli::check_display()?;
    // A settings file that does not load never stops the game: the defaults, and why.
    let path = crate::paths::settings_file();
    let (settings, error) = settings::load(&path);
    if let Some(e) = &error {
        log::warn!("settings not loaded, playing with the defaults: {e}");
    }
    let window = conf(&settings);
    let result = Arc::new(Mutex::new(Ok(())));
    let out = result.clone();
    macroquad::Window::from_config(window, async move {
        let r = frame::main_loop(opts, start, (settings, path, error)).await;
        if let Ok(mut slot) = out.lock() {
            *slot = r;
        }
    });
    result
        .lock()
        .map_err(|_| "the game thread panicked".to_string())?
        .clone()
}
