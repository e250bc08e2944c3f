//! The obvious labelling, kept as the oracle the fast one is checked against: a
//! breadth-first flood fill from every unlabelled ground-air tile in row-major order, one tile at
//! a time. Its ids come out in the same order as [`analyse`](super::analyse)'s (order of
//! each component's first tile), so the two must agree exactly.

use super::CaveReport;
use crate::world::World;
use std::collections::VecDeque;

/// Whether tile `i` is ground air: air at or below its column's surface row.
fn ground_air(world: &World, i: usize) -> bool {
    let (x, y) = (i % world.width(), i / world.width());
    world.tiles()[i].is_open() && y as u32 >= world.surface[x]
}

/// Whether tile `i` is sky air: air above its column's surface row.
fn sky_air(world: &World, i: usize) -> bool {
    let (x, y) = (i % world.width(), i / world.width());
    world.tiles()[i].is_open() && (y as u32) < world.surface[x]
}

/// Per-tile cave ids (`u32::MAX` for anything but ground air) and `(area, open)` per cave,
/// where open means a tile of it is 4-adjacent to sky air.
pub fn flood_fill(world: &World) -> (Vec<u32>, Vec<(u64, bool)>) {
    let (w, h) = (world.width(), world.height());
    let mut label = vec![u32::MAX; w * h];
    let mut comps = vec![];
    let mut queue = VecDeque::new();
    for start in 0..w * h {
        if label[start] != u32::MAX || !ground_air(world, start) {
            continue;
        }
        let id = comps.len() as u32;
        let (mut area, mut open) = (0, false);
        label[start] = id;
        queue.push_back(start);
        while let Some(i) = queue.pop_front() {
            let (x, y) = (i % w, i / w);
            area += 1;
            let neighbours = [
                (x > 0, i.wrapping_sub(1)),
                (x + 1 < w, i + 1),
                (y > 0, i.wrapping_sub(w)),
                (y + 1 < h, i + w),
            ];
            for (inside, j) in neighbours {
                if !inside {
                    continue;
                }
                open |= sky_air(world, j);
                if label[j] == u32::MAX && ground_air(world, j) {
                    label[j] = id;
                    queue.push_back(j);
                }
            }
        }
        comps.push((area, open));
    }
    (label, comps)
}

/// Checks a report against [`flood_fill`] tile by tile and figure by figure; the error
/// names the first disagreement.
pub fn check(world: &World, report: &CaveReport) -> Result<(), String> {
    let (label, comps) = flood_fill(world);
    if report.components.len() != comps.len() {
        return Err(format!(
            "{} components, flood fill finds {}",
            report.components.len(),
            comps.len()
        ));
    }
    for y in 0..world.height() {
        for x in 0..world.width() {
            let l = label[y * world.width() + x];
            let expected = (l != u32::MAX).then_some(l);
            if report.component_at(x, y) != expected {
                return Err(format!(
                    "({x},{y}): id {:?}, flood fill {expected:?}",
                    report.component_at(x, y)
                ));
            }
        }
    }
    for (id, (c, &(area, open))) in report.components.iter().zip(&comps).enumerate() {
        if (c.area, c.open) != (area, open) {
            return Err(format!(
                "component {id}: area/open {:?}, flood fill {:?}",
                (c.area, c.open),
                (area, open)
            ));
        }
    }
    let largest = comps.iter().map(|c| c.0).max().unwrap_or(0);
    let cave_air: u64 = comps.iter().map(|c| c.0).sum();
    let open = comps.iter().filter(|c| c.1).count();
    let sky: u64 = (0..label.len()).filter(|&i| sky_air(world, i)).count() as u64;
    let mut mouths = vec![];
    for x in 0..world.width() {
        let s = world.surface[x] as usize;
        if s < world.height() && label[s * world.width() + x] != u32::MAX {
            match mouths.last_mut() {
                Some((_, x1)) if *x1 == x as u32 => *x1 += 1,
                _ => mouths.push((x as u32, x as u32 + 1)),
            }
        }
    }
    let got = (
        report.cave_count,
        report.largest_cave_area(),
        report.cave_air,
        report.sky_air,
        report.open_caves,
        &report.mouths,
    );
    let want = (comps.len(), largest, cave_air, sky, open, &mouths);
    if got != want {
        return Err(format!(
            "(caves, largest, cave air, sky air, open caves, mouths) {got:?}, flood fill {want:?}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Tile;

    #[test]
    fn check_catches_a_stale_report() {
        let mut w = World::from_ascii(&["#####", "#   #", "#####"]).unwrap();
        let fresh = super::super::analyse(&w);
        assert_eq!(check(&w, &fresh), Ok(()));
        w.set(2, 1, Tile::Stone); // splits the cave in two
        assert!(check(&w, &fresh).unwrap_err().contains("components"));
        let (label, comps) = flood_fill(&w);
        assert_eq!(comps, vec![(1, false), (1, false)]);
        assert_eq!(&label[5..10], &[u32::MAX, 0, u32::MAX, 1, u32::MAX]);
    }
}
