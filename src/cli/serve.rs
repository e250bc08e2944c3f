//! `strata serve` (a dedicated server: no window, no GL or audio) and `strata bots`
//! (headless clients for tests and benchmarks): their options and their loops. SIGINT and
//! SIGTERM stop a server after a save; SIGUSR1 prints its world hash. Standard input is
//! the keeper's console: `hash`, `stop` and the commands of [`crate::net::keeper`]
//! (`kick`, `ban`, `unban`, `whitelist`, `op`, `save`, `say`, `time`, ...).

use crate::net::bots::{self, BotOptions};
use crate::net::protocol::DEFAULT_PORT;
use crate::net::server::{self, ServeOptions, Server};
use crate::sim::session::{Session, TICK};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Options of `strata serve`.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct ServeArgs {
    #[arg(long, value_name = "PRESET", help = super::PRESET_HELP, conflicts_with = "load")]
    pub preset: Option<PathBuf>,
    #[arg(long, value_name = "SEED", help = super::SEED_HELP, value_parser = super::parse_seed, allow_negative_numbers = true, conflicts_with = "load")]
    pub seed: Option<u64>,
    /// Override the preset's world size
    #[arg(long, value_name = "WxH", value_parser = super::parse_size, conflicts_with = "load")]
    pub size: Option<(u32, u32)>,
    /// Serve the world of a save, its journal replayed (and write it back there, the one before kept as .bak)
    #[arg(long, value_name = "SAVE")]
    pub load: Option<PathBuf>,
    /// Where a new world is saved; default: the saves folder, as the game names it
    #[arg(long, value_name = "PATH", conflicts_with = "load")]
    pub save: Option<PathBuf>,
    /// The UDP port to listen on
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on (127.0.0.1: this machine only)
    #[arg(long, value_name = "IP", default_value = "0.0.0.0")]
    pub bind: std::net::IpAddr,
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=255))]
    pub max_players: u16,
    /// A password every player must give to join
    #[arg(long, default_value = "")]
    pub password: String,
    /// The message of the day, shown to each joining player
    #[arg(long, default_value = "")]
    pub motd: String,
    /// Tiles around the spawn point only operators may change, for this run (default: the
    /// keeper's file beside the save, else 10)
    #[arg(long, value_name = "TILES", value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub spawn_protection: Option<u32>,
    /// Seconds between autosaves
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0, value_parser = positive_seconds)]
    pub autosave: f64,
    /// Stop after this many seconds (tests); default: run until stopped
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    pub seconds: Option<f64>,
    #[arg(long, value_name = "DIR", help = super::HOME_HELP, value_parser = super::home_parser())]
    pub home: Option<PathBuf>,
}

/// Options of `strata bots`.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct BotsArgs {
    /// The server, HOST or HOST:PORT
    #[arg(long, value_name = "ADDR")]
    pub join: String,
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub count: u16,
    /// Seconds of play
    #[arg(long, default_value_t = 10.0, value_parser = positive_seconds)]
    pub seconds: f64,
    /// Seconds standing still after play before the hashes are read
    #[arg(long, default_value_t = 3.0, value_parser = positive_seconds)]
    pub settle: f64,
    #[arg(long, value_name = "SEED", help = super::SEED_HELP, value_parser = super::parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// The bots' names are PREFIX1, PREFIX2, ...
    #[arg(long, default_value = "bot")]
    pub prefix: String,
    /// The server's password
    #[arg(long, default_value = "")]
    pub password: String,
    /// Where the mods the bots play with are (the server refuses other content)
    #[arg(long, value_name = "DIR", help = super::HOME_HELP, value_parser = super::home_parser())]
    pub home: Option<PathBuf>,
}

fn positive_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1e7).contains(&v) => Ok(v),
        _ => Err(format!("expected seconds, 0 to 10000000, not '{s}'")),
    }
}

static STOP: AtomicBool = AtomicBool::new(false);
static HASH: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_stop(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

#[cfg(unix)]
extern "C" fn on_hash(_: libc::c_int) {
    HASH.store(true, Ordering::SeqCst);
}

#[cfg(unix)]
fn catch_signals() {
    // SAFETY: the handlers only store to atomics, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, on_stop as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_stop as *const () as libc::sighandler_t);
        libc::signal(libc::SIGUSR1, on_hash as *const () as libc::sighandler_t);
    }
}

#[cfg(not(unix))]
fn catch_signals() {}

/// Console commands from standard input, one a line.
fn console() -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        while std::io::stdin().read_line(&mut line).is_ok_and(|n| n > 0) {
            if tx.send(line.trim().to_string()).is_err() {
                break;
            }
            line.clear();
        }
    });
    rx
}

