//! Where the game's panels go on screen. One pure function, [`layout`], places every
//! panel for a window size, the UI scale and what is open (the hotbar and the status line,
//! the hearts, the minimap, the inventory with the crafting panel or a chest, the world
//! lab's panel and its noise field in the three bases side by side, the help screen, a
//! message at the top), and the panels' drawing and their
//! mouse hit tests read its rectangles. No two of them overlap and each fits the window;
//! the tests check that at 1280x720, 1920x1080 and 800x600 over the UI scale's range.
//!
//! A UI scale too large for the window is held to the largest that fits (see [`cap`]):
//! the layout never pushes a panel off screen to honour it.

use crate::sim::edit::HOTBAR_SLOTS;
use crate::sim::vitals::HEARTS;
use crate::world::chest::{BANK_SLOTS, CHEST_SLOTS};
use crate::world::inventory::{ACCESSORY_SLOTS, SLOTS};
use macroquad::math::Rect;

/// What is on screen besides the hotbar and the status line, which always are.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Open {
    /// The world's size in tiles (the minimap keeps its aspect).
    pub world: (usize, usize),
    pub minimap: bool,
    /// The hearts and the clock (the play camera).
    pub vitals: bool,
    /// The inventory screen, with the crafting panel beside it (or `chest`).
    pub inventory: bool,
    pub chest: bool,
    /// The chest open is a piggy bank: its panel holds the bank's slots.
    pub bank: bool,
    /// The world lab's panel, docked at the right: the world is fitted beside it.
    pub lab: bool,
    /// The lab's noise field in the three bases side by side (each the world's left
    /// third), in the lab's room.
    pub bases: bool,
    pub help: bool,
    /// The progress bar at the top (a world being made).
    pub progress: bool,
    /// A message at the top, its text's width at scale 1.
    pub toast: Option<f32>,
    /// The F3 figures at the top left: a message goes to the right, under the minimap.
    pub overlay: bool,
}

/// Every panel's rectangle, in logical pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub screen: (f32, f32),
    /// The scale the panels are drawn at: the player's, held to what fits the window.
    pub s: f32,
    /// Where the world is seen: the window, or left of the lab's panel and above the
    /// status line while the lab is open.
    pub room: Rect,
    pub status: Rect,
    pub hotbar: [Rect; HOTBAR_SLOTS],
    /// Above the hotbar: the selected item's name and short messages.
    pub caption: Rect,
    /// The hearts, their breath bubbles and the clock beside them.
    pub vitals: Option<Rect>,
    pub hearts: [Rect; HEARTS],
    /// The map itself; [`Layout::minimap_frame`] is what it draws (its border and the
    /// biome strip under it).
    pub minimap: Option<Rect>,
    pub progress: Option<Rect>,
    pub toast: Option<Rect>,
    /// The inventory's slots (four rows of nine, the hotbar's row first) and the panel
    /// they and their title take.
    pub slots: Option<[Rect; SLOTS]>,
    pub inventory: Option<Rect>,
    /// An open chest's slots (three rows of nine; a piggy bank's forty, in rows of nine)
    /// and their panel, where the crafting panel is otherwise.
    pub chest_slots: Option<Vec<Rect>>,
    pub chest: Option<Rect>,
    /// The armour worn (head, body, legs) and their panel (with the defence beside them),
    /// right of the centre: under an open chest, else above the crafting panel.
    pub armour_slots: Option<[Rect; 3]>,
    /// The accessory slots, in the armour's row after the armour.
    pub accessory_slots: Option<[Rect; ACCESSORY_SLOTS]>,
    pub armour: Option<Rect>,
    /// The open chest's loot all and deposit all buttons, in its title line.
    pub chest_buttons: Option<[Rect; 2]>,
    /// The crafting panel (title and rows) and its rows.
    pub crafting: Option<Rect>,
    pub recipe_rows: Vec<Rect>,
    pub lab: Option<Rect>,
    /// The three bases' panels side by side in the lab's room, each a label line over its
    /// picture ([`Layout::base_picture`]).
    pub bases: Option<[Rect; 3]>,
    /// The room the help screen is drawn in (clear of the hotbar and the status line).
    pub help: Option<Rect>,
    /// The room of the menus drawn over the game (the preset menu): above the hotbar.
    pub dialog: Rect,
}

