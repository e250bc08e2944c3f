//! The Nurse: when she arrives ([`arrives`]) and her healing ([`price`], [`heal`]), by
//! [`crate::content::town::NurseRules`] (`config/town.ron`). She heals every missing point
//! of health at once, paid in coins ([`crate::sim::coins`]), or nothing when the player
//! carries too little (as Terraria's Nurse does).

use crate::content::town::{CoinRules, NurseRules};
use crate::sim::coins;
use crate::sim::vitals::Vitals;
use crate::world::inventory::Inventory;

/// Does the Nurse arrive now? Not while she is here; only when a valid house stands free
/// and a player's most health is above the rule's (a life crystal has been used).
pub fn arrives(here: bool, free_house: bool, most_health: f32, rules: &NurseRules) -> bool {
    !here && free_house && most_health > rules.arrives_above
}

/// What healing `missing` health costs, copper: [`NurseRules::per_health`] a point, a part
/// point counted whole, the total rounded up; nothing for nothing missing.
pub fn price(missing: f32, rules: &NurseRules) -> u64 {
    if !(missing.is_finite() && missing > 0.0) {
        return 0;
    }
    (f64::from(missing).ceil() * f64::from(rules.per_health)).ceil() as u64
}

/// Why the Nurse did not heal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NurseRefusal {
    /// Nothing to heal.
    Unhurt,
    /// This much more copper is needed.
    Short(u64),
}

impl NurseRefusal {
    /// What the Nurse says, in `content`'s coins.
    pub fn text(&self, content: &crate::content::config::Content) -> String {
        match self {
            NurseRefusal::Unhurt => "you look healthy to me".into(),
            NurseRefusal::Short(n) => {
                format!(
                    "{} more is needed",
                    crate::sim::shop::copper_text(content, *n)
                )
            }
        }
    }
}

/// Heals `vitals` to its most health, paying the [`price`] from the coins in `inv` (the
/// change back in the fewest coins); returns the health healed and the price. Nothing is
/// taken when the player is unhurt or carries too little.
pub fn heal(
    vitals: &mut Vitals,
    inv: &mut Inventory,
    rules: &NurseRules,
    money: &CoinRules,
) -> Result<(f32, u64), NurseRefusal> {
    let missing = vitals.max_health - vitals.health;
    if missing <= 0.0 {
        return Err(NurseRefusal::Unhurt);
    }
    let cost = price(missing, rules);
    coins::pay(inv, money, cost).map_err(NurseRefusal::Short)?;
    vitals.health = vitals.max_health;
    Ok((missing, cost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::rules::Rules;

    /// The built-in content, as a session without mods plays by.
    fn content() -> crate::content::config::Content {
        crate::content::config::Content::builtin()
    }

    #[test]
    fn the_nurse_arrives_with_a_free_house_once_a_life_crystal_is_used() {
        let n = &content().town.nurse;
        assert!(!arrives(false, true, 100.0, n), "the first most health");
        assert!(arrives(false, true, 120.0, n), "one crystal: 120");
        assert!(arrives(false, true, 400.0, n));
        assert!(!arrives(false, false, 400.0, n), "no free house");
        assert!(!arrives(true, true, 400.0, n), "she is here already");
    }

    #[test]
    fn healing_costs_a_copper_a_point_part_points_whole() {
        let n = &content().town.nurse;
        assert_eq!(price(0.0, n), 0);
        assert_eq!(price(-5.0, n), 0);
        assert_eq!(price(f32::NAN, n), 0);
        assert_eq!(price(40.0, n), 40);
        assert_eq!(price(39.2, n), 40, "a part point costs a whole one");
        assert_eq!(price(0.01, n), 1);
        let dear = NurseRules {
            per_health: 2.5,
            ..NurseRules::default()
        };
        assert_eq!(price(3.0, &dear), 8, "7.5 rounded up");
        assert_eq!(price(380.0, &dear), 950);
    }

    #[test]
    fn healing_pays_in_coins_with_change_or_takes_nothing() {
        let (n, c) = (&content().town.nurse, &content().town.coins);
        let rules = Rules::default();
        let mut v = Vitals::with_most(60.0, 140.0, &rules);
        let mut inv = Inventory::empty(&content().catalog);
        inv.add("silver_coin", 1);
        // 80 missing: 80 copper from a silver, 20 copper back.
        assert_eq!(heal(&mut v, &mut inv, n, c), Ok((80.0, 80)));
        assert_eq!(v.health, 140.0);
        assert_eq!(coins::worth(&inv, c), 20);
        assert_eq!(
            (inv.count("silver_coin"), inv.count("copper_coin")),
            (0, 20)
        );
        assert_eq!(
            heal(&mut v, &mut inv, n, c),
            Err(NurseRefusal::Unhurt),
            "healthy"
        );
        // Short: nothing healed, nothing taken, and she says how much more.
        v.health = 100.5;
        assert_eq!(
            heal(&mut v, &mut inv, n, c),
            Err(NurseRefusal::Short(40 - 20))
        );
        assert_eq!((v.health, coins::worth(&inv, c)), (100.5, 20));
        assert_eq!(
            NurseRefusal::Short(20).text(&content()),
            "20 copper more is needed"
        );
    }
}
