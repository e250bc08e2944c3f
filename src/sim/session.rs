//! The simulation of a world in play, without a window: the world and its chests and
//! explored map, the players (each a body, an inventory, vitals and a dig in progress),
//! the creatures, flowing water, light levels and the time of day. [`Session::step`]
//! advances it by one fixed [`TICK`] from a list of [`Intent`]s and returns the
//! [`Changes`] a view draws from. It knows nothing of screens: the game turns keys into
//! intents and drains the changes into its chunk textures, masks and fog; a test or a
//! server does the same without them.
//!
//! Deterministic: no wall clock and no randomness but the creatures' counter, seeded
//! from the world's seed, so the same world, seed and intents give the same
//! [`Session::world_hash`] tick for tick. The rules themselves live in the simulation
//! modules the session calls: [`crate::sim::player`] (physics), [`crate::sim::edit`] (digging and
//! placing), [`crate::sim::vitals`], [`crate::sim::creatures`], [`crate::sim::flow`], [`crate::sim::light`],
//! [`crate::sim::day`], [`crate::sim::boss`] (the Eye, in `eye.rs`), [`crate::content::items`]
//! (crafting, chests). The session's own code is split by concern: `session/town.rs` (the
//! town's people, houses, the shop and the Nurse), `chests.rs`, `hands.rs` (using the
//! selected item, digging, swinging, throwing, crafting), `vitals.rs` (a player's life,
//! death and return), `heal.rs`, `pvp.rs` and `eye.rs`.

pub mod changes;
mod chests;
use chests::Store;
use message::{Blow, Fight, Hand};
mod eye;
mod gear;
mod hands;
mod heal;
pub mod intent;
pub mod message;
mod pvp;
mod rivals;
mod town;
mod vitals;
mod weapons;
pub use pvp::TEAMS;
pub use weapons::{MANA_CRYSTAL, MANA_STAR};

pub use changes::{Changes, Event, Message};
pub use intent::{Intent, LOCAL, PlayerId};
pub use rivals::{VOODOO_DOLL, WORM_FOOD};

use crate::content::config::Content;
use crate::content::items::Catalog;
use crate::content::rules::Rules;
use crate::sim::craft::Stations;
use crate::sim::creatures::Creatures;
use crate::sim::drops::{self, Dropped, Taker};
use crate::sim::edit::{self, DigState, DigStep, EditRefusal};
use crate::sim::flow::Flow;
use crate::sim::light::{LightMap, Rect};
use crate::sim::player::Player;
use crate::sim::vitals::{Harm, Senses, Vitals};
use crate::world::depth::Layers;
use crate::world::inventory::Inventory;
use crate::world::inventory::Stack;
use crate::world::{Tile, World};
use std::sync::Arc;

/// What a save keeps of a player ([`crate::store::save`] writes and reads it).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerState {
    /// Feet centre, tiles (as [`crate::sim::player::Player::pos`]).
    pub pos: (f32, f32),
    pub inventory: Inventory,
    /// 0..=`max_health`.
    pub health: f32,
    /// The most health: [`crate::sim::vitals::MAX_HEALTH`], raised by life crystals.
    pub max_health: f32,
    /// Share of the day gone, 0..1 (0 is midnight).
    pub time_of_day: f32,
    /// The town people and their houses (the world's, as the time of day is); empty in a
    /// save from before they were kept: the Guide then starts beside the spawn point.
    pub town: Vec<crate::sim::npc::NpcState>,
    /// The bed the player last used: its spawn point (`None`: the world's).
    pub bed: Option<(usize, usize)>,
    /// The most mana ([`crate::sim::mana::START`], raised by mana crystals).
    pub max_mana: u32,
    /// The piggy bank's contents (the character's; a world's save keeps none).
    pub bank: crate::world::chest::Bank,
}

impl PlayerState {
    /// A new player at `pos` as `content` makes one: [`PlayerState::new`] carrying the
    /// rules' start items ([`Rules::start_items`]) at the rules' start time, wherever a
    /// player is made (a new session, a joining player, `gen --save`).
    pub fn starting(pos: (f32, f32), content: &Content) -> PlayerState {
        let rules = &content.rules;
        let mut state = PlayerState {
            time_of_day: rules.start_time,
            ..PlayerState::new(pos, &content.catalog)
        };
        for (name, n) in &rules.start_items {
            state.inventory.add(name.as_str(), *n);
        }
        state
    }

