//! Opening the world being played to the network (pause menu, Open to the network): the
//! form that asks how ([`HostForm`]: the port, the host's name, a password, the most
//! players), the untouched world made on a thread ([`Opening`]), and the [`Host`]: a
//! server's [`Station`] with `host_plays`, to which the window lends its own session
//! for each tick ([`Station::serving`]). The window holds the session as always (it
//! draws, saves and acts on it); [`Host::tick`] steps it through the station with the
//! host's intents and every player's. The window saves the world as it always does (the
//! server never autosaves); the players' characters are kept beside that save, in
//! `<save>.characters`.

use super::players::Roster;
use crate::game::ui::chat::Said;
use crate::game::ui::joinform::Form;
use crate::game::worlds::state::Loaded;
use crate::net::protocol::{self, DEFAULT_PORT, MAX_PASSWORD};
use crate::net::server::{Heard, ServeError, ServeOptions, Station};
use crate::sim::session::{Changes, Intent, LOCAL, PlayerId};
use crate::world::World;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// The form's fields in order.
pub const FIELDS: [&str; 4] = [
    "Port (or IP:PORT)",
    "Your name",
    "Password (empty: anyone may join)",
    "Most players",
];

/// Players who may join, unless the form says otherwise.
pub const DEFAULT_MAX_PLAYERS: usize = 8;

/// The most players the form allows (as `strata serve --max-players`).
pub const MAX_PLAYERS: usize = 255;

/// The host's name unless the form says otherwise.
pub const DEFAULT_NAME: &str = "Host";

/// What a player who leaves, or is dropped when the world closes, is told.
pub const CLOSED: &str = "the host closed the world to the network";

/// How to open the world: where to listen, the host's name, the password, the most
/// players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostOptions {
    pub listen: SocketAddr,
    pub name: String,
    pub password: String,
    pub max_players: usize,
}

/// The form of Open to the network.
#[derive(Clone, Debug, PartialEq)]
pub struct HostForm {
    pub form: Form<4>,
}

impl Default for HostForm {
    fn default() -> HostForm {
        let mut form = Form::new(FIELDS, Some(2));
        let start = [DEFAULT_PORT.to_string(), DEFAULT_NAME.into(), String::new()];
        for (f, text) in form.fields.iter_mut().zip(start) {
            text.chars().for_each(|c| f.type_char(c));
        }
        DEFAULT_MAX_PLAYERS
            .to_string()
            .chars()
            .for_each(|c| form.fields[3].type_char(c));
        HostForm { form }
    }
}

impl std::ops::Deref for HostForm {
    type Target = Form<4>;
    fn deref(&self) -> &Form<4> {
        &self.form
    }
}

impl std::ops::DerefMut for HostForm {
    fn deref_mut(&mut self) -> &mut Form<4> {
        &mut self.form
    }
}

/// A port, 1 to 65535, or an address and port (`127.0.0.1:7777`: this machine only);
/// a port alone listens on every address.
pub fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    let bad = || format!("Port: a number from 1 to 65535 (or IP:PORT), not '{text}'");
    let addr = match text.parse::<u16>() {
        Ok(port) => SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), port),
        Err(_) => text.parse::<SocketAddr>().map_err(|_| bad())?,
    };
    if addr.port() == 0 {
        return Err(bad());
    }
    Ok(addr)
}

impl HostForm {
    /// The opening the fields ask for, or what is wrong with them (the field named).
    pub fn options(&self) -> Result<HostOptions, String> {
        let listen = parse_listen(self.text(0))?;
        let name = self.text(1);
        if !crate::net::chars::valid_name(name) {
            return Err(format!(
                "Your name: 1 to {} letters, digits, '_', '-' or spaces inside",
                protocol::MAX_NAME
            ));
        }
        let password = self.fields[2].text.clone();
        if password.chars().count() > MAX_PASSWORD {
            return Err(format!("Password: at most {MAX_PASSWORD} characters"));
        }
        let most = self.text(3);
        let max_players = match most.parse::<usize>() {
            Ok(n) if (1..=MAX_PLAYERS).contains(&n) => n,
            _ => {
                return Err(format!(
                    "Most players: a number from 1 to {MAX_PLAYERS}, not '{most}'"
                ));
            }
        };
        Ok(HostOptions {
            listen,
            name: name.to_string(),
            password,
            max_players,
        })
    }
}

