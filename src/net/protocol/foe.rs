//! The boss after the Eye as the clients see it ([`Foe`]): its kind, health, phase and
//! parts (the worm's segments, Skeletron's skull and hands, the Wall's face and lasers),
//! at most [`MAX_FOE_PARTS`], and the Wall's span; [`rival_in`] builds a boss to draw
//! from it (its moves are the server's).

use crate::sim::boss::eater::{self, Eater, Seg, Worm};
use crate::sim::boss::skeletron::Skeletron;
use crate::sim::boss::wall::{Laser, Wall};
use crate::sim::boss::{Form, Phase, Rival, RivalKind, Role};
use serde::{Deserialize, Serialize};

/// Most parts a [`Foe`] carries (a whole worm and the Wall's lasers fit).
pub const MAX_FOE_PARTS: usize = 64;

/// One part: its middle, role (0 head, 1 body, 2 tail, 3 hand, 4 eye, 5 mouth, 6
/// laser), health and place in its boss (worm and segment, or hand).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FoePart {
    pub pos: (f32, f32),
    pub role: u8,
    pub health: f32,
    pub index: (u16, u16),
}

/// A boss after the Eye: `kind` 1 the Eater, 2 Skeletron, 3 the Wall; `span` the Wall's
/// rows and the way it crosses (`dir`); `spin` Skeletron's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Foe {
    pub kind: u8,
    pub health: f32,
    pub phase: u8,
    pub hit: bool,
    pub spin: f32,
    pub span: (f32, f32),
    pub dir: f32,
    pub parts: Vec<FoePart>,
}

const ROLES: [Role; 7] = [
    Role::Head,
    Role::Body,
    Role::Tail,
    Role::Hand,
    Role::Eye,
    Role::Mouth,
    Role::Laser,
];

/// The boss as the clients see it (its first [`MAX_FOE_PARTS`] parts).
pub fn foe_of(r: &Rival) -> Foe {
    let (spin, span, dir) = match &r.form {
        Form::Skeletron(s) => (s.spin, (0.0, 0.0), 0.0),
        Form::Wall(w) => (0.0, (w.top, w.bottom), w.dir),
        Form::Eater(_) => (0.0, (0.0, 0.0), 0.0),
    };
    Foe {
        kind: r.kind().code(),
        health: r.health(),
        phase: if r.phase == Phase::Two { 2 } else { 1 },
        hit: r.hit_flash > 0.0,
        spin,
        span,
        dir,
        parts: r
            .parts()
            .into_iter()
            .take(MAX_FOE_PARTS)
            .map(|p| FoePart {
                pos: p.pos,
                role: ROLES.iter().position(|&q| q == p.role).unwrap_or(0) as u8,
                health: p.health,
                index: p.index,
            })
            .collect(),
    }
}

