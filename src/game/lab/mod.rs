//! The world lab's state: the preset being tuned, the panel's rows (every field of
//! [`crate::content::preset::FIELDS`], grouped by section as the RON files group them), edits with
//! undo and redo, a typed value or a save name being entered, the debounce that turns a run
//! of slider moves into one regeneration, and the pass stepper's position. Pure: drawing
//! and the mouse are in `lab_ui`, so all of this is tested without a window.

pub mod gfx;
pub mod panel;
pub mod views;

use crate::base::noise::Basis;
use crate::content::preset::fields::{Field, Kind, entries};
use crate::content::preset::{FIELDS, Preset};
use crate::worldgen::PASSES;
use std::path::{Path, PathBuf};

/// Seconds without an edit before the edited preset is generated: a slider dragged
/// across its range asks for one world, not sixty.
pub const DEBOUNCE: f64 = 0.08;

/// Most undo steps kept.
const UNDO_DEPTH: usize = 200;

/// One line of the panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Row {
    /// A section's name (`caves`), or `""` for the top-level fields.
    Section(&'static str),
    /// Entry `i` of a list (`ores.table`).
    Entry(&'static str, usize),
    /// A field (of list entry `i`, for a list's fields).
    Field(&'static Field, usize),
}

/// The rows for `preset`: sections in RON order, each field once, a list's fields once per
/// entry under the entry's own heading.
pub fn rows(preset: &Preset) -> Vec<Row> {
    let mut out = Vec::new();
    let mut section = None;
    let mut lists_done: Vec<&str> = Vec::new();
    for f in FIELDS {
        if section != Some(f.section()) {
            section = Some(f.section());
            out.push(Row::Section(f.section()));
        }
        match f.list() {
            None => out.push(Row::Field(f, 0)),
            Some(list) if !lists_done.contains(&list) => {
                lists_done.push(list);
                for i in 0..entries(preset, f) {
                    out.push(Row::Entry(list, i));
                    for g in FIELDS.iter().filter(|g| g.list() == Some(list)) {
                        out.push(Row::Field(g, i));
                    }
                }
            }
            Some(_) => {}
        }
    }
    out
}

/// A value as the panel shows it: exactly (the shortest text that reads back to the same
/// number), a choice by name, an unset optional as `unset`.
pub fn value_text(f: &Field, v: Option<f64>) -> String {
    let Some(v) = v else {
        return "unset".into();
    };
    match f.kind {
        Kind::Float => format!("{v}"),
        Kind::Int => format!("{}", v as u64),
        Kind::Bool => if v >= 0.5 { "on" } else { "off" }.into(),
        Kind::Choice(names) => names.get(v as usize).copied().unwrap_or("?").into(),
        Kind::Tile => crate::world::Tile::from_u8(v as u8).map_or("?".into(), |t| t.name().into()),
    }
}

/// Reads typed text as a value of `f`: a number, `on`/`off`/`true`/`false`, a choice's
/// name (any case), `unset` for an optional field.
pub fn parse_value(f: &Field, text: &str) -> Option<Option<f64>> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("unset") && f.path.ends_with("deep_threshold") {
        return Some(None);
    }
    let named = |names: &[&str]| {
        names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(t))
            .map(|i| i as f64)
    };
    let v = match f.kind {
        Kind::Bool => match t.to_ascii_lowercase().as_str() {
            "on" | "true" | "1" => Some(1.0),
            "off" | "false" | "0" => Some(0.0),
            _ => None,
        },
        Kind::Choice(names) => named(names).or_else(|| t.parse().ok()),
        Kind::Tile => crate::world::Tile::ALL
            .iter()
            .find(|tile| {
                tile.name().eq_ignore_ascii_case(t) || format!("{tile:?}").eq_ignore_ascii_case(t)
            })
            .map(|&tile| tile as u8 as f64),
        _ => t.parse::<f64>().ok().filter(|v| v.is_finite()),
    };
    v.map(Some)
}

/// What the lab is doing with the keyboard besides moving between rows.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    None,
    /// A value being typed for the selected row.
    Value(String),
    /// The name of the preset to save.
    Name(String),
}

