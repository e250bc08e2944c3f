//! A server and bots on loopback, in one process: every bot ends with the server's world
//! hash; clients that send garbage, replay or reorder their inputs, or say nothing are
//! dropped while the others play on. Every loop here is bounded in time.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use strata::net::bots::{self, BotOptions};
use strata::net::client::{Client, JoinError, JoinOptions, Phase, Refusal};
use strata::net::protocol::{self, ToServer};
use strata::net::server::{ServeOptions, Server, Station};
use strata::sim::session::{Intent, Session, TICK};

/// How a server of [`serve`] ended: its world's hash, its players, the edits made, the
/// lines it logged and the last of them.
struct Ended {
    hash: u64,
    players: Vec<String>,
    edits: u64,
    log_lines: u64,
    log: Vec<String>,
}

/// A server on a small world, ticking on a thread at 60 a second until `stop`; the
/// thread says how it ended ([`Ended`]).
fn serve(
    dir: &std::path::Path,
    stop: Arc<AtomicBool>,
) -> (std::net::SocketAddr, std::thread::JoinHandle<Ended>) {
    let preset = strata::Preset {
        width: 400,
        height: 200,
        ..strata::Preset::default()
    };
    let world = strata::generate(&preset, 11).0;
    let opts = ServeOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        max_players: 8,
        password: String::new(),
        motd: "hi".into(),
        save: dir.join("world.strata"),
        characters: dir.join("characters"),
        autosave: Duration::from_secs(3600),
        host_plays: false,
    };
    let mut server = Server::start(Session::new(world.clone()), world, opts).unwrap();
    // The bots dig and build where they come in.
    server.keeper.spawn_protection = 0;
    let addr = server.addr();
    let h = std::thread::spawn(move || {
        let start = Instant::now();
        let mut n = 0u64;
        // At most two minutes, whatever happens.
        while !stop.load(Ordering::SeqCst) && start.elapsed() < Duration::from_secs(120) {
            server.tick(&[]);
            n += 1;
            let due = start + Duration::from_secs_f64(n as f64 * TICK);
            if let Some(w) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(w);
            }
        }
        server.summarise_refusals();
        Ended {
            hash: server.view_hash(),
            players: server.players(),
            edits: server.session.edits,
            log_lines: server.log_lines(),
            log: server.recent_log(),
        }
    });
    (addr, h)
}

