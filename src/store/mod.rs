//! The storage layer: worlds to and from files. Saves ([`save`]: atomic, versioned, every
//! older format loading), their journals ([`journal`]: play since the last save, replayed
//! after a crash), exports ([`export`]: PNG, ASCII, the cave report) and characters
//! ([`character`]: a file each, apart from the worlds they walk into).

pub mod character;
pub mod export;
pub mod journal;
pub mod save;
