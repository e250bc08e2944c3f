//! The game's state between frames and what the player's actions do to it.

mod character;
mod chat;
pub mod crowd;
mod forms;
mod inventory;
mod journal;
mod lab;
pub mod play;
mod start;
mod world;

use super::app::play::Play;
use super::draw::camera::{self, Camera};
use super::draw::lighting::LightView;
use super::input::{Action, Mode, Mods, Press};
use super::settings::{Command, Settings};
use super::ui::seedbox::SeedBox;
use super::worlds::guard::{self, Answer, Decision, Replace};
use super::worlds::presets::Presets;
use super::worlds::saves::LoadList;
use super::worlds::state::{Loaded, level_for};
use super::worlds::worker::{Generated, Outcome, Source, Worker};
use crate::launch;
use crate::store::save;
use crate::worldgen::PASSES;
use std::time::{Duration, Instant};

/// How the world was made, for the log: `passes N ms` for a generated world, `read N ms`
/// for one from a save (which ran no passes).
pub fn made_in(timings: &[crate::worldgen::PassTiming], loaded: bool) -> String {
    let sum = |names: &[&str]| -> f64 {
        timings
            .iter()
            .filter(|t| names.contains(&t.name))
            .map(|t| t.ms)
            .fold(0.0, |a, b| a + b)
    };
    if loaded {
        format!("read {:.0} ms", sum(&["load"]))
    } else {
        let names: Vec<&str> = PASSES.iter().map(|p| p.name).collect();
        format!("passes {:.0} ms", sum(&names))
    }
}

/// Keeps a camera in the world; the play camera (`follow`) with the world's floor above
/// the HUD.
///
/// With the lab's panel open (`mode`) the world is kept in the room left of it.
pub fn clamp_for(
    cam: &mut Camera,
    (follow, mode): (bool, Mode),
    size: (usize, usize),
    screen: (f32, f32),
) {
    let lay = room_layout(mode == Mode::Lab, screen);
    let floor = if follow { lay.bottom_px() } else { 0.0 };
    cam.clamp_in(size, screen, view(&lay), floor);
}

/// The layout of the HUD alone, with or without the lab's panel: where the world is seen.
fn room_layout(lab: bool, screen: (f32, f32)) -> super::ui::layout::Layout {
    let open = super::ui::layout::Open {
        lab,
        ..Default::default()
    };
    super::ui::layout::layout(screen, super::ui::scale(screen), &open)
}

/// The room of the layout as the camera takes it.
fn view(lay: &super::ui::layout::Layout) -> (f32, f32, f32, f32) {
    let r = lay.room;
    (r.x, r.y, r.w, r.h)
}

/// The whole world, fitted to where it is seen (left of the lab's panel while it is open).
pub fn fit_for(size: (usize, usize), lab: bool, screen: (f32, f32)) -> Camera {
    Camera::fit_in(size, screen, view(&room_layout(lab, screen)))
}

/// Time per frame spent uploading chunk textures of a new world.
pub const UPLOAD_BUDGET: Duration = Duration::from_micros(2500);

pub struct App {
    pub presets: Presets,
    pub worker: Worker,
    /// The world on screen.
    pub shown: Option<Loaded>,
    /// A finished world whose visible chunks are still going up to the GPU.
    /// With when it was asked for, when it was ready and its tile hash.
    pub incoming: Option<(Loaded, Camera, (Instant, Instant, u64))>,
    pub cam: Camera,
    pub mode: Mode,
    pub overlay: bool,
    pub menu_selected: usize,
    pub seed_box: SeedBox,
    /// The chat line, while open ([`Mode::Chat`]).
    pub chat_line: super::ui::chat::ChatLine,
    /// The Join form ([`Mode::Join`]).
    pub join_form: super::ui::joinform::JoinForm,
    /// The form of Open to the network ([`Mode::Host`]).
    pub host_form: super::online::host::HostForm,
    /// The world on screen being opened to the network (its untouched world being made).
    pub opening: Option<super::online::host::Opening>,
    /// Seed of the latest request.
    pub seed: u64,
    pub toast: Option<(String, f64)>,
    /// Request → new world on screen, for the last swap.
    pub regen_ms: Option<f64>,
    /// The camera follows the player (play); otherwise it is the free viewer camera.
    pub follow: bool,
    pub minimap: bool,
    /// How near the minimap shows the world around the player (1: all of it; the mouse
    /// wheel over it changes it, see [`crate::game::ui::minimap::zoomed`]).
    pub minimap_zoom: f64,
    pub play: Play,
    pub light_view: LightView,
    /// The sky behind the world (its texture, the world's biome runs).
    pub sky: super::draw::sky::Sky,
    /// Dust, leaves and splashes (looks only).
    pub particles: super::draw::particles::Particles,
    /// The fog over the unexplored map (minimap and map view).
    pub fog: super::draw::fog::FogView,
    /// Counts worlds swapped in, so views of one world are not reused for the next.
    pub world_id: usize,
    /// The load list (L), while open, and its thumbnails as textures.
    pub load_list: Option<LoadList>,
    pub thumbs: Vec<Option<macroquad::texture::Texture2D>>,
    /// The request waiting for the player's answer (unsaved edits), in [`Mode::Confirm`].
    pub confirm: Option<Replace>,
    /// The request to carry out once the world on screen is saved.
    pub after_save: Option<Replace>,
    /// A save wanted as soon as the one being written is done (before `after_save`).
    save_requested: bool,
    /// When the world on screen was last saved, loaded, made, or autosaving was tried.
    pub last_save: f64,
    /// Seconds between autosaves; `None`: off.
    pub autosave_every: Option<f64>,
    /// The save before quitting failed: the next close request quits without it.
    pub quit_failed: bool,
    /// The journal of the world on screen, once it has a save.
    pub journal: journal::Keeper,
    /// The world lab (F2), once opened: its edits stay while the panel is closed.
    pub lab: Option<super::lab::Lab>,
    /// The player's settings, and the file they are saved to.
    pub settings: Settings,
    pub settings_path: std::path::PathBuf,
    /// The saves folder: F5, the autosave and the close request write there, F9 and the
    /// load list read there.
    pub saves_dir: std::path::PathBuf,
    /// The mods folder: F7 reads it again ([`App::reload_content`]).
    pub mods_dir: std::path::PathBuf,
    /// Bumped when the settings change, so the frame loop applies them.
    pub settings_version: u64,
    /// Highlighted entries of the pause and settings menus.
    pub pause_selected: usize,
    pub settings_selected: usize,
    /// The command waiting for its new key in the settings menu.
    pub rebinding: Option<Command>,
    /// The help screen was opened from the pause menu (Esc goes back there).
    help_from_pause: bool,
    /// Quit was chosen in the pause menu.
    pub quit: bool,
    /// The server this window joined is gone: its screen ([`super::online::lost`]).
    pub lost: Option<super::online::lost::Lost>,
    /// The lab's noise overlay and Find marks.
    pub lab_gfx: super::lab::gfx::LabGfx,
    /// The window has the keyboard focus (from its events, each frame).
    pub focused: bool,
    /// The character being played, if one was picked ([`character`]).
    pub character: character::Playing,
    /// The characters folder: the character's file is written there.
    pub characters_dir: std::path::PathBuf,
    /// The start screen ([`Mode::Start`]): a character, then a world.
    pub start: start::StartScreen,
}

impl App {
    /// A game on a new world from `presets` and `seed`, or on `start` (a loaded save), with
    /// the built-in content (the tests' game).
    #[cfg(test)]
    pub fn new(
        presets: Presets,
        seed: u64,
        overlay: bool,
        start: Option<Source>,
        folders: &crate::base::paths::Folders,
    ) -> App {
        let content = std::sync::Arc::new(crate::content::config::Content::builtin());
        App::with_content(content, presets, seed, overlay, start, folders)
    }

