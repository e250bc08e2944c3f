//! The Eater of Worlds: a worm of [`SEGMENTS`] segments (a head, a body, a tail), each with
//! its own health. The head steers at its target while it is inside blocks and falls in
//! an arc when it breaks out into the air (it passes through tiles, as Terraria's worms
//! do, without breaking them); each segment follows the one before it, [`SPACING`] tiles
//! behind, so the body runs the head's path. Cutting a body segment splits the worm: the
//! segments in front keep their head (the last of them becomes a tail), those behind
//! become a worm of their own whose first segment is its new head. A head cut makes the
//! next segment the head; the Eater falls when no segment is left. At half its whole
//! health it turns to phase two: faster.
//!
//! Its health is Terraria's (head 65, body 150, tail 220 over about 50 segments: about
//! 10,000) scaled as Strata's Eye is (900 for Terraria's 2,800). Its numbers are data
//! (`config/creatures.ron`'s `bosses.eater`, [`EaterBoss`]); the constants here are the
//! shipped ones.

use crate::content::bosses::EaterBoss;

/// Segments a worm comes with.
pub const SEGMENTS: usize = 24;
/// Health of the head, a body segment and the tail.
pub const HEAD_HEALTH: f32 = EaterBoss::SHIPPED.head_health;
pub const BODY_HEALTH: f32 = EaterBoss::SHIPPED.body_health;
pub const TAIL_HEALTH: f32 = EaterBoss::SHIPPED.tail_health;
/// Tiles between the middles of two segments that follow each other.
pub const SPACING: f32 = 1.6;
/// A segment's radius, tiles.
pub const RADIUS: f32 = 1.0;
/// Fastest a head steers through blocks, tiles/s (phase two: [`SPEED_TWO`]).
pub const SPEED: f32 = EaterBoss::SHIPPED.speed;
pub const SPEED_TWO: f32 = EaterBoss::SHIPPED.speed_two;
/// How fast a head turns toward its target (share of the difference a second).
const TURN: f32 = 2.5;
/// Tiles/s² a head out in the air falls by.
pub const GRAVITY: f32 = 28.0;
/// Health a head, a body segment and the tail take from a player they touch (Terraria's).
pub const HEAD_DAMAGE: f32 = EaterBoss::SHIPPED.head_damage;
pub const BODY_DAMAGE: f32 = EaterBoss::SHIPPED.body_damage;
pub const TAIL_DAMAGE: f32 = EaterBoss::SHIPPED.tail_damage;
/// Most worms at once: a worm splits only where it has a middle, so never more than this.
pub const MOST_WORMS: usize = SEGMENTS / 2;

/// One segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seg {
    /// Middle, tiles.
    pub pos: (f32, f32),
    pub health: f32,
    pub max: f32,
}

/// One worm: `segs[0]` its head, the last its tail.
#[derive(Clone, Debug, PartialEq)]
pub struct Worm {
    pub segs: Vec<Seg>,
    /// The head's speed, tiles/s.
    pub vel: (f32, f32),
}

/// What a hit on a segment did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cut {
    /// The segment died.
    pub killed: bool,
    /// Its worm split in two.
    pub split: bool,
    /// No segment is left.
    pub fallen: bool,
}

/// The Eater: its worms.
#[derive(Clone, Debug, PartialEq)]
pub struct Eater {
    pub worms: Vec<Worm>,
    /// The whole health it came with (its bar's full width).
    pub full: f32,
    /// Its numbers.
    pub n: EaterBoss,
}

/// The whole health an Eater of the shipped numbers comes with.
pub fn full_health() -> f32 {
    whole(&EaterBoss::SHIPPED)
}

/// The whole health of an Eater of numbers `n`: its segments' together.
pub fn whole(n: &EaterBoss) -> f32 {
    n.head_health + n.body_health * (SEGMENTS - 2) as f32 + n.tail_health
}

impl Eater {
    /// A worm rising from `at` (its head), its body trailing straight down.
    pub fn new(at: (f32, f32)) -> Eater {
        Eater::with_health(at, full_health())
    }

    /// A worm as [`Eater::new`]'s with `whole` health over its segments, each keeping its
    /// share of [`full_health`] (the rules' `eater_health`).
    pub fn with_health(at: (f32, f32), whole: f32) -> Eater {
        Eater::of(at, whole, &EaterBoss::SHIPPED)
    }

