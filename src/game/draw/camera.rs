//! The free camera: a centre in tile coordinates and a zoom in screen pixels per tile.
//! Pure maths (no engine calls), so panning, zooming and clamping are unit-tested.
//!
//! Screen space has its origin at the top-left with y down, like tile space, so a tile
//! `(x, y)` lands at `(x - left) * zoom, (y - top) * zoom` on screen.

/// Closest zoom: one tile covers this many screen pixels.
pub const MAX_ZOOM: f64 = 64.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Tile coordinate shown at the centre of the screen.
    pub cx: f64,
    pub cy: f64,
    /// Screen pixels per tile.
    pub zoom: f64,
}

/// Visible tiles, half-open, clamped to the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileRange {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

impl TileRange {
    pub fn count(&self) -> usize {
        (self.x1 - self.x0) * (self.y1 - self.y0)
    }
}

impl Camera {
    /// Left and top edges of the view, in tiles.
    pub fn top_left(&self, screen: (f32, f32)) -> (f64, f64) {
        (
            self.cx - screen.0 as f64 / (2.0 * self.zoom),
            self.cy - screen.1 as f64 / (2.0 * self.zoom),
        )
    }

    pub fn screen_to_world(&self, screen: (f32, f32), p: (f32, f32)) -> (f64, f64) {
        let (l, t) = self.top_left(screen);
        (l + p.0 as f64 / self.zoom, t + p.1 as f64 / self.zoom)
    }

    pub fn world_to_screen(&self, screen: (f32, f32), p: (f64, f64)) -> (f32, f32) {
        let (l, t) = self.top_left(screen);
        (
            ((p.0 - l) * self.zoom) as f32,
            ((p.1 - t) * self.zoom) as f32,
        )
    }

    /// Zoom at which the whole world fits on screen.
    pub fn fit_zoom(world: (usize, usize), screen: (f32, f32)) -> f64 {
        (screen.0 as f64 / world.0 as f64)
            .min(screen.1 as f64 / world.1 as f64)
            .min(MAX_ZOOM)
    }

    /// Shows the whole world.
    pub fn fit(world: (usize, usize), screen: (f32, f32)) -> Camera {
        Camera {
            cx: world.0 as f64 / 2.0,
            cy: world.1 as f64 / 2.0,
            zoom: Self::fit_zoom(world, screen),
        }
    }

    /// Moves by a screen-pixel offset (a mouse drag moves the world with the pointer,
    /// so the camera moves the opposite way).
    pub fn pan_pixels(&mut self, dx: f32, dy: f32) {
        self.cx += dx as f64 / self.zoom;
        self.cy += dy as f64 / self.zoom;
    }

    /// Multiplies the zoom by `factor`, keeping the world point under `anchor` (a screen
    /// position, e.g. the mouse) where it is. The zoom is held between fit and [`MAX_ZOOM`];
    /// a zoom already further out (the world fitted to a room smaller than the screen,
    /// beside the lab's panel) is not pulled in, only kept from going further.
    pub fn zoom_at(
        &mut self,
        factor: f64,
        anchor: (f32, f32),
        screen: (f32, f32),
        world: (usize, usize),
    ) {
        let before = self.screen_to_world(screen, anchor);
        let min = Self::fit_zoom(world, screen).min(self.zoom);
        self.zoom = (self.zoom * factor).clamp(min, MAX_ZOOM.max(min));
        let after = self.screen_to_world(screen, anchor);
        self.cx += before.0 - after.0;
        self.cy += before.1 - after.1;
    }

    /// Keeps the view inside the world: on an axis where the view is larger than the world
    /// the world is centred, otherwise the view's edges stay within the world's.
    pub fn clamp(&mut self, world: (usize, usize), screen: (f32, f32)) {
        self.clamp_above(world, screen, 0.0);
    }

