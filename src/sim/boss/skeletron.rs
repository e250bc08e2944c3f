//! Skeletron: the curse of the dungeon's Old Man, called by talking to him at night. A
//! skull ([`HEAD_HEALTH`]) hovers over its target with a hand at each side
//! ([`HAND_HEALTH`] each); the hands take turns swiping at where the target is, every
//! [`SWIPE_EVERY`] seconds. Now and then (`spin_every_one` seconds) the skull spins for
//! [`SPIN_SECONDS`] and chases the target through tiles, hitting harder: that is when a
//! sword reaches it, as in Terraria. At half the head's health it turns to phase two and
//! spins every [`SPIN_EVERY`] seconds. A dead hand stays dead; the skull's death is its
//! fall.
//! At dawn it flies off (the session).
//!
//! Terraria's health (head 4,400, hands 600) scaled as Strata's Eye is. Its numbers are
//! data (`config/creatures.ron`'s `bosses.skeletron`, [`SkeletronBoss`]); the constants
//! here are the shipped ones.

use crate::content::bosses::SkeletronBoss;

/// Health of the skull and of each hand.
pub const HEAD_HEALTH: f32 = SkeletronBoss::SHIPPED.head_health;
pub const HAND_HEALTH: f32 = SkeletronBoss::SHIPPED.hand_health;
/// Radii, tiles.
pub const HEAD_RADIUS: f32 = 2.0;
pub const HAND_RADIUS: f32 = 1.2;
/// Tiles over the target the skull hovers at.
pub const HOVER_HEIGHT: f32 = 9.0;
/// Fastest it flies while hovering, tiles/s.
pub const HOVER_SPEED: f32 = SkeletronBoss::SHIPPED.hover_speed;
/// Where a hand rests beside the skull, tiles (mirrored for the left hand).
pub const HAND_REST: (f32, f32) = (5.0, 3.0);
/// Seconds between swipes (the hands take turns) and seconds one swipe lasts.
pub const SWIPE_EVERY: f32 = SkeletronBoss::SHIPPED.swipe_every;
pub const SWIPE_SECONDS: f32 = SkeletronBoss::SHIPPED.swipe_seconds;
/// Tiles/s a swiping hand moves at.
pub const SWIPE_SPEED: f32 = SkeletronBoss::SHIPPED.swipe_speed;
/// Phase two: seconds between spins, seconds of a spin and its speed, tiles/s.
pub const SPIN_EVERY: f32 = SkeletronBoss::SHIPPED.spin_every;
pub const SPIN_SECONDS: f32 = SkeletronBoss::SHIPPED.spin_seconds;
pub const SPIN_SPEED: f32 = SkeletronBoss::SHIPPED.spin_speed;
/// Health its skull, its skull spinning and a hand take from a player they touch.
pub const HEAD_DAMAGE: f32 = SkeletronBoss::SHIPPED.head_damage;
pub const SPIN_DAMAGE: f32 = SkeletronBoss::SHIPPED.spin_damage;
pub const HAND_DAMAGE: f32 = SkeletronBoss::SHIPPED.hand_damage;

/// A hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hand {
    pub pos: (f32, f32),
    pub health: f32,
    /// -1 left, 1 right.
    pub side: f32,
    /// Seconds left of a swipe (0: resting beside the skull).
    pub swipe: f32,
    /// Where a swipe goes.
    pub aim: (f32, f32),
}

/// Skeletron.
#[derive(Clone, Debug, PartialEq)]
pub struct Skeletron {
    pub head: (f32, f32),
    pub vel: (f32, f32),
    pub health: f32,
    pub hands: [Hand; 2],
    /// Seconds left of a spin (0: not spinning).
    pub spinning: f32,
    /// Radians spun, for drawing.
    pub spin: f32,
    /// Seconds to the next spin (phase two) and to the next swipe.
    spin_in: f32,
    swipe_in: f32,
    /// The hand that swipes next.
    next_hand: usize,
    /// Swipes begun so far.
    pub swipes: u32,
    /// Its numbers.
    pub n: SkeletronBoss,
}

/// What a step did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Did {
    pub swiped: bool,
    pub spun: bool,
}

impl Skeletron {
    /// Skeletron of the shipped numbers at `at`, its hands resting.
    pub fn new(at: (f32, f32)) -> Skeletron {
        Skeletron::of(at, &SkeletronBoss::SHIPPED)
    }

    /// Skeletron of numbers `n` at `at`, its hands resting.
    pub fn of(at: (f32, f32), n: &SkeletronBoss) -> Skeletron {
        let hand = |side: f32| Hand {
            pos: (at.0 + side * HAND_REST.0, at.1 + HAND_REST.1),
            health: n.hand_health,
            side,
            swipe: 0.0,
            aim: at,
        };
        Skeletron {
            head: at,
            vel: (0.0, 0.0),
            health: n.head_health,
            hands: [hand(-1.0), hand(1.0)],
            spinning: 0.0,
            spin: 0.0,
            spin_in: n.spin_every_one,
            swipe_in: n.swipe_every,
            next_hand: 0,
            swipes: 0,
            n: *n,
        }
    }

