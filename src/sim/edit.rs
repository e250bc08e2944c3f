//! Digging and building: reach, dig times, the hotbar and what may be placed where.
//!
//! Rules (all checked before the world changes, so a refusal changes nothing):
//! - a target must be inside the world and within [`REACH`] tiles of the body's centre
//!   (centre to tile centre);
//! - digging takes [`dig_time`] seconds of holding on one tile ([`DigState`]), divided by
//!   the speed of the best pickaxe carried; solid tiles need a pickaxe strong enough
//!   ([`crate::content::items::mine_time`]), trees, torches and furniture none; air and water cannot
//!   be dug; what is dug goes into the inventory (refused when it would not fit), grass
//!   dropping dirt as in Terraria; a chest holding anything cannot be mined, as in
//!   Terraria (take out what it holds first: mining would otherwise have to drop or lose
//!   it), and mining an empty one forgets its entry in [`World::chests`];
//! - placing puts the hotbar's selected block into an empty (air) tile, one from the
//!   inventory; a block must touch a solid tile (4-neighbours) and may not overlap the
//!   player's body; furniture (stations, chests) stands on a solid tile; a torch must sit
//!   on, or hang beside, a solid tile, or hang on a background wall, and may overlap the
//!   body, since torches do not collide. A chest placed is empty;
//! - a wall ([`try_place_wall`]) goes into a tile with no wall, in front of anything,
//!   next to (4-neighbours) a solid tile or another wall, or behind a solid tile; walls do
//!   not collide, so one may go behind the player;
//! - with a hammer selected, holding the dig button takes down the wall under the mouse
//!   instead of digging ([`check_hammer`]): the hammer must be strong enough for the wall
//!   and the time is the wall's divided by the hammer's speed; a placed wall gives back
//!   its item (refused when it would not fit), a natural one nothing. A shadow orb is
//!   not dug: a hammer smashes it in [`ORB_TIME`] seconds (divided by its speed) and the
//!   session draws its loot ([`DigStep::Smashed`]); a pickaxe is refused;
//! - furniture (stations, chests, tables, chairs, beds) may stand on a platform too; a
//!   platform hangs beside a solid tile or another platform;
//! - a door is [`DOOR_HEIGHT`] tiles of air standing on a solid tile, placed closed from
//!   its top or bottom tile ([`door_spot`]); mining either tile removes the whole door
//!   for one door item; a right-click opens or closes it ([`toggle_door`]), and it will
//!   not close on the player.

use crate::content::items::a_or_an;
use crate::content::items::{Catalog, MineRefusal, hammer_time, mine_time};
use crate::sim::player::Player;
use crate::world::{Tile, Wall, World};

/// Seconds a hammer of speed 1 takes to smash a shadow orb.
pub const ORB_TIME: f32 = 1.0;

/// How far from the body's centre the player digs and builds, in tiles.
pub const REACH: f32 = 6.0;

use crate::world::inventory::{AsItem, Inventory, Stack};
pub use crate::world::inventory::{HOTBAR_SLOTS, START_TORCHES};

/// Seconds of digging to remove `tile` by hand; `None` for what cannot be dug (air,
/// liquids). A pickaxe divides it by its speed ([`crate::content::items::mine_time`]).
pub fn dig_time(tile: Tile) -> Option<f32> {
    tile.info().dig_time
}

pub use crate::base::tile::drop_of;

/// Furniture (crafting stations, chests, tables, chairs, beds) stands on a solid tile or
/// a platform.
pub fn is_furniture(tile: Tile) -> bool {
    matches!(
        tile,
        Tile::Workbench
            | Tile::Furnace
            | Tile::Anvil
            | Tile::Chest
            | Tile::Table
            | Tile::Chair
            | Tile::Bed
            | Tile::PiggyBank
    )
}

/// Tiles that hang on the background wall behind them (trophies): placed only on a wall,
/// and the wall stays while they hang.
pub fn hangs_on_wall(tile: Tile) -> bool {
    tile == Tile::EyeTrophy
}

/// How many tiles tall a door is: the player's body (1.8 tiles) fits through.
pub const DOOR_HEIGHT: i64 = 2;

