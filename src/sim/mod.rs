//! The simulation layer: the rules of a world in play, with no window. The player's
//! body ([`player`]), digging and placing ([`edit`]), crafting ([`craft`]), creatures
//! ([`creatures`]), health and breath ([`vitals`]), the clock ([`day`]), light levels
//! ([`light`]), moving water ([`flow`]), houses ([`housing`]), what the
//! Guide says ([`guide`]), the town's people ([`npc`]), coins ([`coins`]), the
//! Merchant's shop ([`shop`]), the Nurse's healing ([`nurse`]), the first boss ([`boss`]), where a death comes back
//! ([`respawn`]) and whether every item and boss can be reached ([`progression`]).

pub mod boss;
pub mod coins;
pub mod combat;
pub mod craft;
pub mod creatures;
pub mod day;
pub mod drops;
pub mod edit;
pub mod fight;
pub mod flow;
pub mod guide;
pub mod housing;
pub mod light;
pub mod mana;
pub mod npc;
pub mod nurse;
pub mod player;
pub mod progression;
pub mod projectiles;
pub mod respawn;
pub mod session;
pub mod shop;
pub mod vitals;
