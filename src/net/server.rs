//! A Strata server ([`Server`]): it owns the world (a [`Session`]), takes each client's
//! intents, checks them and applies them to the session, and sends every client the cells
//! that changed, where the players and creatures are, and chat. A joining client makes the
//! untouched world itself and gets only the regions that differ from it, nearest its
//! player first; characters are kept under name and password ([`Characters`]).
//!
//! A client that sends anything malformed, oversized, out of order or replayed, floods,
//! or says nothing after connecting is dropped with a log line; the others play on.

use crate::net::chars::{self, Characters, Denied};
use crate::net::keeper::{self, Command, Keeper, Listing};
use crate::net::protocol::{self, Body, Channel, Character, ToClient, ToServer};
use crate::net::transport::Transport;
use crate::sim::session::{Changes, Intent, LOCAL, Message, PlayerId, PlayerState, Session};
use crate::world::World;
use renet::{ClientId, ConnectionConfig, DefaultChannel, RenetServer, ServerEvent};
use renet_netcode::{ServerAuthentication, ServerConfig};
use std::collections::{BTreeMap, VecDeque};
use std::net::{SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How a server runs.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Where to listen (`0.0.0.0:7777` for everyone, `127.0.0.1:0` for a test).
    pub listen: SocketAddr,
    pub max_players: usize,
    /// Empty: anyone may join.
    pub password: String,
    pub motd: String,
    /// The world's save (written every `autosave` and on stop).
    pub save: PathBuf,
    /// The characters' folder.
    pub characters: PathBuf,
    pub autosave: Duration,
    /// The host plays in the session as player 0 (a window that opened its world to
    /// the network); otherwise player 0's seat is empty.
    pub host_plays: bool,
}

impl ServeOptions {
    /// A server on loopback at a free port, its save and characters in `dir`, four
    /// players, no password, no autosave to speak of (tests).
    pub fn loopback(dir: &std::path::Path) -> ServeOptions {
        ServeOptions {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            max_players: 4,
            password: String::new(),
            motd: String::new(),
            save: dir.join("world.strata"),
            characters: dir.join("characters"),
            autosave: Duration::from_secs(3600),
            host_plays: false,
        }
    }
}

/// Seconds a client may stay connected without saying who it is.
pub const HELLO_SECONDS: f64 = 5.0;

/// Ticks of input a client may have waiting: past it (a client catching up after a
/// stall) the oldest tick's held controls are dropped and its actions kept for the next.
pub const MAX_QUEUED: usize = 30;

/// Inputs a client may send in [`FLOOD_WINDOW`] seconds (twice the tick rate): more is a
/// flood, and the client is dropped.
pub const FLOOD_INPUTS: u32 = 600;
pub const FLOOD_WINDOW: f64 = 5.0;

/// Chat lines a player may say in [`CHAT_WINDOW`] seconds.
pub const CHAT_LINES: u32 = 5;
pub const CHAT_WINDOW: f64 = 5.0;

/// Ticks between snapshots of the bodies.
pub const SNAPSHOT_EVERY: u64 = 3;

/// Ticks between two [`ToClient::Hash`] checks (sent when anything changed).
pub const HASH_EVERY: u64 = 60;

/// Bytes of regions sent to one client in one tick at most.
pub const REGION_BYTES_PER_TICK: usize = 48 * 1024;

/// Seconds between two summaries of the datagrams refused ([`Transport`]): a flood of
/// junk writes a line this often at most.
pub const REFUSALS_EVERY: f64 = 10.0;

/// Lines of the log a server keeps to show ([`Server::recent_log`]).
pub const RECENT_LOG: usize = 64;

/// Most half-view a client may claim, tiles.
pub const MAX_VIEW_HALF: f32 = 128.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Hello,
    Generating,
    Streaming,
    Playing,
}

struct Conn {
    addr: Option<SocketAddr>,
    stage: Stage,
    name: String,
    password: String,
    seat: Option<PlayerId>,
    seq: u64,
    /// Inputs waiting for their tick, each with its `seq`.
    queue: VecDeque<(u64, Vec<Intent>)>,
    /// The `seq` of the last input done that had an action in it (a click, a craft):
    /// the client hears of each such input ([`ToClient::Me`]).
    acted: u64,
    /// The `seq` of the last input done.
    done: u64,
    regions: VecDeque<(usize, usize)>,
    /// The character, and whether it was dead, when its [`ToClient::Me`] was last sent.
    sent: Option<(Character, bool)>,
    /// What the player held and had open when its [`ToClient::Me`] was last sent.
    sent_hands: Option<Hands>,
    since: Instant,
    chat: (Instant, u32),
    inputs: (Instant, u32),
    /// Dropped at this tick (after a refusal has had time to go).
    drop_at: Option<u64>,
    /// The last refusal told and its tick (see [`refusal_due`]).
    refused: Option<(crate::sim::edit::EditRefusal, u64)>,
}

/// Whether refusal `e` at `tick` is told to a player last told `last`: a new refusal at
/// once (a single click's is never lost), the same one held again every half second.
fn refusal_due(
    last: Option<(crate::sim::edit::EditRefusal, u64)>,
    e: crate::sim::edit::EditRefusal,
    tick: u64,
) -> bool {
    last.is_none_or(|(was, at)| was != e || tick >= at + 30)
}

/// What a player's hands hold and have open, and the last action done: when it differs
/// from what was last sent, the player's [`ToClient::Me`] goes at once.
#[derive(Clone, Debug, PartialEq)]
struct Hands {
    inventory: crate::world::inventory::Inventory,
    held: Option<crate::world::inventory::Stack>,
    chest: Option<((usize, usize), Option<crate::world::chest::Chest>)>,
    shop: Option<&'static str>,
    acted: u64,
}

/// Does `intent` ask for an answer (anything but held controls and the selection and
/// view a client sends every tick)?
fn is_action(intent: &Intent) -> bool {
    !intent.is_held()
        && !matches!(
            intent,
            Intent::Select(_)
                | Intent::Scroll(_)
                | Intent::View { .. }
                | Intent::Jump
                | Intent::Down
        )
}

/// What a server measured (the benchmarks and the log).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Bytes of messages sent, all clients.
    pub bytes_sent: u64,
    /// Bytes of region messages sent.
    pub region_bytes: u64,
    pub regions_sent: u64,
    /// Time spent in [`Server::tick`].
    pub busy: Duration,
    pub ticks: u64,
}

/// A server and its world: a [`Station`] that owns the session it serves (`strata
/// serve`, the tests and benchmarks). It reaches the station's own state (its keeper,
/// stats, players, log) through `Deref`.
pub struct Server {
    pub session: Session,
    station: Station,
}