/// Height of the status line at scale 1.
pub const STATUS_H: f32 = 26.0;
/// Room kept above the hotbar for the selected item's name and a message, at scale 1.
pub const ABOVE_HOTBAR: f32 = 56.0;
/// Side of a slot and the gap between slots, at scale 1.
pub const SIDE: f32 = 44.0;
pub const GAP: f32 = 4.0;
/// Height of a crafting row at scale 1.
const RECIPE_H: f32 = 34.0;
/// Widest the lab's panel gets, at scale 1.
const LAB_W: f32 = 460.0;
/// Width of the clock's text left of the hearts, at scale 1 (`23:59  100/100  night`).
const CLOCK_W: f32 = 200.0;
/// Top of the hearts' row, and the band the hearts, their bubbles and the clock take.
const VITALS_Y: f32 = 12.0;
const VITALS_H: f32 = 44.0;
/// Top of the minimap at scale 1, under the hearts' band.
const MINIMAP_Y: f32 = VITALS_Y + VITALS_H + 4.0;
/// The inventory's title line above the slots.
const TITLE_H: f32 = 30.0;
/// The band at the top that the progress bar and a message under it take, at scale 1.
const TOP_BAND: f32 = VITALS_Y + 30.0 + 6.0 + 37.0;
/// The line over each basis' panel that names it, at scale 1 (the UI's 18-point font).
pub const BASE_LABEL_H: f32 = 24.0;
/// The gap between the bases' panels, at scale 1.
const BASE_GAP: f32 = 8.0;

/// Widest arrangement at scale 1: the hotbar (and margins) beside the lab's panel.
const WIDE: f32 = LAB_W + HOTBAR_SLOTS as f32 * (SIDE + GAP) - GAP + 20.0;
/// Tallest at scale 1, beside the minimap's quarter of the window: the hearts' band, the
/// minimap's border and strip, the inventory's title and four rows, the caption, the
/// hotbar and the status line.
const TALL: f32 = MINIMAP_Y
    + 16.0
    + TITLE_H
    + 4.0 * (SIDE + GAP)
    + 8.0
    + 8.0
    + ABOVE_HOTBAR
    + SIDE
    + 8.0
    + STATUS_H;

/// The largest scale at which everything fits a window of `screen`.
pub fn cap(screen: (f32, f32)) -> f32 {
    (screen.0 / WIDE).min(0.75 * screen.1 / TALL)
}

/// A rectangle from its edges.
fn edges(x0: f32, y0: f32, x1: f32, y1: f32) -> Rect {
    Rect::new(x0, y0, (x1 - x0).max(0.0), (y1 - y0).max(0.0))
}

