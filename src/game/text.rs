//! All of the window's text goes through here: [`draw`] and [`measure`].
//!
//! Why its own glyphs and not macroquad's fonts: a macroquad font keeps its glyphs in an
//! atlas that grows when a glyph does not fit and then lays every glyph out again in a
//! hash map's order. Text already queued that frame still points at the old places and
//! draws other glyphs ("Guice" for "Guide", "Depcsit all"); the atlas's size cannot be set
//! up front, so now and then one size took ~180 ms to make and memory jumped (a memory
//! window test peaked at 338 MB of its 300, and an earlier version panicked with an
//! oversized texture in the installed game); `load_ttf_font_from_bytes` also filled every
//! font with ASCII at 15 px that nothing drew.
//!
//! So text here comes in a fixed set of sizes ([`SIZES`]: a drawn size snaps to the
//! nearest). The first time a size is drawn, its printable ASCII glyphs (and "…") are
//! rasterised with fontdue (the rasteriser macroquad uses, ProggyClean as before) at the
//! size times the display's scale, and packed by a shelf packer ([`glyphs::Sheet`]) into
//! one texture whose size is worked out from their boxes before any goes in: sixteen of
//! the widest glyph across, a row of the tallest for every sixteen glyphs plus
//! [`glyphs::RESERVE_ROWS`] rows kept free. It is uploaded once, sampled nearest, and
//! never grows nor moves a glyph. A glyph first met later (a name with "é") takes a cell
//! of the reserve, written into the texture by itself: texels no queued glyph reads, so
//! text already queued that frame draws as it was. When the reserve is full, such a glyph
//! draws as "?". At 18 px a size's texture is 145x137 texels (78 KiB).
//!
//! A line is laid out in the display's pixels ([`glyphs::Pen`]): its origin and each
//! glyph's pen are rounded to whole pixels, so no glyph starts between pixels (a quad
//! sampled texel for texel that does loses a column to its neighbour: "The Wall cf
//! Flesh"). [`measure`] lays the line out with the same pen, so it agrees with [`draw`].
//! ProggyClean has no kerning table; the advances are the whole story.

mod glyphs;

use glyphs::{Added, Extent, FALLBACK, Glyph, Pen, Shape, Sheet};
use macroquad::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::mem::ManuallyDrop;

/// The sizes text is drawn at, in logical pixels (times the display's DPI scale on
/// screen): UI text is 13-20 px times the UI scale (0.7-3), names over heads 12-20 px and
/// floating numbers 16-40 px with the zoom.
pub const SIZES: [u16; 12] = [10, 12, 13, 14, 16, 18, 20, 24, 28, 32, 40, 48];

/// The font every size is made from (ProggyClean, macroquad's default font).
const FONT: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/fonts/ProggyClean.ttf"
));

/// The size of [`SIZES`] text asked for at `px` logical pixels is drawn at: the nearest,
/// by ratio (so 22 px takes 20 or 24 by how far each is in proportion).
pub fn snap(px: f32) -> u16 {
    let px = if px.is_finite() { px.max(1.0) } else { 18.0 };
    *SIZES
        .iter()
        .min_by(|a, b| {
            let da = (px / **a as f32).ln().abs();
            let db = (px / **b as f32).ln().abs();
            da.total_cmp(&db)
        })
        .expect("SIZES is not empty")
}

/// The pixel size glyphs of `size` logical pixels are rasterised at on a display of
/// `dpi` (rounded up, as macroquad did).
fn raster(size: u16, dpi: f32) -> u16 {
    (size as f32 * dpi).ceil() as u16
}

/// The glyphs every size is filled with before any text is drawn.
fn warm_chars() -> Vec<char> {
    (' '..='~').chain(['…']).collect()
}

/// `c` rasterised at `px`: its shape and its coverage bitmap.
fn rasterise(font: &fontdue::Font, c: char, px: u16) -> (Shape, Vec<u8>) {
    let (m, bitmap) = font.rasterize(c, px as f32);
    let shape = Shape {
        w: m.width as u16,
        h: m.height as u16,
        left: m.xmin,
        bottom: m.ymin,
        advance: m.advance_width,
    };
    (shape, bitmap)
}

/// White texels with `coverage` as their alpha, as text is tinted by its colour.
fn rgba(coverage: &[u8]) -> Vec<u8> {
    coverage.iter().flat_map(|&a| [255, 255, 255, a]).collect()
}

/// One rasterised size: its sheet and the texture the sheet describes.
struct Sized {
    px: u16,
    sheet: Sheet,
    texture: Texture2D,
}

