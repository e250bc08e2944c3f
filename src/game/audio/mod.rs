//! Sound and music. The game's events become cues ([`cue::cue_for`], pure), each played
//! as a random variant with a small pitch spread, louder when near and panned by where it
//! happens ([`mixer::placed`]); the music follows the player's place and the time of day
//! ([`music::piece_for`]) and crossfades on a change. The sounds are built into the
//! program (`assets/make_sounds.py` makes them). A thread mixes and feeds the system's
//! sound library, loaded at run time ([`device`]): without a library or a device the game
//! is silent, with one log line.
//!
//! [`Audio::frame`] is the one call a frame makes: it reads what changed in the player's
//! body since the last frame ([`body_events`], pure) and what play heard (dig strokes,
//! breaks, swings, crafts, ...), and plays them.

pub mod cue;
pub mod device;
pub mod mixer;
pub mod music;
pub mod wav;

use super::settings::Settings;
use super::worlds::state::Loaded;
use cue::{Cue, Event, Picker};
use mixer::{Command, Samples, Volumes};
use music::{Chooser, Piece};
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};

/// Commands waiting for the sound thread at most; past this (a stuck device) new ones
/// are dropped, never queued without bound.
pub const QUEUE: usize = 256;
/// Seconds between two sounds of the pick while a dig goes on.
pub const DIG_STROKE: f64 = 0.24;
/// Seconds between the player's hurt sounds (lava and drowning hurt every frame).
pub const HURT_EVERY: f64 = 0.45;
/// Seconds between bubbles with the head under water, and once out of breath.
pub const BUBBLES_EVERY: (f64, f64) = (1.6, 0.6);

/// What the sound of a frame reads of the player's body.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Body {
    pub jumps: u32,
    pub on_ground: bool,
    /// Downward speed, tiles/s.
    pub fall: f32,
    pub in_liquid: bool,
    pub in_lava: bool,
    pub health: f32,
    /// A chest is open beside the inventory.
    pub chest: bool,
}

impl Body {
    pub fn of(l: &Loaded, chest: bool) -> Body {
        let p = &l.me().body;
        let senses = crate::sim::vitals::Senses::of(l.world(), p.pos, p.on_ground);
        Body {
            jumps: p.jumps,
            on_ground: p.on_ground,
            fall: p.vel.1,
            in_liquid: senses.in_liquid,
            in_lava: senses.in_lava,
            health: l.me().vitals.health,
            chest,
        }
    }
}

/// The player's own sounds between two frames' bodies: jumps, landings (by the speed
/// before the landing), splashes into water or lava, hurts, the chest opening and closing.
pub fn body_events(before: Body, after: Body) -> Vec<Event> {
    let mut out = Vec::new();
    if after.jumps > before.jumps {
        out.push(Event::Jumped);
    }
    if !before.in_liquid && after.in_liquid {
        out.push(Event::Splash {
            lava: after.in_lava,
        });
    } else if !before.on_ground && after.on_ground && !after.in_liquid {
        out.push(Event::Landed { speed: before.fall });
    }
    if after.health < before.health - 0.01 {
        out.push(Event::Hurt);
    }
    if before.chest != after.chest {
        out.push(Event::Chest { open: after.chest });
    }
    out
}

/// The volumes the mixer should use: the settings', silent when muted, or while the
/// world stands still (`halted`) and the player chose quiet then.
pub fn volumes(s: &Settings, halted: bool) -> Volumes {
    Volumes {
        master: s.master_volume as f32,
        music: s.music_volume as f32,
        effects: s.effects_volume as f32,
        silent: s.muted || (halted && s.quiet_when_paused),
    }
}

/// Whether enough creatures are about the player at `at` for the danger piece.
pub fn danger(creatures: &[crate::sim::creatures::Creature], at: (f32, f32)) -> bool {
    let r2 = music::DANGER_RANGE * music::DANGER_RANGE;
    let near = creatures
        .iter()
        .filter(|c| {
            let (dx, dy) = (c.body.pos.0 - at.0, c.body.pos.1 - at.1);
            dx * dx + dy * dy <= r2
        })
        .count();
    near >= music::DANGER_CROWD
}

