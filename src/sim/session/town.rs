//! The town in the session: the Guide's and the Nurse's words, houses and who lives in
//! them, the town's people walking, keeping their homes and arriving, and the shops. The
//! rules are [`crate::sim::housing`], [`crate::sim::npc`], [`crate::sim::guide`],
//! [`crate::sim::shop`] and [`crate::sim::nurse`]; this is where they meet the players.

use super::message::Town as Said;
use super::*;

impl Session {
    /// Player `who` asks the Nurse to heal it: every missing point for her price, or what
    /// stops her.
    pub(super) fn ask_nurse(&mut self, who: PlayerId, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let town = &content.town;
        let p = &mut self.players[who.0];
        match crate::sim::nurse::heal(&mut p.vitals, &mut p.inventory, &town.nurse, &town.coins) {
            Ok((healed, price)) => {
                let health = p.vitals.health;
                let said = Said::NurseHealed {
                    healed,
                    price,
                    health,
                };
                out.say(who, said);
                out.events.push(Event::Healed {
                    player: who,
                    amount: healed,
                });
            }
            Err(e) => out.say(who, Said::NurseRefused(e)),
        }
    }

    /// What the Guide says to player `who`: a hint for its next step, or, holding an item,
    /// every recipe that uses it.
    pub(super) fn talk_to_guide(&mut self, who: PlayerId, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let cat = &content.catalog;
        let p = &self.players[who.0];
        let near = Stations::near(&self.world, p.body.bounds(), cat);
        let has = |i: crate::content::items::ItemId| {
            let station =
                matches!(cat.item(i).kind, crate::content::items::Kind::Block(t) if near.has(t));
            p.inventory.count(i) > 0 || station
        };
        let twins = crate::worldgen::lodes::twin_items(&self.world.preset, self.world.seed, cat);
        let facts = crate::sim::guide::Facts {
            night: crate::sim::day::is_night(self.time_of_day, &content.rules),
            homeless: self.guide().homeless(),
            has: &has,
            twins: &twins,
        };
        let held = p.inventory.selected_stack().map(|s| s.item);
        let hint = crate::sim::guide::talk(cat, &content.town.hints, &facts, held);
        out.say(who, Said::Guide { hint });
    }

    /// The room around tile `(x, y)` by the town's housing rule, asked of the world's own
    /// background walls.
    pub fn room_at(&self, x: i64, y: i64) -> crate::sim::housing::Room {
        let town = &self.content.town;
        let world = &self.world;
        crate::sim::housing::check(world, x, y, &town.housing, |x, y| {
            world.wall(x, y).is_some()
        })
    }

    /// Whether the room at `(x, y)` is a house, or what it lacks; a homeless Guide moves
    /// into a house.
    pub(super) fn query_housing(&mut self, who: PlayerId, x: i64, y: i64, out: &mut Changes) {
        let room = self.room_at(x, y);
        if room.is_house() && !self.houses.contains(&(x, y)) {
            if self.houses.len() >= MAX_HOUSES {
                self.houses.remove(0);
            }
            self.houses.push((x, y));
        }
        let lives = self.lives_in(&room);
        let mut moved_in = false;
        if lives.is_none()
            && room.is_house()
            && self.guide().homeless()
            && let Some(spot) = room.floor_spot(&self.world, (x as usize, y as usize))
        {
            self.guide_mut().move_in(spot);
            out.say(who, Said::GuideMovesIn { x, y });
            moved_in = true;
        }
        let said = Said::Housing {
            room,
            lives,
            moved_in,
        };
        out.say(who, said);
    }

