//! The fighting kinds of item rows (spear, bow, arrows, staff, thrown, explosive): each
//! field checked against its range, named by its place in `config/items.ron`.

use super::{Bad, ItemRow, Kind, KindName, bad, need, range_f, range_u};

/// The most mana a player may have (Terraria's ten mana crystals on its twenty).
pub const HIGHEST_MANA: u32 = 200;
/// The widest blast an explosive may have, tiles.
pub const MAX_RADIUS: f32 = 8.0;

/// The [`Kind`] of a row of one of the fighting kinds.
pub(super) fn kind(row: &ItemRow, at: &dyn Fn(&str) -> String) -> Result<Kind, Bad> {
    let kind = format!("{:?}", row.kind);
    let k = kind.as_str();
    let u = |f: &str, v: Option<u32>, lo: u32, hi: u32| range_u(at(f), need(at(f), v, k)?, lo, hi);
    let f = |name: &str, v: Option<f32>, lo: f32, hi: f32| {
        range_f(at(name), need(at(name), v, k)?, lo, hi)
    };
    Ok(match row.kind {
        KindName::Spear => Kind::Spear {
            damage: u("damage", row.damage, 1, 1000)?,
            reach: f("reach", row.reach, 1.0, 12.0)?,
            cooldown: f("cooldown", row.cooldown, 0.05, 5.0)?,
        },
        KindName::Bow => Kind::Bow {
            damage: u("damage", row.damage, 0, 1000)?,
            speed: f("speed", row.speed, 5.0, 80.0)?,
            cooldown: f("cooldown", row.cooldown, 0.05, 5.0)?,
        },
        KindName::Ammo => Kind::Ammo {
            damage: u("damage", row.damage, 0, 1000)?,
            fire: row.fire.unwrap_or(false),
        },
        KindName::Staff => Kind::Staff {
            damage: u("damage", row.damage, 1, 1000)?,
            mana: u("mana", row.mana, 1, HIGHEST_MANA)?,
            speed: f("speed", row.speed, 5.0, 80.0)?,
            cooldown: f("cooldown", row.cooldown, 0.05, 5.0)?,
        },
        KindName::Thrown => Kind::Thrown {
            damage: u("damage", row.damage, 1, 1000)?,
            speed: f("speed", row.speed, 5.0, 80.0)?,
            cooldown: f("cooldown", row.cooldown, 0.05, 5.0)?,
        },
        KindName::Explosive => Kind::Explosive {
            damage: u("damage", row.damage, 1, 1000)?,
            radius: f("radius", row.radius, 1.0, MAX_RADIUS)?,
            fuse: f("fuse", row.fuse, 0.2, 10.0)?,
            power: u("power", row.power, 1, 1000)?,
        },
        other => return Err(bad(at("kind"), format!("{other:?} is not a fighting kind"))),
    })
}