/// The half of a server that lives from tick to tick without the world: its socket, its
/// clients and their seats, the keeper, the journal, the log. It serves a session it is
/// lent for each call ([`Station::serving`]): a hosting window keeps its own session and
/// lends it every tick; a [`Server`] lends its own.
pub struct Station {
    renet: RenetServer,
    transport: Transport,
    untouched: World,
    conns: BTreeMap<ClientId, Conn>,
    chars: Characters,
    opts: ServeOptions,
    last: Instant,
    last_save: Instant,
    /// A cell changed since the last hash was sent.
    changed: bool,
    pub stats: Stats,
    addr: SocketAddr,
    /// The host's name, when it plays (seat 0): told to those who join.
    host_name: Option<String>,
    /// What the host's window has not heard yet (only kept when the host plays).
    heard: Vec<Heard>,
    /// The journal beside the save, when the server keeps one ([`Server::keep_journal`]).
    journal: Option<crate::store::journal::Journal>,
    last_flush: Instant,
    /// Each player's password as its character file keeps it (salt, hash), by name:
    /// what the journal writes of a character.
    seals: BTreeMap<String, (String, String)>,
    /// Lines logged so far, and the last [`RECENT_LOG`] of them.
    log_lines: u64,
    recent: VecDeque<String>,
    /// When the refused datagrams were last summarised.
    last_refusals: Instant,
    /// Bans, the whitelist, operators, protected ground ([`Keeper`]), and its file.
    pub keeper: Keeper,
    keeper_path: PathBuf,
    /// The world's spawn point (the centre of its protected ground).
    spawn: (f32, f32),
}

/// What a hosting window hears of its server: its players' chat, joins and leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    Chat { from: String, text: String },
    Joined { seat: PlayerId, name: String },
    Left { seat: PlayerId, name: String },
}

/// A line of the server's log: standard error, `strata serve: …` (a server's own lines
/// go through [`Server::log`], which counts them too).
pub fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "strata serve: {line}");
}

/// Why a server did not start: each says so in one sentence (its `Display`), and a
/// window that opens its world to the network tells a taken port from a bad key file.
#[derive(Debug)]
pub enum ServeError {
    /// The untouched world has another size than the world served.
    Size,
    /// The address cannot be listened on (taken, or not this machine's).
    Listen {
        addr: SocketAddr,
        error: std::io::Error,
    },
    /// The server's key beside the save cannot be read or written.
    Key(crate::net::secure::KeyError),
    /// The network layer would not start.
    Transport(String),
    /// The keeper's file beside the save is wrong.
    Keeper(keeper::KeeperError),
}

impl ServeError {
    /// Another program (or server) listens on the port already.
    pub fn port_taken(&self) -> bool {
        matches!(self, ServeError::Listen { error, .. } if error.kind() == std::io::ErrorKind::AddrInUse)
    }
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Size => f.write_str("the untouched world has another size than the world"),
            ServeError::Listen { addr, error } => write!(f, "cannot listen on {addr}: {error}"),
            ServeError::Key(e) => e.fmt(f),
            ServeError::Transport(e) => f.write_str(e),
            ServeError::Keeper(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ServeError {}

impl Server {
    /// A server on `session`, whose world was made as `untouched` (same size), listening
    /// as `opts` says.
    pub fn start(
        mut session: Session,
        untouched: World,
        opts: ServeOptions,
    ) -> Result<Server, ServeError> {
        let station = Station::start(&mut session, untouched, opts)?;
        Ok(Server { session, station })
    }

    /// The station with the server's own session lent to it.
    pub fn serving(&mut self) -> Serving<'_> {
        self.station.serving(&mut self.session)
    }

    /// [`Serving::tick`] of the server's own session.
    pub fn tick(&mut self, local: &[Intent]) -> Changes {
        self.serving().tick(local)
    }

    /// [`Serving::command`] on the server's own session.
    pub fn command(&mut self, line: &str, by: Option<&str>) -> Vec<String> {
        self.serving().command(line, by)
    }

    /// [`Serving::save`] of the server's own session.
    pub fn save(&mut self) {
        self.serving().save()
    }

    /// [`Serving::keep_journal`] of the server's own session.
    pub fn keep_journal(&mut self, save_first: bool) {
        self.serving().keep_journal(save_first)
    }

    /// [`Serving::stop`]: goodbye to everyone, and the server's own session saved.
    pub fn stop(&mut self) {
        self.serving().stop()
    }

    /// [`protocol::view_hash`] of the world (what every client's view hashes as).
    pub fn view_hash(&self) -> u64 {
        protocol::view_hash(&self.session.world)
    }
}

impl std::ops::Deref for Server {
    type Target = Station;
    fn deref(&self) -> &Station {
        &self.station
    }
}

impl std::ops::DerefMut for Server {
    fn deref_mut(&mut self) -> &mut Station {
        &mut self.station
    }
}

/// A [`Station`] serving a session lent to it for one call (a tick, a command, a save):
/// what every part of a server that reads or changes the world runs on. It reaches the
/// station's own state through `Deref`.
pub struct Serving<'a> {
    station: &'a mut Station,
    /// The session served.
    pub session: &'a mut Session,
}

impl std::ops::Deref for Serving<'_> {
    type Target = Station;
    fn deref(&self) -> &Station {
        self.station
    }
}

impl std::ops::DerefMut for Serving<'_> {
    fn deref_mut(&mut self) -> &mut Station {
        self.station
    }
}

impl Station {
    /// A station serving `session`, whose world was made as `untouched` (same size),
    /// listening as `opts` says. Player 0 leaves the session unless the host plays.
    pub fn start(
        session: &mut Session,
        untouched: World,
        opts: ServeOptions,
    ) -> Result<Station, ServeError> {
        if untouched.width() != session.world.width()
            || untouched.height() != session.world.height()
        {
            return Err(ServeError::Size);
        }
        let (addr, socket) = UdpSocket::bind(opts.listen)
            .and_then(|s| Ok((s.local_addr()?, s)))
            .map_err(|error| ServeError::Listen {
                addr: opts.listen,
                error,
            })?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        // Secure netcode: only tokens this server issued connect, and every packet after
        // is encrypted with the keys in them (see net/secure.rs).
        let key_path = crate::net::secure::key_path(&opts.save);
        let key =
            crate::net::secure::ServerKey::load_or_make(&key_path).map_err(ServeError::Key)?;
        let private_key = renetcode::generate_random_bytes::<32>();
        let config = ServerConfig {
            current_time: now,
            // Room to tell a few more that the server is full.
            max_clients: opts.max_players + 4,
            protocol_id: protocol::PROTOCOL_ID,
            public_addresses: vec![addr],
            authentication: ServerAuthentication::Secure { private_key },
        };
        let issuer = crate::net::transport::Issuer {
            key,
            private_key,
            protocol_id: protocol::PROTOCOL_ID,
            addr,
        };
        let transport = Transport::new(config, socket, issuer)
            .map_err(|e| ServeError::Transport(e.to_string()))?;
        let keeper_path = keeper::keeper_path(&opts.save);
        let keeper = Keeper::load(&keeper_path).map_err(ServeError::Keeper)?;
        let spawn = crate::sim::player::spawn_point(&session.world);
        if !opts.host_plays {
            session.leave(LOCAL);
        }
        Ok(Station {
            renet: RenetServer::new(ConnectionConfig::default()),
            transport,
            untouched,
            conns: BTreeMap::new(),
            chars: Characters::new(opts.characters.clone()),
            opts,
            last: Instant::now(),
            last_save: Instant::now(),
            changed: true,
            stats: Stats::default(),
            addr,
            host_name: None,
            heard: Vec::new(),
            journal: None,
            last_flush: Instant::now(),
            seals: BTreeMap::new(),
            log_lines: 0,
            recent: VecDeque::new(),
            last_refusals: Instant::now(),
            keeper,
            keeper_path,
            spawn,
        })
    }

