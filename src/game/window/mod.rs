//! The window itself: the frame loop, its pacing, and the size it opens at.

pub mod display;
pub(super) mod frame;
pub mod pacer;
