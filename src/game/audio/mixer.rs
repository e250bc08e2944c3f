//! The mixer: effects (each a voice with its rate, gain and pan) and the music's pieces
//! (each a looping track whose level fades toward its target) summed into stereo 16-bit
//! frames. Pure and engine-free: the sound thread feeds it [`Command`]s and asks it for
//! frames; the gain, pan, distance and crossfade maths is tested here.

use std::f32::consts::FRAC_PI_2;
use std::sync::Arc;

/// Frames a second of every sound file and of the output.
pub const RATE: u32 = 22050;
/// Seconds a crossfade between two pieces takes.
pub const FADE_SECONDS: f32 = 2.5;
/// Seconds the master gain takes to follow a change (mute, pause): no click.
pub const RAMP_SECONDS: f32 = 0.05;
/// Effects playing at once at most; a new one past this replaces the oldest.
pub const MAX_VOICES: usize = 24;
/// Tiles within which a sound from the world plays at full volume.
pub const NEAR: f32 = 6.0;
/// Tiles beyond which a sound from the world is not heard.
pub const HEARING: f32 = 48.0;
/// Tiles to the side at which a sound is panned fully to that side's share of [`PAN_MAX`].
pub const PAN_WIDTH: f32 = 24.0;
/// The furthest a sound is panned (1: one ear only).
pub const PAN_MAX: f32 = 0.8;

/// Mono 16-bit samples at [`RATE`].
pub type Samples = Arc<[i16]>;

/// The volumes the player set, and whether the game is quiet now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Volumes {
    pub master: f32,
    pub music: f32,
    pub effects: f32,
    /// Muted, or paused / unfocused with the setting on.
    pub silent: bool,
}

impl Default for Volumes {
    fn default() -> Volumes {
        Volumes {
            master: 1.0,
            music: 0.6,
            effects: 0.8,
            silent: false,
        }
    }
}

/// What the game tells the sound thread.
pub enum Command {
    /// Play `samples` at `rate` (1: as made) with these left and right gains.
    Play {
        samples: Samples,
        rate: f32,
        gains: (f32, f32),
    },
    /// Fade to the music piece with this index (`None`: no music).
    Music(Option<usize>),
    Volumes(Volumes),
}

struct Voice {
    samples: Samples,
    pos: f64,
    rate: f64,
    gains: (f32, f32),
}

struct Track {
    samples: Samples,
    pos: usize,
    /// 0..=1, moving toward `target` by 1/[`FADE_SECONDS`] a second.
    level: f32,
    target: f32,
}

/// Left and right gains for `pan` in -1 (left) ..= 1 (right): equal power, so a sound
/// moving across keeps its loudness (each side 1/√2 in the middle).
pub fn pan_gains(pan: f32) -> (f32, f32) {
    let a = (pan.clamp(-1.0, 1.0) + 1.0) * 0.5 * FRAC_PI_2;
    (a.cos(), a.sin())
}

/// Loudness of a sound `d` tiles away: full within [`NEAR`], silent past [`HEARING`],
/// falling off as the square of the share of the way between.
pub fn distance_gain(d: f32) -> f32 {
    let t = ((HEARING - d) / (HEARING - NEAR)).clamp(0.0, 1.0);
    t * t
}

/// Gain and pan of a sound at `at` heard from `listener` (tiles, y down).
pub fn placed(listener: (f32, f32), at: (f32, f32)) -> (f32, f32) {
    let (dx, dy) = (at.0 - listener.0, at.1 - listener.1);
    let d = (dx * dx + dy * dy).sqrt();
    (
        distance_gain(d),
        (dx / PAN_WIDTH).clamp(-1.0, 1.0) * PAN_MAX,
    )
}

/// The gain of a track at fade `level`: a quarter sine, so two tracks crossfading (levels
/// summing to 1) keep the sum of their powers at 1, with no dip between pieces.
pub fn fade_gain(level: f32) -> f32 {
    (level.clamp(0.0, 1.0) * FRAC_PI_2).sin()
}

/// Moves `level` toward `target` by at most `step`.
fn toward(level: f32, target: f32, step: f32) -> f32 {
    if level < target {
        (level + step).min(target)
    } else {
        (level - step).max(target)
    }
}

pub struct Mixer {
    voices: Vec<Voice>,
    tracks: Vec<Track>,
    volumes: Volumes,
    /// The master gain now (ramps toward the volumes' one).
    gain: f32,
}

