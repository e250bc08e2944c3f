//! What the player hears for what happens: the game's events ([`Event`]), the sound cue
//! each one plays ([`cue_for`], pure), the sound files of each cue, and the choice of a
//! cue's variant and pitch ([`Picker`]) so repeated digging is not one sample on a loop.

use crate::sim::creatures::Kind;
use crate::world::Tile;

/// Something the player does or suffers that makes a sound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// A stroke of the pick into `tile`, while digging it.
    Dig(Tile),
    /// `tile` gave way (dug out or felled).
    Broke(Tile),
    /// A tile was placed.
    Placed,
    Jumped,
    /// The player landed, falling at `speed` tiles/s.
    Landed {
        speed: f32,
    },
    /// A sword swing.
    Swung,
    /// A swing hit a creature of this kind (and whether its kind flies).
    Hit(Kind, bool),
    /// A creature of this kind (flying or not) was killed.
    Killed(Kind, bool),
    /// The player was hurt.
    Hurt,
    /// The player died.
    Died,
    /// The player's head is under water: bubbles.
    Drowning,
    /// The player fell into water or (`lava`) lava.
    Splash {
        lava: bool,
    },
    /// Lava met water and hardened.
    Hiss,
    /// Something was crafted at this station (`None`: by hand).
    Crafted(Option<Tile>),
    /// A chest opened or closed.
    Chest {
        open: bool,
    },
    /// A door opened or closed.
    Door {
        open: bool,
    },
    /// Loot went into the inventory.
    PickedUp,
    /// A menu or inventory click.
    Click,
    /// An action the game refused (out of reach, nothing to place, ...).
    Refused,
    /// The Eye roared (it came, or it changed to its second phase).
    Roar,
    /// A swing hit the Eye; the Eye was killed.
    HitBoss,
    KilledBoss,
}

/// How a tile sounds under the pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Material {
    /// Dirt, sand, snow, mud, ash: dull.
    Soft,
    /// Stone, ores, ice, metal stations: a ringing click.
    Hard,
    /// Trunks, wood, the workbench, chests, torches, cacti: a hollow knock.
    Wood,
    Leaves,
}

/// The material of `t`, `None` for what is not dug (air and liquids).
pub fn material(t: Tile) -> Option<Material> {
    use Material::*;
    Some(match t {
        Tile::Air
        | Tile::Water
        | Tile::Lava
        | Tile::Honey
        | Tile::Reserved43
        | Tile::Reserved51 => return None,
        Tile::Dirt
        | Tile::Grass
        | Tile::Sand
        | Tile::Snow
        | Tile::Mud
        | Tile::JungleGrass
        | Tile::Ash
        | Tile::HardenedSand
        | Tile::CorruptGrass
        | Tile::Cloud
        | Tile::MushroomGrass
        | Tile::Hive
        | Tile::Clay
        | Tile::Silt => Soft,
        Tile::Stone
        | Tile::IronOre
        | Tile::GoldOre
        | Tile::DiamondOre
        | Tile::Sandstone
        | Tile::Ice
        | Tile::Obsidian
        | Tile::CopperOre
        | Tile::SilverOre
        | Tile::Hellstone
        | Tile::TinOre
        | Tile::LeadOre
        | Tile::TungstenOre
        | Tile::PlatinumOre
        | Tile::Furnace
        | Tile::Anvil
        | Tile::LifeCrystal
        | Tile::Ebonstone
        | Tile::DemoniteOre
        | Tile::ShadowOrb
        | Tile::DungeonBrick
        | Tile::Spike
        | Tile::Marble
        | Tile::Granite
        | Tile::ObsidianBrick
        | Tile::Amethyst
        | Tile::Topaz
        | Tile::Sapphire
        | Tile::Emerald
        | Tile::Ruby => Hard,
        Tile::Torch
        | Tile::Trunk
        | Tile::Cactus
        | Tile::Wood
        | Tile::Workbench
        | Tile::Chest
        | Tile::PiggyBank
        | Tile::ClosedDoor
        | Tile::OpenDoor
        | Tile::Platform
        | Tile::Table
        | Tile::Chair
        | Tile::Bed
        | Tile::EyeTrophy => Wood,
        Tile::Leaves | Tile::Rope | Tile::GlowMushroom | Tile::Cobweb => Leaves,
    })
}

