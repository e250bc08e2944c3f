//! The frame loop: input, update, draw, frame timing, and `--frames`/`--screenshot`.

use crate::game::app::App;
use std::sync::Arc;

use crate::game::audio::{self, Audio};
use crate::game::input::{self, Halt, Mode};
use crate::game::ui::overlay::{self, FrameStats, Hover};
use crate::game::worlds::presets::{Choice, Presets};
use crate::game::worlds::worker::Source;
use crate::game::{
    draw::lighting, draw::render, draw::sprite, ui, ui::hud, ui::minimap, worlds::worker,
};
use crate::launch::{self, PlayError, PlayOptions};
use macroquad::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Frames to wait for the first world when `--frames` is given, before giving up on it.
const FIRST_WORLD_FRAMES: u64 = 3_000;

/// Mean and worst CPU time per frame over the last second.
#[derive(Default)]
struct Timer {
    window_start: f64,
    sum: f64,
    max: f64,
    n: u32,
    shown: FrameStats,
    /// A whole one-second window has been shown.
    settled: bool,
    /// Over the whole run (for `--frames`).
    total: f64,
    total_max: f64,
    total_n: u64,
}

impl Timer {
    fn add(&mut self, cpu_ms: f64, now: f64) {
        self.sum += cpu_ms;
        self.max = self.max.max(cpu_ms);
        self.n += 1;
        let window_done = now - self.window_start >= 1.0;
        // Until the first one-second window is done, show the frames so far.
        if window_done || !self.settled {
            let frame_ms = (now - self.window_start) * 1e3 / self.n as f64;
            self.shown = FrameStats {
                cpu_ms: self.sum / self.n as f64,
                cpu_max_ms: self.max,
                frame_ms,
            };
        }
        if window_done {
            (self.window_start, self.sum, self.max, self.n) = (now, 0.0, 0.0, 0);
            self.settled = true;
        }
    }
}

/// The preset the game starts with, as `--preset` finds it ([`launch::load_preset`]): a
/// file, the player's preset of that name in `dir`, or a built-in preset. Without
/// `--preset`: `config/presets/default.ron` in the working folder (the repository), else
/// the built-in default.
fn start_preset(opts: &PlayOptions, dir: &Path) -> Choice {
    let Some(name) = &opts.preset else {
        let file = PathBuf::from(launch::DEFAULT_PRESET);
        return if file.is_file() {
            Choice::File(file)
        } else {
            Choice::BuiltIn("default")
        };
    };
    if name.is_file() {
        return Choice::File(name.clone());
    }
    if let Some(file) = launch::user_preset(dir, name) {
        return Choice::File(file);
    }
    let key = crate::content::preset::builtin_key(&name.to_string_lossy());
    Choice::BuiltIn(key.unwrap_or("default"))
}

/// Seconds the settings file's error stays on screen at start.
const SETTINGS_ERROR_SECONDS: f64 = 15.0;

/// The game's state at start: the presets (the one asked for chosen), the seed, the world
/// to load or the server to join, and the settings.
fn start_app(
    opts: &PlayOptions,
    (content, start): (Arc<crate::content::config::Content>, Option<Source>),
    (settings, settings_path): (crate::game::settings::Settings, PathBuf),
    folders: &crate::base::paths::Folders,
) -> Result<App, PlayError> {
    let dir = folders.presets.clone();
    let presets = match start_preset(opts, &dir) {
        Choice::File(path) => Presets::open(dir, Some(path)),
        Choice::BuiltIn(name) => {
            let mut p = Presets::open(dir, None);
            p.choose_builtin(name);
            p
        }
    };
    let seed = opts.seed.unwrap_or_else(launch::random_seed);
    let overlay = opts.screenshot.is_some();
    let mut app = App::with_content(content, presets, seed, overlay, start, folders);
    if let Some(addr) = &opts.join {
        app.join(&crate::net::client::JoinOptions {
            addr: addr.clone(),
            name: opts.name.clone().unwrap_or_default(),
            password: opts.password.clone(),
            server_password: opts.server_password.clone(),
            known_servers: None,
        })
        .map_err(PlayError::Join)?;
    }
    let character = crate::game::picked_character(opts, folders)?;
    match (opts.shows_start(), character) {
        (true, Some(sheet)) => app.open_start_as(sheet),
        (true, None) => app.open_start(),
        (false, Some(sheet)) => app.play_as(sheet, 0.0),
        (false, None) => {}
    }
    app.autosave_every = settings.autosave_every();
    ui::set_user_scale(settings.ui_scale as f32);
    app.settings = settings;
    app.settings_path = settings_path;
    log::info!("display scale {:.2}", screen_dpi_scale());
    // The window's close button asks; the loop saves unsaved edits, then quits.
    prevent_quit();
    // So does SIGTERM: edits saved, a joined server told goodbye.
    crate::game::online::goodbye::catch();
    Ok(app)
}

