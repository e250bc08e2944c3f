//! The tooltip of an item under the mouse in the inventory screen (its slots, the chest's,
//! the armour's, the shop's wares and the crafting rows): its name and what it does, from
//! the content's catalog. The lines are a plain function; drawing them beside the mouse
//! follows.

use crate::content::items::{ArmourSlot, Catalog, Effect, ItemId, Kind};
use crate::game::text;
use macroquad::prelude::*;

/// What the tooltip of `item` says, a line each: its name, then what it does (damage,
/// pickaxe or hammer power, heal, defence, what it places), then `material` when a recipe
/// is made from it.
pub fn lines(cat: &Catalog, item: ItemId) -> Vec<String> {
    let it = cat.item(item);
    let mut out = vec![it.label.clone()];
    match it.kind {
        Kind::Block(_) => out.push("can be placed".into()),
        Kind::Wall(_) => out.push("places a background wall".into()),
        Kind::Hammer { power, .. } => out.push(format!("{power}% hammer power")),
        Kind::Pickaxe { power, .. } => out.push(format!("{power}% pickaxe power")),
        Kind::Sword {
            damage, cooldown, ..
        } => {
            out.push(format!("{damage} melee damage"));
            out.push(format!("one swing every {cooldown:.2} s"));
        }
        Kind::Potion { heal, sickness } => {
            out.push(format!("restores {heal} health"));
            out.push(format!("no other potion for {sickness:.0} s"));
        }
        Kind::Armour {
            slot,
            defence,
            light,
        } => {
            let on = match slot {
                ArmourSlot::Head => "head",
                ArmourSlot::Body => "body",
                ArmourSlot::Legs => "legs",
            };
            out.push(format!("{defence} defence ({on}, right-click to wear)"));
            if light > 0 {
                out.push(format!("gives light {light}"));
            }
            if let Some(set) = cat.sets.iter().find(|s| s.pieces.contains(&item)) {
                out.push(format!("{} set: {}", set.label, set.bonus_text()));
            }
        }
        Kind::Summon => out.push("summons the Eye at night (used up)".into()),
        Kind::Accessory { effect } => {
            out.push(
                match effect {
                    Effect::Run => "run faster",
                    Effect::DoubleJump => "a second jump in the air",
                    Effect::NoFallDamage => "no fall damage",
                    Effect::Regeneration => "regenerates health",
                    Effect::Hook => "the hook key fires a grappling line",
                }
                .into(),
            );
            out.push("accessory (right-click to wear)".into());
        }
        Kind::Tool { tool } => out.push(
            match tool {
                crate::content::items::Tool::Mirror => "gaze in the mirror to return home",
                crate::content::items::Tool::EmptyBucket => "scoops up a tile of liquid",
                _ => "pours out its liquid",
            }
            .into(),
        ),
        Kind::Material => {}
        kind => out.extend(super::weapons::lines(kind)),
    }
    if cat
        .recipes
        .iter()
        .any(|r| r.from.iter().any(|&(id, _)| id == item))
    {
        out.push("material".into());
    }
    out
}

/// Draws `lines` in a dark box beside the mouse at `mouse`, kept on the `screen`.
pub fn draw(lines: &[String], mouse: (f32, f32), screen: (f32, f32), s: f32) {
    if lines.is_empty() {
        return;
    }
    let font = (16.0 * s).round() as u16;
    let line_h = 19.0 * s;
    let pad = 6.0 * s;
    let w = lines
        .iter()
        .map(|l| text::measure(l, font as f32).width)
        .fold(0.0, f32::max)
        + 2.0 * pad;
    let h = lines.len() as f32 * line_h + 2.0 * pad;
    let x = (mouse.0 + 18.0 * s).min(screen.0 - w).max(0.0);
    let y = (mouse.1 + 18.0 * s).min(screen.1 - h).max(0.0);
    draw_rectangle(x, y, w, h, Color::new(0.04, 0.04, 0.1, 0.94));
    draw_rectangle_lines(x, y, w, h, 1.5 * s, Color::new(0.6, 0.55, 0.8, 1.0));
    for (k, l) in lines.iter().enumerate() {
        // The name bright, the rest a little dimmer.
        let color = if k == 0 {
            WHITE
        } else {
            Color::new(0.78, 0.8, 0.86, 1.0)
        };
        let base = y + pad + (k as f32 + 0.78) * line_h;
        text::draw(l, x + pad, base, font as f32, color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(cat: &Catalog, name: &str) -> Vec<String> {
        lines(cat, cat.id(name).unwrap())
    }

    #[test]
    fn a_tooltip_names_the_item_and_says_what_it_does() {
        let cat = &Catalog::builtin().unwrap();
        let sword = of(cat, "copper_sword");
        assert_eq!(sword[0], "copper sword");
        let Kind::Sword { damage, .. } = cat.item(cat.id("copper_sword").unwrap()).kind else {
            panic!("the copper sword is a sword");
        };
        assert!(
            sword.contains(&format!("{damage} melee damage")),
            "{sword:?}"
        );
        let pick = of(cat, "iron_pickaxe");
        assert!(
            pick.iter().any(|l| l.ends_with("pickaxe power")),
            "{pick:?}"
        );
        assert!(!pick.iter().any(|l| l.contains("damage")));
        // Wood is made into workbenches: material. A workbench is made of nothing's
        // recipe, so it is not.
        let wood = of(cat, "wood");
        assert_eq!(
            wood.last().map(String::as_str),
            Some("material"),
            "{wood:?}"
        );
        assert!(!of(cat, "workbench").contains(&"material".to_string()));
        let potion = of(cat, "lesser_healing_potion");
        assert!(
            potion.iter().any(|l| l.starts_with("restores ")),
            "{potion:?}"
        );
        let helmet = of(cat, "iron_helmet");
        assert!(
            helmet.iter().any(|l| l.contains(" defence (head")),
            "{helmet:?}"
        );
        assert!(
            helmet.contains(&"iron armour set: +2 defence".to_string()),
            "{helmet:?}"
        );
    }
}
