//! Playing in the world: the player's movement, digging and placing under the mouse,
//! saving in the background, and the machine-readable log lines the window test reads
//! (`player at ..`, `jumps ..`, `dug ..`, `felled ..`, `placed ..`, `refused: ..`, `crafted ..`,
//! `crafting panel: ..`, `a slime appeared at ..`, `creatures: ..`, `killed a ..`, `saved ..`). Engine-free: the frame loop passes
//! in held keys and buttons as plain values.

use super::invscreen;
use super::state::Loaded;
use crate::content::items::catalog;
use crate::sim::craft::{CraftRefusal, Stations};
use crate::sim::edit::{self, DigStep, EditRefusal};
use crate::sim::player::Input;
use crate::sim::vitals::{Harm, Senses, Vitals};
use crate::store::save;
use crate::world::Tile;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

/// Seconds between placements while the place button is held.
pub const PLACE_REPEAT: f64 = 0.2;
/// Seconds a message under the hotbar stays.
pub const NOTICE_SECONDS: f64 = 2.0;

/// Mouse buttons this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Buttons {
    /// Dig (left) held.
    pub dig: bool,
    /// Place (right) held.
    pub place: bool,
    /// Place pressed this frame (it may already be released again).
    pub place_pressed: bool,
}

pub use super::hud::Target;

/// Play state that is not part of the world: messages, pending saves, log throttling.
#[derive(Default)]
pub struct Play {
    pub target: Option<Target>,
    /// A short message (refusals, saves, loads) and when it goes.
    pub notice: Option<(String, f64)>,
    next_place: f64,
    saving: Option<Saving>,
    /// Last `player at` line and when it was written.
    last_log: Option<String>,
    log_at: f64,
    /// The stack on the cursor in the inventory screen.
    pub held: Option<crate::world::inventory::Stack>,
    /// Half the view in tiles (creatures spawn outside it); set by the frame loop.
    pub view_half: (f32, f32),
    /// When the sword may swing again, and until when the swing shows.
    next_swing: f64,
    pub swing_until: f64,
    /// The highlighted row of the crafting panel.
    pub recipe_selected: usize,
    /// Last `creatures:` line and when the next may be written.
    last_creatures: Option<String>,
    creatures_log_at: f64,
    /// The chest open beside the inventory (right-clicked within reach), by its tile.
    pub chest: Option<(usize, usize)>,
    /// A chest was opened this frame: the frame loop opens the inventory screen.
    pub chest_opened: bool,
}

/// The `player at` log line: feet position in tiles, then the screen position of the
/// feet and the zoom, so a script can aim the mouse next to the player.
pub fn position_line(pos: (f32, f32), screen_pos: (f32, f32), zoom: f64) -> String {
    format!(
        "player at {:.1} {:.1} screen {:.0} {:.0} zoom {:.1}",
        pos.0, pos.1, screen_pos.0, screen_pos.1, zoom
    )
}

/// The `creatures:` log line: each creature's kind and feet position in tiles, so a script
/// can walk the player toward one.
pub fn creatures_line(list: &[crate::sim::creatures::Creature]) -> String {
    let each: Vec<String> = list
        .iter()
        .map(|c| {
            let p = c.body.pos;
            format!("{} at {:.1} {:.1}", c.kind.stats().name, p.0, p.1)
        })
        .collect();
    format!("creatures: {}", each.join(", "))
}

/// The tile the player aims at: the one under the mouse while playing, none while the
/// mouse is over the hotbar or the minimap (no outline under them, no dig through them).
pub fn aim(playing: bool, on_ui: bool, cursor: Option<(i64, i64)>) -> Option<(i64, i64)> {
    cursor.filter(|_| playing && !on_ui)
}

/// The tile holding world point `p`, or `None` outside the world.
pub fn tile_at(p: (f64, f64), size: (usize, usize)) -> Option<(i64, i64)> {
    let (x, y) = (p.0.floor(), p.1.floor());
    (x >= 0.0 && y >= 0.0 && (x as usize) < size.0 && (y as usize) < size.1)
        .then_some((x as i64, y as i64))
}

