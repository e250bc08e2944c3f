//! What a snapshot carries beside the bodies for a joined window to draw the same world:
//! the casters' bolts in flight ([`Bolt`], at most [`MAX_BOLTS`]: the fire imp's
//! fireball, the antlion's sand). The world's progress rides as the save keeps it
//! ([`crate::world::progress::Progress`]).

use crate::content::bestiary::Bestiary;
use crate::sim::creatures;
use serde::{Deserialize, Serialize};

/// Most bolts a snapshot carries (all a world may have in flight).
pub const MAX_BOLTS: usize = creatures::behaviour::MAX_BOLTS;

/// A caster's bolt as the clients see it: who threw it (a creature's name, for its
/// colour), where it is and flies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bolt {
    pub from: String,
    pub pos: (f32, f32),
    pub vel: (f32, f32),
}

/// The bolts of `c` as the clients see them, at most [`MAX_BOLTS`].
pub fn bolts_of(c: &creatures::Creatures) -> Vec<Bolt> {
    (c.bolts.iter().take(MAX_BOLTS))
        .map(|b| Bolt {
            from: c.bestiary.stats(b.from).name.to_string(),
            pos: b.pos,
            vel: b.vel,
        })
        .collect()
}

/// Bolts to draw from a snapshot's (at most [`MAX_BOLTS`]; a thrower the client's
/// `bestiary` does not know or a number that is not finite is left out). They hurt no one
/// on a client: the server's hit.
pub fn bolts_in(bolts: &[Bolt], bestiary: &Bestiary) -> Vec<creatures::Bolt> {
    let finite = |p: (f32, f32)| p.0.is_finite() && p.1.is_finite();
    (bolts.iter().take(MAX_BOLTS))
        .filter(|b| finite(b.pos) && finite(b.vel))
        .filter_map(|b| {
            Some(creatures::Bolt {
                pos: b.pos,
                vel: b.vel,
                damage: 0.0,
                through_walls: true,
                age: 0.0,
                from: bestiary.kind(&b.from)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bolts_and_the_progress_go_over_the_wire_and_come_back() {
        let b = std::sync::Arc::clone(creatures::test_bestiary());
        let imp = b.kind("fire imp").expect("the fire imp");
        let mut c = creatures::Creatures::new(1, std::sync::Arc::clone(&b));
        for i in 0..MAX_BOLTS + 5 {
            c.bolts.push(creatures::Bolt {
                pos: (i as f32, 2.0),
                vel: (3.0, -1.0),
                damage: 20.0,
                through_walls: true,
                age: 0.5,
                from: imp,
            });
        }
        let sent = bolts_of(&c);
        assert_eq!(sent.len(), MAX_BOLTS, "bounded");
        let bytes = crate::net::protocol::encode(&sent);
        let back: Vec<Bolt> = crate::net::protocol::decode(&bytes).unwrap();
        let mut shown = bolts_in(&back, &b);
        assert_eq!(shown.len(), MAX_BOLTS);
        assert_eq!(
            (shown[7].pos, shown[7].vel, shown[7].from),
            ((7.0, 2.0), (3.0, -1.0), imp)
        );
        assert_eq!(shown[7].damage, 0.0, "a client's bolt hurts no one");
        // A thrower this build lacks, a number that is not one, or too many: left out.
        let mut odd = back.clone();
        odd[0].from = "no such thing".into();
        odd[1].pos.0 = f32::NAN;
        odd.extend(back.iter().cloned());
        shown = bolts_in(&odd, &b);
        assert_eq!(shown.len(), MAX_BOLTS - 2);
        use crate::world::progress::Progress;
        let p = Progress {
            eye_defeated: 1,
            nights: 9,
            orbs_broken: 3,
            eater_defeated: 1,
            skeletron_defeated: 2,
            wall_defeated: 0,
        };
        let bytes = crate::net::protocol::encode(&p);
        assert_eq!(crate::net::protocol::decode::<Progress>(&bytes), Ok(p));
    }
}
