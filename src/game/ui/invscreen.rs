//! The inventory screen (I, or C for crafting): every slot in four rows of nine, the
//! hotbar as the first row; a click picks a stack up and puts it down (merging onto the
//! same item, swapping with another); beside it the crafting panel lists what can be made
//! from what is carried, near which station, or, when a chest was opened (right-click),
//! the chest's three rows of nine, whose slots take clicks as the inventory's do. Layout,
//! the list and hit-testing are plain functions; drawing follows.

use crate::content::config::Content;
use crate::content::items::Catalog;
use crate::game::text;

use crate::sim::craft::{CraftRefusal, Stations};

use crate::world::chest::BANK_SLOTS;

use crate::world::inventory::{Inventory, Stack};
use macroquad::prelude::*;

use super::layout::{Layout, contains};

/// The inventory slot under screen point `p` (the inventory screen open).
pub fn slot_at(lay: &Layout, p: (f32, f32)) -> Option<usize> {
    lay.slots?.iter().position(|r| contains(r, p))
}

/// The armour slot (head, body, legs) under screen point `p`.
pub fn armour_slot_at(lay: &Layout, p: (f32, f32)) -> Option<usize> {
    lay.armour_slots?.iter().position(|r| contains(r, p))
}

/// The accessory slot under `p`, if any.
pub fn accessory_slot_at(lay: &Layout, p: (f32, f32)) -> Option<usize> {
    lay.accessory_slots?.iter().position(|r| contains(r, p))
}

/// The open chest's button under screen point `p`: 0 loot all, 1 deposit all.
pub fn chest_button_at(lay: &Layout, p: (f32, f32)) -> Option<usize> {
    lay.chest_buttons?.iter().position(|r| contains(r, p))
}

/// What the armour row says beside its slots: the total defence worn, and the bonus of
/// a whole set worn ("Armour: defence 11; copper armour set: +2 defence").
pub fn defence_line(inv: &Inventory) -> String {
    match inv.set_worn() {
        Some(s) => format!(
            "Armour: defence {}; {} set: {}",
            inv.defence(),
            s.label,
            s.bonus_text()
        ),
        None => format!("Armour: defence {}", inv.defence()),
    }
}

/// `line` as it fits in `room` pixels by `width`: whole, or broken after its "; " parts
/// (the set's bonus on a line of its own at 1280 px and a large UI scale).
pub fn split_to_fit(line: &str, room: f32, width: impl Fn(&str) -> f32) -> Vec<String> {
    if width(line) <= room {
        return vec![line.to_string()];
    }
    line.split("; ").map(str::to_string).collect()
}

/// The chest slot under screen point `p` (a chest open).
pub fn chest_slot_at(lay: &Layout, p: (f32, f32)) -> Option<usize> {
    lay.chest_slots
        .as_ref()?
        .iter()
        .position(|r| contains(r, p))
}

/// The recipes the panel lists, as (index in `cat.recipes`, can it be made now): those
/// that can be made first, then those missing only their station, then those of which
/// something is carried; recipes of which nothing is carried are left out.
pub fn listed(
    cat: &Catalog,
    inv: &Inventory,
    near: Stations,
) -> Vec<(usize, Result<(), CraftRefusal>)> {
    let mut out: Vec<(usize, Result<(), CraftRefusal>)> = cat
        .recipes
        .iter()
        .enumerate()
        .map(|(i, r)| (i, crate::sim::craft::status(r, inv, near)))
        .filter(|(i, st)| {
            !matches!(st, Err(CraftRefusal::Missing(..)))
                || cat.recipes[*i]
                    .from
                    .iter()
                    .any(|&(id, _)| inv.count(id) > 0)
        })
        .collect();
    out.sort_by_key(|(i, st)| {
        let rank = match st {
            Ok(()) => 0,
            Err(CraftRefusal::NotNear(_)) => 1,
            Err(_) => 2,
        };
        (rank, *i)
    });
    out
}

