//! Screen-space UI: panels of text, the progress bar, the preset menu, the seed box, the
//! legend. Sizes follow the window height so the UI scales with it.

pub mod chat;
pub mod hud;
pub mod invscreen;
pub mod joinform;
pub mod layout;
pub mod menus;
pub mod minimap;
pub mod overlay;
pub mod rival;
pub mod seedbox;
pub mod tooltip;
pub mod weapons;

use crate::game::text;
use crate::world::{CAVE_BACKDROP, Tile};
use layout::Layout;
use macroquad::prelude::*;

const PANEL: Color = Color::new(0.05, 0.05, 0.08, 0.78);
const TEXT: Color = Color::new(0.95, 0.95, 0.92, 1.0);
const DIM: Color = Color::new(0.7, 0.72, 0.75, 1.0);
const ERROR: Color = Color::new(1.0, 0.45, 0.4, 1.0);

/// The player's UI scale (settings), as f32 bits; 1.0 until set.
static USER_SCALE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0x3f80_0000);

/// Sets the player's UI scale (the settings' `ui_scale`), which multiplies [`scale`].
pub fn set_user_scale(s: f32) {
    USER_SCALE.store(s.to_bits(), std::sync::atomic::Ordering::Relaxed);
}

/// UI scale for a window: 1 at 720 logical pixels high, times the player's UI scale,
/// held to the largest at which the panels fit the window ([`layout::cap`]).
/// Sizes are logical pixels: macroquad multiplies them by the display's scale
/// (`screen_dpi_scale()`, with `high_dpi` on) and renders text at that resolution, so the
/// UI keeps its size and stays sharp on a high-DPI display.
pub fn scale(screen: (f32, f32)) -> f32 {
    let user = f32::from_bits(USER_SCALE.load(std::sync::atomic::Ordering::Relaxed));
    scale_for(screen.1, user).min(layout::cap(screen))
}

/// [`scale`] with the player's scale `user`.
pub fn scale_for(screen_h: f32, user: f32) -> f32 {
    (screen_h / 720.0).clamp(0.7, 3.0) * user
}

fn font(s: f32) -> u16 {
    (18.0 * s).round() as u16
}

fn width_of(text: &str, s: f32) -> f32 {
    text::measure(text, font(s) as f32).width
}

/// A panel of lines with its top-left at `(x, y)`; returns its size.
pub fn panel(lines: &[(String, Color)], x: f32, y: f32, s: f32) -> (f32, f32) {
    let lh = 21.0 * s;
    let pad = 8.0 * s;
    let w = lines
        .iter()
        .map(|(l, _)| width_of(l, s))
        .fold(0.0, f32::max)
        + 2.0 * pad;
    let h = lines.len() as f32 * lh + 2.0 * pad;
    draw_rectangle(x, y, w, h, PANEL);
    for (i, (line, color)) in lines.iter().enumerate() {
        text::draw(
            line,
            x + pad,
            y + pad + (i as f32 + 0.78) * lh,
            font(s) as f32,
            *color,
        );
    }
    (w, h)
}

/// Darkens the world behind a menu or box so it reads as a dialog.
pub fn backdrop(x: f32, y: f32, w: f32, h: f32) {
    draw_rectangle(x, y, w, h, Color::new(0.0, 0.0, 0.0, 0.6));
}

pub fn plain(lines: &[String]) -> Vec<(String, Color)> {
    lines.iter().map(|l| (l.clone(), TEXT)).collect()
}

/// Characters of the UI's font that fit in `width` pixels at scale `s` (digits' width).
pub fn chars_in(width: f32, s: f32) -> usize {
    let char_w = width_of("0000000000", s) / 10.0;
    (width / char_w.max(1.0)).max(0.0) as usize
}

/// The F3 overlay (top-left), its lines wrapped to `width` pixels (the room left of the
/// minimap on a narrow window). Returns its bottom.
pub fn overlay(lines: &[String], width: f32, s: f32) -> f32 {
    let max = chars_in(width - 16.0 * s, s);
    let wrapped: Vec<String> = lines.iter().flat_map(|l| overlay::wrap(l, max)).collect();
    let (_, h) = panel(&plain(&wrapped), 10.0 * s, 10.0 * s, s);
    10.0 * s + h
}