/// Reveals the explored map around the player by the light there (see
/// [`crate::world::explored`]), noting the cells revealed for the fog texture. Revealing is not
/// an edit: it never makes a world ask to be saved, but every save keeps it.
pub fn reveal(l: &mut Loaded) {
    use crate::world::explored::{REVEAL_LIGHT, REVEAL_RADIUS};
    let c = l.player.centre();
    let light = &l.light;
    let lit = |x, y| light.get_with_player(x, y, c) >= REVEAL_LIGHT;
    if let Some(new) = l.world.explored.reveal(c, REVEAL_RADIUS, lit) {
        l.revealed = Some(l.revealed.map_or(new, |r| r.union(new)));
    }
}

/// ` (relit WxH in T ms)` for the log, from the last edit.
fn relit(l: &Loaded) -> String {
    l.last_relight.map_or(String::new(), |(r, t)| {
        format!(
            " (relit {}x{} in {:.2} ms)",
            r.x1 - r.x0 + 1,
            r.y1 - r.y0 + 1,
            t.as_secs_f64() * 1e3
        )
    })
}

impl Play {
    pub fn say(&mut self, text: impl Into<String>, now: f64) {
        self.notice = Some((text.into(), now + NOTICE_SECONDS));
    }

    fn refuse(&mut self, e: EditRefusal, now: f64) {
        let text = format!("Can't: {e}");
        // Held buttons refuse every frame: keep the message, extend its time (and log it
        // once).
        if self.notice.as_ref().is_none_or(|n| n.0 != text) {
            log::debug!("refused: {e}");
        }
        self.say(text, now);
    }

    /// One frame of play: moves the player, digs or places at `cursor` (a tile).
    pub fn step(
        &mut self,
        l: &mut Loaded,
        walk: Input,
        cursor: Option<(i64, i64)>,
        buttons: Buttons,
        dt: f32,
        now: f64,
    ) {
        let before = (l.player.jumps, l.player.strokes);
        l.player.update(&l.world, walk, dt);
        if (l.player.jumps, l.player.strokes) != before {
            log::debug!("jumps {} strokes {}", l.player.jumps, l.player.strokes);
        }
        self.live(l, dt, now);
        reveal(l);
        self.keep_chest(l);
        // Right-click on a chest within reach opens it, whatever is selected (as in
        // Terraria); holding the button over a chest places nothing.
        let on_chest = cursor.filter(|&(x, y)| l.world.get(x, y) == Some(Tile::Chest));
        if let Some((x, y)) = on_chest
            && buttons.place_pressed
        {
            self.open_chest(l, x, y, now);
        }
        if let Some((damage, reach, cooldown)) = l.inventory.selected_sword() {
            // A sword swings instead of digging, toward the mouse.
            self.target = None;
            l.dig.reset();
            if buttons.dig && now >= self.next_swing {
                self.next_swing = now + cooldown as f64;
                self.swing_until = now + 0.15;
                if let Some((x, _)) = cursor {
                    l.player.facing = if (x as f32 + 0.5) < l.player.pos.0 {
                        -1
                    } else {
                        1
                    };
                }
                self.swing(l, damage as f32, reach, now);
            }
            self.expire_notice(now);
            return;
        }
        self.target = cursor.map(|(x, y)| Target {
            x,
            y,
            in_reach: edit::can_reach(&l.player, x, y, edit::REACH),
            progress: None,
        });
        match (cursor, buttons.dig) {
            (Some((x, y)), true) => {
                let step = l
                    .dig
                    .update(&mut l.world, &l.player, &mut l.inventory, x, y, dt);
                match step {
                    DigStep::Dug { x, y, drop } => {
                        l.edited(x as usize, y as usize);
                        l.stir(x as usize, y as usize);
                        log::debug!("dug {} at {x} {y}{}", drop.name(), relit(l));
                    }
                    DigStep::Felled {
                        x,
                        y,
                        drop,
                        count,
                        tiles,
                    } => {
                        l.edited_tiles(&tiles);
                        l.stir(x as usize, y as usize);
                        log::debug!("felled {count} {} at {x} {y}", drop.name());
                    }
                    DigStep::Hammered { x, y, wall } => {
                        l.edited(x as usize, y as usize);
                        log::debug!("took down {} at {x} {y}{}", wall.name(), relit(l));
                    }
                    DigStep::Digging(p) => {
                        if let Some(t) = &mut self.target {
                            t.progress = Some(p);
                        }
                    }
                    // Holding the button on air after a dig is not worth a message.
                    DigStep::Refused(EditRefusal::NothingToDig) => {}
                    DigStep::Refused(e) => self.refuse(e, now),
                }
            }
            _ => l.dig.reset(),
        }
        // A click can press and release within one frame: pressed counts on its own.
        if let Some((x, y)) = cursor.filter(|_| on_chest.is_none())
            && (buttons.place_pressed || (buttons.place && now >= self.next_place))
        {
            self.next_place = now + PLACE_REPEAT;
            let (world, player, inv) = (&mut l.world, &l.player, &mut l.inventory);
            let placed = if inv.selected_wall().is_some() {
                edit::try_place_wall(world, player, inv, x, y).map(|w| w.label())
            } else {
                edit::try_place(world, player, inv, x, y).map(|t| t.name())
            };
            match placed {
                Ok(name) => {
                    l.edited(x as usize, y as usize);
                    l.stir(x as usize, y as usize);
                    log::debug!("placed {name} at {x} {y}{}", relit(l));
                }
                Err(e) => self.refuse(e, now),
            }
        }
        self.expire_notice(now);
    }

