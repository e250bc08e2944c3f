//! The window-free half of the window's text: where each glyph of a size goes in that
//! size's texture ([`Sheet`], a shelf packer over a texture whose size is fixed before the
//! first glyph goes in) and where each glyph of a line is drawn ([`Pen`], on whole pixels).
//! Everything here is in physical pixels; `text.rs` rasterises, uploads and draws.

use std::collections::HashMap;

/// Empty texels between two cells and along the texture's edges, so no cell's edge
/// samples its neighbour.
pub const GAP: u16 = 1;
/// Glyphs a row holds at least: the texture is this many of the size's widest glyph wide.
pub const COLUMNS: u16 = 16;
/// Rows kept free below the first glyphs for glyphs met later (a name with "é"): at least
/// [`COLUMNS`] glyphs each, their heights those of the first glyphs' tallest.
pub const RESERVE_ROWS: u16 = 2;
/// What a glyph is drawn as once the reserve is full.
pub const FALLBACK: char = '?';

/// A glyph's rectangle in its size's texture, in texels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    pub x: u16,
    pub y: u16,
    pub w: u16,
    pub h: u16,
}

#[cfg(test)]
impl Cell {
    /// Whether the two share a texel.
    pub fn overlaps(&self, o: &Cell) -> bool {
        let empty = self.w == 0 || self.h == 0 || o.w == 0 || o.h == 0;
        !empty
            && self.x < o.x + o.w
            && o.x < self.x + self.w
            && self.y < o.y + o.h
            && o.y < self.y + self.h
    }
}

/// A glyph as rasterised: its bitmap's size, where the bitmap sits from the pen on the
/// baseline (`left` to the right, `bottom` up: fontdue's `xmin` and `ymin`), and how far it
/// moves the pen.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Shape {
    pub w: u16,
    pub h: u16,
    pub left: i32,
    pub bottom: i32,
    pub advance: f32,
}

/// What [`Sheet::add`] did with a glyph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// It took a new cell, for the caller to fill with its bitmap.
    Cell,
    /// It has no bitmap (a space): nothing to fill.
    Blank,
    /// The reserve is full: it draws as [`FALLBACK`].
    Full,
}

/// A glyph ready to draw: its shape and its cell.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Glyph {
    pub shape: Shape,
    pub cell: Cell,
}

/// The texture size for a sheet whose first glyphs have these bitmap sizes: [`COLUMNS`]
/// of the widest glyph across, and rows of the tallest for every [`COLUMNS`] glyphs plus
/// [`RESERVE_ROWS`]. A row of the shelf packer then holds at least [`COLUMNS`] of them in
/// any order, so the first glyphs always fit and the reserve stays free.
pub fn texture_size(sizes: &[(u16, u16)]) -> (u16, u16) {
    let widest = sizes.iter().map(|s| s.0).max().unwrap_or(0).max(1);
    let tallest = sizes.iter().map(|s| s.1).max().unwrap_or(0).max(1);
    let rows = (sizes.len() as u16).div_ceil(COLUMNS) + RESERVE_ROWS;
    (GAP + COLUMNS * (widest + GAP), GAP + rows * (tallest + GAP))
}

/// A shelf packer: cells go left to right along a row; one that does not fit starts a new
/// row under the tallest cell so far. A placed cell never moves.
#[derive(Clone, Debug)]
pub struct Shelves {
    width: u16,
    height: u16,
    x: u16,
    y: u16,
    row: u16,
}

impl Shelves {
    pub fn new(width: u16, height: u16) -> Shelves {
        Shelves {
            width,
            height,
            x: GAP,
            y: GAP,
            row: 0,
        }
    }

    /// A free `w` x `h` cell, or `None` (and nothing changed) when there is no room.
    /// An empty bitmap (a space) takes no room.
    pub fn place(&mut self, w: u16, h: u16) -> Option<Cell> {
        if w == 0 || h == 0 {
            return Some(Cell::default());
        }
        let fits = |x: u16, y: u16| {
            x as u32 + w as u32 + GAP as u32 <= self.width as u32
                && y as u32 + h as u32 + GAP as u32 <= self.height as u32
        };
        let (x, y, row) = if fits(self.x, self.y) {
            (self.x, self.y, self.row.max(h))
        } else {
            let y = self.y.saturating_add(self.row).saturating_add(GAP);
            if !fits(GAP, y) {
                return None;
            }
            (GAP, y, h)
        };
        self.x = x + w + GAP;
        self.y = y;
        self.row = row;
        Some(Cell { x, y, w, h })
    }
}

/// One size's glyphs and their cells in a texture of a size fixed when it is made.
#[derive(Clone, Debug)]
pub struct Sheet {
    pub width: u16,
    pub height: u16,
    shelves: Shelves,
    ascii: [Option<Glyph>; 128],
    other: HashMap<char, Glyph>,
}

