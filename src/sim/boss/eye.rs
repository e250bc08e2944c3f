//! The Eye, Strata's first boss: a large flying eye that comes at night, summoned by a
//! suspicious looking eye or on its own once a player is ready ([`may_come`], [`rolls_in`]).
//!
//! Its rules are pure and deterministic (no randomness at all; the session steps it):
//! - phase one ([`Phase::One`]): it hovers over its target for [`Rules::eye_hover`] seconds
//!   sending a servant every [`SERVANT_EVERY`] seconds, then dashes at the target
//!   [`Rules::eye_charges`] times and hovers again. Each dash is told beforehand, as
//!   Terraria's is: the Eye stops and turns to the target for [`Rules::eye_windup`]
//!   seconds ([`Mode::Aim`]), then rushes at where the target is then at
//!   [`Rules::eye_charge_speed`], holding the speed half of [`DASH_SECONDS`] and slowing
//!   to a stop by its end (past the target: [`dash_length`]). A player that moves
//!   out of the line when it rushes is missed, and one beside it where it stops has a
//!   moment to hit it;
//! - at half health ([`phase_for`]) it spins for [`TURN_SECONDS`] and opens its mouth:
//!   phase two hovers for half as long, dashes [`Rules::eye_charges_two`] times at
//!   [`Rules::eye_charge_speed_two`], sends no servants and hits harder;
//! - at dawn, or with no living player within [`RANGE`] (every player dead: the session
//!   hunts the living only), it flies off up and is gone after [`LEAVE_SECONDS`]
//!   ([`Step::gone`]).
//!
//! It flies through tiles. Its ball ([`Boss::ball`]) is what swings hit; its box, a little
//! inside ([`Boss::hitbox`]), is what hurts. Its servants' pace, its hover and its phase's
//! share are data (`config/creatures.ron`'s `bosses.eye`, [`EyeBoss`]; the constants here
//! are the shipped ones), the rest rules.

use crate::content::bosses::EyeBoss;
use crate::content::rules::Rules;

/// The Eye's radius, tiles: a ball five tiles across.
pub const RADIUS: f32 = 2.5;
/// Tiles over the target's head it hovers at.
pub const HOVER_HEIGHT: f32 = EyeBoss::SHIPPED.hover_height;
/// Fastest it flies while hovering, tiles/s.
pub const HOVER_SPEED: f32 = EyeBoss::SHIPPED.hover_speed;
/// Seconds one dash lasts (phase two: two thirds of it).
pub const DASH_SECONDS: f32 = 1.0;
/// Share of a dash at full speed; the rest slows to a stop.
pub const DASH_FULL: f32 = 0.5;
/// How fast it stops to aim (its speed falls by this share a second, at most all).
const BRAKE: f32 = 8.0;
/// Seconds it spins between the phases.
pub const TURN_SECONDS: f32 = 1.5;
/// Seconds between servants in phase one.
pub const SERVANT_EVERY: f32 = EyeBoss::SHIPPED.servant_every;
/// Tiles from its target beyond which it gives up and leaves.
pub const RANGE: f32 = 150.0;
/// Seconds it takes to fly off.
pub const LEAVE_SECONDS: f32 = 3.0;
/// Seconds under which a timer counts as run out (a tick's rounding).
const EPS: f32 = 1e-4;
/// Its name, on the health bar and in messages.
pub const NAME: &str = "The Eye";
/// Its name in the world's progress: the first of [`crate::content::town::BOSSES`].
pub const FLAG: &str = crate::content::town::BOSSES[0];

/// Which half of its health it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Above half health: the eye, servants.
    One,
    /// At half health or below: the mouth open, faster dashes, no servants.
    Two,
}

/// The phase for `health` out of `max`: two at half or below.
pub fn phase_for(health: f32, max: f32) -> Phase {
    if health <= max / 2.0 {
        Phase::Two
    } else {
        Phase::One
    }
}

