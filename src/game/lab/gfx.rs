//! The world lab's overlay pictures (the noise view and what Find found): made on a
//! thread ([`Made`]) and kept here as textures ([`LabGfx`]) for the lab to draw.

use super::views::Found;
use macroquad::prelude::*;
use std::sync::mpsc::Receiver;

/// What a noise overlay shows: the field, its octave, its basis, the preset and seed it was
/// made for.
pub type NoiseKey = (
    String,
    Option<u32>,
    crate::game::lab::NoiseBases,
    crate::content::preset::Preset,
    u64,
);

/// A picture made off the render thread.
pub enum Made {
    Noise(Box<NoiseKey>, (usize, usize), Vec<u8>),
    Found(usize, Box<Found>),
}

/// The lab's overlay pictures: built on a thread, uploaded as textures here.
#[derive(Default)]
pub struct LabGfx {
    pub noise: Option<(NoiseKey, Texture2D)>,
    /// What Find found, in which world (its `world_id`), and its marks.
    pub find: Option<(usize, Box<Found>, Texture2D)>,
    pub busy: Option<Receiver<Made>>,
}

pub fn texture(size: (usize, usize), rgba: &[u8]) -> Texture2D {
    let t = Texture2D::from_rgba8(size.0 as u16, size.1 as u16, rgba);
    t.set_filter(FilterMode::Nearest);
    t
}