    fn expire_notice(&mut self, now: f64) {
        if self.notice.as_ref().is_some_and(|n| now > n.1) {
            self.notice = None;
        }
    }

    /// The world's time, the player's health and the creatures for one frame; death
    /// respawns the player.
    fn live(&mut self, l: &mut Loaded, dt: f32, now: f64) {
        let rules = crate::content::rules::rules();
        l.time_of_day = crate::sim::day::advance(l.time_of_day, dt, rules);
        let senses = Senses::of(&l.world, l.player.pos, l.player.on_ground);
        let mut killer = l.vitals.update(senses, dt, rules);
        let night = crate::sim::day::is_night(l.time_of_day, rules);
        let half = if self.view_half.0 > 0.0 {
            self.view_half
        } else {
            (32.0, 18.0)
        };
        let before = l.creatures.spawned;
        let touch = l
            .creatures
            .update(&l.world, &l.layers, &l.player, half, night, rules, dt);
        if l.creatures.spawned != before
            && let Some(c) = l.creatures.list.last()
        {
            let p = c.body.pos;
            log::debug!(
                "a {} appeared at {:.0} {:.0}",
                c.kind.stats().name,
                p.0,
                p.1
            );
        }
        // Where the creatures are, when they moved, at most four times a second.
        if !l.creatures.list.is_empty() && now >= self.creatures_log_at {
            let line = creatures_line(&l.creatures.list);
            if self.last_creatures.as_ref() != Some(&line) {
                log::debug!("{line}");
                self.last_creatures = Some(line);
                self.creatures_log_at = now + 0.25;
            }
        }
        if let Some((damage, name)) = touch {
            log::debug!("hurt by a {name} for {damage:.0}");
            let from = l
                .creatures
                .list
                .iter()
                .map(|c| c.body.pos.0)
                .min_by(|a, b| {
                    (a - l.player.pos.0)
                        .abs()
                        .total_cmp(&(b - l.player.pos.0).abs())
                })
                .unwrap_or(l.player.pos.0);
            let away = if from < l.player.pos.0 { 1.0 } else { -1.0 };
            l.player.vel = (away * 8.0, -8.0);
            if l.vitals.hurt(damage) && killer.is_none() {
                killer = Some(Harm::Creature(name));
            }
        }
        if let Some(harm) = killer {
            log::debug!("died of {harm}; back at the spawn point with everything carried");
            l.player = crate::sim::player::Player::spawn(&l.world);
            l.vitals = Vitals::new(crate::sim::vitals::MAX_HEALTH, rules);
            l.creatures.immune = 2.0;
            self.say(format!("You died of {harm}. Nothing was lost."), now);
        }
    }

    /// A sword swing: hits what is in front, kills give their drops.
    fn swing(&mut self, l: &mut Loaded, damage: f32, reach: f32, now: f64) {
        let s = l.creatures.swing(&l.player, damage, reach);
        if s.hits > 0 {
            log::debug!("swing hit {}", s.hits);
        }
        for (kind, item, n) in s.killed {
            let lost = l.inventory.add(item, n);
            log::debug!("killed a {}, {item} x{}", kind.stats().name, n - lost);
            self.say(
                format!("Killed a {}: {} {item}", kind.stats().name, n - lost),
                now,
            );
        }
    }

