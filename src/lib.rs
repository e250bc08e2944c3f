//! # Strata
//!
//! A procedural 2D side-view sandbox. A world is made by a table of named generation
//! passes (surface, layers, caves, ores, grass: see [`worldgen`]) from a RON [`preset`] and
//! a seed; [`analysis`] labels its air into sky and caves; [`export`] writes it out; a
//! [`session`] plays it without a window (players, creatures, water, light, the day, one
//! fixed tick at a time from a list of intents), using the [`player`] physics, [`edit`]
//! rules, [`light`] map and [`save`] format; the game ([`game`]) is a front-end of a
//! session: it turns keys into intents and draws what changed.
//!
//! Generation and analysis know nothing of windows: nothing outside `game` uses macroquad.
//! The game and the display check behind it are the cargo feature `game` (on by default);
//! `--no-default-features` builds a headless library and `strata` without macroquad.

pub mod alloc;
pub mod analysis;
pub mod cli;
pub mod creatures;
pub mod day;
pub mod edit;
pub mod explored;
pub mod export;
pub mod flow;
pub mod fsio;
pub mod fuzz;
#[cfg(feature = "game")]
pub mod game;
pub mod items;
pub mod light;
pub mod noisemap;
pub mod paths;
pub mod player;
pub mod preset;
pub mod reanalyse;
pub mod rng;
pub mod rules;
pub mod save;
pub mod session;
pub mod survey;
pub mod vitals;
pub mod world;
pub mod worldgen;

pub use analysis::{CaveReport, analyse};
pub use preset::Preset;
pub use world::{Tile, World};
pub use worldgen::generate;