    /// A new player at `pos`: a new inventory of `cat`'s items, full health, morning.
    pub fn new(pos: (f32, f32), cat: &Arc<Catalog>) -> PlayerState {
        PlayerState {
            pos,
            inventory: Inventory::starting(cat),
            health: crate::sim::vitals::MAX_HEALTH,
            max_health: crate::sim::vitals::MAX_HEALTH,
            time_of_day: crate::sim::day::MORNING,
            town: Vec::new(),
            bed: None,
            max_mana: crate::sim::mana::START,
            bank: Default::default(),
        }
    }
}

/// The item that raises the most health when used ([`Vitals::use_crystal`]).
pub const LIFE_CRYSTAL: &str = "life_crystal";

/// Mixed into the world's seed for the Merchant's stream of choices.
const MERCHANT_SEED: u64 = 0x4D45_5243_4841_4E54;
/// And the Nurse's.
const NURSE_SEED: u64 = 0x4E55_5253_4521_2121;

/// The seed of the stream of choices of the townsperson called `name` in a world of
/// `seed`: the Guide's is the world's, the Merchant's and the Nurse's theirs, a
/// newcomer's mixed from its name.
pub fn folk_seed(seed: u64, name: &str) -> u64 {
    match name {
        "Guide" => seed,
        "Merchant" => seed ^ MERCHANT_SEED,
        "Nurse" => seed ^ NURSE_SEED,
        _ => name.bytes().fold(seed ^ 0xCBF2_9CE4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
        }),
    }
}
/// Mixed into the world's seed for the draw of a smashed shadow orb's loot.
const ORB_LOOT: u64 = 0x4F52_4221_4C4F_4F54;

/// Most rooms [`Session::houses`] remembers (the oldest is forgotten first).
pub const MAX_HOUSES: usize = 64;

/// The tile the housing rule is asked about for a home whose feet are at `feet`.
fn home_tile(feet: (f32, f32)) -> (i64, i64) {
    (
        feet.0.floor() as i64,
        (feet.1 - crate::sim::player::HEIGHT).floor() as i64,
    )
}

/// One tick of the simulation, seconds: 60 a second, the rate the game is drawn at.
pub const TICK: f64 = 1.0 / 60.0;

/// Ticks between two ticks of flowing water: water falls 30 tiles a second.
pub const FLOW_EVERY: u64 = 2;

/// Seconds between placements while the place button is held.
pub const PLACE_REPEAT: f64 = 0.2;

/// Changes closer than this many tiles are relit as one box.
pub const RELIGHT_GAP: usize = 16;

/// Half a view in tiles before a front-end says otherwise ([`Intent::View`]).
pub const DEFAULT_VIEW_HALF: (f32, f32) = (32.0, 18.0);

/// Boxes `(low corner, high corner)` around groups of `tiles`: a tile within `gap` tiles
/// of a box joins it (and boxes it then touches are merged), otherwise it starts one.
pub fn boxes(tiles: &[(usize, usize)], gap: usize) -> Vec<((usize, usize), (usize, usize))> {
    let mut out: Vec<((usize, usize), (usize, usize))> = Vec::new();
    let near = |a: &((usize, usize), (usize, usize)), b: &((usize, usize), (usize, usize))| {
        a.0.0 <= b.1.0.saturating_add(gap)
            && b.0.0 <= a.1.0.saturating_add(gap)
            && a.0.1 <= b.1.1.saturating_add(gap)
            && b.0.1 <= a.1.1.saturating_add(gap)
    };
    for &(x, y) in tiles {
        let mut b = ((x, y), (x, y));
        // Fold in every box this one reaches, until none is left.
        while let Some(i) = out.iter().position(|o| near(o, &b)) {
            let o = out.swap_remove(i);
            b = (
                (b.0.0.min(o.0.0), b.0.1.min(o.0.1)),
                (b.1.0.max(o.1.0), b.1.1.max(o.1.1)),
            );
        }
        out.push(b);
    }
    out
}

/// Whole ticks in `seconds` (nearest).
pub fn ticks(seconds: f64) -> u64 {
    (seconds / TICK).round().max(0.0) as u64
}

