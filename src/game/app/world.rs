//! The world's part of the game: its keys (toggles, the camera, the hotbar, the inventory
//! and the menus opened from it), the keys that make, save or load a world, the mouse in
//! the world (panning and zooming the free camera, digging and placing in play), and
//! drawing the world with everything in it.

use super::App;
use super::fit_for;
use crate::game::app::play::{self, Buttons};
use crate::game::draw::camera;
use crate::game::draw::{lighting, render, sprite};
use crate::game::input;
use crate::game::input::{Action, Mode};
use crate::game::ui::hud;
use crate::game::ui::minimap;
use crate::game::ui::overlay::Hover;
use crate::game::ui::seedbox::SeedBox;
use crate::game::worlds::guard::Replace;
use crate::game::worlds::saves::LoadList;
use crate::game::worlds::state::{Loaded, level_for};
use crate::store::save;
use macroquad::prelude::*;

/// Time per frame for building each cave tint's mask textures.
const MASK_BUDGET: std::time::Duration = std::time::Duration::from_micros(600);

impl App {
    /// The world's keys; `false` for an action that is not one of them.
    pub(super) fn world_act(&mut self, action: Action, screen: (f32, f32), now: f64) -> bool {
        match action {
            Action::OpenChat => {
                self.chat_line = Default::default();
                self.mode = Mode::Chat;
            }
            Action::Edit(_) => {}
            Action::ToggleInventory => {
                if let Some(w) = &mut self.shown {
                    self.play.put_back(w, now);
                    self.mode = Mode::Inventory;
                    self.play.open_panel(w);
                    log::debug!("inventory open");
                }
            }
            Action::QueryHousing => {
                if let Some(w) = &mut self.shown {
                    self.play.query_housing(w, now);
                }
            }
            Action::Throw => {
                if let Some(w) = &mut self.shown {
                    self.play.act(w, crate::sim::session::Intent::Throw, now);
                }
            }
            Action::Hook => {
                if let Some(w) = &mut self.shown {
                    self.play.hook(w, now);
                }
            }
            Action::LootAll => {
                if let Some(w) = &mut self.shown {
                    self.play.act(w, crate::sim::session::Intent::LootAll, now);
                }
            }
            Action::DepositAll => {
                if let Some(w) = &mut self.shown {
                    self.play
                        .act(w, crate::sim::session::Intent::DepositAll, now);
                }
            }
            Action::ToggleOverlay => self.overlay = !self.overlay,
            Action::FitWorld => {
                if let Some(s) = &self.shown {
                    self.follow = false;
                    self.cam = fit_for(s.size(), self.mode == Mode::Lab, screen);
                }
            }
            // H: the quick heal in play (Terraria's H), back to the spawn in the free camera.
            Action::Home if self.follow => {
                if let Some(w) = &mut self.shown {
                    self.play
                        .act(w, crate::sim::session::Intent::QuickHeal, now);
                }
            }
            Action::Home => {
                if let Some(s) = &self.shown {
                    self.cam = camera::home(
                        s.session.world.width(),
                        &s.session.world.surface,
                        s.size(),
                        screen,
                    );
                }
            }
            Action::Slot(i) => {
                if let Some(s) = &mut self.shown {
                    s.act(crate::sim::session::Intent::Select(i));
                }
            }
            Action::ToggleMinimap => self.minimap = !self.minimap,
            Action::ToggleMute => {
                self.settings.muted = !self.settings.muted;
                let on = if self.settings.muted { "off" } else { "on" };
                log::info!("sound {on} (mute key)");
                self.play.say(format!("Sound {on}"), now);
                self.settings_changed(now);
            }
            Action::ToggleCamera => {
                self.follow = !self.follow;
                if self.follow {
                    self.cam.zoom = camera::PLAY_ZOOM;
                }
                let name = if self.follow {
                    "Play camera"
                } else {
                    "Free camera"
                };
                self.say(name.into(), now);
            }
            Action::OpenPause => {
                self.pause_selected = 0;
                self.mode = Mode::Pause;
            }
            Action::OpenHelp => {
                self.help_from_pause = self.mode == Mode::Pause;
                self.mode = Mode::Help;
            }
            Action::ToggleFullscreen => {
                self.settings.fullscreen = !self.settings.fullscreen;
                macroquad::window::set_fullscreen(self.settings.fullscreen);
                self.settings_changed(now);
            }
            _ => return false,
        }
        true
    }

