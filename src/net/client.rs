//! A client of a Strata server ([`Client`]): it connects, says who it is, makes the world
//! itself from the server's [`Identity`] (on a thread of its own, so a window keeps
//! drawing), takes in the regions that differ from the untouched world and then every
//! change, and keeps what a front-end draws: the world, the other players' bodies and
//! names, the creatures, chat. A front-end calls [`Client::poll`] every frame and
//! [`Client::send`] once a tick.

pub use crate::net::join::{JoinError, Refusal};
use crate::net::protocol::{
    self, Beast, Body, Channel, Character, Eye, Folk, Identity, Lying, MAX_CHAT, Own, ToClient,
    ToServer,
};
use crate::sim::session::Intent;
use crate::world::World;
use renet::{ConnectionConfig, DefaultChannel, RenetClient};
use renet_netcode::{ClientAuthentication, NetcodeClientTransport};
use std::collections::BTreeMap;
use std::net::{SocketAddr, ToSocketAddrs, UdpSocket};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How to join: the server's address (`HOST` or `HOST:PORT`, port
/// [`protocol::DEFAULT_PORT`] if none), the player's name and the password that keeps its
/// character, the server's password (empty if it has none), and the file that pins the
/// keys of the servers this player joined (`None`: keys are not pinned).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JoinOptions {
    pub addr: String,
    pub name: String,
    pub password: String,
    pub server_password: String,
    /// A server whose key changed since the first join is refused with a warning
    /// ([`crate::net::secure::KnownServers`]).
    pub known_servers: Option<std::path::PathBuf>,
}

/// Where a join is.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Waiting for the server to answer.
    Connecting,
    /// Accepted; making the world from its identity.
    Generating,
    /// Receiving the regions that differ: `got` of `total`.
    Receiving { got: u32, total: u32 },
    /// The world is ready: play.
    Playing,
    /// Refused, dropped or disconnected: why.
    Closed(JoinError),
}

/// Something a front-end should hear of, from [`Client::poll`].
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The server accepted: its message of the day.
    Welcome {
        motd: String,
    },
    /// A region came: `got` of `total`.
    Progress {
        got: u32,
        total: u32,
    },
    /// The world is whole: [`Client::world`] is there from now on.
    Ready,
    /// These tiles changed (redraw and relight them).
    Tiles(Vec<(usize, usize)>),
    /// A chat line; `from` empty for the server's own lines.
    Chat {
        from: String,
        text: String,
    },
    Joined {
        id: u32,
        name: String,
    },
    Left {
        id: u32,
        name: String,
    },
    /// A message for this player (a refusal, a notice).
    Notice(String),
    /// The player's own character changed ([`Client::character`]).
    Character,
    /// The connection ended: why.
    Closed(JoinError),
}

/// Another player (or this one) as the server last said.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    pub id: u32,
    pub name: String,
    pub body: Option<Body>,
}

/// Seconds a join waits for the server's answer before giving up.
pub const CONNECT_TIMEOUT: f64 = 10.0;

/// Seconds of silence from a server after which a playing client takes it for gone (it
/// sends snapshots 20 times a second): sooner than netcode's own timeout.
pub const SILENCE: f64 = 3.0;

/// A connection to a server and the world it shares.
pub struct Client {
    renet: RenetClient,
    /// The connection, once the server's connect token came ([`crate::net::secure`]).
    transport: Option<NetcodeClientTransport>,
    /// Until then: the key exchange, its socket and when the request was last sent.
    asking: Option<(crate::net::secure::Asking, UdpSocket, Instant)>,
    server: SocketAddr,
    /// Where the servers' keys are pinned (from [`JoinOptions::known_servers`]).
    known_servers: Option<std::path::PathBuf>,
    last: Instant,
    started: Instant,
    phase: Phase,
    hello: ToServer,
    said_hello: bool,
    /// What this side plays with: its files ride in the hello, its catalog reads the
    /// server's items and its loot fills the chests of the world made here.
    content: std::sync::Arc<crate::content::config::Content>,
    identity: Option<Identity>,
    making: Option<JoinHandle<World>>,
    world: Option<World>,
    /// Messages that came while the world was being made.
    waiting: Vec<ToClient>,
    you: Option<u32>,
    names: BTreeMap<u32, String>,
    bodies: Vec<Body>,
    beasts: Vec<Beast>,
    items: Vec<Lying>,
    hearts: Vec<(f32, f32)>,
    /// The projectiles in flight, as the last snapshot had them.
    shots: Vec<crate::net::protocol::Shot>,
    boss: Option<Eye>,
    /// The boss after the Eye in the last snapshot.
    rival: Option<crate::net::protocol::Foe>,
    /// The casters' bolts in flight, as the last snapshot had them.
    bolts: Vec<crate::net::protocol::Bolt>,
    /// The world's progress in the last snapshot.
    progress: Option<crate::world::progress::Progress>,
    town: Vec<Folk>,
    tick: u64,
    /// The world's time of day in the last snapshot.
    time_of_day: Option<f32>,
    character: Option<Character>,
    /// The player's own state as the server last said.
    own: Option<Own>,
    motd: String,
    seq: u64,
    /// The server's hash of its world and the tick, when it last sent it, and whether
    /// this view hashed the same then.
    checked: Option<(u64, u64, bool)>,
    desyncs: u32,
    received: u64,
    /// When anything last came from the server.
    heard: Instant,
}

