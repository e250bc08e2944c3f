//! Strata's bosses. The Eye ([`eye`], re-exported here as `boss::Boss`, its first and
//! own slot in the session) and the three that follow it on the way to the Wall, each its
//! own module and one of the forms of a [`Rival`] (the session's second slot, one at a
//! time, never beside the Eye):
//! - [`eater`]: the Eater of Worlds, a worm of segments that digs through the evil biome
//!   and splits in two when a middle segment is cut;
//! - [`skeletron`]: the dungeon's curse, a skull and two hands, called at night by the
//!   Old Man at the dungeon's door;
//! - [`wall`]: the Wall of Flesh, called in the underworld, crossing it from one side.
//!
//! Their rules are pure and deterministic, as the Eye's; the session steps them
//! (`sim/session/eye.rs`, `sim/session/rivals.rs`).

mod eye;
pub use eye::*;

pub mod eater;
pub mod rival;
pub mod skeletron;
pub mod wall;

pub use rival::{Form, Part, Rival, RivalKind, Role};
