//! Saves of before characters were kept apart: their player becomes a character
//! ([`crate::net::chars::enter`]), who then carries it into a new world (R).

use super::tests::{cat, generated};
use super::*;
use crate::net::chars::enter;
use crate::store::character::Sheet;

#[test]
fn an_old_saves_player_becomes_a_character_that_carries_it_into_a_new_world() {
    let cat = cat();
    let world = generated(64, 40, 7);
    let mut player = PlayerState::new((32.5, 11.0), &cat);
    player.inventory.add(Tile::Stone, 12);
    player.inventory.add(Tile::GoldOre, 3);
    player.health = 61.5;
    player.bed = Some((30, 12));
    // Formats 4 (the first with sections), 7 and this one's.
    for version in [4, 7, VERSION] {
        let (w, p) = decode(&encode_as(&world, &player, version), &cat).unwrap();
        let mut ann = Sheet::blank("Ann");
        let there = enter(&mut ann, w.id, &p).expect("the save's player takes a seat");
        assert_eq!(
            there.inventory.slots(),
            p.inventory.slots(),
            "format {version}"
        );
        assert_eq!(
            (there.pos, there.health, there.bed),
            (p.pos, p.health, p.bed)
        );
        assert_eq!(ann.place(w.id).map(|pl| pl.pos), Some(p.pos));
        // A new world (R): what it carries goes with it, and it stands at that world's
        // spawn point, not where it stood in the old one.
        let new_world = generated(64, 40, 8);
        let mut new_id = new_world.id;
        if new_id == w.id {
            new_id ^= 1;
        }
        let spawn = crate::sim::player::spawn_point(&new_world);
        let fresh = PlayerState::new(spawn, &cat);
        let there = enter(&mut ann, new_id, &fresh).unwrap();
        assert_eq!(there.inventory.slots(), p.inventory.slots());
        assert_eq!((there.pos, there.bed), (spawn, None));
        // Back in the old world, it is where it stood there (the save's player no more
        // decides what it carries).
        let mut other = p.clone();
        other.inventory = Inventory::empty(&cat);
        let back = enter(&mut ann, w.id, &other).unwrap();
        assert_eq!((back.pos, back.bed), (p.pos, p.bed));
        assert_eq!(back.inventory.slots(), p.inventory.slots());
    }
}
