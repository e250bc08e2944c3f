//! Command-line parsing (pure) and the headless `gen` command.

use crate::fsio;
use crate::preset::{self, Preset};
use crate::rng::seed_from_text;
use std::path::PathBuf;

/// The preset used when none is named.
pub const DEFAULT_PRESET: &str = "config/presets/default.ron";

pub const USAGE: &str = "\
Strata: a procedural 2D sandbox

USAGE:
  strata [play] [--preset PRESET] [--seed SEED] [--load PATH] [--max-fps N] [--frames N] [--screenshot PATH]
                [--home DIR]
  strata gen [--preset PRESET] [--seed SEED] [--size WxH] [--ascii PATH|-] [--png PATH] [--stats]
             [--surface PATH|-] [--save PATH] [--from-ascii PATH] [--home DIR]
  strata presets [--home DIR]
                       list the built-in presets and the player's own (in the presets folder)
  strata help          this text (`strata gen --help`, `strata play --help`: one command's)
  strata --version

";

/// Options both commands take.
const COMMON_OPTIONS: &str = "\
  --preset PRESET    a preset file, or the name of one of the player's presets or of a
                     built-in preset (`strata presets`); default: config/presets/default.ron
                     if there is one, else the built-in default
  --seed SEED        a number 0..=18446744073709551615 is used as is; any other text is hashed
  --home DIR         keep saves, presets and settings in DIR (as STRATA_HOME=DIR does)
";

/// Options of `strata gen`.
const GEN_OPTIONS: &str = "\
  --size WxH         override the preset's world size
  --ascii PATH|-     write the world as text, one character a tile; '-' is stdout:
                     ' ' air  '.' dirt  '#' stone  'w' grass  'c' copper  'i' iron
                     'v' silver  'g' gold  'D' diamond  'h' hellstone  '~' water  'L' lava
                     'O' obsidian  's' sand  'S' sandstone  '*' snow  'I' ice  'm' mud
                     'j' jungle grass  'a' ash  '|' tree trunk  '%' leaves  'k' cactus
                     'W' wood  't' torch
  --surface PATH|-   write each column's surface row (0 = top), one number a line, left to right
  --png PATH         write the world as a PNG, one pixel per tile
  --stats            print generation and connectivity stats as one JSON object
  --save PATH        write a save file that `strata play --load` opens
  --from-ascii PATH  take the world from text in the --ascii legend instead of generating it
                     (a hand-drawn world to play or test in; the preset is only recorded)
";

/// Options of `strata play`.
const PLAY_OPTIONS: &str = "\
  --load PATH        start the game from a save file
  --max-fps N        frames per second at most (default 60, as Terraria; 0 = no cap)
  --frames N         render N frames, then exit (with --screenshot: write it first)
  --screenshot PATH  write a PNG of the last frame
";

/// The help text: all of it, or one command's.
pub fn help(command: Option<&str>) -> String {
    match command {
        Some("gen") => format!(
            "strata gen: make a world without a window and write it out\n\nUSAGE:\n  strata gen [OPTIONS]\n\n{COMMON_OPTIONS}{GEN_OPTIONS}"
        ),
        Some("play") => format!(
            "strata play: open the game (also `strata` alone)\n\nUSAGE:\n  strata [play] [OPTIONS]\n\n{COMMON_OPTIONS}{PLAY_OPTIONS}"
        ),
        _ => format!("{USAGE}{COMMON_OPTIONS}{GEN_OPTIONS}{PLAY_OPTIONS}"),
    }
}

/// What `strata --version` prints.
pub fn version() -> String {
    format!("strata {}\n", env!("CARGO_PKG_VERSION"))
}

/// Options of `strata gen`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenOptions {
    pub preset: Option<PathBuf>,
    pub seed: Option<u64>,
    pub size: Option<(u32, u32)>,
    pub ascii: Option<String>,
    pub surface: Option<String>,
    pub png: Option<PathBuf>,
    pub stats: bool,
    pub save: Option<PathBuf>,
    /// Read the world from this text file instead of generating it.
    pub from_ascii: Option<PathBuf>,
    /// `--home`: the folder of the player's files.
    pub home: Option<PathBuf>,
}

