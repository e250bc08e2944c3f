//! Drawing the world in screen space: chunk textures (one pixel per tile) at every zoom,
//! atlas tiles on top when zoomed in close, then the cave tints.

use super::camera::{Camera, TileRange};
use super::state::Loaded;
use crate::world::depth::Layers;
use crate::world::{Matter, Tile};
use macroquad::prelude::*;

/// Atlas tile side in pixels (assets/tiles.png).
pub const ATLAS_TILE: f32 = 16.0;

/// Where a tile's picture is in the atlas (one row, in `Tile` discriminant order).
pub fn atlas_source(tile: Tile) -> Rect {
    Rect::new(tile as u8 as f32 * ATLAS_TILE, 0.0, ATLAS_TILE, ATLAS_TILE)
}
/// Atlas tiles are drawn from this zoom (screen pixels per tile) on...
pub const ATLAS_MIN_ZOOM: f64 = 6.0;
/// ...while at most this many tiles are visible, keeping the per-tile quads cheap.
pub const ATLAS_MAX_TILES: usize = 40_000;

/// Tint of the largest cave and of the hovered one. Neither is a tile's colour in the
/// legend (the hovered tint used to be the grass green): magenta and violet.
pub const LARGEST_TINT: Color = Color::new(1.0, 0.3, 0.8, 0.2);
pub const HOVER_TINT: Color = Color::new(0.5, 0.35, 1.0, 0.45);

/// Loads the tile atlas compiled into the binary.
pub fn load_atlas() -> Texture2D {
    let t = Texture2D::from_file_with_format(
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/tiles.png")),
        Some(ImageFormat::Png),
    );
    t.set_filter(FilterMode::Nearest);
    t
}

/// Whether atlas tiles are drawn for this view.
pub fn uses_atlas(zoom: f64, visible: &TileRange) -> bool {
    zoom >= ATLAS_MIN_ZOOM && visible.count() <= ATLAS_MAX_TILES
}

/// Screen position of tile edge `t` (x or y), rounded so neighbouring chunks and tiles
/// meet without seams.
#[inline]
fn edge(t: f64, origin: f64, zoom: f64) -> f32 {
    ((t - origin) * zoom).round() as f32
}

fn draw_chunk_texture(tex: &Texture2D, r: (f32, f32, f32, f32), color: Color) {
    let params = DrawTextureParams {
        dest_size: Some(vec2(r.2 - r.0, r.3 - r.1)),
        ..Default::default()
    };
    draw_texture_ex(tex, r.0, r.1, color, params);
}

/// Chunks of `level` overlapping the visible tiles.
pub fn visible_chunks(state: &Loaded, level: usize, vis: &TileRange) -> Vec<usize> {
    state.levels[level]
        .grid
        .overlapping(vis.x0, vis.y0, vis.x1, vis.y1)
        .collect()
}

/// Draws the world from the chunks `visible` of `level`. `tint` enables the cave tints.
pub fn draw_world(
    state: &Loaded,
    cam: &Camera,
    screen: (f32, f32),
    atlas: &Texture2D,
    (level, visible): (usize, &[usize]),
    tint: bool,
) {
    let (l, t) = cam.top_left(screen);
    let z = cam.zoom;
    let grid = state.levels[level].grid;
    let rect_of = |i: usize| {
        let r = grid.rect(i);
        (
            edge(r.x0 as f64, l, z),
            edge(r.y0 as f64, t, z),
            edge((r.x0 + r.w) as f64, l, z),
            edge((r.y0 + r.h) as f64, t, z),
        )
    };
    for &i in visible {
        let r = rect_of(i);
        match state.levels[level].get(i) {
            Some(tex) => draw_chunk_texture(tex, r, WHITE),
            // Not uploaded yet (only for a frame or two after a swap).
            None => draw_rectangle(
                r.0,
                r.1,
                r.2 - r.0,
                r.3 - r.1,
                Color::from_rgba(70, 64, 62, 255),
            ),
        }
    }
    let vis = cam.visible_tiles(state.size(), screen);
    if uses_atlas(z, &vis) {
        draw_atlas_tiles(state, &vis, l, t, z, atlas);
    }
    if tint {
        for &i in visible {
            let r = rect_of(i);
            let (largest, hovered) = (&state.largest[level], &state.hovered[level]);
            if let Some(m) = largest.get(i) {
                draw_chunk_texture(m, r, LARGEST_TINT);
            }
            if hovered.id != largest.id
                && let Some(m) = hovered.get(i)
            {
                draw_chunk_texture(m, r, HOVER_TINT);
            }
        }
    }
}