/// What it is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// Over the target, `left` seconds more.
    Hover { left: f32 },
    /// Stopping and turning to the target before a dash, `left` seconds more; `more`
    /// dashes after the one it aims.
    Aim { left: f32, more: u32 },
    /// Dashing, `left` seconds more of this dash, `more` dashes after it.
    Charge { left: f32, more: u32 },
    /// Spinning into phase two, `left` seconds more.
    Turn { left: f32 },
    /// Flying off, for `time` seconds so far.
    Leave { time: f32 },
}

/// What a step did, for the session to act on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Step {
    /// A servant is sent from here (phase one's hovering).
    pub servant: Option<(f32, f32)>,
    /// A dash began.
    pub charged: bool,
    /// It turned to phase two this step.
    pub phase_two: bool,
    /// It began to leave this step.
    pub leaving: bool,
    /// It has flown off: remove it.
    pub gone: bool,
}

/// The Eye.
#[derive(Clone, Debug, PartialEq)]
pub struct Boss {
    /// Centre, tiles.
    pub pos: (f32, f32),
    /// Tiles/s.
    pub vel: (f32, f32),
    pub health: f32,
    pub max: f32,
    pub phase: Phase,
    pub mode: Mode,
    /// Seconds to the next servant.
    servant_in: f32,
    /// Seconds it shows it was hit.
    pub hit_flash: f32,
    /// Seconds before its touch may hurt again ([`Rules::touch_cooldown`] after a hit, as a
    /// creature's: one dash, one hit at most, even when it stops on the player).
    pub touch_in: f32,
    /// Dashes begun so far.
    pub charges: u32,
    /// Radians it has spun (phase change), for drawing.
    pub spin: f32,
    /// The seats of the players who have hit it: each gets its own loot when it dies
    /// (Terraria's treasure bags).
    pub fighters: Vec<usize>,
    /// Its numbers beside the rules'.
    pub n: EyeBoss,
}

impl Boss {
    /// The Eye at `pos` with the health of `rules` and the shipped numbers, about to
    /// hover.
    pub fn new(pos: (f32, f32), rules: &Rules) -> Boss {
        Boss::of(pos, rules, &EyeBoss::SHIPPED)
    }

    /// [`Boss::new`]'s Eye of numbers `n`.
    pub fn of(pos: (f32, f32), rules: &Rules, n: &EyeBoss) -> Boss {
        Boss {
            pos,
            vel: (0.0, 0.0),
            health: rules.eye_health,
            max: rules.eye_health,
            phase: Phase::One,
            mode: Mode::Hover {
                left: rules.eye_hover,
            },
            servant_in: n.servant_every,
            hit_flash: 0.0,
            touch_in: 0.0,
            charges: 0,
            spin: 0.0,
            fighters: Vec::new(),
            n: *n,
        }
    }

    /// The box `(left, top, right, bottom)` round its whole ball: what a swing meets (a
    /// blade that touches the ball as drawn hits it).
    pub fn ball(&self) -> (f32, f32, f32, f32) {
        let r = RADIUS;
        (
            self.pos.0 - r,
            self.pos.1 - r,
            self.pos.0 + r,
            self.pos.1 + r,
        )
    }

    /// Its box `(left, top, right, bottom)`, a little inside the ball: what hurts a player
    /// it touches (a graze is forgiven).
    pub fn hitbox(&self) -> (f32, f32, f32, f32) {
        let r = RADIUS * 0.8;
        (
            self.pos.0 - r,
            self.pos.1 - r,
            self.pos.0 + r,
            self.pos.1 + r,
        )
    }

    /// Health it takes from a player it touches: more in phase two.
    pub fn damage(&self, rules: &Rules) -> f32 {
        match self.phase {
            Phase::One => rules.eye_damage,
            Phase::Two => rules.eye_damage_two,
        }
    }

    /// Takes a hit of `damage`; true when it died.
    pub fn hit(&mut self, damage: f32) -> bool {
        self.health = (self.health - damage.max(0.0)).max(0.0);
        self.hit_flash = 0.15;
        self.health <= 0.0
    }

