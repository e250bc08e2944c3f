//! # Strata
//!
//! A procedural 2D side-view sandbox, in eleven layers that import only downward (README
//! "Architecture"; `tests/layers.rs` keeps it so), bottom to top:
//!
//! - [`base`]: tiles and their table, depth layers, seeded streams, noise, file helpers.
//! - [`content`]: what `config/*.ron` describes: presets, rules, items, loot, creatures.
//! - [`world`]: the grid, its surface, chests, inventory, explored map, layer rows.
//! - [`analysis`]: the air labelled into sky and caves.
//! - [`worldgen`]: the table of named generation passes that make a world from a preset
//!   and a seed.
//! - [`sim`]: the rules of play, with no window.
//! - [`store`]: saves and exports.
//! - [`net`]: playing together: the protocol, the server, the client, the bots.
//! - [`launch`]: the application layer: what a run is asked to do (play options and their
//!   defaults, preset lookup, the display check) and its typed errors.
//! - [`cli`]: the `strata` command line (the binary, `src/bin/strata`, calls it).
//! - `game`: the window (the cargo feature `game`, on by default; `--no-default-features`
//!   builds the rest, and a `strata` without macroquad).

pub mod analysis;
pub mod base;
pub mod cli;
pub mod content;
#[cfg(feature = "game")]
pub mod game;
pub mod launch;
pub mod net;
pub mod sim;
pub mod store;
pub mod world;
pub mod worldgen;

pub use analysis::{CaveReport, analyse};
pub use content::preset::Preset;
pub use world::{Tile, World};
pub use worldgen::generate;
