//! Tests of movement and collision: landing, walls, ceilings, ledge steps, no tunnelling at
//! any speed or frame length, and never leaving the world.

use super::*;

/// A box of stone around air, `w` × `h`, with the floor at row `h - 2`.
fn room(w: usize, h: usize) -> World {
    let mut world = World::new(w, h, 0, crate::content::preset::Preset::default());
    for y in 0..h {
        for x in 0..w {
            if x == 0 || x == w - 1 || y == 0 || y >= h - 2 {
                world.set(x, y, crate::world::Tile::Stone);
            }
        }
    }
    world
}

fn run(p: &mut Player, w: &World, input: Input, seconds: f32) {
    for _ in 0..(seconds * 60.0) as usize {
        p.update(w, input, 1.0 / 60.0);
    }
}

const NONE: Input = Input {
    left: false,
    right: false,
    jump: false,
    presses: 0,
    down: false,
};

#[test]
fn lands_on_the_ground_and_stops() {
    let w = room(20, 20);
    let mut p = Player::new((10.0, 5.0));
    run(&mut p, &w, NONE, 2.0);
    assert_eq!(p.pos.1, 18.0);
    assert!(p.on_ground);
    assert_eq!(p.vel, (0.0, 0.0));
}

#[test]
fn walls_stop_running() {
    let w = room(20, 20);
    let mut p = Player::new((10.0, 18.0));
    run(
        &mut p,
        &w,
        Input {
            right: true,
            ..NONE
        },
        3.0,
    );
    let (_, _, right, _) = p.bounds();
    assert!(right <= 19.0 && right > 18.95, "{right}");
    run(&mut p, &w, Input { left: true, ..NONE }, 3.0);
    assert!(p.bounds().0 >= 1.0 && p.bounds().0 < 1.05);
    assert_eq!(p.pos.1, 18.0);
}

#[test]
fn accelerates_and_slides_to_a_stop() {
    let w = room(200, 20);
    let mut p = Player::new((10.0, 18.0));
    run(
        &mut p,
        &w,
        Input {
            right: true,
            ..NONE
        },
        1.0,
    );
    assert!((p.vel.0 - MAX_RUN).abs() < 1e-3, "{:?}", p.vel);
    let x = p.pos.0;
    run(&mut p, &w, NONE, 1.0);
    assert_eq!(p.vel.0, 0.0);
    let slide = p.pos.0 - x;
    assert!(slide > 0.5 && slide < 2.0, "slid {slide}");
}

#[test]
fn jump_height_is_about_six_tiles() {
    let w = room(20, 40);
    let mut p = Player::new((10.0, 38.0));
    run(&mut p, &w, NONE, 0.1);
    let mut top = p.pos.1;
    for _ in 0..120 {
        p.update(&w, Input { jump: true, ..NONE }, 1.0 / 60.0);
        top = top.min(p.pos.1);
    }
    let h = 38.0 - top;
    assert!((5.8..=6.2).contains(&h), "jumped {h}");
    assert_eq!(p.pos.1, 38.0);
    // A tap gives a shorter hop.
    let mut q = Player::new((10.0, 38.0));
    run(&mut q, &w, NONE, 0.1);
    q.update(&w, Input { jump: true, ..NONE }, 1.0 / 60.0);
    let mut top = q.pos.1;
    for _ in 0..120 {
        q.update(&w, NONE, 1.0 / 60.0);
        top = top.min(q.pos.1);
    }
    assert!(38.0 - top < 3.5, "tap jumped {}", 38.0 - top);
}

#[test]
fn ceilings_stop_jumps() {
    let mut w = room(20, 20);
    for x in 0..20 {
        w.set(x, 15, crate::world::Tile::Dirt);
    }
    let mut p = Player::new((10.0, 18.0));
    run(&mut p, &w, NONE, 0.1);
    let mut top = p.pos.1;
    for _ in 0..60 {
        p.update(&w, Input { jump: true, ..NONE }, 1.0 / 60.0);
        top = top.min(p.pos.1 - HEIGHT);
        assert!(!body_blocked(&w, p.pos.0, p.pos.1));
    }
    assert!((16.0..16.05).contains(&top), "head reached {top}");
}

