//! Generation presets: the RON files under `config/presets/`.
//!
//! Every field has a default (`Preset::default()` equals `config/presets/default.ron`),
//! unknown fields are rejected, and [`Preset::validate`] checks every number against a
//! documented range before any generation, so a bad preset is an error message, never a
//! panic, a hang or a huge allocation. [`parse`] is pure; [`load`] adds the file.

use crate::base::depth::Layer;
pub use crate::base::noise::Basis;
use crate::base::tile::Tile;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// Largest world width a preset (or `--size`) may ask for.
pub const MAX_WIDTH: u32 = 16_384;
/// Largest world height a preset (or `--size`) may ask for.
pub const MAX_HEIGHT: u32 = 4_096;
/// Smallest width and height.
pub const MIN_SIDE: u32 = 8;
/// Most fBm octaves.
pub const MAX_OCTAVES: u32 = 16;
/// Most cave automaton iterations.
pub const MAX_ITERATIONS: u32 = 64;
/// Most tiles per cave automaton cell, along each axis.
pub const MAX_CAVE_SCALE: u32 = 4;
/// Most rows of water in one pool.
pub const MAX_POOL_DEPTH: u32 = 64;
/// Most entries in the ore table (each with separate veins a noise field sampled over
/// its layers: sixteen rows at threshold -1 took the ores pass to 15 times the default
/// preset's whole world).
pub const MAX_ORES: usize = 8;
/// Highest ore noise frequency: lattice cells of eight tiles or more (a group of samples
/// the pass takes at once). The pass's work per tile grows with the frequency (each
/// lattice cell's corners are hashed and its terms laid out per field and band of rows),
/// so with every ore row at threshold -1 a frequency of 1 made the pass 80 times the
/// default preset's whole world.
pub const MAX_ORE_FREQUENCY: f64 = 0.125;
/// Most long tunnels per million tiles, and most steps of one: the tunnels pass walks and
/// carves every step (a disc each, however small its radius), so its work is their
/// product; at these bounds 60 000 steps per million tiles, about five times the shipped
/// presets' (14 x 800).
pub const MAX_WORMS: f64 = 40.0;
pub const MAX_TUNNEL_LENGTH: u32 = 1500;
/// Most cave mouths per 1000 columns (each walks up to 4000 steps down).
pub const MAX_MOUTHS: f64 = 20.0;
/// Largest preset file read.
pub const MAX_FILE_BYTES: u64 = 256 * 1024;

/// A complete description of how to generate a world (everything but the seed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Preset {
    /// Name shown in the game; defaults to the file name.
    pub name: String,
    /// World width in tiles.
    pub width: u32,
    /// World height in tiles.
    pub height: u32,
    pub surface: SurfaceParams,
    pub layers: LayerParams,
    pub caves: CaveParams,
    pub tunnels: TunnelParams,
    pub underworld: UnderworldParams,
    pub ores: OreParams,
    pub lodes: LodeParams,
    pub water: WaterParams,
    pub lava: LavaParams,
    pub grass: GrassParams,
    pub ocean: OceanParams,
    pub biomes: BiomeParams,
    pub lakes: LakeParams,
    pub trees: TreeParams,
    pub chests: ChestParams,
    pub evil: EvilParams,
    pub dungeon: DungeonParams,
    pub islands: IslandParams,
    pub cabins: CabinParams,
    pub crystals: CrystalParams,
    pub marble: MarbleParams,
    pub granite: GraniteParams,
    pub mushrooms: MushroomParams,
    pub hives: HiveParams,
    pub spiders: SpiderParams,
    pub ruins: RuinParams,
    pub hellstone: HellstoneParams,
    pub gems: GemParams,
    pub deposits: DepositParams,
}