/// Why an edit was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditRefusal {
    OutOfWorld,
    OutOfReach,
    /// Nothing diggable there (air or water).
    NothingToDig,
    /// Placing into a tile that is not air.
    Occupied,
    /// The selected slot holds nothing that can be placed.
    NothingSelected,
    /// A solid tile and no pickaxe carried.
    NeedPickaxe,
    /// The best pickaxe carried is too weak: the power needed.
    TooWeak(u32),
    /// A block there would overlap the player.
    WouldTrapPlayer,
    /// Nothing solid to attach to.
    NoSupport,
    /// The world's bottom row, which holds everything up.
    WorldFloor,
    /// A chest that holds something (it must be emptied before it is mined).
    ChestNotEmpty,
    /// The tile holds up this piece of furniture standing on it (mine that first).
    HoldsUp(Tile),
    /// A door toggled where there is none.
    NotADoor,
    /// No wall there to take down.
    NoWall,
    /// Placing a wall where one is already.
    WallThere,
    /// The hammer held is too weak for the wall: the power it needs.
    NeedHammer(u32),
    /// Something hangs on the wall (a trophy): take it down first.
    HangsThere(Tile),
    /// A shadow orb, which only a hammer smashes.
    SmashWithHammer,
    /// A townsperson stands on the tile (a click there talks to them).
    SomeoneThere,
}

impl EditRefusal {
    /// What the player is told, naming `cat`'s items (the pickaxe or hammer it needs).
    pub fn text(&self, cat: &Catalog) -> String {
        match self {
            EditRefusal::OutOfWorld => "outside the world".into(),
            EditRefusal::OutOfReach => "out of reach".into(),
            EditRefusal::NothingToDig => "nothing to dig".into(),
            EditRefusal::Occupied => "something is already there".into(),
            EditRefusal::NothingSelected => "nothing to place selected".into(),
            EditRefusal::NeedPickaxe => MineRefusal::NoPickaxe.text(cat),
            EditRefusal::TooWeak(p) => MineRefusal::TooWeak(*p).text(cat),
            EditRefusal::WouldTrapPlayer => "that would trap you".into(),
            EditRefusal::NoSupport => "nothing to attach it to".into(),
            EditRefusal::WorldFloor => "the world's floor cannot be dug".into(),
            EditRefusal::ChestNotEmpty => "the chest is not empty (right-click to open it)".into(),
            EditRefusal::HoldsUp(t) => format!("the {} stands on it", t.label()),
            EditRefusal::NotADoor => "no door there".into(),
            EditRefusal::NoWall => "no wall there".into(),
            EditRefusal::WallThere => "a wall is already there".into(),
            EditRefusal::HangsThere(t) => format!("the {} hangs on it", t.label()),
            EditRefusal::SmashWithHammer => "only a hammer smashes a shadow orb".into(),
            EditRefusal::SomeoneThere => "someone is standing there".into(),
            EditRefusal::NeedHammer(p) => {
                let better = cat
                    .items
                    .iter()
                    .filter_map(|i| match i.kind {
                        crate::content::items::Kind::Hammer { power, .. } if power >= *p => {
                            Some((power, &i.label))
                        }
                        _ => None,
                    })
                    .min_by_key(|(power, _)| *power);
                match better {
                    Some((_, label)) => format!("needs {} {label}", a_or_an(label)),
                    None => format!("needs hammer power {p}"),
                }
            }
        }
    }
}

/// Tiles that stand on the tile below them: it cannot be mined from under them.
pub const FURNITURE: [Tile; 10] = [
    Tile::Workbench,
    Tile::Furnace,
    Tile::Anvil,
    Tile::Chest,
    Tile::Table,
    Tile::Chair,
    Tile::Bed,
    Tile::ClosedDoor,
    Tile::OpenDoor,
    Tile::PiggyBank,
];