    /// This station serving `session` for a call.
    pub fn serving<'a>(&'a mut self, session: &'a mut Session) -> Serving<'a> {
        Serving {
            station: self,
            session,
        }
    }

    /// Writes `line` to the log ([`say`]) and counts it.
    pub fn log(&mut self, line: &str) {
        say(line);
        self.log_lines += 1;
        if self.recent.len() >= RECENT_LOG {
            self.recent.pop_front();
        }
        self.recent.push_back(line.to_string());
    }

    /// Lines this server has logged.
    pub fn log_lines(&self) -> u64 {
        self.log_lines
    }

    /// The last lines logged (at most [`RECENT_LOG`]), oldest first.
    pub fn recent_log(&self) -> Vec<String> {
        self.recent.iter().cloned().collect()
    }

    /// Logs a summary of the datagrams refused since the last one, if any were.
    pub fn summarise_refusals(&mut self) {
        let over = self.last_refusals.elapsed();
        self.last_refusals = Instant::now();
        let r = self.transport.take_refusals();
        if r.total > 0 {
            self.log(&r.summary(over));
        }
    }

    /// Names the host who plays in seat 0 (the others are told, and no one else may
    /// join under that name).
    pub fn set_host_name(&mut self, name: &str) {
        self.host_name = Some(name.to_string());
    }

    /// What the host's window has not heard yet: chat, joins and leaves, in order.
    pub fn heard(&mut self) -> Vec<Heard> {
        std::mem::take(&mut self.heard)
    }

    fn hear(&mut self, h: Heard) {
        if self.opts.host_plays {
            self.heard.push(h);
        }
    }

    /// The seats of the players who joined, with their names.
    pub fn seats(&self) -> Vec<(PlayerId, String)> {
        self.conns
            .values()
            .filter_map(|c| Some((c.seat?, c.name.clone())))
            .collect()
    }

    /// A chat line of the host's, to everyone who joined.
    pub fn say_as_host(&mut self, text: &str) {
        let text: String = text.chars().take(protocol::MAX_CHAT).collect();
        let from = self.host_name.clone().unwrap_or_else(|| "host".into());
        self.log(&format!("<{from}> {text}"));
        self.broadcast(&ToClient::Chat { from, text }, None);
    }
}

impl Serving<'_> {
    /// Cells `at` changed outside a tick (the host's own actions between ticks, such as
    /// a click in a chest): sent to everyone who joined.
    pub fn cells_changed(&mut self, at: &[(usize, usize)]) {
        if at.is_empty() {
            return;
        }
        let cells = at
            .iter()
            .map(|&(x, y)| protocol::cell(&self.session.content.catalog, &self.session.world, x, y))
            .collect();
        self.broadcast(&ToClient::Cells(cells), None);
        self.changed = true;
    }
}

impl Station {
    /// The address the server listens on (its port when it was given 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Players on (with a seat).
    pub fn players(&self) -> Vec<String> {
        self.conns
            .values()
            .filter(|c| c.seat.is_some())
            .map(|c| c.name.clone())
            .collect()
    }
}

impl Serving<'_> {
    /// [`protocol::view_hash`] of the world (what every client's view hashes as).
    pub fn view_hash(&self) -> u64 {
        protocol::view_hash(&self.session.world)
    }
}

impl Station {
    fn send(&mut self, id: ClientId, msg: &ToClient) {
        let bytes = protocol::encode(msg);
        self.stats.bytes_sent += bytes.len() as u64;
        self.renet
            .send_message(id, DefaultChannel::ReliableOrdered, bytes);
    }

    /// Sends `msg` to every client past its hello (but `except`).
    fn broadcast(&mut self, msg: &ToClient, except: Option<ClientId>) {
        let bytes = protocol::encode(msg);
        let to: Vec<ClientId> = self
            .conns
            .iter()
            .filter(|(id, c)| c.stage != Stage::Hello && Some(**id) != except)
            .map(|(id, _)| *id)
            .collect();
        for id in to {
            self.stats.bytes_sent += bytes.len() as u64;
            self.renet
                .send_message(id, DefaultChannel::ReliableOrdered, bytes.clone());
        }
    }
}

