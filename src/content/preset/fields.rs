//! Every preset field as one row of [`FIELDS`]: its RON path, kind, allowed range, slider
//! step and a one-line description, with a getter and a setter. [`Preset::validate`] checks
//! ranges from this table, the world lab's sliders are bounded by it and a preset saved
//! from the lab writes its range comments from it, so a range is written down once.
//!
//! Values pass through as `f64` (whole numbers, `true` as 1, a choice as its index in
//! [`Kind::Choice`]'s names, a tile as its number), `None` for an unset optional field
//! (`deep_threshold`) or a list entry that does not exist. Fields of a list's entries
//! (`ores.table[].threshold`) take the entry's index; other fields ignore it.

use super::{
    Basis, Biome, GrassMode, Jitter, MAX_CAVE_SCALE, MAX_HEIGHT, MAX_ITERATIONS, MAX_LODE_DENSITY,
    MAX_LODE_SIZE, MAX_LODE_STEPS, MAX_MOUTHS, MAX_OCTAVES, MAX_ORE_FREQUENCY, MAX_POOL_DEPTH,
    MAX_TREE, MAX_TUNNEL_LENGTH, MAX_WIDTH, MAX_WORMS, MIN_SIDE, Preset, RangeError, Veins,
};
use crate::base::depth::Layer;
use crate::base::tile::Tile;

/// What a field holds, and so which control edits it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Float,
    /// A whole number (`u32`).
    Int,
    Bool,
    /// One of these names (RON enum variants), by index.
    Choice(&'static [&'static str]),
    /// A solid tile, by its number.
    Tile,
}

/// One preset field.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// RON path: `caves.fill`, `width`; entries of a list `ores.table[].threshold`.
    pub path: &'static str,
    pub kind: Kind,
    /// Smallest value (numbers only).
    pub min: f64,
    /// Largest value (numbers only).
    pub max: f64,
    /// Whether `min` itself is refused (`(0, 1]`).
    pub open_min: bool,
    /// Another field (path) whose value raises `min`: `layers.cavern` lies at or below
    /// `layers.underground`.
    pub at_least: Option<&'static str>,
    /// Another field (path) and an offset that lower `max`: `caves.open_below` is at most
    /// `caves.wall_above + 1`.
    pub at_most: Option<(&'static str, f64)>,
    /// A slider's step.
    pub step: f64,
    /// What it does, in one line.
    pub doc: &'static str,
    pub get: fn(&Preset, usize) -> Option<f64>,
    pub set: fn(&mut Preset, usize, Option<f64>),
}

/// Fields are the same field when their paths are.
impl PartialEq for Field {
    fn eq(&self, other: &Field) -> bool {
        self.path == other.path
    }
}

/// An enum written in presets by variant name, offered as a drop-down.
pub trait Choice: Copy {
    const NAMES: &'static [&'static str];
    fn index(self) -> usize;
    fn from_index(i: usize) -> Self;
}

macro_rules! choice {
    ($t:ty: $($v:ident),+) => {
        impl Choice for $t {
            const NAMES: &'static [&'static str] = &[$(stringify!($v)),+];
            fn index(self) -> usize {
                [$(<$t>::$v),+].iter().position(|&c| c == self).unwrap_or(0)
            }
            fn from_index(i: usize) -> Self {
                let all = [$(<$t>::$v),+];
                all[i.min(all.len() - 1)]
            }
        }
    };
}

choice!(Jitter: PerTile, PerColumn);
choice!(Veins: Shared, Separate);
choice!(GrassMode: Exposed, SkyLit);
choice!(Layer: Surface, Underground, Cavern, Underworld);
choice!(Biome: Forest, Desert, Snow, Jungle);
choice!(Basis: Perlin, Simplex, Value);

/// A float field: path, range, step and description.
macro_rules! float {
    ($($p:ident).+, $min:expr, $max:expr, $step:expr, $doc:literal) => {
        float!($($p).+, $min, $max, $step, $doc, open: false, at_least: None)
    };
    ($($p:ident).+, $min:expr, $max:expr, $step:expr, $doc:literal, open: $open:expr, at_least: $at:expr) => {
        Field {
            path: stringify!($($p).+),
            kind: Kind::Float,
            min: $min as f64,
            max: $max as f64,
            open_min: $open,
            at_least: $at,
            at_most: None,
            step: $step,
            doc: $doc,
            get: |p, _| Some(p.$($p).+),
            set: |p, _, v| {
                if let Some(v) = v {
                    p.$($p).+ = v
                }
            },
        }
    };
}