/// One player in a session: a body, what it carries, its health and breath, and what its
/// hands are doing.
#[derive(Clone, Debug, PartialEq)]
pub struct Seat {
    pub body: Player,
    pub inventory: Inventory,
    pub vitals: Vitals,
    /// Mana, for a staff ([`crate::sim::mana`]).
    pub mana: crate::sim::mana::Mana,
    pub dig: DigState,
    /// Share of the dig done on the tile being dug this tick (for a crack overlay).
    pub digging: Option<f32>,
    /// The stack on the cursor in the inventory screen.
    pub held: Option<Stack>,
    /// The chest open beside the inventory, by its tile.
    pub chest: Option<(usize, usize)>,
    /// The shop open beside the inventory, by its seller's name (the Merchant or a
    /// newcomer that sells).
    pub shop: Option<&'static str>,
    /// Half the player's view in tiles (creatures spawn outside it).
    pub view_half: (f32, f32),
    /// The bed the player last used: where it comes back after a death while it stands
    /// (see [`crate::sim::respawn`]); `None`: the world's spawn point.
    pub bed: Option<(usize, usize)>,
    /// Dead: the death screen shows until the player comes back.
    pub death: Option<Death>,
    /// PvP on: other players with it on may hurt this one, and this one them.
    pub pvp: bool,
    /// The player's team (0: none; 1 to [`TEAMS`]): a team's players never hurt each
    /// other.
    pub team: u8,
    /// The tick from which the place button places again while held, and from which the
    /// sword may swing again.
    next_place: u64,
    next_swing: u64,
    /// The tick a magic mirror's channel ends (the player is then home), while one is.
    pub mirror: Option<u64>,
    /// The player's piggy bank: what any piggy bank it opens holds ([`Seat::chest`] is
    /// then that piggy bank's tile).
    pub bank: crate::world::chest::Bank,
}

impl Seat {
    /// A player from its part of a save, unstuck from the tiles of `world`, by `rules`.
    pub fn new(state: &PlayerState, world: &World, rules: &Rules) -> Seat {
        let mut body = Player::new(state.pos);
        body.unstick(world);
        Seat {
            body,
            inventory: state.inventory.clone(),
            vitals: Vitals::with_most(state.health, state.max_health, rules),
            mana: crate::sim::mana::Mana::full(state.max_mana),
            dig: DigState::default(),
            digging: None,
            held: None,
            chest: None,
            shop: None,
            view_half: DEFAULT_VIEW_HALF,
            bed: state.bed,
            death: None,
            pvp: false,
            team: 0,
            next_place: 0,
            next_swing: 0,
            mirror: None,
            bank: state.bank.clone(),
        }
    }
}

/// A player's death, while its screen shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Death {
    /// What the screen says ("You were slain by a slime").
    pub text: String,
    /// The tick the player comes back at.
    pub until: u64,
}

impl Death {
    /// Whole seconds left before the player comes back at tick `now` (the countdown).
    pub fn seconds_left(&self, now: u64) -> u64 {
        let ticks_left = self.until.saturating_sub(now);
        (ticks_left as f64 * TICK).ceil() as u64
    }
}

/// The held controls of one player for one tick, gathered from its intents.
#[derive(Clone, Copy, Debug, Default)]
struct Held {
    axis: i8,
    jump: bool,
    presses: u8,
    down: bool,
    /// Primary held, and where.
    using: Option<Option<(i64, i64)>>,
    placing: Option<(i64, i64, bool)>,
}

/// A world in play.
pub struct Session {
    pub world: World,
    /// The rules, item catalog, loot table and town it plays by: `session.content.rules`,
    /// `session.content.catalog`, ...
    pub content: Arc<Content>,
    /// Player 0 is the local one; saves keep it.
    pub players: Vec<Seat>,
    pub creatures: Creatures,
    /// Water and lava set moving by edits.
    pub flow: Flow,
    /// Light levels, kept up to date with every change of a tile.
    pub light: LightMap,
    /// Bumped whenever light levels change, so views of them know to rebuild.
    pub light_version: u64,
    /// The last relit rectangle (the log and the F3 overlay; a front-end times the tick
    /// that relit it: the session keeps no wall clock).
    pub last_relight: Option<Rect>,
    /// Share of the day gone, 0..1 (0 is midnight).
    pub time_of_day: f32,
    /// The world's depth layers (where creatures spawn).
    pub layers: Layers,
    /// Ticks stepped.
    pub tick: u64,
    /// Edits (digs, placements, fellings, chest clicks) made in this session.
    pub edits: u64,
    /// The town's people: the Guide first (saves keep him and his home; a world from an
    /// older save starts him beside the spawn point), then the Merchant, the Nurse and the
    /// newcomers of `config/town.ron` in the order they arrived.
    pub townsfolk: Vec<crate::sim::npc::Npc>,
    /// Rooms the players showed to be houses (a tile of each, by the housing query): where
    /// a newcomer looks for a free house.
    pub houses: Vec<(i64, i64)>,
    /// The tick the town's homes are next checked.
    guide_check: u64,
    /// The Eye, while it is about ([`crate::sim::boss`]).
    pub boss: Option<crate::sim::boss::Boss>,
    /// The boss after the Eye about, if any ([`crate::sim::boss::Rival`]: the Eater,
    /// Skeletron or the Wall; never beside the Eye).
    pub rival: Option<crate::sim::boss::Rival>,
    /// Where the dungeon's Old Man stands (his feet) until Skeletron falls.
    pub old_man: Option<(f32, f32)>,
    /// Arrows, bolts, shuriken and bombs in flight ([`crate::sim::projectiles`]).
    pub projectiles: Vec<crate::sim::projectiles::Projectile>,
    /// The tick the Eye comes at, after tonight's warning.
    eye_due: Option<u64>,
    /// Was it night last tick (a night begins when it turns)?
    was_night: bool,
    /// Seats whose player has left ([`Session::leave`]): they stand still, take no
    /// intents, and a joining player may take one ([`Session::join_as`]).
    away: Vec<bool>,
    /// Creatures' hits this tick on players whose turn in the tick has not come yet.
    hits: Vec<(PlayerId, crate::sim::creatures::Hit)>,
    /// The tick the next flow tick is due at.
    next_flow: u64,
    /// The flow's ticks and moves when it last woke, for the log line when it rests.
    flow_woke: Option<(u64, u64)>,
}