    /// What the crafting panel lists for the player now (see [`invscreen::listed`]).
    pub fn recipes(l: &Loaded) -> Vec<(usize, Result<(), CraftRefusal>)> {
        let cat = catalog();
        let near = Stations::near(&l.world, l.player.bounds(), cat);
        invscreen::listed(cat, &l.inventory, near)
    }

    /// Crafts the `k`-th recipe the panel lists, logging `crafted NAME` (or says why not).
    pub fn craft_listed(&mut self, l: &mut Loaded, k: usize, now: f64) {
        let list = Play::recipes(l);
        let Some(&(i, _)) = list.get(k.min(list.len().saturating_sub(1))) else {
            self.say("Nothing to craft from what you carry", now);
            return;
        };
        let cat = catalog();
        let near = Stations::near(&l.world, l.player.bounds(), cat);
        let recipe = &cat.recipes[i];
        match crate::sim::craft::craft(recipe, &mut l.inventory, near) {
            Ok(()) => {
                let item = cat.item(recipe.make);
                log::debug!("crafted {} x{}", item.name, recipe.count);
                self.say(format!("Crafted {} x{}", item.label, recipe.count), now);
            }
            Err(e) => self.say(format!("Can't craft: {e}"), now),
        }
        // The list may have changed: the highlight follows the recipe just made (Enter
        // makes another), or stays on a row that exists when that recipe is gone.
        let list = Play::recipes(l);
        self.recipe_selected = list
            .iter()
            .position(|&(r, _)| r == i)
            .unwrap_or(self.recipe_selected.min(list.len().saturating_sub(1)));
        Play::log_panel(l);
    }

    /// Writes the crafting panel's rows as they stand (`crafting panel: ..`, see
    /// [`invscreen::panel_line`]): when the inventory opens and after each craft.
    pub fn log_panel(l: &Loaded) {
        log::debug!("{}", invscreen::panel_line(catalog(), &Play::recipes(l)));
    }

    /// A click on inventory slot `i`: picks up, puts down, merges or swaps stacks.
    pub fn click_slot(&mut self, l: &mut Loaded, i: usize) {
        l.inventory.click(i, &mut self.held);
    }

    /// Opens the chest at `(x, y)` if it is within reach (or says it is not).
    fn open_chest(&mut self, l: &mut Loaded, x: i64, y: i64, now: f64) {
        if !edit::can_reach(&l.player, x, y, edit::REACH) {
            self.refuse(EditRefusal::OutOfReach, now);
            return;
        }
        let (x, y) = (x as usize, y as usize);
        let stacks = l
            .world
            .chests
            .get(x, y)
            .map_or(0, |c| c.slots().iter().flatten().count());
        eprintln!("strata: opened a chest at {x} {y} holding {stacks} stacks");
        self.chest = Some((x, y));
        self.chest_opened = true;
    }

    /// Closes the open chest once it is out of reach or no longer there.
    fn keep_chest(&mut self, l: &Loaded) {
        if let Some((x, y)) = self.chest {
            let (xi, yi) = (x as i64, y as i64);
            if l.world.get(xi, yi) != Some(Tile::Chest)
                || !edit::can_reach(&l.player, xi, yi, edit::REACH)
            {
                self.chest = None;
            }
        }
    }

    /// A click on slot `i` of the open chest: takes, puts, merges or swaps stacks, as the
    /// inventory's slots do. Counts as an edit of the world (it is saved).
    pub fn click_chest(&mut self, l: &mut Loaded, i: usize) {
        let Some((x, y)) = self.chest else { return };
        if l.world.tile(x, y) != Tile::Chest {
            return;
        }
        let before = self.held;
        l.world.chests.open(x, y).click(i, &mut self.held);
        if self.held != before {
            l.edit_count += 1;
            log::debug!("chest at {x} {y} slot {i}");
        }
    }

    /// Closing the inventory screen: the stack on the cursor goes back into the slots.
    pub fn put_back(&mut self, l: &mut Loaded) {
        self.chest = None;
        if let Some(h) = self.held.take() {
            let lost = l.inventory.add(h.item, h.count);
            if lost > 0 {
                log::warn!("{lost} {} did not fit back", catalog().item(h.item).name);
            }
        }
    }

