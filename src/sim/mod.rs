//! The simulation layer: the rules of a world in play, with no window. The player's
//! body ([`player`]), digging and placing ([`edit`]), crafting ([`craft`]), creatures
//! ([`creatures`]), health and breath ([`vitals`]), the clock ([`day`]), light levels
//! ([`light`]) and moving water ([`flow`]).

pub mod craft;
pub mod creatures;
pub mod day;
pub mod edit;
pub mod flow;
pub mod light;
pub mod player;
pub mod session;
pub mod vitals;
