//! Particles: dust in a tile's colour while it is dug and a burst of it when it breaks,
//! leaves falling where a tree was felled, dust where the player lands hard, and a splash
//! where the player enters water or lava. They are looks only: they read the world and
//! the player after each step and change nothing, so the simulation knows nothing of them.
//! Each is a small square in world tiles with a velocity, gravity and a life; at most
//! [`MAX`] live at once, drawn as one batch of untextured quads before the light overlay
//! (so caves darken them as they darken the tiles).

use super::camera::Camera;
use crate::sim::player::Player;
use crate::world::{Tile, World};
use macroquad::prelude::*;

/// Most particles alive at once (a burst past it replaces none: it is cut short).
pub const MAX: usize = 600;
/// Gravity on dust and drops, tiles per second squared.
pub const GRAVITY: f32 = 30.0;
/// Falling speed (tiles a second) above which a landing raises dust.
pub const HARD_LANDING: f32 = 12.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Particle {
    /// Centre, in world tiles.
    pub pos: (f32, f32),
    /// Tiles per second.
    pub vel: (f32, f32),
    /// Seconds left, and the whole life (it fades over its last half).
    pub life: f32,
    pub full: f32,
    /// Side in tiles.
    pub size: f32,
    pub color: [u8; 3],
    /// Share of [`GRAVITY`] it feels (leaves flutter down slowly).
    pub weight: f32,
}

impl Particle {
    /// One step of `dt` seconds: gravity, air drag, and the life running out.
    pub fn step(&mut self, dt: f32) {
        self.vel.1 += GRAVITY * self.weight * dt;
        let drag = (1.0 - 2.5 * dt).max(0.0);
        self.vel.0 *= drag;
        if self.weight < 0.5 {
            self.vel.1 *= drag;
        }
        self.pos.0 += self.vel.0 * dt;
        self.pos.1 += self.vel.1 * dt;
        self.life -= dt;
    }

    pub fn alive(&self) -> bool {
        self.life > 0.0
    }

    /// Opacity: whole over the first half of its life, fading over the second.
    pub fn alpha(&self) -> f32 {
        (2.0 * self.life / self.full).clamp(0.0, 1.0)
    }
}

/// What a burst is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Burst {
    pub count: usize,
    /// Where: a box of `spread` tiles around `at`.
    pub at: (f32, f32),
    pub spread: (f32, f32),
    /// Speed range and the share of it pointing up.
    pub speed: f32,
    pub up: f32,
    pub life: f32,
    pub size: f32,
    pub color: [u8; 3],
    pub weight: f32,
}

/// The particles alive and what they watch for.
#[derive(Default)]
pub struct Particles {
    pub list: Vec<Particle>,
    rng: u32,
    /// The tile being dug last frame (and what it was), to see it break.
    digging: Option<(i64, i64, Tile)>,
    /// The liquid the player's body was in last frame.
    liquid: Option<Tile>,
    /// The player's falling speed last frame, and whether it stood.
    fall: (f32, bool),
    /// Seconds until the next puff of dust while digging.
    puff: f32,
    /// The world they belong to ([`Particles::for_world`]).
    world: usize,
}

impl Particles {
    fn random(&mut self) -> f32 {
        // xorshift32: looks only, no need for the world's generators.
        let mut x = self.rng.max(1);
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.rng = x;
        (x >> 8) as f32 / (1u32 << 24) as f32
    }

    /// Forgets everything when the world shown is another (`id`, the app's world counter).
    pub fn for_world(&mut self, id: usize) {
        if self.world != id {
            *self = Particles {
                world: id,
                ..Default::default()
            };
        }
    }

    /// Adds a burst (as many of it as fit under [`MAX`]).
    pub fn burst(&mut self, b: &Burst) {
        let n = b.count.min(MAX.saturating_sub(self.list.len()));
        for _ in 0..n {
            let (rx, ry) = (self.random() - 0.5, self.random() - 0.5);
            let angle = self.random() * std::f32::consts::TAU;
            let speed = b.speed * (0.4 + 0.6 * self.random());
            let life = b.life * (0.6 + 0.4 * self.random());
            let shade = 0.8 + 0.35 * self.random();
            let color = b.color.map(|c| (c as f32 * shade).min(255.0) as u8);
            let size = b.size * (0.7 + 0.6 * self.random());
            self.list.push(Particle {
                pos: (b.at.0 + rx * b.spread.0, b.at.1 + ry * b.spread.1),
                vel: (angle.cos() * speed, angle.sin() * speed - b.up * b.speed),
                life,
                full: life,
                size,
                color,
                weight: b.weight,
            });
        }
    }

