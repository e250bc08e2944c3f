//! Playing together over a network: the protocol ([`protocol`]), the server that owns a
//! world ([`server`]), the client a front-end or a bot joins with ([`client`]), the
//! characters a server keeps ([`chars`]) and the bots ([`bots`]). Transport is renet with
//! renet_netcode (UDP, reliable and unreliable channels, timeouts); nothing here needs a
//! window. The client's half of the game (prediction, reconciliation, easing toward
//! snapshots) is [`mirror`]. The words for what the session says to a player are
//! [`said`]'s, for the server and the window alike.

pub mod bots;
pub mod chars;
pub mod client;
pub mod join;
pub mod keeper;
pub mod mirror;
pub mod protocol;
pub mod said;
pub mod secure;
pub mod server;
pub mod transport;
