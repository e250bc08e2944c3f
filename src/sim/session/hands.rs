//! A player's hands in the session: using the selected item (digging, hammering,
//! swinging, placing, drinking, summoning), what a kill gives, throwing and picking up
//! items, and crafting. The rules are [`crate::sim::edit`], [`crate::sim::creatures`],
//! [`crate::sim::drops`] and [`crate::sim::craft`].

use super::*;

impl Session {
    /// The buttons: a right-click on a chest opens it; a sword swings; else digging and
    /// placing at the aimed tile.
    pub(super) fn hands(&mut self, who: PlayerId, h: &Held, out: &mut Changes) {
        let now = self.tick;
        // Right-click on a chest within reach opens it, whatever is selected (as in
        // Terraria); holding the button over a chest places nothing.
        if let Some((x, y, pressed)) = h.placing
            && self.right_click(who, x, y, pressed, out)
        {
            let p = &mut self.players[who.0];
            p.digging = None;
            if h.using.is_none() {
                p.dig.reset();
            }
            return;
        }
        let on_chest = h
            .placing
            .filter(|&(x, y, _)| super::chests::opens(self.world.get(x, y)));
        if let Some((x, y, true)) = on_chest {
            self.open_chest(who, x, y, out);
        }
        let p = &mut self.players[who.0];
        p.digging = None;
        p.vitals.defence = p.inventory.defence();
        // Armour in the selected slot is put on with a right click (what was worn comes
        // off into that slot).
        let armour = p.inventory.selected_item().map(|i| i.kind);
        if let Some(crate::content::items::Kind::Armour { .. }) = armour
            && matches!(h.placing, Some((_, _, true)))
            && on_chest.is_none()
            && let Ok(slot) = p.inventory.wear_selected()
        {
            p.vitals.defence = p.inventory.defence();
            let defence = p.vitals.defence;
            out.say(who, Hand::WoreArmour { slot, defence });
            return;
        }
        // An accessory in the selected slot is put on the same way (the first free
        // accessory slot, else in place of the last).
        if let Some(crate::content::items::Kind::Accessory { .. }) = armour
            && matches!(h.placing, Some((_, _, true)))
            && on_chest.is_none()
        {
            match p.inventory.wear_selected_accessory() {
                Ok(slot) => out.say(who, Hand::WoreAccessory { slot }),
                Err(e) => out.say(who, Hand::CantWear(e)),
            }
            return;
        }
        if self.tools(who, h.using, out) {
            return;
        }
        let p = &mut self.players[who.0];
        if let Some(item) = p.inventory.selected_item().map(|i| i.name.as_str())
            && item == LIFE_CRYSTAL
        {
            // A life crystal is used with the left button instead of digging.
            p.dig.reset();
            if h.using.is_some() && now >= p.next_swing {
                p.next_swing = now + ticks(0.5);
                match p.vitals.use_crystal(&self.content.rules) {
                    Ok(most) => {
                        p.inventory.take(LIFE_CRYSTAL);
                        out.say(who, Hand::LifeCrystal { most });
                    }
                    Err(e) => out.say(who, Hand::CantUseLife(e)),
                }
            }
            return;
        }
        if let Some(item) = p.inventory.selected_summon() {
            // A summoning item is used with the left button instead of digging.
            p.dig.reset();
            if h.using.is_some() && now >= p.next_swing {
                p.next_swing = now + ticks(1.0);
                self.use_summon(who, item, out);
            }
            return;
        }
        if let Some(potion) = p.inventory.selected_potion() {
            // A potion is drunk with the left button instead of digging.
            p.dig.reset();
            self.use_potion(who, potion, h.using.is_some(), out);
            return;
        }
        if self.fight(who, h.using, out) {
            return;
        }
        let p = &mut self.players[who.0];
        if let Some((damage, reach, cooldown)) = p.inventory.selected_sword() {
            // A sword swings instead of digging, toward the aimed tile.
            p.dig.reset();
            if let Some(at) = h.using
                && now >= p.next_swing
            {
                p.next_swing = now + ticks(f64::from(cooldown));
                if let Some((x, _)) = at {
                    p.body.facing = if (x as f32 + 0.5) < p.body.pos.0 {
                        -1
                    } else {
                        1
                    };
                }
                out.events.push(Event::Swung { player: who });
                self.swing(who, damage as f32, reach, out);
            }
            return;
        }
        match h.using {
            Some(Some((x, y))) => self.dig(who, x, y, out),
            _ => p.dig.reset(),
        }
        let p = &mut self.players[who.0];
        // A click can press and release within one tick: pressed counts on its own.
        if let Some((x, y, pressed)) = h.placing.filter(|_| on_chest.is_none())
            && (pressed || now >= p.next_place)
        {
            p.next_place = now + ticks(PLACE_REPEAT);
            if p.inventory.selected_wall().is_some() {
                // A wall goes behind the tile: no tile event, the tile is the same.
                match edit::try_place_wall(&mut self.world, &p.body, &mut p.inventory, x, y) {
                    Ok(wall) => {
                        self.edited(&[(x as usize, y as usize)], out);
                        let relit = self.relit();
                        out.say(who, Hand::PlacedWall { wall, x, y, relit });
                    }
                    Err(e) => out.messages.push((who, Message::Refused(e))),
                }
                return;
            }
            // A rope clicked with rope selected grows at its bottom.
            let (x, y) = edit::place_spot(&self.world, &p.inventory, x, y);
            // No block or door goes into anyone (the player's own body is try_place's to
            // check).
            let fills = match p.inventory.selected_tile() {
                Some(t) if t.is_door() => {
                    edit::door_spot(&self.world, x, y).map(|top| (top, top + edit::DOOR_HEIGHT - 1))
                }
                Some(t) if t.is_solid() => Some((y, y)),
                _ => None,
            };
            if fills.is_some_and(|r| self.someone_in(x, r)) {
                let e = edit::EditRefusal::WouldTrapPlayer;
                out.messages.push((who, Message::Refused(e)));
                return;
            }
            let p = &mut self.players[who.0];
            match edit::try_place(&mut self.world, &p.body, &mut p.inventory, x, y) {
                Ok(t) => self.edited_at(who, (x, y), t, true, out),
                Err(e) => out.messages.push((who, Message::Refused(e))),
            }
        }
    }

