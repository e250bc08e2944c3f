//! Strata's own fuzzing: seeded mutations of real preset files and saves, fed to the preset
//! parser and the save decoder, with what must hold for every input checked.
//!
//! Every case is a pure function of `(seed, case number)`, so a failure is reproduced by
//! its numbers alone. `cargo test` runs a few thousand cases of each (`fuzz::tests`);
//! `cargo run --release --example fuzz -- [presets|saves|all] CASES [SEED]` runs as many as
//! asked and prints the numbers of any case that fails.
//!
//! What must hold:
//! - presets: parsing never panics; an accepted preset validates, survives a round trip
//!   through the RON a save stores, generates a small world, and that world's save loads;
//!   a refused one has a message and, when it has a position, one inside the text;
//! - saves: decoding never panics or allocates past the bytes and world it is given; an
//!   accepted save encodes back to a save that decodes to the same world and player.
//!   Half the mutated saves get their checksum fixed, so the checks behind it are reached;
//! - played saves ([`SaveFuzzer::played_case`]): a save the loader accepts, with items, the
//!   player and the town put at and near the world's very edges, played a few seconds with
//!   random moves, saves again as a save the loader accepts (what loads stays loadable).

use crate::base::rng::mix64;
use crate::content::items::Catalog;
use crate::content::preset::{self, Preset};
use crate::store::save::{self, PlayerState};
use crate::world::Tile;
use std::sync::Arc;

/// A small counter-based random stream for one case.
pub struct CaseRng(u64);

impl CaseRng {
    pub fn new(seed: u64, case: u64) -> CaseRng {
        CaseRng(mix64(
            seed ^ mix64(case.wrapping_add(0x9e37_79b9_7f4a_7c15)),
        ))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.0)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Preset text pieces that mutations splice in: the syntax, field names and values that
/// reach the parser's corners.
const PRESET_TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    "\"",
    "r#\"",
    "\"#",
    "/*",
    "*/",
    "//",
    "\n",
    "\u{feff}",
    "\\",
    "\\u{0}",
    "é",
    "name:",
    "width:",
    "height:",
    "caves:",
    "fill:",
    "octaves:",
    "table:",
    "tile:",
    "threshold:",
    "min_depth:",
    "surface:",
    "ores:",
    "water:",
    "grass:",
    "mode:",
    "jitter:",
    "1e308",
    "-1e-300",
    "NaN",
    "inf",
    "-0.0",
    "0x10",
    "4294967296",
    "18446744073709551616",
    "-1",
    "1.0",
    "Some(",
    "None",
    "true",
    "PerColumn",
    "SkyLit",
    "DiamondOre",
    "Air",
    "Water",
];

/// Save bytes that mutations splice in: boundaries of the integers the format holds.
const SAVE_TOKENS: &[&[u8]] = &[
    &[0],
    &[0xff],
    &[0x7f],
    &[0x80],
    &[0xff, 0xff, 0xff, 0xff],
    &[0, 0, 0, 0x80],
    &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
    &[0xe0, 0xff, 0x7f],
    b"STRATA\0",
];

/// Applies one to four random edits to `bytes`: bit flips, byte writes, insertions and
/// deletions of runs, copies of a run elsewhere, and tokens spliced in.
pub fn mutate(bytes: &mut Vec<u8>, rng: &mut CaseRng, tokens: &[&[u8]]) {
    for _ in 0..1 + rng.below(4) {
        let len = bytes.len();
        let at = if len == 0 { 0 } else { rng.below(len + 1) };
        match rng.below(7) {
            0 if len > 0 => {
                let i = at.min(len - 1);
                bytes[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = at.min(len - 1);
                bytes[i] = rng.next_u64() as u8;
            }
            2 => {
                let n = 1 + rng.below(8);
                let fill: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
                bytes.splice(at..at, fill);
            }
            3 if len > 0 => {
                let n = 1 + rng.below(16.min(len));
                let start = at.min(len - n);
                bytes.drain(start..start + n);
            }
            4 if len > 0 => {
                let n = 1 + rng.below(32.min(len));
                let start = rng.below(len - n + 1);
                let copy = bytes[start..start + n].to_vec();
                bytes.splice(at..at, copy);
            }
            5 => bytes.truncate(at),
            _ => {
                let t = tokens[rng.below(tokens.len())];
                bytes.splice(at..at, t.iter().copied());
            }
        }
    }
}

/// The preset texts mutations start from.
fn preset_corpus() -> [&'static str; 5] {
    [
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/presets/classic.ron"
        )),
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/presets/default.ron"
        )),
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/config/presets/caverns.ron"
        )),
        "(name: \"Small\", width: 64, height: 48, caves: (fill: 0.5))",
        "(\n  /* a block comment */ width: 80, // and a line one\n  ores: (table: [\n    (tile: IronOre, threshold: 0.4, min_depth: 2),\n  ]),\n)",
    ]
}

