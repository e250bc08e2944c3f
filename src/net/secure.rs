//! Joining with nothing readable from a capture. Netcode runs in its secure mode: a
//! client connects with a connect token the server itself made, sealed with a key only
//! the server has, carrying the session's keys that encrypt every packet after it (the
//! name and passwords of the hello among them). The token reaches the client over a key
//! exchange of its own on the same UDP port, before netcode:
//!
//! 1. the client sends [`ASK`], `STRK` and a fresh X25519 public key, padded to
//!    [`ASK_BYTES`] (so an answer is never much larger than what asked for it);
//! 2. the server answers with its long-term public key, a fresh public key of its own, a
//!    nonce and the token sealed (XChaCha20-Poly1305) under a key both sides derive
//!    (BLAKE2s of both Diffie-Hellman results and the three public keys): only the holder
//!    of the long-term secret can make an answer that opens;
//! 3. the client checks the long-term key against the one it pinned for that address on
//!    its first join ([`KnownServers`], a `known_servers` file as SSH's `known_hosts`) and
//!    refuses, saying so plainly, when it changed.
//!
//! The server's long-term key is kept beside its save (`<save>.key`, [`ServerKey`]).

use blake2::{Blake2s256, Digest};
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use renetcode::ConnectToken;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use x25519_dalek::{PublicKey, StaticSecret};

/// The first byte of the exchange's datagrams: a prefix netcode never sends (its packet
/// kinds are 0 to 6 in the low four bits).
pub const ASK: u8 = 0xFF;
const MAGIC: &[u8; 4] = b"STRK";

/// Bytes of a client's request (padded).
pub const ASK_BYTES: usize = 1200;

/// Bytes of the keys and the nonce.
const KEY: usize = 32;
const NONCE: usize = 24;

fn random32() -> [u8; 32] {
    renetcode::generate_random_bytes::<32>()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Option<[u8; 32]> {
    let s = s.trim();
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// A key's fingerprint as a player reads it: its first 8 bytes in hex.
pub fn fingerprint(public: &[u8; 32]) -> String {
    hex(&public[..8])
}

/// A server's long-term key.
pub struct ServerKey {
    secret: StaticSecret,
    pub public: [u8; 32],
}

/// The key file of a save: beside it, `<save>.key`.
pub fn key_path(save: &Path) -> PathBuf {
    let mut s = save.as_os_str().to_owned();
    s.push(".key");
    PathBuf::from(s)
}

/// Why a server's key file was not read or made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyError {
    /// The file holds something else than 64 hex digits.
    NotAKey(PathBuf),
    /// The file cannot be read or written: its path and the system's reason.
    Io { path: PathBuf, why: String },
}

impl std::fmt::Display for KeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyError::NotAKey(path) => {
                write!(
                    f,
                    "{}:1:1: not a server key (64 hex digits)",
                    path.display()
                )
            }
            KeyError::Io { path, why } => write!(f, "{}: {why}", path.display()),
        }
    }
}

impl std::error::Error for KeyError {}

impl ServerKey {
    fn of(bytes: [u8; 32]) -> ServerKey {
        let secret = StaticSecret::from(bytes);
        let public = PublicKey::from(&secret).to_bytes();
        ServerKey { secret, public }
    }

    /// The key in `path` (64 hex digits), or a new one written there (atomically, only
    /// its owner may read it) when there is none.
    pub fn load_or_make(path: &Path) -> Result<ServerKey, KeyError> {
        let io = |e: &dyn std::fmt::Display| KeyError::Io {
            path: path.to_path_buf(),
            why: e.to_string(),
        };
        match std::fs::read_to_string(path) {
            Ok(text) => unhex(&text)
                .map(ServerKey::of)
                .ok_or_else(|| KeyError::NotAKey(path.to_path_buf())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let key = ServerKey::of(random32());
                let text = format!("{}\n", hex(key.secret.as_bytes()));
                crate::base::fsio::write_file_in_new_folder(path, |f| f.write_all(text.as_bytes()))
                    .map_err(|e| io(&e))?;
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
                }
                Ok(key)
            }
            Err(e) => Err(io(&e)),
        }
    }

    /// A key for this run only (a test).
    pub fn fresh() -> ServerKey {
        ServerKey::of(random32())
    }
}

/// The sealing key of one exchange.
fn derive(
    dh1: &[u8; 32],
    dh2: &[u8; 32],
    client: &[u8; 32],
    long: &[u8; 32],
    eph: &[u8; 32],
) -> [u8; 32] {
    let mut h = Blake2s256::new();
    h.update(b"strata join v1");
    for part in [dh1, dh2, client, long, eph] {
        h.update(part);
    }
    h.finalize().into()
}