    /// A worm of numbers `n` with `whole` health over its segments, each keeping its
    /// share of the numbers' whole ([`whole`]).
    pub fn of(at: (f32, f32), whole_health: f32, n: &EaterBoss) -> Eater {
        let scale = whole_health / whole(n);
        let segs = (0..SEGMENTS)
            .map(|i| {
                let max = scale
                    * match i {
                        0 => n.head_health,
                        _ if i + 1 == SEGMENTS => n.tail_health,
                        _ => n.body_health,
                    };
                Seg {
                    pos: (at.0, at.1 + i as f32 * SPACING),
                    health: max,
                    max,
                }
            })
            .collect();
        Eater {
            worms: vec![Worm {
                segs,
                vel: (0.0, -n.speed),
            }],
            full: whole_health,
            n: *n,
        }
    }

    /// Health left over every segment.
    pub fn health(&self) -> f32 {
        self.worms
            .iter()
            .flat_map(|w| &w.segs)
            .map(|s| s.health)
            .sum()
    }

    /// Moves every worm a step of `dt` toward `target`; `solid` says whether a point is
    /// inside a block; `two`: phase two's speed.
    pub fn update(
        &mut self,
        target: (f32, f32),
        solid: &dyn Fn(f32, f32) -> bool,
        two: bool,
        dt: f32,
    ) {
        let top = if two { self.n.speed_two } else { self.n.speed };
        for w in &mut self.worms {
            let Some(head) = w.segs.first_mut() else {
                continue;
            };
            let (dx, dy) = (target.0 - head.pos.0, target.1 - head.pos.1);
            let d = (dx * dx + dy * dy).sqrt().max(1e-3);
            let want = (dx / d * top, dy / d * top);
            if solid(head.pos.0, head.pos.1) {
                let k = (TURN * dt).min(1.0);
                w.vel = (
                    w.vel.0 + (want.0 - w.vel.0) * k,
                    w.vel.1 + (want.1 - w.vel.1) * k,
                );
            } else {
                // Out in the air: it falls, steering a little sideways.
                let k = (TURN * 0.3 * dt).min(1.0);
                w.vel = (w.vel.0 + (want.0 - w.vel.0) * k, w.vel.1 + GRAVITY * dt);
            }
            let s = (w.vel.0 * w.vel.0 + w.vel.1 * w.vel.1).sqrt();
            let most = top * 1.6;
            if s > most {
                w.vel = (w.vel.0 / s * most, w.vel.1 / s * most);
            }
            head.pos = (head.pos.0 + w.vel.0 * dt, head.pos.1 + w.vel.1 * dt);
            for i in 1..w.segs.len() {
                let lead = w.segs[i - 1].pos;
                let me = &mut w.segs[i].pos;
                let (dx, dy) = (me.0 - lead.0, me.1 - lead.1);
                let d = (dx * dx + dy * dy).sqrt();
                if d > SPACING {
                    *me = (lead.0 + dx / d * SPACING, lead.1 + dy / d * SPACING);
                }
            }
        }
    }

    /// A hit of `damage` on segment `seg` of worm `worm` (out of range: nothing).
    pub fn hit(&mut self, worm: usize, seg: usize, damage: f32) -> Cut {
        let mut cut = Cut::default();
        let Some(w) = self.worms.get_mut(worm) else {
            return cut;
        };
        let Some(s) = w.segs.get_mut(seg) else {
            return cut;
        };
        s.health = (s.health - damage.max(0.0)).max(0.0);
        if s.health > 0.0 {
            return cut;
        }
        cut.killed = true;
        let back: Vec<Seg> = w.segs.split_off(seg + 1);
        w.segs.pop();
        let vel = w.vel;
        if !w.segs.is_empty() && !back.is_empty() {
            cut.split = true;
        }
        if !back.is_empty() {
            // The segments behind the cut: their first is a head now (a head cut leaves
            // just these, which go on as the worm did).
            let away = match back.get(1) {
                Some(b) => {
                    let (dx, dy) = (back[0].pos.0 - b.pos.0, back[0].pos.1 - b.pos.1);
                    let d = (dx * dx + dy * dy).sqrt().max(1e-3);
                    let s = (vel.0 * vel.0 + vel.1 * vel.1)
                        .sqrt()
                        .max(self.n.speed * 0.5);
                    (dx / d * s, dy / d * s)
                }
                None => vel,
            };
            self.worms.push(Worm {
                segs: back,
                vel: away,
            });
        }
        self.worms.retain(|w| !w.segs.is_empty());
        cut.fallen = self.worms.is_empty();
        cut
    }

