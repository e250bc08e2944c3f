//! What a server's keeper decides ([`Keeper`]): who may not join (bans, by name or by
//! address), who alone may (the whitelist, when it is on), the operators, the ground no
//! one but an operator may change (a radius around the spawn, Terraria's 10 tiles unless
//! told, and named regions). Kept in one RON file beside the world's save
//! (`<save>.keeper.ron`, [`keeper_path`]), written atomically by the commands that change
//! it and checked on load (a bad entry names the file, line:col and the field).
//!
//! The commands ([`Command`], [`parse`]) come from the server's console (its standard
//! input) or from an operator's chat line starting with `/`.

use crate::content::preset::PresetError;
use crate::net::chars;
use serde::{Deserialize, Serialize};
use std::net::IpAddr;
use std::path::{Path, PathBuf};

/// Terraria's spawn protection: tiles around the spawn point only operators may change.
pub const SPAWN_PROTECTION: u32 = 10;

/// Most entries of each list, and the most radius.
pub const MAX_ENTRIES: usize = 10_000;
pub const MAX_RADIUS: u32 = 1000;

/// Bytes a keeper's file may have.
pub const MAX_FILE: u64 = 1 << 20;

/// A rectangle of tiles only operators may change (inclusive corners).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Area {
    pub name: String,
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

/// What a keeper decided (see the module notes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Keeper {
    /// Banned names and addresses (an address bans every name from it).
    pub bans: Vec<String>,
    /// When `whitelisting`, only these names may join.
    pub whitelist: Vec<String>,
    pub whitelisting: bool,
    /// Operators: they run commands from chat and build anywhere.
    pub ops: Vec<String>,
    /// Tiles around the spawn point only operators may change (0: none).
    pub spawn_protection: u32,
    /// Named areas only operators may change.
    pub regions: Vec<Area>,
}

impl Default for Keeper {
    fn default() -> Keeper {
        Keeper {
            bans: Vec::new(),
            whitelist: Vec::new(),
            whitelisting: false,
            ops: Vec::new(),
            spawn_protection: SPAWN_PROTECTION,
            regions: Vec::new(),
        }
    }
}

/// The keeper's file of a save: beside it, `<save>.keeper.ron`.
pub fn keeper_path(save: &Path) -> PathBuf {
    let mut s = save.as_os_str().to_owned();
    s.push(".keeper.ron");
    PathBuf::from(s)
}

/// A name or an address to ban: an address when it parses as one.
fn is_address(entry: &str) -> bool {
    entry.parse::<IpAddr>().is_ok()
}

/// Where `entry` (as a quoted string) first is in `text`: 1-based line and column.
fn place_of(text: &str, entry: &str) -> Option<(usize, usize)> {
    let quoted = format!("{entry:?}");
    let at = text.find(&quoted)?;
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    Some((line, col))
}

/// Why a keeper's file was not read or written.
#[derive(Clone, Debug, PartialEq)]
pub enum KeeperError {
    /// The file cannot be read (or is not UTF-8 text): its path and why.
    Unread { path: String, why: String },
    /// The text is not a keeper's: the file, line:column where known, the field and why.
    Invalid(PresetError),
    /// The file was not written (the system's reason; the caller names the file).
    Unwritten(String),
}

