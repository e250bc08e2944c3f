//! The world lab's panel, docked at the right of the window with the world beside it:
//! a title (marked while there are unsaved changes), buttons, the fields by section with a
//! slider (or a toggle, or a `< choice >`), the exact value and a reset mark per field,
//! then the pass stepper's times. Geometry is plain functions so the mouse's hit tests are
//! tested without a window.

use crate::content::preset::fields::{Field, Kind};
use crate::game::lab::{Entry, Lab, Row, value_text};
use crate::game::text;
use crate::worldgen::PassTiming;
use macroquad::prelude::*;

const BG: Color = Color::new(0.05, 0.05, 0.08, 0.86);
const TEXT: Color = Color::new(0.95, 0.95, 0.92, 1.0);
const DIM: Color = Color::new(0.65, 0.67, 0.7, 1.0);
const CHANGED: Color = Color::new(1.0, 0.82, 0.35, 1.0);
const SECTION: Color = Color::new(0.55, 0.8, 1.0, 1.0);
const ERROR: Color = Color::new(1.0, 0.45, 0.4, 1.0);
const SELECTED: Color = Color::new(0.3, 0.45, 0.7, 0.45);
const TRACK: Color = Color::new(0.35, 0.37, 0.42, 1.0);
const FILL: Color = Color::new(0.3, 0.6, 0.95, 1.0);

/// Lines of text above the rows (title, buttons, keys, status).
const HEAD_LINES: usize = 4;
/// Lines below the rows (the pass stepper, then the noise and Find views).
const FOOT_LINES: usize = 8;
/// Of those, the pass stepper's.
const STEPPER_LINES: usize = 5;
/// Of those, the views' (the noise's and Find's, whose summary may take two).
const VIEW_LINES: usize = FOOT_LINES - STEPPER_LINES;

/// Where the panel's parts are on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub panel: Rect,
    /// Height of a line.
    pub lh: f32,
    /// Top of the first row.
    pub rows_top: f32,
    /// Rows that fit.
    pub rows_shown: usize,
    pub s: f32,
}

impl Layout {
    pub fn new(screen: (f32, f32), s: f32) -> Layout {
        let panel = crate::game::ui::layout::lab_panel(screen, s);
        let lh = 19.0 * s;
        let rows_top = panel.y + 6.0 * s + HEAD_LINES as f32 * lh;
        let room = panel.h - (rows_top - panel.y) - FOOT_LINES as f32 * lh - 6.0 * s;
        Layout {
            panel,
            lh,
            rows_top,
            rows_shown: (room / lh).floor().max(1.0) as usize,
            s,
        }
    }

    /// The row index under screen height `y`, given the first row shown.
    pub fn row_at(&self, scroll: usize, y: f32) -> Option<usize> {
        let k = ((y - self.rows_top) / self.lh).floor();
        (k >= 0.0 && (k as usize) < self.rows_shown).then(|| scroll + k as usize)
    }

    /// The slider's track `(x0, x1)`.
    pub fn track(&self) -> (f32, f32) {
        let p = self.panel;
        (p.x + p.w * 0.40, p.x + p.w * 0.70)
    }

    /// Left edge of the value text.
    fn value_x(&self) -> f32 {
        self.panel.x + self.panel.w * 0.72
    }

    /// The reset mark's rectangle on row `k` of those shown.
    pub fn reset_rect(&self, k: usize) -> Rect {
        let w = 22.0 * self.s;
        Rect::new(
            self.panel.x + self.panel.w - w - 4.0 * self.s,
            self.rows_top + k as f32 * self.lh,
            w,
            self.lh,
        )
    }

    /// The buttons on the second line: save as preset, undo, redo, whole world.
    pub fn buttons(&self) -> [(Button, Rect); 4] {
        let y = self.panel.y + 6.0 * self.s + self.lh;
        let mut x = self.panel.x + 8.0 * self.s;
        [Button::Save, Button::Undo, Button::Redo, Button::Close].map(|b| {
            let w = (b.label().len() as f32 * 8.5 + 14.0) * self.s;
            let r = Rect::new(x, y + 1.0, w, self.lh - 2.0);
            x += w + 6.0 * self.s;
            (b, r)
        })
    }

    /// A slider value for screen `x` on field `f` (fitted to its range and step).
    pub fn slider_value(&self, f: &Field, preset: &crate::content::preset::Preset, x: f32) -> f64 {
        let (x0, x1) = self.track();
        let t = ((x - x0) / (x1 - x0)).clamp(0.0, 1.0) as f64;
        let (lo, hi) = f.bounds(preset);
        let v = lo + t * (hi - lo);
        let snapped = lo + ((v - lo) / f.step).round() * f.step;
        f.fit(preset, crate::game::lab::tidy(snapped))
    }
}

