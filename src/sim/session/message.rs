//! What the session says to a player ([`Message`]): one variant per kind of thing said,
//! carrying ids, kinds, amounts and typed refusals, never finished sentences. The words
//! are `net::said`'s: it turns a message into the player's text and the log line (the
//! lines the window tests read), for the window and the server alike.

use super::PlayerId;
use crate::base::wall::Wall;
use crate::content::items::{ArmourSlot, ItemId};
use crate::sim::boss::RivalKind;
use crate::sim::creatures::{Hit, Kind};
use crate::sim::edit::EditRefusal;
use crate::sim::projectiles::Look;
use crate::sim::vitals::Harm;
use crate::world::Tile;
use crate::world::inventory::{Stack, WearRefusal};

/// A message for a player.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// An edit the rules refused ("Can't: ..." on screen). Held buttons refuse every
    /// tick: a front-end shows it once and keeps it up while it repeats.
    Refused(EditRefusal),
    /// Digging, building, items, the inventory, chests, water.
    Hand(Hand),
    /// Weapons, creatures, hurts, deaths and comebacks.
    Fight(Fight),
    /// The Eye and the bosses after it.
    Boss(Boss),
    /// The town: the Guide, housing, newcomers, shops, the Nurse.
    Town(Town),
}

/// The size of the light recomputed after an edit (`(width, height)` in tiles), if any.
pub type Relit = Option<(usize, usize)>;

/// Digging, building, items, the inventory, chests, water.
#[derive(Clone, Debug, PartialEq)]
pub enum Hand {
    /// A tile dug at `(x, y)`.
    Dug {
        tile: Tile,
        x: i64,
        y: i64,
        relit: Relit,
    },
    /// A tile placed at `(x, y)`.
    Placed {
        tile: Tile,
        x: i64,
        y: i64,
        relit: Relit,
    },
    /// A wall put up at `(x, y)`.
    PlacedWall {
        wall: Wall,
        x: i64,
        y: i64,
        relit: Relit,
    },
    /// A wall hammered down at `(x, y)`.
    TookDown {
        wall: Wall,
        x: i64,
        y: i64,
        relit: Relit,
    },
    /// A tree felled at `(x, y)`, giving `count` of `tile`.
    Felled {
        count: u32,
        tile: Tile,
        x: i64,
        y: i64,
    },
    /// A door at `(x, y)` is now `tile` (open or closed).
    Door { tile: Tile, x: i64, y: i64 },
    /// Armour put on from the hotbar.
    WoreArmour { slot: ArmourSlot, defence: u32 },
    /// An accessory put on from the hotbar, into accessory slot `slot`.
    WoreAccessory { slot: usize },
    /// A click on armour slot `slot`.
    ArmourSlot { slot: usize, defence: u32 },
    /// A click on accessory slot `slot`.
    AccessorySlot { slot: usize },
    /// Armour or an accessory not put on.
    CantWear(WearRefusal),
    /// A life crystal used: the most health now.
    LifeCrystal { most: f32 },
    /// A life crystal not used.
    CantUseLife(crate::sim::vitals::CrystalRefusal),
    /// A mana crystal used: the most mana now.
    ManaCrystal { most: u32 },
    /// A mana crystal not used.
    CantUseMana(crate::sim::mana::AtMost),
    /// Quick heal with no healing potion.
    NoPotion,
    /// A potion drunk: `gained` health, `health` now.
    Drank { gained: f32, health: f32 },
    /// A potion not drunk.
    CantDrink(crate::sim::vitals::DrinkRefusal),
    /// `count` of `item` thrown.
    Threw { item: ItemId, count: u32 },
    /// `count` of `item` picked up.
    PickedUp { item: ItemId, count: u32 },
    /// A recipe number that is not in the catalog.
    NoSuchRecipe,
    /// `count` of `item` crafted.
    Crafted { item: ItemId, count: u32 },
    /// A recipe not made.
    CantCraft(crate::sim::craft::CraftRefusal),
    /// `count` of `item` held did not fit back into the inventory (a warning).
    DidNotFit { item: ItemId, count: u32 },
    /// The grappling hook caught at a point, or nothing.
    Hooked(Option<(f32, f32)>),
    /// The magic mirror took the player home, feet at `at`.
    MirrorHome { at: (f32, f32) },
    /// A bucket filled or emptied with no room for the other bucket.
    NoRoomForBucket,
    /// A bucket used at `(x, y)`: `from` became `to`.
    Bucket {
        x: i64,
        y: i64,
        from: Tile,
        to: Tile,
    },
    /// A bed at `(x, y)` is the spawn point now.
    SpawnSet { x: i64, y: i64 },
    /// A bed that cannot be a spawn point.
    CantSleep(crate::sim::respawn::BedLost),
    /// The player's jumps and swim strokes so far.
    Jumps { jumps: u32, strokes: u32 },
    /// A piggy bank at `(x, y)` opened, holding `stacks` stacks.
    PiggyBank { x: usize, y: usize, stacks: usize },
    /// The chest at `(x, y)` is open for another player.
    ChestInUse { x: usize, y: usize, by: PlayerId },
    /// A click on slot `slot` of the chest (or the piggy bank, `bank`) at `(x, y)`.
    StoreSlot {
        bank: bool,
        x: usize,
        y: usize,
        slot: usize,
    },
    /// Loot all (`looted`) or deposit all: `moved` items.
    StoreMoved {
        looted: bool,
        moved: u32,
        bank: bool,
        x: usize,
        y: usize,
    },
    /// Loot all left some in the chest (or the piggy bank).
    NotAllFitted { bank: bool },
    /// Flowing water came to rest after `ticks` ticks, `moves` tiles moved.
    WaterAtRest { ticks: u64, moves: u64 },
}

