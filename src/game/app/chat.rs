//! The chat's part of the game (Enter opens the line): its keys, what the game says in
//! it, and drawing the chat and the player list.

use super::App;
use crate::game::input::{Action, Mode};
use crate::game::ui;
use crate::game::ui::layout::Layout;
use macroquad::prelude::{KeyCode, get_time, is_key_down};

impl App {
    /// A key of the chat line: Enter sends what was typed (Esc drops it), both close it;
    /// the rest edit it. `false` for an action the chat line does not take.
    pub(super) fn chat_key(&mut self, action: Action, now: f64) -> bool {
        use crate::game::input::Edit;
        let line = &mut self.chat_line;
        match action {
            Action::Confirm => {
                self.mode = Mode::World;
                if let Some(text) = self.chat_line.take() {
                    self.say_in_chat(text, now);
                }
            }
            Action::Close => {
                self.chat_line = Default::default();
                self.mode = Mode::World;
            }
            Action::Backspace => line.backspace(),
            Action::Paste => {
                if let Some(text) = macroquad::miniquad::window::clipboard_get() {
                    line.paste(&text);
                }
            }
            Action::Edit(Edit::Left) => line.step(-1),
            Action::Edit(Edit::Right) => line.step(1),
            Action::Edit(Edit::Home) => line.home(),
            Action::Edit(Edit::End) => line.end(),
            Action::Edit(Edit::Delete) => line.delete(),
            _ => return false,
        }
        true
    }

    /// A line the local player says: to the server when joined to one (which says it to
    /// everyone, this player too), else shown here.
    pub(super) fn say_in_chat(&mut self, text: String, now: f64) {
        if let Some(r) = &mut self.play.remote {
            r.say(&text);
            return;
        }
        if let Some(h) = &mut self.play.host {
            h.say(&text);
        }
        let from = self.play.roster.name(crate::sim::session::LOCAL);
        self.play
            .chat
            .push(crate::game::ui::chat::Said::Chat { from, text }, now);
    }

    /// The chat's lines (and its line while open) and, while Tab is held in the world,
    /// the player list.
    pub fn draw_chat(&self, lay: &Layout, screen: (f32, f32)) {
        let s = lay.s;
        if self.shown.is_some() {
            let now = get_time();
            let open = self.mode == Mode::Chat;
            let room = ((screen.1 * 0.45) / (21.0 * s)).max(1.0) as usize;
            let lines: Vec<(String, bool)> = self
                .play
                .chat
                .shown(now, open, room)
                .into_iter()
                .map(|l| (l.text(), l.is_chat()))
                .collect();
            let field = open.then(|| self.chat_line.split());
            ui::chat(&lines, field, lay);
        }
        if let Some(w) = &self.shown
            && self.mode == Mode::World
            && is_key_down(KeyCode::Tab)
            && self.settings.keys.command(KeyCode::Tab).is_none()
        {
            let names = self
                .play
                .roster
                .list(w.session.players.len(), crate::sim::session::LOCAL);
            ui::player_list(&names, screen, s);
        }
    }
}
