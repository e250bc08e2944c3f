//! Water that flows. Pools are laid at rest by world generation; an edit wakes the water
//! near it, and then every tick moves awake water in two ways:
//!
//! - **Tiles.** Each awake water tile moves at most one tile: (1) into air straight below
//!   it; else (2) diagonally down, into air below a side tile that is air too; else (3)
//!   one tile sideways toward the nearest drop along its row (air all the way, then air
//!   under the air), at most [`REACH`] tiles away, the left one on a tie. So water pours
//!   down, slides off slopes and runs off ledges.
//! - **Bodies.** A body is a 4-connected set of water tiles. Its highest tiles press on
//!   its lowest open sides: while the body touches air lower than its highest water tile
//!   (a tunnel dug from its side, a hole in its floor, the lower of two pools a dig has
//!   joined), up to [`PUSH`] of its highest tiles move to its lowest such air tiles each
//!   tick. So water fills a tunnel as far as the tunnel stays below the pool's surface,
//!   pours out of whatever opening a dig makes anywhere along the body, and bodies joined
//!   by a dig level out to within one row.
//!
//! Every move lowers a tile, or under (3) brings a tile closer to a drop it will then
//! fall from, so flow always ends; no move creates or destroys water. A body stays awake
//! while it moves; when nothing in it can move it sleeps, and any change to a tile beside
//! it (a dig, a block placed, water arriving or leaving) wakes it again. A body at rest
//! is level: no air beside it is lower than its highest tile.
//!
//! Honey (in the jungle's hives) is a third liquid and flows as water does; it meets
//! neither water nor lava (each keeps to itself). Lava is a liquid too and follows the
//! same rules, slower: it moves only every
//! [`LAVA_EVERY`]th tick. Where water and lava meet, the lava hardens to obsidian (the
//! water stays), so water poured onto lava leaves a crust of obsidian with the water on
//! top, and lava running into water seals itself off. Liquids only flow into air, never
//! into each other.
//!
//! Pure: the game calls [`Flow::tick`] at a fixed rate and redraws and re-analyses the
//! tiles it reports, and relights those [`Flow::take_relight`] lists (lava gives light;
//! water lets it through like air).

use crate::world::{Tile, World};
use std::collections::{BTreeSet, HashSet};

/// Farthest a tile looks along its row for an edge to fall from.
pub const REACH: i64 = 16;
/// Most tiles a body moves in one tick: a pool of 240 tiles drains through an opening in
/// about a second.
pub const PUSH: usize = 8;
/// Lava moves on every this-many-th tick: a third of water's speed.
pub const LAVA_EVERY: u64 = 3;
/// Most tiles of one body gathered in a tick; a larger body levels a part of this size
/// around the tile that woke it (the moves still only lower water), which bounds a tick's
/// work.
pub const BODY_CAP: usize = 1 << 14;

/// Awake water (tiles and bodies), and how many ticks have run (for alternating sides
/// fairly).
#[derive(Clone, Debug, Default)]
pub struct Flow {
    /// Tiles that may move on their own, `(y, x)`, so the lowest rows come last and are
    /// taken first.
    active: BTreeSet<(usize, usize)>,
    /// A tile of each body that may level, `(y, x)`.
    bodies: BTreeSet<(usize, usize)>,
    ticks: u64,
    /// Liquid tiles moved, over all ticks.
    pub moves: u64,
    /// Tiles changed in a way that changes light (lava moved or hardened), since the last
    /// [`Flow::take_relight`].
    relight: Vec<(usize, usize)>,
}

impl Flow {
    /// Ticks run so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Is any water awake?
    pub fn is_idle(&self) -> bool {
        self.active.is_empty() && self.bodies.is_empty()
    }