/// What struck: a swing, a thrust, a blast, a projectile, or a blow on an area (a
/// yoyo's, a flail's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Blow {
    Blow,
    Swing,
    Thrust,
    Blast,
    Shot(Look),
}

/// Weapons, creatures, hurts, deaths and comebacks.
#[derive(Clone, Debug, PartialEq)]
pub enum Fight {
    /// A swing hit `hits` creatures: each one's kind and feet.
    SwingHit {
        hits: u32,
        hit: Vec<(Kind, (f32, f32))>,
    },
    /// A thrust, a blast or a projectile hit `hits` creatures.
    Struck { by: Blow, hits: u32 },
    /// A creature of `kind` killed, dropping `n` of the item named `item` (`n` 0: none),
    /// `kept` copper into the killer's purse.
    Killed {
        kind: Kind,
        item: String,
        n: u32,
        kept: u64,
    },
    /// `copper` taken from a creature of `kind` killed.
    TookCopper { kind: Kind, copper: u64 },
    /// A creature of `kind` died in lava at `at`, leaving `left` copper and `n` of `item`.
    DiedInLava {
        kind: Kind,
        at: (f32, f32),
        left: u64,
        item: String,
        n: u32,
    },
    /// A creature of `kind` set on fire.
    SetOnFire { kind: Kind },
    /// A projectile shot toward `aim`.
    Shot { look: Look, aim: (f32, f32) },
    /// A bomb blew up at `at`.
    Blast { at: (f32, f32) },
    /// A star picked up: the mana now.
    StarMana { mana: f32 },
    /// A bow with no arrows.
    NoArrows,
    /// A staff with too little mana.
    NoMana,
    /// The world's projectiles are at their most.
    TooMuchFlying,
    /// A creature of `kind` appeared near the player, feet at `at`.
    Appeared { kind: Kind, at: (f32, f32) },
    /// A creature's `hit` at tick `tick` from `from_x`: `health` left, thrown at `thrown`.
    HurtBy {
        hit: Hit,
        tick: u64,
        from_x: f32,
        health: f32,
        thrown: (f32, f32),
    },
    /// Another player's hit (pvp): `health` left.
    HurtByPlayer { by: PlayerId, health: f32 },
    /// A fall of `rows` tiles for `damage`: `health` left.
    Fell { rows: f32, damage: f32, health: f32 },
    /// The player died of `cause`, dropping `dropped`.
    Died { cause: Harm, dropped: Vec<Stack> },
    /// The player came back at its bed (`bed`) or the spawn point, feet at `at`.
    Respawned { bed: bool, at: (f32, f32) },
    /// The player's bed is no spawn point any more.
    BedLost(crate::sim::respawn::BedLost),
}

/// What everyone is told of a boss (a line on every player's screen).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tidings {
    /// A night the Eye will come.
    EyeWarning,
    EyeAwoke,
    EyeLeft,
    EyeDefeated,
    RivalAwoke(RivalKind),
    RivalLeft(RivalKind),
    RivalDefeated(RivalKind),
    /// The first shadow orb of three broken.
    Chill,
    /// The second shadow orb of three broken.
    Screams,
    /// Skeletron defeated: the Old Man is free.
    CurseLifted,
    /// The Wall of Flesh defeated.
    SpiritsReleased,
}

/// Who was looted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Foe {
    Eye,
    Rival(RivalKind),
}