/// The tile legend under the overlay, above the hotbar's caption.
pub fn legend(y: f32, lay: &Layout) {
    let s = lay.s;
    let mut entries: Vec<(String, [u8; 4])> = Tile::ALL
        .iter()
        .skip(1)
        .filter(|t| !t.is_reserved())
        .map(|t| (t.label().to_string(), t.color()))
        .collect();
    entries.insert(0, ("sky".into(), Tile::Air.color()));
    entries.insert(1, ("cave".into(), CAVE_BACKDROP));
    let lh = 20.0 * s;
    let (x, pad, sw) = (10.0 * s, 8.0 * s, 14.0 * s);
    let col_w = entries
        .iter()
        .map(|(n, _)| width_of(n, s))
        .fold(0.0, f32::max)
        + sw
        + 3.0 * pad;
    // Above the hotbar and its caption: as many columns as that takes.
    let bottom = lay.hotbar[0].y - 24.0 * s;
    let room = bottom - (y + 6.0 * s) - 2.0 * pad;
    let rows = legend_rows(entries.len(), room, lh);
    let cols = entries.len().div_ceil(rows);
    draw_rectangle(
        x,
        y + 6.0 * s,
        col_w * cols as f32,
        rows as f32 * lh + 2.0 * pad,
        PANEL,
    );
    for (i, (name, c)) in entries.iter().enumerate() {
        let (col, row) = (i / rows, i % rows);
        let cx = x + col as f32 * col_w;
        let ty = y + 6.0 * s + pad + row as f32 * lh;
        draw_rectangle(
            cx + pad,
            ty + 3.0 * s,
            sw,
            sw,
            Color::from_rgba(c[0], c[1], c[2], 255),
        );
        draw_rectangle_lines(cx + pad, ty + 3.0 * s, sw, sw, 1.0, DIM);
        text::draw(
            name,
            cx + 2.0 * pad + sw,
            ty + 0.8 * lh,
            font(s) as f32,
            TEXT,
        );
    }
}

/// Rows per column of a legend of `entries` lines of height `lh` in `room` pixels: all in
/// one column when they fit, else as many rows as fit (at least one), the columns beside
/// each other.
pub fn legend_rows(entries: usize, room: f32, lh: f32) -> usize {
    let fit = (room / lh).floor().max(1.0) as usize;
    let cols = entries.div_ceil(fit).max(1);
    // Balance the columns: the fewest rows that still give that many columns.
    entries.div_ceil(cols).max(1)
}

/// Width of `text` in the UI's font at scale `s`.
pub fn text_width(text: &str, s: f32) -> f32 {
    width_of(text, s)
}

/// The always-visible status line (bottom-left): seed and keys.
pub fn status(text: &str, screen: (f32, f32), s: f32) {
    let h = 26.0 * s;
    draw_rectangle(0.0, screen.1 - h, screen.0, h, PANEL);
    text::draw(text, 10.0 * s, screen.1 - 8.0 * s, font(s) as f32, TEXT);
}

/// Progress bar at the top centre, where the layout puts it.
pub fn progress(text: &str, fraction: f32, lay: &Layout) {
    let Some(r) = lay.progress else { return };
    let s = lay.s;
    let (x, y, w, h) = (r.x, r.y, r.w, r.h);
    draw_rectangle(x, y, w, h, PANEL);
    draw_rectangle(
        x,
        y,
        w * fraction.clamp(0.0, 1.0),
        h,
        Color::new(0.3, 0.6, 0.95, 0.8),
    );
    draw_rectangle_lines(x, y, w, h, 2.0, TEXT);
    let tw = width_of(text, s);
    text::draw(text, x + (w - tw) / 2.0, y + 21.0 * s, font(s) as f32, TEXT);
}

/// Top of a box `h` pixels high at the bottom left that stays clear of the hotbar, the
/// selected tile's name and the message above it, and the status line: above them all
/// when it fits, else at the top of the window.
pub fn above_hotbar(h: f32, lay: &Layout) -> f32 {
    let s = lay.s;
    let clear = lay.caption.y;
    (clear - h).max(4.0 * s).min(lay.screen.1)
}

/// A preset error box at the bottom, above the hotbar and its messages, wrapped to the
/// window's width.
pub fn error(text: &str, lay: &Layout) {
    let (screen, s) = (lay.screen, lay.s);
    let max_chars = chars_in(screen.0 - 40.0 * s, s);
    let mut lines = vec![(
        "Preset not loaded; the world on screen is kept:".to_string(),
        ERROR,
    )];
    lines.extend(
        overlay::wrap(text, max_chars)
            .into_iter()
            .map(|l| (l, TEXT)),
    );
    lines.push(("Fix and save the file to retry.".to_string(), DIM));
    let h = lines.len() as f32 * 21.0 * s + 16.0 * s;
    panel(&lines, 10.0 * s, above_hotbar(h, lay), s);
}

