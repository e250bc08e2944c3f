//! SIGTERM (and SIGINT) to a window: it closes as if its close button were pressed, so a
//! world's edits are saved and a joined server hears the player leave (the connection's
//! goodbye) rather than waiting out a timeout. A second signal ends the window at once.

use std::sync::atomic::{AtomicBool, Ordering};

static ASKED: AtomicBool = AtomicBool::new(false);
static ONCE: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_signal(_: libc::c_int) {
    if ONCE.swap(true, Ordering::SeqCst) {
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(143) };
    }
    ASKED.store(true, Ordering::SeqCst);
}

/// Catches SIGTERM and SIGINT (call once, before the window's loop).
pub fn catch() {
    #[cfg(unix)]
    // SAFETY: the handler only touches atomics and calls _exit, both async-signal-safe.
    unsafe {
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
    }
}

/// Was the window asked to close by a signal since the last call?
pub fn asked() -> bool {
    ASKED.swap(false, Ordering::SeqCst)
}
