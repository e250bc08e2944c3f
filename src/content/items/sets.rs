//! Armour sets: a full set of one kind of armour worn (its head, body and legs) gives a
//! bonus beside the pieces' own defence, as Terraria's sets do: more defence for the
//! metal sets, faster running for the shadow armour. The data is `config/items.ron`'s
//! `sets`, each checked against the items (every piece an Armour item, one a slot).

use super::{ArmourSlot, Bad, ItemId, Kind, bad, range_u};
use serde::Deserialize;

/// The most a set may add to the run speed, percent.
pub const MAX_SPEED: u32 = 100;
/// Most sets the file may hold.
pub const MAX_SETS: usize = 256;

/// One set as written.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetRow {
    label: String,
    /// The head, body and legs pieces (item names), in that order.
    pieces: Vec<String>,
    #[serde(default)]
    defence: u32,
    #[serde(default)]
    speed: u32,
}

/// A set and its bonus, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmourSet {
    /// What players read ("copper armour").
    pub label: String,
    /// The head, body and legs pieces.
    pub pieces: [ItemId; 3],
    /// Defence added while the whole set is worn.
    pub defence: u32,
    /// Percent added to the top run speed and the acceleration while the set is worn.
    pub speed: u32,
}

impl ArmourSet {
    /// The bonus in words, as the armour panel shows it: "+2 defence", "15% faster
    /// movement", both joined by a comma.
    pub fn bonus_text(&self) -> String {
        let mut parts = Vec::new();
        if self.defence > 0 {
            parts.push(format!("+{} defence", self.defence));
        }
        if self.speed > 0 {
            parts.push(format!("{}% faster movement", self.speed));
        }
        parts.join(", ")
    }

    /// Is this set what `worn` (by [`ArmourSlot::index`]) is?
    pub fn is_worn(&self, worn: &[Option<ItemId>; 3]) -> bool {
        self.pieces.iter().zip(worn).all(|(p, w)| *w == Some(*p))
    }
}

/// Checks the `sets` rows against `items` (the catalog's kinds by id).
pub(crate) fn check(
    rows: &[SetRow],
    id: &dyn Fn(&str) -> Option<(ItemId, Kind)>,
) -> Result<Vec<ArmourSet>, Bad> {
    if rows.len() > MAX_SETS {
        let m = format!("sets lists {}: allowed 0..={MAX_SETS}", rows.len());
        return Err(bad("sets", m));
    }
    let mut out: Vec<ArmourSet> = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let at = |f: &str| format!("sets[{i}].{f}");
        if row.label.is_empty() || row.label.len() > 64 {
            let m = format!("{} = {:?}: allowed 1 to 64 bytes", at("label"), row.label);
            return Err(bad(at("label"), m));
        }
        if row.pieces.len() != 3 {
            let m = format!(
                "{} lists {} pieces: a set is a head, a body and a legs piece",
                at("pieces"),
                row.pieces.len()
            );
            return Err(bad(at("pieces"), m));
        }
        let mut pieces = [ItemId(0); 3];
        for (j, slot) in ArmourSlot::ALL.into_iter().enumerate() {
            let f = format!("{}[{j}]", at("pieces"));
            let name = &row.pieces[j];
            let fits = |k: Kind| matches!(k, Kind::Armour { slot: s, .. } if s == slot);
            match id(name) {
                Some((piece, k)) if fits(k) => pieces[j] = piece,
                Some(_) => {
                    let m = format!("{f} = {name:?} is not {slot:?} armour");
                    return Err(bad(f, m));
                }
                None => {
                    let m = format!("{f} = {name:?} is not an item of config/items.ron");
                    return Err(bad(f, m));
                }
            }
        }
        if let Some(j) = out.iter().position(|s| s.pieces == pieces) {
            let m = format!("{}: the same pieces as sets[{j}]", at("pieces"));
            return Err(bad(at("pieces"), m));
        }
        let defence = range_u(at("defence"), row.defence, 0, 100)?;
        let speed = range_u(at("speed"), row.speed, 0, MAX_SPEED)?;
        if defence == 0 && speed == 0 {
            let m = format!("{}: a set gives a defence or a speed bonus", at("defence"));
            return Err(bad(at("defence"), m));
        }
        out.push(ArmourSet {
            label: row.label.clone(),
            pieces,
            defence,
            speed,
        });
    }
    Ok(out)
}