    /// Writes the `player at` line when it changed, at most four times a second.
    pub fn log_position(&mut self, line: String, now: f64) {
        if now >= self.log_at && self.last_log.as_ref() != Some(&line) {
            log::debug!("{line}");
            self.last_log = Some(line);
            self.log_at = now + 0.25;
        }
    }

    /// F5: writes the world and the player to `world-<id>.strata` in the saves folder
    /// `dir` ([`crate::base::paths::saves_dir`] in the game) on a thread (a copy of the world is taken first, so
    /// play goes on while it is written), keeping the save it replaces as
    /// `world-<id>.strata.bak` ([`save::save_path`]). Returns whether a save started.
    pub fn save(&mut self, l: &Loaded, dir: &Path, now: f64) -> bool {
        self.save_as(l, dir, now, false)
    }

    /// [`Play::save`]; `auto`: the autosave (its messages say so).
    pub fn save_as(&mut self, l: &Loaded, dir: &Path, now: f64, auto: bool) -> bool {
        if self.saving.is_some() {
            self.say("Still saving...", now);
            return false;
        }
        let path = save::save_path(dir, &l.world);
        let world = l.world.clone();
        let state = l.player_state();
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("strata-save".into())
            .spawn(move || {
                let _ =
                    tx.send(save::save_keeping_backup(&path, &world, &state).map(|b| (path, b)));
            });
        match spawned {
            Ok(_) => {
                self.saving = Some(Saving {
                    rx,
                    serial: l.serial,
                    edits: l.edit_count,
                    auto,
                });
                self.say(if auto { "Autosaving..." } else { "Saving..." }, now);
                true
            }
            Err(e) => {
                self.say(format!("Save failed: {e}"), now);
                false
            }
        }
    }

    /// Is a save being written?
    pub fn is_saving(&self) -> bool {
        self.saving.is_some()
    }

    /// The save that finished since the last call, if any (logged and shown).
    pub fn poll_save(&mut self, now: f64) -> Option<SaveDone> {
        let result = self.saving.as_ref()?.rx.try_recv().ok()?;
        Some(self.finish_save(result, now))
    }

    /// Waits for the save being written, if any (before quitting).
    pub fn wait_save(&mut self, now: f64) -> Option<SaveDone> {
        let result = self
            .saving
            .as_ref()?
            .rx
            .recv()
            .unwrap_or_else(|_| Err("the save thread stopped".to_string()));
        Some(self.finish_save(result, now))
    }

    fn finish_save(&mut self, result: SaveResult, now: f64) -> SaveDone {
        let Some(s) = self.saving.take() else {
            unreachable!("finish_save follows a save")
        };
        let what = if s.auto { "Autosaved" } else { "Saved" };
        match &result {
            Ok((path, backup)) => {
                log::info!("saved {}", path.display());
                if let Some(b) = backup {
                    log::info!("kept the previous save as {}", b.display());
                }
                self.say(format!("{what} to {}", path.display()), now);
            }
            Err(e) => {
                log::warn!("save failed: {e}");
                self.say(format!("Save failed: {e}"), now);
            }
        }
        SaveDone {
            result,
            serial: s.serial,
            edits: s.edits,
        }
    }
}

/// A save's path and its backup's, or why it failed.
pub type SaveResult = Result<(PathBuf, Option<PathBuf>), String>;

/// A save being written.
struct Saving {
    rx: Receiver<SaveResult>,
    /// The world saved ([`Loaded::serial`]) and its edit count when it was copied.
    serial: u64,
    edits: u64,
    auto: bool,
}

/// A save that finished.
#[derive(Debug, PartialEq)]
pub struct SaveDone {
    pub result: SaveResult,
    /// The world saved ([`Loaded::serial`]) and its edit count when it was copied: edits
    /// made while it was written are still unsaved.
    pub serial: u64,
    pub edits: u64,
}

