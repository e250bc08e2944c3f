//! Items: what the inventory holds, what pickaxes can mine and what can be crafted.
//!
//! The data lives in `config/items.ron` and `config/recipes.ron`, compiled into the binary
//! and checked by [`Catalog::parse`] (errors name the file, line:col, the field and its
//! allowed range, as the presets' do). [`Catalog::builtin`] is the checked data; a
//! session carries its catalog in its [`crate::content::config::Content`].
//!
//! Rules (pure functions, tested beside this file):
//! - a tile needs a pickaxe of at least [`Catalog::power_needed`] to be mined: solid tiles
//!   need any pickaxe, deeper ores the pickaxe made from the ore above them; trees,
//!   torches, doors and furniture need none ([`mine_time`]);
//! - a pickaxe divides a tile's dig time by its speed;
//! - a wall needs a hammer of at least its power ([`crate::base::wall::WallInfo::power`])
//!   to come down, the hammer dividing its time by its speed ([`hammer_time`]); a placed
//!   wall gives back the item that places it ([`Catalog::wall_item`]), a natural one
//!   nothing;
//! - a recipe needs its ingredients carried and its station within [`CRAFT_RANGE`] tiles
//!   ([`crate::sim::craft`]): the ingredients are taken and the result added, or nothing changes.

use crate::base::tile::Tile;
use crate::base::wall::Wall;
use crate::content::preset::{PresetError, RangeError, locate_field};
use serde::Deserialize;

/// `config/items.ron`, as compiled in.
pub const ITEMS_RON: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/config/items.ron"));
/// `config/recipes.ron`, as compiled in.
pub const RECIPES_RON: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/config/recipes.ron"));

/// How far from the player's body a crafting station may be, in tiles.
pub const CRAFT_RANGE: i64 = 4;
/// Longest item name (a save stores its length in a byte).
pub const MAX_NAME: usize = 32;
/// Most items and most recipes the files may hold.
pub const MAX_ENTRIES: usize = 1024;

/// Slots in one chest: three rows of nine, as wide as the inventory.
pub const CHEST_SLOTS: usize = 27;
/// The pickaxe a new player is given (`config/items.ron` must have it, as a Pickaxe).
pub const START_PICKAXE: &str = "copper_pickaxe";
/// The sword a new player is given (`config/items.ron` must have it, as a Sword).
pub const START_SWORD: &str = "copper_sword";

/// An item: its index in [`Catalog::items`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId(pub u16);

/// What an item does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Places this tile.
    Block(Tile),
    /// Places this background wall.
    Wall(Wall),
    /// Takes down walls that need at most `power`, `speed` times as fast as their time.
    Hammer { power: u32, speed: f32 },
    /// Crafted from and into other items.
    Material,
    /// Digs tiles that need at most `power`, `speed` times as fast as by hand.
    Pickaxe { power: u32, speed: f32 },
    /// Hits creatures within `reach` tiles for `damage`, once every `cooldown` seconds.
    Sword {
        damage: u32,
        reach: f32,
        cooldown: f32,
    },
    /// Drunk (used) for `heal` health; no other potion for `sickness` seconds after.
    Potion { heal: u32, sickness: f32 },
    /// Worn on `slot` (a right click), for `defence`; `light` (0..=15, 0 for none) is a
    /// light at the wearer's head, as a mining helmet's.
    Armour {
        slot: ArmourSlot,
        defence: u32,
        light: u8,
    },
    /// Used up with the left button at night to call a boss (the Eye; see
    /// [`crate::sim::boss`]); by day it does nothing.
    Summon,
    /// Worn in one of the accessory slots (a right click, or a click on the slot) for its
    /// `effect` ([`Effect`]).
    Accessory { effect: Effect },
    /// Used with the left button for what `tool` does ([`Tool`]).
    Tool { tool: Tool },
    /// Thrusts straight toward the aim for `damage`, `reach` tiles long (longer than a
    /// sword's), once every `cooldown` seconds.
    Spear {
        damage: u32,
        reach: f32,
        cooldown: f32,
    },
    /// Shoots the first [`Kind::Ammo`] carried at `speed` tiles a second, adding
    /// `damage` to the arrow's, once every `cooldown` seconds ([`crate::sim::projectiles`]).
    Bow {
        damage: u32,
        speed: f32,
        cooldown: f32,
    },
    /// An arrow, used up by a bow: `damage` added to the bow's; `fire`: a flaming arrow.
    Ammo { damage: u32, fire: bool },
    /// A magic bolt for `mana` of the player's mana ([`crate::sim::mana`]), `damage`, at
    /// `speed` tiles a second, once every `cooldown` seconds.
    Staff {
        damage: u32,
        mana: u32,
        speed: f32,
        cooldown: f32,
    },
    /// Thrown and used up (a shuriken): `damage`, `speed` tiles a second.
    Thrown {
        damage: u32,
        speed: f32,
        cooldown: f32,
    },
    /// Thrown and used up; after `fuse` seconds it blows up: `damage` to every creature
    /// and player within `radius` tiles, and breaks the tiles there that a pickaxe of
    /// `power` could mine (never a town's house, [`crate::sim::projectiles`]).
    Explosive {
        damage: u32,
        radius: f32,
        fuse: f32,
        power: u32,
    },
}