    /// The keys that make, save or load a world (or open the lab or a list to choose one
    /// from); `false` for an action that is not one of them.
    pub(super) fn files_act(&mut self, action: Action, screen: (f32, f32), now: f64) -> bool {
        match action {
            Action::Reseed => self.request(Replace::Reseed, now),
            Action::OpenSeedBox => {
                self.seed_box = SeedBox::default();
                self.mode = Mode::SeedBox;
            }
            Action::CopySeed => {
                let seed = self
                    .shown
                    .as_ref()
                    .map_or(self.seed, |s| s.session.world.seed);
                macroquad::miniquad::window::clipboard_set(&seed.to_string());
                log::info!("seed {seed} copied");
                self.say(format!("Seed {seed} copied"), now);
            }
            Action::Save => {
                if let Some(s) = &self.shown {
                    self.play.save(s, &self.saves_dir, now);
                }
            }
            Action::Load => {
                // A world's saves are named by its identity: its file, or that file's
                // backup when only the backup is left. A world never saved (its seed typed
                // again, or given on the command line) loads the newest save of a world
                // made as it was; that world's identity then names the saves that follow.
                let dir = &self.saves_dir;
                let newest = self.shown.as_ref().and_then(|s| {
                    save::newest_of(dir, &s.session.world)
                        .or_else(|| save::newest_of_seed(dir, &s.session.world))
                });
                match newest {
                    Some(path) => self.request(Replace::LoadNewest(path), now),
                    _ => self.play.say(
                        "No save of this world or its seed yet (F5 saves; L lists all)",
                        now,
                    ),
                }
            }
            Action::OpenLoadList => {
                let cat = &self.worker.content.catalog;
                self.load_list = Some(LoadList::open(&self.saves_dir, cat));
                self.thumbs.clear();
                self.mode = Mode::LoadList;
            }
            Action::ChooseSave(i) => self.choose_save(i, now),
            Action::ReloadContent => self.reload_content(now),
            Action::ToggleLab => self.toggle_lab(screen),
            Action::TogglePresetMenu => {
                self.presets.refresh_list();
                self.menu_selected = self.presets.current().unwrap_or(0);
                self.mode = Mode::PresetMenu;
            }
            _ => return false,
        }
        true
    }