/// Falls slower than this (tiles/s) land without a sound: a step down is not a landing.
pub const LAND_QUIET: f32 = 9.0;
/// Falls at least this fast (tiles/s) land hard: about 6.5 tiles down (a full held jump
/// lands at about 24 tiles/s, soft).
pub const LAND_HARD: f32 = 28.0;

macro_rules! cues {
    ($($cue:ident $file:ident [$($v:literal)+],)+) => {
        /// A sound the game plays: a set of variants of one effect.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Cue { $($cue,)+ }

        impl Cue {
            /// Every cue, in file order.
            pub const ALL: &[Cue] = &[$(Cue::$cue,)+];

            /// The file name stem of the cue's variants (`assets/sounds/STEM_N.wav`).
            pub fn stem(self) -> &'static str {
                match self { $(Cue::$cue => stringify!($file),)+ }
            }

            /// The WAV files of the cue's variants, built into the program.
            pub fn files(self) -> &'static [&'static [u8]] {
                match self {
                    $(Cue::$cue => &[$(include_bytes!(concat!(
                        "../../../assets/sounds/", stringify!($file), "_", $v, ".wav"
                    )),)+],)+
                }
            }
        }
    };
}

cues! {
    DigSoft dig_soft ["0" "1" "2" "3"],
    DigHard dig_hard ["0" "1" "2" "3"],
    DigWood dig_wood ["0" "1" "2" "3"],
    DigLeaves dig_leaves ["0" "1" "2"],
    BreakSoft break_soft ["0" "1" "2"],
    BreakHard break_hard ["0" "1" "2"],
    Place place ["0" "1" "2"],
    Jump jump ["0" "1" "2"],
    LandSoft land_soft ["0" "1" "2"],
    LandHard land_hard ["0" "1" "2"],
    Swing swing ["0" "1" "2"],
    HitSlime hit_slime ["0" "1" "2"],
    HitCaveSlime hit_cave_slime ["0" "1" "2"],
    HitLavaSlime hit_lava_slime ["0" "1" "2"],
    KillSlime kill_slime ["0" "1" "2"],
    KillCaveSlime kill_cave_slime ["0" "1" "2"],
    KillLavaSlime kill_lava_slime ["0" "1" "2"],
    Hurt hurt ["0" "1" "2"],
    Death death ["0" "1"],
    Bubbles bubbles ["0" "1" "2"],
    SplashWater splash_water ["0" "1" "2"],
    SplashLava splash_lava ["0" "1" "2"],
    Hiss hiss ["0" "1" "2"],
    CraftHand craft_hand ["0" "1"],
    CraftWorkbench craft_workbench ["0" "1"],
    CraftFurnace craft_furnace ["0" "1"],
    CraftAnvil craft_anvil ["0" "1"],
    ChestOpen chest_open ["0" "1"],
    ChestClose chest_close ["0" "1"],
    DoorOpen door_open ["0" "1"],
    DoorClose door_close ["0" "1"],
    Pickup pickup ["0" "1" "2"],
    UiClick ui_click ["0" "1" "2"],
    UiRefuse ui_refuse ["0" "1"],
    HitEye hit_eye ["0" "1" "2"],
    KillEye kill_eye ["0" "1" "2"],
    Roar roar ["0" "1"],
}

impl Cue {
    /// The cue's loudness against the others, 0..=1 (UI sounds and bubbles sit back).
    pub fn volume(self) -> f32 {
        match self {
            Cue::UiClick | Cue::Bubbles => 0.5,
            Cue::DigSoft | Cue::DigHard | Cue::DigWood | Cue::DigLeaves => 0.8,
            _ => 1.0,
        }
    }
}

