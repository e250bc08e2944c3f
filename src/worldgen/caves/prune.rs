//! Closing the cavern layer's small pockets: below a given row, every 4-connected body of
//! open cells smaller than a given area is walled up again, so what stays open there is the
//! caverns that join into larger networks (and the tunnels pass joins those).
//!
//! Open cells are found as horizontal runs, row by row; runs that overlap in neighbouring
//! rows are joined with a union-find. Everything is a function of the grid alone, so the
//! result is the same for any thread count.

use super::BitGrid;

/// One run of open cells `x0..x1` in row `y`.
#[derive(Clone, Copy, Debug)]
struct Run {
    y: u32,
    x0: u32,
    x1: u32,
}

/// The runs of open (clear) bits of one row, left to right.
fn row_runs(words: &[u64], width: usize, y: usize, out: &mut Vec<Run>) {
    let mut x = 0;
    while x < width {
        // Next open cell from x.
        let Some(a) = next(words, x, width, true) else {
            break;
        };
        let b = next(words, a, width, false).unwrap_or(width);
        out.push(Run {
            y: y as u32,
            x0: a as u32,
            x1: b as u32,
        });
        x = b;
    }
}

/// The first cell at or after `x` that is open (`open`) or wall (`!open`).
fn next(words: &[u64], x: usize, width: usize, open: bool) -> Option<usize> {
    let mut w = x / 64;
    let mut bits = if open { !words[w] } else { words[w] } & (!0u64 << (x % 64));
    loop {
        if bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            return (i < width).then_some(i);
        }
        w += 1;
        if w >= words.len() {
            return None;
        }
        bits = if open { !words[w] } else { words[w] };
    }
}

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let p = parent[i as usize];
        parent[i as usize] = parent[p as usize];
        i = p;
    }
    i
}

/// Walls up every open body of `grid` in rows `from..` (bodies are counted within those
/// rows only) with fewer than `min_area` cells. Returns how many cells it closed.
pub fn prune(grid: &mut BitGrid, from: usize, min_area: u64) -> u64 {
    if min_area == 0 || from >= grid.height {
        return 0;
    }
    let wpr = grid.words_per_row;
    let mut runs = Vec::new();
    let mut row_start = vec![0usize; grid.height - from + 1];
    for y in from..grid.height {
        row_start[y - from] = runs.len();
        row_runs(&grid.bits[y * wpr..(y + 1) * wpr], grid.width, y, &mut runs);
    }
    row_start[grid.height - from] = runs.len();
    let mut parent: Vec<u32> = (0..runs.len() as u32).collect();
    for r in 1..grid.height - from {
        let (above, here) = (
            row_start[r - 1]..row_start[r],
            row_start[r]..row_start[r + 1],
        );
        let (mut i, mut j) = (above.start, here.start);
        while i < above.end && j < here.end {
            let (a, b) = (runs[i], runs[j]);
            if a.x0 < b.x1 && b.x0 < a.x1 {
                let (ra, rb) = (find(&mut parent, i as u32), find(&mut parent, j as u32));
                if ra != rb {
                    parent[ra.max(rb) as usize] = ra.min(rb);
                }
            }
            if a.x1 < b.x1 {
                i += 1;
            } else {
                j += 1;
            }
        }
    }
    let mut area = vec![0u64; runs.len()];
    for (i, r) in runs.iter().enumerate() {
        let root = find(&mut parent, i as u32) as usize;
        area[root] += (r.x1 - r.x0) as u64;
    }
    let mut closed = 0;
    for (i, &r) in runs.iter().enumerate() {
        let root = find(&mut parent, i as u32) as usize;
        if area[root] < min_area {
            for x in r.x0..r.x1 {
                grid.set(x as usize, r.y as usize, true);
            }
            closed += (r.x1 - r.x0) as u64;
        }
    }
    closed
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