    /// [`Camera::clamp`], except that the world's bottom may rise up to `floor_px` screen
    /// pixels above the screen's bottom edge: the play camera keeps the world's floor (and
    /// a player standing on it) clear of the hotbar and the status line drawn over it.
    pub fn clamp_above(&mut self, world: (usize, usize), screen: (f32, f32), floor_px: f32) {
        let min = Self::fit_zoom(world, screen);
        self.zoom = self.zoom.clamp(min, MAX_ZOOM.max(min));
        let half = (
            screen.0 as f64 / (2.0 * self.zoom),
            screen.1 as f64 / (2.0 * self.zoom),
        );
        // The centre's range on an axis, the world's edges (plus `extra` past the far
        // one) kept on screen; centred when the view is larger than the world.
        let axis = |c: f64, half: f64, size: f64, extra: f64| {
            if 2.0 * half >= size {
                size / 2.0
            } else {
                c.clamp(half, size - half + extra)
            }
        };
        let below = floor_px.max(0.0) as f64 / self.zoom;
        self.cx = axis(self.cx, half.0, world.0 as f64, 0.0);
        self.cy = axis(self.cy, half.1, world.1 as f64, below);
    }

    /// Shows the whole world in `room` (`x, y, w, h` in screen pixels), a part of the
    /// screen: the world's centre at the room's.
    pub fn fit_in(world: (usize, usize), screen: (f32, f32), room: (f32, f32, f32, f32)) -> Camera {
        let mut cam = Camera::fit(world, (room.2.max(1.0), room.3.max(1.0)));
        let (dx, dy) = room_offset(screen, room);
        cam.cx -= dx / cam.zoom;
        cam.cy -= dy / cam.zoom;
        cam
    }

    /// [`Camera::clamp_above`] in `room` (`x, y, w, h`), a part of the screen: the world is
    /// kept within the room (centred in it where it is smaller), and the zoom no further out
    /// than fits the world in the room.
    pub fn clamp_in(
        &mut self,
        world: (usize, usize),
        screen: (f32, f32),
        room: (f32, f32, f32, f32),
        floor_px: f32,
    ) {
        let (dx, dy) = room_offset(screen, room);
        // The camera of a screen the room's size, centred on the room's centre.
        let mut c = *self;
        c.cx += dx / self.zoom;
        c.cy += dy / self.zoom;
        c.clamp_above(world, (room.2.max(1.0), room.3.max(1.0)), floor_px);
        *self = Camera {
            cx: c.cx - dx / c.zoom,
            cy: c.cy - dy / c.zoom,
            zoom: c.zoom,
        };
    }

    /// Tiles at least partly on screen.
    pub fn visible_tiles(&self, world: (usize, usize), screen: (f32, f32)) -> TileRange {
        let (l, t) = self.top_left(screen);
        let r = l + screen.0 as f64 / self.zoom;
        let b = t + screen.1 as f64 / self.zoom;
        let lo = |v: f64, n: usize| (v.floor().max(0.0) as usize).min(n);
        let hi = |v: f64, n: usize| (v.ceil().max(0.0) as usize).min(n);
        TileRange {
            x0: lo(l, world.0),
            y0: lo(t, world.1),
            x1: hi(r, world.0),
            y1: hi(b, world.1),
        }
    }
}

/// How far the centre of `room` is from the screen's, in pixels.
fn room_offset(screen: (f32, f32), room: (f32, f32, f32, f32)) -> (f64, f64) {
    (
        (room.0 + room.2 / 2.0 - screen.0 / 2.0) as f64,
        (room.1 + room.3 / 2.0 - screen.1 / 2.0) as f64,
    )
}

/// Zoom of the play camera: a tile covers this many screen pixels.
pub const PLAY_ZOOM: f64 = 20.0;

/// The farthest the play camera zooms out on a screen of this size: the closest zoom at
/// which no view can show more than `max_tiles` tiles (counting the partial tiles at the
/// edges), so play is always drawn lit. The free camera, a map view, zooms out further.
pub fn play_min_zoom(screen: (f32, f32), max_tiles: usize) -> f64 {
    let (w, h) = (screen.0.max(1.0) as f64, screen.1.max(1.0) as f64);
    // A view of w/z by h/z tiles touches at most one more column and row of tiles.
    let fits = |z: f64| (w / z + 1.0).ceil() * (h / z + 1.0).ceil() <= max_tiles as f64;
    let mut z = (w * h / max_tiles as f64).sqrt().max(0.01);
    while !fits(z) {
        z *= 1.01;
    }
    z.min(MAX_ZOOM)
}
/// How fast the play camera catches up with the player: the gap shrinks by a factor
/// e every `1 / FOLLOW_RATE` seconds, whatever the frame rate.
pub const FOLLOW_RATE: f64 = 8.0;

