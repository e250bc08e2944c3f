//! The obvious labelling, kept as the oracle the fast one is checked against: a
//! breadth-first flood fill from every unlabelled air tile in row-major order, one tile at
//! a time. Its ids come out in the same order as [`analyse`](super::analyse)'s (order of
//! each component's first tile), so the two must agree exactly.

use super::CaveReport;
use crate::world::World;
use std::collections::VecDeque;

/// Per-tile component ids (`u32::MAX` for solid tiles) and `(area, touches the top row)`
/// per component.
pub fn flood_fill(world: &World) -> (Vec<u32>, Vec<(u64, bool)>) {
    let (w, h) = (world.width(), world.height());
    let open = |i: usize| world.tiles()[i].is_open();
    let mut label = vec![u32::MAX; w * h];
    let mut comps = vec![];
    let mut queue = VecDeque::new();
    for start in 0..w * h {
        if label[start] != u32::MAX || !open(start) {
            continue;
        }
        let id = comps.len() as u32;
        let (mut area, mut sky) = (0, false);
        label[start] = id;
        queue.push_back(start);
        while let Some(i) = queue.pop_front() {
            let (x, y) = (i % w, i / w);
            area += 1;
            sky |= y == 0;
            let neighbours = [
                (x > 0, i.wrapping_sub(1)),
                (x + 1 < w, i + 1),
                (y > 0, i.wrapping_sub(w)),
                (y + 1 < h, i + w),
            ];
            for (inside, j) in neighbours {
                if inside && label[j] == u32::MAX && open(j) {
                    label[j] = id;
                    queue.push_back(j);
                }
            }
        }
        comps.push((area, sky));
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
    for (id, (c, &(area, sky))) in report.components.iter().zip(&comps).enumerate() {
        if (c.area, c.sky) != (area, sky) {
            return Err(format!(
                "component {id}: area/sky {:?}, flood fill {:?}",
                (c.area, c.sky),
                (area, sky)
            ));
        }
    }
    let caves: Vec<u64> = comps.iter().filter(|c| !c.1).map(|c| c.0).collect();
    let largest = caves.iter().copied().max().unwrap_or(0);
    let cave_air: u64 = caves.iter().sum();
    let sky_air: u64 = comps.iter().filter(|c| c.1).map(|c| c.0).sum();
    let got = (
        report.cave_count,
        report.largest_cave_area(),
        report.cave_air,
        report.sky_air,
    );
    let want = (caves.len(), largest, cave_air, sky_air);
    if got != want {
        return Err(format!(
            "(caves, largest, cave air, sky air) {got:?}, flood fill {want:?}"
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