impl Session {
    /// A session on a new world by the built-in content: its light computed, one player
    /// at its spawn point with a new inventory, the rules' start time.
    pub fn new(world: World) -> Session {
        let light = LightMap::compute(&world);
        Session::start(world, light, None, false)
    }

    /// A session on a world from a save, with its player, by the built-in content.
    pub fn from_save(world: World, player: PlayerState) -> Session {
        let light = LightMap::compute(&world);
        Session::start(world, light, Some(player), true)
    }

    /// [`Session::start_with`] the built-in content.
    pub fn start(
        world: World,
        light: LightMap,
        player: Option<PlayerState>,
        from_save: bool,
    ) -> Session {
        Session::start_with(
            Arc::new(Content::builtin()),
            world,
            light,
            player,
            from_save,
        )
    }

    /// A session playing by `content` on `world` with its `light` already computed;
    /// `player`: the saved player, `None` for a new one; `from_save`: the world comes from
    /// a save (water that was flowing when it was taken is woken).
    pub fn start_with(
        content: Arc<Content>,
        world: World,
        light: LightMap,
        player: Option<PlayerState>,
        from_save: bool,
    ) -> Session {
        let state = player.unwrap_or_else(|| {
            PlayerState::starting(crate::sim::player::spawn_point(&world), &content)
        });
        let mut flow = Flow::default();
        if from_save {
            flow.wake_restless(&world);
        }
        let was_night = crate::sim::day::is_night(state.time_of_day, &content.rules);
        let bestiary = Arc::clone(&content.bestiary);
        Session {
            players: vec![Seat::new(&state, &world, &content.rules)],
            content,
            creatures: Creatures::new(world.seed, bestiary),
            layers: Layers::of_world(&world),
            flow,
            light,
            light_version: 0,
            last_relight: None,
            time_of_day: state.time_of_day,
            tick: 0,
            edits: 0,
            next_flow: 0,
            away: vec![false],
            hits: Vec::new(),
            flow_woke: None,
            townsfolk: townsfolk_of(&state.town, &world),
            houses: state
                .town
                .iter()
                .filter_map(|n| n.home)
                .map(home_tile)
                .collect(),
            guide_check: 0,
            boss: None,
            rival: None,
            old_man: rivals::old_man_place(&world),
            projectiles: Vec::new(),
            eye_due: None,
            was_night,
            world,
        }
    }

    /// Seats another player at the spawn point with a new inventory; returns its id.
    pub fn join(&mut self) -> PlayerId {
        let state =
            PlayerState::starting(crate::sim::player::spawn_point(&self.world), &self.content);
        let seat = Seat::new(&state, &self.world, &self.content.rules);
        self.players.push(seat);
        self.away.push(false);
        PlayerId(self.players.len() - 1)
    }

    /// The town people: the Guide, then the Merchant, the Nurse and the newcomers once
    /// they have come.
    pub fn town(&self) -> impl Iterator<Item = &crate::sim::npc::Npc> {
        self.townsfolk.iter()
    }

    /// The Guide (always first of [`Session::townsfolk`]).
    pub fn guide(&self) -> &crate::sim::npc::Npc {
        &self.townsfolk[0]
    }

    /// The Guide, to move.
    pub fn guide_mut(&mut self) -> &mut crate::sim::npc::Npc {
        &mut self.townsfolk[0]
    }

    /// The townsperson called `name`, once arrived.
    pub fn folk(&self, name: &str) -> Option<&crate::sim::npc::Npc> {
        self.townsfolk.iter().find(|n| n.name == name)
    }

