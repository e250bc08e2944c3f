//! The sound device: a thread that opens the system's sound library when the game starts
//! and feeds it the mixer's frames. On Linux it loads ALSA's `libasound.so.2` with
//! `dlopen` at run time, so no audio library is a load-time dependency of the program:
//! `strata gen` and friends start where there is none, and the game runs silently (one
//! log line) where the library, the device or a write fails. Elsewhere the game is silent.

use super::mixer::{Command, Mixer};
use std::sync::mpsc::Receiver;

/// Frames mixed and written at a time (about 12 ms).
pub const PERIOD: usize = 256;
/// The latency asked of the device, microseconds.
pub const LATENCY_US: u32 = 60_000;

/// Starts the sound thread: it plays what `rx` sends through `mixer` until the game ends
/// or the device fails.
pub fn start(mixer: Mixer, rx: Receiver<Command>) {
    let spawned = std::thread::Builder::new()
        .name("sound".into())
        .spawn(move || {
            // No library or no device is how some machines are (a server, a container):
            // said at the info level, as normal play is quiet on standard error. A device
            // that fails mid-game is a failure, and says so at any level (in `run`).
            if let Err(e) = run(mixer, &rx) {
                log::info!("sound off: {e}");
            }
        });
    if let Err(e) = spawned {
        log::info!("sound off: no thread for it ({e})");
    }
}

