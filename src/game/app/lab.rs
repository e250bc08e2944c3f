//! The world lab in the game: F2 opens the panel over the right of the window (the world
//! stays in view on the left, in the free camera), its keys and mouse, regeneration of
//! the edited preset with the seed on screen once edits rest (a newer request cancels an
//! older one; the old world stays until the new one is ready), save as preset into the
//! user presets folder, and the pass stepper.

use super::App;
use crate::base::noise::Basis;
use crate::game::input::Mode;
use crate::game::lab::gfx::{Made, texture};
use crate::game::lab::panel::{Button, Layout, scroll_to_selection};
use crate::game::lab::views::{self, Target};
use crate::game::lab::{Entry, Lab, NoiseBases};
use crate::game::text;
use crate::game::worlds::guard::Replace;
use crate::game::worlds::worker::Source;
use crate::worldgen::noisemap;
use macroquad::prelude::*;
use std::sync::mpsc::channel;

/// What a key does in the lab.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LabKey {
    Close,
    Select(i32),
    Nudge(f64),
    Enter,
    Backspace,
    Reset,
    Undo,
    Redo,
    SaveAs,
    Step(i32),
    /// The noise overlay: the next field (or back), the next octave.
    Noise(i32),
    Octave,
    /// The noise overlay's basis: the preset's, each one, the three side by side.
    Bases,
    /// Find: the next tile kind or layer (or back); jump to the nearest.
    Find(i32),
    Jump,
}

/// The lab's keys: arrows select and step, Enter types a value (or saves the name), Del
/// resets a field, Ctrl+Z/Ctrl+Y undo and redo, Ctrl+S saves as a preset, `[`/`]` step
/// through the passes, Esc closes what is open (the entry, then the panel).
pub fn lab_key(key: KeyCode, ctrl: bool, shift: bool, typing: bool) -> Option<LabKey> {
    use KeyCode as K;
    use LabKey::*;
    let by = if shift { 10.0 } else { 1.0 };
    Some(match key {
        K::Escape => Close,
        K::Enter | K::KpEnter => Enter,
        K::Backspace if typing => Backspace,
        K::Z if ctrl && shift => Redo,
        K::Z if ctrl => Undo,
        K::Y if ctrl => Redo,
        K::S if ctrl => SaveAs,
        _ if typing => return None,
        K::Up => Select(-1),
        K::Down => Select(1),
        K::PageUp => Select(-20),
        K::PageDown => Select(20),
        K::Left => Nudge(-by),
        K::Right => Nudge(by),
        K::Delete | K::Backspace => Reset,
        K::LeftBracket => Step(-1),
        K::RightBracket => Step(1),
        K::N => Noise(if shift { -1 } else { 1 }),
        K::O => Octave,
        K::B => Bases,
        K::G => Find(if shift { -1 } else { 1 }),
        K::J => Jump,
        _ => return None,
    })
}

