//! Every player of the session as the window shows them (engine-free): their names (a
//! seat without one is "Player N"), who swung a sword lately (the swing frame), the
//! others' bodies to draw with their frame, facing, tint and name ([`figures`]), the
//! player list Tab holds ([`Roster::list`]) and the join messages when seats are added.

use crate::game::draw::camera::TileRange;
use crate::game::ui::chat::Said;
use crate::sim::player::HEIGHT;
use crate::sim::session::Changes;
use crate::sim::session::Event;
use crate::sim::session::PlayerId;
use crate::sim::session::Session;

/// The names, swings and seats seen of the session's players.
#[derive(Clone, Debug, Default)]
pub struct Roster {
    names: Vec<Option<String>>,
    /// Until when each player's last swing shows.
    swing_until: Vec<f64>,
    /// Seats seen so far (those added later are announced).
    seen: usize,
    /// Which seats have a player on (a server's players leave); every seat when not set.
    present: Option<Vec<bool>>,
}

/// One other player to draw this frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub who: PlayerId,
    /// Feet centre, tiles.
    pub pos: (f32, f32),
    pub facing: i8,
    /// The sprite's frame ([`crate::game::draw::sprite::frame_index`]).
    pub frame: usize,
    /// Multiplies the sprite's colours, so players tell each other apart.
    pub tint: [f32; 3],
    pub name: String,
    /// Where its grappling hook's line caught, if it hangs on one.
    pub hook: Option<(f32, f32)>,
}

/// Tints of the players who are not the local one, in turn by seat.
pub const TINTS: [[f32; 3]; 6] = [
    [0.6, 0.75, 1.0],
    [1.0, 0.7, 0.6],
    [1.0, 0.95, 0.55],
    [0.85, 0.65, 1.0],
    [0.6, 1.0, 0.9],
    [1.0, 0.65, 0.85],
];

/// The tint of player `who`'s sprite.
pub fn tint(who: PlayerId) -> [f32; 3] {
    TINTS[who.0 % TINTS.len()]
}

impl Roster {
    /// The name of player `who`: as set, else "Player N" (counting from 1).
    pub fn name(&self, who: PlayerId) -> String {
        match self.names.get(who.0) {
            Some(Some(n)) => n.clone(),
            _ => format!("Player {}", who.0 + 1),
        }
    }

    /// Names player `who` (a server says who is who).
    pub fn set_name(&mut self, who: PlayerId, name: &str) {
        if self.names.len() <= who.0 {
            self.names.resize(who.0 + 1, None);
        }
        self.names[who.0] = Some(name.to_string());
    }

    /// Which seats have a player on, by seat (those not listed have none).
    pub fn set_present(&mut self, present: &[bool]) {
        self.present = Some(present.to_vec());
    }

    /// Has seat `who` a player on?
    pub fn is_present(&self, who: PlayerId) -> bool {
        self.present
            .as_ref()
            .is_none_or(|p| p.get(who.0) == Some(&true))
    }

    /// Notes the swings among a tick's changes (each shows for `shows` seconds from
    /// `now`).
    pub fn saw(&mut self, c: &Changes, now: f64, shows: f64) {
        for e in &c.events {
            if let Event::Swung { player } = *e {
                if self.swing_until.len() <= player.0 {
                    self.swing_until.resize(player.0 + 1, f64::NEG_INFINITY);
                }
                self.swing_until[player.0] = now + shows;
            }
        }
    }

    /// Is player `who`'s swing showing at `now`?
    pub fn swinging(&self, who: PlayerId, now: f64) -> bool {
        self.swing_until.get(who.0).is_some_and(|&t| now < t)
    }

    /// The session's seats now number `seats`: a join message for each added since the
    /// last call (none for the seats there at the first call but the local one's, which
    /// is not announced either).
    pub fn sync(&mut self, seats: usize) -> Vec<Said> {
        let first = self.seen == 0;
        let from = self.seen.max(1);
        self.seen = seats;
        if first {
            return Vec::new();
        }
        (from..seats)
            .map(|i| Said::Joined(self.name(PlayerId(i))))
            .collect()
    }

    /// The player list's lines: the local player first, marked, then the others on by
    /// seat.
    pub fn list(&self, seats: usize, local: PlayerId) -> Vec<String> {
        let mut out = vec![format!("{} (you)", self.name(local))];
        out.extend(
            (0..seats)
                .filter(|&i| i != local.0 && self.is_present(PlayerId(i)))
                .map(|i| self.name(PlayerId(i))),
        );
        out
    }
}

