//! The depth layers a world is made of, top to bottom: sky, surface, underground, cavern
//! layer, underworld. Where each begins in a world is [`crate::world::depth::Layers`].

/// One of the depth layers a world is made of, top to bottom (ordered so).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Layer {
    /// Above the column's surface row.
    Sky,
    /// Ground above the underground layer.
    Surface,
    Underground,
    Cavern,
    Underworld,
}

impl Layer {
    /// The name the inspector shows.
    pub fn name(self) -> &'static str {
        match self {
            Layer::Sky => "sky",
            Layer::Surface => "surface",
            Layer::Underground => "underground",
            Layer::Cavern => "cavern layer",
            Layer::Underworld => "underworld",
        }
    }
}