/// What a tool does when used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Tool {
    /// A magic mirror: after a short channel the player is back at its spawn point (the
    /// bed it last used, else the world's).
    Mirror,
    /// An empty bucket: scoops a tile of water, lava or honey into a full one.
    EmptyBucket,
    /// A bucket of water, lava or honey: pours its tile into an empty one (the bucket
    /// comes back empty).
    WaterBucket,
    LavaBucket,
    HoneyBucket,
}

impl Tool {
    /// The liquid a full bucket holds.
    pub fn liquid(self) -> Option<Tile> {
        match self {
            Tool::WaterBucket => Some(Tile::Water),
            Tool::LavaBucket => Some(Tile::Lava),
            Tool::HoneyBucket => Some(Tile::Honey),
            Tool::Mirror | Tool::EmptyBucket => None,
        }
    }
}

/// What an accessory worn does (the numbers are the body's and the vitals' own:
/// [`crate::sim::player`], [`crate::sim::vitals`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Effect {
    /// Hermes boots: a faster top speed and acceleration on the ground.
    Run,
    /// A cloud in a bottle: a second jump in the air, once until the feet land.
    DoubleJump,
    /// A lucky horseshoe: no fall damage.
    NoFallDamage,
    /// A band of regeneration: health comes back even just after harm.
    Regeneration,
    /// A grappling hook: the hook key fires a line that catches a solid tile and pulls.
    Hook,
}

/// Where a piece of armour is worn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum ArmourSlot {
    Head,
    Body,
    Legs,
}

impl ArmourSlot {
    /// Every slot, in the order the inventory keeps them.
    pub const ALL: [ArmourSlot; 3] = [ArmourSlot::Head, ArmourSlot::Body, ArmourSlot::Legs];

    /// Its place in [`ArmourSlot::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One item kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub name: String,
    pub label: String,
    pub kind: Kind,
    /// Most of it one slot holds.
    pub stack: u32,
    /// Icon colour (blocks are drawn with their tile's art).
    pub color: [u8; 3],
}

/// One recipe.
#[derive(Clone, Debug, PartialEq)]
pub struct Recipe {
    pub make: ItemId,
    pub count: u32,
    pub from: Vec<(ItemId, u32)>,
    /// The station tile to stand near, if any.
    pub at: Option<Tile>,
}