    /// `tile` placed (`placed`) or dug by player `who` at `(x, y)`: the tiles that changed
    /// (with any it brought down), the water and lava around it stirred, the event and the
    /// log line (`placed torch at 3 4`, `dug dirt at 3 4`, with the relighting).
    pub(super) fn edited_at(
        &mut self,
        who: PlayerId,
        (x, y): (i64, i64),
        tile: Tile,
        placed: bool,
        out: &mut Changes,
    ) {
        let h = self.world.height();
        self.edited(&edit::changed_by(tile, x as usize, y as usize, h), out);
        self.stir(x as usize, y as usize);
        let player = who;
        let relit = self.relit();
        if placed {
            out.events.push(Event::Placed { player, x, y, tile });
            out.say(who, Hand::Placed { tile, x, y, relit });
        } else {
            out.events.push(Event::Dug { player, x, y, tile });
            out.say(who, Hand::Dug { tile, x, y, relit });
        }
    }

    /// A tick of the dig button held on `(x, y)`.
    pub(super) fn dig(&mut self, who: PlayerId, x: i64, y: i64, out: &mut Changes) {
        let p = &mut self.players[who.0];
        let dt = TICK as f32;
        // What a dig gives lies in the world and flies to the player (or lies there until
        // the inventory has room): the dig rules put it into the inventory, which is
        // taken back here.
        let before = p.inventory.clone();
        let step = p
            .dig
            .update(&mut self.world, &p.body, &mut p.inventory, x, y, dt);
        let given = step.gives_all(&self.content.catalog);
        if !given.is_empty() {
            p.inventory = before;
        }
        for (stack, (x, y)) in given {
            let at = (x as f32 + 0.5, y as f32 + 0.5);
            self.drop_item(stack, at, Some(who), out);
        }
        let p = &mut self.players[who.0];
        match step {
            DigStep::Dug { x, y, drop } => self.edited_at(who, (x, y), drop, false, out),
            DigStep::Felled {
                x,
                y,
                drop,
                count,
                tiles,
                ..
            } => {
                self.edited(&tiles, out);
                self.stir(x as usize, y as usize);
                out.events.push(Event::Dug {
                    player: who,
                    x,
                    y,
                    tile: drop,
                });
                let tile = drop;
                out.say(who, Hand::Felled { count, tile, x, y });
            }
            DigStep::Hammered { x, y, wall } => {
                self.edited(&[(x as usize, y as usize)], out);
                let relit = self.relit();
                out.say(who, Hand::TookDown { wall, x, y, relit });
            }
            DigStep::Smashed { x, y } => {
                // The orb's loot, the same for the same orb of the same world.
                let key = crate::base::rng::hash3(self.world.seed ^ ORB_LOOT, x as u64, y as u64);
                let mut draw = <crate::base::rng::PassRng as rand::SeedableRng>::seed_from_u64(key);
                let at = (x as f32 + 0.5, y as f32 + 0.5);
                let content = Arc::clone(&self.content);
                for (item, count) in content.loot.draw_set("shadow_orb", &mut draw) {
                    self.drop_item(Stack { item, count }, at, Some(who), out);
                }
                self.edited_at(who, (x, y), Tile::ShadowOrb, false, out);
                self.orb_broken(who, out);
            }
            DigStep::Digging(share) => p.digging = Some(share),
            // Holding the button on air after a dig is not worth a message.
            DigStep::Refused(EditRefusal::NothingToDig) => {}
            DigStep::Refused(e) => out.messages.push((who, Message::Refused(e))),
        }
    }