    /// The mouse in the world (and the free camera's keys): a click on the hotbar or the
    /// minimap, panning, zooming and dragging the free camera, then play's frame.
    pub fn world_mouse(
        &mut self,
        screen: (f32, f32),
        now: f64,
        (drag, jump_presses): (&mut Option<(f32, f32)>, u8),
        lay: &crate::game::ui::layout::Layout,
        mouse: (f32, f32),
    ) {
        let held = |keys: [KeyCode; 2]| keys.into_iter().any(is_key_down);
        let ctrl = held([KeyCode::LeftControl, KeyCode::RightControl]);
        let Some(w) = &self.shown else { return };
        let size = w.size();
        let dt = get_frame_time().min(0.1) as f64;
        // Joined to a server every tick of a slow frame is sent ([`crate::game::worlds::state::MAX_REMOTE_FRAME`]).
        let frame_dt = if self.play.remote.is_some() {
            get_frame_time() as f64
        } else {
            dt
        };
        let in_world = self.mode == Mode::World;
        // With the lab's panel open the world beside it still pans and zooms by mouse.
        let mouse_world = in_world || self.mode == Mode::Lab;
        let map = lay.minimap;
        let me = w.me().body.centre();
        let shows = minimap::view(size, (me.0 as f64, me.1 as f64), self.minimap_zoom);
        let on_minimap = map.is_some_and(|r| minimap::to_world(&r, shows, mouse).is_some());
        let on_hotbar = lay.hotbar_at(mouse);
        let on_ui = on_minimap || on_hotbar.is_some();
        if in_world && is_mouse_button_pressed(MouseButton::Left) {
            if let Some(i) = on_hotbar
                && let Some(w) = &mut self.shown
            {
                w.act(crate::sim::session::Intent::Select(i));
            } else if on_minimap
                && let Some(p) = map.and_then(|r| minimap::to_world(&r, shows, mouse))
            {
                self.follow = false;
                (self.cam.cx, self.cam.cy) = p;
                crate::game::app::clamp_for(&mut self.cam, (self.follow, self.mode), size, screen);
                return;
            }
        }
        if in_world && !self.follow {
            let (dx, dy) = input::pan_direction(is_key_down, &self.settings.keys);
            let speed = input::pan_speed(screen.0, self.cam.zoom) * dt;
            self.cam.cx += dx as f64 * speed;
            self.cam.cy += dy as f64 * speed;
        }
        let zoom_dir = if in_world {
            input::zoom_direction(is_key_down, &self.settings.keys)
        } else {
            0
        };
        if zoom_dir != 0 {
            let centre = (screen.0 / 2.0, screen.1 / 2.0);
            self.cam
                .zoom_at(2f64.powf(zoom_dir as f64 * 2.0 * dt), centre, screen, size);
        }
        let wheel = mouse_wheel().1;
        if wheel != 0.0 && on_minimap {
            // The wheel over the minimap zooms it around the player.
            self.minimap_zoom = minimap::zoomed(self.minimap_zoom, wheel);
        } else if wheel != 0.0 {
            if self.follow && !ctrl {
                if let Some(w) = &mut self.shown {
                    w.act(crate::sim::session::Intent::Scroll(if wheel > 0.0 {
                        -1
                    } else {
                        1
                    }));
                }
            } else {
                self.cam
                    .zoom_at(input::wheel_factor(wheel), mouse, screen, size);
            }
        }
        // The free camera drags with any button; play keeps left/right for digging/placing.
        let dragging = mouse_world
            && !self.follow
            && !on_ui
            && [MouseButton::Left, MouseButton::Right, MouseButton::Middle]
                .into_iter()
                .any(is_mouse_button_down);
        if let (Some(last), true) = (*drag, dragging) {
            self.cam.pan_pixels(last.0 - mouse.0, last.1 - mouse.1);
        }
        *drag = dragging.then_some(mouse);
        self.play_frame(
            screen,
            now,
            (dt, frame_dt, size),
            jump_presses,
            (mouse, on_ui),
        );
    }

