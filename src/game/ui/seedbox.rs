//! The seed box: a one-line text field for a seed. Text is read like `strata gen --seed`:
//! a number is used as is, any other text is hashed.

use crate::base::rng::seed_from_text;

/// Longest seed text accepted.
pub const MAX_LEN: usize = 64;

/// The first line of a pasted text (what a one-line field takes of it).
pub fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeedBox {
    pub text: String,
}

impl SeedBox {
    /// Types one character; control characters are ignored.
    pub fn type_char(&mut self, c: char) {
        if !c.is_control() && self.text.chars().count() < MAX_LEN {
            self.text.push(c);
        }
    }

    /// Pastes text (first line only).
    pub fn paste(&mut self, text: &str) {
        first_line(text).chars().for_each(|c| self.type_char(c));
    }

    pub fn backspace(&mut self) {
        self.text.pop();
    }

    /// The seed the text stands for, `None` while empty.
    pub fn seed(&self) -> Option<u64> {
        let t = self.text.trim();
        (!t.is_empty()).then(|| seed_from_text(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_words_like_the_command_line() {
        let mut b = SeedBox::default();
        assert_eq!(b.seed(), None);
        "42".chars().for_each(|c| b.type_char(c));
        assert_eq!(b.seed(), Some(42));
        b.backspace();
        b.backspace();
        b.paste("hello world\nsecond line");
        assert_eq!(b.text, "hello world");
        assert_eq!(b.seed(), Some(seed_from_text("hello world")));
    }

    #[test]
    fn control_characters_and_overlong_text_are_refused() {
        let mut b = SeedBox::default();
        b.type_char('\u{8}');
        b.type_char('\r');
        assert_eq!(b.text, "");
        b.paste(&"9".repeat(100));
        assert_eq!(b.text.len(), MAX_LEN);
    }
}