/// The lab's state.
pub struct Lab {
    /// What "reset" returns a field to: the preset as it was loaded (or last saved).
    pub base: Preset,
    /// The preset as the panel has it.
    pub edited: Preset,
    undo: Vec<Preset>,
    redo: Vec<Preset>,
    /// Selected row (an index into [`Lab::rows`]; always a field row).
    pub selected: usize,
    /// First row shown.
    pub scroll: usize,
    pub entry: Entry,
    /// When the last edit not yet generated was made.
    pending: Option<f64>,
    /// Why the edited preset is not generated (a rule between fields it breaks).
    pub error: Option<String>,
    /// The row whose slider the mouse holds: one undo step for the whole drag.
    pub dragging: Option<usize>,
    /// The pass stepper: show the world after `PASSES[k]`; `None`: the whole world.
    pub step: Option<usize>,
    /// A line about the last save, a refused typed value or the last world's time.
    pub status: String,
    /// When the world being generated was handed out (to log edit → screen).
    pub asked: Option<f64>,
    /// The noise field laid over the world (its name), and the one octave shown.
    pub noise: Option<String>,
    pub octave: Option<u32>,
    /// The basis it is drawn in: the preset's, one named, or all three side by side.
    pub noise_bases: NoiseBases,
    /// What Find marks (an index into [`views::Target::all`]).
    pub find: Option<usize>,
}

/// Which basis the noise overlay draws its field in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoiseBases {
    /// The one the preset names for the field.
    Preset,
    One(Basis),
    /// Perlin, Simplex and Value side by side, over the same tiles (the world's left third).
    SideBySide,
}

impl NoiseBases {
    /// For the lab's status line: `preset's (Simplex)`, `Value`, `Perlin | Simplex | Value`.
    pub fn label(self, preset: Basis) -> String {
        match self {
            NoiseBases::Preset => format!("{}, the preset's", preset.name()),
            NoiseBases::One(b) => b.name().to_string(),
            NoiseBases::SideBySide => {
                let names: Vec<&str> = Basis::ALL.iter().map(|b| b.name()).collect();
                names.join(" | ")
            }
        }
    }
}

impl Lab {
    /// A lab on `preset`.
    pub fn new(preset: Preset) -> Lab {
        let mut lab = Lab {
            base: preset.clone(),
            edited: preset,
            undo: Vec::new(),
            redo: Vec::new(),
            selected: 0,
            scroll: 0,
            entry: Entry::None,
            pending: None,
            error: None,
            dragging: None,
            step: None,
            status: String::new(),
            asked: None,
            noise: None,
            octave: None,
            noise_bases: NoiseBases::Preset,
            find: None,
        };
        lab.selected = lab.next_field(0, 1).unwrap_or(0);
        lab
    }

    pub fn rows(&self) -> Vec<Row> {
        rows(&self.edited)
    }

    /// Whether the panel's preset differs from what was loaded or last saved.
    pub fn unsaved(&self) -> bool {
        self.edited != self.base
    }

    /// The panel's title, marked while there are unsaved changes.
    pub fn title(&self) -> String {
        let name = &self.edited.name;
        if self.unsaved() {
            format!("World lab: {name} * (unsaved changes)")
        } else {
            format!("World lab: {name}")
        }
    }

    /// The first field row from `from` in direction `dir` (±1).
    fn next_field(&self, from: i64, dir: i64) -> Option<usize> {
        let rows = self.rows();
        let mut i = from;
        while i >= 0 && (i as usize) < rows.len() {
            if matches!(rows[i as usize], Row::Field(..)) {
                return Some(i as usize);
            }
            i += dir;
        }
        None
    }

    /// Moves the selection by `by` field rows.
    pub fn select_by(&mut self, by: i32) {
        let dir = by.signum() as i64;
        for _ in 0..by.unsigned_abs() {
            match self.next_field(self.selected as i64 + dir, dir) {
                Some(next) => self.selected = next,
                None => break,
            }
        }
        self.entry = Entry::None;
    }

    /// The field row at `row`.
    pub fn field_at(&self, row: usize) -> Option<(&'static Field, usize)> {
        match self.rows().get(row) {
            Some(&Row::Field(f, i)) => Some((f, i)),
            _ => None,
        }
    }

    /// Sets a field (of list entry `i`) to `v`, fitted into its range; `now` starts the
    /// debounce. Returns whether anything changed.
    pub fn set(&mut self, f: &Field, i: usize, v: Option<f64>, now: f64) -> bool {
        let v = v.map(|v| f.fit(&self.edited, v));
        if (f.get)(&self.edited, i) == v {
            return false;
        }
        if self.dragging.is_none() {
            self.push_undo();
        }
        (f.set)(&mut self.edited, i, v);
        self.changed(now);
        true
    }

    fn push_undo(&mut self) {
        if self.undo.len() >= UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.undo.push(self.edited.clone());
        self.redo.clear();
    }