/// The game's side of the sound: the cues' samples, the choices, the channel to the
/// sound thread.
pub struct Audio {
    tx: Option<SyncSender<Command>>,
    /// The variants of each cue, by its place in [`Cue::ALL`].
    effects: Vec<Vec<Samples>>,
    picker: Picker,
    chooser: Chooser,
    sent: Option<Volumes>,
    body: Option<Body>,
    next_dig: f64,
    next_hurt: f64,
    next_bubbles: f64,
}

/// The samples of a built-in file, or an empty sound (and a log line) for one that does
/// not read.
fn samples(name: &str, file: &[u8]) -> Samples {
    match wav::parse(file) {
        Ok(s) => s.into(),
        Err(e) => {
            log::warn!("sound {name} not played: {e}");
            Vec::new().into()
        }
    }
}

impl Audio {
    /// Reads the built-in sounds and starts the sound thread (which opens the device).
    pub fn start() -> Audio {
        let music = Piece::ALL
            .iter()
            .map(|p| samples(&format!("{p:?}"), p.file()))
            .collect();
        let (tx, rx) = sync_channel(QUEUE);
        device::start(mixer::Mixer::new(music), rx);
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        Audio {
            tx: Some(tx),
            ..Audio::silent(seed)
        }
    }

    /// The effects read, no sound thread: plays nothing (as when no device opened).
    pub fn silent(seed: u64) -> Audio {
        let effects = Cue::ALL
            .iter()
            .map(|c| c.files().iter().map(|f| samples(c.stem(), f)).collect())
            .collect();
        Audio {
            tx: None,
            effects,
            picker: Picker::new(seed),
            chooser: Chooser::default(),
            sent: None,
            body: None,
            next_dig: 0.0,
            next_hurt: 0.0,
            next_bubbles: 0.0,
        }
    }

    fn send(&mut self, c: Command) {
        let Some(tx) = &self.tx else { return };
        match tx.try_send(c) {
            Ok(()) | Err(TrySendError::Full(_)) => {}
            // The sound thread ended (no device, or it failed): stay silent.
            Err(TrySendError::Disconnected(_)) => self.tx = None,
        }
    }

    /// Plays the cue of `e` at `at` (tiles; `None`: the player's own or the UI's) heard
    /// from `listener`.
    pub fn play(&mut self, e: Event, at: Option<(f32, f32)>, listener: (f32, f32)) {
        let Some(cue) = cue::cue_for(e) else { return };
        let (gain, pan) = at.map_or((1.0, 0.0), |p| mixer::placed(listener, p));
        if gain <= 0.0 {
            return;
        }
        let i = Cue::ALL.iter().position(|&c| c == cue).unwrap_or(0);
        let (v, rate) = self.picker.pick(cue, self.effects[i].len());
        let Some(samples) = self.effects[i].get(v).cloned() else {
            return;
        };
        log::debug!("sound {} {v} at gain {gain:.2} pan {pan:.2}", cue.stem());
        let (l, r) = mixer::pan_gains(pan);
        let g = gain * cue.volume();
        self.send(Command::Play {
            samples,
            rate,
            gains: (l * g, r * g),
        });
    }

    /// Sends the volumes when they changed.
    pub fn set_volumes(&mut self, v: Volumes) {
        if self.sent != Some(v) {
            self.sent = Some(v);
            self.send(Command::Volumes(v));
        }
    }