impl Sized {
    /// The sheet and texture for glyphs rasterised at `px`, filled with [`warm_chars`].
    fn make(font: &fontdue::Font, px: u16) -> Sized {
        let t0 = std::time::Instant::now();
        let first: Vec<(char, Shape, Vec<u8>)> = warm_chars()
            .into_iter()
            .map(|c| {
                let (shape, bitmap) = rasterise(font, c, px);
                (c, shape, bitmap)
            })
            .collect();
        let shapes: Vec<(char, Shape)> = first.iter().map(|(c, s, _)| (*c, *s)).collect();
        let sheet = Sheet::new(&shapes);
        let (w, h) = (sheet.width as usize, sheet.height as usize);
        let mut texels = [255, 255, 255, 0].repeat(w * h);
        for (c, shape, bitmap) in &first {
            let cell = sheet.get(*c).unwrap_or_default().cell;
            for row in 0..shape.h as usize {
                let src = &bitmap[row * shape.w as usize..(row + 1) * shape.w as usize];
                let at = ((cell.y as usize + row) * w + cell.x as usize) * 4;
                texels[at..at + src.len() * 4].copy_from_slice(&rgba(src));
            }
        }
        let texture = Texture2D::from_rgba8(sheet.width, sheet.height, &texels);
        texture.set_filter(FilterMode::Nearest);
        log::debug!(
            "text: {} glyphs at {px} px in a {w}x{h} texture made in {:.1} ms",
            first.len(),
            t0.elapsed().as_secs_f64() * 1e3
        );
        Sized { px, sheet, texture }
    }

    /// The glyph for `c`, rasterised into the reserve the first time it is met.
    fn glyph(&mut self, font: &fontdue::Font, c: char) -> Glyph {
        if let Some(g) = self.sheet.get(c) {
            return g;
        }
        let (shape, bitmap) = rasterise(font, c, self.px);
        let (g, added) = self.sheet.add(c, shape);
        if added == Added::Cell {
            // Only the new cell's texels change: every glyph queued this frame reads
            // texels of its own cell, which stay as they were.
            let image = Image {
                bytes: rgba(&bitmap),
                width: shape.w,
                height: shape.h,
            };
            let (x, y) = (g.cell.x as i32, g.cell.y as i32);
            (self.texture).update_part(&image, x, y, shape.w as i32, shape.h as i32);
        } else if added == Added::Full {
            log::debug!(
                "text: the reserve at {} px is full; {c:?} draws as {FALLBACK:?}",
                self.px
            );
        }
        g
    }
}

/// The font and its sizes by the pixel size they rasterise at (a size times the DPI scale).
struct Fonts {
    font: fontdue::Font,
    sizes: HashMap<u16, Sized>,
}

thread_local! {
    /// Never dropped: a texture deletes its GL texture when dropped, and at exit the
    /// window's GL context is gone before the thread's locals are (a `--frames` run
    /// crashed on its way out). `None` when the font did not load (then no text draws).
    static FONTS: ManuallyDrop<RefCell<Option<Fonts>>> = ManuallyDrop::new(RefCell::new(
        fontdue::Font::from_bytes(FONT, fontdue::FontSettings::default())
            .map_err(|e| log::error!("the UI font did not load ({e}); no text is drawn"))
            .ok()
            .map(|font| Fonts { font, sizes: HashMap::new() }),
    ));
}

/// Lays `text` out at `size` (already snapped) on this display, calling `each` with every
/// glyph and its top-left in display pixels from the origin; its extent.
fn lay_out(text: &str, size: u16, mut each: impl FnMut(&Texture2D, &Glyph, i32, i32)) -> Extent {
    let px = raster(size, screen_dpi_scale());
    FONTS.with(|fonts| {
        let mut fonts = fonts.borrow_mut();
        let Some(Fonts { font, sizes }) = fonts.as_mut() else {
            return Extent::default();
        };
        let sized = sizes.entry(px).or_insert_with(|| Sized::make(font, px));
        let mut pen = Pen::default();
        for c in text.chars() {
            let g = sized.glyph(font, c);
            let (x, y) = pen.place(&g.shape);
            each(&sized.texture, &g, x, y);
        }
        pen.extent()
    })
}

/// An extent in display pixels as logical-pixel dimensions.
fn dimensions(e: Extent, dpi: f32) -> TextDimensions {
    TextDimensions {
        width: e.width as f32 / dpi,
        height: (e.top - e.bottom) as f32 / dpi,
        offset_y: e.top as f32 / dpi,
    }
}