#[test]
fn no_tunnelling_at_any_speed_or_frame_time() {
    let mut w = room(20, 200);
    for x in 0..20 {
        w.set(x, 100, crate::world::Tile::Dirt);
    }
    for dt in [1.0 / 240.0, 1.0 / 60.0, 0.1, 1.0, 10.0, f32::INFINITY] {
        let mut p = Player::new((10.0, 10.0));
        p.vel = (0.0, 1000.0);
        for _ in 0..(3.0 / dt.min(1.0)) as usize {
            p.update(&w, NONE, dt);
        }
        assert_eq!(p.pos.1, 100.0, "dt {dt}");
    }
    // Sideways through a 1-tile wall.
    w.set(15, 97, crate::world::Tile::Stone);
    w.set(15, 98, crate::world::Tile::Stone);
    w.set(15, 99, crate::world::Tile::Stone);
    let mut p = Player::new((10.0, 100.0));
    p.vel = (1000.0, 0.0);
    p.update(
        &w,
        Input {
            right: true,
            ..NONE
        },
        1.0,
    );
    assert!(p.bounds().2 <= 15.0, "{:?}", p.pos);
}

#[test]
fn steps_up_one_tile_but_not_two() {
    let mut w = room(30, 20);
    w.set(12, 17, crate::world::Tile::Dirt); // 1-tile ledge
    w.set(20, 17, crate::world::Tile::Dirt); // 2-tile wall
    w.set(20, 16, crate::world::Tile::Dirt);
    let mut p = Player::new((8.0, 18.0));
    run(
        &mut p,
        &w,
        Input {
            right: true,
            ..NONE
        },
        3.0,
    );
    assert!(p.pos.0 > 13.0, "did not climb: {:?}", p.pos);
    assert!(p.bounds().2 <= 20.0 && p.bounds().2 > 19.9, "{:?}", p.pos);
    assert_eq!(p.pos.1, 18.0);
}

#[test]
fn never_leaves_the_world() {
    // No walls at all: the world's edges hold the player.
    let w = World::new(12, 10, 0, crate::content::preset::Preset::default());
    let mut p = Player::new((6.0, 5.0));
    for input in [
        Input {
            left: true,
            jump: true,
            ..NONE
        },
        Input {
            right: true,
            jump: true,
            ..NONE
        },
    ] {
        for i in 0..400 {
            p.vel.0 *= 3.0;
            p.update(
                &w,
                Input {
                    jump: i % 2 == 0,
                    ..input
                },
                1.0 / 30.0,
            );
            let (l, t, r, b) = p.bounds();
            assert!(
                l >= 0.0 && r <= 12.0 && t >= 0.0 && b <= 10.0,
                "{:?}",
                p.pos
            );
        }
    }
}

#[test]
fn spawns_on_the_surface_at_the_centre_and_unsticks() {
    let (w, _) = crate::worldgen::generate(
        &crate::content::preset::Preset {
            width: 200,
            height: 120,
            ..Default::default()
        },
        4,
    );
    let (x, y) = spawn_point(&w);
    assert_eq!(x, 100.0);
    assert!(!body_blocked(&w, x, y) && body_blocked(&w, x, y + 0.1));
    assert!(
        (y - w.surface[100] as f32).abs() <= 1.0,
        "{y} vs {}",
        w.surface[100]
    );
    let mut p = Player::new((x, y + 3.0)); // inside the ground
    p.unstick(&w);
    assert!(!body_blocked(&w, p.pos.0, p.pos.1));
    let mut p = Player::new((f32::NAN, 1e9));
    p.update(&w, NONE, 0.1);
    assert!(!body_blocked(&w, p.pos.0, p.pos.1));
}

#[test]
fn overlap_matches_the_body() {
    let p = Player::new((10.5, 18.0));
    assert!(p.overlaps_tile(10, 17) && p.overlaps_tile(10, 16));
    assert!(!p.overlaps_tile(10, 18) && !p.overlaps_tile(10, 15) && !p.overlaps_tile(9, 17));
    let q = Player::new((10.0, 18.0));
    assert!(q.overlaps_tile(9, 17) && q.overlaps_tile(10, 17));
}

/// [`room`] with its lowest `depth` rows of air flooded.
fn pool(w: usize, h: usize, depth: usize) -> World {
    let mut world = room(w, h);
    for y in h - 2 - depth..h - 2 {
        for x in 1..w - 1 {
            world.set(x, y, crate::world::Tile::Water);
        }
    }
    world
}

#[test]
fn water_slows_a_fall_and_running() {
    let w = pool(30, 60, 30);
    let mut p = Player::new((15.0, 2.0));
    // Free fall through 26 rows of air, then into the water.
    run(&mut p, &w, NONE, 0.5);
    assert!(p.vel.1 > 25.0, "falling fast in the air: {}", p.vel.1);
    while !body_in_liquid(&w, p.pos.0, p.pos.1) {
        run(&mut p, &w, NONE, 1.0 / 60.0);
    }
    let entered = p.pos.1;
    // Braked to a slow sink within a third of a second, a few tiles under the surface.
    run(&mut p, &w, NONE, 0.35);
    assert!(
        p.vel.1 <= WATER_MAX_FALL,
        "sinking at most {WATER_MAX_FALL}: {}",
        p.vel.1
    );
    assert!(
        p.pos.1 - entered < 8.0,
        "sank {} tiles while braking",
        p.pos.1 - entered
    );
    run(&mut p, &w, NONE, 5.0);
    assert!(
        p.on_ground && p.pos.1 == 58.0,
        "rests on the pool floor: {:?}",
        p.pos
    );
    let right = Input {
        right: true,
        ..NONE
    };
    run(&mut p, &w, right, 0.5);
    assert!(
        (p.vel.0 - MAX_RUN * WATER_RUN).abs() < 1e-3,
        "half speed: {}",
        p.vel.0
    );
}