    /// [`App::new`] playing with `content` (the game's: built-in files and mods).
    pub fn with_content(
        content: std::sync::Arc<crate::content::config::Content>,
        presets: Presets,
        seed: u64,
        overlay: bool,
        start: Option<Source>,
        folders: &crate::base::paths::Folders,
    ) -> App {
        let mut app = App {
            presets,
            worker: Worker::default(),
            shown: None,
            incoming: None,
            cam: Camera {
                cx: 0.0,
                cy: 0.0,
                zoom: 1.0,
            },
            mode: Mode::World,
            overlay,
            menu_selected: 0,
            seed_box: SeedBox::default(),
            chat_line: Default::default(),
            join_form: Default::default(),
            host_form: Default::default(),
            opening: None,
            seed,
            toast: None,
            regen_ms: None,
            follow: true,
            minimap: false,
            minimap_zoom: 1.0,
            play: Play::default(),
            light_view: LightView::default(),
            sky: Default::default(),
            particles: Default::default(),
            fog: Default::default(),
            world_id: 0,
            load_list: None,
            thumbs: Vec::new(),
            confirm: None,
            after_save: None,
            save_requested: false,
            last_save: 0.0,
            autosave_every: Some(guard::AUTOSAVE_MINUTES * 60.0),
            quit_failed: false,
            journal: Default::default(),
            lab: None,
            settings: Settings::default(),
            settings_path: folders.settings.clone(),
            saves_dir: folders.saves.clone(),
            mods_dir: folders.mods.clone(),
            settings_version: 0,
            pause_selected: 0,
            settings_selected: 0,
            rebinding: None,
            help_from_pause: false,
            quit: false,
            lost: None,
            lab_gfx: Default::default(),
            focused: true,
            character: Default::default(),
            characters_dir: folders.characters.clone(),
            start: Default::default(),
        };
        app.worker.content = content;
        match start {
            Some(source) => app.worker.start_from(source),
            None => app.generate(seed),
        }
        app
    }

    /// The chest the local player has open, if any.
    pub fn open_chest(&self) -> Option<(usize, usize)> {
        self.shown.as_ref().and_then(|w| w.me().chest)
    }

    /// Where every panel goes on a window of `screen`, with what is open now.
    pub fn layout(&self, screen: (f32, f32)) -> super::ui::layout::Layout {
        let open = super::ui::layout::Open {
            world: self.shown.as_ref().map_or((1, 1), |w| w.size()),
            minimap: self.minimap && self.shown.is_some(),
            vitals: self.follow && self.shown.is_some(),
            inventory: self.mode == Mode::Inventory && self.shown.is_some(),
            chest: self.open_chest().is_some(),
            bank: self.open_chest().is_some_and(|(x, y)| {
                self.shown
                    .as_ref()
                    .is_some_and(|w| w.world().tile(x, y) == crate::world::Tile::PiggyBank)
            }),
            lab: self.mode == Mode::Lab,
            bases: self.mode == Mode::Lab
                && self.lab.as_ref().is_some_and(|l| {
                    l.noise.is_some() && l.noise_bases == super::lab::NoiseBases::SideBySide
                }),
            help: self.mode == Mode::Help,
            progress: self.worker.status().is_some() || self.incoming.is_some(),
            toast: self
                .toast
                .as_ref()
                .map(|(t, _)| super::ui::text_width(t, 1.0)),
            overlay: self.overlay && self.shown.is_some(),
        };
        super::ui::layout::layout(screen, super::ui::scale(screen), &open)
    }

    /// Starts generating with the current preset; the world on screen stays until then.
    pub fn generate(&mut self, seed: u64) {
        self.seed = seed;
        self.worker.start(self.presets.preset.clone(), seed);
    }

    fn say(&mut self, text: String, now: f64) {
        self.toast = Some((text, now + 2.5));
    }

    /// Why the world stands still this frame, if it does ([`super::input::halt`]).
    /// A server's world does not stop for one player's menu or focus.
    pub fn halt(&self) -> Option<super::input::Halt> {
        if self.play.remote.is_some() || self.play.host.is_some() {
            return None;
        }
        super::input::halt(self.mode, self.focused, self.settings.pause_unfocused)
    }

    /// A key press, in the order presses came: the new key of the command the settings
    /// menu waits for, else the key's action in the current mode, else the lab's key.
    pub fn key(
        &mut self,
        key: macroquad::input::KeyCode,
        mods: Mods,
        screen: (f32, f32),
        now: f64,
    ) {
        if self.lost.is_some() {
            self.lost_key(key, now);
        } else if self.rebinding.is_some() {
            self.bind_key(key, now);
        } else if let Some(a) = super::input::action(key, self.mode, mods, &self.settings.keys) {
            self.act(a, screen, now);
        } else if self.mode == Mode::Lab {
            self.lab_key(key, mods.ctrl, mods.shift, now);
        }
    }

    /// Key presses and typed characters, in the order they came. Characters go to the
    /// seed box or the lab's text entry only when it was open before these presses (the
    /// key that opens it is not typed into it), and not with Ctrl held. A menu's cursor
    /// that moved is logged (debug) as `menu MODE row N`.
    pub fn presses(&mut self, presses: &[Press], screen: (f32, f32), now: f64) {
        let was = self.mode;
        let naming = self.start.naming();
        let cursor = self.menu_cursor();
        for &p in presses {
            match p {
                Press::Key(key, mods) => self.key(key, mods, screen, now),
                Press::Char(c, mods) if !mods.ctrl && self.mode == was => match self.mode {
                    Mode::SeedBox => self.seed_box.type_char(c),
                    Mode::Chat => self.chat_line.type_char(c),
                    Mode::Join => self.join_form.field().type_char(c),
                    Mode::Host => self.host_form.field().type_char(c),
                    Mode::Lab => self.lab_char(c),
                    Mode::Start if naming => self.start.type_char(c),
                    _ => {}
                },
                Press::Char(..) => {}
            }
        }
        if self.menu_cursor() != cursor
            && let Some((mode, row)) = self.menu_cursor()
        {
            log::debug!("menu {mode:?} row {row}");
        }
    }

    /// An action: the chat line and the two forms take theirs first, a world others play
    /// in refuses what would replace it, then the world's keys ([`App::world_act`]), the
    /// files' ([`App::files_act`]), the inventory's and the menus'.
    pub fn act(&mut self, action: Action, screen: (f32, f32), now: f64) {
        if self.mode == Mode::Start && self.start_act(action, now) {
            return;
        }
        if self.mode == Mode::Chat && self.chat_key(action, now) {
            return;
        }
        if self.mode == Mode::Join && self.join_key(action, now) {
            return;
        }
        if self.mode == Mode::Host && self.host_key(action, now) {
            return;
        }
        if (self.play.host.is_some() || self.opening.is_some())
            && matches!(
                action,
                Action::Reseed
                    | Action::OpenSeedBox
                    | Action::Load
                    | Action::OpenLoadList
                    | Action::TogglePresetMenu
                    | Action::ToggleLab
            )
        {
            // Players are in this world: another one is not swapped in under them.
            self.say(
                "Not while open to the network (close it in the pause menu)".into(),
                now,
            );
            return;
        }
        if self.play.remote.is_some()
            && matches!(
                action,
                Action::Reseed
                    | Action::OpenSeedBox
                    | Action::Save
                    | Action::Load
                    | Action::OpenLoadList
                    | Action::TogglePresetMenu
                    | Action::ToggleLab
            )
        {
            // The server owns the world: it makes, saves and loads it.
            self.say("Not while joined to a server".into(), now);
            return;
        }
        if self.world_act(action, screen, now)
            || self.files_act(action, screen, now)
            || self.inventory_act(action, now)
        {
            return;
        }
        self.menu_act(action, screen, now);
    }