/// The Eye and the bosses after it.
#[derive(Clone, Debug, PartialEq)]
pub enum Boss {
    /// Told to every player.
    Told(Tidings),
    /// Night `night` begins and the Eye will come.
    EyeComing {
        night: u64,
    },
    /// The Eye came at `at` with `health`.
    EyeCame {
        at: (f32, f32),
        health: f32,
    },
    /// The Eye charges from `from`.
    EyeCharges {
        from: (f32, f32),
        phase: crate::sim::boss::Phase,
        health: f32,
    },
    /// The Eye turned to its second phase at `health`.
    EyePhaseTwo {
        health: f32,
    },
    /// The Eye flies off.
    EyeLeaves,
    /// The Eye's touch hurt the player for `damage`: `health` left.
    HurtByEye {
        damage: f32,
        health: f32,
    },
    /// A blow hit the Eye: `health` left.
    HitEye {
        by: Blow,
        health: f32,
    },
    /// A summoning item (`item`) used by day.
    SummonByDay {
        item: ItemId,
    },
    /// A boss is already about.
    BossAlreadyHere,
    /// The Eye is already about.
    EyeAlreadyHere,
    /// A rival boss came at `at` with `health`.
    RivalCame {
        kind: RivalKind,
        at: (f32, f32),
        health: f32,
    },
    RivalPhaseTwo {
        kind: RivalKind,
        health: f32,
    },
    RivalAttacks {
        kind: RivalKind,
        health: f32,
    },
    RivalLeaves {
        kind: RivalKind,
    },
    /// A rival's touch hurt the player for `damage`: `health` left.
    HurtByRival {
        kind: RivalKind,
        damage: f32,
        health: f32,
    },
    /// A blow hit a rival: `health` left.
    HitRival {
        kind: RivalKind,
        health: f32,
    },
    /// The Eater was cut in two: `heads` heads now.
    CutInTwo {
        kind: RivalKind,
        heads: usize,
    },
    /// `n` shadow orbs broken in this world.
    OrbsBroken {
        n: u32,
    },
    /// The third orb broke with a boss about.
    EaterStaysDown,
    /// Worm food used outside the evil biome.
    WormFoodOutside,
    /// The Old Man talked to by day.
    OldManByDay,
    /// The Old Man talked to at night with a boss about.
    OldManBusy,
    /// A guide voodoo doll burnt in the underworld's lava.
    DollBurnt,
    /// It burnt with a boss about.
    DollForNothing,
    /// A boss's loot, `got` (item names and counts).
    Loot {
        from: Foe,
        got: Vec<(String, u32)>,
    },
}

/// The town: the Guide, housing, newcomers, shops, the Nurse.
#[derive(Clone, Debug, PartialEq)]
pub enum Town {
    /// What the Guide says (a hint from the town's file).
    Guide {
        hint: String,
    },
    /// A townsperson's line from the town's file.
    Says {
        name: &'static str,
        line: String,
    },
    /// The Guide moves into the house at `(x, y)`.
    GuideMovesIn {
        x: i64,
        y: i64,
    },
    /// The housing query's answer on `room`: who lives there, or the Guide moving in.
    Housing {
        room: crate::sim::housing::Room,
        lives: Option<&'static str>,
        moved_in: bool,
    },
    /// `name`'s home `room` is no house any more: it moves out.
    MovesOut {
        name: &'static str,
        room: crate::sim::housing::Room,
    },
    MerchantArrived,
    NurseArrived,
    /// A newcomer arrived (one who `trades` says so).
    FolkArrived {
        name: &'static str,
        trades: bool,
    },
    /// A townsperson arrives at the house at `(x, y)`.
    Arrives {
        name: &'static str,
        x: i64,
        y: i64,
    },
    /// A shop opened, the player carrying `money` copper.
    ShopOpen {
        money: u64,
    },
    /// One `item` bought for `price` copper, `left` copper left.
    Bought {
        item: ItemId,
        price: u64,
        left: u64,
    },
    CantBuy(crate::sim::shop::ShopRefusal),
    /// `n` of `item` sold for `got` copper.
    Sold {
        item: ItemId,
        n: u32,
        got: u64,
    },
    CantSell(crate::sim::shop::ShopRefusal),
    /// The Nurse healed `healed` for `price` copper: `health` now.
    NurseHealed {
        healed: f32,
        price: u64,
        health: f32,
    },
    NurseRefused(crate::sim::nurse::NurseRefusal),
}

impl From<Hand> for Message {
    fn from(m: Hand) -> Message {
        Message::Hand(m)
    }
}

impl From<Fight> for Message {
    fn from(m: Fight) -> Message {
        Message::Fight(m)
    }
}

impl From<Boss> for Message {
    fn from(m: Boss) -> Message {
        Message::Boss(m)
    }
}

impl From<Town> for Message {
    fn from(m: Town) -> Message {
        Message::Town(m)
    }
}