    /// One frame: watches the dig target (`digging`: the tile under the dig, while the dig
    /// button works on it), the player and the world, adds what they call for, and steps
    /// every particle by `dt` seconds.
    pub fn update(&mut self, world: &World, player: &Player, digging: Option<(i64, i64)>, dt: f32) {
        // A dug tile that is gone now: a burst of its colour; a felled tree: leaves.
        if let Some((x, y, was)) = self.digging
            && world.get(x, y) != Some(was)
        {
            let at = (x as f32 + 0.5, y as f32 + 0.5);
            self.burst(&dust(was, at, 14));
            if was == Tile::Trunk {
                self.burst(&leaves(at));
            }
        }
        self.digging = digging.and_then(|(x, y)| Some((x, y, world.get(x, y)?)));
        self.puff -= dt;
        if let Some((x, y, t)) = self.digging
            && self.puff <= 0.0
        {
            self.puff = 0.08;
            self.burst(&dust(t, (x as f32 + 0.5, y as f32 + 0.5), 2));
        }
        // Entering water or lava: a splash at its surface.
        let c = player.centre();
        let body = world.get(c.0.floor() as i64, c.1.floor() as i64);
        let liquid = body.filter(|t| t.is_liquid());
        if let Some(l) = liquid
            && self.liquid.is_none()
        {
            self.burst(&splash(l, (c.0, c.1.floor()), player.vel.1.abs()));
        }
        self.liquid = liquid;
        // A hard landing: dust of the ground under the feet.
        let (was_falling, stood) = self.fall;
        if player.on_ground && !stood && was_falling > HARD_LANDING {
            let (fx, fy) = (player.pos.0, player.pos.1);
            if let Some(ground) = world.get(fx.floor() as i64, fy.floor() as i64)
                && ground.is_solid()
            {
                let mut b = dust(ground, (fx, fy), 10);
                b.spread = (0.8, 0.1);
                self.burst(&b);
            }
        }
        self.fall = (player.vel.1, player.on_ground);
        for p in &mut self.list {
            p.step(dt);
        }
        self.list.retain(Particle::alive);
    }

    /// Draws the particles (world positions through the camera).
    pub fn draw(&self, cam: &Camera, screen: (f32, f32)) {
        let z = cam.zoom as f32;
        for p in &self.list {
            let (x, y) = cam.world_to_screen(screen, (p.pos.0 as f64, p.pos.1 as f64));
            let side = (p.size * z).max(1.0);
            let [r, g, b] = p.color;
            let c = Color::from_rgba(r, g, b, (p.alpha() * 255.0) as u8);
            draw_rectangle(
                (x - side / 2.0).round(),
                (y - side / 2.0).round(),
                side,
                side,
                c,
            );
        }
    }
}

/// Dust of tile `t`: small chips in its colour thrown up and falling.
pub fn dust(t: Tile, at: (f32, f32), count: usize) -> Burst {
    let [r, g, b, _] = t.color();
    Burst {
        count,
        at,
        spread: (0.8, 0.8),
        speed: 5.0,
        up: 0.5,
        life: 0.6,
        size: 0.18,
        color: [r, g, b],
        weight: 1.0,
    }
}

/// Leaves where a tree stood above `at`: a tall column of light green, drifting down.
pub fn leaves(at: (f32, f32)) -> Burst {
    Burst {
        count: 50,
        at: (at.0, at.1 - 6.0),
        spread: (5.0, 10.0),
        speed: 2.0,
        up: 0.0,
        life: 2.2,
        size: 0.22,
        weight: 0.12,
        ..dust(Tile::Leaves, at, 0)
    }
}