/// A switch: `true` as 1, `false` as 0 (a toggle in the world lab).
macro_rules! toggle {
    ($($p:ident).+, $doc:literal) => {
        Field {
            path: stringify!($($p).+),
            kind: Kind::Bool,
            min: 0.0,
            max: 1.0,
            open_min: false,
            at_least: None,
            at_most: None,
            step: 1.0,
            doc: $doc,
            get: |p, _| Some(f64::from(u8::from(p.$($p).+))),
            set: |p, _, v| {
                if let Some(v) = v {
                    p.$($p).+ = v >= 0.5
                }
            },
        }
    };
}

/// A whole-number field.
macro_rules! int {
    ($($p:ident).+, $min:expr, $max:expr, $step:expr, $doc:literal) => {
        int!($($p).+, $min, $max, $step, $doc, at_least: None)
    };
    ($($p:ident).+, $min:expr, $max:expr, $step:expr, $doc:literal, at_least: $at:expr) => {
        Field {
            path: stringify!($($p).+),
            kind: Kind::Int,
            min: $min as f64,
            max: $max as f64,
            open_min: false,
            at_least: $at,
            at_most: None,
            step: $step as f64,
            doc: $doc,
            get: |p, _| Some(p.$($p).+ as f64),
            set: |p, _, v| {
                if let Some(v) = v {
                    p.$($p).+ = v.round().clamp(0.0, u32::MAX as f64) as u32
                }
            },
        }
    };
}

/// A field holding one of an enum's variants.
macro_rules! choice_field {
    ($($p:ident).+ : $t:ty, $doc:literal) => {
        Field {
            path: stringify!($($p).+),
            kind: Kind::Choice(<$t as Choice>::NAMES),
            min: 0.0,
            max: (<$t as Choice>::NAMES.len() - 1) as f64,
            open_min: false,
            at_least: None,
            at_most: None,
            step: 1.0,
            doc: $doc,
            get: |p, _| Some(p.$($p).+.index() as f64),
            set: |p, _, v| {
                if let Some(v) = v {
                    p.$($p).+ = <$t>::from_index(v.round().max(0.0) as usize)
                }
            },
        }
    };
}

/// A numeric field of every entry of a list: `$list` is the path to the `Vec`, `$f` the
/// entry's field, `$kind` `Float` or `Int`.
macro_rules! entry {
    ($path:literal, $($list:ident).+ [] $f:ident : $kind:ident, $min:expr, $max:expr, $step:expr, $doc:literal) => {
        entry!($path, $($list).+ [] $f: $kind, $min, $max, $step, $doc, open: false)
    };
    ($path:literal, $($list:ident).+ [] $f:ident : $kind:ident, $min:expr, $max:expr, $step:expr, $doc:literal, open: $open:expr) => {
        Field {
            path: $path,
            kind: Kind::$kind,
            min: $min as f64,
            max: $max as f64,
            open_min: $open,
            at_least: None,
            at_most: None,
            step: $step as f64,
            doc: $doc,
            get: |p, i| p.$($list).+.get(i).map(|e| e.$f as f64),
            set: |p, i, v| {
                if let (Some(e), Some(v)) = (p.$($list).+.get_mut(i), v) {
                    e.$f = Value::from_f64(v);
                }
            },
        }
    };
}

/// A list entry's tile (a solid tile, by its number).
macro_rules! entry_tile {
    ($path:literal, $($list:ident).+ [] $f:ident) => {
        Field {
            path: $path,
            kind: Kind::Tile,
            min: 0.0,
            max: (Tile::COUNT - 1) as f64,
            open_min: false,
            at_least: None,
            at_most: None,
            step: 1.0,
            doc: "the ore's tile (a solid tile)",
            get: |p, i| p.$($list).+.get(i).map(|o| o.$f as u8 as f64),
            set: |p, i, v| {
                if let (Some(o), Some(t)) = (p.$($list).+.get_mut(i), v.and_then(tile_of)) {
                    o.$f = t;
                }
            },
        }
    };
}

/// A field holding one of an enum's variants in every entry of a list.
macro_rules! entry_choice {
    ($path:literal, $($list:ident).+ [] $f:ident : $t:ty, $doc:literal) => {
        Field {
            path: $path,
            kind: Kind::Choice(<$t as Choice>::NAMES),
            min: 0.0,
            max: (<$t as Choice>::NAMES.len() - 1) as f64,
            open_min: false,
            at_least: None,
            at_most: None,
            step: 1.0,
            doc: $doc,
            get: |p, i| p.$($list).+.get(i).map(|e| e.$f.index() as f64),
            set: |p, i, v| {
                if let (Some(e), Some(v)) = (p.$($list).+.get_mut(i), v) {
                    e.$f = <$t>::from_index(v.round().max(0.0) as usize);
                }
            },
        }
    };
}

/// Converts a slider value to a field's type.
trait Value {
    fn from_f64(v: f64) -> Self;
}

impl Value for f64 {
    fn from_f64(v: f64) -> Self {
        v
    }
}

