//! Felling: cutting a tree's trunk (or a cactus) brings down all of it above the cut.

use crate::world::{Tile, World};

/// Leaves further than this many columns from the cut stay where they are.
const LEAF_REACH: usize = 9;
/// Most tiles one cut removes (a tree is a few dozen; this bounds any world).
pub const MAX_FELL: usize = 4096;

/// The tiles a cut at `(x, y)` removes, the cut tile first. For a trunk or cactus: every
/// tile of that kind joined to it through 4-neighbours at or above the cut's row, then the
/// leaves joined to those through leaves, within [`LEAF_REACH`] columns and at or above
/// the cut, that are nearer this tree's trunk than another's (so a neighbour's crown
/// stays). Anything else: just the tile.
pub fn felled(world: &World, x: usize, y: usize) -> Vec<(usize, usize)> {
    let kind = world.tile(x, y);
    let mut tiles = vec![(x, y)];
    if !matches!(kind, Tile::Trunk | Tile::Cactus) {
        return tiles;
    }
    let neighbours = |(tx, ty): (usize, usize)| {
        [
            (tx.wrapping_sub(1), ty),
            (tx + 1, ty),
            (tx, ty.wrapping_sub(1)),
            (tx, ty + 1),
        ]
        .into_iter()
        .filter(move |&(nx, ny)| nx < world.width() && ny <= y && nx.abs_diff(x) <= LEAF_REACH)
    };
    let mut i = 0;
    while i < tiles.len() && tiles.len() < MAX_FELL {
        for n in neighbours(tiles[i]) {
            if world.tile(n.0, n.1) == kind && !tiles.contains(&n) {
                tiles.push(n);
            }
        }
        i += 1;
    }
    let woody = tiles.len();
    let mut i = 0;
    while i < tiles.len() && tiles.len() < MAX_FELL {
        for n in neighbours(tiles[i]) {
            if world.tile(n.0, n.1) == Tile::Leaves
                && !tiles.contains(&n)
                && !nearer_other_trunk(world, &tiles[..woody], n, x)
            {
                tiles.push(n);
            }
        }
        i += 1;
    }
    tiles
}

/// Leaf tiles of a felled crown for each leaves item it gives.
pub const LEAF_TILES_PER_DROP: usize = 3;

/// What felling a crown of `leaf_tiles` leaf tiles gives: one leaves item for every
/// [`LEAF_TILES_PER_DROP`] (a tree's crown gives a few, always the same for the same tree).
pub fn leaf_drop(leaf_tiles: usize) -> u32 {
    (leaf_tiles / LEAF_TILES_PER_DROP) as u32
}

/// The leaves a cut at `(x, y)` would bring down ([`felled`]): how many leaves items they
/// give ([`leaf_drop`]) and the tile they fall from (the crown's lowest leaf nearest the
/// trunk), or `None` when they give none.
pub fn crown(world: &World, x: usize, y: usize) -> Option<(u32, (i64, i64))> {
    let leaves: Vec<(usize, usize)> = felled(world, x, y)
        .into_iter()
        .filter(|&(tx, ty)| world.tile(tx, ty) == Tile::Leaves)
        .collect();
    let n = leaf_drop(leaves.len());
    let &(lx, ly) = leaves
        .iter()
        .min_by_key(|&&(tx, ty)| (tx.abs_diff(x), std::cmp::Reverse(ty)))?;
    (n > 0).then_some((n, (lx as i64, ly as i64)))
}

/// Is there a trunk that is not being felled nearer to the leaf `(lx, ly)` (in its row or
/// the few below) than the felled trunk's column `x`?
fn nearer_other_trunk(
    world: &World,
    felled: &[(usize, usize)],
    (lx, ly): (usize, usize),
    x: usize,
) -> bool {
    let own = lx.abs_diff(x);
    (ly..(ly + 4).min(world.height())).any(|ty| {
        (lx.saturating_sub(own)..=(lx + own).min(world.width() - 1)).any(|tx| {
            tx.abs_diff(lx) < own
                && world.tile(tx, ty) == Tile::Trunk
                && !felled.contains(&(tx, ty))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn art(w: &World) -> Vec<String> {
        (0..w.height())
            .map(|y| w.row(y).iter().map(|t| t.ascii()).collect())
            .collect()
    }

    #[test]
    fn cutting_a_trunk_fells_the_tree_above_and_leaves_its_neighbour() {
        let mut w = World::from_ascii(&[
            " %%%   %%% ",
            "%%|%% %%|%%",
            "  |     |  ",
            "  |     |  ",
            "...........",
        ])
        .unwrap();
        let cut = felled(&w, 2, 2);
        assert_eq!(cut[0], (2, 2));
        for &(x, y) in &cut {
            w.set(x, y, Tile::Air);
        }
        assert_eq!(
            art(&w),
            [
                "       %%% ",
                "      %%|%%",
                "        |  ",
                "  |     |  ",
                "...........",
            ]
        );
        // Anything but a trunk or cactus is just itself.
        assert_eq!(felled(&w, 0, 4), vec![(0, 4)]);
        // The other tree's crown of 7 leaves gives 2 leaves, falling from over its trunk.
        assert_eq!(crown(&w, 8, 2), Some((2, (8, 0))));
        assert_eq!(crown(&w, 0, 4), None, "no crown");
    }
}
