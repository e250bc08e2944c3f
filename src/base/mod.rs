//! The base layer: what every other layer stands on and which knows nothing of worlds,
//! presets or play. Tiles and their property table ([`tile`]), walls and theirs ([`wall`]), the depth layers
//! ([`depth`]), seeded random streams ([`rng`]), the noise bases ([`noise`]), and file
//! helpers ([`fsio`], [`paths`]).

pub mod depth;
pub mod fsio;
pub mod noise;
pub mod paths;
pub mod rng;
pub mod tile;
pub mod wall;