/// The built-in content, as a client without mods plays with.
fn builtin() -> Arc<strata::content::config::Content> {
    Arc::new(strata::content::config::Content::builtin())
}

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("strata-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn seconds(var: &str, default: f64) -> f64 {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn four_bots_end_with_the_servers_world() {
    let dir = temp("net-play");
    let stop = Arc::new(AtomicBool::new(false));
    let (addr, server) = serve(&dir, stop.clone());
    let opts = BotOptions {
        addr: addr.to_string(),
        count: 4,
        seconds: seconds("STRATA_NET_SECONDS", 20.0),
        settle: 3.0,
        seed: 5,
        ..BotOptions::default()
    };
    let reports = bots::run(&opts).unwrap();
    stop.store(true, Ordering::SeqCst);
    let Ended { hash, edits, .. } = server.join().unwrap();
    assert!(edits >= 4, "the bots dug and built: {edits} edits");
    for r in &reports {
        assert_eq!(r.closed, None, "{}", r.line());
        assert_eq!(r.hash, Some(hash), "{}", r.line());
        assert_eq!(r.desyncs, 0, "{}", r.line());
        assert!(r.checked.is_some_and(|c| c.2), "{}", r.line());
    }
    assert!(
        reports.iter().map(|r| r.said).sum::<u32>() > 0,
        "they chatted"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A client joined through the real client, then used to send raw messages.
fn joined(addr: std::net::SocketAddr, name: &str) -> Client {
    let opts = JoinOptions {
        addr: addr.to_string(),
        name: name.into(),
        password: "pw".into(),
        server_password: String::new(),
        known_servers: None,
    };
    bots::join_one(&opts, Duration::from_secs(30)).unwrap()
}

/// Polls `c` until it is closed or `secs` pass; whether it closed.
fn closes_within(c: &mut Client, secs: f64) -> bool {
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < secs {
        c.poll();
        if matches!(c.phase(), Phase::Closed(_)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

#[test]
fn bad_clients_are_dropped_and_the_others_play_on() {
    let dir = temp("net-bad");
    let stop = Arc::new(AtomicBool::new(false));
    let (addr, server) = serve(&dir, stop.clone());
    let mut good = joined(addr, "good");
    // Garbage bytes on the ordered channel.
    let mut a = joined(addr, "garbage");
    a.send_raw(vec![0xff, 0xfe, 0x00, 0x13]);
    // The same input twice (replayed), then one out of order.
    let mut b = joined(addr, "replay");
    b.send(&[]);
    let again = ToServer::Input {
        seq: 1,
        intents: vec![],
    };
    b.send_raw(protocol::encode(&again));
    let mut c = joined(addr, "skip");
    let ahead = ToServer::Input {
        seq: 5,
        intents: vec![],
    };
    c.send_raw(protocol::encode(&ahead));
    // An intent out of range.
    let mut d = joined(addr, "range");
    d.send(&[Intent::ClickSlot(9999)]);
    // A second hello.
    let mut e = joined(addr, "twice");
    let hello = ToServer::Hello {
        version: protocol::VERSION,
        name: "twice".into(),
        password: "pw".into(),
        server_password: String::new(),
        content: strata::content::config::Content::builtin().files,
    };
    e.send_raw(protocol::encode(&hello));
    // A flood of inputs.
    let mut f = joined(addr, "flood");
    for _ in 0..=strata::net::server::FLOOD_INPUTS {
        f.send(&[]);
    }
    for (name, cl) in [
        ("flood", &mut f),
        ("garbage", &mut a),
        ("replay", &mut b),
        ("skip", &mut c),
        ("range", &mut d),
        ("twice", &mut e),
    ] {
        assert!(closes_within(cl, 10.0), "{name} was not dropped");
    }
    // The good one still plays and its world is the server's.
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(2) {
        good.poll();
        good.send(&[Intent::Move {
            axis: 1,
            jump: false,
        }]);
        std::thread::sleep(Duration::from_secs_f64(TICK));
    }
    assert_eq!(*good.phase(), Phase::Playing);
    // Same name and another password while it plays: refused; wrong password later:
    // refused.
    let twin = JoinOptions {
        addr: addr.to_string(),
        name: "good".into(),
        password: "another".into(),
        server_password: String::new(),
        known_servers: None,
    };
    let err = bots::join_one(&twin, Duration::from_secs(10))
        .err()
        .unwrap();
    let twice = Refusal::AlreadyPlaying {
        name: "good".into(),
    };
    assert_eq!(err, JoinError::Refused(twice));
    assert!(err.to_string().contains("already playing"), "{err}");
    good.close();
    std::thread::sleep(Duration::from_millis(300));
    let wrong = JoinOptions {
        password: "nope".into(),
        ..twin.clone()
    };
    let err = bots::join_one(&wrong, Duration::from_secs(10))
        .err()
        .unwrap();
    let wrong_password = Refusal::WrongPassword {
        name: "good".into(),
    };
    assert_eq!(err, JoinError::Refused(wrong_password));
    assert!(err.is_wrong_password() && err.to_string() == "refused: wrong password for good");
    // The right password gets the character back.
    let right = JoinOptions {
        password: "pw".into(),
        ..twin.clone()
    };
    let back = bots::join_one(&right, Duration::from_secs(30)).unwrap();
    assert!(back.character().is_some());
    drop(back);
    stop.store(true, Ordering::SeqCst);
    let Ended { players, .. } = server.join().unwrap();
    assert!(players.len() <= 1, "{players:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_silent_client_is_dropped() {
    let dir = temp("net-silent");
    let stop = Arc::new(AtomicBool::new(false));
    let (addr, server) = serve(&dir, stop.clone());
    let opts = JoinOptions {
        addr: addr.to_string(),
        name: "quiet".into(),
        password: String::new(),
        server_password: String::new(),
        known_servers: None,
    };
    let mut c = Client::connect(&opts, builtin()).unwrap();
    c.hold_hello();
    assert!(
        closes_within(&mut c, strata::net::server::HELLO_SECONDS + 10.0),
        "still on"
    );
    stop.store(true, Ordering::SeqCst);
    server.join().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random, truncated and oversized datagrams at the server's port from a few sockets for
/// `STRATA_NET_FUZZ_SECONDS` (2 unless told; 60 for the long run), at least 20,000 of
/// them; the server keeps serving, logs them in a summary line or two, and a bot joins
/// and plays afterwards with the server's world.
#[test]
fn datagrams_of_junk_do_not_stop_the_server() {
    let dir = temp("net-fuzz");
    let stop = Arc::new(AtomicBool::new(false));
    let (addr, server) = serve(&dir, stop.clone());
    let socks: Vec<std::net::UdpSocket> = (0..8)
        .map(|_| std::net::UdpSocket::bind("127.0.0.1:0").unwrap())
        .collect();
    let secs = seconds("STRATA_NET_FUZZ_SECONDS", 2.0);
    let start = Instant::now();
    let mut rng = 1u64;
    let mut next = |n: u64| {
        rng = strata::base::rng::mix64(rng.wrapping_add(0x9E37_79B9_7F4A_7C15));
        rng % n.max(1)
    };
    let mut sent = 0u64;
    // A real packet to cut and flip: a connection request from a real client.
    let mut real = Vec::new();
    let sniff = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    sniff
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let mut probe = Client::connect(
        &JoinOptions {
            addr: sniff.local_addr().unwrap().to_string(),
            name: "probe".into(),
            ..JoinOptions::default()
        },
        builtin(),
    )
    .unwrap();
    probe.poll();
    let mut buf = [0u8; 2048];
    if let Ok((n, _)) = sniff.recv_from(&mut buf) {
        real = buf[..n].to_vec();
    }
    assert!(!real.is_empty(), "the probe sent a request");
    while start.elapsed().as_secs_f64() < secs || sent < 20_000 {
        for s in &socks {
            let bytes: Vec<u8> = match next(4) {
                0 => (0..next(1400)).map(|_| next(256) as u8).collect(),
                1 => real[..next(real.len() as u64) as usize].to_vec(),
                2 => {
                    let mut r = real.clone();
                    let i = next(r.len() as u64) as usize;
                    r[i] ^= 1 << next(8);
                    r
                }
                _ => vec![next(256) as u8; 1400 + next(60_000) as usize],
            };
            let _ = s.send_to(&bytes, addr);
            sent += 1;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    assert!(sent >= 20_000);
    let opts = BotOptions {
        addr: addr.to_string(),
        count: 1,
        seconds: 3.0,
        settle: 2.0,
        seed: 3,
        ..BotOptions::default()
    };
    let reports = bots::run(&opts).unwrap();
    stop.store(true, Ordering::SeqCst);
    let ended = server.join().unwrap();
    assert_eq!(reports[0].hash, Some(ended.hash), "{}", reports[0].line());
    assert_eq!(reports[0].closed, None);
    // The junk is summarised, with its senders, in a few lines (not one a datagram).
    assert!(
        ended.log_lines <= 40,
        "{} lines for {sent} datagrams: {:?}",
        ended.log_lines,
        ended.log
    );
    let summary = (ended.log.iter()).find(|l| l.starts_with("refused ") && l.contains(" datagram"));
    let summary = summary.unwrap_or_else(|| panic!("no summary: {:?}", ended.log));
    assert!(summary.contains("127.0.0.1:"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ticks `server` (at most `secs` seconds, about 60 a second) and polls `clients` until
/// `done` says so; every client's events meanwhile, and whether `done` did.
fn pump(
    server: &mut Server,
    clients: &mut [&mut Client],
    secs: f64,
    mut done: impl FnMut(&Server, &[&mut Client]) -> bool,
) -> (Vec<Vec<strata::net::client::Event>>, bool) {
    let mut seen = vec![Vec::new(); clients.len()];
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < secs {
        server.tick(&[]);
        for (c, s) in clients.iter_mut().zip(&mut seen) {
            s.extend(c.poll());
        }
        if done(server, clients) {
            return (seen, true);
        }
        std::thread::sleep(Duration::from_secs_f64(TICK / 2.0));
    }
    (seen, false)
}

/// A server on `session` (made as `world`) that the test ticks itself ([`pump`]).
fn here(session: Session, world: strata::World, dir: &std::path::Path) -> Server {
    Server::start(session, world, ServeOptions::loopback(dir)).unwrap()
}

/// A small world (seed 11) and a session on it.
fn small() -> (Session, strata::World) {
    let preset = strata::Preset {
        width: 400,
        height: 200,
        ..strata::Preset::default()
    };
    let world = strata::generate(&preset, 11).0;
    (Session::new(world.clone()), world)
}

/// A client of `server` (ticked here) joined as `name` with `password` that has the
/// world, or why it closed.
fn join_as(server: &mut Server, name: &str, password: &str) -> Result<Client, JoinError> {
    let opts = JoinOptions {
        addr: server.addr().to_string(),
        name: name.into(),
        password: password.into(),
        server_password: String::new(),
        known_servers: None,
    };
    let mut c = Client::connect(&opts, builtin()).unwrap();
    let (_, ok) = pump(server, &mut [&mut c], 60.0, |_, c| {
        matches!(c[0].phase(), Phase::Playing | Phase::Closed(_))
    });
    match c.phase() {
        Phase::Playing if ok => Ok(c),
        Phase::Closed(why) => Err(why.clone()),
        other => panic!("neither playing nor closed: {other:?}"),
    }
}

/// A client of `server` (ticked here) that has the world.
fn join_here(server: &mut Server, name: &str) -> Client {
    join_as(server, name, "pw").unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_client_loots_crafts_and_fills_a_chest_and_a_second_is_refused_it_meanwhile() {
    use strata::world::Tile;
    let dir = temp("net-chest");
    let (mut session, world) = small();
    // A chest of gel and wood beside where players come in.
    let (px, py) = strata::sim::player::spawn_point(&session.world);
    let at = ((px + 2.0) as usize, py as usize - 1);
    session.world.set(at.0, at.1, Tile::Chest);
    let cat = Arc::clone(&session.content.catalog);
    let named = |n: &str| cat.id(n).unwrap();
    let chest = session.world.chests.open(at.0, at.1);
    chest.add(&cat, named("gel"), 6);
    chest.add(&cat, named("wood"), 10);
    let mut server = here(session, world, &dir);
    let mut a = join_here(&mut server, "ann");
    let mut b = join_here(&mut server, "bob");
    let seat = |c: &Client| strata::sim::session::PlayerId(c.me().unwrap() as usize);
    let (sa, sb) = (seat(&a), seat(&b));
    let (x, y) = (at.0 as i64, at.1 as i64);
    let torch = (cat.recipes.iter())
        .position(|r| cat.item(r.make).name == "torch")
        .unwrap();
    // Ann opens the chest, loots it and crafts torches: one input.
    let seq = a
        .send(&[
            Intent::OpenChest { x, y },
            Intent::LootAll,
            Intent::Craft(torch),
        ])
        .unwrap();
    let answered = |c: &Client, seq: u64| c.own().is_some_and(|o| o.ack >= seq);
    let (_, ok) = pump(&mut server, &mut [&mut a], 10.0, |_, c| answered(c[0], seq));
    assert!(ok, "no answer to the input");
    let own = a.own().unwrap().clone();
    assert_eq!(
        own.chest.as_ref().map(|c| (c.x as usize, c.y as usize)),
        Some(at)
    );
    let count = |slots: &[Option<(String, u32)>], name: &str| -> u32 {
        slots
            .iter()
            .flatten()
            .filter(|(n, _)| n == name)
            .map(|(_, k)| k)
            .sum()
    };
    let inv = &own.character.slots;
    assert!(count(inv, "torch") > 0, "crafted: {inv:?}");
    assert!(count(inv, "gel") < 6, "the gel went into torches: {inv:?}");
    assert_eq!(count(&own.chest.as_ref().unwrap().slots, "gel"), 0);
    let me = &server.session.players[sa.0];
    assert_eq!(me.chest, Some(at));
    let kept = protocol::character_of(&server.session.player_state(sa));
    assert_eq!(kept.slots, own.character.slots);
    // Bob, beside it, is refused while Ann has it open.
    b.send(&[Intent::OpenChest { x, y }]).unwrap();
    let (seen, ok) = pump(&mut server, &mut [&mut b], 10.0, |_, c| {
        c[0].own().is_some_and(|o| o.ack >= 1)
    });
    assert!(ok, "bob heard nothing");
    let refused = seen[0]
        .iter()
        .any(|e| *e == strata::net::client::Event::Notice(strata::net::said::CHEST_IN_USE.into()));
    assert!(refused, "{:?}", seen[0]);
    assert_eq!(server.session.players[sb.0].chest, None);
    assert!(b.own().unwrap().chest.is_none());
    // Ann moves her torches into the chest's slot 10 (onto the cursor, then down).
    let slot = own
        .character
        .slots
        .iter()
        .position(|s| s.as_ref().is_some_and(|(n, _)| n == "torch"));
    let slot = slot.unwrap();
    let torches = own.character.slots[slot].as_ref().unwrap().1;
    let seq = a
        .send(&[Intent::ClickSlot(slot), Intent::ClickChest(10)])
        .unwrap();
    let (_, ok) = pump(&mut server, &mut [&mut a], 10.0, |_, c| answered(c[0], seq));
    assert!(ok);
    let slots = server.session.world.chests.get(at.0, at.1).unwrap().slots();
    let put = slots[10].map(|s| (cat.item(s.item).name.as_str(), s.count));
    assert_eq!(put, Some(("torch", torches)), "the server's chest has them");
    let own = a.own().unwrap();
    assert_eq!(own.held, None);
    assert_eq!(
        own.chest.as_ref().unwrap().slots[10],
        Some(("torch".to_string(), torches))
    );
    // Ann's view of the world (the cells) has the chest as the server has it.
    let (_, ok) = pump(&mut server, &mut [&mut a], 5.0, |s, c| {
        c[0].view_hash() == Some(s.view_hash())
    });
    assert!(ok, "the chest's cells reached ann");
    // Ann closes it (the inventory screen closes): Bob may open it now.
    a.send(&[Intent::Close]).unwrap();
    let (_, ok) = pump(&mut server, &mut [&mut a], 10.0, |s, _| {
        s.session.players[sa.0].chest.is_none()
    });
    assert!(ok);
    let seq = b.send(&[Intent::OpenChest { x, y }]).unwrap();
    let (_, ok) = pump(&mut server, &mut [&mut b], 10.0, |_, c| answered(c[0], seq));
    assert!(ok);
    assert_eq!(server.session.players[sb.0].chest, Some(at));
    let own = b.own().unwrap();
    assert_eq!(
        own.chest.as_ref().unwrap().slots[10],
        Some(("torch".to_string(), torches)),
        "bob sees what ann put there"
    );
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shortest way round the clock between two times of day (0 to 1).
fn clock_gap(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(1.0);
    d.min(1.0 - d)
}

#[test]
fn a_joined_clients_clock_is_the_servers() {
    let dir = temp("net-clock");
    let (mut session, world) = small();
    // Night, far from the time a new session starts at.
    session.time_of_day = 0.9;
    let start = session.content.rules.start_time;
    let mut server = here(session, world, &dir);
    let mut a = join_here(&mut server, "ann");
    let (_, ok) = pump(&mut server, &mut [&mut a], 10.0, |_, c| {
        c[0].time_of_day().is_some()
    });
    assert!(ok, "no snapshot with the clock");
    let minute = 1.0 / (24.0 * 60.0);
    let (theirs, ours) = (a.time_of_day().unwrap(), server.session.time_of_day);
    assert!(
        clock_gap(theirs, ours) < minute,
        "client {theirs}, server {ours}"
    );
    assert!(
        clock_gap(theirs, start) > 0.1,
        "the client kept its own clock"
    );
    // The clock moves on the client as on the server.
    let (_, ok) = pump(&mut server, &mut [&mut a], 10.0, |_, c| {
        c[0].time_of_day()
            .is_some_and(|t| clock_gap(t, theirs) > minute / 2.0)
    });
    assert!(ok, "the client's clock stood still");
    let (theirs, ours) = (a.time_of_day().unwrap(), server.session.time_of_day);
    assert!(
        clock_gap(theirs, ours) < minute,
        "client {theirs}, server {ours}"
    );
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crashed_player_rejoins_at_once_with_the_same_password_and_no_one_else_may() {
    let dir = temp("net-rejoin");
    let (session, world) = small();
    let mut server = here(session, world, &dir);
    let a = join_here(&mut server, "ann");
    // The window dies without a word: its connection has not timed out yet.
    std::mem::forget(a);
    let e = join_as(&mut server, "ann", "not hers").err();
    assert!(
        matches!(&e, Some(JoinError::Refused(Refusal::AlreadyPlaying { name })) if name == "ann"),
        "{e:?}"
    );
    let mut again = join_here(&mut server, "ann");
    assert_eq!(server.players(), ["ann"], "one seat, taken over");
    let (_, ok) = pump(&mut server, &mut [&mut again], 2.0, |_, c| {
        matches!(c[0].phase(), Phase::Closed(_))
    });
    assert!(!ok, "the new join plays on: {:?}", again.phase());
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_keeper_kicks_bans_and_whitelists_and_the_file_keeps_it() {
    use strata::net::keeper::{Keeper, keeper_path};
    let dir = temp("net-keeper");
    let (session, world) = small();
    let mut server = here(session, world, &dir);
    let mut a = join_here(&mut server, "ann");
    assert_eq!(server.command("kick ann", None), ["kicked ann"]);
    let (_, ok) = pump(&mut server, &mut [&mut a], 10.0, |_, c| {
        matches!(c[0].phase(), Phase::Closed(_))
    });
    assert!(ok, "ann is still on");
    let Phase::Closed(why) = a.phase() else {
        unreachable!()
    };
    assert!(why.to_string().contains("kicked by console"), "{why}");
    assert!(
        matches!(why, JoinError::Refused(Refusal::Other(_))),
        "{why:?}"
    );
    let (_, ok) = pump(&mut server, &mut [], 2.0, |s, _| s.players().is_empty());
    assert!(ok, "ann's seat is still taken: {:?}", server.players());
    let said = server.recent_log();
    assert!(
        said.iter().any(|l| l == "kicked ann (by console)"),
        "{said:?}"
    );
    // Banned by name, then by address (every name from it).
    server.command("ban ann", None);
    let e = join_as(&mut server, "ann", "pw").err();
    assert_eq!(e, Some(JoinError::Refused(Refusal::Banned)));
    join_here(&mut server, "bob").close();
    server.command("unban ann", None);
    server.command("ban 127.0.0.1", None);
    let e = join_as(&mut server, "cy", "pw").err();
    assert_eq!(e, Some(JoinError::Refused(Refusal::Banned)));
    server.command("unban 127.0.0.1", None);
    // The whitelist: only those on it.
    server.command("whitelist add ann", None);
    server.command("whitelist on", None);
    let e = join_as(&mut server, "bob", "pw").err();
    assert_eq!(e, Some(JoinError::Refused(Refusal::NotListed)));
    assert!(e.is_some_and(|e| e.to_string().contains("whitelist")));
    let mut ann = join_here(&mut server, "ann");
    ann.close();
    server.stop();
    // Kept beside the world, for the next start.
    let k = Keeper::load(&keeper_path(&dir.join("world.strata"))).unwrap();
    assert!(
        k.whitelisting && k.whitelist == ["ann"] && k.bans.is_empty(),
        "{k:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn only_operators_build_at_the_spawn() {
    use strata::world::Tile;
    use strata::world::inventory::AsItem;
    let dir = temp("net-spawn");
    let (session, world) = small();
    let mut server = here(session, world, &dir);
    let mut a = join_here(&mut server, "ann");
    let seat = a.me().unwrap() as usize;
    // Dirt in ann's hotbar; a spot on the ground three tiles from where she stands.
    let p = &mut server.session.players[seat];
    p.inventory.add(Tile::Dirt, 5);
    let dirt = Tile::Dirt.as_item(p.inventory.catalog()).unwrap();
    let slot = (p.inventory.slots().iter())
        .position(|s| s.is_some_and(|s| s.item == dirt))
        .unwrap();
    let (px, py) = p.body.pos;
    let x = (px + 3.0) as i64;
    let w = &server.session.world;
    let y = (py as i64 - 3..py as i64 + 3)
        .find(|&y| {
            w.tile(x as usize, y as usize) == Tile::Air
                && w.tile(x as usize, y as usize + 1).is_solid()
        })
        .expect("ground beside the spawn");
    let place = [
        Intent::Select(slot),
        Intent::Place {
            x,
            y,
            pressed: true,
        },
    ];
    let placed = |s: &Server| s.session.world.tile(x as usize, y as usize) == Tile::Dirt;
    a.send(&place).unwrap();
    let (_, ok) = pump(&mut server, &mut [&mut a], 1.5, |s, _| placed(s));
    assert!(
        !ok,
        "placed at the spawn by a player who is not an operator"
    );
    server.command("op ann", None);
    a.send(&place).unwrap();
    let (_, ok) = pump(&mut server, &mut [&mut a], 10.0, |s, _| placed(s));
    assert!(ok, "not placed by an operator");
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_client_knows_at_once_when_its_server_stops_or_dies() {
    let dir = temp("net-gone");
    // Stopped: the goodbye says so.
    let (session, world) = small();
    let mut server = here(session, world.clone(), &dir);
    let mut a = join_here(&mut server, "ann");
    server.stop();
    assert!(closes_within(&mut a, 2.0), "still on after the stop");
    let Phase::Closed(why) = a.phase() else {
        unreachable!()
    };
    assert!(why.to_string().contains("the server stopped"), "{why}");
    // Killed: no word at all, the silence says so.
    let mut server = here(Session::new(world.clone()), world, &dir);
    let mut b = join_here(&mut server, "bob");
    drop(server);
    let limit = strata::net::client::SILENCE + 2.0;
    assert!(closes_within(&mut b, limit), "still on {limit} s after");
    let Phase::Closed(why) = b.phase() else {
        unreachable!()
    };
    assert!(
        matches!(why, JoinError::Lost(s) if s.contains("stopped answering")),
        "{why:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bots_predicted_body_is_where_the_server_has_it_after_20_seconds() {
    let dir = temp("net-predict");
    let (session, world) = small();
    let mut server = here(session, world, &dir);
    // The bot digs and builds where it comes in: the ground changes under its feet.
    server.keeper.spawn_protection = 0;
    let opts = BotOptions {
        addr: server.addr().to_string(),
        seed: 7,
        ..BotOptions::default()
    };
    let mut bot = bots::Bot::join(&opts, 0).unwrap();
    let (_, ok) = pump(&mut server, &mut [&mut bot.client], 60.0, |_, c| {
        matches!(c[0].phase(), Phase::Playing | Phase::Closed(_))
    });
    assert!(
        ok && *bot.client.phase() == Phase::Playing,
        "{:?}",
        bot.client.phase()
    );
    let seat = bot.client.me().unwrap() as usize;
    let apart = |bot: &bots::Bot, server: &Server| {
        let (p, s) = (
            bot.predicted().unwrap(),
            server.session.players[seat].body.pos,
        );
        (p.0 - s.0).hypot(p.1 - s.1)
    };
    // 20 seconds of ticks, the bot's then the server's, at about 60 a second (the server
    // takes a client's inputs at most twice as fast as that).
    let (start, t0) = (None::<(f32, f32)>, Instant::now());
    let (mut from, mut went, mut worst, mut ahead) = (start, 0.0f32, 0.0f32, 0);
    for tick in 0..strata::sim::session::ticks(20.0) {
        bot.tick(tick, true);
        server.tick(&[]);
        let at = bot.predicted().unwrap();
        let first = *from.get_or_insert(at);
        went = went.max((at.0 - first.0).hypot(at.1 - first.1));
        if tick >= 60 {
            worst = worst.max(apart(&bot, &server));
        }
        // Moved by its own inputs, not copied from the last snapshot.
        ahead += usize::from(bot.client.body().is_some_and(|b| b.pos != at));
        let due = t0 + Duration::from_secs_f64((tick + 1) as f64 * TICK);
        if let Some(w) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(w);
        }
    }
    assert!(
        went > 3.0,
        "the bot walked about: {went} tiles at most from where it began"
    );
    let end = apart(&bot, &server);
    assert!(
        end < 1.0,
        "predicted {end} tiles from the server's body after 20 s"
    );
    assert!(worst < 2.0, "{worst} tiles apart at worst while it played");
    assert!(
        ahead > 60,
        "the body ran ahead of the snapshots {ahead} ticks of 1200"
    );
    let report = bot.finish();
    assert_eq!(report.closed, None, "{}", report.line());
    assert!(report.ticks_sent >= 1200, "{}", report.line());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_joined_session_mirrors_the_others_the_creatures_the_town_and_the_clock() {
    use strata::net::mirror::apply_snapshot;
    use strata::sim::creatures::{Creature, Kind};
    let dir = temp("net-mirror");
    let (mut session, world) = small();
    let (px, py) = strata::sim::player::spawn_point(&session.world);
    let slime = Creature::new(&session.content.bestiary, Kind::Slime, (px + 6.0, py - 3.0));
    session.creatures.list.push(slime);
    let mut server = here(session, world, &dir);
    let mut a = join_here(&mut server, "ann");
    let mut b = join_here(&mut server, "bob");
    let bob = b.me().unwrap() as usize;
    // Ann's window: its own seat, then Bob's.
    let mut window = Session::new(a.world().unwrap().clone());
    window.join();
    let seats = [None, b.me()];
    let (tick0, from) = (window.tick, server.session.players[bob].body.pos);
    let dist = |p: (f32, f32), q: (f32, f32)| (p.0 - q.0).hypot(p.1 - q.1);
    // Bob walks right for a second; Ann's window mirrors every tick.
    for _ in 0..60 {
        b.send(&[Intent::Move {
            axis: 1,
            jump: false,
        }]);
        a.send(&[]);
        server.tick(&[]);
        a.poll();
        b.poll();
        apply_snapshot(&mut window, &a, &seats);
        std::thread::sleep(Duration::from_secs_f64(TICK));
    }
    assert_eq!(window.tick, tick0 + 60, "a tick counted each call");
    assert_eq!(
        Some(window.time_of_day),
        a.time_of_day(),
        "the server's clock"
    );
    let there = server.session.players[bob].body.pos;
    assert!(dist(from, there) > 2.0, "Bob walked: {from:?} to {there:?}");
    let shown = window.players[1].body.pos;
    assert!(
        dist(shown, there) < 1.5,
        "Bob shown at {shown:?}, at {there:?}"
    );
    let beasts = a.beasts();
    assert!(!beasts.is_empty(), "the slime is in the snapshot");
    assert_eq!(window.creatures.list.len(), beasts.len());
    for (c, b) in window.creatures.list.iter().zip(beasts) {
        assert_eq!(window.content.bestiary.def(c.kind).name, b.name);
        assert!(
            dist(c.body.pos, b.pos) < 1.5,
            "{:?} {:?}",
            c.body.pos,
            b.pos
        );
    }
    let guide = (window.guide().body.pos, server.session.guide().body.pos);
    assert!(dist(guide.0, guide.1) < 1.5, "the Guide: {guide:?}");
    // Bob wears a grappling hook and fires it at the ground beside him: Ann's window has
    // his line where the server has it caught.
    assert_eq!(window.players[1].body.hook, None);
    let cat = Arc::clone(&server.session.content.catalog);
    let mut worn = [None; strata::world::inventory::ACCESSORY_SLOTS];
    worn[0] = cat.id("grappling_hook");
    let inv = server.session.players[bob].inventory.clone();
    server.session.players[bob].inventory = inv.with_accessories(worn).unwrap();
    let (bx, by) = server.session.players[bob].body.pos;
    b.send(&[Intent::Hook {
        at: (bx + 3.0, by + 2.0),
    }]);
    let (_, ok) = pump(&mut server, &mut [&mut a, &mut b], 10.0, |s, c| {
        let caught = s.session.players[bob].body.hook;
        let seen = c[0].players().into_iter().find(|p| p.id == bob as u32);
        caught.is_some() && seen.and_then(|p| p.body).is_some_and(|b| b.hook == caught)
    });
    assert!(ok, "Ann never heard of Bob's line");
    apply_snapshot(&mut window, &a, &seats);
    let caught = server.session.players[bob].body.hook;
    assert!(caught.is_some() && window.players[1].body.hook == caught);
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the server had at a snapshot's tick, to hold each client's snapshot against:
/// the creatures (name, place), the casters' bolts, the projectiles and the Eye.
#[derive(Clone, Debug, PartialEq)]
struct Sight {
    beasts: Vec<(String, (f32, f32))>,
    bolts: Vec<(f32, f32)>,
    shots: Vec<(f32, f32)>,
    eye: Option<(f32, f32)>,
}

fn seen_on_server(s: &Session) -> Sight {
    Sight {
        beasts: (s.creatures.list.iter())
            .map(|c| (s.creatures.bestiary.def(c.kind).name.clone(), c.body.pos))
            .collect(),
        bolts: s.creatures.bolts.iter().map(|b| b.pos).collect(),
        shots: s.projectiles.iter().map(|p| p.pos).collect(),
        eye: s.boss.as_ref().map(|b| b.pos),
    }
}

fn seen_by_client(c: &Client) -> Sight {
    Sight {
        beasts: c.beasts().iter().map(|b| (b.name.clone(), b.pos)).collect(),
        bolts: c.bolts().iter().map(|b| b.pos).collect(),
        shots: c.shots().iter().map(|s| s.pos).collect(),
        eye: c.boss().map(|e| e.pos),
    }
}

/// How far a joined window's mirror of `seen` (eased toward it, run on by its velocity)
/// is from it at worst, tiles: the creatures one by one, the Eye; the projectiles and
/// bolts are shown where the snapshot has them. `None` when the window shows another
/// number of them.
fn mirror_gap(window: &Session, seen: &Sight) -> Option<f32> {
    let d = |p: (f32, f32), q: (f32, f32)| (p.0 - q.0).hypot(p.1 - q.1);
    let list = &window.creatures.list;
    let same = list.len() == seen.beasts.len()
        && window.projectiles.len() == seen.shots.len()
        && window.creatures.bolts.len() == seen.bolts.len()
        && window.boss.is_some() == seen.eye.is_some();
    if !same {
        return None;
    }
    let mut gap = 0.0f32;
    for (c, (name, pos)) in list.iter().zip(&seen.beasts) {
        if window.creatures.bestiary.def(c.kind).name != *name {
            return None;
        }
        gap = gap.max(d(c.body.pos, *pos));
    }
    for (p, q) in window.projectiles.iter().map(|p| p.pos).zip(&seen.shots) {
        gap = gap.max(d(p, *q));
    }
    for (b, q) in window
        .creatures
        .bolts
        .iter()
        .map(|b| b.pos)
        .zip(&seen.bolts)
    {
        gap = gap.max(d(b, *q));
    }
    if let (Some(b), Some(e)) = (&window.boss, seen.eye) {
        gap = gap.max(d(b.pos, e));
    }
    Some(gap)
}

/// The hotbar slot holding `name` in player `seat`'s inventory on the server.
fn slot_of(server: &Server, seat: usize, name: &str) -> usize {
    let inv = &server.session.players[seat].inventory;
    let id = inv.catalog().id(name).unwrap();
    let slot = (inv.slots().iter())
        .position(|s| s.is_some_and(|s| s.item == id))
        .unwrap_or_else(|| panic!("no {name}"));
    assert!(slot < 10, "{name} is in slot {slot}, off the hotbar");
    slot
}

/// How many `name` the character a client last heard of carries.
fn carried(c: &Client, name: &str) -> u32 {
    (c.character().into_iter())
        .flat_map(|ch| ch.slots.iter().flatten())
        .filter(|(n, _)| n == name)
        .map(|(_, k)| k)
        .sum()
}

#[test]
fn two_players_fight_the_eye_together_and_both_see_what_the_server_has() {
    use strata::net::mirror::apply_snapshot;
    use strata::sim::creatures::Bolt;
    use strata::world::progress::Progress;
    let dir = temp("net-boss");
    let (mut session, world) = small();
    // Night, when the Eye comes.
    let rules = session.content.rules.clone();
    let night = |t: f32| strata::sim::day::is_night(t, &rules);
    let t = (0..100)
        .map(|i| i as f32 / 100.0)
        .find(|&t| night(t) && night(t + 0.05))
        .expect("a night");
    session.time_of_day = t;
    let mut server = here(session, world, &dir);
    let mut a = join_here(&mut server, "ann");
    let mut b = join_here(&mut server, "bob");
    let seats = [a.me().unwrap() as usize, b.me().unwrap() as usize];
    // Each gets a bow and arrows; Ann the Eye's summoning item.
    let cat = Arc::clone(&server.session.content.catalog);
    for &s in &seats {
        let inv = &mut server.session.players[s].inventory;
        inv.add(cat.id("platinum_bow").unwrap(), 1);
        inv.add(cat.id("wooden_arrow").unwrap(), 999);
    }
    (server.session.players[seats[0]].inventory).add(cat.id("suspicious_looking_eye").unwrap(), 1);
    let eye_slot = slot_of(&server, seats[0], "suspicious_looking_eye");
    let bows = seats.map(|s| slot_of(&server, s, "platinum_bow"));
    // A fire imp's two fireballs fly high over them (through the tiles) all the while.
    let (px, py) = server.session.players[seats[0]].body.pos;
    for i in 0..2 {
        server.session.creatures.bolts.push(Bolt {
            pos: (px - 20.0 + i as f32, py - 30.0),
            vel: (1.0, 0.0),
            damage: 1.0,
            through_walls: true,
            age: 0.0,
            from: server.session.content.bestiary.kind("fire imp").unwrap(),
        });
    }
    // Each client's window: its own seat, then the other's.
    let mut windows = [a.world(), b.world()].map(|w| {
        let mut s = Session::new(w.unwrap().clone());
        s.join();
        s
    });
    let others = [[None, b.me()], [None, a.me()]];
    let mut history = std::collections::BTreeMap::new();
    let (mut compared, mut worst) = ([0u32; 2], [0.0f32; 2]);
    let (mut with_bolts, mut with_shots, mut with_beasts) = (0u32, 0u32, 0u32);
    let mut both_hit = false;
    let start = Instant::now();
    let mut tick = 0u64;
    // At most a minute of play: the Eye is called, both shoot it, it falls, both get loot.
    while start.elapsed() < Duration::from_secs(60) {
        tick += 1;
        for (i, c) in [&mut a, &mut b].into_iter().enumerate() {
            let mut intents = vec![];
            if i == 0 && server.session.boss.is_none() && tick < 120 {
                intents.push(Intent::Select(eye_slot));
                intents.push(Intent::Use { at: None });
            } else if let Some(e) = c.boss() {
                intents.push(Intent::Select(bows[i]));
                let at = (e.pos.0 as i64, e.pos.1 as i64);
                intents.push(Intent::Use { at: Some(at) });
            }
            c.send(&intents);
        }
        server.tick(&[]);
        if let Some(boss) = &mut server.session.boss {
            // Strong until both have hit it; then the next arrow fells it.
            both_hit = seats.iter().all(|s| boss.fighters.contains(s));
            boss.health = if both_hit { 1.0 } else { boss.max };
        }
        if server
            .session
            .tick
            .is_multiple_of(strata::net::server::SNAPSHOT_EVERY)
        {
            history.insert(server.session.tick, seen_on_server(&server.session));
            while history.len() > 200 {
                history.pop_first();
            }
        }
        for (i, c) in [&mut a, &mut b].into_iter().enumerate() {
            c.poll();
            apply_snapshot(&mut windows[i], c, &others[i]);
            let Some(at_server) = history.get(&c.server_tick()) else {
                continue;
            };
            let seen = seen_by_client(c);
            assert_eq!(&seen, at_server, "client {i} at tick {}", c.server_tick());
            compared[i] += 1;
            with_bolts += u32::from(!seen.bolts.is_empty());
            with_shots += u32::from(!seen.shots.is_empty());
            with_beasts += u32::from(!seen.beasts.is_empty());
            let gap = mirror_gap(&windows[i], at_server)
                .unwrap_or_else(|| panic!("window {i} shows other things than {at_server:?}"));
            worst[i] = worst[i].max(gap);
        }
        let looted = [&a, &b].iter().all(|c| carried(c, "demonite_ore") > 0);
        let told = windows.iter().all(|w| w.world.progress.eye_down());
        if looted && told && server.session.boss.is_none() {
            break;
        }
        std::thread::sleep(Duration::from_secs_f64(TICK / 2.0));
    }
    assert!(both_hit, "both players' arrows hit the Eye");
    assert_eq!(
        server.session.world.progress.eye_defeated, 1,
        "the Eye fell"
    );
    for (i, c) in [&a, &b].into_iter().enumerate() {
        assert!(
            carried(c, "demonite_ore") > 0,
            "client {i} got the Eye's ore"
        );
        assert!(carried(c, "lens") > 0, "client {i} got its lenses");
        assert_eq!(c.progress().map(|p| p.eye_defeated), Some(1));
        let p: Progress = windows[i].world.progress;
        assert!(p.eye_down(), "window {i} knows the Eye fell");
        assert!(
            compared[i] >= 20,
            "client {i}: {} snapshots held to the server's",
            compared[i]
        );
        // Eased in, never more than a snap's distance behind.
        assert!(
            worst[i] < strata::net::mirror::SNAP,
            "window {i}: {} tiles off",
            worst[i]
        );
    }
    assert!(
        with_bolts > 0 && with_shots > 0 && with_beasts > 0,
        "bolts {with_bolts}, arrows {with_shots}, creatures {with_beasts} snapshots held"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ticks `station` over the borrowed `session` and polls `client` until `done` says so
/// (at most ten seconds); whether it did.
fn serve_borrowed(
    station: &mut Station,
    session: &mut Session,
    client: &mut Client,
    mut done: impl FnMut(&Session, &Client) -> bool,
) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        station.serving(session).tick(&[]);
        client.poll();
        if done(session, client) {
            return true;
        }
        std::thread::sleep(Duration::from_secs_f64(TICK / 2.0));
    }
    false
}

#[test]
fn a_station_serves_a_session_it_only_borrows_and_a_joined_client_walks_and_digs_in_it() {
    use strata::world::Tile;
    let dir = temp("net-borrowed");
    let (mut session, world) = small();
    let opts = ServeOptions {
        host_plays: true,
        ..ServeOptions::loopback(&dir)
    };
    // The session stays the test's own: the station is lent it for each call.
    let mut station = Station::start(&mut session, world, opts).unwrap();
    station.keeper.spawn_protection = 0;
    let join = JoinOptions {
        addr: station.addr().to_string(),
        name: "cy".into(),
        password: "pw".into(),
        server_password: String::new(),
        known_servers: None,
    };
    let mut c = Client::connect(&join, builtin()).unwrap();
    let playing = serve_borrowed(&mut station, &mut session, &mut c, |_, c| {
        *c.phase() == Phase::Playing
    });
    assert!(playing, "{:?}", c.phase());
    let seat = c.me().unwrap() as usize;
    assert!(seat > 0, "the host keeps seat 0");
    assert_eq!(station.players(), ["cy"]);
    let joined = session.tick;
    let landed = serve_borrowed(&mut station, &mut session, &mut c, |s, _| {
        s.tick > joined + 60 && s.players[seat].body.vel.1.abs() < 1e-3
    });
    assert!(landed, "cy lands in the session");
    // Cy walks right: the test's session moves, nothing else holds it.
    let from = session.players[seat].body.pos;
    for _ in 0..60 {
        c.send(&[Intent::Move {
            axis: 1,
            jump: false,
        }]);
        station.serving(&mut session).tick(&[]);
        c.poll();
        std::thread::sleep(Duration::from_secs_f64(TICK / 2.0));
    }
    let to = session.players[seat].body.pos;
    assert!(to.0 > from.0 + 1.0, "cy walked from {from:?} to {to:?}");
    // Cy digs at its feet until the session's cell is open.
    let (fx, fy) = session.players[seat].body.pos;
    let (fx, fy) = (fx.floor() as i64, fy as i64);
    let solid_at =
        |s: &Session, (x, y): (i64, i64)| s.world.tile(x as usize, y as usize).is_solid();
    let near = [(fx - 1, fy), (fx, fy), (fx + 1, fy), (fx, fy + 1)];
    let cell = near.into_iter().find(|&at| solid_at(&session, at));
    let cell = cell.expect("a block at cy's feet");
    let solid = |s: &Session| solid_at(s, cell);
    let start = Instant::now();
    while solid(&session) && start.elapsed() < Duration::from_secs(10) {
        c.send(&[Intent::Select(0), Intent::Use { at: Some(cell) }]);
        station.serving(&mut session).tick(&[]);
        c.poll();
        std::thread::sleep(Duration::from_secs_f64(TICK / 2.0));
    }
    assert!(!solid(&session), "cy's dig reached the borrowed session");
    // The host changes its session between ticks and says where: cy's world follows.
    let (hx, hy) = (cell.0 as usize, cell.1 as usize - 3);
    session.world.set(hx, hy, Tile::Dirt);
    station.serving(&mut session).cells_changed(&[(hx, hy)]);
    let seen = serve_borrowed(&mut station, &mut session, &mut c, |_, c| {
        c.world().is_some_and(|w| w.tile(hx, hy) == Tile::Dirt)
    });
    assert!(seen, "the host's own edit reached cy");
    let same = serve_borrowed(&mut station, &mut session, &mut c, |s, c| {
        c.view_hash() == Some(protocol::view_hash(&s.world))
    });
    assert!(same, "cy's world is the session's");
    station.serving(&mut session).close("closed");
    assert!(station.players().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
