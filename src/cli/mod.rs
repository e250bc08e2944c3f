//! Command-line parsing (pure) and the headless `gen` command.

use crate::base::fsio;
use crate::base::paths::Folders;
use crate::base::rng::seed_from_text;
use crate::content::preset::{self, Preset};
use crate::launch::{DEFAULT_PRESET, builtin_preset, load_preset, random_seed};
use std::path::PathBuf;

/// What `strata --help` shows after the options.
const EXAMPLES: &str = "\
Examples:
  strata                                  play on the default preset, a random seed
  strata play --preset large --seed hello
  strata gen --preset classic --size 80x30 --ascii -
  strata gen --preset large --seed 42 --stats --png world.png
  strata gen --preset default --until caves --png caves.png   the world after the caves pass
  strata noise --field surface --octave 2 --png octave2.png
  strata noise --field caves.fill_variation --basis Simplex --png fill.png
  strata presets                          the built-in presets and your own
  strata completions bash > ~/.local/share/bash-completion/completions/strata

Files: saves, your presets and settings live in the platform's data and config folders
(`strata presets` prints the presets folder); STRATA_HOME=DIR or --home DIR keeps them
all in DIR.";

const PRESET_HELP: &str = "A preset file, or the name of one of your presets or of a built-in preset \
(`strata presets`); default: config/presets/default.ron if there is one, else the built-in default";
const SEED_HELP: &str =
    "A number 0..=18446744073709551615 is used as is; any other text is hashed; default: random";
const HOME_HELP: &str = "Keep saves, presets and settings in DIR (as STRATA_HOME=DIR does)";

/// The `--ascii` legend, in `strata gen --help`.
const ASCII_HELP: &str = "\
Write the world as text, one character a tile; '-' is stdout:
  ' ' air  '.' dirt  '#' stone  'w' grass  'c' copper  'i' iron
  'v' silver  'g' gold  'D' diamond  'h' hellstone  '~' water  'L' lava
  'O' obsidian  's' sand  'S' sandstone  '*' snow  'I' ice  'm' mud
  'j' jungle grass  'a' ash  '|' tree trunk  '%' leaves  'k' cactus
  'W' wood  't' torch  'B' workbench  'F' furnace  'V' anvil  'C' chest
  'd' closed door  'o' open door  '-' platform  'T' table  'r' chair  'b' bed
  'R' rope  'H' life crystal  'E' eye trophy  'n' tin  'l' lead  'u' tungsten
  'p' platinum  'z' hardened sand  'q' corrupt grass  'e' ebonstone
  'N' demonite ore  'x' shadow orb  'U' dungeon brick  '^' spike  'Z' cloud";

/// The command line: `strata [play] [OPTIONS]`, `strata gen [OPTIONS]`, ...
#[derive(clap::Parser, Debug)]
#[command(
    name = "strata",
    version,
    about = "Strata: a procedural 2D sandbox",
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// `strata` alone plays: the play options without `play`.
    #[command(flatten)]
    play: PlayArgs,
}

/// A command to run.
#[derive(clap::Subcommand, Clone, Debug, PartialEq)]
pub enum Command {
    /// Open the game (also `strata` alone)
    #[cfg_attr(
        not(feature = "game"),
        command(about = "Open the game: not in this build, which has no game window")
    )]
    Play(PlayArgs),
    /// Make a world without a window and write it out
    Gen(GenOptions),
    /// List the built-in presets, with their sizes, and your own
    Presets {
        #[arg(long, value_name = "DIR", help = HOME_HELP, value_parser = home_parser())]
        home: Option<PathBuf>,
    },
    /// Print the content the game plays with: counts of items, recipes, loot and town,
    /// and each file (built-in, rules, mods; a mod refused with why)
    Content {
        #[arg(long, value_name = "DIR", help = HOME_HELP, value_parser = home_parser())]
        home: Option<PathBuf>,
    },
    /// Print a completion script for a shell
    /// (e.g. `strata completions bash > ~/.local/share/bash-completion/completions/strata`)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Write a noise field the generation passes read as a greyscale PNG
    Noise(NoiseOptions),
    /// Run a dedicated server (no window): others join it with `strata play --join`
    Serve(Box<serve::ServeArgs>),
    /// Join a server with headless bots that play at random, then print what each saw
    Bots(serve::BotsArgs),
}

/// What the arguments ask for (made once a run: the size of its largest variant is no
/// cost).
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Parsed {
    Run(Command),
    /// Help or the version: printed as it is, exit status 0.
    Print(String),
}

/// Options of `strata gen`.
#[derive(clap::Args, Clone, Debug, Default, PartialEq)]
pub struct GenOptions {
    #[arg(long, value_name = "PRESET", help = PRESET_HELP)]
    pub preset: Option<PathBuf>,
    #[arg(long, value_name = "SEED", help = SEED_HELP, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Override the preset's world size
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    #[arg(long, value_name = "PATH|-", help = "Write the world as text, one character a tile ('-': stdout)", long_help = ASCII_HELP)]
    pub ascii: Option<String>,
    /// Write each column's surface row (0 = top), one number a line, left to right
    #[arg(long, value_name = "PATH|-")]
    pub surface: Option<String>,
    /// Write the world as a PNG, one pixel per tile
    #[arg(long, value_name = "PATH")]
    pub png: Option<PathBuf>,
    /// Print generation and connectivity stats as one JSON object
    #[arg(long)]
    pub stats: bool,
    /// Write a save file that `strata play --load` opens
    #[arg(long, value_name = "PATH")]
    pub save: Option<PathBuf>,
    /// Take the world from text in the --ascii legend instead of generating it (a
    /// hand-drawn world to play or test in; its size is the text's, and the preset is only
    /// recorded)
    #[arg(long, value_name = "PATH", conflicts_with = "size")]
    pub from_ascii: Option<PathBuf>,
    /// Put wall WALL (wood, stone_brick, dirt, ...) behind every tile of the box from
    /// (X0, Y0) to (X1, Y1), corners included; may be given more than once (houses in a
    /// hand-drawn world)
    #[arg(long = "wall", value_name = "WALL:X0,Y0,X1,Y1", value_parser = parse_wall_box)]
    pub walls: Vec<WallBox>,
    /// Give the saved player N of item ITEM (config/items.ron's names) beside a new
    /// player's things; may be given more than once (with --save)
    #[arg(long = "give", value_name = "ITEM:N", value_parser = parse_give, requires = "save")]
    pub give: Vec<(String, u32)>,
    /// Stand the saved player in column X on the first ground from the top there (or,
    /// with Y, the first place to stand at or below row Y: a cave's floor) instead of the
    /// world's spawn point in the middle (with --save)
    #[arg(long = "at", value_name = "X[,Y]", value_parser = parse_at, requires = "save")]
    pub at: Option<(u32, u32)>,
    /// With --png: only the box from (X0, Y0) to (X1, Y1), corners included, or the box of
    /// a landmark, KIND[:N] (dungeon, evil, island, cabin; the Nth of its kind, from 1)
    /// with 12 tiles round it
    #[arg(long, value_name = "X0,Y0,X1,Y1|KIND[:N]", requires = "png")]
    pub crop: Option<String>,
    /// With --png: pixels a tile along each side, 1..=8
    #[arg(long, value_name = "N", requires = "png", value_parser = clap::value_parser!(u32).range(1..=8))]
    pub zoom: Option<u32>,
    /// Stop after the pass PASS (surface, layers, biomes, caves, ...): the world as it
    /// stands then; each pass's time goes to standard error
    #[arg(long, value_name = "PASS")]
    pub until: Option<String>,
    #[arg(long, value_name = "DIR", help = HOME_HELP, value_parser = home_parser())]
    pub home: Option<PathBuf>,
}