/// The rows `(top, bottom)` of the door that tile `(x, y)` belongs to: the run of door
/// tiles above and below it in its column, at most [`DOOR_HEIGHT`] (`None` when `(x, y)`
/// is no door).
pub fn door_rows(world: &World, x: i64, y: i64) -> Option<(i64, i64)> {
    let door = |yy: i64| world.get(x, yy).is_some_and(|t| t.is_door());
    if !door(y) {
        return None;
    }
    let (mut top, mut bottom) = (y, y);
    while door(top - 1) && y - top + 1 < DOOR_HEIGHT {
        top -= 1;
    }
    while door(bottom + 1) && bottom - top + 1 < DOOR_HEIGHT {
        bottom += 1;
    }
    Some((top, bottom))
}

/// Where a door placed by clicking `(x, y)` stands: its top row, if `(x, y)` can be its
/// bottom (the tile below is solid) or else its top (solid [`DOOR_HEIGHT`] tiles down),
/// with every tile of it air. A door does not stand on another (a closed one is solid).
pub fn door_spot(world: &World, x: i64, y: i64) -> Option<i64> {
    let air = |yy: i64| world.get(x, yy) == Some(Tile::Air);
    let solid = |yy: i64| {
        world
            .get(x, yy)
            .is_some_and(|t| t.is_solid() && !t.is_door())
    };
    [y - DOOR_HEIGHT + 1, y]
        .into_iter()
        .find(|&top| solid(top + DOOR_HEIGHT) && (top..top + DOOR_HEIGHT).all(air))
}

/// The tiles an edit at `(x, y)` of `tile` (dug, placed or toggled) may have changed, inside
/// a world `height` rows tall: a door's whole column around it, else the one tile.
pub fn changed_by(tile: Tile, x: usize, y: usize, height: usize) -> Vec<(usize, usize)> {
    if !tile.is_door() {
        return vec![(x, y)];
    }
    let reach = DOOR_HEIGHT as usize - 1;
    (y.saturating_sub(reach)..=(y + reach).min(height - 1))
        .map(|yy| (x, yy))
        .collect()
}

/// Opens a closed door or closes an open one at `(x, y)` (either of its tiles), within
/// reach; a door does not close on the player. Returns the door's new tile.
pub fn toggle_door(
    world: &mut World,
    player: &Player,
    x: i64,
    y: i64,
) -> Result<Tile, EditRefusal> {
    target(world, player, x, y)?;
    let (top, bottom) = door_rows(world, x, y).ok_or(EditRefusal::NotADoor)?;
    let next = match world.tile(x as usize, y as usize) {
        Tile::ClosedDoor => Tile::OpenDoor,
        _ => Tile::ClosedDoor,
    };
    if next == Tile::ClosedDoor && (top..=bottom).any(|yy| player.overlaps_tile(x, yy)) {
        return Err(EditRefusal::WouldTrapPlayer);
    }
    set_door(world, x, y, next);
    Ok(next)
}

/// Makes the door at `(x, y)` (either of its tiles) `tile` (open or closed), whoever opens
/// it; the tiles changed (none where there is no door).
pub fn set_door(world: &mut World, x: i64, y: i64, tile: Tile) -> Vec<(usize, usize)> {
    let Some((top, bottom)) = door_rows(world, x, y) else {
        return Vec::new();
    };
    (top..=bottom)
        .map(|yy| {
            world.set(x as usize, yy as usize, tile);
            (x as usize, yy as usize)
        })
        .collect()
}

/// Is tile `(tx, ty)` within `reach` of the player's centre (to the tile's centre)?
pub fn can_reach(player: &Player, tx: i64, ty: i64, reach: f32) -> bool {
    let (cx, cy) = player.centre();
    let (dx, dy) = (tx as f32 + 0.5 - cx, ty as f32 + 0.5 - cy);
    dx * dx + dy * dy <= reach * reach
}

fn target(world: &World, player: &Player, x: i64, y: i64) -> Result<Tile, EditRefusal> {
    let tile = world.get(x, y).ok_or(EditRefusal::OutOfWorld)?;
    if !can_reach(player, x, y, REACH) {
        Err(EditRefusal::OutOfReach)
    } else {
        Ok(tile)
    }
}