/// With `--frames N`: whether the run is done (N frames with a world, or the first world
/// never came), the screenshot written and the frame and light figures logged.
fn frames_done(
    app: &App,
    timer: &Timer,
    opts: &PlayOptions,
    (frames, frames_after_world): (u64, u64),
) -> Result<bool, PlayError> {
    if let Some(n) = opts.frames
        && (frames_after_world >= n || frames >= n + FIRST_WORLD_FRAMES)
        && app.incoming.is_none()
    {
        if let Some(path) = &opts.screenshot {
            save_screenshot(path).map_err(PlayError::Game)?;
        }
        log::info!(
            "{} frames with a world, CPU per frame mean {:.2} ms, max {:.2} ms",
            timer.total_n,
            timer.total / timer.total_n.max(1) as f64,
            timer.total_max
        );
        let v = &app.light_view;
        log::info!(
            "light view rebuilt {} times, mean {:.2} ms, max {:.2} ms",
            v.builds,
            v.build_total.as_secs_f64() * 1e3 / v.builds.max(1) as f64,
            v.build_max.as_secs_f64() * 1e3
        );
        return Ok(true);
    }
    Ok(false)
}

pub async fn main_loop(
    opts: PlayOptions,
    start: (Arc<crate::content::config::Content>, Option<Source>),
    (settings, settings_path, settings_error): crate::game::StartSettings,
    folders: crate::base::paths::Folders,
) -> Result<(), PlayError> {
    let settings_error = settings_error.map(|e| (e, get_time() + SETTINGS_ERROR_SECONDS));
    let mut app = start_app(&opts, start, (settings, settings_path), &folders)?;
    let atlas = render::load_atlas();
    let player_sprite = sprite::load();
    let mut timer = Timer::default();
    let mut frames_after_world = 0u64;
    let mut frames = 0u64;
    let mut drag: Option<(f32, f32)> = None;
    // `--max-fps` wins over the settings' frame cap.
    let cap = |app: &App| opts.max_fps.unwrap_or(app.settings.max_fps);
    let mut pacer = super::pacer::Pacer::new(cap(&app));
    let subscriber = macroquad::input::utils::register_input_subscriber();
    let mut events = input::Events::new(&app.settings.keys);
    let mut applied = app.settings_version;
    let mut halted = None;
    let mut audio = Audio::start();
    let mut ears = Ears::new(&app);
    // `--creatures`: the crowd's spots tried so far, and whether it was full once.
    let (mut crowd, mut crowded) = (0u64, false);
    loop {
        if applied != app.settings_version {
            applied = app.settings_version;
            pacer = super::pacer::Pacer::new(cap(&app));
            events.jumps.keys = input::JumpPresses::new(&app.settings.keys).keys;
        }
        macroquad::input::utils::repeat_all_miniquad_input(&mut events, subscriber);
        app.focused = events.focused;
        let t0 = Instant::now();
        let now = get_time();
        let screen = (screen_width(), screen_height());
        let s = ui::scale(screen);
        let jumps = events.jumps.take();
        let clock = app.shown.as_ref().map(|w| w.session.time_of_day);
        handle_input(&mut app, screen, now, &mut drag, (events.take(), jumps));
        ears.hear(&mut audio, &mut app, now);
        let halt = app.halt();
        if halt != halted {
            log_halt(halt, clock);
            halted = halt;
        }
        if (is_quit_requested()
            || std::mem::take(&mut app.quit)
            || crate::game::online::goodbye::asked())
            && app.quit_requested(now)
        {
            return Ok(());
        }
        let t_in = t0.elapsed();
        if let (Some(n), Some(w)) = (opts.creatures, app.shown.as_mut()) {
            let shown = crate::game::app::crowd::keep(&mut w.session, n as usize, &mut crowd);
            if shown >= n as usize && !crowded {
                crowded = true;
                log::info!("{shown} creatures in view (--creatures {n})");
            }
        }
        app.update(screen, now);
        let t_up = t0.elapsed();

        let stepping = app.halt().is_none();
        clear_background(Color::from_rgba(18, 16, 22, 255));
        let (hover, masks_done) =
            app.draw_world(screen, now, stepping, (&atlas, &player_sprite), t0);
        let t_mask = masks_done.unwrap_or(t_up);
        let t_draw = t0.elapsed();
        app.lab_views_draw(screen);
        draw_ui(&app, &timer, hover, &atlas, screen);
        app.lab_draw(screen);
        if let Some((e, until)) = &settings_error
            && now < *until
        {
            ui::warning("Settings not loaded as written:", e, screen, s);
        }

        let cpu_ms = t0.elapsed().as_secs_f64() * 1e3;
        if cpu_ms > 4.0 && std::env::var_os("STRATA_DEBUG_FRAMES").is_some() {
            log::debug!(
                "slow frame {cpu_ms:.2} ms: input {t_in:?}, update {:?}, masks {:?}, world {:?}, ui {:?}",
                t_up - t_in,
                t_mask - t_up,
                t_draw - t_mask,
                t0.elapsed() - t_draw
            );
        }
        timer.add(cpu_ms, now);
        frames += 1;
        if app.shown.is_some() {
            frames_after_world += 1;
            timer.total += cpu_ms;
            timer.total_max = timer.total_max.max(cpu_ms);
            timer.total_n += 1;
        }
        if frames_done(&app, &timer, &opts, (frames, frames_after_world))? {
            return Ok(());
        }
        let generating = app.worker.status().is_some();
        std::thread::sleep(pacer.wait(Instant::now(), generating));
        next_frame().await;
    }
}

