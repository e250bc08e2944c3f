//! A headless [`Session`] through a scripted play: walk to a tree and fell it, dig, place a
//! block, fight a slime with the sword, craft torches from the wood and the gel, save,
//! load and walk on. A bot plays it once and records its intents; the record is replayed
//! twice from the same world and must give the same world hash at every tick (and the
//! same save bytes), and a record with one intent changed must not from that tick on.

use strata::Tile;
use strata::World;
use strata::content::preset::Preset;
use strata::sim::creatures::{Creature, Kind};
use strata::sim::session::{Intent, LOCAL, PlayerId, Session};

/// One entry of a script: a tick's intents, or something done between ticks.
#[derive(Clone, Debug, PartialEq)]
enum Entry {
    Tick(Vec<Intent>),
    /// A slime appears with its feet here (the fight's opponent).
    Slime((f32, f32)),
    /// The session is saved to a file and a new one loaded from it.
    SaveLoad,
}

/// The test world: the default preset, small.
fn world() -> World {
    let p = Preset {
        width: 600,
        height: 300,
        ..Preset::default()
    };
    strata::generate(&p, 3).0
}

fn save_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{name}.strata"))
}

/// Saves `s` to `path` and returns its bytes and a session loaded from it.
fn save_and_load(s: &Session, path: &std::path::Path) -> (Vec<u8>, Session) {
    let state = s.player_state(LOCAL);
    strata::store::save::save(path, &s.world, &state).unwrap();
    let bytes = std::fs::read(path).unwrap();
    let (w, p) = strata::store::save::load(path, &s.content.catalog).unwrap();
    assert_eq!(w.tile_hash(), s.world.tile_hash(), "the tiles came back");
    assert_eq!(w.chests, s.world.chests);
    assert_eq!(w.explored.runs(), s.world.explored.runs());
    assert_eq!(p, state, "the player came back");
    (bytes, Session::from_save(w, p))
}

/// Plays `script` from `world`: the world hash after every entry from index `from` on
/// (the entries before it are played unhashed), and the save's bytes.
fn replay(world: &World, script: &[Entry], from: usize, name: &str) -> (Vec<u64>, Vec<u8>) {
    let mut s = Session::new(world.clone());
    let mut hashes = Vec::new();
    let mut bytes = Vec::new();
    for (i, e) in script.iter().enumerate() {
        match e {
            Entry::Tick(list) => {
                let list: Vec<(PlayerId, Intent)> = list.iter().map(|&i| (LOCAL, i)).collect();
                s.step(&list);
            }
            Entry::Slime(at) => {
                let slime = Creature::new(&s.content.bestiary, Kind::Slime, *at);
                s.creatures.list.push(slime)
            }
            Entry::SaveLoad => (bytes, s) = save_and_load(&s, &save_path(name)),
        }
        if i >= from {
            hashes.push(s.world_hash());
        }
    }
    (hashes, bytes)
}

/// The bot: plays `s`, recording every entry.
struct Bot {
    s: Session,
    script: Vec<Entry>,
    hashes: Vec<u64>,
}

impl Bot {
    fn tick(&mut self, intents: Vec<Intent>) {
        let list: Vec<(PlayerId, Intent)> = intents.iter().map(|&i| (LOCAL, i)).collect();
        self.s.step(&list);
        self.script.push(Entry::Tick(intents));
        self.hashes.push(self.s.world_hash());
    }

    fn pos(&self) -> (f32, f32) {
        self.s.me().body.pos
    }

    /// Walks toward column `x` (jumping every so often, over steps) until within `near`
    /// tiles of it; false if it never got there.
    fn walk_to(&mut self, x: f32, near: f32) -> bool {
        for i in 0..1200 {
            let dx = x - self.pos().0;
            if dx.abs() <= near {
                return true;
            }
            let mut list = vec![Intent::Move {
                axis: dx.signum() as i8,
                jump: true,
            }];
            if i % 30 == 0 {
                list.push(Intent::Jump);
            }
            self.tick(list);
        }
        false
    }

    /// Holds the dig button on `(x, y)` until it is no longer `tile`.
    fn dig(&mut self, x: i64, y: i64, tile: Tile) -> bool {
        for _ in 0..600 {
            if self.s.world.tile(x as usize, y as usize) != tile {
                return true;
            }
            self.tick(vec![Intent::Use { at: Some((x, y)) }]);
        }
        false
    }

    /// Lets the player come to rest.
    fn rest(&mut self, ticks: usize) {
        for _ in 0..ticks {
            self.tick(vec![]);
        }
    }

    fn slot_of(&self, tile: Tile) -> usize {
        use strata::world::inventory::AsItem;
        let id = tile.as_item(&self.s.content.catalog).unwrap();
        let slots = self.s.me().inventory.slots();
        slots
            .iter()
            .position(|st| st.is_some_and(|st| st.item == id))
            .expect("carried")
    }
}