/// The panel's rows while the inventory screen stays open: the recipes `kept` since it
/// opened keep their places (greyed, saying what is missing, when their materials run
/// out) and recipes newly [`listed`] come after them, so the same click never makes
/// another item.
pub fn keep_places(
    cat: &Catalog,
    inv: &Inventory,
    near: Stations,
    kept: &[usize],
) -> Vec<(usize, Result<(), CraftRefusal>)> {
    let mut rows: Vec<(usize, Result<(), CraftRefusal>)> = kept
        .iter()
        .filter_map(|&i| Some((i, crate::sim::craft::status(cat.recipes.get(i)?, inv, near))))
        .collect();
    for (i, st) in listed(cat, inv, near) {
        if !kept.contains(&i) {
            rows.push((i, st));
        }
    }
    rows
}

/// The entry of a list of `n` whose crafting row is under screen point `p`, the rows
/// shown from entry `first` (see [`super::menus::keep_shown`]).
pub fn recipe_at(n: usize, first: usize, lay: &Layout, p: (f32, f32)) -> Option<usize> {
    let k = lay.recipe_rows.iter().position(|r| contains(r, p))?;
    (first + k < n).then_some(first + k)
}

/// One line of the panel: `workbench x1  <- 8 wood` and why it cannot be made yet.
pub fn recipe_line(cat: &Catalog, i: usize, status: Result<(), CraftRefusal>) -> String {
    let r = &cat.recipes[i];
    let from: Vec<String> = r
        .from
        .iter()
        .map(|&(id, n)| format!("{n} {}", cat.item(id).label))
        .collect();
    let mut line = format!(
        "{} x{}  <- {}",
        cat.item(r.make).label,
        r.count,
        from.join(", ")
    );
    if let Err(e) = status {
        line.push_str(&format!("  ({})", e.text(cat)));
    }
    line
}

/// The panel's rows as one log line, in their order: each result's name, with `+` where
/// it can be made now (`crafting panel: workbench+ wooden_sword+ furnace+ chest`).
pub fn panel_line(cat: &Catalog, list: &[(usize, Result<(), CraftRefusal>)]) -> String {
    let mut line = String::from("crafting panel:");
    for &(i, st) in list {
        let now = if st.is_ok() { "+" } else { "" };
        line.push_str(&format!(" {}{now}", cat.item(cat.recipes[i].make).name));
    }
    line
}

/// A grid of slots under its title, the `selected` one outlined.
fn draw_grid(
    cat: &Catalog,
    title: &str,
    rects: &[Rect],
    slots: &[Option<Stack>],
    selected: Option<usize>,
    atlas: &Texture2D,
    s: f32,
) {
    let font = (16.0 * s).round() as u16;
    text::draw(title, rects[0].x, rects[0].y - 10.0 * s, 20.0 * s, WHITE);
    for (i, (r, &stack)) in rects.iter().zip(slots).enumerate() {
        draw_rectangle(r.x, r.y, r.w, r.h, Color::new(0.05, 0.05, 0.08, 0.85));
        let (line, color) = if selected == Some(i) {
            (3.0 * s, Color::new(1.0, 0.85, 0.3, 1.0))
        } else {
            (1.0 * s, Color::new(0.7, 0.72, 0.75, 0.8))
        };
        draw_rectangle_lines(r.x, r.y, r.w, r.h, line, color);
        if let Some(stack) = stack {
            super::hud::draw_stack(cat, stack, atlas, *r, s, font);
        }
    }
}

/// One line of a shop: the item and its price (`torch: 50 copper`).
pub fn ware_line(content: &Content, item: crate::content::items::ItemId, price: u64) -> String {
    format!(
        "{}: {}",
        content.catalog.item(item).label,
        crate::sim::shop::copper_text(content, price)
    )
}