impl Mixer {
    /// A mixer with these music pieces (looped), silent until told to play.
    pub fn new(music: Vec<Samples>) -> Mixer {
        Mixer {
            voices: Vec::new(),
            tracks: music
                .into_iter()
                .map(|samples| Track {
                    samples,
                    pos: 0,
                    level: 0.0,
                    target: 0.0,
                })
                .collect(),
            volumes: Volumes::default(),
            gain: 0.0,
        }
    }

    pub fn apply(&mut self, c: Command) {
        match c {
            Command::Play {
                samples,
                rate,
                gains,
            } => {
                if samples.is_empty() || rate.is_nan() || rate <= 0.0 {
                    return;
                }
                if self.voices.len() >= MAX_VOICES {
                    self.voices.remove(0);
                }
                self.voices.push(Voice {
                    samples,
                    pos: 0.0,
                    rate: rate as f64,
                    gains,
                });
            }
            Command::Music(piece) => {
                for (i, t) in self.tracks.iter_mut().enumerate() {
                    t.target = if Some(i) == piece { 1.0 } else { 0.0 };
                }
            }
            Command::Volumes(v) => self.volumes = v,
        }
    }

    /// Effects playing now.
    pub fn voices(&self) -> usize {
        self.voices.len()
    }

    /// The fade level of each music piece.
    pub fn levels(&self) -> Vec<f32> {
        self.tracks.iter().map(|t| t.level).collect()
    }