impl App {
    /// Keeps the noise and Find pictures in step with the lab and the world on screen:
    /// one picture is made at a time, on a thread; a finished one becomes a texture.
    pub fn lab_views_update(&mut self) {
        if let Some(rx) = &self.lab_gfx.busy {
            match rx.try_recv() {
                Ok(Made::Noise(key, size, rgba)) => {
                    self.lab_gfx.noise = Some((*key, texture(size, &rgba)));
                    self.lab_gfx.busy = None;
                }
                Ok(Made::Found(id, found)) => {
                    let tex = texture(found.size, &found.picture());
                    if let Some(lab) = &mut self.lab {
                        lab.status = found.summary();
                    }
                    self.lab_gfx.find = Some((id, found, tex));
                    self.lab_gfx.busy = None;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => return,
                Err(_) => self.lab_gfx.busy = None,
            }
        }
        let (Some(lab), Some(w)) = (&self.lab, &self.shown) else {
            return;
        };
        let world = &w.session.world;
        // The noise of the world on screen's preset and seed.
        let want = lab.noise.clone().map(|n| {
            (
                n,
                lab.octave,
                lab.noise_bases,
                world.preset.clone(),
                world.seed,
            )
        });
        if want.is_none() {
            self.lab_gfx.noise = None;
        } else if self.lab_gfx.noise.as_ref().map(|n| &n.0) != want.as_ref() {
            let key = want.unwrap_or_else(|| unreachable!());
            let (tx, rx) = channel();
            self.lab_gfx.busy = Some(rx);
            std::thread::spawn(move || {
                let (p, seed) = (&key.3, key.4);
                let step = views::step_for(p.width as usize);
                let mut size = (
                    (p.width as usize).div_ceil(step),
                    (p.height as usize).div_ceil(step),
                );
                let field = |basis, w: usize| {
                    let at = (0, 0, w, size.1, step);
                    noisemap::sample(p, seed, &key.0, (key.1, basis), at)
                };
                let made = match key.2 {
                    NoiseBases::Preset => field(None, size.0),
                    NoiseBases::One(b) => field(Some(b), size.0),
                    NoiseBases::SideBySide => {
                        // The world's left third in each basis, one panel each.
                        let w = (size.0 / 3).max(1);
                        let panels: Result<Vec<Vec<f32>>, String> =
                            Basis::ALL.iter().map(|&b| field(Some(b), w)).collect();
                        size.0 = 3 * w;
                        panels.map(|p| views::side_by_side(&p, w, size.1))
                    }
                };
                if let Ok(v) = made {
                    let _ = tx.send(Made::Noise(Box::new(key), size, views::noise_picture(&v)));
                }
            });
            return;
        }
        let target = lab.find.and_then(|i| Target::all().get(i).copied());
        match target {
            None => self.lab_gfx.find = None,
            Some(t) => {
                let current = self
                    .lab_gfx
                    .find
                    .as_ref()
                    .is_some_and(|(id, f, _)| *id == self.world_id && f.target == t);
                if !current {
                    let (tx, rx) = channel();
                    self.lab_gfx.busy = Some(rx);
                    let (world, id) = (world.clone(), self.world_id);
                    std::thread::spawn(move || {
                        let found = views::find(&world, t, views::step_for(world.width()));
                        let _ = tx.send(Made::Found(id, Box::new(found)));
                    });
                }
            }
        }
    }

    /// Draws the noise overlay and Find's marks over the world; the three bases side by
    /// side go in their panels in the lab's room, over the marks, each under its name.
    pub fn lab_views_draw(&self, screen: (f32, f32)) {
        let Some(w) = self.shown.as_ref().filter(|_| self.mode == Mode::Lab) else {
            return;
        };
        let (x0, y0) = self.cam.world_to_screen(screen, (0.0, 0.0));
        let (x1, y1) = self.cam.world_to_screen(
            screen,
            (
                w.session.world.width() as f64,
                w.session.world.height() as f64,
            ),
        );
        let params = DrawTextureParams {
            dest_size: Some(vec2(x1 - x0, y1 - y0)),
            ..Default::default()
        };
        let noise = self.lab_gfx.noise.as_ref();
        let side = noise.filter(|(k, _)| k.2 == NoiseBases::SideBySide);
        if let Some((_, tex)) = noise.filter(|_| side.is_none()) {
            draw_texture_ex(tex, x0, y0, WHITE, params.clone());
        }
        if let Some((id, _, tex)) = &self.lab_gfx.find
            && *id == self.world_id
        {
            draw_texture_ex(tex, x0, y0, WHITE, params);
        }
        if let Some((_, tex)) = side {
            self.bases_draw(tex, screen);
        }
    }

    /// The three bases' pictures (one texture, the panels left to right) where the layout
    /// puts them, each on a dark panel under its basis' name.
    fn bases_draw(&self, tex: &Texture2D, screen: (f32, f32)) {
        let lay = self.layout(screen);
        let world = self.shown.as_ref().map_or((1, 1), |w| w.size());
        let (Some(panels), s) = (lay.bases, lay.s) else {
            return;
        };
        let third = tex.width() / 3.0;
        let font = (18.0 * s).round();
        for (i, (p, basis)) in panels.iter().zip(Basis::ALL).enumerate() {
            draw_rectangle(p.x, p.y, p.w, p.h, Color::new(0.05, 0.05, 0.08, 0.85));
            let name = basis.name();
            let tw = text::measure(name, font).width;
            let label = crate::game::ui::layout::BASE_LABEL_H * s;
            let ty = p.y + label * 0.72;
            text::draw(name, p.x + (p.w - tw) / 2.0, ty, font, WHITE);
            let Some(pic) = lay.base_picture(i, world) else {
                continue;
            };
            let params = DrawTextureParams {
                dest_size: Some(vec2(pic.w, pic.h)),
                source: Some(Rect::new(i as f32 * third, 0.0, third, tex.height())),
                ..Default::default()
            };
            draw_texture_ex(tex, pic.x, pic.y, WHITE, params);
        }
    }

    /// F2: opens the panel (on the preset in use, unless unsaved edits are waiting) or
    /// closes it (the edits stay for the next time).
    pub fn toggle_lab(&mut self, screen: (f32, f32)) {
        if self.mode == Mode::Lab {
            self.mode = Mode::World;
            return;
        }
        let fresh = self
            .lab
            .as_ref()
            .is_none_or(|l| !l.unsaved() && l.edited != self.presets.preset);
        if fresh {
            self.lab = Some(Lab::new(self.presets.preset.clone()));
        }
        self.mode = Mode::Lab;
        // The world in the free camera, fitted beside the panel.
        if let Some(w) = &self.shown {
            self.follow = false;
            self.cam = crate::game::app::fit_for(w.size(), true, screen);
        }
    }

    /// A key pressed while the panel has the keyboard.
    pub fn lab_key(&mut self, key: KeyCode, ctrl: bool, shift: bool, now: f64) {
        let Some(lab) = &mut self.lab else { return };
        let typing = lab.entry != Entry::None;
        let Some(k) = lab_key(key, ctrl, shift, typing) else {
            return;
        };
        match k {
            LabKey::Close if typing => lab.entry = Entry::None,
            LabKey::Close => self.mode = Mode::World,
            LabKey::Select(by) => lab.select_by(by),
            LabKey::Nudge(by) => lab.nudge(by, now),
            LabKey::Enter => match &lab.entry {
                Entry::None => lab.begin_value(),
                Entry::Value(_) => {
                    if let Err(e) = lab.commit_value(now) {
                        lab.status = e;
                    }
                }
                Entry::Name(_) => self.lab_save(),
            },
            LabKey::Backspace => lab.backspace(),
            LabKey::Reset => lab.reset_selected(now),
            LabKey::Undo => lab.undo(now),
            LabKey::Redo => lab.redo(now),
            LabKey::SaveAs => lab.begin_name(),
            LabKey::Step(by) => {
                lab.step_by(by);
                lab.regenerate_now(now);
            }
            LabKey::Noise(dir) => {
                let names: Vec<String> = noisemap::fields(&lab.edited)
                    .into_iter()
                    .map(|f| f.name)
                    .collect();
                lab.next_noise(&names, dir);
            }
            LabKey::Bases => lab.next_noise_bases(),
            LabKey::Octave => {
                let octaves = lab.noise.as_ref().and_then(|n| {
                    noisemap::fields(&lab.edited)
                        .into_iter()
                        .find(|f| {
                            &f.name == n && matches!(n.as_str(), "surface" | "surface.relief")
                        })
                        .map(|f| f.octaves)
                });
                if let Some(o) = octaves {
                    lab.next_octave(o);
                }
            }
            LabKey::Find(dir) => {
                lab.find = crate::game::lab::cycle(lab.find, Target::all().len(), dir)
            }
            LabKey::Jump => self.jump_to_nearest(),
        }
    }

    /// Centres the camera on the occurrence Find marks nearest the view's centre.
    fn jump_to_nearest(&mut self) {
        let Some((_, found, _)) = &self.lab_gfx.find else {
            return;
        };
        if let Some((x, y)) = found.nearest((self.cam.cx, self.cam.cy)) {
            self.follow = false;
            self.cam.cx = x;
            self.cam.cy = y;
            self.cam.zoom = self.cam.zoom.max(4.0);
        }
    }

    /// A typed character while the panel has the keyboard.
    pub fn lab_char(&mut self, c: char) {
        if let Some(lab) = &mut self.lab {
            lab.type_char(c);
        }
    }

    /// Saves the edited preset under the typed name; the menu then lists it and it
    /// becomes the preset in use (the world on screen is already its world).
    fn lab_save(&mut self) {
        let Some(lab) = &mut self.lab else { return };
        // The user presets folder: the preset menu lists it first.
        let dir = self.presets.dirs[0].clone();
        match lab.commit_name(&dir) {
            Ok(path) => {
                log::info!("saved preset {}", path.display());
                lab.status = format!("Saved {}", path.display());
                if !self.presets.dirs.contains(&dir) {
                    self.presets.dirs.push(dir);
                }
                self.presets.refresh_list();
                self.presets.choose(path);
            }
            Err(e) => lab.status = format!("Not saved: {e}"),
        }
    }

    /// Starts the edited preset's world once edits have rested.
    pub fn lab_update(&mut self, now: f64) {
        self.lab_views_update();
        let Some(lab) = &mut self.lab else { return };
        let Some(preset) = lab.due(now) else { return };
        let seed = self
            .shown
            .as_ref()
            .map_or(self.seed, |w| w.session.world.seed);
        self.presets.preset = preset.clone();
        self.seed = seed;
        lab.asked = Some(now);
        log::debug!(
            "lab asks for seed {seed} with {}",
            match lab.changes() {
                c if c.is_empty() => "the preset as loaded".to_string(),
                c => c.join(", "),
            }
        );
        let step = lab.step;
        if self.unsaved() {
            // Edits to the world on screen are saved first, as for a preset file's reload.
            self.request(Replace::HotReload(Box::new(preset)), now);
            return;
        }
        match step {
            Some(k) => self
                .worker
                .start_from(Source::Partial(Box::new(preset), seed, k)),
            None => self.worker.start(preset, seed),
        }
    }

    /// A new world is on screen: the lab logs how long it took from the edit.
    pub fn lab_swapped(&mut self, now: f64, hash: u64) {
        if let Some(lab) = &mut self.lab
            && let Some(at) = lab.asked.take()
        {
            let ms = (now - at) * 1e3;
            log::debug!("lab world {hash:016x} on screen {ms:.0} ms after the edit rested");
            lab.status = format!("World on screen {ms:.0} ms after the edit");
        }
    }

    /// The mouse on the panel: sliders (click or drag), toggles, choices, reset marks,
    /// buttons, the wheel scrolls. Returns whether the panel had the mouse.
    pub fn lab_mouse(&mut self, screen: (f32, f32), now: f64) -> bool {
        let layout = Layout::new(screen, crate::game::ui::scale(screen));
        let Some(lab) = &mut self.lab else {
            return false;
        };
        let (mx, my) = mouse_position();
        if is_mouse_button_released(MouseButton::Left) {
            lab.end_drag();
        }
        if let Some(row) = lab.dragging {
            if let Some((f, i)) = lab.field_at(row) {
                let v = layout.slider_value(f, &lab.edited, mx);
                lab.set(f, i, Some(v), now);
            }
            return true;
        }
        if !layout.panel.contains(vec2(mx, my)) {
            return false;
        }
        let wheel = mouse_wheel().1;
        if wheel != 0.0 {
            let rows = lab.rows().len();
            let by = if wheel > 0.0 { -3 } else { 3 };
            lab.scroll = (lab.scroll as i64 + by)
                .clamp(0, rows.saturating_sub(layout.rows_shown) as i64)
                as usize;
        }
        if !is_mouse_button_pressed(MouseButton::Left) {
            return true;
        }
        if let Some((b, _)) = layout
            .buttons()
            .into_iter()
            .find(|(_, r)| r.contains(vec2(mx, my)))
        {
            match b {
                Button::Save => lab.begin_name(),
                Button::Undo => lab.undo(now),
                Button::Redo => lab.redo(now),
                Button::Close => self.mode = Mode::World,
            }
            return true;
        }
        let Some(row) = layout.row_at(lab.scroll, my) else {
            return true;
        };
        let Some((f, i)) = lab.field_at(row) else {
            return true;
        };
        lab.selected = row;
        lab.entry = Entry::None;
        if layout.reset_rect(row - lab.scroll).contains(vec2(mx, my)) {
            lab.reset(f, i, now);
            return true;
        }
        let (x0, x1) = layout.track();
        if mx >= x0 - 8.0 && mx <= x1 + 8.0 {
            use crate::content::preset::fields::Kind;
            match f.kind {
                Kind::Float | Kind::Int => {
                    lab.start_drag(row);
                    let v = layout.slider_value(f, &lab.edited, mx);
                    lab.set(f, i, Some(v), now);
                    // A click pressed and released within one frame is no drag.
                    if !is_mouse_button_down(MouseButton::Left) {
                        lab.end_drag();
                    }
                }
                _ => lab.nudge(if mx < (x0 + x1) / 2.0 { -1.0 } else { 1.0 }, now),
            }
        } else if mx > x1 {
            lab.begin_value();
        }
        true
    }

    /// Draws the panel (when open).
    pub fn lab_draw(&mut self, screen: (f32, f32)) {
        if self.mode != Mode::Lab {
            return;
        }
        let layout = Layout::new(screen, crate::game::ui::scale(screen));
        let timings = self.shown.as_ref().map_or(&[][..], |w| &w.timings[..]);
        if let Some(lab) = &mut self.lab {
            if lab.dragging.is_none() {
                scroll_to_selection(lab, &layout);
            }
            let status = match self.worker.status() {
                Some(_) => "Generating...".to_string(),
                None => lab.status.clone(),
            };
            let mut views = vec![match (&lab.noise, lab.octave) {
                (None, _) => "Noise (N, Shift+N): off".to_string(),
                (Some(n), None) => format!("Noise (N, O octaves): {n}"),
                (Some(n), Some(k)) => format!("Noise (N, O octaves): {n}, octave {k}"),
            }];
            if let Some(n) = &lab.noise {
                let preset = noisemap::basis_of(&lab.edited, n);
                views.push(format!("Basis (B): {}", lab.noise_bases.label(preset)));
            }
            views.push(match (&self.lab_gfx.find, lab.find) {
                (_, None) => "Find (G, Shift+G): off".to_string(),
                (Some((_, f, _)), Some(_)) => format!("Find (G, J jumps): {}", f.summary()),
                (None, Some(_)) => "Find: looking...".to_string(),
            });
            crate::game::lab::panel::draw(lab, &layout, timings, &status, &views);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_keys() {
        use LabKey::*;
        assert_eq!(lab_key(KeyCode::Z, true, false, false), Some(Undo));
        assert_eq!(lab_key(KeyCode::Y, true, false, false), Some(Redo));
        assert_eq!(lab_key(KeyCode::Z, true, true, false), Some(Redo));
        assert_eq!(
            lab_key(KeyCode::Right, false, true, false),
            Some(Nudge(10.0))
        );
        assert_eq!(
            lab_key(KeyCode::Left, false, false, false),
            Some(Nudge(-1.0))
        );
        assert_eq!(
            lab_key(KeyCode::Backspace, false, false, false),
            Some(Reset)
        );
        // While typing, Backspace edits the text and arrows do nothing.
        assert_eq!(
            lab_key(KeyCode::Backspace, false, false, true),
            Some(Backspace)
        );
        assert_eq!(lab_key(KeyCode::Up, false, false, true), None);
        assert_eq!(lab_key(KeyCode::Escape, false, false, true), Some(Close));
        assert_eq!(
            lab_key(KeyCode::RightBracket, false, false, false),
            Some(Step(1))
        );
        // B steps the noise bases; V stays the camera's key (play / free) in the lab.
        assert_eq!(lab_key(KeyCode::B, false, false, false), Some(Bases));
        assert_eq!(lab_key(KeyCode::V, false, false, false), None);
        let camera = crate::game::settings::Bindings::default();
        assert!(
            camera
                .keys(crate::game::settings::Command::Camera)
                .iter()
                .all(|k| lab_key(k.0, false, false, false).is_none()),
            "no lab key takes the camera's keys"
        );
    }
}