/// The bot's play; returns the script, the hash after each entry and its last session.
fn play(world: &World) -> Bot {
    let mut b = Bot {
        s: Session::new(world.clone()),
        script: Vec::new(),
        hashes: Vec::new(),
    };
    b.rest(90);
    assert!(b.s.me().body.on_ground);
    // Walk: to the nearest tree.
    let x0 = b.pos().0 as usize;
    let trunk = |x: usize| {
        let top = b.s.world.surface[x] as usize;
        (top.saturating_sub(30)..top + 2).find(|&y| b.s.world.tile(x, y) == Tile::Trunk)
    };
    let (tx, _) = (0..300)
        .flat_map(|d| [x0 + d, x0.saturating_sub(d)])
        .filter(|&x| x < b.s.world.width())
        .find_map(|x| trunk(x).map(|y| (x, y)))
        .expect("a tree near the spawn point");
    assert!(b.walk_to(tx as f32 + 0.5, 1.2), "walked to the tree");
    b.rest(30);
    // Fell it at the trunk tile nearest the feet.
    let feet = b.pos().1 as usize;
    let ty = (0..feet + 2)
        .rev()
        .find(|&y| b.s.world.tile(tx, y) == Tile::Trunk)
        .expect("the trunk by the feet");
    assert!(b.dig(tx as i64, ty as i64, Tile::Trunk), "felled the tree");
    // The wood lies in the world a moment, flying to the player.
    b.rest(30);
    let wood = b.s.me().inventory.count("wood");
    assert!(wood >= 1, "the tree gave wood");
    // Dig: the tile under the feet.
    let (px, py) = b.pos();
    let below = (px.floor() as i64, py as i64);
    let under = b.s.world.tile(below.0 as usize, below.1 as usize);
    assert!(under.is_solid(), "{under:?}");
    assert!(b.dig(below.0, below.1, under), "dug under the feet");
    let drop = strata::sim::edit::drop_of(under);
    b.rest(60);
    assert!(b.s.me().inventory.count(drop) >= 1);
    // Place: what was dug, beside the player on the ground.
    b.tick(vec![Intent::Select(b.slot_of(drop))]);
    let (px, py) = b.pos();
    let placed = [2i64, -2, 3, -3].into_iter().find_map(|dx| {
        let x = px.floor() as i64 + dx;
        let y = (py as i64 - 3..py as i64 + 3)
            .find(|&y| b.s.world.tile(x as usize, y as usize + 1).is_solid())?;
        if b.s.world.tile(x as usize, y as usize) != Tile::Air {
            return None;
        }
        b.tick(vec![Intent::Place {
            x,
            y,
            pressed: true,
        }]);
        (b.s.world.tile(x as usize, y as usize) == drop).then_some((x, y))
    });
    assert!(placed.is_some(), "placed a block");
    // Fight: a slime three tiles off, the sword drawn, after it until it dies.
    let (px, py) = b.pos();
    let at = (px + 3.0, py);
    b.s.creatures
        .list
        .push(Creature::new(&b.s.content.bestiary, Kind::Slime, at));
    b.script.push(Entry::Slime(at));
    b.hashes.push(b.s.world_hash());
    b.tick(vec![Intent::Select(1)]);
    assert!(b.s.me().inventory.selected_sword().is_some());
    let killed = b.s.creatures.killed;
    for _ in 0..1800 {
        if b.s.creatures.killed > killed {
            break;
        }
        let me = b.pos();
        let Some(target) =
            b.s.creatures
                .list
                .iter()
                .map(|c| c.body.pos)
                .min_by(|a, c| (a.0 - me.0).abs().total_cmp(&(c.0 - me.0).abs()))
        else {
            break;
        };
        let axis = if (target.0 - me.0).abs() < 0.8 {
            0
        } else {
            (target.0 - me.0).signum() as i8
        };
        let use_at = Some((target.0 as i64, target.1 as i64 - 1));
        b.tick(vec![
            Intent::Move { axis, jump: false },
            Intent::Use { at: use_at },
        ]);
    }
    assert!(b.s.creatures.killed > killed, "killed the slime");
    b.rest(30);
    assert!(b.s.me().inventory.count("gel") >= 1, "it dropped gel");
    // Craft: torches from the tree's wood and the slime's gel.
    let cat = std::sync::Arc::clone(&b.s.content.catalog);
    let torch = cat
        .recipes
        .iter()
        .position(|r| cat.item(r.make).name == "torch")
        .unwrap();
    let torches = b.s.me().inventory.count(Tile::Torch);
    b.tick(vec![Intent::Craft(torch)]);
    assert_eq!(
        b.s.me().inventory.count(Tile::Torch),
        torches + cat.recipes[torch].count,
        "crafted torches"
    );
    // Save and load, then walk on.
    let path = save_path("bot");
    let (_, loaded) = save_and_load(&b.s, &path);
    b.s = loaded;
    b.script.push(Entry::SaveLoad);
    b.hashes.push(b.s.world_hash());
    b.rest(30);
    let x = b.pos().0;
    for _ in 0..60 {
        b.tick(vec![Intent::Move {
            axis: -1,
            jump: false,
        }]);
    }
    assert_ne!(b.pos().0, x, "walked on after the load");
    b
}

