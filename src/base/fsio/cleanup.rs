//! Temporary files removed when the process is interrupted (SIGINT, SIGTERM, SIGHUP) while
//! they are being written, so Ctrl+C during `--save` leaves the old file and nothing else.
//!
//! The handler may only make async-signal-safe calls: it reads the paths from fixed static
//! slots (no allocation, no lock), unlinks them, restores the default action and raises the
//! signal again, so the process still ends as interrupted. It is installed on the first
//! temporary file, and only for signals whose action is still the default (a host that
//! handles them itself keeps its handler). Elsewhere than Unix this does nothing.

use std::path::Path;

/// A registered temporary file: dropping the guard takes it off the list (by then the file
/// is renamed or removed).
pub struct Guard {
    #[cfg(unix)]
    slot: Option<usize>,
}

/// Registers `path` for removal if a signal ends the process before the guard is dropped.
pub fn remove_on_signal(path: &Path) -> Guard {
    #[cfg(unix)]
    {
        Guard {
            slot: unix::arm(path),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Guard {}
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(slot) = self.slot {
            unix::disarm(slot);
        }
    }
}

#[cfg(unix)]
mod unix {
    use std::cell::UnsafeCell;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::Once;
    use std::sync::atomic::{AtomicU8, Ordering};

    /// Files written at the same time that can be cleaned up (more are written unguarded).
    const SLOTS: usize = 8;
    /// Longest path kept, with its terminating zero.
    const PATH_BYTES: usize = 4096;

    const FREE: u8 = 0;
    const FILLING: u8 = 1;
    const ARMED: u8 = 2;

    struct Slot {
        state: AtomicU8,
        path: UnsafeCell<[u8; PATH_BYTES]>,
    }

    // SAFETY: `path` is written only by the thread that moved `state` from FREE to FILLING,
    // and read (by the handler) only while `state` is ARMED.
    unsafe impl Sync for Slot {}

    static SLOTS_: [Slot; SLOTS] = [const {
        Slot {
            state: AtomicU8::new(FREE),
            path: UnsafeCell::new([0; PATH_BYTES]),
        }
    }; SLOTS];

    static INSTALL: Once = Once::new();

    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    extern "C" fn on_signal(sig: libc::c_int) {
        for slot in &SLOTS_ {
            if slot.state.load(Ordering::Acquire) == ARMED {
                // SAFETY: an armed slot holds a zero-terminated path; unlink, signal and
                // raise are async-signal-safe.
                unsafe {
                    libc::unlink(slot.path.get().cast::<libc::c_char>());
                }
            }
        }
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    fn install() {
        for sig in SIGNALS {
            // SAFETY: plain sigaction calls with zeroed, then filled, structures.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction != libc::SIG_DFL
                {
                    continue;
                }
                let mut new: libc::sigaction = std::mem::zeroed();
                new.sa_sigaction = on_signal as *const () as libc::sighandler_t;
                libc::sigemptyset(&mut new.sa_mask);
                new.sa_flags = libc::SA_RESTART;
                libc::sigaction(sig, &new, std::ptr::null_mut());
            }
        }
    }

    pub(super) fn arm(path: &Path) -> Option<usize> {
        INSTALL.call_once(install);
        let abs = std::path::absolute(path).ok()?;
        let bytes = abs.as_os_str().as_bytes();
        if bytes.len() >= PATH_BYTES || bytes.contains(&0) {
            return None;
        }
        for (i, slot) in SLOTS_.iter().enumerate() {
            if slot
                .state
                .compare_exchange(FREE, FILLING, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                // SAFETY: this thread owns the slot while it is FILLING.
                let buf = unsafe { &mut *slot.path.get() };
                buf[..bytes.len()].copy_from_slice(bytes);
                buf[bytes.len()] = 0;
                slot.state.store(ARMED, Ordering::Release);
                return Some(i);
            }
        }
        None
    }

    pub(super) fn disarm(i: usize) {
        SLOTS_[i].state.store(FREE, Ordering::Release);
    }
}