impl Value for u32 {
    fn from_f64(v: f64) -> Self {
        v.round().clamp(0.0, u32::MAX as f64) as u32
    }
}

/// Every preset field, in the order (and sections) the shipped RON files write them.
pub const FIELDS: &[Field] = &[
    int!(width, MIN_SIDE, MAX_WIDTH, 100, "world width, tiles"),
    int!(height, MIN_SIDE, MAX_HEIGHT, 100, "world height, tiles"),
    float!(
        surface.base_height,
        0,
        1,
        0.01,
        "mean surface row, as a fraction of the height from the top"
    ),
    float!(
        surface.amplitude,
        0,
        MAX_HEIGHT,
        1.0,
        "largest deviation from that row, in tiles"
    ),
    float!(surface.frequency, 0, 1, 0.0005, "cycles per tile of the first octave", open: true, at_least: None),
    int!(
        surface.octaves,
        1,
        MAX_OCTAVES,
        1,
        "layers of ever finer detail"
    ),
    float!(
        surface.persistence,
        0,
        1,
        0.01,
        "amplitude factor from one octave to the next"
    ),
    float!(
        surface.lacunarity,
        1,
        8,
        0.05,
        "frequency factor from one octave to the next"
    ),
    float!(
        surface.relief,
        0,
        MAX_HEIGHT,
        1.0,
        "mountains and valleys from a slower fBm, largest deviation in tiles (0 = off)"
    ),
    float!(surface.relief_frequency, 0, 1, 0.0002, "cycles per tile of that relief", open: true, at_least: None),
    float!(
        surface.terrace_height,
        0,
        256,
        0.5,
        "plateaus and cliffs: tiles per terrace step where slow noise says so (0 = off)"
    ),
    float!(
        surface.terrace_sharpness,
        1,
        16,
        0.5,
        "1 keeps the slope, 16 makes near-vertical risers between shelves"
    ),
    // The bases last in their section, so the rows above keep their places in the lab.
    choice_field!(surface.basis: Basis, "Perlin, Simplex or Value: the noise of the fBm"),
    choice_field!(surface.relief_basis: Basis, "Perlin, Simplex or Value: the noise of the relief"),
    choice_field!(surface.terrace_basis: Basis, "Perlin, Simplex or Value: the noise of where terraces lie"),
    int!(
        layers.dirt_depth,
        0,
        MAX_HEIGHT,
        1,
        "tiles of dirt under the surface before stone"
    ),
    int!(layers.dirt_jitter, 0, 256, 1, "plus 0..=this many more"),
    choice_field!(layers.jitter: Jitter, "PerTile (a speckled boundary) or PerColumn (clean steps)"),
    float!(
        layers.underground,
        0,
        1,
        0.01,
        "where the underground layer begins, share of the height from the top"
    ),
    float!(layers.cavern, 0, 1, 0.01, "where the cavern layer begins, share of the height from the top", open: false, at_least: Some("layers.underground")),
    float!(layers.underworld, 0, 1, 0.01, "where the underworld begins, share of the height from the top", open: false, at_least: Some("layers.cavern")),
    int!(
        layers.wander,
        0,
        MAX_HEIGHT,
        1,
        "the dirt/stone line wanders 0..=this many tiles deeper (0: level)"
    ),
    float!(layers.wander_frequency, 0, 1, 0.0005, "how fast it wanders, cycles per tile", open: true, at_least: None),
    choice_field!(layers.wander_basis: Basis, "Perlin, Simplex or Value: the noise it wanders by"),
    float!(
        layers.blobs,
        0,
        100,
        0.5,
        "stone blobs in the dirt and dirt blobs in the stone, per 100 columns"
    ),
    float!(caves.fill, 0, 1, 0.005, "chance that a cell starts as wall"),
    float!(
        caves.fill_variation,
        0,
        1,
        0.005,
        "regional swing of fill by slow noise (caverns vs solid rock)"
    ),
    float!(caves.fill_frequency, 0, 1, 0.0005, "frequency of that noise", open: true, at_least: None),
    choice_field!(caves.fill_basis: Basis, "Perlin, Simplex or Value: the noise of that swing"),
    int!(
        caves.margin,
        0,
        MAX_HEIGHT,
        1,
        "rows under the surface that start solid"
    ),
    int!(caves.iterations, 0, MAX_ITERATIONS, 1, "automaton steps"),
    int!(
        caves.wall_above,
        0,
        8,
        1,
        "more than this many of the 8 neighbours walls -> wall"
    ),
    Field {
        at_most: Some(("caves.wall_above", 1.0)),
        ..int!(caves.open_below, 0, 8, 1, "fewer than this many -> open")
    },
    int!(
        caves.scale,
        1,
        MAX_CAVE_SCALE,
        1,
        "tiles per automaton cell along each axis"
    ),
    int!(
        caves.smoothing,
        0,
        MAX_ITERATIONS,
        1,
        "steps at tile scale after scaling up, to round the cells off"
    ),
    float!(
        caves.shallow,
        0,
        1,
        0.005,
        "added to fill above the cavern layer: small holes near the surface"
    ),
    float!(
        caves.deepening,
        0,
        1,
        0.005,
        "taken off fill from the cavern layer's top to the underworld: more open deeper"
    ),
    int!(
        caves.min_cavern,
        0,
        1 << 24,
        500,
        "from the cavern layer down, pockets under this many tiles are closed"
    ),
    float!(caves.style_frequency, 0, 1, 0.0005, "cycles per tile of the cave style field (regions of open caverns, winding passages, dense pockets)", open: true, at_least: None),
    float!(
        caves.style_open,
        0,
        1,
        0.005,
        "taken off fill where the style field says open caverns"
    ),
    float!(
        caves.style_dense,
        0,
        1,
        0.005,
        "added to fill where the style field says dense pockets"
    ),
    int!(
        caves.style_passages,
        0,
        MAX_ITERATIONS,
        1,
        "automaton steps where it says winding passages (iterations or more: none)"
    ),
    float!(
        caves.biome_caves,
        0,
        1,
        0.005,
        "taken off fill in the jungle, the snow (ice caves) and the underground desert"
    ),
    float!(
        tunnels.worms,
        0,
        MAX_WORMS,
        0.5,
        "long tunnels per million tiles from the underground layer to the underworld"
    ),
    int!(
        tunnels.length,
        0,
        MAX_TUNNEL_LENGTH,
        10,
        "steps (about a tile each) of one"
    ),
    float!(
        tunnels.radius_top,
        0,
        16,
        0.1,
        "radius at the top of the underground layer, tiles"
    ),
    float!(
        tunnels.radius_deep,
        0,
        16,
        0.1,
        "radius at the underworld, tiles"
    ),
    float!(
        tunnels.flatness,
        0,
        1,
        0.01,
        "how much they keep to the horizontal: 0 any way, 1 level"
    ),
    float!(
        tunnels.mouths,
        0,
        MAX_MOUTHS,
        0.1,
        "tunnels from the surface down into the caves, per 1000 columns"
    ),
    float!(
        tunnels.mouth_radius,
        1,
        8,
        0.1,
        "their radius, tiles (2 or more lets the player through)"
    ),
    int!(
        tunnels.spawn_clear,
        0,
        MAX_WIDTH,
        5,
        "columns each side of the centre (the spawn) where no mouth opens"
    ),
    choice_field!(tunnels.basis: Basis, "Perlin, Simplex or Value: the noise of a long tunnel's heading and width"),
    float!(
        tunnels.meander,
        0,
        4,
        0.05,
        "how far a long tunnel's heading swings, times the plain swing"
    ),
    float!(
        tunnels.swell,
        0,
        0.95,
        0.01,
        "how much a long tunnel swells and narrows along its length"
    ),
    toggle!(
        underworld.enabled,
        "ash, a wide open band and a solid floor below layers.underworld (false: none)"
    ),
    float!(
        underworld.ceiling,
        0,
        1,
        0.01,
        "mean depth of the band's ceiling, share of the underworld's height"
    ),
    float!(underworld.floor, 0, 1, 0.01, "mean depth of its floor, share of the underworld's height", open: false, at_least: Some("underworld.ceiling")),
    float!(
        underworld.roughness,
        0,
        256,
        0.5,
        "swing of the ceiling, the floor and the underworld's top edge, tiles"
    ),
    choice_field!(underworld.basis: Basis, "Perlin, Simplex or Value: the noise they swing by"),
    float!(ores.frequency, 0, MAX_ORE_FREQUENCY, 0.005, "2D noise frequency", open: true, at_least: None),
    choice_field!(ores.basis: Basis, "Perlin, Simplex or Value: the noise of the ore fields"),
    entry_tile!("ores.table[].tile", ores.table[] tile),
    entry!("ores.table[].threshold", ores.table[] threshold: Float, -1, 1, 0.005, "ore where the noise is above this, at the top of its layers"),
    Field {
        path: "ores.table[].deep_threshold",
        kind: Kind::Float,
        min: -1.0,
        max: 1.0,
        open_min: false,
        at_least: None,
        at_most: None,
        step: 0.005,
        doc: "the threshold at the bottom of `to` (lower is denser; unset: threshold throughout)",
        get: |p, i| p.ores.table.get(i).and_then(|o| o.deep_threshold),
        set: |p, i, v| {
            if let Some(o) = p.ores.table.get_mut(i) {
                o.deep_threshold = v;
            }
        },
    },
    entry!("ores.table[].min_depth", ores.table[] min_depth: Int, 0, MAX_HEIGHT, 1, "only deeper than this many tiles below the local surface"),
    entry_choice!("ores.table[].from", ores.table[] from: Layer, "the first depth layer the ore is found in"),
    entry_choice!("ores.table[].to", ores.table[] to: Layer, "the last depth layer the ore is found in (at or below from)"),
    choice_field!(ores.veins: Veins, "Separate: a noise field per row; Shared: one field, rarer ores ringed by commoner ones"),
    toggle!(
        lodes.enabled,
        "ore veins laid by random-walk runners, one ore of each pair per world (false: none)"
    ),
    int!(
        lodes.min_depth,
        0,
        MAX_HEIGHT,
        1,
        "veins only deeper than this many tiles below the local surface"
    ),
    entry_tile!("lodes.table[].tile", lodes.table[] tile),
    Field {
        path: "lodes.table[].twin",
        kind: Kind::Tile,
        min: 0.0,
        max: (Tile::COUNT - 1) as f64,
        open_min: false,
        at_least: None,
        at_most: None,
        step: 1.0,
        doc: "its twin: a world has the tile or its twin, never both (unset: the tile)",
        get: |p, i| {
            p.lodes
                .table
                .get(i)
                .and_then(|o| o.twin)
                .map(|t| t as u8 as f64)
        },
        set: |p, i, v| {
            if let Some(o) = p.lodes.table.get_mut(i) {
                o.twin = v.and_then(tile_of);
            }
        },
    },
    entry!("lodes.table[].per_million", lodes.table[] per_million: Float, 0, MAX_LODE_DENSITY, 5, "veins per million tiles of ground at the top of from"),
    entry!("lodes.table[].deep_per_million", lodes.table[] deep_per_million: Float, 0, MAX_LODE_DENSITY, 5, "veins per million tiles at the bottom of to"),
    entry_choice!("lodes.table[].from", lodes.table[] from: Layer, "the first depth layer the ore is found in"),
    entry_choice!("lodes.table[].to", lodes.table[] to: Layer, "the last depth layer the ore is found in (at or below from)"),
    entry!("lodes.table[].size", lodes.table[] size: Float, 1, MAX_LODE_SIZE, 0.5, "tiles across a vein's widest blob at the top of from"),
    entry!("lodes.table[].deep_size", lodes.table[] deep_size: Float, 1, MAX_LODE_SIZE, 0.5, "tiles across a vein's widest blob at the bottom of to"),
    entry!("lodes.table[].steps", lodes.table[] steps: Int, 1, MAX_LODE_STEPS, 1, "steps of a vein's runner at the top of from"),
    entry!("lodes.table[].deep_steps", lodes.table[] deep_steps: Int, 1, MAX_LODE_STEPS, 1, "steps of a vein's runner at the bottom of to"),
    float!(
        water.pools,
        0,
        1,
        0.01,
        "chance that a 64x64-tile block holds a still pool on a cave floor"
    ),
    int!(
        water.max_depth,
        1,
        MAX_POOL_DEPTH,
        1,
        "most rows of water in a pool"
    ),
    int!(
        water.max_width,
        1,
        MAX_WIDTH,
        1,
        "widest row of water in a pool, tiles"
    ),
    float!(
        lava.pools,
        0,
        1,
        0.01,
        "chance that a 64x64-tile block of the lower cavern layer holds a lava pool"
    ),
    float!(
        lava.from,
        0,
        1,
        0.01,
        "pools from this share of the way down the cavern layer"
    ),
    int!(
        lava.max_depth,
        1,
        MAX_POOL_DEPTH,
        1,
        "most rows of lava in a pool"
    ),
    int!(
        lava.max_width,
        1,
        MAX_WIDTH,
        1,
        "widest row of lava in a pool, tiles"
    ),
    int!(
        lava.lake_depth,
        0,
        MAX_POOL_DEPTH,
        1,
        "most rows of the lava lakes on the underworld's floor (0: none)"
    ),
    choice_field!(grass.mode: GrassMode, "SkyLit (only under open sky) or Exposed (cave floors too)"),
    float!(
        ocean.width,
        0,
        0.25,
        0.005,
        "columns of sea at each end, share of the width (0 = no oceans)"
    ),
    float!(
        ocean.sea_level,
        0,
        1,
        0.005,
        "sea level row, fraction of the height from the top"
    ),
    int!(
        ocean.depth,
        0,
        MAX_HEIGHT,
        1,
        "sea floor at the world's edges, tiles below sea level"
    ),
    int!(
        ocean.shore,
        0,
        MAX_WIDTH,
        1,
        "columns over which the beach rises out of the sea into the land"
    ),
    int!(
        ocean.sand_depth,
        0,
        256,
        1,
        "tiles of sand under the sea floor, thinning across the beach"
    ),
    entry_choice!("biomes.spans[].biome", biomes.spans[] biome: Biome, "the biome of the span"),
    entry!("biomes.spans[].width", biomes.spans[] width: Float, 0, 0.5, 0.005, "share of the world's width (all spans, extras counted, add up to at most 0.8)", open: true),
    entry!("biomes.spans[].extra", biomes.spans[] extra: Int, 0, 4, 1, "up to this many more spans of the biome, drawn by the seed"),
    float!(
        biomes.depth,
        0,
        1,
        0.01,
        "how far under the surface a biome reaches, share of the height"
    ),
    int!(
        biomes.border,
        0,
        1024,
        1,
        "tiles a biome's edges wander from row to row (no vertical cuts)"
    ),
    int!(
        biomes.sand_depth,
        0,
        256,
        1,
        "desert: tiles of sand over sandstone"
    ),
    float!(
        biomes.dune_height,
        0,
        256,
        0.5,
        "desert: height of its dunes, tiles"
    ),
    choice_field!(biomes.dune_basis: Basis, "Perlin, Simplex or Value: the noise of the dunes"),
    choice_field!(biomes.pocket_basis: Basis, "Perlin, Simplex or Value: the noise of snow's ice and jungle's mud pockets"),
    float!(
        biomes.width_jitter,
        0,
        0.9,
        0.01,
        "the seed draws each span's width within this share either side of it"
    ),
    toggle!(
        biomes.opposite,
        "snow and jungle on opposite halves (the dungeon on the snow's side)"
    ),
    toggle!(
        biomes.deep_jungle,
        "the jungle reaches down to the underworld"
    ),
    float!(
        biomes.underground_desert,
        0,
        3,
        0.05,
        "width of the underground desert under a desert, times the desert's (0 = none)"
    ),
    float!(
        lakes.per_4200,
        0,
        64,
        0.5,
        "valleys tried for a lake per 4200 columns of land (0 = none)"
    ),
    int!(lakes.max_depth, 1, 256, 1, "most rows of water in a lake"),
    int!(
        lakes.max_width,
        1,
        MAX_WIDTH,
        1,
        "widest row of water in a lake, tiles"
    ),
    float!(
        trees.density,
        0,
        1,
        0.01,
        "chance a column in the thickest grove starts a tree (0 = none)"
    ),
    int!(
        trees.spacing,
        1,
        256,
        1,
        "fewest columns from one trunk to the next"
    ),
    float!(trees.frequency, 0, 1, 0.0005, "cycles per tile of the grove noise (lower: wider groves and clearings)", open: true, at_least: None),
    choice_field!(trees.basis: Basis, "Perlin, Simplex or Value: the noise of the groves"),
    int!(trees.min_height, 1, MAX_TREE, 1, "shortest trunk, tiles"),
    int!(trees.max_height, 1, MAX_TREE, 1, "tallest trunk, tiles (jungle trees half as tall again)", at_least: Some("trees.min_height")),
    float!(
        chests.per_block,
        0,
        1,
        0.01,
        "chance a 64x64-tile block holds a chest on a cave floor (0 = none)"
    ),
    int!(
        chests.min_depth,
        0,
        MAX_HEIGHT,
        1,
        "only deeper than this many tiles below the local surface"
    ),
    int!(
        chests.spawn_clear,
        0,
        MAX_WIDTH,
        5,
        "columns each side of the centre (the spawn) with no chest"
    ),
    int!(
        evil.min,
        0,
        16,
        1,
        "fewest evil biomes (corrupt grass, ebonstone, chasms) a world gets"
    ),
    int!(evil.max, 0, 16, 1, "most evil biomes a world gets (0 = none)", at_least: Some("evil.min")),
    int!(
        evil.width,
        20,
        4096,
        10,
        "width of one, columns (each within 25% of it)"
    ),
    int!(
        evil.chasms,
        0,
        16,
        1,
        "chasms down into the cavern layer in one"
    ),
    int!(
        evil.below_cavern,
        0,
        1024,
        5,
        "how far a chasm reaches below the cavern layer's top, tiles"
    ),
    int!(evil.demonite, 0, 256, 1, "demonite veins in one"),
    toggle!(
        dungeon.enabled,
        "one dungeon near the ocean away from the jungle (false: none)"
    ),
    int!(
        dungeon.inland,
        0,
        4096,
        5,
        "columns between the shore and the dungeon's entrance"
    ),
    int!(
        dungeon.segments,
        1,
        64,
        1,
        "corridors and shafts laid from the entrance down"
    ),
    float!(
        dungeon.spikes,
        0,
        1,
        0.05,
        "chance that a corridor has a bed of spikes"
    ),
    int!(
        dungeon.chests,
        0,
        32,
        1,
        "locked chests in rooms off the corridors"
    ),
    int!(
        islands.min,
        0,
        32,
        1,
        "fewest floating islands a world gets"
    ),
    int!(islands.max, 0, 32, 1, "most floating islands a world gets (0 = none)", at_least: Some("islands.min")),
    int!(
        islands.width,
        12,
        512,
        2,
        "width of one, columns (each within 25% of it)"
    ),
    int!(
        islands.clearance,
        10,
        1024,
        5,
        "rows of clear sky between an island and the ground under it"
    ),
    float!(
        cabins.per_million,
        0,
        50,
        0.5,
        "cabins tried per million tiles of the underground and cavern layers (0 = none)"
    ),
    float!(
        crystals.per_large,
        0,
        500,
        5.0,
        "life crystals in a world of Terraria's Large size, scaled by area (0 = none)"
    ),
    toggle!(
        marble.enabled,
        "lay marble caves in the caverns (false: none)"
    ),
    float!(
        marble.per_4200,
        0,
        64,
        0.5,
        "marble caves in the caverns per 4200 columns"
    ),
    float!(
        marble.size,
        2,
        256,
        1.0,
        "half the width of one, tiles (a third either way)"
    ),
    toggle!(
        granite.enabled,
        "lay granite caves in the caverns (false: none)"
    ),
    float!(
        granite.per_4200,
        0,
        64,
        0.5,
        "granite caves in the caverns per 4200 columns"
    ),
    float!(
        granite.size,
        2,
        256,
        1.0,
        "half the width of one, tiles (a third either way)"
    ),
    toggle!(
        mushrooms.enabled,
        "lay glowing mushroom biomes in the caverns (at least one) (false: none)"
    ),
    float!(
        mushrooms.per_4200,
        0,
        64,
        0.5,
        "glowing mushroom biomes in the caverns (at least one) per 4200 columns"
    ),
    float!(
        mushrooms.size,
        2,
        256,
        1.0,
        "half the width of one, tiles (a third either way)"
    ),
    toggle!(hives.enabled, "lay bee hives in the jungle (false: none)"),
    float!(
        hives.per_4200,
        0,
        64,
        0.5,
        "bee hives in the jungle per 4200 columns"
    ),
    float!(
        hives.size,
        2,
        128,
        1.0,
        "half the width of one, tiles (a third either way)"
    ),
    toggle!(
        spiders.enabled,
        "lay spider caves in the caverns (false: none)"
    ),
    float!(
        spiders.per_4200,
        0,
        64,
        0.5,
        "spider caves in the caverns per 4200 columns"
    ),
    float!(
        spiders.size,
        2,
        256,
        1.0,
        "half the width of one, tiles (a third either way)"
    ),
    toggle!(
        ruins.enabled,
        "lay ruined obsidian houses and towers in the underworld (false: none)"
    ),
    float!(
        ruins.per_4200,
        0,
        64,
        0.5,
        "ruined obsidian houses and towers in the underworld per 4200 columns"
    ),
    float!(
        ruins.size,
        2,
        32,
        1.0,
        "half the width of one, tiles (a third either way)"
    ),
    toggle!(
        hellstone.enabled,
        "hellstone beside the underworld's lava (false: none)"
    ),
    float!(
        hellstone.chance,
        0,
        1,
        0.01,
        "share of the underworld's rock near lava that is hellstone"
    ),
    int!(hellstone.reach, 1, 8, 1, "tiles from the lava"),
    toggle!(
        gems.enabled,
        "gems in the stone, rarer kinds deeper (false: none)"
    ),
    float!(
        gems.per_million,
        0,
        2000,
        5.0,
        "gem clusters per million tiles of the underground and cavern layers"
    ),
    toggle!(
        deposits.enabled,
        "clay near the surface, silt in the caverns (false: none)"
    ),
    float!(deposits.clay, 0, 100, 0.5, "clay blobs per 100 columns"),
    float!(
        deposits.silt,
        0,
        1000,
        5.0,
        "silt blobs per million tiles of the cavern layer"
    ),
];

