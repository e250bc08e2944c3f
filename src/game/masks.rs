//! Cave tints: for one connectivity component, a white-on-transparent mask texture per
//! chunk it touches, drawn with a tint colour. Masks are built lazily, only for visible
//! chunks inside the component's bounding box, a few per frame.

use super::chunks::{ChunkRect, Grid};
use crate::analysis::CaveReport;
use macroquad::prelude::{FilterMode, Texture2D};

enum Slot {
    Unbuilt,
    /// The component has no tile in this chunk.
    Empty,
    Built(Texture2D),
}

pub struct CaveMask {
    pub id: Option<u32>,
    grid: Grid,
    slots: Vec<Slot>,
}

/// The mask pixels of component `id` in `rect` (`None` when it has no tile there).
pub fn mask_pixels(report: &CaveReport, id: u32, rect: ChunkRect) -> Option<Vec<u8>> {
    let c = report.component(id)?;
    let (x0, x1) = (rect.x0 as u32, (rect.x0 + rect.w) as u32);
    if c.bbox.x1 < x0
        || c.bbox.x0 >= x1
        || (c.bbox.y1 as usize) < rect.y0
        || c.bbox.y0 as usize >= rect.y0 + rect.h
    {
        return None;
    }
    let mut buf = vec![0u8; rect.w * rect.h * 4];
    let mut any = false;
    for row in 0..rect.h {
        let runs = report.runs_in_row(rect.y0 + row);
        let start = runs.partition_point(|r| r.x1 <= x0);
        for r in runs[start..]
            .iter()
            .take_while(|r| r.x0 < x1)
            .filter(|r| r.id == id)
        {
            let (a, b) = (r.x0.max(x0) - x0, r.x1.min(x1) - x0);
            let line = &mut buf[(row * rect.w + a as usize) * 4..(row * rect.w + b as usize) * 4];
            line.fill(255);
            any = true;
        }
    }
    any.then_some(buf)
}

impl CaveMask {
    pub fn new(grid: Grid, id: Option<u32>) -> CaveMask {
        CaveMask {
            id,
            grid,
            slots: (0..grid.len()).map(|_| Slot::Unbuilt).collect(),
        }
    }

    /// Switches to another component (dropping the old masks) unless it is the same.
    pub fn show(&mut self, id: Option<u32>) {
        if id != self.id {
            *self = CaveMask::new(self.grid, id);
        }
    }

    /// Builds missing masks among `visible`, at most `max` textures this call.
    pub fn build(&mut self, report: &CaveReport, visible: &[usize], max: usize) {
        let Some(id) = self.id else { return };
        let mut made = 0;
        for &i in visible {
            if made >= max {
                break;
            }
            if let Slot::Unbuilt = self.slots[i] {
                self.slots[i] = match mask_pixels(report, id, self.grid.rect(i)) {
                    Some(px) => {
                        made += 1;
                        let r = self.grid.rect(i);
                        let t = Texture2D::from_rgba8(r.w as u16, r.h as u16, &px);
                        t.set_filter(FilterMode::Nearest);
                        Slot::Built(t)
                    }
                    None => Slot::Empty,
                };
            }
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
        let rect = ChunkRect {
            x0: 0,
            y0: 0,
            w: 4,
            h: 5,
        };
        let px = mask_pixels(&r, id, rect).unwrap();
        let on: Vec<(usize, usize)> = (0..5)
            .flat_map(|y| (0..4).map(move |x| (x, y)))
            .filter(|&(x, y)| px[(y * 4 + x) * 4 + 3] == 255)
            .collect();
        assert_eq!(on, vec![(1, 2), (2, 2), (2, 3)]);
        // A chunk the cave does not reach has no mask.
        assert!(
            mask_pixels(
                &r,
                id,
                ChunkRect {
                    x0: 0,
                    y0: 4,
                    w: 4,
                    h: 1
                }
            )
            .is_none()
        );
        // The sky is component 0 and lies in row 0 only.
        assert!(mask_pixels(&r, 0, rect).is_some());
    }
}
