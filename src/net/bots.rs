//! Bots ([`run`]): headless clients that join a server and walk, jump, dig, place, craft
//! and chat at random (a seeded stream, so a run is repeatable), then stand still for a
//! while and report the hash of the world as each sees it ([`Report`]) — the same as the
//! server's when nothing was missed. Each predicts its own body as the window does
//! ([`Bot`]), so their runs exercise the window's client half.

use crate::base::rng::mix64;
use crate::net::client::{self, Client, JoinOptions, Phase};
use crate::net::mirror::{Predictor, walk_of};
use crate::sim::player::Player;
use crate::sim::session::{Intent, TICK};
use std::time::{Duration, Instant};

/// What the bots do.
#[derive(Clone, Debug)]
pub struct BotOptions {
    pub addr: String,
    pub count: usize,
    /// Seconds of play.
    pub seconds: f64,
    /// Seconds standing still after play, before the hashes are read (the last changes
    /// and the server's last hash arrive).
    pub settle: f64,
    pub seed: u64,
    /// Names are `PREFIX1`, `PREFIX2`, …; each bot's password follows from its name.
    pub prefix: String,
    pub server_password: String,
    /// Seconds a bot may take to join.
    pub join_timeout: f64,
    /// What the bots play with (a server with other content refuses them).
    pub content: std::sync::Arc<crate::content::config::Content>,
}

impl Default for BotOptions {
    fn default() -> Self {
        BotOptions {
            addr: format!("127.0.0.1:{}", crate::net::protocol::DEFAULT_PORT),
            count: 1,
            seconds: 10.0,
            settle: 3.0,
            seed: 1,
            prefix: "bot".into(),
            server_password: String::new(),
            join_timeout: 30.0,
            content: std::sync::Arc::new(crate::content::config::Content::builtin()),
        }
    }
}

/// What one bot saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub name: String,
    /// The view's hash at the end (`None`: it never had the world).
    pub hash: Option<u64>,
    /// The server's last hash check: `(tick, hash, matched)`; checks that did not match.
    pub checked: Option<(u64, u64, bool)>,
    pub desyncs: u32,
    pub ticks_sent: u64,
    pub said: u32,
    /// Why it stopped early, if it did.
    pub closed: Option<String>,
    /// Seconds its join took and the items it had (a rejoin test reads them).
    pub join_seconds: f64,
    pub items: u32,
    /// The recipes it chose among when it crafted (its content's).
    pub recipes: usize,
}

impl Report {
    /// `bot1 view 0123456789abcdef checked tick 1200 same desyncs 0 items 12`.
    pub fn line(&self) -> String {
        let hash = self.hash.map_or("none".into(), |h| format!("{h:016x}"));
        let checked = match self.checked {
            Some((t, _, same)) => format!("tick {t} {}", if same { "same" } else { "DIFFERS" }),
            None => "never".into(),
        };
        let closed = self
            .closed
            .as_ref()
            .map_or(String::new(), |c| format!(" closed: {c}"));
        format!(
            "{} view {hash} checked {checked} desyncs {} items {} joined in {:.2} s{closed}",
            self.name, self.desyncs, self.items, self.join_seconds
        )
    }
}

/// The password of bot `name` (fixed, so bots rejoin with their characters).
pub fn password_of(name: &str) -> String {
    format!("{:016x}", crate::base::rng::seed_from_text(name))
}

/// One bot's mind: what it does now and until when.
struct Mind {
    rng: u64,
    doing: Doing,
    since: u64,
    until: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Doing {
    Idle,
    Walk(i8, bool),
    Dig(i64, i64),
    Place(i64, i64),
}

impl Mind {
    fn rand(&mut self, n: u64) -> u64 {
        self.rng = mix64(self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15));
        self.rng % n.max(1)
    }