/// The boss of a snapshot, to draw (of the numbers `n`, the client's content's), or
/// `None` for an unknown kind, too many parts, a number not finite or no part to show.
pub fn rival_in(f: &Foe, n: &crate::content::bosses::Bosses) -> Option<Rival> {
    let kind = RivalKind::from_code(f.kind)?;
    let fine = |v: f32| v.is_finite();
    let numbers = [f.health, f.spin, f.span.0, f.span.1, f.dir];
    if f.parts.len() > MAX_FOE_PARTS
        || f.parts.is_empty()
        || !numbers.into_iter().all(fine)
        || !f
            .parts
            .iter()
            .all(|p| fine(p.pos.0) && fine(p.pos.1) && fine(p.health))
    {
        return None;
    }
    let role = |p: &FoePart| ROLES.get(usize::from(p.role)).copied();
    let form = match kind {
        RivalKind::Eater => {
            let mut worms: Vec<Worm> = Vec::new();
            for p in &f.parts {
                let max = match role(p)? {
                    Role::Head => n.eater.head_health,
                    Role::Tail => n.eater.tail_health,
                    _ => n.eater.body_health,
                };
                // A segment that was a body before a cut keeps its own health.
                let health = p.health.max(0.0);
                let seg = Seg {
                    pos: p.pos,
                    health,
                    max: max.max(health),
                };
                match worms.last_mut() {
                    Some(w) if role(p) != Some(Role::Head) => w.segs.push(seg),
                    _ => worms.push(Worm {
                        segs: vec![seg],
                        vel: (0.0, 0.0),
                    }),
                }
            }
            // Its whole health is not sent: today's (the rules' default), or what it has.
            Form::Eater(Eater {
                worms,
                full: eater::whole(&n.eater).max(f.health),
                n: n.eater,
            })
        }
        RivalKind::Skeletron => {
            let head = f.parts.iter().find(|p| role(p) == Some(Role::Head))?;
            let mut s = Skeletron::of(head.pos, &n.skeletron);
            s.health = head.health.max(0.0);
            s.spin = f.spin;
            for h in &mut s.hands {
                h.health = 0.0;
            }
            for p in f.parts.iter().filter(|p| role(p) == Some(Role::Hand)) {
                if let Some(h) = s.hands.get_mut(usize::from(p.index.1)) {
                    h.pos = p.pos;
                    h.health = p.health.max(0.0);
                }
            }
            Form::Skeletron(s)
        }
        RivalKind::Wall => {
            let mouth = f.parts.iter().find(|p| role(p) == Some(Role::Mouth))?;
            let x = mouth.pos.0 + f.dir.signum() * 1.5;
            let mut w = Wall::of(x, f.dir, f.span, f32::MAX, &n.wall);
            w.face_y = mouth.pos.1;
            w.health = f.health.max(0.0);
            w.lasers = (f.parts.iter().filter(|p| role(p) == Some(Role::Laser)))
                .map(|p| Laser {
                    pos: p.pos,
                    vel: (0.0, 0.0),
                    life: 1.0,
                })
                .collect();
            Form::Wall(w)
        }
    };
    let mut r = Rival::new(form);
    r.phase = if f.phase >= 2 { Phase::Two } else { Phase::One };
    r.hit_flash = if f.hit { 0.1 } else { 0.0 };
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_boss_goes_over_the_wire_and_comes_back_to_draw() {
        let mut eater = Rival::new(Form::Eater(Eater::new((10.0, 20.0))));
        eater.strike((0, 8), 1e6);
        let wall = Rival::new(Form::Wall(Wall::new(30.0, -1.0, (100.0, 150.0), 400.0)));
        let mut bones = Rival::new(Form::Skeletron(Skeletron::new((5.0, 5.0))));
        bones.strike((1, 0), 1e6);
        for r in [eater, wall, bones] {
            let f = foe_of(&r);
            let bytes = crate::net::protocol::encode(&f);
            let back: Foe = crate::net::protocol::decode(&bytes).unwrap();
            let shown = rival_in(&back, &Default::default()).expect("drawable");
            assert_eq!(shown.kind(), r.kind());
            assert_eq!(shown.health(), r.health());
            let (a, b) = (shown.parts(), r.parts());
            assert_eq!(a.len(), b.len(), "{:?}", r.kind());
            for (p, q) in a.iter().zip(&b) {
                assert!((p.pos.0 - q.pos.0).abs() < 1e-3 && (p.pos.1 - q.pos.1).abs() < 1e-3);
                assert_eq!(p.role, q.role);
            }
        }
        // Two worms after the cut, each with its head.
        let Some(Form::Eater(e)) = rival_in(
            &foe_of(&Rival::new(Form::Eater({
                let mut e = Eater::new((0.0, 0.0));
                e.hit(0, 5, 1e6);
                e
            }))),
            &Default::default(),
        )
        .map(|r| r.form) else {
            panic!("an Eater");
        };
        assert_eq!(e.worms.len(), 2);
        // Bad numbers or too many parts are refused.
        let mut f = foe_of(&Rival::new(Form::Skeletron(Skeletron::new((0.0, 0.0)))));
        f.parts[0].pos.0 = f32::NAN;
        assert!(rival_in(&f, &Default::default()).is_none());
        f.parts = vec![f.parts[1].clone(); MAX_FOE_PARTS + 1];
        assert!(rival_in(&f, &Default::default()).is_none());
        f.kind = 9;
        assert!(rival_in(&f, &Default::default()).is_none());
    }
}
