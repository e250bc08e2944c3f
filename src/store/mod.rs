//! The storage layer: worlds to and from files. Saves ([`save`]: atomic, versioned, every
//! older format loading), their journals ([`journal`]: play since the last save, replayed
//! after a crash) and exports ([`export`]: PNG, ASCII, the cave report).

pub mod export;
pub mod journal;
pub mod save;