impl Sheet {
    /// A sheet holding `first` (every one placed: [`texture_size`] makes room for them).
    /// [`FALLBACK`] must be among them.
    pub fn new(first: &[(char, Shape)]) -> Sheet {
        let sizes: Vec<(u16, u16)> = first.iter().map(|(_, s)| (s.w, s.h)).collect();
        let (width, height) = texture_size(&sizes);
        let mut sheet = Sheet {
            width,
            height,
            shelves: Shelves::new(width, height),
            ascii: [None; 128],
            other: HashMap::new(),
        };
        for &(c, shape) in first {
            let cell = sheet.shelves.place(shape.w, shape.h);
            let cell = cell.expect("texture_size leaves a cell for every first glyph");
            sheet.insert(c, Glyph { shape, cell });
        }
        debug_assert!(sheet.get(FALLBACK).is_some());
        sheet
    }

    fn insert(&mut self, c: char, g: Glyph) {
        match self.ascii.get_mut(c as usize) {
            Some(slot) => *slot = Some(g),
            None => {
                self.other.insert(c, g);
            }
        }
    }

    /// The glyph for `c` if the sheet has it (or draws [`FALLBACK`] for it).
    pub fn get(&self, c: char) -> Option<Glyph> {
        match self.ascii.get(c as usize) {
            Some(g) => *g,
            None => self.other.get(&c).copied(),
        }
    }

    /// Adds `c`, rasterised as `shape`, to the reserve: its glyph and what became of it.
    /// When the reserve is full `c` is drawn as [`FALLBACK`] from then on (measured as
    /// [`FALLBACK`] too, so measuring agrees with drawing).
    pub fn add(&mut self, c: char, shape: Shape) -> (Glyph, Added) {
        let (glyph, added) = match self.shelves.place(shape.w, shape.h) {
            Some(cell) if cell.w == 0 => (Glyph { shape, cell }, Added::Blank),
            Some(cell) => (Glyph { shape, cell }, Added::Cell),
            None => (self.fallback(), Added::Full),
        };
        self.insert(c, glyph);
        (glyph, added)
    }

    fn fallback(&self) -> Glyph {
        self.get(FALLBACK).unwrap_or_default()
    }

    /// Every cell with a bitmap, each once (the fallback's is shared).
    #[cfg(test)]
    pub fn cells(&self) -> Vec<Cell> {
        let mut cells: Vec<Cell> = (self.ascii.iter().flatten())
            .chain(self.other.values())
            .map(|g| g.cell)
            .filter(|c| c.w > 0 && c.h > 0)
            .collect();
        cells.sort_by_key(|c| (c.y, c.x));
        cells.dedup();
        cells
    }
}

/// Where a line's extent ends up: its width (the rounded sum of the advances) and the
/// highest and lowest texel row its glyphs reach, up from the baseline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extent {
    pub width: i32,
    pub top: i32,
    pub bottom: i32,
}

/// Lays a line's glyphs out from its origin (the baseline's left end), in whole pixels:
/// each glyph's pen is the sum of the advances before it rounded to a pixel, so glyphs
/// never start between pixels and never drift from where their advances put them.
#[derive(Clone, Debug, Default)]
pub struct Pen {
    at: f32,
    /// The highest and lowest row reached so far, up from the baseline.
    span: Option<(i32, i32)>,
}

impl Pen {
    /// Where `shape`'s bitmap goes from the origin (its top-left texel, y down), moving the
    /// pen on.
    pub fn place(&mut self, shape: &Shape) -> (i32, i32) {
        let x = self.at.round() as i32 + shape.left;
        let top = shape.bottom + shape.h as i32;
        self.at += shape.advance;
        self.span = Some(match self.span {
            None => (top, shape.bottom),
            Some((t, b)) => (t.max(top), b.min(shape.bottom)),
        });
        (x, -top)
    }

    /// The extent of what was placed so far.
    pub fn extent(&self) -> Extent {
        match self.span {
            None => Extent::default(),
            Some((top, bottom)) => Extent {
                width: self.at.round() as i32,
                top,
                bottom,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(w: u16, h: u16, advance: f32) -> Shape {
        Shape {
            w,
            h,
            left: 1,
            bottom: -2,
            advance,
        }
    }

    /// Boxes of 1..=w by 1..=h in a scrambled order (a small LCG).
    fn scrambled(n: usize, w: u16, h: u16, seed: u32) -> Vec<(u16, u16)> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (1 + (s >> 8) as u16 % w, 1 + (s >> 20) as u16 % h)
            })
            .collect()
    }