/// What shows behind a tile's atlas picture: decorations (torches, trunks, leaves, cacti)
/// are drawn over the air they stand in (sky above the surface, the cave backdrop below),
/// not over their one-pixel colour, which would frame them in a square of it.
pub fn backdrop_under(tile: Tile, y: u32, surface: u32, layers: &Layers) -> Option<[u8; 4]> {
    (tile.info().matter == Matter::Decor).then(|| {
        if y >= surface {
            layers.backdrop(y, surface)
        } else {
            Tile::Air.color()
        }
    })
}

/// Draws the atlas pictures of the visible tiles: first every decoration's backdrop, then
/// every picture. Each pass uses one texture (the backdrops macroquad's white one, the
/// pictures the atlas), so a pass is one batch of quads (a draw call per ~10k quads):
/// alternating the two textures tile by tile would end the batch at every decoration, and
/// macroquad keeps a vertex and an index buffer (about 1.7 MB at our batch size) for every
/// draw call a frame has ever made. A tile's backdrop and picture cover only its own
/// square, so the order of the passes changes no pixel.
fn draw_atlas_tiles(state: &Loaded, vis: &TileRange, l: f64, t: f64, z: f64, atlas: &Texture2D) {
    let xs: Vec<f32> = (vis.x0..=vis.x1).map(|x| edge(x as f64, l, z)).collect();
    let ys: Vec<f32> = (vis.y0..=vis.y1).map(|y| edge(y as f64, t, z)).collect();
    let layers = Layers::of_world(&state.session.world);
    let rows = || {
        (vis.y0..vis.y1).flat_map(|y| {
            let row = &state.session.world.row(y)[vis.x0..vis.x1];
            row.iter()
                .enumerate()
                .filter(|(_, t)| **t != Tile::Air)
                .map(move |(i, &tile)| (i, y, tile))
        })
    };
    let cell = |i: usize, y: usize| {
        let j = y - vis.y0;
        (xs[i], ys[j], xs[i + 1] - xs[i], ys[j + 1] - ys[j])
    };
    for (i, y, tile) in rows() {
        let top = state.session.world.surface[vis.x0 + i];
        if let Some(bg) = backdrop_under(tile, y as u32, top, &layers) {
            // A decoration in front of a wall stands on the wall.
            let wall = state.world().wall(vis.x0 + i, y);
            let bg = if wall.is_some() {
                wall.texel(vis.x0 + i, y)
            } else {
                bg
            };
            let (x, y, w, h) = cell(i, y);
            draw_rectangle(x, y, w, h, Color::from_rgba(bg[0], bg[1], bg[2], 255));
        }
    }
    for (i, y, tile) in rows() {
        let (x, y, w, h) = cell(i, y);
        let params = DrawTextureParams {
            dest_size: Some(vec2(w, h)),
            source: Some(atlas_source(tile)),
            ..Default::default()
        };
        draw_texture_ex(atlas, x, y, WHITE, params);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decorations_stand_in_air_not_in_a_square_of_their_colour() {
        // Layers of a 1000-row world: underground from 350, caverns 450, underworld 920.
        let l = Layers::new(&Default::default(), 1000);
        assert_eq!(
            backdrop_under(Tile::Torch, 50, 40, &l),
            Some(crate::world::CAVE_BACKDROP)
        );
        assert_eq!(
            backdrop_under(Tile::Torch, 500, 40, &l),
            Some(crate::world::STONE_BACKDROP)
        );
        assert_eq!(
            backdrop_under(Tile::Torch, 950, 40, &l),
            Some(crate::world::UNDERWORLD_BACKDROP)
        );
        assert_eq!(
            backdrop_under(Tile::Torch, 10, 40, &l),
            Some(Tile::Air.color())
        );
        assert_eq!(
            backdrop_under(Tile::Leaves, 10, 40, &l),
            Some(Tile::Air.color())
        );
        assert_eq!(backdrop_under(Tile::Stone, 50, 40, &l), None);
        assert_eq!(backdrop_under(Tile::Water, 50, 40, &l), None);
    }

    #[test]
    fn cave_tints_are_no_tile_colour() {
        for tint in [LARGEST_TINT, HOVER_TINT] {
            let rgb = [tint.r, tint.g, tint.b].map(|c| (c * 255.0).round() as i32);
            for t in Tile::ALL {
                let c = t.color();
                let d: i32 = (0..3).map(|i| (rgb[i] - c[i] as i32).abs()).sum();
                assert!(d > 60, "{tint:?} is close to {}", t.label());
            }
        }
    }
}
