//! Playing in the world, the window's side of it: the frame's keys and buttons become
//! [`Intent`]s for the [`crate::sim::session::Session`] (one set a tick, as many ticks as the
//! frame's time holds), and what the session says is shown and logged: the notice under
//! the hotbar and the machine-readable log lines the window test reads (`player at ..`,
//! `jumps ..`, `dug ..`, `felled ..`, `placed ..`, `refused: ..`, `crafted ..`,
//! `crafting panel: ..`, `a slime appeared at ..`, `creatures: ..`, `killed a ..`,
//! `saved ..`). Saving in the background is here too. Engine-free: the frame loop passes
//! in held keys and buttons as plain values.

use crate::content::items::Catalog;
use crate::game::audio::cue::Event as Heard;
use crate::game::ui::invscreen;
use crate::game::worlds::state::Loaded;
use crate::sim::craft::{CraftRefusal, Stations};
use crate::sim::edit::{self, EditRefusal};
use crate::sim::player::Input;
use crate::sim::session::Changes;
use crate::sim::session::Event;
use crate::sim::session::Intent;
use crate::sim::session::LOCAL;
use crate::sim::session::Message;
use crate::sim::session::PlayerId;
use crate::store::save;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

/// Seconds a message under the hotbar stays.
pub const NOTICE_SECONDS: f64 = 2.0;

/// Seconds a sword swing shows.
pub const SWING_SHOWS: f64 = crate::sim::creatures::SWING_SECONDS as f64;

/// Mouse buttons this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Buttons {
    /// Dig (left) held.
    pub dig: bool,
    /// Place (right) held.
    pub place: bool,
    /// Place pressed this frame (it may already be released again).
    pub place_pressed: bool,
}

pub use crate::game::ui::hud::Target;

/// Play state that is not part of the world: messages, pending saves, log throttling.
#[derive(Default)]
pub struct Play {
    pub target: Option<Target>,
    /// A short message (refusals, saves, loads) and when it goes.
    pub notice: Option<(String, f64)>,
    saving: Option<Saving>,
    /// The moment the last save that worked holds, and its file: where the world's
    /// journal starts from ([`crate::store::journal::Journal::start`]).
    pub saved_moment: Option<SavedMoment>,
    /// Last `player at` line and when it was written.
    last_log: Option<String>,
    log_at: f64,
    /// What made a sound this frame, and where (tiles; `None`: the player's own), for the
    /// frame loop's [`crate::game::audio::Audio::frame`] to play and clear.
    pub heard: Vec<(Heard, Option<(f32, f32)>)>,
    /// The last `guide at` log line.
    last_guide: Option<String>,
    /// The last `death screen:` log line (while the death screen shows).
    last_death: Option<String>,
    /// The tile under the mouse this frame (what X asks about).
    pub aimed: Option<(i64, i64)>,
    /// Half the view in tiles (creatures spawn outside it); set by the frame loop.
    pub view_half: (f32, f32),
    /// Until when the last sword swing shows.
    pub swing_until: f64,
    /// Bombs' blasts while their flash shows: where, how wide, when.
    pub blasts: Vec<((f32, f32), f32, f64)>,
    /// The highlighted row of the crafting panel.
    pub recipe_selected: usize,
    /// The crafting panel's first row shown when it holds more than fit: moved only to
    /// keep the highlight in view ([`recipe_first`](Play::recipe_first)).
    recipe_first: std::cell::Cell<usize>,
    /// The crafting panel's recipes in their rows since the inventory screen opened (see
    /// [`invscreen::keep_places`]).
    panel: Vec<usize>,
    /// Last `creatures:` line and when the next may be written.
    last_creatures: Option<String>,
    creatures_log_at: f64,
    /// A chest was opened this frame: the frame loop opens the inventory screen.
    pub chest_opened: bool,
    /// The Merchant's shop was opened this frame: the frame loop opens the inventory
    /// screen.
    pub shop_opened: bool,
    /// Jump presses and button presses of frames that ran no tick yet: the next tick
    /// gets them (a quick tap between two ticks counts).
    presses: u8,
    place_pressed: bool,
    use_pressed: bool,
    /// Damage numbers floating up from the hits of the last second.
    pub floaters: crate::game::draw::motion::Floaters,
    /// The players' names and swings, as drawn and listed.
    pub roster: crate::game::online::players::Roster,
    /// The chat's lines and the join and leave messages.
    pub chat: crate::game::ui::chat::ChatLog,
    /// The server this game is joined to (`--join`): ticks go there instead of the
    /// window's session stepping.
    pub remote: Option<crate::game::online::remote::Remote>,
    /// This window's world open to the network: ticks go through its server.
    pub host: Option<crate::game::online::host::Host>,
}

/// The middle of tile `(x, y)`, where its sounds come from.
fn at_tile(x: i64, y: i64) -> Option<(f32, f32)> {
    Some((x as f32 + 0.5, y as f32 + 0.5))
}

