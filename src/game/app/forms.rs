//! The menus and forms: the pause menu, the settings menu (with rebinding a key), the help
//! screen, the preset menu, the load list, the seed box, the question about unsaved edits,
//! and the Join and Open to the network forms: their keys, their mouse and their drawing.

use super::App;
use crate::game::input::{Action, Mode};
use crate::game::ui;
use crate::game::ui::layout::Layout;
use macroquad::prelude::{MouseButton, is_mouse_button_pressed, mouse_position, vec2};

use crate::game::ui::menus::{self, Effect, PauseEntry};
use crate::game::worlds::guard::Replace;
use crate::game::worlds::saves::LoadList;

/// A key that moves between a form's fields (Tab, the arrows) or edits the one taking
/// the keys (Backspace, a paste); `false` for one it does not take.
fn form_key<const N: usize>(form: &mut crate::game::ui::joinform::Form<N>, action: Action) -> bool {
    match action {
        Action::MenuDown => form.next(),
        Action::MenuUp => form.prev(),
        Action::Backspace => form.field().backspace(),
        Action::Paste => {
            if let Some(text) = macroquad::miniquad::window::clipboard_get() {
                form.field().paste(&text);
            }
        }
        _ => return false,
    }
    true
}

impl App {
    /// The menus' and forms' keys (any action the world, the files and the inventory did
    /// not take).
    pub(super) fn menu_act(&mut self, action: Action, screen: (f32, f32), now: f64) {
        match action {
            Action::Close if self.mode == Mode::Settings => {
                self.rebinding = None;
                self.mode = Mode::Pause;
            }
            Action::Close if self.mode == Mode::Help && self.help_from_pause => {
                self.mode = Mode::Pause
            }
            Action::Close => {
                if let Some(w) = &mut self.shown {
                    self.play.put_back(w, now);
                }
                self.mode = Mode::World;
                self.load_list = None;
            }
            Action::ChooseEntry(i) if self.mode == Mode::Pause => self.pause_entry(i, screen, now),
            // A number key on a command's row only highlights it: Enter, as the row says,
            // then waits for the new key (and that Enter is not taken as it).
            Action::ChooseEntry(i) => match menus::rows().get(i) {
                Some(menus::Row::Key(_)) => self.settings_selected = i,
                Some(_) => {
                    self.settings_selected = i;
                    self.adjust_setting(0, now);
                }
                None => {}
            },
            Action::Adjust(dir) => self.adjust_setting(dir, now),
            Action::MenuUp if self.mode == Mode::Pause => {
                self.pause_selected = self.pause_selected.saturating_sub(1)
            }
            Action::MenuDown if self.mode == Mode::Pause => {
                let n = menus::pause(self.net_state()).len();
                self.pause_selected = (self.pause_selected + 1).min(n - 1)
            }
            Action::Confirm if self.mode == Mode::Pause => {
                self.pause_entry(self.pause_selected, screen, now)
            }
            Action::MenuUp if self.mode == Mode::Settings => {
                self.settings_selected = self.settings_selected.saturating_sub(1)
            }
            Action::MenuDown if self.mode == Mode::Settings => {
                self.settings_selected = (self.settings_selected + 1).min(menus::rows().len() - 1)
            }
            Action::Confirm if self.mode == Mode::Settings => self.adjust_setting(0, now),
            Action::ChoosePreset(i) => self.choose_preset(i, now),
            Action::MenuUp if self.mode == Mode::LoadList => {
                self.load_list.iter_mut().for_each(LoadList::up)
            }
            Action::MenuDown if self.mode == Mode::LoadList => {
                self.load_list.iter_mut().for_each(LoadList::down)
            }
            Action::Confirm if self.mode == Mode::LoadList => {
                let i = self.load_list.as_ref().map_or(0, |l| l.selected);
                self.choose_save(i, now);
            }
            Action::MenuUp => self.menu_selected = self.menu_selected.saturating_sub(1),
            Action::MenuDown => {
                self.menu_selected =
                    (self.menu_selected + 1).min(self.presets.list.len().saturating_sub(1))
            }
            Action::Confirm if self.mode == Mode::PresetMenu => {
                self.choose_preset(self.menu_selected, now)
            }
            Action::Confirm => {
                self.mode = Mode::World;
                if let Some(seed) = self.seed_box.seed() {
                    self.request(Replace::NewSeed(seed), now);
                }
            }
            Action::Answer(a) => self.answer(a, now),
            Action::Backspace => self.seed_box.backspace(),
            Action::Paste => {
                if let Some(text) = macroquad::miniquad::window::clipboard_get() {
                    self.seed_box.paste(&text);
                }
            }

            _ => {}
        }
    }