/// Runs `strata serve`.
pub fn run_serve(args: &ServeArgs, folders: &crate::base::paths::Folders) -> Result<(), String> {
    // What the game plays with: the built-in files, the rules `STRATA_RULES` may name
    // and the mods folder, as for a window.
    let content = std::sync::Arc::new(crate::content::config::Content::from_env(&folders.mods));
    for f in content
        .files
        .iter()
        .filter(|f| !f.name.starts_with("config/"))
    {
        server::say(&format!("playing with {}", f.name));
    }
    let (session, untouched, save, replayed) = match &args.load {
        Some(path) => {
            let (world, player, replayed) = crate::store::journal::load(path, &content.catalog)?;
            if let Some(w) = &replayed.warning {
                server::say(w);
            }
            if replayed.records > 0 {
                // The characters as they were at the journal's last moment, the world's.
                let chars = crate::net::chars::Characters::new(crate::launch::characters_dir(path));
                for (name, value) in &replayed.characters {
                    let kept = serde_json::from_value(value.clone())
                        .map_err(|e| e.to_string())
                        .and_then(|s| chars.put_stored(&s));
                    if let Err(e) = kept {
                        server::say(&format!(
                            "{name}'s character from the journal not kept: {e}"
                        ));
                    }
                }
                server::say(&format!(
                    "replayed {} records of {} ({} characters)",
                    replayed.records,
                    crate::store::journal::path_of(path).display(),
                    replayed.characters.len()
                ));
            }
            let mut preset = world.preset.clone();
            preset.width = world.width() as u32;
            preset.height = world.height() as u32;
            let untouched = crate::worldgen::generate_for(&preset, world.seed, &content).0;
            server::say(&format!(
                "loaded {} (world hash {:016x})",
                path.display(),
                crate::net::protocol::view_hash(&world)
            ));
            let replayed = replayed.records > 0;
            let light = crate::sim::light::LightMap::compute(&world);
            let session = Session::start_with(content, world, light, Some(player), true);
            (session, untouched, path.clone(), replayed)
        }
        None => {
            let mut preset = crate::launch::load_preset(args.preset.as_ref(), &folders.presets)?;
            if let Some((w, h)) = args.size {
                preset.width = w;
                preset.height = h;
            }
            let seed = args.seed.unwrap_or_else(crate::launch::random_seed);
            let world = crate::worldgen::generate_for(&preset, seed, &content).0;
            let save = args
                .save
                .clone()
                .unwrap_or_else(|| crate::store::save::save_path(&folders.saves, &world));
            let light = crate::sim::light::LightMap::compute(&world);
            let session = Session::start_with(content, world.clone(), light, None, false);
            (session, world, save, false)
        }
    };
    let opts = ServeOptions {
        listen: std::net::SocketAddr::new(args.bind, args.port),
        max_players: args.max_players as usize,
        password: args.password.clone(),
        motd: args.motd.clone(),
        characters: crate::launch::characters_dir(&save),
        save,
        autosave: Duration::from_secs_f64(args.autosave.max(1.0)),
        host_plays: false,
    };
    let world = &session.world;
    let line = format!(
        "{}x{} world of seed {}, up to {} players, saves to {}",
        world.width(),
        world.height(),
        world.seed,
        opts.max_players,
        opts.save.display()
    );
    let mut server = Server::start(session, untouched, opts).map_err(|e| e.to_string())?;
    server.keep_journal(replayed);
    if let Some(r) = args.spawn_protection {
        server.keeper.spawn_protection = r;
    }
    server::say(&format!("serving a {line} on {}", server.addr()));
    catch_signals();
    let commands = console();
    let start = Instant::now();
    let mut ticks: u64 = 0;
    let print_hash = |s: &Server| {
        server::say(&format!(
            "world hash {:016x} at tick {}",
            s.view_hash(),
            s.session.tick
        ));
    };
    loop {
        if STOP.load(Ordering::SeqCst)
            || args
                .seconds
                .is_some_and(|s| start.elapsed().as_secs_f64() >= s)
        {
            break;
        }
        if HASH.swap(false, Ordering::SeqCst) {
            print_hash(&server);
        }
        while let Ok(cmd) = commands.try_recv() {
            match cmd.as_str() {
                "hash" => print_hash(&server),
                "stop" => STOP.store(true, Ordering::SeqCst),
                "" => {}
                line => {
                    for reply in server.command(line, None) {
                        server::say(&reply);
                    }
                }
            }
        }
        server.tick(&[]);
        ticks += 1;
        let due = start + Duration::from_secs_f64(ticks as f64 * TICK);
        match due.checked_duration_since(Instant::now()) {
            Some(wait) => std::thread::sleep(wait),
            // Far behind (a stall): start counting again rather than racing to catch up.
            None if Instant::now() - due > Duration::from_secs(1) => {
                ticks = (start.elapsed().as_secs_f64() / TICK) as u64;
            }
            None => {}
        }
    }
    server.stop();
    print_hash(&server);
    Ok(())
}

/// Runs `strata bots`: prints a line per bot; fails when one could not play or its
/// view ever differed from the server's.
pub fn run_bots(args: &BotsArgs, folders: &crate::base::paths::Folders) -> Result<(), String> {
    let opts = BotOptions {
        addr: args.join.clone(),
        count: args.count as usize,
        seconds: args.seconds,
        settle: args.settle,
        seed: args.seed.unwrap_or(1),
        prefix: args.prefix.clone(),
        server_password: args.password.clone(),
        content: std::sync::Arc::new(crate::content::config::Content::from_env(&folders.mods)),
        ..BotOptions::default()
    };
    let reports = bots::run(&opts)?;
    let mut text = String::new();
    for r in &reports {
        text.push_str(&r.line());
        text.push('\n');
    }
    crate::base::fsio::print_stdout(&text)?;
    let bad: Vec<&str> = reports
        .iter()
        .filter(|r| r.hash.is_none() || r.desyncs > 0 || r.closed.is_some())
        .map(|r| r.name.as_str())
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "bots that did not play to the end or desynced: {}",
            bad.join(", ")
        ))
    }
}