/// What the local player hears of a session event, and where (`None`: the player's own
/// sound). A body's jumps, landings, splashes and hurts are heard from its state instead
/// ([`crate::game::audio::body_events`]).
pub fn heard(
    e: &Event,
    bestiary: &crate::content::bestiary::Bestiary,
) -> Vec<(Heard, Option<(f32, f32)>)> {
    match *e {
        Event::Dug { x, y, tile, .. } => vec![(Heard::Broke(tile), at_tile(x, y))],
        Event::Placed { x, y, .. } => vec![(Heard::Placed, at_tile(x, y))],
        Event::Crafted { at, ok: true, .. } => vec![(Heard::Crafted(at), None)],
        Event::Crafted { ok: false, .. } => vec![(Heard::Refused, None)],
        Event::Swung { player: LOCAL } | Event::Shot { player: LOCAL, .. } => {
            vec![(Heard::Swung, None)]
        }
        Event::Blast { at, .. } => vec![(Heard::Broke(crate::world::Tile::Stone), Some(at))],
        Event::Hit {
            kind,
            at,
            killed: false,
            ..
        } => vec![(Heard::Hit(kind, bestiary.flies(kind)), Some(at))],
        Event::Killed { kind, by: LOCAL } => {
            vec![(Heard::Killed(kind, bestiary.flies(kind)), None)]
        }
        Event::PickedUp { player: LOCAL, .. } => vec![(Heard::PickedUp, None)],
        Event::Died { player: LOCAL } => vec![(Heard::Died, None)],
        Event::Hardened { x, y } => vec![(Heard::Hiss, at_tile(x as i64, y as i64))],
        Event::Door { x, y, open } => vec![(Heard::Door { open }, at_tile(x, y))],
        Event::BossCame { .. } | Event::BossPhase => vec![(Heard::Roar, None)],
        Event::BossHit { player: LOCAL, .. } => vec![(Heard::HitBoss, None)],
        Event::BossDefeated { .. } => vec![(Heard::KilledBoss, None), (Heard::Roar, None)],
        _ => vec![],
    }
}

/// The `player at` log line: feet position in tiles, then the screen position of the
/// feet and the zoom, so a script can aim the mouse next to the player.
pub fn position_line(pos: (f32, f32), screen_pos: (f32, f32), zoom: f64) -> String {
    format!(
        "player at {:.1} {:.1} screen {:.0} {:.0} zoom {:.1}",
        pos.0, pos.1, screen_pos.0, screen_pos.1, zoom
    )
}

/// The `creatures:` log line: each creature's kind and feet position in tiles, so a script
/// can walk the player toward one.
pub fn creatures_line(all: &crate::sim::creatures::Creatures) -> String {
    let each: Vec<String> = all
        .list
        .iter()
        .map(|c| {
            let p = c.body.pos;
            let name = &all.bestiary.def(c.kind).name;
            format!("{name} at {:.1} {:.1}", p.0, p.1)
        })
        .collect();
    format!("creatures: {}", each.join(", "))
}

/// The tile the player aims at: the one under the mouse while playing, none while the
/// mouse is over the hotbar or the minimap (no outline under them, no dig through them).
pub fn aim(playing: bool, on_ui: bool, cursor: Option<(i64, i64)>) -> Option<(i64, i64)> {
    cursor.filter(|_| playing && !on_ui)
}

/// The tile holding world point `p`, or `None` outside the world.
pub fn tile_at(p: (f64, f64), size: (usize, usize)) -> Option<(i64, i64)> {
    let (x, y) = (p.0.floor(), p.1.floor());
    (x >= 0.0 && y >= 0.0 && (x as usize) < size.0 && (y as usize) < size.1)
        .then_some((x as i64, y as i64))
}

/// The local player's intents for one tick of a frame with `walk`, `cursor` and `buttons`;
/// `presses`: jump presses, `place_pressed` / `use_pressed`: button presses, each given to
/// this tick alone.
pub fn intents(
    walk: Input,
    cursor: Option<(i64, i64)>,
    buttons: Buttons,
    (presses, place_pressed, use_pressed): (u8, bool, bool),
    view_half: (f32, f32),
) -> Vec<(PlayerId, Intent)> {
    let mut out = vec![
        Intent::View { half: view_half },
        Intent::Move {
            axis: crate::sim::session::intent::axis(walk.left, walk.right),
            jump: walk.jump,
        },
    ];
    out.extend((0..presses).map(|_| Intent::Jump));
    if walk.down {
        out.push(Intent::Down);
    }
    if buttons.dig || use_pressed {
        out.push(Intent::Use { at: cursor });
    }
    if let Some((x, y)) = cursor
        && (buttons.place || place_pressed)
    {
        let pressed = place_pressed;
        out.push(Intent::Place { x, y, pressed });
    }
    out.into_iter().map(|i| (LOCAL, i)).collect()
}

impl Play {
    pub fn say(&mut self, text: impl Into<String>, now: f64) {
        self.notice = Some((text.into(), now + NOTICE_SECONDS));
    }

    fn refuse(&mut self, e: EditRefusal, cat: &Catalog, now: f64) {
        let e = e.text(cat);
        let text = format!("Can't: {e}");
        // Held buttons refuse every tick: keep the message, extend its time (and log it
        // once).
        if self.notice.as_ref().is_none_or(|n| n.0 != text) {
            log::debug!("refused: {e}");
            self.heard.push((Heard::Refused, None));
        }
        self.say(text, now);
    }