    /// A step of `dt` over `target`; `two`: phase two (it spins more often).
    pub fn update(&mut self, target: (f32, f32), two: bool, dt: f32) -> Did {
        let mut did = Did::default();
        let n = self.n;
        if self.spinning <= 0.0 {
            let every = if two { n.spin_every } else { n.spin_every_one };
            self.spin_in = self.spin_in.min(every) - dt;
            if self.spin_in <= 0.0 {
                self.spinning = n.spin_seconds;
                self.spin_in = every;
                did.spun = true;
            }
        }
        if self.spinning > 0.0 {
            self.spinning = (self.spinning - dt).max(0.0);
            self.spin += dt * 14.0;
            let (dx, dy) = (target.0 - self.head.0, target.1 - self.head.1);
            let d = (dx * dx + dy * dy).sqrt().max(1e-3);
            self.vel = (dx / d * n.spin_speed, dy / d * n.spin_speed);
        } else {
            let spot = (target.0, target.1 - HOVER_HEIGHT);
            let want = ((spot.0 - self.head.0) * 2.0, (spot.1 - self.head.1) * 2.0);
            let s = (want.0 * want.0 + want.1 * want.1).sqrt();
            let want = if s > n.hover_speed {
                (want.0 / s * n.hover_speed, want.1 / s * n.hover_speed)
            } else {
                want
            };
            let k = (4.0 * dt).min(1.0);
            self.vel = (
                self.vel.0 + (want.0 - self.vel.0) * k,
                self.vel.1 + (want.1 - self.vel.1) * k,
            );
        }
        self.head = (self.head.0 + self.vel.0 * dt, self.head.1 + self.vel.1 * dt);
        self.swipe_in -= dt;
        if self.swipe_in <= 0.0 {
            self.swipe_in = n.swipe_every;
            let next = self.next_hand;
            self.next_hand = 1 - next;
            let h = &mut self.hands[next];
            if h.health > 0.0 {
                h.swipe = n.swipe_seconds;
                h.aim = target;
                self.swipes += 1;
                did.swiped = true;
            }
        }
        for h in &mut self.hands {
            let goal = if h.swipe > 0.0 {
                h.swipe = (h.swipe - dt).max(0.0);
                h.aim
            } else {
                (
                    self.head.0 + h.side * HAND_REST.0,
                    self.head.1 + HAND_REST.1,
                )
            };
            let (dx, dy) = (goal.0 - h.pos.0, goal.1 - h.pos.1);
            let d = (dx * dx + dy * dy).sqrt();
            let go = (n.swipe_speed * dt).min(d);
            if d > 1e-4 {
                h.pos = (h.pos.0 + dx / d * go, h.pos.1 + dy / d * go);
            }
        }
        did
    }

    /// Health the skull takes from a player it touches.
    pub fn head_damage(&self) -> f32 {
        if self.spinning > 0.0 {
            self.n.spin_damage
        } else {
            self.n.head_damage
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f32 = 1.0 / 60.0;

    #[test]
    fn the_hands_take_turns_to_swipe_at_the_target_and_come_back() {
        let mut s = Skeletron::new((0.0, 0.0));
        let target = (0.0, 9.0);
        let mut first = None;
        for i in 0..((SWIPE_EVERY * 2.0 + 0.1) / DT) as usize {
            let d = s.update(target, false, DT);
            if d.swiped && first.is_none() {
                first = Some(i);
                assert!(
                    s.hands[0].swipe > 0.0 && s.hands[1].swipe == 0.0,
                    "the left first"
                );
            }
        }
        assert_eq!(s.swipes, 2, "one each");
        assert!((first.unwrap() as f32 * DT - SWIPE_EVERY).abs() < 2.0 * DT);
        // A dead hand swipes no more.
        s.hands[0].health = 0.0;
        let before = s.swipes;
        for _ in 0..((SWIPE_EVERY * 4.0 + 0.2) / DT) as usize {
            s.update(target, false, DT);
        }
        assert_eq!(s.swipes - before, 2, "only the right hand's turns");
    }

    #[test]
    fn it_spins_now_and_then_more_often_in_phase_two_chasing_the_target_and_hits_harder() {
        let n = SkeletronBoss::SHIPPED;
        let mut s = Skeletron::new((0.0, 0.0));
        let spins = |s: &mut Skeletron, two: bool, secs: f32| {
            (0..(secs / DT) as usize)
                .filter(|_| s.update((0.0, -20.0), two, DT).spun)
                .count()
        };
        // Phase one: the first spin after `spin_every_one` seconds, not before.
        assert_eq!(spins(&mut s, false, n.spin_every_one - 0.1), 0);
        assert_eq!(spins(&mut s, false, 0.2), 1);
        // Phase two: once every `spin_every` (each spin lasting `spin_seconds`).
        let one = spins(&mut s, false, 30.0);
        let two = spins(&mut s, true, 30.0);
        assert!(
            two > one,
            "{one} spins in 30 s of phase one, {two} in phase two"
        );
        let mut s = Skeletron::new((0.0, 0.0));
        spins(&mut s, false, n.spin_every_one - 0.1);
        let d = (0..30)
            .map(|_| s.update((0.0, 20.0), true, DT))
            .find(|d| d.spun);
        assert!(d.is_some() && s.spinning > 0.0);
        assert!(s.head_damage() > HEAD_DAMAGE);
        let y = s.head.1;
        for _ in 0..30 {
            s.update((0.0, 20.0), true, DT);
        }
        assert!(
            s.head.1 > y + 4.0,
            "it chases the target below: {y} to {}",
            s.head.1
        );
        assert!(s.spin > 0.0);
    }
}