/// Draws the screen: slots, the stack on the cursor, and beside them the open `chest`
/// (its slots: a chest's, or a piggy bank's),
/// a shop (`shop`: its seller's name and the copper carried, when it is open) or the crafting
/// panel with `selected` highlighted.
#[allow(clippy::too_many_arguments)]
pub fn draw(
    content: &Content,
    inv: &Inventory,
    held: Option<Stack>,
    chest: Option<&[Option<Stack>]>,
    shop: Option<(&str, u64)>,
    list: &[(usize, Result<(), CraftRefusal>)],
    (selected, first): (usize, usize),
    atlas: &Texture2D,
    lay: &Layout,
) {
    let (screen, s) = (lay.screen, lay.s);
    let cat: &Catalog = &content.catalog;
    draw_rectangle(
        0.0,
        0.0,
        screen.0,
        screen.1,
        Color::new(0.0, 0.0, 0.0, 0.45),
    );
    let font = (16.0 * s).round() as u16;
    let title = "Inventory (I or Esc closes)";
    if let Some(rects) = lay.slots {
        draw_grid(
            cat,
            title,
            &rects,
            inv.slots(),
            Some(inv.selected()),
            atlas,
            s,
        );
    }
    if let (Some(rects), Some(extra)) = (lay.armour_slots, lay.accessory_slots) {
        let worn = inv.armour().map(|p| p.map(|item| Stack { item, count: 1 }));
        let acc = inv
            .accessories()
            .map(|p| p.map(|item| Stack { item, count: 1 }));
        let names = ["head", "body", "legs"].into_iter().chain(["acc"; 5]);
        let all = rects.iter().chain(&extra).zip(worn.iter().chain(&acc));
        for ((r, piece), name) in all.zip(names) {
            draw_rectangle(r.x, r.y, r.w, r.h, Color::new(0.12, 0.1, 0.16, 0.9));
            draw_rectangle_lines(r.x, r.y, r.w, r.h, 2.0 * s, Color::new(0.5, 0.45, 0.6, 1.0));
            match piece {
                Some(p) => super::hud::draw_stack(cat, *p, atlas, *r, s, font),
                None => {
                    text::draw(name, r.x + 4.0 * s, r.y + r.h - 6.0 * s, 14.0 * s, GRAY);
                }
            }
        }
        let last = extra[extra.len() - 1];
        let x = last.right() + 8.0 * s;
        let px = 16.0 * s;
        let lines = split_to_fit(&defence_line(inv), screen_width() - x - 4.0 * s, |t| {
            text::measure(t, px).width
        });
        let step = 18.0 * s;
        let top = last.y + last.h / 2.0 + 6.0 * s - step * (lines.len() - 1) as f32 / 2.0;
        for (i, line) in lines.iter().enumerate() {
            text::draw(line, x, top + step * i as f32, px, WHITE);
        }
    }
    match (chest, &lay.chest_slots) {
        (Some(chest), Some(rects)) => {
            let title = if chest.len() == BANK_SLOTS {
                "Piggy bank"
            } else {
                "Chest"
            };
            draw_grid(cat, title, rects, chest, None, atlas, s);
            for (r, label) in lay
                .chest_buttons
                .iter()
                .flatten()
                .zip(["Loot all (Z)", "Deposit all (N)"])
            {
                draw_rectangle(r.x, r.y, r.w, r.h, Color::new(0.2, 0.18, 0.1, 0.92));
                draw_rectangle_lines(r.x, r.y, r.w, r.h, 2.0 * s, Color::new(0.7, 0.6, 0.3, 1.0));
                let w = text::measure(label, font as f32).width;
                let y = r.y + r.h / 2.0 + 6.0 * s;
                text::draw(label, r.x + (r.w - w) / 2.0, y, font as f32, WHITE);
            }
        }
        _ => match shop {
            Some((seller, money)) => draw_shop(content, seller, money, atlas, lay),
            None => draw_crafting(cat, list, (selected, first), atlas, lay),
        },
    }
    if let Some(h) = held {
        let (mx, my) = mouse_position();
        let side = 44.0 * s;
        super::hud::draw_stack(
            cat,
            h,
            atlas,
            Rect::new(mx - side / 2.0, my - side / 2.0, side, side),
            s,
            font,
        );
    }
}

