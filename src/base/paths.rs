//! Where Strata keeps the player's files: saves, characters, the player's own presets and
//! the settings.
//!
//! | | saves, characters | presets, `settings.ron` |
//! |---|---|---|
//! | Linux | `~/.local/share/strata/saves`, `…/characters` (`$XDG_DATA_HOME`) | `~/.config/strata/` (`$XDG_CONFIG_HOME`) |
//! | macOS | `~/Library/Application Support/Strata/saves`, `…/characters` | `~/Library/Application Support/Strata/` |
//! | Windows | `%APPDATA%\Strata\data\saves`, `…\characters` | `%APPDATA%\Strata\config\` |
//!
//! Mods (RON files of items, recipes, loot, town and rules; see
//! [`crate::content::mods`]) sit in `mods/` beside `saves/`.
//!
//! `--home DIR` (on `play`, `gen`, `presets`, `content` and `serve`), else the environment variable
//! `STRATA_HOME=DIR`, puts them all in one folder: `DIR/saves`, `DIR/characters`, `DIR/mods`,
//! `DIR/presets`, `DIR/settings.ron`. Where the platform knows no home folder, the working folder takes
//! that place. Nothing here creates a folder: writers create theirs when they write
//! ([`crate::base::fsio::create_parent`] names the folder when that fails).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The environment variable that moves all the player's files into one folder.
pub const HOME_VAR: &str = "STRATA_HOME";

/// The player's folders and files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Folders {
    /// Saves (F5 writes here, F9 and the load list read here).
    pub saves: PathBuf,
    /// The characters, a file each ([`crate::store::character`]; the start screen lists
    /// them).
    pub characters: PathBuf,
    /// Mods: RON files that add to or change the built-in content.
    pub mods: PathBuf,
    /// The player's own presets, listed beside the built-in ones.
    pub presets: PathBuf,
    /// The settings file.
    pub settings: PathBuf,
}

/// The platform's folders for Strata: `(data, config)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Platform {
    pub data: PathBuf,
    pub config: PathBuf,
}

impl Platform {
    /// This machine's data and config folders for Strata, when it has a home folder.
    pub fn of_this_machine() -> Option<Platform> {
        let dirs = directories::ProjectDirs::from("", "", "Strata")?;
        Some(Platform {
            data: dirs.data_dir().to_path_buf(),
            config: dirs.config_dir().to_path_buf(),
        })
    }
}

/// Where the player's files are, from the `--home` flag, the `STRATA_HOME` value and the
/// platform's folders, in that order of precedence. An empty flag or variable counts as
/// not given.
pub fn resolve(flag: Option<&Path>, env: Option<&OsStr>, platform: Option<&Platform>) -> Folders {
    let given = |v: &&OsStr| !v.is_empty();
    let home = flag
        .map(Path::as_os_str)
        .filter(given)
        .or(env.filter(given))
        .map(PathBuf::from);
    let in_one = |dir: PathBuf| Folders {
        saves: dir.join("saves"),
        characters: dir.join("characters"),
        mods: dir.join("mods"),
        presets: dir.join("presets"),
        settings: dir.join("settings.ron"),
    };
    match (home, platform) {
        (Some(dir), _) => in_one(dir),
        (None, Some(p)) => Folders {
            saves: p.data.join("saves"),
            characters: p.data.join("characters"),
            mods: p.data.join("mods"),
            presets: p.config.join("presets"),
            settings: p.config.join("settings.ron"),
        },
        (None, None) => in_one(PathBuf::new()),
    }
}

impl Folders {
    /// The player's folders for a run given `--home` (`flag`): that folder, else
    /// `STRATA_HOME`'s, else the platform's ([`resolve`]). Worked out once at start and
    /// passed down to whatever reads or writes the player's files.
    pub fn for_run(flag: Option<&Path>) -> Folders {
        resolve(
            flag,
            std::env::var_os(HOME_VAR).as_deref(),
            Platform::of_this_machine().as_ref(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn platform() -> Platform {
        Platform {
            data: PathBuf::from("/home/p/.local/share/strata"),
            config: PathBuf::from("/home/p/.config/strata"),
        }
    }

    #[test]
    fn platform_folders_by_default() {
        let f = resolve(None, None, Some(&platform()));
        assert_eq!(f.saves, Path::new("/home/p/.local/share/strata/saves"));
        assert_eq!(f.presets, Path::new("/home/p/.config/strata/presets"));
        assert_eq!(f.settings, Path::new("/home/p/.config/strata/settings.ron"));
    }

    #[test]
    fn strata_home_puts_everything_in_one_folder() {
        let f = resolve(None, Some(OsStr::new("/scratch")), Some(&platform()));
        assert_eq!(
            f,
            Folders {
                saves: "/scratch/saves".into(),
                characters: "/scratch/characters".into(),
                mods: "/scratch/mods".into(),
                presets: "/scratch/presets".into(),
                settings: "/scratch/settings.ron".into(),
            }
        );
        // An empty variable is no override.
        assert_eq!(
            resolve(None, Some(OsStr::new("")), Some(&platform())),
            resolve(None, None, Some(&platform()))
        );
    }

    #[test]
    fn the_flag_wins_over_the_variable() {
        let f = resolve(
            Some(Path::new("rel/home")),
            Some(OsStr::new("/scratch")),
            Some(&platform()),
        );
        assert_eq!(f.saves, Path::new("rel/home/saves"));
        assert_eq!(f.settings, Path::new("rel/home/settings.ron"));
        // An empty flag falls through to the variable.
        let f = resolve(Some(Path::new("")), Some(OsStr::new("/s")), None);
        assert_eq!(f.presets, Path::new("/s/presets"));
    }

    #[test]
    fn without_a_home_folder_the_working_folder_is_used() {
        let f = resolve(None, None, None);
        assert_eq!(f.saves, Path::new("saves"));
        assert_eq!(f.presets, Path::new("presets"));
        assert_eq!(f.settings, Path::new("settings.ron"));
    }
}
