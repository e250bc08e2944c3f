//! Playing together on loopback (issue 28): a join of a freshly made Large world (time and
//! bytes received), the join's bytes after 10,000 edits beside the whole map deflated, a
//! server's tick at 60 ticks a second with 32 bots (share of one core), and the bytes a
//! second each bot receives in steady play.
//!
//! Run: `cargo bench --bench net` (optionally `-- BOTS SECONDS`, default 32 and 10).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use strata::net::bots::{self, BotOptions};
use strata::net::client::JoinOptions;
use strata::net::protocol;
use strata::net::server::{ServeOptions, Server, Stats};
use strata::sim::session::{Session, TICK};
use strata::world::{Tile, World};

/// CPU time this thread has used (the machine is shared: wall time inside a tick counts
/// the time other processes held the core).
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t);
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// A server on `session` ticking at 60 a second on a thread until `stop`; its stats and
/// the CPU time its thread used.
fn serve(
    session: Session,
    untouched: World,
    stop: Arc<AtomicBool>,
) -> (
    std::net::SocketAddr,
    std::thread::JoinHandle<(Stats, Duration)>,
) {
    let dir = std::env::temp_dir().join(format!("strata-bench-net-{}", std::process::id()));
    let opts = ServeOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        max_players: 64,
        password: String::new(),
        motd: String::new(),
        save: dir.join("w.strata"),
        characters: dir.join("characters"),
        autosave: Duration::from_secs(3600),
        host_plays: false,
    };
    let mut server = Server::start(session, untouched, opts).unwrap();
    let addr = server.addr();
    let h = std::thread::spawn(move || {
        let start = Instant::now();
        let cpu0 = thread_cpu();
        let mut n = 0u64;
        while !stop.load(Ordering::SeqCst) {
            server.tick(&[]);
            n += 1;
            let due = start + Duration::from_secs_f64(n as f64 * TICK);
            if let Some(w) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(w);
            }
        }
        (server.stats, thread_cpu() - cpu0)
    });
    (addr, h)
}

fn join(addr: std::net::SocketAddr, name: &str) -> (f64, u64) {
    let opts = JoinOptions {
        addr: addr.to_string(),
        name: name.into(),
        password: "pw".into(),
        server_password: String::new(),
        known_servers: None,
    };
    let t = Instant::now();
    let c = bots::join_one(&opts, Duration::from_secs(120)).unwrap();
    (t.elapsed().as_secs_f64(), c.bytes_received())
}

/// 10,000 tiles dug along tunnels of 2,000 steps wandering from the spawn point
/// (players dig where they go, not all over the map).
fn edited(world: &World) -> Session {
    let mut s = Session::new(world.clone());
    let mut rng = 7u64;
    let mut next = |n: u64| {
        rng = strata::base::rng::mix64(rng.wrapping_add(0x9E37_79B9_7F4A_7C15));
        rng % n
    };
    let (sx, sy) = strata::sim::player::spawn_point(world);
    let mut dug = 0;
    while dug < 10_000 {
        let (mut x, mut y) = (sx as i64, sy as i64);
        for _ in 0..2000 {
            x = (x + next(3) as i64 - 1).clamp(0, world.width() as i64 - 1);
            y = (y + next(3) as i64 - 1 + i64::from(next(4) == 0))
                .clamp(0, world.height() as i64 - 1);
            if dug < 10_000 && !s.set_tile(x as usize, y as usize, Tile::Air).is_empty() {
                dug += 1;
            }
        }
    }
    println!("edits: {dug} tiles dug along tunnels wandering from the spawn point");
    s
}

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let count = args.first().copied().unwrap_or(32.0) as usize;
    let secs = args.get(1).copied().unwrap_or(10.0);
    let preset = strata::launch::builtin_preset("large").unwrap();
    let t = Instant::now();
    let world = strata::generate(&preset, 42).0;
    println!(
        "large world {}x{} made in {:.2} s",
        world.width(),
        world.height(),
        t.elapsed().as_secs_f64()
    );
    // A fresh world.
    let stop = Arc::new(AtomicBool::new(false));
    let (addr, h) = serve(Session::new(world.clone()), world.clone(), stop.clone());
    let (secs_fresh, bytes_fresh) = join(addr, "fresh");
    stop.store(true, Ordering::SeqCst);
    h.join().unwrap();
    println!(
        "join, fresh world: {secs_fresh:.3} s, {bytes_fresh} bytes received (generation included)"
    );
    // After 10,000 edits.
    let s = edited(&world);
    let (nx, ny) = protocol::regions_of(&s.world);
    let whole: usize = (0..ny)
        .flat_map(|ry| (0..nx).map(move |rx| (rx, ry)))
        .map(|(rx, ry)| {
            protocol::encode(&protocol::region(&s.content.catalog, &s.world, rx, ry)).len()
        })
        .sum();
    let differ = protocol::regions_to_send(&s.world, &world, false, (0.0, 0.0)).len();
    let stop = Arc::new(AtomicBool::new(false));
    let (addr, h) = serve(s, world.clone(), stop.clone());
    let (secs_edit, bytes_edit) = join(addr, "late");
    stop.store(true, Ordering::SeqCst);
    h.join().unwrap();
    println!(
        "join after the edits: {secs_edit:.3} s, {bytes_edit} bytes ({differ} of {} regions); the whole map deflated: {whole} bytes",
        nx * ny
    );
    // Steady play.
    let stop = Arc::new(AtomicBool::new(false));
    let (addr, h) = serve(Session::new(world.clone()), world.clone(), stop.clone());
    let opts = BotOptions {
        addr: addr.to_string(),
        count,
        seconds: secs,
        settle: 1.0,
        seed: 1,
        join_timeout: 120.0,
        ..BotOptions::default()
    };
    let t = Instant::now();
    let reports = bots::run(&opts).unwrap();
    let wall = t.elapsed().as_secs_f64();
    stop.store(true, Ordering::SeqCst);
    let (stats, cpu) = h.join().unwrap();
    let playing = reports.iter().filter(|r| r.hash.is_some()).count();
    println!(
        "{count} bots ({playing} played) for {secs} s: server thread {:.1}% of one core in CPU time ({:.3} ms a tick; {:.3} ms wall inside a tick) over {} ticks, {:.0} bytes/s sent per bot",
        cpu.as_secs_f64() / wall * 100.0,
        cpu.as_secs_f64() * 1e3 / stats.ticks.max(1) as f64,
        stats.busy.as_secs_f64() * 1e3 / stats.ticks.max(1) as f64,
        stats.ticks,
        stats.bytes_sent as f64 / wall / count.max(1) as f64
    );
}