    /// One frame of play: the frame's time in session ticks, each with the intents of
    /// the keys and buttons held (`walk`, `buttons`) aimed at `cursor` (a tile); then the
    /// outline under the mouse.
    pub fn step(
        &mut self,
        l: &mut Loaded,
        walk: Input,
        cursor: Option<(i64, i64)>,
        buttons: Buttons,
        dt: f32,
        now: f64,
    ) {
        self.aimed = cursor;
        self.presses = self.presses.saturating_add(walk.presses);
        self.place_pressed |= buttons.place_pressed;
        self.use_pressed |= buttons.dig;
        let cap = if self.remote.is_some() {
            crate::game::worlds::state::MAX_REMOTE_FRAME
        } else {
            crate::game::worlds::state::MAX_FRAME
        };
        for _ in 0..l.ticks_due_within(f64::from(dt), cap) {
            let pressed = (
                std::mem::take(&mut self.presses),
                std::mem::take(&mut self.place_pressed),
                std::mem::take(&mut self.use_pressed),
            );
            let list = intents(walk, cursor, buttons, pressed, self.view_half);
            let c = match (&mut self.remote, &mut self.host) {
                (Some(r), _) => r.tick(l, &list),
                (None, Some(h)) => h.tick(l, &list),
                (None, None) => l.step(&list),
            };
            self.roster.saw(&c, now, SWING_SHOWS);
            self.show(&c, &l.session.content, now);
            let players = &l.session.players;
            self.floaters
                .add(&c.events, |p| players.get(p.0).map(|s| s.body.pos));
        }
        self.floaters.update(dt);
        // A server says who joins and leaves; a session of this window's, its seats.
        let joins = self.roster.sync(l.session.players.len());
        if self.remote.is_none() && self.host.is_none() {
            for said in joins {
                self.chat.push(said, now);
            }
        }
        self.log_creatures(l, now);
        let death = l.session.me().death.as_ref().map(|d| {
            let [title, count] =
                crate::game::ui::hud::death_lines(&d.text, d.seconds_left(l.session.tick));
            format!("death screen: {title}; {count}")
        });
        if death.is_some() && death != self.last_death {
            log::debug!("{}", death.as_deref().unwrap_or_default());
        }
        self.last_death = death;
        let (gx, gy) = l.session.guide().body.pos;
        let mut line = format!("guide at {gx:.0} {gy:.0}");
        for n in l.session.town().skip(1) {
            let (nx, ny) = n.body.pos;
            let name = n.name.to_lowercase();
            line.push_str(&format!(", {name} at {nx:.1} {ny:.1}"));
        }
        if self.last_guide.as_ref() != Some(&line) {
            log::debug!("{line}");
            self.last_guide = Some(line);
        }
        let me = l.me();
        self.target = if me.death.is_some() || me.inventory.selected_sword().is_some() {
            // The dead aim at nothing; a sword swings instead of digging: no outline.
            None
        } else {
            cursor.map(|(x, y)| Target {
                x,
                y,
                in_reach: edit::can_reach(&me.body, x, y, edit::REACH),
                progress: me.digging.filter(|_| buttons.dig),
            })
        };
        self.expire_notice(now);
    }

    /// Shows and logs what the session said to the local player (items named as its
    /// `content`'s catalog names them; creatures heard as its bestiary has them).
    pub fn show(&mut self, c: &Changes, content: &crate::content::config::Content, now: f64) {
        let cat = &content.catalog;
        for (who, m) in &c.messages {
            if *who != LOCAL {
                continue;
            }
            if let Message::Refused(e) = m {
                self.refuse(*e, cat, now);
                continue;
            }
            let said = crate::net::said::said(m, content);
            if let Some(line) = said.log {
                log::debug!("{line}");
            }
            if let Some(line) = said.warning {
                log::warn!("{line}");
            }
            match said.shown {
                Some(crate::net::said::Shown::Notice(text)) => self.say(text, now),
                Some(crate::net::said::Shown::Talk { text, seconds }) => {
                    self.notice = Some((text, now + seconds))
                }
                None => {}
            }
        }
        for e in &c.events {
            match *e {
                Event::ChestOpened {
                    player: LOCAL,
                    x,
                    y,
                    stacks,
                } => {
                    eprintln!("strata: opened a chest at {x} {y} holding {stacks} stacks");
                    self.chest_opened = true;
                }
                Event::ShopOpened { player: LOCAL } => self.shop_opened = true,
                Event::Swung { player: LOCAL } => self.swing_until = now + SWING_SHOWS,
                Event::Blast { at, radius } => self.blasts.push((at, radius, now)),
                _ => {}
            }
            self.heard.extend(heard(e, &content.bestiary));
        }
    }

    /// The projectiles in flight and the blasts still showing.
    pub fn draw_flying(
        &mut self,
        session: &crate::sim::session::Session,
        view: (&crate::game::draw::camera::Camera, (f32, f32)),
        now: f64,
    ) {
        let shots = &session.projectiles;
        crate::game::ui::weapons::draw_flying(shots, &mut self.blasts, view, now);
    }

