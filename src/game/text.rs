//! All of the window's text goes through here: [`draw`] and [`measure`].
//!
//! Why not macroquad's `draw_text` on its default font: that font keeps every glyph of every
//! size in one atlas, which starts at 512 px and, when a glyph does not fit, doubles and
//! lays every glyph out again (in a hash map's order). Text already queued in that frame
//! still points at the old places and draws other glyphs ("Guice" for "Guide", "Depcsit
//! all"). The atlas also doubles when a glyph lands one pixel short of a row's end, and
//! every doubling lays the glyphs out anew in a new order, so with a few dozen sizes
//! (names and floating numbers follow the zoom) it ran to 8192-32768 px (256 MB to 4 GB)
//! and the installed game panicked on its first frame.
//!
//! So text here comes in a fixed set of sizes ([`SIZES`]: a drawn size snaps to the
//! nearest), and each size has its own font with its own atlas, made the first time the
//! size is drawn and filled at once with the printable ASCII glyphs (and "…"). Replaying macroquad's packing
//! with the font's real glyph boxes, one size's 96 glyphs fit its first 512-px atlas
//! (1024 px at a few sizes, from the one-pixel rule above) up to 96 px glyphs (48 px on a
//! 2x display); at most twelve such atlases, about 4 MB each at worst. A glyph first met
//! later (a name with "é") is added only after the frame's queued drawing is flushed, so
//! nothing queued can point into an atlas laid out anew.

use macroquad::prelude::*;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::mem::ManuallyDrop;

/// The sizes text is drawn at, in logical pixels (times the display's DPI scale on
/// screen): UI text is 13-20 px times the UI scale (0.7-3), names over heads 12-20 px and
/// floating numbers 16-40 px with the zoom.
pub const SIZES: [u16; 12] = [10, 12, 13, 14, 16, 18, 20, 24, 28, 32, 40, 48];

/// The font every size is made from (macroquad's default font, ProggyClean).
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

/// The glyph size macroquad rasterises `size` logical pixels at on a display of `dpi`
/// (as `draw_text_ex` computes it).
fn raster(size: u16, dpi: f32) -> u16 {
    (size as f32 * dpi).ceil() as u16
}

/// The glyphs every size is filled with before any text is drawn.
fn warm_chars() -> Vec<char> {
    (' '..='~').chain(['…']).collect()
}

/// One size's font and the glyphs its atlas holds.
struct Sized {
    font: Font,
    ascii: u128,
    other: HashSet<char>,
}

impl Sized {
    fn has(&self, c: char) -> bool {
        if c.is_ascii() {
            self.ascii & (1u128 << c as u32) != 0
        } else {
            self.other.contains(&c)
        }
    }

    fn add(&mut self, chars: &[char], raster: u16) {
        self.font.populate_font_cache(chars, raster);
        for &c in chars {
            if c.is_ascii() {
                self.ascii |= 1u128 << c as u32;
            } else {
                self.other.insert(c);
            }
        }
    }
}

/// The fonts by the glyph size they rasterise at (a size times the DPI scale).
type Fonts = RefCell<HashMap<u16, Sized>>;

thread_local! {
    /// Never dropped: a font's atlas deletes its GL texture when dropped, and at exit the
    /// window's GL context is gone before the thread's locals are (a `--frames` run
    /// crashed on its way out), as macroquad's own default font is never dropped.
    static FONTS: ManuallyDrop<Fonts> = ManuallyDrop::new(RefCell::new(HashMap::new()));
}

/// A font for glyphs rasterised at `raster` px, filled with [`warm_chars`]: a new font
/// has its own atlas, so making one mid-frame moves no glyph that queued text uses.
fn make(raster: u16) -> Option<Sized> {
    let t0 = std::time::Instant::now();
    let Ok(font) = load_ttf_font_from_bytes(FONT) else {
        log::warn!("the UI font did not load; text falls back to macroquad's");
        return None;
    };
    let mut sized = Sized {
        font,
        ascii: 0,
        other: HashSet::new(),
    };
    let chars = warm_chars();
    sized.add(&chars, raster);
    log::debug!(
        "text: {} glyphs at {raster} px made in {:.1} ms",
        chars.len(),
        t0.elapsed().as_secs_f64() * 1e3
    );
    Some(sized)
}

/// Runs `f` with the font for `size` (already snapped) holding every glyph of `text`.
/// A glyph not yet in its atlas is added after flushing the frame's queued drawing:
/// adding it may grow the atlas, which lays its glyphs out anew.
fn with_font<T>(text: &str, size: u16, f: impl FnOnce(Option<&Font>) -> T) -> T {
    let r = raster(size, screen_dpi_scale());
    FONTS.with(|fonts| {
        let mut fonts = fonts.borrow_mut();
        let sized = match fonts.entry(r) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => match make(r) {
                Some(sized) => e.insert(sized),
                None => return f(None),
            },
        };
        let mut missing: Vec<char> = text.chars().filter(|&c| !sized.has(c)).collect();
        if !missing.is_empty() {
            missing.sort_unstable();
            missing.dedup();
            // SAFETY: the window's thread, between draw calls; flushing only draws what
            // is queued (as macroquad does at a change of camera).
            unsafe { get_internal_gl() }.flush();
            sized.add(&missing, r);
        }
        f(Some(&sized.font))
    })
}

/// Draws `text` with its baseline's left end at `(x, y)`, at the [`SIZES`] size nearest
/// `px` logical pixels.
pub fn draw(text: &str, x: f32, y: f32, px: f32, color: Color) -> TextDimensions {
    let size = snap(px);
    with_font(text, size, |font| {
        // On whole pixels: the atlas is sampled texel for texel (nearest), and a glyph
        // quad that starts between pixels loses a column to its neighbour's ("The Wall cf
        // Flesh": a centred title's "o" without its right side).
        draw_text_ex(
            text,
            x.round(),
            y.round(),
            TextParams {
                font,
                font_size: size,
                font_scale: 1.0,
                color,
                ..Default::default()
            },
        )
    })
}

/// The size of `text` as [`draw`] draws it at `px`.
pub fn measure(text: &str, px: f32) -> TextDimensions {
    let size = snap(px);
    with_font(text, size, |font| measure_text(text, font, size, 1.0))
}

/// The width of `text` as [`draw`] draws it at `px`.
pub fn width(text: &str, px: f32) -> f32 {
    measure(text, px).width
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
