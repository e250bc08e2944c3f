//! Mana: what a staff or wand spends ([`crate::content::items::Kind::Staff`]). A new
//! player has [`START`]; each mana crystal raises the most by [`CRYSTAL`] up to
//! [`HIGHEST`] (Terraria's 20 and 200). It comes back on its own, faster while the player
//! casts nothing (after [`REGEN_DELAY`] seconds), and a star a creature drops gives
//! [`STAR`] back at once.

pub use crate::content::items::weapons::HIGHEST_MANA as HIGHEST;

/// A new player's most mana.
pub const START: u32 = 20;
/// What a mana crystal adds to the most.
pub const CRYSTAL: u32 = 20;
/// What a star gives back.
pub const STAR: f32 = 100.0;
/// Seconds after a cast before mana comes back at the full rate.
pub const REGEN_DELAY: f32 = 1.0;

/// A player's mana.
#[derive(Clone, Debug, PartialEq)]
pub struct Mana {
    pub now: f32,
    pub most: u32,
    /// Seconds since the last cast.
    idle: f32,
}

/// Why a mana crystal did nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtMost;

impl std::fmt::Display for AtMost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "mana is already at its most ({HIGHEST})")
    }
}

impl Mana {
    /// Full mana of `most` (kept within [`START`]..=[`HIGHEST`]).
    pub fn full(most: u32) -> Mana {
        let most = most.clamp(START, HIGHEST);
        Mana {
            now: most as f32,
            most,
            idle: REGEN_DELAY,
        }
    }

    /// Spends `cost` if there is that much (true), else nothing (false).
    pub fn spend(&mut self, cost: u32) -> bool {
        if self.now + 1e-3 < cost as f32 {
            return false;
        }
        self.now = (self.now - cost as f32).max(0.0);
        self.idle = 0.0;
        true
    }

    /// Gives `amount` back, up to the most.
    pub fn restore(&mut self, amount: f32) {
        self.now = (self.now + amount.max(0.0)).min(self.most as f32);
    }

    /// A mana crystal: the most up by [`CRYSTAL`] (and filled), refused at [`HIGHEST`].
    pub fn use_crystal(&mut self) -> Result<u32, AtMost> {
        if self.most >= HIGHEST {
            return Err(AtMost);
        }
        self.most = (self.most + CRYSTAL).min(HIGHEST);
        self.now = self.most as f32;
        Ok(self.most)
    }

    /// One frame of `dt` seconds: a seventh of the most a second while idle, a fifth of
    /// that right after a cast.
    pub fn update(&mut self, dt: f32) {
        self.idle += dt;
        let rate =
            (self.most as f32 / 7.0 + 1.0) * if self.idle >= REGEN_DELAY { 1.0 } else { 0.2 };
        self.restore(rate * dt);
    }

    /// Below half: a creature killed may drop a star.
    pub fn low(&self) -> bool {
        self.now < self.most as f32 / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cast_spends_mana_and_is_refused_when_there_is_too_little() {
        let mut m = Mana::full(START);
        assert!(m.spend(15));
        assert_eq!(m.now, 5.0);
        assert!(!m.spend(6));
        assert_eq!(m.now, 5.0);
    }

    #[test]
    fn mana_comes_back_over_time_up_to_the_most() {
        let mut m = Mana::full(40);
        assert!(m.spend(40));
        m.update(0.5);
        let early = m.now;
        assert!(
            early > 0.0 && early < 2.0,
            "slow right after a cast: {early}"
        );
        for _ in 0..600 {
            m.update(1.0 / 60.0);
        }
        assert_eq!(m.now, 40.0);
    }

    #[test]
    fn crystals_raise_the_most_by_twenty_up_to_two_hundred() {
        let mut m = Mana::full(START);
        for n in 1..=9 {
            assert_eq!(m.use_crystal(), Ok(START + CRYSTAL * n));
        }
        assert_eq!(m.most, HIGHEST);
        assert_eq!(m.use_crystal(), Err(AtMost));
        assert_eq!(Mana::full(5000).most, HIGHEST);
    }
}
