//! The fog over what the player has not seen: one texture of a texel per cell of the
//! explored map ([`crate::world::explored`]), opaque where unseen, clear where seen, drawn black
//! over the minimap and over the map view (the free camera). It holds alpha alone, a byte
//! a cell (1.26 MB for a Large world, a quarter of RGBA's upload when a world arrives),
//! is built once per world, and then only the cells revealed since the last frame are
//! uploaded (a few texels), so keeping it costs next to nothing a frame on any world size.

use super::camera::Camera;
use crate::game::worlds::state::Loaded;
use crate::world::explored::{CELL, Cells, Explored};
use macroquad::miniquad::{self, TextureFormat, TextureParams, TextureWrap};
use macroquad::prelude::*;
use macroquad::window::get_internal_gl;

/// The fog's colour where it is drawn as a colour of its own (the minimap's biome strip).
pub const FOG: [u8; 4] = [0, 0, 0, 255];

/// Alpha texels of the cells `c` of `map`, row-major: 255 where unseen, 0 where seen.
pub fn texels(map: &Explored, c: Cells) -> Vec<u8> {
    let mut out = vec![255u8; c.width() * c.height()];
    for cy in c.y0..c.y1 {
        let row = &mut out[(cy - c.y0) * c.width()..][..c.width()];
        for (i, cx) in (c.x0..c.x1).enumerate() {
            if map.cell_seen(cx, cy) {
                row[i] = 0;
            }
        }
    }
    out
}

/// The whole map as cells.
fn all(map: &Explored) -> Cells {
    Cells {
        x0: 0,
        y0: 0,
        x1: map.cols(),
        y1: map.rows(),
    }
}

/// The fog texture of the world shown.
#[derive(Default)]
pub struct FogView {
    /// An alpha texture made through miniquad (macroquad makes only RGBA ones), so this
    /// view deletes it.
    tex: Option<(miniquad::TextureId, Texture2D)>,
    /// The world it is of ([`Loaded::serial`]).
    world: u64,
}

impl Drop for FogView {
    fn drop(&mut self) {
        self.delete();
    }
}

impl FogView {
    /// Brings the texture up to date: the whole map for a new world, else the cells
    /// revealed since the last call ([`Loaded::revealed`]).
    pub fn update(&mut self, l: &mut Loaded) {
        let map = &l.session.world.explored;
        let revealed = l.revealed.take();
        // SAFETY: called on the main thread between draws, like every macroquad call.
        let gl = unsafe { get_internal_gl() };
        match self.tex {
            Some((id, _)) if self.world == l.serial => {
                if let Some(c) = revealed {
                    let (x, y, w, h) = (c.x0 as i32, c.y0 as i32, c.width(), c.height());
                    gl.quad_context.texture_update_part(
                        id,
                        x,
                        y,
                        w as i32,
                        h as i32,
                        &texels(map, c),
                    );
                }
            }
            _ => {
                let start = std::time::Instant::now();
                let params = TextureParams {
                    format: TextureFormat::Alpha,
                    wrap: TextureWrap::Clamp,
                    min_filter: FilterMode::Linear,
                    mag_filter: FilterMode::Linear,
                    width: map.cols() as u32,
                    height: map.rows() as u32,
                    ..Default::default()
                };
                let bytes = texels(map, all(map));
                let id = gl
                    .quad_context
                    .new_texture_from_data_and_format(&bytes, params);
                self.delete();
                self.tex = Some((id, Texture2D::from_miniquad_texture(id)));
                self.world = l.serial;
                log::info!(
                    "fog of {}x{} cells built in {:.2} ms",
                    params.width,
                    params.height,
                    start.elapsed().as_secs_f64() * 1e3
                );
            }
        }
    }

    fn delete(&mut self) {
        if let Some((id, _)) = self.tex.take() {
            // SAFETY: as in `update`; the texture is this view's own.
            unsafe { get_internal_gl() }.quad_context.delete_texture(id);
        }
    }

    /// Draws the fog over the screen rectangle `r` that shows the whole world (the
    /// minimap).
    pub fn draw_over(&self, r: Rect) {
        if let Some((_, tex)) = &self.tex {
            let params = DrawTextureParams {
                dest_size: Some(vec2(r.w, r.h)),
                ..Default::default()
            };
            // Black: the texture's colour channels are not the fog's (an alpha texture
            // samples as red on some drivers).
            draw_texture_ex(tex, r.x, r.y, BLACK, params);
        }
    }

    /// Draws the fog of the part `v` of the world (tiles: `x0, y0, w, h`) over the screen
    /// rectangle `r` (the zoomed minimap).
    pub fn draw_part(&self, r: Rect, v: (f64, f64, f64, f64)) {
        if let Some((_, tex)) = &self.tex {
            let cell = CELL as f64;
            let params = DrawTextureParams {
                dest_size: Some(vec2(r.w, r.h)),
                source: Some(Rect::new(
                    (v.0 / cell) as f32,
                    (v.1 / cell) as f32,
                    (v.2 / cell) as f32,
                    (v.3 / cell) as f32,
                )),
                ..Default::default()
            };
            draw_texture_ex(tex, r.x, r.y, BLACK, params);
        }
    }

    /// Draws the fog over the world in the map view: the cells cover `CELL` tiles each,
    /// the last column and row of cells reaching past a world whose size is not a
    /// multiple of it.
    pub fn draw_world(&self, cam: &Camera, screen: (f32, f32)) {
        let Some((_, tex)) = &self.tex else { return };
        let (w, h) = (tex.width() as f64, tex.height() as f64);
        let a = cam.world_to_screen(screen, (0.0, 0.0));
        let b = cam.world_to_screen(screen, (w * CELL as f64, h * CELL as f64));
        self.draw_over(Rect::new(a.0, a.1, b.0 - a.0, b.1 - a.1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texels_are_fog_where_unseen_and_clear_where_seen() {
        let mut map = Explored::new(16, 8); // 4 x 2 cells
        map.mark(1, 0);
        map.mark(3, 1);
        let t = texels(&map, all(&map));
        assert_eq!(t, [255, 0, 255, 255, 255, 255, 255, 0]);
        // A part: the cells 1..4 of row 1.
        let part = Cells {
            x0: 1,
            y0: 1,
            x1: 4,
            y1: 2,
        };
        assert_eq!(texels(&map, part), [255, 255, 0]);
    }
}