/// A client's side of an exchange: its secret, and the request to send.
pub struct Asking {
    secret: StaticSecret,
    public: [u8; 32],
}

impl Asking {
    pub fn new() -> Asking {
        let secret = StaticSecret::from(random32());
        let public = PublicKey::from(&secret).to_bytes();
        Asking { secret, public }
    }

    /// The request datagram.
    pub fn request(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(ASK_BYTES);
        out.push(ASK);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.public);
        out.resize(ASK_BYTES, 0);
        out
    }

    /// Opens the server's answer: its long-term public key and the connect token.
    pub fn open(&self, answer: &[u8]) -> Result<([u8; 32], ConnectToken), String> {
        let head = 1 + MAGIC.len();
        if answer.len() < head + 2 * KEY + NONCE || answer[0] != ASK || &answer[1..head] != MAGIC {
            return Err("the server's answer is not Strata's".into());
        }
        let take = |at: usize| -> [u8; 32] {
            let mut k = [0u8; 32];
            k.copy_from_slice(&answer[at..at + KEY]);
            k
        };
        let (long, eph) = (take(head), take(head + KEY));
        let nonce = XNonce::from_slice(&answer[head + 2 * KEY..head + 2 * KEY + NONCE]);
        let dh1 = self
            .secret
            .diffie_hellman(&PublicKey::from(long))
            .to_bytes();
        let dh2 = self.secret.diffie_hellman(&PublicKey::from(eph)).to_bytes();
        let key = derive(&dh1, &dh2, &self.public, &long, &eph);
        let plain = XChaCha20Poly1305::new(&key.into())
            .decrypt(nonce, &answer[head + 2 * KEY + NONCE..])
            .map_err(|_| "the server's answer does not open: not the key it claims".to_string())?;
        let token = ConnectToken::read(&mut &plain[..])
            .map_err(|e| format!("the server's connect token: {e}"))?;
        Ok((long, token))
    }
}

impl Default for Asking {
    fn default() -> Asking {
        Asking::new()
    }
}

/// The server's answer to `request` (from a client at `from`): a connect token for a new
/// client id, made by `make`, sealed for that client alone; `None` for a request that is
/// not one.
pub fn answer(
    key: &ServerKey,
    request: &[u8],
    make: impl FnOnce() -> Option<ConnectToken>,
) -> Option<Vec<u8>> {
    let head = 1 + MAGIC.len();
    if request.len() != ASK_BYTES || request[0] != ASK || &request[1..head] != MAGIC {
        return None;
    }
    let mut client = [0u8; 32];
    client.copy_from_slice(&request[head..head + KEY]);
    let eph = StaticSecret::from(random32());
    let eph_public = PublicKey::from(&eph).to_bytes();
    let dh1 = key
        .secret
        .diffie_hellman(&PublicKey::from(client))
        .to_bytes();
    let dh2 = eph.diffie_hellman(&PublicKey::from(client)).to_bytes();
    let sealing = derive(&dh1, &dh2, &client, &key.public, &eph_public);
    let token = make()?;
    let mut plain = Vec::new();
    token.write(&mut plain).ok()?;
    let nonce_bytes = renetcode::generate_random_bytes::<NONCE>();
    let sealed = XChaCha20Poly1305::new(&sealing.into())
        .encrypt(XNonce::from_slice(&nonce_bytes), &plain[..])
        .ok()?;
    let mut out = Vec::with_capacity(head + 2 * KEY + NONCE + sealed.len());
    out.push(ASK);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&key.public);
    out.extend_from_slice(&eph_public);
    out.extend_from_slice(&nonce_bytes);
    out.extend_from_slice(&sealed);
    Some(out)
}

/// The servers' keys a client has seen, by address (`ADDRESS HEX` lines; `#` comments).
pub struct KnownServers {
    path: PathBuf,
}

/// What the pinned keys say of a server's key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pinned {
    /// First join: now pinned.
    New,
    Same,
    /// Another key than the one pinned (at this line of the file).
    Changed {
        line: usize,
        was: [u8; 32],
    },
}

impl KnownServers {
    pub fn at(path: PathBuf) -> KnownServers {
        KnownServers { path }
    }