/// Could `(x, y)` be dug now? Returns the tile there.
pub fn check_dig(world: &World, player: &Player, x: i64, y: i64) -> Result<Tile, EditRefusal> {
    let tile = target(world, player, x, y)?;
    if y == world.height() as i64 - 1 {
        return Err(EditRefusal::WorldFloor);
    }
    if tile == Tile::ShadowOrb {
        return Err(EditRefusal::SmashWithHammer);
    }
    dig_time(tile)
        .map(|_| tile)
        .ok_or(EditRefusal::NothingToDig)
}

/// Could `(x, y)` be mined now with what `inv` carries? Returns the tile and the seconds
/// it takes with the best pickaxe carried.
pub fn check_mine(
    world: &World,
    player: &Player,
    inv: &Inventory,
    x: i64,
    y: i64,
) -> Result<(Tile, f32), EditRefusal> {
    let tile = check_dig(world, player, x, y)?;
    if tile == Tile::Chest && world.chests.holds_items(x as usize, y as usize) {
        return Err(EditRefusal::ChestNotEmpty);
    }
    // Furniture stands on the ground, as in Terraria: the tile under it stays while it does.
    let top = door_rows(world, x, y).map_or(y, |(top, _)| top);
    if let Some(above) = world.get(x, top - 1).filter(|t| FURNITURE.contains(t)) {
        return Err(EditRefusal::HoldsUp(above));
    }
    let time = match mine_time(inv.catalog(), tile, inv.best_pickaxe()) {
        Ok(t) => t,
        Err(MineRefusal::Undiggable) => return Err(EditRefusal::NothingToDig),
        Err(MineRefusal::NoPickaxe) => return Err(EditRefusal::NeedPickaxe),
        Err(MineRefusal::TooWeak(p)) => return Err(EditRefusal::TooWeak(p)),
    };
    // A full inventory digs all the same: what it gives lies in the world
    // ([`DigStep::gives`]).
    Ok((tile, time))
}

/// Digs `(x, y)` at once (the time is [`DigState`]'s business): the tile becomes air and
/// its drop goes into the inventory as far as it has room (the session drops it into the
/// world instead, [`DigStep::gives`]). Returns the drop.
pub fn try_dig(
    world: &mut World,
    player: &Player,
    inv: &mut Inventory,
    x: i64,
    y: i64,
) -> Result<Tile, EditRefusal> {
    let (tile, _) = check_mine(world, player, inv, x, y)?;
    // A door goes as a whole: every tile of it, for one door.
    let (top, bottom) = door_rows(world, x, y).unwrap_or((y, y));
    for yy in top..=bottom {
        world.set(x as usize, yy as usize, Tile::Air);
    }
    if tile == Tile::Chest {
        world.chests.remove(x as usize, y as usize);
    }
    let drop = drop_of(tile);
    inv.add(drop, 1);
    Ok(drop)
}

/// What a felling gave: the drop, how many, and every tile removed (the cut first).
pub type Felling = (Tile, u32, Vec<(usize, usize)>);

/// Fells the tree whose trunk (or cactus) is at `(x, y)`: everything [`fell::felled`]
/// names becomes air and each trunk tile gives one wood (each cactus tile a cactus).
/// Returns the drop, how many, and every tile removed.
pub fn try_fell(
    world: &mut World,
    player: &Player,
    inv: &mut Inventory,
    x: i64,
    y: i64,
) -> Result<Felling, EditRefusal> {
    let (tile, _) = check_mine(world, player, inv, x, y)?;
    let tiles = fell::felled(world, x as usize, y as usize);
    let count = tiles
        .iter()
        .filter(|&&(tx, ty)| world.tile(tx, ty) == tile)
        .count() as u32;
    for &(tx, ty) in &tiles {
        world.set(tx, ty, Tile::Air);
    }
    let drop = drop_of(tile);
    inv.add(drop, count);
    Ok((drop, count, tiles))
}

/// Where a placement aimed at `(x, y)` goes: with rope selected, a click on a rope goes
/// to the first tile under the bottom of that rope (a rope is let down as one goes, as
/// in Terraria); anything else where it was aimed.
pub fn place_spot(world: &World, inv: &Inventory, x: i64, y: i64) -> (i64, i64) {
    if inv.selected_tile() != Some(Tile::Rope) {
        return (x, y);
    }
    let mut y = y;
    while world.get(x, y) == Some(Tile::Rope) {
        y += 1;
    }
    (x, y)
}