#[cfg(target_os = "linux")]
fn run(mut mixer: Mixer, rx: &Receiver<Command>) -> Result<(), String> {
    use super::mixer::RATE;
    let pcm = alsa::Pcm::open()?;
    log::info!("sound on: ALSA default device, {RATE} Hz stereo");
    let mut out = vec![0i16; 2 * PERIOD];
    // A device that takes frames faster than it plays them (a file, the null device)
    // is paced by the clock, a little ahead of real time.
    let start = std::time::Instant::now();
    let mut written = 0u64;
    loop {
        loop {
            match rx.try_recv() {
                Ok(c) => mixer.apply(c),
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
                // The game is gone.
                Err(std::sync::mpsc::TryRecvError::Disconnected) => return Ok(()),
            }
        }
        mixer.mix(&mut out);
        if let Err(e) = pcm.write(&out) {
            log::warn!("sound off: {e}; the game goes on silently");
            return Ok(());
        }
        written += PERIOD as u64;
        let ahead = std::time::Duration::from_secs_f64(written as f64 / RATE as f64)
            .saturating_sub(start.elapsed());
        let lead = std::time::Duration::from_micros(LATENCY_US as u64);
        if ahead > lead {
            std::thread::sleep(ahead - lead);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn run(_mixer: Mixer, _rx: &Receiver<Command>) -> Result<(), String> {
    Err("no sound device backend on this system yet".into())
}

#[cfg(target_os = "linux")]
mod alsa {
    use std::ffi::{CStr, c_char, c_int, c_long, c_uint, c_ulong, c_void};

    const STREAM_PLAYBACK: c_int = 0;
    const FORMAT_S16_LE: c_int = 2;
    const ACCESS_RW_INTERLEAVED: c_int = 3;

    type Open = unsafe extern "C" fn(*mut *mut c_void, *const c_char, c_int, c_int) -> c_int;
    type SetParams =
        unsafe extern "C" fn(*mut c_void, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
    type Writei = unsafe extern "C" fn(*mut c_void, *const c_void, c_ulong) -> c_long;
    type Recover = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> c_int;
    type Close = unsafe extern "C" fn(*mut c_void) -> c_int;
    type StrError = unsafe extern "C" fn(c_int) -> *const c_char;
    /// ALSA's error handler is variadic in C; this one takes none of its arguments (on the
    /// C calling conventions a callee may ignore what it is passed).
    type ErrorHandler =
        unsafe extern "C" fn(*const c_char, c_int, *const c_char, c_int, *const c_char);
    type SetErrorHandler = unsafe extern "C" fn(Option<ErrorHandler>) -> c_int;

    /// Keeps ALSA's own messages (a dozen lines for a machine without a card) off the
    /// terminal: the game logs one line of its own.
    unsafe extern "C" fn quiet(
        _: *const c_char,
        _: c_int,
        _: *const c_char,
        _: c_int,
        _: *const c_char,
    ) {
    }

    /// An open playback device of the default PCM.
    pub struct Pcm {
        pcm: *mut c_void,
        writei: Writei,
        recover: Recover,
        close: Close,
        strerror: StrError,
    }

    fn dlerror() -> String {
        // SAFETY: dlerror returns null or a C string valid until the next dl call.
        let e = unsafe { libc::dlerror() };
        if e.is_null() {
            "unknown error".into()
        } else {
            unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
        }
    }

    /// The address of `name` in `lib`, as a function of type `T`.
    ///
    /// SAFETY: `T` must be the C type of the symbol.
    unsafe fn symbol<T: Copy>(lib: *mut c_void, name: &CStr) -> Result<T, String> {
        let p = unsafe { libc::dlsym(lib, name.as_ptr()) };
        if p.is_null() {
            return Err(format!("libasound has no {name:?}: {}", dlerror()));
        }
        // SAFETY: a function pointer is a pointer's size; the caller names its type.
        Ok(unsafe { std::mem::transmute_copy::<*mut c_void, T>(&p) })
    }

    impl Pcm {
        /// Loads libasound and opens the default device for 16-bit stereo playback at
        /// the mixer's rate (ALSA resamples to what the device takes).
        pub fn open() -> Result<Pcm, String> {
            // SAFETY: dlopen with a constant C string; the handle is kept for the
            // thread's life (the library is never unloaded).
            let lib = unsafe { libc::dlopen(c"libasound.so.2".as_ptr(), libc::RTLD_NOW) };
            if lib.is_null() {
                return Err(format!("no ALSA library ({})", dlerror()));
            }
            // SAFETY: each type is the C signature of the ALSA function named.
            let (open, set_params, writei, recover, close, strerror) = unsafe {
                if let Ok(set) = symbol::<SetErrorHandler>(lib, c"snd_lib_error_set_handler") {
                    set(Some(quiet));
                }
                (
                    symbol::<Open>(lib, c"snd_pcm_open")?,
                    symbol::<SetParams>(lib, c"snd_pcm_set_params")?,
                    symbol::<Writei>(lib, c"snd_pcm_writei")?,
                    symbol::<Recover>(lib, c"snd_pcm_recover")?,
                    symbol::<Close>(lib, c"snd_pcm_close")?,
                    symbol::<StrError>(lib, c"snd_strerror")?,
                )
            };
            let mut pcm = std::ptr::null_mut();
            // SAFETY: ALSA's documented calls on a handle it gives back.
            let e = unsafe { open(&mut pcm, c"default".as_ptr(), STREAM_PLAYBACK, 0) };
            let mut p = Pcm {
                pcm,
                writei,
                recover,
                close,
                strerror,
            };
            if e < 0 {
                p.pcm = std::ptr::null_mut();
                return Err(format!("no sound device ({})", p.error(e)));
            }
            let e = unsafe {
                set_params(
                    pcm,
                    FORMAT_S16_LE,
                    ACCESS_RW_INTERLEAVED,
                    2,
                    super::super::mixer::RATE,
                    1,
                    super::LATENCY_US,
                )
            };
            if e < 0 {
                return Err(format!(
                    "the sound device refused 16-bit stereo ({})",
                    p.error(e)
                ));
            }
            Ok(p)
        }

        fn error(&self, e: c_int) -> String {
            // SAFETY: snd_strerror returns a static C string.
            let s = unsafe { (self.strerror)(e) };
            if s.is_null() {
                format!("error {e}")
            } else {
                unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
            }
        }

        /// Writes interleaved stereo frames, recovering from an underrun; an error ALSA
        /// cannot recover from ends the sound.
        pub fn write(&self, frames: &[i16]) -> Result<(), String> {
            let mut done = 0;
            while done < frames.len() / 2 {
                let rest = &frames[2 * done..];
                // SAFETY: `rest` holds rest.len() / 2 stereo frames.
                let n = unsafe {
                    (self.writei)(self.pcm, rest.as_ptr().cast(), (rest.len() / 2) as c_ulong)
                };
                if n >= 0 {
                    done += n as usize;
                    continue;
                }
                let e = n as c_int;
                // SAFETY: as above.
                if unsafe { (self.recover)(self.pcm, e, 1) } < 0 {
                    return Err(format!("the sound device failed ({})", self.error(e)));
                }
            }
            Ok(())
        }
    }

    impl Drop for Pcm {
        fn drop(&mut self) {
            if !self.pcm.is_null() {
                // SAFETY: the handle came from snd_pcm_open and is closed once.
                unsafe { (self.close)(self.pcm) };
            }
        }
    }
}
