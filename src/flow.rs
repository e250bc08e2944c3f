//! Water that falls. Pools are laid at rest by world generation; an edit that opens air
//! under or beside water wakes it, and then each tick every awake water tile moves at most
//! one tile:
//!
//! 1. into air straight below it;
//! 2. else diagonally down, into air below a side tile that is air too;
//! 3. else one tile sideways toward the nearest drop along its row (air all the way, then
//!    air under the air), at most [`REACH`] tiles away, the left one on a tie.
//!
//! So water pours down, slides off slopes, and spreads over level ground or other water
//! only toward an edge it can fall from. Rules 1 and 2 lower a tile; under rule 3 the
//! distance to the nearest drop shrinks every tick until the tile falls, unless a drop is
//! filled, which lowers a tile too: flow always ends, and a pool walled on both sides
//! never moves. Flow never creates or destroys water.
//!
//! Pure: the game calls [`Flow::tick`] at a fixed rate and redraws, relights and
//! re-analyses the tiles it reports.

use crate::world::{Tile, World};
use std::collections::BTreeSet;

/// Farthest a tile looks along its row for an edge to fall from.
pub const REACH: i64 = 16;

/// Awake water tiles, and how many ticks have run (for alternating sides fairly).
#[derive(Clone, Debug, Default)]
pub struct Flow {
    /// `(y, x)`, so the lowest rows come last and are taken first.
    active: BTreeSet<(usize, usize)>,
    ticks: u64,
}

impl Flow {
    /// Is any water awake?
    pub fn is_idle(&self) -> bool {
        self.active.is_empty()
    }

    /// Wakes the water on and around tile `(x, y)`: the 3x3 block around it.
    pub fn wake(&mut self, world: &World, x: usize, y: usize) {
        for ty in y.saturating_sub(1)..=(y + 1).min(world.height() - 1) {
            for tx in x.saturating_sub(1)..=(x + 1).min(world.width() - 1) {
                if world.tile(tx, ty) == Tile::Water {
                    self.active.insert((ty, tx));
                }
            }
        }
    }

    /// Wakes every water tile that could move now ([`restless`]): for a world from a
    /// save, which may have been taken while water was flowing.
    pub fn wake_restless(&mut self, world: &World) {
        self.active
            .extend(restless(world).into_iter().map(|(x, y)| (y, x)));
    }

    /// Wakes the water within [`REACH`] of column `x` in rows `y - 1` to `y + 1`.
    fn wake_rows(&mut self, world: &World, x: usize, y: usize) {
        let reach = REACH as usize;
        let columns = x.saturating_sub(reach)..=(x + reach).min(world.width() - 1);
        for ty in y.saturating_sub(1)..=(y + 1).min(world.height() - 1) {
            for tx in columns.clone() {
                if world.tile(tx, ty) == Tile::Water {
                    self.active.insert((ty, tx));
                }
            }
        }
    }

    /// One tick: every awake water tile that can move does, lowest rows first. Returns
    /// every tile that changed (left by water or reached by it).
    pub fn tick(&mut self, world: &mut World) -> Vec<(usize, usize)> {
        self.ticks += 1;
        let side = if self.ticks.is_multiple_of(2) {
            [-1i64, 1]
        } else {
            [1, -1]
        };
        let awake = std::mem::take(&mut self.active);
        let mut changed = Vec::new();
        for &(y, x) in awake.iter().rev() {
            if world.tile(x, y) != Tile::Water {
                continue;
            }
            let Some((nx, ny)) = target(world, x, y, side) else {
                continue;
            };
            world.set(x, y, Tile::Air);
            world.set(nx, ny, Tile::Water);
            changed.extend([(x, y), (nx, ny)]);
            // The moved tile may go on; water around the gap may follow, and so may water
            // up to REACH away in its row and the row above, for which the gap may be a
            // new edge to fall from.
            self.wake(world, nx, ny);
            self.wake_rows(world, x, y);
        }
        changed
    }
}

/// Every water tile that could move now.
pub fn restless(world: &World) -> Vec<(usize, usize)> {
    world
        .find(Tile::Water)
        .into_iter()
        .filter(|&(x, y)| target(world, x, y, [-1, 1]).is_some())
        .collect()
}

/// Where the water at `(x, y)` moves this tick, trying the sides in the order given.
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
        w.set(4, 3, Tile::Air); // dig through the floor
        let mut flow = Flow::default();
        flow.wake(&w, 4, 3);
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
    fn generated_pools_are_at_rest() {
        let preset = crate::preset::Preset {
            width: 700,
            height: 400,
            ..Default::default()
        };
        let (w, _) = crate::worldgen::generate(&preset, 9);
        assert!(w.counts()[Tile::Water as usize] > 0);
        assert_eq!(restless(&w), vec![], "the water pass lays only still water");
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
        // ends with no water over air.
        for seed in 0..20u64 {
            let art: Vec<String> = (0..24u64)
                .map(|y| {
                    (0..40u64)
                        .map(|x| match crate::rng::hash3(seed, x, y) % 8 {
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
}