/// `HOST[:PORT]` to a socket address.
pub fn resolve(addr: &str) -> Result<SocketAddr, JoinError> {
    let with_port = if addr
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        addr.to_string()
    } else {
        format!("{addr}:{}", protocol::DEFAULT_PORT)
    };
    with_port
        .to_socket_addrs()
        .map_err(|e| JoinError::BadAddress {
            addr: addr.into(),
            why: Some(e.to_string()),
        })?
        .next()
        .ok_or_else(|| JoinError::BadAddress {
            addr: addr.into(),
            why: None,
        })
}

impl Client {
    /// Starts joining with `content` (nothing blocks: the answer comes through
    /// [`Client::poll`]). A server whose content differs refuses, saying which files.
    pub fn connect(
        opts: &JoinOptions,
        content: std::sync::Arc<crate::content::config::Content>,
    ) -> Result<Client, JoinError> {
        let name = opts.name.trim();
        if name.is_empty() || name.chars().count() > protocol::MAX_NAME {
            return Err(JoinError::BadName(name.chars().count()));
        }
        let server = resolve(&opts.addr)?;
        let bind = if server.is_ipv6() {
            "[::]:0"
        } else {
            "0.0.0.0:0"
        };
        let no_socket = |e: std::io::Error| JoinError::Socket(format!("cannot open a socket: {e}"));
        let socket = UdpSocket::bind(bind).map_err(no_socket)?;
        socket.set_nonblocking(true).map_err(no_socket)?;
        let asking = crate::net::secure::Asking::new();
        // A first request that cannot go is tried again while connecting.
        let _ = socket.send_to(&asking.request(), server);
        Ok(Client {
            renet: RenetClient::new(ConnectionConfig::default()),
            transport: None,
            asking: Some((asking, socket, Instant::now())),
            server,
            known_servers: opts.known_servers.clone(),
            last: Instant::now(),
            started: Instant::now(),
            phase: Phase::Connecting,
            hello: ToServer::Hello {
                version: protocol::VERSION,
                name: name.to_string(),
                password: opts.password.clone(),
                server_password: opts.server_password.clone(),
                content: content.files.clone(),
            },
            said_hello: false,
            content,
            identity: None,
            making: None,
            world: None,
            waiting: Vec::new(),
            you: None,
            names: BTreeMap::new(),
            bodies: Vec::new(),
            beasts: Vec::new(),
            items: Vec::new(),
            hearts: Vec::new(),
            shots: Vec::new(),
            bolts: Vec::new(),
            progress: None,
            boss: None,
            rival: None,
            town: Vec::new(),
            tick: 0,
            time_of_day: None,
            character: None,
            own: None,
            motd: String::new(),
            seq: 0,
            checked: None,
            desyncs: 0,
            received: 0,
            heard: Instant::now(),
        })
    }

    /// Where the join is.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The world, once it is ready ([`Phase::Playing`]).
    pub fn world(&self) -> Option<&World> {
        self.world.as_ref().filter(|_| self.phase == Phase::Playing)
    }

    /// The world's identity (from the welcome on).
    pub fn identity(&self) -> Option<&Identity> {
        self.identity.as_ref()
    }

    /// This player's id (from the welcome on).
    pub fn me(&self) -> Option<u32> {
        self.you
    }

    /// This player's character as the server keeps it.
    pub fn character(&self) -> Option<&Character> {
        self.character.as_ref()
    }

