//! Coins: copper, silver and gold ([`crate::content::town::CoinRules`], `config/town.ron`:
//! 100 of one make one of the next). Coins are items that stack; what a player carries is
//! kept in its fewest coins ([`settle`]: 100 copper become a silver as they come in), and
//! paying takes the price from all the coins carried and gives the change back ([`pay`]).
//! Amounts are in copper.

use crate::content::items::ItemId;
use crate::content::town::CoinRules;
use crate::world::inventory::{Inventory, add_to_slots};

/// `total` copper as counts of each coin, the lowest first: every coin but the last
/// below `per`, the last holding the rest.
pub fn split(total: u64, per: u32, kinds: usize) -> Vec<u64> {
    let per = u64::from(per.max(2));
    let mut left = total;
    let mut out = Vec::with_capacity(kinds);
    for i in 0..kinds {
        if i + 1 == kinds {
            out.push(left);
        } else {
            out.push(left % per);
            left /= per;
        }
    }
    out
}

/// Copper worth of `counts` coins (the lowest first), saturating.
pub fn value(counts: &[u64], per: u32) -> u64 {
    counts.iter().rev().fold(0u64, |sum, &n| {
        sum.saturating_mul(u64::from(per)).saturating_add(n)
    })
}

/// What the coins in `inv` are worth, in copper.
pub fn worth(inv: &Inventory, coins: &CoinRules) -> u64 {
    let counts: Vec<u64> = coins
        .items
        .iter()
        .map(|&c| u64::from(inv.count(c)))
        .collect();
    value(&counts, coins.per)
}

/// Puts `total` copper into `inv` in its fewest coins after taking every coin out; returns
/// the copper that did not fit (none unless the inventory is full of other things). Each
/// coin goes back to the slot it was in, a coin new to the inventory to a slot another
/// coin left, so paying and earning never move the stacks about the hotbar.
fn hold(inv: &mut Inventory, coins: &CoinRules, total: u64) -> u64 {
    let was: Vec<Option<usize>> = coins
        .items
        .iter()
        .map(|&c| {
            inv.slots()
                .iter()
                .position(|s| s.is_some_and(|s| s.item == c))
        })
        .collect();
    for &c in &coins.items {
        inv.remove(c, inv.count(c));
    }
    let counts = split(total, coins.per, coins.items.len());
    // Slots coins leave empty, for a coin that had none.
    let mut freed: Vec<usize> = was
        .iter()
        .zip(&counts)
        .filter_map(|(w, &n)| w.filter(|_| n == 0))
        .collect();
    let mut lost = vec![0u64; counts.len()];
    // The highest coins first: they are worth the most.
    for (i, (&c, &n)) in coins.items.iter().zip(&counts).enumerate().rev() {
        let slot = was[i]
            .filter(|_| n > 0)
            .or_else(|| (n > 0 && !freed.is_empty()).then(|| freed.remove(0)));
        let mut n = n;
        if let Some(slot) = slot {
            let here = n.min(u64::from(u32::MAX)) as u32;
            let cat = std::sync::Arc::clone(inv.catalog());
            let left = add_to_slots(&cat, &mut inv.slots_mut()[slot..=slot], c, here);
            n -= u64::from(here - left);
        }
        let n32 = n.min(u64::from(u32::MAX)) as u32;
        lost[i] = u64::from(inv.add(c, n32)) + (n - u64::from(n32));
    }
    value(&lost, coins.per)
}

/// The coins in `inv` in their fewest (100 copper become a silver); returns the copper that
/// no longer fit.
pub fn settle(inv: &mut Inventory, coins: &CoinRules) -> u64 {
    let total = worth(inv, coins);
    let canonical = split(total, coins.per, coins.items.len());
    let held: Vec<u64> = coins
        .items
        .iter()
        .map(|&c| u64::from(inv.count(c)))
        .collect();
    if held == canonical {
        return 0;
    }
    hold(inv, coins, total)
}

/// Adds `copper` to the coins in `inv`, in the fewest coins; returns what did not fit.
pub fn earn(inv: &mut Inventory, coins: &CoinRules, copper: u64) -> u64 {
    let total = worth(inv, coins).saturating_add(copper);
    hold(inv, coins, total)
}