    /// Tile `(x, y)` changed: wakes the water that may move because of it. That is the
    /// water in the 3x3 block around it and the bodies it belongs to, and the water within
    /// [`REACH`] along rows `y - 1` to `y + 1`, for which the tile may be a new edge to
    /// fall from.
    pub fn wake(&mut self, world: &World, x: usize, y: usize) {
        let reach = REACH as usize;
        let near = |t: usize, r: usize| t.saturating_sub(r)..=t + r;
        for ty in near(y, 1).filter(|&ty| ty < world.height()) {
            for tx in near(x, reach).filter(|&tx| tx < world.width()) {
                if world.tile(tx, ty).is_liquid() {
                    self.active.insert((ty, tx));
                    if tx.abs_diff(x) <= 1 {
                        self.bodies.insert((ty, tx));
                    }
                }
            }
        }
    }

    /// Wakes every water tile that could move now ([`restless`]) and every body with air
    /// beside it (which may not be level): for a world from a save, which may have been
    /// taken while water was flowing.
    pub fn wake_restless(&mut self, world: &World) {
        let all = liquids(world);
        let air = |x: usize, y: usize| world.get(x as i64, y as i64) == Some(Tile::Air);
        for &(x, y) in &all {
            if target(world, x, y, [-1, 1]).is_some() {
                self.active.insert((y, x));
            }
            if (x > 0 && air(x - 1, y)) || air(x + 1, y) {
                self.bodies.insert((y, x));
            }
        }
    }

    /// The tiles whose light may have changed since the last call (lava that moved or
    /// hardened): the game relights around them.
    pub fn take_relight(&mut self) -> Vec<(usize, usize)> {
        std::mem::take(&mut self.relight)
    }

    /// One tick: every awake liquid tile that can move does, lowest rows first, then every
    /// awake body levels by up to [`PUSH`] tiles (lava only every [`LAVA_EVERY`]th tick).
    /// Returns every tile that changed (left by a liquid, reached by one, or hardened).
    pub fn tick(&mut self, world: &mut World) -> Vec<(usize, usize)> {
        self.ticks += 1;
        let side = if self.ticks.is_multiple_of(2) {
            [-1i64, 1]
        } else {
            [1, -1]
        };
        let lava_moves = self.ticks.is_multiple_of(LAVA_EVERY);
        let mut changed = Vec::new();
        let awake = std::mem::take(&mut self.active);
        for &(y, x) in awake.iter().rev() {
            let t = world.tile(x, y);
            if !t.is_liquid() {
                continue;
            }
            if t == Tile::Lava && !lava_moves {
                self.active.insert((y, x));
                continue;
            }
            if let Some(to) = target(world, x, y, side) {
                self.shift(world, (x, y), to, &mut changed);
            }
        }
        let bodies = std::mem::take(&mut self.bodies);
        let mut seen = HashSet::new();
        for &(y, x) in bodies.iter().rev() {
            let t = world.tile(x, y);
            if !t.is_liquid() || seen.contains(&(x, y)) {
                continue;
            }
            if t == Tile::Lava && !lava_moves {
                self.bodies.insert((y, x));
                continue;
            }
            let body = gather(world, (x, y), &mut seen);
            for (from, to) in levelling(world, &body) {
                self.shift(world, from, to, &mut changed);
            }
        }
        changed
    }

    /// Moves the liquid at `from` to the air at `to`, wakes the liquid around both, and
    /// hardens lava where it now meets water.
    fn shift(
        &mut self,
        world: &mut World,
        from: (usize, usize),
        to: (usize, usize),
        changed: &mut Vec<(usize, usize)>,
    ) {
        let kind = world.tile(from.0, from.1);
        self.moves += 1;
        world.set(from.0, from.1, Tile::Air);
        world.set(to.0, to.1, kind);
        changed.extend([from, to]);
        if kind == Tile::Lava {
            self.relight.extend([from, to]);
        }
        self.wake(world, to.0, to.1);
        self.wake(world, from.0, from.1);
        self.meet(world, to, changed);
    }

