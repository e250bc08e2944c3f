//! The storage layer: worlds to and from files. Saves ([`save`]: atomic, versioned, every
//! older format loading) and exports ([`export`]: PNG, ASCII, the cave report).

pub mod export;
pub mod save;
