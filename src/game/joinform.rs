//! The Join form (pause menu, Join a server): three one-line fields, the server's
//! address, the player's name and the password that keeps their character, one of them
//! taking the keys (Tab, Up and Down move between them). Engine-free: Enter reads them as
//! [`JoinOptions`] or says which field is wrong.

use super::chat::ChatLine;
use crate::net::client::JoinOptions;

/// The fields in order.
pub const FIELDS: [&str; 3] = ["Server (HOST or HOST:PORT)", "Name", "Password"];

#[derive(Clone, Debug, Default, PartialEq)]
pub struct JoinForm {
    pub fields: [ChatLine; 3],
    /// The field taking the keys.
    pub focus: usize,
}

impl JoinForm {
    /// The field taking the keys.
    pub fn field(&mut self) -> &mut ChatLine {
        &mut self.fields[self.focus.min(FIELDS.len() - 1)]
    }

    /// The next field (after the last, the first).
    pub fn next(&mut self) {
        self.focus = (self.focus + 1) % FIELDS.len();
    }

    /// The field before (before the first, the last).
    pub fn prev(&mut self) {
        self.focus = (self.focus + FIELDS.len() - 1) % FIELDS.len();
    }

    /// The rows as shown: each field's label and text (the password as stars).
    pub fn rows(&self) -> Vec<String> {
        FIELDS
            .iter()
            .zip(&self.fields)
            .enumerate()
            .map(|(i, (label, f))| {
                let text = if i == 2 {
                    "*".repeat(f.text.chars().count())
                } else {
                    f.text.clone()
                };
                format!("{label}: {text}")
            })
            .collect()
    }

    /// The join the fields ask for, or what is wrong with them.
    pub fn options(&self) -> Result<JoinOptions, String> {
        let addr = self.fields[0].text.trim();
        let name = self.fields[1].text.trim();
        if addr.is_empty() {
            return Err("Server: type the server's address (HOST or HOST:PORT)".into());
        }
        if !crate::net::chars::valid_name(name) {
            return Err(format!(
                "Name: 1 to {} letters, digits, '_', '-' or spaces inside",
                crate::net::protocol::MAX_NAME
            ));
        }
        Ok(JoinOptions {
            addr: addr.to_string(),
            name: name.to_string(),
            password: self.fields[2].text.clone(),
            server_password: String::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_take_keys_in_turn_and_read_as_a_join() {
        let mut f = JoinForm::default();
        assert!(f.options().unwrap_err().starts_with("Server"));
        "127.0.0.1:7000"
            .chars()
            .for_each(|c| f.field().type_char(c));
        f.next();
        assert!(f.options().unwrap_err().starts_with("Name"), "no name yet");
        "Ann!".chars().for_each(|c| f.field().type_char(c));
        assert!(
            f.options().unwrap_err().starts_with("Name"),
            "! is no name's"
        );
        f.field().backspace();
        f.next();
        "pw".chars().for_each(|c| f.field().type_char(c));
        assert_eq!(
            f.rows(),
            vec![
                "Server (HOST or HOST:PORT): 127.0.0.1:7000",
                "Name: Ann",
                "Password: **"
            ]
        );
        let o = f.options().unwrap();
        assert_eq!(
            (o.addr.as_str(), o.name.as_str(), o.password.as_str()),
            ("127.0.0.1:7000", "Ann", "pw")
        );
        f.next();
        assert_eq!(f.focus, 0, "after the last, the first");
        f.prev();
        assert_eq!(f.focus, 2);
    }
}
