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
//! [`crate::sim::day`], [`crate::content::items`] (crafting, chests).

pub mod changes;
pub mod intent;

pub use changes::{Changes, Event, Message};
pub use intent::{Intent, LOCAL, PlayerId};

use crate::content::items::catalog;
use crate::sim::craft::Stations;
use crate::sim::creatures::Creatures;
use crate::sim::edit::{self, DigState, DigStep, EditRefusal};
use crate::sim::flow::Flow;
use crate::sim::light::{LightMap, Rect};
use crate::sim::player::Player;
use crate::sim::vitals::{Harm, Senses, Vitals};
use crate::world::depth::Layers;
use crate::world::inventory::Inventory;
use crate::world::inventory::Stack;
use crate::world::{Tile, World};
use std::time::{Duration, Instant};

/// What a save keeps of a player ([`crate::store::save`] writes and reads it).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerState {
    /// Feet centre, tiles (as [`crate::sim::player::Player::pos`]).
    pub pos: (f32, f32),
    pub inventory: Inventory,
    /// 0..=[`crate::sim::vitals::MAX_HEALTH`].
    pub health: f32,
    /// Share of the day gone, 0..1 (0 is midnight).
    pub time_of_day: f32,
}

impl PlayerState {
    /// A new player at `pos`: a new inventory, full health, morning.
    pub fn new(pos: (f32, f32)) -> PlayerState {
        PlayerState {
            pos,
            inventory: Inventory::default(),
            health: crate::sim::vitals::MAX_HEALTH,
            time_of_day: crate::sim::day::MORNING,
        }
    }
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
    /// Half the player's view in tiles (creatures spawn outside it).
    pub view_half: (f32, f32),
    /// The tick from which the place button places again while held, and from which the
    /// sword may swing again.
    next_place: u64,
    next_swing: u64,
}