    fn changed(&mut self, now: f64) {
        self.error = self.edited.validate().err().map(|e| e.to_string());
        self.pending = Some(now);
    }

    /// Starts a slider drag on `row` (one undo step however far it goes).
    pub fn start_drag(&mut self, row: usize) {
        self.selected = row;
        self.push_undo();
        self.dragging = Some(row);
    }

    /// Ends a drag; a drag that changed nothing leaves no undo step.
    pub fn end_drag(&mut self) {
        if self.dragging.take().is_some() && self.undo.last() == Some(&self.edited) {
            self.undo.pop();
        }
    }

    /// Steps the selected field by `steps` of its step (a choice to the next name).
    pub fn nudge(&mut self, steps: f64, now: f64) {
        if let Some((f, i)) = self.field_at(self.selected) {
            let v = (f.get)(&self.edited, i).unwrap_or(f.min.max(-1.0));
            let next = match f.kind {
                Kind::Bool => 1.0 - v,
                Kind::Choice(names) => (v + steps.signum()).rem_euclid(names.len() as f64),
                Kind::Tile => next_solid(v, steps.signum()),
                _ => tidy(v + steps * f.step),
            };
            self.set(f, i, Some(next), now);
        }
    }

    /// Puts the selected field back to its value in [`Lab::base`].
    pub fn reset_selected(&mut self, now: f64) {
        if let Some((f, i)) = self.field_at(self.selected) {
            self.reset(f, i, now);
        }
    }

    /// Puts a field back to its value in [`Lab::base`].
    pub fn reset(&mut self, f: &Field, i: usize, now: f64) {
        let v = (f.get)(&self.base, i);
        if (f.get)(&self.edited, i) != v {
            self.push_undo();
            (f.set)(&mut self.edited, i, v);
            self.changed(now);
        }
    }

    /// The fields that differ from [`Lab::base`], as `path = value`.
    pub fn changes(&self) -> Vec<String> {
        self.rows()
            .iter()
            .filter_map(|r| match *r {
                Row::Field(f, i) if self.differs(f, i) => Some(format!(
                    "{} = {}",
                    f.path_at(i),
                    value_text(f, (f.get)(&self.edited, i))
                )),
                _ => None,
            })
            .collect()
    }

    /// Whether a field differs from [`Lab::base`].
    pub fn differs(&self, f: &Field, i: usize) -> bool {
        (f.get)(&self.edited, i) != (f.get)(&self.base, i)
    }

    pub fn undo(&mut self, now: f64) {
        if let Some(p) = self.undo.pop() {
            self.redo.push(std::mem::replace(&mut self.edited, p));
            self.changed(now);
        }
    }

    pub fn redo(&mut self, now: f64) {
        if let Some(p) = self.redo.pop() {
            self.undo.push(std::mem::replace(&mut self.edited, p));
            self.changed(now);
        }
    }

    /// The preset to generate, once edits have rested for [`DEBOUNCE`] seconds (and the
    /// preset is valid). Each run of edits is handed out once.
    pub fn due(&mut self, now: f64) -> Option<Preset> {
        let at = self.pending?;
        if now - at < DEBOUNCE || self.dragging.is_some() && now - at < DEBOUNCE * 3.0 {
            return None;
        }
        self.pending = None;
        self.error.is_none().then(|| self.edited.clone())
    }

    /// Asks for the edited preset's world at once (the pass stepper moved).
    pub fn regenerate_now(&mut self, now: f64) {
        self.pending = Some(now - DEBOUNCE * 3.0);
    }

    /// Types a character into the value or name being entered.
    pub fn type_char(&mut self, c: char) {
        match &mut self.entry {
            Entry::Value(t) | Entry::Name(t) if !c.is_control() && t.chars().count() < 64 => {
                t.push(c)
            }
            _ => {}
        }
    }

    pub fn backspace(&mut self) {
        if let Entry::Value(t) | Entry::Name(t) = &mut self.entry {
            t.pop();
        }
    }

    /// Starts typing a value for the selected field, starting from its current text.
    pub fn begin_value(&mut self) {
        if let Some((f, i)) = self.field_at(self.selected) {
            self.entry = Entry::Value(value_text(f, (f.get)(&self.edited, i)));
        }
    }