    /// A click on the pause or settings menu's `i`-th entry: chooses it (on a command's
    /// row, waits for its new key).
    pub fn click_entry(&mut self, i: usize, screen: (f32, f32), now: f64) {
        if self.mode == Mode::Settings && i < menus::rows().len() {
            self.settings_selected = i;
            self.adjust_setting(0, now);
        } else {
            self.act(Action::ChooseEntry(i), screen, now);
        }
    }

    /// The pause menu's labels as the window is now.
    pub fn pause_labels(&self) -> Vec<String> {
        menus::pause(self.net_state())
            .into_iter()
            .map(|e| e.1)
            .collect()
    }

    /// A key of the form of Open to the network: Enter starts opening the world on
    /// screen (or says which field is wrong), Esc goes back to the pause menu.
    pub(super) fn host_key(&mut self, action: Action, now: f64) -> bool {
        match action {
            Action::Confirm => match (self.host_form.options(), &self.shown) {
                (Ok(opts), Some(w)) => {
                    // Nothing else comes to replace the world the players will be in.
                    self.worker.cancel();
                    self.incoming = None;
                    log::info!("opening to the network on {}", opts.listen);
                    self.opening = Some(crate::game::online::host::Opening::start(w, opts));
                    self.play.say("Opening to the network...", now);
                    self.mode = Mode::World;
                }
                (Ok(_), None) => self.say("No world to open yet".into(), now),
                (Err(e), _) => self.say(e, now),
            },
            Action::Close => self.mode = Mode::Pause,
            edit => return form_key(&mut self.host_form, edit),
        }
        true
    }

    /// A key of the Join form: Enter joins what it says (or says what is wrong), Esc goes
    /// back to the pause menu; Tab and the arrows move between fields, the rest edit.
    pub(super) fn join_key(&mut self, action: Action, now: f64) -> bool {
        match action {
            Action::Confirm => match self.join_form.options() {
                Ok(opts) => match self.join(&opts) {
                    Ok(()) => {
                        self.mode = Mode::World;
                        // The world on screen goes: the server's is shown once whole.
                        self.shown = None;
                        self.incoming = None;
                    }
                    Err(e) => self.say(e.to_string(), now),
                },
                Err(e) => self.say(e, now),
            },
            Action::Close => self.mode = Mode::Pause,
            edit => return form_key(&mut self.join_form, edit),
        }
        true
    }

    /// The pause menu's `i`-th entry.
    pub fn pause_entry(&mut self, i: usize, screen: (f32, f32), now: f64) {
        let Some(&(entry, _)) = menus::pause(self.net_state()).get(i) else {
            return;
        };
        self.pause_selected = i;
        match entry {
            PauseEntry::Resume => self.mode = Mode::World,
            PauseEntry::Settings => {
                self.settings_selected = 0;
                self.mode = Mode::Settings;
            }
            PauseEntry::Save => self.act(Action::Save, screen, now),
            PauseEntry::Help => self.act(Action::OpenHelp, screen, now),
            PauseEntry::Join if self.unsaved() => {
                self.say("Save first (F5), then join a server".into(), now)
            }
            PauseEntry::Join if self.play.host.is_some() || self.opening.is_some() => {
                self.say("Close to the network first, then join a server".into(), now)
            }
            PauseEntry::Join => self.mode = Mode::Join,
            PauseEntry::Host if self.play.remote.is_some() => {
                self.say("Not while joined to a server".into(), now)
            }
            PauseEntry::Host if self.shown.is_none() => {
                self.say("No world to open yet".into(), now)
            }
            PauseEntry::Host => {
                log::debug!("form: Open to the network");
                self.mode = Mode::Host;
            }
            PauseEntry::Hosting => {
                let names: Vec<String> = self.play.host.as_ref().map_or(Vec::new(), |_| {
                    let seats = self.shown.as_ref().map_or(1, |w| w.session.players.len());
                    self.play.roster.list(seats, crate::sim::session::LOCAL)
                });
                let text = match names.len() {
                    0 => "Opening to the network...".to_string(),
                    _ => format!("On: {}", names.join(", ")),
                };
                self.say(text, now);
            }
            PauseEntry::CloseHost => self.close_host(now),
            PauseEntry::Quit => self.quit = true,
        }
    }