/// Could the selected tile be placed at `(x, y)` now? Returns the tile that would be.
pub fn check_place(
    world: &World,
    player: &Player,
    inv: &Inventory,
    x: i64,
    y: i64,
) -> Result<Tile, EditRefusal> {
    let here = target(world, player, x, y)?;
    let tile = inv.selected_tile().ok_or(EditRefusal::NothingSelected)?;
    // Blocks may be built into water (it gives way); a torch only burns in air.
    let free = here == Tile::Air || (here == Tile::Water && tile.is_solid());
    if !free {
        return Err(EditRefusal::Occupied);
    }
    let solid = |dx: i64, dy: i64| world.get(x + dx, y + dy).is_some_and(|t| t.is_solid());
    let holds = |dx: i64, dy: i64| {
        world
            .get(x + dx, y + dy)
            .is_some_and(|t| t.is_solid() || t.is_platform())
    };
    if tile.is_door() {
        let top = door_spot(world, x, y).ok_or(EditRefusal::NoSupport)?;
        if (top..top + DOOR_HEIGHT).any(|yy| player.overlaps_tile(x, yy)) {
            return Err(EditRefusal::WouldTrapPlayer);
        }
    } else if tile.is_platform() {
        if !(holds(-1, 0) || holds(1, 0) || solid(0, -1) || solid(0, 1)) {
            return Err(EditRefusal::NoSupport);
        }
    } else if tile.is_solid() {
        if player.overlaps_tile(x, y) {
            return Err(EditRefusal::WouldTrapPlayer);
        }
        if !(solid(-1, 0) || solid(1, 0) || solid(0, -1) || solid(0, 1)) {
            return Err(EditRefusal::NoSupport);
        }
    } else if tile == Tile::Rope {
        // A rope hangs from a block, a platform or more rope above it.
        if !(holds(0, -1) || world.get(x, y - 1) == Some(Tile::Rope)) {
            return Err(EditRefusal::NoSupport);
        }
    } else if hangs_on_wall(tile) {
        // A trophy hangs on the background wall behind it, as in Terraria.
        if !world.wall(x as usize, y as usize).is_some() {
            return Err(EditRefusal::NoSupport);
        }
    } else if is_furniture(tile) {
        if !holds(0, 1) {
            return Err(EditRefusal::NoSupport);
        }
    } else if !(solid(-1, 0)
        || solid(1, 0)
        || solid(0, 1)
        || world.wall(x as usize, y as usize).is_some())
    {
        return Err(EditRefusal::NoSupport);
    }
    Ok(tile)
}

/// Could the selected wall be placed at `(x, y)` now? Returns the wall that would be.
pub fn check_place_wall(
    world: &World,
    player: &Player,
    inv: &Inventory,
    x: i64,
    y: i64,
) -> Result<Wall, EditRefusal> {
    let here = target(world, player, x, y)?;
    let wall = inv.selected_wall().ok_or(EditRefusal::NothingSelected)?;
    if world.wall(x as usize, y as usize).is_some() {
        return Err(EditRefusal::WallThere);
    }
    let holds = |dx: i64, dy: i64| {
        world.get(x + dx, y + dy).is_some_and(|t| t.is_solid())
            || world.get_wall(x + dx, y + dy).is_some_and(Wall::is_some)
    };
    if !(here.is_solid() || holds(-1, 0) || holds(1, 0) || holds(0, -1) || holds(0, 1)) {
        return Err(EditRefusal::NoSupport);
    }
    Ok(wall)
}

/// Places the selected wall at `(x, y)`, taking one from the inventory.
pub fn try_place_wall(
    world: &mut World,
    player: &Player,
    inv: &mut Inventory,
    x: i64,
    y: i64,
) -> Result<Wall, EditRefusal> {
    let wall = check_place_wall(world, player, inv, x, y)?;
    if let Some(item) = inv.catalog().wall_item(wall) {
        inv.take(item);
    }
    world.set_wall(x as usize, y as usize, wall);
    Ok(wall)
}

