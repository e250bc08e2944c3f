//! Which music plays: the piece for where the player is (the world's layers) and the time
//! of day ([`piece_for`]), and a chooser that changes piece only once the new place has
//! held for a moment, so walking along a layer's edge does not flip the music back and
//! forth. The mixer crossfades each change.

use crate::base::depth::Layer;

/// A music piece, in the order of [`Piece::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The surface by day.
    Day,
    /// The surface by night.
    Night,
    /// The underground and the caverns.
    Underground,
    Underworld,
    /// Danger: a crowd of creatures about the player.
    Danger,
    /// The Eye is about.
    Boss,
}

impl Piece {
    pub const ALL: [Piece; 6] = [
        Piece::Day,
        Piece::Night,
        Piece::Underground,
        Piece::Underworld,
        Piece::Danger,
        Piece::Boss,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The piece's WAV file, built into the program.
    pub fn file(self) -> &'static [u8] {
        match self {
            Piece::Day => {
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/music/day.wav"))
            }
            Piece::Night => include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets/music/night.wav"
            )),
            Piece::Underground => include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets/music/underground.wav"
            )),
            Piece::Underworld => include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets/music/underworld.wav"
            )),
            Piece::Danger => include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets/music/danger.wav"
            )),
            Piece::Boss => {
                include_bytes!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/assets/music/boss.wav"
                ))
            }
        }
    }
}

/// Creatures within [`DANGER_RANGE`] tiles at which the danger piece plays.
pub const DANGER_CROWD: usize = 3;
/// Tiles around the player counted for [`DANGER_CROWD`].
pub const DANGER_RANGE: f32 = 20.0;
/// Seconds a new place must hold before its piece fades in.
pub const HOLD_SECONDS: f32 = 1.5;

/// The piece for the player's layer, the time of day, danger and the Eye (`boss`: it is
/// about, whatever else goes on).
pub fn piece_for(layer: Layer, night: bool, danger: bool, boss: bool) -> Piece {
    if boss {
        return Piece::Boss;
    }
    if danger {
        return Piece::Danger;
    }
    match layer {
        Layer::Sky | Layer::Surface if night => Piece::Night,
        Layer::Sky | Layer::Surface => Piece::Day,
        Layer::Underground | Layer::Cavern => Piece::Underground,
        Layer::Underworld => Piece::Underworld,
    }
}

/// The piece playing, and the one waiting to take over.
#[derive(Debug, Default)]
pub struct Chooser {
    playing: Option<Piece>,
    waiting: Option<(Piece, f32)>,
}

impl Chooser {
    /// The piece playing now.
    pub fn playing(&self) -> Option<Piece> {
        self.playing
    }

    /// The player's place calls for `want` this frame (`dt` seconds long): returns the
    /// piece to fade to when the music changes. The first piece starts at once; a later
    /// change waits until `want` has held for [`HOLD_SECONDS`].
    pub fn update(&mut self, want: Piece, dt: f32) -> Option<Piece> {
        if self.playing.is_none() {
            self.playing = Some(want);
            return Some(want);
        }
        if self.playing == Some(want) {
            self.waiting = None;
            return None;
        }
        let held = match self.waiting {
            Some((p, t)) if p == want => t + dt,
            _ => dt,
        };
        if held >= HOLD_SECONDS {
            self.playing = Some(want);
            self.waiting = None;
            return Some(want);
        }
        self.waiting = Some((want, held));
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn place_and_time_choose_the_piece() {
        assert_eq!(piece_for(Layer::Surface, false, false, false), Piece::Day);
        assert_eq!(piece_for(Layer::Sky, true, false, false), Piece::Night);
        assert_eq!(
            piece_for(Layer::Underground, true, false, false),
            Piece::Underground
        );
        assert_eq!(
            piece_for(Layer::Cavern, false, false, false),
            Piece::Underground
        );
        assert_eq!(
            piece_for(Layer::Underworld, true, false, false),
            Piece::Underworld
        );
        assert_eq!(
            piece_for(Layer::Underworld, false, true, false),
            Piece::Danger
        );
        // The Eye's music over everything while it is about.
        assert_eq!(piece_for(Layer::Underworld, false, true, true), Piece::Boss);
        assert_eq!(piece_for(Layer::Surface, true, false, true), Piece::Boss);
        // Every piece is the index of its file, and each file is a different loop.
        for (i, p) in Piece::ALL.iter().enumerate() {
            assert_eq!(p.index(), i);
            assert_eq!(&p.file()[..4], b"RIFF");
        }
        assert_ne!(Piece::Day.file(), Piece::Night.file());
    }

    #[test]
    fn the_music_changes_once_the_new_place_holds() {
        let mut c = Chooser::default();
        assert_eq!(
            c.update(Piece::Day, 0.016),
            Some(Piece::Day),
            "starts at once"
        );
        assert_eq!(c.update(Piece::Day, 0.016), None);
        // Dipping below the surface for a moment and back changes nothing.
        for _ in 0..30 {
            assert_eq!(c.update(Piece::Underground, 0.016), None);
        }
        assert_eq!(c.update(Piece::Day, 0.016), None);
        assert_eq!(c.playing(), Some(Piece::Day));
        // Staying down changes the piece after HOLD_SECONDS.
        let mut t = 0.0;
        let changed = loop {
            t += 0.1;
            if let Some(p) = c.update(Piece::Underground, 0.1) {
                break p;
            }
            assert!(t < HOLD_SECONDS + 0.2, "no change after {t} s");
        };
        assert_eq!(changed, Piece::Underground);
        assert!(t >= HOLD_SECONDS - 0.01, "changed after {t} s");
        // Night falling on the surface is a change too.
        c.update(Piece::Day, 2.0);
        assert_eq!(c.update(Piece::Night, 2.0), Some(Piece::Night));
    }
}
