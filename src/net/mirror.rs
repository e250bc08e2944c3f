//! The client's half of playing together, on a [`Session`] and without a window: the
//! local body's prediction and its reconciliation with where the server has it
//! ([`Predictor`]), the player's own state taken from the server's answer with the actions
//! sent since done again on top ([`reconcile`]), and the snapshot's creatures, Eye, town
//! people and other players eased toward where the server has them ([`ease_beasts`],
//! [`ease_boss`], [`ease_town`], [`ease`]). The window's join (`game::online::remote`)
//! drives these every tick; they are tested here with sessions alone.

use crate::net::client::Phase;
use crate::net::protocol::{Beast, Eye, Folk, Own};
use crate::sim::creatures::Creature;
use crate::sim::session::Intent;
use crate::sim::session::LOCAL;
use crate::sim::session::Session;
use crate::world::World;
use std::collections::VecDeque;

/// Ticks of predicted positions kept: a server position is matched against these (a
/// second at 60 ticks, well over a round trip).
pub const HISTORY: usize = 60;

/// A server position within this many tiles of a predicted one agrees with it.
pub const AGREE: f32 = 0.35;

/// Share of the remaining correction applied each tick (about 10 ticks to take most of
/// it: no snap, and no lag a player feels).
pub const EASE: f32 = 0.2;

/// Further off than this (a respawn, a teleport) the body is put where the server says.
pub const SNAP: f32 = 6.0;

/// Server positions in a row that may have the body standing still away from where the
/// window has it before it is put where the server says (a shove the window's own
/// physics keeps undoing, whatever is eased in) — three quarters of a second of
/// snapshots.
pub const STUCK: u32 = 15;

/// The local body's predicted positions, and the correction being eased in.
#[derive(Clone, Debug, Default)]
pub struct Predictor {
    history: VecDeque<(f32, f32)>,
    /// What is left to move the body by, tiles.
    pending: (f32, f32),
    /// Server positions in a row that had the body still, away from the last prediction.
    apart: u32,
}

impl Predictor {
    /// Notes the position predicted this tick.
    pub fn predicted(&mut self, pos: (f32, f32)) {
        self.history.push_back(pos);
        while self.history.len() > HISTORY {
            self.history.pop_front();
        }
    }

    /// The server has the body at `server` (`still`: not moving there): when no recent
    /// prediction is within [`AGREE`] of it, the offset from the nearest one is to be
    /// eased in. A jump of [`SNAP`] or more is taken at once (returns `true`), and so is a
    /// body the server has had still for [`STUCK`] positions in a row, away from where it
    /// is here.
    pub fn server_says(&mut self, server: (f32, f32), still: bool) -> bool {
        let d = |p: &(f32, f32)| ((p.0 - server.0).powi(2) + (p.1 - server.1).powi(2)).sqrt();
        let Some(near) = self
            .history
            .iter()
            .min_by(|a, b| d(a).total_cmp(&d(b)))
            .copied()
        else {
            self.pending = (0.0, 0.0);
            return true;
        };
        let off = d(&near);
        let last = self.history.back().map_or(0.0, d);
        self.apart = if still && last > AGREE {
            self.apart + 1
        } else {
            0
        };
        if off >= SNAP || self.apart >= STUCK {
            self.apart = 0;
            self.history.clear();
            self.pending = (0.0, 0.0);
            return true;
        }
        self.pending = if off <= AGREE {
            (0.0, 0.0)
        } else {
            (server.0 - near.0, server.1 - near.1)
        };
        false
    }

    /// This tick's share of the correction (and the history moves with it).
    pub fn step(&mut self) -> (f32, f32) {
        let m = (self.pending.0 * EASE, self.pending.1 * EASE);
        self.pending = (self.pending.0 - m.0, self.pending.1 - m.1);
        for p in &mut self.history {
            *p = (p.0 + m.0, p.1 + m.1);
        }
        m
    }