    /// X: whether the room under the mouse is a house, or what it lacks (a homeless Guide
    /// moves into a house); the answer stays up a while.
    pub fn query_housing(&mut self, l: &mut Loaded, now: f64) {
        let Some((x, y)) = self.aimed else {
            self.say("Point at a room to ask whether it is a house", now);
            return;
        };
        let c = self.local(l, Intent::Housing { x, y });
        self.show(&c, &l.session.content, now);
        if let Some(n) = &mut self.notice {
            n.1 = now + 3.0 * NOTICE_SECONDS;
        }
    }

    /// The hook key: the grappling hook's line fired toward the tile under the mouse.
    pub fn hook(&mut self, l: &mut Loaded, now: f64) {
        let Some((x, y)) = self.aimed else {
            return;
        };
        let at = (x as f32 + 0.5, y as f32 + 0.5);
        let c = self.local(l, Intent::Hook { at });
        self.show(&c, &l.session.content, now);
    }

    /// An action of the local player, done on the window's session at once; joined to a
    /// server it goes there too, whose answer the window then shows
    /// ([`crate::net::mirror::reconcile`]).
    fn local(&mut self, l: &mut Loaded, intent: Intent) -> Changes {
        if let Some(r) = &mut self.remote {
            r.acted(intent);
        }
        l.act(intent)
    }

    /// Where the creatures are, when they moved, at most four times a second.
    fn log_creatures(&mut self, l: &Loaded, now: f64) {
        let c = &l.session.creatures;
        if !c.list.is_empty() && now >= self.creatures_log_at {
            let line = creatures_line(c);
            if self.last_creatures.as_ref() != Some(&line) {
                log::debug!("{line}");
                self.last_creatures = Some(line);
                self.creatures_log_at = now + 0.25;
            }
        }
    }

    fn expire_notice(&mut self, now: f64) {
        if self.notice.as_ref().is_some_and(|n| now > n.1) {
            self.notice = None;
        }
    }

    /// What the crafting panel lists for the player now: the rows it had since the
    /// inventory screen opened in their places, new ones after (see
    /// [`invscreen::keep_places`]).
    pub fn recipes(&self, l: &Loaded) -> Vec<(usize, Result<(), CraftRefusal>)> {
        let cat = &l.session.content.catalog;
        let me = l.me();
        let near = Stations::near(l.world(), me.body.bounds(), cat);
        invscreen::keep_places(cat, &me.inventory, near, &self.panel)
    }

    /// The inventory screen opened: the panel's rows are laid out afresh (what can be made
    /// first, see [`invscreen::listed`]), the first highlighted, and logged.
    pub fn open_panel(&mut self, l: &Loaded) {
        self.panel.clear();
        self.recipe_selected = 0;
        self.recipe_first.set(0);
        self.panel = self.recipes(l).iter().map(|&(i, _)| i).collect();
        self.log_panel(l);
    }

    /// The first of the panel's `n` rows shown in `fit` rows, scrolled from the last as
    /// little as keeps the highlight in view (kept for the next frame), so a click on a
    /// row never moves the rows under the mouse.
    pub fn recipe_first(&self, n: usize, fit: usize) -> usize {
        let selected = self.recipe_selected.min(n.saturating_sub(1));
        let first = crate::game::ui::menus::keep_shown(self.recipe_first.get(), n, selected, fit);
        self.recipe_first.set(first);
        first
    }

    /// Crafts the recipe of the panel's `k`-th row, logging `crafted NAME` (or says why
    /// not: a greyed row makes nothing). The rows keep their places, the highlight on the
    /// row just used (Enter makes another).
    pub fn craft_listed(&mut self, l: &mut Loaded, k: usize, now: f64) {
        let list = self.recipes(l);
        let Some(&(i, _)) = list.get(k.min(list.len().saturating_sub(1))) else {
            self.say("Nothing to craft from what you carry", now);
            return;
        };
        let c = self.local(l, Intent::Craft(i));
        self.show(&c, &l.session.content, now);
        let list = self.recipes(l);
        self.panel = list.iter().map(|&(r, _)| r).collect();
        self.recipe_selected = list
            .iter()
            .position(|&(r, _)| r == i)
            .unwrap_or(self.recipe_selected.min(list.len().saturating_sub(1)));
        self.log_panel(l);
    }

    /// Writes the crafting panel's rows as they stand (`crafting panel: ..`, see
    /// [`invscreen::panel_line`]): when the inventory opens and after each craft.
    pub fn log_panel(&self, l: &Loaded) {
        let cat = &l.session.content.catalog;
        log::debug!("{}", invscreen::panel_line(cat, &self.recipes(l)));
    }

    /// An action of the local player (throwing, looting a chest): done, and what it
    /// changed shown.
    pub fn act(&mut self, l: &mut Loaded, intent: Intent, now: f64) {
        let c = self.local(l, intent);
        self.show(&c, &l.session.content, now);
    }

    /// A click on inventory slot `i`: picks up, puts down, merges or swaps stacks.
    pub fn click_slot(&mut self, l: &mut Loaded, i: usize) {
        self.local(l, Intent::ClickSlot(i));
    }

