//! Why a join failed or ended ([`JoinError`]), and why a server refuses a player
//! ([`Refusal`]): typed, so a caller tells a wrong password from a full server or a bad
//! address, while the sentences the window shows and the server logs stay as they were.
//! A server sends a refusal as its sentence; [`Refusal::from_sentence`] reads it back, both
//! sides from the one list here.

use std::fmt;
use std::time::Duration;

/// Why a server refuses a player, as it says it in [`crate::net::protocol::ToClient::Refused`].
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The server's password was wrong (or missing).
    WrongServerPassword,
    /// The character `name` is kept with another password.
    WrongPassword { name: String },
    /// Banned from this server (by name or address).
    Banned,
    /// Not on this server's whitelist.
    NotListed,
    /// Every seat is taken.
    Full,
    /// A player of this name is already on (with another password), or hosts.
    AlreadyPlaying { name: String },
    /// The server plays with other content: its sentence naming the files that differ.
    Content(String),
    /// Any other reason, in the server's words (a kick, the server stopping, content that
    /// differs, a name it refuses).
    Other(String),
}

impl Refusal {
    /// The refusal a server's sentence says (what [`fmt::Display`] writes).
    pub fn from_sentence(why: &str) -> Refusal {
        match why {
            "wrong server password" => return Refusal::WrongServerPassword,
            "banned from this server" => return Refusal::Banned,
            "not on this server's whitelist" => return Refusal::NotListed,
            "the server is full" => return Refusal::Full,
            _ => {}
        }
        if let Some(name) = why.strip_prefix("wrong password for ") {
            return Refusal::WrongPassword { name: name.into() };
        }
        if let Some(name) = why.strip_suffix(" is already playing") {
            return Refusal::AlreadyPlaying { name: name.into() };
        }
        if why.contains("'s content differs from yours: ") {
            return Refusal::Content(why.into());
        }
        Refusal::Other(why.into())
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::WrongServerPassword => write!(f, "wrong server password"),
            Refusal::WrongPassword { name } => write!(f, "wrong password for {name}"),
            Refusal::Banned => write!(f, "banned from this server"),
            Refusal::NotListed => write!(f, "not on this server's whitelist"),
            Refusal::Full => write!(f, "the server is full"),
            Refusal::AlreadyPlaying { name } => write!(f, "{name} is already playing"),
            Refusal::Content(why) | Refusal::Other(why) => write!(f, "{why}"),
        }
    }
}

/// Why a join did not start, failed, or ended.
#[derive(Clone, Debug, PartialEq)]
pub enum JoinError {
    /// The player's name is not 1 to [`crate::net::protocol::MAX_NAME`] characters: its
    /// length in characters.
    BadName(usize),
    /// The address does not resolve: the address as given and the resolver's reason
    /// (`None`: it resolved to no address).
    BadAddress { addr: String, why: Option<String> },
    /// A socket could not be opened, or the connection not begun (the sentence).
    Socket(String),
    /// The key exchange failed, or the server's key is not the one pinned (the warning).
    Key(String),
    /// The server did not answer within [`crate::net::client::CONNECT_TIMEOUT`].
    NoAnswer,
    /// The server speaks another protocol version (its version).
    Version(u32),
    /// The server plays with other content: the sentence naming the files that differ.
    Content(String),
    /// The server refused, or sent this player away.
    Refused(Refusal),
    /// The server's world cannot be made here (its preset's error), or making it failed.
    World(String),
    /// The server sent something this build cannot read (the sentence).
    BadMessage(String),
    /// The connection was lost, or the server went silent (the sentence).
    Lost(String),
    /// Not playing after this long (from [`crate::net::client::wait_ready`]).
    NotReady(Duration),
    /// The player left.
    Left,
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JoinError::BadName(n) => write!(
                f,
                "a name has 1 to {} characters, not {n}",
                crate::net::protocol::MAX_NAME
            ),
            JoinError::BadAddress {
                addr,
                why: Some(why),
            } => write!(f, "cannot resolve '{addr}': {why}"),
            JoinError::BadAddress { addr, why: None } => write!(f, "'{addr}' names no address"),
            JoinError::NoAnswer => write!(f, "the server did not answer"),
            JoinError::Version(v) => write!(f, "the server speaks protocol {v}"),
            JoinError::Refused(r) => write!(f, "refused: {r}"),
            JoinError::NotReady(t) => write!(f, "not ready after {:.0} s", t.as_secs_f64()),
            JoinError::Left => write!(f, "left"),
            JoinError::Socket(s)
            | JoinError::Key(s)
            | JoinError::Content(s)
            | JoinError::World(s)
            | JoinError::BadMessage(s)
            | JoinError::Lost(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for JoinError {}

impl JoinError {
    /// Did the server refuse for the password of the character or of the server?
    pub fn is_wrong_password(&self) -> bool {
        matches!(
            self,
            JoinError::Refused(Refusal::WrongPassword { .. } | Refusal::WrongServerPassword)
        )
    }
}

impl From<JoinError> for String {
    fn from(e: JoinError) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_of_no_host_is_a_bad_address() {
        let e = crate::net::client::resolve("").unwrap_err();
        assert!(
            matches!(&e, JoinError::BadAddress { addr, .. } if addr.is_empty()),
            "{e:?}"
        );
        assert!(
            e.to_string().starts_with("cannot resolve ''")
                || e.to_string().contains("names no address")
        );
    }

    #[test]
    fn a_refusal_reads_back_from_its_sentence() {
        for r in [
            Refusal::WrongServerPassword,
            Refusal::WrongPassword { name: "ann".into() },
            Refusal::Banned,
            Refusal::NotListed,
            Refusal::Full,
            Refusal::AlreadyPlaying {
                name: "bo b".into(),
            },
            Refusal::Content(
                "the server's content differs from yours: a.ron (not the same)".into(),
            ),
            Refusal::Other("kicked by admin".into()),
        ] {
            assert_eq!(Refusal::from_sentence(&r.to_string()), r);
        }
    }
}
