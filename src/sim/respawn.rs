//! Where a player comes back after a death, and what a death costs: a bed the player
//! used ([`use_bed`]) is its spawn point while it stands with room to stand in it
//! ([`bed_spot`]); otherwise the world's spawn point ([`crate::sim::player::spawn_point`]).
//! A death waits [`crate::content::rules::Rules::respawn_seconds`] (the death screen)
//! and drops a share of the stacks the rules name ([`death_drops`], Terraria's softcore
//! rule for coins: half of them fall where the player died).

use crate::content::items::Catalog;
use crate::content::rules::Rules;
use crate::sim::player::body_blocked;
use crate::sim::vitals::Harm;
use crate::world::inventory::{Inventory, Stack};
use crate::world::{Tile, World};

/// Why a bed is not a spawn point (any more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BedLost {
    /// No bed stands on that tile (it was broken, or never was).
    Broken,
    /// A block fills the room a body needs to stand in the bed.
    Blocked,
}

impl std::fmt::Display for BedLost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BedLost::Broken => write!(f, "your bed is gone"),
            BedLost::Blocked => write!(f, "your bed is blocked"),
        }
    }
}

/// Where a body stands in the bed on tile `bed`: feet on the bottom of the bed's tile,
/// centred on it; refused when no bed is there or a solid tile is in the way.
pub fn bed_spot(world: &World, bed: (usize, usize)) -> Result<(f32, f32), BedLost> {
    let (x, y) = bed;
    if x >= world.width() || y >= world.height() || world.tile(x, y) != Tile::Bed {
        return Err(BedLost::Broken);
    }
    let feet = (x as f32 + 0.5, y as f32 + 1.0);
    if body_blocked(world, feet.0, feet.1) {
        return Err(BedLost::Blocked);
    }
    Ok(feet)
}

/// Using the tile at `(x, y)` as a bed: the new spawn point when it is a bed with room to
/// stand in it.
pub fn use_bed(world: &World, x: i64, y: i64) -> Option<Result<(usize, usize), BedLost>> {
    if world.get(x, y) != Some(Tile::Bed) {
        return None;
    }
    let bed = (x as usize, y as usize);
    Some(bed_spot(world, bed).map(|_| bed))
}

/// Where a player with spawn point `bed` comes back: the bed's spot, or the world's spawn
/// point and why the bed was not used.
pub fn respawn_at(world: &World, bed: Option<(usize, usize)>) -> ((f32, f32), Option<BedLost>) {
    match bed.map(|b| bed_spot(world, b)) {
        Some(Ok(spot)) => (spot, None),
        Some(Err(lost)) => (crate::sim::player::spawn_point(world), Some(lost)),
        None => (crate::sim::player::spawn_point(world), None),
    }
}

/// What the death screen says of `harm` (as Terraria's death messages put it).
pub fn slain_by(harm: &Harm) -> String {
    match harm {
        Harm::Fall(_) => "You fell to your death".into(),
        Harm::Drowning => "You drowned".into(),
        Harm::Lava => "You were burned by lava".into(),
        Harm::Spikes => "You were impaled by spikes".into(),
        Harm::Creature(_) => format!("You were slain by {harm}"),
    }
}

/// What a death takes out of `inventory`: of every stack whose item the rules name in
/// `death_drops`, [`Rules::death_drop_share`] of it (rounded down). Names the catalog
/// does not know are skipped (the rule names coins before every world has them).
pub fn death_drops(inventory: &mut Inventory, cat: &Catalog, rules: &Rules) -> Vec<Stack> {
    let mut out = Vec::new();
    for id in rules.death_drops.iter().filter_map(|n| cat.id(n)) {
        let held = inventory.count(id);
        let n = (held as f64 * f64::from(rules.death_drop_share)).floor() as u32;
        if n > 0 && inventory.remove(id, n) {
            out.push(Stack { item: id, count: n });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in content, as a session without mods plays by.
    fn content() -> crate::content::config::Content {
        crate::content::config::Content::builtin()
    }

    /// A 24x12 world of air over a stone floor at row 8, with a bed at (5, 7) (away from the
    /// world's spawn point in the middle).
    fn bedroom() -> World {
        let mut w = World::new(24, 12, 1, Default::default());
        for x in 0..24 {
            for y in 8..12 {
                w.set(x, y, Tile::Stone);
            }
        }
        w.set(5, 7, Tile::Bed);
        w
    }

    #[test]
    fn a_bed_with_room_is_the_spawn_point_and_its_spot_is_in_it() {
        let w = bedroom();
        assert_eq!(use_bed(&w, 5, 7), Some(Ok((5, 7))));
        assert_eq!(use_bed(&w, 4, 7), None, "not a bed");
        assert_eq!(respawn_at(&w, Some((5, 7))), ((5.5, 8.0), None));
    }

    #[test]
    fn a_broken_or_blocked_bed_falls_back_to_the_world_spawn() {
        let mut w = bedroom();
        w.set(5, 6, Tile::Stone);
        assert_eq!(use_bed(&w, 5, 7), Some(Err(BedLost::Blocked)));
        let world_spawn = crate::sim::player::spawn_point(&w);
        assert_eq!(
            respawn_at(&w, Some((5, 7))),
            (world_spawn, Some(BedLost::Blocked))
        );
        w.set(5, 6, Tile::Air);
        w.set(5, 7, Tile::Air);
        assert_eq!(
            respawn_at(&w, Some((5, 7))),
            (world_spawn, Some(BedLost::Broken))
        );
        assert_eq!(respawn_at(&w, Some((50, 70))).1, Some(BedLost::Broken));
        assert_eq!(respawn_at(&w, None), (world_spawn, None));
    }

    #[test]
    fn the_death_screen_names_what_killed() {
        assert_eq!(
            slain_by(&Harm::Creature("slime".into())),
            "You were slain by a slime"
        );
        assert_eq!(
            slain_by(&Harm::Creature(crate::sim::boss::NAME.into())),
            "You were slain by The Eye",
            "a name of its own takes no \"a\""
        );
        assert_eq!(slain_by(&Harm::Fall(40.0)), "You fell to your death");
        assert_eq!(slain_by(&Harm::Drowning), "You drowned");
        assert_eq!(slain_by(&Harm::Lava), "You were burned by lava");
    }

    #[test]
    fn a_death_drops_half_of_the_named_stacks_and_nothing_else() {
        let cat = &content().catalog;
        let rules = Rules {
            death_drops: vec!["gel".into(), "no_such_item".into()],
            death_drop_share: 0.5,
            ..Rules::default()
        };
        let mut inv = Inventory::starting(&content().catalog);
        inv.add("gel", 7);
        inv.add("wood", 9);
        let dropped = death_drops(&mut inv, cat, &rules);
        let gel = cat.id("gel").unwrap();
        assert_eq!(
            dropped,
            vec![Stack {
                item: gel,
                count: 3
            }]
        );
        assert_eq!(inv.count("gel"), 4);
        assert_eq!(inv.count("wood"), 9);
        // One left: half of one is none.
        let mut one = Inventory::starting(&content().catalog);
        one.add("gel", 1);
        assert!(death_drops(&mut one, cat, &rules).is_empty());
        assert_eq!(one.count("gel"), 1);
    }
}
