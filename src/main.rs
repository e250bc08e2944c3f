//! The `strata` binary: `strata gen` runs headless; `strata` or `strata play` opens the game.

use strata::cli::{self, Command};

/// Large blocks mapped in 2 MiB pages: far fewer page faults for a new world.
#[global_allocator]
static ALLOCATOR: strata::alloc::LargePages = strata::alloc::LargePages;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match cli::parse_args(&args) {
        Ok(Command::Help(command)) => strata::fsio::print_stdout(&cli::help(command)),
        Ok(Command::Version) => strata::fsio::print_stdout(&cli::version()),
        Ok(Command::Presets(home)) => {
            set_home(home);
            strata::fsio::print_stdout(&cli::presets_listing())
        }
        Ok(Command::Gen(opts)) => {
            set_home(opts.home.clone());
            cli::run_gen(&opts)
        }
        Ok(Command::Play(opts)) => {
            set_home(opts.home.clone());
            strata::game::run(opts)
        }
        Err(e) => Err(e),
    };
    if let Err(e) = result {
        use std::io::Write;
        // Not eprintln!, which panics when standard error is closed too.
        let _ = writeln!(std::io::stderr(), "strata: {e}");
        std::process::exit(1);
    }
}

/// `--home DIR`: the player's files go there for this run.
fn set_home(home: Option<std::path::PathBuf>) {
    if let Some(dir) = home {
        strata::paths::set_home(dir);
    }
}
