//! What a player asks of the simulation in one tick ([`Intent`]), and who asks
//! ([`PlayerId`]). Intents are plain values: a front-end makes them from keys and the
//! mouse, a test or a bot from a script, a server from the network.

/// A player of a session: an index into [`super::Session::players`]. Player 0 is the
/// local one (the window's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub usize);

/// The local player.
pub const LOCAL: PlayerId = PlayerId(0);

/// One thing a player does or holds during a tick.
///
/// Held controls ([`Intent::Move`], [`Intent::Use`], [`Intent::Place`]) last one tick: a
/// player holding a key sends it every tick, and a tick without it is a tick with the key
/// up (the dig in progress is forgotten, the player slows down). Everything else is an
/// action, done once when it comes. Serde lets a client send them to a server
/// ([`crate::net`]).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Intent {
    /// Walk: `axis` -1 left, +1 right, 0 neither; `jump` held (a longer jump while held).
    Move { axis: i8, jump: bool },
    /// One press of jump (a jump, or a stroke in water), even if released within the tick.
    Jump,
    /// Held down this tick: drop through a platform.
    Down,
    /// Ask whether the room at `(x, y)` is a house (a homeless Guide moves into one).
    Housing { x: i64, y: i64 },
    /// The primary button held, aimed at tile `at` (`None`: the mouse is outside the
    /// world): digs there, or swings the selected sword toward it.
    Use { at: Option<(i64, i64)> },
    /// The secondary button held at tile `(x, y)`; `pressed`: pressed this tick. Opens the
    /// chest there (on a press), else places the selected block (on a press, and again
    /// every [`super::PLACE_REPEAT`] seconds while held).
    Place { x: i64, y: i64, pressed: bool },
    /// Selects hotbar slot `n`.
    Select(usize),
    /// Moves the hotbar selection by `steps` (the mouse wheel).
    Scroll(i32),
    /// Crafts recipe `i` of the catalog (an index into `session.content.catalog.recipes`).
    Craft(usize),
    /// Opens the chest at `(x, y)` if it is within reach.
    OpenChest { x: i64, y: i64 },
    /// Closes the open chest and puts the stack on the cursor back into the slots (the
    /// inventory screen closing).
    Close,
    /// A click on inventory slot `i`: picks up, puts down, merges or swaps with the stack
    /// on the cursor.
    ClickSlot(usize),
    /// A click on slot `i` of the open chest: takes, puts, merges or swaps with the stack
    /// on the cursor.
    ClickChest(usize),
    /// A click on armour slot `i` (0 head, 1 body, 2 legs) with the stack on the cursor:
    /// puts the piece on (what was worn comes onto the cursor), or takes the worn piece
    /// off onto an empty cursor.
    ClickArmour(usize),
    /// Loot all: moves everything of the open chest into the inventory, as far as it has
    /// room.
    LootAll,
    /// Deposit all: moves everything but the hotbar into the open chest, as far as it
    /// has room.
    DepositAll,
    /// Throws a stack out into the world: the one on the cursor (dragged out of the
    /// inventory), else the selected hotbar stack.
    Throw,
    /// Half the player's view in tiles: creatures spawn outside it. Kept until changed.
    View { half: (f32, f32) },
    /// Buys one of entry `i` of what the Merchant sells (his shop open).
    Buy(usize),
    /// Sells the stack in inventory slot `i` to the Merchant (his shop open).
    Sell(usize),
    /// Drinks the first healing potion carried, whatever is selected (Terraria's quick
    /// heal, H).
    QuickHeal,
    /// A click on accessory slot `i` (0..5) with the stack on the cursor: puts the
    /// accessory on (what was worn comes onto the cursor), or takes it off onto an empty
    /// cursor.
    ClickAccessory(usize),
    /// The hook key, aimed at the point `at` (tiles): a grappling hook worn fires its line
    /// toward it ([`crate::sim::player::Player::fire_hook`]).
    Hook { at: (f32, f32) },
}

impl Intent {
    /// Is it a control held for one tick (rather than an action)?
    pub fn is_held(&self) -> bool {
        matches!(
            self,
            Intent::Move { .. } | Intent::Use { .. } | Intent::Place { .. }
        )
    }
}

/// Walk input for the player physics from a [`Intent::Move`] axis and jump.
pub fn walk(axis: i8, jump: bool, presses: u8, down: bool) -> crate::sim::player::Input {
    crate::sim::player::Input {
        left: axis < 0,
        right: axis > 0,
        jump,
        presses,
        down,
    }
}

/// The axis of a pair of held keys: both or neither is 0, as the physics treats them.
pub fn axis(left: bool, right: bool) -> i8 {
    right as i8 - left as i8
}