    /// Who lives in `room`, if anyone: the name of a town person whose home is inside it.
    pub fn lives_in(&self, room: &crate::sim::housing::Room) -> Option<&'static str> {
        self.town().find_map(|n| {
            let (x, y) = n.home_tile()?;
            room.inside
                .contains(&(x.max(0) as usize, y.max(0) as usize))
                .then_some(n.name)
        })
    }

    /// A house no one lives in among those shown and where the local player stands: the
    /// tile asked about and where a newcomer would stand in it.
    pub fn free_house(&self) -> Option<((i64, i64), (f32, f32))> {
        let c = self.me().body.centre();
        let here = (c.0.floor() as i64, c.1.floor() as i64);
        self.houses
            .iter()
            .copied()
            .chain(std::iter::once(here))
            .find_map(|(x, y)| {
                let room = self.room_at(x, y);
                if !room.is_house() || self.lives_in(&room).is_some() {
                    return None;
                }
                let spot = room.floor_spot(&self.world, (x.max(0) as usize, y.max(0) as usize))?;
                Some(((x, y), spot))
            })
    }

    /// Each townsperson in turn, given to `f` with the session (while `f` runs he is out
    /// of [`Session::townsfolk`]).
    fn for_each_townsperson(
        &mut self,
        out: &mut Changes,
        f: fn(&mut Session, &mut crate::sim::npc::Npc, &mut Changes),
    ) {
        let mut folk = std::mem::take(&mut self.townsfolk);
        for n in &mut folk {
            f(self, n, out);
        }
        self.townsfolk = folk;
    }

    /// The town's tick: the townsfolk walk ([`Session::walk_npc`]); every 2 s their homes
    /// are checked (one that is no longer a house is left), a homeless Guide takes a free
    /// house ([`Session::free_house`]), and the Merchant arrives once
    /// the rule of [`crate::sim::shop::arrives`] holds, the Nurse once hers does, and a
    /// newcomer of `config/town.ron` once its conditions do ([`Session::newcomer_due`]).
    pub(super) fn walk_guide(&mut self, out: &mut Changes) {
        self.for_each_townsperson(out, Session::walk_npc);
        if self.tick < self.guide_check {
            return;
        }
        self.guide_check = self.tick + ticks(2.0);
        self.for_each_townsperson(out, Session::keep_home);
        // A homeless Guide takes a free house (one shown with X, or the one the player
        // stands in) before any newcomer can: as Terraria's townsfolk already living
        // move in first. Else the first house built went to whoever's rule the player
        // met first, and the Guide stayed out.
        if self.guide().homeless()
            && let Some(((x, y), spot)) = self.free_house()
        {
            self.guide_mut().move_in(spot);
            out.say(LOCAL, Said::GuideMovesIn { x, y });
        }
        let content = Arc::clone(&self.content);
        let town = &content.town;
        let carried = crate::sim::coins::worth(&self.me().inventory, &town.coins);
        let here = self.folk("Merchant").is_some();
        // The coins first: the house search only when he could come.
        if crate::sim::shop::arrives(here, true, carried, &town.merchant)
            && let Some(at) = self.arrive("Merchant", out)
        {
            out.say(LOCAL, Said::MerchantArrived);
            out.events.push(Event::MerchantArrived { at });
        }
        // The Nurse: once a player present has used a life crystal.
        let most = self
            .present()
            .map(|i| self.players[i].vitals.max_health)
            .fold(0.0, f32::max);
        let here = self.folk("Nurse").is_some();
        if crate::sim::nurse::arrives(here, true, most, &town.nurse)
            && let Some(at) = self.arrive("Nurse", out)
        {
            out.say(LOCAL, Said::NurseArrived);
            out.events.push(Event::NurseArrived { at });
        }
        // One newcomer at a time.
        if let Some(name) = self.newcomer_due()
            && let Some(at) = self.arrive(name, out)
        {
            let trades = town.shop(name).is_some();
            out.say(LOCAL, Said::FolkArrived { name, trades });
            out.events.push(Event::FolkArrived { name, at });
        }
    }

    /// The seats of the players present (not left).
    fn present(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.players.len()).filter(|&i| !self.away[i])
    }

    /// The first newcomer of `config/town.ron` not yet here whose every condition holds
    /// for one player present.
    pub fn newcomer_due(&self) -> Option<&'static str> {
        let content = &self.content;
        let night = crate::sim::day::is_night(self.time_of_day, &content.rules);
        let holds = |i: usize, need: &crate::content::town::Needs| {
            use crate::content::town::Needs;
            let p = &self.players[i];
            match *need {
                Needs::Night => night,
                Needs::Has(item) => p.inventory.count(item) > 0,
                Needs::Lacks(item) => p.inventory.count(item) == 0,
                Needs::Defeated(boss) => self.world.progress.defeated(boss) == Some(true),
                Needs::Carries(c) => {
                    crate::sim::coins::worth(&p.inventory, &content.town.coins) >= c
                }
                Needs::MostHealth(h) => p.vitals.max_health >= h,
            }
        };
        content
            .town
            .newcomers
            .iter()
            .filter(|c| self.folk(c.name).is_none())
            .find(|c| self.present().any(|i| c.when.iter().all(|w| holds(i, w))))
            .map(|c| c.name)
    }

    /// The townsperson `name` moves into a free house ([`Session::free_house`]), if one
    /// stands: where he stands in it.
    fn arrive(&mut self, name: &'static str, out: &mut Changes) -> Option<(f32, f32)> {
        let ((x, y), spot) = self.free_house()?;
        let mut n = crate::sim::npc::Npc::new(name, spot, super::folk_seed(self.world.seed, name));
        n.move_in(spot);
        self.townsfolk.push(n);
        // Kept in the order of the names, as a save restores them (the Guide first).
        let rank =
            |n: &crate::sim::npc::Npc| crate::sim::npc::NAMES.iter().position(|m| *m == n.name);
        self.townsfolk.sort_by_key(rank);
        out.say(LOCAL, Said::Arrives { name, x, y });
        Some(spot)
    }

    /// Player `who` right-clicked the townsperson `name`: the Guide talks, the Nurse
    /// heals, a seller opens its shop, anyone else says its next line.
    pub(super) fn talk_to_folk(&mut self, who: PlayerId, name: &'static str, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        match name {
            "Guide" => return self.talk_to_guide(who, out),
            "Nurse" => return self.ask_nurse(who, out),
            _ => {}
        }
        if content.town.shop(name).is_some() {
            let p = &mut self.players[who.0];
            p.shop = Some(name);
            p.chest = None;
            let money = crate::sim::coins::worth(&p.inventory, &content.town.coins);
            out.say(who, Said::ShopOpen { money });
            out.events.push(Event::ShopOpened { player: who });
            return;
        }
        let talk = content.town.newcomer(name).map_or(&[][..], |c| &c.talk[..]);
        let line = talk
            .get((self.tick / ticks(1.0).max(1)) as usize % talk.len().max(1))
            .map_or("Hello.", |t| t.as_str());
        let line = line.to_string();
        out.say(who, Said::Says { name, line });
    }

    /// A town person's home checked: he leaves one that is no longer a house.
    pub(super) fn keep_home(&mut self, npc: &mut crate::sim::npc::Npc, out: &mut Changes) {
        if let Some((x, y)) = npc.home_tile() {
            let room = self.room_at(x, y);
            if !room.is_house() {
                let name = npc.name;
                out.say(LOCAL, Said::MovesOut { name, room });
                npc.move_out();
            }
        }
    }

    /// One town person's tick: he walks (home at night), opens a closed door in his way
    /// and closes it behind him.
    pub(super) fn walk_npc(&mut self, npc: &mut crate::sim::npc::Npc, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let town = &content.town;
        let night = crate::sim::day::is_night(self.time_of_day, &content.rules);
        npc.update(&self.world, night, &town.guide, TICK as f32);
        if let Some((x, y)) = npc.door_ahead(&self.world) {
            let tiles = edit::set_door(&mut self.world, x, y, Tile::OpenDoor);
            self.edited(&tiles, out);
            out.events.push(Event::Door { x, y, open: true });
            npc.opened = Some((x, y));
        }
        if let Some((x, y)) = npc.door_behind()
            && self.world.get(x, y) == Some(Tile::OpenDoor)
            && !edit::door_rows(&self.world, x, y).is_some_and(|(t, b)| {
                (t..=b).any(|yy| self.players.iter().any(|p| p.body.overlaps_tile(x, yy)))
            })
        {
            let tiles = edit::set_door(&mut self.world, x, y, Tile::ClosedDoor);
            self.edited(&tiles, out);
            out.events.push(Event::Door { x, y, open: false });
        }
    }

    /// Player `who` buys one of entry `i` of the open shop's wares.
    pub(super) fn buy(&mut self, who: PlayerId, i: usize, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let town = &content.town;
        let p = &mut self.players[who.0];
        let Some(rules) = p.shop.and_then(|s| town.shop(s)) else {
            return;
        };
        match crate::sim::shop::buy(&mut p.inventory, i, rules, &town.coins) {
            Ok((item, price)) => {
                let left = crate::sim::coins::worth(&p.inventory, &town.coins);
                out.say(who, Said::Bought { item, price, left });
                self.edits += 1;
                out.edits += 1;
            }
            Err(e) => out.say(who, Said::CantBuy(e)),
        }
    }

    /// Player `who` sells the stack in slot `i` to the open shop's seller.
    pub(super) fn sell(&mut self, who: PlayerId, i: usize, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let town = &content.town;
        let p = &mut self.players[who.0];
        let Some(rules) = p.shop.and_then(|s| town.shop(s)) else {
            return;
        };
        match crate::sim::shop::sell(&mut p.inventory, i, rules, &town.coins) {
            Ok((item, n, got)) => {
                out.say(who, Said::Sold { item, n, got });
                self.edits += 1;
                out.edits += 1;
            }
            Err(e) => out.say(who, Said::CantSell(e)),
        }
    }
}