    /// F7: reads the content again (the built-in files, the rules `STRATA_RULES` names,
    /// the mods folder; a refused file is logged and skipped) and makes the world again
    /// with it, as a preset file's reload does (edits saved first). Not in a network
    /// game, where both sides must play with the same.
    pub fn reload_content(&mut self, now: f64) {
        if self.play.remote.is_some() || self.play.host.is_some() {
            let text = "Content is not reloaded in a network game";
            self.play.say(text, now);
            return;
        }
        let rules = std::env::var_os("STRATA_RULES");
        let (content, outcomes) = crate::content::config::Content::gather(
            rules.as_deref().map(std::path::Path::new),
            &self.mods_dir,
        );
        let skipped: Vec<String> = outcomes
            .into_iter()
            .filter_map(|o| o.result.err())
            .collect();
        for e in &skipped {
            log::warn!("{e}");
        }
        let counts = format!(
            "{} items, {} recipes",
            content.catalog.items.len(),
            content.catalog.recipes.len()
        );
        log::info!("content reloaded: {}", content.summary()[0]);
        let text = match skipped.len() {
            0 => format!("Content reloaded: {counts}"),
            n => format!("Content reloaded: {counts}; {n} file(s) skipped (see the log)"),
        };
        self.worker.content = std::sync::Arc::new(content);
        match &mut self.lab {
            Some(lab) if self.mode == Mode::Lab => {
                lab.status = text;
                lab.regenerate_now(now);
            }
            _ => {
                self.play.say(text, now);
                let preset = Box::new(self.presets.preset.clone());
                self.request(Replace::HotReload(preset), now);
            }
        }
    }

    /// Joins a server instead of playing alone: the world being made for this window is
    /// dropped, the server's is shown once it is whole.
    pub fn join(
        &mut self,
        opts: &crate::net::client::JoinOptions,
    ) -> Result<(), crate::net::client::JoinError> {
        self.worker.cancel();
        let content = std::sync::Arc::clone(&self.worker.content);
        // The servers' keys this window has seen, beside its saves (as SSH's known_hosts).
        let mut opts = opts.clone();
        if opts.known_servers.is_none() {
            opts.known_servers = Some(self.saves_dir.with_file_name("known_servers"));
        }
        let opts = &opts;
        self.play.remote = Some(super::online::remote::Remote::join(opts, content)?);
        log::info!("joining {} as {}", opts.addr, opts.name);
        Ok(())
    }

    /// Where the window is with the network (what the pause menu offers).
    pub fn net_state(&self) -> super::ui::menus::NetState {
        use super::ui::menus::NetState;
        match (&self.play.host, &self.opening, &self.play.remote) {
            (Some(h), ..) => NetState::Hosting {
                port: h.port,
                players: h.players(),
            },
            (None, Some(_), _) => NetState::Opening,
            (None, None, Some(_)) => NetState::Joined,
            (None, None, None) => NetState::Alone,
        }
    }

    /// The world opening (its untouched world made: the server starts, or says why
    /// not), or open: what its players said, and who joined or left.
    fn poll_host(&mut self, now: f64) {
        if let Some(o) = &self.opening
            && let Some(untouched) = o.poll()
        {
            let o = self.opening.take().unwrap_or_else(|| unreachable!());
            match &mut self.shown {
                Some(w) if w.serial == o.serial => {
                    match super::online::host::Host::open(w, &o.opts, untouched, &self.saves_dir) {
                        Ok(h) => {
                            let text = format!("Open to the network on port {}", h.port);
                            self.play.say(text, now);
                            self.play.host = Some(h);
                        }
                        Err(e) => {
                            log::warn!("not opened to the network: {e}");
                            self.play
                                .say(format!("Not opened to the network: {e}"), now);
                        }
                    }
                }
                _ => self.play.say("Not opened: the world changed", now),
            }
        }
        if let (Some(h), Some(w)) = (&mut self.play.host, &self.shown) {
            for said in h.poll(w, &mut self.play.roster) {
                self.play.chat.push(said, now);
            }
        }
    }

    /// Closes the world to the network (or stops opening it): the players are told and
    /// dropped, the world stays.
    fn close_host(&mut self, now: f64) {
        self.opening = None;
        let (Some(h), Some(w)) = (self.play.host.take(), &mut self.shown) else {
            return;
        };
        let n = h.close(w, &mut self.play.roster);
        let s = if n == 1 { "" } else { "s" };
        self.play.say(
            format!("Closed to the network ({n} player{s} dropped)"),
            now,
        );
    }

    /// What the server sent since the last frame: chat, joins and leaves into the chat,
    /// notices under the hotbar, the whole world to the worker to be shown.
    fn poll_remote(&mut self, now: f64) {
        let Some(r) = &mut self.play.remote else {
            return;
        };
        let heard = r.poll(self.shown.as_mut(), &mut self.play.roster);
        let opts = r.opts.clone();
        for said in heard.said {
            self.play.chat.push(said, now);
        }
        for text in heard.notices {
            log::debug!("server notice: {text}");
            self.play.say(text, now);
        }
        if let Some((x, y)) = heard.chest_opened {
            eprintln!("strata: the server opened the chest at {x} {y}");
            self.play.chest_opened = true;
        }
        self.play.shop_opened |= heard.shop_opened;
        if let Some(source) = heard.ready {
            self.worker.start_from(source);
        }
        if let Some(why) = heard.closed {
            log::warn!("left the server: {why}");
            let text = format!("Disconnected: {why}");
            self.play
                .chat
                .push(super::ui::chat::Said::Server(text), now);
            // A first join that fails says so where the world would be; a world that was
            // being played gets the screen of a server gone.
            match &mut self.lost {
                Some(l) => l.why = why.to_string(),
                None if self.shown.is_some() => {
                    self.lost = Some(super::online::lost::Lost::new(why.to_string(), opts, now));
                }
                None => {}
            }
        }
        self.keep_trying(now);
    }

    /// While the server is gone: back when a try has the world again, else the next try
    /// when it is due ([`super::online::lost`]).
    fn keep_trying(&mut self, now: f64) {
        let Some(lost) = &mut self.lost else {
            return;
        };
        let phase = self.play.remote.as_ref().map(|r| r.client.phase().clone());
        match phase {
            Some(crate::net::client::Phase::Playing) => {
                log::info!("back on {} after {} tries", lost.opts.addr, lost.tries);
                self.lost = None;
            }
            Some(crate::net::client::Phase::Closed(_)) | None if lost.due(now) => {
                lost.tried(now);
                log::info!("reconnecting to {} (try {})", lost.opts.addr, lost.tries);
                match super::online::remote::Remote::join(
                    &lost.opts,
                    std::sync::Arc::clone(&self.worker.content),
                ) {
                    Ok(r) => self.play.remote = Some(r),
                    Err(e) => lost.why = e.to_string(),
                }
            }
            _ => {}
        }
    }

    /// A key while the server is gone: Reconnect now, or Leave (the server's world goes
    /// and a world of the window's own is made).
    fn lost_key(&mut self, key: macroquad::input::KeyCode, now: f64) {
        match super::online::lost::choice(key) {
            Some(super::online::lost::Choice::Reconnect) => {
                if let Some(l) = &mut self.lost {
                    l.next = now;
                }
                self.keep_trying(now);
            }
            Some(super::online::lost::Choice::Leave) => {
                log::info!("left the server");
                self.lost = None;
                self.play.remote = None;
                self.shown = None;
                self.mode = Mode::World;
                self.generate(self.seed);
            }
            None => {}
        }
    }