    /// Fills `out` with interleaved stereo frames (left, right).
    pub fn mix(&mut self, out: &mut [i16]) {
        let v = self.volumes;
        let want = if v.silent { 0.0 } else { v.master };
        let ramp = 1.0 / (RAMP_SECONDS * RATE as f32);
        let fade = 1.0 / (FADE_SECONDS * RATE as f32);
        for frame in out.chunks_exact_mut(2) {
            self.gain = toward(self.gain, want, ramp);
            let (mut l, mut r) = (0.0f32, 0.0f32);
            for t in &mut self.tracks {
                t.level = toward(t.level, t.target, fade);
                if t.level <= 0.0 {
                    continue;
                }
                let s = t.samples[t.pos] as f32 * fade_gain(t.level) * v.music;
                t.pos = (t.pos + 1) % t.samples.len();
                l += s;
                r += s;
            }
            for voice in &mut self.voices {
                let i = voice.pos as usize;
                let frac = (voice.pos - i as f64) as f32;
                // A voice that ended within this buffer is dropped after it.
                let Some(&a) = voice.samples.get(i) else {
                    continue;
                };
                let a = a as f32;
                let b = voice.samples.get(i + 1).copied().unwrap_or(0) as f32;
                let s = (a + (b - a) * frac) * v.effects;
                l += s * voice.gains.0;
                r += s * voice.gains.1;
                voice.pos += voice.rate;
            }
            frame[0] = (l * self.gain).clamp(-32767.0, 32767.0) as i16;
            frame[1] = (r * self.gain).clamp(-32767.0, 32767.0) as i16;
        }
        self.voices.retain(|v| (v.pos as usize) < v.samples.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(len: usize, level: i16) -> Samples {
        (0..len)
            .map(|i| if i % 2 == 0 { level } else { -level })
            .collect::<Vec<_>>()
            .into()
    }

    fn loudness(out: &[i16], channel: usize) -> f32 {
        let n = out.len() / 2;
        (out.iter()
            .skip(channel)
            .step_by(2)
            .map(|&s| (s as f32).powi(2))
            .sum::<f32>()
            / n as f32)
            .sqrt()
    }

    #[test]
    fn pan_keeps_the_power_and_follows_the_side() {
        for p in [-1.0, -0.5, 0.0, 0.3, 1.0] {
            let (l, r) = pan_gains(p);
            assert!((l * l + r * r - 1.0).abs() < 1e-5, "power at {p}");
        }
        let (l, r) = pan_gains(0.0);
        assert!((l - r).abs() < 1e-6);
        let (l, r) = pan_gains(-1.0);
        assert!(l > 0.999 && r < 1e-3);
        // A sound to the right of the listener is louder on the right.
        let (_, pan) = placed((100.0, 50.0), (110.0, 50.0));
        let (l, r) = pan_gains(pan);
        assert!(r > l && pan > 0.0 && pan <= PAN_MAX);
        let (_, pan) = placed((100.0, 50.0), (40.0, 50.0));
        assert!(
            (pan + PAN_MAX).abs() < 1e-6,
            "far left is panned as far as it goes"
        );
    }

    #[test]
    fn nearer_is_louder_and_far_is_silent() {
        assert_eq!(distance_gain(0.0), 1.0);
        assert_eq!(distance_gain(NEAR), 1.0);
        assert_eq!(distance_gain(HEARING), 0.0);
        assert_eq!(distance_gain(HEARING * 3.0), 0.0);
        let mut last = 1.0;
        for d in 7..48 {
            let g = distance_gain(d as f32);
            assert!(g < last, "gain at {d} is not below the one nearer");
            last = g;
        }
        let (g, _) = placed((0.0, 0.0), (0.0, 20.0));
        assert!(g > 0.0 && g < 1.0, "below the listener: {g}");
    }

    #[test]
    fn a_crossfade_has_no_dip_and_ends_on_the_new_piece() {
        let mut m = Mixer::new(vec![tone(1000, 8000), tone(1000, 8000)]);
        m.apply(Command::Volumes(Volumes {
            master: 1.0,
            music: 1.0,
            effects: 1.0,
            silent: false,
        }));
        m.gain = 1.0;
        m.apply(Command::Music(Some(0)));
        let mut out = vec![0i16; 2 * 64];
        // Fade the first piece fully in.
        for _ in 0..(FADE_SECONDS * RATE as f32 / 64.0) as usize + 2 {
            m.mix(&mut out);
        }
        assert_eq!(m.levels(), vec![1.0, 0.0]);
        m.apply(Command::Music(Some(1)));
        let mut powers = Vec::new();
        for _ in 0..(FADE_SECONDS * RATE as f32 / 64.0) as usize + 2 {
            let lv = m.levels();
            powers.push(fade_gain(lv[0]).powi(2) + fade_gain(lv[1]).powi(2));
            m.mix(&mut out);
        }
        for p in &powers {
            assert!((p - 1.0).abs() < 0.01, "power {p} during the crossfade");
        }
        assert_eq!(m.levels(), vec![0.0, 1.0]);
        let rms = loudness(&out, 0);
        assert!(
            (rms - 8000.0).abs() < 10.0,
            "the new piece at full level: {rms}"
        );
    }

    #[test]
    fn effects_play_panned_then_end_and_silence_ramps_down() {
        let mut m = Mixer::new(vec![]);
        m.apply(Command::Volumes(Volumes {
            master: 1.0,
            music: 1.0,
            effects: 1.0,
            silent: false,
        }));
        let mut out = vec![0i16; 2 * 4096];
        m.mix(&mut out);
        assert!(out.iter().all(|&s| s == 0), "silent before any sound");
        let (l, r) = pan_gains(0.6);
        m.apply(Command::Play {
            samples: tone(3000, 10000),
            rate: 1.0,
            gains: (l, r),
        });
        m.mix(&mut out);
        assert!(loudness(&out, 1) > loudness(&out, 0) * 2.0, "panned right");
        assert_eq!(m.voices(), 0, "3000 samples end within 4096 frames");
        // Twice the rate ends in half the frames.
        m.apply(Command::Play {
            samples: tone(3000, 10000),
            rate: 2.0,
            gains: (1.0, 1.0),
        });
        let mut short = vec![0i16; 2 * 1600];
        m.mix(&mut short);
        assert_eq!(m.voices(), 0);
        // Muted: the gain ramps to nothing within the ramp, and stays there.
        m.apply(Command::Volumes(Volumes {
            silent: true,
            ..Volumes::default()
        }));
        m.apply(Command::Play {
            samples: tone(20000, 10000),
            rate: 1.0,
            gains: (1.0, 1.0),
        });
        m.mix(&mut out);
        let tail = &out[2 * (RAMP_SECONDS * RATE as f32) as usize + 2..];
        assert!(tail.iter().all(|&s| s == 0), "muted after the ramp");
    }

    #[test]
    fn too_many_voices_drop_the_oldest() {
        let mut m = Mixer::new(vec![]);
        for _ in 0..MAX_VOICES + 5 {
            m.apply(Command::Play {
                samples: tone(100, 1),
                rate: 1.0,
                gains: (1.0, 1.0),
            });
        }
        assert_eq!(m.voices(), MAX_VOICES);
    }
}
