//! The inventory's part of the game (I, or C for crafting): its keys (the crafting list's
//! cursor and Enter), its mouse (slots, the chest's, armour, the shop, crafting, a stack
//! thrown out) and its drawing.

use super::App;
use super::play::Play;
use crate::game::input::{Action, Mode};

impl App {
    /// The crafting list's keys while the inventory is open; `false` for another action
    /// or mode.
    pub(super) fn inventory_act(&mut self, action: Action, now: f64) -> bool {
        match action {
            // With a chest or the shop open the crafting panel is hidden: its keys do
            // nothing.
            Action::MenuUp | Action::MenuDown | Action::Confirm
                if self.mode == Mode::Inventory
                    && (self.open_chest().is_some()
                        || self.shown.as_ref().is_some_and(|w| w.me().shop)) => {}
            Action::MenuUp if self.mode == Mode::Inventory => {
                self.play.recipe_selected = self.play.recipe_selected.saturating_sub(1)
            }
            Action::MenuDown if self.mode == Mode::Inventory => {
                let n = self.shown.as_ref().map_or(0, |w| Play::recipes(w).len());
                self.play.recipe_selected =
                    (self.play.recipe_selected + 1).min(n.saturating_sub(1));
            }
            Action::Confirm if self.mode == Mode::Inventory => {
                if let Some(w) = &mut self.shown {
                    let k = self.play.recipe_selected;
                    self.play.craft_listed(w, k, now);
                }
            }
            _ => return false,
        }
        true
    }
}
