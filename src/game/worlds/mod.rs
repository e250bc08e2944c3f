//! The world in play: the session and its caches, generation off the render thread, saves
//! and the load list, presets, the guard over unsaved edits, and playing (keys to intents).

pub mod chunks;
pub mod guard;
pub mod masks;
pub mod presets;
pub mod saves;
pub mod state;
pub mod textures;
pub mod worker;
