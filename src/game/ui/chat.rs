//! Chat and the player list, the window's side of them (engine-free): the one-line chat
//! field Enter opens at the bottom ([`ChatLine`]: typing, a cursor moved with the arrows,
//! Home and End, Backspace and Delete, a paste), the lines said and the join and leave
//! messages, each shown for [`SHOW_SECONDS`] with the newest at the bottom ([`ChatLog`]),
//! and where the player list Tab holds goes on screen ([`list_layout`]).

use macroquad::math::Rect;
use std::collections::VecDeque;

/// Longest chat line, in characters.
pub const MAX_LEN: usize = 160;

/// Seconds a chat line or a join or leave message stays on screen.
pub const SHOW_SECONDS: f64 = 8.0;

/// Lines shown at most, with the chat field closed; [`KEPT`] with it open.
pub const SHOWN: usize = 8;

/// Lines kept (and shown, newest last, while the chat field is open).
pub const KEPT: usize = 50;

/// The chat field: its text and the cursor, a character index (not a byte).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChatLine {
    pub text: String,
    pub cursor: usize,
}

impl ChatLine {
    fn byte(&self, char_index: usize) -> usize {
        self.text
            .char_indices()
            .nth(char_index)
            .map_or(self.text.len(), |(b, _)| b)
    }

    fn len(&self) -> usize {
        self.text.chars().count()
    }

    /// Types one character at the cursor; control characters are ignored, and nothing
    /// goes past [`MAX_LEN`].
    pub fn type_char(&mut self, c: char) {
        if c.is_control() || self.len() >= MAX_LEN {
            return;
        }
        let at = self.byte(self.cursor);
        self.text.insert(at, c);
        self.cursor += 1;
    }

    /// Pastes text at the cursor (its first line only).
    pub fn paste(&mut self, text: &str) {
        for c in crate::game::ui::seedbox::first_line(text).chars() {
            self.type_char(c);
        }
    }

    /// Removes the character before the cursor.
    pub fn backspace(&mut self) {
        if self.cursor > 0 {
            self.cursor -= 1;
            let at = self.byte(self.cursor);
            self.text.remove(at);
        }
    }

    /// Removes the character under the cursor.
    pub fn delete(&mut self) {
        if self.cursor < self.len() {
            let at = self.byte(self.cursor);
            self.text.remove(at);
        }
    }

    /// Moves the cursor `by` characters, within the text.
    pub fn step(&mut self, by: i32) {
        let to = self.cursor as i64 + i64::from(by);
        self.cursor = to.clamp(0, self.len() as i64) as usize;
    }

    pub fn home(&mut self) {
        self.cursor = 0;
    }

    pub fn end(&mut self) {
        self.cursor = self.len();
    }

    /// The text before and after the cursor (to draw the cursor between them).
    pub fn split(&self) -> (&str, &str) {
        self.text.split_at(self.byte(self.cursor))
    }

    /// Enter: the line to send, trimmed, `None` when only spaces were typed; the field is
    /// emptied either way.
    pub fn take(&mut self) -> Option<String> {
        let text = std::mem::take(&mut self.text);
        self.cursor = 0;
        let t = text.trim();
        (!t.is_empty()).then(|| t.to_string())
    }
}

/// What a line in the chat is: something a player said, or a message of the game or the
/// server (joins, leaves, refusals).
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    Chat { from: String, text: String },
    Joined(String),
    Left(String),
    Server(String),
}

impl Said {
    /// The line as shown.
    pub fn text(&self) -> String {
        match self {
            Said::Chat { from, text } => format!("<{from}> {text}"),
            Said::Joined(name) => format!("{name} joined"),
            Said::Left(name) => format!("{name} left"),
            Said::Server(text) => text.clone(),
        }
    }

    /// A player's words (drawn brighter than the game's messages).
    pub fn is_chat(&self) -> bool {
        matches!(self, Said::Chat { .. })
    }
}

/// The chat's lines, oldest first, each with when it was said.
#[derive(Clone, Debug, Default)]
pub struct ChatLog {
    lines: VecDeque<(Said, f64)>,
}

impl ChatLog {
    /// Adds a line said at `now` (the oldest goes beyond [`KEPT`]) and logs it as
    /// `chat: LINE` for scripts.
    pub fn push(&mut self, said: Said, now: f64) {
        log::info!("chat: {}", said.text());
        self.lines.push_back((said, now));
        while self.lines.len() > KEPT {
            self.lines.pop_front();
        }
    }