    /// Play's frame: the walk keys and the mouse buttons become the session's steps (in
    /// the play camera), and the play camera follows the player.
    fn play_frame(
        &mut self,
        screen: (f32, f32),
        now: f64,
        (dt, frame_dt, size): (f64, f64, (usize, usize)),
        jump_presses: u8,
        (mouse, on_ui): ((f32, f32), bool),
    ) {
        let in_world = self.mode == Mode::World;
        // Play: the player moves in both cameras (without keys in the free one), digs and
        // places only in the play camera.
        let playing = in_world && self.follow;
        let walk = if playing {
            input::walk_input(is_key_down, jump_presses, &self.settings.keys)
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
        let cursor = play::tile_at(self.cam.screen_to_world(screen, mouse), size);
        self.play.view_half = (
            (screen.0 as f64 / self.cam.zoom / 2.0) as f32,
            (screen.1 as f64 / self.cam.zoom / 2.0) as f32,
        );
        if self.halt().is_none()
            && let Some(w) = &mut self.shown
        {
            self.play.step(
                w,
                walk,
                play::aim(playing, on_ui, cursor),
                buttons,
                frame_dt as f32,
                now,
            );
            if std::mem::take(&mut self.play.chest_opened) && self.mode == Mode::World {
                self.mode = Mode::Inventory;
            }
            if std::mem::take(&mut self.play.shop_opened) && self.mode == Mode::World {
                self.mode = Mode::Inventory;
            }
            if self.follow {
                let c = w.session.me().body.centre();
                self.cam.follow((c.0 as f64, c.1 as f64), dt, screen);
                crate::game::app::clamp_for(&mut self.cam, (self.follow, self.mode), size, screen);
                let p = w.session.me().body.pos;
                let sp = self.cam.world_to_screen(screen, (p.0 as f64, p.1 as f64));
                self.play
                    .log_position(play::position_line(p, sp, self.cam.zoom), now);
            }
        }
        crate::game::app::clamp_for(&mut self.cam, (self.follow, self.mode), size, screen);
    }

    /// Draws the world on screen with everything in it, for the camera (the play camera
    /// held to its least zoom and in the world): the cave masks and the hovered tile for
    /// the F3 overlay, the sky, the tiles, particles, creatures, dropped items, the town,
    /// the boss, the other players, the fog, the light, then the local player and what
    /// they hold. Returns the hovered tile and when the masks were done (`t0`'s clock).
    pub fn draw_world(
        &mut self,
        screen: (f32, f32),
        now: f64,
        stepping: bool,
        (atlas, player_sprite): (&Texture2D, &Texture2D),
        t0: std::time::Instant,
    ) -> (Option<Hover>, Option<std::time::Duration>) {
        let mut hover = None;
        let mut t_mask = None;
        if let Some(w) = &mut self.shown {
            let size = w.size();
            if self.follow {
                let min = camera::play_min_zoom(screen, lighting::LIT_MAX_TILES);
                self.cam.zoom = self.cam.zoom.max(min);
            }
            crate::game::app::clamp_for(&mut self.cam, (self.follow, self.mode), size, screen);
            let vis = self.cam.visible_tiles(size, screen);
            let level = level_for(self.cam.zoom);
            let visible = render::visible_chunks(w, level, &vis);
            if self.overlay {
                hover = hover_and_masks(w, &self.cam, screen, level, &visible);
            }
            t_mask = Some(t0.elapsed());
            let chunks = (level, &visible[..]);
            self.sky.draw(w, &self.cam, screen, now, self.follow);
            render::draw_world(w, &self.cam, screen, atlas, chunks, self.overlay);
            if self.overlay {
                hud::draw_structures(&w.session.world.structures, &self.cam, screen);
            }
            let dt = if stepping {
                get_frame_time().min(0.1)
            } else {
                0.0
            };
            let digging = self.play.target.as_ref().filter(|t| t.progress.is_some());
            let digging = digging.map(|t| (t.x, t.y));
            self.particles.for_world(self.world_id);
            self.particles
                .update(&w.session.world, &w.session.me().body, digging, dt);
            self.particles.draw(&self.cam, screen);
            hud::draw_creatures(&w.session.creatures, &self.cam, screen);
            self.play.draw_flying(&w.session, (&self.cam, screen), now);
            let cat = &w.session.content.catalog;
            hud::draw_dropped(&w.session.world.dropped, cat, atlas, &self.cam, screen);
            draw_folk_and_bosses(&w.session, player_sprite, (&self.cam, screen), now);
            // The other players, lit like the Guide by the light view over them; their
            // names go over it, after the local player.
            let local = crate::sim::session::LOCAL;
            let others = crate::game::online::players::figures(
                &w.session,
                local,
                &self.play.roster,
                vis,
                now,
            );
            draw_others(&others, player_sprite, (&self.cam, screen));
            // The map view shows only what the player has seen (the lab shows the world
            // as generated, for its designer). The fog is kept only while it is drawn, so
            // the lab's regenerations do not build it for every world.
            let map_view = !self.follow && self.mode != Mode::Lab;
            if map_view || self.minimap {
                self.fog.update(w);
            }
            if map_view {
                self.fog.draw_world(&self.cam, screen);
            }
            // Play is lit; the free camera is a map view of the world, unlit.
            let mut shade = 1.0;
            if self.follow {
                self.light_view.update(w, &vis, self.world_id);
                self.light_view.draw(&self.cam, screen);
                let c = w.session.me().body.centre();
                let (px, py) = (c.0.max(0.0) as usize, c.1.max(0.0) as usize);
                let level = w.session.light.get_with_player(px, py, c);
                shade = 1.0 - lighting::darkness(level) as f32 / 255.0;
            }
            self.play.floaters.draw(&self.cam, screen);
            // Invincible after a hit: the player blinks. On the death screen there is no
            // body (nor its light, breath or swing).
            let alive = w.session.me().death.is_none();
            let swinging = now < self.play.swing_until;
            if alive && crate::sim::vitals::visible(w.session.me().vitals.invincible, now) {
                sprite::draw(
                    player_sprite,
                    &w.session.me().body,
                    &self.cam,
                    screen,
                    (now, swinging),
                    shade.max(0.35),
                );
            }
            for f in &others {
                sprite::draw_name(&f.name, f.pos, &self.cam, screen);
            }
            if self.follow && alive {
                hud::draw_bubbles(
                    &w.session.me().vitals,
                    &w.session.content.rules,
                    &w.session.me().body,
                    &self.cam,
                    screen,
                );
            }
            if self.follow
                && self.mode == Mode::World
                && let Some(t) = &self.play.target
            {
                hud::draw_target(t, &self.cam, screen);
                if t.progress.is_some()
                    && let Some(item) = w.session.me().inventory.selected_item()
                {
                    let toward = (t.x as f32 + 0.5, t.y as f32 + 0.5);
                    hud::draw_tool(
                        &w.session.me().body,
                        toward,
                        now,
                        item.color,
                        &self.cam,
                        screen,
                    );
                }
            }
            if alive
                && now < self.play.swing_until
                && let Some(item) = w.session.me().inventory.selected_item()
                && let Some((_, reach, _)) = w.session.me().inventory.selected_sword()
            {
                let left = (self.play.swing_until - now) as f32;
                let progress = 1.0 - left / crate::sim::creatures::SWING_SECONDS;
                hud::draw_swing(
                    &w.session.me().body,
                    reach,
                    progress,
                    item.color,
                    &self.cam,
                    screen,
                );
            }
        }
        (hover, t_mask)
    }
}

/// The other players, each with its grappling line when it hangs on one.
fn draw_others(
    others: &[crate::game::online::players::Figure],
    player_sprite: &Texture2D,
    (cam, screen): (&camera::Camera, (f32, f32)),
) {
    for f in others {
        if let Some(anchor) = f.hook {
            let centre = (f.pos.0, f.pos.1 - crate::sim::player::HEIGHT / 2.0);
            sprite::draw_hook_line(centre, anchor, cam, screen);
        }
        sprite::draw_pose(
            player_sprite,
            (f.pos, f.facing, f.frame),
            f.tint,
            cam,
            screen,
        );
    }
}

/// The town's people, the Eye and the boss after it.
fn draw_folk_and_bosses(
    session: &crate::sim::session::Session,
    player_sprite: &Texture2D,
    (cam, screen): (&camera::Camera, (f32, f32)),
    now: f64,
) {
    for n in session.town() {
        sprite::draw_npc(player_sprite, n, cam, screen, now);
    }
    if let Some(b) = &session.boss {
        hud::draw_boss(b, session.me().body.centre(), cam, screen);
    }
    crate::game::ui::rival::draw_in(session, cam, screen);
}

/// The tile under the mouse for the F3 overlay, and the cave masks it shows (the largest
/// cave's and the hovered one's) built for the chunks in view (`visible`, at `level`).
fn hover_and_masks(
    w: &mut Loaded,
    cam: &crate::game::draw::camera::Camera,
    screen: (f32, f32),
    level: usize,
    visible: &[usize],
) -> Option<Hover> {
    let size = w.size();
    let mut hover = None;
    let (mx, my) = mouse_position();
    let (tx, ty) = cam.screen_to_world(screen, (mx, my));
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
    w.largest[level].build(&w.report, visible, MASK_BUDGET);
    w.hovered[level].build(&w.report, visible, MASK_BUDGET);
    hover
}