/// The preset menu's entries on screen: the first shown and how many, as many as fit a
/// window `screen_h` high around `selected`, whatever the number `n` of presets.
pub fn menu_window(n: usize, selected: usize, screen_h: f32, s: f32) -> (usize, usize) {
    let fit = (((screen_h - 40.0 * s) / (ROW * s)).floor() as usize)
        .saturating_sub(2)
        .max(1);
    (menus::first_shown(n, selected, fit), n.min(fit))
}

/// The preset menu's lines: its title, then the entries `first..first + shown` of `n`,
/// named by `label` (asked only for those).
fn menu_lines(
    (n, first, shown): (usize, usize, usize),
    label: &dyn Fn(usize) -> String,
    selected: usize,
    current: Option<usize>,
) -> Vec<(String, Color)> {
    let mut lines = vec![(
        "Presets: 1-9, or arrows and Enter, or click; Esc closes".to_string(),
        DIM,
    )];
    for i in first..first + shown {
        let key = if i < 9 {
            format!("{}", i + 1)
        } else {
            " ".into()
        };
        let cursor = if i == selected { ">" } else { " " };
        let mark = if Some(i) == current { "  (in use)" } else { "" };
        lines.push((
            format!("{cursor} {key}  {}{mark}", label(i)),
            if i == selected { TEXT } else { DIM },
        ));
    }
    if n == 0 {
        lines.push(("(no presets)".into(), ERROR));
    }
    lines
}

/// The preset menu's frame `(x, y, w)` for `lines`, centred in `room`.
fn menu_frame(lines: &[(String, Color)], room: Rect, s: f32) -> (f32, f32, f32) {
    let w = lines
        .iter()
        .map(|(l, _)| width_of(l, s))
        .fold(0.0, f32::max)
        + 16.0 * s
        + width_of("  (in use)", s);
    let h = lines.len() as f32 * 21.0 * s + 16.0 * s;
    (
        (room.x + (room.w - w) / 2.0).max(0.0),
        (room.y + (room.h - h) / 2.0).max(room.y),
        w,
    )
}

/// The preset menu, in the layout's room above the hotbar: `n` entries named by `label`,
/// `selected` kept in view, the one in use (`current`) marked. Only the entries on screen
/// are named, measured and drawn. Returns their rectangles with their index (for mouse
/// picking); `draw` false only lays out.
pub fn preset_menu(
    n: usize,
    label: &dyn Fn(usize) -> String,
    selected: usize,
    current: Option<usize>,
    lay: &Layout,
    draw: bool,
) -> Vec<(usize, Rect)> {
    let (room, s, screen) = (lay.dialog, lay.s, lay.screen);
    // The window's height less 40 px holds the menu (see `menu_window`): the room's.
    let (first, shown) = menu_window(n, selected, room.h + 40.0 * s, s);
    let lines = menu_lines((n, first, shown), label, selected, current);
    let (x, y, w) = menu_frame(&lines, room, s);
    if draw {
        backdrop(0.0, 0.0, screen.0, screen.1);
        panel(&lines, x, y, s);
    }
    let lh = ROW * s;
    (0..shown)
        .map(|k| {
            (
                first + k,
                Rect::new(x, y + 8.0 * s + (k + 1) as f32 * lh, w, lh),
            )
        })
        .collect()
}

/// A centred panel's frame `(x, y, w)` for `lines`.
fn dialog_frame(lines: &[(String, Color)], screen: (f32, f32), s: f32) -> (f32, f32, f32) {
    let w = lines
        .iter()
        .map(|(l, _)| width_of(l, s))
        .fold(0.0, f32::max)
        + 16.0 * s;
    let h = lines.len() as f32 * 21.0 * s + 16.0 * s;
    ((screen.0 - w) / 2.0, (screen.1 - h) / 2.0, w)
}

/// The question about unsaved edits: what happens, then one line per answer.
fn confirm_lines(question: &str) -> Vec<(String, Color)> {
    let mut lines = vec![
        (question.to_string(), TEXT),
        ("Keep the edits? Press a key or click:".to_string(), DIM),
    ];
    lines.extend(
        super::worlds::guard::ANSWERS
            .iter()
            .map(|(_, label)| (format!("  {label}"), TEXT)),
    );
    lines
}