    /// The liquid at `at` just arrived: lava touching water there hardens to obsidian
    /// (the arriving lava itself, or every lava tile the arriving water touches).
    fn meet(&mut self, world: &mut World, at: (usize, usize), changed: &mut Vec<(usize, usize)>) {
        let here = world.tile(at.0, at.1);
        let other = match here {
            Tile::Water => Tile::Lava,
            Tile::Lava => Tile::Water,
            _ => return,
        };
        let touching: Vec<(usize, usize)> = neighbours(world, at.0, at.1)
            .filter(|&(x, y)| world.tile(x, y) == other)
            .collect();
        let hardened = match (here, touching.is_empty()) {
            (_, true) => return,
            (Tile::Lava, false) => vec![at],
            _ => touching,
        };
        for (x, y) in hardened {
            world.set(x, y, Tile::Obsidian);
            changed.push((x, y));
            self.relight.push((x, y));
            self.wake(world, x, y);
        }
    }
}

/// Every liquid tile, row by row.
fn liquids(world: &World) -> Vec<(usize, usize)> {
    let mut all = world.find(Tile::Water);
    all.extend(world.find(Tile::Lava));
    all.extend(world.find(Tile::Honey));
    all
}

/// The body of liquid holding `start`: the 4-connected tiles of its liquid (at most
/// [`BODY_CAP`], nearest first), each added to `seen`.
fn gather(
    world: &World,
    start: (usize, usize),
    seen: &mut HashSet<(usize, usize)>,
) -> Vec<(usize, usize)> {
    let kind = world.tile(start.0, start.1);
    let mut body = vec![start];
    seen.insert(start);
    let mut i = 0;
    while i < body.len() && body.len() < BODY_CAP {
        let (x, y) = body[i];
        i += 1;
        for (nx, ny) in neighbours(world, x, y) {
            if world.tile(nx, ny) == kind && seen.insert((nx, ny)) {
                body.push((nx, ny));
            }
        }
    }
    body
}

/// The 4-neighbours of `(x, y)` inside the world.
fn neighbours(world: &World, x: usize, y: usize) -> impl Iterator<Item = (usize, usize)> {
    let (w, h) = (world.width() as i64, world.height() as i64);
    [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)]
        .into_iter()
        .map(move |(dx, dy)| (x as i64 + dx, y as i64 + dy))
        .filter(move |&(nx, ny)| nx >= 0 && ny >= 0 && nx < w && ny < h)
        .map(|(nx, ny)| (nx as usize, ny as usize))
}

/// The moves that level `body` this tick: its highest tiles to the lowest air beside it,
/// pair by pair while the air is lower than the water, at most [`PUSH`].
fn levelling(world: &World, body: &[(usize, usize)]) -> Vec<((usize, usize), (usize, usize))> {
    let mut air: Vec<(usize, usize)> = body
        .iter()
        .flat_map(|&(x, y)| neighbours(world, x, y))
        .filter(|&(x, y)| world.tile(x, y) == Tile::Air)
        .collect();
    // The highest tile (the leftmost of the highest row).
    let Some(&(top_x, top)) = body.iter().min_by_key(|&&(x, y)| (y, x)) else {
        return Vec::new();
    };
    // Lowest first; among equals, nearest the highest tile first, so a heap spreads
    // evenly both ways.
    air.sort_unstable_by_key(|&(x, y)| (std::cmp::Reverse(y), x.abs_diff(top_x), x));
    air.dedup();
    if air.first().is_none_or(|&(_, y)| y <= top) {
        return Vec::new();
    }
    let mut high = body.to_vec();
    // Highest first; among equals, farthest from the lowest air first, so the surface
    // sinks from the far side toward the opening.
    let aim = air[0].0;
    high.sort_unstable_by_key(|&(x, y)| (y, std::cmp::Reverse(x.abs_diff(aim)), x));
    high.iter()
        .zip(&air)
        .take(PUSH)
        .take_while(|&(&(_, wy), &(_, ay))| ay > wy)
        .map(|(&w, &a)| (w, a))
        .collect()
}

/// Every liquid tile that could move now on its own (rules 1 to 3).
pub fn restless(world: &World) -> Vec<(usize, usize)> {
    liquids(world)
        .into_iter()
        .filter(|&(x, y)| target(world, x, y, [-1, 1]).is_some())
        .collect()
}