/// Every item and recipe, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Catalog {
    pub items: Vec<Item>,
    pub recipes: Vec<Recipe>,
    /// The armour sets and their bonuses ([`sets::ArmourSet`]).
    pub sets: Vec<sets::ArmourSet>,
    block: [Option<ItemId>; Tile::COUNT],
    power: [u32; Tile::COUNT],
    wall: [Option<ItemId>; Wall::COUNT],
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct ItemsFile {
    #[serde(default)]
    pub(crate) mining: Vec<MiningRow>,
    pub(crate) items: Vec<ItemRow>,
    /// Armour sets' bonuses ([`sets`]); a mod's items file may leave them out.
    #[serde(default)]
    pub(crate) sets: Vec<sets::SetRow>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct MiningRow {
    pub(crate) tile: String,
    power: u32,
}

#[derive(Deserialize, Clone, Copy, Debug, PartialEq)]
pub(crate) enum KindName {
    Block,
    Wall,
    Material,
    Pickaxe,
    Hammer,
    Sword,
    Potion,
    Armour,
    Summon,
    Accessory,
    Tool,
    Spear,
    Bow,
    Ammo,
    Staff,
    Thrown,
    Explosive,
}

impl KindName {
    fn of(kind: &Kind) -> KindName {
        match kind {
            Kind::Block(_) => KindName::Block,
            Kind::Wall(_) => KindName::Wall,
            Kind::Material => KindName::Material,
            Kind::Pickaxe { .. } => KindName::Pickaxe,
            Kind::Hammer { .. } => KindName::Hammer,
            Kind::Sword { .. } => KindName::Sword,
            Kind::Potion { .. } => KindName::Potion,
            Kind::Armour { .. } => KindName::Armour,
            Kind::Summon => KindName::Summon,
            Kind::Accessory { .. } => KindName::Accessory,
            Kind::Tool { .. } => KindName::Tool,
            Kind::Spear { .. } => KindName::Spear,
            Kind::Bow { .. } => KindName::Bow,
            Kind::Ammo { .. } => KindName::Ammo,
            Kind::Staff { .. } => KindName::Staff,
            Kind::Thrown { .. } => KindName::Thrown,
            Kind::Explosive { .. } => KindName::Explosive,
        }
    }
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct ItemRow {
    pub(crate) name: String,
    label: String,
    kind: KindName,
    #[serde(default)]
    tile: Option<String>,
    #[serde(default)]
    wall: Option<String>,
    #[serde(default)]
    power: Option<u32>,
    #[serde(default)]
    speed: Option<f32>,
    #[serde(default)]
    damage: Option<u32>,
    #[serde(default)]
    reach: Option<f32>,
    #[serde(default)]
    cooldown: Option<f32>,
    #[serde(default)]
    heal: Option<u32>,
    #[serde(default)]
    sickness: Option<f32>,
    #[serde(default)]
    slot: Option<ArmourSlot>,
    #[serde(default)]
    defence: Option<u32>,
    #[serde(default)]
    light: Option<u32>,
    #[serde(default)]
    effect: Option<Effect>,
    #[serde(default)]
    tool: Option<Tool>,
    #[serde(default)]
    stack: Option<u32>,
    #[serde(default)]
    color: Option<(u8, u8, u8)>,
    #[serde(default)]
    mana: Option<u32>,
    #[serde(default)]
    fire: Option<bool>,
    #[serde(default)]
    radius: Option<f32>,
    #[serde(default)]
    fuse: Option<f32>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecipesFile {
    pub(crate) recipes: Vec<RecipeRow>,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecipeRow {
    pub(crate) make: String,
    #[serde(default = "one")]
    pub(crate) count: u32,
    pub(crate) from: Vec<(String, u32)>,
    #[serde(default)]
    pub(crate) at: Option<String>,
}

/// A field that is wrong: its path (`items[3].power`) and why.
pub(crate) struct Bad {
    pub(crate) field: String,
    pub(crate) message: String,
}

pub(crate) fn bad(field: impl Into<String>, message: impl Into<String>) -> Bad {
    Bad {
        field: field.into(),
        message: message.into(),
    }
}

pub(crate) fn range_u(field: String, v: u32, lo: u32, hi: u32) -> Result<u32, Bad> {
    if (lo..=hi).contains(&v) {
        return Ok(v);
    }
    let e = RangeError {
        value: v.to_string(),
        allowed: format!("{lo}..={hi}"),
        field: field.clone(),
    };
    Err(bad(field, e.to_string()))
}

pub(crate) fn range_f(field: String, v: f32, lo: f32, hi: f32) -> Result<f32, Bad> {
    if v.is_finite() && (lo..=hi).contains(&v) {
        return Ok(v);
    }
    let e = RangeError {
        value: v.to_string(),
        allowed: format!("[{lo}, {hi}]"),
        field: field.clone(),
    };
    Err(bad(field, e.to_string()))
}

pub(crate) fn need<T>(field: String, v: Option<T>, kind: &str) -> Result<T, Bad> {
    v.ok_or_else(|| {
        bad(
            field.clone(),
            format!("{field} is missing: every {kind} needs it"),
        )
    })
}

pub(crate) fn tile_named(field: String, name: &str) -> Result<Tile, Bad> {
    Tile::ALL
        .into_iter()
        .find(|t| t.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = Tile::ALL.iter().map(|t| t.name()).collect();
            bad(
                field.clone(),
                format!(
                    "{field} = {name:?} is not a tile: allowed {}",
                    names.join(", ")
                ),
            )
        })
}

fn wall_named(field: String, name: &str) -> Result<Wall, Bad> {
    Wall::named(name).filter(|w| w.is_some()).ok_or_else(|| {
        let names: Vec<&str> = Wall::ALL.iter().skip(1).map(|w| w.name()).collect();
        bad(
            field.clone(),
            format!(
                "{field} = {name:?} is not a wall: allowed {}",
                names.join(", ")
            ),
        )
    })
}

/// Parses RON text, with a syntax or type error placed at its line:col.
pub(crate) fn parse_ron<T: serde::de::DeserializeOwned>(
    text: &str,
    source: &str,
) -> Result<T, PresetError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .map_err(|e| PresetError {
            source: source.to_string(),
            position: Some((e.span.start.line, e.span.start.col)),
            message: e.code.to_string(),
        })
}

/// A [`Bad`] field as an error at its place in `text` (or the first of `fallback` found).
pub(crate) fn placed(text: &str, source: &str, b: Bad, fallback: &[String]) -> PresetError {
    let position = std::iter::once(&b.field)
        .chain(fallback)
        .find_map(|f| locate_field(text, f));
    PresetError {
        source: source.to_string(),
        position,
        message: b.message,
    }
}

/// Which of the catalog's two lists an error is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    Items,
    Recipes,
}

impl Catalog {
    /// The items and recipes compiled into the binary.
    pub fn builtin() -> Result<Catalog, PresetError> {
        Catalog::parse(
            ITEMS_RON,
            "config/items.ron",
            RECIPES_RON,
            "config/recipes.ron",
        )
    }

    /// Parses and checks items and recipes text; `*_source` name them in errors.
    pub fn parse(
        items: &str,
        items_source: &str,
        recipes: &str,
        recipes_source: &str,
    ) -> Result<Catalog, PresetError> {
        let file: ItemsFile = parse_ron(items, items_source)?;
        let rfile: RecipesFile = parse_ron(recipes, recipes_source)?;
        Catalog::from_files(&file, &rfile).map_err(|(which, b, fb)| match which {
            Which::Items => placed(items, items_source, b, &fb),
            Which::Recipes => placed(recipes, recipes_source, b, &fb),
        })
    }

    /// Checks parsed items and recipes; an error says which of the two it is in, the field
    /// and the fields to place it by when that one is not found.
    pub(crate) fn from_files(
        items: &ItemsFile,
        recipes: &RecipesFile,
    ) -> Result<Catalog, (Which, Bad, Vec<String>)> {
        let mut cat = Catalog::from_items(items)
            .map_err(|(b, fb)| (Which::Items, b, fb.into_iter().collect()))?;
        let kind_of = |name: &str| cat.id(name).map(|id| (id, cat.item(id).kind));
        cat.sets = sets::check(&items.sets, &kind_of).map_err(|b| {
            // A piece's own place may not be found: its set's pieces or label then.
            let set = b.field.split_once(']').map_or("", |(s, _)| s).to_string();
            let fb = vec![format!("{set}].pieces"), format!("{set}].label")];
            (Which::Items, b, fb)
        })?;
        cat.recipes = cat
            .check_recipes(recipes)
            .map_err(|(b, fb)| (Which::Recipes, b, fb.into_iter().collect()))?;
        Ok(cat)
    }

    fn from_items(file: &ItemsFile) -> Result<Catalog, (Bad, Option<String>)> {
        if file.items.is_empty() || file.items.len() > MAX_ENTRIES {
            let m = format!(
                "items lists {} items: allowed 1..={MAX_ENTRIES}",
                file.items.len()
            );
            return Err((bad("items", m), None));
        }
        let mut power = [0u32; Tile::COUNT];
        for t in Tile::ALL {
            power[t as usize] = u32::from(t.is_solid() && !t.is_door());
        }
        let mut listed: [Option<usize>; Tile::COUNT] = [None; Tile::COUNT];
        for (i, m) in file.mining.iter().enumerate() {
            let at = |f: &str| format!("mining[{i}].{f}");
            let t = tile_named(at("tile"), &m.tile).map_err(|b| (b, None))?;
            if let Some(first) = listed[t as usize] {
                let m = format!(
                    "{} = {:?} is listed twice (mining[{first}] too): one power a tile",
                    at("tile"),
                    m.tile
                );
                return Err((bad(at("tile"), m), None));
            }
            listed[t as usize] = Some(i);
            power[t as usize] = range_u(at("power"), m.power, 1, 1000).map_err(|b| (b, None))?;
        }
        let mut items: Vec<Item> = Vec::with_capacity(file.items.len());
        let mut block = [None; Tile::COUNT];
        let mut wall = [None; Wall::COUNT];
        for (i, row) in file.items.iter().enumerate() {
            let at = |f: &str| format!("items[{i}].{f}");
            let item = Catalog::item_of(row, &at).map_err(|b| (b, Some(at("name"))))?;
            if items.iter().any(|o| o.name == item.name) {
                let m = format!("{} = {:?} is named twice", at("name"), item.name);
                return Err((bad(at("name"), m), None));
            }
            if let Kind::Block(t) = item.kind {
                if block[t as usize].is_some() {
                    let m = format!("{} = {:?}: two items place it", at("tile"), t.name());
                    return Err((bad(at("tile"), m), None));
                }
                block[t as usize] = Some(ItemId(i as u16));
            }
            if let Kind::Wall(w) = item.kind {
                if wall[w as usize].is_some() {
                    let m = format!("{} = {:?}: two items place it", at("wall"), w.name());
                    return Err((bad(at("wall"), m), None));
                }
                wall[w as usize] = Some(ItemId(i as u16));
            }
            items.push(item);
        }
        // Whatever digging gives must be an item, or digging would lose it.
        for t in Tile::ALL {
            let drop = crate::base::tile::drop_of(t);
            if t.info().dig_time.is_some() && block[drop as usize].is_none() {
                let m = format!(
                    "no Block item places {:?}, which digging {:?} gives",
                    drop.name(),
                    t.name()
                );
                return Err((bad("items", m), None));
            }
        }
        Catalog::check_named_by_the_game(&items)?;
        Ok(Catalog {
            items,
            recipes: Vec::new(),
            sets: Vec::new(),
            block,
            power,
            wall,
        })
    }

    /// The items the game names must be there, and of the kind it uses them as: a new
    /// player's tools ([`START_PICKAXE`], [`START_SWORD`]) and what creatures drop.
    fn check_named_by_the_game(items: &[Item]) -> Result<(), (Bad, Option<String>)> {
        let needed: Vec<(&str, Option<KindName>, String)> = vec![
            (
                START_PICKAXE,
                Some(KindName::Pickaxe),
                "a new player's pickaxe".into(),
            ),
            (
                START_SWORD,
                Some(KindName::Sword),
                "a new player's sword".into(),
            ),
        ];
        for (name, kind, why) in needed {
            let Some(i) = items.iter().position(|i| i.name == name) else {
                let m = format!("items has no item {name:?}, which is {why}");
                return Err((bad("items", m), None));
            };
            if let Some(kind) = kind.filter(|&k| k != KindName::of(&items[i].kind)) {
                let field = format!("items[{i}].kind");
                let m = format!("{field}: {name:?} must be a {kind:?}, as it is {why}");
                return Err((bad(field, m), Some(format!("items[{i}].name"))));
            }
        }
        Ok(())
    }

    fn item_of(row: &ItemRow, at: &dyn Fn(&str) -> String) -> Result<Item, Bad> {
        let name_ok = !row.name.is_empty()
            && row.name.len() <= MAX_NAME
            && row
                .name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !name_ok {
            let m = format!(
                "{} = {:?}: allowed 1 to {MAX_NAME} of a-z, 0-9 and _",
                at("name"),
                row.name
            );
            return Err(bad(at("name"), m));
        }
        if row.label.is_empty() || row.label.len() > 64 {
            let m = format!("{} = {:?}: allowed 1 to 64 bytes", at("label"), row.label);
            return Err(bad(at("label"), m));
        }
        if row.tile.is_some() && row.kind != KindName::Block {
            let m = format!("{}: only a Block item places a tile", at("tile"));
            return Err(bad(at("tile"), m));
        }
        if row.wall.is_some() && row.kind != KindName::Wall {
            let m = format!("{}: only a Wall item places a wall", at("wall"));
            return Err(bad(at("wall"), m));
        }
        let kind = match row.kind {
            KindName::Block => {
                let name = need(at("tile"), row.tile.as_ref(), "Block")?;
                Kind::Block(tile_named(at("tile"), name)?)
            }
            KindName::Wall => {
                let name = need(at("wall"), row.wall.as_ref(), "Wall")?;
                Kind::Wall(wall_named(at("wall"), name)?)
            }
            KindName::Hammer => Kind::Hammer {
                power: range_u(
                    at("power"),
                    need(at("power"), row.power, "Hammer")?,
                    1,
                    1000,
                )?,
                speed: range_f(
                    at("speed"),
                    need(at("speed"), row.speed, "Hammer")?,
                    0.1,
                    10.0,
                )?,
            },
            KindName::Material => Kind::Material,
            KindName::Summon => Kind::Summon,
            KindName::Pickaxe => Kind::Pickaxe {
                power: range_u(
                    at("power"),
                    need(at("power"), row.power, "Pickaxe")?,
                    1,
                    1000,
                )?,
                speed: range_f(
                    at("speed"),
                    need(at("speed"), row.speed, "Pickaxe")?,
                    0.1,
                    10.0,
                )?,
            },
            KindName::Sword => Kind::Sword {
                damage: range_u(
                    at("damage"),
                    need(at("damage"), row.damage, "Sword")?,
                    1,
                    1000,
                )?,
                reach: range_f(
                    at("reach"),
                    need(at("reach"), row.reach, "Sword")?,
                    0.5,
                    8.0,
                )?,
                cooldown: range_f(
                    at("cooldown"),
                    need(at("cooldown"), row.cooldown, "Sword")?,
                    0.05,
                    5.0,
                )?,
            },
            KindName::Potion => Kind::Potion {
                heal: range_u(at("heal"), need(at("heal"), row.heal, "Potion")?, 1, 1000)?,
                sickness: range_f(
                    at("sickness"),
                    need(at("sickness"), row.sickness, "Potion")?,
                    0.0,
                    600.0,
                )?,
            },
            KindName::Armour => Kind::Armour {
                slot: need(at("slot"), row.slot, "Armour")?,
                defence: range_u(
                    at("defence"),
                    need(at("defence"), row.defence, "Armour")?,
                    0,
                    100,
                )?,
                light: range_u(at("light"), row.light.unwrap_or(0), 0, 15)? as u8,
            },
            KindName::Accessory => Kind::Accessory {
                effect: need(at("effect"), row.effect, "Accessory")?,
            },
            KindName::Tool => Kind::Tool {
                tool: need(at("tool"), row.tool, "Tool")?,
            },
            KindName::Spear
            | KindName::Bow
            | KindName::Ammo
            | KindName::Staff
            | KindName::Thrown
            | KindName::Explosive => weapons::kind(row, at)?,
        };
        let default_stack = match kind {
            Kind::Block(_) | Kind::Wall(_) | Kind::Material | Kind::Potion { .. } => 999,
            Kind::Ammo { .. } | Kind::Thrown { .. } | Kind::Explosive { .. } => 999,
            Kind::Summon => 20,
            _ => 1,
        };
        let stack = range_u(at("stack"), row.stack.unwrap_or(default_stack), 1, 9999)?;
        if matches!(kind, Kind::Armour { .. } | Kind::Accessory { .. }) && stack != 1 {
            let m = format!(
                "{} = {stack}: armour and accessories stack 1 to a slot",
                at("stack")
            );
            return Err(bad(at("stack"), m));
        }
        let color = match (row.color, kind) {
            (Some((r, g, b)), _) => [r, g, b],
            (None, Kind::Block(t)) => {
                let c = t.color();
                [c[0], c[1], c[2]]
            }
            (None, Kind::Wall(w)) => {
                let c = w.color();
                [c[0], c[1], c[2]]
            }
            (None, _) => [200, 200, 200],
        };
        Ok(Item {
            name: row.name.clone(),
            label: row.label.clone(),
            kind,
            stack,
            color,
        })
    }

    fn check_recipes(&self, file: &RecipesFile) -> Result<Vec<Recipe>, (Bad, Option<String>)> {
        if file.recipes.len() > MAX_ENTRIES {
            let m = format!(
                "recipes lists {}: allowed 0..={MAX_ENTRIES}",
                file.recipes.len()
            );
            return Err((bad("recipes", m), None));
        }
        let mut out = Vec::with_capacity(file.recipes.len());
        for (i, row) in file.recipes.iter().enumerate() {
            let at = |f: &str| format!("recipes[{i}].{f}");
            let fb = Some(at("make"));
            let item = |field: String, name: &str| {
                self.id(name).ok_or_else(|| {
                    let m = format!("{field} = {name:?} is not an item of config/items.ron");
                    (bad(field, m), fb.clone())
                })
            };
            let make = item(at("make"), &row.make)?;
            let most = self.item(make).stack.min(999);
            let count = range_u(at("count"), row.count, 1, most).map_err(|b| (b, None))?;
            if row.from.is_empty() || row.from.len() > 16 {
                let m = format!(
                    "{} lists {} ingredients: allowed 1..=16",
                    at("from"),
                    row.from.len()
                );
                return Err((bad(at("from"), m), fb.clone()));
            }
            let mut from: Vec<(ItemId, u32)> = Vec::with_capacity(row.from.len());
            for (j, (name, n)) in row.from.iter().enumerate() {
                let f = format!("{}[{j}]", at("from"));
                let id = item(f.clone(), name)?;
                if from.iter().any(|&(o, _)| o == id) {
                    return Err((bad(f.clone(), format!("{f}: {name:?} is listed twice")), fb));
                }
                if id == make {
                    let m = format!("{f}: {name:?} is what the recipe makes (an item from itself)");
                    return Err((bad(f, m), fb));
                }
                let n = range_u(f, *n, 1, 999).map_err(|b| (b, fb.clone()))?;
                from.push((id, n));
            }
            let at_tile = match &row.at {
                None => None,
                Some(name) => {
                    let t = tile_named(at("at"), name).map_err(|b| (b, None))?;
                    if self.block_item(t).is_none() {
                        let m = format!("{} = {name:?}: no item places that station", at("at"));
                        return Err((bad(at("at"), m), None));
                    }
                    Some(t)
                }
            };
            let same = |r: &Recipe| {
                r.make == make
                    && r.at == at_tile
                    && r.from.len() == from.len()
                    && r.from
                        .iter()
                        .all(|(o, _)| from.iter().any(|(id, _)| id == o))
            };
            if let Some(first) = out.iter().position(same) {
                let m = format!(
                    "recipes[{i}] makes {:?} from the same items at the same station as \
                     recipes[{first}]: one recipe is enough",
                    row.make
                );
                return Err((bad(at("make"), m), None));
            }
            out.push(Recipe {
                make,
                count,
                from,
                at: at_tile,
            });
        }
        Ok(out)
    }

    /// The item called `name`.
    pub fn id(&self, name: &str) -> Option<ItemId> {
        self.items
            .iter()
            .position(|i| i.name == name)
            .map(|i| ItemId(i as u16))
    }

    /// The item `id` (ids come from this catalog, so always in range).
    pub fn item(&self, id: ItemId) -> &Item {
        &self.items[id.0 as usize]
    }

    /// The item that places `tile`, if any.
    pub fn block_item(&self, tile: Tile) -> Option<ItemId> {
        self.block[tile as usize]
    }

    /// The item that places `wall`, if any (what taking it down gives back).
    pub fn wall_item(&self, wall: Wall) -> Option<ItemId> {
        self.wall[wall as usize]
    }

    /// Pickaxe power needed to mine `tile`: 0 for what needs no pickaxe.
    pub fn power_needed(&self, tile: Tile) -> u32 {
        self.power[tile as usize]
    }
}

/// What a pickaxe offers: its power and speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pick {
    pub power: u32,
    pub speed: f32,
}