/// Pays `price` copper from the coins in `inv`, the change back in the fewest coins; or,
/// when too little is carried, takes nothing and says how much more is needed.
pub fn pay(inv: &mut Inventory, coins: &CoinRules, price: u64) -> Result<(), u64> {
    let total = worth(inv, coins);
    if total < price {
        return Err(price - total);
    }
    // Paying leaves no more coins than there were, so the change always fits.
    hold(inv, coins, total - price);
    Ok(())
}

/// An amount as players read it: `2 gold 5 silver 30 copper`, the empty coins left out
/// (`0 copper` for nothing); `labels` name the coins, the lowest first.
pub fn describe(copper: u64, per: u32, labels: &[&str]) -> String {
    let counts = split(copper, per, labels.len());
    let parts: Vec<String> = counts
        .iter()
        .zip(labels)
        .rev()
        .filter(|(n, _)| **n > 0)
        .map(|(n, l)| format!("{n} {l}"))
        .collect();
    if parts.is_empty() {
        return format!("0 {}", labels.first().copied().unwrap_or("copper"));
    }
    parts.join(" ")
}

/// The copper a creature of `health` drops when killed.
pub fn drop_for(health: f32, coins: &CoinRules) -> u64 {
    (health.max(0.0) * coins.per_health).round() as u64
}