/// Screen rectangles of the question's answers (for mouse picking).
pub fn confirm_rects(
    question: &str,
    screen: (f32, f32),
    s: f32,
) -> Vec<(super::worlds::guard::Answer, Rect)> {
    let lines = confirm_lines(question);
    let (x, y, w) = dialog_frame(&lines, screen, s);
    let lh = 21.0 * s;
    super::worlds::guard::ANSWERS
        .iter()
        .enumerate()
        .map(|(i, (a, _))| (*a, Rect::new(x, y + 8.0 * s + (i + 2) as f32 * lh, w, lh)))
        .collect()
}

/// The question about unsaved edits (centre), the answer under the mouse outlined.
pub fn confirm(question: &str, mouse: (f32, f32), screen: (f32, f32), s: f32) {
    let lines = confirm_lines(question);
    let (x, y, _) = dialog_frame(&lines, screen, s);
    backdrop(0.0, 0.0, screen.0, screen.1);
    panel(&lines, x, y, s);
    for (_, r) in confirm_rects(question, screen, s) {
        if r.contains(vec2(mouse.0, mouse.1)) {
            draw_rectangle_lines(r.x + 2.0, r.y, r.w - 4.0, r.h, 2.0, TEXT);
        }
    }
}

/// Row height of menus at scale 1.
const ROW: f32 = 21.0;

/// A centred menu (the pause menu, the settings menu): a title line ([`PAUSE_TITLE`],
/// [`SETTINGS_TITLE`]), then `entries` (the `selected` one highlighted), as many as fit
/// the window around the selection. Returns the rectangles of the entries shown, with
/// their index (for mouse picking); `draw` false only lays out.
pub fn menu(
    title: &str,
    entries: &[String],
    selected: usize,
    screen: (f32, f32),
    s: f32,
    draw: bool,
) -> Vec<(usize, Rect)> {
    let lh = ROW * s;
    let fit = (((screen.1 - 40.0 * s) / lh).floor() as usize)
        .saturating_sub(2)
        .max(1);
    let first = menus::first_shown(entries.len(), selected, fit);
    let shown = &entries[first..entries.len().min(first + fit)];
    let mut lines = vec![(title.to_string(), DIM)];
    for (k, e) in shown.iter().enumerate() {
        let i = first + k;
        let cursor = if i == selected { ">" } else { " " };
        let key = if i < 9 {
            format!("{}", i + 1)
        } else {
            " ".into()
        };
        let color = if i == selected { TEXT } else { DIM };
        lines.push((format!("{cursor} {key}  {e}"), color));
    }
    let (x, y, w) = dialog_frame(&lines, screen, s);
    if draw {
        backdrop(0.0, 0.0, screen.0, screen.1);
        panel(&lines, x, y, s);
    }
    (0..shown.len())
        .map(|k| {
            (
                first + k,
                Rect::new(x, y + 8.0 * s + (k + 1) as f32 * lh, w, lh),
            )
        })
        .collect()
}

/// Title of the pause menu.
pub const PAUSE_TITLE: &str = "Paused: arrows and Enter, 1-7, or click; Esc resumes";
/// Title of the settings menu.
pub const SETTINGS_TITLE: &str = "Settings: arrows, Enter, <- ->; Esc back (saved as you go)";

