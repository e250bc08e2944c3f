//! Playing together, the window's side: joining a server, hosting the world being played,
//! the other players as the window shows them, and chat.

pub mod goodbye;
pub mod host;
pub mod lost;
pub mod players;
pub mod remote;
