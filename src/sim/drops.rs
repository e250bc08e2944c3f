//! Items lying in the world ([`Dropped`]): what a dig, a felling or a kill gives, what a
//! player throws out and what a death drops. Each falls under gravity onto the ground (or
//! a platform), and flies to a player with room for it: to the player whose dig or kill
//! made it from [`crate::content::rules::Rules::item_owner_pull`] tiles (its reach, so
//! digging fills the inventory as it always did), to anyone from
//! [`crate::content::rules::Rules::item_pull`] tiles. A stack thrown out waits
//! [`crate::content::rules::Rules::throw_delay`] before its thrower can take it back.
//! Touching the player it goes into the inventory, as much as fits; the rest stays.
//!
//! Pure and deterministic: [`step`] moves every item in list order and gives the players
//! what they picked up, with no randomness.

use crate::content::rules::Rules;
use crate::world::inventory::{Inventory, Stack};
use crate::world::{Tile, World};

/// Most items lying in the world at once (Terraria's 400): a new one past it takes the
/// place of the oldest.
pub const MAX_ITEMS: usize = 400;

/// Gravity on a lying item, tiles/s².
pub const GRAVITY: f32 = 40.0;

/// Fastest an item falls, tiles/s.
pub const MAX_FALL: f32 = 20.0;

/// Half the side of an item's box, tiles.
pub const HALF: f32 = 0.3;

/// Distance from a player's centre at which an item goes into the inventory, tiles.
pub const PICKUP: f32 = 1.0;

pub use crate::world::dropped::Dropped;

/// `stack` thrown by player `who` from `pos` toward `facing` (-1 or +1): it flies up and
/// forward, and its thrower may not take it back for [`Rules::throw_delay`] seconds.
pub fn thrown(stack: Stack, pos: (f32, f32), who: usize, facing: i8, rules: &Rules) -> Dropped {
    Dropped {
        vel: (4.0 * f32::from(facing.signum()), -6.0),
        thrown: Some((who, rules.throw_delay)),
        ..Dropped::new(stack, pos, None)
    }
}

/// One player as [`step`] sees it: its body's centre and its inventory.
pub struct Taker<'a> {
    pub centre: (f32, f32),
    pub inventory: &'a mut Inventory,
}

/// Adds `item` to `items`, the oldest going when there are [`MAX_ITEMS`].
pub fn add(items: &mut Vec<Dropped>, item: Dropped) {
    if items.len() >= MAX_ITEMS {
        items.remove(0);
    }
    items.push(item);
}

/// Is the point `(x, y)` in a solid tile, or outside the world?
fn blocks(world: &World, x: f32, y: f32) -> bool {
    world
        .get(x.floor() as i64, y.floor() as i64)
        .is_none_or(|t| t.is_solid())
}

/// The player an item flies to: its owner within the owner's pull, else the nearest
/// within the pull (the lowest index on a tie), among those with room for it and not
/// waiting to take back what they threw.
pub fn target(item: &Dropped, takers: &[Taker], rules: &Rules) -> Option<usize> {
    let d = |t: &Taker| {
        let (dx, dy) = (t.centre.0 - item.pos.0, t.centre.1 - item.pos.1);
        (dx * dx + dy * dy).sqrt()
    };
    let can = |i: usize| {
        takers[i].inventory.room_for(item.stack.item) > 0
            && !item.thrown.is_some_and(|(w, left)| w == i && left > 0.0)
    };
    if let Some(o) = item.owner
        && o < takers.len()
        && can(o)
        && d(&takers[o]) <= rules.item_owner_pull
    {
        return Some(o);
    }
    (0..takers.len())
        .filter(|&i| can(i) && d(&takers[i]) <= rules.item_pull)
        .min_by(|&a, &b| d(&takers[a]).total_cmp(&d(&takers[b])))
}