/// The wares of `seller`'s shop right of the slots, in the crafting panel's rows, under
/// its name.
fn draw_shop(content: &Content, seller: &str, money: u64, atlas: &Texture2D, lay: &Layout) {
    let s = lay.s;
    let Some(panel) = lay.crafting else { return };
    let Some(m) = content.town.shop(seller) else {
        return;
    };
    let font = (16.0 * s).round() as u16;
    let cat = &content.catalog;
    let title = format!(
        "{seller} ({}): click buys, right-click sells",
        crate::sim::shop::copper_text(content, money)
    );
    text::draw(&title, panel.x, panel.y + 18.0 * s, 20.0 * s, WHITE);
    for (r, &item) in lay.recipe_rows.iter().zip(&m.sells) {
        let price = m.price(item).unwrap_or(0);
        let text = ware_line(content, item, price);
        let row = (false, price <= money);
        draw_row(cat.item(item), &text, row, (atlas, r, s, font));
    }
}

/// One row of a panel: `item`'s icon and `text`, `(highlighted, can)`: the selection's
/// background, and white text for what can be done now (grey for what cannot).
fn draw_row(
    item: &crate::content::items::Item,
    text: &str,
    (highlighted, can): (bool, bool),
    (atlas, r, s, font): (&Texture2D, &Rect, f32, u16),
) {
    let bg = if highlighted {
        Color::new(0.25, 0.22, 0.1, 0.92)
    } else {
        Color::new(0.05, 0.05, 0.08, 0.85)
    };
    draw_rectangle(r.x, r.y, r.w, r.h, bg);
    let icon = Rect::new(r.x + 4.0 * s, r.y + 4.0 * s, r.h - 8.0 * s, r.h - 8.0 * s);
    super::hud::draw_item(item, atlas, icon);
    let color = if can {
        WHITE
    } else {
        Color::new(0.62, 0.62, 0.66, 1.0)
    };
    text::draw(
        text,
        r.x + r.h + 2.0 * s,
        r.y + r.h * 0.68,
        font as f32,
        color,
    );
}

