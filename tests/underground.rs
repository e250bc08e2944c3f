//! The underground's targets, measured at a reduced size (1600x600 instead of 6400x1800)
//! over a few seeds of the default preset: cave air 25-40% of the ground, the largest cave
//! at least 60% of all cave air in every world and 80% in the median one, at least 2 cave
//! mouths per 1000 columns, and a walk from the surface to 30% of the depth below it in
//! every world. `cargo run --release --example underground` measures them at full size.

use strata::analysis::underground::survey;
use strata::content::preset::Preset;
use strata::worldgen::generate;

#[test]
fn default_worlds_meet_the_underground_targets() {
    let p = Preset {
        width: 1600,
        height: 600,
        ..Preset::default()
    };
    let mut largest = Vec::new();
    for seed in [1, 2, 3] {
        let (w, _) = generate(&p, seed);
        let s = survey(&w);
        assert!(
            (0.25..=0.40).contains(&s.cave_share()),
            "seed {seed}: cave air {:.3} of the ground",
            s.cave_share()
        );
        assert!(
            s.largest_share() >= 0.6,
            "seed {seed}: largest cave {:.3}",
            s.largest_share()
        );
        assert!(
            s.mouths_per_1000(w.width()) >= 2.0,
            "seed {seed}: {} mouths",
            s.mouths
        );
        assert!(
            s.walk_depth >= 0.3,
            "seed {seed}: walk to {:.3}",
            s.walk_depth
        );
        largest.push(s.largest_share());
    }
    largest.sort_by(|a, b| a.total_cmp(b));
    assert!(largest[1] >= 0.8, "median largest cave {:.3}", largest[1]);
}