/// The surface pass: fBm of 1D Perlin noise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SurfaceParams {
    /// Mean surface row as a fraction of the height from the top.
    pub base_height: f64,
    /// Largest deviation from the base, in tiles.
    pub amplitude: f64,
    /// Noise frequency in cycles per tile of the first octave.
    pub frequency: f64,
    /// The noise the fBm is made of.
    pub basis: Basis,
    pub octaves: u32,
    /// Amplitude factor from one octave to the next.
    pub persistence: f64,
    /// Frequency factor from one octave to the next.
    pub lacunarity: f64,
    /// Largest deviation added by a slow second fBm (mountains and valleys hundreds of
    /// columns across), in tiles. 0 turns it off.
    pub relief: f64,
    /// Frequency of that relief, cycles per tile.
    pub relief_frequency: f64,
    /// The noise the relief is made of.
    pub relief_basis: Basis,
    /// Height of one terrace step, in tiles: where slow noise says so, the ground is
    /// pulled into flat plateaus joined by steep risers (cliffs). 0 turns it off.
    pub terrace_height: f64,
    /// How sharp the risers are: 1 leaves the slope as it was, 16 makes near-vertical
    /// cliffs between level shelves.
    pub terrace_sharpness: f64,
    /// The noise that says where the ground is terraced.
    pub terrace_basis: Basis,
}

/// How the dirt band's depth varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Jitter {
    /// Every tile draws its own extra depth: a speckled dirt/stone boundary.
    PerTile,
    /// Every column draws one extra depth: a clean, stepped boundary.
    PerColumn,
}

/// The layers pass: dirt near the surface, stone below.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LayerParams {
    /// Dirt band depth below the surface, in tiles.
    pub dirt_depth: u32,
    /// Extra random depth, 0 to this many tiles (inclusive).
    pub dirt_jitter: u32,
    pub jitter: Jitter,
    /// Where the underground layer begins, as a share of the height from the top (ground
    /// above it is the surface layer).
    pub underground: f64,
    /// Where the cavern layer begins, as a share of the height from the top.
    pub cavern: f64,
    /// Where the underworld begins, as a share of the height from the top.
    pub underworld: f64,
    /// Largest extra depth of the dirt/stone line, in tiles: slow 1D noise moves it between
    /// `dirt_depth` and `dirt_depth + wander` below the surface. 0 keeps it level.
    pub wander: u32,
    /// Frequency of that noise, cycles per tile.
    pub wander_frequency: f64,
    /// The noise that moves it.
    pub wander_basis: Basis,
    /// Blobs of stone in the dirt and of dirt in the stone, per 100 columns. 0: none.
    pub blobs: f64,
}

/// The caves pass: random fill, then a Moore-neighbourhood cellular automaton.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CaveParams {
    /// Chance that a cell below the margin starts as wall.
    pub fill: f64,
    /// Largest change of `fill` by low-frequency noise: regions of open caverns and of
    /// solid rock instead of one even texture. 0 turns it off.
    pub fill_variation: f64,
    /// Frequency of that noise, cycles per tile.
    pub fill_frequency: f64,
    /// The noise of that variation.
    pub fill_basis: Basis,
    /// Rows below the surface that start as solid wall.
    pub margin: u32,
    /// Synchronous automaton steps.
    pub iterations: u32,
    /// A cell with more than this many of its 8 neighbours walls becomes wall.
    pub wall_above: u32,
    /// A cell with fewer than this many of its 8 neighbours walls becomes open.
    pub open_below: u32,
    /// Tiles per automaton cell along each axis: the fill and the `iterations` steps run
    /// on cells of `scale` x `scale` tiles, so caves come out `scale` times larger.
    pub scale: u32,
    /// Automaton steps at tile scale after the cells are scaled up to tiles: they round
    /// off the cells' square corners.
    pub smoothing: u32,
    /// Added to `fill` above the cavern layer: near the surface, small holes only.
    pub shallow: f64,
    /// Taken off `fill` from the top of the cavern layer down to the underworld (linearly):
    /// caverns grow larger and more open with depth.
    pub deepening: f64,
    /// From the cavern layer down, open bodies smaller than this many tiles (once the
    /// automaton has run) are walled up again: the caverns left join into networks. 0
    /// keeps them all.
    pub min_cavern: u32,
    /// Frequency of the cave style field, cycles per tile: slow noise that sorts the
    /// caves into regions of open caverns, winding passages and dense pockets.
    pub style_frequency: f64,
    /// Taken off `fill` where the style field says open caverns.
    pub style_open: f64,
    /// Added to `fill` where it says dense pockets.
    pub style_dense: f64,
    /// Automaton steps where it says winding passages (fewer than `iterations` leave them
    /// rough and narrow; `iterations` or more: no passages' regions).
    pub style_passages: u32,
    /// Taken off `fill` in the biomes, for their own caves in place of the style's
    /// regions: the jungle's open caverns, the snow's ice caves (0.8 of it) and the
    /// underground desert's wide cavern (1.3 times it).
    pub biome_caves: f64,
}