/// Why a tile cannot be mined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MineRefusal {
    /// Nothing to dig there (air, liquids).
    Undiggable,
    /// A solid tile and no pickaxe carried.
    NoPickaxe,
    /// The best pickaxe carried is too weak: the power needed.
    TooWeak(u32),
}

impl MineRefusal {
    /// What the player is told: for a pickaxe too weak, the weakest of `cat`'s that is
    /// strong enough ("needs an iron pickaxe (pickaxe power 40)").
    pub fn text(&self, cat: &Catalog) -> String {
        match self {
            MineRefusal::Undiggable => "nothing to dig".into(),
            MineRefusal::NoPickaxe => "you need a pickaxe".into(),
            MineRefusal::TooWeak(p) => {
                let better = cat
                    .items
                    .iter()
                    .filter_map(|i| match i.kind {
                        Kind::Pickaxe { power, .. } if power >= *p => Some((power, &i.label)),
                        _ => None,
                    })
                    .min_by_key(|(power, _)| *power);
                match better {
                    Some((_, label)) => {
                        format!("needs {} {label} (pickaxe power {p})", a_or_an(label))
                    }
                    None => format!("needs pickaxe power {p}"),
                }
            }
        }
    }
}

/// The article before `word` in a message: "an" before a vowel ("an iron pickaxe", "an
/// anvil"), else "a".
pub fn a_or_an(word: &str) -> &'static str {
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'A' | 'E' | 'I' | 'O' | 'U') => "an",
        _ => "a",
    }
}

/// Seconds to take down `wall` with the hammer `hammer` (power, speed), or the hammer
/// power it needs when there is none strong enough (`Err(0)`: no wall there).
pub fn hammer_time(wall: Wall, hammer: Option<Pick>) -> Result<f32, u32> {
    let info = wall.info();
    if !wall.is_some() {
        return Err(0);
    }
    match hammer {
        Some(h) if h.power >= info.power => Ok(info.hammer_time / h.speed),
        _ => Err(info.power),
    }
}

/// Seconds to mine `tile` with the pickaxe `pick` (or none): its dig time divided by the
/// pickaxe's speed, or why it cannot be mined.
pub fn mine_time(cat: &Catalog, tile: Tile, pick: Option<Pick>) -> Result<f32, MineRefusal> {
    let base = tile.info().dig_time.ok_or(MineRefusal::Undiggable)?;
    let needed = cat.power_needed(tile);
    match pick {
        Some(p) if p.power >= needed => Ok(base / p.speed),
        Some(_) => Err(MineRefusal::TooWeak(needed)),
        None if needed == 0 => Ok(base),
        None => Err(MineRefusal::NoPickaxe),
    }
}

pub mod sets;
#[cfg(test)]
mod tests;
pub mod weapons;