    /// Starts loading the save at `path` (the world on screen stays until it is in).
    fn load(&mut self, path: std::path::PathBuf, now: f64) {
        self.play.say(format!("Loading {}...", path.display()), now);
        // Loading gives up what changed since the save (F9), so the journal goes first:
        // the load would replay it.
        self.journal.close();
        self.worker.start_from(Source::File(path));
    }

    /// Does the world on screen have unsaved edits?
    pub fn unsaved(&self) -> bool {
        self.shown.as_ref().is_some_and(|s| s.unsaved())
    }

    /// A request to replace the world on screen: done at once, asked about, or done after
    /// a save ([`guard::decide`]).
    pub fn request(&mut self, r: Replace, now: f64) {
        if self.play.host.is_some() || self.opening.is_some() {
            let text = "Not while open to the network (close it in the pause menu)";
            self.play.say(text, now);
            return;
        }
        match guard::decide(self.unsaved(), &r) {
            Decision::Go => self.go(r, now),
            Decision::Ask => {
                self.confirm = Some(r);
                self.mode = Mode::Confirm;
            }
            Decision::SaveThenGo => self.save_then(r, now),
        }
    }

    /// The player answered the question about unsaved edits.
    pub fn answer(&mut self, a: Answer, now: f64) {
        self.mode = Mode::World;
        let Some(r) = self.confirm.take() else { return };
        match guard::answer(a) {
            Some(Decision::SaveThenGo) => self.save_then(r, now),
            Some(_) => self.go(r, now),
            None => self
                .play
                .say("Cancelled: the world and its edits stay", now),
        }
    }

    /// Saves the world on screen (after the save being written, if one is), then does `r`.
    fn save_then(&mut self, r: Replace, now: f64) {
        self.after_save = Some(r);
        self.save_requested = true;
        self.start_requested_save(now);
    }

    fn start_requested_save(&mut self, now: f64) {
        if !self.save_requested || self.play.is_saving() {
            return;
        }
        self.save_requested = false;
        let dir = &self.saves_dir;
        let started = self
            .shown
            .as_ref()
            .is_some_and(|s| self.play.save(s, dir, now));
        // No world to save: go on; a save that could not start keeps the world (the
        // message says why).
        if !started
            && let Some(r) = self.after_save.take()
            && self.shown.is_none()
        {
            self.go(r, now);
        }
    }

    /// Carries out a request (nothing to save, or saved, or the player said discard).
    fn go(&mut self, r: Replace, now: f64) {
        match r {
            Replace::Reseed => self.generate(launch::random_seed()),
            Replace::NewSeed(seed) => self.generate(seed),
            Replace::LoadNewest(path) | Replace::LoadFile(path) => self.load(path, now),
            Replace::Preset(i) => {
                if let Some(p) = self.presets.choose_index(i) {
                    self.worker.start(p, self.seed);
                }
            }
            Replace::HotReload(p) => self.worker.start(*p, self.seed),
        }
    }

    /// A save finished: marks the world saved, and carries out what waited for it (a
    /// failed save cancels that: the world stays).
    fn saved(&mut self, done: super::app::play::SaveDone, now: f64) {
        // The character is kept with each save of the world it is in.
        if done.result.is_ok() && self.shown.as_ref().is_some_and(|s| s.serial == done.serial) {
            self.keep_character(now);
        }
        if let Some(s) = &mut self.shown {
            done.apply(s);
            if let Some(m) = self.play.saved_moment.take() {
                self.journal.saved(m, s, now);
            }

            // The players' characters are kept with each save of the world they are in.
            if let Some(h) = &mut self.play.host
                && done.result.is_ok()
            {
                h.keep_characters(s);
            }
        }
        if self.save_requested {
            // Another save is wanted first (this one began before the request).
            self.start_requested_save(now);
            return;
        }
        let Some(r) = self.after_save.take() else {
            return;
        };
        match &done.result {
            Ok((path, _)) => {
                self.play.say(guard::saved_before(&r, path), now);
                self.go(r, now);
            }
            Err(e) => self
                .play
                .say(format!("Save failed, so the world stays: {e}"), now),
        }
    }

    /// The window's close request: saves unsaved edits first. Returns whether to quit
    /// (false when that save failed: the game says so, and the next request quits).
    pub fn quit_requested(&mut self, now: f64) -> bool {
        self.close_host(now);
        if let Some(done) = self.play.wait_save(now) {
            self.after_save = None;
            self.saved(done, now);
        }
        self.keep_character(now);
        if !guard::on_quit(self.unsaved(), self.quit_failed) {
            // A clean quit: the save holds the world (the journal only the player's
            // walk since, which a save never kept either).
            if !self.quit_failed {
                self.journal.close();
            }
            return true;
        }
        let Some(s) = &mut self.shown else {
            return true;
        };
        let path = save::save_path(&self.saves_dir, &s.session.world);
        match save::save_keeping_backup(&path, &s.session.world, &s.player_state()) {
            Ok(_) => {
                s.saved_edits = s.session.edits;
                log::info!("saved {}", path.display());
                log::info!("quit after saving the edits");
                self.journal.close();
                true
            }
            Err(e) => {
                log::error!("save on quit failed: {e}");
                self.play.say(
                    format!("Could not save ({e}); close again to quit without saving"),
                    now,
                );
                self.quit_failed = true;
                false
            }
        }
    }

    /// Per-frame bookkeeping: hot reload, finished worlds, texture uploads, the swap.
    pub fn update(&mut self, screen: (f32, f32), now: f64) {
        self.poll_remote(now);
        self.poll_host(now);
        if let Some(p) = self.presets.poll(now) {
            self.request(Replace::HotReload(Box::new(p)), now);
        }
        if let Some(done) = self.play.poll_save(now) {
            self.last_save = now;
            self.saved(done, now);
        }
        self.journal.tick(self.shown.as_ref(), now);
        self.keep_character_in_time(now);
        if let Some(s) = &self.shown
            && guard::autosave_due(
                s.unsaved(),
                self.play.is_saving(),
                self.last_save,
                now,
                self.autosave_every,
            )
        {
            self.last_save = now;
            self.play.save_as(s, &self.saves_dir, now, true);
        }
        self.lab_update(now);
        match self.worker.poll() {
            Some(Outcome::Ready(g)) => self.receive(*g, screen),
            Some(Outcome::Failed(e)) => {
                log::warn!("load failed: {e}");
                self.play.say(format!("Load failed: {e}"), now);
                self.back_to_start(&e);
            }
            None => {}
        }
        let ready = match &mut self.incoming {
            Some((l, cam, _)) => {
                let v = cam.visible_tiles(l.size(), screen);
                l.upload(level_for(cam.zoom), (v.x0, v.y0, v.x1, v.y1), UPLOAD_BUDGET)
            }
            None => false,
        };
        if ready {
            if let Some((l, cam, (requested, ready, hash))) = self.incoming.take() {
                let ms = requested.elapsed().as_secs_f64() * 1e3;
                let ready_ms = (ready - requested).as_secs_f64() * 1e3;
                log::info!(
                    "seed {} ({}) on screen {ms:.0} ms after the request \
                     ({}, ready at {ready_ms:.0} ms) hash {hash:016x}",
                    l.session.world.seed,
                    l.session.world.preset.name,
                    made_in(&l.timings, l.loaded_from.is_some())
                );
                self.lab_swapped(now, hash);
                self.regen_ms = Some(ms);
                if let Some(path) = &l.loaded_from {
                    log::info!("loaded {}", path.display());
                    self.play.say(format!("Loaded {}", path.display()), now);
                }
                self.world_id += 1;
                self.play.target = None;
                self.play.roster = Default::default();
                self.last_save = now;
                let mut l = l;
                self.carry_character(&mut l, now);
                self.journal.shown(&mut l, now);
                if let Some(old) = self.shown.replace(l) {
                    // Free the old tiles and runs (tens of MB) off the render thread; its
                    // textures must go here, with the GL context.
                    // The re-analysis thread may be mid-analysis: join it there too.
                    let Loaded {
                        session,
                        report,
                        reanalyser,
                        ..
                    } = old;
                    let _ = std::thread::Builder::new()
                        .spawn(move || drop((session, report, reanalyser)));
                }
                self.cam = cam;
            }
        } else if let Some(s) = &mut self.shown
            && s.levels.iter().any(|l| l.missing() > 0)
        {
            let v = self.cam.visible_tiles(s.size(), screen);
            s.upload(
                level_for(self.cam.zoom),
                (v.x0, v.y0, v.x1, v.y1),
                UPLOAD_BUDGET,
            );
        }
        // Flowing water moves with the session's ticks (in play's step, which a halted
        // world does not run).
        if let Some(s) = &mut self.shown {
            s.refresh();
        }
        if let Some(list) = &mut self.start.worlds {
            list.poll();
        }
        if let Some(list) = &mut self.load_list
            && list.poll() > 0
        {
            // Thumbnails of the saves read so far, uploaded once each.
            self.thumbs.resize(list.entries.len(), None);
            for (e, t) in list.entries.iter().zip(&mut self.thumbs) {
                if let (None, Some(Ok(s))) = (&t, &e.summary) {
                    let (w, h, px) = &s.thumb;
                    let tex = macroquad::texture::Texture2D::from_rgba8(*w as u16, *h as u16, px);
                    tex.set_filter(macroquad::texture::FilterMode::Nearest);
                    *t = Some(tex);
                }
            }
        }
        if self.toast.as_ref().is_some_and(|t| now > t.1) {
            self.toast = None;
        }
        // Also while the world stands still behind a menu (play does not step then).
        if self.play.notice.as_ref().is_some_and(|n| now > n.1) {
            self.play.notice = None;
        }
    }