/// Could the wall at `(x, y)` be taken down now with the selected hammer? Returns the
/// wall and the seconds it takes.
pub fn check_hammer(
    world: &World,
    player: &Player,
    inv: &Inventory,
    x: i64,
    y: i64,
) -> Result<(Wall, f32), EditRefusal> {
    target(world, player, x, y)?;
    let wall = world.wall(x as usize, y as usize);
    if !wall.is_some() {
        return Err(EditRefusal::NoWall);
    }
    if let Some(t) = world.get(x, y).filter(|&t| hangs_on_wall(t)) {
        return Err(EditRefusal::HangsThere(t));
    }
    // As with digging, a full inventory does not stop it ([`DigStep::gives`]).
    let time = hammer_time(wall, inv.selected_hammer()).map_err(EditRefusal::NeedHammer)?;
    Ok((wall, time))
}

/// Could the shadow orb at `(x, y)` be smashed now with the selected hammer? Returns the
/// seconds it takes.
pub fn check_smash(
    world: &World,
    player: &Player,
    inv: &Inventory,
    x: i64,
    y: i64,
) -> Result<f32, EditRefusal> {
    if target(world, player, x, y)? != Tile::ShadowOrb {
        return Err(EditRefusal::NothingToDig);
    }
    let hammer = inv.selected_hammer().ok_or(EditRefusal::SmashWithHammer)?;
    Ok(ORB_TIME / hammer.speed.max(0.01))
}

/// Takes down the wall at `(x, y)` at once (the time is [`DigState`]'s business): a placed
/// wall's item goes into the inventory. Returns the wall.
pub fn try_hammer(
    world: &mut World,
    player: &Player,
    inv: &mut Inventory,
    x: i64,
    y: i64,
) -> Result<Wall, EditRefusal> {
    let (wall, _) = check_hammer(world, player, inv, x, y)?;
    world.set_wall(x as usize, y as usize, Wall::None);
    if let Some(item) = wall_drop(inv.catalog(), wall) {
        inv.add(item, 1);
    }
    Ok(wall)
}

/// What taking down `wall` gives: a placed wall's item; a natural wall gives nothing.
pub fn wall_drop(cat: &Catalog, wall: Wall) -> Option<crate::content::items::ItemId> {
    cat.wall_item(wall).filter(|_| !wall.info().natural)
}

/// Places the selected tile at `(x, y)`, taking one from the inventory.
pub fn try_place(
    world: &mut World,
    player: &Player,
    inv: &mut Inventory,
    x: i64,
    y: i64,
) -> Result<Tile, EditRefusal> {
    let tile = check_place(world, player, inv, x, y)?;
    inv.take(tile);
    let top = if tile.is_door() {
        door_spot(world, x, y).unwrap_or(y)
    } else {
        y
    };
    for yy in top..top + if tile.is_door() { DOOR_HEIGHT } else { 1 } {
        world.set(x as usize, yy as usize, tile);
    }
    // A chest placed is empty, whatever an entry left there before said.
    world.chests.remove(x as usize, y as usize);
    Ok(tile)
}

/// What one frame of holding the dig button did.
#[derive(Clone, Debug, PartialEq)]
pub enum DigStep {
    Refused(EditRefusal),
    /// Still digging; share of the dig time done, 0..1 (for a crack overlay).
    Digging(f32),
    /// The tile was removed; this went into the inventory (as far as it had room).
    Dug {
        x: i64,
        y: i64,
        drop: Tile,
    },
    /// A trunk (or cactus) was cut: the tree above it came down, `count` of `drop` went
    /// into the inventory, and `tiles` (the cut tile first) are air now. `leaves`: the
    /// leaves its crown gave ([`fell::leaf_drop`]) and the crown tile they fall from.
    Felled {
        x: i64,
        y: i64,
        drop: Tile,
        count: u32,
        tiles: Vec<(usize, usize)>,
        leaves: Option<(u32, (i64, i64))>,
    },
    /// The wall at `(x, y)` came down (a hammer was held).
    Hammered {
        x: i64,
        y: i64,
        wall: Wall,
    },
    /// The shadow orb at `(x, y)` was smashed (it is air now): the session gives its loot.
    Smashed {
        x: i64,
        y: i64,
    },
}

