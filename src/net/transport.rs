//! The server's side of the wire ([`Transport`]): netcode (renetcode) over one UDP socket,
//! as renet_netcode's own server transport does, but every datagram it refuses is counted
//! by sender ([`Refusals`]) instead of logged one line each, so a flood of junk costs the
//! keeper a summary line now and then, naming who sent it.

use renet::{ClientId, RenetServer};
use renetcode::{
    ConnectToken, NETCODE_MAX_PACKET_BYTES, NetcodeServer, ServerConfig, ServerResult,
};
use std::collections::BTreeMap;
use std::net::{SocketAddr, UdpSocket};
use std::time::Duration;

/// Most senders a [`Refusals`] names; the rest are counted together.
pub const MAX_SENDERS: usize = 256;

/// Datagrams refused since the last summary: how many, and from whom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refusals {
    pub total: u64,
    /// By sender (at most [`MAX_SENDERS`] of them).
    pub by: BTreeMap<SocketAddr, u64>,
    /// Refused from senders past [`MAX_SENDERS`].
    pub others: u64,
}

impl Refusals {
    /// Counts one refused datagram from `from`.
    pub fn count(&mut self, from: SocketAddr) {
        self.total += 1;
        if let Some(n) = self.by.get_mut(&from) {
            *n += 1;
        } else if self.by.len() < MAX_SENDERS {
            self.by.insert(from, 1);
        } else {
            self.others += 1;
        }
    }

    /// One line for the log: the total, the senders, the busiest few by name.
    pub fn summary(&self, over: Duration) -> String {
        let mut top: Vec<(&SocketAddr, &u64)> = self.by.iter().collect();
        top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let named: Vec<String> = top
            .iter()
            .take(4)
            .map(|(a, n)| format!("{a} ({n})"))
            .collect();
        let senders = self.by.len() + usize::from(self.others > 0);
        let more = if top.len() > 4 || self.others > 0 {
            ", ..."
        } else {
            ""
        };
        format!(
            "refused {} datagram{} in {:.0} s from {senders} sender{}: {}{more}",
            self.total,
            if self.total == 1 { "" } else { "s" },
            over.as_secs_f64(),
            if senders == 1 { "" } else { "s" },
            named.join(", ")
        )
    }
}

/// A prefix byte netcode would choke on: a packet other than a connection request claims
/// more than 8 bytes of sequence (renetcode 2.0 panics decoding it) or a type past the
/// last (6).
fn malformed_prefix(first: u8) -> bool {
    let (kind, seq) = (first & 0xF, first >> 4);
    kind > 6 || (kind != 0 && seq > 8)
}

/// What a server needs to hand out connect tokens ([`crate::net::secure`]): its
/// long-term key, netcode's private key, the protocol and its own address.
pub struct Issuer {
    pub key: crate::net::secure::ServerKey,
    pub private_key: [u8; 32],
    pub protocol_id: u64,
    pub addr: SocketAddr,
}

/// Seconds a connect token may wait before it is used, and a connection's silence
/// before netcode drops it.
pub const TOKEN_SECONDS: u64 = 30;
pub const TIMEOUT_SECONDS: i32 = 15;

/// Netcode on a UDP socket, with refusals counted and connect tokens issued.
pub struct Transport {
    socket: UdpSocket,
    netcode: NetcodeServer,
    buffer: Vec<u8>,
    /// Refused since the last [`Transport::take_refusals`].
    refusals: Refusals,
    issuer: Issuer,
}

impl Transport {
    pub fn new(
        config: ServerConfig,
        socket: UdpSocket,
        issuer: Issuer,
    ) -> std::io::Result<Transport> {
        socket.set_nonblocking(true)?;
        Ok(Transport {
            socket,
            netcode: NetcodeServer::new(config),
            buffer: vec![0; crate::net::secure::ASK_BYTES.max(NETCODE_MAX_PACKET_BYTES)],
            refusals: Refusals::default(),
            issuer,
        })
    }

    /// Answers a client's key exchange with a connect token sealed for it alone; whether
    /// it was one.
    fn issue(&mut self, len: usize, to: SocketAddr) -> bool {
        let i = &self.issuer;
        let now = self.netcode.current_time();
        let make = || {
            let id = u64::from_le_bytes(renetcode::generate_random_bytes::<8>());
            ConnectToken::generate(
                now,
                i.protocol_id,
                TOKEN_SECONDS,
                id,
                TIMEOUT_SECONDS,
                vec![i.addr],
                None,
                &i.private_key,
            )
            .ok()
        };
        match crate::net::secure::answer(&i.key, &self.buffer[..len], make) {
            Some(reply) => {
                if let Err(e) = self.socket.send_to(&reply, to) {
                    log::debug!("cannot answer {to}: {e}");
                }
                true
            }
            None => false,
        }
    }

    /// The address of client `id`.
    pub fn client_addr(&self, id: ClientId) -> Option<SocketAddr> {
        self.netcode.client_addr(id)
    }

    /// What was refused since the last call (and a fresh count from now).
    pub fn take_refusals(&mut self) -> Refusals {
        std::mem::take(&mut self.refusals)
    }