/// Options of `strata noise`.
#[derive(clap::Args, Clone, Debug, Default, PartialEq)]
pub struct NoiseOptions {
    /// The field: surface, surface.relief, layers.wander, caves.fill_variation,
    /// ores.iron_ore, trees.groves, ... (a wrong name lists them all)
    #[arg(long, value_name = "NAME")]
    pub field: String,
    /// One octave of an fBm field (surface, surface.relief), 0 the first
    #[arg(long, value_name = "K")]
    pub octave: Option<u32>,
    /// The noise basis to draw it in: Perlin, Simplex (OpenSimplex2) or Value; default:
    /// the one the preset names for the field
    #[arg(long, value_name = "BASIS", value_parser = parse_basis)]
    pub basis: Option<crate::base::noise::Basis>,
    /// Where to write the greyscale PNG (a pixel a tile; black -1, white 1)
    #[arg(long, value_name = "PATH")]
    pub png: PathBuf,
    #[arg(long, value_name = "PRESET", help = PRESET_HELP)]
    pub preset: Option<PathBuf>,
    #[arg(long, value_name = "SEED", help = SEED_HELP, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Override the preset's world size
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    #[arg(long, value_name = "DIR", help = HOME_HELP, value_parser = home_parser())]
    pub home: Option<PathBuf>,
}

/// A basis by name, any case.
fn parse_basis(s: &str) -> Result<crate::base::noise::Basis, String> {
    crate::base::noise::Basis::named(s)
        .ok_or_else(|| format!("no basis called {s:?}: Perlin, Simplex or Value"))
}

/// Runs `strata noise`.
pub fn run_noise(opts: &NoiseOptions, folders: &Folders) -> Result<(), String> {
    let mut preset = load_preset(opts.preset.as_ref(), &folders.presets)?;
    if let Some((w, h)) = opts.size {
        preset.width = w;
        preset.height = h;
    }
    let seed = opts.seed.unwrap_or_else(random_seed);
    // The name and octave are checked before any file is touched.
    let how = (opts.octave, opts.basis);
    crate::worldgen::noisemap::sample(&preset, seed, &opts.field, how, (0, 0, 1, 1, 1))?;
    let mut failed = None;
    fsio::write_file(&opts.png, |f| {
        crate::worldgen::noisemap::write_png(&preset, seed, &opts.field, how, f).map_err(|e| {
            failed = Some(e.clone());
            std::io::Error::other(e)
        })
    })
    .map_err(|e| failed.unwrap_or_else(|| e.to_string()))
}

/// Each pass's time, for standard error: `surface 5.1 ms, layers 2.0 ms, ...`.
pub fn pass_times(timings: &[crate::worldgen::PassTiming]) -> String {
    let parts: Vec<String> = timings
        .iter()
        .map(|t| format!("{} {:.1} ms", t.name, t.ms))
        .collect();
    let total: f64 = timings.iter().map(|t| t.ms).sum();
    format!("{} (passes {total:.1} ms)", parts.join(", "))
}

/// Options of `strata play`, as the command line spells them ([`PlayArgs::options`]:
/// what the game is asked to do).
#[derive(clap::Args, Clone, Debug, Default, PartialEq)]
pub struct PlayArgs {
    #[arg(long, value_name = "PRESET", help = PRESET_HELP)]
    pub preset: Option<PathBuf>,
    #[arg(long, value_name = "SEED", help = SEED_HELP, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Start the game from a save file (it holds its own preset and seed)
    #[arg(long, value_name = "PATH")]
    pub load: Option<PathBuf>,
    /// Render N frames, then exit (with --screenshot: write it first)
    #[arg(long, value_name = "N", value_parser = parse_frames, allow_negative_numbers = true)]
    pub frames: Option<u64>,
    /// Write a PNG of the last frame
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
    /// Frames per second at most (default 60, as Terraria; 0 = no cap)
    #[arg(long, value_name = "N", value_parser = parse_max_fps, allow_negative_numbers = true)]
    pub max_fps: Option<u32>,
    #[arg(long, value_name = "DIR", help = HOME_HELP, value_parser = home_parser())]
    pub home: Option<PathBuf>,
    /// Join the server at HOST[:PORT] (port 7777 unless given) instead of playing alone
    #[arg(long, value_name = "HOST[:PORT]", conflicts_with_all = ["load", "preset", "seed"], requires = "name")]
    pub join: Option<String>,
    /// The name to join as (the server keeps your character under it)
    #[arg(long, value_name = "NAME", requires = "join")]
    pub name: Option<String>,
    /// The password that keeps your character on the server
    #[arg(long, value_name = "P", default_value = "", requires = "join")]
    pub password: String,
    /// The server's own password, if it has one
    #[arg(long, value_name = "P", default_value = "", requires = "join")]
    pub server_password: String,
    /// Play as this character (its file in the characters folder; made when new): with
    /// --seed or --load in that world, else the start screen's worlds for it
    #[arg(long, value_name = "NAME", conflicts_with = "join")]
    pub character: Option<String>,
    /// For measuring: keep N creatures in view round the player, who is kept alive (a
    /// developer's option; 0..=500)
    #[arg(long, value_name = "N", value_parser = parse_creatures, conflicts_with = "join")]
    pub creatures: Option<u32>,
}