/// The help screen: a control and its keys a line, in two columns (or more) when the
/// room is too short for one, in the layout's room above the hotbar; its text smaller
/// when it would not fit that room at the UI's scale.
pub fn help(lines: &[(String, String)], where_settings: &str, lay: &Layout) {
    let screen = lay.screen;
    let room = lay.help.unwrap_or(Rect::new(0.0, 0.0, screen.0, screen.1));
    backdrop(0.0, 0.0, screen.0, screen.1);
    let head = [
        ("Controls (as bound; Esc closes)".to_string(), TEXT),
        (
            format!("Change them in Esc > Settings, or in {where_settings}"),
            DIM,
        ),
    ];
    // Sizes at scale `s`: columns, rows a column, column width, width, height.
    let size = |s: f32| {
        let lh = ROW * s;
        let fit = (((room.h - 24.0 * s) / lh).floor() as usize)
            .saturating_sub(head.len())
            .max(1);
        let cols = lines.len().div_ceil(fit).max(1);
        let per = lines.len().div_ceil(cols);
        let label_w = lines.iter().map(|l| width_of(&l.0, s)).fold(0.0, f32::max);
        let key_w = lines.iter().map(|l| width_of(&l.1, s)).fold(0.0, f32::max);
        let col_w = label_w + key_w + 32.0 * s;
        let head_w = head.iter().map(|h| width_of(&h.0, s)).fold(0.0, f32::max);
        let w = (col_w * cols as f32).max(head_w) + 16.0 * s;
        let h = (head.len() + per) as f32 * lh + 24.0 * s;
        (per, label_w, col_w, w, h)
    };
    let mut s = lay.s;
    for _ in 0..4 {
        let (.., w, h) = size(s);
        let k = (room.w / w).min(room.h / h);
        if k >= 1.0 {
            break;
        }
        s *= k * 0.98;
    }
    let (per, label_w, col_w, w, h) = size(s);
    let lh = ROW * s;
    let (x, y) = (
        (room.x + (room.w - w) / 2.0).max(room.x),
        (room.y + (room.h - h) / 2.0).max(room.y),
    );
    draw_rectangle(x, y, w, h, PANEL);
    let fs = font(s) as f32;
    for (i, (t, c)) in head.iter().enumerate() {
        text::draw(t, x + 8.0 * s, y + 8.0 * s + (i as f32 + 0.78) * lh, fs, *c);
    }
    for (i, (what, keys)) in lines.iter().enumerate() {
        let (col, row) = (i / per, i % per);
        let cx = x + 8.0 * s + col as f32 * col_w;
        let cy = y + 16.0 * s + (head.len() + row) as f32 * lh + 0.78 * lh;
        text::draw(what, cx, cy, fs, DIM);
        text::draw(keys, cx + label_w + 16.0 * s, cy, fs, TEXT);
    }
}

/// A box of wrapped text at the top centre (the settings file's error at start).
pub fn warning(heading: &str, text: &str, screen: (f32, f32), s: f32) {
    let max_chars = chars_in(screen.0 - 40.0 * s, s);
    let mut lines = vec![(heading.to_string(), ERROR)];
    lines.extend(
        overlay::wrap(text, max_chars)
            .into_iter()
            .map(|l| (l, TEXT)),
    );
    let w = lines
        .iter()
        .map(|(l, _)| width_of(l, s))
        .fold(0.0, f32::max)
        + 16.0 * s;
    panel(&lines, ((screen.0 - w) / 2.0).max(0.0), 50.0 * s, s);
}

/// Height of a load-list row at scale 1 (a thumbnail and a line of text).
const SAVE_ROW: f32 = 56.0;

/// The load list's frame `(x, y, w)` and the first entry shown and how many, for `n`
/// entries with `selected` kept in view.
fn load_frame(n: usize, selected: usize, screen: (f32, f32), s: f32) -> (Rect, usize, usize) {
    let row = SAVE_ROW * s;
    let head = 21.0 * s + 16.0 * s;
    let fit = (((screen.1 - 80.0 * s - head) / row).floor().max(1.0)) as usize;
    let shown = n.min(fit);
    let first = selected
        .saturating_sub(shown.saturating_sub(1))
        .min(n - shown);
    let w = (screen.0 - 40.0 * s).min(900.0 * s);
    let h = head + shown.max(1) as f32 * row;
    let r = Rect::new((screen.0 - w) / 2.0, (screen.1 - h) / 2.0, w, h);
    (r, first, shown)
}

/// Screen rectangles of the load list's rows on screen, with the entry each shows.
pub fn load_rects(n: usize, selected: usize, screen: (f32, f32), s: f32) -> Vec<(usize, Rect)> {
    if n == 0 {
        return Vec::new();
    }
    let (r, first, shown) = load_frame(n, selected, screen, s);
    let row = SAVE_ROW * s;
    (0..shown)
        .map(|k| {
            let y = r.y + 21.0 * s + 8.0 * s + k as f32 * row;
            (first + k, Rect::new(r.x, y, r.w, row))
        })
        .collect()
}