/// The panel's buttons.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Button {
    Save,
    Undo,
    Redo,
    Close,
}

impl Button {
    pub fn label(self) -> &'static str {
        match self {
            Button::Save => "Save as preset",
            Button::Undo => "Undo",
            Button::Redo => "Redo",
            Button::Close => "Close",
        }
    }
}

/// Keeps the selected row in view.
pub fn scroll_to_selection(lab: &mut Lab, layout: &Layout) {
    let n = layout.rows_shown;
    if lab.selected < lab.scroll {
        lab.scroll = lab.selected.saturating_sub(1);
    } else if lab.selected >= lab.scroll + n {
        lab.scroll = lab.selected + 1 - n;
    }
    let rows = lab.rows().len();
    lab.scroll = lab.scroll.min(rows.saturating_sub(n));
}

fn text(t: &str, x: f32, y: f32, s: f32, c: Color) {
    text::draw(t, x, y, (16.0 * s).round(), c);
}

/// The section's heading as the RON file writes it.
fn section_title(section: &str) -> String {
    if section.is_empty() {
        "size".into()
    } else {
        format!("{section}: (")
    }
}

/// Draws the panel. `timings` are the shown world's; `status` a line about generation or
/// the last save.
pub fn draw(lab: &Lab, layout: &Layout, timings: &[PassTiming], status: &str, views: &[String]) {
    let (p, s, lh) = (layout.panel, layout.s, layout.lh);
    draw_rectangle(p.x, p.y, p.w, p.h, BG);
    draw_line(p.x, p.y, p.x, p.y + p.h, 2.0, TRACK);
    let x = p.x + 8.0 * s;
    let base = |line: usize| p.y + 6.0 * s + (line as f32 + 0.8) * lh;
    let title_color = if lab.unsaved() { CHANGED } else { TEXT };
    text(&lab.title(), x, base(0), s * 1.05, title_color);
    for (b, r) in layout.buttons() {
        draw_rectangle(r.x, r.y, r.w, r.h, TRACK);
        text(b.label(), r.x + 7.0 * s, r.y + r.h * 0.78, s * 0.95, TEXT);
    }
    text(
        "Up/Down field  Left/Right step (Shift x10)  Enter type  Del reset",
        x,
        base(2),
        s * 0.85,
        DIM,
    );
    let (line, color) = match (&lab.entry, &lab.error) {
        (Entry::Name(name), _) => (
            format!("Save as: {name}_  (Enter saves, Esc cancels)"),
            TEXT,
        ),
        (_, Some(e)) => (e.clone(), ERROR),
        _ => (status.to_string(), DIM),
    };
    // Small text (0.85 of the panel's 16 px) in the panel's width, as characters.
    let chars = crate::game::ui::chars_in(p.w - 16.0 * s, s * 16.0 * 0.85 / 18.0).saturating_sub(1);
    let line = fit_lines(&[line], chars, 1).remove(0);
    text(&line, x, base(3), s * 0.85, color);

    let rows = lab.rows();
    let (t0, t1) = layout.track();
    for (k, row) in rows
        .iter()
        .enumerate()
        .skip(lab.scroll)
        .take(layout.rows_shown)
    {
        let top = layout.rows_top + (k - lab.scroll) as f32 * lh;
        let y = top + lh * 0.75;
        match *row {
            Row::Section(name) => text(&section_title(name), x, y, s, SECTION),
            Row::Entry(list, i) => {
                let name = list.rsplit('.').next().unwrap_or(list);
                text(&format!("  {name}[{i}]: ("), x, y, s * 0.95, SECTION);
            }
            Row::Field(f, i) => {
                if k == lab.selected {
                    draw_rectangle(p.x + 2.0, top, p.w - 4.0, lh, SELECTED);
                }
                let indent = if f.list().is_some() { 32.0 } else { 16.0 };
                let changed = lab.differs(f, i);
                let color = if changed { CHANGED } else { TEXT };
                text(f.name(), x + indent * s, y, s * 0.95, color);
                let v = (f.get)(&lab.edited, i);
                draw_control(f, v, &lab.edited, (t0, t1), top, lh, s);
                let shown = match (&lab.entry, k == lab.selected) {
                    (Entry::Value(t), true) => format!("{t}_"),
                    _ => value_text(f, v),
                };
                text(&shown, layout.value_x(), y, s * 0.95, color);
                if changed {
                    let r = layout.reset_rect(k - lab.scroll);
                    draw_rectangle_lines(r.x, r.y + 2.0, r.w, r.h - 4.0, 1.5, CHANGED);
                    text("R", r.x + 6.0 * s, y, s * 0.9, CHANGED);
                }
            }
        }
    }
    // Scroll bar.
    if rows.len() > layout.rows_shown {
        let h = layout.rows_shown as f32 * lh;
        let bar = h * layout.rows_shown as f32 / rows.len() as f32;
        let at = h * lab.scroll as f32 / rows.len() as f32;
        draw_rectangle(p.x + p.w - 3.0 * s, layout.rows_top + at, 3.0 * s, bar, DIM);
    }
    let foot = layout.rows_top + layout.rows_shown as f32 * lh + 4.0 * s;
    let mut lines = stepper_lines(lab, timings);
    lines.resize(STEPPER_LINES, String::new());
    lines.extend(fit_lines(views, chars, VIEW_LINES));
    for (n, l) in lines.iter().enumerate() {
        text(l, x, foot + (n as f32 + 0.8) * lh, s * 0.85, DIM);
    }
}