impl PlayArgs {
    /// What the game is asked to do (the data folder, `--home`, is resolved apart:
    /// [`Folders::for_run`]).
    pub fn options(&self) -> crate::launch::PlayOptions {
        crate::launch::PlayOptions {
            preset: self.preset.clone(),
            seed: self.seed,
            load: self.load.clone(),
            frames: self.frames,
            screenshot: self.screenshot.clone(),
            max_fps: self.max_fps,
            join: self.join.clone(),
            name: self.name.clone(),
            password: self.password.clone(),
            server_password: self.server_password.clone(),
            character: self.character.clone(),
            creatures: self.creatures,
        }
    }
}

/// Highest `--max-fps` accepted.
pub const MAX_FPS_LIMIT: u32 = 1000;

/// Parses `WxH` (`--size`).
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || "expected WIDTHxHEIGHT such as 800x300".to_string();
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h) = (
        w.trim().parse::<u32>().map_err(|_| bad())?,
        h.trim().parse::<u32>().map_err(|_| bad())?,
    );
    preset::check_size(w, h).map_err(|e| e.to_string())?;
    Ok((w, h))
}

/// One `--wall` box: a wall and the tiles `(x0, y0)..=(x1, y1)` it goes behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallBox {
    pub wall: crate::world::Wall,
    pub from: (usize, usize),
    pub to: (usize, usize),
}

/// Tiles round a landmark that `--crop KIND` shows.
const CROP_MARGIN: usize = 12;

/// `--crop X0,Y0,X1,Y1` or `--crop KIND[:N]` in `world`: an inclusive box inside it.
pub fn crop_box(
    world: &crate::world::World,
    text: &str,
) -> Result<(usize, usize, usize, usize), String> {
    use crate::world::structure::StructureKind;
    let (w, h) = (world.width(), world.height());
    let numbers: Result<Vec<usize>, _> =
        text.split(',').map(|v| v.trim().parse::<usize>()).collect();
    if let Ok(n) = numbers {
        let [x0, y0, x1, y1] = n[..] else {
            return Err(format!(
                "--crop {text:?}: expected X0,Y0,X1,Y1 or a landmark such as dungeon or island:2"
            ));
        };
        if x0 > x1 || y0 > y1 || x1 >= w || y1 >= h {
            return Err(format!(
                "--crop {text:?}: the box must lie in the {w}x{h} world, X0 <= X1, Y0 <= Y1"
            ));
        }
        return Ok((x0, y0, x1, y1));
    }
    let (name, nth) = match text.split_once(':') {
        Some((k, n)) => (
            k,
            n.trim()
                .parse::<usize>()
                .map_err(|_| format!("--crop {text:?}: N is a whole number from 1"))?,
        ),
        None => (text, 1),
    };
    let names: Vec<&str> = StructureKind::ALL.iter().map(|k| k.name()).collect();
    let kind = StructureKind::ALL
        .into_iter()
        .find(|k| k.name() == name.trim())
        .ok_or_else(|| {
            format!(
                "--crop {text:?}: no landmark kind {name:?}; the kinds are {}",
                names.join(", ")
            )
        })?;
    let found: Vec<_> = world.structures.iter().filter(|s| s.kind == kind).collect();
    let s = found
        .get(nth.wrapping_sub(1))
        .ok_or_else(|| format!("--crop {text:?}: this world has {} of them", found.len()))?;
    let m = CROP_MARGIN;
    Ok((
        (s.x as usize).saturating_sub(m),
        (s.y as usize).saturating_sub(m),
        ((s.x + s.w) as usize + m).min(w - 1),
        ((s.y + s.h) as usize + m).min(h - 1),
    ))
}

/// `--wall WALL:X0,Y0,X1,Y1`.
pub fn parse_wall_box(text: &str) -> Result<WallBox, String> {
    let bad = || format!("{text:?}: expected WALL:X0,Y0,X1,Y1 such as wood:10,5,20,9");
    let (name, rest) = text.split_once(':').ok_or_else(bad)?;
    let wall = crate::world::Wall::named(name.trim())
        .filter(|w| w.is_some())
        .ok_or_else(|| {
            let all: Vec<&str> = crate::base::wall::WALLS[1..]
                .iter()
                .map(|w| w.name)
                .collect();
            format!("{name:?} is not a wall: allowed {}", all.join(", "))
        })?;
    let n: Vec<usize> = rest
        .split(',')
        .map(|v| v.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    let [x0, y0, x1, y1] = n[..] else {
        return Err(bad());
    };
    if x0 > x1 || y0 > y1 {
        return Err(format!("{text:?}: X0 must be at most X1 and Y0 at most Y1"));
    }
    Ok(WallBox {
        wall,
        from: (x0, y0),
        to: (x1, y1),
    })
}

/// `--give ITEM:N`: an item of the catalog and a count of at least 1.
pub fn parse_give(text: &str) -> Result<(String, u32), String> {
    let bad = || format!("{text:?}: expected ITEM:N such as copper_coin:50");
    let (name, n) = text.split_once(':').ok_or_else(bad)?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 {
        return Err(format!("{text:?}: N must be at least 1"));
    }
    let name = name.trim();
    // Whether it names an item is asked of the content the world is made with (mods
    // included), once the data folder is known: [`given_player`].
    Ok((name.to_string(), n))
}

/// `--at X[,Y]`: a column and the row to look for ground from (0 without Y).
pub fn parse_at(text: &str) -> Result<(u32, u32), String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("{t:?} is not a number 0..=4294967295: give X or X,Y"))
    };
    match text.split_once(',') {
        Some((x, y)) => Ok((number(x)?, number(y)?)),
        None => Ok((number(text)?, 0)),
    }
}

/// Where the saved player stands: in column `at.0` on the first ground at or below row
/// `at.1` (`--at`), or at the world's spawn point.
fn saved_player_at(
    world: &crate::world::World,
    at: Option<(u32, u32)>,
) -> Result<(f32, f32), String> {
    let Some((x, y)) = at else {
        return Ok(crate::sim::player::spawn_point(world));
    };
    if x as usize >= world.width() || y as usize >= world.height() {
        return Err(format!(
            "--at {x},{y}: the world is {}x{} tiles (columns 0..={}, rows 0..={})",
            world.width(),
            world.height(),
            world.width().saturating_sub(1),
            world.height().saturating_sub(1)
        ));
    }
    crate::sim::player::stand_at(world, x as f32 + 0.5, y as usize)
        .ok_or_else(|| format!("--at {x},{y}: nowhere to stand in column {x} from row {y} down"))
}

