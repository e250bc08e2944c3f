//! Playing on a server (`strata play --join`), the window's side: a [`Remote`] holds the
//! [`Client`] and feeds the window's own [`crate::sim::session::Session`], which then
//! only mirrors the server's: the tiles, walls and chests that changed
//! ([`crate::game::worlds::state::Loaded::mirror`]), the other players' bodies (eased toward each
//! snapshot), the creatures, the Eye and the town's people (eased the same way), the items
//! and hearts lying about, the player's own state (its death screen too). The session is not stepped: each tick's intents go to the server,
//! and the local body is moved by the same physics at once (prediction) and pulled toward
//! where the server has it without a visible jump ([`Predictor`]).
//!
//! The inventory screen's actions (clicks, crafting, chests, armour, buying, throwing) are
//! done on the window's session at once and sent to the server with the next tick's
//! input. The server answers each input that had one with the player's own state after it
//! ([`crate::net::protocol::Own`]): the window takes that and does the actions sent since
//! again on top ([`reconcile`]), so a stack never flickers back while an answer is on its
//! way, and what the server refused (a chest someone else is using) is undone. The
//! prediction, the reconciliation and the easing are the network's client half, in
//! [`crate::net::mirror`] (no window there); this file feeds them the window's world.

use crate::game::ui::chat::Said;
use crate::game::worlds::state::Loaded;
use crate::net::client::Client;
use crate::net::client::Event as NetEvent;
use crate::net::client::JoinOptions;
use crate::net::mirror::{MAX_UNACKED, Predictor, apply_snapshot, reconcile, shown_name, walk_of};
use crate::sim::session::Changes;
use crate::sim::session::Intent;
use crate::sim::session::LOCAL;
use crate::sim::session::PlayerId;
use std::collections::VecDeque;

/// A game joined to a server.
pub struct Remote {
    pub client: Client,
    pub addr: String,
    /// How this window joined (to join again when the server is gone).
    pub opts: JoinOptions,
    /// Server player id of each seat of the window's session (seat 0, [`LOCAL`], is
    /// this player).
    seats: Vec<Option<u32>>,
    /// Tiles changed since the world was whole that the window's world has not taken yet.
    pending: Vec<(usize, usize)>,
    /// The world was handed to the worker to be shown.
    pub asked: bool,
    predictor: Predictor,
    /// The player's name.
    pub name: String,
    /// Actions done here since the last tick: they go with its input.
    outbox: Vec<Intent>,
    /// Actions sent and not answered yet, by input `seq` ([`reconcile`]).
    unacked: VecDeque<(u64, Intent)>,
}

/// What a poll of the server brought for the window.
#[derive(Default)]
pub struct Heard {
    pub said: Vec<Said>,
    pub notices: Vec<String>,
    /// The world is whole: show it (the worker's source).
    pub ready: Option<crate::game::worlds::worker::Source>,
    /// The connection ended: why.
    pub closed: Option<crate::net::client::JoinError>,
    /// The server opened a chest for this player (at this tile) or the Merchant's shop:
    /// the inventory screen opens.
    pub chest_opened: Option<(usize, usize)>,
    pub shop_opened: bool,
}

impl Remote {
    /// Starts joining with `content` (never blocks: [`Remote::poll`] carries on).
    pub fn join(
        opts: &JoinOptions,
        content: std::sync::Arc<crate::content::config::Content>,
    ) -> Result<Remote, crate::net::client::JoinError> {
        Ok(Remote {
            client: Client::connect(opts, content)?,
            addr: opts.addr.clone(),
            opts: opts.clone(),
            seats: vec![None],
            pending: Vec::new(),
            asked: false,
            predictor: Predictor::default(),
            name: opts.name.clone(),
            outbox: Vec::new(),
            unacked: VecDeque::new(),
        })
    }

    /// The seat of server player `id`, added when new.
    fn seat(&mut self, l: &mut Loaded, id: u32) -> PlayerId {
        let i = match self.seats.iter().position(|s| *s == Some(id)) {
            Some(i) => i,
            None => {
                self.seats.push(Some(id));
                self.seats.len() - 1
            }
        };
        // A world shown anew has only its own seat.
        while l.session.players.len() < self.seats.len() {
            l.session.join();
        }
        PlayerId(i)
    }