/// Checks one mutated preset; `Err` says what did not hold.
pub fn preset_case(seed: u64, case: u64) -> Result<(), String> {
    let mut rng = CaseRng::new(seed, case);
    let corpus = preset_corpus();
    let mut bytes = corpus[rng.below(corpus.len())].as_bytes().to_vec();
    let tokens: Vec<&[u8]> = PRESET_TOKENS.iter().map(|t| t.as_bytes()).collect();
    mutate(&mut bytes, &mut rng, &tokens);
    let text = String::from_utf8_lossy(&bytes);
    check_preset_text(&text)
}

/// What must hold for any preset text.
pub fn check_preset_text(text: &str) -> Result<(), String> {
    match preset::parse(text, "fuzz.ron") {
        Ok(p) => {
            p.validate()
                .map_err(|e| format!("accepted but invalid: {e}"))?;
            let stored = ron::to_string(&p).map_err(|e| format!("does not serialise: {e}"))?;
            let again = preset::parse(&stored, "stored")
                .map_err(|e| format!("its stored text is refused: {e}"))?;
            if again != p {
                return Err("its stored text parses to another preset".into());
            }
            let small = Preset {
                width: 48,
                height: 40,
                ..p
            };
            let (world, _) = crate::worldgen::generate(&small, 1);
            let cat = crate::content::config::Content::builtin().catalog;
            let player = PlayerState::new(crate::sim::player::spawn_point(&world), &cat);
            save::decode(&save::encode(&world, &player), &cat)
                .map(|_| ())
                .map_err(|e| format!("its world's save is refused: {e}"))
        }
        Err(e) => {
            if e.message.is_empty() {
                return Err("refused without a message".into());
            }
            if let Some((line, col)) = e.position {
                let lines = text.split('\n').count();
                if line == 0 || col == 0 || line > lines + 1 {
                    return Err(format!("position {line}:{col} outside the text: {e}"));
                }
            }
            Ok(())
        }
    }
}

/// The saves mutations start from: small worlds of three presets, with a player who has
/// dug and built, its items `cat`'s.
fn save_corpus(cat: &Arc<Catalog>) -> Vec<Vec<u8>> {
    [
        ("classic", 64, 40),
        ("default", 48, 64),
        ("caverns", 72, 32),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, (name, w, h))| {
        let text = match name {
            "classic" => include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/config/presets/classic.ron"
            )),
            "default" => include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/config/presets/default.ron"
            )),
            _ => include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/config/presets/caverns.ron"
            )),
        };
        let p = preset::parse(text, name).unwrap_or_default();
        let small = Preset {
            width: w,
            height: h,
            ..p
        };
        let (mut world, _) = crate::worldgen::generate(&small, i as u64 + 7);
        world.set(3, 3, Tile::Torch);
        // A chest holding something, so the cases reach the chests section.
        world.set(5, 3, Tile::Chest);
        let chest = world.chests.open(5, 3);
        chest.add(
            cat,
            cat.id("gel").unwrap_or(crate::content::items::ItemId(0)),
            9,
        );
        let mut inventory = crate::world::inventory::Inventory::starting(cat);
        inventory.add(Tile::Stone, 40);
        inventory.select(2);
        let player = PlayerState {
            inventory,
            ..PlayerState::new(crate::sim::player::spawn_point(&world), cat)
        };
        save::encode(&world, &player)
    })
    .collect()
}