    /// The lines to show at `now`, oldest first so the newest is at the bottom: those
    /// said in the last [`SHOW_SECONDS`], at most [`SHOWN`]; with the chat field `open`,
    /// every line kept (at most `room` of them, the newest).
    pub fn shown(&self, now: f64, open: bool, room: usize) -> Vec<&Said> {
        let fresh = |t: f64| open || (now - t) < SHOW_SECONDS;
        let cap = if open { room } else { room.min(SHOWN) };
        let recent: Vec<&Said> = self
            .lines
            .iter()
            .rev()
            .take_while(|(_, t)| fresh(*t))
            .take(cap)
            .map(|(s, _)| s)
            .collect();
        recent.into_iter().rev().collect()
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// Height of a line of the chat and of the player list at scale 1.
pub const LINE: f32 = 21.0;

/// The player list (Tab): its panel, centred near the top, and a row per player, in
/// columns when more than fit the window's height.
#[derive(Clone, Debug, PartialEq)]
pub struct ListLayout {
    pub panel: Rect,
    pub title: Rect,
    pub rows: Vec<Rect>,
}

/// Where the player list goes on a window of `screen` at scale `s` for `n` players:
/// a title row then the rows, `col_w` wide (at scale 1) each, top to bottom, then in a
/// further column when the window is too low for them all; never wider or higher than
/// the window (rows that fit nowhere are left out: the title says how many there are).
pub fn list_layout(n: usize, col_w: f32, screen: (f32, f32), s: f32) -> ListLayout {
    let (lh, pad) = (LINE * s, 8.0 * s);
    let col_w = (col_w * s).min(screen.0 - 2.0 * pad).max(1.0);
    let top = 60.0 * s;
    let fit_rows = (((screen.1 - top - 2.0 * pad - lh - 40.0 * s) / lh).floor() as usize).max(1);
    let fit_cols = (((screen.0 - 2.0 * pad) / col_w).floor() as usize).max(1);
    let cols = n.div_ceil(fit_rows).clamp(1, fit_cols);
    let per_col = n.div_ceil(cols).min(fit_rows);
    let shown = n.min(per_col * cols);
    let w = (cols as f32 * col_w + 2.0 * pad).min(screen.0);
    let h = (per_col.max(1) as f32 + 1.0) * lh + 2.0 * pad;
    let x = ((screen.0 - w) / 2.0).max(0.0);
    let panel = Rect::new(x, top.min((screen.1 - h).max(0.0)), w, h);
    let title = Rect::new(panel.x + pad, panel.y + pad, w - 2.0 * pad, lh);
    let rows = (0..shown)
        .map(|i| {
            let (c, r) = (i / per_col, i % per_col);
            Rect::new(
                panel.x + pad + c as f32 * col_w,
                title.y + lh * (r as f32 + 1.0),
                col_w,
                lh,
            )
        })
        .collect();
    ListLayout { panel, title, rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(t: &str) -> ChatLine {
        let mut l = ChatLine::default();
        t.chars().for_each(|c| l.type_char(c));
        l
    }

    #[test]
    fn the_chat_line_edits_at_its_cursor() {
        let mut l = typed("helo");
        l.step(-1);
        l.type_char('l');
        assert_eq!((l.text.as_str(), l.cursor), ("hello", 4));
        assert_eq!(l.split(), ("hell", "o"));
        l.end();
        l.type_char('!');
        l.home();
        l.delete();
        assert_eq!(l.text, "ello!");
        l.backspace(); // at the start: nothing
        assert_eq!(l.text, "ello!");
        l.step(100);
        assert_eq!(l.cursor, 5);
        l.backspace();
        assert_eq!(l.text, "ello");
        l.delete(); // at the end: nothing
        assert_eq!(l.text, "ello");
        // Characters, not bytes: the cursor steps over a multi-byte letter whole.
        let mut u = typed("día");
        u.step(-1);
        u.backspace();
        assert_eq!((u.text.as_str(), u.cursor), ("da", 1));
    }

    #[test]
    fn control_characters_overlong_text_and_blank_lines_are_refused() {
        let mut l = typed("a\u{8}\r\tb");
        assert_eq!(l.text, "ab");
        l.paste("first line\nsecond");
        assert_eq!(l.text, "abfirst line");
        l.paste(&"x".repeat(500));
        assert_eq!(l.text.chars().count(), MAX_LEN);
        assert_eq!(l.take().map(|t| t.len()), Some(MAX_LEN));
        assert_eq!(
            (l.text.as_str(), l.cursor),
            ("", 0),
            "sending empties the field"
        );
        let mut blank = typed("   ");
        assert_eq!(blank.take(), None);
        assert_eq!(typed("  hi there ").take().as_deref(), Some("hi there"));
    }

    #[test]
    fn lines_show_for_a_while_newest_at_the_bottom() {
        let mut log = ChatLog::default();
        let chat = |i: usize| Said::Chat {
            from: "Ann".into(),
            text: format!("line {i}"),
        };
        log.push(Said::Joined("Ann".into()), 0.0);
        for i in 0..10 {
            log.push(chat(i), 1.0 + i as f64);
        }
        // At 5 s all eleven are fresh, but only the newest SHOWN show, the newest last.
        let shown = log.shown(5.0, false, 20);
        assert_eq!(shown.len(), SHOWN);
        assert_eq!(shown.last(), Some(&&chat(9)));
        assert_eq!(shown[0], &chat(2));
        // Later the older ones have gone: at 16.5 s lines said after 8.5 s remain.
        let later = log.shown(16.5, false, 20);
        assert_eq!(later, vec![&chat(8), &chat(9)]);
        assert!(log.shown(30.0, false, 20).is_empty());
        // The open field shows every line kept, as many as there is room for.
        let open = log.shown(30.0, true, 20);
        assert_eq!(open.len(), 11);
        assert_eq!(open[0], &Said::Joined("Ann".into()));
        assert_eq!(log.shown(30.0, true, 3).len(), 3);
        for i in 0..KEPT {
            log.push(chat(i), 40.0);
        }
        assert_eq!(log.len(), KEPT, "the oldest go");
        assert_eq!(Said::Left("Bo".into()).text(), "Bo left");
        assert_eq!(chat(1).text(), "<Ann> line 1");
    }

    #[test]
    fn the_player_list_fits_the_window_in_columns() {
        for screen in [
            (1280.0, 720.0),
            (800.0, 600.0),
            (1920.0, 1080.0),
            (320.0, 200.0),
        ] {
            for s in [0.7f32, 1.0, 2.0] {
                for n in [0usize, 1, 4, 16, 40, 500] {
                    let l = list_layout(n, 220.0, screen, s);
                    let inside = |r: &Rect| {
                        r.x >= 0.0
                            && r.y >= 0.0
                            && r.x + r.w <= screen.0 + 0.01
                            && r.y + r.h <= screen.1 + 0.01
                    };
                    assert!(inside(&l.panel), "{screen:?} x{s} {n}: {:?}", l.panel);
                    for (i, r) in l.rows.iter().enumerate() {
                        assert!(
                            l.panel.contains(r.point())
                                && r.x + r.w <= l.panel.x + l.panel.w + 0.01
                                && r.y >= l.title.y + l.title.h - 0.01,
                            "{screen:?} x{s} {n}: row {i} outside the panel or over the title"
                        );
                        // (Less a hair: rows meet edge to edge, up to rounding.)
                        let inner = Rect::new(r.x + 0.01, r.y + 0.01, r.w - 0.02, r.h - 0.02);
                        for q in &l.rows[..i] {
                            assert!(
                                !crate::game::ui::layout::overlap(q, &inner),
                                "{screen:?} x{s} {n}: rows overlap"
                            );
                        }
                    }
                    assert!(l.rows.len() <= n);
                }
            }
        }
        // A few players: one column, all of them, in order down it.
        let l = list_layout(4, 220.0, (1280.0, 720.0), 1.0);
        assert_eq!(l.rows.len(), 4);
        assert!(
            l.rows
                .windows(2)
                .all(|w| w[1].y > w[0].y && w[1].x == w[0].x)
        );
        // Many: more than one column, all shown on a big window.
        let many = list_layout(80, 220.0, (1920.0, 1080.0), 1.0);
        assert_eq!(many.rows.len(), 80);
        assert!(many.rows.iter().any(|r| r.x > many.rows[0].x));
    }
}