    /// Pumps the network: the tiles that changed go into `shown` (or wait for it), the
    /// other players' names and joins and leaves into `roster`, the rest is returned.
    pub fn poll(
        &mut self,
        shown: Option<&mut Loaded>,
        roster: &mut super::players::Roster,
    ) -> Heard {
        let mut out = Heard::default();
        let mut answered = false;
        for ev in self.client.poll() {
            match ev {
                NetEvent::Welcome { motd } if !motd.is_empty() => {
                    out.said.push(Said::Server(motd));
                }
                NetEvent::Welcome { .. } | NetEvent::Progress { .. } => {}
                NetEvent::Ready => {
                    let (Some(world), Some(c)) = (self.client.world(), self.client.character())
                    else {
                        continue;
                    };
                    let content = self.client.content();
                    let tod = (self.client.time_of_day()).unwrap_or(content.rules.start_time);
                    let state = crate::net::chars::state_of(&content.catalog, c, tod)
                        .unwrap_or_else(|| {
                            crate::sim::session::PlayerState::new(c.pos, &content.catalog)
                        });
                    let both = Box::new((world.clone(), state));
                    out.ready = Some(crate::game::worlds::worker::Source::Joined(both));
                    self.asked = true;
                    log::info!("joined {} as {}", self.addr, self.name);
                }
                NetEvent::Tiles(list) => self.pending.extend(list),
                NetEvent::Chat { from, text } if from.is_empty() => {
                    out.said.push(Said::Server(text));
                }
                NetEvent::Chat { from, text } => out.said.push(Said::Chat { from, text }),
                NetEvent::Joined { id, name } => {
                    if Some(id) != self.client.me() {
                        out.said.push(Said::Joined(name));
                    }
                }
                NetEvent::Left { name, .. } => out.said.push(Said::Left(name)),
                NetEvent::Notice(text) => out.notices.push(text),
                NetEvent::Character => answered = true,
                NetEvent::Closed(why) => out.closed = Some(why),
            }
        }
        if let Some(l) = shown {
            if let Some(world) = self.client.world()
                && !self.pending.is_empty()
            {
                let list = std::mem::take(&mut self.pending);
                l.mirror(world, &list);
                // The open chest is the player's own state: the answer has it.
                answered |= l.me().chest.is_some_and(|c| list.contains(&c));
                // For scripts: what the server changed (the first few of a batch).
                for &(x, y) in list.iter().take(4) {
                    log::debug!("server tile {x} {y}: {}", world.tile(x, y).name());
                }
            }
            // Names and seats of everyone on (present ones only are drawn).
            let me = self.client.me();
            let seen = self.client.players();
            let mut present = vec![false; self.seats.len().max(1)];
            present[0] = true;
            for p in seen.iter().filter(|p| Some(p.id) != me) {
                let who = self.seat(l, p.id);
                roster.set_name(who, &shown_name(p));
                present.resize(self.seats.len(), false);
                present[who.0] = true;
            }
            roster.set_name(LOCAL, &self.name);
            roster.set_present(&present);
            if answered && let (Some(own), Some(world)) = (self.client.own(), self.client.world()) {
                self.unacked.retain(|(seq, _)| *seq > own.ack);
                match reconcile(&mut l.session, own, &self.unacked, world) {
                    Some(true) => {
                        out.chest_opened = l.me().chest;
                        out.shop_opened = l.me().shop.is_some();
                    }
                    Some(false) => {}
                    None => log::warn!("the server's answer does not fit this build's items"),
                }
            }
        }
        out
    }

    /// An action done on the window's session (a click, a craft): it goes to the server
    /// with the next tick's input.
    pub fn acted(&mut self, intent: Intent) {
        self.outbox.push(intent);
    }

    /// One tick: the intents go to the server; the local body moves by them at once and
    /// takes its share of the server's correction ([`Predictor::tick`], as the bots'
    /// bodies do); the rest mirrors the last snapshot ([`apply_snapshot`]).
    pub fn tick(&mut self, l: &mut Loaded, intents: &[(PlayerId, Intent)]) -> Changes {
        // Nothing walks in a dead world (or one not joined yet).
        if *self.client.phase() != crate::net::client::Phase::Playing {
            return Changes::default();
        }
        // The hotbar's selection is the window's (keys, wheel, clicks): the server hears it
        // every tick, so digging and placing use the same item there.
        let selected = l.session.me().inventory.selected();
        let mut list = vec![Intent::Select(selected)];
        // The actions done since the last tick, as many as the input has room for (the
        // rest go with the next).
        let room = crate::net::protocol::MAX_INTENTS.saturating_sub(1 + intents.len());
        let actions: Vec<Intent> = self.outbox.drain(..room.min(self.outbox.len())).collect();
        list.extend(actions.iter().copied());
        list.extend(intents.iter().map(|&(_, i)| i));
        if let Some(seq) = self.client.send(&list) {
            self.unacked.extend(actions.into_iter().map(|i| (seq, i)));
            while self.unacked.len() > MAX_UNACKED {
                self.unacked.pop_front();
            }
        }
        let (world, body) = (&l.session.world, &mut l.session.players[LOCAL.0].body);
        let walk = walk_of(intents.iter().map(|(_, i)| i));
        (self.predictor).tick(body, world, walk, self.client.body());
        apply_snapshot(&mut l.session, &self.client, &self.seats);
        Changes::default()
    }

    /// A chat line for everyone on the server.
    pub fn say(&mut self, text: &str) {
        self.client.say(text);
    }
}