/// The world as it was made (its preset at its size, its seed): what a joining player
/// makes, and what the server sends the differences from.
pub fn untouched_of(world: &World) -> World {
    let mut preset = world.preset.clone();
    preset.width = world.width() as u32;
    preset.height = world.height() as u32;
    crate::worldgen::generate(&preset, world.seed).0
}

/// A world being opened: its untouched world made on a thread.
pub struct Opening {
    pub opts: HostOptions,
    made: Receiver<World>,
    /// The world it is for ([`Loaded::serial`]).
    pub serial: u64,
}

impl Opening {
    /// Starts making the untouched world of `l`'s world.
    pub fn start(l: &Loaded, opts: HostOptions) -> Opening {
        let (tx, made) = channel();
        let (mut preset, seed) = (l.world().preset.clone(), l.world().seed);
        (preset.width, preset.height) = (l.size().0 as u32, l.size().1 as u32);
        let content = std::sync::Arc::clone(&l.session.content);
        std::thread::spawn(move || {
            let _ = tx.send(crate::worldgen::generate_for(&preset, seed, &content).0);
        });
        Opening {
            opts,
            made,
            serial: l.serial,
        }
    }

    /// The untouched world, once made.
    pub fn poll(&self) -> Option<World> {
        self.made.try_recv().ok()
    }
}

/// The world of a window, open to the network.
pub struct Host {
    station: Station,
    /// The port it listens on.
    pub port: u16,
    /// The host's name (seat 0's).
    pub name: String,
    /// The world it serves ([`Loaded::serial`]).
    pub serial: u64,
}

impl Host {
    /// Opens `l`'s world (made as `untouched`) to the network as `opts` says; its save and
    /// the players' characters go to the saves folder `saves`. When the server cannot
    /// start (a port in use), says why and the world stays as it was.
    pub fn open(
        l: &mut Loaded,
        opts: &HostOptions,
        untouched: World,
        saves: &Path,
    ) -> Result<Host, ServeError> {
        let save = crate::store::save::save_path(saves, l.world());
        let serve = ServeOptions {
            listen: opts.listen,
            max_players: opts.max_players,
            password: opts.password.clone(),
            motd: format!("{}'s world", opts.name),
            characters: crate::launch::characters_dir(&save),
            save,
            // The window saves the world (F5, its autosave, on closing): never the server.
            autosave: Duration::MAX,
            host_plays: true,
        };
        let mut station = Station::start(&mut l.session, untouched, serve)?;
        station.set_host_name(&opts.name);
        // Host and play, as Terraria's: the spawn is not protected from guests (a
        // dedicated server's keeper sets that).
        station.keeper.spawn_protection = 0;
        l.acted = Some(Vec::new());
        let port = station.addr().port();
        log::info!(
            "open to the network on {} as {} (world hash {:016x})",
            station.addr(),
            opts.name,
            protocol::view_hash(l.world())
        );
        Ok(Host {
            station,
            port,
            name: opts.name.clone(),
            serial: l.serial,
        })
    }

    /// One tick: what the host did between ticks sent out, the server stepped with the
    /// host's `intents` (and every player's), and its changes shown as a tick of the
    /// window's own would be ([`Loaded::take`]).
    pub fn tick(&mut self, l: &mut Loaded, intents: &[(PlayerId, Intent)]) -> Changes {
        let local: Vec<Intent> = intents.iter().map(|&(_, i)| i).collect();
        let acted = l.acted.as_mut().map(std::mem::take).unwrap_or_default();
        let mut serving = self.station.serving(&mut l.session);
        serving.cells_changed(&acted);
        let c = serving.tick(&local);
        l.take(&c);
        c
    }