/// One tick of `dt` seconds for every item: those with a player to go to fly to it (and
/// into its inventory on touching it, as much as fits), the rest fall and lie. Returns
/// what each player picked up, in order.
pub fn step(
    items: &mut Vec<Dropped>,
    world: &World,
    takers: &mut [Taker],
    rules: &Rules,
    dt: f32,
) -> Vec<(usize, Stack)> {
    let mut picked = Vec::new();
    for item in items.iter_mut() {
        if let Some((_, left)) = &mut item.thrown {
            *left = (*left - dt).max(0.0);
        }
        if let Some(i) = target(item, takers, rules) {
            let c = takers[i].centre;
            let (dx, dy) = (c.0 - item.pos.0, c.1 - item.pos.1);
            let dist = (dx * dx + dy * dy).sqrt();
            if dist <= PICKUP {
                let lost = takers[i].inventory.add(item.stack.item, item.stack.count);
                let got = item.stack.count - lost;
                if got > 0 {
                    picked.push((
                        i,
                        Stack {
                            item: item.stack.item,
                            count: got,
                        },
                    ));
                }
                item.stack.count = lost;
                item.vel = (0.0, 0.0);
                continue;
            }
            // Flies straight at the player, through blocks, as Terraria's items do.
            let speed = rules.item_speed;
            let step = (speed * dt).min(dist);
            item.pos = (item.pos.0 + dx / dist * step, item.pos.1 + dy / dist * step);
            item.vel = (dx / dist * speed, dy / dist * speed);
            continue;
        }
        fall(item, world, dt);
    }
    // Nothing leaves the world: an item at its very edge (outside every tile, so "in a
    // block") would otherwise rise out of the top, into a save no loader takes.
    for item in items.iter_mut() {
        let kept = world.keep_inside(item.pos, HALF);
        if kept != item.pos {
            item.pos = kept;
            item.vel = (0.0, 0.0);
        }
    }
    items.retain(|i| i.stack.count > 0);
    picked
}