/// The tunnels pass: long worm tunnels joining the caverns, and mouths from the surface.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TunnelParams {
    /// Long tunnels per million tiles between the top of the underground layer and the
    /// underworld. 0: none.
    pub worms: f64,
    /// Steps (about a tile each) of one long tunnel.
    pub length: u32,
    /// Radius of a long tunnel at the top of the underground layer, in tiles.
    pub radius_top: f64,
    /// Radius of a long tunnel at the underworld, in tiles.
    pub radius_deep: f64,
    /// How much long tunnels keep to the horizontal: 0 any way, 1 level.
    pub flatness: f64,
    /// Tunnels from the surface down into the caves, per 1000 columns. 0: none.
    pub mouths: f64,
    /// Radius of those, in tiles (2 or more lets the player through).
    pub mouth_radius: f64,
    /// Columns each side of the world's centre (the spawn point) where no mouth opens.
    pub spawn_clear: u32,
    /// The noise a long tunnel's heading and width wander by.
    pub basis: Basis,
    /// How far a long tunnel's heading swings, times the plain swing (1): higher winds
    /// it more.
    pub meander: f64,
    /// How much a long tunnel's radius swells and narrows along its length: 0 keeps it,
    /// 0.9 takes it from a tenth to nearly twice the radius.
    pub swell: f64,
}

/// The underworld pass: ash, a wide open band and a solid floor at the bottom of the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UnderworldParams {
    /// Lay the underworld below `layers.underworld`. false: those rows stay as the passes
    /// above left them.
    pub enabled: bool,
    /// Mean depth of the open band's ceiling, as a share of the underworld's height.
    pub ceiling: f64,
    /// Mean depth of its floor, as a share of the underworld's height.
    pub floor: f64,
    /// Largest swing of the ceiling, the floor and the underworld's top edge, in tiles.
    pub roughness: f64,
    /// The noise they swing by.
    pub basis: Basis,
}

/// The lava pass: pools in the lower cavern layer, lakes on the underworld's floor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LavaParams {
    /// Chance that a 64x64-tile block of the lower cavern layer holds a lava pool. 0: none.
    pub pools: f64,
    /// Where pools begin: this share of the way down from the cavern layer's top to the
    /// underworld.
    pub from: f64,
    /// Most rows of lava in one pool.
    pub max_depth: u32,
    /// Widest row of lava in one pool, in tiles.
    pub max_width: u32,
    /// Most rows of the lava lakes on the underworld's floor. 0: no lakes.
    pub lake_depth: u32,
}

/// One row of the ore table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ore {
    pub tile: Tile,
    /// Ore where the noise is above this (at the top of the ore's layers).
    pub threshold: f64,
    /// Ore only deeper than this many tiles below the local surface.
    pub min_depth: u32,
    /// The first depth layer the ore is found in (from its top row).
    #[serde(default = "first_layer")]
    pub from: Layer,
    /// The last depth layer the ore is found in (to its bottom row).
    #[serde(default = "last_layer")]
    pub to: Layer,
    /// The threshold at the bottom of `to`, reached linearly from `threshold` at the top of
    /// `from`: lower is denser, so the ore grows richer with depth. Unset: `threshold`
    /// throughout.
    #[serde(default)]
    pub deep_threshold: Option<f64>,
}

fn first_layer() -> Layer {
    Layer::Surface
}

fn last_layer() -> Layer {
    Layer::Underworld
}

impl Ore {
    /// An ore at one threshold at every depth deeper than `min_depth`.
    pub fn everywhere(tile: Tile, threshold: f64, min_depth: u32) -> Ore {
        Ore {
            tile,
            threshold,
            min_depth,
            from: first_layer(),
            to: last_layer(),
            deep_threshold: None,
        }
    }