/// What the frame loop keeps for the sound: the last frame's time, menu and settings
/// (a change of either is a click).
struct Ears {
    last: f64,
    seen: (Mode, u64),
}

impl Ears {
    fn new(app: &App) -> Ears {
        Ears {
            last: get_time(),
            seen: (app.mode, app.settings_version),
        }
    }

    /// The frame's sound: the volumes, what play heard, the pick's strokes, lava's hiss,
    /// menu clicks and the music ([`Audio::frame`]).
    fn hear(&mut self, audio: &mut Audio, app: &mut App, now: f64) {
        let dt = (now - self.last).clamp(0.0, 0.25) as f32;
        self.last = now;
        // Behind a menu, or without the keyboard (whether or not that pauses the world).
        let halted = app.halt() == Some(Halt::Menu) || !app.focused;
        audio.set_volumes(audio::volumes(&app.settings, halted));
        let mut heard = std::mem::take(&mut app.play.heard);
        let seen = (app.mode, app.settings_version);
        if seen != self.seen {
            self.seen = seen;
            heard.push((audio::cue::Event::Click, None));
        }
        let Some(w) = &mut app.shown else { return };
        let digging = app
            .play
            .target
            .filter(|t| t.progress.is_some())
            .and_then(|t| {
                Some((
                    w.world().get(t.x, t.y)?,
                    (t.x as f32 + 0.5, t.y as f32 + 0.5),
                ))
            });
        let chest = w.me().chest.is_some();
        audio.frame(w, heard, digging, chest, (dt, now));
    }
}