    /// A sword swing: hits what is in front, kills give their drops.
    pub(super) fn swing(&mut self, who: PlayerId, damage: f32, reach: f32, out: &mut Changes) {
        let p = &mut self.players[who.0];
        let s = self
            .creatures
            .swing(&p.body, who.0, damage, reach, &self.content.rules);
        if s.hits > 0 {
            let hit = s.hit.iter().map(|&(k, p, _)| (k, p)).collect();
            out.say(who, Fight::SwingHit { hits: s.hits, hit });
        }
        let c = p.body.centre();
        self.credit_strike(who, &s, damage, c, out);
        self.swing_at_eye(who, damage, reach, out);
        self.swing_at_rival(who, damage, reach, out);
        self.swing_at_players(who, damage, reach, out);
    }

    /// Player `who`'s strike `s` for `damage` (a swing's or a weapon's): an event for each
    /// creature hit, and each kill's reward where the creature was (its last hit; `fallback`
    /// when it has none), flying to the killer. Returns where each kill's reward lies.
    pub(super) fn credit_strike(
        &mut self,
        who: PlayerId,
        s: &crate::sim::creatures::Swing,
        damage: f32,
        fallback: (f32, f32),
        out: &mut Changes,
    ) -> Vec<(f32, f32)> {
        for &(kind, at, killed) in &s.hit {
            out.events.push(Event::Hit {
                player: who,
                kind,
                at,
                damage,
                killed,
            });
        }
        let mut places = Vec::with_capacity(s.killed.len());
        for (kind, item, n) in &s.killed {
            let (kind, n) = (*kind, *n);
            let at = s
                .hit
                .iter()
                .find(|(k, _, _)| *k == kind)
                .map_or(fallback, |&(_, (x, feet), _)| (x, feet - 0.5));
            self.reward(kind, item, n, at, Some(who), out);
            places.push(at);
        }
        places
    }

    /// A creature of `kind` died at `at` leaving `n` of `item` and its coins: to `killer`,
    /// the coins straight into its inventory (what does not fit lies in the world) and the
    /// item flying to it; with no killer (lava), all of it lies in the world as items.
    pub(super) fn reward(
        &mut self,
        kind: crate::sim::creatures::Kind,
        item: &str,
        n: u32,
        at: (f32, f32),
        killer: Option<PlayerId>,
        out: &mut Changes,
    ) {
        let content = Arc::clone(&self.content);
        let coins = &content.town.coins;
        let st = content.bestiary.stats(kind);
        let copper = crate::sim::coins::drop_for(st.health, coins);
        let (kept, left) = match killer {
            Some(who) => {
                let p = &mut self.players[who.0];
                let lost = crate::sim::coins::earn(&mut p.inventory, coins, copper);
                (copper - lost, lost)
            }
            None => (0, copper),
        };
        if let Some(who) = killer {
            let item = item.to_string();
            out.say(
                who,
                Fight::Killed {
                    kind,
                    item,
                    n,
                    kept,
                },
            );
            if kept > 0 {
                out.say(who, Fight::TookCopper { kind, copper: kept });
            }
            out.events.push(Event::Killed { kind, by: who });
        } else {
            let item = item.to_string();
            out.say(
                LOCAL,
                Fight::DiedInLava {
                    kind,
                    at,
                    left,
                    item,
                    n,
                },
            );
        }
        let per = coins.per;
        let counts = crate::sim::coins::split(left, per, coins.items.len());
        for (&coin, count) in coins.items.iter().zip(counts) {
            let count = count.min(u64::from(u32::MAX)) as u32;
            self.drop_item(Stack { item: coin, count }, at, killer, out);
        }
        if n > 0
            && let Some(id) = content.catalog.id(item)
        {
            self.drop_item(Stack { item: id, count: n }, at, killer, out);
        }
    }

