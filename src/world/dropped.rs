//! Items lying in the world: what a dig, a kill, a throw or a death left there, kept with
//! the world (saves keep them) and moved by the simulation's rules for them (`sim::drops`).

use crate::world::inventory::Stack;

/// An item lying (or flying) in the world.
#[derive(Clone, Debug, PartialEq)]
pub struct Dropped {
    pub stack: Stack,
    /// Centre, tiles.
    pub pos: (f32, f32),
    /// Velocity, tiles/s (positive y is down).
    pub vel: (f32, f32),
    /// The player (an index into the session's players) whose dig or kill made it.
    pub owner: Option<usize>,
    /// The player who threw it out, and the seconds before that player may take it back.
    pub thrown: Option<(usize, f32)>,
}

impl Dropped {
    /// `stack` at `pos`, at rest, for `owner`.
    pub fn new(stack: Stack, pos: (f32, f32), owner: Option<usize>) -> Dropped {
        Dropped {
            stack,
            pos,
            vel: (0.0, 0.0),
            owner,
            thrown: None,
        }
    }
}
