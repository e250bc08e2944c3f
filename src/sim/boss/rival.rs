//! The bosses after the Eye as one value the session keeps in its second slot: a
//! [`Form`] (the Eater, Skeletron or the Wall) with what every boss has besides — the
//! players who hit it (each gets its loot), its touch's cooldown, its phase and its
//! leaving. [`Rival::parts`] lists what is drawn, sent to the clients and struck: the
//! worm's segments, the skull and hands, the Wall's eyes and mouth (and lasers, which are
//! only drawn and hurt).

use super::Phase;
use super::eater::{self, Eater};
use super::skeletron::{self, Skeletron};
use super::wall::{self, Wall};
use crate::content::bosses::Bosses;

/// Which boss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RivalKind {
    Eater,
    Skeletron,
    Wall,
}

impl RivalKind {
    pub const ALL: [RivalKind; 3] = [RivalKind::Eater, RivalKind::Skeletron, RivalKind::Wall];

    /// Its name, on the health bar and in messages.
    pub fn name(self) -> &'static str {
        match self {
            RivalKind::Eater => "The Eater of Worlds",
            RivalKind::Skeletron => "Skeletron",
            RivalKind::Wall => "The Wall of Flesh",
        }
    }

    /// Its name in the world's progress (a town file's `Defeated(..)`, a spawn rule's
    /// `before`): its place in [`crate::content::town::BOSSES`], after the Eye's.
    pub fn flag(self) -> &'static str {
        crate::content::town::BOSSES[self as usize + 1]
    }

    /// Its number on the wire (1, 2, 3).
    pub fn code(self) -> u8 {
        self as u8 + 1
    }

    /// The kind of wire number `n`.
    pub fn from_code(n: u8) -> Option<RivalKind> {
        RivalKind::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// What each player who hit it gets when it falls (its trophy among them), as the
    /// bosses' data `b` has it.
    pub fn loot(self, b: &Bosses) -> &[(String, u32)] {
        match self {
            RivalKind::Eater => &b.loot.eater,
            RivalKind::Skeletron => &b.loot.skeletron,
            RivalKind::Wall => &b.loot.wall,
        }
    }

    /// Seconds it takes to leave once it gives up.
    pub fn leave_seconds(self) -> f32 {
        3.0
    }
}

/// One of the bosses after the Eye.
#[derive(Clone, Debug, PartialEq)]
pub enum Form {
    Eater(Eater),
    Skeletron(Skeletron),
    Wall(Wall),
}

/// What a part is, for drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Head,
    Body,
    Tail,
    Hand,
    Eye,
    Mouth,
    /// Hurts, is not struck.
    Laser,
}

/// A part: its middle, radius, role, health (its own; the Wall's eyes and mouth show the
/// Wall's) and where it is in the form (`index`: which to strike).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part {
    pub pos: (f32, f32),
    pub radius: f32,
    pub role: Role,
    pub health: f32,
    pub index: (u16, u16),
}

impl Part {
    /// The box round its ball (`left, top, right, bottom`): what blows and shots meet.
    pub fn bounds(&self) -> (f32, f32, f32, f32) {
        let (c, r) = (self.pos, self.radius);
        (c.0 - r, c.1 - r, c.0 + r, c.1 + r)
    }
}

/// What a step did, for the session to act on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RivalStep {
    pub phase_two: bool,
    pub leaving: bool,
    pub gone: bool,
    /// Skeletron: a hand swiped; the Wall: its eyes shot.
    pub attacked: bool,
}

/// What a strike did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Struck {
    /// The worm split in two.
    pub split: bool,
    /// A part died (a segment, a hand).
    pub part_died: bool,
    /// The boss fell.
    pub fallen: bool,
}

/// A boss after the Eye, in play.
#[derive(Clone, Debug, PartialEq)]
pub struct Rival {
    pub form: Form,
    pub phase: Phase,
    /// Seats of the players who hit it.
    pub fighters: Vec<usize>,
    /// Seconds before its touch may hurt again.
    pub touch_in: f32,
    /// Seconds it shows it was hit.
    pub hit_flash: f32,
    /// Seconds it has been leaving (`None`: it fights).
    pub leaving: Option<f32>,
}

