//! # Strata
//!
//! A procedural 2D side-view sandbox. A world is made by a table of named generation
//! passes (surface, layers, caves, ores, grass: see [`worldgen`]) from a RON [`preset`] and
//! a seed; [`analysis`] labels its air into sky and caves; [`export`] writes it out; the
//! game ([`game`]) draws it and lets a player dig through it, using the window-free
//! [`player`] physics, [`edit`] rules, [`light`] map and [`save`] format.
//!
//! Generation and analysis know nothing of windows: nothing outside `game` uses macroquad.
//! The game and the display check behind it are the cargo feature `game` (on by default);
//! `--no-default-features` builds a headless library and `strata` without macroquad.

pub mod analysis;
pub mod base;
pub mod cli;
pub mod content;
#[cfg(feature = "game")]
pub mod game;
pub mod sim;
pub mod store;
pub mod world;
pub mod worldgen;

pub use analysis::{CaveReport, analyse};
pub use content::preset::Preset;
pub use world::{Tile, World};
pub use worldgen::generate;