/// The cue `e` plays, `None` for an event that makes no sound (digging air, a step down).
pub fn cue_for(e: Event) -> Option<Cue> {
    Some(match e {
        Event::Dig(t) => match material(t)? {
            Material::Soft => Cue::DigSoft,
            Material::Hard => Cue::DigHard,
            Material::Wood => Cue::DigWood,
            Material::Leaves => Cue::DigLeaves,
        },
        Event::Broke(t) => match material(t)? {
            Material::Soft | Material::Wood => Cue::BreakSoft,
            Material::Hard => Cue::BreakHard,
            Material::Leaves => Cue::DigLeaves,
        },
        Event::Placed => Cue::Place,
        Event::Jumped => Cue::Jump,
        Event::Landed { speed } if speed < LAND_QUIET => return None,
        Event::Landed { speed } if speed < LAND_HARD => Cue::LandSoft,
        Event::Landed { .. } => Cue::LandHard,
        Event::Swung => Cue::Swing,
        Event::Hit(Kind::Slime, _) => Cue::HitSlime,
        Event::Hit(Kind::CaveSlime, _) => Cue::HitCaveSlime,
        Event::Hit(Kind::LavaSlime, _) => Cue::HitLavaSlime,
        Event::Killed(Kind::Slime, _) => Cue::KillSlime,
        Event::Killed(Kind::CaveSlime, _) => Cue::KillCaveSlime,
        Event::Killed(Kind::LavaSlime, _) => Cue::KillLavaSlime,
        Event::Hit(_, true) => Cue::HitEye,
        Event::Killed(_, true) => Cue::KillEye,
        // Walkers and casters sound as cave slimes do, until they have their own.
        Event::Hit(..) => Cue::HitCaveSlime,
        Event::Killed(..) => Cue::KillCaveSlime,
        Event::HitBoss => Cue::HitEye,
        Event::KilledBoss => Cue::KillEye,
        Event::Roar => Cue::Roar,
        Event::Hurt => Cue::Hurt,
        Event::Died => Cue::Death,
        Event::Drowning => Cue::Bubbles,
        Event::Splash { lava: false } => Cue::SplashWater,
        Event::Splash { lava: true } => Cue::SplashLava,
        Event::Hiss => Cue::Hiss,
        Event::Crafted(None) => Cue::CraftHand,
        Event::Crafted(Some(Tile::Furnace)) => Cue::CraftFurnace,
        Event::Crafted(Some(Tile::Anvil)) => Cue::CraftAnvil,
        Event::Crafted(Some(_)) => Cue::CraftWorkbench,
        Event::Chest { open: true } => Cue::ChestOpen,
        Event::Chest { open: false } => Cue::ChestClose,
        Event::Door { open: true } => Cue::DoorOpen,
        Event::Door { open: false } => Cue::DoorClose,
        Event::PickedUp => Cue::Pickup,
        Event::Click => Cue::UiClick,
        Event::Refused => Cue::UiRefuse,
    })
}

/// A cue's pitch varies by up to this share either way (about a semitone).
pub const PITCH_SPREAD: f32 = 0.06;

/// Chooses a variant and a pitch for each cue played: at random, never the variant the
/// same cue played last time.
pub struct Picker {
    state: u64,
    last: Vec<Option<usize>>,
}

impl Picker {
    pub fn new(seed: u64) -> Picker {
        Picker {
            state: seed ^ 0x9E37_79B9_7F4A_7C15,
            last: vec![None; Cue::ALL.len()],
        }
    }

