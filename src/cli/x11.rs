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

/// libX11's two calls used here.
#[derive(Clone, Copy)]
struct Xlib {
    open: OpenDisplay,
    close: CloseDisplay,
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
            let open = libc::dlsym(lib, c"XOpenDisplay".as_ptr());
            let close = libc::dlsym(lib, c"XCloseDisplay".as_ptr());
            if open.is_null() || close.is_null() {
                return Err("libX11.so.6 has no XOpenDisplay".into());
            }
            Ok(Xlib {
                open: std::mem::transmute::<*mut c_void, OpenDisplay>(open),
                close: std::mem::transmute::<*mut c_void, CloseDisplay>(close),
            })
        }
    }

    /// Opens and closes `display` once, on a thread of its own: `None` when X has not
    /// answered within [`ANSWER_WITHIN`] (the thread is left waiting; the game exits).
    fn opens_once(self, display: &CString) -> Option<bool> {
        let (tx, rx) = std::sync::mpsc::channel();
        let name = display.clone();
        std::thread::spawn(move || {
            // SAFETY: a NUL-terminated display name; the Display is closed on this thread,
            // the one that opened it, and used for nothing else.
            let opened = unsafe {
                let d = (self.open)(name.as_ptr());
                if !d.is_null() {
                    (self.close)(d);
                }
                !d.is_null()
            };
            let _ = tx.send(opened);
        });
        rx.recv_timeout(ANSWER_WITHIN).ok()
    }
}

/// Whether the X server of `display` takes a connection, asked up to [`TRIES`] times:
/// the reason as one line when it never does.
pub fn check_opens(display: &str) -> Result<(), String> {
    let name = CString::new(display)
        .map_err(|_| format!("DISPLAY {display:?} holds a NUL byte: no X display is named so"))?;
    let xlib = Xlib::load()?;
    for try_ in 1..=TRIES {
        match xlib.opens_once(&name) {
            Some(true) => return Ok(()),
            Some(false) if try_ < TRIES => std::thread::sleep(PAUSE),
            Some(false) => {}
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
