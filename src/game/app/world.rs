//! The world's part of the game: its keys (toggles, the camera, the hotbar, the inventory
//! and the menus opened from it), the keys that make, save or load a world, the mouse in
//! the world (panning and zooming the free camera, digging and placing in play), and
//! drawing the world with everything in it.

use super::App;
use super::fit_for;
use super::play::Play;
use crate::game::draw::camera;
use crate::game::input::{Action, Mode};
use crate::game::ui::seedbox::SeedBox;
use crate::game::worlds::guard::Replace;
use crate::game::worlds::saves::LoadList;
use crate::store::save;

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
                    self.play.recipe_selected = 0;
                    self.play.put_back(w, now);
                    self.mode = Mode::Inventory;
                    Play::log_panel(w);
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
            Action::Home => {
                if let Some(s) = &self.shown
                    && !self.follow
                {
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
                self.load_list = Some(LoadList::open(&self.saves_dir));
                self.thumbs.clear();
                self.mode = Mode::LoadList;
            }
            Action::ChooseSave(i) => self.choose_save(i, now),
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
}
