//! The creature kinds and their numbers: health, contact damage, hops or flight, drops,
//! colour. How they move and fight is [`crate::sim::creatures`]; the Eye's own numbers are
//! in [`crate::sim::boss`].

/// A kind of creature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The surface, by day and (more) by night.
    Slime,
    /// The cavern layer.
    CaveSlime,
    /// The underworld: tougher, harder-hitting, hops higher.
    LavaSlime,
    /// The surface at night: flies at the player, bouncing off what it meets; drops lenses.
    DemonEye,
    /// A small eye the Eye sends at the player (no drops).
    Servant,
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
    /// Flies (no gravity) toward the player at up to this many tiles a second; 0 for
    /// kinds that hop.
    pub fly_speed: f32,
    /// Item dropped when killed, and how many (the count varies by one).
    pub drop: &'static str,
    pub drops: u32,
    pub color: [u8; 3],
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 5] = [
        Kind::Slime,
        Kind::CaveSlime,
        Kind::LavaSlime,
        Kind::DemonEye,
        Kind::Servant,
    ];

    /// Does it fly?
    pub fn flies(self) -> bool {
        self.stats().fly_speed > 0.0
    }

    pub fn stats(self) -> Stats {
        match self {
            Kind::Slime => Stats {
                name: "slime",
                health: 14.0,
                damage: 6.0,
                hop_every: 1.4,
                high_hops: false,
                fly_speed: 0.0,
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
                fly_speed: 0.0,
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
                fly_speed: 0.0,
                drop: "gel",
                drops: 3,
                color: [240, 90, 40],
            },
            // Terraria's demon eye: 60 health, 18 damage, a lens in three kills; here one
            // lens a kill at most two, so a night's hunting makes a summoning item.
            Kind::DemonEye => Stats {
                name: "demon eye",
                health: 40.0,
                damage: 14.0,
                hop_every: 1.0,
                high_hops: false,
                fly_speed: 7.0,
                drop: "lens",
                drops: 1,
                color: [235, 225, 220],
            },
            Kind::Servant => Stats {
                name: "servant of the Eye",
                health: 8.0,
                damage: 10.0,
                hop_every: 1.0,
                high_hops: false,
                fly_speed: 9.0,
                drop: "",
                drops: 0,
                color: [220, 170, 170],
            },
        }
    }
}