    /// An ore found from the top of layer `from` to the bottom of layer `to`, its
    /// threshold going from `threshold` to `deep`.
    pub fn layered(tile: Tile, (from, to): (Layer, Layer), threshold: f64, deep: f64) -> Ore {
        Ore {
            tile,
            threshold,
            min_depth: 4,
            from,
            to,
            deep_threshold: Some(deep),
        }
    }
}

/// The ores pass: 2D Perlin noise against a table checked in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OreParams {
    pub frequency: f64,
    /// The noise the ore fields are made of.
    pub basis: Basis,
    pub table: Vec<Ore>,
    pub veins: Veins,
}

/// Which noise each row of the ore table reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Veins {
    /// One noise field for the whole table: a rarer ore (higher threshold) sits inside
    /// the next commoner one, in rings around the noise's peaks.
    Shared,
    /// A noise field of its own for each row: veins of different ores lie independently,
    /// and where two overlap the row listed first wins.
    Separate,
}

/// Which dirt grows grass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GrassMode {
    /// Any dirt with air directly above, cave floors included.
    Exposed,
    /// Only dirt whose whole column above is open sky, as in Terraria.
    SkyLit,
}

/// The water pass: still pools on cave floors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WaterParams {
    /// Chance that a 64x64-tile block of the world holds a pool (if its spot is in a
    /// cave). 0 turns the pass off.
    pub pools: f64,
    /// Most rows of water in one pool.
    pub max_depth: u32,
    /// Widest row of water in one pool, in tiles.
    pub max_width: u32,
}

/// The grass pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GrassParams {
    pub mode: GrassMode,
}

impl Default for Preset {
    fn default() -> Self {
        Preset {
            name: "Default".into(),
            width: 6400,
            height: 1800,
            surface: SurfaceParams::default(),
            layers: LayerParams::default(),
            caves: CaveParams::default(),
            tunnels: TunnelParams::default(),
            underworld: UnderworldParams::default(),
            ores: OreParams::default(),
            lodes: LodeParams::default(),
            water: WaterParams::default(),
            lava: LavaParams::default(),
            grass: GrassParams::default(),
            ocean: OceanParams::default(),
            biomes: BiomeParams::default(),
            lakes: LakeParams::default(),
            trees: TreeParams::default(),
            chests: ChestParams::default(),
            evil: EvilParams::default(),
            dungeon: DungeonParams::default(),
            islands: IslandParams::default(),
            cabins: CabinParams::default(),
            crystals: CrystalParams::default(),
            marble: MarbleParams::default(),
            granite: GraniteParams::default(),
            mushrooms: MushroomParams::default(),
            hives: HiveParams::default(),
            spiders: SpiderParams::default(),
            ruins: RuinParams::default(),
            hellstone: HellstoneParams::default(),
            gems: GemParams::default(),
            deposits: DepositParams::default(),
        }
    }
}

impl Default for SurfaceParams {
    fn default() -> Self {
        SurfaceParams {
            base_height: 0.3,
            amplitude: 64.0,
            frequency: 0.003,
            basis: Basis::Perlin,
            octaves: 6,
            persistence: 0.5,
            lacunarity: 2.0,
            relief: 150.0,
            relief_frequency: 0.0016,
            relief_basis: Basis::Perlin,
            terrace_height: 5.0,
            terrace_sharpness: 16.0,
            terrace_basis: Basis::Perlin,
        }
    }
}

impl Default for LayerParams {
    fn default() -> Self {
        LayerParams {
            dirt_depth: 22,
            dirt_jitter: 6,
            jitter: Jitter::PerTile,
            underground: 0.35,
            cavern: 0.45,
            underworld: 0.92,
            wander: 80,
            wander_frequency: 0.004,
            wander_basis: Basis::Perlin,
            blobs: 8.0,
        }
    }
}

