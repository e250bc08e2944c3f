//! Integration tests that run the `strata` binary as a player or a script would.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::{Command, Output};

/// The player's folders of every run here: a scratch folder, never the real home.
fn scratch_home() -> PathBuf {
    std::env::temp_dir().join(format!("strata-it-home-{}", std::process::id()))
}

/// The binary with its player's folders in [`scratch_home`].
fn strata_cmd() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_strata"));
    cmd.env(strata::base::paths::HOME_VAR, scratch_home());
    cmd
}

fn strata(args: &[&str]) -> Output {
    strata_cmd()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("strata runs")
}

fn stats(args: &[&str], threads: Option<&str>) -> serde_json::Value {
    let mut cmd = strata_cmd();
    cmd.arg("gen")
        .args(args)
        .arg("--stats")
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if let Some(t) = threads {
        cmd.env("RAYON_NUM_THREADS", t);
    }
    let out = cmd.output().expect("strata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stats is one JSON object")
}

/// The built-in catalog, as `strata gen` writes saves without mods.
fn builtin_catalog() -> std::sync::Arc<strata::content::items::Catalog> {
    strata::content::config::Content::builtin().catalog
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-it-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Independent labelling of the air in ASCII art with each column's surface row: (cave
/// areas, sky air). Air above its column's surface row is sky; caves are the 4-connected
/// bodies of the rest.
fn label_ascii(rows: &[Vec<char>], surface: &[usize]) -> (Vec<u64>, u64) {
    let (h, w) = (rows.len(), rows[0].len());
    let ground = |x: usize, y: usize| rows[y][x] == ' ' && y >= surface[x];
    let mut seen = vec![vec![false; w]; h];
    let (mut caves, mut sky) = (vec![], 0);
    for y0 in 0..h {
        for x0 in 0..w {
            if rows[y0][x0] == ' ' && y0 < surface[x0] {
                sky += 1;
            }
            if seen[y0][x0] || !ground(x0, y0) {
                continue;
            }
            seen[y0][x0] = true;
            let mut area = 0u64;
            let mut q = VecDeque::from([(x0, y0)]);
            while let Some((x, y)) = q.pop_front() {
                area += 1;
                let near = [
                    (x.wrapping_sub(1), y),
                    (x + 1, y),
                    (x, y.wrapping_sub(1)),
                    (x, y + 1),
                ];
                for (nx, ny) in near {
                    if nx < w && ny < h && !seen[ny][nx] && ground(nx, ny) {
                        seen[ny][nx] = true;
                        q.push_back((nx, ny));
                    }
                }
            }
            caves.push(area)
        }
    }
    (caves, sky)
}

#[test]
fn classic_ascii_matches_its_stats_and_an_independent_labelling() {
    let args = [
        "gen",
        "--preset",
        "config/presets/classic.ron",
        "--size",
        "80x30",
        "--seed",
        "7",
        "--ascii",
        "-",
    ];
    let out = strata(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    assert_eq!(rows.len(), 30);
    assert!(rows.iter().all(|r| r.len() == 80));
    assert!(text.chars().all(|c| " .#wigD~t\n".contains(c)));
    // Seed-001 style: sky on top, ground below, stone deeper down.
    assert!(rows[0].iter().all(|&c| c == ' '));
    assert!(rows[29].iter().any(|&c| c == '#' || c == 'i' || c == 'g'));

    let s = stats(&args[1..args.len() - 2], None);
    let mut surface_args = args[..args.len() - 2].to_vec();
    surface_args.extend(["--surface", "-"]);
    let surface_out = strata(&surface_args);
    let surface: Vec<usize> = String::from_utf8(surface_out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let (caves, sky) = label_ascii(&rows, &surface);
    let c = &s["connectivity"];
    assert_eq!(c["cave_count"], caves.len() as u64);
    assert_eq!(
        c["largest_cave_area"],
        caves.iter().copied().max().unwrap_or(0)
    );
    assert_eq!(c["cave_air"], caves.iter().sum::<u64>());
    assert_eq!(c["sky_air"], sky);
    let air = text.chars().filter(|&c| c == ' ').count() as u64;
    assert_eq!(s["tiles"]["air"], air);
    assert_eq!(
        s["tiles"]["stone"],
        text.chars().filter(|&c| c == '#').count() as u64
    );
    assert_eq!(
        (
            s["width"].as_u64(),
            s["height"].as_u64(),
            s["seed"].as_u64()
        ),
        (Some(80), Some(30), Some(7))
    );
}

#[test]
fn stats_are_stable_across_runs_and_thread_counts() {
    let args = [
        "--preset",
        "config/presets/default.ron",
        "--size",
        "900x400",
        "--seed",
        "moss",
    ];
    let a = stats(&args, Some("1"));
    let b = stats(&args, Some("2"));
    let c = stats(&args, None);
    assert_eq!(a["hash"], b["hash"]);
    assert_eq!(a["hash"], c["hash"]);
    assert_eq!(a["connectivity"], b["connectivity"]);
    assert_eq!(a["tiles"], b["tiles"]);
    let other = stats(
        &[
            "--preset",
            "config/presets/default.ron",
            "--size",
            "900x400",
            "--seed",
            "moss2",
        ],
        None,
    );
    assert_ne!(a["hash"], other["hash"]);
    for pass in [
        "surface",
        "layers",
        "caves",
        "ores",
        "grass",
        "connectivity",
    ] {
        assert!(a["ms"][pass].as_f64().is_some_and(|ms| ms >= 0.0), "{pass}");
    }
    assert_eq!(a["preset"], "Default");
}

#[test]
fn numeric_seeds_are_used_as_is() {
    let s = stats(
        &[
            "--preset",
            "config/presets/classic.ron",
            "--size",
            "64x32",
            "--seed",
            "18446744073709551615",
        ],
        None,
    );
    assert_eq!(s["seed"].as_u64(), Some(u64::MAX));
}

#[test]
fn png_has_one_pixel_per_tile() {
    let path = temp("world.png");
    let out = strata(&[
        "gen",
        "--preset",
        "config/presets/classic.ron",
        "--size",
        "120x50",
        "--png",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let (w, h) = (
        u32::from_be_bytes(bytes[16..20].try_into().unwrap()),
        u32::from_be_bytes(bytes[20..24].try_into().unwrap()),
    );
    assert_eq!((w, h), (120, 50));
}

fn assert_clean_error(out: &Output, needles: &[&str]) {
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "'{n}' missing from: {err}");
    }
}

#[test]
fn bad_presets_are_one_clear_line() {
    let path = temp("bad.ron");
    let p = path.to_str().unwrap();
    let cases: [(&str, &[&str]); 5] = [
        ("(\n  width: 100,\n  caves: (fil: 0.5),\n)", &[":3:", "fil"]),
        ("(\n  width: 100,\n  height: \"tall\",\n)", &[":3:"]),
        (
            "(\n  caves: (\n    fill: 1.5,\n  ),\n)",
            &[":3:5", "caves.fill", "1.5", "[0, 1]"],
        ),
        (
            "(\n  surface: (octaves: 0),\n)",
            &[":2:", "surface.octaves", "1..=16"],
        ),
        ("(width: 100", &["bad.ron:1:"]),
    ];
    for (text, needles) in cases {
        std::fs::write(&path, text).unwrap();
        let out = strata(&["gen", "--preset", p, "--stats"]);
        assert_clean_error(&out, needles);
        assert!(out.stdout.is_empty(), "no stats for a bad preset");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(p), "names the file: {err}");
    }
    let out = strata(&["gen", "--preset", "no/such/preset.ron"]);
    assert_clean_error(&out, &["no/such/preset.ron"]);
}

#[test]
fn bad_sizes_and_flags_are_one_clear_line() {
    assert_clean_error(&strata(&["gen", "--size", "0x10"]), &["width", "8..=16384"]);
    assert_clean_error(
        &strata(&["gen", "--size", "100x100000"]),
        &["height", "8..=4096"],
    );
    assert_clean_error(&strata(&["gen", "--size", "wide"]), &["--size"]);
    assert_clean_error(&strata(&["gen", "--bogus"]), &["--bogus"]);
}

#[test]
fn help_lists_the_commands() {
    let out = strata(&["help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("strata gen") && text.contains("--ascii"));
}

#[cfg(feature = "game")]
#[test]
fn play_refuses_a_bad_save_before_opening_a_window() {
    // Truncated, foreign and missing files: a one-line error and a non-zero exit, with no
    // display needed (the check runs before the window opens).
    let good = temp("play-good.strata");
    let out = strata(&[
        "gen",
        "--preset",
        "config/presets/classic.ron",
        "--size",
        "120x60",
        "--seed",
        "3",
        "--save",
        good.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&good).unwrap();
    let truncated = temp("play-truncated.strata");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let foreign = temp("play-foreign.strata");
    std::fs::write(&foreign, b"PK\x03\x04 not a save at all").unwrap();
    let missing = temp("play-missing.strata");
    for bad in [&truncated, &foreign, &missing] {
        let out = strata_cmd()
            .args(["play", "--load", bad.to_str().unwrap()])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env_remove("DISPLAY")
            .output()
            .expect("strata runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}: {err}", bad.display());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("strata: ") && err.contains(bad.to_str().unwrap()),
            "{err}"
        );
    }
}

#[test]
fn surface_lists_each_columns_first_ground_row() {
    let out = strata(&[
        "gen",
        "--preset",
        "config/presets/classic.ron",
        "--size",
        "90x40",
        "--seed",
        "5",
        "--surface",
        "-",
        "--ascii",
        "-",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // The world's rows come first, then the surface rows.
    let mut lines = text.lines();
    let rows: Vec<Vec<char>> = lines
        .by_ref()
        .take(40)
        .map(|l| l.chars().collect())
        .collect();
    let surface: Vec<usize> = lines.map(|l| l.parse().unwrap()).collect();
    assert_eq!((surface.len(), rows.len()), (90, 40));
    for (x, &s) in surface.iter().enumerate() {
        assert!((1..40).contains(&s), "column {x}: surface {s}");
        assert!(
            (0..s).all(|y| rows[y][x] == ' '),
            "column {x}: ground above {s}"
        );
        assert_ne!(rows[s][x], ' ', "column {x}: air at its surface row {s}");
    }
}

/// A fresh folder of its own for a test.
fn temp_folder(name: &str) -> PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn strata_in(dir: &std::path::Path, args: &[&str]) -> Output {
    strata_cmd()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("strata runs")
}

const CLASSIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/config/presets/classic.ron");

/// `strata gen` of a small classic world, whatever the working folder.
const SMALL: [&str; 5] = ["gen", "--preset", CLASSIC, "--size", "64x40"];

#[cfg(unix)]
#[test]
fn outputs_never_replace_devices_links_or_read_only_files() {
    use std::os::unix::fs::FileTypeExt;
    let run = |extra: &[&str]| strata(&[&SMALL[..], &["--seed", "1"], extra].concat());
    let out = run(&["--png", "/dev/null", "--save", "/dev/null"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert_clean_error(&run(&["--ascii", "/dev/full"]), &["/dev/full"]);
    assert!(
        std::fs::metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device()
    );

    let dir = temp_folder("links");
    let target = dir.join("target.txt");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = run(&["--ascii", link.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap().lines().count(),
        40
    );

    let locked = dir.join("locked.png");
    std::fs::write(&locked, "keep me").unwrap();
    let mut perm = std::fs::metadata(&locked).unwrap().permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(&locked, perm).unwrap();
    assert_clean_error(&run(&["--png", locked.to_str().unwrap()]), &["read-only"]);
    assert_eq!(std::fs::read_to_string(&locked).unwrap(), "keep me");
}

#[test]
fn concurrent_saves_to_one_path_always_leave_a_loadable_save() {
    let dir = temp_folder("concurrent");
    let path = dir.join("w.strata");
    for round in 0..6 {
        let children: Vec<_> = (0..8)
            .map(|i| {
                let seed = (round * 8 + i).to_string();
                strata_cmd()
                    .args(["gen", "--preset", CLASSIC, "--size", "200x120"])
                    .args(["--seed", &seed, "--save", path.to_str().unwrap()])
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let (world, _) = strata::store::save::load(&path, &builtin_catalog())
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert!(
            (round * 8..round * 8 + 8).contains(&world.seed),
            "round {round}"
        );
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "only the save is left");
    }
}

/// Runs strata, killing it (and failing) if it takes longer than `secs`.
fn strata_within(secs: u64, args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = strata_cmd()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() >= secs {
            child.kill().unwrap();
            panic!("strata {args:?} still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn preset_and_save_reads_are_bounded_and_never_hang() {
    let out = strata_within(20, &["gen", "--preset", "/dev/zero", "--stats"], None);
    assert_clean_error(&out, &["/dev/zero", "262144"]);
    let out = strata_within(20, &["gen", "--preset", "/dev/urandom"], None);
    assert_clean_error(&out, &["/dev/urandom", "262144"]);
    // A preset piped in on standard input is read.
    let s = strata_within(
        20,
        &["gen", "--preset", "/dev/stdin", "--seed", "4", "--stats"],
        Some("(name: \"piped\", width: 64, height: 40)"),
    );
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    let json: serde_json::Value = serde_json::from_slice(&s.stdout).unwrap();
    assert_eq!(
        (json["preset"].as_str(), json["width"].as_u64()),
        (Some("piped"), Some(64))
    );
    // A FIFO no one writes to is given up on, as --preset and as --load.
    let dir = temp_folder("fifo");
    let fifo = dir.join("silent");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let f = fifo.to_str().unwrap();
    assert_clean_error(
        &strata_within(20, &["gen", "--preset", f], None),
        &[f, "FIFO"],
    );
    #[cfg(feature = "game")]
    {
        let out = strata_within(20, &["play", "--load", f], None);
        assert_clean_error(&out, &[f, "FIFO"]);
    }
}

#[test]
fn output_paths_without_a_file_name_touch_nothing() {
    let dir = temp_folder("noname");
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join(".tmp"), "mine").unwrap();
    std::fs::write(dir.join("out.png.tmp"), "mine too").unwrap();
    for bad in [".", "..", "sub/..", "sub/", "sub"] {
        for flag in ["--png", "--ascii", "--save"] {
            let out = strata_in(&dir, &[&SMALL[..], &[flag, bad]].concat());
            assert_clean_error(&out, &[bad]);
        }
    }
    let out = strata_in(&dir, &[&SMALL[..], &["--png", "out.png"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(dir.join(".tmp")).unwrap(), "mine");
    assert_eq!(
        std::fs::read_to_string(dir.join("out.png.tmp")).unwrap(),
        "mine too"
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, [".tmp", "out.png", "out.png.tmp", "sub"]);
}

#[cfg(unix)]
#[test]
fn stdout_errors_are_one_line_not_a_panic() {
    let to_full = |args: &[&str]| {
        strata_cmd()
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap()
    };
    for args in [
        [&SMALL[..], &["--stats"]].concat(),
        [&SMALL[..], &["--ascii", "-"]].concat(),
        [&SMALL[..], &["--surface", "-"]].concat(),
        vec!["help"],
    ] {
        let out = to_full(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_clean_error(&out, &["standard output"]);
    }
    // A reader that has gone (`strata gen --stats | true`).
    let mut child = strata_cmd()
        .args([&SMALL[..], &["--stats"]].concat())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_clean_error(&out, &["standard output"]);
}

fn play_without_display(args: &[&str]) -> Output {
    strata_cmd()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("strata runs")
}

#[cfg(all(target_os = "linux", feature = "game"))]
#[test]
fn play_without_a_display_is_one_line() {
    for args in [&["play", "--frames", "1"][..], &[], &["--seed", "3"]] {
        let out = play_without_display(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_clean_error(&out, &["DISPLAY"]);
    }
    // A display no X server answers on.
    let out = strata_cmd()
        .args(["play", "--frames", "1"])
        .env("DISPLAY", ":4321")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_clean_error(&out, &["no X server answers on display :4321"]);
}

#[test]
fn play_refuses_a_missing_preset_and_options_a_save_would_ignore() {
    #[cfg(feature = "game")]
    {
        let out = play_without_display(&["play", "--preset", "missing.ron"]);
        assert_eq!(out.status.code(), Some(1));
        assert_clean_error(&out, &["missing.ron"]);
    }
    let out = play_without_display(&["play", "--load", "x.strata", "--seed", "4"]);
    assert_clean_error(&out, &["--load", "--seed"]);
    let out = play_without_display(&["--preset", "config/presets/classic.ron", "--load", "x"]);
    assert_clean_error(&out, &["--load", "--preset"]);
}

/// A build without the game window (`--no-default-features`) keeps `play` on its command
/// line, and says in one line that it cannot play, whatever else was asked, rather than
/// calling `play` an unknown command; `gen` in that build works.
#[cfg(not(feature = "game"))]
#[test]
fn play_without_the_game_feature_is_one_line_naming_it() {
    let cases: [&[&str]; 4] = [
        &["play", "--frames", "1"],
        &[],
        &["--seed", "3"],
        &["play", "--load", "no/such.strata"],
    ];
    for args in cases {
        for display in [None, Some(":0")] {
            let mut cmd = strata_cmd();
            cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
            match display {
                Some(d) => cmd.env("DISPLAY", d),
                None => cmd.env_remove("DISPLAY"),
            };
            let out = cmd.output().expect("strata runs");
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            assert_clean_error(&out, &["without its game window", "`game`", "strata gen"]);
            assert!(out.stdout.is_empty());
        }
    }
    let help = String::from_utf8_lossy(&strata(&["--help"]).stdout).into_owned();
    assert!(help.contains("not in this build"), "{help}");
    let out = strata(&["gen", "--size", "64x40", "--seed", "1", "--stats"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn two_outputs_to_one_file_are_refused() {
    let dir = temp_folder("twice");
    for (a, b) in [
        (["--ascii", "x"], ["--png", "x"]),
        (["--png", "w"], ["--save", "./w"]),
        (["--surface", "s"], ["--ascii", "../twice/s"]),
    ] {
        let out = strata_in(&dir, &[&SMALL[..], &a, &b].concat());
        assert_clean_error(&out, &[a[0], b[0], "same file"]);
    }
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing written"
    );
    let out = strata_in(
        &dir,
        &[&SMALL[..], &["--png", "/dev/null", "--ascii", "/dev/null"]].concat(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_save_under_a_regular_file_names_the_file_in_the_way() {
    let dir = temp_folder("under-file");
    std::fs::write(dir.join("plain"), "").unwrap();
    let out = strata_in(
        &dir,
        &[
            "gen",
            "--preset",
            CLASSIC,
            "--size",
            "64x40",
            "--save",
            "plain/deeper/w.strata",
        ],
    );
    assert_clean_error(&out, &["plain is a file, not a folder"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("File exists"));
}

#[cfg(target_os = "linux")]
#[test]
fn dev_stdout_and_dev_stderr_redirected_to_files_are_written_not_replaced() {
    use std::os::unix::fs::MetadataExt;
    let dir = temp_folder("devstdout");
    let (out_path, err_path) = (dir.join("out.bin"), dir.join("err.txt"));
    let (out, err) = (
        std::fs::File::create(&out_path).unwrap(),
        std::fs::File::create(&err_path).unwrap(),
    );
    let inodes = |p: &std::path::Path| std::fs::metadata(p).unwrap().ino();
    let (out_ino, err_ino) = (inodes(&out_path), inodes(&err_path));
    let status = strata_cmd()
        .args(SMALL)
        .args(["--seed", "2"])
        .args([
            "--ascii",
            "-",
            "--png",
            "/dev/stdout",
            "--surface",
            "/dev/stderr",
        ])
        .stdout(out)
        .stderr(err)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!((inodes(&out_path), inodes(&err_path)), (out_ino, err_ino));
    // The text first, then the PNG after it on the same standard output.
    let bytes = std::fs::read(&out_path).unwrap();
    let text_len = 65 * 40;
    assert_eq!(
        bytes[..text_len].iter().filter(|&&b| b == b'\n').count(),
        40
    );
    assert_eq!(&bytes[text_len + 1..text_len + 4], b"PNG");
    let surface = std::fs::read_to_string(&err_path).unwrap();
    assert_eq!(surface.lines().count(), 64);
}

#[test]
fn a_refused_save_path_creates_no_folder() {
    let dir = temp_folder("nofolder");
    let out = strata_in(&dir, &[&SMALL[..], &["--save", "made/.."]].concat());
    assert_clean_error(&out, &["made/.."]);
    assert!(!dir.join("made").exists());
    let out = strata_in(
        &dir,
        &[&SMALL[..], &["--save", "new/deeper/w.strata"]].concat(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        strata::store::save::load(&dir.join("new/deeper/w.strata"), &builtin_catalog()).is_ok()
    );
}

/// `strata` run by a user who may not write in root's folders: as is when this test is
/// not root, through `setpriv` as nobody when it is (root writes anywhere). `None` when
/// neither can be done.
#[cfg(unix)]
fn strata_unprivileged(args: &[&str]) -> Option<Output> {
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    let mut cmd = if root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(env!("CARGO_BIN_EXE_strata"));
        c
    } else {
        strata_cmd()
    };
    cmd.args(args)
        .current_dir("/")
        .env(strata::base::paths::HOME_VAR, scratch_home())
        .output()
        .ok()
}

#[cfg(unix)]
#[test]
fn a_writable_file_in_a_read_only_folder_blames_the_folder() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_folder("rofolder");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let locked = dir.join("locked");
    std::fs::create_dir(&locked).unwrap();
    let file = locked.join("out.png");
    std::fs::write(&file, "old").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    let Some(out) = strata_unprivileged(&[&SMALL[..], &["--png", file.to_str().unwrap()]].concat())
    else {
        eprintln!("skipped: no setpriv to drop root");
        return;
    };
    let folder = format!("cannot write in the folder {}", locked.display());
    assert_clean_error(&out, &[&folder]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "old");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs the binary in a folder with no `config/` beside it, as an installed `strata` is.
fn strata_elsewhere(args: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("strata-elsewhere-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    strata_cmd()
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("strata runs")
}

#[test]
fn built_in_presets_work_from_any_folder() {
    let text = |o: &Output| String::from_utf8_lossy(&o.stdout).into_owned();
    // The default preset without any file, at a small size.
    let out = strata_elsewhere(&["gen", "--size", "120x60", "--seed", "3", "--stats"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["preset"], "Default");
    // Same world as the repository's default.ron file gives.
    let here = stats(&["--size", "120x60", "--seed", "3"], None);
    assert_eq!(s["hash"], here["hash"]);
    // By name.
    let out = strata_elsewhere(&["gen", "--preset", "classic", "--seed", "3", "--stats"]);
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (s["preset"].as_str(), s["width"].as_u64()),
        (Some("Classic"), Some(1000))
    );
    let file = stats(
        &["--preset", "config/presets/classic.ron", "--seed", "3"],
        None,
    );
    assert_eq!(s["hash"], file["hash"]);
    // An unknown name says what there is.
    let out = strata_elsewhere(&["gen", "--preset", "nowhere", "--stats"]);
    assert_clean_error(&out, &["nowhere", "built-in", "large"]);
    // The listing names each built-in preset with its size.
    let out = strata_elsewhere(&["presets"]);
    assert!(out.status.success());
    let list = text(&out);
    for want in ["default", "6400 x 1800", "large", "8400 x 2400", "classic"] {
        assert!(list.contains(want), "{want} missing in {list}");
    }
    assert!(
        !list.contains("Preset files"),
        "no config/ folder here: {list}"
    );
}

#[test]
fn version_and_help_per_command() {
    let out = strata(&["--version"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("strata {}", env!("CARGO_PKG_VERSION"))
    );
    let gen_help = String::from_utf8(strata(&["gen", "--help"]).stdout).unwrap();
    let play_help = String::from_utf8(strata(&["play", "--help"]).stdout).unwrap();
    assert!(gen_help.contains("--ascii") && !gen_help.contains("--max-fps"));
    assert!(play_help.contains("--max-fps") && !play_help.contains("--ascii"));
    assert!(gen_help.contains("--preset") && play_help.contains("--preset"));
}

#[test]
fn the_players_presets_come_from_strata_home_or_home() {
    let home = temp_folder("home-a");
    let other = temp_folder("home-b");
    for (dir, width) in [(&home, 90), (&other, 70)] {
        std::fs::create_dir_all(dir.join("presets")).unwrap();
        std::fs::write(
            dir.join("presets/mine.ron"),
            format!("(name: \"Mine\", width: {width}, height: 40)"),
        )
        .unwrap();
    }
    let run = |env: &PathBuf, args: &[&str]| {
        strata_cmd()
            .args(args)
            .current_dir(&other)
            .env(strata::base::paths::HOME_VAR, env)
            .output()
            .unwrap()
    };
    // `strata presets` lists the folder and what is in it.
    let out = run(&home, &["presets"]);
    let list = String::from_utf8_lossy(&out.stdout).into_owned();
    let folder = home.join("presets");
    assert!(
        list.contains(&format!("Your presets in {}", folder.display())),
        "{list}"
    );
    assert!(
        list.contains("mine.ron") && list.contains("90 x 40"),
        "{list}"
    );
    // `--preset NAME` finds the player's preset; `--home` wins over STRATA_HOME.
    let width = |out: &Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        s["width"].as_u64()
    };
    assert_eq!(
        width(&run(&home, &["gen", "--preset", "mine", "--stats"])),
        Some(90)
    );
    let flag = [
        "gen",
        "--home",
        other.to_str().unwrap(),
        "--preset",
        "mine",
        "--stats",
    ];
    assert_eq!(width(&run(&home, &flag)), Some(70));
    let out = run(&home, &["presets", "--home", other.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("70 x 40"));
    // An empty folder says where presets go; an unknown name names the folder it looked in.
    let empty = temp_folder("home-empty");
    let out = run(&empty, &["presets"]);
    let list = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        list.contains("none yet") && list.contains(&empty.join("presets").display().to_string()),
        "{list}"
    );
    let out = run(&empty, &["gen", "--preset", "mine", "--stats"]);
    assert_clean_error(&out, &["mine", "presets", "built-in"]);
    assert!(!empty.join("presets").exists(), "reading creates no folder");
    let out = run(&empty, &["presets", "--home"]);
    assert_clean_error(&out, &["a value is required for '--home <DIR>'"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("possible values"));
}

#[test]
fn completions_load_in_bash_and_know_the_options() {
    let out = strata(&["completions", "bash"]);
    assert!(out.status.success());
    let script = String::from_utf8(out.stdout).unwrap();
    for word in [
        "gen",
        "presets",
        "--preset",
        "--max-fps",
        "--from-ascii",
        "--home",
    ] {
        assert!(script.contains(word), "{word} missing");
    }
    // Bash takes the script and registers a completion for `strata`.
    let path = temp("strata.bash");
    std::fs::write(&path, &script).unwrap();
    let registered = Command::new("bash")
        .arg("-c")
        .arg(format!("source '{}' && complete -p strata", path.display()))
        .output()
        .expect("bash runs");
    assert!(
        String::from_utf8_lossy(&registered.stdout).contains("strata"),
        "{}",
        String::from_utf8_lossy(&registered.stderr)
    );
    for shell in ["zsh", "fish"] {
        let out = strata(&["completions", shell]);
        assert!(out.status.success() && out.stdout.len() > 500, "{shell}");
    }
    assert_clean_error(
        &strata(&["completions", "tcsh"]),
        &["tcsh", "bash", "zsh", "fish"],
    );
}

#[cfg(unix)]
#[test]
fn a_preset_name_that_is_no_file_is_named_and_an_empty_home_is_not_given() {
    let home = temp_folder("home-special");
    let presets = home.join("presets");
    std::fs::create_dir_all(presets.join("dir.ron")).unwrap();
    let fifo = presets.join("fifo.ron");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/null", presets.join("dev.ron")).unwrap();
    std::fs::write(presets.join("mine.ron"), "(width: 96, height: 40)").unwrap();
    let run = |args: &[&str]| {
        strata_cmd()
            .args(args)
            .env(strata::base::paths::HOME_VAR, &home)
            .output()
            .unwrap()
    };
    for (name, kind) in [
        ("fifo", "is a FIFO"),
        ("dir", "is a folder"),
        ("dev", "is a character device"),
    ] {
        let out = run(&["gen", "--preset", name, "--stats"]);
        let file = presets.join(format!("{name}.ron"));
        assert_clean_error(&out, &[&file.display().to_string(), kind]);
        // Never read: the FIFO would have made the read wait and then give up.
        assert!(!String::from_utf8_lossy(&out.stderr).contains("nothing to read"));
    }
    // An empty --home counts as not given: STRATA_HOME's presets are used.
    let out = run(&["gen", "--home", "", "--preset", "mine", "--stats"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["width"].as_u64(), Some(96));
    let out = run(&["presets", "--home", ""]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains(&presets.display().to_string()));
}

#[cfg(unix)]
#[test]
fn preset_names_are_printed_escaped_one_line_each() {
    let home = temp_folder("home-names");
    let presets = home.join("presets");
    std::fs::create_dir_all(&presets).unwrap();
    std::fs::write(presets.join("two\nlines.ron"), "(width: 80, height: 40)").unwrap();
    std::fs::write(presets.join("esc\x1b[31mred.ron"), "(widht: 80)").unwrap();
    std::fs::write(
        presets.join("named.ron"),
        "(name: \"bell\\u{7}\\u{1b}[2J\", width: 88, height: 40)",
    )
    .unwrap();
    let run = |args: &[&str]| {
        strata_cmd()
            .args(args)
            .env(strata::base::paths::HOME_VAR, &home)
            .output()
            .unwrap()
    };
    let out = run(&["presets"]);
    assert!(out.status.success());
    let list = String::from_utf8(out.stdout).unwrap();
    assert!(!list.contains('\x1b') && !list.contains('\x07'), "{list:?}");
    let mine: Vec<&str> = list
        .lines()
        .skip_while(|l| !l.starts_with("Your presets"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    assert_eq!(mine.len(), 3, "one line a preset: {list}");
    assert!(
        mine.iter()
            .any(|l| l.contains("two\\nlines.ron") && l.contains("80 x 40"))
    );
    assert!(
        mine.iter()
            .any(|l| l.contains("esc\\u{1b}[31mred.ron") && l.contains("does not load"))
    );
    assert!(mine.iter().any(|l| l.contains("bell\\u{7}\\u{1b}[2J")));
    // An error naming such a file is one line and sends no escape either.
    let out = run(&["gen", "--preset", "esc\x1b[31mred", "--stats"]);
    assert_clean_error(&out, &["esc\\u{1b}[31mred.ron", "widht"]);
    assert!(!out.stderr.contains(&0x1b));
}

/// `strata gen --from-ascii PATH --stats` of `text` written to a file.
fn from_ascii(name: &str, text: &[u8], extra: &[&str]) -> Output {
    let path = temp(name);
    std::fs::write(&path, text).unwrap();
    strata(
        &[
            &["gen", "--from-ascii", path.to_str().unwrap(), "--stats"],
            extra,
        ]
        .concat(),
    )
}

#[test]
fn from_ascii_names_the_line_the_column_and_the_character() {
    let art = "#      ~\n".repeat(7) + "########\n";
    let with = |line: usize, text: &str| {
        let mut lines: Vec<&str> = art.lines().collect();
        lines[line - 1] = text;
        (lines.join("\n") + "\n").into_bytes()
    };
    let cases: [(Vec<u8>, &[&str]); 5] = [
        (
            with(4, "#  ~"),
            &["ragged.txt:4:5:", "line 4 ends after 4 tiles, line 1 has 8"],
        ),
        (
            with(2, "#   ?  ~"),
            &["ragged.txt:2:5:", "'?' (U+003F)", "strata help gen"],
        ),
        (with(3, "#  é   ~"), &["ragged.txt:3:4:", "'é' (U+00E9)"]),
        (with(5, "#\0     ~"), &["ragged.txt:5:2:", "'\\0' (U+0000)"]),
        (
            with(6, "#     ~~\u{feff}"),
            &["ragged.txt:6:9:", "(U+FEFF)"],
        ),
    ];
    for (text, needles) in cases {
        let out = from_ascii("ragged.txt", &text, &[]);
        assert_clean_error(&out, needles);
        assert!(out.stdout.is_empty());
    }
    // A byte-order mark before the drawing and blank lines after it are passed over.
    let plain = from_ascii("plain.txt", art.as_bytes(), &["--seed", "4"]);
    assert!(plain.status.success());
    let dressed = [
        b"\xEF\xBB\xBF",
        art.replace('\n', "\r\n").as_bytes(),
        b"\n\n",
    ]
    .concat();
    let same = from_ascii("dressed.txt", &dressed, &["--seed", "4"]);
    assert!(
        same.status.success(),
        "{}",
        String::from_utf8_lossy(&same.stderr)
    );
    let stats: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    let again: serde_json::Value = serde_json::from_slice(&same.stdout).unwrap();
    assert_eq!(
        (stats["width"].as_u64(), stats["height"].as_u64()),
        (Some(8), Some(8))
    );
    assert_eq!(stats["hash"], again["hash"]);
    assert_eq!(stats["tiles"], again["tiles"]);
    assert_eq!(stats["tiles"]["water"].as_u64(), Some(7));
    // --size would be ignored: it is refused.
    let out = from_ascii("plain.txt", art.as_bytes(), &["--size", "100x100"]);
    assert_clean_error(&out, &["--from-ascii", "--size"]);
}

#[cfg(unix)]
#[test]
fn from_ascii_stops_reading_at_the_first_fault() {
    use std::io::Write;
    let out = strata(&["gen", "--from-ascii", "/dev/zero", "--stats"]);
    assert_clean_error(&out, &["/dev/zero:1:1:", "'\\0'"]);
    // A writer of endless zeros (or of rows, more than a world holds) is stopped after a
    // few pipe-fuls, not after the 256 MiB the largest world's text may take.
    for (chunk, fault) in [
        (vec![0u8; 64 << 10], "1:1: '\\0'"),
        (b"########\n".repeat(8 << 10), "4097:1: more than 4096 rows"),
    ] {
        let mut child = strata_cmd()
            .args(["gen", "--from-ascii", "/dev/stdin", "--stats"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut written = 0usize;
        while written < 256 << 20 && stdin.write_all(&chunk).is_ok() {
            written += chunk.len();
        }
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert_clean_error(&out, &[fault]);
        assert!(
            written < 4 << 20,
            "{written} bytes taken before the refusal"
        );
    }
}

/// A local X display (an abstract socket, where X clients look first) whose server takes
/// each connection and, if `answers` is false, closes it at once as a loaded X server that
/// drops the handshake does, or else keeps it open without a word. Returns the display
/// and the count of connections taken.
#[cfg(all(target_os = "linux", feature = "game"))]
fn fake_x_server(answers: bool) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::os::linux::net::SocketAddrExt;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let number = 30_000 + std::process::id() % 20_000 + u32::from(answers) * 7;
    let name = format!("/tmp/.X11-unix/X{number}");
    let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
    let server = std::os::unix::net::UnixListener::bind_addr(&addr).unwrap();
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let taken = count.clone();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        for stream in server.incoming().flatten() {
            taken.fetch_add(1, Ordering::SeqCst);
            if answers {
                kept.push(stream);
            }
        }
    });
    (format!(":{number}"), count)
}

#[cfg(all(target_os = "linux", feature = "game"))]
#[test]
fn a_display_that_refuses_the_connection_is_one_line_not_a_panic() {
    use std::sync::atomic::Ordering;
    let play = |display: &str| {
        strata_cmd()
            .args(["play", "--frames", "1"])
            .env("DISPLAY", display)
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .unwrap()
    };
    // A remote display nothing listens on.
    let out = play("127.0.0.1:77");
    assert_eq!(out.status.code(), Some(1));
    assert_clean_error(&out, &["X did not open display 127.0.0.1:77 (5 tries)"]);
    // A server that drops every handshake: asked again, then one line.
    let (display, count) = fake_x_server(false);
    let out = play(&display);
    assert_eq!(out.status.code(), Some(1));
    assert_clean_error(
        &out,
        &[&format!("X did not open display {display} (5 tries)")],
    );
    // The socket's check, then five tries of X.
    assert!(count.load(Ordering::SeqCst) >= 6, "{:?}", count);
    // A server that takes the connection and never answers: the game does not wait on it.
    let (display, _) = fake_x_server(true);
    let out = play(&display);
    assert_eq!(out.status.code(), Some(1));
    assert_clean_error(&out, &["took the connection but did not answer within 5 s"]);
}

#[test]
fn strata_content_lists_the_files_and_says_which_mod_was_skipped_and_where() {
    let home = temp_folder("home-mods");
    std::fs::create_dir_all(home.join("mods")).unwrap();
    let gel = "(items: [(name: \"gel_sword\", label: \"gel sword\", kind: Sword, damage: 12, \
               reach: 2.0, cooldown: 0.4)],\n recipes: [(make: \"gel_sword\", from: [(\"gel\", 5)])])";
    std::fs::write(home.join("mods/a_gel.ron"), gel).unwrap();
    std::fs::write(
        home.join("mods/b_bad.ron"),
        "(\n  rules: (day_minutes: -1.0),\n)",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let out = strata_cmd()
            .args(args)
            .env(strata::base::paths::HOME_VAR, &home)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(&["content"]);
    let builtin = strata::content::config::Content::builtin();
    let items = builtin.catalog.items.len() + 1;
    let recipes = builtin.catalog.recipes.len() + 1;
    assert!(
        text.starts_with(&format!("{items} items, {recipes} recipes, ")),
        "{text}"
    );
    assert!(text.contains("  config/items.ron (") && text.contains("  mods/a_gel.ron ("));
    assert!(
        !text.contains("  mods/b_bad.ron ("),
        "the refused mod is no part of it"
    );
    let skipped = text
        .lines()
        .find(|l| l.contains("skipped"))
        .unwrap_or_default();
    assert!(
        skipped.contains("b_bad.ron: mods/b_bad.ron:2:") && skipped.contains("day_minutes"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("  applied") && l.ends_with("a_gel.ron"))
    );
    // `gen --give` knows the mod's item.
    let save = home.join("w.strata");
    let give = [
        "gen",
        "--size",
        "200x120",
        "--save",
        save.to_str().unwrap(),
        "--give",
        "gel_sword:1",
    ];
    run(&give);
    let (_, player) = strata::store::save::load(&save, &content_of(&home).catalog).unwrap();
    assert_eq!(player.inventory.count("gel_sword"), 1);
}

/// The content a game with `home` as its data folder plays with.
fn content_of(home: &std::path::Path) -> strata::content::config::Content {
    strata::content::config::Content::gather(None, &home.join("mods")).0
}