impl DigStep {
    /// What the step gives and the tile it came from: a dug tile's drop, a felled tree's
    /// wood, a placed wall's item. The session drops it into the world there, to fly to
    /// the player (or lie until it has room), whether or not the inventory is full. The
    /// items are `cat`'s.
    pub fn gives(&self, cat: &Catalog) -> Option<(Stack, (i64, i64))> {
        let (item, count, at) = match *self {
            DigStep::Dug { x, y, drop } => (drop.as_item(cat), 1, (x, y)),
            DigStep::Felled {
                x, y, drop, count, ..
            } => (drop.as_item(cat), count, (x, y)),
            DigStep::Hammered { x, y, wall } => (wall_drop(cat, wall), 1, (x, y)),
            DigStep::Refused(_) | DigStep::Digging(_) | DigStep::Smashed { .. } => return None,
        };
        item.map(|item| (Stack { item, count }, at))
    }

    /// Everything the step gives: [`DigStep::gives`], and a felled crown's leaves where
    /// they fall from.
    pub fn gives_all(&self, cat: &Catalog) -> Vec<(Stack, (i64, i64))> {
        let mut all: Vec<_> = self.gives(cat).into_iter().collect();
        if let DigStep::Felled {
            leaves: Some((count, at)),
            ..
        } = *self
            && let Some(item) = Tile::Leaves.as_item(cat)
        {
            all.push((Stack { item, count }, at));
        }
        all
    }
}

/// What is being dug: a tile, or with a hammer the wall behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Aim {
    Tile(Tile),
    Wall(Wall),
    Orb,
}

/// Time spent digging one target; starts again when the target changes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DigState {
    target: Option<(i64, i64, Aim)>,
    elapsed: f32,
}

impl DigState {
    /// One frame of `dt` seconds with the dig button held on `(x, y)`.
    pub fn update(
        &mut self,
        world: &mut World,
        player: &Player,
        inv: &mut Inventory,
        x: i64,
        y: i64,
        dt: f32,
    ) -> DigStep {
        let hammer = inv.selected_hammer().is_some();
        let orb = world.get(x, y) == Some(Tile::ShadowOrb);
        let checked = if hammer && orb {
            check_smash(world, player, inv, x, y).map(|need| (Aim::Orb, need))
        } else if hammer {
            check_hammer(world, player, inv, x, y).map(|(w, need)| (Aim::Wall(w), need))
        } else {
            check_mine(world, player, inv, x, y).map(|(t, need)| (Aim::Tile(t), need))
        };
        let (aim, need) = match checked {
            Ok(t) => t,
            Err(e) => {
                self.reset();
                return DigStep::Refused(e);
            }
        };
        if self.target != Some((x, y, aim)) {
            self.target = Some((x, y, aim));
            self.elapsed = 0.0;
        }
        if dt.is_finite() && dt > 0.0 {
            self.elapsed += dt;
        }
        if self.elapsed + 1e-6 < need {
            return DigStep::Digging(self.elapsed / need);
        }
        self.reset();
        let tile = match aim {
            Aim::Wall(_) => {
                return match try_hammer(world, player, inv, x, y) {
                    Ok(wall) => DigStep::Hammered { x, y, wall },
                    Err(e) => DigStep::Refused(e),
                };
            }
            Aim::Orb => {
                world.set(x as usize, y as usize, Tile::Air);
                return DigStep::Smashed { x, y };
            }
            Aim::Tile(t) => t,
        };
        if matches!(tile, Tile::Trunk | Tile::Cactus) {
            let crown = fell::crown(world, x as usize, y as usize);
            return match try_fell(world, player, inv, x, y) {
                Ok((drop, count, tiles)) => DigStep::Felled {
                    x,
                    y,
                    drop,
                    count,
                    tiles,
                    leaves: crown,
                },
                Err(e) => DigStep::Refused(e),
            };
        }
        match try_dig(world, player, inv, x, y) {
            Ok(drop) => DigStep::Dug { x, y, drop },
            Err(e) => DigStep::Refused(e),
        }
    }

    /// Forgets the progress (button released).
    pub fn reset(&mut self) {
        *self = DigState::default();
    }
}

pub mod fell;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod walls_tests;
