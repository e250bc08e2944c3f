//! The creature kinds and their numbers: health, contact damage, hops, drops, colour.
//! How they move and fight is [`crate::sim::creatures`].

/// A kind of creature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The surface, by day and (more) by night.
    Slime,
    /// The cavern layer.
    CaveSlime,
    /// The underworld: tougher, harder-hitting, hops higher.
    LavaSlime,
}

/// Numbers of a kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub name: &'static str,
    pub health: f32,
    /// Health taken from the player on touch.
    pub damage: f32,
    /// Seconds between hops.
    pub hop_every: f32,
    /// Holds jump through its hops (a hop about twice as high).
    pub high_hops: bool,
    /// Item dropped when killed, and how many (the count varies by one).
    pub drop: &'static str,
    pub drops: u32,
    pub color: [u8; 3],
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 3] = [Kind::Slime, Kind::CaveSlime, Kind::LavaSlime];

    pub fn stats(self) -> Stats {
        match self {
            Kind::Slime => Stats {
                name: "slime",
                health: 14.0,
                damage: 6.0,
                hop_every: 1.4,
                high_hops: false,
                drop: "gel",
                drops: 1,
                color: [80, 200, 90],
            },
            Kind::CaveSlime => Stats {
                name: "cave slime",
                health: 30.0,
                damage: 12.0,
                hop_every: 1.1,
                high_hops: false,
                drop: "gel",
                drops: 2,
                color: [70, 110, 230],
            },
            Kind::LavaSlime => Stats {
                name: "lava slime",
                health: 60.0,
                damage: 25.0,
                hop_every: 0.9,
                high_hops: true,
                drop: "gel",
                drops: 3,
                color: [240, 90, 40],
            },
        }
    }
}