    /// Health a player touching segment `seg` of a worm `len` long takes.
    pub fn damage(&self, seg: usize, len: usize) -> f32 {
        if seg == 0 {
            self.n.head_damage
        } else if seg + 1 == len {
            self.n.tail_damage
        } else {
            self.n.body_damage
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_middle_splits_the_worm_into_two_with_a_head_each() {
        let mut e = Eater::new((0.0, 0.0));
        assert_eq!(e.health(), full_health());
        let cut = e.hit(0, 10, BODY_HEALTH - 1.0);
        assert!(!cut.killed && e.worms.len() == 1);
        let cut = e.hit(0, 10, 1.0);
        assert!(cut.killed && cut.split && !cut.fallen);
        assert_eq!(e.worms.len(), 2, "two heads");
        assert_eq!(e.worms[0].segs.len(), 10);
        assert_eq!(e.worms[1].segs.len(), SEGMENTS - 11);
        // The new worm's head was the segment right behind the cut.
        assert_eq!(e.worms[1].segs[0].pos, (0.0, 11.0 * SPACING));
        // A head cut passes the head on and does not split.
        let cut = e.hit(1, 0, 1e6);
        assert!(cut.killed && !cut.split);
        assert_eq!(e.worms.len(), 2);
        assert_eq!(e.worms[1].segs.len(), SEGMENTS - 12);
    }

    #[test]
    fn it_falls_when_every_segment_is_dead() {
        let mut e = Eater::new((0.0, 0.0));
        let mut last = Cut::default();
        while let Some(w) = e.worms.first() {
            let n = w.segs.len();
            last = e.hit(0, n - 1, 1e6);
            assert!(e.worms.len() <= MOST_WORMS);
        }
        assert!(last.fallen && e.health() == 0.0);
    }

    #[test]
    fn a_weaker_eater_keeps_each_segments_share_of_its_health() {
        let e = Eater::with_health((0.0, 0.0), full_health() / 60.0);
        assert!((e.health() - full_health() / 60.0).abs() < 1e-3);
        assert_eq!(e.full, full_health() / 60.0);
        let segs = &e.worms[0].segs;
        assert_eq!(segs[1].max, BODY_HEALTH / 60.0);
        assert_eq!(segs[SEGMENTS - 1].max, TAIL_HEALTH / 60.0);
        // A blow a full Eater's body takes many of cuts this one in two.
        let mut e = e;
        assert!(e.hit(0, 5, 2.0).split);
    }

    #[test]
    fn the_body_follows_the_head_through_blocks_and_it_falls_in_the_air() {
        let ground = |_: f32, y: f32| y > 10.0;
        let mut e = Eater::new((0.0, 40.0));
        for _ in 0..120 {
            e.update((30.0, 40.0), &ground, false, 1.0 / 60.0);
        }
        let w = &e.worms[0];
        assert!(
            w.segs[0].pos.0 > 3.0,
            "it turns toward the target: {:?}",
            w.segs[0]
        );
        for pair in w.segs.windows(2) {
            let d = ((pair[0].pos.0 - pair[1].pos.0).powi(2)
                + (pair[0].pos.1 - pair[1].pos.1).powi(2))
            .sqrt();
            assert!(d <= SPACING + 1e-3, "segments stay together: {d}");
        }
        // Above the ground, a rising head slows and falls back.
        let mut e = Eater::new((0.0, 5.0));
        let start = e.worms[0].vel.1;
        for _ in 0..60 {
            e.update((0.0, -50.0), &ground, false, 1.0 / 60.0);
        }
        assert!(
            start < 0.0 && e.worms[0].vel.1 > 0.0,
            "{:?}",
            e.worms[0].vel
        );
    }
}