    /// Left/right (`dir` -1, +1) or Enter (0) on the settings menu's highlighted row.
    pub fn adjust_setting(&mut self, dir: i32, now: f64) {
        let Some(&row) = menus::rows().get(self.settings_selected) else {
            return;
        };
        let before = self.settings.fullscreen;
        match menus::adjust(&mut self.settings, row, dir) {
            Effect::Nothing => {}
            Effect::Changed => {
                if self.settings.fullscreen != before {
                    macroquad::window::set_fullscreen(self.settings.fullscreen);
                }
                self.settings_changed(now);
            }
            Effect::Rebind(c) => self.rebinding = Some(c),
            Effect::Back => self.mode = Mode::Pause,
        }
    }

    /// The key pressed while a command waits for its new one (Esc cancels).
    pub fn bind_key(&mut self, key: macroquad::input::KeyCode, now: f64) {
        let Some(c) = self.rebinding.take() else {
            return;
        };
        if key == macroquad::input::KeyCode::Escape {
            return;
        }
        match self.settings.keys.bind(c, key) {
            Ok(from) => {
                if let Some(from) = from {
                    let name = crate::game::settings::label(key);
                    let left = self.settings.keys.describe(from);
                    self.play
                        .say(format!("{name} moved here; that command keeps {left}"), now);
                }
                self.settings_changed(now);
            }
            Err(e) => self.play.say(e, now),
        }
    }

    /// The settings changed: applies what the app holds, writes the file (atomically).
    pub(super) fn settings_changed(&mut self, now: f64) {
        self.settings_version += 1;
        self.autosave_every = self.settings.autosave_every();
        crate::game::ui::set_user_scale(self.settings.ui_scale as f32);
        match self.settings.save(&self.settings_path) {
            Ok(kept) => {
                log::info!("settings saved to {}", self.settings_path.display());
                if let Some(bak) = kept {
                    log::info!(
                        "kept the settings file that did not load as {}",
                        bak.display()
                    );
                    let name = bak.file_name().unwrap_or_default().to_string_lossy();
                    let said =
                        format!("Settings saved; the file that did not load is kept as {name}");
                    self.play.say(said, now);
                }
            }
            Err(e) => {
                log::warn!("settings not saved: {e}");
                self.play.say(format!("Settings not saved: {e}"), now);
            }
        }
    }

    /// Loads the load list's `i`-th save and closes the list.
    pub fn choose_save(&mut self, i: usize, now: f64) {
        let Some(path) = self.load_list.as_ref().and_then(|l| l.path(i)) else {
            return;
        };
        let path = path.to_path_buf();
        self.mode = Mode::World;
        self.load_list = None;
        self.request(Replace::LoadFile(path), now);
    }

    /// Switches to the menu's `i`-th preset, keeping the seed.
    pub fn choose_preset(&mut self, i: usize, now: f64) {
        if i >= self.presets.list.len() {
            return;
        }
        self.mode = Mode::World;
        self.request(Replace::Preset(i), now);
    }

    /// The highlighted row of the menu that has the keyboard, if one has.
    pub fn menu_cursor(&self) -> Option<(Mode, usize)> {
        let row = match self.mode {
            Mode::Pause => self.pause_selected,
            Mode::Settings => self.settings_selected,
            Mode::PresetMenu => self.menu_selected,
            Mode::LoadList => self.load_list.as_ref()?.selected,
            Mode::Start => self.start.selected,
            Mode::Inventory => self.play.recipe_selected,
            _ => return None,
        };
        Some((self.mode, row))
    }