/// Says in the log (debug) when the world stops or runs again, with its day's clock
/// before this frame's step (the keys that run it again step it in the same frame).
fn log_halt(halt: Option<Halt>, clock: Option<f32>) {
    let Some(clock) = clock else { return };
    match halt {
        Some(h) => log::debug!("world stands still ({h:?}) at day clock {clock:.6}"),
        None => log::debug!("world runs again at day clock {clock:.6}"),
    }
}

/// Keys and typed characters, each in the order they came (`presses`; `jumps`: the jump
/// keys' presses), and the mouse: the lab's, the menus', the inventory's, then the world's.
fn handle_input(
    app: &mut App,
    screen: (f32, f32),
    now: f64,
    drag: &mut Option<(f32, f32)>,
    (presses, jump_presses): (Vec<input::Press>, u8),
) {
    app.presses(&presses, screen, now);
    if app.mode == Mode::Lab && app.lab_mouse(screen, now) {
        *drag = None;
        return;
    }
    let mouse = mouse_position();
    if app.menu_click(screen, mouse, now) {
        return;
    }
    let lay = app.layout(screen);
    app.inventory_click(&lay, mouse, now);
    app.world_mouse(screen, now, (drag, jump_presses), &lay, mouse);
}

/// Play figures for the F3 overlay: where the player is, the light there, and what the
/// last edit cost (relighting on the render thread, edit → fresh cave figures).
fn play_lines(w: &crate::game::worlds::state::Loaded, view: &lighting::LightView) -> Vec<String> {
    let p = w.session.me().body.pos;
    let c = w.session.me().body.centre();
    let (cx, cy) = (c.0.max(0.0) as usize, c.1.max(0.0) as usize);
    let mut out = vec![format!(
        "Player {:.1}, {:.1}  light {} (+{} carried)  light view {:.2} ms",
        p.0,
        p.1,
        w.session.light.get(cx, cy),
        crate::sim::light::PLAYER,
        view.last_build.as_secs_f64() * 1e3
    )];
    let near: Vec<String> = w
        .session
        .creatures
        .list
        .iter()
        .take(6)
        .map(|c| {
            let q = c.body.pos;
            format!(
                "{} {:+.0},{:+.0}",
                w.session.content.bestiary.def(c.kind).name,
                q.0 - p.0,
                q.1 - p.1
            )
        })
        .collect();
    out.push(format!(
        "Creatures {} (spawned {}, killed {}): {}",
        w.session.creatures.list.len(),
        w.session.creatures.spawned,
        w.session.creatures.killed,
        near.join("  ")
    ));
    if let (Some(r), Some(ms)) = (w.session.last_relight, w.relit_ms) {
        let analysis = w.last_analysis.map_or("pending".to_string(), |d| {
            format!("{:.0} ms", d.as_secs_f64() * 1e3)
        });
        out.push(format!(
            "Last edit: relit {}x{} in {:.2} ms, cave figures after {analysis}",
            r.x1 - r.x0 + 1,
            r.y1 - r.y0 + 1,
            ms
        ));
    }
    out
}

/// The F3 overlay: the world's figures, the frame's, the hovered tile's and play's, left
/// of the minimap, with the legend under them.
fn draw_overlay(
    app: &App,
    timer: &Timer,
    hover: Option<Hover>,
    lay: &crate::game::ui::layout::Layout,
) {
    let s = lay.s;
    if let Some(w) = &app.shown
        && app.overlay
    {
        let lines = overlay::lines(
            &w.session.world,
            &match &w.loaded_from {
                Some(p) => format!("{} (from {})", w.session.world.preset.name, p.display()),
                None => app.presets.describe(),
            },
            &w.timings,
            &w.report,
            timer.shown,
            app.regen_ms,
            hover,
        );
        let mut lines = lines;
        lines.extend(play_lines(w, &app.light_view));
        // Left of the minimap when it is on.
        let right = lay
            .minimap_frame()
            .map_or(lay.room.right(), |m| m.x)
            .min(lay.room.right())
            - 10.0 * s;
        let bottom = ui::overlay(&lines, right - 10.0 * s, s);
        ui::legend(bottom, lay);
    }
}

