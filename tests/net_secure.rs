//! A join through a UDP relay on loopback that records every datagram both ways: neither
//! the passwords nor any key (the server's secret, the session's keys) are in them; and a
//! server whose key changed since the first join is refused with a warning. Every loop is
//! bounded in time.

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use strata::net::client::{Client, JoinError, JoinOptions, Phase, Refusal};
use strata::net::server::{ServeOptions, Server};
use strata::sim::session::{Session, TICK};

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("strata-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A server on a small world saved under `dir` (its key beside the save).
fn serve(dir: &std::path::Path) -> Server {
    let preset = strata::Preset {
        width: 400,
        height: 200,
        ..strata::Preset::default()
    };
    let world = strata::generate(&preset, 11).0;
    let opts = ServeOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        max_players: 4,
        password: "server secret 7431".into(),
        motd: String::new(),
        save: dir.join("world.strata"),
        characters: dir.join("characters"),
        autosave: Duration::from_secs(3600),
        host_plays: false,
    };
    Server::start(Session::new(world.clone()), world, opts).unwrap()
}

type Recorded = Arc<Mutex<Vec<Vec<u8>>>>;

/// A relay on `sock`: datagrams from the one client to `to` and back, each recorded,
/// until `stop` (the thread ends then, freeing the port).
fn relay(
    sock: UdpSocket,
    to: SocketAddr,
    stop: Arc<AtomicBool>,
) -> (SocketAddr, Recorded, std::thread::JoinHandle<()>) {
    sock.set_read_timeout(Some(Duration::from_millis(5)))
        .unwrap();
    let addr = sock.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let h = std::thread::spawn(move || {
        let mut client: Option<SocketAddr> = None;
        let mut buf = vec![0u8; 65536];
        let start = Instant::now();
        while !stop.load(Ordering::SeqCst) && start.elapsed() < Duration::from_secs(120) {
            let Ok((n, from)) = sock.recv_from(&mut buf) else {
                continue;
            };
            log.lock().unwrap().push(buf[..n].to_vec());
            if from == to {
                if let Some(c) = client {
                    let _ = sock.send_to(&buf[..n], c);
                }
            } else {
                client = Some(from);
                let _ = sock.send_to(&buf[..n], to);
            }
        }
    });
    (addr, seen, h)
}

/// Ticks `server` and polls `c` until it plays or closes (at most 60 s).
fn play(server: &mut Server, c: &mut Client) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        server.tick(&[]);
        c.poll();
        if matches!(c.phase(), Phase::Playing | Phase::Closed(_)) {
            return;
        }
        std::thread::sleep(Duration::from_secs_f64(TICK / 2.0));
    }
}

#[test]
fn a_captured_join_shows_no_password_and_no_key_and_a_changed_key_is_refused() {
    let dir = temp("net-secure");
    let known = dir.join("known_servers");
    let mut server = serve(&dir);
    let stop = Arc::new(AtomicBool::new(false));
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    let (via, seen, relaying) = relay(sock, server.addr(), stop.clone());
    let opts = JoinOptions {
        addr: via.to_string(),
        name: "ann".into(),
        password: "character secret 9902".into(),
        server_password: "server secret 7431".into(),
        known_servers: Some(known.clone()),
    };
    let mut c =
        Client::connect(&opts, Arc::new(strata::content::config::Content::builtin())).unwrap();
    play(&mut server, &mut c);
    assert_eq!(*c.phase(), Phase::Playing);
    c.say("a line said over the wire");
    for _ in 0..30 {
        server.tick(&[]);
        c.poll();
        std::thread::sleep(Duration::from_secs_f64(TICK));
    }
    stop.store(true, Ordering::SeqCst);
    relaying.join().unwrap();
    let datagrams = seen.lock().unwrap().clone();
    assert!(datagrams.len() > 20, "{} datagrams", datagrams.len());
    let key_file = std::fs::read_to_string(dir.join("world.strata.key")).unwrap();
    let secret: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&key_file.trim()[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let secrets: [&[u8]; 5] = [
        b"character secret 9902",
        b"server secret 7431",
        b"a line said over the wire",
        b"ann",
        &secret,
    ];
    for d in &datagrams {
        for s in secrets {
            assert!(
                !d.windows(s.len()).any(|w| w == s),
                "{:?} is readable in a datagram of {} bytes",
                String::from_utf8_lossy(s),
                d.len()
            );
        }
    }
    // Pinned on this first join: the same server again is fine, another key is not.
    assert!(
        std::fs::read_to_string(&known)
            .unwrap()
            .contains(&via.to_string())
    );
    drop(c);
    server.stop();
    let _ = std::fs::remove_file(dir.join("world.strata.key"));
    // Another key at the address the client pinned (the relay's, bound again).
    let mut other = serve(&dir);
    let stop = Arc::new(AtomicBool::new(false));
    let (_, _, relaying) = relay(UdpSocket::bind(via).unwrap(), other.addr(), stop.clone());
    let mut c =
        Client::connect(&opts, Arc::new(strata::content::config::Content::builtin())).unwrap();
    play(&mut other, &mut c);
    stop.store(true, Ordering::SeqCst);
    relaying.join().unwrap();
    let Phase::Closed(strata::net::client::JoinError::Key(why)) = c.phase() else {
        panic!("joined a server with another key: {:?}", c.phase());
    };
    assert!(why.starts_with("WARNING: the server at"), "{why}");
    assert!(why.contains("another key"), "{why}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A join with the wrong server password is refused for it, told apart from any other
/// refusal by its variant; a name too long is refused before anything is sent.
#[test]
fn a_wrong_server_password_is_its_own_refusal() {
    let dir = temp("net-wrong-server-password");
    let mut server = serve(&dir);
    let content = Arc::new(strata::content::config::Content::builtin());
    let opts = JoinOptions {
        addr: server.addr().to_string(),
        name: "ann".into(),
        password: "pw".into(),
        server_password: "not the server's".into(),
        known_servers: None,
    };
    let mut c = Client::connect(&opts, Arc::clone(&content)).unwrap();
    play(&mut server, &mut c);
    let refused = JoinError::Refused(Refusal::WrongServerPassword);
    assert_eq!(*c.phase(), Phase::Closed(refused.clone()));
    assert!(refused.is_wrong_password());
    assert_eq!(refused.to_string(), "refused: wrong server password");
    let long = JoinOptions {
        name: "n".repeat(strata::net::protocol::MAX_NAME + 1),
        ..opts
    };
    let e = Client::connect(&long, content).err();
    assert_eq!(
        e,
        Some(JoinError::BadName(strata::net::protocol::MAX_NAME + 1))
    );
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}
