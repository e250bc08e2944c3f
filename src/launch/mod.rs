//! The application layer, between the command line and the window: what a run of the game
//! is asked to do ([`PlayOptions`], with its defaults), finding a preset by its name,
//! whether a window can open on this display ([`check_display`]), and the errors a caller
//! tells apart ([`PlayError`]). `cli` parses the command line into these and the window
//! (`game`) starts from them, so the window imports nothing of the command line; where
//! the player's files are comes down as a value ([`crate::base::paths::Folders`]).

use crate::base::fsio;
use crate::content::preset::{self, Preset};
use std::path::{Path, PathBuf};

#[cfg(all(target_os = "linux", feature = "game"))]
pub mod x11;

/// The preset used when none is named.
pub const DEFAULT_PRESET: &str = "config/presets/default.ron";

/// Frames per second the game draws at most unless told otherwise: Terraria's rate. With
/// no cap and no vsync (a software renderer, or a driver that ignores the vsync hint) the
/// game would draw as fast as it can, taking the cores world generation needs.
pub const DEFAULT_MAX_FPS: u32 = 60;

/// What a run of the game is asked to do (`strata play`'s options, parsed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayOptions {
    /// A preset file, or the name of one of the player's presets or of a built-in one.
    pub preset: Option<PathBuf>,
    pub seed: Option<u64>,
    /// A save to start from (it holds its own preset and seed).
    pub load: Option<PathBuf>,
    /// Frames to draw before quitting (with `screenshot`: written first).
    pub frames: Option<u64>,
    pub screenshot: Option<PathBuf>,
    /// Frames per second at most; `None`: the settings' cap.
    pub max_fps: Option<u32>,
    /// The server to join (`HOST[:PORT]`) instead of playing alone, as `name`.
    pub join: Option<String>,
    pub name: Option<String>,
    /// The password that keeps the character on the server, and the server's own.
    pub password: String,
    pub server_password: String,
    /// The character to play as (`--character`), by name.
    pub character: Option<String>,
    /// Creatures kept in view round the player (`--creatures`, for measuring a crowded
    /// frame).
    pub creatures: Option<u32>,
}

impl PlayOptions {
    /// Does the game open on the start screen (a character, then a world)? It does
    /// unless the run names its world (`--seed`, `--load`), joins a server, or only draws
    /// frames (`--frames`, `--screenshot`): those go straight into the world, as the
    /// player of that world.
    pub fn shows_start(&self) -> bool {
        self.seed.is_none()
            && self.load.is_none()
            && self.join.is_none()
            && self.frames.is_none()
            && self.screenshot.is_none()
    }
}

/// Why the game did not start or stopped: each kind a caller may tell apart; the text of
/// each is the one line `strata` prints.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayError {
    /// The named preset did not load (or names none).
    Preset(String),
    /// The save to start from did not load.
    Save(String),
    /// A name the server would refuse.
    Name(String),
    /// No window can open here (no display, or X refused it).
    Display(String),
    /// Joining the server failed before the game started.
    Join(crate::net::client::JoinError),
    /// The game itself failed (a screenshot not written, the game thread gone).
    Game(String),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Preset(e)
            | PlayError::Save(e)
            | PlayError::Name(e)
            | PlayError::Display(e)
            | PlayError::Game(e) => f.write_str(e),
            PlayError::Join(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<PlayError> for String {
    fn from(e: PlayError) -> String {
        e.to_string()
    }
}

/// Loads the named preset: a file when one is at that path, else the player's preset of
/// that name (`NAME.ron` in `user_dir`, the player's presets folder), else the built-in
/// preset of that name. Without a name: `config/presets/default.ron` when the working
/// folder has one (the repository, where it is edited), else the built-in default.
pub fn load_preset(path: Option<&PathBuf>, user_dir: &Path) -> Result<Preset, String> {
    let path = match path {
        Some(p) => p.clone(),
        None if Path::new(DEFAULT_PRESET).is_file() => PathBuf::from(DEFAULT_PRESET),
        None => return builtin_preset("default"),
    };
    if path.exists() {
        return preset::load(&path).map_err(|e| e.to_string());
    }
    let name = path.to_string_lossy();
    if let Some(file) = user_preset(user_dir, &path) {
        // A folder, FIFO or device by that name is named as such, not read (a FIFO would
        // keep the game waiting) nor passed over.
        return match std::fs::metadata(&file) {
            Ok(m) if !m.is_file() => Err(format!(
                "{}: is a {}, not a preset file",
                file.display(),
                fsio::not_regular_kind(&m)
            )),
            _ => preset::load(&file).map_err(|e| e.to_string()),
        };
    }
    if path.components().count() == 1
        && let Some(found) = preset::builtin(&name)
    {
        return found.map_err(|e| e.to_string());
    }
    Err(format!(
        "{name}: no such preset file, no preset of that name in {}, and no built-in preset \
         of that name (built-in: {})",
        user_dir.display(),
        preset::builtin_names()
    ))
}

/// The player's preset called `name` (a bare name, `.ron` optional) in `dir`, if anything
/// is there by that name (links followed): a file, or a folder, FIFO or device that
/// [`load_preset`] refuses by name.
pub fn user_preset(dir: &Path, name: &Path) -> Option<PathBuf> {
    if name.components().count() != 1 {
        return None;
    }
    let file = dir.join(name).with_extension("ron");
    file.exists().then_some(file)
}

/// The built-in preset called `name`.
pub fn builtin_preset(name: &str) -> Result<Preset, String> {
    match preset::builtin(name) {
        Some(found) => found.map_err(|e| e.to_string()),
        None => Err(format!("no built-in preset {name}")),
    }
}

/// A fresh random seed.
pub fn random_seed() -> u64 {
    use rand::Rng;
    rand::rng().next_u64()
}

/// The characters' folder of a save: beside it, `<save>.characters`.
pub fn characters_dir(save: &Path) -> PathBuf {
    let mut s = save.as_os_str().to_owned();
    s.push(".characters");
    PathBuf::from(s)
}

/// Refuses to open the game where no window can open (the window library would panic):
/// on Linux, Strata's window is an X11 one (under Wayland, through XWayland), so `DISPLAY`
/// must name an X server that answers, and X must open it ([`x11::check_opens`], which
/// asks a few times: a loaded server now and then drops a handshake). The display's
/// screen size in pixels where X told it (the window is fitted to it).
#[cfg(feature = "game")]
pub fn check_display() -> Result<Option<(u32, u32)>, PlayError> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let display = var("DISPLAY");
    display_error(display.as_deref(), var("WAYLAND_DISPLAY").as_deref())
        .map_err(PlayError::Display)?;
    #[cfg(target_os = "linux")]
    if let Some(display) = &display {
        return x11::check_opens(display).map_err(PlayError::Display);
    }
    Ok(None)
}