impl Serving<'_> {
    /// Drops client `id` now, saying why in the log.
    fn drop_client(&mut self, id: ClientId, why: &str) {
        let who = self.conns.get(&id).map_or(format!("client {id}"), |c| {
            let name = if c.name.is_empty() { "?" } else { &c.name };
            match c.addr {
                Some(a) => format!("{name} ({a})"),
                None => name.to_string(),
            }
        });
        self.log(&format!("dropped {who}: {why}"));
        self.renet.disconnect(id);
        self.gone(id);
    }

    /// Refuses client `id` (told why, then dropped a moment later; the client reads the
    /// sentence back as a [`crate::net::join::Refusal`]).
    fn refuse(&mut self, id: ClientId, why: &str) {
        let addr = self.conns.get(&id).and_then(|c| c.addr);
        self.log(&format!(
            "refused {}: {why}",
            addr.map_or(format!("client {id}"), |a| a.to_string())
        ));
        self.send(id, &ToClient::Refused(why.to_string()));
        let tick = self.session.tick;
        if let Some(c) = self.conns.get_mut(&id) {
            c.drop_at = Some(tick + 30);
            c.stage = Stage::Hello;
            c.since = Instant::now() + Duration::from_secs(3600);
        }
    }

    /// Client `id` is gone: its character kept, its seat emptied, the others told.
    fn gone(&mut self, id: ClientId) {
        let Some(c) = self.conns.remove(&id) else {
            return;
        };
        if let Some(seat) = c.seat {
            // Leaving puts the cursor's stack back into the slots, then it is kept: in
            // the journal first, at the same moment as the world, then in its file.
            self.session.leave(seat);
            let also = self
                .stored_value(&c.name, seat)
                .map(|v| (c.name.clone(), v));
            self.flush_journal(also);
            self.keep_character(&c.name, &c.password, seat);
            let n = self.players().len();
            self.log(&format!("{} left ({n} on)", c.name));
            let name = c.name.clone();
            self.hear(Heard::Left { seat, name });
            let msg = ToClient::Left {
                id: seat.0 as u32,
                name: c.name.clone(),
            };
            self.broadcast(&msg, None);
        }
    }

    fn keep_character(&mut self, name: &str, password: &str, seat: PlayerId) {
        let state = self.session.player_state(seat);
        if let Err(e) = self
            .chars
            .put(name, password, &protocol::character_of(&state))
        {
            self.log(&format!("{name}'s character not kept: {e}"));
        }
    }

    /// Saves the world and every character on, atomically, at one moment: the journal
    /// first gets a last record of it, then the characters' files, then the world's
    /// save (the one before it kept as its backup), and the journal starts again after
    /// it. A crash between any two steps loses nothing: the old save and its journal
    /// still reach this moment. A failure is logged; the last good files stay.
    pub fn save(&mut self) {
        self.flush_journal(None);
        self.keep_characters();
        let player = self.session.player_state(LOCAL);
        let path = self.opts.save.clone();
        match crate::store::save::save_keeping_backup(&path, &self.session.world, &player) {
            Ok(_) => {
                let line = format!(
                    "saved {} (world hash {:016x})",
                    path.display(),
                    self.view_hash()
                );
                self.log(&line);
                if self.journal.is_some() {
                    self.start_journal();
                }
            }
            Err(e) => self.log(&format!("not saved: {e}")),
        }
        self.last_save = Instant::now();
    }

    /// Keeps a journal beside the save from now on ([`crate::store::journal`]): what
    /// changes is written about once a second, so a crash loses about a second of play.
    /// A world without a save yet is saved first, for the journal to follow, and so is
    /// one given `save_first` (a journal was just replayed into it: the new journal
    /// follows a save that holds what the old one did).
    pub fn keep_journal(&mut self, save_first: bool) {
        if save_first || crate::store::journal::Base::of_file(&self.opts.save).is_none() {
            self.journal = None;
            self.save();
        }
        self.start_journal();
    }

    fn start_journal(&mut self) {
        let player = self.session.player_state(LOCAL);
        let chars = self.journal_characters();
        let world = &self.session.world;
        match crate::store::journal::Journal::start(&self.opts.save, world, &player, &chars) {
            Ok(j) => self.journal = Some(j),
            Err(e) => {
                say(&format!("no journal kept: {e}"));
                self.journal = None;
            }
        }
        self.last_flush = Instant::now();
    }

    /// The characters of the players on, as their files keep them.
    fn journal_characters(&self) -> Vec<(String, serde_json::Value)> {
        self.conns
            .values()
            .filter_map(|c| Some((c.name.clone(), self.stored_value(&c.name, c.seat?)?)))
            .collect()
    }

    /// Player `seat`'s character under `name` as its file keeps it, for the journal.
    fn stored_value(&self, name: &str, seat: PlayerId) -> Option<serde_json::Value> {
        let (salt, hash) = self.seals.get(name)?.clone();
        let stored = chars::Stored {
            name: name.to_string(),
            salt,
            hash,
            character: protocol::character_of(&self.session.player_state(seat)),
            worlds: Default::default(),
        };
        serde_json::to_value(stored).ok()
    }

    /// Writes the journal's record of this moment (with `also`, a character that just
    /// left), when a journal is kept.
    fn flush_journal(&mut self, also: Option<(String, serde_json::Value)>) {
        if self.journal.is_none() {
            return;
        }
        let mut chars = self.journal_characters();
        chars.extend(also);
        let player = self.session.player_state(LOCAL);
        if let Some(j) = &mut self.station.journal
            && let Err(e) = j.flush(&self.session.world, &player, &chars)
        {
            say(&format!("journal not written: {e}"));
        }
        self.last_flush = Instant::now();
    }

    /// Writes the character of every player on (atomically; a failure is logged).
    pub fn keep_characters(&mut self) {
        let on: Vec<(String, String, PlayerId)> = (self.conns.values())
            .filter_map(|c| Some((c.name.clone(), c.password.clone(), c.seat?)))
            .collect();
        for (name, password, seat) in on {
            self.keep_character(&name, &password, seat);
        }
    }

    /// A chat line from the server itself, to everyone.
    pub fn announce(&mut self, text: &str) {
        let text: String = text.chars().take(protocol::MAX_CHAT).collect();
        self.log(&format!("<server> {text}"));
        let msg = ToClient::Chat {
            from: String::new(),
            text,
        };
        self.broadcast(&msg, None);
    }

    /// Says goodbye to everyone and saves.
    pub fn stop(&mut self) {
        self.farewell("the server stopped");
        self.save();
        self.station
            .transport
            .disconnect_all(&mut self.station.renet);
        self.summarise_refusals();
    }

    /// Tells everyone `why` and drops them, keeping their characters; the world is not
    /// saved (a hosting window saves it as it always does).
    pub fn close(&mut self, why: &str) {
        self.farewell(why);
        self.station
            .transport
            .disconnect_all(&mut self.station.renet);
    }

    fn farewell(&mut self, why: &str) {
        let ids: Vec<ClientId> = self.conns.keys().copied().collect();
        for id in ids {
            self.send(id, &ToClient::Refused(why.into()));
        }
        self.station.transport.send_packets(&mut self.station.renet);
        let ids: Vec<ClientId> = self.conns.keys().copied().collect();
        for id in ids {
            self.gone(id);
        }
    }

    /// One tick: what came in, the session stepped with each player's next intents (and
    /// `local`, the host's own when it plays), what changed sent out, an autosave when
    /// due. Returns the session's changes (for a host's window).
    pub fn tick(&mut self, local: &[Intent]) -> Changes {
        let now = Instant::now();
        let changes = self.tick_at(now, local);
        self.stats.busy += now.elapsed();
        self.stats.ticks += 1;
        changes
    }

    fn tick_at(&mut self, now: Instant, local: &[Intent]) -> Changes {
        let dt = now - self.last;
        self.last = now;
        self.renet.update(dt);
        if let Err(e) = self.station.transport.update(dt, &mut self.station.renet) {
            self.log(&format!("network: {e}"));
        }
        if self.last_refusals.elapsed().as_secs_f64() >= REFUSALS_EVERY {
            self.summarise_refusals();
        }
        while let Some(event) = self.renet.get_event() {
            match event {
                ServerEvent::ClientConnected { client_id } => {
                    let addr = self.transport.client_addr(client_id);
                    self.conns.insert(
                        client_id,
                        Conn {
                            addr,
                            stage: Stage::Hello,
                            name: String::new(),
                            password: String::new(),
                            seat: None,
                            seq: 0,
                            queue: VecDeque::new(),
                            acted: 0,
                            done: 0,
                            regions: VecDeque::new(),
                            sent: None,
                            sent_hands: None,
                            since: now,
                            chat: (now, 0),
                            inputs: (now, 0),
                            drop_at: None,
                            refused: None,
                        },
                    );
                }
                ServerEvent::ClientDisconnected { client_id, reason } => {
                    if let Some(c) = self.conns.get(&client_id)
                        && c.drop_at.is_none()
                    {
                        let name = if c.name.is_empty() { "?" } else { &c.name };
                        let line = format!("{name} disconnected: {reason}");
                        self.log(&line);
                    }
                    self.gone(client_id);
                }
            }
        }
        let ids: Vec<ClientId> = self.conns.keys().copied().collect();
        for &id in &ids {
            self.receive(id);
        }
        let tick = self.session.tick;
        for &id in &ids {
            let Some(c) = self.conns.get(&id) else {
                continue;
            };
            if c.drop_at.is_some_and(|t| t <= tick) {
                self.renet.disconnect(id);
                // A player refused while playing (kicked, banned) leaves as any other.
                self.gone(id);
            } else if c.stage == Stage::Hello
                && c.drop_at.is_none()
                && c.since.elapsed().as_secs_f64() > HELLO_SECONDS
            {
                self.drop_client(id, "said nothing");
            }
        }
        // The next tick of every player's intents.
        let mut intents: Vec<(PlayerId, Intent)> = local.iter().map(|&i| (LOCAL, i)).collect();
        let mut guarded = Vec::new();
        let station = &mut *self.station;
        for (&id, c) in station.conns.iter_mut() {
            if let (Some(seat), Some((seq, next))) = (c.seat, c.queue.pop_front()) {
                if next.iter().any(is_action) {
                    c.acted = seq;
                }
                c.done = seq;
                let next = if station.keeper.is_op(&c.name) {
                    next
                } else {
                    let p = &self.session.players[seat.0];
                    let (kept, why) =
                        station
                            .keeper
                            .guard(station.spawn, p, &self.session.world, next);
                    guarded.extend(why.map(|w| (id, w)));
                    kept
                };
                intents.extend(next.into_iter().map(|i| (seat, i)));
            }
        }
        for (id, why) in guarded {
            if self.session.tick.is_multiple_of(30) {
                let text = format!("Can't: {why} is protected (only operators build there)");
                self.send(id, &ToClient::Notice(text));
            }
        }
        let changes = self.session.step(&intents);
        let mut at: Vec<(usize, usize)> = changes.tiles.iter().map(|&(x, y, _)| (x, y)).collect();
        for &(who, i) in &intents {
            if matches!(
                i,
                Intent::ClickChest(_)
                    | Intent::OpenChest { .. }
                    | Intent::LootAll
                    | Intent::DepositAll
            ) && let Some(p) = self.session.players.get(who.0)
                && let Some(pos) = p.chest
            {
                at.push(pos);
            }
        }
        at.sort_unstable();
        at.dedup();
        self.cells_changed(&at);
        self.tell(&changes);
        let tick = self.session.tick;
        if tick.is_multiple_of(SNAPSHOT_EVERY) {
            self.snapshot();
        }
        if tick.is_multiple_of(HASH_EVERY) && self.changed {
            self.changed = false;
            let msg = ToClient::Hash {
                tick,
                hash: self.view_hash(),
            };
            self.broadcast(&msg, None);
        }
        self.characters_out(tick.is_multiple_of(30));
        self.stream();
        self.station.transport.send_packets(&mut self.station.renet);
        if self.last_save.elapsed() >= self.opts.autosave {
            self.save();
        } else if self.last_flush.elapsed().as_secs_f64() >= crate::store::journal::FLUSH_SECONDS {
            self.flush_journal(None);
        }
        changes
    }

    /// Each player's messages: notices and refusals to its client (a refusal at once,
    /// then every half second while it repeats, see [`refusal_due`]).
    fn tell(&mut self, changes: &Changes) {
        let seats: BTreeMap<usize, ClientId> = self
            .conns
            .iter()
            .filter_map(|(id, c)| Some((c.seat?.0, *id)))
            .collect();
        for (who, m) in &changes.messages {
            let Some(&id) = seats.get(&who.0) else {
                continue;
            };
            if let Message::Refused(e) = m {
                let tick = self.session.tick;
                let Some(c) = self.conns.get_mut(&id) else {
                    continue;
                };
                if !refusal_due(c.refused, *e, tick) {
                    continue;
                }
                c.refused = Some((*e, tick));
            }
            let said = super::said::said(m, &self.session.content);
            if let Some(line) = said.log {
                // Deaths and comebacks are the keeper's to read: a player back at the
                // spawn point with full health has a death logged first.
                use crate::sim::session::message::Fight;
                if let Message::Fight(Fight::Died { .. } | Fight::Respawned { .. }) = m {
                    let name = self.conns.get(&id).map_or("?", |c| c.name.as_str());
                    say(&format!("{name} {line}"));
                } else {
                    log::debug!("player {}: {line}", who.0);
                }
            }
            let shown = said.shown.map(|s| s.text().to_string());
            if let Some(text) = said.warning.or(shown) {
                self.send(id, &ToClient::Notice(text));
            }
        }
    }

    fn snapshot(&mut self) {
        let bodies: Vec<Body> = self
            .session
            .players
            .iter()
            .enumerate()
            .filter(|(i, _)| self.session.is_present(PlayerId(*i)))
            .map(|(i, p)| Body {
                id: i as u32,
                pos: p.body.pos,
                vel: p.body.vel,
                facing: p.body.facing,
                health: p.vitals.health,
                busy: p.digging.is_some(),
                pvp: p.pvp,
                team: p.team,
                hook: p.body.hook,
            })
            .collect();
        let bestiary = &self.session.content.bestiary;
        let beasts = self
            .session
            .creatures
            .list
            .iter()
            .map(|c| protocol::Beast {
                name: bestiary.def(c.kind).name.clone(),
                pos: c.body.pos,
                vel: c.body.vel,
                facing: c.body.facing,
                hit: c.hit_flash > 0.0,
                burning: c.burning.is_some(),
            })
            .collect();
        let hearts = self.session.creatures.hearts.iter().map(|h| h.pos);
        let msg = ToClient::Snapshot {
            tick: self.session.tick,
            time: self.session.time_of_day,
            bodies,
            beasts,
            items: protocol::lying_of(&self.session.content.catalog, &self.session.world),
            hearts: hearts.collect(),
            boss: self.session.boss.as_ref().map(protocol::eye_of),
            town: protocol::town_of(self.session),
            rival: self.session.rival.as_ref().map(protocol::foe_of),
            shots: protocol::shots_of(self.session),
            bolts: protocol::bolts_of(&self.session.creatures),
            progress: self.session.world.progress,
        };
        let bytes = protocol::encode(&msg);
        let to: Vec<ClientId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.stage == Stage::Playing)
            .map(|(id, _)| *id)
            .collect();
        for id in to {
            self.stats.bytes_sent += bytes.len() as u64;
            self.renet
                .send_message(id, u8::from(Channel::Snapshots), bytes.clone());
        }
    }

    /// Sends each player its own state ([`ToClient::Me`]): at once when what its hands
    /// hold or have open changed, an input with an action was done or it died or came
    /// back, else (`all`) when anything of its character changed (health, where it is).
    fn characters_out(&mut self, all: bool) {
        let ids: Vec<ClientId> = self.conns.keys().copied().collect();
        for id in ids {
            let Some(c) = self.conns.get(&id) else {
                continue;
            };
            let Some(seat) = c.seat.filter(|_| c.stage == Stage::Playing) else {
                continue;
            };
            let p = &self.session.players[seat.0];
            let hands = Hands {
                inventory: p.inventory.clone(),
                held: p.held,
                chest: p
                    .chest
                    .map(|(x, y)| ((x, y), self.session.world.chests.get(x, y).cloned())),
                shop: p.shop,
                acted: c.acted,
            };
            let moved = c.sent_hands.as_ref() != Some(&hands);
            // A death, or the coming back from one, goes out at once.
            let fate = c.sent.as_ref().map(|s| s.1) != Some(p.death.is_some());
            if !moved && !fate && !all {
                continue;
            }
            let own = protocol::own_of(self.session, seat, c.done);
            let now = (own.character.clone(), own.death.is_some());
            if moved || c.sent.as_ref() != Some(&now) {
                self.send(id, &ToClient::Me(own));
                if let Some(c) = self.conns.get_mut(&id) {
                    c.sent = Some(now);
                    c.sent_hands = Some(hands);
                }
            }
        }
    }

    /// Regions to the joining clients, as much as their channels take this tick.
    fn stream(&mut self) {
        let ids: Vec<ClientId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.stage == Stage::Streaming)
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            let mut budget = REGION_BYTES_PER_TICK;
            loop {
                let Some(&(rx, ry)) = self.conns.get(&id).and_then(|c| c.regions.front()) else {
                    self.send(id, &ToClient::Ready);
                    if let Some(c) = self.conns.get_mut(&id) {
                        c.stage = Stage::Playing;
                        let name = c.name.clone();
                        let took = c.since.elapsed().as_secs_f64();
                        self.log(&format!("{name} has the world ({took:.2} s)"));
                    }
                    break;
                };
                let cat = &self.session.content.catalog;
                let msg = ToClient::Region(protocol::region(cat, &self.session.world, rx, ry));
                let bytes = protocol::encode(&msg);
                if bytes.len() > budget
                    || !self.renet.can_send_message(
                        id,
                        DefaultChannel::ReliableOrdered,
                        bytes.len(),
                    )
                {
                    break;
                }
                budget -= bytes.len();
                self.stats.bytes_sent += bytes.len() as u64;
                self.stats.region_bytes += bytes.len() as u64;
                self.stats.regions_sent += 1;
                self.renet
                    .send_message(id, DefaultChannel::ReliableOrdered, bytes);
                if let Some(c) = self.conns.get_mut(&id) {
                    c.regions.pop_front();
                }
            }
        }
    }

    /// Takes in what client `id` sent; drops it on anything wrong.
    fn receive(&mut self, id: ClientId) {
        for channel in [0u8, 1u8] {
            if self.renet.receive_message(id, channel).is_some() {
                self.drop_client(id, &format!("a message on channel {channel}"));
                return;
            }
        }
        while let Some(bytes) = self
            .renet
            .receive_message(id, DefaultChannel::ReliableOrdered)
        {
            let msg = match protocol::decode::<ToServer>(&bytes) {
                Ok(m) => m,
                Err(e) => {
                    self.drop_client(id, &e.to_string());
                    return;
                }
            };
            if let Err(why) = self.handle(id, msg) {
                self.drop_client(id, &why);
                return;
            }
            if !self.conns.contains_key(&id) {
                return;
            }
        }
    }

    fn handle(&mut self, id: ClientId, msg: ToServer) -> Result<(), String> {
        let Some(c) = self.station.conns.get_mut(&id) else {
            return Ok(());
        };
        if c.drop_at.is_some() {
            return Ok(());
        }
        match (c.stage, msg) {
            (
                Stage::Hello,
                ToServer::Hello {
                    version,
                    name,
                    password,
                    server_password,
                    content,
                },
            ) => {
                self.hello(id, version, name, password, server_password, &content);
                Ok(())
            }
            (Stage::Generating, ToServer::Generated { matches }) => {
                let seat = c.seat.unwrap_or(LOCAL);
                let near = self.session.players[seat.0].body.pos;
                let list = protocol::regions_to_send(
                    &self.session.world,
                    &self.station.untouched,
                    !matches,
                    near,
                );
                let total = list.len() as u32;
                c.regions = list.into();
                c.stage = Stage::Streaming;
                if !matches {
                    let line = format!("{}'s build made another world: sending it whole", c.name);
                    self.log(&line);
                }
                self.send(id, &ToClient::Regions { total });
                Ok(())
            }
            (Stage::Playing, ToServer::Input { seq, intents }) => {
                if seq != c.seq + 1 {
                    return Err(format!(
                        "input {seq} out of order or replayed (expected {})",
                        c.seq + 1
                    ));
                }
                c.seq = seq;
                if intents.len() > protocol::MAX_INTENTS {
                    return Err(format!("{} intents in one tick", intents.len()));
                }
                let content = &self.session.content;
                if let Some(bad) = intents.iter().find_map(|i| check(i, content).err()) {
                    return Err(bad);
                }
                if c.inputs.0.elapsed().as_secs_f64() > FLOOD_WINDOW {
                    c.inputs = (Instant::now(), 0);
                }
                c.inputs.1 += 1;
                if c.inputs.1 > FLOOD_INPUTS {
                    return Err(format!(
                        "a flood: over {FLOOD_INPUTS} inputs in {FLOOD_WINDOW} s"
                    ));
                }
                c.queue.push_back((seq, intents));
                while c.queue.len() > MAX_QUEUED {
                    let (_, old) = c.queue.pop_front().unwrap_or_default();
                    if let Some((_, next)) = c.queue.front_mut() {
                        let actions = old.into_iter().filter(|i| !i.is_held());
                        let mut merged: Vec<Intent> = actions.collect();
                        merged.append(next);
                        merged.truncate(protocol::MAX_INTENTS);
                        *next = merged;
                    }
                }
                Ok(())
            }
            (Stage::Generating | Stage::Streaming | Stage::Playing, ToServer::Say(text)) => {
                if text.chars().count() > protocol::MAX_CHAT {
                    return Err(format!(
                        "a chat line over {} characters",
                        protocol::MAX_CHAT
                    ));
                }
                if c.chat.0.elapsed().as_secs_f64() > CHAT_WINDOW {
                    c.chat = (Instant::now(), 0);
                }
                c.chat.1 += 1;
                if c.chat.1 > CHAT_LINES {
                    self.send(id, &ToClient::Notice("Chat: slow down".into()));
                    return Ok(());
                }
                let text: String = text.chars().filter(|ch| !ch.is_control()).collect();
                let from = c.name.clone();
                if let Some(line) = text.strip_prefix('/') {
                    self.chat_command(id, &from, line);
                    return Ok(());
                }
                self.log(&format!("<{from}> {text}"));
                self.hear(Heard::Chat {
                    from: from.clone(),
                    text: text.clone(),
                });
                self.broadcast(&ToClient::Chat { from, text }, None);
                Ok(())
            }
            (stage, msg) => Err(format!(
                "{} while {}",
                match msg {
                    ToServer::Hello { .. } => "a second hello",
                    ToServer::Generated { .. } => "a generated out of turn",
                    ToServer::Input { .. } => "input",
                    ToServer::Say(_) => "chat",
                },
                match stage {
                    Stage::Hello => "saying hello",
                    Stage::Generating => "making the world",
                    Stage::Streaming => "receiving the world",
                    Stage::Playing => "playing",
                }
            )),
        }
    }

    /// Runs a keeper's command (`by`: the operator's name, `None` for the console);
    /// the lines of its answer. Every command is logged, and so is what it did.
    pub fn command(&mut self, line: &str, by: Option<&str>) -> Vec<String> {
        let who = by.unwrap_or("console");
        let cmd = match keeper::parse(line) {
            Ok(c) => c,
            Err(e) => return vec![e],
        };
        if !matches!(cmd, Command::Players | Command::Help | Command::Time(None)) {
            self.log(&format!("{who}: {line}"));
        }
        let mut changed = true;
        let reply = match cmd {
            Command::Kick(name) => {
                changed = false;
                match self.client_named(&name) {
                    Some(id) => {
                        self.log(&format!("kicked {name} (by {who})"));
                        self.refuse(id, &format!("kicked by {who}"));
                        format!("kicked {name}")
                    }
                    None => format!("{name} is not on"),
                }
            }
            Command::Ban(target) => {
                keeper::add(&mut self.keeper.bans, &target);
                let ip = target.parse::<std::net::IpAddr>().ok();
                let on: Vec<(ClientId, String)> = (self.conns.iter())
                    .filter(|(_, c)| {
                        c.name.eq_ignore_ascii_case(&target)
                            || ip.is_some_and(|ip| c.addr.map(|a| a.ip()) == Some(ip))
                    })
                    .map(|(id, c)| (*id, c.name.clone()))
                    .collect();
                for (id, name) in &on {
                    self.log(&format!("banned {name} was dropped"));
                    self.refuse(*id, &format!("banned by {who}"));
                }
                self.log(&format!("banned {target} (by {who})"));
                format!("banned {target}")
            }
            Command::Unban(target) => {
                if keeper::remove(&mut self.keeper.bans, &target) {
                    self.log(&format!("unbanned {target} (by {who})"));
                    format!("unbanned {target}")
                } else {
                    changed = false;
                    format!("{target} was not banned")
                }
            }
            Command::Whitelist(l) => match l {
                Listing::On => {
                    self.keeper.whitelisting = true;
                    "whitelist on: only those on it join".into()
                }
                Listing::Off => {
                    self.keeper.whitelisting = false;
                    "whitelist off: anyone joins".into()
                }
                Listing::Add(n) => {
                    keeper::add(&mut self.keeper.whitelist, &n);
                    format!("{n} is on the whitelist")
                }
                Listing::Remove(n) => {
                    keeper::remove(&mut self.keeper.whitelist, &n);
                    format!("{n} is off the whitelist")
                }
                Listing::List => {
                    changed = false;
                    let k = &self.keeper;
                    let state = if k.whitelisting { "on" } else { "off" };
                    format!("whitelist {state}: {}", k.whitelist.join(", "))
                }
            },
            Command::Op(n) => {
                keeper::add(&mut self.keeper.ops, &n);
                if let Some(id) = self.client_named(&n) {
                    self.send(id, &ToClient::Notice("You are an operator".into()));
                }
                format!("{n} is an operator")
            }
            Command::Deop(n) => {
                keeper::remove(&mut self.keeper.ops, &n);
                format!("{n} is not an operator")
            }
            Command::Save => {
                changed = false;
                self.save();
                "saved".into()
            }
            Command::Say(text) => {
                changed = false;
                self.announce(&text);
                String::new()
            }
            Command::Time(t) => {
                changed = false;
                if let Some(t) = t {
                    self.session.time_of_day = t;
                }
                let clock = crate::sim::day::clock(self.session.time_of_day);
                format!("it is {clock}")
            }
            Command::Protect(area) => {
                let name = area.name.clone();
                self.keeper.regions.retain(|a| a.name != name);
                self.keeper.regions.push(area);
                format!("{name} is protected")
            }
            Command::Unprotect(name) => {
                self.keeper.regions.retain(|a| a.name != name);
                format!("{name} is not protected")
            }
            Command::SpawnProtect(r) => {
                self.keeper.spawn_protection = r;
                format!("{r} tiles around the spawn are protected")
            }
            Command::Players => {
                changed = false;
                format!("on: {}", self.players().join(", "))
            }
            Command::Help => {
                changed = false;
                keeper::HELP.to_string()
            }
        };
        if changed && let Err(e) = self.keeper.save(&self.keeper_path) {
            let line = format!("{} not written: {e}", self.keeper_path.display());
            self.log(&line);
        }
        [reply].into_iter().filter(|r| !r.is_empty()).collect()
    }

    /// The client playing as `name`.
    fn client_named(&self, name: &str) -> Option<ClientId> {
        (self.conns.iter())
            .find(|(_, c)| c.seat.is_some() && c.name.eq_ignore_ascii_case(name))
            .map(|(id, _)| *id)
    }

    /// A chat line of player `name` (client `id`) that starts with `/`: `/pvp` and
    /// `/team N` for anyone, the keeper's commands for operators; the answer goes to
    /// that player alone.
    fn chat_command(&mut self, id: ClientId, name: &str, line: &str) {
        let seat = self.conns.get(&id).and_then(|c| c.seat);
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let reply = match (word, seat) {
            ("pvp", Some(seat)) => {
                let p = &mut self.session.players[seat.0];
                p.pvp = !p.pvp;
                let on = if p.pvp { "on" } else { "off" };
                self.log(&format!("{name} turned PvP {on}"));
                vec![format!("PvP {on}")]
            }
            ("team", Some(seat)) => match rest.trim().parse::<u8>() {
                Ok(t) if t <= crate::sim::session::TEAMS => {
                    self.session.players[seat.0].team = t;
                    self.log(&format!("{name} joined team {t}"));
                    vec![format!("team {t}")]
                }
                _ => vec![format!("/team 0 to {}", crate::sim::session::TEAMS)],
            },
            _ if self.keeper.is_op(name) => self.command(line, Some(name)),
            _ => {
                self.log(&format!("{name} is not an operator: /{line}"));
                vec!["Only operators run commands (/pvp and /team N are yours)".into()]
            }
        };
        for r in reply {
            self.send(id, &ToClient::Notice(r));
        }
    }

    fn hello(
        &mut self,
        id: ClientId,
        version: u32,
        name: String,
        password: String,
        server_password: String,
        content: &[crate::content::mods::Source],
    ) {
        if version != protocol::VERSION {
            let why = format!(
                "this server speaks protocol {}, the client {version}",
                protocol::VERSION
            );
            return self.refuse(id, &why);
        }
        let ours = &self.session.content.files;
        if let Some(why) = crate::content::mods::differs(content, ours, "the server") {
            return self.refuse(id, &why);
        }
        if server_password != self.opts.password {
            return self.refuse(
                id,
                &crate::net::join::Refusal::WrongServerPassword.to_string(),
            );
        }
        let ip = self.conns.get(&id).and_then(|c| c.addr).map(|a| a.ip());
        if self.keeper.banned(&name, ip) {
            return self.refuse(id, &crate::net::join::Refusal::Banned.to_string());
        }
        if !self.keeper.listed(&name) {
            return self.refuse(id, &crate::net::join::Refusal::NotListed.to_string());
        }
        if !chars::valid_name(&name) || password.chars().count() > protocol::MAX_PASSWORD {
            return self.refuse(
                id,
                "a name has 1 to 24 letters, digits, '_', '-' or inner spaces, a password at most 64 characters",
            );
        }
        if self.host_name.as_deref() == Some(name.as_str()) {
            return self.refuse(id, &playing(&name));
        }
        // The same name again: with the same password it is that player back after a
        // crash (the old connection has not timed out yet), so the new join takes the seat
        // over at once; with another it is someone else.
        let stale = (self.conns.iter())
            .find(|(other, c)| **other != id && c.seat.is_some() && c.name == name)
            .map(|(other, c)| (*other, c.password == password));
        match stale {
            Some((_, false)) => return self.refuse(id, &playing(&name)),
            Some((old, true)) => self.drop_client(old, "joined again from elsewhere"),
            None => {}
        }
        if self.players().len() >= self.opts.max_players {
            return self.refuse(id, &crate::net::join::Refusal::Full.to_string());
        }
        let state = match self.chars.get(&name, &password) {
            Err(Denied::WrongPassword) => {
                return self.refuse(
                    id,
                    &crate::net::join::Refusal::WrongPassword { name }.to_string(),
                );
            }
            Err(Denied::Broken(e)) => {
                self.log(&format!("{name}'s character cannot be read: {e}"));
                return self.refuse(id, &format!("{name}'s character cannot be read"));
            }
            Ok(None) => None,
            // A kept character this build cannot seat (an item it no longer knows, a
            // stack over its size) is refused, never swapped for a new one at the spawn
            // point with full health, which then went over its file at the leave.
            Ok(Some(c)) => {
                match chars::state_of(&self.session.content.catalog, &c, self.session.time_of_day) {
                    Some(state) => Some(state),
                    None => {
                        let file = self.chars.path(&name);
                        say(&format!(
                            "{name}'s character in {} holds what this server cannot give (an unknown item, a stack over its size, a place outside the numbers): refused, the file kept",
                            file.display()
                        ));
                        return self.refuse(id, &format!("{name}'s character cannot be used here"));
                    }
                }
            }
        };
        let state = state.unwrap_or_else(|| {
            let at = crate::sim::player::spawn_point(&self.session.world);
            PlayerState::starting(at, &self.session.content)
        });
        let seal = chars::sealed(&name, &password, &protocol::character_of(&state));
        self.seals.insert(name.clone(), (seal.salt, seal.hash));
        let seat = self.session.join_as(&state);
        let identity = identity_of(&self.untouched, &self.session.content);
        let host = self.host_name.clone().map(|n| (LOCAL.0 as u32, n));
        let players = self
            .conns
            .values()
            .filter_map(|c| Some((c.seat?.0 as u32, c.name.clone())))
            .chain(host)
            .chain(std::iter::once((seat.0 as u32, name.clone())))
            .collect();
        let character = protocol::character_of(&self.session.player_state(seat));
        let welcome = ToClient::Welcome {
            version: protocol::VERSION,
            you: seat.0 as u32,
            identity,
            motd: self.opts.motd.clone(),
            character: character.clone(),
            players,
        };
        if let Some(c) = self.conns.get_mut(&id) {
            c.name = name.clone();
            c.password = password;
            c.seat = Some(seat);
            c.stage = Stage::Generating;
            c.sent = Some((character, false));
            c.since = Instant::now();
        }
        self.send(id, &welcome);
        let msg = ToClient::Joined {
            id: seat.0 as u32,
            name: name.clone(),
        };
        self.broadcast(&msg, Some(id));
        let n = self.players().len();
        let from = self
            .conns
            .get(&id)
            .and_then(|c| c.addr)
            .map_or(String::new(), |a| format!(" from {a}"));
        self.log(&format!("{name} joined{from} ({n} on)"));
        self.hear(Heard::Joined { seat, name });
    }
}

