//! The `strata` binary: `strata gen` runs headless; `strata` or `strata play` opens the game
//! (in a build with the `game` feature, the default; without it they say so and exit 1).

mod alloc;

use strata::base::paths::Folders;
use strata::cli::{self, Command, Parsed};

/// Large blocks mapped in 2 MiB pages: far fewer page faults for a new world.
#[global_allocator]
static ALLOCATOR: alloc::LargePages = alloc::LargePages;

fn main() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets the C heap's tuning; called before any other thread starts.
    unsafe {
        // Blocks under the large-block size come from the heap and stay there when freed,
        // so a pass's run lists and column tables reuse the last pass's pages rather than
        // asking the kernel for fresh ones each time.
        libc::mallopt(libc::M_MMAP_THRESHOLD, alloc::LARGE as i32);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
    init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = cli::parse_args(&args).and_then(run);
    if let Err(e) = result {
        use std::io::Write;
        // Not eprintln!, which panics when standard error is closed too. One line, whatever
        // file names or file text the message quotes.
        let _ = writeln!(std::io::stderr(), "strata: {}", cli::printable(&e));
        std::process::exit(1);
    }
}

fn run(parsed: Parsed) -> Result<(), String> {
    let command = match parsed {
        Parsed::Print(text) => return Ok(strata::base::fsio::print_stdout(&text)?),
        Parsed::Run(command) => command,
    };
    match command {
        Command::Presets { home } => {
            let folders = Folders::for_run(home.as_deref());
            Ok(strata::base::fsio::print_stdout(&cli::presets_listing(
                &folders,
            ))?)
        }
        Command::Content { home } => {
            let folders = Folders::for_run(home.as_deref());
            Ok(strata::base::fsio::print_stdout(&cli::content_listing(
                &folders,
            ))?)
        }
        Command::Completions { shell } => cli::completions(shell),
        Command::Gen(opts) => {
            let folders = Folders::for_run(opts.home.as_deref());
            cli::run_gen(&opts, &folders)
        }
        Command::Noise(opts) => {
            let folders = Folders::for_run(opts.home.as_deref());
            cli::run_noise(&opts, &folders)
        }
        Command::Serve(opts) => {
            let folders = Folders::for_run(opts.home.as_deref());
            cli::serve::run_serve(&opts, &folders)
        }
        Command::Bots(opts) => {
            let folders = Folders::for_run(opts.home.as_deref());
            cli::serve::run_bots(&opts, &folders)
        }
        #[cfg(feature = "game")]
        Command::Play(args) => {
            let folders = Folders::for_run(args.home.as_deref());
            Ok(strata::game::run(args.options(), folders)?)
        }
        #[cfg(not(feature = "game"))]
        Command::Play(_) => Err(cli::NO_WINDOW.into()),
    }
}

/// Messages through the `log` facade go to standard error as `strata: MESSAGE`. Normal
/// play shows warnings and errors only; `RUST_LOG=strata=info` adds saves, loads and each
/// world put on screen, `RUST_LOG=strata=debug` every dig, placement, jump, position and
/// the water and cave figures after an edit. The netcode's own line per refused datagram
/// is off (a server counts and summarises them itself) unless `RUST_LOG` names
/// `renetcode`.
fn init_logging() {
    use std::io::Write;
    env_logger::Builder::new()
        .filter_level(log::LevelFilter::Warn)
        .filter_module("renetcode", log::LevelFilter::Off)
        .parse_env(env_logger::Env::default())
        .format(|out, record| writeln!(out, "strata: {}", record.args()))
        .init();
}