/// An item with no player to fly to: gravity, friction on the ground, and the tiles in
/// its way (it lands on solid tiles and platforms, stops against walls).
fn fall(item: &mut Dropped, world: &World, dt: f32) {
    let (x, y) = item.pos;
    // Already inside a block (a block placed on it, a load): it rises out.
    if blocks(world, x, y) {
        item.pos.1 = y.floor() - HALF;
        item.vel = (0.0, 0.0);
        return;
    }
    let mut vy = (item.vel.1 + GRAVITY * dt).min(MAX_FALL);
    let mut vx = item.vel.0;
    let ny = y + vy * dt;
    // Lands on a solid tile, or on a platform it was above.
    let row = (ny + HALF).floor();
    let on_ground = vy >= 0.0
        && match world.get(x.floor() as i64, row as i64) {
            None => true,
            Some(t) => t.is_solid() || (t == Tile::Platform && y + HALF <= row + 1e-4),
        };
    let ny = if on_ground {
        vy = 0.0;
        row - HALF
    } else if vy < 0.0 && blocks(world, x, ny - HALF) {
        vy = 0.0;
        y
    } else {
        ny
    };
    if on_ground {
        vx *= (1.0 - 10.0 * dt).max(0.0);
    }
    let nx = x + vx * dt;
    let side = nx + HALF * vx.signum();
    let nx = if vx != 0.0 && blocks(world, side, ny) {
        vx = 0.0;
        x
    } else {
        nx
    };
    item.pos = (nx, ny);
    item.vel = (vx, vy);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in content, as a session without mods plays by.
    fn content() -> crate::content::config::Content {
        crate::content::config::Content::builtin()
    }

    /// A 20x20 world of air over a stone floor at row 10.
    fn floor() -> World {
        let mut w = World::new(20, 20, 1, Default::default());
        for x in 0..20 {
            for y in 10..20 {
                w.set(x, y, Tile::Stone);
            }
        }
        w
    }

    fn gel(n: u32) -> Stack {
        Stack {
            item: content().catalog.id("gel").unwrap(),
            count: n,
        }
    }

    fn ticks(
        items: &mut Vec<Dropped>,
        w: &World,
        takers: &mut [Taker],
        n: usize,
    ) -> Vec<(usize, Stack)> {
        let rules = Rules::default();
        (0..n)
            .flat_map(|_| step(items, w, takers, &rules, 1.0 / 60.0))
            .collect()
    }

    #[test]
    fn an_item_falls_and_lies_on_the_ground() {
        let w = floor();
        let mut items = vec![Dropped::new(gel(3), (5.5, 2.5), None)];
        ticks(&mut items, &w, &mut [], 120);
        let (x, y) = items[0].pos;
        assert_eq!(x, 5.5);
        assert!((y - (10.0 - HALF)).abs() < 1e-4, "on the floor: {y}");
        assert_eq!(items[0].vel, (0.0, 0.0));
    }

    #[test]
    fn an_item_flies_to_a_player_within_the_pull_and_is_picked_up() {
        let w = floor();
        let mut inv = Inventory::empty(&content().catalog);
        let mut items = vec![Dropped::new(gel(3), (5.5, 9.7), None)];
        let mut takers = [Taker {
            centre: (8.0, 9.1),
            inventory: &mut inv,
        }];
        let picked = ticks(&mut items, &w, &mut takers, 60);
        assert_eq!(picked, vec![(0, gel(3))]);
        assert!(items.is_empty());
        assert_eq!(inv.count("gel"), 3);
    }

    #[test]
    fn an_item_beyond_the_pull_stays_unless_its_owner_is_within_reach() {
        let w = floor();
        let mut inv = Inventory::empty(&content().catalog);
        let mut items = vec![Dropped::new(gel(1), (2.5, 9.7), None)];
        let mut takers = [Taker {
            centre: (8.5, 9.1),
            inventory: &mut inv,
        }];
        assert!(
            ticks(&mut items, &w, &mut takers, 60).is_empty(),
            "6 tiles away"
        );
        items[0].owner = Some(0);
        assert_eq!(ticks(&mut items, &w, &mut takers, 60), vec![(0, gel(1))]);
    }

    #[test]
    fn a_full_inventory_leaves_the_item_lying_and_takes_what_fits() {
        let w = floor();
        let mut full = Inventory::empty(&content().catalog);
        let dirt = content().catalog.block_item(Tile::Dirt).unwrap();
        let stack = content().catalog.item(dirt).stack;
        full.add(dirt, stack * crate::world::inventory::SLOTS as u32);
        assert_eq!(full.room_for("gel"), 0);
        let mut items = vec![Dropped::new(gel(5), (6.0, 9.7), None)];
        let mut takers = [Taker {
            centre: (6.0, 9.1),
            inventory: &mut full,
        }];
        assert!(ticks(&mut items, &w, &mut takers, 60).is_empty());
        assert_eq!(items.len(), 1, "it stays");
        assert_eq!(items[0].stack.count, 5);
        // Room for part of it: that part is taken, the rest stays.
        let most = content().catalog.item(gel(1).item).stack;
        let mut almost = Inventory::empty(&content().catalog);
        for _ in 0..crate::world::inventory::SLOTS {
            almost.add("gel", most);
        }
        almost.remove("gel", 2);
        let mut takers = [Taker {
            centre: (6.0, 9.1),
            inventory: &mut almost,
        }];
        assert_eq!(ticks(&mut items, &w, &mut takers, 5), vec![(0, gel(2))]);
        assert_eq!(items[0].stack.count, 3);
    }

    #[test]
    fn a_thrown_stack_waits_before_its_thrower_takes_it_back() {
        let w = floor();
        let rules = Rules::default();
        let mut inv = Inventory::empty(&content().catalog);
        let mut items = vec![thrown(gel(4), (6.0, 9.0), 0, 1, &rules)];
        let mut takers = [Taker {
            centre: (6.0, 9.1),
            inventory: &mut inv,
        }];
        let half = (rules.throw_delay * 30.0) as usize;
        assert!(ticks(&mut items, &w, &mut takers, half).is_empty());
        assert!(items[0].pos.0 > 6.0, "thrown forward");
        let picked = ticks(&mut items, &w, &mut takers, 4 * half);
        assert_eq!(picked, vec![(0, gel(4))]);
    }

    #[test]
    fn the_nearest_player_with_room_gets_it_and_the_list_is_capped() {
        let w = floor();
        let (mut a, mut b) = (
            Inventory::empty(&content().catalog),
            Inventory::empty(&content().catalog),
        );
        let item = Dropped::new(gel(1), (6.0, 9.7), None);
        let mut takers = [
            Taker {
                centre: (8.0, 9.1),
                inventory: &mut a,
            },
            Taker {
                centre: (5.0, 9.1),
                inventory: &mut b,
            },
        ];
        assert_eq!(target(&item, &takers, &Rules::default()), Some(1));
        let mut items = vec![item];
        assert_eq!(ticks(&mut items, &w, &mut takers, 30), vec![(1, gel(1))]);
        let mut many = Vec::new();
        for i in 0..MAX_ITEMS + 3 {
            add(&mut many, Dropped::new(gel(i as u32 + 1), (1.0, 1.0), None));
        }
        assert_eq!(many.len(), MAX_ITEMS);
        assert_eq!(many[0].stack.count, 4, "the oldest went");
    }
}