    /// A click on slot `i` of the open chest: takes, puts, merges or swaps stacks, as the
    /// inventory's slots do. Counts as an edit of the world (it is saved).
    pub fn click_chest(&mut self, l: &mut Loaded, i: usize, now: f64) {
        let c = self.local(l, Intent::ClickChest(i));
        self.show(&c, &l.session.content, now);
    }

    /// A click on entry `i` of the Merchant's wares: buys one.
    pub fn buy(&mut self, l: &mut Loaded, i: usize, now: f64) {
        let c = self.local(l, Intent::Buy(i));
        self.show(&c, &l.session.content, now);
    }

    /// A right-click on inventory slot `i` with the shop open: sells its stack.
    pub fn sell(&mut self, l: &mut Loaded, i: usize, now: f64) {
        let c = self.local(l, Intent::Sell(i));
        self.show(&c, &l.session.content, now);
    }

    /// Closing the inventory screen: the open chest closes and the stack on the cursor
    /// goes back into the slots.
    pub fn put_back(&mut self, l: &mut Loaded, now: f64) {
        let c = self.local(l, Intent::Close);
        self.show(&c, &l.session.content, now);
    }

    /// Writes the `player at` line when it changed, at most four times a second.
    pub fn log_position(&mut self, line: String, now: f64) {
        if now >= self.log_at && self.last_log.as_ref() != Some(&line) {
            log::debug!("{line}");
            self.last_log = Some(line);
            self.log_at = now + 0.25;
        }
    }

    /// F5: writes the world and the player to `world-<id>.strata` in the saves folder
    /// `dir` ([`crate::base::paths::Folders::saves`] in the game) on a thread (a copy of the world is taken first, so
    /// play goes on while it is written), keeping the save it replaces as
    /// `world-<id>.strata.bak` ([`save::save_path`]). Returns whether a save started.
    pub fn save(&mut self, l: &Loaded, dir: &Path, now: f64) -> bool {
        self.save_as(l, dir, now, false)
    }

    /// [`Play::save`]; `auto`: the autosave (its messages say so).
    pub fn save_as(&mut self, l: &Loaded, dir: &Path, now: f64, auto: bool) -> bool {
        if self.saving.is_some() {
            self.say("Still saving...", now);
            return false;
        }
        let path = save::save_path(dir, l.world());
        let world = l.world().clone();
        let state = l.player_state();
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("strata-save".into())
            .spawn(move || {
                let result = save::save_keeping_backup(&path, &world, &state)
                    .map(|b| (path, b))
                    .map_err(String::from);
                let _ = tx.send((result, Box::new((world, state))));
            });
        match spawned {
            Ok(_) => {
                self.saving = Some(Saving {
                    rx,
                    serial: l.serial,
                    edits: l.session.edits,
                    auto,
                });
                self.say(if auto { "Autosaving..." } else { "Saving..." }, now);
                true
            }
            Err(e) => {
                self.say(format!("Save failed: {e}"), now);
                false
            }
        }
    }

    /// Is a save being written?
    pub fn is_saving(&self) -> bool {
        self.saving.is_some()
    }

    /// The save that finished since the last call, if any (logged and shown).
    pub fn poll_save(&mut self, now: f64) -> Option<SaveDone> {
        let result = self.saving.as_ref()?.rx.try_recv().ok()?;
        Some(self.finish_save(result, now))
    }

    /// Waits for the save being written, if any (before quitting).
    pub fn wait_save(&mut self, now: f64) -> Option<SaveDone> {
        let result = self
            .saving
            .as_ref()?
            .rx
            .recv()
            .map_err(|_| "the save thread stopped".to_string());
        Some(match result {
            Ok(done) => self.finish_save(done, now),
            Err(e) => self.finish_save((Err(e), Box::new(no_moment())), now),
        })
    }

    fn finish_save(&mut self, (result, moment): Sent, now: f64) -> SaveDone {
        let Some(s) = self.saving.take() else {
            unreachable!("finish_save follows a save")
        };
        self.saved_moment = match &result {
            Ok((path, _)) => Some(SavedMoment {
                serial: s.serial,
                path: path.clone(),
                moment,
            }),
            Err(_) => None,
        };
        let what = if s.auto { "Autosaved" } else { "Saved" };
        match &result {
            Ok((path, backup)) => {
                log::info!("saved {}", path.display());
                if let Some(b) = backup {
                    log::info!("kept the previous save as {}", b.display());
                }
                self.say(format!("{what} to {}", path.display()), now);
            }
            Err(e) => {
                log::warn!("save failed: {e}");
                self.say(format!("Save failed: {e}"), now);
            }
        }
        SaveDone {
            result,
            serial: s.serial,
            edits: s.edits,
        }
    }
}

/// A save's path and its backup's, or why it failed.
pub type SaveResult = Result<(PathBuf, Option<PathBuf>), String>;

/// What a save's thread sends back: how it went, and the world and player it wrote.
type Sent = (SaveResult, Box<(crate::world::World, save::PlayerState)>);

/// A world and player standing for none (a save thread that stopped sent nothing).
fn no_moment() -> (crate::world::World, save::PlayerState) {
    let cat = crate::content::config::Content::builtin().catalog;
    (
        crate::world::World::new(1, 1, 0, Default::default()),
        save::PlayerState::new((0.0, 0.0), &cat),
    )
}