/// `texts` wrapped to `chars` characters a line in at most `max` lines (at least one a
/// text while there is room), a line cut short ending in `...` (the UI's font has no
/// ellipsis): nothing runs past the panel's edge.
pub fn fit_lines(texts: &[String], chars: usize, max: usize) -> Vec<String> {
    let chars = chars.max(8);
    let mut out: Vec<String> = Vec::new();
    for (k, t) in texts.iter().enumerate() {
        // Room for this text, keeping a line for each one after it.
        let room = max.saturating_sub(out.len() + (texts.len() - k - 1)).max(1);
        if out.len() >= max {
            break;
        }
        let mut wrapped = crate::game::ui::overlay::wrap(t, chars);
        if wrapped.len() > room {
            // The last line takes what of the rest fits.
            let rest = wrapped.split_off(room - 1).join(" ");
            let keep: String = rest.chars().take(chars - 3).collect();
            wrapped.push(format!("{}...", keep.trim_end()));
        }
        out.extend(wrapped);
    }
    out
}

/// The slider, toggle or choice of a field on a row.
fn draw_control(
    f: &Field,
    v: Option<f64>,
    preset: &crate::content::preset::Preset,
    (t0, t1): (f32, f32),
    top: f32,
    lh: f32,
    s: f32,
) {
    let mid = top + lh / 2.0;
    match f.kind {
        Kind::Choice(_) | Kind::Tile => {
            text("<", t0, top + lh * 0.75, s, DIM);
            text(">", t1 - 8.0 * s, top + lh * 0.75, s, DIM);
        }
        Kind::Bool => {
            let on = v.is_some_and(|v| v >= 0.5);
            let r = Rect::new(t0, top + 3.0 * s, 30.0 * s, lh - 6.0 * s);
            draw_rectangle(r.x, r.y, r.w, r.h, if on { FILL } else { TRACK });
        }
        _ => {
            draw_line(t0, mid, t1, mid, 3.0 * s, TRACK);
            if let Some(v) = v {
                let (lo, hi) = f.bounds(preset);
                let t = if hi > lo {
                    ((v - lo) / (hi - lo)) as f32
                } else {
                    0.0
                };
                let kx = t0 + t.clamp(0.0, 1.0) * (t1 - t0);
                draw_line(t0, mid, kx, mid, 3.0 * s, FILL);
                draw_circle(kx, mid, 5.0 * s, TEXT);
            }
        }
    }
}

