//! Whether the X display opens, asked of X itself before the game window is made: the
//! window library panics when `XOpenDisplay` fails (a remote display nothing listens on,
//! an X server that drops the handshake, as a loaded Xvfb now and then does). libX11 is
//! loaded at run time, as the window library loads it, so a machine without it still runs
//! `strata gen`.

use std::ffi::{CString, c_char, c_int, c_void};
use std::time::Duration;

/// Times the display is asked before the game gives up on it, and the pause between.
pub const TRIES: u32 = 5;
const PAUSE: Duration = Duration::from_millis(200);
/// How long one try may wait for the server's answer to the handshake.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(5);

type OpenDisplay = unsafe extern "C" fn(*const c_char) -> *mut c_void;
type CloseDisplay = unsafe extern "C" fn(*mut c_void) -> c_int;
type DefaultScreen = unsafe extern "C" fn(*mut c_void) -> c_int;
type ScreenSide = unsafe extern "C" fn(*mut c_void, c_int) -> c_int;

/// libX11's calls used here: open and close a display, and its default screen's size.
#[derive(Clone, Copy)]
struct Xlib {
    open: OpenDisplay,
    close: CloseDisplay,
    screen: DefaultScreen,
    width: ScreenSide,
    height: ScreenSide,
}

impl Xlib {
    fn load() -> Result<Xlib, String> {
        // SAFETY: dlopen and dlsym with NUL-terminated names; the library stays loaded
        // for the rest of the run (the window library loads it again), so the pointers
        // stay valid, and the two symbols have these C signatures in every libX11.
        unsafe {
            let lib = libc::dlopen(c"libX11.so.6".as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if lib.is_null() {
                return Err(
                    "libX11.so.6 could not be loaded: the game window is an X11 one (Debian: \
                     apt-get install libx11-6); `strata gen` works without it"
                        .into(),
                );
            }
            let sym = |name: &std::ffi::CStr| {
                let f = libc::dlsym(lib, name.as_ptr());
                match f.is_null() {
                    true => Err(format!("libX11.so.6 has no {}", name.to_string_lossy())),
                    false => Ok(f),
                }
            };
            Ok(Xlib {
                open: std::mem::transmute::<*mut c_void, OpenDisplay>(sym(c"XOpenDisplay")?),
                close: std::mem::transmute::<*mut c_void, CloseDisplay>(sym(c"XCloseDisplay")?),
                screen: std::mem::transmute::<*mut c_void, DefaultScreen>(sym(c"XDefaultScreen")?),
                width: std::mem::transmute::<*mut c_void, ScreenSide>(sym(c"XDisplayWidth")?),
                height: std::mem::transmute::<*mut c_void, ScreenSide>(sym(c"XDisplayHeight")?),
            })
        }
    }

    /// Opens and closes `display` once, on a thread of its own: `None` when X has not
    /// answered within [`ANSWER_WITHIN`] (the thread is left waiting; the game exits),
    /// else whether it opened, with its default screen's size in pixels when X gave one.
    fn opens_once(self, display: &CString) -> Option<Option<Option<(u32, u32)>>> {
        let (tx, rx) = std::sync::mpsc::channel();
        let name = display.clone();
        std::thread::spawn(move || {
            // SAFETY: a NUL-terminated display name; the Display is asked its screen's
            // size and closed on this thread, the one that opened it, and used for nothing
            // else.
            let opened = unsafe {
                let d = (self.open)(name.as_ptr());
                (!d.is_null()).then(|| {
                    let s = (self.screen)(d);
                    let (w, h) = ((self.width)(d, s), (self.height)(d, s));
                    (self.close)(d);
                    (w > 0 && h > 0).then_some((w as u32, h as u32))
                })
            };
            let _ = tx.send(opened);
        });
        rx.recv_timeout(ANSWER_WITHIN).ok()
    }
}

/// Whether the X server of `display` takes a connection, asked up to [`TRIES`] times:
/// its default screen's size in pixels (`None` where X gave none), or the reason as one
/// line when it never does.
pub fn check_opens(display: &str) -> Result<Option<(u32, u32)>, String> {
    let name = CString::new(display)
        .map_err(|_| format!("DISPLAY {display:?} holds a NUL byte: no X display is named so"))?;
    let xlib = Xlib::load()?;
    for try_ in 1..=TRIES {
        match xlib.opens_once(&name) {
            Some(Some(size)) => return Ok(size),
            Some(None) if try_ < TRIES => std::thread::sleep(PAUSE),
            Some(None) => {}
            None => {
                return Err(format!(
                    "the X server on display {display} took the connection but did not \
                     answer within {} s; `strata gen` works without a display",
                    ANSWER_WITHIN.as_secs()
                ));
            }
        }
    }
    Err(format!(
        "X did not open display {display} ({TRIES} tries): no X server answers there, or it \
         refused the connection; `strata gen` works without a display"
    ))
}