    /// This tick's intents for a body with feet at `pos`; `said` when it chats.
    /// `block`: a hotbar slot past the tools that holds something (to place from).
    /// A tile within reach of feet `pos` that `want` accepts, tried at a few random
    /// offsets.
    fn near(
        &mut self,
        world: &crate::world::World,
        pos: (f32, f32),
        want: impl Fn(crate::world::Tile) -> bool,
    ) -> Option<(i64, i64)> {
        let (fx, fy) = (pos.0.floor() as i64, pos.1.floor() as i64);
        (0..12).find_map(|_| {
            let (x, y) = (fx + self.rand(7) as i64 - 3, fy + self.rand(6) as i64 - 3);
            world.get(x, y).filter(|&t| want(t)).map(|_| (x, y))
        })
    }

    fn think(
        &mut self,
        tick: u64,
        pos: (f32, f32),
        world: &crate::world::World,
        block: Option<usize>,
        recipes: usize,
        out: &mut Vec<Intent>,
    ) -> Option<String> {
        let mut chat = None;
        if tick >= self.until {
            self.since = tick;
            self.until = tick + 30 + self.rand(60);
            let dig = self.near(world, pos, |t| t.is_solid());
            let place = self.near(world, pos, |t| t == crate::world::Tile::Air);
            self.doing = match (self.rand(10), dig, place) {
                (0..=2, _, _) => Doing::Walk(self.rand(3) as i8 - 1, self.rand(3) == 0),
                (3..=6, Some((x, y)), _) => Doing::Dig(x, y),
                (7 | 8, _, Some((x, y))) if block.is_some() => Doing::Place(x, y),
                _ => Doing::Idle,
            };
            if let Doing::Dig(..) = self.doing {
                // Stone takes a while with a copper pickaxe.
                self.until += 60;
            }
            // The pickaxe (the first slot) to dig, a block to place.
            match self.doing {
                Doing::Dig(..) => out.push(Intent::Select(0)),
                Doing::Place(..) => out.push(Intent::Select(block.unwrap_or(0))),
                _ => {}
            }
            match self.rand(12) {
                1 => out.push(Intent::Craft(self.rand(recipes as u64) as usize)),
                2 => out.push(Intent::Jump),
                3 => chat = Some(format!("hello from tick {tick}")),
                _ => {}
            }
        }
        match self.doing {
            Doing::Idle => {}
            Doing::Walk(axis, jump) => out.push(Intent::Move { axis, jump }),
            Doing::Dig(x, y) => out.push(Intent::Use { at: Some((x, y)) }),
            Doing::Place(x, y) => out.push(Intent::Place {
                x,
                y,
                pressed: tick == self.since,
            }),
        }
        chat
    }
}

/// One bot: its connection, its mind, and its body as it predicts it, by the window's
/// own prediction ([`Predictor::tick`]: moved at once by what it sends, eased toward
/// where the server has it), so a bot's run tests the window's client half.
pub struct Bot {
    pub client: Client,
    mind: Mind,
    /// Its predicted body, from its first tick of play.
    body: Option<Player>,
    predictor: Predictor,
    pub report: Report,
    intents: Vec<Intent>,
}

impl Bot {
    /// Bot number `i` (from 0) of `opts` starts joining (never blocks: [`Bot::tick`]
    /// carries on).
    pub fn join(opts: &BotOptions, i: usize) -> Result<Bot, String> {
        let name = format!("{}{}", opts.prefix, i + 1);
        let join = JoinOptions {
            addr: opts.addr.clone(),
            name: name.clone(),
            password: password_of(&name),
            server_password: opts.server_password.clone(),
            known_servers: None,
        };
        let client = Client::connect(&join, std::sync::Arc::clone(&opts.content))?;
        let mind = Mind {
            rng: mix64(opts.seed ^ mix64(i as u64 + 1)),
            doing: Doing::Idle,
            since: 0,
            until: 0,
        };
        let report = Report {
            name,
            hash: None,
            checked: None,
            desyncs: 0,
            ticks_sent: 0,
            said: 0,
            closed: None,
            join_seconds: 0.0,
            items: 0,
            recipes: opts.content.catalog.recipes.len(),
        };
        Ok(Bot {
            client,
            mind,
            body: None,
            predictor: Predictor::default(),
            report,
            intents: Vec::new(),
        })
    }

    /// Where the bot predicts its body (`None` before it plays).
    pub fn predicted(&self) -> Option<(f32, f32)> {
        self.body.as_ref().map(|b| b.pos)
    }

