//! Drawing the world: the sky and its backdrops, the chunk textures and their masks, light,
//! fog, particles, the player's sprite and the minimap, seen through the free camera.

pub mod backdrops;
pub mod beasts;
pub mod camera;
pub mod fog;
pub mod lighting;
pub mod motion;
pub mod particles;
pub mod render;
pub mod sky;
pub mod sprite;
