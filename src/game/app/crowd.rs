//! `strata play --creatures N`, a developer's option for measuring a crowded frame
//! (BENCHMARKS.md): every frame the creatures in the local player's view are topped up to
//! N, each new one standing on the ground at a spot in view (slimes, zombies, demon eyes,
//! cave bats and skeletons in turn), and the player is kept alive (health and breath full)
//! so the crowd stays round it. Not for play: nothing of it is saved on purpose, though
//! an autosave keeps what the crowd does to the player.

use crate::sim::creatures::{Creature, Kind, spawn_spot};
use crate::sim::session::{LOCAL, Session};
use std::sync::Arc;

/// The kinds of the crowd, in turn (a name this build's table lacks is skipped).
pub const KINDS: [&str; 5] = ["slime", "zombie", "demon eye", "cave bat", "skeleton"];

/// Columns tried per frame for the missing ones.
const TRIES: u64 = 64;

/// Tops the creatures in the local player's view up to `n` (`turn` counts the spots
/// tried, frame to frame) and fills the player's health and breath; returns how many
/// are in view now.
pub fn keep(s: &mut Session, n: usize, turn: &mut u64) -> usize {
    let bestiary = Arc::clone(&s.content.bestiary);
    let kinds: Vec<Kind> = KINDS.iter().filter_map(|k| bestiary.kind(k)).collect();
    let p = &mut s.players[LOCAL.0];
    p.vitals.health = p.vitals.max_health;
    p.vitals.breath = s.content.rules.breath_seconds;
    let (at, half) = (p.body.pos, p.view_half);
    let in_view = |c: &Creature| {
        (c.body.pos.0 - at.0).abs() <= half.0 && (c.body.pos.1 - at.1).abs() <= half.1
    };
    let mut shown = s.creatures.list.iter().filter(|c| in_view(c)).count();
    let w = 2.0 * half.0;
    for _ in 0..TRIES {
        if shown >= n || kinds.is_empty() {
            break;
        }
        *turn += 1;
        let r = crate::base::rng::mix64(*turn);
        // A column in view, and the first ground in it from the view's top.
        let x = (at.0 - half.0 + (r % 1024) as f32 / 1024.0 * w) as i64;
        let (top, bottom) = ((at.1 - half.1) as i64, (at.1 + half.1) as i64);
        let Some(y) = (top..bottom).find(|&y| spawn_spot(&s.world, x, y)) else {
            continue;
        };
        let kind = kinds[(*turn as usize) % kinds.len()];
        let feet = (x as f32 + 0.5, y as f32 + 1.0);
        s.creatures.list.push(Creature::new(&bestiary, kind, feet));
        shown += 1;
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_is_topped_up_to_the_crowd_and_the_player_kept_whole() {
        let p = crate::content::preset::Preset {
            width: 400,
            height: 200,
            ..Default::default()
        };
        let mut s = Session::new(crate::worldgen::generate(&p, 5).0);
        s.players[0].vitals.health = 1.0;
        let mut turn = 0;
        assert_eq!(keep(&mut s, 30, &mut turn), 30);
        assert_eq!(s.creatures.list.len(), 30);
        assert_eq!(s.me().vitals.health, s.me().vitals.max_health);
        let kinds: std::collections::BTreeSet<_> =
            s.creatures.list.iter().map(|c| c.kind).collect();
        assert!(kinds.len() >= 3, "a mixed crowd: {kinds:?}");
        // Those in view count; the full crowd adds none, and one gone is made again.
        assert_eq!(keep(&mut s, 30, &mut turn), 30);
        assert_eq!(s.creatures.list.len(), 30);
        s.creatures.list.pop();
        assert_eq!(keep(&mut s, 30, &mut turn), 30);
        assert_eq!(s.creatures.list.len(), 30);
    }
}