    /// Tick `tick` of play (`play`: it acts; otherwise it stands still): the server's
    /// news taken, this tick's intents chosen by its mind from where it predicts itself
    /// and sent, and its body moved by them.
    pub fn tick(&mut self, tick: u64, play: bool) {
        let c = &mut self.client;
        c.poll();
        if *c.phase() != Phase::Playing {
            return;
        }
        let Some(world) = c.world() else { return };
        let start = (c.body().map(|b| b.pos))
            .or_else(|| c.character().map(|ch| ch.pos))
            .unwrap_or((0.0, 0.0));
        let body = self.body.get_or_insert_with(|| Player::new(start));
        let out = &mut self.intents;
        out.clear();
        let mut said = None;
        if play {
            let block = c.character().and_then(|ch| {
                (2..crate::world::inventory::HOTBAR_SLOTS)
                    .find(|&i| ch.slots.get(i).is_some_and(|s| s.is_some()))
            });
            let recipes = c.content().catalog.recipes.len();
            said = (self.mind).think(tick, body.pos, world, block, recipes, out);
        }
        (self.predictor).tick(body, world, walk_of(out.iter()), c.body());
        if let Some(line) = said {
            c.say(&line);
            self.report.said += 1;
        }
        c.send(out);
        self.report.ticks_sent += 1;
    }

    /// Its report, read from what it sees now; the connection closes.
    pub fn finish(mut self) -> Report {
        let (c, r) = (&mut self.client, &mut self.report);
        c.poll();
        r.hash = c.view_hash().filter(|_| c.world().is_some());
        (r.checked, r.desyncs) = c.checked();
        r.items = c
            .character()
            .map_or(0, |ch| ch.slots.iter().flatten().map(|s| s.1).sum::<u32>());
        if let Phase::Closed(why) = c.phase() {
            r.closed = Some(why.to_string());
        }
        c.close();
        self.report
    }
}

/// Runs the bots: joins them all, plays for `seconds`, stands still for `settle`, and
/// reports. A bot that cannot join is reported with why.
pub fn run(opts: &BotOptions) -> Result<Vec<Report>, String> {
    client::share_worlds(true);
    let mut bots = (0..opts.count)
        .map(|i| Bot::join(opts, i))
        .collect::<Result<Vec<Bot>, String>>()?;
    // Join all at once, each polled in turn.
    let start = Instant::now();
    let limit = Duration::from_secs_f64(opts.join_timeout);
    loop {
        let mut waiting = false;
        for b in bots.iter_mut() {
            b.client.poll();
            match b.client.phase() {
                Phase::Playing if b.report.join_seconds == 0.0 => {
                    b.report.join_seconds = start.elapsed().as_secs_f64().max(1e-6);
                }
                Phase::Playing | Phase::Closed(_) => {}
                _ => waiting = true,
            }
        }
        if !waiting || start.elapsed() > limit {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let play_ticks = crate::sim::session::ticks(opts.seconds);
    let all_ticks = play_ticks + crate::sim::session::ticks(opts.settle);
    let t0 = Instant::now();
    for tick in 0..all_ticks {
        for b in bots.iter_mut() {
            b.tick(tick, tick < play_ticks);
        }
        // Fixed ticks against the clock (never more than one behind).
        let due = t0 + Duration::from_secs_f64((tick + 1) as f64 * TICK);
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    let out = bots.into_iter().map(Bot::finish).collect();
    client::share_worlds(false);
    Ok(out)
}

/// Joins one client and waits until it plays (tests).
pub fn join_one(opts: &JoinOptions, timeout: Duration) -> Result<Client, client::JoinError> {
    let content = std::sync::Arc::new(crate::content::config::Content::builtin());
    join_with(opts, content, timeout)
}

/// [`join_one`] with `content` (a server whose content differs refuses it).
pub fn join_with(
    opts: &JoinOptions,
    content: std::sync::Arc<crate::content::config::Content>,
    timeout: Duration,
) -> Result<Client, client::JoinError> {
    let mut c = Client::connect(opts, content)?;
    client::wait_ready(&mut c, timeout)?;
    Ok(c)
}
