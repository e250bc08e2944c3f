//! Cave tints: for one connectivity component, a white-on-transparent mask texture per
//! chunk it touches, drawn with a tint colour. Masks are built lazily, only for visible
//! chunks inside the component's bounding box, on the thread pool; the render thread only
//! uploads them.

use super::chunks::Grid;
use crate::analysis::CaveReport;
use macroquad::prelude::Texture2D;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

enum Slot {
    Unbuilt,
    /// Being computed on the thread pool.
    Requested,
    /// The component has no tile in this chunk.
    Empty,
    Built(Texture2D),
}

pub struct CaveMask {
    pub id: Option<u32>,
    grid: Grid,
    slots: Vec<Slot>,
    tx: Sender<(usize, Option<Vec<u8>>)>,
    rx: Receiver<(usize, Option<Vec<u8>>)>,
}

/// Alpha of an overview texel the component only partly covers: at least this much, so
/// thin caves still show at far zoom.
const MIN_PARTIAL_ALPHA: u32 = 110;

/// The mask texels of component `id` in chunk `i` of `grid` (`None` when it has no tile
/// there): white, with alpha 255 where the component is, or at overview scale the share of
/// the texel's tiles it covers.
pub fn mask_pixels(report: &CaveReport, id: u32, grid: &Grid, i: usize) -> Option<Vec<u8>> {
    let c = report.component(id)?;
    let rect = grid.rect(i);
    let (x0, x1) = (rect.x0 as u32, (rect.x0 + rect.w) as u32);
    if c.bbox.x1 < x0
        || c.bbox.x0 >= x1
        || (c.bbox.y1 as usize) < rect.y0
        || c.bbox.y0 as usize >= rect.y0 + rect.h
    {
        return None;
    }
    let (tw, th) = grid.texels(i);
    let s = grid.scale;
    let mut cover = vec![0u32; tw * th];
    let mut any = false;
    for row in 0..rect.h {
        let runs = report.runs_in_row(rect.y0 + row);
        let start = runs.partition_point(|r| r.x1 <= x0);
        let line = &mut cover[(row / s) * tw..(row / s + 1) * tw];
        for r in runs[start..]
            .iter()
            .take_while(|r| r.x0 < x1)
            .filter(|r| r.id == id)
        {
            any = true;
            add_span(
                line,
                (r.x0.max(x0) - x0) as usize,
                (r.x1.min(x1) - x0) as usize,
                s,
            );
        }
    }
    if !any {
        return None;
    }
    let full = (s * s) as u32;
    let mut buf = vec![255u8; tw * th * 4];
    for (px, &n) in buf.chunks_exact_mut(4).zip(&cover) {
        px[3] = match n {
            0 => 0,
            n if n >= full => 255,
            n => (MIN_PARTIAL_ALPHA + (255 - MIN_PARTIAL_ALPHA) * n / full) as u8,
        };
    }
    Some(buf)
}

/// Adds the tiles `a..b` of a row to the coverage of the texels (`s` tiles each) they
/// fall in, a texel at a time rather than a tile at a time.
fn add_span(line: &mut [u32], a: usize, b: usize, s: usize) {
    let mut x = a;
    while x < b {
        let end = ((x / s + 1) * s).min(b);
        line[x / s] += (end - x) as u32;
        x = end;
    }
}

impl CaveMask {
    pub fn new(grid: Grid, id: Option<u32>) -> CaveMask {
        let (tx, rx) = channel();
        CaveMask {
            id,
            grid,
            slots: (0..grid.len()).map(|_| Slot::Unbuilt).collect(),
            tx,
            rx,
        }
    }

    /// Switches to another component (dropping the old masks) unless it is the same.
    pub fn show(&mut self, id: Option<u32>) {
        if id != self.id {
            *self = CaveMask::new(self.grid, id);
        }
    }

    /// Asks the thread pool for the masks of `visible` chunks not asked for yet, and
    /// uploads finished ones while `budget` lasts (at least one). Mask texels are computed
    /// off the render thread: an overview chunk covers a million tiles.
    pub fn build(&mut self, report: &Arc<CaveReport>, visible: &[usize], budget: Duration) {
        let Some(id) = self.id else { return };
        for &i in visible {
            if let Slot::Unbuilt = self.slots[i] {
                self.slots[i] = Slot::Requested;
                let (report, grid, tx) = (report.clone(), self.grid, self.tx.clone());
                rayon::spawn(move || {
                    let _ = tx.send((i, mask_pixels(&report, id, &grid, i)));
                });
            }
        }
        let start = Instant::now();
        while start.elapsed() < budget {
            let Ok((i, px)) = self.rx.try_recv() else {
                break;
            };
            self.slots[i] = match px {
                Some(px) => {
                    let (w, h) = self.grid.texels(i);
                    let t = Texture2D::from_rgba8(w as u16, h as u16, &px);
                    super::textures::set_world_filter(&t);
                    Slot::Built(t)
                }
                None => Slot::Empty,
            };
        }
    }

    pub fn get(&self, i: usize) -> Option<&Texture2D> {
        match self.slots.get(i) {
            Some(Slot::Built(t)) => Some(t),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse;
    use crate::world::World;

    #[test]
    fn mask_covers_exactly_the_component() {
        let w = World::from_ascii(&["    ", "####", "#  #", "## #", "####"]).unwrap();
        let r = analyse(&w);
        let id = r.largest_cave.unwrap();
        let g = Grid::new(4, 5);
        let px = mask_pixels(&r, id, &g, 0).unwrap();
        let on: Vec<(usize, usize)> = (0..5)
            .flat_map(|y| (0..4).map(move |x| (x, y)))
            .filter(|&(x, y)| px[(y * 4 + x) * 4 + 3] == 255)
            .collect();
        assert_eq!(on, vec![(1, 2), (2, 2), (2, 3)]);
        // The sky is component 0 and lies in row 0 only.
        assert!(mask_pixels(&r, 0, &g, 0).is_some());
        // At scale 2, texel (1, 1) holds tiles (2..4, 2..4): two of its four are cave.
        let o = Grid::scaled(4, 5, 2);
        let px = mask_pixels(&r, id, &o, 0).unwrap();
        assert_eq!(px.len(), 2 * 3 * 4);
        let half = MIN_PARTIAL_ALPHA + (255 - MIN_PARTIAL_ALPHA) / 2;
        assert_eq!(px[(2 + 1) * 4 + 3] as u32, half);
        assert_eq!(px[3], 0);
    }

    #[test]
    fn spans_cover_texels() {
        let mut line = vec![0u32; 3];
        add_span(&mut line, 2, 9, 4);
        assert_eq!(line, vec![2, 4, 1]);
    }

    #[test]
    fn no_mask_where_the_cave_is_not() {
        let w = World::from_ascii(&["        ", "########", "#  #####", "########"]).unwrap();
        let r = analyse(&w);
        let g = Grid::new(8, 4);
        assert!(mask_pixels(&r, r.largest_cave.unwrap(), &g, 0).is_some());
        assert!(mask_pixels(&r, 99, &g, 0).is_none());
    }
}