/// The players other than `local` whose bodies are in or beside the tiles `vis` (a
/// body's height around it, so a name over a head at the edge still shows), each with the
/// frame it shows at `now`, its tint and name.
pub fn figures(
    session: &Session,
    local: PlayerId,
    roster: &Roster,
    vis: TileRange,
    now: f64,
) -> Vec<Figure> {
    let margin = HEIGHT + 1.0;
    let near = |p: (f32, f32)| {
        p.0 >= vis.x0 as f32 - margin
            && p.0 <= vis.x1 as f32 + margin
            && p.1 >= vis.y0 as f32 - margin
            && p.1 <= vis.y1 as f32 + margin
    };
    session
        .players
        .iter()
        .enumerate()
        .filter(|&(i, s)| {
            // The dead leave no body while their death screen shows.
            let alive = s.death.is_none();
            i != local.0 && alive && roster.is_present(PlayerId(i)) && near(s.body.pos)
        })
        .map(|(i, s)| {
            let who = PlayerId(i);
            let b = &s.body;
            Figure {
                who,
                pos: b.pos,
                facing: b.facing,
                frame: crate::game::draw::sprite::frame_index(
                    b.on_ground,
                    b.vel,
                    now,
                    roster.swinging(who, now),
                ),
                tint: tint(who),
                name: roster.name(who),
                hook: b.hook,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::session::Intent;
    use crate::sim::session::LOCAL;

    fn everywhere() -> TileRange {
        TileRange {
            x0: 0,
            y0: 0,
            x1: usize::MAX / 4,
            y1: usize::MAX / 4,
        }
    }

    fn session() -> Session {
        let p = crate::content::preset::Preset {
            width: 400,
            height: 200,
            ..Default::default()
        };
        Session::new(crate::worldgen::generate(&p, 5).0)
    }

    #[test]
    fn the_others_are_drawn_with_their_names_and_frames_not_the_local_player() {
        let mut s = session();
        let mut roster = Roster::default();
        assert!(roster.sync(s.players.len()).is_empty());
        assert!(figures(&s, LOCAL, &roster, everywhere(), 0.0).is_empty());
        let ann = s.join();
        let bo = s.join();
        roster.set_name(ann, "Ann");
        let joined = roster.sync(s.players.len());
        assert_eq!(
            joined,
            vec![Said::Joined("Ann".into()), Said::Joined("Player 3".into())]
        );
        assert!(roster.sync(s.players.len()).is_empty(), "announced once");
        // Let everyone land, then Ann runs right.
        for _ in 0..120 {
            s.step(&[]);
        }
        for _ in 0..30 {
            s.step(&[(
                ann,
                Intent::Move {
                    axis: 1,
                    jump: false,
                },
            )]);
        }
        let f = figures(&s, LOCAL, &roster, everywhere(), 0.05);
        assert_eq!(f.iter().map(|f| f.who).collect::<Vec<_>>(), vec![ann, bo]);
        assert_eq!(f[0].name, "Ann");
        assert_eq!(f[0].pos, s.players[ann.0].body.pos);
        assert_eq!(f[0].facing, 1);
        assert!(
            crate::game::draw::sprite::RUN.contains(&f[0].frame),
            "Ann runs: frame {}",
            f[0].frame
        );
        assert_eq!(f[1].frame, crate::game::draw::sprite::IDLE, "Bo stands");
        assert_ne!(f[0].tint, f[1].tint);
        assert_eq!((f[0].hook, f[1].hook), (None, None), "no one on a hook");
        // Bo hangs on a grappling line: its figure has it, to draw the line.
        let anchor = (s.players[bo.0].body.pos.0 + 5.0, 20.0);
        s.players[bo.0].body.hook = Some(anchor);
        let f = figures(&s, LOCAL, &roster, everywhere(), 0.05);
        assert_eq!((f[0].hook, f[1].hook), (None, Some(anchor)));
        // Seen from Ann's seat, the local player is among the others and Ann is not.
        let from_ann = figures(&s, ann, &roster, everywhere(), 0.0);
        assert_eq!(
            from_ann.iter().map(|f| f.who).collect::<Vec<_>>(),
            vec![LOCAL, bo]
        );
        // Out of view: not drawn.
        let p = s.players[bo.0].body.pos;
        let far = TileRange {
            x0: p.0 as usize + 100,
            y0: 0,
            x1: p.0 as usize + 150,
            y1: 50,
        };
        assert!(figures(&s, LOCAL, &roster, far, 0.0).is_empty());
        // A seat whose player left is not drawn.
        roster.set_present(&[true, false, true]);
        let f = figures(&s, LOCAL, &roster, everywhere(), 0.0);
        assert_eq!(f.iter().map(|f| f.who).collect::<Vec<_>>(), vec![bo]);
        // Nor one on its death screen.
        let text = "You were slain by a slime".to_string();
        s.players[bo.0].death = Some(crate::sim::session::Death { text, until: 600 });
        assert!(figures(&s, LOCAL, &roster, everywhere(), 0.0).is_empty());
    }

    #[test]
    fn a_swing_shows_its_frame_for_a_while() {
        let mut s = session();
        let ann = s.join();
        let mut roster = Roster::default();
        let mut c = Changes::default();
        c.events.push(Event::Swung { player: ann });
        roster.saw(&c, 10.0, 0.3);
        assert!(roster.swinging(ann, 10.1));
        assert!(!roster.swinging(ann, 10.4));
        assert!(!roster.swinging(PlayerId(7), 10.1));
        let f = figures(&s, LOCAL, &roster, everywhere(), 10.1);
        assert_eq!(f[0].frame, crate::game::draw::sprite::SWING);
    }

    #[test]
    fn the_list_puts_the_local_player_first() {
        let mut roster = Roster::default();
        roster.set_name(PlayerId(2), "Cy");
        assert_eq!(
            roster.list(3, PlayerId(1)),
            vec!["Player 2 (you)", "Player 1", "Cy"]
        );
        assert_eq!(roster.list(1, LOCAL), vec!["Player 1 (you)"]);
        // A player who left is not listed.
        roster.set_present(&[true, true, false]);
        assert_eq!(roster.list(3, LOCAL), vec!["Player 1 (you)", "Player 2"]);
    }
}