/// The pass stepper's lines: which pass the world on screen stops after, and each pass's
/// time in ms.
pub fn stepper_lines(lab: &Lab, timings: &[PassTiming]) -> Vec<String> {
    use crate::worldgen::PASSES;
    let at = lab.step.unwrap_or(PASSES.len() - 1);
    let head = match lab.step {
        Some(k) => format!(
            "Passes ([ and ]): after {} ({} of {})",
            PASSES[k].name,
            k + 1,
            PASSES.len()
        ),
        None => format!("Passes ([ and ]): all {}, the whole world", PASSES.len()),
    };
    let mut parts: Vec<String> = PASSES
        .iter()
        .enumerate()
        .take(at + 1)
        .map(|(i, p)| {
            let ms = timings.iter().find(|t| t.name == p.name).map(|t| t.ms);
            let mark = if i == at { ">" } else { "" };
            match ms {
                Some(ms) => format!("{mark}{} {ms:.1}", p.name),
                None => format!("{mark}{}", p.name),
            }
        })
        .collect();
    let mut lines = vec![head];
    // Wrapped about 46 characters a line.
    let mut line = String::new();
    for part in parts.drain(..) {
        if line.len() + part.len() > 46 && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push_str("  ");
        }
        line.push_str(&part);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.truncate(STEPPER_LINES);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::preset::{Preset, field};

    #[test]
    fn rows_and_buttons_are_where_they_are_drawn() {
        let l = Layout::new((1280.0, 720.0), 1.0);
        assert!(l.panel.x >= 1280.0 * 0.45 && l.panel.right() == 1280.0);
        assert_eq!(l.row_at(10, l.rows_top + 0.5), Some(10));
        assert_eq!(l.row_at(10, l.rows_top + 2.5 * l.lh), Some(12));
        assert_eq!(l.row_at(0, l.rows_top - 1.0), None);
        assert_eq!(
            l.row_at(0, l.rows_top + l.rows_shown as f32 * l.lh + 1.0),
            None
        );
        let b = l.buttons();
        assert!(b.windows(2).all(|w| w[0].1.right() < w[1].1.x));
        assert!(b[3].1.right() <= l.panel.right(), "buttons fit the panel");
        assert!(l.rows_shown >= 20);
        // A small window still has rows.
        assert!(Layout::new((640.0, 480.0), 0.7).rows_shown >= 10);
    }

    #[test]
    fn the_views_lines_are_wrapped_and_cut_to_the_panels_width() {
        let find = "Find (G, J jumps): dirt: 262804 tiles (2.27% of the world): surface 88%, \
                    underground 12%, cavern 0%";
        let views = ["Noise (N, Shift+N): off".to_string(), find.to_string()];
        for chars in [30, 54, 70, 200] {
            let lines = fit_lines(&views, chars, VIEW_LINES);
            assert!(lines.len() <= VIEW_LINES, "{lines:?}");
            assert!(
                lines.iter().all(|l| l.chars().count() <= chars),
                "{chars}: {lines:?}"
            );
            assert_eq!(lines[0], views[0]);
            let joined = lines[1..].join(" ");
            if joined.ends_with("...") {
                assert!(chars < 60, "cut only when it does not fit: {chars}");
                assert!(find.starts_with(joined.trim_end_matches("...").trim_end()));
            } else {
                assert_eq!(joined, find, "{chars}");
            }
        }
        // One line each at most: the status line.
        let one = fit_lines(&[find.to_string()], 40, 1);
        assert_eq!(one.len(), 1);
        assert!(
            one[0].ends_with("...") && one[0].chars().count() >= 38,
            "{one:?}"
        );
    }

    #[test]
    fn the_slider_maps_its_track_onto_the_fields_range() {
        let l = Layout::new((1280.0, 720.0), 1.0);
        let p = Preset::default();
        let (x0, x1) = l.track();
        let fill = field("caves.fill").unwrap();
        assert_eq!(l.slider_value(fill, &p, x0 - 50.0), 0.0);
        assert_eq!(l.slider_value(fill, &p, x1 + 50.0), 1.0);
        assert_eq!(l.slider_value(fill, &p, (x0 + x1) / 2.0), 0.5);
        let v = l.slider_value(fill, &p, x0 + (x1 - x0) * 0.3);
        assert!((v - 0.3).abs() < 0.006 && format!("{v}").len() <= 5, "{v}");
        let octaves = field("surface.octaves").unwrap();
        assert_eq!(l.slider_value(octaves, &p, x0), 1.0);
        assert_eq!(l.slider_value(octaves, &p, x1), 16.0);
        // An open minimum is never reached; a linked one is respected.
        let freq = field("surface.frequency").unwrap();
        assert!(l.slider_value(freq, &p, x0) > 0.0);
        let cavern = field("layers.cavern").unwrap();
        assert_eq!(l.slider_value(cavern, &p, x0), p.layers.underground);
    }

    #[test]
    fn the_stepper_lists_the_passes_run_with_their_times() {
        let mut lab = Lab::new(Preset::default());
        let t = vec![
            PassTiming {
                name: "surface",
                ms: 5.25,
            },
            PassTiming {
                name: "layers",
                ms: 3.0,
            },
        ];
        lab.step = Some(1);
        let lines = stepper_lines(&lab, &t);
        let n = crate::worldgen::PASSES.len();
        assert_eq!(
            lines[0],
            format!("Passes ([ and ]): after layers (2 of {n})")
        );
        assert_eq!(lines[1], "surface 5.2  >layers 3.0");
        lab.step = None;
        assert!(stepper_lines(&lab, &t)[0].contains("whole world"));
    }
}