fn draw_ui(app: &App, timer: &Timer, hover: Option<Hover>, atlas: &Texture2D, screen: (f32, f32)) {
    let lay = app.layout(screen);
    let s = lay.s;
    draw_overlay(app, timer, hover, &lay);
    if let Some(st) = app.worker.status() {
        ui::progress(
            &overlay::progress_text(worker::step_label(st.step), st.fraction),
            st.fraction,
            &lay,
        );
    } else if app.incoming.is_some() {
        ui::progress("Uploading chunks...", 1.0, &lay);
    }
    if let Some(e) = &app.presets.error {
        ui::error(e, &lay);
    }
    if let Some(r) = &app.play.remote
        && app.shown.is_none()
        && app.worker.status().is_none()
    {
        let (text, share) = crate::net::mirror::progress(r.client.phase(), &r.addr);
        ui::joining(&text, share, screen, s);
    }
    if let Some(l) = &app.lost {
        let trying = (app.play.remote.as_ref())
            .is_some_and(|r| !matches!(r.client.phase(), crate::net::client::Phase::Closed(_)));
        crate::game::online::lost::draw(l, get_time(), trying, screen, s);
    }
    if let Some(w) = &app.shown {
        if let Some(r) = lay.minimap {
            minimap::draw(w, &app.fog, (&app.cam, app.minimap_zoom), r, screen, s);
        }
        hud::draw_hotbar(&w.session.me().inventory, atlas, &lay);
        if lay.vitals.is_some() {
            let rules = &w.session.content.rules;
            hud::draw_vitals(&w.session.me().vitals, w.session.time_of_day, rules, &lay);
            crate::game::ui::weapons::draw_mana(&w.session.me().mana, &lay);
        }
        if let Some(b) = &w.session.boss {
            hud::draw_boss_bar(b, &lay);
        }
        if let Some(r) = &w.session.rival {
            crate::game::ui::rival::draw_rival_bar(r, &lay);
        }
        app.draw_inventory(w, atlas, &lay);
    }
    let seed = app
        .shown
        .as_ref()
        .map_or(app.seed, |w| w.session.world.seed);
    let head = format!("Seed {seed}  {}", app.presets.preset.name);
    let hints = crate::game::ui::menus::hints(&app.settings.keys, app.follow);
    let status = crate::game::ui::menus::fit_line(&head, &hints, screen.0 - 20.0 * s, |t| {
        ui::text_width(t, s)
    });
    // The start screen has no world yet to name, nor its keys.
    if app.mode != Mode::Start {
        ui::status(&status, screen, s);
    }
    // Menus and dialogs over the HUD; messages over them.
    app.draw_menus(&lay, screen);
    app.draw_chat(&lay, screen);
    if let Some(w) = &app.shown
        && let Some(d) = &w.session.me().death
    {
        let left = d.seconds_left(w.session.tick);
        hud::draw_death(&d.text, left, screen, s);
    }
    if let Some((t, _)) = &app.toast {
        ui::toast(t, &lay);
    }
    if let Some((t, _)) = &app.play.notice {
        hud::draw_notice(t, &lay);
    }
}

/// Writes the current frame as a PNG (the framebuffer is bottom-up; PNG rows go top-down).
fn save_screenshot(path: &Path) -> Result<(), String> {
    let img = get_screen_data();
    let (w, h) = (img.width as usize, img.height as usize);
    let mut rows: Vec<u8> = Vec::with_capacity(img.bytes.len());
    for y in (0..h).rev() {
        rows.extend_from_slice(&img.bytes[y * w * 4..(y + 1) * w * 4]);
    }
    for px in rows.chunks_exact_mut(4) {
        px[3] = 255;
    }
    crate::base::fsio::write_file(path, |f| {
        let mut enc = png::Encoder::new(f, w as u32, h as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().map_err(std::io::Error::other)?;
        wr.write_image_data(&rows).map_err(std::io::Error::other)?;
        wr.finish().map_err(std::io::Error::other)
    })
    .map_err(String::from)
}