/// Options of `strata play`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayOptions {
    pub preset: Option<PathBuf>,
    pub seed: Option<u64>,
    pub load: Option<PathBuf>,
    pub frames: Option<u64>,
    pub screenshot: Option<PathBuf>,
    /// Frame-rate cap; `None` for [`DEFAULT_MAX_FPS`], `Some(0)` for none.
    pub max_fps: Option<u32>,
    /// `--home`: the folder of the player's files.
    pub home: Option<PathBuf>,
}

/// Frames per second the game draws at most unless told otherwise: Terraria's rate. With
/// no cap and no vsync (a software renderer, or a driver that ignores the vsync hint) the
/// game would draw as fast as it can, taking the cores world generation needs.
pub const DEFAULT_MAX_FPS: u32 = 60;

/// Highest `--max-fps` accepted.
pub const MAX_FPS_LIMIT: u32 = 1000;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Play(PlayOptions),
    Gen(GenOptions),
    /// Help, for one command or (`None`) all.
    Help(Option<&'static str>),
    Version,
    /// `strata presets`, with its `--home`.
    Presets(Option<PathBuf>),
}

/// Parses `WxH`.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--size: expected WIDTHxHEIGHT such as 800x300, got '{text}'");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h) = (
        w.trim().parse::<u32>().map_err(|_| bad())?,
        h.trim().parse::<u32>().map_err(|_| bad())?,
    );
    preset::check_size(w, h).map_err(|e| format!("--size: {e}"))?;
    Ok((w, h))
}

/// Parses the arguments after the program name.
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut it = args.iter().peekable();
    let sub = match it.peek().map(|s| s.as_str()) {
        Some("gen") => {
            it.next();
            "gen"
        }
        Some("play") => {
            it.next();
            "play"
        }
        Some("help" | "--help" | "-h") => return Ok(Command::Help(None)),
        Some("--version" | "-V") => return Ok(Command::Version),
        Some("presets") => {
            return match &args[1..] {
                [] => Ok(Command::Presets(None)),
                [flag] if flag == "--home" => Err("--home needs a value".into()),
                [flag, dir] if flag == "--home" => Ok(Command::Presets(Some(dir.into()))),
                [extra, ..] => Err(format!(
                    "unknown option '{extra}' for `strata presets` (see `strata help`)"
                )),
            };
        }
        _ => "play",
    };
    let mut gen_opts = GenOptions::default();
    let mut play = PlayOptions::default();
    while let Some(flag) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match (sub, flag.as_str()) {
            (_, "--help" | "-h") => return Ok(Command::Help(Some(sub))),
            (_, "--preset") => {
                let p = PathBuf::from(value("--preset")?);
                gen_opts.preset = Some(p.clone());
                play.preset = Some(p);
            }
            (_, "--seed") => {
                let s = seed_from_text(&value("--seed")?);
                gen_opts.seed = Some(s);
                play.seed = Some(s);
            }
            (_, "--home") => {
                let dir = PathBuf::from(value("--home")?);
                gen_opts.home = Some(dir.clone());
                play.home = Some(dir);
            }
            ("gen", "--size") => gen_opts.size = Some(parse_size(&value("--size")?)?),
            ("gen", "--ascii") => gen_opts.ascii = Some(value("--ascii")?),
            ("gen", "--surface") => gen_opts.surface = Some(value("--surface")?),
            ("gen", "--png") => gen_opts.png = Some(value("--png")?.into()),
            ("gen", "--stats") => gen_opts.stats = true,
            ("gen", "--save") => gen_opts.save = Some(value("--save")?.into()),
            ("gen", "--from-ascii") => gen_opts.from_ascii = Some(value("--from-ascii")?.into()),
            ("play", "--load") => play.load = Some(value("--load")?.into()),
            ("play", "--screenshot") => play.screenshot = Some(value("--screenshot")?.into()),
            ("play", "--max-fps") => {
                let v = value("--max-fps")?;
                let n = v.parse::<u32>().ok().filter(|&n| n <= MAX_FPS_LIMIT);
                play.max_fps = Some(n.ok_or_else(|| {
                    format!("--max-fps: expected a whole number 0..={MAX_FPS_LIMIT}, got '{v}'")
                })?);
            }
            ("play", "--frames") => {
                let v = value("--frames")?;
                play.frames = Some(
                    v.parse()
                        .map_err(|_| format!("--frames: expected a whole number, got '{v}'"))?,
                );
            }
            _ => {
                return Err(format!(
                    "unknown option '{flag}' for `strata {sub}` (see `strata help`)"
                ));
            }
        }
    }
    if play.load.is_some() && (play.preset.is_some() || play.seed.is_some()) {
        return Err(
            "--load starts from a save, which holds its own preset and seed: give --load \
             without --preset and --seed"
                .into(),
        );
    }
    Ok(if sub == "gen" {
        Command::Gen(gen_opts)
    } else {
        Command::Play(play)
    })
}