fn tile_of(v: f64) -> Option<Tile> {
    Tile::from_u8(v.round().clamp(0.0, 255.0) as u8)
}

/// The field at `path` (`caves.fill`, `ores.table[].threshold`).
pub fn field(path: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.path == path)
}

impl Field {
    /// The section it belongs to (`caves`), `""` for top-level fields.
    pub fn section(&self) -> &'static str {
        self.path.split_once('.').map_or("", |(s, _)| s)
    }

    /// Its name within its section or list entry (`fill`, `threshold`).
    pub fn name(&self) -> &'static str {
        self.path.rsplit('.').next().unwrap_or(self.path)
    }

    /// The list it is a field of the entries of (`ores.table`), if any.
    pub fn list(&self) -> Option<&'static str> {
        self.path.split_once("[]").map(|(l, _)| l)
    }

    /// The path of this field of list entry `i` (`ores.table[2].threshold`), or the path.
    pub fn path_at(&self, i: usize) -> String {
        self.path.replacen("[]", &format!("[{i}]"), 1)
    }

    /// Whether it is a number with a range (float or whole number).
    pub fn is_number(&self) -> bool {
        matches!(self.kind, Kind::Float | Kind::Int)
    }

    /// The allowed range `(min, max)` in `preset`, `at_least` applied.
    pub fn bounds(&self, preset: &Preset) -> (f64, f64) {
        let lo = self
            .at_least
            .and_then(field)
            .and_then(|f| (f.get)(preset, 0))
            .map_or(self.min, |v| v.max(self.min));
        let hi = self
            .at_most
            .and_then(|(other, plus)| Some((field(other)?.get)(preset, 0)? + plus))
            .map_or(self.max, |v| v.min(self.max));
        (lo, hi)
    }

    /// The range in words as errors give it (`[0, 1]`, `(0, 1]`, `1..=16`), with the
    /// `at_least` field's value in `preset`.
    pub fn range_in(&self, preset: &Preset) -> String {
        let (lo, hi) = self.bounds(preset);
        let words = self.range_words(&lo.to_string(), hi);
        match self.at_most {
            Some((other, plus)) if hi < self.max => format!("{words} (at most {other} + {plus})"),
            _ => words,
        }
    }

    /// The range in words as the shipped presets' comments give it, naming the
    /// `at_least` field (`[ceiling, 1]`, `min_height..=64`).
    pub fn range_doc(&self) -> String {
        match self.kind {
            Kind::Choice(names) => names.join(" or "),
            Kind::Bool => "true or false".into(),
            Kind::Tile => "a solid tile".into(),
            _ => {
                let short = |path: &'static str| path.rsplit('.').next().unwrap_or(path);
                let lo = self
                    .at_least
                    .map_or(self.min.to_string(), |o| short(o).into());
                match self.at_most {
                    Some((other, plus)) => format!("{lo}..={}+{plus}", short(other)),
                    None => self.range_words(&lo, self.max),
                }
            }
        }
    }

    fn range_words(&self, lo: &str, hi: f64) -> String {
        match self.kind {
            Kind::Int => format!("{lo}..={hi}"),
            _ => {
                let open = if self.open_min { "(" } else { "[" };
                format!("{open}{lo}, {hi}]")
            }
        }
    }

    /// Whether `v` is allowed in `preset`.
    pub fn allows(&self, preset: &Preset, v: f64) -> bool {
        let (lo, hi) = self.bounds(preset);
        let above = if self.open_min { v > lo } else { v >= lo };
        v.is_finite() && above && v <= hi
    }

    /// Checks the field (of list entry `i`) against its range; an unset optional field
    /// and a missing entry pass.
    pub fn check(&self, preset: &Preset, i: usize) -> Result<(), RangeError> {
        match (self.get)(preset, i) {
            Some(v) if self.is_number() && !self.allows(preset, v) => Err(RangeError {
                field: self.path_at(i),
                value: match self.kind {
                    Kind::Int => format!("{}", v as u64),
                    _ => super::short_float(v),
                },
                allowed: self.range_in(preset),
            }),
            _ => Ok(()),
        }
    }

    /// The value clamped into the range and rounded to the kind (whole numbers, an
    /// existing choice), for a slider or a typed value.
    pub fn fit(&self, preset: &Preset, v: f64) -> f64 {
        let (lo, hi) = self.bounds(preset);
        let v = if v.is_finite() { v } else { lo };
        match self.kind {
            Kind::Float => {
                let v = v.clamp(lo, hi);
                if self.open_min && v <= lo {
                    lo + self.step.min((hi - lo) / 2.0)
                } else {
                    v
                }
            }
            _ => v.round().clamp(lo.ceil(), hi.floor()),
        }
    }
}

/// Checks every field of the table that `preset` has: top-level and section fields, and
/// the fields of every list entry.
pub fn check_all(preset: &Preset) -> Result<(), RangeError> {
    for f in FIELDS {
        match f.list() {
            None => f.check(preset, 0)?,
            Some(_) => {
                for i in 0..entries(preset, f) {
                    f.check(preset, i)?;
                }
            }
        }
    }
    Ok(())
}

/// How many entries the list holding `f` has in `preset` (1 for a field of no list).
pub fn entries(preset: &Preset, f: &Field) -> usize {
    match f.list() {
        Some("ores.table") => preset.ores.table.len(),
        Some("biomes.spans") => preset.biomes.spans.len(),
        Some("lodes.table") => preset.lodes.table.len(),
        Some(_) => 0,
        None => 1,
    }
}

#[cfg(test)]
mod tests;