    /// A world arrived from the worker: keep the view for a same-sized world, else start
    /// at the spawn point (in the lab, with the whole world fitted beside its panel).
    fn receive(&mut self, g: Generated, screen: (f32, f32)) {
        let stamps = (g.requested, g.ready, g.hash);
        let l = Loaded::new(g);
        if l.loaded_from.is_some() {
            // R after a load reseeds the save's preset.
            self.presets.adopt(l.session.world.preset.clone());
        }
        // The preset menu and the preset file's reloads regenerate at the seed on screen.
        self.seed = l.session.world.seed;
        let same_size = self.shown.as_ref().is_some_and(|s| s.size() == l.size());
        let mut cam = if self.follow {
            let c = l.session.me().body.centre();
            Camera::play((c.0 as f64, c.1 as f64))
        } else if same_size {
            self.cam
        } else if self.mode == Mode::Lab {
            fit_for(l.size(), true, screen)
        } else {
            camera::home(
                l.session.world.width(),
                &l.session.world.surface,
                l.size(),
                screen,
            )
        };
        clamp_for(&mut cam, (self.follow, self.mode), l.size(), screen);
        self.incoming = Some((l, cam, stamps));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::input::Action;
    use crate::game::ui::menus;
    use crate::game::worlds::state::tests::loaded;

    /// The player's folders as a run without `--home` finds them.
    fn home() -> crate::base::paths::Folders {
        crate::base::paths::Folders::for_run(None)
    }

    #[test]
    fn the_log_says_how_a_world_was_made_without_a_negative_zero() {
        use crate::worldgen::PassTiming;
        assert_eq!(made_in(&[], true), "read 0 ms");
        let t = [PassTiming {
            name: "load",
            ms: 12.4,
        }];
        assert_eq!(made_in(&t, true), "read 12 ms");
        let t = [
            PassTiming {
                name: PASSES[0].name,
                ms: 2.0,
            },
            PassTiming {
                name: "connectivity",
                ms: 9.0,
            },
        ];
        assert_eq!(made_in(&t, false), "passes 2 ms");
        assert_eq!(made_in(&[], false), "passes 0 ms");
    }

    #[test]
    fn a_request_over_unsaved_edits_waits_for_the_answer() {
        let d = std::env::temp_dir().join(format!("strata-app-ask-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let presets = Presets::open(d.clone(), None);
        let mut app = App::new(presets, 5, false, None, &home());
        let mut l = loaded();
        let seed = l.session.world.seed;
        app.seed = seed;
        // Without edits a new seed goes ahead at once.
        app.shown = Some(l);
        app.request(Replace::NewSeed(11), 1.0);
        assert_eq!((app.mode, app.seed), (Mode::World, 11));
        app.seed = seed;
        l = app.shown.take().unwrap();
        let (x, y) = (300, l.session.world.surface[300] as usize);
        l.set_tile(x, y, crate::world::Tile::Air);
        app.shown = Some(l);
        // With one, it waits; keys other than the answers do nothing to it.
        app.request(Replace::NewSeed(12), 2.0);
        assert_eq!((app.mode, app.seed), (Mode::Confirm, seed));
        assert_eq!(app.confirm, Some(Replace::NewSeed(12)));
        app.answer(Answer::Cancel, 3.0);
        assert_eq!(
            (app.mode, app.seed, app.confirm.clone()),
            (Mode::World, seed, None)
        );
        assert!(app.unsaved(), "cancel keeps the edits");
        app.request(Replace::NewSeed(13), 4.0);
        app.answer(Answer::Discard, 5.0);
        assert_eq!((app.mode, app.seed), (Mode::World, 13));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_pause_menu_leads_to_settings_that_rebind_keys_and_save_them() {
        let d = std::env::temp_dir().join(format!("strata-app-menu-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let mut app = App::new(Presets::open(d.clone(), None), 5, false, None, &home());
        app.settings_path = d.join("config").join("settings.ron");
        let screen = (1280.0, 720.0);
        app.act(Action::OpenPause, screen, 0.0);
        assert!(app.mode == Mode::Pause && app.mode.pauses());
        app.act(Action::MenuDown, screen, 0.0);
        app.act(Action::Confirm, screen, 0.0);
        assert_eq!(app.mode, Mode::Settings);
        let jump = menus::rows()
            .iter()
            .position(|r| *r == menus::Row::Key(Command::Jump))
            .unwrap();
        for _ in 0..jump {
            app.act(Action::MenuDown, screen, 0.0);
        }
        app.act(Action::Confirm, screen, 0.0);
        assert_eq!(app.rebinding, Some(Command::Jump));
        app.bind_key(macroquad::input::KeyCode::J, 1.0);
        assert_eq!(app.rebinding, None);
        assert_eq!(app.settings.keys.describe(Command::Jump), "J, Space, W, Up");
        let (saved, why) = super::super::settings::load(&app.settings_path);
        assert_eq!(
            (saved, why),
            (app.settings.clone(), None),
            "written as it changed"
        );
        // Autosave every 5 minutes -> 10 with the right key.
        let autosave = menus::rows()
            .iter()
            .position(|r| *r == menus::Row::Autosave)
            .unwrap();
        app.act(Action::ChooseEntry(autosave), screen, 2.0);
        assert_eq!(app.autosave_every, Some(600.0));
        // Esc: back to the pause menu, then to the game; Quit from the menu.
        app.act(Action::Close, screen, 3.0);
        assert_eq!(app.mode, Mode::Pause);
        app.act(Action::OpenHelp, screen, 3.0);
        app.act(Action::Close, screen, 3.0);
        assert_eq!(
            app.mode,
            Mode::Pause,
            "help from the pause menu goes back to it"
        );
        app.act(Action::Close, screen, 3.0);
        assert_eq!(app.mode, Mode::World);
        app.act(Action::OpenPause, screen, 4.0);
        app.act(Action::ChooseEntry(6), screen, 4.0);
        assert!(app.quit);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_number_key_picks_a_commands_row_and_the_enter_that_opens_capture_is_not_taken() {
        use macroquad::input::KeyCode as K;
        let d = std::env::temp_dir().join(format!("strata-app-rebind-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let mut app = App::new(Presets::open(d.clone(), None), 5, false, None, &home());
        app.settings_path = d.join("settings.ron");
        let screen = (1280.0, 720.0);
        let press = |app: &mut App, k| app.key(k, Mods::default(), screen, 1.0);
        // Esc, 2 (Settings), 6 (Move left's row), then Enter as the row's hint says.
        let left = menus::rows()
            .iter()
            .position(|r| *r == menus::Row::Key(Command::Left))
            .unwrap();
        let digit = [K::Key1, K::Key2, K::Key3, K::Key4, K::Key5, K::Key6][left];
        for k in [K::Escape, K::Key2, digit] {
            press(&mut app, k);
        }
        assert_eq!((app.mode, app.settings_selected), (Mode::Settings, left));
        assert_eq!(
            app.rebinding, None,
            "the number key only highlights the row"
        );
        press(&mut app, K::Enter);
        assert_eq!(app.rebinding, Some(Command::Left));
        assert_eq!(app.settings.keys.describe(Command::Left), "A, Left");
        press(&mut app, K::J);
        assert_eq!(app.rebinding, None);
        assert_eq!(app.settings.keys.describe(Command::Left), "J, A, Left");
        assert_eq!(
            app.settings.keys.command(K::Enter),
            None,
            "Enter bound to nothing"
        );
        // Esc cancels the wait and leaves the keys; a click on the row waits at once.
        press(&mut app, K::Enter);
        press(&mut app, K::Escape);
        assert_eq!(
            (app.mode, app.rebinding),
            (Mode::Settings, None),
            "Esc cancelled the wait, not the menu"
        );
        assert_eq!(app.settings.keys.describe(Command::Left), "J, A, Left");
        app.click_entry(left, screen, 2.0);
        assert_eq!(app.rebinding, Some(Command::Left));
        press(&mut app, K::Enter);
        assert_eq!(
            app.settings.keys.describe(Command::Left),
            "Enter, J, A, Left",
            "Enter pressed while waiting is a key like any other"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn f7_reads_the_mods_folder_again_and_makes_the_world_with_what_it_holds() {
        use macroquad::input::KeyCode as K;
        let d = std::env::temp_dir().join(format!("strata-app-mods-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("mods")).unwrap();
        let folders = crate::base::paths::Folders {
            mods: d.join("mods"),
            ..home()
        };
        let mut app = App::new(Presets::open(d.clone(), None), 5, false, None, &folders);
        assert!(app.worker.content.catalog.id("gel_sword").is_none());
        let gel = "(items: [(name: \"gel_sword\", label: \"gel sword\", kind: Sword, \
                   damage: 12, reach: 2.0, cooldown: 0.4)])";
        std::fs::write(d.join("mods/a_gel.ron"), gel).unwrap();
        std::fs::write(d.join("mods/b_bad.ron"), "(rules: (day_minutes: -1.0))").unwrap();
        app.worker.cancel();
        app.shown = Some(loaded());
        let f7 = Press::Key(K::F7, Mods::default());
        app.presses(&[f7], (1280.0, 720.0), 1.0);
        let content = &app.worker.content;
        assert!(content.catalog.id("gel_sword").is_some(), "the mod is read");
        assert!(content.files.iter().any(|f| f.name == "mods/a_gel.ron"));
        assert!(
            !content.files.iter().any(|f| f.name == "mods/b_bad.ron"),
            "the bad mod is skipped whole"
        );
        let said = app.play.notice.as_ref().map(|n| n.0.clone());
        assert!(
            said.as_deref().is_some_and(
                |t| t.starts_with("Content reloaded") && t.contains("1 file(s) skipped")
            ),
            "{said:?}"
        );
        assert!(app.worker.status().is_some(), "the world is made again");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn the_pause_menus_join_form_joins_what_it_says_and_stops_playing_alone() {
        use macroquad::input::KeyCode as K;
        let d = std::env::temp_dir().join(format!("strata-app-join-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let mut app = App::new(Presets::open(d.clone(), None), 5, false, None, &home());
        let screen = (1280.0, 720.0);
        let none = Mods::default();
        let key = |k| Press::Key(k, none);
        let typed = |t: &str| t.chars().map(|c| Press::Char(c, none)).collect::<Vec<_>>();
        app.presses(&[key(K::Escape), key(K::Key5)], screen, 0.0);
        assert_eq!(app.mode, Mode::Join);
        assert!(
            app.mode.pauses(),
            "playing alone, the world waits behind the form"
        );
        app.presses(&typed("127.0.0.1:9"), screen, 0.1);
        app.presses(&[key(K::Tab)], screen, 0.2);
        // A bad name: the form stays, and says so.
        app.presses(&typed("A!"), screen, 0.3);
        app.presses(&[key(K::Enter)], screen, 0.4);
        assert_eq!(app.mode, Mode::Join);
        assert!(app.toast.as_ref().is_some_and(|t| t.0.starts_with("Name")));
        assert!(app.play.remote.is_none());
        app.presses(&[key(K::Backspace), key(K::Tab)], screen, 0.5);
        app.presses(&typed("pw"), screen, 0.6);
        assert_eq!(app.join_form.rows()[2], "Password: **");
        app.presses(&[key(K::Enter)], screen, 0.7);
        assert_eq!(app.mode, Mode::World);
        let r = app.play.remote.as_ref().expect("joining");
        assert_eq!((r.addr.as_str(), r.name.as_str()), ("127.0.0.1:9", "A"));
        assert!(app.shown.is_none() && app.worker.status().is_none());
        // Joined, the world never halts, and a new world of its own is refused.
        app.mode = Mode::Pause;
        assert_eq!(app.halt(), None);
        app.mode = Mode::World;
        app.act(Action::Reseed, screen, 1.0);
        assert!(app.worker.status().is_none(), "no world made");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn the_pause_menu_opens_the_world_to_the_network_and_closes_it_again() {
        use crate::game::ui::menus::NetState;
        use macroquad::input::KeyCode as K;
        let d = std::env::temp_dir().join(format!("strata-app-host-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let mut app = App::new(Presets::open(d.clone(), None), 5, false, None, &home());
        app.worker.cancel();
        app.saves_dir = d.join("saves");
        app.shown = Some(loaded());
        let screen = (1280.0, 720.0);
        let none = Mods::default();
        let key = |k| Press::Key(k, none);
        let typed = |t: &str| t.chars().map(|c| Press::Char(c, none)).collect::<Vec<_>>();
        app.presses(&[key(K::Escape), key(K::Key6)], screen, 0.0);
        assert_eq!(app.mode, Mode::Host);
        // A port that is no port: the form stays and says so.
        app.presses(&[key(K::Backspace); 4], screen, 0.1);
        app.presses(&typed("99999"), screen, 0.1);
        app.presses(&[key(K::Enter)], screen, 0.2);
        assert_eq!(app.mode, Mode::Host);
        assert!(app.toast.as_ref().is_some_and(|t| t.0.starts_with("Port:")));
        app.presses(&[key(K::Backspace); 5], screen, 0.3);
        app.presses(&typed("127.0.0.1:17813"), screen, 0.3);
        app.presses(&[key(K::Tab), key(K::Tab)], screen, 0.4);
        app.presses(&typed("pw"), screen, 0.4);
        app.presses(&[key(K::Enter)], screen, 0.5);
        assert_eq!(app.mode, Mode::World);
        assert_eq!(app.net_state(), NetState::Opening);
        let start = Instant::now();
        while app.play.host.is_none() && start.elapsed() < Duration::from_secs(30) {
            app.poll_host(1.0);
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(
            app.net_state(),
            NetState::Hosting {
                port: 17813,
                players: 0
            }
        );
        assert_eq!(app.pause_labels()[4], "Hosting on port 17813 (0 players)");
        // Open, the world never halts, and no other world replaces it.
        app.mode = Mode::Pause;
        assert_eq!(app.halt(), None);
        app.mode = Mode::World;
        app.act(Action::Reseed, screen, 1.5);
        assert!(app.worker.status().is_none(), "no world made");
        // Its ticks go through the server.
        let w = app.shown.as_mut().unwrap();
        let tick = w.session.tick;
        let input = crate::sim::player::Input::default();
        let none = super::super::app::play::Buttons::default();
        app.play.step(w, input, None, none, 0.1, 2.0);
        assert!(w.session.tick > tick);
        app.presses(&[key(K::Escape), key(K::Key6)], screen, 3.0);
        assert!(app.play.host.is_none());
        assert_eq!(app.net_state(), NetState::Alone);
        assert!(
            app.play
                .notice
                .as_ref()
                .is_some_and(|n| n.0 == "Closed to the network (0 players dropped)")
        );
        // The port is free again.
        drop(std::net::UdpSocket::bind("127.0.0.1:17813").expect("closed"));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn enter_opens_the_chat_typing_goes_into_it_and_enter_says_it() {
        use macroquad::input::KeyCode as K;
        let d = std::env::temp_dir().join(format!("strata-app-chat-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let mut app = App::new(Presets::open(d.clone(), None), 5, false, None, &home());
        let screen = (1280.0, 720.0);
        let none = Mods::default();
        let key = |k| Press::Key(k, none);
        let ch = |c| Press::Char(c, none);
        app.presses(&[key(K::Enter), ch('\r')], screen, 0.0);
        assert_eq!(app.mode, Mode::Chat);
        // R and I, keys of commands in play, are typed; the arrows move the cursor.
        let typed = [ch('h'), key(K::R), ch('r'), ch('i'), key(K::I), ch('!')];
        app.presses(&typed, screen, 1.0);
        app.presses(&[key(K::Left), key(K::Backspace), ch('I')], screen, 1.0);
        assert_eq!(
            (app.mode, app.chat_line.text.as_str()),
            (Mode::Chat, "hrI!")
        );
        app.presses(&[key(K::Enter)], screen, 2.0);
        assert_eq!(app.mode, Mode::World, "Enter sends and closes");
        let shown: Vec<String> = app
            .play
            .chat
            .shown(2.0, false, 10)
            .iter()
            .map(|l| l.text())
            .collect();
        assert_eq!(shown, vec!["<Player 1> hrI!"]);
        // Esc drops what was typed.
        app.presses(&[key(K::Enter), ch('x'), key(K::Escape)], screen, 3.0);
        app.presses(&[ch('y')], screen, 3.0);
        assert_eq!(app.play.chat.len(), 1);
        assert!(app.chat_line.text.is_empty());
        // A blank line says nothing.
        app.presses(&[key(K::Enter), ch(' '), key(K::Enter)], screen, 4.0);
        assert_eq!((app.mode, app.play.chat.len()), (Mode::World, 1));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn presses_are_taken_in_order_so_a_seed_typed_and_entered_within_a_frame_counts() {
        use macroquad::input::KeyCode as K;
        let d = std::env::temp_dir().join(format!("strata-app-order-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let mut app = App::new(Presets::open(d.clone(), None), 5, false, None, &home());
        let screen = (1280.0, 720.0);
        let (none, ctrl) = (
            Mods::default(),
            Mods {
                ctrl: true,
                ..Default::default()
            },
        );
        // T's own character (X11 sends it before the key) is not typed into the box it
        // opens, nor is anything else in the batch that opened it.
        app.presses(
            &[
                Press::Char('t', none),
                Press::Key(K::T, none),
                Press::Char('7', none),
            ],
            screen,
            0.0,
        );
        assert_eq!((app.mode, app.seed_box.text.as_str()), (Mode::SeedBox, ""));
        // 4, 2, a Ctrl chord's character, Enter: one frame's worth, in order.
        let batch = [
            Press::Char('4', none),
            Press::Key(K::Key4, none),
            Press::Char('2', none),
            Press::Key(K::Key2, none),
            Press::Char('x', ctrl),
            Press::Key(K::Enter, none),
        ];
        app.presses(&batch, screen, 1.0);
        assert_eq!(
            (app.mode, app.seed),
            (Mode::World, 42),
            "typed before Enter"
        );
        // 27 Down taps in one batch move the settings menu 27 rows (its last is 28).
        app.presses(
            &[Press::Key(K::Escape, none), Press::Key(K::Key2, none)],
            screen,
            2.0,
        );
        app.presses(&[Press::Key(K::Down, none); 27], screen, 2.0);
        assert_eq!(app.menu_cursor(), Some((Mode::Settings, 27)));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_world_halts_in_the_lab_and_when_the_window_loses_the_keyboard() {
        use crate::game::input::Halt;
        let d = std::env::temp_dir().join(format!("strata-app-halt-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let mut app = App::new(Presets::open(d.clone(), None), 5, false, None, &home());
        assert_eq!(app.halt(), None);
        app.mode = Mode::Lab;
        assert_eq!(app.halt(), Some(Halt::Lab));
        app.mode = Mode::World;
        app.focused = false;
        assert_eq!(app.halt(), Some(Halt::Unfocused));
        app.settings.pause_unfocused = false;
        assert_eq!(app.halt(), None);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_settings_file_that_did_not_load_survives_the_first_change_in_the_menu() {
        use super::super::settings::{self, Key};
        let d = std::env::temp_dir().join(format!("strata-app-badset-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let path = d.join("settings.ron");
        let text = "(keys: (jump: [\"J\"], left: [\"Q\"]), ui_scale: 9)";
        std::fs::write(&path, text).unwrap();
        let mut app = App::new(Presets::open(d.clone(), None), 5, false, None, &home());
        let (loaded, why) = settings::load(&path);
        assert!(why.is_some());
        (app.settings, app.settings_path) = (loaded, path.clone());
        // Esc, 2 (settings), Down, Right.
        let screen = (1280.0, 720.0);
        app.act(Action::OpenPause, screen, 0.0);
        app.act(Action::ChooseEntry(1), screen, 0.0);
        assert_eq!(app.mode, Mode::Settings);
        app.act(Action::MenuDown, screen, 0.0);
        app.act(Action::Adjust(1), screen, 0.0);
        assert_ne!(std::fs::read_to_string(&path).unwrap(), text, "written");
        assert_eq!(
            std::fs::read_to_string(d.join("settings.ron.bak")).unwrap(),
            text
        );
        let (now, why) = settings::load(&path);
        assert_eq!((&now, why), (&app.settings, None));
        let keys = |c| now.keys.keys(c).to_vec();
        assert_eq!(
            (keys(Command::Jump), keys(Command::Left)),
            (
                vec![Key(macroquad::input::KeyCode::J)],
                vec![Key(macroquad::input::KeyCode::Q)]
            ),
            "the bindings that loaded are kept"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// The next world the worker makes, waited for (tests have no window to upload it to).
    fn next_world(app: &mut App) -> Generated {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            match app.worker.poll() {
                Some(Outcome::Ready(g)) => return *g,
                Some(Outcome::Failed(e)) => panic!("{e}"),
                None => std::thread::sleep(Duration::from_millis(2)),
            }
        }
        panic!("no world in 60 s");
    }

    /// Waits for the save being written and hands it to the app.
    fn finish_save(app: &mut App, now: f64) {
        let done = app.play.wait_save(now).expect("a save was under way");
        app.saved(done, now);
    }

    /// Digs the tile `dx` columns right of the middle of the surface.
    fn dig(app: &mut App, dx: usize) -> (usize, usize) {
        let l = app.shown.as_mut().unwrap();
        let x = l.session.world.width() / 2 + dx;
        let at = (x, l.session.world.surface[x] as usize);
        l.set_tile(at.0, at.1, crate::world::Tile::Air);
        assert!(l.unsaved());
        at
    }

    #[test]
    fn two_worlds_of_one_seed_are_played_and_saved_each_to_its_own_file() {
        use crate::world::Tile;
        let d = std::env::temp_dir().join(format!("strata-app-twins-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let mut app = App::new(Presets::open(d.clone(), None), 5, false, None, &home());
        app.saves_dir = d.join("saves");
        let screen = (1280.0, 720.0);
        // World A, played: a dug tile, saved with F5.
        let a = loaded();
        let (seed, a_id) = (a.world().seed, a.world().id);
        app.presets.preset = a.world().preset.clone();
        app.shown = Some(a);
        let a_dug = dig(&mut app, 0);
        app.act(Action::Save, screen, 1.0);
        finish_save(&mut app, 1.0);
        let a_path = save::save_path(&app.saves_dir, app.shown.as_ref().unwrap().world());
        let a_bytes = std::fs::read(&a_path).unwrap();
        // More play, then the same seed typed in: save, then continue.
        let a_dug2 = dig(&mut app, 1);
        app.request(Replace::NewSeed(seed), 2.0);
        assert_eq!(app.mode, Mode::Confirm);
        app.answer(Answer::Save, 2.0);
        finish_save(&mut app, 2.0);
        // World B: the same preset and seed, a world of its own.
        let b = Loaded::new(next_world(&mut app));
        assert_eq!(
            (b.world().seed, b.world().preset.clone()),
            (seed, app.presets.preset.clone())
        );
        assert_eq!(
            b.world().tiles(),
            loaded().world().tiles(),
            "the same world, made again"
        );
        assert_ne!(b.world().id, a_id, "a new world has an identity of its own");
        app.shown = Some(b);
        let b_dug = dig(&mut app, 2);
        app.act(Action::Save, screen, 3.0);
        finish_save(&mut app, 3.0);
        let b_dug2 = dig(&mut app, 3);
        app.act(Action::Save, screen, 4.0);
        finish_save(&mut app, 4.0);
        let b_path = save::save_path(&app.saves_dir, app.shown.as_ref().unwrap().world());
        assert_ne!(a_path, b_path);
        // A's save and backup are A's: both its digs in the save, the first in the backup.
        let cat = std::sync::Arc::clone(&app.worker.content.catalog);
        let (wa, _) = save::load(&a_path, &cat).unwrap();
        let (wa_bak, _) = save::load(&save::backup_path(&a_path), &cat).unwrap();
        assert_eq!(std::fs::read(save::backup_path(&a_path)).unwrap(), a_bytes);
        let (wb, _) = save::load(&b_path, &cat).unwrap();
        let (wb_bak, _) = save::load(&save::backup_path(&b_path), &cat).unwrap();
        let dug = |w: &crate::world::World, at: &[(usize, usize)]| {
            at.iter()
                .map(|&(x, y)| w.tile(x, y) == Tile::Air)
                .collect::<Vec<_>>()
        };
        let all = [a_dug, a_dug2, b_dug, b_dug2];
        assert_eq!(dug(&wa, &all), [true, true, false, false], "A's save");
        assert_eq!(
            dug(&wa_bak, &all),
            [true, false, false, false],
            "A's backup"
        );
        assert_eq!(dug(&wb, &all), [false, false, true, true], "B's save");
        assert_eq!(
            dug(&wb_bak, &all),
            [false, false, true, false],
            "B's backup"
        );
        assert_eq!(
            (wa.id, wb.id),
            (a_id, app.shown.as_ref().unwrap().world().id)
        );
        // F9 loads B's own save, not A's.
        app.act(Action::Load, screen, 5.0);
        let g = next_world(&mut app);
        assert_eq!(g.loaded_from.as_deref(), Some(b_path.as_path()));
        assert_eq!(dug(&g.world, &all), [false, false, true, true]);
        // The load list shows both worlds of the seed (and their backups).
        let list = LoadList::open(&app.saves_dir, &app.worker.content.catalog);
        let mut paths: Vec<_> = list.entries.iter().map(|e| e.path.clone()).collect();
        paths.sort();
        let mut want = [
            a_path.clone(),
            save::backup_path(&a_path),
            b_path.clone(),
            save::backup_path(&b_path),
        ];
        want.sort();
        assert_eq!(paths, want);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_world_of_another_size_made_in_the_lab_is_fitted_beside_its_panel() {
        let d = std::env::temp_dir().join(format!("strata-app-labfit-{}", std::process::id()));
        let mut app = App::new(Presets::open(d, None), 5, false, None, &home());
        app.mode = Mode::Lab;
        app.follow = false;
        let screen = (1280.0, 720.0);
        let l = loaded();
        let size = l.size();
        app.receive(generated(l, None), screen);
        let cam = &app.incoming.as_ref().unwrap().1;
        let fit = fit_for(size, true, screen);
        assert_eq!((cam.cx, cam.cy, cam.zoom), (fit.cx, fit.cy, fit.zoom));
        // Outside the lab it starts at the spawn point, closer in.
        app.mode = Mode::World;
        app.receive(generated(loaded(), None), screen);
        assert!(app.incoming.as_ref().unwrap().1.zoom > fit.zoom);
    }

    /// What the worker sends for `l`.
    fn generated(l: Loaded, loaded_from: Option<std::path::PathBuf>) -> Generated {
        Generated {
            content: l.session.content,
            world: l.session.world,
            report: crate::analysis::CaveReport::clone(&l.report),
            timings: Vec::new(),
            overview: Vec::new(),
            light: l.session.light,
            air: crate::analysis::AirGrid::of(&crate::world::World::new(
                1,
                1,
                0,
                Default::default(),
            )),
            player: None,
            loaded_from,
            requested: Instant::now(),
            ready: Instant::now(),
            hash: 0,
        }
    }

    #[test]
    fn a_loaded_world_sets_the_seed_and_survives_a_touch_of_the_preset_file() {
        let d = std::env::temp_dir().join(format!("strata-app-load-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let f = d.join("tiny.ron");
        std::fs::write(&f, "(name: \"Tiny\", width: 64, height: 32)").unwrap();
        let presets = Presets::open(d.clone(), Some(f.clone()));
        let mut app = App::new(presets, 5, false, None, &home());
        // A save of another preset at another seed arrives.
        let l = loaded();
        let (seed, preset) = (l.session.world.seed, l.session.world.preset.clone());
        assert_ne!(seed, 5);
        app.receive(generated(l, Some(d.join("save.strata"))), (1280.0, 720.0));
        assert_eq!(app.seed, seed, "R-free regenerations use the loaded seed");
        assert_eq!(app.presets.preset, preset, "R uses the save's preset");
        // `touch` the watched file: the loaded world stays.
        let later = std::time::SystemTime::now() + Duration::from_secs(5);
        std::fs::File::options()
            .write(true)
            .open(&f)
            .unwrap()
            .set_modified(later)
            .unwrap();
        assert_eq!(app.presets.poll(100.0), None, "nothing to regenerate");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