    fn no_overlaps(cells: &[Cell], width: u16, height: u16) {
        for (i, a) in cells.iter().enumerate() {
            assert!(a.x >= GAP && a.y >= GAP, "{a:?}");
            assert!(
                a.x + a.w + GAP <= width && a.y + a.h + GAP <= height,
                "{a:?}"
            );
            for b in &cells[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn the_first_glyphs_fit_their_texture_in_any_order_and_leave_the_reserve_free() {
        for seed in 0..40 {
            let boxes = scrambled(97, 12, 22, seed);
            let (width, height) = texture_size(&boxes);
            let mut shelves = Shelves::new(width, height);
            let mut cells: Vec<Cell> = boxes
                .iter()
                .map(|&(w, h)| shelves.place(w, h).expect("a first glyph fits"))
                .collect();
            // The reserve holds a row of the widest and tallest per row reserved.
            let (wide, tall) = (12, 22);
            for _ in 0..COLUMNS * RESERVE_ROWS {
                cells.push(shelves.place(wide, tall).expect("the reserve has room"));
            }
            no_overlaps(&cells, width, height);
        }
    }

    #[test]
    fn a_shelf_that_is_full_refuses_and_changes_nothing() {
        let mut shelves = Shelves::new(1 + 2 * 5, 1 + 2 * 5);
        let placed: Vec<Cell> = (0..4).map(|_| shelves.place(4, 4).unwrap()).collect();
        assert_eq!(
            placed[3],
            Cell {
                x: 6,
                y: 6,
                w: 4,
                h: 4
            }
        );
        no_overlaps(&placed, 11, 11);
        assert_eq!(shelves.place(4, 4), None);
        assert_eq!(shelves.place(11, 1), None);
        // A space takes no room, even in a full texture.
        assert_eq!(shelves.place(0, 9), Some(Cell::default()));
        let mut roomy = Shelves::new(20, 20);
        assert_eq!(roomy.place(30, 2), None);
        assert_eq!(
            roomy.place(2, 2),
            Some(Cell {
                x: 1,
                y: 1,
                w: 2,
                h: 2
            })
        );
    }

    #[test]
    fn the_reserve_fills_then_later_glyphs_draw_as_the_fallback_in_the_same_texture() {
        let first: Vec<(char, Shape)> = (' '..='~')
            .map(|c| {
                (
                    c,
                    if c == ' ' {
                        shape(0, 0, 7.0)
                    } else {
                        shape(6, 11, 7.0)
                    },
                )
            })
            .collect();
        let mut sheet = Sheet::new(&first);
        let size = (sheet.width, sheet.height);
        let question = sheet.get(FALLBACK).unwrap();
        let mut taken = 0;
        let mut full_at = None;
        for (i, c) in ('\u{c0}'..'\u{2c0}').enumerate() {
            let (g, added) = sheet.add(c, shape(6, 11, 7.5));
            assert_eq!(sheet.get(c), Some(g));
            match added {
                Added::Cell => {
                    assert!(full_at.is_none(), "{c:?} placed after the reserve was full");
                    taken += 1;
                }
                Added::Full => {
                    full_at.get_or_insert(i);
                    assert_eq!(g, question, "{c:?} draws as the fallback, its advance too");
                }
                Added::Blank => panic!("{c:?} has a bitmap"),
            }
        }
        assert!(full_at.is_some(), "512 glyphs filled the reserve");
        assert!(
            taken >= (COLUMNS * RESERVE_ROWS) as usize,
            "{taken} glyphs in the reserve"
        );
        assert_eq!((sheet.width, sheet.height), size, "the texture never grows");
        no_overlaps(&sheet.cells(), sheet.width, sheet.height);
        // A space met later takes no cell even now.
        assert_eq!(sheet.add('\u{2003}', shape(0, 0, 7.0)).1, Added::Blank);
    }

    #[test]
    fn glyphs_start_on_whole_pixels_where_their_advances_put_them_and_the_width_is_their_sum() {
        // 18 px ProggyClean: 9.69 px an advance.
        let advance = 18.0 * 7.0 / 13.0;
        let mut pen = Pen::default();
        let mut sum = 0.0f32;
        let mut last = None;
        for k in 0..40 {
            let s = Shape {
                left: k % 3,
                ..shape(5, 9 + k as u16 % 4, advance)
            };
            let (x, y) = pen.place(&s);
            assert_eq!(x - s.left, sum.round() as i32, "glyph {k}");
            assert_eq!(y, -(s.bottom + s.h as i32));
            if let Some(l) = last {
                let step = x - s.left - l;
                assert!(step == 9 || step == 10, "a step of {step} px");
            }
            last = Some(x - s.left);
            sum += advance;
        }
        let e = pen.extent();
        assert_eq!(e.width, sum.round() as i32);
        assert_eq!((e.top, e.bottom), (-2 + 12, -2));
        assert_eq!(Pen::default().extent(), Extent::default());
    }
}
