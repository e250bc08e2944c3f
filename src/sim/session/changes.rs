//! What a tick changed ([`Changes`]): the tiles, the light and the explored map a view
//! must redraw, what happened to players and creatures, and the messages for the players.

use super::PlayerId;
use crate::content::items::ItemId;
use crate::sim::creatures::Kind;
use crate::sim::light::Rect;
use crate::world::Tile;
use crate::world::explored::Cells;

pub use super::message::Message;

/// Something that happened to a player or a creature.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A player's body moved (after its physics step).
    Moved { player: PlayerId, pos: (f32, f32) },
    /// A creature appeared with its feet at `at`.
    Spawned { kind: Kind, at: (f32, f32) },
    /// A player's swing killed a creature.
    Killed { kind: Kind, by: PlayerId },
    /// A creature touched a player for `damage`.
    Hurt {
        player: PlayerId,
        damage: f32,
        by: String,
    },
    /// A player died: its death screen shows until it respawns.
    Died { player: PlayerId },
    /// A player came back after its death screen, feet at `at` (its bed or the world's
    /// spawn point).
    Respawned { player: PlayerId, at: (f32, f32) },
    /// A player swung a sword.
    Swung { player: PlayerId },
    /// A player shot an arrow or a bolt, or threw a shuriken or a bomb.
    Shot {
        player: PlayerId,
        look: crate::sim::projectiles::Look,
    },
    /// A bomb blew up at `at`, `radius` tiles wide.
    Blast { at: (f32, f32), radius: f32 },
    /// A player dug (or felled) the tile at `(x, y)`, getting `tile`.
    Dug {
        player: PlayerId,
        x: i64,
        y: i64,
        tile: Tile,
    },
    /// A player placed `tile` at `(x, y)`.
    Placed {
        player: PlayerId,
        x: i64,
        y: i64,
        tile: Tile,
    },
    /// A player crafted a recipe at station `at` (`None`: by hand), or could not (`ok`).
    Crafted {
        player: PlayerId,
        at: Option<Tile>,
        ok: bool,
    },
    /// A player's swing hit a creature of `kind` with its feet at `at` for `damage`; one
    /// event per creature struck, `killed` when the hit killed it (then a
    /// [`Event::Killed`] follows).
    Hit {
        player: PlayerId,
        kind: Kind,
        at: (f32, f32),
        damage: f32,
        killed: bool,
    },
    /// A door at `(x, y)` was opened (`open`) or closed, by a player or the Guide.
    Door { x: i64, y: i64, open: bool },
    /// The Eye came (summoned or on its own), its centre at `at`.
    BossCame { at: (f32, f32) },
    /// A player's swing hit the Eye, leaving it `health`.
    BossHit { player: PlayerId, health: f32 },
    /// The Eye turned to its second phase (half health).
    BossPhase,
    /// The Eye flew off (dawn, or no player near).
    BossLeft,
    /// A player's swing killed the Eye.
    BossDefeated { by: PlayerId },
    /// Flowing lava met water and hardened at `(x, y)`.
    Hardened { x: usize, y: usize },
    /// `count` of `item` was dropped into the world at `at` (a dig, a kill, a throw, a
    /// death), to lie there until a player picks it up.
    Dropped {
        item: ItemId,
        count: u32,
        at: (f32, f32),
    },
    /// A player picked up `count` of `item` lying in the world.
    PickedUp {
        player: PlayerId,
        item: ItemId,
        count: u32,
    },
    /// A player opened the chest at `(x, y)`, which holds `stacks` stacks.
    ChestOpened {
        player: PlayerId,
        x: usize,
        y: usize,
        stacks: usize,
    },
    /// A player opened a shop (a right-click on its seller).
    ShopOpened { player: PlayerId },
    /// The Merchant arrived and moved into the house at his feet.
    MerchantArrived { at: (f32, f32) },
    /// The Nurse arrived and moved into the house at her feet.
    NurseArrived { at: (f32, f32) },
    /// A newcomer of `config/town.ron` arrived and moved into the house at its feet.
    FolkArrived { name: &'static str, at: (f32, f32) },
    /// The Nurse healed a player by `amount`.
    Healed { player: PlayerId, amount: f32 },
}

/// What one tick (or one action) changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    /// Tiles that changed, with their new value, in the order they changed (edits and
    /// flowing water alike).
    pub tiles: Vec<(usize, usize, Tile)>,
    /// Rectangles whose light levels were recomputed.
    pub relit: Vec<Rect>,
    /// The box around the tiles flowing water and lava moved this tick.
    pub flowed: Option<Rect>,
    /// Cells of the explored map revealed.
    pub revealed: Option<Cells>,
    pub events: Vec<Event>,
    pub messages: Vec<(PlayerId, Message)>,
    /// Edits (digs, placements, fellings, chest clicks) made: each makes the world unsaved.
    pub edits: u64,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }

    /// Says `m` to player `who`.
    pub(crate) fn say(&mut self, who: PlayerId, m: impl Into<Message>) {
        self.messages.push((who, m.into()));
    }

    /// Takes in `more` (a later part of the same tick).
    pub fn extend(&mut self, more: Changes) {
        self.tiles.extend(more.tiles);
        self.relit.extend(more.relit);
        self.flowed = match (self.flowed, more.flowed) {
            (Some(a), Some(b)) => Some(union(a, b)),
            (a, b) => a.or(b),
        };
        self.revealed = match (self.revealed, more.revealed) {
            (Some(a), Some(b)) => Some(a.union(b)),
            (a, b) => a.or(b),
        };
        self.events.extend(more.events);
        self.messages.extend(more.messages);
        self.edits += more.edits;
    }
}

/// The smallest rectangle holding `a` and `b`.
pub fn union(a: Rect, b: Rect) -> Rect {
    Rect {
        x0: a.x0.min(b.x0),
        y0: a.y0.min(b.y0),
        x1: a.x1.max(b.x1),
        y1: a.y1.max(b.y1),
    }
}

/// The rectangle around `tiles`, if any.
pub fn bounding(tiles: &[(usize, usize)]) -> Option<Rect> {
    let (&(x, y), rest) = tiles.split_first()?;
    let one = |x, y| Rect {
        x0: x,
        y0: y,
        x1: x,
        y1: y,
    };
    Some(
        rest.iter()
            .fold(one(x, y), |r, &(x, y)| union(r, one(x, y))),
    )
}