#[test]
fn a_scripted_play_gives_the_same_hash_tick_for_tick_and_another_script_another() {
    let w = world();
    let bot = play(&w);
    let (a, bytes_a) = replay(&w, &bot.script, 0, "a");
    let (b, bytes_b) = replay(&w, &bot.script, 0, "b");
    assert_eq!(a.len(), bot.script.len());
    assert_eq!(a, bot.hashes, "the replay is the bot's play, tick for tick");
    assert_eq!(a, b, "two replays agree tick for tick");
    assert!(!bytes_a.is_empty());
    assert_eq!(bytes_a, bytes_b, "and save the same bytes");
    // Hashes move as the play goes on.
    let distinct: std::collections::HashSet<u64> = a.iter().copied().collect();
    assert!(distinct.len() > a.len() / 2);
    // Without the craft: the same until then, another hash from there to the end.
    let craft = bot
        .script
        .iter()
        .position(|e| matches!(e, Entry::Tick(l) if matches!(l[..], [Intent::Craft(_)])))
        .expect("the script crafts");
    let mut other = bot.script.clone();
    other[craft] = Entry::Tick(vec![]);
    let (c, _) = replay(&w, &other, craft - 1, "c");
    assert_eq!(c[0], a[craft - 1], "the same until the change");
    assert!(c[1..].iter().zip(&a[craft..]).all(|(x, y)| x != y));
    // The last step walked right instead of left: another hash at the end alone.
    let mut other = bot.script.clone();
    let n = other.len();
    other[n - 1] = Entry::Tick(vec![Intent::Move {
        axis: 1,
        jump: false,
    }]);
    let (d, _) = replay(&w, &other, n - 2, "d");
    assert_eq!(d[0], a[n - 2]);
    assert_ne!(d[1], a[n - 1], "another play, another hash");
    let _ = std::fs::remove_dir_all(save_path("a").parent().unwrap());
}

/// A world `w` x `h` of air over two rows of stone, with cobwebs over the columns `webs`
/// in rows `rows`.
fn webbed(w: usize, h: usize, webs: std::ops::Range<usize>, rows: std::ops::Range<usize>) -> World {
    let mut art = vec![" ".repeat(w); h];
    art.extend(["#".repeat(w), "#".repeat(w)]);
    let art: Vec<&str> = art.iter().map(|r| r.as_str()).collect();
    let mut world = World::from_ascii(&art).unwrap();
    for y in rows {
        for x in webs.clone() {
            world.set(x, y, Tile::Cobweb);
        }
    }
    world
}

/// A cobweb holds a walking player back: over the same ticks on the same floor, a player
/// walking through a band of webs covers a fraction of the ground one walking on open
/// floor covers, and one falling into a web is caught.
#[test]
fn a_cobweb_slows_a_player() {
    // A long floor; the player spawns in the middle column, on it.
    let walk = |w: World| {
        let mut s = Session::new(w);
        let start = s.me().body.pos;
        for _ in 0..60 {
            s.step(&[(
                LOCAL,
                Intent::Move {
                    axis: 1,
                    jump: false,
                },
            )]);
        }
        s.me().body.pos.0 - start.0
    };
    let (open, slow) = (
        walk(webbed(80, 12, 0..0, 0..0)),
        walk(webbed(80, 12, 36..70, 6..12)),
    );
    assert!(open > 5.0, "the open floor is walked: {open}");
    assert!(
        slow < open * 0.4,
        "through the webs {slow} tiles, on open floor {open}"
    );
    // Falling from near the top of the world into webs is caught: after the same ticks
    // the body has fallen much less far than through open air.
    let fall = |w: World| {
        let mut s = Session::new(w);
        s.me_mut().body.pos = (10.0, 4.0);
        for _ in 0..30 {
            s.step(&[]);
        }
        s.me().body.pos.1 - 4.0
    };
    let (air, web) = (
        fall(webbed(20, 60, 0..0, 0..0)),
        fall(webbed(20, 60, 0..20, 0..60)),
    );
    assert!(air > 4.0, "{air}");
    assert!(web < air / 3.0, "through webs {web}, through air {air}");
}