/// Where the liquid at `(x, y)` moves this tick on its own, trying the sides in the order
/// given.
fn target(world: &World, x: usize, y: usize, side: [i64; 2]) -> Option<(usize, usize)> {
    let air = |x: i64, y: i64| world.get(x, y) == Some(Tile::Air);
    let (x, y) = (x as i64, y as i64);
    let at = |x: i64, y: i64| Some((x as usize, y as usize));
    if air(x, y + 1) {
        return at(x, y + 1);
    }
    for d in side {
        if air(x + d, y) && air(x + d, y + 1) {
            return at(x + d, y + 1);
        }
    }
    // The nearest drop on each side, if any: (distance, direction).
    let drop = |d: i64| {
        (1..=REACH)
            .take_while(|&k| air(x + d * k, y))
            .find(|&k| air(x + d * k, y + 1))
            .map(|k| (k, d))
    };
    match (drop(-1), drop(1)) {
        (Some(l), Some(r)) => Some(l.min(r)),
        (l, r) => l.or(r),
    }
    .and_then(|(_, d)| at(x + d, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(w: &World) -> Vec<String> {
        (0..w.height())
            .map(|y| (0..w.width()).map(|x| w.tile(x, y).ascii()).collect())
            .collect()
    }

    fn water(w: &World) -> usize {
        w.counts()[Tile::Water as usize] as usize
    }

    /// Ticks until idle (at most `limit` ticks); returns how many ran.
    fn settle(flow: &mut Flow, w: &mut World, limit: usize) -> usize {
        for n in 0..limit {
            if flow.is_idle() {
                return n;
            }
            flow.tick(w);
        }
        panic!("still flowing after {limit} ticks:\n{}", rows(w).join("\n"));
    }

    /// Digs `(x, y)` as the game does: the tile becomes air and the water near it wakes.
    fn dig(flow: &mut Flow, w: &mut World, x: usize, y: usize) {
        w.set(x, y, Tile::Air);
        flow.wake(w, x, y);
    }

    /// Every body of water is level: no air beside it lower than its highest tile.
    fn assert_level(w: &World) {
        let mut seen = HashSet::new();
        for (x, y) in liquids(w) {
            if seen.contains(&(x, y)) {
                continue;
            }
            let body = gather(w, (x, y), &mut seen);
            assert_eq!(
                levelling(w, &body),
                vec![],
                "the body at ({x}, {y}) is not level:\n{}",
                rows(w).join("\n")
            );
        }
    }

    #[test]
    fn a_pool_whose_floor_is_dug_drains_into_the_cave_below() {
        let mut w = World::from_ascii(&[
            "#########",
            "##~~~~~##",
            "###~~~###",
            "#########",
            "#       #",
            "#       #",
            "#########",
        ])
        .unwrap();
        let mut flow = Flow::default();
        dig(&mut flow, &mut w, 4, 3); // through the floor
        settle(&mut flow, &mut w, 200);
        assert_eq!(water(&w), 8, "no water made or lost");
        let r = rows(&w);
        assert!(
            r[..4].iter().all(|row| !row.contains('~')),
            "the pool is empty:\n{}",
            r.join("\n")
        );
        assert_eq!(r[5], "#~~~~~~~#", "the cave floor is covered");
        assert_eq!(
            r[4].matches('~').count(),
            1,
            "the last tile on top:\n{}",
            r.join("\n")
        );
    }

    /// The playtest's tunnel: dug two tiles high from the side of a pool toward a cave,
    /// a tile at a time, letting the water settle after each dig. The water follows the
    /// tunnel, and when the last dig breaks into the cave the pool pours into it.
    #[test]
    fn water_follows_a_tunnel_and_pours_into_the_cave_it_reaches() {
        let mut w = World::from_ascii(&[
            "########################",
            "#~~~~~~~################",
            "#~~~~~~~################",
            "#~~~~~~~################",
            "#~~~~~~~################",
            "#~~~~~~~#######       ##",
            "#~~~~~~~#######       ##",
            "###############       ##",
            "###############       ##",
            "########################",
        ])
        .unwrap();
        let before = water(&w);
        let mut flow = Flow::default();
        for x in 8..14 {
            for y in [5, 6] {
                dig(&mut flow, &mut w, x, y);
            }
            settle(&mut flow, &mut w, 500);
            assert_eq!(w.tile(x, 6), Tile::Water, "the tunnel fills up to x = {x}");
            assert_level(&w);
        }
        assert!(
            (1..8).all(|x| w.tile(x, 4) == Tile::Water),
            "the pool still stands above the tunnel:\n{}",
            rows(&w).join("\n")
        );
        // Nothing moved since the last dig settled; the next dig opens the cave.
        assert!(flow.is_idle());
        dig(&mut flow, &mut w, 14, 5);
        dig(&mut flow, &mut w, 14, 6);
        let ticks = settle(&mut flow, &mut w, 2000);
        assert!(ticks > 5, "the pool poured for a while");
        assert_eq!(water(&w), before, "no water made or lost");
        assert_level(&w);
        let r = rows(&w);
        assert!(
            !r[3].contains('~') && !r[4].contains('~'),
            "the pool sank below the tunnel's roof:\n{}",
            r.join("\n")
        );
        assert!(
            r[8][15..22].chars().all(|c| c == '~'),
            "the cave's floor is under water:\n{}",
            r.join("\n")
        );
    }

    #[test]
    fn two_pools_joined_by_a_dig_level_out() {
        let mut w = World::from_ascii(&[
            "##############",
            "#     #      #",
            "#~~~~~#      #",
            "#~~~~~#      #",
            "#~~~~~#      #",
            "#~~~~~#~~~~~~#",
            "##############",
        ])
        .unwrap();
        let before = water(&w);
        let mut flow = Flow::default();
        dig(&mut flow, &mut w, 6, 5); // the wall's foot, under water on both sides
        settle(&mut flow, &mut w, 1000);
        assert_eq!(water(&w), before);
        assert_level(&w);
        // 26 tiles over 12 columns (13 with the dug gap): two full rows and the rest in a
        // third; the highest water on either side is at most a row apart.
        let top = |xs: std::ops::Range<usize>| {
            (0..w.height())
                .find(|&y| xs.clone().any(|x| w.tile(x, y) == Tile::Water))
                .unwrap()
        };
        let (l, r) = (top(1..6), top(7..13));
        assert!(l.abs_diff(r) <= 1, "left top {l}, right top {r}");
        assert!(
            l >= 3 && r >= 3,
            "both at the shared level:\n{}",
            rows(&w).join("\n")
        );
    }

    #[test]
    fn a_drain_opened_away_from_resting_water_is_found() {
        // A pool's top row is half full; a hole dug in the floor beyond its end (under the
        // air of that row, out of the 3x3 around any water) still drains it.
        let mut w = World::from_ascii(&[
            "##############",
            "#            #",
            "#~~~~        #",
            "#~~~~~~~~~~~~#",
            "######.#######",
            "#            #",
            "##############",
        ])
        .unwrap();
        let mut flow = Flow::default();
        flow.wake_restless(&w);
        settle(&mut flow, &mut w, 100);
        let resting = rows(&w);
        let before = water(&w);
        dig(&mut flow, &mut w, 6, 4);
        settle(&mut flow, &mut w, 1000);
        assert_ne!(rows(&w), resting);
        assert_eq!(water(&w), before);
        assert!(
            !rows(&w)[2].contains('~'),
            "the pool sank:\n{}",
            rows(&w).join("\n")
        );
        assert_level(&w);
    }

    #[test]
    fn restless_water_is_exactly_the_water_that_can_move() {
        // A walled pool is at rest; water over air is not.
        let mut w = World::from_ascii(&["#~~~#  #", "#####  #", "########"]).unwrap();
        assert_eq!(restless(&w), vec![]);
        w.set(5, 0, Tile::Water);
        assert_eq!(restless(&w), vec![(5, 0)]);
        let mut flow = Flow::default();
        flow.wake_restless(&w);
        assert!(!flow.is_idle());
        flow.tick(&mut w);
        assert_eq!(w.tile(5, 1), Tile::Water, "it fell");
    }

    #[test]
    fn a_saved_world_with_unlevel_water_levels_when_loaded() {
        // Water stepped as a save might hold it mid-flow: no tile can move on its own,
        // but the body is not level.
        let mut w =
            World::from_ascii(&["#~#######", "#~#     #", "#~~~~~~ #", "#########"]).unwrap();
        assert_eq!(restless(&w), vec![]);
        let mut flow = Flow::default();
        flow.wake_restless(&w);
        settle(&mut flow, &mut w, 100);
        assert_level(&w);
        assert!(!rows(&w)[0].contains('~'));
    }

    #[test]
    fn generated_pools_are_at_rest() {
        let preset = crate::content::preset::Preset {
            width: 700,
            height: 400,
            ..Default::default()
        };
        let (mut w, _) = crate::worldgen::generate(&preset, 9);
        assert!(w.counts()[Tile::Water as usize] > 0);
        assert_eq!(restless(&w), vec![], "the water pass lays only still water");
        assert_level(&w);
        let mut flow = Flow::default();
        flow.wake_restless(&w);
        assert_eq!(flow.tick(&mut w), vec![], "nothing moves");
        assert!(flow.is_idle());
    }

    #[test]
    fn a_stack_on_level_ground_spreads_into_a_layer() {
        let mut w =
            World::from_ascii(&["#     #", "#  ~  #", "#  ~  #", "#  ~  #", "#######"]).unwrap();
        let mut flow = Flow::default();
        flow.wake(&w, 3, 2);
        settle(&mut flow, &mut w, 100);
        assert_eq!(rows(&w)[3], "# ~~~ #");
        assert_eq!(water(&w), 3);
    }

    #[test]
    fn water_at_rest_stays_and_flow_always_ends() {
        // Random caves with random water, all woken: it settles, keeps its volume, and
        // ends level with no water over air.
        for seed in 0..20u64 {
            let art: Vec<String> = (0..24u64)
                .map(|y| {
                    (0..40u64)
                        .map(|x| match crate::base::rng::hash3(seed, x, y) % 8 {
                            _ if x == 0 || x == 39 || y == 23 => '#',
                            0 | 1 => '#',
                            2 => '~',
                            _ => ' ',
                        })
                        .collect()
                })
                .collect();
            let refs: Vec<&str> = art.iter().map(|s| s.as_str()).collect();
            let mut w = World::from_ascii(&refs).unwrap();
            let before = water(&w);
            let mut flow = Flow::default();
            for y in 0..24 {
                for x in 0..40 {
                    flow.wake(&w, x, y);
                }
            }
            settle(&mut flow, &mut w, 5000);
            assert_eq!(water(&w), before, "seed {seed}");
            assert_level(&w);
            for y in 0..23 {
                for x in 0..40 {
                    if w.tile(x, y) == Tile::Water {
                        assert_ne!(
                            w.tile(x, y + 1),
                            Tile::Air,
                            "seed {seed}: hanging at ({x}, {y})"
                        );
                    }
                }
            }
            // Settled water does not move again.
            let resting = rows(&w);
            for y in 0..24 {
                for x in 0..40 {
                    flow.wake(&w, x, y);
                }
            }
            flow.tick(&mut w);
            assert_eq!(rows(&w), resting, "seed {seed}");
        }
    }

    fn count(w: &World, t: Tile) -> usize {
        w.counts()[t as usize] as usize
    }

    #[test]
    fn lava_flows_like_water_at_a_third_of_the_pace() {
        let art = [
            "#########",
            "##~~~~~##",
            "###~~~###",
            "#########",
            "#       #",
            "#       #",
            "#########",
        ];
        let mut w = World::from_ascii(&art).unwrap();
        let mut flow = Flow::default();
        dig(&mut flow, &mut w, 4, 3);
        let water_ticks = settle(&mut flow, &mut w, 500);
        let lava_art: Vec<String> = art.iter().map(|r| r.replace('~', "L")).collect();
        let refs: Vec<&str> = lava_art.iter().map(|r| r.as_str()).collect();
        let mut l = World::from_ascii(&refs).unwrap();
        let mut flow = Flow::default();
        dig(&mut flow, &mut l, 4, 3);
        let lava_ticks = settle(&mut flow, &mut l, 1500);
        assert_eq!(
            rows(&l),
            rows(&w)
                .iter()
                .map(|r| r.replace('~', "L"))
                .collect::<Vec<_>>(),
            "the same moves"
        );
        assert_eq!(count(&l, Tile::Lava), 8);
        assert!(
            lava_ticks >= 3 * water_ticks - 3 && lava_ticks <= 3 * water_ticks + 3,
            "water {water_ticks} ticks, lava {lava_ticks}"
        );
        assert!(!flow.take_relight().is_empty(), "moving lava relights");
    }

    #[test]
    fn water_poured_onto_lava_leaves_obsidian_under_the_water() {
        let mut w = World::from_ascii(&[
            "#######", "#~~~~~#", "###.###", "#     #", "#LLLLL#", "#LLLLL#", "#######",
        ])
        .unwrap();
        let (water, lava) = (count(&w, Tile::Water), count(&w, Tile::Lava));
        let mut flow = Flow::default();
        dig(&mut flow, &mut w, 3, 2);
        settle(&mut flow, &mut w, 2000);
        let r = rows(&w);
        assert_eq!(
            count(&w, Tile::Water),
            water,
            "water is kept:\n{}",
            r.join("\n")
        );
        assert_eq!(r[4], "#OOOOO#", "a crust of obsidian:\n{}", r.join("\n"));
        assert_eq!(r[5], "#LLLLL#", "lava under the crust");
        assert_eq!(count(&w, Tile::Lava), lava - 5);
        assert_eq!(r[3], "#~~~~~#", "water on the crust");
        let lit = flow.take_relight();
        assert!(
            (1..6).all(|x| lit.contains(&(x, 4))),
            "hardened tiles relight"
        );
    }

    #[test]
    fn lava_running_into_water_hardens() {
        let mut w = World::from_ascii(&[
            "#########",
            "#LLL#   #",
            "#LLL#   #",
            "#LLL#~~~#",
            "#########",
        ])
        .unwrap();
        let mut flow = Flow::default();
        dig(&mut flow, &mut w, 4, 3);
        settle(&mut flow, &mut w, 2000);
        assert_eq!(count(&w, Tile::Water), 3, "water is kept");
        assert!(count(&w, Tile::Obsidian) >= 1);
        for (x, y) in w.find(Tile::Lava) {
            for (nx, ny) in neighbours(&w, x, y) {
                assert_ne!(
                    w.tile(nx, ny),
                    Tile::Water,
                    "lava beside water at rest:\n{}",
                    rows(&w).join("\n")
                );
            }
        }
        assert_level(&w);
    }
    /// Honey, the hives' liquid, flows as water does: a hive dug open pours its honey
    /// down and out, none is lost, it ends level, and it never mixes with water.
    #[test]
    fn honey_flows_like_water() {
        let mut w = World::from_ascii(&[
            "############",
            "#====#     #",
            "#====#     #",
            "#====#     #",
            "###########~",
            "############",
        ])
        .unwrap();
        let honey = |w: &World| w.counts()[Tile::Honey as usize];
        let before = honey(&w);
        let mut flow = Flow::default();
        flow.wake_restless(&w);
        assert!(flow.is_idle(), "a closed hive is at rest");
        for y in 1..4 {
            dig(&mut flow, &mut w, 5, y);
        }
        settle(&mut flow, &mut w, 500);
        assert_eq!(honey(&w), before, "no honey lost");
        assert!(
            (6..11).any(|x| w.tile(x, 3) == Tile::Honey),
            "the honey ran out into the room:\n{}",
            rows(&w).join("\n")
        );
        assert!((1..5).all(|x| w.tile(x, 1) != Tile::Honey), "and sank");
        assert_level(&w);
        assert_eq!(w.tile(11, 4), Tile::Water, "the water stays water");
    }
}
