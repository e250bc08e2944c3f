use super::*;

fn walled() -> World {
    // Open air with a wall one tile thick at x = 20.
    let mut w = World::new(40, 20, 0, crate::content::preset::Preset::default());
    for y in 0..20 {
        w.set(20, y, Tile::Stone);
    }
    w
}

fn arrow(vel: (f32, f32)) -> Projectile {
    Projectile {
        look: Look::Bolt,
        pos: (5.5, 10.5),
        vel,
        owner: 0,
        damage: 10.0,
        pierce: 0,
        life: LIFETIME,
        blast: None,
    }
}

#[test]
fn a_fast_projectile_stops_at_a_thin_wall_instead_of_passing_it() {
    let w = walled();
    // 600 tiles a second: ten tiles a tick, far more than the wall is thick.
    let mut p = arrow((600.0, 0.0));
    let mut hit = None;
    for _ in 0..10 {
        match p.fly(&w, 1.0 / 60.0) {
            Flight::Wall(_, to) => {
                hit = Some(to);
                break;
            }
            Flight::Moved(..) => {}
            Flight::Out => break,
        }
    }
    let to = hit.expect("it met the wall");
    assert!(
        to.0 < 20.0 && to.0 > 19.0,
        "stopped just before the wall: {to:?}"
    );
}

#[test]
fn a_projectile_with_no_wall_ahead_flies_on_until_its_time_is_out() {
    let w = World::new(4000, 20, 0, crate::content::preset::Preset::default());
    let mut p = arrow((30.0, 0.0));
    let mut ticks = 0;
    while let Flight::Moved(..) = p.fly(&w, 1.0 / 60.0) {
        ticks += 1;
    }
    assert_eq!(ticks, (LIFETIME * 60.0) as usize - 1);
    assert!(p.pos.0 > 150.0);
}

#[test]
fn a_segment_enters_a_box_where_it_first_meets_it_or_misses() {
    let b = (4.0, 0.0, 5.0, 1.0);
    let t = segment_hits((0.0, 0.5), (10.0, 0.5), b).expect("through the box");
    assert!((t - 0.4).abs() < 1e-5);
    assert_eq!(segment_hits((0.0, 2.0), (10.0, 2.0), b), None);
    assert_eq!(segment_hits((0.0, 0.5), (3.0, 0.5), b), None);
}

#[test]
fn a_blast_breaks_a_round_hole_of_mineable_tiles_only() {
    let mut w = World::new(40, 40, 0, crate::content::preset::Preset::default());
    for y in 0..40 {
        for x in 0..40 {
            w.set(x, y, Tile::Dirt);
        }
    }
    w.set(20, 18, Tile::DungeonBrick);
    let blast = Blast {
        radius: 3.0,
        power: 50,
    };
    let needed = |t: Tile| if t == Tile::DungeonBrick { 65 } else { 1 };
    let tiles = blast_tiles(&w, (20.5, 20.5), blast, needed, |_, _| false);
    assert!(tiles.contains(&(20, 20)) && tiles.contains(&(23, 20)));
    assert!(
        !tiles.contains(&(24, 20)) && !tiles.contains(&(23, 23)),
        "round, not square"
    );
    assert!(!tiles.contains(&(20, 18)), "dungeon brick stands");
    let protected = blast_tiles(&w, (20.5, 20.5), blast, |_| 1, |x, _| x >= 20);
    assert!(protected.iter().all(|&(x, _)| x < 20) && !protected.is_empty());
}