/// Draws `text` with its baseline's left end at `(x, y)` (rounded to a display pixel),
/// at the [`SIZES`] size nearest `px` logical pixels.
pub fn draw(text: &str, x: f32, y: f32, px: f32, color: Color) -> TextDimensions {
    let dpi = screen_dpi_scale();
    let (ox, oy) = ((x * dpi).round(), (y * dpi).round());
    let extent = lay_out(text, snap(px), |texture, g, gx, gy| {
        let cell = g.cell;
        if cell.w == 0 || cell.h == 0 {
            return;
        }
        let (w, h) = (cell.w as f32, cell.h as f32);
        draw_texture_ex(
            texture,
            (ox + gx as f32) / dpi,
            (oy + gy as f32) / dpi,
            color,
            DrawTextureParams {
                dest_size: Some(vec2(w / dpi, h / dpi)),
                source: Some(Rect::new(cell.x as f32, cell.y as f32, w, h)),
                ..Default::default()
            },
        );
    });
    dimensions(extent, dpi)
}

/// The size of `text` as [`draw`] draws it at `px`.
pub fn measure(text: &str, px: f32) -> TextDimensions {
    let extent = lay_out(text, snap(px), |_, _, _, _| {});
    dimensions(extent, screen_dpi_scale())
}

/// The width of `text` as [`draw`] draws it at `px`.
pub fn width(text: &str, px: f32) -> f32 {
    measure(text, px).width
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_size_snaps_to_the_nearest_of_the_fixed_set() {
        assert_eq!(snap(18.0), 18);
        assert_eq!(snap(17.64), 18);
        assert_eq!(snap(12.6), 13);
        assert_eq!(snap(12.2), 12);
        assert_eq!(snap(21.0), 20);
        assert_eq!(snap(23.0), 24);
        assert_eq!(snap(60.0), 48);
        assert_eq!(snap(3.0), 10);
        assert_eq!(snap(f32::NAN), 18);
        // Names and floating numbers at every zoom, and UI text at every scale, land in
        // the set; nothing in between makes a new atlas.
        let mut seen = HashSet::new();
        for tenth in 30..=700 {
            let size = snap(tenth as f32 / 10.0);
            assert!(SIZES.contains(&size));
            seen.insert(size);
        }
        assert_eq!(seen.len(), SIZES.len());
    }

    #[test]
    fn a_snapped_size_is_within_a_tenth_of_the_asked_one_in_the_sets_range() {
        for tenth in 100..=480 {
            let px = tenth as f32 / 10.0;
            let got = snap(px) as f32;
            assert!((got / px - 1.0).abs() <= 0.12, "{px} -> {got}");
        }
    }

    #[test]
    fn glyphs_are_rasterised_at_the_size_times_the_dpi_rounded_up() {
        assert_eq!(raster(18, 1.0), 18);
        assert_eq!(raster(18, 1.5), 27);
        assert_eq!(raster(13, 1.25), 17);
        assert!(warm_chars().contains(&'…'));
        assert!(warm_chars().iter().all(|c| *c == '…' || c.is_ascii()));
    }
    fn font() -> fontdue::Font {
        fontdue::Font::from_bytes(FONT, fontdue::FontSettings::default()).expect("ProggyClean")
    }

    #[test]
    fn every_sizes_glyphs_fit_one_small_texture_at_every_display_scale() {
        let font = font();
        for dpi in [1.0, 1.25, 1.5, 2.0, 3.0] {
            for size in SIZES {
                let px = raster(size, dpi);
                let first: Vec<(char, Shape)> = warm_chars()
                    .into_iter()
                    .map(|c| (c, rasterise(&font, c, px).0))
                    .collect();
                let sheet = Sheet::new(&first);
                let cells = sheet.cells();
                // Every glyph but the space has its own cell, inside, apart from the rest.
                assert_eq!(cells.len(), first.len() - 1, "{px} px");
                for (i, a) in cells.iter().enumerate() {
                    assert!(a.x + a.w < sheet.width && a.y + a.h < sheet.height);
                    assert!(cells[i + 1..].iter().all(|b| !a.overlaps(b)), "{px} px");
                }
                for (c, shape) in &first {
                    let g = sheet.get(*c).unwrap();
                    assert_eq!((g.shape, g.cell.w, g.cell.h), (*shape, shape.w, shape.h));
                }
                // 144 px glyphs (48 px at 3x) stay under 8 MB; 18 px under 128 KB.
                let bytes = sheet.width as usize * sheet.height as usize * 4;
                assert!(bytes <= 8 << 20, "{px} px: {bytes} bytes");
                if px == 18 {
                    assert!(bytes <= 128 << 10, "{bytes} bytes");
                }
            }
        }
    }

    #[test]
    fn the_font_has_no_kerning_so_advances_alone_lay_a_line_out() {
        let font = font();
        for a in warm_chars() {
            for b in warm_chars() {
                assert_eq!(font.horizontal_kern(a, b, 18.0), None, "{a}{b}");
            }
        }
        // A monospaced font: every printable glyph advances the same at a size.
        let adv = |c| font.metrics(c, 18.0).advance_width;
        assert!(warm_chars().iter().all(|&c| c == '…' || adv(c) == adv('M')));
    }
}