impl Rival {
    pub fn new(form: Form) -> Rival {
        Rival {
            form,
            phase: Phase::One,
            fighters: Vec::new(),
            touch_in: 0.0,
            hit_flash: 0.0,
            leaving: None,
        }
    }

    pub fn kind(&self) -> RivalKind {
        match self.form {
            Form::Eater(_) => RivalKind::Eater,
            Form::Skeletron(_) => RivalKind::Skeletron,
            Form::Wall(_) => RivalKind::Wall,
        }
    }

    /// The health its bar shows: the worm's segments together, the skull's, the Wall's.
    pub fn health(&self) -> f32 {
        match &self.form {
            Form::Eater(e) => e.health(),
            Form::Skeletron(s) => s.health,
            Form::Wall(w) => w.health,
        }
    }

    /// The most health its bar shows.
    pub fn max(&self) -> f32 {
        match &self.form {
            Form::Eater(e) => e.full,
            Form::Skeletron(s) => s.n.head_health,
            Form::Wall(w) => w.n.health,
        }
    }

    /// Share of its most health at or below which its phase two comes.
    pub fn phase_two_at(&self) -> f32 {
        match &self.form {
            Form::Eater(e) => e.n.phase_two_at,
            Form::Skeletron(s) => s.n.phase_two_at,
            Form::Wall(w) => w.n.phase_two_at,
        }
    }

    /// Its parts, living ones only.
    pub fn parts(&self) -> Vec<Part> {
        let mut out = Vec::new();
        match &self.form {
            Form::Eater(e) => {
                for (w, worm) in e.worms.iter().enumerate() {
                    let n = worm.segs.len();
                    for (i, s) in worm.segs.iter().enumerate() {
                        let role = match i {
                            0 => Role::Head,
                            _ if i + 1 == n => Role::Tail,
                            _ => Role::Body,
                        };
                        let index = (w as u16, i as u16);
                        let (pos, health) = (s.pos, s.health);
                        out.push(Part {
                            pos,
                            radius: eater::RADIUS,
                            role,
                            health,
                            index,
                        });
                    }
                }
            }
            Form::Skeletron(s) => {
                out.push(Part {
                    pos: s.head,
                    radius: skeletron::HEAD_RADIUS,
                    role: Role::Head,
                    health: s.health,
                    index: (0, 0),
                });
                for (i, h) in s.hands.iter().enumerate().filter(|(_, h)| h.health > 0.0) {
                    out.push(Part {
                        pos: h.pos,
                        radius: skeletron::HAND_RADIUS,
                        role: Role::Hand,
                        health: h.health,
                        index: (1, i as u16),
                    });
                }
            }
            Form::Wall(w) => {
                for (i, pos) in w.face().into_iter().enumerate() {
                    let (role, radius) = if i == 1 {
                        (Role::Mouth, wall::MOUTH_RADIUS)
                    } else {
                        (Role::Eye, wall::EYE_RADIUS)
                    };
                    out.push(Part {
                        pos,
                        radius,
                        role,
                        health: w.health,
                        index: (0, i as u16),
                    });
                }
                for (i, l) in w.lasers.iter().enumerate() {
                    out.push(Part {
                        pos: l.pos,
                        radius: 0.4,
                        role: Role::Laser,
                        health: 0.0,
                        index: (1, i as u16),
                    });
                }
            }
        }
        out
    }

    /// A strike of `damage` on the part at `index` ([`Part::index`]).
    pub fn strike(&mut self, index: (u16, u16), damage: f32) -> Struck {
        self.hit_flash = 0.15;
        let damage = damage.max(0.0);
        let mut out = Struck::default();
        match &mut self.form {
            Form::Eater(e) => {
                let cut = e.hit(usize::from(index.0), usize::from(index.1), damage);
                out.split = cut.split;
                out.part_died = cut.killed;
                out.fallen = cut.fallen;
            }
            Form::Skeletron(s) => {
                if index.0 == 0 {
                    s.health = (s.health - damage).max(0.0);
                    out.fallen = s.health <= 0.0;
                } else if let Some(h) = s.hands.get_mut(usize::from(index.1)) {
                    let was = h.health;
                    h.health = (h.health - damage).max(0.0);
                    out.part_died = was > 0.0 && h.health <= 0.0;
                }
            }
            Form::Wall(w) => {
                if index.0 == 0 {
                    w.health = (w.health - damage).max(0.0);
                    out.fallen = w.health <= 0.0;
                }
            }
        }
        out
    }