    /// What the players said and who joined or left since the last call, for the chat;
    /// their names and seats into `roster` (the host's own too).
    pub fn poll(&mut self, l: &Loaded, roster: &mut Roster) -> Vec<Said> {
        let mut out = Vec::new();
        for h in self.station.heard() {
            out.push(match h {
                Heard::Chat { from, text } => Said::Chat { from, text },
                Heard::Joined { name, .. } => {
                    log::info!("hosting: {name} joined");
                    Said::Joined(name)
                }
                Heard::Left { name, .. } => {
                    let hash = protocol::view_hash(l.world());
                    log::info!("hosting: {name} left; world hash {hash:016x}");
                    Said::Left(name)
                }
            });
        }
        roster.set_name(LOCAL, &self.name);
        let mut present = vec![false; l.session.players.len().max(1)];
        present[LOCAL.0] = true;
        for (seat, name) in self.station.seats() {
            roster.set_name(seat, &name);
            if let Some(p) = present.get_mut(seat.0) {
                *p = true;
            }
        }
        roster.set_present(&present);
        out
    }

    /// A chat line of the host's, to everyone who joined.
    pub fn say(&mut self, text: &str) {
        self.station.say_as_host(text);
    }

    /// Players joined.
    pub fn players(&self) -> usize {
        self.station.players().len()
    }

    /// Writes the characters of the players on (beside the world's save).
    pub fn keep_characters(&mut self, l: &mut Loaded) {
        self.station.serving(&mut l.session).keep_characters();
    }