impl std::fmt::Display for KeeperError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeeperError::Unread { path, why } => write!(f, "{path}: {why}"),
            KeeperError::Invalid(e) => e.fmt(f),
            KeeperError::Unwritten(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for KeeperError {}

impl Keeper {
    /// Reads `path` (a missing file is the defaults); a bad file says where.
    pub fn load(path: &Path) -> Result<Keeper, KeeperError> {
        if !path.exists() {
            return Ok(Keeper::default());
        }
        let unread = |why: String| KeeperError::Unread {
            path: path.display().to_string(),
            why,
        };
        let bytes =
            crate::base::fsio::read_bounded(path, MAX_FILE).map_err(|e| unread(e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|_| unread("not UTF-8 text".into()))?;
        Keeper::parse(&text, &path.display().to_string())
    }

    /// Parses and checks a keeper's text; `source` names it in errors.
    pub fn parse(text: &str, source: &str) -> Result<Keeper, KeeperError> {
        let k: Keeper =
            crate::content::items::parse_ron(text, source).map_err(KeeperError::Invalid)?;
        let invalid = |position: Option<(usize, usize)>, message: String| {
            KeeperError::Invalid(PresetError {
                source: source.to_string(),
                position,
                message,
            })
        };
        let at = |entry: &str, field: &str, why: String| {
            let place = place_of(text, entry).unwrap_or((1, 1));
            invalid(Some(place), format!("{field}: {why}"))
        };
        let name_ok = |n: &String| chars::valid_name(n);
        let lists = [
            ("bans", &k.bans),
            ("ops", &k.ops),
            ("whitelist", &k.whitelist),
        ];
        for (field, list) in lists {
            if list.len() > MAX_ENTRIES {
                return Err(invalid(
                    None,
                    format!("{field}: {} entries, at most {MAX_ENTRIES}", list.len()),
                ));
            }
            let bad = list
                .iter()
                .find(|e| !(name_ok(e) || field == "bans" && is_address(e)));
            if let Some(e) = bad {
                let what = if field == "bans" {
                    "a player's name or an IP address"
                } else {
                    "a player's name"
                };
                return Err(at(e, field, format!("{e:?} is not {what}")));
            }
        }
        if k.spawn_protection > MAX_RADIUS {
            return Err(invalid(
                None,
                format!(
                    "spawn_protection = {}: allowed 0 to {MAX_RADIUS}",
                    k.spawn_protection
                ),
            ));
        }
        if k.regions.len() > MAX_ENTRIES {
            return Err(invalid(None, format!("regions: at most {MAX_ENTRIES}")));
        }
        for r in &k.regions {
            if !name_ok(&r.name) {
                return Err(at(&r.name, "regions", "not a name".into()));
            }
            if r.x0 > r.x1 || r.y0 > r.y1 {
                return Err(at(
                    &r.name,
                    "regions",
                    format!("{}: x0 <= x1 and y0 <= y1", r.name),
                ));
            }
        }
        Ok(k)
    }

    /// Writes the keeper's file, atomically.
    pub fn save(&self, path: &Path) -> Result<(), KeeperError> {
        let body = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| KeeperError::Unwritten(e.to_string()))?;
        let text = format!(
            "// Strata server: bans (names or IP addresses), whitelist (only they join while\n\
             // whitelisting is true), ops,\n\
             // spawn_protection (tiles), regions only ops may change. Written by the\n\
             // server's commands; edit while it is stopped.\n{body}\n"
        );
        crate::base::fsio::write_file(path, |f| f.write_all(text.as_bytes()))
            .map_err(|e| KeeperError::Unwritten(e.to_string()))
    }

    /// Is `name`, joining from `ip`, banned?
    pub fn banned(&self, name: &str, ip: Option<IpAddr>) -> bool {
        self.bans.iter().any(|b| {
            b.eq_ignore_ascii_case(name) || ip.is_some_and(|ip| b.parse::<IpAddr>() == Ok(ip))
        })
    }

    /// May `name` join (the whitelist off, or `name` on it)?
    pub fn listed(&self, name: &str) -> bool {
        !self.whitelisting || self.whitelist.iter().any(|n| n.eq_ignore_ascii_case(name))
    }

    pub fn is_op(&self, name: &str) -> bool {
        self.ops.iter().any(|n| n.eq_ignore_ascii_case(name))
    }

    /// What protects tile `(x, y)` from players who are not operators: `spawn` (within
    /// [`Keeper::spawn_protection`] tiles of `spawn`, a point in tiles) or a region's
    /// name; `None` when nothing does.
    pub fn protects(&self, x: i64, y: i64, spawn: (f32, f32)) -> Option<&str> {
        let r = self.spawn_protection as f32;
        let (dx, dy) = (x as f32 + 0.5 - spawn.0, y as f32 + 0.5 - spawn.1);
        if r > 0.0 && dx.abs() <= r && dy.abs() <= r {
            return Some("spawn");
        }
        let inside = |a: &&Area| {
            (i64::from(a.x0)..=i64::from(a.x1)).contains(&x)
                && (i64::from(a.y0)..=i64::from(a.y1)).contains(&y)
        };
        self.regions.iter().find(inside).map(|a| a.name.as_str())
    }
}

impl Keeper {
    /// A tick of `intents` of a player who is not an operator (`seat`, in `world`, whose
    /// spawn point is `spawn`), with what would change protected ground taken out: a dig
    /// aimed there aims nowhere, a block or wall placed there is dropped (a right click on
    /// what is there, a door, a chest, a person, stays). Also what protected it, if
    /// anything was taken out.
    pub fn guard(
        &self,
        spawn: (f32, f32),
        seat: &crate::sim::session::Seat,
        world: &crate::world::World,
        intents: Vec<crate::sim::session::Intent>,
    ) -> (Vec<crate::sim::session::Intent>, Option<String>) {
        use crate::sim::session::Intent;
        use crate::world::Tile;
        let mut inv = seat.inventory.clone();
        let mut why = None;
        let mut kept = Vec::with_capacity(intents.len());
        for i in intents {
            match i {
                Intent::Select(n) => inv.select(n),
                Intent::Scroll(n) => inv.scroll(n),
                Intent::Use { at: Some((x, y)) } => {
                    if let Some(p) = self.protects(x, y, spawn) {
                        why = Some(p.to_string());
                        kept.push(Intent::Use { at: None });
                        continue;
                    }
                }
                Intent::Place { x, y, .. } => {
                    let walls = inv.selected_wall().is_some();
                    let empty = world
                        .get(x, y)
                        .is_none_or(|t| matches!(t, Tile::Air | Tile::Water));
                    if (walls || inv.selected_tile().is_some() && empty)
                        && let Some(p) = self.protects(x, y, spawn)
                    {
                        why = Some(p.to_string());
                        continue;
                    }
                }
                _ => {}
            }
            kept.push(i);
        }
        (kept, why)
    }
}

/// Adds `entry` to `list` unless there (names compared without case); whether it was added.
pub fn add(list: &mut Vec<String>, entry: &str) -> bool {
    if list.iter().any(|e| e.eq_ignore_ascii_case(entry)) {
        return false;
    }
    list.push(entry.to_string());
    true
}

/// Takes `entry` out of `list`; whether it was there.
pub fn remove(list: &mut Vec<String>, entry: &str) -> bool {
    let before = list.len();
    list.retain(|e| !e.eq_ignore_ascii_case(entry));
    list.len() != before
}

/// A keeper's command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Kick(String),
    /// A name or an address.
    Ban(String),
    Unban(String),
    /// `whitelist on|off|add NAME|remove NAME|list`.
    Whitelist(Listing),
    Op(String),
    Deop(String),
    Save,
    Say(String),
    /// Show the time of day, or set it (0 to 1).
    Time(Option<f32>),
    /// `protect NAME X0 Y0 X1 Y1`: a region only operators may change.
    Protect(Area),
    Unprotect(String),
    /// `spawnprotect N`: the radius around the spawn.
    SpawnProtect(u32),
    Players,
    Help,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Listing {
    On,
    Off,
    Add(String),
    Remove(String),
    List,
}

/// The commands, for `help` and a mistyped one.
pub const HELP: &str = "kick NAME, ban NAME|IP, unban NAME|IP, whitelist on|off|add NAME|remove NAME|list, \
op NAME, deop NAME, save, say TEXT, time [HH:MM|day|night], protect NAME X0 Y0 X1 Y1, \
unprotect NAME, spawnprotect TILES, players, help";

/// A time of day as `HH:MM`, `day` (06:00... the morning) or `night` (midnight).
fn time_of(s: &str) -> Option<f32> {
    match s {
        "day" => return Some(crate::sim::day::MORNING),
        "night" => return Some(0.0),
        _ => {}
    }
    let (h, m) = s.split_once(':')?;
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then(|| (h * 60 + m) as f32 / (24.0 * 60.0))
}

/// Parses a command line (without a leading `/`).
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.trim();
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    let name = |what: &str| -> Result<String, String> {
        if chars::valid_name(rest) {
            Ok(rest.to_string())
        } else {
            Err(format!("{word} {what}: '{rest}' is not a player's name"))
        }
    };
    let target = || -> Result<String, String> {
        if is_address(rest) || chars::valid_name(rest) {
            Ok(rest.to_string())
        } else {
            Err(format!(
                "{word}: '{rest}' is neither a name nor an IP address"
            ))
        }
    };
    Ok(match word {
        "kick" => Command::Kick(name("NAME")?),
        "ban" => Command::Ban(target()?),
        "unban" => Command::Unban(target()?),
        "op" => Command::Op(name("NAME")?),
        "deop" => Command::Deop(name("NAME")?),
        "save" => Command::Save,
        "say" if !rest.is_empty() => Command::Say(rest.to_string()),
        "players" => Command::Players,
        "help" => Command::Help,
        "time" if rest.is_empty() => Command::Time(None),
        "time" => {
            Command::Time(Some(time_of(rest).ok_or_else(|| {
                format!("time: '{rest}' is not HH:MM, day or night")
            })?))
        }
        "whitelist" => {
            let (sub, who) = rest.split_once(' ').unwrap_or((rest, ""));
            let who = who.trim();
            let who_ok = || {
                if chars::valid_name(who) {
                    Ok(who.to_string())
                } else {
                    Err(format!("whitelist {sub}: '{who}' is not a player's name"))
                }
            };
            Command::Whitelist(match sub {
                "on" => Listing::On,
                "off" => Listing::Off,
                "list" | "" => Listing::List,
                "add" => Listing::Add(who_ok()?),
                "remove" => Listing::Remove(who_ok()?),
                _ => return Err("whitelist on|off|add NAME|remove NAME|list".into()),
            })
        }
        "protect" => {
            let parts: Vec<&str> = rest.split_whitespace().collect();
            let nums: Option<Vec<u32>> = parts.iter().skip(1).map(|p| p.parse().ok()).collect();
            match (parts.first(), nums.as_deref()) {
                (Some(n), Some(&[x0, y0, x1, y1])) if chars::valid_name(n) => {
                    Command::Protect(Area {
                        name: n.to_string(),
                        x0: x0.min(x1),
                        y0: y0.min(y1),
                        x1: x0.max(x1),
                        y1: y0.max(y1),
                    })
                }
                _ => return Err("protect NAME X0 Y0 X1 Y1 (tiles)".into()),
            }
        }
        "unprotect" => Command::Unprotect(name("NAME")?),
        "spawnprotect" => match rest.parse::<u32>() {
            Ok(r) if r <= MAX_RADIUS => Command::SpawnProtect(r),
            _ => return Err(format!("spawnprotect TILES: 0 to {MAX_RADIUS}")),
        },
        _ => return Err(format!("no command '{word}': {HELP}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_and_bad_ones_say_what_was_meant() {
        assert_eq!(parse("kick ann"), Ok(Command::Kick("ann".into())));
        assert_eq!(parse("ban 10.0.0.7"), Ok(Command::Ban("10.0.0.7".into())));
        assert_eq!(parse(" ban  bob "), Ok(Command::Ban("bob".into())));
        let Ok(Command::Time(Some(t))) = parse("time 18:30") else {
            panic!("{:?}", parse("time 18:30"));
        };
        assert!((t - 18.5 / 24.0).abs() < 1e-6, "{t}");
        assert_eq!(parse("time"), Ok(Command::Time(None)));
        assert_eq!(
            parse("whitelist add cy"),
            Ok(Command::Whitelist(Listing::Add("cy".into())))
        );
        let area = Area {
            name: "town".into(),
            x0: 3,
            y0: 4,
            x1: 10,
            y1: 20,
        };
        assert_eq!(parse("protect town 10 20 3 4"), Ok(Command::Protect(area)));
        assert!(parse("time 25:00").unwrap_err().contains("HH:MM"));
        assert!(parse("kick").unwrap_err().contains("not a player's name"));
        assert!(parse("ban a/b").unwrap_err().contains("neither"));
        assert!(parse("dance").unwrap_err().contains("no command 'dance'"));
    }

    #[test]
    fn a_keepers_file_round_trips_and_a_bad_entry_is_placed() {
        let dir = std::env::temp_dir().join(format!("strata-keeper-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = keeper_path(&dir.join("w.strata"));
        assert_eq!(Keeper::load(&path), Ok(Keeper::default()), "none yet");
        let mut k = Keeper::default();
        add(&mut k.bans, "10.1.2.3");
        add(&mut k.bans, "grief");
        k.whitelist = vec!["ann".into()];
        k.whitelisting = true;
        k.ops.push("ann".into());
        k.save(&path).unwrap();
        assert_eq!(Keeper::load(&path), Ok(k.clone()));
        let ip: IpAddr = "10.1.2.3".parse().unwrap();
        assert!(k.banned("anyone", Some(ip)));
        assert!(k.banned("Grief", None));
        assert!(!k.banned("ann", Some("10.1.2.4".parse().unwrap())));
        assert!(k.listed("ANN") && !k.listed("bob"));
        let text = "(\n  bans: [\"ok\",\n    \"no/slash\"],\n)";
        let e = Keeper::parse(text, "k.ron").unwrap_err();
        let KeeperError::Invalid(at) = &e else {
            panic!("{e:?}");
        };
        assert_eq!((at.source.as_str(), at.position), ("k.ron", Some((3, 5))));
        assert!(e.to_string().starts_with("k.ron:3:5: bans: "), "{e}");
        let e = Keeper::parse("(spawn_protection: 5000)", "k.ron").unwrap_err();
        assert!(e.to_string().contains("spawn_protection = 5000"), "{e}");
        let e = Keeper::parse("(ops: [1])", "k.ron").unwrap_err();
        assert!(e.to_string().starts_with("k.ron:1:"), "{e}");
        // A file that cannot be read names itself.
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        let e = Keeper::load(&path).unwrap_err();
        assert!(matches!(e, KeeperError::Unread { .. }), "{e:?}");
        let told = format!("{}: not UTF-8 text", path.display());
        assert_eq!(e.to_string(), told);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn spawn_and_regions_are_protected_and_the_rest_is_not() {
        let mut k = Keeper::default();
        let spawn = (100.0, 50.0);
        assert_eq!(k.protects(100, 49, spawn), Some("spawn"));
        assert_eq!(k.protects(109, 59, spawn), Some("spawn"));
        assert_eq!(k.protects(111, 50, spawn), None);
        k.regions.push(Area {
            name: "town".into(),
            x0: 200,
            y0: 10,
            x1: 220,
            y1: 30,
        });
        assert_eq!(k.protects(220, 30, spawn), Some("town"));
        assert_eq!(k.protects(221, 30, spawn), None);
        k.spawn_protection = 0;
        assert_eq!(k.protects(100, 49, spawn), None);
    }
}
