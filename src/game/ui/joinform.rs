//! The Join form (pause menu, Join a server): three one-line fields, the server's
//! address, the player's name and the password that keeps their character, one of them
//! taking the keys (Tab, Up and Down move between them). Engine-free: Enter reads them as
//! [`JoinOptions`] or says which field is wrong.

use super::chat::ChatLine;
use crate::net::client::JoinOptions;

/// The fields in order.
pub const FIELDS: [&str; 3] = ["Server (HOST or HOST:PORT)", "Name", "Password"];

/// A form of `N` one-line fields, one of them taking the keys (the Join form, the form
/// that opens a world to the network).
#[derive(Clone, Debug, PartialEq)]
pub struct Form<const N: usize> {
    pub labels: [&'static str; N],
    pub fields: [ChatLine; N],
    /// The field taking the keys.
    pub focus: usize,
    /// The field shown as stars (a password), if any.
    pub secret: Option<usize>,
}

impl<const N: usize> Form<N> {
    /// Empty fields with these labels; `secret`: the one shown as stars.
    pub fn new(labels: [&'static str; N], secret: Option<usize>) -> Form<N> {
        Form {
            labels,
            fields: std::array::from_fn(|_| ChatLine::default()),
            focus: 0,
            secret,
        }
    }

    /// The field taking the keys.
    pub fn field(&mut self) -> &mut ChatLine {
        &mut self.fields[self.focus.min(N - 1)]
    }

    /// The text of field `i`, trimmed.
    pub fn text(&self, i: usize) -> &str {
        self.fields[i].text.trim()
    }

    /// The next field (after the last, the first).
    pub fn next(&mut self) {
        self.focus = (self.focus + 1) % N;
    }

    /// The field before (before the first, the last).
    pub fn prev(&mut self) {
        self.focus = (self.focus + N - 1) % N;
    }

    /// The rows as shown: each field's label and text (the secret one as stars).
    pub fn rows(&self) -> Vec<String> {
        self.labels
            .iter()
            .zip(&self.fields)
            .enumerate()
            .map(|(i, (label, f))| {
                let text = if Some(i) == self.secret {
                    "*".repeat(f.text.chars().count())
                } else {
                    f.text.clone()
                };
                format!("{label}: {text}")
            })
            .collect()
    }
}

/// The Join form: the server's address, the name, the password (as stars).
#[derive(Clone, Debug, PartialEq)]
pub struct JoinForm {
    pub form: Form<3>,
}

impl Default for JoinForm {
    fn default() -> JoinForm {
        JoinForm {
            form: Form::new(FIELDS, Some(2)),
        }
    }
}

impl std::ops::Deref for JoinForm {
    type Target = Form<3>;
    fn deref(&self) -> &Form<3> {
        &self.form
    }
}

impl std::ops::DerefMut for JoinForm {
    fn deref_mut(&mut self) -> &mut Form<3> {
        &mut self.form
    }
}

impl JoinForm {
    /// The join the fields ask for, or what is wrong with them.
    pub fn options(&self) -> Result<JoinOptions, String> {
        let (addr, name) = (self.text(0), self.text(1));
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
            known_servers: None,
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
