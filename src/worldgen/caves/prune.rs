//! Closing the cavern layer's small pockets: below a given row, every 4-connected body of
//! open cells smaller than a given area is walled up again, so what stays open there is the
//! caverns that join into larger networks (and the tunnels pass joins those).
//!
//! The open cells are labelled as connectivity labels a world's air
//! ([`crate::analysis::label_runs`]: runs per row, a union-find in bands of rows in
//! parallel); a body's area is the sum of its runs, and the small bodies' runs are walled
//! up row by row in parallel. Everything is a function of the grid alone, so the result is
//! the same for any thread count.

use super::{BitGrid, set_span};
use crate::analysis::{BitRows, label_runs};
use rayon::prelude::*;

/// Walls up every open body of `grid` in rows `from..` (bodies are counted within those
/// rows only) with fewer than `min_area` cells. Returns how many cells it closed.
pub fn prune(grid: &mut BitGrid, from: usize, min_area: u64) -> u64 {
    if min_area == 0 || from >= grid.height {
        return 0;
    }
    let wpr = grid.words_per_row;
    // Open cells as set bits (the padding past the width is wall, so it reads 0).
    let open: Vec<u64> = grid.bits[from * wpr..].par_iter().map(|w| !w).collect();
    let mut labels = label_runs(BitRows {
        bits: &open,
        words_per_row: wpr,
        width: grid.width,
        height: grid.height - from,
    });
    labels.flatten();
    let roots = &labels.parent;
    let mut area = vec![0u64; roots.len()];
    for (r, &root) in labels.runs.iter().zip(roots) {
        area[root as usize] += (r.x1 - r.x0) as u64;
    }
    let (runs, row_start) = (&labels.runs, &labels.row_start);
    grid.bits[from * wpr..]
        .par_chunks_mut(wpr)
        .enumerate()
        .map(|(y, row)| {
            let mut closed = 0;
            for i in row_start[y]..row_start[y + 1] {
                if area[roots[i] as usize] < min_area {
                    let r = runs[i];
                    set_span(row, r.x0 as usize, r.x1 as usize);
                    closed += (r.x1 - r.x0) as u64;
                }
            }
            closed
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> BitGrid {
        let mut g = BitGrid::walls(rows[0].len(), rows.len());
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                g.set(x, y, c == '#');
            }
        }
        g
    }

    fn text(g: &BitGrid) -> Vec<String> {
        (0..g.height)
            .map(|y| {
                (0..g.width)
                    .map(|x| if g.get(x, y) { '#' } else { ' ' })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn small_bodies_below_the_row_close_and_large_or_higher_ones_stay() {
        let mut g = grid(&[
            "  ###### ##",
            "#### ######",
            "##   ######",
            "### ##  # #",
            "#####  ## #",
            "######### #",
        ]);
        // From row 1 down: the body at columns 2-4 of rows 1-3 has 5 cells, the one at
        // columns 5-7 has 4 and column 9 has 3; the open cells of row 0 are not looked at.
        let closed = prune(&mut g, 1, 4);
        assert_eq!(closed, 3);
        assert_eq!(
            text(&g),
            [
                "  ###### ##",
                "#### ######",
                "##   ######",
                "### ##  ###",
                "#####  ####",
                "###########",
            ]
        );
    }

    #[test]
    fn runs_cross_word_boundaries() {
        let mut g = BitGrid::walls(200, 3);
        for x in 10..150 {
            g.set(x, 1, false);
        }
        g.set(190, 2, false);
        assert_eq!(prune(&mut g, 0, 2), 1);
        assert!((10..150).all(|x| !g.get(x, 1)) && g.get(190, 2));
        assert_eq!(prune(&mut g, 0, 141), 140);
    }
}