    /// The local body one tick on, as a joined client has it (the window's and the
    /// bots' one path): moved at once by this tick's `input` on `world` (the prediction),
    /// put where the server has it when [`Predictor::server_says`] says so (`server`: this
    /// player's body in the last snapshot), given this tick's share of the correction, and
    /// the position noted.
    pub fn tick(
        &mut self,
        body: &mut crate::sim::player::Player,
        world: &World,
        input: crate::sim::player::Input,
        server: Option<&crate::net::protocol::Body>,
    ) {
        body.update(world, input, crate::sim::session::TICK as f32);
        if let Some(b) = server
            && self.server_says(b.pos, b.vel.0.hypot(b.vel.1) < 0.5)
        {
            body.pos = b.pos;
            body.vel = b.vel;
        }
        let m = self.step();
        body.pos = (body.pos.0 + m.0, body.pos.1 + m.1);
        self.predicted(body.pos);
    }
}

/// A player's name as the window shows it, with PvP and the team as Terraria's list
/// shows them (`ann (PvP, team 2)`).
pub fn shown_name(p: &crate::net::client::Seen) -> String {
    let (pvp, team) = p.body.as_ref().map_or((false, 0), |b| (b.pvp, b.team));
    match (pvp, team) {
        (false, 0) => p.name.clone(),
        (true, 0) => format!("{} (PvP)", p.name),
        (false, t) => format!("{} (team {t})", p.name),
        (true, t) => format!("{} (PvP, team {t})", p.name),
    }
}

/// Actions sent and not answered yet that are kept (more is a server that stopped
/// answering: the oldest go).
pub const MAX_UNACKED: usize = 600;

/// The window's seat and world as the server's answer `own` has them, with the actions
/// sent after it (`unacked`, by input `seq`) done again on top; their messages are not
/// shown again, and the items a throw would drop are the server's to show. The chest the
/// seat had open goes back to `server`'s copy first (the server's view). Returns whether
/// the answer opened a chest or the shop that was not open here (the inventory screen
/// opens), or `None` when `own` does not fit (nothing changed).
pub fn reconcile(
    session: &mut Session,
    own: &Own,
    unacked: &VecDeque<(u64, Intent)>,
    server: &World,
) -> Option<bool> {
    let before = (session.me().chest, session.me().shop);
    if let Some((x, y)) = before.0
        && x < server.width()
        && y < server.height()
    {
        match server.chests.get(x, y) {
            Some(c) => session.world.chests.insert(x, y, c.clone()),
            None => drop(session.world.chests.remove(x, y)),
        }
    }
    let (seat, world) = (&mut session.players[LOCAL.0], &mut session.world);
    if !crate::net::chars::put_own(own, seat, world) {
        return None;
    }
    let death = own.death.as_ref();
    session.players[LOCAL.0].death = death.map(|f| crate::net::protocol::death_in(f, session.tick));
    let answered = (session.me().chest, session.me().shop);
    let (dropped, edits) = (session.world.dropped.clone(), session.edits);
    for &(_, i) in unacked.iter().filter(|(seq, _)| *seq > own.ack) {
        session.act(LOCAL, i);
    }
    session.world.dropped = dropped;
    session.edits = edits;
    let opened = (answered.0.is_some() && answered.0 != before.0)
        || (answered.1.is_some() && answered.1 != before.1);
    Some(opened)
}

/// The creatures to show for a snapshot's `beasts`: each moved `share` of the way (see
/// [`ease`]) from the shown one of its kind nearest it toward where it is `ahead` seconds
/// on by its velocity (a snapshot is a few ticks old); one with none of its kind shown
/// within [`SNAP`] appears where it is; shown ones the snapshot lacks go. A name the
/// client's bestiary (its content's) does not know is left out.
pub fn ease_beasts(
    bestiary: &crate::content::bestiary::Bestiary,
    shown: &[Creature],
    beasts: &[Beast],
    (share, ahead): (f32, f32),
) -> Vec<Creature> {
    let mut used = vec![false; shown.len()];
    let mut out = Vec::with_capacity(beasts.len());
    for b in beasts {
        let Some(kind) = bestiary.kind(&b.name) else {
            continue;
        };
        let to = (b.pos.0 + b.vel.0 * ahead, b.pos.1 + b.vel.1 * ahead);
        let d = |c: &Creature| (c.body.pos.0 - b.pos.0).hypot(c.body.pos.1 - b.pos.1);
        let near = (0..shown.len())
            .filter(|&i| !used[i] && shown[i].kind == kind && d(&shown[i]) < SNAP)
            .min_by(|&i, &j| d(&shown[i]).total_cmp(&d(&shown[j])));
        let mut c = match near {
            Some(i) => {
                used[i] = true;
                let mut c = shown[i].clone();
                c.body.pos = ease(c.body.pos, to, share);
                c
            }
            None => Creature::new(bestiary, kind, b.pos),
        };
        c.body.vel = b.vel;
        c.body.facing = b.facing;
        c.body.on_ground = !bestiary.flies(kind) && b.vel.1.abs() < 0.5;
        c.hit_flash = if b.hit { 0.1 } else { 0.0 };
        // Shown on fire; the fire's harm is the server's, so no one is credited here.
        c.burning = b.burning.then_some((usize::MAX, 1.0));
        out.push(c);
    }
    out
}