    /// Is it flying off?
    pub fn leaving(&self) -> bool {
        matches!(self.mode, Mode::Leave { .. })
    }

    /// Where it looks: toward its speed while dashing or leaving, else at `target`.
    pub fn looking(&self, target: (f32, f32)) -> (f32, f32) {
        let (dx, dy) = match self.mode {
            Mode::Charge { .. } | Mode::Leave { .. } => self.vel,
            _ => (target.0 - self.pos.0, target.1 - self.pos.1),
        };
        let d = (dx * dx + dy * dy).sqrt();
        if d < 1e-3 {
            (0.0, 1.0)
        } else {
            (dx / d, dy / d)
        }
    }

    /// One step of `dt` toward `target` (the middle of the player it hunts; `None`: none
    /// in range), at `night` or not.
    pub fn update(
        &mut self,
        target: Option<(f32, f32)>,
        night: bool,
        rules: &Rules,
        dt: f32,
    ) -> Step {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, 0.25)
        } else {
            0.0
        };
        let mut step = Step::default();
        self.hit_flash = (self.hit_flash - dt).max(0.0);
        self.touch_in = (self.touch_in - dt).max(0.0);
        let target = match target {
            Some(t) if night && !self.leaving() => t,
            _ => {
                if !self.leaving() {
                    self.mode = Mode::Leave { time: 0.0 };
                    step.leaving = true;
                }
                (self.pos.0, self.pos.1 - 100.0)
            }
        };
        let n = self.n;
        if self.phase == Phase::One && self.health <= self.max * n.phase_two_at {
            self.phase = Phase::Two;
            if !self.leaving() {
                self.mode = Mode::Turn { left: TURN_SECONDS };
            }
            step.phase_two = true;
        }
        let two = self.phase == Phase::Two;
        let (speed, dashes, hover, dash, windup) = if two {
            (
                rules.eye_charge_speed_two,
                rules.eye_charges_two,
                rules.eye_hover / 2.0,
                DASH_SECONDS * 2.0 / 3.0,
                rules.eye_windup * 2.0 / 3.0,
            )
        } else {
            (
                rules.eye_charge_speed,
                rules.eye_charges,
                rules.eye_hover,
                DASH_SECONDS,
                rules.eye_windup,
            )
        };
        let aim = |from: (f32, f32), s: f32| {
            let (dx, dy) = (target.0 - from.0, target.1 - from.1);
            let d = (dx * dx + dy * dy).sqrt().max(1e-3);
            (dx / d * s, dy / d * s)
        };
        self.mode = match self.mode {
            Mode::Leave { time } => {
                self.vel = (self.vel.0 * (1.0 - 2.0 * dt), -30.0);
                step.gone = time + dt >= LEAVE_SECONDS;
                Mode::Leave { time: time + dt }
            }
            Mode::Turn { left } => {
                self.vel = (self.vel.0 * (1.0 - 3.0 * dt), self.vel.1 * (1.0 - 3.0 * dt));
                self.spin += dt * 12.0;
                if left - dt <= EPS {
                    Mode::Hover { left: hover }
                } else {
                    Mode::Turn { left: left - dt }
                }
            }
            Mode::Hover { left } => {
                // Toward the spot over the target's head, faster the further it is.
                let spot = (target.0, target.1 - n.hover_height);
                let (dx, dy) = (spot.0 - self.pos.0, spot.1 - self.pos.1);
                let want = (dx * 3.0, dy * 3.0);
                let s = (want.0 * want.0 + want.1 * want.1).sqrt();
                let want = if s > n.hover_speed {
                    (want.0 / s * n.hover_speed, want.1 / s * n.hover_speed)
                } else {
                    want
                };
                let k = (6.0 * dt).min(1.0);
                self.vel = (
                    self.vel.0 + (want.0 - self.vel.0) * k,
                    self.vel.1 + (want.1 - self.vel.1) * k,
                );
                if !two {
                    self.servant_in -= dt;
                    if self.servant_in <= 0.0 {
                        self.servant_in = n.servant_every;
                        step.servant = Some((self.pos.0, self.pos.1 + RADIUS));
                    }
                }
                if left - dt <= EPS && dashes > 0 {
                    Mode::Aim {
                        left: windup,
                        more: dashes - 1,
                    }
                } else {
                    Mode::Hover {
                        left: (left - dt).max(0.0),
                    }
                }
            }
            Mode::Aim { left, more } => {
                let k = 1.0 - (BRAKE * dt).min(1.0);
                self.vel = (self.vel.0 * k, self.vel.1 * k);
                if left - dt <= EPS {
                    self.vel = aim(self.pos, speed);
                    self.charges += 1;
                    step.charged = true;
                    Mode::Charge { left: dash, more }
                } else {
                    Mode::Aim {
                        left: left - dt,
                        more,
                    }
                }
            }
            Mode::Charge { left, more } => {
                if left - dt > EPS {
                    // Full speed, then slowing to a stop by the dash's end.
                    let left = left - dt;
                    let s = speed * (left / (dash * (1.0 - DASH_FULL))).min(1.0);
                    let v = (self.vel.0 * self.vel.0 + self.vel.1 * self.vel.1).sqrt();
                    if v > 1e-3 {
                        self.vel = (self.vel.0 / v * s, self.vel.1 / v * s);
                    }
                    Mode::Charge { left, more }
                } else if more > 0 {
                    Mode::Aim {
                        left: windup,
                        more: more - 1,
                    }
                } else {
                    Mode::Hover { left: hover }
                }
            }
        };
        self.pos = (self.pos.0 + self.vel.0 * dt, self.pos.1 + self.vel.1 * dt);
        step
    }
}

