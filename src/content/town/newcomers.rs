//! The town's newcomers (`newcomers:` of `config/town.ron`): who else moves in, when,
//! what each sells and says. Each arrives once every condition of its `when` holds for
//! one player present ([`Needs`]); the Merchant and the Nurse keep their own sections.

use super::{MAX_PRICE, MAX_SAY, MerchantRules, PriceRow, item_named};
use crate::content::items::{Bad, Catalog, ItemId, bad};
use serde::Deserialize;

/// The bosses a `Defeated(name)` may name: the world's progress has a flag for each
/// (`crate::world::progress::Progress::defeated`).
pub const BOSSES: &[&str] = &["eye", "eater", "skeletron", "wall"];
/// Most newcomers a town file lists, lines one says, and wares one sells.
pub const MAX_NEWCOMERS: usize = 16;
pub const MAX_TALK: usize = 16;
pub const MAX_WARES: usize = 40;

/// One condition of a newcomer's arrival.
#[derive(Clone, Debug, PartialEq)]
pub enum Needs {
    /// It is night.
    Night,
    /// The player carries the item.
    Has(ItemId),
    /// The player does not carry it.
    Lacks(ItemId),
    /// The boss (one of [`BOSSES`]) has been defeated in this world.
    Defeated(&'static str),
    /// The player carries at least this much copper in coins.
    Carries(u64),
    /// The player's most health is at least this (life crystals used).
    MostHealth(f32),
}

/// A townsperson who moves in once [`Newcomer::when`] holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Newcomer {
    /// One of [`super::NAMES`] after the Guide, the Merchant and the Nurse.
    pub name: &'static str,
    pub when: Vec<Needs>,
    /// The shop, when it sells anything: its wares at their prices, and what it pays for
    /// an item sold to it (the Merchant's share of the price, of its own prices and the
    /// Merchant's).
    pub shop: Option<MerchantRules>,
    /// What it says to a right-click when it has no shop (a line by the second of the
    /// click, so they come in turn).
    pub talk: Vec<String>,
}

#[derive(Deserialize)]
pub(crate) enum NeedsRow {
    Night,
    Has(String),
    Lacks(String),
    Defeated(String),
    Carries(u64),
    MostHealth(f32),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewcomerRow {
    name: String,
    when: Vec<NeedsRow>,
    #[serde(default)]
    sells: Vec<PriceRow>,
    #[serde(default)]
    talk: Vec<String>,
}

/// The checked newcomers, their shops paying as `merchant` does.
pub(crate) fn check(
    rows: &[NewcomerRow],
    cat: &Catalog,
    merchant: &MerchantRules,
) -> Result<Vec<Newcomer>, Bad> {
    if rows.len() > MAX_NEWCOMERS {
        let m = format!(
            "newcomers lists {}: allowed 0..={MAX_NEWCOMERS}",
            rows.len()
        );
        return Err(bad("newcomers", m));
    }
    let mut out: Vec<Newcomer> = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let at = |f: &str| format!("newcomers[{i}].{f}");
        let allowed = &super::NAMES[3..];
        let name = allowed
            .iter()
            .copied()
            .find(|n| *n == row.name && !out.iter().any(|o| o.name == *n))
            .ok_or_else(|| {
                let m = format!(
                    "{} = {:?}: allowed once each of {}",
                    at("name"),
                    row.name,
                    allowed.join(", ")
                );
                bad(at("name"), m)
            })?;
        super::at_most_conditions(at("when"), row.when.len())?;
        let mut when = Vec::with_capacity(row.when.len());
        for (j, w) in row.when.iter().enumerate() {
            let field = format!("{}[{j}]", at("when"));
            let item = |n: &str| item_named(cat, &field, n).map_err(|e| bad(at("when"), e.message));
            when.push(match w {
                NeedsRow::Night => Needs::Night,
                NeedsRow::Has(n) => Needs::Has(item(n)?),
                NeedsRow::Lacks(n) => Needs::Lacks(item(n)?),
                NeedsRow::Defeated(n) => {
                    let b = BOSSES.iter().copied().find(|b| b == n).ok_or_else(|| {
                        let m = format!(
                            "{field}: Defeated({n:?}) names no boss: allowed {}",
                            BOSSES.join(", ")
                        );
                        bad(at("when"), m)
                    })?;
                    Needs::Defeated(b)
                }
                NeedsRow::Carries(c) if *c <= MAX_PRICE => Needs::Carries(*c),
                NeedsRow::MostHealth(h) if h.is_finite() && (0.0..=1000.0).contains(h) => {
                    Needs::MostHealth(*h)
                }
                NeedsRow::Carries(_) | NeedsRow::MostHealth(_) => {
                    let m = format!(
                        "{field}: Carries allows 0..={MAX_PRICE} copper, MostHealth [0, 1000]"
                    );
                    return Err(bad(at("when"), m));
                }
            });
        }
        if row.talk.len() > MAX_TALK
            || row
                .talk
                .iter()
                .any(|t| t.trim().is_empty() || t.len() > MAX_SAY)
        {
            let m = format!(
                "{}: allowed 0..={MAX_TALK} lines of 1 to {MAX_SAY} bytes",
                at("talk")
            );
            return Err(bad(at("talk"), m));
        }
        out.push(Newcomer {
            name,
            when,
            shop: shop(&row.sells, cat, merchant, &at("sells"))?,
            talk: row.talk.clone(),
        });
    }
    Ok(out)
}

/// A newcomer's shop from its `sells` (field `field`), `None` when it sells nothing.
fn shop(
    rows: &[PriceRow],
    cat: &Catalog,
    merchant: &MerchantRules,
    field: &str,
) -> Result<Option<MerchantRules>, Bad> {
    if rows.is_empty() {
        return Ok(None);
    }
    if rows.len() > MAX_WARES {
        let m = format!("{field} lists {}: allowed 0..={MAX_WARES}", rows.len());
        return Err(bad(field, m));
    }
    let mut prices: Vec<(ItemId, u64)> = Vec::with_capacity(rows.len());
    for (k, p) in rows.iter().enumerate() {
        let f = format!("{field}[{k}]");
        let id = item_named(cat, &f, &p.item).map_err(|e| bad(field, e.message))?;
        if prices.iter().any(|q| q.0 == id) || !(1..=MAX_PRICE).contains(&p.price) {
            let m = format!(
                "{f} = ({:?}, {}): each item once, its price 1..={MAX_PRICE}",
                p.item, p.price
            );
            return Err(bad(field, m));
        }
        prices.push((id, p.price));
    }
    let sells = prices.iter().map(|p| p.0).collect();
    let more: Vec<(ItemId, u64)> = merchant
        .prices
        .iter()
        .filter(|q| !prices.iter().any(|p| p.0 == q.0))
        .copied()
        .collect();
    prices.extend(more);
    Ok(Some(MerchantRules {
        arrives_with: 0,
        buys_at: merchant.buys_at,
        sells,
        prices,
    }))
}