/// Is `intent` one a client may send by `content` (slots, wares and recipes in range, a
/// view of a sane size)?
pub fn check(intent: &Intent, content: &crate::content::config::Content) -> Result<(), String> {
    use crate::world::chest::CHEST_SLOTS;
    use crate::world::inventory::SLOTS;
    let ok = match *intent {
        Intent::Move { axis, .. } => (-1..=1).contains(&axis),
        Intent::ClickSlot(i) | Intent::Select(i) | Intent::Sell(i) => i < SLOTS,
        Intent::ClickChest(i) => i < CHEST_SLOTS,
        Intent::ClickArmour(i) => i < 3,
        Intent::Buy(i) => i < content.town.merchant.sells.len(),
        Intent::Craft(i) => i < content.catalog.recipes.len(),
        Intent::Scroll(s) => s.abs() <= 100,
        Intent::View { half } => {
            half.0.is_finite()
                && half.1.is_finite()
                && (0.0..=MAX_VIEW_HALF).contains(&half.0)
                && (0.0..=MAX_VIEW_HALF).contains(&half.1)
        }
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("an intent out of range: {intent:?}"))
    }
}

/// The identity of a world as made (`untouched`), played with `content`.
pub fn identity_of(
    untouched: &World,
    content: &crate::content::config::Content,
) -> protocol::Identity {
    let preset = crate::content::preset::Preset {
        width: untouched.width() as u32,
        height: untouched.height() as u32,
        ..untouched.preset.clone()
    };
    protocol::Identity {
        preset: ron::to_string(&preset).unwrap_or_default(),
        seed: untouched.seed,
        width: untouched.width() as u32,
        height: untouched.height() as u32,
        generator: protocol::generator_version(),
        untouched: protocol::untouched_hash(untouched),
        content: content.files.clone(),
    }
}

/// The refusal of a player named `name` while one of that name plays.
fn playing(name: &str) -> String {
    let name = name.into();
    crate::net::join::Refusal::AlreadyPlaying { name }.to_string()
}

#[cfg(test)]
mod tests {
    use super::refusal_due;
    use crate::sim::edit::EditRefusal;

    #[test]
    fn a_refusal_is_told_at_once_and_repeats_only_every_half_second() {
        let reach = EditRefusal::OutOfReach;
        // A single click's refusal on any tick, not only every 30th.
        assert!(refusal_due(None, reach, 7));
        // Held: the same again within half a second is not told again, after it is.
        assert!(!refusal_due(Some((reach, 7)), reach, 20));
        assert!(refusal_due(Some((reach, 7)), reach, 37));
        // Another refusal is told at once.
        assert!(refusal_due(Some((reach, 7)), EditRefusal::SomeoneThere, 8));
    }
}
