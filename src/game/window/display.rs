//! The window's size at start, fitted to the display it opens on: a settings file may ask
//! for up to 16384x16384 (a gigabyte of framebuffer and seconds a frame), and the window
//! opens no larger than the display can show. miniquad tells only the window's own size,
//! and only once it is open, so on Linux the X server is asked for its screen's size
//! before the window opens (by [`crate::launch::check_display`], which opens the display
//! once anyway); where that is unknown the window is held to [`MAX_UNKNOWN`].

/// The largest window opened where the display's size is unknown: 8K UHD (a 130 MB
/// framebuffer).
pub const MAX_UNKNOWN: (u32, u32) = (7680, 4320);

/// The window's size for `wanted` (the settings' size) on a display of `display` pixels
/// (`None`: unknown): each side at most the display's (or [`MAX_UNKNOWN`]'s).
pub fn fit(wanted: (u32, u32), display: Option<(u32, u32)>) -> (u32, u32) {
    let most = display.unwrap_or(MAX_UNKNOWN);
    (wanted.0.min(most.0), wanted.1.min(most.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_held_to_the_display() {
        assert_eq!(fit((16384, 16384), Some((1280, 720))), (1280, 720));
        assert_eq!(fit((1280, 720), Some((1920, 1080))), (1280, 720));
        assert_eq!(fit((4000, 600), Some((1920, 1080))), (1920, 600));
        assert_eq!(fit((16384, 16384), None), MAX_UNKNOWN);
        assert_eq!(fit((1280, 720), None), (1280, 720));
        assert_eq!(
            fit((640, 480), Some((320, 240))),
            (320, 240),
            "below the settings' least"
        );
    }
}