#[test]
fn every_press_of_jump_in_water_is_a_stroke_up() {
    let w = pool(20, 40, 20);
    let mut p = Player::new((10.0, 38.0));
    run(&mut p, &w, NONE, 0.5);
    let floor = p.pos.1;
    let jump = Input { jump: true, ..NONE };
    for _ in 0..12 {
        run(&mut p, &w, jump, 0.05);
        run(&mut p, &w, NONE, 0.15);
    }
    assert!(
        p.pos.1 < floor - 10.0,
        "swam up from {floor} to {}",
        p.pos.1
    );
    // Out of the water (and off the ground), presses do nothing: it falls back.
    let dry = room(20, 40);
    let mut q = Player::new((10.0, 10.0));
    for _ in 0..6 {
        run(&mut q, &dry, jump, 0.05);
        run(&mut q, &dry, NONE, 0.05);
    }
    assert!(q.pos.1 > 10.0, "no air strokes: {}", q.pos.1);
}

/// A tap of jump that starts and ends between two frames: the frame sees the key up, and
/// one press.
const TAP: Input = Input { presses: 1, ..NONE };

#[test]
fn a_tap_between_frames_jumps_at_any_frame_rate() {
    for fps in [30.0, 60.0, 144.0, 1000.0] {
        let w = room(20, 40);
        let mut p = Player::new((10.0, 38.0));
        run(&mut p, &w, NONE, 0.5);
        assert!(p.on_ground);
        p.update(&w, TAP, 1.0 / fps);
        let mut top = p.pos.1;
        for _ in 0..(fps as usize) {
            p.update(&w, NONE, 1.0 / fps);
            top = top.min(p.pos.1);
        }
        assert!(38.0 - top > 1.0, "{fps} fps: a tap hopped {}", 38.0 - top);
        assert!(38.0 - top < 3.5, "{fps} fps: a tap is a short hop");
    }
}

#[test]
fn taps_between_frames_in_water_are_strokes() {
    // Twelve taps, each between two frames, swim up like twelve held presses; two taps in
    // one long frame are two strokes.
    let w = pool(20, 40, 20);
    let mut p = Player::new((10.0, 38.0));
    run(&mut p, &w, NONE, 0.5);
    let floor = p.pos.1;
    for _ in 0..12 {
        p.update(&w, TAP, 1.0 / 60.0);
        run(&mut p, &w, NONE, 0.2);
    }
    assert!(p.pos.1 < floor - 10.0, "swam from {floor} to {}", p.pos.1);
    let rise = |taps: u8| {
        // Afloat in the middle of the pool, sinking.
        let mut q = Player::new((10.0, 28.0));
        run(&mut q, &w, NONE, 0.2);
        assert!(!q.on_ground);
        let start = q.pos.1;
        q.update(
            &w,
            Input {
                presses: taps,
                ..NONE
            },
            0.2,
        );
        let mut top = q.pos.1;
        for _ in 0..30 {
            q.update(&w, NONE, 0.1);
            top = top.min(q.pos.1);
        }
        start - top
    };
    assert!(rise(2) > rise(1) + 0.5, "{} vs {}", rise(2), rise(1));
}

#[test]
fn lava_holds_the_player_back_like_water() {
    let w = pool(30, 60, 30);
    let mut lava = w.clone();
    for t in lava.tiles_mut() {
        if *t == crate::world::Tile::Water {
            *t = crate::world::Tile::Lava;
        }
    }
    let mut p = Player::new((15.0, 2.0));
    let mut q = Player::new((15.0, 2.0));
    for _ in 0..90 {
        p.update(&w, NONE, 1.0 / 60.0);
        q.update(&lava, NONE, 1.0 / 60.0);
    }
    assert!(body_in_liquid(&lava, q.pos.0, q.pos.1));
    assert!(
        q.vel.1 <= WATER_MAX_FALL + 0.01,
        "sinking slowly: {}",
        q.vel.1
    );
    assert_eq!(p, q, "the same as in water");
}