impl Default for CaveParams {
    fn default() -> Self {
        CaveParams {
            fill: 0.54,
            fill_variation: 0.03,
            fill_frequency: 0.005,
            fill_basis: Basis::Perlin,
            margin: 12,
            iterations: 6,
            wall_above: 4,
            open_below: 4,
            scale: 2,
            smoothing: 2,
            shallow: 0.08,
            deepening: 0.06,
            min_cavern: 6000,
            style_frequency: 0.0025,
            style_open: 0.04,
            style_dense: 0.03,
            style_passages: 2,
            biome_caves: 0.04,
        }
    }
}

impl Default for TunnelParams {
    fn default() -> Self {
        TunnelParams {
            worms: 14.0,
            length: 800,
            radius_top: 1.5,
            radius_deep: 3.5,
            flatness: 0.6,
            mouths: 3.5,
            mouth_radius: 2.4,
            spawn_clear: 60,
            basis: Basis::Perlin,
            meander: 1.6,
            swell: 0.85,
        }
    }
}

impl Default for UnderworldParams {
    fn default() -> Self {
        UnderworldParams {
            enabled: true,
            ceiling: 0.3,
            floor: 0.75,
            roughness: 20.0,
            basis: Basis::Perlin,
        }
    }
}

impl Default for LavaParams {
    fn default() -> Self {
        LavaParams {
            pools: 0.3,
            from: 0.5,
            max_depth: 5,
            max_width: 40,
            lake_depth: 12,
        }
    }
}

impl Default for OreParams {
    fn default() -> Self {
        use Layer::*;
        OreParams {
            frequency: 0.09,
            basis: Basis::Perlin,
            // Copper to gold and their twins are the lodes pass's veins.
            table: vec![
                Ore::layered(Tile::Hellstone, (Underworld, Underworld), 0.6, 0.52),
                Ore::layered(Tile::DiamondOre, (Cavern, Cavern), 0.82, 0.7),
            ],
            veins: Veins::Separate,
        }
    }
}

impl Default for WaterParams {
    fn default() -> Self {
        WaterParams {
            pools: 0.4,
            max_depth: 6,
            max_width: 40,
        }
    }
}

impl Default for GrassParams {
    fn default() -> Self {
        GrassParams {
            mode: GrassMode::SkyLit,
        }
    }
}

/// Why a preset was refused.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetError {
    /// The file (or other source) the text came from.
    pub source: String,
    /// 1-based line and column, where known.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, col)) => write!(f, "{}:{}:{}: {}", self.source, line, col, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

impl std::error::Error for PresetError {}

/// Parses and validates preset text. `source` names it in errors (usually the path).
/// A UTF-8 byte-order mark before the text is skipped.
pub fn parse(text: &str, source: &str) -> Result<Preset, PresetError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let preset: Preset = ron::Options::default().from_str(text).map_err(|e| {
        let (line, col) = (e.span.start.line, e.span.start.col);
        PresetError {
            source: source.to_string(),
            position: Some((line, col)),
            message: explain::explain(text, line, col, &e.code.to_string()),
        }
    })?;
    preset.validate().map_err(|v| PresetError {
        source: source.to_string(),
        position: locate_field(text, &v.field),
        message: v.to_string(),
    })?;
    Ok(preset)
}

/// The `*.ron` files in `dir`, sorted by path; empty if the folder cannot be read.
pub fn files_in(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "ron") && p.is_file())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Reads, parses and validates a preset file. A missing `name` becomes the file stem.
pub fn load(path: &Path) -> Result<Preset, PresetError> {
    let source = path.display().to_string();
    let bytes = crate::base::fsio::read_bounded(path, MAX_FILE_BYTES).map_err(|e| PresetError {
        source: source.clone(),
        position: None,
        message: match e {
            crate::base::fsio::ReadError::TooLarge(limit) => {
                format!("the file is larger than {limit} bytes, the most a preset may be")
            }
            e => e.to_string(),
        },
    })?;
    let text = String::from_utf8(bytes).map_err(|e| PresetError {
        source: source.clone(),
        position: None,
        message: format!("not UTF-8 text ({e})"),
    })?;
    let mut preset = parse(&text, &source)?;
    if let Some(stem) = path
        .file_stem()
        .filter(|_| !text_names_field(&text, "name"))
    {
        preset.name = stem.to_string_lossy().into_owned();
    }
    Ok(preset)
}