/// A splash of liquid `t` thrown up from its surface at `at`, stronger the faster the
/// player came in.
pub fn splash(t: Tile, at: (f32, f32), speed: f32) -> Burst {
    Burst {
        count: 12 + (speed as usize).min(20),
        spread: (0.9, 0.2),
        speed: 4.0 + speed.min(20.0) * 0.3,
        up: 0.9,
        life: 0.7,
        size: 0.16,
        ..dust(t, at, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_particle_falls_slows_and_fades_out() {
        let mut p = Particle {
            pos: (0.0, 0.0),
            vel: (4.0, -5.0),
            life: 1.0,
            full: 1.0,
            size: 0.2,
            color: [1, 2, 3],
            weight: 1.0,
        };
        assert_eq!(p.alpha(), 1.0);
        let mut last_vx = p.vel.0;
        for _ in 0..36 {
            p.step(1.0 / 60.0);
            assert!(p.vel.0 < last_vx, "air drag");
            last_vx = p.vel.0;
        }
        assert!(p.vel.1 > -5.0 && p.pos.0 > 0.0, "{p:?}");
        assert!(p.alpha() < 1.0 && p.alive());
        for _ in 0..30 {
            p.step(1.0 / 60.0);
        }
        assert!(!p.alive());
        // A leaf falls slower than a chip.
        let still = Particle {
            pos: (0.0, 0.0),
            vel: (0.0, 0.0),
            life: 1.0,
            ..p
        };
        let mut leaf = Particle {
            weight: 0.12,
            ..still
        };
        let mut chip = still;
        for _ in 0..30 {
            leaf.step(1.0 / 60.0);
            chip.step(1.0 / 60.0);
        }
        assert!(leaf.pos.1 < chip.pos.1 * 0.5, "{leaf:?} {chip:?}");
    }

    #[test]
    fn a_broken_tile_a_felled_tree_and_a_splash_make_particles_in_their_colours() {
        let mut w = World::from_ascii(&["  |  ", "  |  ", "#####", "#~~~#", "#####"]).unwrap();
        let mut player = Player::new((0.5, 2.0));
        player.on_ground = true;
        let mut ps = Particles::default();
        ps.update(&w, &player, Some((2, 1)), 0.1);
        let dusting = ps.list.len();
        assert!(dusting > 0, "dust while digging");
        w.set(2, 1, Tile::Air);
        w.set(2, 0, Tile::Air);
        ps.update(&w, &player, None, 0.001);
        let leaf = Tile::Leaves.color();
        let trunk = Tile::Trunk.color();
        let near = |c: [u8; 3], t: [u8; 4]| (0..3).all(|i| (c[i] as i32 - t[i] as i32).abs() <= 70);
        assert!(
            ps.list
                .iter()
                .filter(|p| near(p.color, trunk) && p.weight == 1.0)
                .count()
                >= 14
        );
        assert!(
            ps.list
                .iter()
                .filter(|p| p.weight < 1.0 && near(p.color, leaf))
                .count()
                >= 40
        );
        // Nothing more while nothing happens; all gone after a while.
        let n = ps.list.len();
        ps.update(&w, &player, None, 0.01);
        assert_eq!(ps.list.len(), n);
        for _ in 0..300 {
            ps.update(&w, &player, None, 1.0 / 60.0);
        }
        assert!(ps.list.is_empty());
        // The player drops into the water: a splash, once.
        player.pos = (2.5, 4.0);
        player.vel = (0.0, 10.0);
        ps.update(&w, &player, None, 0.001);
        let water = Tile::Water.color();
        assert!(ps.list.len() >= 12 && ps.list.iter().all(|p| near(p.color, water)));
        let n = ps.list.len();
        ps.update(&w, &player, None, 0.001);
        assert_eq!(ps.list.len(), n, "still in the water: no new splash");
    }

    #[test]
    fn a_hard_landing_raises_dust_and_bursts_stop_at_the_cap() {
        let w = World::from_ascii(&["     ", "     ", "#####"]).unwrap();
        let mut player = Player::new((2.5, 2.0));
        let mut ps = Particles::default();
        player.on_ground = false;
        player.vel.1 = HARD_LANDING + 5.0;
        ps.update(&w, &player, None, 0.001);
        assert!(ps.list.is_empty());
        player.on_ground = true;
        player.vel.1 = 0.0;
        ps.update(&w, &player, None, 0.001);
        assert!(ps.list.len() >= 10, "{}", ps.list.len());
        // A soft landing: nothing.
        let mut soft = Particles::default();
        player.on_ground = false;
        player.vel.1 = 3.0;
        soft.update(&w, &player, None, 0.001);
        player.on_ground = true;
        soft.update(&w, &player, None, 0.001);
        assert!(soft.list.is_empty());
        for _ in 0..100 {
            ps.burst(&dust(Tile::Stone, (1.0, 1.0), 50));
        }
        assert_eq!(ps.list.len(), MAX);
    }
}