    /// The message of the day.
    pub fn motd(&self) -> &str {
        &self.motd
    }

    /// Every player on, this one too, by id, with its body when a snapshot had it.
    pub fn players(&self) -> Vec<Seen> {
        self.names
            .iter()
            .map(|(&id, name)| Seen {
                id,
                name: name.clone(),
                body: self.bodies.iter().find(|b| b.id == id).cloned(),
            })
            .collect()
    }

    /// This player's body as the last snapshot had it.
    pub fn body(&self) -> Option<&Body> {
        let me = self.you?;
        self.bodies.iter().find(|b| b.id == me)
    }

    /// The creatures the last snapshot had.
    pub fn beasts(&self) -> &[Beast] {
        &self.beasts
    }

    /// The items lying about in the last snapshot.
    /// The content this side plays with.
    pub fn content(&self) -> &std::sync::Arc<crate::content::config::Content> {
        &self.content
    }

    pub fn items(&self) -> &[Lying] {
        &self.items
    }

    /// The hearts lying about in the last snapshot.
    pub fn hearts(&self) -> &[(f32, f32)] {
        &self.hearts
    }

    /// The projectiles in flight, as the last snapshot had them.
    pub fn shots(&self) -> &[crate::net::protocol::Shot] {
        &self.shots
    }

    /// The Eye in the last snapshot, if it was about.
    pub fn boss(&self) -> Option<&Eye> {
        self.boss.as_ref()
    }

    /// The boss after the Eye in the last snapshot, if it was about.
    pub fn rival(&self) -> Option<&crate::net::protocol::Foe> {
        self.rival.as_ref()
    }

    /// The casters' bolts in flight, as the last snapshot had them.
    pub fn bolts(&self) -> &[crate::net::protocol::Bolt] {
        &self.bolts
    }

    /// The world's progress (the bosses fallen) in the last snapshot, once one came.
    pub fn progress(&self) -> Option<crate::world::progress::Progress> {
        self.progress
    }

    /// The town's people in the last snapshot.
    pub fn town(&self) -> &[Folk] {
        &self.town
    }

    /// The player's own state (cursor stack, open chest, shop) as the server last said,
    /// with the `seq` of the last input it had done ([`Own`]).
    pub fn own(&self) -> Option<&Own> {
        self.own.as_ref()
    }

    /// The server tick of the last snapshot.
    pub fn server_tick(&self) -> u64 {
        self.tick
    }

    /// The world's time of day (0 to 1, as [`crate::sim::session::Session::time_of_day`])
    /// in the last snapshot: day, night, the sky and the music follow the server's clock.
    pub fn time_of_day(&self) -> Option<f32> {
        self.time_of_day
    }

    /// [`protocol::view_hash`] of the world as this client has it.
    pub fn view_hash(&self) -> Option<u64> {
        self.world.as_ref().map(protocol::view_hash)
    }

    /// The server's last hash `(tick, hash)` and whether this view matched it then;
    /// how many times it did not.
    pub fn checked(&self) -> (Option<(u64, u64, bool)>, u32) {
        (self.checked, self.desyncs)
    }

    /// Bytes of messages received so far (without renet's and netcode's headers).
    pub fn bytes_received(&self) -> u64 {
        self.received
    }

    /// One tick of this player's intents (call once a tick, 60 a second, while
    /// [`Phase::Playing`]; an empty list is a tick with nothing held). Returns the
    /// input's `seq` (what [`Own::ack`] answers), `None` when not playing.
    pub fn send(&mut self, intents: &[Intent]) -> Option<u64> {
        if self.phase != Phase::Playing {
            return None;
        }
        self.seq += 1;
        let intents = intents
            .iter()
            .take(protocol::MAX_INTENTS)
            .copied()
            .collect();
        let msg = ToServer::Input {
            seq: self.seq,
            intents,
        };
        self.put(&msg);
        Some(self.seq)
    }

    /// Says `text` to everyone (cut to [`MAX_CHAT`] characters).
    pub fn say(&mut self, text: &str) {
        let text: String = text.trim().chars().take(MAX_CHAT).collect();
        if !text.is_empty() && self.you.is_some() {
            self.put(&ToServer::Say(text));
        }
    }

    /// Leaves the server.
    pub fn close(&mut self) {
        if let Some(t) = &mut self.transport {
            t.disconnect();
        }
        if !matches!(self.phase, Phase::Closed(_)) {
            self.phase = Phase::Closed(JoinError::Left);
        }
    }