/// A value outside its allowed range.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeError {
    /// Dotted path of the field, e.g. `caves.fill` or `ores.table[1].threshold`.
    pub field: String,
    /// The offending value as written.
    pub value: String,
    /// The allowed range, in words.
    pub allowed: String,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {} is out of range: allowed {}",
            self.field, self.value, self.allowed
        )
    }
}

/// A float as written in messages: plain, or in exponent form when plain would be long
/// (`1e308`, not 309 digits).
fn short_float(v: f64) -> String {
    let plain = v.to_string();
    if plain.len() > 16 {
        format!("{v:e}")
    } else {
        plain
    }
}

/// Checks a world size against the documented limits (also used for `--size`).
pub fn check_size(width: u32, height: u32) -> Result<(), RangeError> {
    let size = Preset {
        width,
        height,
        ..Preset::default()
    };
    for path in ["width", "height"] {
        field(path).map_or(Ok(()), |f| f.check(&size, 0))?;
    }
    Ok(())
}

impl Preset {
    /// This preset with every landmark pass off (no dungeon, evil biomes, islands or
    /// cabins): what tests of the other passes look at.
    pub fn without_landmarks(mut self) -> Preset {
        self.evil.min = 0;
        self.evil.max = 0;
        self.dungeon.enabled = false;
        self.islands.min = 0;
        self.islands.max = 0;
        self.cabins.per_million = 0.0;
        self
    }

    /// Checks every field against its range in [`FIELDS`], then the rules between fields
    /// (the ore table's tiles and layers, the biome spans).
    pub fn validate(&self) -> Result<(), RangeError> {
        fields::check_all(self)?;
        if self.ores.table.len() > MAX_ORES {
            return Err(RangeError {
                field: "ores.table".into(),
                value: format!("{} entries", self.ores.table.len()),
                allowed: format!("at most {MAX_ORES} entries"),
            });
        }
        for (i, ore) in self.ores.table.iter().enumerate() {
            if !ore.tile.is_solid() {
                return Err(RangeError {
                    field: format!("ores.table[{i}].tile"),
                    value: format!("{:?}", ore.tile),
                    allowed: "a solid tile (Stone, CopperOre, IronOre, SilverOre, GoldOre, DiamondOre, Hellstone, ...)"
                        .into(),
                });
            }
            check_layers(&format!("ores.table[{i}].to"), ore.from, ore.to)?;
        }
        land::validate(self)?;
        lodes::validate(&self.lodes)?;
        Ok(())
    }
}

/// Refuses a list entry's layers `from` to `to` (the field `to` names) unless both are
/// below the sky and `to` is at or below `from`.
fn check_layers(to_field: &str, from: Layer, to: Layer) -> Result<(), RangeError> {
    if from == Layer::Sky || to == Layer::Sky || to < from {
        return Err(RangeError {
            field: to_field.into(),
            value: format!("{to:?}"),
            allowed: format!(
                "a layer from Surface, Underground, Cavern, Underworld, at or below from ({from:?})"
            ),
        });
    }
    Ok(())
}

pub mod fields;
pub use fields::{FIELDS, Field, Kind, field};
mod chests;
mod land;
mod lodes;
pub use chests::ChestParams;
pub use land::*;
pub use lodes::{Lode, LodeParams, MAX_LODE_DENSITY, MAX_LODE_SIZE, MAX_LODE_STEPS, MAX_LODES};
mod landmarks;
pub use landmarks::{CabinParams, CrystalParams, DungeonParams, EvilParams, IslandParams};
mod minibiomes;
pub use minibiomes::{
    DepositParams, GemParams, GraniteParams, HellstoneParams, HiveParams, MarbleParams,
    MushroomParams, RuinParams, SpiderParams,
};
mod write;
pub use write::{file_stem, save_in, to_ron};
mod builtin;
mod explain;
pub use builtin::{BUILTIN, builtin, builtin_key, builtin_names};
mod locate;
pub use locate::locate_field;
use locate::text_names_field;

#[cfg(test)]
mod tests;
