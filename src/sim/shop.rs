//! The Merchant: when he arrives ([`arrives`]), and his shop ([`buy`], [`sell`]), by
//! [`crate::content::town::MerchantRules`] (`config/town.ron`). Prices are copper, paid
//! and given in coins ([`crate::sim::coins`]).

use crate::content::config::Content;
use crate::content::town::{CoinRules, MerchantRules};
use crate::sim::coins;
use crate::world::inventory::Inventory;

/// Does the Merchant arrive now? Not while he is here; only when a valid house stands
/// free (no one lives in it) and the player carries at least the rule's coins.
pub fn arrives(here: bool, free_house: bool, carried: u64, rules: &MerchantRules) -> bool {
    !here && free_house && carried >= rules.arrives_with
}

/// Why the shop refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShopRefusal {
    /// No such entry in what he sells.
    NoSuchItem,
    /// This much more copper is needed.
    Short(u64),
    /// No room in the inventory for what was bought.
    Full,
    /// Nothing in that slot.
    Empty,
    /// He does not buy that item (it has no price, or it is coins).
    NotBought,
}

impl ShopRefusal {
    /// What the player is told, in `content`'s coins.
    pub fn text(&self, content: &Content) -> String {
        match self {
            ShopRefusal::NoSuchItem => "he does not sell that".into(),
            ShopRefusal::Short(n) => format!("{} more needed", copper_text(content, *n)),
            ShopRefusal::Full => "no room in the inventory".into(),
            ShopRefusal::Empty => "nothing there to sell".into(),
            ShopRefusal::NotBought => "he does not buy that".into(),
        }
    }
}

/// `copper` as players read it, in the town's coins.
pub fn copper_text(content: &Content, copper: u64) -> String {
    let c = &content.town.coins;
    let labels: Vec<&str> = c
        .items
        .iter()
        .map(|&i| {
            let l = content.catalog.item(i).label.as_str();
            l.strip_suffix(" coin").unwrap_or(l)
        })
        .collect();
    coins::describe(copper, c.per, &labels)
}

/// Buys one of entry `i` of what he sells, paying its price; returns the item bought
/// and the price.
pub fn buy(
    inv: &mut Inventory,
    i: usize,
    rules: &MerchantRules,
    money: &CoinRules,
) -> Result<(crate::content::items::ItemId, u64), ShopRefusal> {
    let item = *rules.sells.get(i).ok_or(ShopRefusal::NoSuchItem)?;
    let price = rules.price(item).ok_or(ShopRefusal::NoSuchItem)?;
    if inv.room_for(item) == 0 {
        return Err(ShopRefusal::Full);
    }
    coins::pay(inv, money, price).map_err(ShopRefusal::Short)?;
    // Room was checked, and paying frees slots rather than filling them.
    inv.add(item, 1);
    Ok((item, price))
}

/// Sells the whole stack in inventory slot `slot`; returns the item, how many and the
/// copper received (what did not fit of the coins is lost only in a full inventory,
/// which selling a stack empties a slot of).
pub fn sell(
    inv: &mut Inventory,
    slot: usize,
    rules: &MerchantRules,
    money: &CoinRules,
) -> Result<(crate::content::items::ItemId, u32, u64), ShopRefusal> {
    let s = inv
        .slots()
        .get(slot)
        .copied()
        .flatten()
        .ok_or(ShopRefusal::Empty)?;
    if coins::is_coin(s.item, money) {
        return Err(ShopRefusal::NotBought);
    }
    let each = rules.pays(s.item).ok_or(ShopRefusal::NotBought)?;
    inv.take_slot(slot);
    let got = each * u64::from(s.count);
    coins::earn(inv, money, got);
    Ok((s.item, s.count, got))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in content, as a session without mods plays by.
    fn content() -> crate::content::config::Content {
        crate::content::config::Content::builtin()
    }

    #[test]
    fn the_merchant_arrives_with_a_free_house_and_fifty_silver_carried() {
        let m = &content().town.merchant;
        assert!(arrives(false, true, 5_000, m));
        assert!(arrives(false, true, 12_345, m));
        assert!(
            !arrives(false, true, 4_999, m),
            "49 silver 99 copper is short"
        );
        assert!(!arrives(false, false, 50_000, m), "no free house");
        assert!(!arrives(true, true, 50_000, m), "he is here already");
    }

    #[test]
    fn buying_pays_the_price_and_gives_the_item() {
        let (m, c) = (&content().town.merchant, &content().town.coins);
        let mut inv = Inventory::empty(&content().catalog);
        inv.add("silver_coin", 1);
        let torch = content().catalog.id("torch").unwrap();
        let i = m.sells.iter().position(|&s| s == torch).unwrap();
        assert_eq!(buy(&mut inv, i, m, c), Ok((torch, 50)));
        assert_eq!(inv.count(torch), 1);
        assert_eq!(coins::worth(&inv, c), 50);
        assert_eq!(inv.count("copper_coin"), 50, "change in copper");
        let helmet = m
            .sells
            .iter()
            .position(|&s| s == content().catalog.id("mining_helmet").unwrap());
        assert_eq!(
            buy(&mut inv, helmet.unwrap(), m, c),
            Err(ShopRefusal::Short(40_000 - 50))
        );
        assert_eq!(inv.count(torch), 1, "nothing taken when short");
        assert_eq!(buy(&mut inv, 99, m, c), Err(ShopRefusal::NoSuchItem));
        assert_eq!(
            ShopRefusal::Short(39_950).text(&content()),
            "3 gold 99 silver 50 copper more needed"
        );
    }

    #[test]
    fn selling_a_stack_gives_a_fifth_of_its_price_and_coins_are_not_sold() {
        let (m, c) = (&content().town.merchant, &content().town.coins);
        let mut inv = Inventory::empty(&content().catalog);
        inv.add("iron_bar", 5);
        inv.add("dirt", 10);
        inv.add("copper_coin", 3);
        let slot = |inv: &Inventory, name: &str| {
            let id = content().catalog.id(name).unwrap();
            inv.slots()
                .iter()
                .position(|s| s.is_some_and(|s| s.item == id))
                .unwrap()
        };
        let bar = slot(&inv, "iron_bar");
        assert_eq!(
            sell(&mut inv, bar, m, c),
            Ok((content().catalog.id("iron_bar").unwrap(), 5, 300))
        );
        assert_eq!(inv.count("iron_bar"), 0);
        assert_eq!(coins::worth(&inv, c), 303);
        assert_eq!(inv.count("silver_coin"), 3, "converted up as it came in");
        let dirt = slot(&inv, "dirt");
        assert_eq!(sell(&mut inv, dirt, m, c), Err(ShopRefusal::NotBought));
        assert_eq!(inv.count("dirt"), 10);
        let coin = slot(&inv, "silver_coin");
        assert_eq!(sell(&mut inv, coin, m, c), Err(ShopRefusal::NotBought));
        let empty = inv.slots().iter().position(|s| s.is_none()).unwrap();
        assert_eq!(sell(&mut inv, empty, m, c), Err(ShopRefusal::Empty));
    }
}