    /// Health its touch takes from a player in the box `b`, if it touches (its parts' balls
    /// a little inside, as the Eye's; the Wall's flesh and lasers too).
    pub fn touching(&self, b: (f32, f32, f32, f32)) -> Option<f32> {
        if self.leaving.is_some() {
            return None;
        }
        let meets = |p: &Part| {
            let r = p.radius * 0.8;
            let hb = (p.pos.0 - r, p.pos.1 - r, p.pos.0 + r, p.pos.1 + r);
            hb.0 < b.2 && b.0 < hb.2 && hb.1 < b.3 && b.1 < hb.3
        };
        let parts = self.parts();
        let hit = parts.iter().filter(|p| meets(p));
        let most = hit
            .map(|p| match (&self.form, p.role) {
                (Form::Eater(e), _) => {
                    let n = e
                        .worms
                        .get(usize::from(p.index.0))
                        .map_or(1, |w| w.segs.len());
                    e.damage(usize::from(p.index.1), n)
                }
                (Form::Skeletron(s), Role::Head) => s.head_damage(),
                (Form::Skeletron(s), _) => s.n.hand_damage,
                (Form::Wall(w), Role::Laser) => w.n.laser_damage,
                (Form::Wall(w), _) => w.n.contact_damage,
            })
            .fold(None, |a: Option<f32>, d| Some(a.map_or(d, |a| a.max(d))));
        match &self.form {
            Form::Wall(w) if w.reaches(b) => Some(w.n.contact_damage),
            _ => most,
        }
    }

    /// One step of `dt`: toward `target` (`None`: no living player near, it leaves),
    /// `day`: Skeletron leaves at dawn; `solid` says whether a point is in a block.
    pub fn update(
        &mut self,
        target: Option<(f32, f32)>,
        day: bool,
        solid: &dyn Fn(f32, f32) -> bool,
        dt: f32,
    ) -> RivalStep {
        let dt = if dt.is_finite() {
            dt.clamp(0.0, 0.25)
        } else {
            0.0
        };
        let mut step = RivalStep::default();
        self.hit_flash = (self.hit_flash - dt).max(0.0);
        self.touch_in = (self.touch_in - dt).max(0.0);
        let gives_up = target.is_none() || (day && self.kind() == RivalKind::Skeletron);
        if gives_up && self.leaving.is_none() {
            self.leaving = Some(0.0);
            step.leaving = true;
        }
        if let Some(t) = self.leaving.as_mut() {
            *t += dt;
            step.gone = *t >= self.kind().leave_seconds();
            // Off up (Skeletron), down into the ground (the worm); the Wall sinks away.
            let away = match self.kind() {
                RivalKind::Skeletron => -30.0,
                _ => 30.0,
            };
            self.shift((0.0, away * dt));
            return step;
        }
        let Some(target) = target else {
            return step;
        };
        if self.phase == Phase::One && self.health() <= self.max() * self.phase_two_at() {
            self.phase = Phase::Two;
            step.phase_two = true;
        }
        let two = self.phase == Phase::Two;
        match &mut self.form {
            Form::Eater(e) => e.update(target, solid, two, dt),
            Form::Skeletron(s) => {
                let did = s.update(target, two, dt);
                step.attacked = did.swiped;
            }
            Form::Wall(w) => {
                let shots = w.shots;
                w.update(target, two, dt);
                step.attacked = w.shots > shots;
            }
        }
        step
    }

    /// Moves every part by `d` tiles.
    fn shift(&mut self, d: (f32, f32)) {
        let mv = |p: &mut (f32, f32)| *p = (p.0 + d.0, p.1 + d.1);
        match &mut self.form {
            Form::Eater(e) => e
                .worms
                .iter_mut()
                .flat_map(|w| &mut w.segs)
                .for_each(|s| mv(&mut s.pos)),
            Form::Skeletron(s) => {
                mv(&mut s.head);
                s.hands.iter_mut().for_each(|h| mv(&mut h.pos));
            }
            Form::Wall(w) => {
                w.top += d.1;
                w.bottom += d.1;
                w.face_y += d.1;
            }
        }
    }
}