/// Tiles a dash of `seconds` at `speed` carries the Eye: full speed for [`DASH_FULL`] of
/// it, then slowing evenly to a stop.
pub fn dash_length(speed: f32, seconds: f32) -> f32 {
    speed * seconds * (DASH_FULL + (1.0 - DASH_FULL) / 2.0)
}

/// May the Eye come on its own tonight for a player with `max_health` and `defence`:
/// at least [`Rules::eye_health_needed`] and [`Rules::eye_defence_needed`]?
pub fn may_come(max_health: f32, defence: u32, rules: &Rules) -> bool {
    max_health >= rules.eye_health_needed && defence >= rules.eye_defence_needed
}

/// Does the Eye come on night number `night` of a world of `seed` (one chance in
/// [`Rules::eye_one_in`], the same for the same world and night on every machine)?
pub fn rolls_in(seed: u64, night: u64, rules: &Rules) -> bool {
    let h = crate::base::rng::mix64(seed ^ 0x0E1E_0FC7_u64.wrapping_mul(night.wrapping_add(1)));
    h.is_multiple_of(u64::from(rules.eye_one_in.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DT: f32 = 1.0 / 60.0;

    /// Steps `b` for `seconds` at night over a still target, with the time of each dash.
    fn run(b: &mut Boss, target: (f32, f32), seconds: f32, r: &Rules) -> (Vec<f32>, Vec<Step>) {
        let mut dashes = Vec::new();
        let mut steps = Vec::new();
        let n = (seconds / DT).round() as usize;
        for i in 0..n {
            let s = b.update(Some(target), true, r, DT);
            if s.charged {
                dashes.push(i as f32 * DT);
            }
            steps.push(s);
        }
        (dashes, steps)
    }

    #[test]
    fn the_phase_turns_at_half_health() {
        assert_eq!(phase_for(1000.0, 1000.0), Phase::One);
        assert_eq!(phase_for(500.1, 1000.0), Phase::One);
        assert_eq!(phase_for(500.0, 1000.0), Phase::Two);
        assert_eq!(phase_for(1.0, 1000.0), Phase::Two);
        let r = Rules::default();
        let mut b = Boss::new((0.0, 0.0), &r);
        assert!(!b.hit(b.max / 2.0 - 1.0));
        assert!(!b.update(Some((0.0, 20.0)), true, &r, DT).phase_two);
        assert_eq!(b.phase, Phase::One);
        assert!(b.damage(&r) == r.eye_damage);
        b.hit(1.0);
        let s = b.update(Some((0.0, 20.0)), true, &r, DT);
        assert!(s.phase_two && b.phase == Phase::Two);
        assert!(matches!(b.mode, Mode::Turn { .. }));
        assert!(b.damage(&r) > r.eye_damage, "phase two hits harder");
        // Only once.
        assert!(!b.update(Some((0.0, 20.0)), true, &r, DT).phase_two);
        assert!(b.hit(b.max), "and dies at zero");
        assert_eq!(b.health, 0.0);
    }

    #[test]
    fn phase_one_hovers_then_dashes_its_charges_and_sends_servants() {
        let r = Rules::default();
        let target = (100.0, 50.0);
        let mut b = Boss::new((100.0, 20.0), &r);
        let each = r.eye_windup + DASH_SECONDS;
        let cycle = r.eye_hover + r.eye_charges as f32 * each;
        let (dashes, steps) = run(&mut b, target, cycle * 2.0 + 0.1, &r);
        assert_eq!(dashes.len() as u32, 2 * r.eye_charges, "{dashes:?}");
        // The first after the hover and a wind-up, the rest a wind-up and a dash apart,
        // then a hover again.
        let first = r.eye_hover + r.eye_windup;
        assert!((dashes[0] - first).abs() < 2.0 * DT, "{dashes:?}");
        for w in dashes[..r.eye_charges as usize].windows(2) {
            assert!((w[1] - w[0] - each).abs() < 2.0 * DT, "{dashes:?}");
        }
        let next = dashes[r.eye_charges as usize];
        assert!((next - dashes[0] - cycle).abs() < 3.0 * DT, "{dashes:?}");
        let servants = steps.iter().filter(|s| s.servant.is_some()).count();
        let hovering = 2.0 * r.eye_hover;
        assert_eq!(servants, (hovering / SERVANT_EVERY).floor() as usize);
        // A dash heads at the target at the charge speed.
        let mut b = Boss::new((100.0, 20.0), &r);
        b.mode = Mode::Aim {
            left: DT / 2.0,
            more: 0,
        };
        let s = b.update(Some(target), true, &r, DT);
        assert!(s.charged);
        let speed = (b.vel.0 * b.vel.0 + b.vel.1 * b.vel.1).sqrt();
        assert!((speed - r.eye_charge_speed).abs() < 1e-3);
        assert!(b.vel.1 > 0.0 && b.vel.0.abs() < 1e-3, "straight down at it");
    }

    #[test]
    fn a_dash_is_told_by_a_stop_and_stops_past_its_target() {
        let r = Rules::default();
        // Rushing across, its hover over: it brakes to a near stop through the wind-up,
        // where the target can see it coming, and launches only at its end.
        let target = (100.0, 50.0);
        let mut b = Boss::new((94.0, 41.0), &r);
        b.vel = (15.0, 0.0);
        b.mode = Mode::Hover { left: DT / 2.0 };
        let (dashes, _) = run(&mut b, target, r.eye_windup - 2.0 * DT, &r);
        assert!(dashes.is_empty() && matches!(b.mode, Mode::Aim { .. }));
        let slow = (b.vel.0 * b.vel.0 + b.vel.1 * b.vel.1).sqrt();
        assert!(slow < 0.5, "still while it aims: {slow}");
        assert_eq!(b.looking(target).0.signum(), 1.0, "it looks at the target");
        // The dash: straight at where the target was, through it, to a stop.
        let (dashes, _) = run(&mut b, target, 3.0 * DT, &r);
        assert_eq!(dashes.len(), 1);
        let from = b.pos;
        let (_, _) = run(&mut b, target, DASH_SECONDS - 3.0 * DT, &r);
        let went = ((b.pos.0 - from.0).powi(2) + (b.pos.1 - from.1).powi(2)).sqrt();
        let want = dash_length(r.eye_charge_speed, DASH_SECONDS);
        assert!((went - want).abs() < 1.0, "{went} tiles, not {want}");
        let d = ((target.0 - from.0).powi(2) + (target.1 - from.1).powi(2)).sqrt();
        assert!(want > d + 2.0, "it passes the target: {want} over {d}");
        assert!(want > HOVER_HEIGHT + 2.0, "from its hover too");
        let end = (b.vel.0 * b.vel.0 + b.vel.1 * b.vel.1).sqrt();
        assert!(end < r.eye_charge_speed * 0.15, "stopped: {end}");
    }

    #[test]
    fn phase_two_dashes_faster_and_harder_without_servants() {
        let r = Rules::default();
        let target = (100.0, 50.0);
        let mut b = Boss::new((100.0, 20.0), &r);
        b.hit(b.max / 2.0);
        let dash = DASH_SECONDS * 2.0 / 3.0;
        let each = r.eye_windup * 2.0 / 3.0 + dash;
        let cycle = r.eye_hover / 2.0 + r.eye_charges_two as f32 * each;
        let (dashes, steps) = run(&mut b, target, TURN_SECONDS + cycle + 0.05, &r);
        assert_eq!(dashes.len() as u32, r.eye_charges_two, "{dashes:?}");
        let first = TURN_SECONDS + r.eye_hover / 2.0 + r.eye_windup * 2.0 / 3.0;
        assert!((dashes[0] - first).abs() < 2.0 * DT, "{dashes:?}");
        for w in dashes.windows(2) {
            assert!((w[1] - w[0] - each).abs() < 2.0 * DT, "{dashes:?}");
        }
        assert!(steps.iter().all(|s| s.servant.is_none()), "no servants");
        assert!(r.eye_charge_speed_two > r.eye_charge_speed);
        assert!(r.eye_damage_two > r.eye_damage);
        assert!(b.spin > 0.0, "it spun into the phase");
    }

    #[test]
    fn it_leaves_at_dawn_or_without_a_player() {
        let r = Rules::default();
        for (target, night) in [(Some((0.0, 30.0)), false), (None, true)] {
            let mut b = Boss::new((0.0, 0.0), &r);
            let s = b.update(target, night, &r, DT);
            assert!(s.leaving && !s.gone && b.leaving());
            let mut t = DT;
            let mut gone = false;
            while t < LEAVE_SECONDS + 0.1 {
                let s = b.update(Some((0.0, 30.0)), true, &r, DT);
                assert!(!s.charged && s.servant.is_none(), "it only leaves");
                t += DT;
                if s.gone {
                    gone = true;
                    break;
                }
            }
            assert!(gone, "gone after {t} s");
            assert!((t - LEAVE_SECONDS).abs() < 2.0 * DT);
            assert!(b.pos.1 < -50.0, "up and away: {:?}", b.pos);
        }
    }

    #[test]
    fn it_comes_on_its_own_to_the_ready_one_night_in_three() {
        let r = Rules::default();
        assert!(may_come(200.0, 10, &r));
        assert!(!may_come(180.0, 10, &r), "too little health");
        assert!(!may_come(400.0, 9, &r), "too little defence");
        assert!(!may_come(crate::sim::vitals::MAX_HEALTH, 10, &r));
        let nights = (0..3000).filter(|&n| rolls_in(42, n, &r)).count();
        assert!((800..1200).contains(&nights), "{nights} of 3000");
        // The same night of the same world rolls the same; another world differs.
        let a: Vec<bool> = (0..64).map(|n| rolls_in(42, n, &r)).collect();
        assert_eq!(a, (0..64).map(|n| rolls_in(42, n, &r)).collect::<Vec<_>>());
        assert_ne!(a, (0..64).map(|n| rolls_in(43, n, &r)).collect::<Vec<_>>());
    }
}