/// A new player at `pos` given the `--give` items, or which did not fit.
/// Does every `--give` item name an item of `content` (built-in or a mod's)?
fn known_gifts(
    give: &[(String, u32)],
    content: &crate::content::config::Content,
) -> Result<(), String> {
    match give
        .iter()
        .find(|(name, _)| content.catalog.id(name).is_none())
    {
        Some((name, n)) => Err(format!(
            "--give {name}:{n}: {name:?} is not an item of config/items.ron or a mod"
        )),
        None => Ok(()),
    }
}

fn given_player(
    pos: (f32, f32),
    give: &[(String, u32)],
    content: &crate::content::config::Content,
) -> Result<crate::store::save::PlayerState, String> {
    known_gifts(give, content)?;
    let mut player = crate::store::save::PlayerState::starting(pos, content);
    for (name, n) in give {
        let lost = player.inventory.add(name.as_str(), *n);
        if lost > 0 {
            return Err(format!(
                "--give {name}:{n}: {lost} of them do not fit in the inventory"
            ));
        }
    }
    crate::sim::coins::settle(&mut player.inventory, &content.town.coins);
    Ok(player)
}

/// Puts each `--wall` box's wall into `world`, or names the first box outside it.
fn put_walls(world: &mut crate::world::World, boxes: &[WallBox]) -> Result<(), String> {
    let (w, h) = (world.width(), world.height());
    for b in boxes {
        if b.to.0 >= w || b.to.1 >= h {
            return Err(format!(
                "--wall {}:{},{},{},{} reaches outside the {w}x{h} world (x 0..={}, y 0..={})",
                b.wall.name(),
                b.from.0,
                b.from.1,
                b.to.0,
                b.to.1,
                w - 1,
                h - 1
            ));
        }
        for y in b.from.1..=b.to.1 {
            for x in b.from.0..=b.to.0 {
                world.set_wall(x, y, b.wall);
            }
        }
    }
    Ok(())
}

/// `--home`: any path, and an empty one (`--home ''`) too, which counts as not given (as an
/// empty `STRATA_HOME` does; see [`crate::base::paths::resolve`]).
fn home_parser() -> impl clap::builder::TypedValueParser<Value = PathBuf> {
    use clap::builder::TypedValueParser;
    clap::builder::OsStringValueParser::new().map(PathBuf::from)
}

/// `--seed`: a whole number as is, any other text hashed.
fn parse_seed(text: &str) -> Result<u64, String> {
    Ok(seed_from_text(text))
}

fn parse_max_fps(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&n| n <= MAX_FPS_LIMIT)
        .ok_or_else(|| format!("expected a whole number 0..={MAX_FPS_LIMIT}"))
}

/// Most creatures `--creatures` keeps in view.
pub const MAX_CROWD: u32 = 500;

fn parse_creatures(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&n| n <= MAX_CROWD)
        .ok_or_else(|| format!("expected a whole number 0..={MAX_CROWD}"))
}

fn parse_frames(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .map_err(|_| format!("expected a whole number 0..={}", u64::MAX))
}

/// The clap definition of the whole command line (for help and completions).
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Parses the arguments after the program name. Bad input is one line naming the option
/// and what it takes.
pub fn parse_args(args: &[String]) -> Result<Parsed, String> {
    use clap::error::ErrorKind;
    let argv = std::iter::once("strata").chain(args.iter().map(String::as_str));
    let cli = match <Cli as clap::Parser>::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            return match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    Ok(Parsed::Print(e.render().to_string()))
                }
                _ => Err(one_line(&e, args)),
            };
        }
    };
    let command = cli.command.unwrap_or(Command::Play(cli.play));
    if let Command::Play(play) = &command
        && play.load.is_some()
        && (play.preset.is_some() || play.seed.is_some())
    {
        return Err(
            "--load starts from a save, which holds its own preset and seed: give --load \
             without --preset and --seed"
                .into(),
        );
    }
    Ok(Parsed::Run(command))
}