/// Loads the named preset: a file when one is at that path, else the player's preset of
/// that name (`NAME.ron` in the presets folder), else the built-in preset of that name.
/// Without a name: `config/presets/default.ron` when the working folder has one (the
/// repository, where it is edited), else the built-in default.
pub fn load_preset(path: Option<&PathBuf>) -> Result<Preset, String> {
    let path = match path {
        Some(p) => p.clone(),
        None if std::path::Path::new(DEFAULT_PRESET).is_file() => PathBuf::from(DEFAULT_PRESET),
        None => return builtin_preset("default"),
    };
    if path.exists() {
        return preset::load(&path).map_err(|e| e.to_string());
    }
    let name = path.to_string_lossy();
    let user_dir = crate::paths::user_presets_dir();
    if let Some(file) = user_preset(&user_dir, &path) {
        return preset::load(&file).map_err(|e| e.to_string());
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

/// The player's preset called `name` (a bare name, `.ron` optional) in `dir`, if there is
/// such a file.
pub fn user_preset(dir: &std::path::Path, name: &std::path::Path) -> Option<PathBuf> {
    if name.components().count() != 1 {
        return None;
    }
    let file = dir.join(name).with_extension("ron");
    file.is_file().then_some(file)
}

fn builtin_preset(name: &str) -> Result<Preset, String> {
    match preset::builtin(name) {
        Some(found) => found.map_err(|e| e.to_string()),
        None => Err(format!("no built-in preset {name}")),
    }
}

/// What `strata presets` prints: the built-in presets with their sizes, the player's
/// presets folder and its presets, then the preset files of `config/presets` in the
/// working folder, if it has one.
pub fn presets_listing() -> String {
    let mut out = String::from("Built-in presets (--preset NAME):\n");
    for (name, _) in preset::BUILTIN {
        if let Ok(p) = builtin_preset(name) {
            out.push_str(&format!(
                "  {name:<10} {:>5} x {:<5} {}\n",
                p.width, p.height, p.name
            ));
        }
    }
    let user_dir = crate::paths::user_presets_dir();
    let mine = preset::files_in(&user_dir);
    if mine.is_empty() {
        out.push_str(&format!(
            "Your presets: none yet (NAME.ron files in {} are listed here)\n",
            user_dir.display()
        ));
    } else {
        out.push_str(&format!(
            "Your presets in {} (--preset NAME):\n",
            user_dir.display()
        ));
        list_files(&mut out, &mine);
    }
    let dir = std::path::Path::new(DEFAULT_PRESET)
        .parent()
        .unwrap_or(std::path::Path::new("."));
    let files = preset::files_in(dir);
    if !files.is_empty() {
        out.push_str(&format!(
            "Preset files in {} (--preset PATH):\n",
            dir.display()
        ));
        list_files(&mut out, &files);
    }
    out
}

/// One line per preset file: its path, size and name, or why it does not load.
fn list_files(out: &mut String, files: &[PathBuf]) {
    for f in files {
        match preset::load(f) {
            Ok(p) => out.push_str(&format!(
                "  {:<32} {:>5} x {:<5} {}\n",
                f.display(),
                p.width,
                p.height,
                p.name
            )),
            Err(e) => out.push_str(&format!("  {:<32} does not load: {e}\n", f.display())),
        }
    }
}

/// Refuses to open the game where no window can open (the window library would panic):
/// on Linux, Strata's window is an X11 one (under Wayland, through XWayland), so `DISPLAY`
/// must name an X server that answers.
pub fn check_display() -> Result<(), String> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    display_error(var("DISPLAY").as_deref(), var("WAYLAND_DISPLAY").as_deref())
}

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
#[cfg(target_os = "linux")]
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

#[cfg(not(target_os = "linux"))]
fn x_server_answers(_display: &str) -> bool {
    true
}

/// A fresh random seed.
pub fn random_seed() -> u64 {
    use rand::Rng;
    rand::rng().next_u64()
}

/// Runs `strata gen`.
pub fn run_gen(opts: &GenOptions) -> Result<(), String> {
    check_distinct_outputs(opts)?;
    let mut preset = load_preset(opts.preset.as_ref())?;
    if let Some((w, h)) = opts.size {
        preset.width = w;
        preset.height = h;
    }
    let seed = opts.seed.unwrap_or_else(random_seed);
    let (world, timings) = match &opts.from_ascii {
        Some(path) => (world_from_text_file(path, preset, seed)?, Vec::new()),
        None => crate::worldgen::generate(&preset, seed),
    };
    let start = std::time::Instant::now();
    let report = crate::analysis::analyse(&world);
    let analysis_ms = start.elapsed().as_secs_f64() * 1e3;
    let write_text =
        |target: &str, write: &dyn Fn(&mut dyn std::io::Write) -> std::io::Result<()>| {
            if target == "-" {
                fsio::write_stdout(write)
            } else {
                fsio::write_file(target.as_ref(), |f| write(f))
            }
        };
    if let Some(target) = &opts.ascii {
        write_text(target, &|f| crate::export::write_ascii(&world, f))?;
    }
    if let Some(target) = &opts.surface {
        write_text(target, &|f| crate::export::write_surface(&world, f))?;
    }
    if let Some(path) = &opts.png {
        fsio::write_file(path, |f| crate::export::write_png(&world, f))?;
    }
    if opts.stats {
        let json = crate::export::stats_json(&world, &timings, &report, analysis_ms);
        fsio::print_stdout(&(json + "\n"))?;
    }
    if let Some(path) = &opts.save {
        let player = crate::save::PlayerState {
            pos: crate::player::spawn_point(&world),
            inventory: crate::edit::Inventory::default(),
        };
        crate::save::save(path, &world, &player)?;
    }
    Ok(())
}

/// Refuses two outputs to one file (one would silently replace the other). Standard output
/// (`-`) and devices such as `/dev/null` may take several.
fn check_distinct_outputs(opts: &GenOptions) -> Result<(), String> {
    let named = [
        ("--ascii", opts.ascii.as_deref().map(std::path::Path::new)),
        (
            "--surface",
            opts.surface.as_deref().map(std::path::Path::new),
        ),
        ("--png", opts.png.as_deref()),
        ("--save", opts.save.as_deref()),
    ];
    let files: Vec<(&str, PathBuf)> = named
        .iter()
        .filter_map(|&(flag, p)| Some((flag, p?)))
        .filter(|(_, p)| p.as_os_str() != "-" && !fsio::is_stdout_alias(p))
        .filter(|(_, p)| std::fs::metadata(p).map_or(true, |m| m.is_file()))
        .map(|(flag, p)| (flag, same_file_key(p)))
        .collect();
    for (i, (flag, key)) in files.iter().enumerate() {
        if let Some((other, _)) = files[..i].iter().find(|(_, k)| k == key) {
            return Err(format!(
                "{other} and {flag} name the same file {}: give each output its own",
                key.display()
            ));
        }
    }
    Ok(())
}

/// A path that is the same for two spellings of one file: links resolved where the file or
/// its folder exists.
fn same_file_key(path: &std::path::Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (abs.parent().map(std::fs::canonicalize), abs.file_name()) {
        (Some(Ok(dir)), Some(name)) => dir.join(name),
        _ => abs,
    }
}

/// A world drawn as text in the `--ascii` legend, one line a row (for `--from-ascii`).
pub fn world_from_text(
    text: &str,
    mut preset: Preset,
    seed: u64,
) -> Result<crate::world::World, String> {
    let rows: Vec<&str> = text.lines().collect();
    let width = rows.first().map_or(0, |r| r.chars().count());
    preset::check_size(width as u32, rows.len() as u32).map_err(|e| e.to_string())?;
    let mut world = crate::world::World::from_ascii(&rows).ok_or(
        "rows must all be as long as the first, in the --ascii legend (see `strata help`)",
    )?;
    (preset.width, preset.height) = (world.width() as u32, world.height() as u32);
    world.seed = seed;
    world.preset = preset;
    Ok(world)
}

fn world_from_text_file(
    path: &std::path::Path,
    preset: Preset,
    seed: u64,
) -> Result<crate::world::World, String> {
    let err = |e: String| format!("{}: {e}", path.display());
    // The largest world's text (four bytes a character at most, line ends) bounds the read.
    let limit = 16384 * 4096 * 4 + 4096 * 2;
    let bytes = fsio::read_bounded(path, limit).map_err(|e| err(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| err("not UTF-8 text".into()))?;
    world_from_text(&text, preset, seed).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn bare_binary_plays() {
        assert_eq!(parse_args(&[]), Ok(Command::Play(PlayOptions::default())));
        let Ok(Command::Play(p)) = parse_args(&args("--seed 7 --frames 3")) else {
            panic!()
        };
        assert_eq!((p.seed, p.frames), (Some(7), Some(3)));
        assert_eq!(p.max_fps, None);
        let Ok(Command::Play(p)) = parse_args(&args("play --max-fps 0")) else {
            panic!()
        };
        assert_eq!(p.max_fps, Some(0));
        for bad in [
            "--max-fps 1001",
            "--max-fps -1",
            "--max-fps fast",
            "--max-fps",
        ] {
            let e = parse_args(&args(bad)).unwrap_err();
            assert!(e.contains("--max-fps"), "{bad}: {e}");
        }
    }

    #[test]
    fn gen_options() {
        let Ok(Command::Gen(g)) = parse_args(&args(
            "gen --preset a.ron --seed hello --size 80x30 --ascii - --stats",
        )) else {
            panic!()
        };
        assert_eq!(g.preset, Some("a.ron".into()));
        assert_eq!(g.seed, Some(seed_from_text("hello")));
        assert_eq!(g.size, Some((80, 30)));
        assert_eq!(g.ascii.as_deref(), Some("-"));
        assert!(g.stats);
    }

    #[test]
    fn bad_options_are_errors() {
        assert!(
            parse_args(&args("gen --size 0x10"))
                .unwrap_err()
                .contains("width")
        );
        assert!(
            parse_args(&args("gen --size 99999x10"))
                .unwrap_err()
                .contains("16384")
        );
        assert!(
            parse_args(&args("gen --size big"))
                .unwrap_err()
                .contains("--size")
        );
        assert!(
            parse_args(&args("gen --seed"))
                .unwrap_err()
                .contains("needs a value")
        );
        assert!(
            parse_args(&args("gen --frames 3"))
                .unwrap_err()
                .contains("unknown option")
        );
        assert!(parse_args(&args("play --frames x")).is_err());
    }

    #[test]
    fn worlds_from_text() {
        let art = "#      ~\n".repeat(7) + "########\n";
        let w = world_from_text(&art, Preset::default(), 9).unwrap();
        assert_eq!((w.width(), w.height(), w.seed), (8, 8, 9));
        assert_eq!(w.tile(7, 0), crate::world::Tile::Water);
        assert_eq!((w.preset.width, w.preset.height), (8, 8));
        let ragged = art.replacen("#      ~", "#  ~", 1);
        let unknown = art.replacen('~', "?", 1);
        for bad in ["", "#\n", &ragged, &unknown] {
            assert!(
                world_from_text(bad, Preset::default(), 0).is_err(),
                "{bad:?}"
            );
        }
        let Ok(Command::Gen(g)) = parse_args(&args("gen --from-ascii w.txt --save s.strata"))
        else {
            panic!()
        };
        assert_eq!(g.from_ascii, Some("w.txt".into()));
    }

    #[cfg(target_os = "linux")]
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