    /// A click on the menu or dialog open (the load list, the pause and settings menus,
    /// the question about unsaved edits, the preset menu); `true` when the world and the
    /// inventory are to get no mouse this frame.
    pub fn menu_click(&mut self, screen: (f32, f32), mouse: (f32, f32), now: f64) -> bool {
        if self.mode == Mode::LoadList && is_mouse_button_pressed(MouseButton::Left) {
            if let Some(list) = &self.load_list {
                let s = ui::scale(screen);
                let rows = ui::load_rects(list.entries.len(), list.selected, screen, s);
                if let Some(&(i, _)) = rows
                    .iter()
                    .find(|(_, r)| r.contains(vec2(mouse.0, mouse.1)))
                {
                    self.choose_save(i, now);
                }
            }
            return true;
        }
        if matches!(self.mode, Mode::Pause | Mode::Settings) {
            if is_mouse_button_pressed(MouseButton::Left) && self.rebinding.is_none() {
                let s = ui::scale(screen);
                let rects = match self.mode {
                    Mode::Pause => ui::menu(
                        ui::PAUSE_TITLE,
                        &self.pause_labels(),
                        self.pause_selected,
                        screen,
                        s,
                        false,
                    ),
                    _ => ui::menu(
                        ui::SETTINGS_TITLE,
                        &self.settings_rows(),
                        self.settings_selected,
                        screen,
                        s,
                        false,
                    ),
                };
                if let Some(&(i, _)) = rects
                    .iter()
                    .find(|(_, r)| r.contains(vec2(mouse.0, mouse.1)))
                {
                    self.click_entry(i, screen, now);
                }
            }
            return true;
        }
        if self.mode == Mode::Help {
            return true;
        }
        if self.mode == Mode::Start {
            if is_mouse_button_pressed(MouseButton::Left) && !self.start.naming() {
                let (title, rows) = self.start_rows();
                let rects = ui::menu(
                    &title,
                    &rows,
                    self.start.selected,
                    screen,
                    ui::scale(screen),
                    false,
                );
                if let Some(&(i, _)) = rects
                    .iter()
                    .find(|(_, r)| r.contains(vec2(mouse.0, mouse.1)))
                {
                    self.act(Action::ChooseEntry(i), screen, now);
                }
            }
            return true;
        }
        if self.mode == Mode::Confirm {
            if is_mouse_button_pressed(MouseButton::Left)
                && let Some(r) = &self.confirm
            {
                let q = crate::game::worlds::guard::question(r);
                let rects = ui::confirm_rects(&q, screen, ui::scale(screen));
                if let Some(&(a, _)) = rects
                    .iter()
                    .find(|(_, r)| r.contains(vec2(mouse.0, mouse.1)))
                {
                    self.answer(a, now);
                }
            }
            return true;
        }
        if self.mode == Mode::PresetMenu && is_mouse_button_pressed(MouseButton::Left) {
            let p = &self.presets;
            let label = |i: usize| p.list[i].label();
            let (n, sel) = (p.list.len(), self.menu_selected);
            let rects = ui::preset_menu(n, &label, sel, None, &self.layout(screen), false);
            if let Some(&(i, _)) = rects
                .iter()
                .find(|(_, r)| r.contains(vec2(mouse.0, mouse.1)))
            {
                self.choose_preset(i, now);
            }
            return true;
        }
        false
    }

    /// The menu or dialog open, if one is, over the HUD.
    pub fn draw_menus(&self, lay: &Layout, screen: (f32, f32)) {
        let s = lay.s;
        match self.mode {
            Mode::PresetMenu => {
                let p = &self.presets;
                let label = |i: usize| p.list[i].label();
                let (n, sel) = (p.list.len(), self.menu_selected);
                ui::preset_menu(n, &label, sel, p.current(), lay, true);
            }
            Mode::SeedBox => ui::seed_box(&self.seed_box.text, self.seed_box.seed(), screen, s),
            Mode::LoadList => {
                if let Some(list) = &self.load_list {
                    let now = std::time::SystemTime::now();
                    let lines: Vec<String> = list
                        .entries
                        .iter()
                        .map(|e| crate::game::worlds::saves::describe(e, now))
                        .collect();
                    ui::load_list(
                        &self.saves_dir,
                        &lines,
                        &self.thumbs,
                        list.selected,
                        screen,
                        s,
                    );
                }
            }
            Mode::Pause => {
                ui::menu(
                    ui::PAUSE_TITLE,
                    &self.pause_labels(),
                    self.pause_selected,
                    screen,
                    s,
                    true,
                );
            }
            Mode::Settings => {
                ui::menu(
                    ui::SETTINGS_TITLE,
                    &self.settings_rows(),
                    self.settings_selected,
                    screen,
                    s,
                    true,
                );
            }
            Mode::Help => {
                let lines = crate::game::ui::menus::help_lines(&self.settings.keys);
                ui::help(&lines, &self.settings_path.display().to_string(), lay);
            }
            Mode::Confirm => {
                if let Some(r) = &self.confirm {
                    ui::confirm(
                        &crate::game::worlds::guard::question(r),
                        mouse_position(),
                        screen,
                        s,
                    );
                }
            }
            Mode::Join => {
                let f = &self.join_form;
                ui::form(ui::JOIN_TITLE, &f.rows(), f.focus, screen, s);
            }
            Mode::Host => {
                let f = &self.host_form;
                ui::form(ui::HOST_TITLE, &f.rows(), f.focus, screen, s);
            }
            Mode::Start => {
                let (title, rows) = self.start_rows();
                ui::menu(&title, &rows, self.start.selected, screen, s, true);
            }
            Mode::World | Mode::Lab | Mode::Inventory | Mode::Chat => {}
        }
    }

    /// The settings menu's rows as text.
    pub fn settings_rows(&self) -> Vec<String> {
        menus::rows()
            .into_iter()
            .map(|r| menus::row_text(r, &self.settings, self.rebinding))
            .collect()
    }
}
