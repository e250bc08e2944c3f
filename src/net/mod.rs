//! Playing together over a network: the protocol ([`protocol`]), the server that owns a
//! world ([`server`]), the client a front-end or a bot joins with ([`client`]), the
//! characters a server keeps ([`chars`]) and the bots ([`bots`]). Transport is renet with
//! renet_netcode's netcode (UDP, reliable and unreliable channels, timeouts); nothing here needs a
//! window.

pub mod bots;
pub mod chars;
pub mod client;
pub mod keeper;
pub mod protocol;
pub mod secure;
pub mod server;
pub mod transport;