/// Save cases: the corpus is built once per run.
pub struct SaveFuzzer {
    corpus: Vec<Vec<u8>>,
    /// The built-in catalog the saves are written and read with.
    cat: Arc<Catalog>,
}

impl Default for SaveFuzzer {
    fn default() -> Self {
        let cat = Arc::new(Catalog::builtin().unwrap_or_else(|e| panic!("{e}")));
        SaveFuzzer {
            corpus: save_corpus(&cat),
            cat,
        }
    }
}

impl SaveFuzzer {
    /// The bytes of one case: a mutated save (every third case a single bit flipped, which
    /// keeps the structure and reaches the value checks), its checksum fixed in every
    /// other case.
    pub fn bytes(&self, seed: u64, case: u64) -> Vec<u8> {
        let mut rng = CaseRng::new(seed, case);
        let mut bytes = self.corpus[rng.below(self.corpus.len())].clone();
        if case.is_multiple_of(3) {
            let i = rng.below(bytes.len());
            bytes[i] ^= 1 << rng.below(8);
        } else {
            mutate(&mut bytes, &mut rng, SAVE_TOKENS);
        }
        if case.is_multiple_of(2) && bytes.len() >= 4 {
            let n = bytes.len() - 4;
            let sum = save::fnv1a32(&bytes[..n]);
            bytes[n..].copy_from_slice(&sum.to_le_bytes());
        }
        bytes
    }

    /// Checks one mutated save; `Err` says what did not hold.
    pub fn case(&self, seed: u64, case: u64) -> Result<(), String> {
        check_save_bytes(&self.cat, &self.bytes(seed, case))
    }
}

impl SaveFuzzer {
    /// Checks one played save: a corpus save (or an accepted mutation of one), with items,
    /// the player and the town moved to points at and near the edges of the world, that
    /// the loader accepts, played 1 to 3 seconds with random moves; its save must load.
    pub fn played_case(&self, seed: u64, case: u64) -> Result<(), String> {
        use crate::sim::session::{Intent, LOCAL, Session, TICK};
        let mut rng = CaseRng::new(seed ^ 0x504c_4159, case);
        let mutated = self.bytes(seed, case);
        let cat = &self.cat;
        let (mut world, mut player) = match save::decode(&mutated, cat) {
            Ok(loaded) if rng.below(2) == 0 => loaded,
            _ => save::decode(&self.corpus[rng.below(self.corpus.len())], cat)
                .map_err(|e| format!("corpus save refused: {e}"))?,
        };
        let (w, h) = (world.width() as f32, world.height() as f32);
        // Edges first: 0, the far side, just inside either, then anywhere.
        let mut coord = |max: f32| match rng.below(6) {
            0 => 0.0,
            1 => max,
            2 => max - 1e-3,
            3 => 1e-3,
            4 => max - 0.5,
            _ => (rng.below(1000) as f32 / 1000.0) * max,
        };
        let gel = cat.id("gel").unwrap_or(crate::content::items::ItemId(0));
        for _ in 0..1 + (case % 5) {
            let at = (coord(w), coord(h));
            let stack = crate::world::inventory::Stack {
                item: gel,
                count: 1,
            };
            world
                .dropped
                .push(crate::world::dropped::Dropped::new(stack, at, None));
        }
        if case.is_multiple_of(2) {
            player.pos = (coord(w), coord(h));
        }
        for n in player.town.iter_mut() {
            n.pos = (coord(w), coord(h));
        }
        let bytes = save::encode(&world, &player);
        let Ok((world, player)) = save::decode(&bytes, cat) else {
            return Ok(());
        };
        let mut session = Session::from_save(world, player);
        let ticks = (1.0 + rng.below(3) as f64) / TICK;
        for t in 0..ticks as u64 {
            let axis = [-1, 0, 1][rng.below(3)];
            let jump = t % 20 == 0 && rng.below(2) == 0;
            session.step(&[(LOCAL, Intent::Move { axis, jump })]);
        }
        let state = session.player_state(LOCAL);
        save::loads_again(&session.world, &state).map_err(|e| {
            let items: Vec<_> = session.world.dropped.iter().map(|d| d.pos).collect();
            format!(
                "played save refused: {e} (player at {:?}, items at {items:?})",
                state.pos
            )
        })
    }
}

