//! Strata's layers, kept so: this test reads the sources under `src/` and fails on an
//! import that points up the layer order, on an import cycle between the modules inside a
//! layer, or on more than a dozen entries at `src/`'s root. A failure names the file, the
//! line and the import.
//!
//! The order, bottom to top (README "Architecture"): `base` ← `content` ← `world` ←
//! `analysis` ← `worldgen` ← `sim` ← `store` ← `net` ← `launch` ← `cli` ← `game`. The
//! binary (`src/bin/strata`: `main.rs` and the allocator beside it) is no layer: it uses
//! the library as `strata::…`. An import is any path
//! `crate::…` or `super::…` outside comments and outside the tests (a `tests.rs` file, a
//! `*_tests.rs` file, or the `#[cfg(test)] mod tests` block that ends a file): tests may
//! build worlds with anything below or above them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom first.
const ORDER: [&str; 11] = [
    "base", "content", "world", "analysis", "worldgen", "sim", "store", "net", "launch", "cli",
    "game",
];

/// Most entries at `src/`'s root (files and folders): the eleven layers, `lib.rs` and the
/// binary's folder.
const MAX_ROOT_ENTRIES: usize = 13;

/// One import: where it is written and the module it reaches.
#[derive(Clone, Debug)]
struct Import {
    file: PathBuf,
    line: usize,
    text: String,
    to: Vec<String>,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() && !p.ends_with("src/bin") {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file under `src/` (`src/sim/edit.rs` → `[sim, edit]`; `mod.rs`,
/// `lib.rs` and `main.rs` name their folder or the crate).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts
}

fn is_test_file(module: &[String]) -> bool {
    module.iter().any(|m| m == "tests" || m.ends_with("_tests"))
}

/// Where the `#[cfg(test)] mod tests { … }` block is in a source (byte range), if it has
/// one: the block ends where its braces balance.
fn test_block(text: &str) -> Option<(usize, usize)> {
    let start = text.find("#[cfg(test)]\nmod tests {")?;
    let open = start + text[start..].find('{').unwrap_or(0);
    let mut depth = 0usize;
    let mut end = text.len();
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = open + i + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    Some((start, end))
}

/// The source with its `#[cfg(test)] mod tests { … }` block blanked (lines kept, so line
/// numbers stay true).
fn without_tests(text: &str) -> String {
    let Some((start, end)) = test_block(text) else {
        return text.to_string();
    };
    let blank: String = text[start..end]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    format!("{}{blank}{}", &text[..start], &text[end..])
}

/// The paths a line imports: `crate::a::b…`, `super::…::x…` (resolved against `module`)
/// and each item of `crate::{a::b, c}`.
fn paths_in(line: &str, module: &[String]) -> Vec<Vec<String>> {
    let code = line.split("//").next().unwrap_or("");
    let mut out = Vec::new();
    let ident = |s: &str| -> Vec<String> {
        s.split("::")
            .map(|p| {
                p.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .take_while(|p| !p.is_empty())
            .collect()
    };
    let word_start = |i: usize| {
        i == 0
            || !code[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
    };
    for (i, _) in code.match_indices("crate::") {
        if !word_start(i) {
            continue;
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            for item in inner.split(',') {
                let p = ident(item.trim());
                if !p.is_empty() {
                    out.push(p);
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    for (i, _) in code.match_indices("super::") {
        if !word_start(i) {
            continue;
        }
        let mut rest = &code[i..];
        let mut base = module.to_vec();
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        base.extend(ident(rest));
        out.push(base);
    }
    out
}

/// Every import in `src/` outside the tests, resolved to the longest module it names.
fn imports(src: &Path) -> (Vec<Import>, BTreeSet<Vec<String>>) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(src, f)).collect();
    let mut out = Vec::new();
    for f in &files {
        let module = module_of(src, f);
        if module.is_empty() || is_test_file(&module) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in without_tests(&text).lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for p in paths_in(line, &module) {
                let to = (1..=p.len())
                    .rev()
                    .map(|k| p[..k].to_vec())
                    .find(|m| modules.contains(m));
                if let Some(to) = to {
                    out.push(Import {
                        file: f.clone(),
                        line: n + 1,
                        text: line.trim().to_string(),
                        to,
                    });
                }
            }
        }
    }
    (out, modules)
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// A file's path from the crate's folder (`src/sim/edit.rs`).
fn shown(file: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    file.strip_prefix(root)
        .unwrap_or(file)
        .display()
        .to_string()
}

fn rank(layer: &str) -> Option<usize> {
    ORDER.iter().position(|l| *l == layer)
}

#[test]
fn every_top_level_module_is_a_layer_and_imports_only_downward() {
    let src = src();
    let (imports, modules) = imports(&src);
    let mut wrong = Vec::new();
    for m in modules.iter().filter(|m| m.len() == 1) {
        if rank(&m[0]).is_none() {
            wrong.push(format!("src/{}: not a layer of {ORDER:?}", m[0]));
        }
    }
    for i in &imports {
        let from = module_of(&src, &i.file);
        let (Some(a), Some(b)) = (rank(&from[0]), rank(&i.to[0])) else {
            continue;
        };
        if b > a {
            wrong.push(format!(
                "{}:{}: `{}` imports {} from {}, a higher layer: `{}`",
                shown(&i.file),
                i.line,
                from[0],
                i.to.join("::"),
                i.to[0],
                i.text
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// An import cycle among `nodes` (each edge with one import that makes it), if any.
fn find_cycle(edges: &BTreeMap<String, BTreeMap<String, Import>>) -> Option<Vec<Import>> {
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeMap<String, Import>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<(String, Import)>,
    ) -> Option<Vec<Import>> {
        state.insert(n.to_string(), 1);
        for (to, imp) in edges.get(n).into_iter().flatten() {
            match state.get(to.as_str()).copied().unwrap_or(0) {
                1 => {
                    let start = path.iter().position(|(f, _)| f == to).unwrap_or(path.len());
                    let mut cyc: Vec<Import> =
                        path[start..].iter().map(|(_, i)| i.clone()).collect();
                    cyc.push(imp.clone());
                    return Some(cyc);
                }
                0 => {
                    path.push((n.to_string(), imp.clone()));
                    if let Some(c) = visit(to, edges, state, path) {
                        return Some(c);
                    }
                    path.pop();
                }
                _ => {}
            }
        }
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in edges.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            let mut path = Vec::new();
            if let Some(c) = visit(n, edges, &mut state, &mut path) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_import_cycles_between_layers_nor_between_the_modules_of_a_layer() {
    let src = src();
    let (imports, _) = imports(&src);
    // Edges between layers, and between the modules one level down inside each layer.
    let mut groups: BTreeMap<String, BTreeMap<String, BTreeMap<String, Import>>> = BTreeMap::new();
    for i in &imports {
        let from = module_of(&src, &i.file);
        if from[0] != i.to[0] {
            groups
                .entry(String::new())
                .or_default()
                .entry(from[0].clone())
                .or_default()
                .entry(i.to[0].clone())
                .or_insert_with(|| i.clone());
        } else if from.len() >= 2 && i.to.len() >= 2 && from[1] != i.to[1] {
            groups
                .entry(from[0].clone())
                .or_default()
                .entry(format!("{}::{}", from[0], from[1]))
                .or_default()
                .entry(format!("{}::{}", i.to[0], i.to[1]))
                .or_insert_with(|| i.clone());
        }
    }
    let mut wrong = Vec::new();
    for (group, edges) in &groups {
        if let Some(cycle) = find_cycle(edges) {
            let place = if group.is_empty() { "src/" } else { group };
            let steps: Vec<String> = cycle
                .iter()
                .map(|i| format!("  {}:{}: `{}`", shown(&i.file), i.line, i.text))
                .collect();
            wrong.push(format!("an import cycle in {place}:\n{}", steps.join("\n")));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn src_has_at_most_thirteen_entries() {
    let mut names: Vec<String> = std::fs::read_dir(src())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(
        names.len() <= MAX_ROOT_ENTRIES,
        "src/ has {} entries (at most {MAX_ROOT_ENTRIES}): {names:?}",
        names.len()
    );
}

#[test]
fn the_checker_sees_upward_imports_cycles_and_groups() {
    let m = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    // `crate::` paths, groups, `super::` chains, and nothing in comments.
    assert_eq!(
        paths_in("use crate::world::{Tile, World};", &m("sim::edit")),
        [m("world")]
    );
    assert_eq!(
        paths_in("use crate::{cli, store::save};", &m("game::app")),
        [m("cli"), m("store::save")]
    );
    assert_eq!(
        paths_in(
            "use super::super::noise::hash32;",
            &m("worldgen::caves::prune")
        ),
        [m("worldgen::noise::hash32")]
    );
    assert!(paths_in("// see crate::game::window::frame", &m("base::rng")).is_empty());
    assert!(paths_in("let x = my_crate::world::X;", &m("base::rng")).is_empty());
    // A test block is skipped, what follows it is not.
    let text =
        "use crate::a;\n#[cfg(test)]\nmod tests {\n    fn f() { crate::b; }\n}\nuse crate::c;\n";
    let kept = without_tests(text);
    assert_eq!(kept.lines().count(), text.lines().count());
    assert!(kept.contains("crate::a") && !kept.contains("crate::b") && kept.contains("crate::c"));
    // A cycle of two is found and names both imports; a chain is not a cycle.
    let imp = |line| Import {
        file: PathBuf::from("src/x.rs"),
        line,
        text: String::new(),
        to: vec![],
    };
    let mut edges: BTreeMap<String, BTreeMap<String, Import>> = BTreeMap::new();
    edges
        .entry("a".into())
        .or_default()
        .insert("b".into(), imp(1));
    edges
        .entry("b".into())
        .or_default()
        .insert("c".into(), imp(2));
    assert!(find_cycle(&edges).is_none());
    edges
        .entry("c".into())
        .or_default()
        .insert("a".into(), imp(3));
    let cyc = find_cycle(&edges).expect("a → b → c → a");
    assert_eq!(cyc.iter().map(|i| i.line).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(rank("base"), Some(0));
    assert!(rank("game") > rank("sim") && rank("store") > rank("sim"));
}

/// Most lines in a file of the window (`src/game`), its tests aside.
const MAX_FILE_LINES: usize = 1200;
/// Most lines in a function of the window, its tests aside.
const MAX_FN_LINES: usize = 150;

/// The lines of a source outside its tests block.
fn code_lines(text: &str) -> usize {
    match test_block(text) {
        Some((start, end)) => {
            // What follows the block starts on its closing line.
            text[..start].lines().count() + text[end..].lines().count().saturating_sub(1)
        }
        None => text.lines().count(),
    }
}

/// Every function in a source outside its tests block: its name, first line (1-based) and
/// length in lines, from the `fn` line to the brace that closes it at the same indent.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let kept = without_tests(text);
    let lines: Vec<&str> = kept.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        let indent = line.len() - code.len();
        let mut rest = code;
        for word in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ] {
            rest = rest.strip_prefix(word).unwrap_or(rest);
        }
        let Some(sig) = rest.strip_prefix("fn ") else {
            continue;
        };
        let name: String = sig
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // A declaration without a body (a trait's) ends at its `;`.
        let head_end =
            (i..lines.len()).find(|&k| lines[k].contains('{') || lines[k].ends_with(';'));
        if head_end.is_none_or(|k| !lines[k].contains('{')) {
            continue;
        }
        let close = format!("{}}}", " ".repeat(indent));
        let one_line = lines[i].trim_end().ends_with('}');
        let end = match one_line {
            true => i,
            false => (i + 1..lines.len())
                .find(|&k| lines[k].trim_end() == close)
                .unwrap_or(i),
        };
        out.push((name, i + 1, end - i + 1));
    }
    out
}

#[test]
fn the_windows_files_and_functions_stay_readable() {
    let mut files = Vec::new();
    rust_files(&src().join("game"), &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for f in &files {
        let module = module_of(&src(), f);
        if is_test_file(&module) {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        let n = code_lines(&text);
        if n > MAX_FILE_LINES {
            wrong.push(format!(
                "{}: {n} lines outside its tests (at most {MAX_FILE_LINES})",
                shown(f)
            ));
        }
        for (name, line, len) in functions(&text) {
            if len > MAX_FN_LINES {
                wrong.push(format!(
                    "{}:{line}: fn {name} is {len} lines (at most {MAX_FN_LINES})",
                    shown(f)
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// macroquad's text calls: its fonts keep glyphs in an atlas that grows (and lays every
/// glyph out anew) when a new size or glyph arrives mid-frame, so queued text then draws
/// wrong letters. The window draws and measures text only through `game::text`, whose own
/// glyph textures never grow; nothing, `game::text` included, calls these.
const FONT_CALLS: [&str; 7] = [
    "draw_text(",
    "draw_text_ex(",
    "measure_text(",
    "draw_multiline_text",
    "get_default_font(",
    "load_ttf_font",
    "populate_font_cache(",
];

/// The lines of `text` (comments and tests aside) that call one of [`FONT_CALLS`].
fn font_calls(text: &str) -> Vec<usize> {
    without_tests(text)
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let code = l.split("//").next().unwrap_or("");
            FONT_CALLS.iter().any(|c| code.contains(c))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn the_windows_text_goes_through_one_helper() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for line in font_calls(&text) {
            wrong.push(format!(
                "{}:{line}: text not drawn through game::text",
                shown(f)
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    // The checker sees a call, and not a comment nor text::draw.
    assert_eq!(
        font_calls("a();\n  draw_text(t, 1.0);\n// measure_text(x)\ntext::draw(t)"),
        [2]
    );
}

#[test]
fn the_size_checker_measures_functions_and_leaves_tests_out() {
    let text = "fn a() {\n    x();\n}\n\nimpl B {\n    pub fn c(\n        d: u8,\n    ) -> u8 {\n        d\n    }\n    fn e(&self);\n}\n#[cfg(test)]\nmod tests {\n    fn f() {\n    }\n}\n";
    let found = functions(text);
    assert_eq!(
        found,
        [("a".to_string(), 1, 3), ("c".to_string(), 6, 5)],
        "a trait's declaration and the tests' functions are not counted"
    );
    assert_eq!(code_lines(text), 12);
}