    /// Closes the world to the network: the players are told and dropped (their
    /// characters kept), the world stays in the window as it is. Returns how many were on.
    pub fn close(mut self, l: &mut Loaded, roster: &mut Roster) -> usize {
        let n = self.players();
        self.station.serving(&mut l.session).close(CLOSED);
        l.acted = None;
        roster.set_present(&[true]);
        log::info!(
            "closed to the network ({n} dropped; world hash {:016x})",
            protocol::view_hash(l.world())
        );
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::worlds::state::tests::loaded;
    use crate::net::client::{Client, Event, JoinOptions, Phase};
    use crate::world::Tile;
    use std::time::Instant;

    #[test]
    fn the_form_reads_a_port_a_name_a_password_and_the_most_players_or_names_the_field() {
        let mut f = HostForm::default();
        assert_eq!(
            f.rows(),
            vec![
                "Port (or IP:PORT): 7777",
                "Your name: Host",
                "Password (empty: anyone may join): ",
                "Most players: 8"
            ]
        );
        let o = f.options().unwrap();
        assert_eq!(o.listen, "0.0.0.0:7777".parse().unwrap());
        assert_eq!((o.name.as_str(), o.max_players), ("Host", 8));
        let set = |f: &mut HostForm, i: usize, text: &str| {
            f.focus = i;
            f.fields[i] = Default::default();
            text.chars().for_each(|c| f.field().type_char(c));
        };
        for bad in ["0", "65536", "77x", "", "host:7777", "127.0.0.1:0"] {
            set(&mut f, 0, bad);
            let e = f.options().unwrap_err();
            assert!(e.starts_with("Port:") && e.contains(bad), "{bad}: {e}");
        }
        set(&mut f, 0, "127.0.0.1:17800");
        assert_eq!(
            f.options().unwrap().listen,
            "127.0.0.1:17800".parse().unwrap()
        );
        set(&mut f, 1, "Ann!");
        assert!(f.options().unwrap_err().starts_with("Your name:"));
        set(&mut f, 1, "Ann");
        set(&mut f, 2, &"p".repeat(MAX_PASSWORD + 1));
        assert!(f.options().unwrap_err().starts_with("Password:"));
        set(&mut f, 2, "pw");
        assert_eq!(f.rows()[2], "Password (empty: anyone may join): **");
        for bad in ["0", "256", "many"] {
            set(&mut f, 3, bad);
            assert!(
                f.options().unwrap_err().starts_with("Most players:"),
                "{bad}"
            );
        }
        set(&mut f, 3, "2");
        let o = f.options().unwrap();
        assert_eq!(
            (o.name.as_str(), o.password.as_str(), o.max_players),
            ("Ann", "pw", 2)
        );
    }

    fn options(port: u16) -> HostOptions {
        HostOptions {
            listen: SocketAddr::from(([127, 0, 0, 1], port)),
            name: "Hana".into(),
            password: String::new(),
            max_players: 4,
        }
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("strata-host-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_port_in_use_is_a_clear_message_and_the_world_stays() {
        let mut l = loaded();
        l.step(&[]);
        let before = (
            protocol::view_hash(l.world()),
            l.session.tick,
            l.me().body.pos,
        );
        let taken = std::net::UdpSocket::bind("127.0.0.1:17811").unwrap();
        let untouched = untouched_of(l.world());
        let e = Host::open(&mut l, &options(17811), untouched, &temp("inuse")).err();
        drop(taken);
        let e = e.expect("the port is taken");
        assert!(e.port_taken(), "{e:?}");
        let e = e.to_string();
        assert!(e.contains("cannot listen on 127.0.0.1:17811"), "{e}");
        let after = (
            protocol::view_hash(l.world()),
            l.session.tick,
            l.me().body.pos,
        );
        assert_eq!(after, before, "the window's world is its own again");
        assert_eq!(l.size(), (600, 300));
        assert!(l.acted.is_none());
        l.step(&[]);
        assert_eq!(l.session.tick, before.1 + 1, "and plays on");
    }

    /// Ticks the host (idle) and polls `client` until `done` or ten seconds.
    fn play_until(
        host: &mut Host,
        l: &mut Loaded,
        client: &mut Client,
        seen: &mut Vec<Event>,
        mut done: impl FnMut(&Loaded, &Client, &[Event]) -> bool,
    ) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            host.tick(l, &[]);
            seen.extend(client.poll());
            if done(l, client, seen) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(4));
        }
        false
    }

    #[test]
    fn a_window_opened_to_the_network_plays_with_a_client_on_one_world() {
        let dir = temp("loop");
        let mut l = loaded();
        // The host has landed and dug before opening: the joining player gets that too.
        for _ in 0..120 {
            l.step(&[]);
        }
        let (px, py) = l.me().body.pos;
        let first = (px.floor() as i64 + 1, py as i64);
        // A chest of gel beside the host, there before the client joins.
        let chest = ((px + 2.0) as usize, py as usize - 1);
        let cat = std::sync::Arc::clone(&l.session.content.catalog);
        let gel = cat.id("gel").unwrap();
        l.session.world.set(chest.0, chest.1, Tile::Chest);
        l.session
            .world
            .chests
            .open(chest.0, chest.1)
            .add(&cat, gel, 6);
        let untouched = untouched_of(l.world());
        let mut host = Host::open(&mut l, &options(17812), untouched, &dir).unwrap();
        assert_eq!(host.port, 17812);
        let mut client = Client::connect(
            &JoinOptions {
                addr: "127.0.0.1:17812".into(),
                name: "Bo".into(),
                ..Default::default()
            },
            std::sync::Arc::clone(&l.session.content),
        )
        .unwrap();
        let mut seen = Vec::new();
        let mut roster = Roster::default();
        let ok = play_until(&mut host, &mut l, &mut client, &mut seen, |_, c, _| {
            *c.phase() == Phase::Playing
        });
        assert!(ok, "the client did not join: {:?}", client.phase());
        let said = host.poll(&l, &mut roster);
        assert_eq!(said, vec![Said::Joined("Bo".into())]);
        assert_eq!(host.players(), 1);
        let names: Vec<String> = client.players().into_iter().map(|p| p.name).collect();
        assert!(
            names.contains(&"Hana".to_string()),
            "the host is named: {names:?}"
        );
        assert_eq!(
            roster.list(l.session.players.len(), LOCAL),
            ["Hana (you)", "Bo"]
        );
        // The host digs beside its feet through the server's ticks.
        let dig = [(LOCAL, Intent::Use { at: Some(first) })];
        let start = Instant::now();
        while l.world().tile(first.0 as usize, first.1 as usize) != Tile::Air
            && start.elapsed() < Duration::from_secs(10)
        {
            host.tick(&mut l, &dig);
            seen.extend(client.poll());
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(
            l.world().tile(first.0 as usize, first.1 as usize),
            Tile::Air
        );
        // The client digs under its own feet, once it has landed.
        let me = client.me().unwrap();
        let body = |c: &Client| {
            let p = c.players().into_iter().find(|p| p.id == me)?;
            p.body.filter(|b| b.vel.1.abs() < 1e-3)
        };
        let landed = play_until(&mut host, &mut l, &mut client, &mut seen, |_, c, _| {
            body(c).is_some()
        });
        assert!(landed, "no snapshot of the client's body");
        let feet = body(&client).unwrap().pos;
        let second = (feet.0.floor() as i64 - 1, feet.1 as i64);
        let solid = |l: &Loaded| {
            l.world()
                .tile(second.0 as usize, second.1 as usize)
                .is_solid()
        };
        assert!(solid(&l), "a block under the client");
        let start = Instant::now();
        while solid(&l) && start.elapsed() < Duration::from_secs(10) {
            client.send(&[Intent::Select(0), Intent::Use { at: Some(second) }]);
            host.tick(&mut l, &[]);
            seen.extend(client.poll());
            std::thread::sleep(Duration::from_millis(16));
        }
        assert!(!solid(&l), "the client's dig reached the host's world");
        // Both see one world.
        let same = play_until(&mut host, &mut l, &mut client, &mut seen, |l, c, _| {
            c.view_hash() == Some(protocol::view_hash(l.world()))
        });
        assert!(same, "the hashes differ");
        let w = client.world().unwrap();
        assert_eq!(w.tile(first.0 as usize, first.1 as usize), Tile::Air);
        // The host opens the chest and takes the gel with a click between ticks: the
        // client's chest empties too.
        assert!(client.world().unwrap().chests.holds_items(chest.0, chest.1));
        let open = Intent::Place {
            x: chest.0 as i64,
            y: chest.1 as i64,
            pressed: true,
        };
        host.tick(&mut l, &[(LOCAL, open)]);
        assert_eq!(l.me().chest, Some(chest));
        l.act(Intent::ClickChest(0));
        assert_eq!(l.me().held.map(|h| (h.item, h.count)), Some((gel, 6)));
        let emptied = play_until(&mut host, &mut l, &mut client, &mut seen, |_, c, _| {
            !c.world().unwrap().chests.holds_items(chest.0, chest.1)
        });
        assert!(emptied, "the client's chest still holds the gel");
        l.act(Intent::Close);
        // Chat both ways.
        client.say("hello host");
        host.say("welcome, Bo");
        let mut said = Vec::new();
        let bos = Said::Chat {
            from: "Bo".into(),
            text: "hello host".into(),
        };
        let start = Instant::now();
        while !said.contains(&bos) && start.elapsed() < Duration::from_secs(10) {
            host.tick(&mut l, &[]);
            seen.extend(client.poll());
            said.extend(host.poll(&l, &mut roster));
            std::thread::sleep(Duration::from_millis(4));
        }
        assert!(
            said.contains(&Said::Chat {
                from: "Bo".into(),
                text: "hello host".into()
            }),
            "{said:?}"
        );
        let hanas = |seen: &[Event]| {
            seen.iter().any(|e| {
                matches!(e, Event::Chat { from, text }
                if from == "Hana" && text == "welcome, Bo")
            })
        };
        let heard = play_until(&mut host, &mut l, &mut client, &mut seen, |_, _, seen| {
            hanas(seen)
        });
        assert!(heard, "the host's line did not reach the client: {seen:?}");
        // Closed: the client is told, the world stays in the window and plays on alone.
        let hash = protocol::view_hash(l.world());
        assert_eq!(host.close(&mut l, &mut roster), 1);
        let told = (0..500).any(|_| {
            seen.extend(client.poll());
            std::thread::sleep(Duration::from_millis(4));
            matches!(client.phase(), Phase::Closed(_))
        });
        assert!(told, "{:?}", client.phase());
        let refused = crate::net::client::Refusal::Other(CLOSED.into());
        assert_eq!(
            *client.phase(),
            Phase::Closed(crate::net::client::JoinError::Refused(refused))
        );
        assert_eq!(protocol::view_hash(l.world()), hash);
        assert_eq!(roster.list(l.session.players.len(), LOCAL), ["Hana (you)"]);
        assert!(
            dir.join(format!(
                "{}.characters",
                crate::store::save::save_path(&dir, l.world())
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
            ))
            .is_dir(),
            "Bo's character is kept beside the world's save"
        );
        let tick = l.session.tick;
        l.step(&[]);
        assert_eq!(l.session.tick, tick + 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
