//! Tests of mods: what they add and change, where their mistakes are placed, and that a
//! refused file changes nothing.

use super::*;
use crate::content::config::Content;

/// A mod that adds a sword of gel and its recipe (no station).
pub(crate) const GEL_SWORD: &str = "// A sword of gel.
(
    items: [
        (name: \"gel_sword\", label: \"gel sword\", kind: Sword, damage: 12, reach: 2.0,
         cooldown: 0.4, color: (90, 160, 230)),
    ],
    recipes: [
        (make: \"gel_sword\", from: [(\"gel\", 5), (\"wood\", 2)]),
    ],
)
";

fn text(name: &str, text: &str) -> ModText {
    ModText {
        name: name.into(),
        text: text.into(),
    }
}

fn refused(mods: &[ModText]) -> String {
    Content::with_mods(mods).unwrap_err().to_string()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("strata-mods-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_mod_adds_its_item_after_the_built_in_ones_and_its_recipe_at_the_end() {
    let base = Content::builtin();
    let c = Content::with_mods(&[text("mods/gel.ron", GEL_SWORD)]).unwrap();
    let id = c.catalog.id("gel_sword").expect("the mod's item");
    assert_eq!(
        id.0 as usize,
        base.catalog.items.len(),
        "after the built-in items"
    );
    assert_eq!(
        c.catalog.items[..base.catalog.items.len()],
        base.catalog.items[..]
    );
    let item = c.catalog.item(id);
    assert_eq!((item.label.as_str(), item.stack), ("gel sword", 1));
    assert_eq!(c.catalog.recipes.len(), base.catalog.recipes.len() + 1);
    let r = c.catalog.recipes.last().unwrap();
    assert_eq!(r.make, id);
    assert_eq!(
        r.from,
        [
            (c.catalog.id("gel").unwrap(), 5),
            (c.catalog.id("wood").unwrap(), 2)
        ]
    );
    assert_eq!(
        (&c.loot, &c.town, &c.rules),
        (&base.loot, &base.town, &base.rules)
    );
    // Its file is named with its hash; the content's hash moves with it.
    assert_eq!(c.files.len(), base.files.len() + 1);
    assert_eq!(
        c.files.last().unwrap(),
        &Source::of("mods/gel.ron", GEL_SWORD)
    );
    assert_ne!(c.hash(), base.hash());
    assert_eq!(
        base.hash(),
        Content::builtin().hash(),
        "the same files, the same hash"
    );
}

#[test]
fn an_item_or_recipe_of_the_same_name_replaces_the_built_in_one_in_its_place() {
    let base = Content::builtin();
    let torch = base.catalog.id("torch").unwrap();
    let m = "(items: [(name: \"torch\", label: \"bright torch\", kind: Block, tile: \"torch\", \
             stack: 50)], recipes: [(make: \"torch\", count: 8, from: [(\"gel\", 1), (\"wood\", 1)])])";
    let c = Content::with_mods(&[text("mods/torch.ron", m)]).unwrap();
    assert_eq!(c.catalog.id("torch"), Some(torch), "the same id");
    assert_eq!(c.catalog.item(torch).label, "bright torch");
    assert_eq!(c.catalog.item(torch).stack, 50);
    assert_eq!(c.catalog.items.len(), base.catalog.items.len());
    assert_eq!(c.catalog.recipes.len(), base.catalog.recipes.len());
    let made = |c: &Content| {
        c.catalog
            .recipes
            .iter()
            .find(|r| r.make == torch)
            .unwrap()
            .count
    };
    assert_eq!((made(&base), made(&c)), (4, 8));
    // Rules: what a mod gives replaces the built-in rule; loot: the whole table.
    let m = "(rules: (day_minutes: 2.0), loot: (tiers: [(layer: Cavern, rolls: (1, 1), \
             items: [(item: \"gel\", count: (1, 2), weight: 1)])]))";
    let c = Content::with_mods(&[text("mods/short.ron", m)]).unwrap();
    assert_eq!(c.rules.day_minutes, 2.0);
    assert_eq!(c.rules.start_time, base.rules.start_time);
    assert_eq!(c.loot.tiers.len(), 1);
    assert_ne!(c.loot, base.loot);
}

#[test]
fn a_mod_s_mistakes_are_placed_in_its_own_file() {
    // A syntax error.
    let e = refused(&[text("mods/bad.ron", "(items: [(name: \"x\",]")]);
    assert!(e.starts_with("mods/bad.ron:1:"), "{e}");
    // A value out of range, on the third line: the row numbered as in the mod.
    let bad = GEL_SWORD.replace("damage: 12", "damage: 0");
    let e = refused(&[text("mods/bad.ron", &bad)]);
    assert!(
        e.starts_with("mods/bad.ron:4:")
            && e.contains("items[0].damage = 0")
            && e.contains("1..=1000"),
        "{e}"
    );
    // A recipe of an item nobody has.
    let bad = GEL_SWORD.replace("(\"gel\", 5)", "(\"jelly\", 5)");
    let e = refused(&[text("mods/bad.ron", &bad)]);
    assert!(
        e.starts_with("mods/bad.ron:8:") && e.contains("recipes[0].from[0] = \"jelly\""),
        "{e}"
    );
    // A field no section has, and rules and loot out of range.
    let e = refused(&[text("mods/bad.ron", "(monsters: [])")]);
    assert!(
        e.starts_with("mods/bad.ron:1:") && e.contains("monsters"),
        "{e}"
    );
    let e = refused(&[text("mods/bad.ron", "(\n  rules: (day_minutes: -1.0),\n)")]);
    assert!(
        e.starts_with("mods/bad.ron:2:") && e.contains("day_minutes"),
        "{e}"
    );
    let loot = "(\n loot: (tiers: [(layer: Cavern, rolls: (1, 1),\n items: [(item: \"gel\", \
                count: (1, 2), weight: 0)])]),\n)";
    let e = refused(&[text("mods/bad.ron", loot)]);
    assert!(
        e.starts_with("mods/bad.ron:3:") && e.contains("weight = 0"),
        "{e}"
    );
    // Two items placing one tile: the second mod's row is named.
    let dirt =
        "(items: [(name: \"more_dirt\", label: \"more dirt\", kind: Block, tile: \"dirt\")])";
    let e = refused(&[text("mods/gel.ron", GEL_SWORD), text("mods/dirt.ron", dirt)]);
    assert!(
        e.starts_with("mods/dirt.ron:1:") && e.contains("items[0].tile"),
        "{e}"
    );
}

#[test]
fn a_refused_mod_is_skipped_whole_and_the_others_apply() {
    let dir = temp("gather");
    std::fs::write(dir.join("a_gel.ron"), GEL_SWORD).unwrap();
    // Its first item is fine, its second is not: nothing of it is applied.
    let half = "(items: [\n  (name: \"gold_dust\", label: \"gold dust\", kind: Material),\n  \
                (name: \"lead\", label: \"lead\", kind: Material, stack: 0),\n])";
    std::fs::write(dir.join("b_half.ron"), half).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a mod").unwrap();
    let (c, outcomes) = Content::gather(None, &dir);
    assert_eq!(outcomes.len(), 2, "the .ron files, by name");
    assert!(outcomes[0].result.is_ok());
    let e = outcomes[1].result.as_ref().unwrap_err();
    assert!(
        e.starts_with("mods/b_half.ron:3:") && e.contains("items[1].stack"),
        "{e}"
    );
    assert!(c.catalog.id("gel_sword").is_some());
    assert_eq!(c.catalog.id("gold_dust"), None, "never half applied");
    let names: Vec<&str> = c.files.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"mods/a_gel.ron") && !names.contains(&"mods/b_half.ron"));
    assert_eq!(
        c,
        Content::with_mods(&[text("mods/a_gel.ron", GEL_SWORD)]).unwrap()
    );
    // No folder: the built-in content.
    let (none, outcomes) = Content::gather(None, &dir.join("missing"));
    assert!(outcomes.is_empty());
    assert_eq!(none, Content::builtin());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn differing_content_is_one_sentence_naming_the_files() {
    let base = Content::builtin().files;
    let gel = Content::with_mods(&[text("mods/gel.ron", GEL_SWORD)])
        .unwrap()
        .files;
    assert_eq!(differs(&base, &base, "the server"), None);
    let s = differs(&base, &gel, "the server").unwrap();
    assert_eq!(
        s,
        "The server's content differs from yours: mods/gel.ron (only the server has it)"
    );
    let s = differs(&gel, &base, "the server").unwrap();
    assert!(s.ends_with("mods/gel.ron (only you have it)"), "{s}");
    let other = Content::with_mods(&[text("mods/gel.ron", &GEL_SWORD.replace("12", "13"))])
        .unwrap()
        .files;
    let s = differs(&gel, &other, "the server").unwrap();
    assert!(s.ends_with("mods/gel.ron (not the same)"), "{s}");
    assert!(
        !s.contains('\n') && s.starts_with("The server's"),
        "one sentence: {s}"
    );
}

/// A mod with a stand-in bomb (a sword of gel, until the weapons' bomb) and the built-in
/// town with `newcomers` in place of its own.
fn demolitionist_mod(newcomers: &str) -> String {
    let town = crate::content::town::TOWN_RON;
    let start = town.find("    newcomers: [").unwrap();
    let end = start + town[start..].find("\n    ],").unwrap() + 7;
    let town = format!(
        "{}    newcomers: [\n{newcomers}\n    ],{}",
        &town[..start],
        &town[end..]
    );
    let items = GEL_SWORD.replace("gel_sword", "bomb");
    let items = items.trim_end().trim_end_matches(')');
    format!("{items}    town: {town})\n")
}

#[test]
fn a_mod_s_newcomers_arrive_by_its_items_and_a_bad_condition_is_placed_in_the_mod() {
    let good = demolitionist_mod(
        "        (name: \"Demolitionist\", when: [Has(\"bomb\")], sells: [(item: \"bomb\", price: 300)]),",
    );
    let c = Content::with_mods(&[text("mods/demo.ron", &good)]).unwrap();
    let bomb = c.catalog.id("bomb").unwrap();
    let d = c.town.newcomer("Demolitionist").unwrap();
    assert_eq!(d.when, vec![crate::content::town::Needs::Has(bomb)]);
    assert_eq!(c.town.shop("Demolitionist").unwrap().price(bomb), Some(300));
    let bad = good.replace("Has(\"bomb\")", "Defeated(\"skeleton\")");
    let line = bad.lines().position(|l| l.contains("skeleton")).unwrap() + 1;
    let e = refused(&[text("mods/demo.ron", &bad)]);
    assert!(
        e.starts_with(&format!("mods/demo.ron:{line}:")) && e.contains("names no boss"),
        "{e}"
    );
}

/// A mod that adds a creature of its own.
const RUBY_SLIME: &str = "(
    creatures: [
        (name: \"ruby slime\", label: \"Ruby slime\", health: 90.0, damage: 20.0,
         color: (220, 30, 50), size: (1.1, 0.9), behaviour: Hopper(every: 1.0, high: true),
         drops: [(item: \"ruby\", count: (1, 2))]),
    ],
)";

#[test]
fn a_mod_adds_a_creature_whose_drops_must_be_items() {
    let base = Content::builtin();
    let m = |text: &str| ModText {
        name: "mods/ruby.ron".into(),
        text: text.into(),
    };
    let c = Content::with_mods(&[m(RUBY_SLIME)]).unwrap();
    assert_eq!(c.bestiary.kinds.len(), base.bestiary.kinds.len() + 1);
    assert_eq!(c.bestiary.kinds.last().unwrap().name, "ruby slime");
    // Its kind is one of this content's now: no Rust names it, and the built-in content
    // (another session's) does not know it.
    let k = c.bestiary.kind("ruby slime").unwrap();
    assert!(k.0 as usize >= base.bestiary.kinds.len());
    let st = c.bestiary.stats(k);
    assert_eq!((st.health, st.drop), (90.0, "ruby"));
    assert_eq!(base.bestiary.kind("ruby slime"), None);
    // A drop that is no item is refused, placed in the mod's file.
    let e = Content::with_mods(&[m(&RUBY_SLIME.replace("\"ruby\"", "\"rubee\""))])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("mods/ruby.ron:5:") && e.contains("creatures[0].drops[0].item"),
        "{e}"
    );
}
