//! Where the depth layers ([`Layer`]) begin in a world: rows at fixed shares of its
//! height, a pure function of the preset that the passes, the creatures, the game's
//! inspector and its backdrops all read.

pub use crate::base::depth::Layer;
use crate::content::preset::{LayerParams, Preset};
use crate::world::World;

/// The first row of each depth layer below the surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    pub underground: usize,
    pub cavern: usize,
    pub underworld: usize,
    pub height: usize,
}

impl Layers {
    /// The layer rows of a world `height` tiles high.
    pub fn new(p: &LayerParams, height: usize) -> Layers {
        let row = |share: f64| ((share * height as f64) as usize).min(height);
        Layers {
            underground: row(p.underground),
            cavern: row(p.cavern),
            underworld: row(p.underworld),
            height,
        }
    }

    /// The layer rows of a world made from `preset`.
    pub fn of(preset: &Preset) -> Layers {
        Layers::new(&preset.layers, preset.height as usize)
    }

    /// The layer of row `y` in a column whose surface row is `surface`.
    pub fn at(&self, y: usize, surface: u32) -> Layer {
        if y < surface as usize {
            Layer::Sky
        } else if y >= self.underworld {
            Layer::Underworld
        } else if y >= self.cavern {
            Layer::Cavern
        } else if y >= self.underground {
            Layer::Underground
        } else {
            Layer::Surface
        }
    }

    /// What shows behind open air at row `y` of a column whose surface row is `surface`:
    /// the sky above the surface, then the dirt backdrop, the stone backdrop in the cavern
    /// layer and the underworld's glow.
    #[inline]
    pub fn backdrop(&self, y: u32, surface: u32) -> [u8; 4] {
        use crate::base::tile::{CAVE_BACKDROP, SKY, STONE_BACKDROP, UNDERWORLD_BACKDROP};
        match self.at(y as usize, surface) {
            Layer::Sky => SKY,
            Layer::Surface | Layer::Underground => CAVE_BACKDROP,
            Layer::Cavern => STONE_BACKDROP,
            Layer::Underworld => UNDERWORLD_BACKDROP,
        }
    }

    /// The layers of a world (from its preset and height).
    pub fn of_world(world: &World) -> Layers {
        Layers::new(&world.preset.layers, world.height())
    }

    /// The rows of `from` through `to`: the first row of `from` and the row after `to`.
    pub fn rows(&self, from: Layer, to: Layer) -> (usize, usize) {
        let top = |l: Layer| match l {
            Layer::Sky | Layer::Surface => 0,
            Layer::Underground => self.underground,
            Layer::Cavern => self.cavern,
            Layer::Underworld => self.underworld,
        };
        let end = match to {
            Layer::Sky | Layer::Surface => self.underground,
            Layer::Underground => self.cavern,
            Layer::Cavern => self.underworld,
            Layer::Underworld => self.height,
        };
        (top(from), end)
    }

    /// Where row `y` lies between the top of the cavern layer (0) and the top of the
    /// underworld (1), clamped: how deep into the cavern layer it is.
    pub fn cavern_depth(&self, y: usize) -> f64 {
        let span = self.underworld.saturating_sub(self.cavern).max(1) as f64;
        ((y as f64 - self.cavern as f64) / span).clamp(0.0, 1.0)
    }
}