/// The crafting panel right of the slots from entry `first`, `selected` highlighted.
fn draw_crafting(
    cat: &Catalog,
    list: &[(usize, Result<(), CraftRefusal>)],
    (selected, first): (usize, usize),
    atlas: &Texture2D,
    lay: &Layout,
) {
    let s = lay.s;
    let Some(panel) = lay.crafting else { return };
    let font = (16.0 * s).round() as u16;
    let title = if list.is_empty() {
        "Crafting: nothing to make from what you carry"
    } else {
        "Crafting (click, or Up/Down and Enter)"
    };
    text::draw(title, panel.x, panel.y + 18.0 * s, 20.0 * s, WHITE);
    // From `first` when there are more than fit (kept in place, see `keep_shown`).
    let shown = list.iter().enumerate().skip(first);
    for (r, (k, &(i, st))) in lay.recipe_rows.iter().zip(shown) {
        let text = recipe_line(cat, i, st);
        let row = (k == selected, st.is_ok());
        draw_row(
            cat.item(cat.recipes[i].make),
            &text,
            row,
            (atlas, r, s, font),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Tile;
    use crate::world::chest::CHEST_SLOTS;

    #[test]
    fn the_panel_lists_what_can_be_made_first_and_hides_what_nothing_is_carried_for() {
        let cat = &std::sync::Arc::new(Catalog::builtin().unwrap());
        let mut inv = Inventory::empty(cat);
        assert!(listed(cat, &inv, Stations::default()).is_empty());
        inv.add(Tile::Wood, 10);
        let list = listed(cat, &inv, Stations::default());
        let first = &cat.recipes[list[0].0];
        assert_eq!(cat.item(first.make).name, "workbench");
        assert!(list[0].1.is_ok());
        // The wooden sword needs the workbench: listed after, saying so.
        let sword = list
            .iter()
            .find(|(i, _)| cat.item(cat.recipes[*i].make).name == "wooden_sword")
            .unwrap();
        assert_eq!(sword.1, Err(CraftRefusal::NotNear(Tile::Workbench)));
        assert!(recipe_line(cat, sword.0, sword.1).contains("stand near a workbench"));
        let near = listed(cat, &inv, Stations::default().with(Tile::Workbench));
        assert!(near.iter().take(2).all(|(_, st)| st.is_ok()));
        // Nothing of iron carried: no bars, no anvil (the iron pickaxe is listed, for its
        // wood).
        let names: Vec<&str> = list
            .iter()
            .map(|(i, _)| cat.item(cat.recipes[*i].make).name.as_str())
            .collect();
        assert!(
            !names.contains(&"iron_bar") && !names.contains(&"anvil"),
            "{names:?}"
        );
        assert!(names.contains(&"iron_pickaxe"));
        // The log line names the rows in the same order, `+` on what can be made now.
        let line = panel_line(cat, &list);
        assert!(line.starts_with("crafting panel: workbench+ "), "{line}");
        assert!(line.contains(" wooden_sword ") && !line.contains("wooden_sword+"));
        assert_eq!(line.split(' ').count(), list.len() + 2);
        assert_eq!(panel_line(cat, &[]), "crafting panel:");
    }

    #[test]
    fn rows_keep_their_places_as_materials_run_out() {
        let cat = &std::sync::Arc::new(Catalog::builtin().unwrap());
        let mut inv = Inventory::empty(cat);
        inv.add(Tile::Wood, 20);
        inv.add("gel", 1);
        let near = Stations::default().with(Tile::Workbench);
        let opened: Vec<usize> = listed(cat, &inv, near).iter().map(|r| r.0).collect();
        let rows = keep_places(cat, &inv, near, &opened);
        assert_eq!(rows, listed(cat, &inv, near), "as listed when it opens");
        // The wood and gel run out: every row stays where it was, greyed.
        let wood = cat.id("wood").unwrap();
        assert!(inv.remove(wood, 20));
        assert!(inv.remove("gel", 1));
        let after = keep_places(cat, &inv, near, &opened);
        let ids: Vec<usize> = after.iter().map(|r| r.0).collect();
        assert_eq!(ids, opened);
        assert!(after.iter().all(|r| r.1.is_err()));
        assert!(
            listed(cat, &inv, near).is_empty(),
            "freshly, nothing is listed"
        );
        // Stone picked up while open: its recipes come after the rows already there.
        inv.add(Tile::Stone, 5);
        let more = keep_places(cat, &inv, near, &opened);
        assert_eq!(
            more[..opened.len()].iter().map(|r| r.0).collect::<Vec<_>>(),
            opened
        );
        let wall = cat
            .recipes
            .iter()
            .position(|r| cat.item(r.make).name == "stone_wall");
        assert!(more[opened.len()..].iter().any(|r| Some(r.0) == wall));
    }

    #[test]
    fn the_panel_lists_a_mod_s_recipe() {
        let gel = crate::content::mods::ModText {
            name: "mods/gel.ron".into(),
            text: crate::content::mods::tests::GEL_SWORD.into(),
        };
        let content = Content::with_mods(&[gel]).unwrap();
        let cat = &content.catalog;
        let mut inv = Inventory::empty(cat);
        inv.add("gel", 5);
        inv.add("wood", 2);
        let list = listed(cat, &inv, Stations::default());
        let sword = cat.recipes.len() - 1;
        assert_eq!(cat.item(cat.recipes[sword].make).name, "gel_sword");
        assert!(list.contains(&(sword, Ok(()))), "{list:?}");
        assert_eq!(
            recipe_line(cat, sword, Ok(())),
            "gel sword x1  <- 5 gel, 2 wood"
        );
        assert!(panel_line(cat, &list).contains(" gel_sword+"));
        // The built-in catalog has no such recipe to list.
        let builtin = Content::builtin();
        let plain = listed(&builtin.catalog, &inv, Stations::default());
        assert!(
            plain
                .iter()
                .all(|&(i, _)| i < builtin.catalog.recipes.len())
        );
    }

    fn lay(screen: (f32, f32), s: f32, chest: bool) -> Layout {
        let open = super::super::layout::Open {
            inventory: true,
            chest,
            ..Default::default()
        };
        super::super::layout::layout(screen, s, &open)
    }

    #[test]
    fn slots_are_four_rows_of_nine_without_overlap_and_rows_hit_test() {
        let screen = (1280.0, 720.0);
        let l = lay(screen, 1.0, false);
        let r = l.slots.unwrap();
        assert!(r[..9].iter().all(|q| q.y == r[0].y));
        assert!(r[9].y > r[0].y + r[0].h && r[35].y + r[35].h < 720.0);
        for w in r.windows(2).filter(|w| w[0].y == w[1].y) {
            assert!(w[0].x + w[0].w < w[1].x);
        }
        let centre = |q: Rect| (q.x + q.w / 2.0, q.y + q.h / 2.0);
        assert_eq!(slot_at(&l, centre(r[22])), Some(22));
        let rows = &l.recipe_rows;
        assert!(
            rows[0].x > r[8].x + r[8].w,
            "the panel is right of the slots"
        );
        assert_eq!(recipe_at(5, 0, &l, centre(rows[3])), Some(3));
        assert_eq!(recipe_at(2, 0, &l, centre(rows[3])), None);
        assert_eq!(recipe_at(5, 0, &l, centre(r[0])), None);
        // At 640x480 the panel still fits some rows.
        assert!(
            !lay((640.0, 480.0), ui_scale((640.0, 480.0)), false)
                .recipe_rows
                .is_empty()
        );
    }

    #[test]
    fn a_chest_is_three_rows_of_nine_right_of_the_inventory_and_on_screen() {
        for screen in [(1280.0, 720.0), (640.0, 480.0), (1920.0, 1080.0)] {
            let l = lay(screen, ui_scale(screen), true);
            let inv = l.slots.unwrap();
            let c = l.chest_slots.clone().unwrap();
            assert!(c[0].x > inv[8].x + inv[8].w, "{screen:?}");
            assert!(c[..9].iter().all(|q| q.y == c[0].y) && c[9].y > c[0].y + c[0].h);
            let last = c[CHEST_SLOTS - 1];
            assert!(
                last.x + last.w <= screen.0 && last.y + last.h <= screen.1,
                "{screen:?}"
            );
            let centre = |q: Rect| (q.x + q.w / 2.0, q.y + q.h / 2.0);
            assert_eq!(chest_slot_at(&l, centre(c[13])), Some(13));
            assert_eq!(chest_slot_at(&l, centre(inv[13])), None);
        }
    }

    #[test]
    fn a_piggy_banks_forty_slots_fill_the_chest_panel_and_stay_on_screen() {
        for screen in [(1280.0, 720.0), (1920.0, 1080.0)] {
            let open = super::super::layout::Open {
                inventory: true,
                chest: true,
                bank: true,
                ..Default::default()
            };
            let l = super::super::layout::layout(screen, ui_scale(screen), &open);
            let c = l.chest_slots.clone().unwrap();
            assert_eq!(c.len(), BANK_SLOTS);
            let last = c[BANK_SLOTS - 1];
            assert!(last.y + last.h <= screen.1, "{screen:?}");
            let panel = l.chest.unwrap();
            assert!(last.y + last.h <= panel.y + panel.h, "{screen:?}");
            let armour = l.armour_slots.unwrap();
            assert!(
                armour[0].y > last.y + last.h,
                "the armour row under the bank"
            );
            let centre = |q: Rect| (q.x + q.w / 2.0, q.y + q.h / 2.0);
            assert_eq!(chest_slot_at(&l, centre(last)), Some(BANK_SLOTS - 1));
        }
    }

    fn ui_scale(screen: (f32, f32)) -> f32 {
        crate::game::ui::scale(screen)
    }

    #[test]
    fn the_armour_line_breaks_at_its_parts_only_when_it_does_not_fit() {
        // One pixel a character, as a stand-in for the font's advances.
        let width = |t: &str| t.chars().count() as f32;
        let line = "Armour: defence 9; iron armour set: +2 defence";
        assert_eq!(split_to_fit(line, 100.0, width), vec![line.to_string()]);
        let broken = split_to_fit(line, 30.0, width);
        assert_eq!(
            broken,
            vec!["Armour: defence 9", "iron armour set: +2 defence"]
        );
        assert!(broken.iter().all(|l| width(l) <= 30.0));
        assert_eq!(split_to_fit("Armour: defence 0", 5.0, width).len(), 1);
    }
}
