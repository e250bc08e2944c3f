//! The window's size at start, fitted to the display it opens on: a settings file may ask
//! for up to 16384x16384 (a gigabyte of framebuffer and seconds a frame), and the window
//! opens no larger than the display can show. miniquad tells only the window's own size,
//! and only once it is open, so on Linux the X server is asked for its screen's size
//! before the window opens ([`display_size`]); where that is unknown the window is held
//! to [`MAX_UNKNOWN`].

/// The largest window opened where the display's size is unknown: 8K UHD (a 130 MB
/// framebuffer).
pub const MAX_UNKNOWN: (u32, u32) = (7680, 4320);

/// The window's size for `wanted` (the settings' size) on a display of `display` pixels
/// (`None`: unknown): each side at most the display's (or [`MAX_UNKNOWN`]'s).
pub fn fit(wanted: (u32, u32), display: Option<(u32, u32)>) -> (u32, u32) {
    let most = display.unwrap_or(MAX_UNKNOWN);
    (wanted.0.min(most.0), wanted.1.min(most.1))
}

/// The size in pixels of the X screen the game's window opens on (`DISPLAY`'s default
/// screen), asked of the X server through libX11 (loaded as the window library loads
/// it); `None` when libX11 is missing or the server does not answer three times, 50 ms
/// apart (a busy server now and then refuses a connection).
#[cfg(target_os = "linux")]
pub fn display_size() -> Option<(u32, u32)> {
    (0..3).find_map(|try_| {
        if try_ > 0 {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        ask_x_server()
    })
}

/// One question to the X server for its default screen's size.
#[cfg(target_os = "linux")]
fn ask_x_server() -> Option<(u32, u32)> {
    use std::ffi::{c_char, c_int, c_void};
    type Open = unsafe extern "C" fn(*const c_char) -> *mut c_void;
    type Screen = unsafe extern "C" fn(*mut c_void) -> c_int;
    type Side = unsafe extern "C" fn(*mut c_void, c_int) -> c_int;
    type Close = unsafe extern "C" fn(*mut c_void) -> c_int;
    // SAFETY: the symbols are libX11's, called with their C signatures; the display is
    // closed before the library handle is released, and both are checked for null.
    unsafe {
        let lib = libc::dlopen(c"libX11.so.6".as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL);
        if lib.is_null() {
            return None;
        }
        let sym = |name: &std::ffi::CStr| libc::dlsym(lib, name.as_ptr());
        let syms = [
            sym(c"XOpenDisplay"),
            sym(c"XDefaultScreen"),
            sym(c"XDisplayWidth"),
            sym(c"XDisplayHeight"),
            sym(c"XCloseDisplay"),
        ];
        let mut size = None;
        if syms.iter().all(|s| !s.is_null()) {
            let open = std::mem::transmute::<*mut c_void, Open>(syms[0]);
            let screen = std::mem::transmute::<*mut c_void, Screen>(syms[1]);
            let width = std::mem::transmute::<*mut c_void, Side>(syms[2]);
            let height = std::mem::transmute::<*mut c_void, Side>(syms[3]);
            let close = std::mem::transmute::<*mut c_void, Close>(syms[4]);
            let d = open(std::ptr::null());
            if !d.is_null() {
                let s = screen(d);
                let (w, h) = (width(d, s), height(d, s));
                close(d);
                if w > 0 && h > 0 {
                    size = Some((w as u32, h as u32));
                }
            }
        }
        libc::dlclose(lib);
        size
    }
}

/// Elsewhere the display's size is not asked before the window opens.
#[cfg(not(target_os = "linux"))]
pub fn display_size() -> Option<(u32, u32)> {
    None
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