/// The load list (centre): a thumbnail and a line per save of `dir`, newest first.
pub fn load_list(
    dir: &std::path::Path,
    lines: &[String],
    thumbs: &[Option<Texture2D>],
    selected: usize,
    screen: (f32, f32),
    s: f32,
) {
    backdrop(0.0, 0.0, screen.0, screen.1);
    let title = "Load a world: 1-9, or arrows and Enter, or click; Esc closes".to_string();
    let Some(&(_, first)) = load_rects(lines.len(), selected, screen, s).first() else {
        let text = format!("No saves in {} yet (F5 saves)", dir.display());
        panel(&[(title, DIM), (text, ERROR)], 20.0 * s, 20.0 * s, s);
        return;
    };
    let (r, ..) = load_frame(lines.len(), selected, screen, s);
    draw_rectangle(r.x, first.y - 29.0 * s, r.w, r.h, PANEL);
    text::draw(
        &title,
        r.x + 8.0 * s,
        first.y - 12.0 * s,
        font(s) as f32,
        DIM,
    );
    for (i, row) in load_rects(lines.len(), selected, screen, s) {
        let pad = 4.0 * s;
        let th = row.h - 2.0 * pad;
        let tw = th * 2.0;
        if let Some(Some(t)) = thumbs.get(i) {
            let aspect = t.width() / t.height().max(1.0);
            let params = DrawTextureParams {
                dest_size: Some(vec2((th * aspect).min(tw), th)),
                ..Default::default()
            };
            draw_texture_ex(t, row.x + 8.0 * s, row.y + pad, WHITE, params);
        }
        let key = if i < 9 {
            format!("{}", i + 1)
        } else {
            " ".into()
        };
        let cursor = if i == selected { ">" } else { " " };
        let color = if i == selected { TEXT } else { DIM };
        let text = format!("{cursor} {key}  {}", lines[i]);
        let x = row.x + 16.0 * s + tw;
        text::draw(&text, x, row.y + row.h * 0.6, font(s) as f32, color);
        if i == selected {
            draw_rectangle_lines(row.x + 2.0, row.y, row.w - 4.0, row.h, 2.0, TEXT);
        }
    }
}

/// The seed box (centre).
pub fn seed_box(text: &str, seed: Option<u64>, screen: (f32, f32), s: f32) {
    let cursor = if (get_time() * 2.0) as i64 % 2 == 0 {
        "_"
    } else {
        " "
    };
    let lines = vec![
        (
            "Type a seed (number or words), Enter generates, Esc cancels".to_string(),
            DIM,
        ),
        (format!("> {text}{cursor}"), TEXT),
        (seed.map_or("".into(), |v| format!("= seed {v}")), DIM),
    ];
    dialog(&lines, 360.0, screen, s);
}

/// A panel of `lines` at least `min_w` wide (at scale 1) in the middle of the window,
/// over a darkened world.
fn dialog(lines: &[(String, Color)], min_w: f32, screen: (f32, f32), s: f32) {
    let w = lines
        .iter()
        .map(|(l, _)| width_of(l, s))
        .fold(0.0, f32::max)
        .max(min_w * s)
        + 16.0 * s;
    let h = lines.len() as f32 * 21.0 * s + 16.0 * s;
    backdrop((screen.0 - w) / 2.0, (screen.1 - h) / 2.0, w, h);
    panel(lines, (screen.0 - w) / 2.0, (screen.1 - h) / 2.0, s);
}

/// A short message at the top (e.g. "Seed copied"), where the layout puts it, cut to
/// its width.
pub fn toast(text: &str, lay: &Layout) {
    let Some(r) = lay.toast else { return };
    let s = lay.s;
    let room = r.w - 16.0 * s;
    let mut text = text.to_string();
    while width_of(&text, s) > room && text.pop().is_some() {}
    panel(&[(text, TEXT)], r.x, r.y, s);
}

/// The Join form's title.
pub const JOIN_TITLE: &str = "Join a server: Tab moves between fields, Enter joins, Esc goes back";
/// The title of the form of Open to the network.
pub const HOST_TITLE: &str =
    "Open to the network: Tab moves between fields, Enter opens, Esc goes back";

/// A form (centre): its title, its rows, the one taking the keys marked.
pub fn form(title: &str, rows: &[String], focus: usize, screen: (f32, f32), s: f32) {
    let mut lines = vec![(title.to_string(), DIM)];
    for (i, r) in rows.iter().enumerate() {
        let (mark, c) = if i == focus {
            ("> ", TEXT)
        } else {
            ("  ", DIM)
        };
        lines.push((format!("{mark}{r}"), c));
    }
    dialog(&lines, 420.0, screen, s);
}