/// Whether two rectangles share any area (touching edges do not).
pub fn overlap(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

/// Places every panel for a window of `screen` at UI scale `scale` (the window's and the
/// player's, [`crate::game::ui::scale_for`]) with what `open` says is open.
pub fn layout(screen: (f32, f32), scale: f32, open: &Open) -> Layout {
    let s = scale.min(cap(screen)).max(0.1);
    let status = Rect::new(0.0, screen.1 - STATUS_H * s, screen.0, STATUS_H * s);
    let lab = open.lab.then(|| lab_panel(screen, s));
    let room = match lab {
        Some(p) => edges(0.0, 0.0, p.x, status.y),
        None => Rect::new(0.0, 0.0, screen.0, screen.1),
    };
    let hotbar = hotbar(room, status.y, s);
    let caption = edges(
        hotbar[0].x,
        hotbar[0].y - ABOVE_HOTBAR * s,
        hotbar[HOTBAR_SLOTS - 1].right(),
        hotbar[0].y,
    );
    let hearts = heart_rects(screen, s);
    let vitals = open.vitals.then(|| {
        edges(
            hearts[0].x - (10.0 + CLOCK_W) * s,
            VITALS_Y * s,
            screen.0 - 4.0 * s,
            (VITALS_Y + VITALS_H) * s,
        )
    });
    // The help screen takes the window above the hotbar: the hearts and the minimap
    // wait under it.
    let vitals = vitals.filter(|_| !open.help);
    let minimap = (open.minimap && !open.help).then(|| minimap_rect(open.world, room, s));
    let map_x = minimap.map_or(f32::MAX, |m| m.x - 3.0);
    // Progress bar and message: centred at the top of the room, between the left edge
    // and what is at the top right.
    let right = vitals
        .map_or(room.right(), |v| v.x)
        .min(room.right())
        .min(map_x);
    // Centred in the room when that leaves it clear of the top right, else centred
    // between the room's left edge and what is at the top right.
    let centred = |w: f32, y: f32, h: f32| {
        let c = room.x + room.w / 2.0;
        let half = (c - room.x - 10.0 * s).min(right - 10.0 * s - c);
        if w <= 2.0 * half {
            return Rect::new(c - w / 2.0, y, w, h);
        }
        let (a, b) = (room.x + 10.0 * s, (right - 10.0 * s).max(room.x + 10.0 * s));
        let w = w.min(b - a);
        Rect::new((a + b - w) / 2.0, y, w, h)
    };
    let progress = open
        .progress
        .then(|| centred(420.0 * s, VITALS_Y * s, 30.0 * s));
    let toast = open.toast.map(|w| {
        let (w, h) = (w * s + 16.0 * s, 37.0 * s);
        if open.overlay && !open.inventory && !open.help {
            // Clear of the figures: at the right, under the hearts, the minimap and the
            // progress bar.
            let under = [
                minimap.map(|m| m.bottom() + 3.0 + strip_h(s)),
                vitals.map(|v| v.bottom()),
                progress.map(|p| p.bottom()),
            ]
            .into_iter()
            .flatten()
            .fold((VITALS_Y - 6.0) * s, f32::max);
            let w = w.min(room.w * 0.45);
            return Rect::new(room.right() - 10.0 * s - w, under + 6.0 * s, w, h);
        }
        let y = progress.map_or(VITALS_Y * s, |p| p.bottom() + 6.0 * s);
        centred(w, y, h)
    });
    let mut out = Layout {
        screen,
        s,
        room,
        status,
        hotbar,
        caption,
        vitals,
        hearts,
        minimap,
        progress,
        toast,
        slots: None,
        inventory: None,
        chest_slots: None,
        chest: None,
        armour_slots: None,
        accessory_slots: None,
        armour: None,
        chest_buttons: None,
        crafting: None,
        recipe_rows: Vec::new(),
        lab,
        bases: None,
        help: None,
        dialog: edges(4.0 * s, 4.0 * s, screen.0 - 4.0 * s, caption.y - 4.0 * s),
    };
    if open.inventory {
        let shown = if open.bank { BANK_SLOTS } else { CHEST_SLOTS };
        out.place_inventory(open.chest.then_some(shown));
    }
    if open.lab && open.bases {
        out.place_bases(open.world);
    }
    if open.help {
        let top = toast.or(progress).map_or(0.0, |r| r.bottom());
        out.help = Some(edges(
            4.0 * s,
            top + 4.0 * s,
            screen.0 - 4.0 * s,
            caption.y - 4.0 * s,
        ));
    }
    out
}

/// The world lab's panel: docked at the right, down to the status line.
pub fn lab_panel(screen: (f32, f32), s: f32) -> Rect {
    let w = (LAB_W * s).min(screen.0 * 0.55);
    Rect::new(screen.0 - w, 0.0, w, (screen.1 - STATUS_H * s).max(0.0))
}

/// The hotbar's slots, centred in `room` above the status line's top `bottom`.
fn hotbar(room: Rect, bottom: f32, s: f32) -> [Rect; HOTBAR_SLOTS] {
    let (side, gap) = (SIDE * s, GAP * s);
    let total = HOTBAR_SLOTS as f32 * side + (HOTBAR_SLOTS - 1) as f32 * gap;
    let x0 = (room.x + (room.w - total) / 2.0).round();
    let y = (bottom - side - 8.0 * s).round();
    std::array::from_fn(|i| Rect::new(x0 + i as f32 * (side + gap), y, side, side))
}

/// The hearts: a row at the top right.
fn heart_rects(screen: (f32, f32), s: f32) -> [Rect; HEARTS] {
    let side = 22.0 * s;
    let gap = 4.0 * s;
    let x0 = screen.0 - 10.0 * s - HEARTS as f32 * (side + gap) + gap;
    std::array::from_fn(|i| {
        Rect::new(
            (x0 + i as f32 * (side + gap)).round(),
            (VITALS_Y * s).round(),
            side,
            side,
        )
    })
}

/// The minimap: at most 360 px wide (scaled) and 45% of the room, a quarter of the window
/// high, keeping the world's aspect, at the top right of the room under the hearts.
fn minimap_rect(world: (usize, usize), room: Rect, s: f32) -> Rect {
    let world = (world.0.max(1) as f32, world.1.max(1) as f32);
    let max_w = (360.0 * s).min(room.w * 0.45);
    let max_h = (room.y + room.h) / 4.0;
    let k = (max_w / world.0).min(max_h / world.1);
    let (w, h) = ((world.0 * k).round(), (world.1 * k).round());
    Rect::new(
        (room.right() - w - 10.0 * s).round(),
        // Its border (3 px) clear of the hearts' band.
        ((VITALS_Y + VITALS_H) * s + 4.0).ceil(),
        w,
        h,
    )
}

/// Height of the minimap's biome strip at scale `s`.
pub fn strip_h(s: f32) -> f32 {
    (4.0 * s).round().max(3.0)
}

impl Layout {
    /// What the minimap draws: the map, its border and the biome strip under it.
    pub fn minimap_frame(&self) -> Option<Rect> {
        self.minimap
            .map(|r| Rect::new(r.x - 3.0, r.y - 3.0, r.w + 6.0, r.h + 6.0 + strip_h(self.s)))
    }

    /// The inventory screen: the slots left of the centre, the crafting panel (or the
    /// chest) right of it, both under the minimap when it is open.
    fn place_inventory(&mut self, chest: Option<usize>) {
        let (s, screen) = (self.s, self.screen);
        let under_map = self
            .minimap_frame()
            .map_or(0.0, |m| m.bottom() + TITLE_H * s + 4.0 * s);
        // Under the progress bar and a message at the top, whether or not they show, so
        // the screen does not move when one comes and goes.
        let under_top = (TOP_BAND + 4.0 + TITLE_H) * s;
        let y0 = under_top.max(under_map).round();
        let x0 = (screen.0 * 0.5 - 9.0 * (SIDE + GAP) * s - 8.0 * s)
            .round()
            .max(8.0 * s);
        let slots: [Rect; SLOTS] = grid(x0, y0, s, 8.0 * s);
        let title = |r: &[Rect], bottom: f32| edges(r[0].x, y0 - TITLE_H * s, r[8].right(), bottom);
        self.inventory = Some(title(&slots, slots[SLOTS - 1].bottom()));
        self.slots = Some(slots);
        let x = (screen.0 * 0.5 + 8.0 * s).round();
        // The armour row (a line of text beside it: the defence) right of the centre:
        // under an open chest, else above the crafting panel.
        // The accessories follow the armour in the same row.
        let armour_row = |top: f32| -> ([Rect; 3], [Rect; ACCESSORY_SLOTS], Rect) {
            let r: [Rect; 3 + ACCESSORY_SLOTS] = grid(x, top, s, 0.0);
            let right = (x + 9.0 * (SIDE + GAP) * s - GAP * s).min(screen.0 - 12.0 * s);
            let armour = std::array::from_fn(|i| r[i]);
            let extra = std::array::from_fn(|i| r[3 + i]);
            (armour, extra, edges(x, top, right, r[0].bottom()))
        };
        if let Some(n) = chest {
            let all: [Rect; BANK_SLOTS] = grid(x, y0, s, 0.0);
            let c = all[..n.min(BANK_SLOTS)].to_vec();
            // Loot all and deposit all at the right of the chest's title line.
            let (w, h) = (3.0 * (SIDE + GAP) * s - GAP * s, TITLE_H * s - 6.0 * s);
            let right = c[8].right();
            let top = y0 - TITLE_H * s + 2.0 * s;
            self.chest_buttons = Some([
                Rect::new(right - 2.0 * w - GAP * s, top, w, h),
                Rect::new(right - w, top, w, h),
            ]);
            let last = c[c.len() - 1];
            self.chest = Some(title(&c, last.bottom()));
            self.chest_slots = Some(c);
            let (r, extra, panel) = armour_row(last.bottom() + 12.0 * s);
            self.armour_slots = Some(r);
            self.accessory_slots = Some(extra);
            self.armour = Some(panel);
            return;
        }
        let (r, extra, panel) = armour_row(y0 - 4.0 * s);
        self.armour_slots = Some(r);
        self.accessory_slots = Some(extra);
        self.armour = Some(panel);
        let y0 = panel.bottom() + 8.0 * s;
        let w = (screen.0 - x - 12.0 * s).min(620.0 * s);
        let h = RECIPE_H * s;
        let top = y0 + 24.0 * s;
        let bottom = self.caption.y - 4.0 * s;
        let rows = ((bottom - top) / h).floor().max(0.0) as usize;
        self.recipe_rows = (0..rows)
            .map(|i| Rect::new(x, top + i as f32 * h, w, h - 2.0 * s))
            .collect();
        let end = self.recipe_rows.last().map_or(top, |r| r.bottom());
        self.crafting = Some(edges(x, y0 - 4.0 * s, x + w, end));
    }

    /// The three bases' panels: side by side in the lab's room, under what is at its top
    /// (the minimap, the band of the progress bar and a message) and above the hotbar's caption, each
    /// picture keeping the shape of the world's left third and centred under its label.
    fn place_bases(&mut self, world: (usize, usize)) {
        let s = self.s;
        let gap = (BASE_GAP * s).round();
        // Under the progress bar and a message whether or not they show, so the panels
        // stay put while the lab's edits regenerate the world.
        let top = [self.minimap_frame(), self.progress, self.toast]
            .into_iter()
            .flatten()
            .map(|r| r.bottom())
            .fold(self.room.y + TOP_BAND * s, f32::max);
        let area = edges(
            self.room.x + gap,
            top + gap,
            self.room.right() - gap,
            self.caption.y - gap,
        );
        let aspect = third_aspect(world);
        let col = ((area.w - 2.0 * gap) / 3.0).floor().max(1.0);
        let label = BASE_LABEL_H * s;
        let pic_h = (col / aspect).min(area.h - label).max(1.0).floor();
        let h = label + pic_h;
        let x0 = (area.x + (area.w - 3.0 * col - 2.0 * gap) / 2.0).round();
        let y = (area.y + (area.h - h) / 2.0).max(area.y).round();
        self.bases = Some(std::array::from_fn(|i| {
            Rect::new(x0 + i as f32 * (col + gap), y, col, h)
        }));
    }

    /// Where basis `i`'s picture goes in its panel: under the label, as wide as the
    /// world's left third allows at the panel's height, centred.
    pub fn base_picture(&self, i: usize, world: (usize, usize)) -> Option<Rect> {
        let p = self.bases?.get(i).copied()?;
        let label = BASE_LABEL_H * self.s;
        let aspect = third_aspect(world);
        let h = p.h - label;
        let w = (h * aspect).min(p.w).max(1.0).floor();
        Some(Rect::new(
            (p.x + (p.w - w) / 2.0).round(),
            p.y + label,
            w,
            h,
        ))
    }

    /// Every panel placed, by name (for the tests, and a log line).
    pub fn panels(&self) -> Vec<(&'static str, Rect)> {
        let hb = edges(
            self.hotbar[0].x,
            self.hotbar[0].y,
            self.hotbar[HOTBAR_SLOTS - 1].right(),
            self.hotbar[0].bottom(),
        );
        let mut out = vec![
            ("status", self.status),
            ("hotbar", hb),
            ("caption", self.caption),
        ];
        let named = [
            ("vitals", self.vitals),
            ("minimap", self.minimap_frame()),
            ("progress", self.progress),
            ("toast", self.toast),
            ("inventory", self.inventory),
            ("chest", self.chest),
            ("crafting", self.crafting),
            ("armour", self.armour),
            ("lab", self.lab),
            ("help", self.help),
        ];
        out.extend(named.into_iter().filter_map(|(n, r)| r.map(|r| (n, r))));
        let names = ["bases.perlin", "bases.simplex", "bases.value"];
        out.extend(self.bases.iter().flat_map(|b| names.into_iter().zip(*b)));
        out
    }

    /// The hotbar slot under screen point `p`.
    pub fn hotbar_at(&self, p: (f32, f32)) -> Option<usize> {
        self.hotbar.iter().position(|r| contains(r, p))
    }

    /// Height of the HUD over the bottom of the screen (status line and hotbar): the play
    /// camera lifts the world's floor above it.
    pub fn bottom_px(&self) -> f32 {
        self.screen.1 - self.hotbar[0].y
    }
}

/// Width over height of the world's left third, which each basis' picture shows.
fn third_aspect(world: (usize, usize)) -> f32 {
    (world.0.max(3) / 3) as f32 / world.1.max(1) as f32
}

/// Whether `r` holds point `p`.
pub fn contains(r: &Rect, p: (f32, f32)) -> bool {
    p.0 >= r.x && p.0 < r.x + r.w && p.1 >= r.y && p.1 < r.y + r.h
}

/// `N` slots in rows of nine from `(x0, y0)`, the rows after the first `drop` lower (the
/// hotbar's row stands apart).
fn grid<const N: usize>(x0: f32, y0: f32, s: f32, drop: f32) -> [Rect; N] {
    let (side, gap) = (SIDE * s, GAP * s);
    std::array::from_fn(|i| {
        let (c, r) = ((i % 9) as f32, (i / 9) as f32);
        let extra = if r > 0.0 { drop } else { 0.0 };
        Rect::new(
            x0 + c * (side + gap),
            y0 + r * (side + gap) + extra,
            side,
            side,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::noise::Basis;
    use crate::game::settings::UI_SCALE;

    const SIZES: [(f32, f32); 3] = [(1280.0, 720.0), (1920.0, 1080.0), (800.0, 600.0)];

    /// Every combination of what can be open together.
    fn opens(world: (usize, usize)) -> Vec<Open> {
        let mut out = Vec::new();
        for bits in 0..32u32 {
            // The inventory (with or without a chest), the lab (with or without the bases
            // side by side) and the help screen are modes: one at a time.
            for mode in 0..6 {
                let b = |k: u32| bits & (1 << k) != 0;
                let open = Open {
                    world,
                    minimap: b(0),
                    vitals: b(1),
                    inventory: mode == 1 || mode == 2,
                    chest: mode == 2,
                    bank: false,
                    lab: mode == 3 || mode == 5,
                    bases: mode == 5,
                    help: mode == 4,
                    progress: b(2),
                    toast: b(3).then_some(110.0),
                    overlay: b(4),
                };
                // The lab has the free camera: no hearts.
                if open.lab && open.vitals {
                    continue;
                }
                out.push(open);
            }
        }
        out
    }

    fn ui_scales() -> Vec<f64> {
        let mut v = Vec::new();
        let mut k = UI_SCALE.0;
        while k <= UI_SCALE.1 + 1e-9 {
            v.push(k);
            k += 0.25;
        }
        v
    }

    #[test]
    fn no_two_panels_overlap_and_every_panel_fits_the_window() {
        for screen in SIZES {
            for user in ui_scales() {
                let scale = crate::game::ui::scale_for(screen.1, user as f32);
                for world in [(6400, 1800), (8400, 2400), (1000, 1000), (200, 2000)] {
                    for open in opens(world) {
                        let l = layout(screen, scale, &open);
                        let panels = l.panels();
                        for (name, r) in &panels {
                            assert!(
                                r.x >= 0.0
                                    && r.y >= 0.0
                                    && r.right() <= screen.0 + 0.5
                                    && r.bottom() <= screen.1 + 0.5
                                    && r.w > 0.0
                                    && r.h > 0.0,
                                "{screen:?} x{user} {open:?}: {name} {r:?} off screen"
                            );
                        }
                        for (i, (a, ra)) in panels.iter().enumerate() {
                            for (b, rb) in &panels[i + 1..] {
                                assert!(
                                    !overlap(ra, rb),
                                    "{screen:?} x{user} {open:?}: {a} {ra:?} overlaps {b} {rb:?}"
                                );
                            }
                        }
                        // The menus' room is clear of the hotbar, its caption and the
                        // status line.
                        for (name, r) in &panels[..3] {
                            assert!(!overlap(&l.dialog, r), "{screen:?} x{user}: {name}");
                        }
                        assert!(l.dialog.h > screen.1 / 2.0, "{screen:?} x{user}");
                        // Slots inside their panels, the crafting panel shows rows.
                        if let (Some(p), Some(sl)) = (l.inventory, l.slots) {
                            assert!(sl.iter().all(|q| inside(q, &p)));
                        }
                        if let (Some(p), Some(sl)) = (l.chest, &l.chest_slots) {
                            assert!(sl.iter().all(|q| inside(q, &p)));
                        }
                        if let (Some(p), Some(b)) = (l.chest, l.chest_buttons) {
                            assert!(b.iter().all(|q| inside(q, &p)));
                        }
                        if let (Some(p), Some(sl)) = (l.armour, l.armour_slots) {
                            assert!(sl.iter().all(|q| inside(q, &p)));
                        }
                        if let (Some(p), Some(sl)) = (l.armour, l.accessory_slots) {
                            assert!(sl.iter().all(|q| inside(q, &p)));
                        }
                        if let Some(p) = l.crafting {
                            assert!(l.recipe_rows.len() >= 3, "{screen:?} x{user}");
                            assert!(l.recipe_rows.iter().all(|q| inside(q, &p)));
                        }
                    }
                }
            }
        }
    }

    fn inside(a: &Rect, b: &Rect) -> bool {
        a.x >= b.x && a.y >= b.y && a.right() <= b.right() + 0.01 && a.bottom() <= b.bottom() + 0.01
    }

    #[test]
    fn the_players_scale_is_kept_where_it_fits_and_held_where_it_does_not() {
        // The default scale at each size is the window's own.
        for screen in SIZES {
            let scale = crate::game::ui::scale_for(screen.1, 1.0);
            assert_eq!(
                layout(screen, scale, &Open::default()).s,
                scale,
                "{screen:?}"
            );
        }
        // Three times the design at 800x600 would not fit the hotbar: held to what does.
        let big = crate::game::ui::scale_for(600.0, 3.0);
        let l = layout((800.0, 600.0), big, &Open::default());
        assert!(l.s < big && l.s >= 0.8, "{}", l.s);
        assert!(l.hotbar[HOTBAR_SLOTS - 1].right() <= 800.0);
    }

    #[test]
    fn the_lab_leaves_the_world_a_room_and_the_hotbar_is_centred_in_it() {
        for screen in SIZES {
            let s = crate::game::ui::scale_for(screen.1, 1.0);
            let l = layout(
                screen,
                s,
                &Open {
                    lab: true,
                    minimap: true,
                    world: (6400, 1800),
                    ..Default::default()
                },
            );
            let p = l.lab.unwrap();
            assert_eq!(p.right(), screen.0);
            assert_eq!(l.room.right(), p.x, "{screen:?}");
            assert_eq!(l.room.bottom(), l.status.y);
            let (a, b) = (l.hotbar[0].x, l.hotbar[HOTBAR_SLOTS - 1].right());
            assert!(
                b <= p.x,
                "{screen:?}: slot 9 ends at {b}, the panel begins at {}",
                p.x
            );
            assert!((a - (p.x - b)).abs() <= 1.0, "centred: {a} {b} {}", p.x);
            assert!(l.minimap_frame().unwrap().right() <= p.x);
        }
    }

    #[test]
    fn the_bases_side_by_side_fit_the_labs_room_with_their_labels() {
        // The widest of the names, at an upper bound of the UI font's advance per
        // character (11 px at scale 1, its digits measure 10).
        let longest = Basis::ALL.iter().map(|b| b.name().len()).max().unwrap() as f32;
        for screen in SIZES {
            for user in ui_scales() {
                let scale = crate::game::ui::scale_for(screen.1, user as f32);
                for world in [
                    (8400, 2400),
                    (1000, 500),
                    (1000, 1000),
                    (200, 2000),
                    (16384, 400),
                ] {
                    for (minimap, toast) in [(false, None), (true, Some(110.0))] {
                        let open = Open {
                            world,
                            lab: true,
                            bases: true,
                            minimap,
                            toast,
                            ..Default::default()
                        };
                        let l = layout(screen, scale, &open);
                        // A world being made (the lab's edits) does not move them.
                        let busy = layout(
                            screen,
                            scale,
                            &Open {
                                progress: true,
                                toast: Some(110.0),
                                ..open
                            },
                        );
                        assert_eq!(l.bases, busy.bases, "{screen:?} x{user} {world:?}");
                        let at = format!("{screen:?} x{user} {world:?} map {minimap}");
                        let (lab, room) = (l.lab.unwrap(), l.room);
                        let hb = l.panels()[1].1;
                        let bases = l.bases.expect("placed");
                        for (i, p) in bases.iter().enumerate() {
                            assert!(inside(p, &room), "{at}: {i} {p:?} outside {room:?}");
                            assert!(!overlap(p, &lab), "{at}: {i} {p:?} under the lab");
                            assert!(!overlap(p, &hb), "{at}: {i} {p:?} on the hotbar");
                            assert!(!overlap(p, &l.caption), "{at}: {i} {p:?} on the caption");
                            let pic = l.base_picture(i, world).unwrap();
                            assert!(inside(&pic, p), "{at}: {i} picture {pic:?} out of {p:?}");
                            assert!(pic.w >= 1.0 && pic.h >= 1.0, "{at}: {i} {pic:?}");
                            // The label: a line of the UI's font, the name fits the panel.
                            assert!(pic.y - p.y >= 18.0 * l.s, "{at}: {i}");
                            assert!(p.w >= longest * 11.0 * l.s, "{at}: {i} {p:?}");
                            if i > 0 {
                                assert!(bases[i - 1].right() < p.x, "{at}: {i} in order");
                            }
                        }
                    }
                }
            }
        }
        // The default scale on a Large world: the pictures are a good size, not slivers.
        for screen in SIZES {
            let open = Open {
                world: (8400, 2400),
                lab: true,
                bases: true,
                ..Default::default()
            };
            let l = layout(screen, crate::game::ui::scale_for(screen.1, 1.0), &open);
            let pic = l.base_picture(2, open.world).unwrap();
            assert!(
                pic.w >= 0.25 * l.room.w,
                "{screen:?}: {pic:?} in {:?}",
                l.room
            );
        }
    }

    #[test]
    fn the_inventory_goes_under_the_minimap_and_the_hearts() {
        let screen = (1280.0, 720.0);
        let open = Open {
            world: (8400, 2400),
            minimap: true,
            vitals: true,
            inventory: true,
            ..Default::default()
        };
        let l = layout(screen, 1.0, &open);
        let map = l.minimap_frame().unwrap();
        assert!(l.crafting.unwrap().y >= map.bottom());
        // Without the minimap the screen starts higher.
        let high = layout(
            screen,
            1.0,
            &Open {
                minimap: false,
                ..open
            },
        );
        assert!(high.slots.unwrap()[0].y < l.slots.unwrap()[0].y);
        assert_eq!(
            l.hotbar_at((l.hotbar[4].x + 1.0, l.hotbar[4].y + 1.0)),
            Some(4)
        );
        assert_eq!(l.hotbar_at((1.0, 1.0)), None);
    }
}
