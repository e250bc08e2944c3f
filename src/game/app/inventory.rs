//! The inventory's part of the game (I, or C for crafting): its keys (the crafting list's
//! cursor and Enter), its mouse (slots, the chest's, armour, the shop, crafting, a stack
//! thrown out) and its drawing.

use super::App;
use crate::content::items::ItemId;
use crate::game::input::{Action, Mode};
use crate::game::ui::invscreen;
use crate::game::ui::layout::Layout;
use crate::game::worlds::state::Loaded;
use crate::world::inventory::Stack;
use macroquad::prelude::{MouseButton, Texture2D, is_mouse_button_pressed, vec2};

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
                        || self.shown.as_ref().is_some_and(|w| w.me().shop.is_some())) => {}
            Action::MenuUp if self.mode == Mode::Inventory => {
                self.play.recipe_selected = self.play.recipe_selected.saturating_sub(1)
            }
            Action::MenuDown if self.mode == Mode::Inventory => {
                let n = self
                    .shown
                    .as_ref()
                    .map_or(0, |w| self.play.recipes(w).len());
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

    /// A click in the inventory screen: a slot, the chest's, armour, the shop's wares or a
    /// slot sold (right button), a recipe, or a held stack thrown out of the panels.
    pub fn inventory_click(&mut self, lay: &Layout, mouse: (f32, f32), now: f64) {
        if self.mode == Mode::Inventory
            && is_mouse_button_pressed(MouseButton::Left)
            && let Some(w) = &mut self.shown
        {
            let chest = w.me().chest.is_some();
            let shop = w.me().shop.is_some();
            let n = self.play.recipes(w).len();
            let first = self.play.recipe_first(n, lay.recipe_rows.len());
            let wares = w
                .me()
                .shop
                .and_then(|s| w.session.content.town.shop(s))
                .map_or(0, |r| r.sells.len());
            if let Some(k) = invscreen::recipe_at(wares, 0, lay, mouse).filter(|_| shop) {
                self.play.buy(w, k, now);
            } else if let Some(i) = invscreen::slot_at(lay, mouse) {
                self.play.click_slot(w, i);
            } else if let Some(i) = invscreen::chest_slot_at(lay, mouse).filter(|_| chest) {
                self.play.click_chest(w, i, now);
            } else if let Some(i) = invscreen::armour_slot_at(lay, mouse) {
                self.play
                    .act(w, crate::sim::session::Intent::ClickArmour(i), now);
            } else if let Some(i) = invscreen::accessory_slot_at(lay, mouse) {
                self.play
                    .act(w, crate::sim::session::Intent::ClickAccessory(i), now);
            } else if let Some(b) = invscreen::chest_button_at(lay, mouse).filter(|_| chest) {
                let all = [
                    crate::sim::session::Intent::LootAll,
                    crate::sim::session::Intent::DepositAll,
                ];
                self.play.act(w, all[b], now);
            } else if !chest
                && !shop
                && let Some(k) = invscreen::recipe_at(n, first, lay, mouse)
            {
                self.play.recipe_selected = k;
                self.play.craft_listed(w, k, now);
            } else if w.me().held.is_some()
                && ![lay.inventory, lay.chest, lay.crafting]
                    .iter()
                    .flatten()
                    .any(|r| r.contains(vec2(mouse.0, mouse.1)))
            {
                // A stack dragged out of the panels is thrown into the world.
                self.play.act(w, crate::sim::session::Intent::Throw, now);
            }
        }
        // With the shop open a right-click on a slot sells its stack.
        if self.mode == Mode::Inventory
            && is_mouse_button_pressed(MouseButton::Right)
            && let Some(w) = &mut self.shown
            && w.me().shop.is_some()
            && let Some(i) = invscreen::slot_at(lay, mouse)
        {
            self.play.sell(w, i, now);
        }
    }

    /// The inventory screen of world `w` when it is open (slots, the held stack, the open
    /// chest or the shop's wares, and the crafting list), then the tooltip of the item
    /// under the mouse: on any of those, or on the hotbar in play.
    pub fn draw_inventory(&self, w: &Loaded, atlas: &Texture2D, lay: &Layout) {
        if self.mode == Mode::Inventory {
            self.draw_screen(w, atlas, lay);
        }
        let mouse = macroquad::prelude::mouse_position();
        let item = match self.mode {
            _ if w.me().held.is_some() => None,
            Mode::Inventory => self.hovered(w, lay, mouse),
            Mode::World => lay
                .hotbar_at(mouse)
                .and_then(|i| w.session.me().inventory.slots()[i].map(|s| s.item)),
            _ => None,
        };
        if let Some(item) = item {
            let lines = crate::game::ui::tooltip::lines(&w.session.content.catalog, item);
            crate::game::ui::tooltip::draw(&lines, mouse, lay.screen, lay.s);
        }
    }

    /// The inventory screen's slots, panels and rows.
    fn draw_screen(&self, w: &Loaded, atlas: &Texture2D, lay: &Layout) {
        let list = self.play.recipes(w);
        let selected = self.play.recipe_selected.min(list.len().saturating_sub(1));
        let first = self.play.recipe_first(list.len(), lay.recipe_rows.len());
        let content = std::sync::Arc::clone(&w.session.content);
        let empty = crate::world::chest::Chest::empty();
        let chest = w
            .me()
            .chest
            .map(|at| open_slots(w, at).unwrap_or(empty.slots()));
        let coins = &content.town.coins;
        let money = crate::sim::coins::worth(&w.session.me().inventory, coins);
        let shop = w.me().shop.map(|seller| (seller, money));
        invscreen::draw(
            &content,
            &w.session.me().inventory,
            w.me().held,
            chest,
            shop,
            &list,
            (selected, first),
            atlas,
            lay,
        );
    }

    /// The item under the mouse at `mouse` in the inventory screen: in a slot (the
    /// inventory's, the armour's, the open chest's), a ware of the shop or a crafting row's
    /// result.
    fn hovered(&self, w: &Loaded, lay: &Layout, mouse: (f32, f32)) -> Option<ItemId> {
        let me = w.me();
        let inv = &w.session.me().inventory;
        if let Some(i) = invscreen::slot_at(lay, mouse) {
            return inv.slots()[i].map(|s| s.item);
        }
        if let Some(i) = invscreen::armour_slot_at(lay, mouse) {
            return inv.armour()[i];
        }
        if let Some(i) = invscreen::accessory_slot_at(lay, mouse) {
            return inv.accessories()[i];
        }
        if let Some(at) = me.chest {
            let i = invscreen::chest_slot_at(lay, mouse)?;
            return open_slots(w, at)?.get(i).copied().flatten().map(|s| s.item);
        }
        if let Some(rules) = me.shop.and_then(|s| w.session.content.town.shop(s)) {
            let sells = &rules.sells;
            return invscreen::recipe_at(sells.len(), 0, lay, mouse).map(|k| sells[k]);
        }
        let list = self.play.recipes(w);
        let first = self.play.recipe_first(list.len(), lay.recipe_rows.len());
        let k = invscreen::recipe_at(list.len(), first, lay, mouse)?;
        Some(w.session.content.catalog.recipes[list[k].0].make)
    }
}

/// The slots the chest panel shows for the chest open at `(x, y)` in `w`: the player's own
/// bank at a piggy bank, else the chest's (`None`: an empty chest with no entry).
fn open_slots(w: &Loaded, (x, y): (usize, usize)) -> Option<&[Option<Stack>]> {
    if w.world().tile(x, y) == crate::world::Tile::PiggyBank {
        return Some(w.me().bank.slots());
    }
    w.world().chests.get(x, y).map(|c| &c.slots()[..])
}