    /// Checks `key` for `addr` against the file, pinning it on a first join.
    pub fn check(&self, addr: SocketAddr, key: &[u8; 32]) -> Result<Pinned, String> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("{}: {e}", self.path.display())),
        };
        let name = addr.to_string();
        for (i, line) in text.lines().enumerate() {
            let mut words = line.split_whitespace();
            if let (Some(a), Some(k)) = (words.next(), words.next())
                && a == name
                && !a.starts_with('#')
            {
                let Some(was) = unhex(k) else {
                    return Err(format!(
                        "{}:{}:{}: not a key",
                        self.path.display(),
                        i + 1,
                        a.len() + 2
                    ));
                };
                return Ok(if &was == key {
                    Pinned::Same
                } else {
                    Pinned::Changed { line: i + 1, was }
                });
            }
        }
        let mut out = text;
        if out.is_empty() {
            out.push_str("# Strata: the keys of the servers this player joined (address key)\n");
        }
        out.push_str(&format!("{name} {}\n", hex(key)));
        crate::base::fsio::write_file_in_new_folder(&self.path, |f| f.write_all(out.as_bytes()))
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        Ok(Pinned::New)
    }

    /// The warning for a changed key.
    pub fn changed(&self, addr: SocketAddr, line: usize, was: &[u8; 32], now: &[u8; 32]) -> String {
        format!(
            "WARNING: the server at {addr} has another key ({}) than when you first joined it ({}): \
             someone may be in between. Not joined. If the server's keeper says its key changed, \
             remove line {line} of {} and join again",
            fingerprint(now),
            fingerprint(was),
            self.path.display()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token() -> ConnectToken {
        let addr: SocketAddr = "127.0.0.1:7777".parse().unwrap();
        ConnectToken::generate(
            std::time::Duration::from_secs(1000),
            7,
            60,
            42,
            15,
            vec![addr],
            None,
            &[9u8; 32],
        )
        .unwrap()
    }

    #[test]
    fn only_the_asking_client_opens_the_answer_and_it_names_the_servers_key() {
        let key = ServerKey::fresh();
        let asking = Asking::new();
        let reply = answer(&key, &asking.request(), || Some(token())).unwrap();
        let (long, t) = asking.open(&reply).unwrap();
        assert_eq!(long, key.public);
        assert_eq!(t.client_id, 42);
        // Neither the token's keys nor the secret are in the datagrams.
        let secret = key.secret.to_bytes();
        for bytes in [asking.request(), reply.clone()] {
            for k in [t.client_to_server_key, t.server_to_client_key, secret] {
                assert!(!bytes.windows(32).any(|w| w == k));
            }
        }
        // Another client cannot open it; a server with another key cannot answer for it.
        assert!(Asking::new().open(&reply).is_err());
        let mut forged = reply.clone();
        forged[5..37].copy_from_slice(&ServerKey::fresh().public);
        assert!(asking.open(&forged).is_err());
        // A short or foreign request gets no answer.
        assert!(answer(&key, &asking.request()[..100], || Some(token())).is_none());
    }

    #[test]
    fn a_servers_key_is_pinned_on_the_first_join_and_a_change_is_caught() {
        let dir = std::env::temp_dir().join(format!("strata-known-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let known = KnownServers::at(dir.join("known_servers"));
        let addr: SocketAddr = "10.0.0.1:7777".parse().unwrap();
        let (a, b) = ([1u8; 32], [2u8; 32]);
        assert_eq!(known.check(addr, &a), Ok(Pinned::New));
        assert_eq!(known.check(addr, &a), Ok(Pinned::Same));
        assert_eq!(
            known.check(addr, &b),
            Ok(Pinned::Changed { line: 2, was: a })
        );
        let other: SocketAddr = "10.0.0.2:7777".parse().unwrap();
        assert_eq!(known.check(other, &b), Ok(Pinned::New));
        let warning = known.changed(addr, 2, &a, &b);
        assert!(warning.starts_with("WARNING: the server at 10.0.0.1:7777 has another key"));
        let key_file = dir.join("w.strata.key");
        let k1 = ServerKey::load_or_make(&key_file).unwrap();
        let k2 = ServerKey::load_or_make(&key_file).unwrap();
        assert_eq!(k1.public, k2.public, "kept");
        std::fs::write(&key_file, "zz").unwrap();
        let e = ServerKey::load_or_make(&key_file).err();
        assert_eq!(e, Some(KeyError::NotAKey(key_file.clone())));
        let e = e.map(|e| e.to_string()).unwrap_or_default();
        assert!(e.ends_with(":1:1: not a server key (64 hex digits)"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