/// What must hold for any bytes given to the save decoder.
pub fn check_save_bytes(cat: &Arc<Catalog>, bytes: &[u8]) -> Result<(), String> {
    let Ok((world, player)) = save::decode(bytes, cat) else {
        return Ok(());
    };
    if bytes.len() as u64 > save::max_save_len(bytes) {
        return Err("accepted a save longer than its header allows".into());
    }
    let again = save::encode(&world, &player);
    let (w2, p2) =
        save::decode(&again, cat).map_err(|e| format!("re-encoded save refused: {e}"))?;
    if w2.tiles() != world.tiles()
        || w2.surface != world.surface
        || w2.chests != world.chests
        || w2.explored != world.explored
        || p2 != player
    {
        return Err("re-encoded save decodes to another world".into());
    }
    if w2.preset != world.preset {
        return Err("re-encoded save has another preset".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `cases` cases of `check` from `seed`, failing with the first failing case's
    /// numbers (a panic is a failure too).
    fn run(name: &str, seed: u64, cases: u64, check: impl Fn(u64) -> Result<(), String>) {
        for case in 0..cases {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(case)));
            match outcome {
                Ok(Ok(())) => {}
                Ok(Err(e)) => panic!("{name} seed {seed} case {case}: {e}"),
                Err(_) => panic!("{name} seed {seed} case {case}: panicked"),
            }
        }
    }

    #[test]
    fn mutations_are_a_function_of_seed_and_case() {
        let edit = |seed, case| {
            let mut b = b"(width: 100)".to_vec();
            mutate(&mut b, &mut CaseRng::new(seed, case), SAVE_TOKENS);
            b
        };
        assert_eq!(edit(1, 2), edit(1, 2));
        let distinct: std::collections::HashSet<Vec<u8>> = (0..200).map(|c| edit(1, c)).collect();
        assert!(distinct.len() > 150, "{} distinct of 200", distinct.len());
    }

    #[test]
    fn preset_parser_survives_mutations() {
        run("presets", 2026, 3000, |case| preset_case(2026, case));
    }

    #[test]
    fn save_decoder_survives_mutations() {
        let fuzzer = SaveFuzzer::default();
        run("saves", 2026, 3000, |case| fuzzer.case(2026, case));
    }

    #[test]
    fn played_saves_save_again_as_saves_that_load() {
        let fuzzer = SaveFuzzer::default();
        run("played", 2026, 120, |case| fuzzer.played_case(2026, case));
    }

    #[test]
    fn the_cases_reach_both_acceptance_and_refusal() {
        let fuzzer = SaveFuzzer::default();
        for bytes in &fuzzer.corpus {
            assert!(save::decode(bytes, &fuzzer.cat).is_ok());
        }
        let decoded = |case| save::decode(&fuzzer.bytes(5, case), &fuzzer.cat).is_ok();
        // A save holds its preset's text, so the longer the shipped presets, the more
        // mutations land in text that no longer parses: one or two percent are accepted
        // (9 of 600 since the presets name each noise field's basis).
        let accepted = (0..600).filter(|&c| decoded(c)).count();
        assert!(
            (5..300).contains(&accepted),
            "{accepted} of 600 saves accepted"
        );
        let parsed = |case| {
            let mut rng = CaseRng::new(5, case);
            let corpus = preset_corpus();
            let mut bytes = corpus[rng.below(corpus.len())].as_bytes().to_vec();
            let tokens: Vec<&[u8]> = PRESET_TOKENS.iter().map(|t| t.as_bytes()).collect();
            mutate(&mut bytes, &mut rng, &tokens);
            preset::parse(&String::from_utf8_lossy(&bytes), "x").is_ok()
        };
        let accepted = (0..300).filter(|&c| parsed(c)).count();
        assert!(
            (15..285).contains(&accepted),
            "{accepted} of 300 presets accepted"
        );
    }
}