/// The Eye to show for a snapshot's `eye`: the shown one moved `share` of the way toward
/// where the snapshot has it `ahead` seconds on, or put there when none is shown; `None`
/// when the snapshot has none (or one that does not make sense).
pub fn ease_boss(
    shown: Option<&crate::sim::boss::Boss>,
    eye: Option<&Eye>,
    rules: &crate::content::rules::Rules,
    share: f32,
    ahead: f32,
) -> Option<crate::sim::boss::Boss> {
    let mut b = crate::net::protocol::boss_in(eye?, rules)?;
    if let Some(s) = shown {
        let to = (b.pos.0 + b.vel.0 * ahead, b.pos.1 + b.vel.1 * ahead);
        b.pos = ease(s.pos, to, share);
    }
    Some(b)
}

/// The town's people of `session` moved toward a snapshot's `town` (as [`ease_boss`]):
/// the Guide is always there, the others while the snapshot has them (appearing where it
/// has them, in the order of [`crate::sim::npc::NAMES`]); a name that is not a town
/// person's is left out.
pub fn ease_town(session: &mut Session, town: &[Folk], share: f32, ahead: f32) {
    let put = |n: &mut crate::sim::npc::Npc, f: &Folk| {
        let to = (f.pos.0 + f.vel.0 * ahead, f.pos.1 + f.vel.1 * ahead);
        n.body.pos = ease(n.body.pos, to, share);
        n.body.vel = f.vel;
        n.body.facing = f.facing;
        n.body.on_ground = f.vel.1.abs() < 0.5;
    };
    let find = |name: &str| {
        town.iter()
            .find(|f| f.name == name && f.pos.0.is_finite() && f.pos.1.is_finite())
    };
    let mut shown = std::mem::take(&mut session.townsfolk).into_iter();
    let guide = shown.next();
    let mut others: Vec<crate::sim::npc::Npc> = shown.collect();
    let mut folk = Vec::with_capacity(crate::sim::npc::NAMES.len());
    for (k, &name) in crate::sim::npc::NAMES.iter().enumerate() {
        let had = match k {
            0 => guide.clone(),
            _ => others
                .iter()
                .position(|n| n.name == name)
                .map(|i| others.swap_remove(i)),
        };
        match (find(name), had) {
            (Some(f), had) => {
                let mut n = had.unwrap_or_else(|| crate::sim::npc::Npc::new(name, f.pos, 0));
                put(&mut n, f);
                folk.push(n);
            }
            (None, Some(n)) if k == 0 => folk.push(n),
            (None, _) => {}
        }
    }
    session.townsfolk = folk;
}