    /// Seats a player with `state` (a character kept by a server): in the first seat
    /// left empty by [`Session::leave`], else a new one; returns its id.
    pub fn join_as(&mut self, state: &PlayerState) -> PlayerId {
        let seat = Seat::new(state, &self.world, &self.content.rules);
        match self.away.iter().position(|&a| a) {
            Some(i) => {
                self.players[i] = seat;
                self.away[i] = false;
                PlayerId(i)
            }
            None => {
                self.players.push(seat);
                self.away.push(false);
                PlayerId(self.players.len() - 1)
            }
        }
    }

    /// Player `who` has left: its seat stays (ids of the others do not move) but takes no
    /// intents, does not move and draws no creatures, until [`Session::join_as`] fills it.
    /// Its open chest is closed and the stack on its cursor goes back into its slots
    /// (kept with its character).
    pub fn leave(&mut self, who: PlayerId) {
        if self.is_present(who) {
            self.act(who, Intent::Close);
        }
        if let Some(a) = self.away.get_mut(who.0) {
            *a = true;
        }
    }

    /// Is player `who` seated and not gone?
    pub fn is_present(&self, who: PlayerId) -> bool {
        self.away.get(who.0).is_some_and(|&a| !a)
    }

    /// Does a present player's body overlap column `x`'s rows `top..=bottom` (where a
    /// block or a closing door would shut it in)?
    pub fn someone_in(&self, x: i64, (top, bottom): (i64, i64)) -> bool {
        (self.players.iter().enumerate())
            .filter(|(i, _)| self.is_present(PlayerId(*i)))
            .any(|(_, p)| (top..=bottom).any(|y| p.body.overlaps_tile(x, y)))
    }

    /// Session time, seconds: ticks stepped times [`TICK`].
    pub fn time(&self) -> f64 {
        self.tick as f64 * TICK
    }

    /// The local player.
    pub fn me(&self) -> &Seat {
        &self.players[LOCAL.0]
    }

    /// The local player, to change.
    pub fn me_mut(&mut self) -> &mut Seat {
        &mut self.players[LOCAL.0]
    }

    /// Player `who`'s part of a save (the time of day is the world's). A player saved
    /// while dead is saved as its death will leave it: back at its bed (or the world's
    /// spawn point) with full health, its drops already lying where it died. Saved as it
    /// lay, it came back where it died with no health (a character kept by a server, with
    /// 1), its death screen gone and never ended.
    pub fn player_state(&self, who: PlayerId) -> PlayerState {
        let mut state = self.live_state(who);
        let p = &self.players[who.0];
        if p.death.is_some() {
            state.pos = crate::sim::respawn::respawn_at(&self.world, p.bed).0;
            state.health = p.vitals.max_health;
        }
        state
    }

    /// Player `who` as it is this tick, dead or alive (what its own window is told).
    pub fn live_state(&self, who: PlayerId) -> PlayerState {
        let p = &self.players[who.0];
        PlayerState {
            pos: p.body.pos,
            inventory: p.inventory.clone(),
            health: p.vitals.health,
            max_health: p.vitals.max_health,
            time_of_day: self.time_of_day,
            town: self.town().map(|n| n.state()).collect(),
            bed: p.bed,
            max_mana: p.mana.most,
            bank: p.bank.clone(),
        }
    }

    /// One tick: the actions among `intents` in order, then each player's held controls
    /// (movement, vitals, digging, placing), the creatures and the day, then flowing
    /// water. An intent of a player not in the session is ignored.
    pub fn step(&mut self, intents: &[(PlayerId, Intent)]) -> Changes {
        let mut out = Changes::default();
        let mut held = vec![Held::default(); self.players.len()];
        for &(who, intent) in intents {
            let Some(h) = held.get_mut(who.0).filter(|_| !self.away[who.0]) else {
                continue;
            };
            match intent {
                Intent::Move { axis, jump } => {
                    h.axis = axis.signum();
                    h.jump = jump;
                }
                Intent::Jump => h.presses = h.presses.saturating_add(1),
                Intent::Down => h.down = true,
                Intent::Use { at } => h.using = Some(at),
                Intent::Place { x, y, pressed } => {
                    // Two in one tick: a press stays a press.
                    let was = h.placing.is_some_and(|p| p.2);
                    h.placing = Some((x, y, pressed || was));
                }
                action => out.extend(self.act(who, action)),
            }
        }
        let dt = TICK as f32;
        self.tick += 1;
        self.time_of_day = crate::sim::day::advance(self.time_of_day, dt, &self.content.rules);
        self.run_boss(&mut out);
        self.run_rival(&mut out);
        for (i, h) in held.iter().enumerate() {
            let who = PlayerId(i);
            if self.away[i] {
                continue;
            }
            // The dead do nothing but wait for the death screen to end.
            let h = if self.players[i].death.is_some() {
                &Held::default()
            } else {
                h
            };
            self.move_player(who, h, &mut out);
            self.live(who, &mut out);
            self.reveal(who, &mut out);
            self.keep_chest(who);
            self.hands(who, h, &mut out);
        }
        self.run_projectiles(&mut out);
        self.tick_items(&mut out);
        self.dolls_in_lava(&mut out);
        self.run_mana(&mut out);
        self.walk_guide(&mut out);
        self.run_flow(&mut out);
        self.keep_inside();
        out
    }