    /// Drops `stack` into the world with its centre at `at`, flying to player `owner`
    /// when it made it (a dig, a kill).
    pub(super) fn drop_item(
        &mut self,
        stack: Stack,
        at: (f32, f32),
        owner: Option<PlayerId>,
        out: &mut Changes,
    ) {
        if stack.count == 0 {
            return;
        }
        out.events.push(Event::Dropped {
            item: stack.item,
            count: stack.count,
            at,
        });
        let item = Dropped::new(stack, at, owner.map(|o| o.0));
        drops::add(&mut self.world.dropped, item);
    }

    /// Player `who` throws out the stack on its cursor, else its selected stack.
    pub(super) fn throw(&mut self, who: PlayerId, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let p = &mut self.players[who.0];
        let stack = match p.held.take() {
            Some(s) => s,
            None => {
                let Some(s) = p.inventory.selected_stack() else {
                    return;
                };
                if !p.inventory.remove(s.item, s.count) {
                    return;
                }
                s
            }
        };
        let (c, facing) = (p.body.centre(), p.body.facing);
        let (item, count) = (stack.item, stack.count);
        out.say(who, Hand::Threw { item, count });
        out.events.push(Event::Dropped {
            item: stack.item,
            count: stack.count,
            at: c,
        });
        let rules = &content.rules;
        let item = drops::thrown(stack, c, who.0, facing, rules);
        drops::add(&mut self.world.dropped, item);
    }

    /// The items lying in the world fly to players and are picked up, or fall and lie.
    pub(super) fn tick_items(&mut self, out: &mut Changes) {
        if self.world.dropped.is_empty() {
            return;
        }
        let mut items = std::mem::take(&mut self.world.dropped);
        let away = &self.away;
        let mut takers: Vec<Taker> = self
            .players
            .iter_mut()
            .enumerate()
            .map(|(i, p)| Taker {
                // The dead pick nothing up, nor the seats of players who left (a server's
                // empty seat 0 stood at the spawn point taking what lay near it, into an
                // inventory no player has).
                centre: if p.death.is_some() || away.get(i).is_some_and(|&a| a) {
                    (f32::INFINITY, f32::INFINITY)
                } else {
                    p.body.centre()
                },
                inventory: &mut p.inventory,
            })
            .collect();
        let content = Arc::clone(&self.content);
        let rules = &content.rules;
        let picked = drops::step(&mut items, &self.world, &mut takers, rules, TICK as f32);
        self.world.dropped = items;
        for (i, s) in picked {
            let who = PlayerId(i);
            if crate::sim::coins::is_coin(s.item, &content.town.coins) {
                let p = &mut self.players[i];
                crate::sim::coins::settle(&mut p.inventory, &content.town.coins);
            }
            let (item, count) = (s.item, s.count);
            out.say(who, Hand::PickedUp { item, count });
            out.events.push(Event::PickedUp {
                player: who,
                item: s.item,
                count: s.count,
            });
        }
    }

    /// Crafts recipe `i` of the catalog from what player `who` carries, near the stations
    /// around it (or says why not).
    pub(super) fn craft(&mut self, who: PlayerId, i: usize, out: &mut Changes) {
        let content = Arc::clone(&self.content);
        let cat = &content.catalog;
        let Some(recipe) = cat.recipes.get(i) else {
            out.say(who, Hand::NoSuchRecipe);
            return;
        };
        let p = &mut self.players[who.0];
        let near = Stations::near(&self.world, p.body.bounds(), cat);
        match crate::sim::craft::craft(recipe, &mut p.inventory, near) {
            Ok(()) => {
                let (item, count) = (recipe.make, recipe.count);
                out.say(who, Hand::Crafted { item, count });
                out.events.push(Event::Crafted {
                    player: who,
                    at: recipe.at,
                    ok: true,
                });
            }
            Err(e) => {
                out.say(who, Hand::CantCraft(e));
                out.events.push(Event::Crafted {
                    player: who,
                    at: recipe.at,
                    ok: false,
                });
            }
        }
    }
}