/// One tick of `session` mirroring what `client` last heard from its server, the rest
/// of the window's join beside the local body ([`Predictor::tick`]): the other players
/// (seat `i` of `session` is server player `seats[i]`, with its grappling line), the
/// creatures, the Eye and the town's people eased toward the last snapshot run on by its
/// age; the items, hearts, projectiles and casters' bolts as it has them, and the world's
/// progress (the Old Man goes once Skeletron fell); the tick counted; the world's clock
/// the server's.
pub fn apply_snapshot(
    session: &mut Session,
    client: &crate::net::client::Client,
    seats: &[Option<u32>],
) {
    let dt = crate::sim::session::TICK as f32;
    // A snapshot is a few ticks old: run it on by its velocity, then ease there.
    let (share, ahead) = (0.3, 3.0 * dt);
    let me = client.me();
    for p in client.players().iter().filter(|p| Some(p.id) != me) {
        let Some(b) = &p.body else { continue };
        let Some(i) = seats.iter().position(|s| *s == Some(p.id)) else {
            continue;
        };
        let Some(seat) = session.players.get_mut(i) else {
            continue;
        };
        let to = (b.pos.0 + b.vel.0 * ahead, b.pos.1 + b.vel.1 * ahead);
        seat.body.pos = ease(seat.body.pos, to, share);
        seat.body.vel = b.vel;
        seat.body.facing = b.facing;
        seat.body.on_ground = b.vel.1.abs() < 0.5;
        // Its grappling line is drawn from it to where it caught.
        seat.body.hook = b.hook.filter(|h| h.0.is_finite() && h.1.is_finite());
    }
    let beasts = std::sync::Arc::clone(&session.content.bestiary);
    let (shown, sent) = (&session.creatures.list, client.beasts());
    session.creatures.list = ease_beasts(&beasts, shown, sent, (share, ahead));
    let rules = &session.content.rules;
    session.boss = ease_boss(session.boss.as_ref(), client.boss(), rules, share, ahead);
    let bosses = &session.content.bestiary.bosses;
    session.rival = (client.rival()).and_then(|f| crate::net::protocol::rival_in(f, bosses));
    ease_town(session, client.town(), share, ahead);
    let cat = &session.content.catalog;
    session.world.dropped = crate::net::protocol::lying_in(cat, client.items());
    session.creatures.hearts = (client.hearts().iter())
        .map(|&pos| crate::sim::creatures::Heart { pos, age: 0.0 })
        .collect();
    session.projectiles = crate::net::protocol::shots_in(client.shots());
    session.creatures.bolts =
        crate::net::protocol::bolts_in(client.bolts(), &session.creatures.bestiary);
    if let Some(p) = client.progress() {
        session.world.progress = p;
        // Skeletron fell: the Old Man's curse is lifted here too.
        if p.skeletron() {
            session.old_man = None;
        }
    }
    session.tick += 1;
    // The world's clock is the server's (day, night, the sky and the music follow it).
    if let Some(t) = client.time_of_day() {
        session.time_of_day = t;
    }
}

/// `pos` moved `share` of the way to `to`; at once when further than [`SNAP`].
pub fn ease(pos: (f32, f32), to: (f32, f32), share: f32) -> (f32, f32) {
    let (dx, dy) = (to.0 - pos.0, to.1 - pos.1);
    if dx.hypot(dy) >= SNAP {
        to
    } else {
        (pos.0 + dx * share, pos.1 + dy * share)
    }
}

/// The physics input of one tick's intents.
pub fn walk_of<'a>(intents: impl IntoIterator<Item = &'a Intent>) -> crate::sim::player::Input {
    let (mut axis, mut jump, mut presses, mut down) = (0, false, 0u8, false);
    for i in intents {
        match *i {
            Intent::Move { axis: a, jump: j } => (axis, jump) = (a.signum(), j),
            Intent::Jump => presses = presses.saturating_add(1),
            Intent::Down => down = true,
            _ => {}
        }
    }
    crate::sim::session::intent::walk(axis, jump, presses, down)
}