/// The progress of a join (`--join`), in the middle of the window: where it is, and a
/// bar `fraction` full.
pub fn joining(text: &str, fraction: f32, screen: (f32, f32), s: f32) {
    let w = (width_of(text, s) + 40.0 * s).max(420.0 * s).min(screen.0);
    let h = 64.0 * s;
    let (x, y) = ((screen.0 - w) / 2.0, (screen.1 - h) / 2.0);
    draw_rectangle(x, y, w, h, PANEL);
    text::draw(text, x + 20.0 * s, y + 26.0 * s, font(s) as f32, TEXT);
    let (bx, by, bw, bh) = (x + 20.0 * s, y + 38.0 * s, w - 40.0 * s, 12.0 * s);
    draw_rectangle(
        bx,
        by,
        bw * fraction.clamp(0.0, 1.0),
        bh,
        Color::new(0.3, 0.6, 0.95, 0.8),
    );
    draw_rectangle_lines(bx, by, bw, bh, 1.5, TEXT);
}

/// The chat at the bottom left, above the hotbar and its messages: the lines said lately
/// (`lines`, oldest first; `true`: a player's words, else a message of the game), and
/// under them the chat field while open (`field`: the text before and after the cursor).
pub fn chat(lines: &[(String, bool)], field: Option<(&str, &str)>, lay: &Layout) {
    let s = lay.s;
    let width = (lay.screen.0 * 0.5)
        .max(320.0 * s)
        .min(lay.screen.0 - 20.0 * s);
    let max = chars_in(width - 16.0 * s, s);
    let mut out: Vec<(String, Color)> = lines
        .iter()
        .flat_map(|(l, said)| {
            let c = if *said {
                TEXT
            } else {
                Color::new(1.0, 0.9, 0.5, 1.0)
            };
            overlay::wrap(l, max).into_iter().map(move |w| (w, c))
        })
        .collect();
    if let Some((before, after)) = field {
        let cursor = if (get_time() * 2.0) as i64 % 2 == 0 {
            "|"
        } else {
            " "
        };
        let text = format!("Say: {before}{cursor}{after}");
        // The end of a long line shows, where the cursor usually is.
        let keep = text.chars().count().saturating_sub(max.max(8));
        out.push((text.chars().skip(keep).collect(), TEXT));
    }
    if out.is_empty() {
        return;
    }
    let h = out.len() as f32 * 21.0 * s + 16.0 * s;
    let y = above_hotbar(h, lay);
    if field.is_some() {
        draw_rectangle(10.0 * s, y, width, h, PANEL);
    }
    for (i, (line, color)) in out.iter().enumerate() {
        let ly = y + 8.0 * s + (i as f32 + 0.78) * 21.0 * s;
        text::draw(line, 19.0 * s, ly + s, font(s) as f32, BLACK);
        text::draw(line, 18.0 * s, ly, font(s) as f32, *color);
    }
}

