//! The server is gone (its goodbye, a refusal, a timeout, or a silence of
//! [`crate::net::client::SILENCE`] seconds): the window says so at once over the world it
//! had, which stands still (nothing walks in a dead world), and offers Reconnect (R or
//! Enter) and Leave (Esc). It also tries again by itself, waiting longer after each try
//! that fails (2, 4, 8, then every 15 seconds); a try that gets the world back shows it.

use crate::net::client::JoinOptions;

/// Seconds before automatic try `n` (1, 2, ...).
pub fn wait_before(n: u32) -> f64 {
    2f64.powi(n.min(8) as i32).min(15.0)
}

/// A lost connection: why, how to join again, the tries so far and when the next is due.
#[derive(Clone, Debug, PartialEq)]
pub struct Lost {
    pub why: String,
    pub opts: JoinOptions,
    pub tries: u32,
    pub next: f64,
}

/// What a key does on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Reconnect,
    Leave,
}

impl Lost {
    pub fn new(why: String, opts: JoinOptions, now: f64) -> Lost {
        Lost {
            why,
            opts,
            tries: 0,
            next: now + wait_before(1),
        }
    }

    /// Is a try due at `now`?
    pub fn due(&self, now: f64) -> bool {
        now >= self.next
    }

    /// A try began at `now` (by hand or due): the next waits longer.
    pub fn tried(&mut self, now: f64) {
        self.tries += 1;
        self.next = now + wait_before(self.tries + 1);
    }

    /// The screen's lines at `now`; `trying`: a try is under way.
    pub fn lines(&self, now: f64, trying: bool) -> Vec<String> {
        let state = if trying {
            format!("Reconnecting to {} (try {})...", self.opts.addr, self.tries)
        } else {
            let left = (self.next - now).max(0.0).ceil();
            format!("Trying again in {left:.0} s")
        };
        vec![
            "The server is gone".to_string(),
            self.why.clone(),
            state,
            "R: Reconnect now      Esc: Leave".to_string(),
        ]
    }
}

/// The key's choice on the screen, if any.
pub fn choice(key: macroquad::input::KeyCode) -> Option<Choice> {
    use macroquad::input::KeyCode;
    match key {
        KeyCode::R | KeyCode::Enter | KeyCode::KpEnter => Some(Choice::Reconnect),
        KeyCode::Escape | KeyCode::L => Some(Choice::Leave),
        _ => None,
    }
}

/// Draws the screen in the middle of the window, the world dimmed behind it.
pub fn draw(lost: &Lost, now: f64, trying: bool, screen: (f32, f32), s: f32) {
    use macroquad::prelude::*;
    crate::game::ui::backdrop(0.0, 0.0, screen.0, screen.1);
    let lines: Vec<(String, Color)> = lost
        .lines(now, trying)
        .into_iter()
        .enumerate()
        .map(|(i, l)| (l, if i == 0 { ORANGE } else { WHITE }))
        .collect();
    let w = lines.iter().map(|(l, _)| l.len()).max().unwrap_or(0) as f32 * 9.0 * s;
    crate::game::ui::panel(&lines, (screen.0 - w) / 2.0, screen.1 * 0.4, s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tries_wait_longer_each_time_up_to_fifteen_seconds() {
        let mut l = Lost::new("gone".into(), JoinOptions::default(), 100.0);
        assert!(!l.due(101.0) && l.due(102.0));
        l.tried(102.0);
        assert_eq!(l.next, 106.0);
        l.tried(106.0);
        assert_eq!(l.next, 114.0);
        for _ in 0..10 {
            l.tried(200.0);
        }
        assert_eq!(l.next, 215.0);
        assert!(l.lines(210.0, false)[2].contains("5 s"));
        assert!(l.lines(210.0, true)[2].contains("try 12"));
    }
}