    /// Sends raw bytes as a message on the ordered channel (tests of a server's
    /// defences: garbage, replays).
    pub fn send_raw(&mut self, bytes: Vec<u8>) {
        self.renet
            .send_message(DefaultChannel::ReliableOrdered, bytes);
    }

    /// Never says hello (a test of a server's patience with silent clients).
    pub fn hold_hello(&mut self) {
        self.said_hello = true;
    }

    fn put(&mut self, msg: &ToServer) {
        self.renet
            .send_message(DefaultChannel::ReliableOrdered, protocol::encode(msg));
    }

    /// Sends what is queued and takes in what came; returns what a front-end should hear
    /// of. Call every frame.
    pub fn poll(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        if let Phase::Closed(_) = self.phase {
            return out;
        }
        let now = Instant::now();
        let dt = now - self.last;
        self.last = now;
        self.renet.update(dt);
        if let Err(why) = self.ask() {
            self.close_with(why, &mut out);
            return out;
        }
        if let Some(t) = &mut self.transport
            && let Err(e) = t.update(dt, &mut self.renet)
        {
            self.close_with(JoinError::Lost(format!("connection lost: {e}")), &mut out);
            return out;
        }
        if self.renet.is_connected() && !self.said_hello {
            self.said_hello = true;
            let hello = self.hello.clone();
            self.put(&hello);
        }
        if self.phase == Phase::Connecting && self.started.elapsed().as_secs_f64() > CONNECT_TIMEOUT
        {
            self.close_with(JoinError::NoAnswer, &mut out);
            return out;
        }
        while let Some(bytes) = self.renet.receive_message(DefaultChannel::ReliableOrdered) {
            self.received += bytes.len() as u64;
            self.heard = now;
            match protocol::decode::<ToClient>(&bytes) {
                Ok(msg) => self.take(msg, &mut out),
                Err(e) => {
                    let why = JoinError::BadMessage(format!("the server sent a {e}"));
                    self.close_with(why, &mut out);
                    return out;
                }
            }
        }
        while let Some(bytes) = self.renet.receive_message(u8::from(Channel::Snapshots)) {
            self.received += bytes.len() as u64;
            self.heard = now;
            if let Ok(msg) = protocol::decode::<ToClient>(&bytes) {
                self.take(msg, &mut out);
            }
        }
        if let Some(h) = self.making.take_if(|h| h.is_finished()) {
            match h.join() {
                Ok(world) => self.generated(world, &mut out),
                Err(_) => {
                    let why = JoinError::World("making the world failed".into());
                    self.close_with(why, &mut out)
                }
            }
        }
        if self.phase == Phase::Playing && self.heard.elapsed().as_secs_f64() > SILENCE {
            let why = JoinError::Lost(format!("the server stopped answering ({SILENCE:.0} s)"));
            self.close_with(why, &mut out);
            return out;
        }
        if self.renet.is_disconnected() {
            let why = self
                .renet
                .disconnect_reason()
                .map_or("disconnected".to_string(), |r| format!("disconnected: {r}"));
            let why = JoinError::Lost(why);
            self.close_with(why, &mut out);
            return out;
        }
        if let Some(t) = &mut self.transport {
            let _ = t.send_packets(&mut self.renet);
        }
        out
    }

    fn close_with(&mut self, why: JoinError, out: &mut Vec<Event>) {
        if matches!(self.phase, Phase::Closed(_)) {
            return;
        }
        if let Some(t) = &mut self.transport {
            t.disconnect();
        }
        self.asking = None;
        self.phase = Phase::Closed(why.clone());
        out.push(Event::Closed(why));
    }

    /// The world made from the identity: says whether it matches, then applies what
    /// came meanwhile.
    fn generated(&mut self, world: World, out: &mut Vec<Event>) {
        let matches = self
            .identity
            .as_ref()
            .is_some_and(|i| protocol::untouched_hash(&world) == i.untouched);
        if !matches {
            log::warn!("this build made another world from the server's seed: taking it whole");
        }
        self.world = Some(world);
        self.put(&ToServer::Generated { matches });
        for msg in std::mem::take(&mut self.waiting) {
            self.take(msg, out);
        }
    }