    /// Reads every datagram waiting, hands the clients' payloads to `server`, and keeps
    /// the connections alive; an error only when the socket itself fails.
    pub fn update(&mut self, dt: Duration, server: &mut RenetServer) -> std::io::Result<()> {
        self.netcode.update(dt);
        loop {
            let (len, addr) = match self.socket.recv_from(&mut self.buffer) {
                Ok(got) => got,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => break,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => continue,
                Err(e) => return Err(e),
            };
            if len > 0 && self.buffer[0] == crate::net::secure::ASK {
                if !self.issue(len, addr) {
                    self.refusals.count(addr);
                }
                continue;
            }
            if len == 0 || len > NETCODE_MAX_PACKET_BYTES || malformed_prefix(self.buffer[0]) {
                self.refusals.count(addr);
                continue;
            }
            let known = self.is_client(addr);
            let (netcode, buffer, socket) = (&mut self.netcode, &mut self.buffer, &self.socket);
            // Netcode's decoding is not trusted not to panic on what a stranger sends: a
            // panic there happens before any state changes, so the datagram is refused.
            let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let result = netcode.process_packet(addr, &mut buffer[..len]);
                let nothing = matches!(result, ServerResult::None);
                handle(result, socket, server);
                nothing
            }));
            // Nothing came of a datagram from a stranger: it was refused (junk, a forged or
            // stale request, a packet for a connection that is gone).
            if handled.unwrap_or(true) && !known {
                self.refusals.count(addr);
            }
        }
        for id in self.netcode.clients_id() {
            let result = self.netcode.update_client(id);
            handle(result, &self.socket, server);
        }
        for id in server.disconnections_id() {
            let result = self.netcode.disconnect(id);
            handle(result, &self.socket, server);
        }
        Ok(())
    }

    fn is_client(&self, addr: SocketAddr) -> bool {
        self.netcode
            .clients_id_iter()
            .any(|id| self.netcode.client_addr(id) == Some(addr))
    }

    /// Sends what renet has for every client.
    pub fn send_packets(&mut self, server: &mut RenetServer) {
        for id in server.clients_id() {
            let Ok(packets) = server.get_packets_to_send(id) else {
                continue;
            };
            for packet in packets {
                match self.netcode.generate_payload_packet(id, &packet) {
                    Ok((addr, payload)) => {
                        if let Err(e) = self.socket.send_to(payload, addr) {
                            log::debug!("cannot send to client {id} ({addr}): {e}");
                            break;
                        }
                    }
                    Err(e) => {
                        log::debug!("cannot seal a packet for client {id}: {e}");
                        break;
                    }
                }
            }
        }
    }

    /// Disconnects every client (netcode tells each).
    pub fn disconnect_all(&mut self, server: &mut RenetServer) {
        for id in self.netcode.clients_id() {
            let result = self.netcode.disconnect(id);
            handle(result, &self.socket, server);
        }
    }
}

/// What netcode made of a datagram, passed on: packets to send, payloads to renet,
/// connections made and ended.
fn handle(result: ServerResult, socket: &UdpSocket, server: &mut RenetServer) {
    let send = |packet: &[u8], addr: SocketAddr| {
        if let Err(e) = socket.send_to(packet, addr) {
            log::debug!("cannot send to {addr}: {e}");
        }
    };
    match result {
        ServerResult::None => {}
        ServerResult::PacketToSend { payload, addr } => send(payload, addr),
        ServerResult::Payload { client_id, payload } => {
            if let Err(e) = server.process_packet_from(payload, client_id) {
                log::debug!("a bad payload from client {client_id}: {e}");
            }
        }
        ServerResult::ClientConnected {
            client_id,
            addr,
            payload,
            ..
        } => {
            server.add_connection(client_id);
            send(payload, addr);
        }
        ServerResult::ClientDisconnected {
            client_id,
            addr,
            payload,
        } => {
            server.remove_connection(client_id);
            if let Some(payload) = payload {
                send(payload, addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_busiest_senders_and_stay_bounded() {
        let mut r = Refusals::default();
        let a: SocketAddr = "10.0.0.1:5000".parse().unwrap();
        for _ in 0..50 {
            r.count(a);
        }
        for port in 0..1000u16 {
            r.count(SocketAddr::from(([10, 0, 0, 2], port)));
        }
        assert_eq!(r.total, 1050);
        assert_eq!(r.by.len(), MAX_SENDERS);
        assert_eq!(r.others, 1000 - (MAX_SENDERS as u64 - 1));
        let line = r.summary(Duration::from_secs(10));
        assert!(
            line.starts_with(
                "refused 1050 datagrams in 10 s from 257 senders: 10.0.0.1:5000 (50), "
            ),
            "{line}"
        );
        assert!(line.ends_with(", ..."), "{line}");
    }

    #[test]
    fn prefixes_netcode_cannot_read_are_refused_before_it_sees_them() {
        // A connection request (type 0) carries no sequence: any high nibble is its own.
        assert!(!malformed_prefix(0x00));
        // A payload (type 4) with 8 sequence bytes is fine, with 9 it is not.
        assert!(!malformed_prefix(0x84));
        assert!(malformed_prefix(0x94));
        assert!(malformed_prefix(0x07));
    }
}