/// The world and player a save that worked holds, its file, and the world it was of
/// ([`Loaded::serial`]).
pub struct SavedMoment {
    pub serial: u64,
    pub path: PathBuf,
    pub moment: Box<(crate::world::World, save::PlayerState)>,
}

/// A save being written.
struct Saving {
    rx: Receiver<Sent>,
    /// The world saved ([`Loaded::serial`]) and its edit count when it was copied.
    serial: u64,
    edits: u64,
    auto: bool,
}

/// A save that finished.
#[derive(Debug, PartialEq)]
pub struct SaveDone {
    pub result: SaveResult,
    /// The world saved ([`Loaded::serial`]) and its edit count when it was copied: edits
    /// made while it was written are still unsaved.
    pub serial: u64,
    pub edits: u64,
}

impl SaveDone {
    /// Marks the world saved if it is the one that was saved and the save worked.
    pub fn apply(&self, l: &mut Loaded) {
        if self.result.is_ok() && l.serial == self.serial {
            l.saved_edits = l.saved_edits.max(self.edits);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::worlds::state::tests::loaded;
    use crate::world::Tile;

    #[test]
    fn a_finished_save_leaves_only_later_edits_unsaved() {
        let mut l = loaded();
        let (x, y) = (300, l.world().surface[300] as usize);
        l.set_tile(x, y, Tile::Air);
        l.set_tile(x, y + 1, Tile::Air);
        assert!(l.unsaved());
        // A save copied the world after the first edit, and the second came after.
        let done = |result: SaveResult, serial| SaveDone {
            result,
            serial,
            edits: 1,
        };
        done(Err("disk full".into()), l.serial).apply(&mut l);
        assert_eq!(l.saved_edits, 0, "a failed save saves nothing");
        done(Ok((PathBuf::from("w.strata"), None)), l.serial + 1).apply(&mut l);
        assert_eq!(l.saved_edits, 0, "another world's save");
        done(Ok((PathBuf::from("w.strata"), None)), l.serial).apply(&mut l);
        assert!(l.unsaved(), "the second edit came after the copy");
        SaveDone {
            result: Ok((PathBuf::from("w.strata"), None)),
            serial: l.serial,
            edits: 2,
        }
        .apply(&mut l);
        assert!(!l.unsaved());
    }

    #[test]
    fn tiles_under_points() {
        assert_eq!(tile_at((3.7, 4.2), (10, 10)), Some((3, 4)));
        assert_eq!(tile_at((-0.1, 4.2), (10, 10)), None);
        assert_eq!(tile_at((9.99, 10.0), (10, 10)), None);
    }

    #[test]
    fn no_aim_through_the_hotbar() {
        assert_eq!(aim(true, false, Some((3, 4))), Some((3, 4)));
        assert_eq!(aim(true, true, Some((3, 4))), None);
        assert_eq!(aim(false, false, Some((3, 4))), None);
    }

    #[test]
    fn creatures_line_names_each_with_its_feet() {
        use crate::sim::creatures::{Creature, Creatures, Kind};
        let b = crate::content::config::Content::builtin().bestiary;
        let mut all = Creatures::new(1, std::sync::Arc::clone(&b));
        all.list = vec![
            Creature::new(&b, Kind::Slime, (12.5, 19.0)),
            Creature::new(&b, Kind::CaveSlime, (70.25, 30.0)),
        ];
        assert_eq!(
            creatures_line(&all),
            "creatures: slime at 12.5 19.0, cave slime at 70.2 30.0"
        );
    }

    #[test]
    fn position_line_is_machine_readable() {
        let l = position_line((500.25, 120.0), (640.4, 400.0), 20.0);
        assert_eq!(l, "player at 500.2 120.0 screen 640 400 zoom 20.0");
    }

    const FRAME: f32 = 1.0 / 60.0;

    #[test]
    fn a_frame_gives_its_presses_to_one_tick_and_holds_to_every_tick() {
        let walk = Input {
            left: true,
            right: false,
            jump: true,
            down: false,
            presses: 0,
        };
        let dig = Buttons {
            dig: true,
            ..Default::default()
        };
        let at = Some((4, 5));
        let list = intents(walk, at, dig, (2, true, false), (30.0, 20.0));
        let only: Vec<Intent> = list
            .iter()
            .map(|&(who, i)| {
                assert_eq!(who, LOCAL);
                i
            })
            .collect();
        assert_eq!(
            only,
            [
                Intent::View { half: (30.0, 20.0) },
                Intent::Move {
                    axis: -1,
                    jump: true
                },
                Intent::Jump,
                Intent::Jump,
                Intent::Use { at },
                Intent::Place {
                    x: 4,
                    y: 5,
                    pressed: true
                },
            ]
        );
        // Outside the world nothing is placed; a press of the dig button alone still uses.
        let list = intents(
            Input::default(),
            None,
            Buttons::default(),
            (0, true, true),
            (1.0, 1.0),
        );
        assert_eq!(list.last(), Some(&(LOCAL, Intent::Use { at: None })));
        assert_eq!(list.len(), 3);
    }

    #[test]
    fn a_jump_pressed_in_a_frame_without_a_tick_jumps_in_the_next() {
        let (mut l, mut play) = landed();
        let tap = Input {
            presses: 1,
            ..Default::default()
        };
        let none = Buttons::default();
        // Faster than the ticks: a quarter tick runs none.
        play.step(&mut l, tap, None, none, FRAME / 4.0, 0.0);
        assert_eq!(l.me().body.jumps, 0);
        play.step(&mut l, Input::default(), None, none, FRAME, 0.0);
        assert_eq!(l.me().body.jumps, 1);
    }

    #[test]
    fn digging_under_the_feet_takes_time_relights_and_reanalyses() {
        let (mut l, mut play) = landed();
        let still = Input::default();
        let (px, py) = l.me().body.pos;
        let below = (px.floor() as i64, py as i64);
        let tile = l.world().tile(below.0 as usize, below.1 as usize);
        assert!(tile.is_solid(), "{tile:?}");
        let dig = Buttons {
            dig: true,
            ..Default::default()
        };
        play.step(&mut l, still, Some(below), dig, FRAME, 0.0);
        let t = play.target.unwrap();
        assert!(t.in_reach && t.progress.is_some_and(|p| p > 0.0 && p < 1.0));
        for _ in 0..90 {
            play.step(&mut l, still, Some(below), dig, FRAME, 0.0);
            if l.world().tile(below.0 as usize, below.1 as usize) == Tile::Air {
                break;
            }
        }
        assert_eq!(
            l.world().tile(below.0 as usize, below.1 as usize),
            Tile::Air
        );
        // The dug block flies from where it lay into the inventory.
        for _ in 0..30 {
            play.step(&mut l, still, None, Buttons::default(), FRAME, 0.0);
        }
        assert_eq!(l.me().inventory.count(crate::base::tile::drop_of(tile)), 1);
        assert!(l.unsaved());
        assert_eq!(
            l.session.light,
            crate::sim::light::LightMap::compute(l.world())
        );
        l.settle();
        assert_eq!(
            l.report,
            std::sync::Arc::new(crate::analysis::analyse(l.world()))
        );
    }

    #[test]
    fn placing_needs_the_block_and_refuses_on_the_player() {
        let (mut l, mut play) = landed();
        let (px, py) = l.me().body.pos;
        let feet = (px.floor() as i64, py as i64 - 1);
        // A quick click: pressed and released within the frame.
        let place = Buttons {
            place_pressed: true,
            ..Default::default()
        };
        l.act(Intent::Select(5)); // empty
        play.step(&mut l, Input::default(), Some(feet), place, FRAME, 1.0);
        assert!(play.notice.as_ref().unwrap().0.contains("nothing to place"));
        l.session.me_mut().inventory.add(Tile::Dirt, 3);
        l.act(Intent::Select(3));
        assert_eq!(l.me().inventory.selected_tile(), Some(Tile::Dirt));
        play.step(&mut l, Input::default(), Some(feet), place, FRAME, 2.0);
        assert!(play.notice.as_ref().unwrap().0.contains("trap"));
        assert_eq!(l.world().tile(feet.0 as usize, feet.1 as usize), Tile::Air);
        // The notice goes after its time.
        idle(&mut l, &mut play, 2.0 + NOTICE_SECONDS + 0.1);
        assert_eq!(play.notice, None);
        // Beside the player, on the ground (which may slope): placed, and one fewer.
        let bx = feet.0 + 2;
        let ground = (0..l.world().height() as i64 - 1)
            .find(|&y| l.world().tile(bx as usize, y as usize + 1).is_solid())
            .unwrap();
        let beside = (bx, ground);
        if l.world().tile(beside.0 as usize, beside.1 as usize) == Tile::Air {
            play.step(&mut l, Input::default(), Some(beside), place, FRAME, 3.0);
            assert_eq!(
                l.world().tile(beside.0 as usize, beside.1 as usize),
                Tile::Dirt
            );
            assert_eq!(l.me().inventory.count(Tile::Dirt), 2);
            assert!(l.levels[0].is_dirty(), "its chunk is repainted");
        }
    }

    #[test]
    fn on_the_death_screen_nothing_is_aimed_at() {
        let (mut l, mut play) = landed();
        let (px, py) = l.me().body.pos;
        let beside = Some((px as i64 + 1, py as i64));
        let mut aim = |l: &mut Loaded, now| {
            play.step(l, Input::default(), beside, Buttons::default(), FRAME, now);
            play.target
        };
        assert!(
            aim(&mut l, 1.0).is_some_and(|t| t.in_reach),
            "alive: an outline"
        );
        let until = l.session.tick + 600;
        let text = "You were slain by a slime".to_string();
        l.session.me_mut().death = Some(crate::sim::session::Death { text, until });
        assert_eq!(aim(&mut l, 2.0), None);
    }

    #[test]
    fn a_talk_stays_up_its_seconds_and_a_notice_its_own() {
        use crate::sim::session::message::{Hand, Town};
        let mut play = Play::default();
        let mut c = Changes::default();
        let hint = "wood makes: workbench".to_string();
        c.messages.push((LOCAL, Town::Guide { hint }.into()));
        let content = crate::content::config::Content::builtin();
        play.show(&c, &content, 10.0);
        let talk = crate::net::said::TALK_SECONDS;
        let text = "Guide: wood makes: workbench".to_string();
        assert_eq!(play.notice, Some((text, 10.0 + talk)));
        // A notice has a notice's time.
        let mut c = Changes::default();
        c.messages
            .push((LOCAL, Hand::SpawnSet { x: 3, y: 4 }.into()));
        play.show(&c, &content, 20.0);
        let text = "Spawn point set".to_string();
        assert_eq!(play.notice, Some((text, 20.0 + NOTICE_SECONDS)));
    }

    /// A frame without keys or buttons at `now`.
    fn idle(l: &mut Loaded, play: &mut Play, now: f64) {
        play.step(l, Input::default(), None, Buttons::default(), FRAME, now);
    }

    /// Lets the player land (two seconds of frames without input).
    fn landed() -> (Loaded, Play) {
        let mut l = loaded();
        let mut play = Play::default();
        for _ in 0..120 {
            idle(&mut l, &mut play, 0.0);
        }
        assert!(l.me().body.on_ground);
        assert!(l.revealed.is_some(), "the fog is told what was seen");
        (l, play)
    }

    #[test]
    fn right_clicking_a_chest_in_reach_opens_it_and_clicks_take_its_stacks() {
        let (mut l, mut play) = landed();
        let (px, py) = l.me().body.pos;
        let at = ((px + 2.0) as usize, py as usize - 1);
        l.session.world.set(at.0, at.1, Tile::Chest);
        let cat = std::sync::Arc::clone(&l.session.content.catalog);
        let gel = cat.id("gel").unwrap();
        l.session.world.chests.open(at.0, at.1).add(&cat, gel, 6);
        let right = Buttons {
            place: true,
            place_pressed: true,
            ..Default::default()
        };
        // With the sword selected too: a right-click opens, never places or swings.
        l.act(Intent::Select(1));
        let aim = Some((at.0 as i64, at.1 as i64));
        play.step(&mut l, Input::default(), aim, right, FRAME, 1.0);
        assert_eq!(l.me().chest, Some(at));
        assert!(std::mem::take(&mut play.chest_opened));
        assert_eq!(l.world().tile(at.0, at.1), Tile::Chest);
        assert!(!l.unsaved());
        play.click_chest(&mut l, 0, 1.0);
        assert_eq!(l.me().held.map(|h| (h.item, h.count)), Some((gel, 6)));
        assert!(!l.world().chests.holds_items(at.0, at.1));
        assert!(l.unsaved(), "taking from a chest is an unsaved edit");
        play.put_back(&mut l, 1.0);
        assert_eq!((l.me().chest, l.me().held), (None, None));
        assert_eq!(l.me().inventory.count(gel), 6);
    }

    #[test]
    fn crafting_rows_keep_their_places_and_a_greyed_row_makes_nothing() {
        let (mut l, mut play) = landed();
        l.session.me_mut().inventory.add("wood", 9);
        l.session.me_mut().inventory.add("gel", 1);
        let cat = std::sync::Arc::clone(&l.session.content.catalog);
        let named = |name: &str| {
            cat.recipes
                .iter()
                .position(|r| cat.item(r.make).name == name)
                .unwrap()
        };
        play.open_panel(&l);
        let rows = |play: &Play, l: &Loaded| -> Vec<usize> {
            play.recipes(l).iter().map(|&(i, _)| i).collect()
        };
        let before = rows(&play, &l);
        let torch = before.iter().position(|&i| i == named("torch")).unwrap();
        assert!(play.recipes(&l)[torch].1.is_ok(), "torches can be made");
        play.craft_listed(&mut l, torch, 0.0);
        assert!(play.notice.as_ref().unwrap().0.starts_with("Crafted"));
        // The gel is gone: the torch's row stays where it was, greyed, the highlight on it,
        // and no other row moved.
        assert_eq!(rows(&play, &l)[..before.len()], before[..]);
        assert_eq!(play.recipe_selected, torch);
        assert!(play.recipes(&l)[torch].1.is_err());
        // Clicking it again makes nothing (it says why).
        let carried = l.me().inventory.slots().to_vec();
        play.craft_listed(&mut l, torch, 0.1);
        assert_eq!(l.me().inventory.slots(), &carried[..]);
        assert!(!play.notice.as_ref().unwrap().0.starts_with("Crafted"));
        // The workbench takes the rest of the wood: it keeps its row too.
        let bench = before
            .iter()
            .position(|&i| i == named("workbench"))
            .unwrap();
        play.craft_listed(&mut l, bench, 0.2);
        assert_eq!(rows(&play, &l)[..before.len()], before[..]);
        // Opened again, the panel is laid out afresh: what can be made first.
        play.open_panel(&l);
        let fresh = play.recipes(&l);
        let first_greyed = fresh
            .iter()
            .position(|r| r.1.is_err())
            .unwrap_or(fresh.len());
        assert!(fresh[first_greyed..].iter().all(|r| r.1.is_err()));
    }
}