    fn next(&mut self) -> u64 {
        // splitmix64
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The variant (below `variants`) and the playback rate (1 ± [`PITCH_SPREAD`]) for
    /// one play of `cue`.
    pub fn pick(&mut self, cue: Cue, variants: usize) -> (usize, f32) {
        let i = Cue::ALL.iter().position(|&c| c == cue).unwrap_or(0);
        let mut v = (self.next() % variants.max(1) as u64) as usize;
        if variants > 1 && self.last[i] == Some(v) {
            v = (v + 1 + (self.next() % (variants as u64 - 1)) as usize) % variants;
        }
        self.last[i] = Some(v);
        let unit = (self.next() >> 11) as f32 / (1u64 << 53) as f32;
        (v, 1.0 + PITCH_SPREAD * (2.0 * unit - 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of each event the issue lists, by kind, station and material.
    fn every_event() -> Vec<Event> {
        let mut e = vec![
            Event::Placed,
            Event::Jumped,
            Event::Landed { speed: 15.0 },
            Event::Landed { speed: 30.0 },
            Event::Swung,
            Event::Hurt,
            Event::Died,
            Event::Drowning,
            Event::Splash { lava: false },
            Event::Splash { lava: true },
            Event::Hiss,
            Event::Crafted(None),
            Event::Chest { open: true },
            Event::Chest { open: false },
            Event::Door { open: true },
            Event::Door { open: false },
            Event::PickedUp,
            Event::Click,
            Event::Refused,
            Event::Roar,
            Event::HitBoss,
            Event::KilledBoss,
        ];
        for t in [Tile::Dirt, Tile::Stone, Tile::Trunk, Tile::Leaves] {
            e.push(Event::Dig(t));
            e.push(Event::Broke(t));
        }
        let b = crate::content::config::Content::builtin().bestiary;
        for k in b.all() {
            e.push(Event::Hit(k, b.flies(k)));
            e.push(Event::Killed(k, b.flies(k)));
        }
        for s in [Tile::Workbench, Tile::Furnace, Tile::Anvil] {
            e.push(Event::Crafted(Some(s)));
        }
        e
    }

    #[test]
    fn every_listed_event_has_a_cue_and_every_cue_is_played_by_some_event() {
        let mut heard = std::collections::HashSet::new();
        for e in every_event() {
            let c = cue_for(e).unwrap_or_else(|| panic!("{e:?} is silent"));
            heard.insert(c);
        }
        for c in Cue::ALL {
            assert!(heard.contains(c), "no event plays {c:?}");
        }
    }

    #[test]
    fn digs_sound_by_material_and_quiet_things_stay_quiet() {
        assert_eq!(cue_for(Event::Dig(Tile::Sand)), Some(Cue::DigSoft));
        assert_eq!(cue_for(Event::Dig(Tile::GoldOre)), Some(Cue::DigHard));
        assert_eq!(cue_for(Event::Dig(Tile::Wood)), Some(Cue::DigWood));
        assert_eq!(cue_for(Event::Dig(Tile::Leaves)), Some(Cue::DigLeaves));
        assert_eq!(cue_for(Event::Broke(Tile::Hellstone)), Some(Cue::BreakHard));
        assert_eq!(cue_for(Event::Dig(Tile::Air)), None);
        assert_eq!(cue_for(Event::Broke(Tile::Water)), None);
        // A step down is no landing; a long fall lands hard.
        assert_eq!(cue_for(Event::Landed { speed: 4.0 }), None);
        assert_eq!(cue_for(Event::Landed { speed: 12.0 }), Some(Cue::LandSoft));
        assert_eq!(cue_for(Event::Landed { speed: 24.0 }), Some(Cue::LandSoft));
        assert_eq!(cue_for(Event::Landed { speed: 37.0 }), Some(Cue::LandHard));
        // Each slime sounds its own.
        assert_ne!(
            cue_for(Event::Hit(Kind::Slime, false)),
            cue_for(Event::Hit(Kind::LavaSlime, false))
        );
    }

    #[test]
    fn every_cue_has_its_variants_built_in() {
        for c in Cue::ALL {
            let files = c.files();
            assert!(files.len() >= 2, "{c:?} has {} variants", files.len());
            for f in files {
                assert_eq!(&f[..4], b"RIFF", "{}", c.stem());
            }
        }
    }

    #[test]
    fn variants_never_repeat_back_to_back_and_all_come_up() {
        let mut p = Picker::new(7);
        let mut last = None;
        let mut seen = [0u32; 4];
        let mut pitches = Vec::new();
        for _ in 0..200 {
            let (v, rate) = p.pick(Cue::DigSoft, 4);
            assert!(v < 4);
            assert_ne!(Some(v), last, "the same variant twice in a row");
            last = Some(v);
            seen[v] += 1;
            assert!((rate - 1.0).abs() <= PITCH_SPREAD + 1e-6, "{rate}");
            pitches.push(rate);
        }
        assert!(seen.iter().all(|&n| n >= 30), "{seen:?}");
        let spread = pitches.iter().cloned().fold(f32::MIN, f32::max)
            - pitches.iter().cloned().fold(f32::MAX, f32::min);
        assert!(spread > PITCH_SPREAD, "pitch spread only {spread}");
        // A cue's memory is its own: another cue may play its variant 0 next.
        let (_, _) = p.pick(Cue::Jump, 3);
        let (v2, _) = p.pick(Cue::DigSoft, 4);
        assert_ne!(Some(v2), last);
    }
}
