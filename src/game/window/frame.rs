//! The frame loop: input, update, draw, frame timing, and `--frames`/`--screenshot`.

use crate::game::app::App;
use crate::game::app::play::{self, Buttons};
use crate::game::audio::{self, Audio};
use crate::game::input::{self, Halt, Mode};
use crate::game::ui::overlay::{self, FrameStats, Hover};
use crate::game::worlds::presets::{Choice, Presets};
use crate::game::worlds::state::level_for;
use crate::game::worlds::worker::Source;
use crate::game::{
    draw::camera, draw::lighting, draw::render, draw::sprite, ui, ui::hud, ui::invscreen,
    ui::minimap, worlds::worker,
};
use crate::launch::{self, PlayError, PlayOptions};
use macroquad::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Time per frame for building each cave tint's mask textures.
const MASK_BUDGET: Duration = Duration::from_micros(600);

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

pub async fn main_loop(
    opts: PlayOptions,
    start: Option<Source>,
    (settings, settings_path, settings_error): crate::game::StartSettings,
    folders: crate::base::paths::Folders,
) -> Result<(), PlayError> {
    let dir = folders.presets.clone();
    let presets = match start_preset(&opts, &dir) {
        Choice::File(path) => Presets::open(dir, Some(path)),
        Choice::BuiltIn(name) => {
            let mut p = Presets::open(dir, None);
            p.choose_builtin(name);
            p
        }
    };
    let seed = opts.seed.unwrap_or_else(launch::random_seed);
    let mut app = App::new(presets, seed, opts.screenshot.is_some(), start, &folders);
    if let Some(addr) = &opts.join {
        app.join(&crate::net::client::JoinOptions {
            addr: addr.clone(),
            name: opts.name.clone().unwrap_or_default(),
            password: opts.password.clone(),
            server_password: opts.server_password.clone(),
        })
        .map_err(PlayError::Join)?;
    }
    app.autosave_every = settings.autosave_every();
    ui::set_user_scale(settings.ui_scale as f32);
    app.settings = settings;
    app.settings_path = settings_path;
    let settings_error = settings_error.map(|e| (e, get_time() + SETTINGS_ERROR_SECONDS));
    log::info!("display scale {:.2}", screen_dpi_scale());
    // The window's close button asks; the loop saves unsaved edits, then quits.
    prevent_quit();
    let atlas = render::load_atlas();
    let player_sprite = sprite::load();
    let mut timer = Timer::default();
    let mut frames_after_world = 0u64;
    let mut frames = 0u64;
    let mut drag: Option<(f32, f32)> = None;
    // `--max-fps` wins over the settings' frame cap.
    let cap = |app: &App| opts.max_fps.unwrap_or(app.settings.max_fps);
    let mut pacer = super::pacer::Pacer::new(cap(&app));
    let mut warm_scale = None;
    let subscriber = macroquad::input::utils::register_input_subscriber();
    let mut events = input::Events::new(&app.settings.keys);
    let mut applied = app.settings_version;
    let mut halted = None;
    let mut audio = Audio::start();
    let mut ears = Ears::new(&app);
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
        if warm_scale != Some(s) {
            ui::warm_fonts(s);
            warm_scale = Some(s);
        }
        let jumps = events.jumps.take();
        let clock = app.shown.as_ref().map(|w| w.session.time_of_day);
        handle_input(&mut app, screen, now, &mut drag, (events.take(), jumps));
        ears.hear(&mut audio, &mut app, now);
        let halt = app.halt();
        if halt != halted {
            log_halt(halt, clock);
            halted = halt;
        }
        if (is_quit_requested() || std::mem::take(&mut app.quit)) && app.quit_requested(now) {
            return Ok(());
        }
        let t_in = t0.elapsed();
        app.update(screen, now);
        let t_up = t0.elapsed();
        let mut t_mask = t_up;

        let stepping = app.halt().is_none();
        clear_background(Color::from_rgba(18, 16, 22, 255));
        let mut hover = None;
        if let Some(w) = &mut app.shown {
            let size = w.size();
            if app.follow {
                let min = camera::play_min_zoom(screen, lighting::LIT_MAX_TILES);
                app.cam.zoom = app.cam.zoom.max(min);
            }
            crate::game::app::clamp_for(&mut app.cam, (app.follow, app.mode), size, screen);
            let vis = app.cam.visible_tiles(size, screen);
            let level = level_for(app.cam.zoom);
            let visible = render::visible_chunks(w, level, &vis);
            if app.overlay {
                let (mx, my) = mouse_position();
                let (tx, ty) = app.cam.screen_to_world(screen, (mx, my));
                if tx >= 0.0 && ty >= 0.0 && (tx as usize) < size.0 && (ty as usize) < size.1 {
                    hover = Some(Hover::at(
                        &w.session.world,
                        &w.report,
                        tx as usize,
                        ty as usize,
                    ));
                }
                let hovered_cave = hover.and_then(|h| h.cave).filter(|c| !c.2).map(|c| c.0);
                w.hovered[level].show(hovered_cave);
                w.largest[level].build(&w.report, &visible, MASK_BUDGET);
                w.hovered[level].build(&w.report, &visible, MASK_BUDGET);
            }
            t_mask = t0.elapsed();
            let chunks = (level, &visible[..]);
            app.sky.draw(w, &app.cam, screen, now, app.follow);
            render::draw_world(w, &app.cam, screen, &atlas, chunks, app.overlay);
            let dt = if stepping {
                get_frame_time().min(0.1)
            } else {
                0.0
            };
            let digging = app.play.target.as_ref().filter(|t| t.progress.is_some());
            let digging = digging.map(|t| (t.x, t.y));
            app.particles.for_world(app.world_id);
            app.particles
                .update(&w.session.world, &w.session.me().body, digging, dt);
            app.particles.draw(&app.cam, screen);
            hud::draw_creatures(&w.session.creatures, &app.cam, screen);
            hud::draw_dropped(&w.session.world.dropped, &atlas, &app.cam, screen);
            for n in w.session.town() {
                sprite::draw_npc(&player_sprite, n, &app.cam, screen, now);
            }
            if let Some(b) = &w.session.boss {
                hud::draw_boss(b, w.session.me().body.centre(), &app.cam, screen);
            }
            // The other players, lit like the Guide by the light view over them; their
            // names go over it, after the local player.
            let local = crate::sim::session::LOCAL;
            let others = crate::game::online::players::figures(
                &w.session,
                local,
                &app.play.roster,
                vis,
                now,
            );
            for f in &others {
                let pose = (f.pos, f.facing, f.frame);
                sprite::draw_pose(&player_sprite, pose, f.tint, &app.cam, screen);
            }
            // The map view shows only what the player has seen (the lab shows the world
            // as generated, for its designer). The fog is kept only while it is drawn, so
            // the lab's regenerations do not build it for every world.
            let map_view = !app.follow && app.mode != Mode::Lab;
            if map_view || app.minimap {
                app.fog.update(w);
            }
            if map_view {
                app.fog.draw_world(&app.cam, screen);
            }
            // Play is lit; the free camera is a map view of the world, unlit.
            let mut shade = 1.0;
            if app.follow {
                app.light_view.update(w, &vis, app.world_id);
                app.light_view.draw(&app.cam, screen);
                let c = w.session.me().body.centre();
                let (px, py) = (c.0.max(0.0) as usize, c.1.max(0.0) as usize);
                let level = w.session.light.get_with_player(px, py, c);
                shade = 1.0 - lighting::darkness(level) as f32 / 255.0;
            }
            app.play.floaters.draw(&app.cam, screen);
            // Invincible after a hit: the player blinks. On the death screen there is no
            // body (nor its light, breath or swing).
            let alive = w.session.me().death.is_none();
            let swinging = now < app.play.swing_until;
            if alive && crate::sim::vitals::visible(w.session.me().vitals.invincible, now) {
                sprite::draw(
                    &player_sprite,
                    &w.session.me().body,
                    &app.cam,
                    screen,
                    (now, swinging),
                    shade.max(0.35),
                );
            }
            for f in &others {
                sprite::draw_name(&f.name, f.pos, &app.cam, screen);
            }
            if app.follow && alive {
                hud::draw_bubbles(
                    &w.session.me().vitals,
                    &w.session.me().body,
                    &app.cam,
                    screen,
                );
            }
            if app.follow
                && app.mode == Mode::World
                && let Some(t) = &app.play.target
            {
                hud::draw_target(t, &app.cam, screen);
                if t.progress.is_some()
                    && let Some(item) = w.session.me().inventory.selected_item()
                {
                    let toward = (t.x as f32 + 0.5, t.y as f32 + 0.5);
                    hud::draw_tool(
                        &w.session.me().body,
                        toward,
                        now,
                        item.color,
                        &app.cam,
                        screen,
                    );
                }
            }
            if alive
                && now < app.play.swing_until
                && let Some(item) = w.session.me().inventory.selected_item()
                && let Some((_, reach, _)) = w.session.me().inventory.selected_sword()
            {
                let left = (app.play.swing_until - now) as f32;
                let progress = 1.0 - left / crate::sim::creatures::SWING_SECONDS;
                hud::draw_swing(
                    &w.session.me().body,
                    reach,
                    progress,
                    item.color,
                    &app.cam,
                    screen,
                );
            }
        }
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
/// keys' presses), and the mouse (menu clicks, drag, wheel).
fn handle_input(
    app: &mut App,
    screen: (f32, f32),
    now: f64,
    drag: &mut Option<(f32, f32)>,
    (presses, jump_presses): (Vec<input::Press>, u8),
) {
    let held = |keys: [KeyCode; 2]| keys.into_iter().any(is_key_down);
    let ctrl = held([KeyCode::LeftControl, KeyCode::RightControl]);
    app.presses(&presses, screen, now);
    if app.mode == Mode::Lab && app.lab_mouse(screen, now) {
        *drag = None;
        return;
    }
    let mouse = mouse_position();
    if app.mode == Mode::LoadList && is_mouse_button_pressed(MouseButton::Left) {
        if let Some(list) = &app.load_list {
            let s = ui::scale(screen);
            let rows = ui::load_rects(list.entries.len(), list.selected, screen, s);
            if let Some(&(i, _)) = rows
                .iter()
                .find(|(_, r)| r.contains(vec2(mouse.0, mouse.1)))
            {
                app.choose_save(i, now);
            }
        }
        return;
    }
    if matches!(app.mode, Mode::Pause | Mode::Settings) {
        if is_mouse_button_pressed(MouseButton::Left) && app.rebinding.is_none() {
            let s = ui::scale(screen);
            let rects = match app.mode {
                Mode::Pause => ui::menu(
                    ui::PAUSE_TITLE,
                    &app.pause_labels(),
                    app.pause_selected,
                    screen,
                    s,
                    false,
                ),
                _ => ui::menu(
                    ui::SETTINGS_TITLE,
                    &settings_rows(app),
                    app.settings_selected,
                    screen,
                    s,
                    false,
                ),
            };
            if let Some(&(i, _)) = rects
                .iter()
                .find(|(_, r)| r.contains(vec2(mouse.0, mouse.1)))
            {
                app.click_entry(i, screen, now);
            }
        }
        return;
    }
    if app.mode == Mode::Help {
        return;
    }
    if app.mode == Mode::Confirm {
        if is_mouse_button_pressed(MouseButton::Left)
            && let Some(r) = &app.confirm
        {
            let q = crate::game::worlds::guard::question(r);
            let rects = ui::confirm_rects(&q, screen, ui::scale(screen));
            if let Some(&(a, _)) = rects
                .iter()
                .find(|(_, r)| r.contains(vec2(mouse.0, mouse.1)))
            {
                app.answer(a, now);
            }
        }
        return;
    }
    if app.mode == Mode::PresetMenu && is_mouse_button_pressed(MouseButton::Left) {
        let p = &app.presets;
        let label = |i: usize| p.list[i].label();
        let (n, sel) = (p.list.len(), app.menu_selected);
        let rects = ui::preset_menu(n, &label, sel, None, &app.layout(screen), false);
        if let Some(&(i, _)) = rects
            .iter()
            .find(|(_, r)| r.contains(vec2(mouse.0, mouse.1)))
        {
            app.choose_preset(i, now);
        }
        return;
    }
    let lay = app.layout(screen);
    if app.mode == Mode::Inventory
        && is_mouse_button_pressed(MouseButton::Left)
        && let Some(w) = &mut app.shown
    {
        let lay = lay.clone();
        let chest = w.me().chest.is_some();
        let shop = w.me().shop;
        let n = play::Play::recipes(w).len();
        let selected = app.play.recipe_selected.min(n.saturating_sub(1));
        let wares = crate::content::town::town().merchant.sells.len();
        if let Some(k) = invscreen::recipe_at(wares, 0, &lay, mouse).filter(|_| shop) {
            app.play.buy(w, k, now);
        } else if let Some(i) = invscreen::slot_at(&lay, mouse) {
            app.play.click_slot(w, i);
        } else if let Some(i) = invscreen::chest_slot_at(&lay, mouse).filter(|_| chest) {
            app.play.click_chest(w, i, now);
        } else if let Some(i) = invscreen::armour_slot_at(&lay, mouse) {
            app.play
                .act(w, crate::sim::session::Intent::ClickArmour(i), now);
        } else if let Some(b) = invscreen::chest_button_at(&lay, mouse).filter(|_| chest) {
            let all = [
                crate::sim::session::Intent::LootAll,
                crate::sim::session::Intent::DepositAll,
            ];
            app.play.act(w, all[b], now);
        } else if !chest
            && !shop
            && let Some(k) = invscreen::recipe_at(n, selected, &lay, mouse)
        {
            app.play.recipe_selected = k;
            app.play.craft_listed(w, k, now);
        } else if w.me().held.is_some()
            && ![lay.inventory, lay.chest, lay.crafting]
                .iter()
                .flatten()
                .any(|r| r.contains(vec2(mouse.0, mouse.1)))
        {
            // A stack dragged out of the panels is thrown into the world.
            app.play.act(w, crate::sim::session::Intent::Throw, now);
        }
    }
    // With the shop open a right-click on a slot sells its stack.
    if app.mode == Mode::Inventory
        && is_mouse_button_pressed(MouseButton::Right)
        && let Some(w) = &mut app.shown
        && w.me().shop
        && let Some(i) = invscreen::slot_at(&lay, mouse)
    {
        app.play.sell(w, i, now);
    }
    let Some(w) = &app.shown else { return };
    let size = w.size();
    let dt = get_frame_time().min(0.1) as f64;
    // Joined to a server every tick of a slow frame is sent ([`crate::game::worlds::state::MAX_REMOTE_FRAME`]).
    let frame_dt = if app.play.remote.is_some() {
        get_frame_time() as f64
    } else {
        dt
    };
    let in_world = app.mode == Mode::World;
    // With the lab's panel open the world beside it still pans and zooms by mouse.
    let mouse_world = in_world || app.mode == Mode::Lab;
    let map = lay.minimap;
    let on_minimap = map.is_some_and(|r| minimap::to_world(&r, size, mouse).is_some());
    let on_hotbar = lay.hotbar_at(mouse);
    let on_ui = on_minimap || on_hotbar.is_some();
    if in_world && is_mouse_button_pressed(MouseButton::Left) {
        if let Some(i) = on_hotbar
            && let Some(w) = &mut app.shown
        {
            w.act(crate::sim::session::Intent::Select(i));
        } else if on_minimap && let Some(p) = map.and_then(|r| minimap::to_world(&r, size, mouse)) {
            app.follow = false;
            (app.cam.cx, app.cam.cy) = p;
            crate::game::app::clamp_for(&mut app.cam, (app.follow, app.mode), size, screen);
            return;
        }
    }
    if in_world && !app.follow {
        let (dx, dy) = input::pan_direction(is_key_down, &app.settings.keys);
        let speed = input::pan_speed(screen.0, app.cam.zoom) * dt;
        app.cam.cx += dx as f64 * speed;
        app.cam.cy += dy as f64 * speed;
    }
    let zoom_dir = if in_world {
        input::zoom_direction(is_key_down, &app.settings.keys)
    } else {
        0
    };
    if zoom_dir != 0 {
        let centre = (screen.0 / 2.0, screen.1 / 2.0);
        app.cam
            .zoom_at(2f64.powf(zoom_dir as f64 * 2.0 * dt), centre, screen, size);
    }
    let wheel = mouse_wheel().1;
    if wheel != 0.0 {
        if app.follow && !ctrl {
            if let Some(w) = &mut app.shown {
                w.act(crate::sim::session::Intent::Scroll(if wheel > 0.0 {
                    -1
                } else {
                    1
                }));
            }
        } else {
            app.cam
                .zoom_at(input::wheel_factor(wheel), mouse, screen, size);
        }
    }
    // The free camera drags with any button; play keeps left/right for digging/placing.
    let dragging = mouse_world
        && !app.follow
        && !on_ui
        && [MouseButton::Left, MouseButton::Right, MouseButton::Middle]
            .into_iter()
            .any(is_mouse_button_down);
    if let (Some(last), true) = (*drag, dragging) {
        app.cam.pan_pixels(last.0 - mouse.0, last.1 - mouse.1);
    }
    *drag = dragging.then_some(mouse);
    // Play: the player moves in both cameras (without keys in the free one), digs and
    // places only in the play camera.
    let playing = in_world && app.follow;
    let walk = if playing {
        input::walk_input(is_key_down, jump_presses, &app.settings.keys)
    } else {
        Default::default()
    };
    let buttons = if playing && !on_ui {
        Buttons {
            dig: is_mouse_button_down(MouseButton::Left)
                || is_mouse_button_pressed(MouseButton::Left),
            place: is_mouse_button_down(MouseButton::Right),
            place_pressed: is_mouse_button_pressed(MouseButton::Right),
        }
    } else {
        Buttons::default()
    };
    let cursor = play::tile_at(app.cam.screen_to_world(screen, mouse), size);
    app.play.view_half = (
        (screen.0 as f64 / app.cam.zoom / 2.0) as f32,
        (screen.1 as f64 / app.cam.zoom / 2.0) as f32,
    );
    if app.halt().is_none()
        && let Some(w) = &mut app.shown
    {
        app.play.step(
            w,
            walk,
            play::aim(playing, on_ui, cursor),
            buttons,
            frame_dt as f32,
            now,
        );
        if std::mem::take(&mut app.play.chest_opened) && app.mode == Mode::World {
            app.mode = Mode::Inventory;
        }
        if std::mem::take(&mut app.play.shop_opened) && app.mode == Mode::World {
            app.mode = Mode::Inventory;
        }
        if app.follow {
            let c = w.session.me().body.centre();
            app.cam.follow((c.0 as f64, c.1 as f64), dt, screen);
            crate::game::app::clamp_for(&mut app.cam, (app.follow, app.mode), size, screen);
            let p = w.session.me().body.pos;
            let sp = app.cam.world_to_screen(screen, (p.0 as f64, p.1 as f64));
            app.play
                .log_position(play::position_line(p, sp, app.cam.zoom), now);
        }
    }
    crate::game::app::clamp_for(&mut app.cam, (app.follow, app.mode), size, screen);
}

/// The settings menu's rows as text.
fn settings_rows(app: &App) -> Vec<String> {
    crate::game::ui::menus::rows()
        .into_iter()
        .map(|r| crate::game::ui::menus::row_text(r, &app.settings, app.rebinding))
        .collect()
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
                c.kind.stats().name,
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
    if let Some((r, t)) = w.session.last_relight {
        let analysis = w.last_analysis.map_or("pending".to_string(), |d| {
            format!("{:.0} ms", d.as_secs_f64() * 1e3)
        });
        out.push(format!(
            "Last edit: relit {}x{} in {:.2} ms, cave figures after {analysis}",
            r.x1 - r.x0 + 1,
            r.y1 - r.y0 + 1,
            t.as_secs_f64() * 1e3
        ));
    }
    out
}

fn draw_ui(app: &App, timer: &Timer, hover: Option<Hover>, atlas: &Texture2D, screen: (f32, f32)) {
    let lay = app.layout(screen);
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
        ui::legend(bottom, &lay);
    }
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
        let (text, share) = crate::game::online::remote::progress(r.client.phase(), &r.addr);
        ui::joining(&text, share, screen, s);
    }
    if let Some(w) = &app.shown {
        if let Some(r) = lay.minimap {
            minimap::draw(w, &app.fog, &app.cam, r, screen, s);
        }
        hud::draw_hotbar(&w.session.me().inventory, atlas, &lay);
        if lay.vitals.is_some() {
            hud::draw_vitals(&w.session.me().vitals, w.session.time_of_day, &lay);
        }
        if let Some(b) = &w.session.boss {
            hud::draw_boss_bar(b, &lay);
        }
        if app.mode == Mode::Inventory {
            let list = play::Play::recipes(w);
            let selected = app.play.recipe_selected.min(list.len().saturating_sub(1));
            let cat = crate::content::items::catalog();
            let open = w.me().chest;
            let chest = open.and_then(|(x, y)| w.world().chests.get(x, y));
            let empty = crate::world::chest::Chest::empty();
            let chest = open.map(|_| chest.unwrap_or(&empty));
            let coins = &crate::content::town::town().coins;
            let shop = w
                .me()
                .shop
                .then(|| crate::sim::coins::worth(&w.session.me().inventory, coins));
            invscreen::draw(
                cat,
                &w.session.me().inventory,
                w.me().held,
                chest,
                shop,
                &list,
                selected,
                atlas,
                &lay,
            );
        }
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
    ui::status(&status, screen, s);
    // Menus and dialogs over the HUD; messages over them.
    match app.mode {
        Mode::PresetMenu => {
            let p = &app.presets;
            let label = |i: usize| p.list[i].label();
            let (n, sel) = (p.list.len(), app.menu_selected);
            ui::preset_menu(n, &label, sel, p.current(), &lay, true);
        }
        Mode::SeedBox => ui::seed_box(&app.seed_box.text, app.seed_box.seed(), screen, s),
        Mode::LoadList => {
            if let Some(list) = &app.load_list {
                let now = std::time::SystemTime::now();
                let lines: Vec<String> = list
                    .entries
                    .iter()
                    .map(|e| crate::game::worlds::saves::describe(e, now))
                    .collect();
                ui::load_list(
                    &app.saves_dir,
                    &lines,
                    &app.thumbs,
                    list.selected,
                    screen,
                    s,
                );
            }
        }
        Mode::Pause => {
            ui::menu(
                ui::PAUSE_TITLE,
                &app.pause_labels(),
                app.pause_selected,
                screen,
                s,
                true,
            );
        }
        Mode::Settings => {
            ui::menu(
                ui::SETTINGS_TITLE,
                &settings_rows(app),
                app.settings_selected,
                screen,
                s,
                true,
            );
        }
        Mode::Help => {
            let lines = crate::game::ui::menus::help_lines(&app.settings.keys);
            ui::help(&lines, &app.settings_path.display().to_string(), &lay);
        }
        Mode::Confirm => {
            if let Some(r) = &app.confirm {
                ui::confirm(
                    &crate::game::worlds::guard::question(r),
                    mouse_position(),
                    screen,
                    s,
                );
            }
        }
        Mode::Join => {
            let f = &app.join_form;
            ui::form(ui::JOIN_TITLE, &f.rows(), f.focus, screen, s);
        }
        Mode::Host => {
            let f = &app.host_form;
            ui::form(ui::HOST_TITLE, &f.rows(), f.focus, screen, s);
        }
        Mode::World | Mode::Lab | Mode::Inventory | Mode::Chat => {}
    }
    if app.shown.is_some() {
        let now = get_time();
        let open = app.mode == Mode::Chat;
        let room = ((screen.1 * 0.45) / (21.0 * s)).max(1.0) as usize;
        let lines: Vec<(String, bool)> = app
            .play
            .chat
            .shown(now, open, room)
            .into_iter()
            .map(|l| (l.text(), l.is_chat()))
            .collect();
        let field = open.then(|| app.chat_line.split());
        ui::chat(&lines, field, &lay);
    }
    if let Some(w) = &app.shown
        && app.mode == Mode::World
        && is_key_down(KeyCode::Tab)
        && app.settings.keys.command(KeyCode::Tab).is_none()
    {
        let names = app
            .play
            .roster
            .list(w.session.players.len(), crate::sim::session::LOCAL);
        ui::player_list(&names, screen, s);
    }
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
