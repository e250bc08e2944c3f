//! The sound thread's work: the mixer filling ten seconds of stereo frames, in the periods
//! the device takes, while two music pieces crossfade and effects play (a dig stroke every
//! 0.24 s, eight voices at once at most here), from the built-in sounds. Prints the
//! fastest and median milliseconds of CPU per second of sound.
//!
//! Run: `cargo bench --bench sound` (optionally `-- REPS`, default 7).

use std::sync::Arc;
use std::time::Instant;
use strata::game::audio::cue::Cue;
use strata::game::audio::device::PERIOD;
use strata::game::audio::mixer::{Command, Mixer, RATE, Volumes};
use strata::game::audio::music::Piece;
use strata::game::audio::wav;

fn load(file: &[u8]) -> Arc<[i16]> {
    wav::parse(file).expect("a built-in sound").into()
}

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(7);
    let music: Vec<_> = Piece::ALL.iter().map(|p| load(p.file())).collect();
    let dig: Vec<_> = Cue::DigHard.files().iter().map(|f| load(f)).collect();
    let seconds = 10;
    let mut times = Vec::new();
    for _ in 0..reps {
        let mut m = Mixer::new(music.clone());
        m.apply(Command::Volumes(Volumes::default()));
        m.apply(Command::Music(Some(Piece::Day.index())));
        let mut out = vec![0i16; 2 * PERIOD];
        let periods = seconds * RATE as usize / PERIOD;
        let stroke = (0.24 * RATE as f64 / PERIOD as f64) as usize;
        let t = Instant::now();
        for p in 0..periods {
            if p == periods / 4 {
                m.apply(Command::Music(Some(Piece::Underground.index())));
            }
            if p % stroke == 0 {
                m.apply(Command::Play {
                    samples: dig[p % dig.len()].clone(),
                    rate: 1.03,
                    gains: (0.7, 0.5),
                });
            }
            m.mix(&mut out);
        }
        times.push(t.elapsed().as_secs_f64() * 1e3 / seconds as f64);
        std::hint::black_box(&out);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "mixer: {:.3} ms fastest, {:.3} ms median of CPU per second of sound ({reps} runs of {seconds} s)",
        times[0],
        times[times.len() / 2]
    );
}