impl Seat {
    /// A player from its part of a save, unstuck from the tiles of `world`.
    pub fn new(state: &PlayerState, world: &World) -> Seat {
        let mut body = Player::new(state.pos);
        body.unstick(world);
        Seat {
            body,
            inventory: state.inventory.clone(),
            vitals: Vitals::new(state.health, crate::content::rules::rules()),
            dig: DigState::default(),
            digging: None,
            held: None,
            chest: None,
            view_half: DEFAULT_VIEW_HALF,
            next_place: 0,
            next_swing: 0,
        }
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
    /// The Guide (not kept in saves yet: he starts again beside the spawn point).
    pub guide: crate::sim::npc::Npc,
    /// The tick the Guide's home is next checked.
    guide_check: u64,
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
    /// A session on a new world: its light computed, one player at its spawn point with
    /// a new inventory, morning.
    pub fn new(world: World) -> Session {
        let light = LightMap::compute(&world);
        Session::start(world, light, None, false)
    }

    /// A session on a world from a save, with its player.
    pub fn from_save(world: World, player: PlayerState) -> Session {
        let light = LightMap::compute(&world);
        Session::start(world, light, Some(player), true)
    }

    /// A session on `world` with its `light` already computed; `player`: the saved player,
    /// `None` for a new one; `from_save`: the world comes from a save (water that was
    /// flowing when it was taken is woken).
    pub fn start(
        world: World,
        light: LightMap,
        player: Option<PlayerState>,
        from_save: bool,
    ) -> Session {
        let state = player.unwrap_or_else(|| PlayerState {
            time_of_day: crate::content::rules::rules().start_time,
            ..PlayerState::new(crate::sim::player::spawn_point(&world))
        });
        let mut flow = Flow::default();
        if from_save {
            flow.wake_restless(&world);
        }
        Session {
            players: vec![Seat::new(&state, &world)],
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
            guide: crate::sim::npc::Npc::guide(&world, world.seed),
            guide_check: 0,
            world,
        }
    }

    /// Seats another player at the spawn point with a new inventory; returns its id.
    pub fn join(&mut self) -> PlayerId {
        let state = PlayerState::new(crate::sim::player::spawn_point(&self.world));
        self.players.push(Seat::new(&state, &self.world));
        self.away.push(false);
        PlayerId(self.players.len() - 1)
    }

    /// Seats a player with `state` (a character kept by a server): in the first seat
    /// left empty by [`Session::leave`], else a new one; returns its id.
    pub fn join_as(&mut self, state: &PlayerState) -> PlayerId {
        let seat = Seat::new(state, &self.world);
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
    pub fn leave(&mut self, who: PlayerId) {
        if let Some(a) = self.away.get_mut(who.0) {
            *a = true;
        }
    }

    /// Is player `who` seated and not gone?
    pub fn is_present(&self, who: PlayerId) -> bool {
        self.away.get(who.0).is_some_and(|&a| !a)
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

    /// Player `who`'s part of a save (the time of day is the world's).
    pub fn player_state(&self, who: PlayerId) -> PlayerState {
        let p = &self.players[who.0];
        PlayerState {
            pos: p.body.pos,
            inventory: p.inventory.clone(),
            health: p.vitals.health,
            time_of_day: self.time_of_day,
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
        let rules = crate::content::rules::rules();
        self.time_of_day = crate::sim::day::advance(self.time_of_day, dt, rules);
        for (i, h) in held.iter().enumerate() {
            let who = PlayerId(i);
            if self.away[i] {
                continue;
            }
            self.move_player(who, h, &mut out);
            self.live(who, &mut out);
            self.reveal(who, &mut out);
            self.keep_chest(who);
            self.hands(who, h, &mut out);
        }
        self.walk_guide(&mut out);
        self.run_flow(&mut out);
        out
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
                if let Some(h) = p.held.take() {
                    let lost = p.inventory.add(h.item, h.count);
                    if lost > 0 {
                        let name = &catalog().item(h.item).name;
                        let text = format!("{lost} {name} did not fit back");
                        out.messages.push((who, Message::Warning(text)));
                    }
                }
            }
            Intent::ClickSlot(i) => p.inventory.click(i, &mut p.held),
            Intent::ClickChest(i) => {
                let Some((x, y)) = p.chest else {
                    return out;
                };
                if self.world.tile(x, y) != Tile::Chest {
                    return out;
                }
                let before = p.held;
                self.world.chests.open(x, y).click(i, &mut p.held);
                if p.held != before {
                    self.edits += 1;
                    out.edits += 1;
                    out.log(who, format!("chest at {x} {y} slot {i}"));
                }
            }
            Intent::View { half } if half.0 > 0.0 && half.1 > 0.0 => p.view_half = half,
            Intent::View { .. } => {}
            Intent::Housing { x, y } => self.query_housing(who, x, y, &mut out),
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
        match self.world.get(x, y) {
            Some(t) if t.is_door() => {
                if pressed {
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

    /// What the Guide says to player `who`: a hint for its next step, or, holding an item,
    /// every recipe that uses it.
    fn talk_to_guide(&mut self, who: PlayerId, out: &mut Changes) {
        let cat = catalog();
        let p = &self.players[who.0];
        let near = Stations::near(&self.world, p.body.bounds(), cat);
        let has = |i: crate::content::items::ItemId| {
            let station =
                matches!(cat.item(i).kind, crate::content::items::Kind::Block(t) if near.has(t));
            p.inventory.count(i) > 0 || station
        };
        let facts = crate::sim::guide::Facts {
            night: crate::sim::day::is_night(self.time_of_day, crate::content::rules::rules()),
            homeless: self.guide.homeless(),
            has: &has,
        };
        let held = p.inventory.selected_stack().map(|s| s.item);
        let text = crate::sim::guide::talk(cat, &crate::content::town::town().hints, &facts, held);
        out.log(who, format!("guide says: {text}"));
        out.notice(who, format!("Guide: {text}"));
    }

    /// Whether the room at `(x, y)` is a house, or what it lacks; a homeless Guide moves
    /// into a house.
    fn query_housing(&mut self, who: PlayerId, x: i64, y: i64, out: &mut Changes) {
        let town = crate::content::town::town();
        let room = crate::sim::housing::check(&self.world, x, y, &town.housing, |_, _| true);
        let mut text = crate::sim::housing::describe(&room);
        if room.is_house()
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

    /// The Guide's tick: he walks (home at night), opens a closed door in his way and
    /// closes it behind him; every 2 s his home is checked, and he leaves one that is no
    /// longer a house.
    fn walk_guide(&mut self, out: &mut Changes) {
        let town = crate::content::town::town();
        let night = crate::sim::day::is_night(self.time_of_day, crate::content::rules::rules());
        self.guide
            .update(&self.world, night, &town.guide, TICK as f32);
        if let Some((x, y)) = self.guide.door_ahead(&self.world) {
            let tiles = edit::set_door(&mut self.world, x, y, Tile::OpenDoor);
            self.edited(&tiles, out);
            out.events.push(Event::Door { x, y, open: true });
            self.guide.opened = Some((x, y));
        }
        if let Some((x, y)) = self.guide.door_behind()
            && self.world.get(x, y) == Some(Tile::OpenDoor)
            && !edit::door_rows(&self.world, x, y).is_some_and(|(t, b)| {
                (t..=b).any(|yy| self.players.iter().any(|p| p.body.overlaps_tile(x, yy)))
            })
        {
            let tiles = edit::set_door(&mut self.world, x, y, Tile::ClosedDoor);
            self.edited(&tiles, out);
            out.events.push(Event::Door { x, y, open: false });
        }
        if self.tick >= self.guide_check {
            self.guide_check = self.tick + ticks(2.0);
            if let Some((x, y)) = self.guide.home_tile() {
                let room =
                    crate::sim::housing::check(&self.world, x, y, &town.housing, |_, _| true);
                if !room.is_house() {
                    let text = format!(
                        "The Guide moves out: {}",
                        crate::sim::housing::describe(&room)
                    );
                    out.log(LOCAL, text.clone());
                    out.notice(LOCAL, text);
                    self.guide.move_out();
                }
            }
        }
    }

    /// The player's health, and for the local player the creatures (they follow it);
    /// death respawns the player.
    fn live(&mut self, who: PlayerId, out: &mut Changes) {
        let rules = crate::content::rules::rules();
        let dt = TICK as f32;
        let p = &mut self.players[who.0];
        let senses = Senses::of(&self.world, p.body.pos, p.body.on_ground);
        let mut killer = p.vitals.update(senses, dt, rules);
        if self.away.iter().position(|&a| !a) == Some(who.0) {
            // The first player present moves the creatures, among every player present.
            let night = crate::sim::day::is_night(self.time_of_day, rules);
            let before = self.creatures.spawned;
            let away = &self.away;
            let (ids, mut list): (Vec<PlayerId>, Vec<_>) = self
                .players
                .iter_mut()
                .enumerate()
                .filter(|(i, _)| !away[*i])
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
                    "hurt by a {} for {:.0} at {:.2} s from {:.1}: health {:.0}, thrown {:.1} {:.1}",
                    hit.name,
                    hit.damage,
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
            out.log(
                who,
                format!("died of {harm}; back at the spawn point with everything carried"),
            );
            p.body = Player::spawn(&self.world);
            p.vitals = Vitals::respawned(rules);
            p.vitals.defence = p.inventory.defence();
            self.creatures.respawned(p.body.pos);
            out.notice(who, format!("You died of {harm}. Nothing was lost."));
            out.events.push(Event::Died { player: who });
        }
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

    /// Closes the open chest once it is out of reach or no longer there.
    fn keep_chest(&mut self, who: PlayerId) {
        let p = &mut self.players[who.0];
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
        if let Some((item, heal, sickness)) = p.inventory.selected_potion() {
            // A potion is drunk with the left button instead of digging.
            p.dig.reset();
            if h.using.is_some() && now >= p.next_swing {
                p.next_swing = now + ticks(0.25);
                match p.vitals.drink(heal as f32, sickness) {
                    Ok(gained) => {
                        p.inventory.take(item);
                        out.log(
                            who,
                            format!(
                                "drank a potion: +{gained:.0}, health {:.0}",
                                p.vitals.health
                            ),
                        );
                        out.notice(who, format!("+{gained:.0} health"));
                    }
                    Err(e) => out.notice(who, format!("Can't drink: {e}")),
                }
            }
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
            match edit::try_place(&mut self.world, &p.body, &mut p.inventory, x, y) {
                Ok(t) => {
                    let h = self.world.height();
                    self.edited(&edit::changed_by(t, x as usize, y as usize, h), out);
                    self.stir(x as usize, y as usize);
                    out.events.push(Event::Placed {
                        player: who,
                        x,
                        y,
                        tile: t,
                    });
                    out.log(
                        who,
                        format!("placed {} at {x} {y}{}", t.name(), self.relit()),
                    );
                }
                Err(e) => out.messages.push((who, Message::Refused(e))),
            }
        }
    }

    /// A tick of the dig button held on `(x, y)`.
    fn dig(&mut self, who: PlayerId, x: i64, y: i64, out: &mut Changes) {
        let p = &mut self.players[who.0];
        let dt = TICK as f32;
        let step = p
            .dig
            .update(&mut self.world, &p.body, &mut p.inventory, x, y, dt);
        match step {
            DigStep::Dug { x, y, drop } => {
                let h = self.world.height();
                self.edited(&edit::changed_by(drop, x as usize, y as usize, h), out);
                self.stir(x as usize, y as usize);
                out.events.push(Event::Dug {
                    player: who,
                    x,
                    y,
                    tile: drop,
                });
                out.log(
                    who,
                    format!("dug {} at {x} {y}{}", drop.name(), self.relit()),
                );
            }
            DigStep::Felled {
                x,
                y,
                drop,
                count,
                tiles,
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
            .swing(&p.body, damage, reach, crate::content::rules::rules());
        if s.hits > 0 {
            let each: Vec<String> = s
                .hit
                .iter()
                .map(|(k, p)| format!("{} at {:.1} {:.1}", k.stats().name, p.0, p.1))
                .collect();
            out.log(who, format!("swing hit {}: {}", s.hits, each.join(", ")));
        }
        if s.hits as usize > s.killed.len() {
            let c = p.body.centre();
            let d = |k: &&crate::sim::creatures::Creature| (k.body.pos.0 - c.0).abs();
            if let Some(k) = self
                .creatures
                .list
                .iter()
                .min_by(|a, b| d(a).total_cmp(&d(b)))
            {
                out.events.push(Event::Hit {
                    player: who,
                    kind: k.kind,
                    at: k.body.pos,
                });
            }
        }
        for (kind, item, n) in s.killed {
            let lost = p.inventory.add(item, n);
            let name = kind.stats().name;
            out.log(who, format!("killed a {name}, {item} x{}", n - lost));
            out.notice(who, format!("Killed a {name}: {} {item}", n - lost));
            out.events.push(Event::Killed { kind, by: who });
        }
    }

    /// Crafts recipe `i` of the catalog from what player `who` carries, near the stations
    /// around it (or says why not).
    fn craft(&mut self, who: PlayerId, i: usize, out: &mut Changes) {
        let cat = catalog();
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
                out.notice(who, format!("Can't craft: {e}"));
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

    /// A hash of the whole simulation: the world's tiles, chests and explored map, every
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
        h.u64(u64::from(self.time_of_day.to_bits()));
        h.u64(self.tick);
        h.u64(self.flow.ticks());
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
mod tests;