/// A room of [`room`] with a platform from column 3 to 16 at row 13 (its top at y = 13),
/// five rows over the floor.
fn platform_room() -> World {
    let mut w = room(20, 20);
    for x in 3..17 {
        w.set(x, 13, crate::world::Tile::Platform);
    }
    w
}

#[test]
fn a_platform_is_stood_on_from_above_and_dropped_through_with_down() {
    let w = platform_room();
    let mut p = Player::new((10.0, 4.0));
    run(&mut p, &w, NONE, 1.5);
    assert_eq!(p.pos.1, 13.0, "landed on the platform's top");
    assert!(p.on_ground);
    // Walking along it keeps the body on it.
    run(
        &mut p,
        &w,
        Input {
            right: true,
            ..NONE
        },
        0.3,
    );
    assert_eq!(p.pos.1, 13.0);
    assert!(p.pos.0 > 11.0);
    // Down drops through it to the floor.
    run(&mut p, &w, Input { down: true, ..NONE }, 1.0);
    assert_eq!(p.pos.1, 18.0, "dropped through to the floor");
    // Without down it stays on the floor; from below a jump goes up through the platform
    // (5.6 tiles with jump held: feet rise above row 13) and lands on it coming down.
    let mut q = Player::new((10.0, 18.0));
    run(&mut q, &w, NONE, 0.2);
    assert_eq!(q.pos.1, 18.0);
    let mut highest = q.pos.1;
    for _ in 0..120 {
        q.update(&w, Input { jump: true, ..NONE }, 1.0 / 60.0);
        highest = highest.min(q.pos.1);
    }
    assert!(
        highest < 13.0,
        "jumped up through the platform (feet reached {highest})"
    );
    assert_eq!(q.pos.1, 13.0, "and landed on its top");
}

#[test]
fn a_platform_does_not_block_walking_into_it_sideways() {
    // A platform tile at head height beside the body: walking passes it.
    let mut w = room(20, 20);
    w.set(12, 17, crate::world::Tile::Platform);
    let mut p = Player::new((10.0, 18.0));
    run(
        &mut p,
        &w,
        Input {
            right: true,
            ..NONE
        },
        0.5,
    );
    assert!(p.pos.0 > 13.0, "walked through at {:?}", p.pos);
    assert_eq!(p.pos.1, 18.0);
}

#[test]
fn a_closed_door_stops_the_body_and_an_open_one_lets_it_through() {
    let mut w = room(20, 20);
    for (y, t) in [
        (16, crate::world::Tile::ClosedDoor),
        (17, crate::world::Tile::ClosedDoor),
    ] {
        w.set(12, y, t);
    }
    let mut p = Player::new((10.0, 18.0));
    run(
        &mut p,
        &w,
        Input {
            right: true,
            ..NONE
        },
        1.0,
    );
    assert!(p.pos.0 < 12.0, "stopped at the closed door: {:?}", p.pos);
    for y in [16, 17] {
        w.set(12, y, crate::world::Tile::OpenDoor);
    }
    run(
        &mut p,
        &w,
        Input {
            right: true,
            ..NONE
        },
        1.0,
    );
    assert!(p.pos.0 > 13.0, "walked through the open door: {:?}", p.pos);
}

/// The room with a rope hanging in column 10 from the ceiling (row 1) to the floor.
fn rope_room() -> World {
    let mut w = room(20, 40);
    for y in 1..=37 {
        w.set(10, y, Tile::Rope);
    }
    w
}

#[test]
fn a_rope_is_climbed_up_with_jump_and_down_with_down_and_held_without() {
    let w = rope_room();
    let mut p = Player::new((10.5, 38.0));
    run(&mut p, &w, NONE, 0.5);
    assert!(!p.climbing, "standing by it is not holding it");
    let up = Input { jump: true, ..NONE };
    run(&mut p, &w, up, 3.0);
    assert!(p.climbing, "grabbed the rope: {:?}", p.pos);
    assert!(p.pos.1 < 22.0, "climbed to {:?}", p.pos);
    let held = p.pos;
    run(&mut p, &w, NONE, 1.0);
    assert!(p.climbing);
    assert_eq!(p.pos, held, "hangs on without a key");
    let down = Input { down: true, ..NONE };
    run(&mut p, &w, down, 0.5);
    assert!(p.pos.1 > held.1 + 2.0, "climbed down: {:?}", p.pos);
    // Down to the floor.
    run(&mut p, &w, down, 4.0);
    assert_eq!(p.pos.1, 38.0);
    assert!(p.on_ground);
}

#[test]
fn without_a_key_a_rope_is_passed_by() {
    let w = rope_room();
    let mut p = Player::new((10.5, 5.0));
    run(&mut p, &w, NONE, 2.0);
    assert!(!p.climbing);
    assert_eq!(p.pos.1, 38.0, "fell past the rope");
}