    /// Applies a typed value. `Err` says why it was not taken.
    pub fn commit_value(&mut self, now: f64) -> Result<(), String> {
        let Entry::Value(text) = std::mem::replace(&mut self.entry, Entry::None) else {
            return Ok(());
        };
        let (f, i) = self.field_at(self.selected).ok_or("no field selected")?;
        let v = parse_value(f, &text).ok_or_else(|| {
            format!(
                "{}: {text:?} is not a value ({})",
                f.path_at(i),
                f.range_doc()
            )
        })?;
        if let Some(x) = v
            && f.is_number()
            && !f.allows(&self.edited, x)
        {
            return Err(format!(
                "{} = {text} is out of range: allowed {}",
                f.path_at(i),
                f.range_in(&self.edited)
            ));
        }
        self.set(f, i, v, now);
        Ok(())
    }

    /// Opens the save box with a name to start from.
    pub fn begin_name(&mut self) {
        let name = if self.unsaved() && !self.edited.name.ends_with(" (tuned)") {
            format!("{} (tuned)", self.edited.name)
        } else {
            self.edited.name.clone()
        };
        self.entry = Entry::Name(name);
    }

    /// Saves the edited preset under the typed name in `dir`; what was saved becomes the
    /// base (no unsaved changes).
    pub fn commit_name(&mut self, dir: &Path) -> Result<PathBuf, String> {
        let Entry::Name(name) = std::mem::replace(&mut self.entry, Entry::None) else {
            return Err("no name typed".into());
        };
        let name = name.trim().to_string();
        if name.is_empty() {
            return Err("a preset needs a name".into());
        }
        let mut p = self.edited.clone();
        p.name = name;
        let about = format!("tuned in the world lab from {}.", self.base.name);
        let path = crate::content::preset::save_in(dir, &p, &about).map_err(|e| e.to_string())?;
        self.edited = p.clone();
        self.base = p;
        Ok(path)
    }

    /// The pass stepper one pass back (`-1`) or forward (`1`); `Some(k)` is the pass to
    /// stop after, `None` the whole world.
    pub fn step_by(&mut self, by: i32) -> Option<usize> {
        let last = PASSES.len() - 1;
        let at = self.step.unwrap_or(last) as i64 + by as i64;
        let at = at.clamp(0, last as i64) as usize;
        self.step = (at < last).then_some(at);
        self.step
    }
}

/// The next of `n` choices after `at` in direction `dir` (±1), where `None` (off) comes
/// before the first and after the last.
pub fn cycle(at: Option<usize>, n: usize, dir: i32) -> Option<usize> {
    let k = at.map_or(0, |i| i as i64 + 1) + dir as i64;
    let k = k.rem_euclid(n as i64 + 1);
    (k > 0).then(|| k as usize - 1)
}

impl Lab {
    /// The next noise field to lay over the world (of `names`), or none.
    pub fn next_noise(&mut self, names: &[String], dir: i32) {
        let at = self
            .noise
            .as_ref()
            .and_then(|n| names.iter().position(|m| m == n));
        self.noise = cycle(at, names.len(), dir).map(|i| names[i].clone());
        self.octave = None;
    }

    /// The noise overlay's next basis view: the preset's, each basis in turn, the three
    /// side by side, the preset's again.
    pub fn next_noise_bases(&mut self) {
        self.noise_bases = match self.noise_bases {
            NoiseBases::Preset => NoiseBases::One(Basis::ALL[0]),
            NoiseBases::One(b) => match Basis::ALL.iter().position(|&c| c == b) {
                Some(i) if i + 1 < Basis::ALL.len() => NoiseBases::One(Basis::ALL[i + 1]),
                _ => NoiseBases::SideBySide,
            },
            NoiseBases::SideBySide => NoiseBases::Preset,
        };
    }

    /// The next octave of an fBm field (`octaves` of them), or all of them.
    pub fn next_octave(&mut self, octaves: u32) {
        self.octave = cycle(self.octave.map(|o| o as usize), octaves as usize, 1).map(|o| o as u32);
    }
}

/// `v` without the float noise of a sum of steps (`0.30000000000000004` is `0.3`): rounded
/// to 9 decimals, finer than any slider step.
pub fn tidy(v: f64) -> f64 {
    format!("{v:.9}").parse().unwrap_or(v)
}

/// The next solid tile's number after (or before, `dir` < 0) tile number `v`.
fn next_solid(v: f64, dir: f64) -> f64 {
    let all = crate::world::Tile::ALL;
    let n = all.len() as i64;
    let mut i = v as i64;
    for _ in 0..n {
        i = (i + dir as i64).rem_euclid(n);
        if all[i as usize].is_solid() {
            return i as f64;
        }
    }
    v
}

#[cfg(test)]
mod tests;
