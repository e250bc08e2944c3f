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
//! (crafting, chests).

pub mod changes;
mod eye;
mod heal;
pub mod intent;
mod pvp;
pub use pvp::TEAMS;

pub use changes::{Changes, Event, Message};
pub use intent::{Intent, LOCAL, PlayerId};

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
use std::time::{Duration, Instant};

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
        }
    }
}

/// The item that raises the most health when used ([`Vitals::use_crystal`]).
pub const LIFE_CRYSTAL: &str = "life_crystal";

/// What a player is told who opens a chest another player has open.
pub const CHEST_IN_USE: &str = "Someone else is using this chest";

/// Mixed into the world's seed for the Merchant's stream of choices.
const MERCHANT_SEED: u64 = 0x4D45_5243_4841_4E54;
/// And the Nurse's.
const NURSE_SEED: u64 = 0x4E55_5253_4521_2121;
/// Mixed into the world's seed for the draw of a smashed shadow orb's loot.
const ORB_LOOT: u64 = 0x4F52_4221_4C4F_4F54;

/// Most rooms [`Session::houses`] remembers (the oldest is forgotten first).
pub const MAX_HOUSES: usize = 64;
/// Seconds what the Guide says stays on the screen (a sentence to read, longer than a notice).
pub const TALK_SECONDS: f64 = 8.0;

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
    pub dig: DigState,
    /// Share of the dig done on the tile being dug this tick (for a crack overlay).
    pub digging: Option<f32>,
    /// The stack on the cursor in the inventory screen.
    pub held: Option<Stack>,
    /// The chest open beside the inventory, by its tile.
    pub chest: Option<(usize, usize)>,
    /// The Merchant's shop is open beside the inventory.
    pub shop: bool,
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
            dig: DigState::default(),
            digging: None,
            held: None,
            chest: None,
            shop: false,
            view_half: DEFAULT_VIEW_HALF,
            bed: state.bed,
            death: None,
            pvp: false,
            team: 0,
            next_place: 0,
            next_swing: 0,
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
    /// The last relit rectangle and how long the relighting took (the log and the F3
    /// overlay; not part of the simulation).
    pub last_relight: Option<(Rect, Duration)>,
    /// Share of the day gone, 0..1 (0 is midnight).
    pub time_of_day: f32,
    /// The world's depth layers (where creatures spawn).
    pub layers: Layers,
    /// Ticks stepped.
    pub tick: u64,
    /// Edits (digs, placements, fellings, chest clicks) made in this session.
    pub edits: u64,
    /// The Guide (saves keep him and his home; a world from an older save starts him
    /// beside the spawn point).
    pub guide: crate::sim::npc::Npc,
    /// The Merchant, once he has arrived.
    pub merchant: Option<crate::sim::npc::Npc>,
    /// The Nurse, once she has arrived.
    pub nurse: Option<crate::sim::npc::Npc>,
    /// Rooms the players showed to be houses (a tile of each, by the housing query): where
    /// a newcomer looks for a free house.
    pub houses: Vec<(i64, i64)>,
    /// The tick the town's homes are next checked.
    guide_check: u64,
    /// The Eye, while it is about ([`crate::sim::boss`]).
    pub boss: Option<crate::sim::boss::Boss>,
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
        Session {
            players: vec![Seat::new(&state, &world, &content.rules)],
            content,
            creatures: Creatures::new(world.seed),
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
            guide: state.town.iter().find(|n| n.name == "Guide").map_or_else(
                || crate::sim::npc::Npc::guide(&world, world.seed),
                |g| crate::sim::npc::Npc::restore(g, &world, world.seed),
            ),
            merchant: state
                .town
                .iter()
                .find(|n| n.name == "Merchant")
                .map(|m| crate::sim::npc::Npc::restore(m, &world, world.seed ^ MERCHANT_SEED)),
            nurse: state
                .town
                .iter()
                .find(|n| n.name == "Nurse")
                .map(|n| crate::sim::npc::Npc::restore(n, &world, world.seed ^ NURSE_SEED)),
            houses: state
                .town
                .iter()
                .filter_map(|n| n.home)
                .map(home_tile)
                .collect(),
            guide_check: 0,
            boss: None,
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

    /// The town people: the Guide, then the Merchant and the Nurse once they have come.
    pub fn town(&self) -> impl Iterator<Item = &crate::sim::npc::Npc> {
        std::iter::once(&self.guide)
            .chain(self.merchant.as_ref())
            .chain(self.nurse.as_ref())
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
        self.tick_items(&mut out);
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
            .chain(std::iter::once(&mut self.guide.body))
            .chain(self.merchant.as_mut().map(|n| &mut n.body))
            .chain(self.nurse.as_mut().map(|n| &mut n.body));
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
                p.shop = false;
                if let Some(h) = p.held.take() {
                    let lost = p.inventory.add(h.item, h.count);
                    if lost > 0 {
                        let name = &self.content.catalog.item(h.item).name;
                        let text = format!("{lost} {name} did not fit back");
                        out.messages.push((who, Message::Warning(text)));
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
                    out.log(
                        who,
                        format!("armour slot {i}: defence {}", p.vitals.defence),
                    );
                }
                Err(e) => out.notice(who, format!("Can't wear that: {e}")),
            },
            Intent::ClickChest(i) => {
                let Some((x, y)) = p.chest else {
                    return out;
                };
                if self.world.tile(x, y) != Tile::Chest {
                    return out;
                }
                let before = p.held;
                let cat = &self.content.catalog;
                self.world.chests.open(x, y).click(cat, i, &mut p.held);
                if p.held != before {
                    self.edits += 1;
                    out.edits += 1;
                    out.log(who, format!("chest at {x} {y} slot {i}"));
                }
            }
            Intent::View { half } if half.0 > 0.0 && half.1 > 0.0 => p.view_half = half,
            Intent::View { .. } => {}
            Intent::Housing { x, y } => self.query_housing(who, x, y, &mut out),
            Intent::Buy(i) => self.buy(who, i, &mut out),
            Intent::Sell(i) => self.sell(who, i, &mut out),
            Intent::Throw => self.throw(who, &mut out),
            Intent::QuickHeal => self.quick_heal(who, &mut out),
            Intent::LootAll | Intent::DepositAll => {
                let Some((x, y)) = p.chest else {
                    return out;
                };
                if self.world.tile(x, y) != Tile::Chest {
                    return out;
                }
                let chest = self.world.chests.open(x, y);
                let (moved, what) = if intent == Intent::LootAll {
                    (chest.loot_all(&mut p.inventory), "looted")
                } else {
                    (chest.deposit_all(&mut p.inventory), "deposited")
                };
                if moved > 0 {
                    self.edits += 1;
                    out.edits += 1;
                }
                out.log(who, format!("{what} {moved} items at chest {x} {y}"));
                if intent == Intent::LootAll && !chest.is_empty() {
                    out.notice(who, "Not everything fitted: the rest stays in the chest");
                }
            }
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
        p.body.update(&self.world, input, TICK as f32);
        if (p.body.jumps, p.body.strokes) != (before.0, before.1) {
            let line = format!("jumps {} strokes {}", p.body.jumps, p.body.strokes);
            out.log(who, line);
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
        if self.guide.under(x, y) && edit::can_reach(body, x, y, edit::REACH) {
            if pressed {
                self.talk_to_guide(who, out);
            }
            return true;
        }
        if self
            .merchant
            .as_ref()
            .is_some_and(|m| m.under(x, y) && edit::can_reach(body, x, y, edit::REACH))
        {
            if pressed {
                let p = &mut self.players[who.0];
                p.shop = true;
                p.chest = None;
                let money = crate::sim::coins::worth(&p.inventory, &self.content.town.coins);
                out.log(
                    who,
                    format!(
                        "shop open: carrying {}",
                        crate::sim::shop::copper_text(&self.content, money)
                    ),
                );
                out.events.push(Event::ShopOpened { player: who });
            }
            return true;
        }
        if self
            .nurse
            .as_ref()
            .is_some_and(|n| n.under(x, y) && edit::can_reach(body, x, y, edit::REACH))
        {
            if pressed {
                self.ask_nurse(who, out);
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
                            out.log(who, format!("{} at {x} {y}", t.name().replace('_', " ")));
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
                out.log(who, format!("spawn point set at {x} {y}"));
                out.notice(who, "Spawn point set");
            }
            Some(Err(lost)) => out.notice(who, format!("Can't sleep here: {lost}")),
            None => {}
        }
    }

    /// Player `who` asks the Nurse to heal it: every missing point for her price, or what
    /// stops her.
    fn ask_nurse(&mut self, who: PlayerId, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let town = &content.town;
        let p = &mut self.players[who.0];
        match crate::sim::nurse::heal(&mut p.vitals, &mut p.inventory, &town.nurse, &town.coins) {
            Ok((healed, price)) => {
                let price = crate::sim::shop::copper_text(&self.content, price);
                out.log(
                    who,
                    format!(
                        "the Nurse healed {healed:.0} for {price}: health {:.0}",
                        p.vitals.health
                    ),
                );
                out.notice(who, format!("Nurse: healed {healed:.0} for {price}"));
                out.events.push(Event::Healed {
                    player: who,
                    amount: healed,
                });
            }
            Err(e) => {
                let e = e.text(&self.content);
                out.log(who, format!("the Nurse did not heal: {e}"));
                out.notice(who, format!("Nurse: {e}"));
            }
        }
    }

    /// What the Guide says to player `who`: a hint for its next step, or, holding an item,
    /// every recipe that uses it.
    fn talk_to_guide(&mut self, who: PlayerId, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let cat = &content.catalog;
        let p = &self.players[who.0];
        let near = Stations::near(&self.world, p.body.bounds(), cat);
        let has = |i: crate::content::items::ItemId| {
            let station =
                matches!(cat.item(i).kind, crate::content::items::Kind::Block(t) if near.has(t));
            p.inventory.count(i) > 0 || station
        };
        let facts = crate::sim::guide::Facts {
            night: crate::sim::day::is_night(self.time_of_day, &content.rules),
            homeless: self.guide.homeless(),
            has: &has,
        };
        let held = p.inventory.selected_stack().map(|s| s.item);
        let text = crate::sim::guide::talk(cat, &content.town.hints, &facts, held);
        out.log(who, format!("guide says: {text}"));
        out.talk(who, format!("Guide: {text}"), TALK_SECONDS);
    }

    /// The room around tile `(x, y)` by the town's housing rule, asked of the world's own
    /// background walls.
    pub fn room_at(&self, x: i64, y: i64) -> crate::sim::housing::Room {
        let town = &self.content.town;
        let world = &self.world;
        crate::sim::housing::check(world, x, y, &town.housing, |x, y| {
            world.wall(x, y).is_some()
        })
    }

    /// Whether the room at `(x, y)` is a house, or what it lacks; a homeless Guide moves
    /// into a house.
    fn query_housing(&mut self, who: PlayerId, x: i64, y: i64, out: &mut Changes) {
        let room = self.room_at(x, y);
        let mut text = crate::sim::housing::describe(&room);
        if room.is_house() && !self.houses.contains(&(x, y)) {
            if self.houses.len() >= MAX_HOUSES {
                self.houses.remove(0);
            }
            self.houses.push((x, y));
        }
        if let Some(name) = self.lives_in(&room) {
            text.push_str(&format!(". The {name} lives here."));
        } else if room.is_house()
            && self.guide.homeless()
            && let Some(spot) = room.floor_spot(&self.world, (x as usize, y as usize))
        {
            self.guide.move_in(spot);
            out.log(who, format!("the Guide moves into the house at {x} {y}"));
            text.push_str(". The Guide moves in.");
        }
        out.log(who, format!("housing: {text}"));
        out.notice(who, text);
    }

    /// Who lives in `room`, if anyone: the name of a town person whose home is inside it.
    pub fn lives_in(&self, room: &crate::sim::housing::Room) -> Option<&'static str> {
        self.town().find_map(|n| {
            let (x, y) = n.home_tile()?;
            room.inside
                .contains(&(x.max(0) as usize, y.max(0) as usize))
                .then_some(n.name)
        })
    }

    /// A house no one lives in among those shown and where the local player stands: the
    /// tile asked about and where a newcomer would stand in it.
    pub fn free_house(&self) -> Option<((i64, i64), (f32, f32))> {
        let c = self.me().body.centre();
        let here = (c.0.floor() as i64, c.1.floor() as i64);
        self.houses
            .iter()
            .copied()
            .chain(std::iter::once(here))
            .find_map(|(x, y)| {
                let room = self.room_at(x, y);
                if !room.is_house() || self.lives_in(&room).is_some() {
                    return None;
                }
                let spot = room.floor_spot(&self.world, (x.max(0) as usize, y.max(0) as usize))?;
                Some(((x, y), spot))
            })
    }

    /// The town's tick: the Guide and the Merchant walk ([`Session::walk_npc`]); every 2 s
    /// their homes are checked (one that is no longer a house is left), and the Merchant
    /// arrives once the rule of [`crate::sim::shop::arrives`] holds.
    fn walk_guide(&mut self, out: &mut Changes) {
        let mut guide = self.guide.clone();
        self.walk_npc(&mut guide, out);
        self.guide = guide;
        if let Some(mut m) = self.merchant.take() {
            self.walk_npc(&mut m, out);
            self.merchant = Some(m);
        }
        if let Some(mut n) = self.nurse.take() {
            self.walk_npc(&mut n, out);
            self.nurse = Some(n);
        }
        if self.tick < self.guide_check {
            return;
        }
        self.guide_check = self.tick + ticks(2.0);
        let mut guide = self.guide.clone();
        self.keep_home(&mut guide, out);
        self.guide = guide;
        if let Some(mut m) = self.merchant.take() {
            self.keep_home(&mut m, out);
            self.merchant = Some(m);
        }
        if let Some(mut n) = self.nurse.take() {
            self.keep_home(&mut n, out);
            self.nurse = Some(n);
        }
        let content = Arc::clone(&self.content);
        let town = &content.town;
        let carried = crate::sim::coins::worth(&self.me().inventory, &town.coins);
        let here = self.merchant.is_some();
        // The coins first: the house search only when he could come.
        if crate::sim::shop::arrives(here, true, carried, &town.merchant)
            && let Some(((x, y), spot)) = self.free_house()
        {
            let mut m =
                crate::sim::npc::Npc::new("Merchant", spot, self.world.seed ^ MERCHANT_SEED);
            m.move_in(spot);
            self.merchant = Some(m);
            out.log(
                LOCAL,
                format!("the Merchant arrives at the house at {x} {y}"),
            );
            out.notice(
                LOCAL,
                "The Merchant has arrived! (right-click him to trade)",
            );
            out.events.push(Event::MerchantArrived { at: spot });
        }
        // The Nurse: once a player present has used a life crystal.
        let most = (0..self.players.len())
            .filter(|&i| !self.away[i])
            .map(|i| self.players[i].vitals.max_health)
            .fold(0.0, f32::max);
        let here = self.nurse.is_some();
        if crate::sim::nurse::arrives(here, true, most, &town.nurse)
            && let Some(((x, y), spot)) = self.free_house()
        {
            let mut n = crate::sim::npc::Npc::new("Nurse", spot, self.world.seed ^ NURSE_SEED);
            n.move_in(spot);
            self.nurse = Some(n);
            out.log(LOCAL, format!("the Nurse arrives at the house at {x} {y}"));
            out.notice(
                LOCAL,
                "The Nurse has arrived! (right-click her to be healed)",
            );
            out.events.push(Event::NurseArrived { at: spot });
        }
    }

    /// A town person's home checked: he leaves one that is no longer a house.
    fn keep_home(&mut self, npc: &mut crate::sim::npc::Npc, out: &mut Changes) {
        if let Some((x, y)) = npc.home_tile() {
            let room = self.room_at(x, y);
            if !room.is_house() {
                let text = format!(
                    "The {} moves out: {}",
                    npc.name,
                    crate::sim::housing::describe(&room)
                );
                out.log(LOCAL, text.clone());
                out.notice(LOCAL, text);
                npc.move_out();
            }
        }
    }

    /// One town person's tick: he walks (home at night), opens a closed door in his way
    /// and closes it behind him.
    fn walk_npc(&mut self, npc: &mut crate::sim::npc::Npc, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let town = &content.town;
        let night = crate::sim::day::is_night(self.time_of_day, &content.rules);
        npc.update(&self.world, night, &town.guide, TICK as f32);
        if let Some((x, y)) = npc.door_ahead(&self.world) {
            let tiles = edit::set_door(&mut self.world, x, y, Tile::OpenDoor);
            self.edited(&tiles, out);
            out.events.push(Event::Door { x, y, open: true });
            npc.opened = Some((x, y));
        }
        if let Some((x, y)) = npc.door_behind()
            && self.world.get(x, y) == Some(Tile::OpenDoor)
            && !edit::door_rows(&self.world, x, y).is_some_and(|(t, b)| {
                (t..=b).any(|yy| self.players.iter().any(|p| p.body.overlaps_tile(x, yy)))
            })
        {
            let tiles = edit::set_door(&mut self.world, x, y, Tile::ClosedDoor);
            self.edited(&tiles, out);
            out.events.push(Event::Door { x, y, open: false });
        }
    }

    /// Player `who` buys one of entry `i` of the Merchant's wares.
    fn buy(&mut self, who: PlayerId, i: usize, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let town = &content.town;
        let p = &mut self.players[who.0];
        if !p.shop {
            return;
        }
        match crate::sim::shop::buy(&mut p.inventory, i, &town.merchant, &town.coins) {
            Ok((item, price)) => {
                let name = &content.catalog.item(item).label;
                let price = crate::sim::shop::copper_text(&self.content, price);
                let left = crate::sim::coins::worth(&p.inventory, &town.coins);
                let left = crate::sim::shop::copper_text(&self.content, left);
                out.log(who, format!("bought {name} for {price}, {left} left"));
                out.notice(who, format!("Bought {name} for {price}"));
                self.edits += 1;
                out.edits += 1;
            }
            Err(e) => out.notice(who, format!("Can't buy: {}", e.text(&self.content))),
        }
    }

    /// Player `who` sells the stack in slot `i` to the Merchant.
    fn sell(&mut self, who: PlayerId, i: usize, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let town = &content.town;
        let p = &mut self.players[who.0];
        if !p.shop {
            return;
        }
        match crate::sim::shop::sell(&mut p.inventory, i, &town.merchant, &town.coins) {
            Ok((item, n, got)) => {
                let name = &content.catalog.item(item).label;
                let got = crate::sim::shop::copper_text(&self.content, got);
                out.log(who, format!("sold {n} {name} for {got}"));
                out.notice(who, format!("Sold {n} {name} for {got}"));
                self.edits += 1;
                out.edits += 1;
            }
            Err(e) => out.notice(who, format!("Can't sell: {}", e.text(&self.content))),
        }
    }

    /// The player's health, and for the local player the creatures (they follow it); a
    /// death shows the death screen, and its end respawns the player.
    fn live(&mut self, who: PlayerId, out: &mut Changes) {
        if let Some(d) = &self.players[who.0].death {
            if self.tick >= d.until {
                self.respawn(who, out);
            }
            return;
        }
        let content = Arc::clone(&self.content);
        let rules = &content.rules;
        let dt = TICK as f32;
        let p = &mut self.players[who.0];
        // Holding a rope ends a fall as the ground does.
        let held = p.body.on_ground || p.body.climbing;
        let senses = Senses::of(&self.world, p.body.pos, held);
        let mut killer = p.vitals.update(senses, dt, rules);
        let players = &self.players;
        let chased = |i: usize, away: bool| !away && players[i].death.is_none();
        if self
            .away
            .iter()
            .enumerate()
            .position(|(i, &a)| chased(i, a))
            == Some(who.0)
        {
            // The first living player present moves the creatures, among every living
            // player present (the dead wait out their death screen).
            let night = crate::sim::day::is_night(self.time_of_day, rules);
            let before = self.creatures.spawned;
            let away = &self.away;
            let (ids, mut list): (Vec<PlayerId>, Vec<_>) = self
                .players
                .iter_mut()
                .enumerate()
                .filter(|(i, p)| !away[*i] && p.death.is_none())
                .map(|(i, p)| {
                    let half = p.view_half;
                    let t = crate::sim::creatures::Target {
                        body: &mut p.body,
                        vitals: &mut p.vitals,
                        half,
                    };
                    (PlayerId(i), t)
                })
                .unzip();
            let hits =
                self.creatures
                    .update_many(&self.world, &self.layers, &mut list, night, rules, dt);
            drop(list);
            self.hits = hits.into_iter().map(|(i, h)| (ids[i], h)).collect();
            for f in self.creatures.take_fallen() {
                let by = f.by.map(PlayerId).filter(|p| p.0 < self.players.len());
                self.reward(f.kind, f.drop, f.count, f.at, by, out);
            }
            if self.creatures.spawned != before
                && let Some(c) = self.creatures.list.last()
            {
                let (kind, at) = (c.kind, c.body.pos);
                let name = kind.stats().name;
                out.log(who, format!("a {name} appeared at {:.0} {:.0}", at.0, at.1));
                out.events.push(Event::Spawned { kind, at });
            }
        }
        let p = &mut self.players[who.0];
        if let Some(k) = self.hits.iter().position(|(w, _)| *w == who) {
            let (_, hit) = self.hits.swap_remove(k);
            let v = p.body.vel;
            out.log(
                who,
                format!(
                    "hurt by {hit} at {:.2} s from {:.1}: health {:.0}, thrown {:.1} {:.1}",
                    self.tick as f64 * TICK,
                    hit.from_x,
                    p.vitals.health,
                    v.0,
                    v.1
                ),
            );
            out.events.push(Event::Hurt {
                player: who,
                damage: hit.damage,
                by: hit.name,
            });
            if hit.killed && killer.is_none() {
                killer = Some(Harm::Creature(hit.name));
            }
        }
        if let Some(harm) = self.eye_touch(who, out)
            && killer.is_none()
        {
            killer = Some(harm);
        }
        let p = &mut self.players[who.0];
        if let Some((rows, damage)) = p.vitals.last_fall.take() {
            out.log(
                who,
                format!(
                    "fell {rows:.0} tiles for {damage:.0}: health {:.0}",
                    p.vitals.health
                ),
            );
        }
        if let Some(harm) = killer {
            self.die(who, harm, out);
        }
    }

    /// Player `who` died of `harm`: the death screen for [`Rules::respawn_seconds`]
    /// (`Seat::death`), and what the rules drop of its inventory lies where it died.
    ///
    /// [`Rules::respawn_seconds`]: crate::content::rules::Rules::respawn_seconds
    fn die(&mut self, who: PlayerId, harm: Harm, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let rules = &content.rules;
        let p = &mut self.players[who.0];
        let text = crate::sim::respawn::slain_by(harm);
        let until = self.tick + ticks(f64::from(rules.respawn_seconds));
        let dropped = crate::sim::respawn::death_drops(&mut p.inventory, &content.catalog, rules);
        let at = p.body.centre();
        p.death = Some(Death {
            text: text.clone(),
            until,
        });
        p.body.vel = (0.0, 0.0);
        p.dig.reset();
        p.digging = None;
        p.chest = None;
        let kept = if dropped.is_empty() {
            "nothing dropped".to_string()
        } else {
            let each: Vec<String> = dropped
                .iter()
                .map(|s| format!("{} {}", s.count, content.catalog.item(s.item).name))
                .collect();
            format!("dropped {}", each.join(", "))
        };
        out.log(who, format!("died of {harm}: {text}; {kept}"));
        out.notice(who, text);
        out.events.push(Event::Died { player: who });
        for stack in dropped {
            self.drop_item(stack, at, None, out);
        }
    }

    /// The death screen of player `who` is over: it comes back at its bed (or the world's
    /// spawn point, saying why not the bed), with full health, invincible a while.
    fn respawn(&mut self, who: PlayerId, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let rules = &content.rules;
        let p = &mut self.players[who.0];
        p.death = None;
        let (at, lost) = crate::sim::respawn::respawn_at(&self.world, p.bed);
        let place = if p.bed.is_some() && lost.is_none() {
            "the bed"
        } else {
            "the spawn point"
        };
        out.log(who, format!("respawned at {place} {:.1} {:.1}", at.0, at.1));
        if let Some(lost) = lost {
            p.bed = None;
            out.log(who, format!("bed lost: {lost}"));
            out.notice(who, format!("{lost}: back at the world's spawn point"));
        }
        p.body = Player::new(at);
        p.vitals = Vitals::respawned_with(p.vitals.max_health, rules);
        p.vitals.defence = p.inventory.defence();
        if who == LOCAL {
            self.creatures.respawned(at);
        }
        out.events.push(Event::Respawned { player: who, at });
    }

    /// Reveals the explored map around the player by the light there (see
    /// [`crate::world::explored`]). Revealing is not an edit: it never makes a world ask to be
    /// saved, but every save keeps it.
    fn reveal(&mut self, who: PlayerId, out: &mut Changes) {
        use crate::world::explored::{REVEAL_LIGHT, REVEAL_RADIUS};
        let c = self.players[who.0].body.centre();
        let light = &self.light;
        let lit = |x, y| light.get_with_player(x, y, c) >= REVEAL_LIGHT;
        if let Some(new) = self.world.explored.reveal(c, REVEAL_RADIUS, lit) {
            out.revealed = Some(out.revealed.map_or(new, |r| r.union(new)));
        }
    }

    /// Closes the open chest once it is out of reach or no longer there, and the shop
    /// once the Merchant is.
    fn keep_chest(&mut self, who: PlayerId) {
        let p = &mut self.players[who.0];
        if p.shop {
            let near = self.merchant.as_ref().is_some_and(|m| {
                let (mx, my) = m.body.centre();
                edit::can_reach(
                    &p.body,
                    mx.floor() as i64,
                    my.floor() as i64,
                    edit::REACH + 2.0,
                )
            });
            p.shop = near;
        }
        if let Some((x, y)) = p.chest {
            let (xi, yi) = (x as i64, y as i64);
            if self.world.get(xi, yi) != Some(Tile::Chest)
                || !edit::can_reach(&p.body, xi, yi, edit::REACH)
            {
                p.chest = None;
            }
        }
    }

    /// Opens the chest at `(x, y)` if it is within reach (or says it is not).
    fn open_chest(&mut self, who: PlayerId, x: i64, y: i64, out: &mut Changes) {
        if self.world.get(x, y) != Some(Tile::Chest) {
            return;
        }
        let p = &mut self.players[who.0];
        if !edit::can_reach(&p.body, x, y, edit::REACH) {
            out.messages
                .push((who, Message::Refused(EditRefusal::OutOfReach)));
            return;
        }
        let (x, y) = (x as usize, y as usize);
        if let Some(other) = self.chest_user(x, y).filter(|&o| o != who) {
            out.log(
                who,
                format!("chest at {x} {y} in use by player {}", other.0),
            );
            out.notice(who, CHEST_IN_USE);
            return;
        }
        let p = &mut self.players[who.0];
        let stacks = self
            .world
            .chests
            .get(x, y)
            .map_or(0, |c| c.slots().iter().flatten().count());
        p.chest = Some((x, y));
        out.events.push(Event::ChestOpened {
            player: who,
            x,
            y,
            stacks,
        });
    }

    /// The present player who has the chest at `(x, y)` open, if any: one player at a
    /// time uses a chest (it is freed when that player closes it, walks out of reach,
    /// leaves or dies).
    pub fn chest_user(&self, x: usize, y: usize) -> Option<PlayerId> {
        (0..self.players.len())
            .map(PlayerId)
            .find(|&p| self.is_present(p) && self.players[p.0].chest == Some((x, y)))
    }

    /// The buttons: a right-click on a chest opens it; a sword swings; else digging and
    /// placing at the aimed tile.
    fn hands(&mut self, who: PlayerId, h: &Held, out: &mut Changes) {
        let now = self.tick;
        // Right-click on a chest within reach opens it, whatever is selected (as in
        // Terraria); holding the button over a chest places nothing.
        if let Some((x, y, pressed)) = h.placing
            && self.right_click(who, x, y, pressed, out)
        {
            let p = &mut self.players[who.0];
            p.digging = None;
            if h.using.is_none() {
                p.dig.reset();
            }
            return;
        }
        let on_chest = h
            .placing
            .filter(|&(x, y, _)| self.world.get(x, y) == Some(Tile::Chest));
        if let Some((x, y, true)) = on_chest {
            self.open_chest(who, x, y, out);
        }
        let p = &mut self.players[who.0];
        p.digging = None;
        p.vitals.defence = p.inventory.defence();
        // Armour in the selected slot is put on with a right click (what was worn comes
        // off into that slot).
        let armour = p.inventory.selected_item().map(|i| i.kind);
        if let Some(crate::content::items::Kind::Armour { .. }) = armour
            && matches!(h.placing, Some((_, _, true)))
            && on_chest.is_none()
            && let Ok(slot) = p.inventory.wear_selected()
        {
            p.vitals.defence = p.inventory.defence();
            out.log(
                who,
                format!("wore {slot:?} armour: defence {}", p.vitals.defence),
            );
            out.notice(who, format!("Defence {}", p.vitals.defence));
            return;
        }
        if let Some(item) = p.inventory.selected_item().map(|i| i.name.as_str())
            && item == LIFE_CRYSTAL
        {
            // A life crystal is used with the left button instead of digging.
            p.dig.reset();
            if h.using.is_some() && now >= p.next_swing {
                p.next_swing = now + ticks(0.5);
                match p.vitals.use_crystal(&self.content.rules) {
                    Ok(most) => {
                        p.inventory.take(LIFE_CRYSTAL);
                        out.log(who, format!("used a life crystal: most health {most:.0}"));
                        out.notice(who, format!("Most health {most:.0}"));
                    }
                    Err(e) => out.notice(who, format!("Can't use it: {e}")),
                }
            }
            return;
        }
        if let Some(item) = p.inventory.selected_summon() {
            // A summoning item is used with the left button instead of digging.
            p.dig.reset();
            if h.using.is_some() && now >= p.next_swing {
                p.next_swing = now + ticks(1.0);
                self.use_summon(who, item, out);
            }
            return;
        }
        if let Some(potion) = p.inventory.selected_potion() {
            // A potion is drunk with the left button instead of digging.
            p.dig.reset();
            self.use_potion(who, potion, h.using.is_some(), out);
            return;
        }
        if let Some((damage, reach, cooldown)) = p.inventory.selected_sword() {
            // A sword swings instead of digging, toward the aimed tile.
            p.dig.reset();
            if let Some(at) = h.using
                && now >= p.next_swing
            {
                p.next_swing = now + ticks(f64::from(cooldown));
                if let Some((x, _)) = at {
                    p.body.facing = if (x as f32 + 0.5) < p.body.pos.0 {
                        -1
                    } else {
                        1
                    };
                }
                out.events.push(Event::Swung { player: who });
                self.swing(who, damage as f32, reach, out);
            }
            return;
        }
        match h.using {
            Some(Some((x, y))) => self.dig(who, x, y, out),
            _ => p.dig.reset(),
        }
        let p = &mut self.players[who.0];
        // A click can press and release within one tick: pressed counts on its own.
        if let Some((x, y, pressed)) = h.placing.filter(|_| on_chest.is_none())
            && (pressed || now >= p.next_place)
        {
            p.next_place = now + ticks(PLACE_REPEAT);
            if p.inventory.selected_wall().is_some() {
                // A wall goes behind the tile: no tile event, the tile is the same.
                match edit::try_place_wall(&mut self.world, &p.body, &mut p.inventory, x, y) {
                    Ok(w) => {
                        self.edited(&[(x as usize, y as usize)], out);
                        let line = format!("placed {} at {x} {y}{}", w.label(), self.relit());
                        out.log(who, line);
                    }
                    Err(e) => out.messages.push((who, Message::Refused(e))),
                }
                return;
            }
            // A rope clicked with rope selected grows at its bottom.
            let (x, y) = edit::place_spot(&self.world, &p.inventory, x, y);
            // No block or door goes into anyone (the player's own body is try_place's to
            // check).
            let fills = match p.inventory.selected_tile() {
                Some(t) if t.is_door() => {
                    edit::door_spot(&self.world, x, y).map(|top| (top, top + edit::DOOR_HEIGHT - 1))
                }
                Some(t) if t.is_solid() => Some((y, y)),
                _ => None,
            };
            if fills.is_some_and(|r| self.someone_in(x, r)) {
                let e = edit::EditRefusal::WouldTrapPlayer;
                out.messages.push((who, Message::Refused(e)));
                return;
            }
            let p = &mut self.players[who.0];
            match edit::try_place(&mut self.world, &p.body, &mut p.inventory, x, y) {
                Ok(t) => self.edited_at(who, (x, y), t, true, out),
                Err(e) => out.messages.push((who, Message::Refused(e))),
            }
        }
    }

    /// `tile` placed (`placed`) or dug by player `who` at `(x, y)`: the tiles that changed
    /// (with any it brought down), the water and lava around it stirred, the event and the
    /// log line (`placed torch at 3 4`, `dug dirt at 3 4`, with the relighting).
    fn edited_at(
        &mut self,
        who: PlayerId,
        (x, y): (i64, i64),
        tile: Tile,
        placed: bool,
        out: &mut Changes,
    ) {
        let h = self.world.height();
        self.edited(&edit::changed_by(tile, x as usize, y as usize, h), out);
        self.stir(x as usize, y as usize);
        let player = who;
        let (verb, event) = if placed {
            ("placed", Event::Placed { player, x, y, tile })
        } else {
            ("dug", Event::Dug { player, x, y, tile })
        };
        out.events.push(event);
        let line = format!("{verb} {} at {x} {y}{}", tile.name(), self.relit());
        out.log(who, line);
    }

    /// A tick of the dig button held on `(x, y)`.
    fn dig(&mut self, who: PlayerId, x: i64, y: i64, out: &mut Changes) {
        let p = &mut self.players[who.0];
        let dt = TICK as f32;
        // What a dig gives lies in the world and flies to the player (or lies there until
        // the inventory has room): the dig rules put it into the inventory, which is
        // taken back here.
        let before = p.inventory.clone();
        let step = p
            .dig
            .update(&mut self.world, &p.body, &mut p.inventory, x, y, dt);
        let given = step.gives_all(&self.content.catalog);
        if !given.is_empty() {
            p.inventory = before;
        }
        for (stack, (x, y)) in given {
            let at = (x as f32 + 0.5, y as f32 + 0.5);
            self.drop_item(stack, at, Some(who), out);
        }
        let p = &mut self.players[who.0];
        match step {
            DigStep::Dug { x, y, drop } => self.edited_at(who, (x, y), drop, false, out),
            DigStep::Felled {
                x,
                y,
                drop,
                count,
                tiles,
                ..
            } => {
                self.edited(&tiles, out);
                self.stir(x as usize, y as usize);
                out.events.push(Event::Dug {
                    player: who,
                    x,
                    y,
                    tile: drop,
                });
                out.log(who, format!("felled {count} {} at {x} {y}", drop.name()));
            }
            DigStep::Hammered { x, y, wall } => {
                self.edited(&[(x as usize, y as usize)], out);
                let line = format!("took down {} at {x} {y}{}", wall.name(), self.relit());
                out.log(who, line);
            }
            DigStep::Smashed { x, y } => {
                // The orb's loot, the same for the same orb of the same world.
                let key = crate::base::rng::hash3(self.world.seed ^ ORB_LOOT, x as u64, y as u64);
                let mut draw = <crate::base::rng::PassRng as rand::SeedableRng>::seed_from_u64(key);
                let at = (x as f32 + 0.5, y as f32 + 0.5);
                let content = Arc::clone(&self.content);
                for (item, count) in content.loot.draw_set("shadow_orb", &mut draw) {
                    self.drop_item(Stack { item, count }, at, Some(who), out);
                }
                self.edited_at(who, (x, y), Tile::ShadowOrb, false, out);
            }
            DigStep::Digging(share) => p.digging = Some(share),
            // Holding the button on air after a dig is not worth a message.
            DigStep::Refused(EditRefusal::NothingToDig) => {}
            DigStep::Refused(e) => out.messages.push((who, Message::Refused(e))),
        }
    }

    /// A sword swing: hits what is in front, kills give their drops.
    fn swing(&mut self, who: PlayerId, damage: f32, reach: f32, out: &mut Changes) {
        let p = &mut self.players[who.0];
        let s = self
            .creatures
            .swing(&p.body, who.0, damage, reach, &self.content.rules);
        if s.hits > 0 {
            let each: Vec<String> = s
                .hit
                .iter()
                .map(|(k, p, _)| format!("{} at {:.1} {:.1}", k.stats().name, p.0, p.1))
                .collect();
            out.log(who, format!("swing hit {}: {}", s.hits, each.join(", ")));
        }
        for &(kind, at, killed) in &s.hit {
            out.events.push(Event::Hit {
                player: who,
                kind,
                at,
                damage,
                killed,
            });
        }
        let c = p.body.centre();
        for (kind, item, n) in s.killed {
            // The drop lies where the creature was (its last hit), and flies to the killer.
            let at = s
                .hit
                .iter()
                .find(|(k, _, _)| *k == kind)
                .map_or(c, |&(_, (x, feet), _)| (x, feet - 0.5));
            self.reward(kind, item, n, at, Some(who), out);
        }
        self.swing_at_eye(who, damage, reach, out);
        self.swing_at_players(who, damage, reach, out);
    }

    /// A creature of `kind` died at `at` leaving `n` of `item` and its coins: to `killer`,
    /// the coins straight into its inventory (what does not fit lies in the world) and the
    /// item flying to it; with no killer (lava), all of it lies in the world as items.
    fn reward(
        &mut self,
        kind: crate::sim::creatures::Kind,
        item: &'static str,
        n: u32,
        at: (f32, f32),
        killer: Option<PlayerId>,
        out: &mut Changes,
    ) {
        let content = Arc::clone(&self.content);
        let coins = &content.town.coins;
        let name = kind.stats().name;
        let copper = crate::sim::coins::drop_for(kind.stats().health, coins);
        let (kept, left) = match killer {
            Some(who) => {
                let p = &mut self.players[who.0];
                let lost = crate::sim::coins::earn(&mut p.inventory, coins, copper);
                (copper - lost, lost)
            }
            None => (0, copper),
        };
        if let Some(who) = killer {
            if n == 0 {
                out.log(who, format!("killed a {name}"));
                out.notice(who, format!("Killed a {name}: {kept} copper"));
            } else {
                out.log(who, format!("killed a {name}, {item} x{n}"));
                out.notice(who, format!("Killed a {name}: {n} {item}, {kept} copper"));
            }
            if kept > 0 {
                out.log(who, format!("took {kept} copper from the {name}"));
            }
            out.events.push(Event::Killed { kind, by: who });
        } else {
            out.log(
                LOCAL,
                format!(
                    "a {name} died in lava at {:.0} {:.0}, leaving {left} copper and {item} x{n}",
                    at.0, at.1
                ),
            );
        }
        let per = coins.per;
        let counts = crate::sim::coins::split(left, per, coins.items.len());
        for (&coin, count) in coins.items.iter().zip(counts) {
            let count = count.min(u64::from(u32::MAX)) as u32;
            self.drop_item(Stack { item: coin, count }, at, killer, out);
        }
        if n > 0
            && let Some(id) = content.catalog.id(item)
        {
            self.drop_item(Stack { item: id, count: n }, at, killer, out);
        }
    }

    /// Drops `stack` into the world with its centre at `at`, flying to player `owner`
    /// when it made it (a dig, a kill).
    fn drop_item(
        &mut self,
        stack: Stack,
        at: (f32, f32),
        owner: Option<PlayerId>,
        out: &mut Changes,
    ) {
        if stack.count == 0 {
            return;
        }
        out.events.push(Event::Dropped {
            item: stack.item,
            count: stack.count,
            at,
        });
        let item = Dropped::new(stack, at, owner.map(|o| o.0));
        drops::add(&mut self.world.dropped, item);
    }

    /// Player `who` throws out the stack on its cursor, else its selected stack.
    fn throw(&mut self, who: PlayerId, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let p = &mut self.players[who.0];
        let stack = match p.held.take() {
            Some(s) => s,
            None => {
                let Some(s) = p.inventory.selected_stack() else {
                    return;
                };
                if !p.inventory.remove(s.item, s.count) {
                    return;
                }
                s
            }
        };
        let (c, facing) = (p.body.centre(), p.body.facing);
        let name = &content.catalog.item(stack.item).name;
        out.log(who, format!("threw {} {name}", stack.count));
        out.events.push(Event::Dropped {
            item: stack.item,
            count: stack.count,
            at: c,
        });
        let rules = &content.rules;
        let item = drops::thrown(stack, c, who.0, facing, rules);
        drops::add(&mut self.world.dropped, item);
    }

    /// The items lying in the world fly to players and are picked up, or fall and lie.
    fn tick_items(&mut self, out: &mut Changes) {
        if self.world.dropped.is_empty() {
            return;
        }
        let mut items = std::mem::take(&mut self.world.dropped);
        let away = &self.away;
        let mut takers: Vec<Taker> = self
            .players
            .iter_mut()
            .enumerate()
            .map(|(i, p)| Taker {
                // The dead pick nothing up, nor the seats of players who left (a server's
                // empty seat 0 stood at the spawn point taking what lay near it, into an
                // inventory no player has).
                centre: if p.death.is_some() || away.get(i).is_some_and(|&a| a) {
                    (f32::INFINITY, f32::INFINITY)
                } else {
                    p.body.centre()
                },
                inventory: &mut p.inventory,
            })
            .collect();
        let content = Arc::clone(&self.content);
        let rules = &content.rules;
        let picked = drops::step(&mut items, &self.world, &mut takers, rules, TICK as f32);
        self.world.dropped = items;
        for (i, s) in picked {
            let who = PlayerId(i);
            if crate::sim::coins::is_coin(s.item, &content.town.coins) {
                let p = &mut self.players[i];
                crate::sim::coins::settle(&mut p.inventory, &content.town.coins);
            }
            let name = &content.catalog.item(s.item).name;
            out.log(who, format!("picked up {} {name}", s.count));
            out.events.push(Event::PickedUp {
                player: who,
                item: s.item,
                count: s.count,
            });
        }
    }

    /// Crafts recipe `i` of the catalog from what player `who` carries, near the stations
    /// around it (or says why not).
    fn craft(&mut self, who: PlayerId, i: usize, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let cat = &content.catalog;
        let Some(recipe) = cat.recipes.get(i) else {
            out.notice(who, "No such recipe");
            return;
        };
        let p = &mut self.players[who.0];
        let near = Stations::near(&self.world, p.body.bounds(), cat);
        match crate::sim::craft::craft(recipe, &mut p.inventory, near) {
            Ok(()) => {
                let item = cat.item(recipe.make);
                out.log(who, format!("crafted {} x{}", item.name, recipe.count));
                out.notice(who, format!("Crafted {} x{}", item.label, recipe.count));
                out.events.push(Event::Crafted {
                    player: who,
                    at: recipe.at,
                    ok: true,
                });
            }
            Err(e) => {
                out.notice(
                    who,
                    format!("Can't craft: {}", e.text(&self.content.catalog)),
                );
                out.events.push(Event::Crafted {
                    player: who,
                    at: recipe.at,
                    ok: false,
                });
            }
        }
    }

    /// ` (relit WxH in T ms)` for the log, from the last edit.
    fn relit(&self) -> String {
        self.last_relight.map_or(String::new(), |(r, t)| {
            format!(
                " (relit {}x{} in {:.2} ms)",
                r.x1 - r.x0 + 1,
                r.y1 - r.y0 + 1,
                t.as_secs_f64() * 1e3
            )
        })
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
        let start = Instant::now();
        let r = self
            .light
            .update_region(&self.world, lo.0, lo.1, hi.0, hi.1);
        self.last_relight = Some((r, start.elapsed()));
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
                let line = format!(
                    "water at rest after {} ticks, {} tiles moved",
                    self.flow.ticks() - ticks,
                    self.flow.moves - moves
                );
                out.log(LOCAL, line);
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
mod tests;