impl Camera {
    /// Moves the centre towards `target` (tiles) for `dt` seconds: an exponential lerp, so
    /// the motion is smooth and frame-rate independent; a jump of more than a screen
    /// (a respawn, a load) snaps.
    pub fn follow(&mut self, target: (f64, f64), dt: f64, screen: (f32, f32)) {
        let far = screen.0.max(screen.1) as f64 / self.zoom;
        if (target.0 - self.cx).abs() > far || (target.1 - self.cy).abs() > far {
            (self.cx, self.cy) = target;
            return;
        }
        let k = 1.0 - (-FOLLOW_RATE * dt.max(0.0)).exp();
        self.cx += (target.0 - self.cx) * k;
        self.cy += (target.1 - self.cy) * k;
    }

    /// The play camera on `target`.
    pub fn play(target: (f64, f64)) -> Camera {
        Camera {
            cx: target.0,
            cy: target.1,
            zoom: PLAY_ZOOM,
        }
    }
}

/// Where the game starts: the surface at the world's centre column, a few tiles up.
pub fn spawn_point(width: usize, surface: &[u32]) -> (f64, f64) {
    let x = width / 2;
    let y = surface.get(x).copied().unwrap_or(0) as f64;
    (x as f64 + 0.5, y)
}

/// The camera at spawn: zoomed so about 120 tiles span the screen, spawn a third of the way
/// down so the sky and the underground both show.
pub fn home(width: usize, surface: &[u32], world: (usize, usize), screen: (f32, f32)) -> Camera {
    let (x, y) = spawn_point(width, surface);
    let zoom = (screen.0 as f64 / 120.0).clamp(1.0, MAX_ZOOM);
    let mut cam = Camera {
        cx: x,
        cy: y + screen.1 as f64 / zoom / 6.0,
        zoom,
    };
    cam.clamp(world, screen);
    cam
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCREEN: (f32, f32) = (800.0, 600.0);
    const WORLD: (usize, usize) = (8400, 2400);

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn the_world_fits_the_room_beside_a_panel_and_stays_there() {
        use crate::game::ui::layout::{Open, layout};
        for screen in [(1280.0, 720.0), (1920.0, 1080.0), (800.0, 600.0)] {
            let s = crate::game::ui::scale_for(screen.1, 1.0);
            let open = Open {
                lab: true,
                ..Default::default()
            };
            let room = layout(screen, s, &open).room;
            let r = (room.x, room.y, room.w, room.h);
            for world in [(6400, 1800), (8400, 2400), (1000, 1000)] {
                let mut cam = Camera::fit_in(world, screen, r);
                // F, then the clamp every frame makes: the whole world in the room.
                cam.clamp_in(world, screen, r, 0.0);
                let a = cam.world_to_screen(screen, (0.0, 0.0));
                let b = cam.world_to_screen(screen, (world.0 as f64, world.1 as f64));
                let e = 0.5;
                assert!(
                    a.0 >= room.x - e && a.1 >= room.y - e,
                    "{screen:?} {world:?}: {a:?}"
                );
                assert!(
                    b.0 <= room.right() + e && b.1 <= room.bottom() + e,
                    "{screen:?} {world:?}: the world ends at {b:?}, the room at {room:?}"
                );
                // Filling the room along one side.
                assert!(
                    (b.0 - a.0 - room.w).abs() < 1.0 || (b.1 - a.1 - room.h).abs() < 1.0,
                    "{screen:?} {world:?}: {a:?} {b:?}"
                );
                // Panned off the room's edge, the clamp brings the world back into it.
                cam.cx -= 1e6;
                cam.zoom *= 4.0;
                cam.clamp_in(world, screen, r, 0.0);
                let a = cam.world_to_screen(screen, (0.0, 0.0));
                assert!((a.0 - room.x).abs() < 0.5, "{a:?}");
            }
        }
        // The whole screen as the room is the plain clamp.
        let mut a = Camera {
            cx: 10.0,
            cy: 5.0,
            zoom: 3.0,
        };
        let mut b = a;
        a.clamp_above(WORLD, SCREEN, 40.0);
        b.clamp_in(WORLD, SCREEN, (0.0, 0.0, SCREEN.0, SCREEN.1), 40.0);
        assert!(close(a.cx, b.cx) && close(a.cy, b.cy) && close(a.zoom, b.zoom));
    }

    #[test]
    fn screen_and_world_round_trip() {
        let c = Camera {
            cx: 100.0,
            cy: 50.0,
            zoom: 4.0,
        };
        assert_eq!(c.screen_to_world(SCREEN, (400.0, 300.0)), (100.0, 50.0));
        assert_eq!(c.screen_to_world(SCREEN, (0.0, 0.0)), (0.0, -25.0));
        let p = c.world_to_screen(SCREEN, (37.5, 12.25));
        let q = c.screen_to_world(SCREEN, p);
        assert!(close(q.0, 37.5) && close(q.1, 12.25));
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut c = Camera {
            cx: 1000.0,
            cy: 800.0,
            zoom: 2.0,
        };
        let anchor = (123.0, 456.0);
        let before = c.screen_to_world(SCREEN, anchor);
        c.zoom_at(1.7, anchor, SCREEN, WORLD);
        let after = c.screen_to_world(SCREEN, anchor);
        assert!(close(before.0, after.0) && close(before.1, after.1));
        assert!(close(c.zoom, 3.4));
    }

    #[test]
    fn zoom_is_limited_between_fit_and_max() {
        let mut c = Camera {
            cx: 1000.0,
            cy: 800.0,
            zoom: 2.0,
        };
        c.zoom_at(1e9, (0.0, 0.0), SCREEN, WORLD);
        assert_eq!(c.zoom, MAX_ZOOM);
        c.zoom_at(1e-9, (0.0, 0.0), SCREEN, WORLD);
        assert!(close(c.zoom, 800.0 / 8400.0));
        // Fitted to a room half the screen's width: the wheel neither jumps in nor out.
        let room = (0.0, 0.0, SCREEN.0 / 2.0, SCREEN.1);
        let mut c = Camera::fit_in(WORLD, SCREEN, room);
        let fitted = c.zoom;
        assert!(fitted < Camera::fit_zoom(WORLD, SCREEN));
        c.zoom_at(0.5, (100.0, 100.0), SCREEN, WORLD);
        assert!(close(c.zoom, fitted), "{} {fitted}", c.zoom);
        c.zoom_at(1.25, (100.0, 100.0), SCREEN, WORLD);
        assert!(close(c.zoom, fitted * 1.25), "{} {fitted}", c.zoom);
    }

    #[test]
    fn camera_never_leaves_the_world() {
        let mut c = Camera {
            cx: -500.0,
            cy: 1e6,
            zoom: 4.0,
        };
        c.clamp(WORLD, SCREEN);
        let r = c.visible_tiles(WORLD, SCREEN);
        let (l, t) = c.top_left(SCREEN);
        assert!(close(l, 0.0) && close(t + 600.0 / 4.0, 2400.0));
        assert_eq!((r.x0, r.x1, r.y1), (0, 200, 2400));
        // Fitted: the whole world shows, centred on the short axis.
        let mut f = Camera::fit(WORLD, SCREEN);
        f.clamp(WORLD, SCREEN);
        assert_eq!(
            f.visible_tiles(WORLD, SCREEN),
            TileRange {
                x0: 0,
                y0: 0,
                x1: 8400,
                y1: 2400
            }
        );
        assert_eq!((f.cx, f.cy), (4200.0, 1200.0));
    }

    #[test]
    fn visible_range_covers_partial_tiles() {
        let c = Camera {
            cx: 10.5,
            cy: 10.0,
            zoom: 10.0,
        };
        let r = c.visible_tiles((100, 100), (100.0, 100.0));
        assert_eq!(
            r,
            TileRange {
                x0: 5,
                y0: 5,
                x1: 16,
                y1: 15
            }
        );
        assert_eq!(r.count(), 110);
    }

    #[test]
    fn drag_moves_the_world_with_the_pointer() {
        let mut c = Camera {
            cx: 100.0,
            cy: 100.0,
            zoom: 5.0,
        };
        c.pan_pixels(-50.0, 25.0);
        assert_eq!((c.cx, c.cy), (90.0, 105.0));
    }

    #[test]
    fn follow_is_smooth_and_frame_rate_independent() {
        let start = Camera::play((100.0, 100.0));
        let target = (110.0, 96.0);
        let mut a = start;
        let mut b = start;
        a.follow(target, 0.1, SCREEN);
        for _ in 0..10 {
            b.follow(target, 0.01, SCREEN);
        }
        assert!(close(a.cx, b.cx) && close(a.cy, b.cy));
        assert!(a.cx > 100.0 && a.cx < 110.0 && a.cy < 100.0 && a.cy > 96.0);
        for _ in 0..200 {
            a.follow(target, 1.0 / 60.0, SCREEN);
        }
        assert!((a.cx - 110.0).abs() < 1e-3 && (a.cy - 96.0).abs() < 1e-3);
        // A respawn far away snaps.
        a.follow((5000.0, 10.0), 1.0 / 60.0, SCREEN);
        assert_eq!((a.cx, a.cy), (5000.0, 10.0));
        // No time, no motion.
        let mut c = start;
        c.follow(target, 0.0, SCREEN);
        assert_eq!(c, start);
    }

    #[test]
    fn home_shows_the_surface_at_the_centre_column() {
        let surface = vec![300u32; 8400];
        let c = home(8400, &surface, WORLD, SCREEN);
        let (sx, sy) = c.world_to_screen(SCREEN, spawn_point(8400, &surface));
        assert!(
            (sx - 400.0).abs() < 1.0 && sy > 0.0 && sy < 300.0,
            "{sx},{sy}"
        );
    }

    #[test]
    fn the_play_camera_never_zooms_out_past_its_light() {
        for screen in [
            (1280.0, 720.0),
            (640.0, 360.0),
            (3840.0, 2160.0),
            (1000.0, 3.0),
        ] {
            let z = play_min_zoom(screen, 120_000);
            assert!(z < PLAY_ZOOM, "{screen:?}: play zoom allowed");
            // At the limit, from any position, the view stays within the lit tiles.
            for (cx, cy) in [(500.0, 300.0), (500.5, 300.5), (500.33, 300.77)] {
                let cam = Camera { cx, cy, zoom: z };
                let v = cam.visible_tiles((100_000, 100_000), screen);
                assert!(
                    v.count() <= 120_000,
                    "{screen:?} at {z}: {} tiles",
                    v.count()
                );
            }
            // And it is close to the limit (a tenth further out would not fit).
            let w = (screen.0 as f64 / (z / 1.1)) * (screen.1 as f64 / (z / 1.1));
            assert!(
                w > 100_000.0 || screen.1 < 10.0,
                "{screen:?}: {z} is too cautious"
            );
        }
    }

    #[test]
    fn the_play_camera_lifts_the_world_floor_clear_of_the_hud() {
        let (world, screen) = ((1000, 500), (1280.0, 720.0));
        let mut cam = Camera {
            cx: 500.0,
            cy: 499.0,
            zoom: 20.0,
        };
        cam.clamp(world, screen);
        let bottom = |c: &Camera| c.world_to_screen(screen, (500.0, 500.0)).1;
        assert!(
            (bottom(&cam) - 720.0).abs() < 0.5,
            "plain clamp: floor at the edge"
        );
        cam.cy = 499.0;
        cam.clamp_above(world, screen, 80.0);
        assert!((bottom(&cam) - 640.0).abs() < 0.5, "{}", bottom(&cam));
        // The top still stops at the world's top.
        cam.cy = 0.0;
        cam.clamp_above(world, screen, 80.0);
        assert!(cam.world_to_screen(screen, (500.0, 0.0)).1.abs() < 0.5);
    }
}