    /// One frame of a world in play: the body's sounds, what play heard this frame
    /// (`heard`: events and where), the pick's strokes on `digging` (a tile and its
    /// place), bubbles under water, and the music for the player's place. `dt` seconds
    /// since the last frame, `now` the game clock.
    pub fn frame(
        &mut self,
        l: &Loaded,
        heard: Vec<(Event, Option<(f32, f32)>)>,
        digging: Option<(crate::world::Tile, (f32, f32))>,
        chest: bool,
        (dt, now): (f32, f64),
    ) {
        let ear = l.me().body.centre();
        let body = Body::of(l, chest);
        if let Some(before) = self.body {
            for e in body_events(before, body) {
                if e == Event::Hurt {
                    if now < self.next_hurt {
                        continue;
                    }
                    self.next_hurt = now + HURT_EVERY;
                }
                self.play(e, None, ear);
            }
        }
        self.body = Some(body);
        for (e, at) in heard {
            self.play(e, at, ear);
        }
        if let Some((tile, at)) = digging
            && now >= self.next_dig
        {
            self.next_dig = now + DIG_STROKE;
            self.play(Event::Dig(tile), Some(at), ear);
        }
        let me = &l.me().body;
        let senses = crate::sim::vitals::Senses::of(l.world(), me.pos, me.on_ground);
        if senses.head_in_water && now >= self.next_bubbles {
            let out_of_breath = l.me().vitals.breath <= 0.0;
            self.next_bubbles = now
                + if out_of_breath {
                    BUBBLES_EVERY.1
                } else {
                    BUBBLES_EVERY.0
                };
            self.play(Event::Drowning, None, ear);
        }
        // The place is the body's middle: a player standing on the ground is above it.
        let (x, y) = (
            (ear.0.max(0.0) as usize).min(l.world().surface.len().saturating_sub(1)),
            ear.1.max(0.0) as usize,
        );
        let surface = l.world().surface.get(x).copied().unwrap_or(0);
        let night = crate::sim::day::is_night(l.session.time_of_day, &l.session.content.rules);
        let want = music::piece_for(
            l.session.layers.at(y, surface),
            night,
            danger(&l.session.creatures.list, ear),
            l.session.boss_about(),
        );
        if let Some(p) = self.chooser.update(want, dt) {
            log::debug!("music: {p:?}");
            self.send(Command::Music(Some(p.index())));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_tells_jumps_landings_splashes_hurts_and_the_chest() {
        let stand = Body {
            on_ground: true,
            health: 100.0,
            ..Body::default()
        };
        assert!(body_events(stand, stand).is_empty(), "standing is silent");
        let up = Body {
            jumps: 1,
            on_ground: false,
            fall: -10.0,
            ..stand
        };
        assert_eq!(body_events(stand, up), vec![Event::Jumped]);
        let falling = Body { fall: 25.0, ..up };
        assert_eq!(
            body_events(falling, Body { fall: 0.0, ..stand }),
            vec![Event::Landed { speed: 25.0 }]
        );
        let in_lava = Body {
            in_liquid: true,
            in_lava: true,
            health: 90.0,
            ..falling
        };
        assert_eq!(
            body_events(falling, in_lava),
            vec![Event::Splash { lava: true }, Event::Hurt]
        );
        // Landing on a lake's floor is no thump: the splash was the sound.
        let floor = Body {
            on_ground: true,
            ..in_lava
        };
        assert_eq!(body_events(in_lava, floor), vec![]);
        let open = Body {
            chest: true,
            ..stand
        };
        assert_eq!(body_events(stand, open), vec![Event::Chest { open: true }]);
        assert_eq!(body_events(open, stand), vec![Event::Chest { open: false }]);
    }

    #[test]
    fn volumes_follow_the_settings_mute_and_the_pause() {
        let mut s = Settings::default();
        let v = volumes(&s, false);
        assert!(!v.silent && v.music == 0.6f32 && v.effects == 0.8f32);
        assert!(volumes(&s, true).silent, "quiet while paused, by default");
        s.quiet_when_paused = false;
        assert!(!volumes(&s, true).silent);
        s.muted = true;
        assert!(volumes(&s, false).silent);
    }

    #[test]
    fn a_silent_audio_plays_nothing_and_never_fails() {
        // No sound thread at all (as when the device never opened).
        let mut a = Audio::silent(3);
        a.play(Event::Jumped, None, (0.0, 0.0));
        a.set_volumes(Volumes::default());
        assert_eq!(a.sent, Some(Volumes::default()));
        // Every cue has samples to play.
        assert!(
            a.effects
                .iter()
                .all(|v| v.len() >= 2 && v.iter().all(|s| !s.is_empty()))
        );
    }
}