    fn take(&mut self, msg: ToClient, out: &mut Vec<Event>) {
        // World messages wait for the world.
        let for_world = matches!(
            msg,
            ToClient::Regions { .. }
                | ToClient::Region(_)
                | ToClient::Ready
                | ToClient::Cells(_)
                | ToClient::Hash { .. }
        );
        if for_world && self.world.is_none() {
            if self.waiting.len() < 1 << 16 {
                self.waiting.push(msg);
            }
            return;
        }
        match msg {
            ToClient::Welcome {
                version,
                you,
                identity,
                motd,
                character,
                players,
            } => {
                if version != protocol::VERSION || self.you.is_some() {
                    self.close_with(JoinError::Version(version), out);
                    return;
                }
                let ours = &self.content.files;
                if let Some(why) =
                    crate::content::mods::differs(ours, &identity.content, "the server")
                {
                    self.close_with(JoinError::Content(why), out);
                    return;
                }
                self.you = Some(you);
                self.names = players.into_iter().collect();
                self.character = Some(character);
                self.motd = motd.clone();
                match make_world(&identity, &self.content) {
                    Ok(h) => self.making = Some(h),
                    Err(e) => {
                        self.close_with(JoinError::World(e), out);
                        return;
                    }
                }
                self.identity = Some(identity);
                self.phase = Phase::Generating;
                out.push(Event::Welcome { motd });
            }
            ToClient::Refused(why) => {
                self.close_with(JoinError::Refused(Refusal::from_sentence(&why)), out)
            }
            ToClient::Regions { total } => {
                self.phase = Phase::Receiving { got: 0, total };
                out.push(Event::Progress { got: 0, total });
            }
            ToClient::Region(r) => {
                let Some(world) = self.world.as_mut() else {
                    return;
                };
                if let Err(e) = protocol::apply_region(&self.content.catalog, world, &r) {
                    let why = JoinError::BadMessage(format!("the server sent a bad {e}"));
                    self.close_with(why, out);
                    return;
                }
                if let Phase::Receiving { got, total } = &mut self.phase {
                    *got += 1;
                    out.push(Event::Progress {
                        got: *got,
                        total: *total,
                    });
                }
            }
            ToClient::Ready => {
                if let Some(w) = self.world.as_mut() {
                    w.recompute_surface();
                }
                self.phase = Phase::Playing;
                out.push(Event::Ready);
            }
            ToClient::Cells(cells) => {
                let Some(world) = self.world.as_mut() else {
                    return;
                };
                let mut tiles = Vec::with_capacity(cells.len());
                for c in &cells {
                    if protocol::apply_cell(&self.content.catalog, world, c) {
                        tiles.push((c.x as usize, c.y as usize));
                    }
                }
                out.push(Event::Tiles(tiles));
            }
            ToClient::Hash { .. } if self.phase != Phase::Playing => {}
            ToClient::Hash { tick, hash } => {
                let same = self.view_hash() == Some(hash);
                if !same {
                    self.desyncs += 1;
                    log::warn!("view differs from the server's world at tick {tick}");
                }
                self.checked = Some((tick, hash, same));
            }
            ToClient::Me(own) => {
                self.character = Some(own.character.clone());
                self.own = Some(own);
                out.push(Event::Character);
            }
            ToClient::Chat { from, text } => out.push(Event::Chat { from, text }),
            ToClient::Joined { id, name } => {
                self.names.insert(id, name.clone());
                out.push(Event::Joined { id, name });
            }
            ToClient::Left { id, name } => {
                self.names.remove(&id);
                self.bodies.retain(|b| b.id != id);
                out.push(Event::Left { id, name });
            }
            ToClient::Notice(text) => out.push(Event::Notice(text)),
            ToClient::Snapshot {
                tick,
                time,
                bodies,
                beasts,
                items,
                hearts,
                boss,
                town,
                rival,
                shots,
                bolts,
                progress,
            } => {
                if tick >= self.tick {
                    self.tick = tick;
                    // A clock out of range (a broken server) is left as it was.
                    if time.is_finite() && (0.0..1.0).contains(&time) {
                        self.time_of_day = Some(time);
                    }
                    self.bodies = bodies;
                    self.beasts = beasts;
                    self.items = items;
                    self.hearts = hearts;
                    self.boss = boss;
                    self.town = town;
                    self.rival = rival;
                    self.shots = shots;
                    self.bolts = bolts;
                    self.progress = Some(progress);
                    if let Some(w) = &mut self.world {
                        w.progress = progress;
                    }
                }
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(t) = &mut self.transport {
            t.disconnect();
        }
    }
}

impl Client {
    /// The key exchange before netcode: the request again every half second until the
    /// server's answer comes; then its key checked against the pinned one and the
    /// connection begun with its token. An error ends the join.
    fn ask(&mut self) -> Result<(), JoinError> {
        use crate::net::secure::{KnownServers, Pinned};
        let Some((asking, socket, sent)) = &mut self.asking else {
            return Ok(());
        };
        if sent.elapsed().as_secs_f64() > 0.5 {
            let _ = socket.send_to(&asking.request(), self.server);
            *sent = Instant::now();
        }
        let mut buf = vec![0u8; 4096];
        let answer = loop {
            match socket.recv_from(&mut buf) {
                Ok((n, from)) if from == self.server => break buf[..n].to_vec(),
                Ok(_) => continue,
                Err(_) => return Ok(()),
            }
        };
        let (key, mut token) = asking.open(&answer).map_err(JoinError::Key)?;
        if let Some(path) = self.known_servers.clone() {
            let known = KnownServers::at(path);
            match known.check(self.server, &key).map_err(JoinError::Key)? {
                Pinned::Changed { line, was } => {
                    let warning = known.changed(self.server, line, &was, &key);
                    log::error!("{warning}");
                    return Err(JoinError::Key(warning));
                }
                Pinned::New => log::info!(
                    "the server at {} has key {}: pinned",
                    self.server,
                    crate::net::secure::fingerprint(&key)
                ),
                Pinned::Same => {}
            }
        }
        // The token names the address the server has; this client reaches it here.
        token.server_addresses = [None; 32];
        token.server_addresses[0] = Some(self.server);
        let Some((_, socket, _)) = self.asking.take() else {
            return Ok(());
        };
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let auth = ClientAuthentication::Secure {
            connect_token: token,
        };
        let t = NetcodeClientTransport::new(now, auth, socket)
            .map_err(|e| JoinError::Socket(format!("cannot connect to {}: {e}", self.server)))?;
        self.transport = Some(t);
        Ok(())
    }
}

/// The last world made for a join, kept for the next client of this process that joins
/// the same world (when [`share_worlds`] says so).
static SHARED: std::sync::Mutex<Option<(Identity, World)>> = std::sync::Mutex::new(None);
static SHARING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Clients of this process that join the same world make it once and copy it (bots: a
/// few dozen clients in one process). Off unless asked: a window joins once, and the
/// copy would double its memory.
pub fn share_worlds(on: bool) {
    SHARING.store(on, std::sync::atomic::Ordering::SeqCst);
    if !on && let Ok(mut s) = SHARED.lock() {
        *s = None;
    }
}

/// Makes the untouched world of `identity` on a thread (its preset checked first), its
/// chests filled from `content`'s loot.
fn make_world(
    identity: &Identity,
    content: &std::sync::Arc<crate::content::config::Content>,
) -> Result<JoinHandle<World>, String> {
    let mut preset = crate::content::preset::parse(&identity.preset, "the server's preset")
        .map_err(|e| format!("the server's world: {e}"))?;
    preset.width = identity.width;
    preset.height = identity.height;
    let seed = identity.seed;
    let identity = identity.clone();
    let content = std::sync::Arc::clone(content);
    Ok(std::thread::spawn(move || {
        if !SHARING.load(std::sync::atomic::Ordering::SeqCst) {
            return crate::worldgen::generate_for(&preset, seed, &content).0;
        }
        // Held while making it, so the others wait and copy.
        let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((id, w)) = shared.as_ref()
            && *id == identity
        {
            return w.clone();
        }
        let w = crate::worldgen::generate_for(&preset, seed, &content).0;
        *shared = Some((identity, w.clone()));
        w
    }))
}

/// Waits (polling every few milliseconds) until `client` is playing or closed, or
/// `timeout` passes; the events seen meanwhile.
pub fn wait_ready(client: &mut Client, timeout: Duration) -> Result<Vec<Event>, JoinError> {
    let start = Instant::now();
    let mut seen = Vec::new();
    loop {
        seen.extend(client.poll());
        match client.phase() {
            Phase::Playing => return Ok(seen),
            Phase::Closed(why) => return Err(why.clone()),
            _ if start.elapsed() > timeout => {
                return Err(JoinError::NotReady(timeout));
            }
            _ => std::thread::sleep(Duration::from_millis(2)),
        }
    }
}
