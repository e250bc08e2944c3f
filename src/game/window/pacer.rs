//! Frame pacing: at most `max_fps` frames a second. Drivers that honour the vsync hint
//! pace the game themselves and the cap never engages; without vsync (a software
//! renderer, some drivers) the game would otherwise draw as fast as it can and take the
//! cores world generation needs.
//!
//! While a world is being generated the cap is halved: the screen shows only the old
//! world and a progress bar for those tenths of a second, and the generator gets the
//! time. With a software renderer, drawing a frame costs about as much CPU as a tenth of
//! the generation.

use std::time::{Duration, Instant};

pub struct Pacer {
    /// Shortest time from one frame to the next; `None` for no cap.
    interval: Option<Duration>,
    /// When the last frame was let go.
    last: Option<Instant>,
}

impl Pacer {
    /// A pacer for `max_fps` frames a second (0: no cap).
    pub fn new(max_fps: u32) -> Pacer {
        Pacer {
            interval: (max_fps > 0).then(|| Duration::from_secs(1) / max_fps),
            last: None,
        }
    }

    /// How long to wait at `now`, the end of a frame's work, before letting the frame go;
    /// `busy` while a world is being generated. Frames are let go one interval apart (two
    /// when busy); a frame that ran late goes at once and the schedule restarts from it, so
    /// a slow frame is never followed by a burst.
    pub fn wait(&mut self, now: Instant, busy: bool) -> Duration {
        let (Some(interval), Some(last)) = (self.interval, self.last) else {
            self.last = Some(now);
            return Duration::ZERO;
        };
        let due = last + if busy { 2 * interval } else { interval };
        self.last = Some(due.max(now));
        due.saturating_duration_since(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_let_go_one_interval_apart() {
        let mut p = Pacer::new(50); // 20 ms
        let t = Instant::now();
        assert_eq!(
            p.wait(t, false),
            Duration::ZERO,
            "the first frame goes at once"
        );
        // 5 ms of work: wait 15 ms.
        let ms = Duration::from_millis;
        assert_eq!(p.wait(t + ms(5), false), ms(15));
        // The next frame's work ends 3 ms after that release: 17 ms more.
        assert_eq!(p.wait(t + ms(23), false), ms(17));
    }

    #[test]
    fn a_late_frame_goes_at_once_and_restarts_the_schedule() {
        let mut p = Pacer::new(50);
        let t = Instant::now();
        let ms = Duration::from_millis;
        p.wait(t, false);
        assert_eq!(p.wait(t + ms(70), false), Duration::ZERO, "late: no wait");
        // No burst: the next frame is due 20 ms after the late one, not at once.
        assert_eq!(p.wait(t + ms(71), false), ms(19));
    }

    #[test]
    fn busy_frames_come_at_half_the_rate() {
        let mut p = Pacer::new(50);
        let t = Instant::now();
        let ms = Duration::from_millis;
        p.wait(t, true);
        assert_eq!(p.wait(t + ms(5), true), ms(35));
        assert_eq!(p.wait(t + ms(45), false), ms(15), "back to the full rate");
    }

    #[test]
    fn no_cap_never_waits() {
        let mut p = Pacer::new(0);
        let t = Instant::now();
        for i in 0..5 {
            assert_eq!(
                p.wait(t + Duration::from_micros(i), i % 2 == 0),
                Duration::ZERO
            );
        }
    }
}