#[cfg(feature = "game")]
fn display_error(display: Option<&str>, wayland: Option<&str>) -> Result<(), String> {
    if !cfg!(target_os = "linux") {
        return Ok(());
    }
    let Some(display) = display else {
        let why = match wayland {
            Some(_) => "DISPLAY is not set (under Wayland the game window needs XWayland)",
            None => "neither DISPLAY nor WAYLAND_DISPLAY is set",
        };
        return Err(format!(
            "no display to open the game window on: {why}; `strata gen` works without one"
        ));
    };
    if !x_server_answers(display) {
        return Err(format!(
            "no X server answers on display {display}; `strata gen` works without one"
        ));
    }
    Ok(())
}

/// Whether a local X display (`:N`, `:N.S`, `unix:N`) accepts a connection on its socket
/// (abstract or in /tmp/.X11-unix). A remote or unusual display is left for X to judge.
#[cfg(all(target_os = "linux", feature = "game"))]
fn x_server_answers(display: &str) -> bool {
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::{SocketAddr, UnixStream};
    let Some((host, rest)) = display.rsplit_once(':') else {
        return true;
    };
    let number = rest.split('.').next().unwrap_or("");
    if !(host.is_empty() || host == "unix") || number.parse::<u32>().is_err() {
        return true;
    }
    let path = format!("/tmp/.X11-unix/X{number}");
    let abstract_ok = SocketAddr::from_abstract_name(path.as_bytes())
        .and_then(|a| UnixStream::connect_addr(&a))
        .is_ok();
    abstract_ok || UnixStream::connect(&path).is_ok()
}

#[cfg(all(not(target_os = "linux"), feature = "game"))]
fn x_server_answers(_display: &str) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_players_preset_is_found_by_its_bare_name_and_characters_sit_beside_the_save() {
        let dir = std::env::temp_dir().join(format!("strata-launch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("mine.ron"), "()").unwrap();
        assert_eq!(
            user_preset(&dir, Path::new("mine")),
            Some(dir.join("mine.ron"))
        );
        assert_eq!(user_preset(&dir, Path::new("other")), None);
        // A path is a file's, never a name in the presets folder.
        assert_eq!(user_preset(&dir, Path::new("x/mine")), None);
        assert_eq!(
            characters_dir(Path::new("/s/w.strata")),
            Path::new("/s/w.strata.characters")
        );
        // Plain `strata play` (a preset may be named) opens on the start screen.
        let mut opts = PlayOptions {
            preset: Some("plains".into()),
            ..Default::default()
        };
        assert!(opts.shows_start());
        opts.seed = Some(3);
        assert!(!opts.shows_start(), "a seed names the world");
        // The error's text is the one line strata prints.
        let e = PlayError::Preset("bad: no such preset".into());
        assert_eq!(String::from(e), "bad: no such preset");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[cfg(all(target_os = "linux", feature = "game"))]
    #[test]
    fn the_game_needs_an_x_display_that_answers() {
        let e = display_error(None, None).unwrap_err();
        assert!(e.contains("neither DISPLAY nor WAYLAND_DISPLAY"), "{e}");
        let e = display_error(None, Some("wayland-0")).unwrap_err();
        assert!(e.contains("XWayland"), "{e}");
        let e = display_error(Some(":4321"), None).unwrap_err();
        assert!(e.contains("no X server answers on display :4321"), "{e}");
        assert!(display_error(Some("unix:4321.0"), None).is_err());
        // A server listening on the display's (abstract) socket answers.
        use std::os::linux::net::SocketAddrExt;
        let name = format!("/tmp/.X11-unix/X{}", 40_000 + std::process::id() % 20_000);
        let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
        let _server = std::os::unix::net::UnixListener::bind_addr(&addr).unwrap();
        let display = name.replace("/tmp/.X11-unix/X", ":");
        assert_eq!(display_error(Some(&display), None), Ok(()));
        // Remote and unusual displays are left to X.
        assert!(display_error(Some("remote.example:0"), None).is_ok());
        assert!(display_error(Some("odd"), None).is_ok());
    }
}