impl SaveDone {
    /// Marks the world saved if it is the one that was saved and the save worked.
    pub fn apply(&self, l: &mut Loaded) {
        if self.result.is_ok() && l.serial == self.serial {
            l.saved_edits = l.saved_edits.max(self.edits);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::state::tests::loaded;
    use crate::world::Tile;

    #[test]
    fn a_finished_save_leaves_only_later_edits_unsaved() {
        let mut l = loaded();
        let (x, y) = (300, l.world.surface[300] as usize);
        l.set_tile(x, y, Tile::Air);
        l.set_tile(x, y + 1, Tile::Air);
        assert!(l.unsaved());
        // A save copied the world after the first edit, and the second came after.
        let done = |result: SaveResult, serial| SaveDone {
            result,
            serial,
            edits: 1,
        };
        done(Err("disk full".into()), l.serial).apply(&mut l);
        assert_eq!(l.saved_edits, 0, "a failed save saves nothing");
        done(Ok((PathBuf::from("w.strata"), None)), l.serial + 1).apply(&mut l);
        assert_eq!(l.saved_edits, 0, "another world's save");
        done(Ok((PathBuf::from("w.strata"), None)), l.serial).apply(&mut l);
        assert!(l.unsaved(), "the second edit came after the copy");
        SaveDone {
            result: Ok((PathBuf::from("w.strata"), None)),
            serial: l.serial,
            edits: 2,
        }
        .apply(&mut l);
        assert!(!l.unsaved());
    }

    #[test]
    fn tiles_under_points() {
        assert_eq!(tile_at((3.7, 4.2), (10, 10)), Some((3, 4)));
        assert_eq!(tile_at((-0.1, 4.2), (10, 10)), None);
        assert_eq!(tile_at((9.99, 10.0), (10, 10)), None);
    }

    #[test]
    fn no_aim_through_the_hotbar() {
        assert_eq!(aim(true, false, Some((3, 4))), Some((3, 4)));
        assert_eq!(aim(true, true, Some((3, 4))), None);
        assert_eq!(aim(false, false, Some((3, 4))), None);
    }

    #[test]
    fn creatures_line_names_each_with_its_feet() {
        use crate::sim::creatures::{Creature, Kind};
        let list = [
            Creature::new(Kind::Slime, (12.5, 19.0)),
            Creature::new(Kind::CaveSlime, (70.25, 30.0)),
        ];
        assert_eq!(
            creatures_line(&list),
            "creatures: slime at 12.5 19.0, cave slime at 70.2 30.0"
        );
    }

    #[test]
    fn position_line_is_machine_readable() {
        let l = position_line((500.25, 120.0), (640.4, 400.0), 20.0);
        assert_eq!(l, "player at 500.2 120.0 screen 640 400 zoom 20.0");
    }

    #[test]
    fn digging_under_the_feet_takes_time_relights_and_reanalyses() {
        let (mut l, mut play) = landed();
        let still = Input::default();
        let (px, py) = l.player.pos;
        let below = (px.floor() as i64, py as i64);
        let tile = l.world.tile(below.0 as usize, below.1 as usize);
        assert!(tile.is_solid(), "{tile:?}");
        let dig = Buttons {
            dig: true,
            ..Default::default()
        };
        play.step(&mut l, still, Some(below), dig, 1.0 / 60.0, 0.0);
        let t = play.target.unwrap();
        assert!(t.in_reach && t.progress.is_some_and(|p| p > 0.0 && p < 1.0));
        for _ in 0..90 {
            play.step(&mut l, still, Some(below), dig, 1.0 / 60.0, 0.0);
            if l.world.tile(below.0 as usize, below.1 as usize) == Tile::Air {
                break;
            }
        }
        assert_eq!(l.world.tile(below.0 as usize, below.1 as usize), Tile::Air);
        assert_eq!(l.inventory.count(crate::sim::edit::drop_of(tile)), 1);
        assert_eq!(l.light, crate::sim::light::LightMap::compute(&l.world));
        l.settle();
        assert_eq!(
            l.report,
            std::sync::Arc::new(crate::analysis::analyse(&l.world))
        );
    }

    #[test]
    fn placing_needs_the_block_and_refuses_on_the_player() {
        let (mut l, mut play) = landed();
        let (px, py) = l.player.pos;
        let feet = (px.floor() as i64, py as i64 - 1);
        // A quick click: pressed and released within the frame.
        let place = Buttons {
            place_pressed: true,
            ..Default::default()
        };
        l.inventory.select(5); // empty
        play.step(&mut l, Input::default(), Some(feet), place, 0.0, 1.0);
        assert!(play.notice.as_ref().unwrap().0.contains("nothing to place"));
        l.inventory.add(Tile::Dirt, 3);
        l.inventory.select(3);
        assert_eq!(l.inventory.selected_tile(), Some(Tile::Dirt));
        play.step(&mut l, Input::default(), Some(feet), place, 0.0, 2.0);
        assert!(play.notice.as_ref().unwrap().0.contains("trap"));
        assert_eq!(l.world.tile(feet.0 as usize, feet.1 as usize), Tile::Air);
        // Beside the player, on the ground (which may slope): placed, and one fewer.
        let bx = feet.0 + 2;
        let ground = (0..l.world.height() as i64 - 1)
            .find(|&y| l.world.tile(bx as usize, y as usize + 1).is_solid())
            .unwrap();
        let beside = (bx, ground);
        if l.world.tile(beside.0 as usize, beside.1 as usize) == Tile::Air {
            play.step(&mut l, Input::default(), Some(beside), place, 0.0, 3.0);
            assert_eq!(
                l.world.tile(beside.0 as usize, beside.1 as usize),
                Tile::Dirt
            );
            assert_eq!(l.inventory.count(Tile::Dirt), 2);
        }
    }

    /// Lets the player land (two seconds of frames without input).
    fn landed() -> (Loaded, Play) {
        let mut l = loaded();
        let mut play = Play::default();
        for _ in 0..120 {
            play.step(
                &mut l,
                Input::default(),
                None,
                Buttons::default(),
                1.0 / 60.0,
                0.0,
            );
        }
        assert!(l.player.on_ground);
        (l, play)
    }

    #[test]
    fn right_clicking_a_chest_in_reach_opens_it_and_clicks_take_its_stacks() {
        let (mut l, mut play) = landed();
        let (px, py) = l.player.pos;
        let at = ((px + 2.0) as usize, py as usize - 1);
        l.world.set(at.0, at.1, Tile::Chest);
        let gel = crate::content::items::named("gel").unwrap();
        l.world.chests.open(at.0, at.1).add(gel, 6);
        let right = Buttons {
            place: true,
            place_pressed: true,
            ..Default::default()
        };
        // With the sword selected too: a right-click opens, never places or swings.
        l.inventory.select(1);
        let aim = Some((at.0 as i64, at.1 as i64));
        play.step(&mut l, Input::default(), aim, right, 0.0, 1.0);
        assert_eq!(play.chest, Some(at));
        assert!(std::mem::take(&mut play.chest_opened));
        assert_eq!(l.world.tile(at.0, at.1), Tile::Chest);
        let edits = l.edit_count;
        play.click_chest(&mut l, 0);
        assert_eq!(play.held.map(|h| (h.item, h.count)), Some((gel, 6)));
        assert!(!l.world.chests.holds_items(at.0, at.1));
        assert!(
            l.edit_count > edits,
            "taking from a chest is an unsaved edit"
        );
        play.click_chest(&mut l, 26);
        assert_eq!(
            l.world.chests.get(at.0, at.1).unwrap().slots()[26]
                .unwrap()
                .count,
            6
        );
        // Out of reach, it closes; a far chest does not open.
        l.player.pos.0 += 20.0;
        play.step(&mut l, Input::default(), None, Buttons::default(), 0.0, 2.0);
        assert_eq!(play.chest, None);
        play.step(&mut l, Input::default(), aim, right, 0.0, 3.0);
        assert_eq!(play.chest, None);
        assert!(play.notice.as_ref().unwrap().0.contains("out of reach"));
    }

    #[test]
    fn play_reveals_the_map_around_the_player_by_light_and_only_there() {
        let (mut l, mut play) = landed();
        let map = &l.world.explored;
        let c = l.player.centre();
        let (px, py) = (c.0 as usize, c.1 as usize);
        assert!(map.seen(px, py), "where the player stands");
        assert!(map.seen(px, py.saturating_sub(20)), "the sky above");
        // Nothing beyond the reveal square, and not the dark rock deep below.
        let far = crate::world::explored::REVEAL_RADIUS + crate::world::explored::CELL;
        assert!(!map.seen(px + far, py) && !map.seen(px - far, py));
        // A cell within the square whose every tile is dark (rock under the ground).
        use crate::world::explored::CELL;
        let dark = |y: usize| {
            let (cx, cy) = (px / CELL * CELL, y / CELL * CELL);
            (cy..cy + CELL)
                .all(|ty| (cx..cx + CELL).all(|tx| l.light.get_with_player(tx, ty, c) < 3))
        };
        let deep = (py..py + 28).find(|&y| dark(y)).expect("dark rock below");
        assert!(!map.seen(px, deep), "dark at {deep}");
        let seen = map.seen_count();
        assert!(l.revealed.is_some(), "the fog texture is told");
        // Another frame on the same spot reveals nothing more.
        l.revealed = None;
        play.step(&mut l, Input::default(), None, Buttons::default(), 0.0, 5.0);
        assert_eq!((l.world.explored.seen_count(), l.revealed), (seen, None));
        assert!(!l.unsaved(), "revealing is not an edit");
    }

    #[test]
    fn a_sword_kills_a_slime_in_front_for_gel() {
        let (mut l, mut play) = landed();
        l.creatures.list.clear();
        let (px, py) = l.player.pos;
        l.creatures.list.push(crate::sim::creatures::Creature::new(
            crate::sim::creatures::Kind::Slime,
            (px + 1.2, py),
        ));
        l.inventory.select(1);
        assert!(l.inventory.selected_sword().is_some(), "the copper sword");
        let swing = Buttons {
            dig: true,
            ..Default::default()
        };
        let aim = Some(((px + 2.0) as i64, py as i64 - 1));
        let mut now = 10.0;
        for _ in 0..5 {
            play.step(&mut l, Input::default(), aim, swing, 0.0, now);
            now += 1.0;
        }
        assert_eq!(l.player.facing, 1);
        assert!(l.inventory.count("gel") >= 1, "the slime dropped gel");
        assert!(l.creatures.list.iter().all(|c| c.health > 0.0));
        assert_eq!(l.creatures.killed, 1);
        // Swinging never digs.
        assert!(play.target.is_none());
    }

    #[test]
    fn the_crafting_highlight_follows_the_recipe_it_made() {
        let (mut l, mut play) = landed();
        l.inventory.add("wood", 9);
        l.inventory.add("gel", 1);
        let cat = catalog();
        let torch = cat
            .recipes
            .iter()
            .position(|r| cat.item(r.make).name == "torch")
            .expect("a torch recipe");
        let row_of = |l: &Loaded, i| Play::recipes(l).iter().position(|&(r, _)| r == i);
        let before = row_of(&l, torch).expect("torches can be made");
        play.recipe_selected = before;
        play.craft_listed(&mut l, before, 0.0);
        // The gel is gone: torches can no longer be made and move down the list, and the
        // highlight goes with them rather than onto whatever took their row.
        let after = row_of(&l, torch).expect("still listed: wood is carried");
        assert_ne!(after, before, "the list reordered");
        assert_eq!(play.recipe_selected, after);
    }

    #[test]
    fn lava_kills_and_the_player_respawns_with_everything() {
        let (mut l, mut play) = landed();
        l.inventory.add(Tile::Stone, 7);
        let carried = l.inventory.clone();
        let (px, py) = l.player.pos;
        for y in (py - 2.0) as usize..py as usize {
            for x in (px - 1.0) as usize..=(px + 1.0) as usize {
                l.world.set(x, y, Tile::Lava);
            }
        }
        let mut now = 0.0;
        for _ in 0..60 * 4 {
            now += 1.0 / 60.0;
            play.step(
                &mut l,
                Input::default(),
                None,
                Buttons::default(),
                1.0 / 60.0,
                now,
            );
            if play.notice.as_ref().is_some_and(|n| n.0.contains("died")) {
                break;
            }
        }
        let notice = play
            .notice
            .as_ref()
            .map(|n| n.0.clone())
            .unwrap_or_default();
        assert!(notice.contains("You died of lava"), "{notice}");
        assert_eq!(l.player.pos, crate::sim::player::spawn_point(&l.world));
        assert_eq!(l.vitals.health, crate::sim::vitals::MAX_HEALTH);
        assert_eq!(l.inventory, carried, "nothing lost");
    }

    #[test]
    fn time_of_day_moves_on_with_play() {
        let (mut l, mut play) = landed();
        let t = l.time_of_day;
        for _ in 0..600 {
            play.step(&mut l, Input::default(), None, Buttons::default(), 0.1, 0.0);
        }
        let day = crate::content::rules::rules().day_seconds();
        assert!((l.time_of_day - t - 60.0 / day).abs() < 1e-3);
        assert_eq!(l.player_state().time_of_day, l.time_of_day);
    }
}