/// The player list Tab holds, near the top ([`super::ui::chat::list_layout`]).
pub fn player_list(names: &[String], screen: (f32, f32), s: f32) {
    let col = names
        .iter()
        .map(|n| width_of(n, s) / s)
        .fold(160.0, f32::max)
        + 24.0;
    let l = super::ui::chat::list_layout(names.len(), col, screen, s);
    draw_rectangle(l.panel.x, l.panel.y, l.panel.w, l.panel.h, PANEL);
    let title = format!("Players: {}", names.len());
    let size = font(s) as f32;
    text::draw(&title, l.title.x, l.title.y + 0.78 * l.title.h, size, DIM);
    for (r, name) in l.rows.iter().zip(names) {
        text::draw(name, r.x, r.y + 0.78 * r.h, size, TEXT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preset_menu_lays_out_only_the_rows_that_fit() {
        use std::cell::Cell;
        for screen in [(1280.0, 720.0), (800.0, 600.0), (1920.0, 1080.0)] {
            let s = scale(screen);
            let fit = ((screen.1 - 40.0 * s) / (ROW * s)).floor() as usize - 2;
            for n in [0usize, 3, 5_000, 20_000] {
                for selected in [0, n / 2, n.saturating_sub(1)] {
                    let (first, shown) = menu_window(n, selected, screen.1, s);
                    assert!(shown <= fit && shown == n.min(fit), "{n}: {shown} rows");
                    if n > 0 {
                        assert!((first..first + shown).contains(&selected));
                    }
                    assert!(first + shown <= n);
                    let asked = Cell::new(0);
                    let label = |i: usize| {
                        asked.set(asked.get() + 1);
                        format!("preset-{i}")
                    };
                    let lines = menu_lines((n, first, shown), &label, selected, Some(1));
                    assert_eq!(asked.get(), shown, "labels made for the rows shown only");
                    assert_eq!(lines.len(), 1 + shown.max(usize::from(n == 0)));
                    if n > 0 {
                        let at = selected - first + 1;
                        assert!(lines[at].0.starts_with('>'), "{:?}", lines[at]);
                    }
                }
            }
        }
    }

    #[test]
    fn the_hud_fits_a_640x480_window_and_the_default_one() {
        use super::layout::{Open, layout};
        for screen in [(640.0, 480.0), (1280.0, 720.0)] {
            let s = scale(screen);
            // The minimap of the largest preset in its corner, clear of the hotbar.
            for world in [(8400, 2400), (1000, 500), (16_384, 4096)] {
                let open = Open {
                    world,
                    minimap: true,
                    ..Default::default()
                };
                let l = layout(screen, s, &open);
                let slots = l.hotbar;
                let last = slots[slots.len() - 1];
                assert!(
                    slots[0].x >= 0.0 && last.x + last.w <= screen.0,
                    "{screen:?}"
                );
                // The status line under the hotbar, the caption and notice room above it.
                assert!(slots[0].y + slots[0].h <= screen.1 - 26.0 * s, "{screen:?}");
                assert!(l.caption.y > screen.1 / 2.0, "{screen:?}");
                let m = l.minimap.unwrap();
                assert!(m.x >= 0.0 && m.x + m.w <= screen.0, "{screen:?} {world:?}");
                assert!(m.y + m.h < l.caption.y, "{screen:?}");
            }
        }
    }

    #[test]
    fn the_players_ui_scale_multiplies_the_windows() {
        assert_eq!(scale_for(720.0, 1.0), 1.0);
        assert_eq!(scale_for(1440.0, 1.5), 3.0);
        assert_eq!(scale_for(480.0, 1.0), 0.7, "never below 0.7 of the design");
        assert_eq!(scale_for(480.0, 2.0), 1.4);
    }

    #[test]
    fn the_legend_wraps_into_columns_that_fit_its_room() {
        // 26 lines of 20 px: one column in 600 px, two of 13 in 300 px, all rows fit.
        assert_eq!(legend_rows(26, 600.0, 20.0), 26);
        assert_eq!(legend_rows(26, 300.0, 20.0), 13);
        for room in [20.0, 95.0, 150.0, 333.0, 519.0] {
            let rows = legend_rows(26, room, 20.0);
            assert!(rows as f32 * 20.0 <= room.max(20.0), "{room}: {rows} rows");
            assert!(26usize.div_ceil(rows) * rows >= 26);
        }
        assert_eq!(legend_rows(26, -5.0, 20.0), 1);
    }

    #[test]
    fn the_load_list_keeps_the_selection_in_view_and_on_screen() {
        for screen in [(1280.0, 720.0), (640.0, 360.0)] {
            let s = scale(screen);
            for n in [1, 3, 40] {
                for selected in [0, n / 2, n - 1] {
                    let rows = load_rects(n, selected, screen, s);
                    assert!(rows.iter().any(|&(i, _)| i == selected), "{n} {selected}");
                    for (_, r) in &rows {
                        assert!(r.y >= 0.0 && r.y + r.h <= screen.1, "{screen:?} {r:?}");
                    }
                    for w in rows.windows(2) {
                        assert_eq!(w[1].0, w[0].0 + 1);
                    }
                }
            }
        }
        assert!(load_rects(0, 0, (1280.0, 720.0), 1.0).is_empty());
    }

    #[test]
    fn the_error_box_stays_clear_of_the_hotbar_at_every_size() {
        use super::layout::layout;
        for screen in [
            (1280.0, 720.0),
            (800.0, 600.0),
            (640.0, 360.0),
            (1920.0, 1080.0),
        ] {
            let s = scale(screen);
            let l = layout(screen, s, &Default::default());
            // The playtest's message: a heading, two wrapped lines, the hint.
            let h = 4.0 * 21.0 * s + 16.0 * s;
            let top = above_hotbar(h, &l);
            let hotbar = l.hotbar[0].y;
            assert!(top >= 0.0, "{screen:?}");
            assert!(
                top + h <= hotbar - 40.0 * s,
                "{screen:?}: box ends at {} and the hotbar's name begins near {}",
                top + h,
                hotbar - 22.0 * s
            );
        }
        // A window too short for it: drawn from the top rather than off screen.
        let l = layout((300.0, 200.0), scale((300.0, 200.0)), &Default::default());
        assert_eq!(above_hotbar(400.0, &l), 4.0 * l.s);
    }
}