    /// Keeps everything in play inside the world ([`World::holds`], the rule a save's
    /// loader checks): players and town people are moved back inside, creatures that
    /// left it are gone (items are kept inside as they move, [`drops::step`]).
    fn keep_inside(&mut self) {
        let world = &self.world;
        let bodies = self
            .players
            .iter_mut()
            .map(|p| &mut p.body)
            .chain(self.townsfolk.iter_mut().map(|n| &mut n.body));
        for body in bodies {
            if !world.holds(body.pos) {
                body.pos = world.keep_inside(body.pos, 0.0);
                body.vel = (0.0, 0.0);
            }
        }
        self.creatures.list.retain(|c| world.holds(c.body.pos));
    }

    /// An action of player `who` (not a held control; those only act in [`Session::step`]),
    /// done now, between ticks: the inventory screen's clicks, crafting, selecting.
    pub fn act(&mut self, who: PlayerId, intent: Intent) -> Changes {
        let mut out = Changes::default();
        let Some(p) = self.players.get_mut(who.0) else {
            return out;
        };
        match intent {
            Intent::Select(n) => p.inventory.select(n),
            Intent::Scroll(steps) => p.inventory.scroll(steps),
            Intent::Craft(i) => self.craft(who, i, &mut out),
            Intent::OpenChest { x, y } => self.open_chest(who, x, y, &mut out),
            Intent::Close => {
                p.chest = None;
                p.shop = None;
                if let Some(h) = p.held.take() {
                    let lost = p.inventory.add(h.item, h.count);
                    if lost > 0 {
                        let (item, count) = (h.item, lost);
                        out.say(who, Hand::DidNotFit { item, count });
                    }
                }
            }
            Intent::ClickSlot(i) => {
                p.inventory.click(i, &mut p.held);
                crate::sim::coins::settle(&mut p.inventory, &self.content.town.coins);
            }
            Intent::ClickArmour(i) => match p.inventory.click_armour(i, &mut p.held) {
                Ok(()) => {
                    p.vitals.defence = p.inventory.defence();
                    let defence = p.vitals.defence;
                    out.say(who, Hand::ArmourSlot { slot: i, defence });
                }
                Err(e) => out.say(who, Hand::CantWear(e)),
            },
            Intent::ClickAccessory(i) => match p.inventory.click_accessory(i, &mut p.held) {
                Ok(()) => out.say(who, Hand::AccessorySlot { slot: i }),
                Err(e) => out.say(who, Hand::CantWear(e)),
            },
            Intent::Hook { at } => self.hook(who, at, &mut out),
            Intent::ClickChest(i) => self.use_store(who, Store::Click(i), &mut out),
            Intent::View { half } if half.0 > 0.0 && half.1 > 0.0 => p.view_half = half,
            Intent::View { .. } => {}
            Intent::Housing { x, y } => self.query_housing(who, x, y, &mut out),
            Intent::Buy(i) => self.buy(who, i, &mut out),
            Intent::Sell(i) => self.sell(who, i, &mut out),
            Intent::Throw => self.throw(who, &mut out),
            Intent::QuickHeal => self.quick_heal(who, &mut out),
            Intent::LootAll => self.use_store(who, Store::LootAll, &mut out),
            Intent::DepositAll => self.use_store(who, Store::DepositAll, &mut out),
            Intent::Move { .. }
            | Intent::Jump
            | Intent::Down
            | Intent::Use { .. }
            | Intent::Place { .. } => {}
        }
        out
    }

    /// The player's physics for the tick.
    fn move_player(&mut self, who: PlayerId, h: &Held, out: &mut Changes) {
        let p = &mut self.players[who.0];
        let before = (p.body.jumps, p.body.strokes, p.body.pos);
        let input = intent::walk(h.axis, h.jump, h.presses, h.down);
        gear::fit(p);
        p.body.update(&self.world, input, TICK as f32);
        if (p.body.jumps, p.body.strokes) != (before.0, before.1) {
            let (jumps, strokes) = (p.body.jumps, p.body.strokes);
            out.say(who, Hand::Jumps { jumps, strokes });
        }
        if p.body.pos != before.2 {
            let pos = p.body.pos;
            out.events.push(Event::Moved { player: who, pos });
        }
    }