/// Is `item` a coin?
pub fn is_coin(item: ItemId, coins: &CoinRules) -> bool {
    coins.items.contains(&item)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in content, as a session without mods plays by.
    fn content() -> crate::content::config::Content {
        crate::content::config::Content::builtin()
    }

    fn coins() -> CoinRules {
        content().town.coins
    }

    fn held(inv: &Inventory) -> Vec<u32> {
        coins().items.iter().map(|&c| inv.count(c)).collect()
    }

    #[test]
    fn a_hundred_of_a_coin_make_one_of_the_next() {
        assert_eq!(split(0, 100, 3), vec![0, 0, 0]);
        assert_eq!(split(99, 100, 3), vec![99, 0, 0]);
        assert_eq!(split(100, 100, 3), vec![0, 1, 0]);
        assert_eq!(split(12_345, 100, 3), vec![45, 23, 1]);
        // Gold holds the rest: 1,234,567 copper is 123 gold.
        assert_eq!(split(1_234_567, 100, 3), vec![67, 45, 123]);
        for total in [0, 1, 99, 100, 101, 9_999, 10_000, 987_654_321] {
            assert_eq!(value(&split(total, 100, 3), 100), total);
        }
        assert_eq!(value(&[u64::MAX, u64::MAX], 100), u64::MAX, "saturates");
        assert_eq!(
            describe(12_345, 100, &["copper", "silver", "gold"]),
            "1 gold 23 silver 45 copper"
        );
        assert_eq!(
            describe(5_000, 100, &["copper", "silver", "gold"]),
            "50 silver"
        );
        assert_eq!(describe(0, 100, &["copper", "silver", "gold"]), "0 copper");
    }

    #[test]
    fn the_shipped_coins_are_copper_silver_and_gold_and_stack() {
        let c = coins();
        let builtin = content();
        let names: Vec<&str> = c
            .items
            .iter()
            .map(|&i| builtin.catalog.item(i).name.as_str())
            .collect();
        assert_eq!(names, ["copper_coin", "silver_coin", "gold_coin"]);
        assert_eq!(c.per, 100);
        let mut inv = Inventory::empty(&content().catalog);
        assert_eq!(inv.add("copper_coin", 60), 0);
        assert_eq!(inv.add("copper_coin", 30), 0);
        let stacks = inv.slots().iter().flatten().count();
        assert_eq!(stacks, 1, "coins stack in one slot");
    }

    #[test]
    fn coins_coming_in_convert_up_and_settle_keeps_the_worth() {
        let mut inv = Inventory::empty(&content().catalog);
        assert_eq!(earn(&mut inv, &coins(), 250), 0);
        assert_eq!(held(&inv), vec![50, 2, 0]);
        assert_eq!(earn(&mut inv, &coins(), 9_800), 0);
        assert_eq!(
            held(&inv),
            vec![50, 0, 1],
            "10,050 copper: 1 gold 50 copper"
        );
        assert_eq!(worth(&inv, &coins()), 10_050);
        // Coins put in by hand (a chest, a drop) are settled into the fewest.
        inv.add("copper_coin", 60);
        inv.add("silver_coin", 99);
        assert_eq!(settle(&mut inv, &coins()), 0);
        assert_eq!(held(&inv), vec![10, 0, 2]);
        assert_eq!(worth(&inv, &coins()), 20_010);
        // Nothing else in the inventory moves.
        let mut with_tools = Inventory::starting(&content().catalog);
        let before: Vec<_> = with_tools.slots().iter().flatten().copied().collect();
        earn(&mut with_tools, &coins(), 123);
        let tools: Vec<_> = with_tools
            .slots()
            .iter()
            .flatten()
            .filter(|s| !is_coin(s.item, &coins()))
            .copied()
            .collect();
        assert_eq!(tools, before);
    }

    #[test]
    fn paying_takes_the_price_and_gives_change_or_says_what_is_short() {
        let mut inv = Inventory::empty(&content().catalog);
        inv.add("gold_coin", 1);
        assert_eq!(pay(&mut inv, &coins(), 250), Ok(()));
        assert_eq!(held(&inv), vec![50, 97, 0], "change from a gold coin");
        assert_eq!(worth(&inv, &coins()), 9_750);
        assert_eq!(pay(&mut inv, &coins(), 10_000), Err(250));
        assert_eq!(worth(&inv, &coins()), 9_750, "nothing taken when short");
        assert_eq!(pay(&mut inv, &coins(), 9_750), Ok(()));
        assert_eq!(worth(&inv, &coins()), 0);
        assert!(inv.slots().iter().all(|s| s.is_none()));
    }

    #[test]
    fn paying_and_earning_keep_the_coins_in_their_slots() {
        let mut inv = Inventory::empty(&content().catalog);
        inv.add("dirt", 10);
        inv.add("gold_coin", 1);
        inv.add("silver_coin", 3);
        let slot = |inv: &Inventory, name: &str| {
            let id = content().catalog.id(name).unwrap();
            inv.slots()
                .iter()
                .position(|s| s.is_some_and(|s| s.item == id))
        };
        let (gold, silver) = (slot(&inv, "gold_coin"), slot(&inv, "silver_coin"));
        // Moved by hand to the end of the hotbar: they stay there.
        inv.move_stack(gold.unwrap(), 9);
        let gold = slot(&inv, "gold_coin");
        assert_eq!(pay(&mut inv, &coins(), 50), Ok(()));
        assert_eq!(slot(&inv, "gold_coin"), gold);
        assert_eq!(slot(&inv, "silver_coin"), silver);
        // The copper of the change goes where no coin was before... and stays.
        let copper = slot(&inv, "copper_coin");
        assert!(copper.is_some());
        assert_eq!(earn(&mut inv, &coins(), 7), 0);
        assert_eq!(slot(&inv, "copper_coin"), copper);
        assert_eq!(slot(&inv, "gold_coin"), gold);
        // Paying off the gold: the silver change stays in the silver's slot.
        assert_eq!(pay(&mut inv, &coins(), 10_000), Ok(()));
        assert_eq!(slot(&inv, "gold_coin"), None);
        assert_eq!(slot(&inv, "silver_coin"), silver);
    }

    #[test]
    fn a_full_inventory_loses_only_what_does_not_fit() {
        let mut inv = Inventory::empty(&content().catalog);
        let dirt = content().catalog.id("dirt").unwrap();
        while inv.add(dirt, 999) == 0 {}
        assert_eq!(earn(&mut inv, &coins(), 500), 500);
        assert_eq!(worth(&inv, &coins()), 0);
    }

    #[test]
    fn creatures_drop_copper_by_their_health() {
        let c = &coins();
        assert_eq!(drop_for(14.0, c), (14.0 * c.per_health).round() as u64);
        assert!(drop_for(60.0, c) > drop_for(14.0, c));
        assert_eq!(drop_for(-3.0, c), 0);
    }
}