/// Where a join is, for the progress screen: the text and the share done.
pub fn progress(phase: &Phase, addr: &str) -> (String, f32) {
    match phase {
        Phase::Connecting => (format!("Joining {addr}: connecting..."), 0.05),
        Phase::Generating => (format!("Joining {addr}: making the world..."), 0.3),
        Phase::Receiving { got, total } => {
            let share = if *total == 0 {
                1.0
            } else {
                *got as f32 / *total as f32
            };
            (
                format!("Joining {addr}: what players changed, {got} of {total} regions"),
                0.3 + 0.6 * share,
            )
        }
        Phase::Playing => (format!("Joined {addr}: showing the world..."), 0.95),
        Phase::Closed(why) => (format!("Not joined to {addr}: {why}"), 0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_position_the_prediction_passed_through_moves_nothing() {
        let mut p = Predictor::default();
        for i in 0..30 {
            p.predicted((10.0 + i as f32 * 0.2, 50.0));
        }
        // The server is 10 ticks behind: it has the body where it was then.
        assert!(!p.server_says((12.0, 50.0), false));
        assert_eq!(p.step(), (0.0, 0.0));
    }

    #[test]
    fn a_disagreement_is_eased_in_over_ticks_and_a_far_one_snaps() {
        let mut p = Predictor::default();
        for i in 0..30 {
            p.predicted((10.0 + i as f32 * 0.2, 50.0));
        }
        // The server stopped the body a tile below the path (a ledge the client missed).
        assert!(!p.server_says((14.0, 51.0), true));
        let steps: Vec<(f32, f32)> = (0..30).map(|_| p.step()).collect();
        let moved: f32 = steps.iter().map(|m| m.1).sum();
        assert!((moved - 1.0).abs() < 0.01, "all of it in the end: {moved}");
        assert!(
            steps.iter().all(|m| m.1 <= EASE + 1e-6),
            "never more than a share a tick"
        );
        assert!(steps[0].1 > steps[5].1, "the most first, less and less");
        // The history moved with it: the same server position now agrees.
        assert!(!p.server_says((14.0, 51.0), true));
        assert_eq!(p.step(), (0.0, 0.0));
        // A respawn across the map is taken at once.
        assert!(p.server_says((400.0, 20.0), true));
        assert_eq!(p.step(), (0.0, 0.0));
    }

    #[test]
    fn a_body_held_off_the_servers_position_is_put_there_within_a_moment() {
        let mut p = Predictor::default();
        let here = (10.0, 50.0);
        // The server shoved the body 3 tiles; the window's physics keeps it where it was
        // (a block there only the window has), whatever correction is eased in.
        let mut snapped = None;
        for tick in 0..120 {
            p.predicted(here);
            if tick % 3 == 0 && p.server_says((13.0, 50.0), true) {
                snapped = Some(tick);
                break;
            }
            p.step();
        }
        let tick = snapped.expect("the body never went where the server has it");
        assert!(tick <= 3 * STUCK as usize, "after {tick} ticks");
    }

    /// A session on a small world with a chest of 6 gel beside the player, open; the
    /// chest's tile.
    fn at_a_chest() -> (Session, (usize, usize)) {
        let p = crate::content::preset::Preset {
            width: 200,
            height: 120,
            ..Default::default()
        };
        let mut s = Session::new(crate::worldgen::generate(&p, 3).0);
        let (px, py) = s.me().body.pos;
        let at = ((px + 2.0) as usize, py as usize - 1);
        s.world.set(at.0, at.1, crate::world::Tile::Chest);
        let cat = std::sync::Arc::clone(&s.content.catalog);
        let gel = cat.id("gel").unwrap();
        s.world.chests.open(at.0, at.1).add(&cat, gel, 6);
        (s, at)
    }

    #[test]
    fn the_servers_answer_is_shown_with_the_unanswered_actions_done_again_on_top() {
        use crate::net::protocol::own_of;
        let (mut server, at) = at_a_chest();
        let (mut window, _) = at_a_chest();
        let gel = window.content.catalog.id("gel").unwrap();
        // The server opened the chest (a right-click): the window hears of it.
        server.players[0].chest = Some(at);
        let none = VecDeque::new();
        let own = own_of(&server, LOCAL, 5);
        let opened = reconcile(&mut window, &own, &none, &server.world);
        assert_eq!(opened, Some(true), "the inventory screen opens");
        assert_eq!(window.me().chest, Some(at));
        // The window takes the gel and puts it in slot 30 at once (inputs 6 and 7)...
        let acts = [Intent::ClickChest(0), Intent::ClickSlot(30)];
        let mut unacked = VecDeque::new();
        for (seq, i) in [6, 7].into_iter().zip(acts) {
            window.act(LOCAL, i);
            unacked.push_back((seq, i));
        }
        let shown = |w: &Session| {
            (
                w.me().inventory.clone(),
                w.me().held,
                w.world.chests.clone(),
            )
        };
        let predicted = shown(&window);
        assert_eq!(
            predicted.0.slots()[30].map(|s| (s.item, s.count)),
            Some((gel, 6))
        );
        // ...and an answer to input 5 comes again (health changed): nothing flickers back.
        server.players[0].vitals.health -= 10.0;
        let own = own_of(&server, LOCAL, 5);
        assert_eq!(
            reconcile(&mut window, &own, &unacked, &server.world),
            Some(false)
        );
        assert_eq!(
            shown(&window),
            predicted,
            "the stack stays where it was put"
        );
        assert_eq!(window.me().vitals.health, server.players[0].vitals.health);
        // The server does them: its answer to 7 is what the window shows.
        for i in acts {
            server.act(LOCAL, i);
        }
        let own = own_of(&server, LOCAL, 7);
        unacked.retain(|(seq, _)| *seq > own.ack);
        assert_eq!(
            reconcile(&mut window, &own, &unacked, &server.world),
            Some(false)
        );
        assert_eq!(shown(&window), predicted);
        assert_eq!(shown(&window), shown(&server));
        // The server closed the chest (walked out of reach) before the window's next click:
        // the click is undone, the chest as the server has it.
        window.act(LOCAL, Intent::ClickSlot(30));
        window.act(LOCAL, Intent::ClickChest(3));
        assert!(window.world.chests.get(at.0, at.1).unwrap().slots()[3].is_some());
        server.players[0].chest = None;
        server.act(LOCAL, Intent::ClickSlot(30));
        server.act(LOCAL, Intent::ClickChest(3));
        let own = own_of(&server, LOCAL, 9);
        assert_eq!(
            reconcile(&mut window, &own, &none, &server.world),
            Some(false)
        );
        assert_eq!(window.me().chest, None);
        assert_eq!(
            window.me().held.map(|s| s.count),
            Some(6),
            "still on the cursor"
        );
        assert_eq!(shown(&window), shown(&server));
        // An answer naming an item this build lacks changes nothing.
        let mut bad = own_of(&server, LOCAL, 10);
        bad.held = Some(("no such thing".into(), 1));
        assert_eq!(reconcile(&mut window, &bad, &none, &server.world), None);
        assert_eq!(shown(&window), shown(&server));
    }

    #[test]
    fn the_players_death_comes_with_its_own_state_and_goes_on_its_respawn() {
        use crate::net::protocol::{ToClient, decode, encode, own_of};
        let (mut server, _) = at_a_chest();
        let (mut window, _) = at_a_chest();
        server.tick = 5000;
        window.tick = 17;
        let text = "You were slain by The Eye".to_string();
        let until = server.tick + 301;
        server.players[0].death = Some(crate::sim::session::Death { text, until });
        let msg = ToClient::Me(own_of(&server, LOCAL, 3));
        let back = decode::<ToClient>(&encode(&msg));
        assert_eq!(back.as_ref(), Ok(&msg), "the answer round-trips");
        let Ok(ToClient::Me(own)) = back else {
            unreachable!()
        };
        let none = VecDeque::new();
        assert_eq!(
            reconcile(&mut window, &own, &none, &server.world),
            Some(false)
        );
        let (d, sd) = (window.me().death.clone(), server.me().death.clone());
        let (d, sd) = (d.expect("the window's player is dead"), sd.unwrap());
        assert_eq!(d.text, sd.text, "the same words on the screen");
        assert_eq!(d.until, window.tick + 301, "by the window's own ticks");
        assert_eq!(d.seconds_left(window.tick), sd.seconds_left(server.tick));
        // A server that says a death lasts for ever: cut to a minute.
        let mut long = own.clone();
        long.death.as_mut().unwrap().ticks_left = u64::MAX;
        reconcile(&mut window, &long, &none, &server.world);
        let left = window.me().death.as_ref().unwrap().until - window.tick;
        assert_eq!(left, crate::net::protocol::MAX_FATE_TICKS);
        // Back: the death screen goes.
        server.players[0].death = None;
        let own = own_of(&server, LOCAL, 4);
        reconcile(&mut window, &own, &none, &server.world);
        assert_eq!(window.me().death, None);
    }

    #[test]
    fn the_eye_and_the_town_people_ease_toward_the_snapshot_and_come_and_go() {
        use crate::net::protocol::{Folk, eye_of};
        let (mut window, _) = at_a_chest();
        let rules = window.content.rules.clone();
        let mut server = crate::sim::boss::Boss::new((50.0, 20.0), &rules);
        server.vel = (10.0, 0.0);
        let eye = eye_of(&server);
        let shown = ease_boss(None, Some(&eye), &rules, 0.5, 0.1).unwrap();
        assert_eq!(shown.pos, (50.0, 20.0), "a new Eye appears where it is");
        server.pos = (52.0, 20.0);
        let eye = eye_of(&server);
        let next = ease_boss(Some(&shown), Some(&eye), &rules, 0.5, 0.1).unwrap();
        assert!((next.pos.0 - 51.5).abs() < 1e-5, "{:?}", next.pos);
        assert!(ease_boss(Some(&next), None, &rules, 0.5, 0.1).is_none());
        // The town: the Guide moves, the Merchant appears, a stranger is left out.
        let folk = |name: &str, x: f32| Folk {
            name: name.into(),
            pos: (x, 30.0),
            vel: (0.0, 0.0),
            facing: -1,
        };
        window.guide_mut().body.pos = (10.0, 30.0);
        window.townsfolk.truncate(1);
        let town = [
            folk("Guide", 12.0),
            folk("Dryad", 40.0),
            folk("Merchant", 80.0),
            folk("Bob", 1.0),
        ];
        ease_town(&mut window, &town, 0.5, 0.0);
        assert_eq!(window.guide().body.pos, (11.0, 30.0));
        assert_eq!(window.guide().body.facing, -1);
        let names: Vec<&str> = window.town().map(|n| n.name).collect();
        assert_eq!(names, ["Guide", "Merchant", "Dryad"], "in the names' order");
        assert_eq!(window.folk("Merchant").unwrap().body.pos, (80.0, 30.0));
        // Gone from the snapshot (killed, moved out): gone here.
        ease_town(&mut window, &town[..1], 0.5, 0.0);
        assert!(window.folk("Merchant").is_none() && window.folk("Dryad").is_none());
        assert_eq!(window.town().count(), 1);
    }

    #[test]
    fn creatures_ease_from_the_nearest_of_their_kind_and_come_and_go() {
        let beast = |name: &str, x: f32| Beast {
            name: name.into(),
            pos: (x, 50.0),
            vel: (0.0, 0.0),
            facing: 1,
            hit: false,
            burning: false,
        };
        let b = &crate::content::config::Content::builtin().bestiary;
        let shown = ease_beasts(
            b,
            &[],
            &[beast("slime", 10.0), beast("nothing", 3.0)],
            (0.5, 0.0),
        );
        assert_eq!(shown.len(), 1, "an unknown kind is left out");
        assert_eq!(
            shown[0].body.pos,
            (10.0, 50.0),
            "a new one appears where it is"
        );
        // Two slimes, listed the other way round: each eases from the one nearest it.
        let two = ease_beasts(
            b,
            &shown,
            &[beast("slime", 30.0), beast("slime", 11.0)],
            (0.5, 0.0),
        );
        assert_eq!(two[0].body.pos, (30.0, 50.0), "none near: put there");
        assert_eq!(two[1].body.pos, (10.5, 50.0), "half way from 10 toward 11");
        // The far one gone, the near one a demon eye now: a slime is not an eye.
        let mut eye = beast("demon eye", 10.6);
        eye.hit = true;
        eye.burning = true;
        eye.vel = (2.0, 0.0);
        let one = ease_beasts(b, &two, &[eye.clone()], (0.5, 0.1));
        assert_eq!(one.len(), 1);
        assert!(
            one[0].burning.is_some() && two[0].burning.is_none(),
            "shown on fire"
        );
        assert_eq!(one[0].kind, crate::sim::creatures::Kind::DemonEye);
        assert_eq!(one[0].body.pos, (10.6, 50.0), "another kind appears anew");
        assert!(one[0].hit_flash > 0.0 && one[0].body.vel == (2.0, 0.0));
        // Run on by its velocity: toward 10.8 from 10.6.
        let on = ease_beasts(b, &one, &[eye], (0.5, 0.1));
        assert!(
            (on[0].body.pos.0 - 10.7).abs() < 1e-5,
            "{:?}",
            on[0].body.pos
        );
    }

    #[test]
    fn others_ease_and_intents_become_the_walk() {
        assert_eq!(ease((0.0, 0.0), (1.0, 2.0), 0.5), (0.5, 1.0));
        assert_eq!(ease((0.0, 0.0), (100.0, 0.0), 0.5), (100.0, 0.0));
        let i = walk_of(&[
            Intent::Move {
                axis: -3,
                jump: true,
            },
            Intent::Jump,
            Intent::Jump,
            Intent::Use { at: None },
        ]);
        assert!(i.left && !i.right && i.jump && !i.down);
        assert_eq!(i.presses, 2);
        let (text, share) = progress(&Phase::Receiving { got: 3, total: 4 }, "h:1");
        assert!(text.contains("3 of 4") && (share - 0.75).abs() < 1e-6);
        assert!((progress(&Phase::Receiving { got: 0, total: 0 }, "h").1 - 0.9).abs() < 1e-6);
    }
}