    /// A right-click of player `who` at `(x, y)` on the Guide (talk) or a door (open or
    /// close it): `true` when it was one of those, so nothing is placed.
    fn right_click(
        &mut self,
        who: PlayerId,
        x: i64,
        y: i64,
        pressed: bool,
        out: &mut Changes,
    ) -> bool {
        let body = &self.players[who.0].body;
        let reach = edit::can_reach(body, x, y, edit::REACH);
        let under = self.town().find(|n| n.under(x, y)).map(|n| n.name);
        if under.is_some() && reach && !pressed {
            // The button held over a townsperson after the click that talked: what is
            // selected is not placed into them, and the player is told so.
            let inv = &self.players[who.0].inventory;
            if inv.selected_tile().is_some() || inv.selected_wall().is_some() {
                let e = EditRefusal::SomeoneThere;
                out.messages.push((who, Message::Refused(e)));
            }
            return true;
        }
        if let Some(name) = under.filter(|_| reach) {
            if pressed {
                self.talk_to_folk(who, name, out);
            }
            return true;
        }
        if self.old_man_under(x, y) && reach {
            if pressed {
                self.talk_to_old_man(who, out);
            }
            return true;
        }
        match self.world.get(x, y) {
            Some(Tile::Bed) => {
                if pressed {
                    self.use_bed(who, x, y, out);
                }
                true
            }
            Some(t) if t.is_door() => {
                // A door does not close on anyone (the player's own body is
                // toggle_door's to check).
                let closing = t == Tile::OpenDoor;
                let rows = edit::door_rows(&self.world, x, y);
                if pressed && closing && rows.is_some_and(|r| self.someone_in(x, r)) {
                    let e = edit::EditRefusal::WouldTrapPlayer;
                    out.messages.push((who, Message::Refused(e)));
                } else if pressed {
                    match edit::toggle_door(&mut self.world, body, x, y) {
                        Ok(t) => {
                            let h = self.world.height();
                            self.edited(&edit::changed_by(t, x as usize, y as usize, h), out);
                            let open = t == Tile::OpenDoor;
                            out.events.push(Event::Door { x, y, open });
                            out.say(who, Hand::Door { tile: t, x, y });
                        }
                        Err(e) => out.messages.push((who, Message::Refused(e))),
                    }
                }
                true
            }
            _ => false,
        }
    }

    /// Player `who` uses the bed at `(x, y)`: it becomes the player's spawn point, when
    /// it is within reach and has room to stand in.
    fn use_bed(&mut self, who: PlayerId, x: i64, y: i64, out: &mut Changes) {
        let p = &mut self.players[who.0];
        if !edit::can_reach(&p.body, x, y, edit::REACH) {
            out.messages
                .push((who, Message::Refused(EditRefusal::OutOfReach)));
            return;
        }
        match crate::sim::respawn::use_bed(&self.world, x, y) {
            Some(Ok(bed)) => {
                p.bed = Some(bed);
                out.say(who, Hand::SpawnSet { x, y });
            }
            Some(Err(lost)) => out.say(who, Hand::CantSleep(lost)),
            None => {}
        }
    }

    /// The size of the light the last edit recomputed, for its log line.
    fn relit(&self) -> message::Relit {
        (self.last_relight).map(|r| (r.x1 - r.x0 + 1, r.y1 - r.y0 + 1))
    }

    /// Sets one tile (outside the rules of play: tests, tools). Nothing when it is
    /// outside the world or already that tile.
    pub fn set_tile(&mut self, x: usize, y: usize, tile: Tile) -> Changes {
        let mut out = Changes::default();
        if x < self.world.width() && y < self.world.height() && self.world.tile(x, y) != tile {
            self.world.set(x, y, tile);
            self.edited(&[(x, y)], &mut out);
        }
        out
    }

    /// Tiles were changed in the world by an edit: notes them, counts an edit and relights
    /// once over the box around them all. Nothing for an empty list.
    fn edited(&mut self, tiles: &[(usize, usize)], out: &mut Changes) {
        if tiles.is_empty() {
            return;
        }
        self.edits += 1;
        out.edits += 1;
        self.note(tiles, out);
        if let Some(b) = boxes(tiles, usize::MAX).first() {
            self.relight_box(b.0, b.1, out);
        }
    }

    /// Notes the new values of `tiles` in `out`.
    fn note(&self, tiles: &[(usize, usize)], out: &mut Changes) {
        out.tiles
            .extend(tiles.iter().map(|&(x, y)| (x, y, self.world.tile(x, y))));
    }