/// A clap error as one line: an unknown option names the command it is unknown to (and
/// clap's suggestion, if any); anything else is clap's first line (`invalid value 'x' for
/// '--size <WxH>': expected ...`, `a value is required for '--seed <SEED>' ...`).
fn one_line(e: &clap::Error, args: &[String]) -> String {
    use clap::error::{ContextKind, ErrorKind};
    let context = |kind| e.get(kind).map(|v| v.to_string());
    if e.kind() == ErrorKind::UnknownArgument
        && let Some(arg) = context(ContextKind::InvalidArg)
    {
        // The command the option was given to: the first argument when it names one.
        let sub = args
            .first()
            .filter(|a| command().get_subcommands().any(|c| c.get_name() == *a))
            .map_or("play", String::as_str);
        let hint = context(ContextKind::SuggestedArg)
            .map(|s| format!(" (did you mean '{s}'?)"))
            .unwrap_or_default();
        let what = if arg.starts_with('-') {
            "option"
        } else {
            "argument"
        };
        return format!(
            "unknown {what} '{arg}' for `strata {sub}`{hint}: see `strata {sub} --help`"
        );
    }
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or("bad arguments");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let choices = match e.kind() {
        ErrorKind::InvalidSubcommand => Some(format!(
            "commands: {}",
            command()
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        ErrorKind::MissingRequiredArgument => context(ContextKind::InvalidArg),
        _ => context(ContextKind::ValidValue)
            .filter(|v| !v.is_empty())
            .map(|v| format!("possible values: {v}")),
    };
    match choices {
        Some(c) => format!("{first} ({c})"),
        None => first.to_string(),
    }
}

/// Writes the completion script for `shell` to standard output.
pub fn completions(shell: clap_complete::Shell) -> Result<(), String> {
    fsio::write_stdout(|out| {
        clap_complete::generate(shell, &mut command(), "strata", out);
        Ok(())
    })
    .map_err(String::from)
}

/// What `strata content` prints: the counts and files of the content the game plays with
/// (the built-in files, the rules file `STRATA_RULES` names, the mods folder), then each
/// rules or mod file read, applied or skipped with why.
pub fn content_listing(folders: &Folders) -> String {
    let rules = std::env::var_os("STRATA_RULES");
    let mods = &folders.mods;
    let (content, outcomes) =
        crate::content::config::Content::gather(rules.as_deref().map(std::path::Path::new), mods);
    let mut out = String::new();
    for line in content.summary() {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&format!("Mods folder: {}\n", mods.display()));
    if outcomes.is_empty() {
        out.push_str("  (no mods)\n");
    }
    for o in outcomes {
        match o.result {
            Ok(()) => out.push_str(&format!("  applied {}\n", o.path.display())),
            Err(e) => out.push_str(&format!("  skipped {}: {e}\n", o.path.display())),
        }
    }
    out
}

/// What `strata presets` prints: the built-in presets with their sizes, the player's
/// presets folder and its presets, then the preset files of `config/presets` in the
/// working folder, if it has one.
pub fn presets_listing(folders: &Folders) -> String {
    let mut out = String::from("Built-in presets (--preset NAME):\n");
    for (name, _) in preset::BUILTIN {
        if let Ok(p) = builtin_preset(name) {
            out.push_str(&format!(
                "  {name:<10} {:>5} x {:<5} {}\n",
                p.width, p.height, p.name
            ));
        }
    }
    let user_dir = folders.presets.clone();
    let mine = preset::files_in(&user_dir);
    if mine.is_empty() {
        out.push_str(&format!(
            "Your presets: none yet (NAME.ron files in {} are listed here)\n",
            shown(&user_dir)
        ));
    } else {
        out.push_str(&format!(
            "Your presets in {} (--preset NAME):\n",
            shown(&user_dir)
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
            shown(dir)
        ));
        list_files(&mut out, &files);
    }
    out
}

/// One line per preset file: its path, size and name, or why it does not load. What comes
/// from the folder or the file (names, messages quoting its text) is [`printable`].
fn list_files(out: &mut String, files: &[PathBuf]) {
    for f in files {
        match preset::load(f) {
            Ok(p) => out.push_str(&format!(
                "  {:<32} {:>5} x {:<5} {}\n",
                shown(f),
                p.width,
                p.height,
                printable(&p.name)
            )),
            Err(e) => out.push_str(&format!(
                "  {:<32} does not load: {}\n",
                shown(f),
                printable(&e.to_string())
            )),
        }
    }
}

/// A path as [`printable`] text.
fn shown(path: &std::path::Path) -> String {
    printable(&path.display().to_string())
}

/// `text` safe to print on one line of a terminal: control characters (a newline, an
/// escape sequence's ESC) and the marks that reorder text (U+202A..U+202E,
/// U+2066..U+2069) are written as Rust escapes (`\n`, `\u{1b}`); the rest is unchanged.
pub fn printable(text: &str) -> String {
    let reorders = |c: char| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !text.chars().any(|c| c.is_control() || reorders(c)) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() || reorders(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

pub mod fuzz;
pub mod serve;

/// What `strata play` (and `strata` alone) says in a build without the game window, the
/// cargo feature `game`, before exiting with status 1.
#[cfg(not(feature = "game"))]
pub const NO_WINDOW: &str = "this strata was built without its game window (cargo feature \
    `game`): `strata gen`, `presets`, `noise`, `serve` and `bots` work; to play, build it \
    with the default features";

/// Runs `strata gen`.
pub fn run_gen(opts: &GenOptions, folders: &Folders) -> Result<(), String> {
    check_distinct_outputs(opts)?;
    let mut preset = load_preset(opts.preset.as_ref(), &folders.presets)?;
    if let Some((w, h)) = opts.size {
        preset.width = w;
        preset.height = h;
    }
    let seed = opts.seed.unwrap_or_else(random_seed);
    let content = crate::content::config::Content::from_env(&folders.mods);
    // A `--give` item the content does not have is refused before the world is made.
    known_gifts(&opts.give, &content)?;
    let until = opts
        .until
        .as_deref()
        .map(crate::worldgen::pass_named)
        .transpose()?;
    let (world, timings) = match (&opts.from_ascii, until) {
        (Some(_), Some(_)) => return Err("--until and --from-ascii do not go together".into()),
        (Some(path), None) => (world_from_text_file(path, preset, seed)?, Vec::new()),
        (None, None) => crate::worldgen::generate_for(&preset, seed, &content),
        (None, Some(last)) => {
            let never = std::sync::atomic::AtomicBool::new(false);
            let made =
                crate::worldgen::generate_until(&preset, seed, &content, last, &mut |_| {}, &never)
                    .ok_or("generation stopped")?;
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "strata: stopped after {} (pass {} of {}): {}",
                crate::worldgen::PASSES[last].name,
                last + 1,
                crate::worldgen::PASSES.len(),
                pass_times(&made.1)
            );
            made
        }
    };
    let mut world = world;
    put_walls(&mut world, &opts.walls)?;
    // Connectivity packs the finished world's air; the stats count and hash its tiles in
    // the same sweep, a band of rows at a time while it is in cache.
    let start = std::time::Instant::now();
    let (grid, bands) = crate::analysis::AirGrid::of_with(&world, |_, rows| {
        opts.stats
            .then(|| crate::store::export::Tally::band(rows, world.width()))
    });
    let report = crate::analysis::analyse_air(&grid);
    let analysis_ms = start.elapsed().as_secs_f64() * 1e3;
    let tally = opts.stats.then(|| {
        crate::store::export::Tally::from_bands(&world, bands.into_iter().flatten().collect())
    });
    let write_text =
        |target: &str, write: &dyn Fn(&mut dyn std::io::Write) -> std::io::Result<()>| {
            if target == "-" {
                fsio::write_stdout(write)
            } else {
                fsio::write_file(target.as_ref(), |f| write(f))
            }
        };
    if let Some(target) = &opts.ascii {
        write_text(target, &|f| crate::store::export::write_ascii(&world, f))?;
    }
    if let Some(target) = &opts.surface {
        write_text(target, &|f| crate::store::export::write_surface(&world, f))?;
    }
    if let Some(path) = &opts.png {
        let area = match &opts.crop {
            Some(text) => crop_box(&world, text)?,
            None => (0, 0, world.width() - 1, world.height() - 1),
        };
        let zoom = opts.zoom.unwrap_or(1) as usize;
        fsio::write_file(path, |f| {
            crate::store::export::write_png_box(&world, area, zoom, f)
        })?;
    }
    if let Some(tally) = &tally {
        let json = crate::store::export::stats_json(&world, &timings, &report, analysis_ms, tally);
        fsio::print_stdout(&(json + "\n"))?;
    }
    if let Some(path) = &opts.save {
        let player = given_player(saved_player_at(&world, opts.at)?, &opts.give, &content)?;
        crate::store::save::save(path, &world, &player)?;
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
    // An output never replaces an input: the files are compared (their real paths, and
    // on Unix their device and inode, so a hard link or another spelling is caught), not
    // the names.
    let inputs = [
        ("--preset", opts.preset.as_deref()),
        ("--from-ascii", opts.from_ascii.as_deref()),
    ];
    for (input, path) in inputs.iter().filter_map(|&(f, p)| Some((f, p?))) {
        let Ok(meta) = std::fs::metadata(path) else {
            continue;
        };
        let key = same_file_key(path);
        for (flag, out) in named.iter().filter_map(|&(f, p)| Some((f, p?))) {
            if out.as_os_str() == "-" || fsio::is_stdout_alias(out) || !meta.is_file() {
                continue;
            }
            let same = same_file_key(out) == key
                || std::fs::metadata(out).is_ok_and(|m| same_inode(&m, &meta));
            if same {
                return Err(format!(
                    "{flag} {} would replace the input {input} {}: write it to another file",
                    out.display(),
                    path.display()
                ));
            }
        }
    }
    Ok(())
}

/// Are two files' metadata one file's (the same device and inode)?
#[cfg(unix)]
fn same_inode(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_inode(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
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

/// A world drawn as text in the `--ascii` legend, one line a row (for `--from-ascii`);
/// see [`crate::store::export::read_ascii`].
pub fn world_from_text(
    text: &str,
    preset: Preset,
    seed: u64,
) -> Result<crate::world::World, String> {
    let world = crate::store::export::read_ascii::world_from_ascii(text.as_bytes())?;
    Ok(drawn_world(world, preset, seed))
}

/// A drawn world with the preset it is recorded with (at its size) and its seed.
fn drawn_world(
    mut world: crate::world::World,
    mut preset: Preset,
    seed: u64,
) -> crate::world::World {
    (preset.width, preset.height) = (world.width() as u32, world.height() as u32);
    world.seed = seed;
    world.preset = preset;
    world
}

/// [`world_from_text`] of a file, read as it comes: the first fault stops the read
/// (`/dev/zero` is refused at its first byte), and no more is read than the largest world
/// as wide as the first line takes.
fn world_from_text_file(
    path: &std::path::Path,
    preset: Preset,
    seed: u64,
) -> Result<crate::world::World, String> {
    use crate::store::export::read_ascii::AsciiReader;
    let at = |e: String| format!("{}:{e}", shown(path));
    let reader = std::cell::RefCell::new(AsciiReader::new());
    let fault = std::cell::RefCell::new(None);
    let head = reader.borrow().head();
    let limit_of = |bytes: &[u8]| {
        let mut r = reader.borrow_mut();
        match r.feed(bytes) {
            Ok(()) => r.limit(),
            Err(e) => {
                *fault.borrow_mut() = Some(e);
                0
            }
        }
    };
    let read = fsio::read_bounded_by(path, head, limit_of);
    if let Some(e) = fault.borrow_mut().take() {
        return Err(at(e));
    }
    let bytes = read.map_err(|e| {
        let why = match e {
            fsio::ReadError::TooLarge(limit) => {
                format!("more than {limit} bytes, the most a world as wide as line 1 takes")
            }
            e => e.to_string(),
        };
        format!("{}: {why}", shown(path))
    })?;
    let world = reader.into_inner().finish(&bytes).map_err(at)?;
    Ok(drawn_world(world, preset, seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The player's folders as a run without `--home` finds them.
    fn home() -> Folders {
        Folders::for_run(None)
    }

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn bare_binary_plays() {
        assert_eq!(
            parse_args(&[]),
            Ok(Parsed::Run(Command::Play(PlayArgs::default())))
        );
        let Ok(Parsed::Run(Command::Play(p))) = parse_args(&args("--seed 7 --frames 3")) else {
            panic!()
        };
        assert_eq!((p.seed, p.frames), (Some(7), Some(3)));
        let Ok(Parsed::Run(Command::Play(p))) = parse_args(&args("--creatures 30")) else {
            panic!("--creatures parses");
        };
        assert_eq!(p.options().creatures, Some(30));
        let e = parse_args(&args("play --creatures 501")).unwrap_err();
        assert!(e.contains("0..=500"), "{e}");
        assert_eq!(p.max_fps, None);
        let Ok(Parsed::Run(Command::Play(j))) =
            parse_args(&args("play --join 127.0.0.1:7000 --name Ann --password pw"))
        else {
            panic!("play --join did not parse");
        };
        assert_eq!(
            (j.join.as_deref(), j.name.as_deref(), j.password.as_str()),
            (Some("127.0.0.1:7000"), Some("Ann"), "pw")
        );
        // A join needs a name, and plays the server's world, not one of its own.
        assert!(parse_args(&args("play --join h")).is_err());
        assert!(parse_args(&args("play --name Ann")).is_err());
        assert!(parse_args(&args("play --join h --name A --seed 3")).is_err());
        // A character of the window's own plays in a world of the window's own.
        let Ok(Parsed::Run(Command::Play(c))) = parse_args(&args("play --seed 3 --character Ann"))
        else {
            panic!("play --character did not parse");
        };
        assert_eq!(c.options().character.as_deref(), Some("Ann"));
        assert!(parse_args(&args("play --join h --name A --character B")).is_err());
        let Ok(Parsed::Run(Command::Play(p))) = parse_args(&args("play --max-fps 0")) else {
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
        let Ok(Parsed::Run(Command::Gen(g))) = parse_args(&args(
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
    fn until_and_noise_options() {
        let Ok(Parsed::Run(Command::Gen(g))) = parse_args(&args("gen --until caves --png c.png"))
        else {
            panic!()
        };
        assert_eq!(g.until.as_deref(), Some("caves"));
        let Ok(Parsed::Run(Command::Noise(n))) = parse_args(&args(
            "noise --field surface --octave 2 --png o.png --preset large --seed 5 --size 64x32 \
             --basis simplex",
        )) else {
            panic!()
        };
        assert_eq!(
            (n.field.as_str(), n.octave, n.seed, n.size, n.basis),
            (
                "surface",
                Some(2),
                Some(5),
                Some((64, 32)),
                Some(crate::base::noise::Basis::Simplex)
            )
        );
        let e = parse_args(&args("noise --field surface --png o.png --basis worley")).unwrap_err();
        assert!(
            e.contains("worley") && e.contains("Perlin, Simplex or Value"),
            "{e}"
        );
        let e = parse_args(&args("noise --png o.png")).unwrap_err();
        assert!(e.contains("--field"), "{e}");
        let e = run_gen(
            &GenOptions {
                until: Some("cavez".into()),
                ..Default::default()
            },
            &home(),
        )
        .unwrap_err();
        assert!(e.contains("cavez") && e.contains("surface, layers"), "{e}");
    }

    #[test]
    fn noise_writes_the_field_and_names_the_fields_for_a_wrong_one() {
        let dir = std::env::temp_dir().join(format!("strata-cli-noise-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let opts = NoiseOptions {
            field: "caves.fill_variation".into(),
            png: dir.join("n.png"),
            preset: Some("classic".into()),
            seed: Some(3),
            size: Some((96, 40)),
            ..Default::default()
        };
        run_noise(&opts, &home()).unwrap();
        let dec = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(dir.join("n.png")).unwrap(),
        ));
        let info = dec.read_info().unwrap().info().clone();
        assert_eq!((info.width, info.height), (96, 40));
        // The same field and seed in Simplex: another picture.
        run_noise(
            &NoiseOptions {
                basis: Some(crate::base::noise::Basis::Simplex),
                png: dir.join("s.png"),
                ..opts.clone()
            },
            &home(),
        )
        .unwrap();
        let perlin = std::fs::read(dir.join("n.png")).unwrap();
        let simplex = std::fs::read(dir.join("s.png")).unwrap();
        assert_ne!(perlin, simplex);
        let e = run_noise(
            &NoiseOptions {
                field: "cheese".into(),
                png: dir.join("x.png"),
                ..opts.clone()
            },
            &home(),
        )
        .unwrap_err();
        assert!(e.contains("cheese") && e.contains("ores.iron_ore"), "{e}");
        assert!(!dir.join("x.png").exists(), "no file for a wrong name");
        let e = run_noise(
            &NoiseOptions {
                field: "surface".into(),
                octave: Some(99),
                ..opts
            },
            &home(),
        )
        .unwrap_err();
        assert!(e.contains("octaves 0..="), "{e}");
        let _ = std::fs::remove_dir_all(dir);
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
                .contains("a value is required for '--seed <SEED>'")
        );
        assert!(
            parse_args(&args("gen --frames 3"))
                .unwrap_err()
                .contains("unknown option")
        );
        assert!(parse_args(&args("play --frames x")).is_err());
    }

    #[test]
    fn errors_name_the_option_and_what_it_takes() {
        let e = |a: &str| parse_args(&args(a)).unwrap_err();
        assert_eq!(
            e("gen --sed 3"),
            "unknown option '--sed' for `strata gen` (did you mean '--seed'?): see \
             `strata gen --help`"
        );
        assert!(e("--frames 3 --bogus").contains("for `strata play`"));
        // Every command is named by its own name, whatever commands there are.
        for c in command()
            .get_subcommands()
            .filter(|c| c.get_name() != "help")
        {
            let msg = e(&format!("{} --bogus", c.get_name()));
            assert!(
                msg.contains(&format!("for `strata {}`", c.get_name())),
                "{msg}"
            );
        }
        assert!(e("presets extra").starts_with("unknown argument 'extra'"));
        let shells = e("completions tcsh");
        assert!(
            shells.contains("'tcsh'") && shells.contains("bash, elvish, fish"),
            "{shells}"
        );
        let commands = e("dig");
        assert!(commands.contains("'dig'") && commands.contains("play, gen, presets"));
        assert!(e("--seed 3 gen").contains("'gen'"));
        let max = e("--max-fps 1001");
        assert!(
            max.contains("--max-fps") && max.contains("0..=1000"),
            "{max}"
        );
        // Every message is one line.
        for bad in [
            "gen --size",
            "gen --size 1x1",
            "play --frames -2",
            "gen --png",
        ] {
            assert_eq!(e(bad).lines().count(), 1, "{bad}");
            assert!(!e(bad).contains("possible values"), "{bad}: {}", e(bad));
        }
    }

    #[test]
    fn help_and_version_are_printed_not_errors() {
        let print = |a: &str| match parse_args(&args(a)) {
            Ok(Parsed::Print(text)) => text,
            other => panic!("{a}: {other:?}"),
        };
        assert_eq!(
            print("--version").trim(),
            format!("strata {}", env!("CARGO_PKG_VERSION"))
        );
        let top = print("help");
        assert!(top.contains("gen") && top.contains("completions") && top.contains("STRATA_HOME"));
        let gen_help = print("gen --help");
        assert!(gen_help.contains("'~' water") && !gen_help.contains("--max-fps"));
        assert_eq!(print("help gen"), gen_help);
        assert!(print("play -h").contains("--max-fps"));
    }

    #[test]
    fn home_and_completions_parse() {
        let Ok(Parsed::Run(Command::Presets { home })) = parse_args(&args("presets --home /h"))
        else {
            panic!()
        };
        assert_eq!(home, Some("/h".into()));
        let Ok(Parsed::Run(Command::Play(p))) = parse_args(&args("--home h --seed 2")) else {
            panic!()
        };
        assert_eq!((p.home, p.seed), (Some("h".into()), Some(2)));
        assert_eq!(
            parse_args(&args("completions zsh")),
            Ok(Parsed::Run(Command::Completions {
                shell: clap_complete::Shell::Zsh
            }))
        );
    }

    #[test]
    fn wall_boxes_are_parsed_checked_and_put_behind_the_tiles() {
        let b = parse_wall_box("wood:2,1,4,3").unwrap();
        assert_eq!(b.wall, crate::world::Wall::Wood);
        assert_eq!((b.from, b.to), ((2, 1), (4, 3)));
        let e = parse_wall_box("brick:1,1,2,2").unwrap_err();
        assert!(
            e.contains("\"brick\" is not a wall") && e.contains("stone_brick"),
            "{e}"
        );
        assert!(
            parse_wall_box("none:1,1,2,2").is_err(),
            "no wall is not a wall"
        );
        for bad in ["wood", "wood:1,2,3", "wood:1,2,3,x", "wood:1,2,3,4,5"] {
            assert!(
                parse_wall_box(bad)
                    .unwrap_err()
                    .contains("WALL:X0,Y0,X1,Y1")
            );
        }
        assert!(
            parse_wall_box("wood:5,1,4,3")
                .unwrap_err()
                .contains("at most")
        );
        let art = "        \n".repeat(7) + "########\n";
        let mut w = world_from_text(&art, Preset::default(), 9).unwrap();
        put_walls(&mut w, &[b]).unwrap();
        let walled = (0..8)
            .flat_map(|y| (0..8).map(move |x| (x, y)))
            .filter(|&(x, y)| w.wall(x, y).is_some())
            .count();
        assert_eq!(walled, 9);
        assert_eq!(w.wall(4, 3), crate::world::Wall::Wood);
        assert_eq!(w.wall(5, 3), crate::world::Wall::None);
        let far = parse_wall_box("wood:2,2,8,3").unwrap();
        let e = put_walls(&mut w, &[far]).unwrap_err();
        assert!(e.contains("outside the 8x8 world"), "{e}");
        let Ok(Parsed::Run(Command::Gen(g))) = parse_args(&args(
            "gen --from-ascii w.txt --wall wood:1,1,2,2 --wall stone_brick:0,0,0,0",
        )) else {
            panic!()
        };
        assert_eq!(g.walls.len(), 2);
    }

    #[test]
    fn given_items_go_into_the_saved_player_s_inventory() {
        assert_eq!(parse_give("torch:5"), Ok(("torch".into(), 5)));
        assert!(parse_give("torch:0").unwrap_err().contains("at least 1"));
        assert!(parse_give("torch").unwrap_err().contains("ITEM:N"));
        let p = given_player(
            (1.0, 1.0),
            &[("copper_coin".into(), 250)],
            &crate::content::config::Content::builtin(),
        )
        .unwrap();
        assert_eq!(p.inventory.count("silver_coin"), 2, "coins settled");
        assert_eq!(p.inventory.count("copper_coin"), 50);
        assert_eq!(
            p.inventory.count("torch"),
            crate::store::save::PlayerState::new(
                (1.0, 1.0),
                &crate::content::config::Content::builtin().catalog
            )
            .inventory
            .count("torch")
        );
        let e = given_player(
            (1.0, 1.0),
            &[("dirt".into(), 999_999)],
            &crate::content::config::Content::builtin(),
        )
        .unwrap_err();
        assert!(e.contains("do not fit"), "{e}");
        let e = given_player(
            (1.0, 1.0),
            &[("tourch".into(), 5)],
            &crate::content::config::Content::builtin(),
        )
        .unwrap_err();
        assert!(e.contains("\"tourch\" is not an item"), "{e}");
        assert!(
            parse_args(&args("gen --give torch:3")).is_err(),
            "--give needs --save"
        );
    }

    #[test]
    fn the_saved_player_stands_on_the_ground_of_the_column_asked_for() {
        // Ground on row 6 in columns 0-3, on row 3 in columns 4-7.
        let art = (0..8)
            .map(|y| {
                (0..8).map(move |x| {
                    if y >= 6 || (x >= 4 && y >= 3) {
                        '#'
                    } else {
                        ' '
                    }
                })
            })
            .map(|row| row.collect::<String>() + "\n")
            .collect::<String>();
        let w = world_from_text(&art, crate::content::preset::Preset::default(), 1).unwrap();
        assert_eq!(saved_player_at(&w, Some((1, 0))), Ok((1.5, 6.0)));
        assert_eq!(saved_player_at(&w, Some((6, 0))), Ok((6.5, 3.0)));
        assert_eq!(saved_player_at(&w, None), Ok((4.0, 3.0)), "the middle");
        // From row 4 down in column 6: inside the rock to the bottom, nowhere to stand.
        let e = saved_player_at(&w, Some((6, 4))).unwrap_err();
        assert_eq!(e, "--at 6,4: nowhere to stand in column 6 from row 4 down");
        assert_eq!(saved_player_at(&w, Some((1, 3))), Ok((1.5, 6.0)));
        let e = saved_player_at(&w, Some((8, 0))).unwrap_err();
        assert_eq!(
            e,
            "--at 8,0: the world is 8x8 tiles (columns 0..=7, rows 0..=7)"
        );
        assert_eq!(parse_at("3"), Ok((3, 0)));
        assert_eq!(parse_at("3,40"), Ok((3, 40)));
        assert!(
            parse_at("3,x")
                .unwrap_err()
                .contains("\"x\" is not a number")
        );
        let Ok(Parsed::Run(Command::Gen(g))) = parse_args(&args("gen --save s.strata --at 3"))
        else {
            panic!()
        };
        assert_eq!(g.at, Some((3, 0)));
        assert!(
            parse_args(&args("gen --at 3")).is_err(),
            "--at needs --save"
        );
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
        let Ok(Parsed::Run(Command::Gen(g))) =
            parse_args(&args("gen --from-ascii w.txt --save s.strata"))
        else {
            panic!()
        };
        assert_eq!(g.from_ascii, Some("w.txt".into()));
    }

    #[test]
    fn printable_text_keeps_to_its_line_and_sends_no_escapes() {
        assert_eq!(printable("mine.ron"), "mine.ron");
        assert_eq!(printable("café é.ron"), "café é.ron");
        assert_eq!(printable("a\nb.ron"), "a\\nb.ron");
        assert_eq!(printable("esc\x1b[31mred.ron"), "esc\\u{1b}[31mred.ron");
        assert_eq!(printable("tab\there\r"), "tab\\there\\r");
        assert_eq!(printable("\u{202e}gnp.ron"), "\\u{202e}gnp.ron");
        for c in ['\0', '\x7f', '\u{85}', '\u{9b}'] {
            let p = printable(&format!("x{c}y"));
            assert!(p.chars().all(|c| !c.is_control()), "{p:?}");
        }
    }

    #[test]
    fn no_output_of_gen_replaces_one_of_its_inputs_however_it_is_spelled() {
        let dir = std::env::temp_dir().join(format!("strata-gen-inputs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let preset = dir.join("p.ron");
        let ascii = dir.join("a.txt");
        std::fs::write(&preset, "(width: 100, height: 60)").unwrap();
        std::fs::write(&ascii, "...\n###\n").unwrap();
        let linked = dir.join("linked.ron");
        std::fs::hard_link(&preset, &linked).unwrap();
        let inputs: [(&str, &std::path::Path); 2] =
            [("--preset", &preset), ("--from-ascii", &ascii)];
        for (input, path) in inputs {
            let spellings = [
                path.to_path_buf(),
                dir.join("sub").join("..").join(path.file_name().unwrap()),
            ];
            let mut spellings = spellings.to_vec();
            if input == "--preset" {
                spellings.push(linked.clone());
            }
            for out in &spellings {
                for flag in ["--ascii", "--surface", "--png", "--save"] {
                    let mut o = GenOptions::default();
                    match input {
                        "--preset" => o.preset = Some(path.to_path_buf()),
                        _ => o.from_ascii = Some(path.to_path_buf()),
                    }
                    let text = out.to_string_lossy().into_owned();
                    match flag {
                        "--ascii" => o.ascii = Some(text),
                        "--surface" => o.surface = Some(text),
                        "--png" => o.png = Some(out.clone()),
                        _ => o.save = Some(out.clone()),
                    }
                    let e = check_distinct_outputs(&o).unwrap_err();
                    assert!(
                        e.contains(flag) && e.contains(input) && e.contains("would replace"),
                        "{flag} {} over {input}: {e}",
                        out.display()
                    );
                }
            }
            let o = GenOptions {
                preset: Some(preset.clone()),
                png: Some(dir.join("other.png")),
                ..GenOptions::default()
            };
            assert!(check_distinct_outputs(&o).is_ok(), "another file is fine");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