    /// Relights the tiles `lo..=hi`.
    fn relight_box(&mut self, lo: (usize, usize), hi: (usize, usize), out: &mut Changes) {
        let r = self
            .light
            .update_region(&self.world, lo.0, lo.1, hi.0, hi.1);
        self.last_relight = Some(r);
        self.light_version += 1;
        out.relit.push(r);
    }

    /// Tile `(x, y)` was dug or built on: wakes the water around it.
    pub fn stir(&mut self, x: usize, y: usize) {
        self.flow.wake(&self.world, x, y);
    }

    /// Flowing water every [`FLOW_EVERY`] ticks while any moves. Water lets light through
    /// like air, so moving it needs no relight; lava that moved or hardened is relit, a box
    /// around each group of nearby changes (two flows far apart are two small boxes, not
    /// one huge one).
    fn run_flow(&mut self, out: &mut Changes) {
        if self.flow.is_idle() {
            self.next_flow = self.tick;
            if let Some((ticks, moves)) = self.flow_woke.take() {
                let (ticks, moves) = (self.flow.ticks() - ticks, self.flow.moves - moves);
                out.say(LOCAL, Hand::WaterAtRest { ticks, moves });
            }
            return;
        }
        self.flow_woke
            .get_or_insert((self.flow.ticks(), self.flow.moves));
        if self.tick >= self.next_flow {
            self.next_flow = self.tick + FLOW_EVERY;
            let moved = self.flow.tick(&mut self.world);
            if let Some(&(x, y)) = moved
                .iter()
                .find(|&&(x, y)| self.world.tile(x, y) == Tile::Obsidian)
            {
                out.events.push(Event::Hardened { x, y });
            }
            self.note(&moved, out);
            if let Some(r) = changes::bounding(&moved) {
                out.flowed = Some(out.flowed.map_or(r, |f| changes::union(f, r)));
            }
        }
        let lit = self.flow.take_relight();
        for (lo, hi) in boxes(&lit, RELIGHT_GAP) {
            self.relight_box(lo, hi, out);
        }
    }

    /// A hash of the whole simulation: the world's tiles, chests, explored map and items
    /// lying in it, every
    /// player (body, inventory, vitals, dig, cursor stack, open chest), the creatures
    /// (and their spawn counter), the time of day and the tick. Two sessions stepped the
    /// same way hash the same.
    pub fn world_hash(&self) -> u64 {
        let mut h = Fnv::default();
        h.u64(self.world.tile_hash());
        h.u64(self.world.wall_hash());
        h.u64(self.world.seed);
        h.text(&format!("{:?}", self.world.chests));
        for run in self.world.explored.runs() {
            h.u64(run);
        }
        for p in &self.players {
            // Debug output spells every field, floats exactly (shortest round trip).
            h.text(&format!("{p:?}"));
        }
        h.text(&format!("{:?}", self.creatures));
        h.text(&format!("{:?}", self.world.dropped));
        h.u64(u64::from(self.time_of_day.to_bits()));
        h.u64(self.tick);
        h.u64(self.flow.ticks());
        // Only once there is a story to tell, so the hashes of sessions without one stay.
        if self.boss.is_some() || self.world.progress != Default::default() {
            h.text(&format!("{:?} {:?}", self.boss, self.world.progress));
        }
        if let Some(r) = &self.rival {
            h.text(&format!("{r:?}"));
        }
        h.0
    }
}

/// 64-bit FNV-1a, for [`Session::world_hash`] (the same on every machine and run).
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    fn text(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.bytes(s.as_bytes());
    }
}

#[cfg(test)]
mod first_hour_tests;
#[cfg(test)]
mod gear_tests;
#[cfg(test)]
mod kit_tests;
#[cfg(test)]
mod rival_fights_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod town_tests;
#[cfg(test)]
mod weapons_tests;

/// The town's people from a save's `town`: the Guide (beside the spawn point when the
/// save has none), then the others it holds, in [`crate::sim::npc::NAMES`]' order.
fn townsfolk_of(town: &[crate::sim::npc::NpcState], world: &World) -> Vec<crate::sim::npc::Npc> {
    let guide = town.iter().find(|n| n.name == "Guide").map_or_else(
        || crate::sim::npc::Npc::guide(world, world.seed),
        |g| crate::sim::npc::Npc::restore(g, world, world.seed),
    );
    let others = crate::sim::npc::NAMES[1..].iter().filter_map(|&name| {
        let n = town.iter().find(|n| n.name == name)?;
        Some(crate::sim::npc::Npc::restore(
            n,
            world,
            folk_seed(world.seed, name),
        ))
    });
    std::iter::once(guide).chain(others).collect()
}
