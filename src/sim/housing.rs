//! Houses: is the room around a tile one that town people move into? Terraria's rules
//! ([`crate::content::town::Housing`] has the numbers and tile lists, `config/town.ron`):
//!
//! - the room is what a flood fill from the tile reaches through its four neighbours,
//!   stopped by its frame: solid tiles, doors and platforms. It must stay inside the world
//!   ([`Lack::Open`]) and hold, its frame counted (corners too), `min_tiles..=max_tiles` tiles (the fill
//!   gives up past `max_tiles` inside: [`Lack::TooBig`]);
//! - every tile inside has a background wall behind it (walls are asked of `has_wall`, so
//!   the rule does not depend on how a world keeps them);
//! - inside stand a light, something flat (a table or a workbench) and something to sit
//!   on (a chair);
//! - its frame has a door or a platform: the way in.
//!
//! [`check`] returns the room with everything it lacks; no lack is a house.

use crate::base::tile::Tile;
use crate::content::town::Housing;
use crate::world::World;
use std::collections::HashSet;
use std::fmt;

/// What keeps a room from being a house.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lack {
    /// The tile asked about is a block, a door or a platform: no room to fill.
    NoRoom,
    /// The room reaches the world's edge (it is open to the sky or the world's sides).
    Open,
    /// More than this many tiles: too big, or open to a cave or the sky.
    TooBig(u32),
    /// This many tiles, the frame counted, fewer than the least (the second).
    TooSmall(u32, u32),
    /// This many tiles inside have no background wall behind them.
    Walls(u32),
    Light,
    Flat,
    Comfort,
    /// No door or platform in the frame.
    Entrance,
}

impl fmt::Display for Lack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lack::NoRoom => write!(f, "that is a block, not a room"),
            Lack::Open => write!(f, "the room is not closed"),
            Lack::TooBig(most) => write!(f, "more than {most} tiles (too big, or not closed)"),
            Lack::TooSmall(n, least) => write!(f, "{n} tiles, {least} needed"),
            Lack::Walls(n) => write!(f, "{n} tiles without a background wall"),
            Lack::Light => write!(f, "no light source"),
            Lack::Flat => write!(f, "no table or workbench"),
            Lack::Comfort => write!(f, "no chair"),
            Lack::Entrance => write!(f, "no door or platform"),
        }
    }
}

/// A room and what it lacks to be a house.
#[derive(Clone, Debug, PartialEq)]
pub struct Room {
    /// The tiles inside (not the frame), in the order the fill reached them.
    pub inside: Vec<(usize, usize)>,
    /// Tiles inside and in the frame.
    pub size: u32,
    /// Empty for a house.
    pub lacks: Vec<Lack>,
}

impl Room {
    /// Is it a house?
    pub fn is_house(&self) -> bool {
        self.lacks.is_empty()
    }

    /// Where someone living here stands: the feet of the tile inside nearest `near`
    /// (across, then up) that stands on a block or a platform with room for a body
    /// above it.
    pub fn floor_spot(&self, world: &World, near: (usize, usize)) -> Option<(f32, f32)> {
        let holds = |x: usize, y: usize| {
            world
                .get(x as i64, y as i64 + 1)
                .is_some_and(|t| t.is_solid() || t.is_platform())
        };
        let inside: HashSet<(usize, usize)> = self.inside.iter().copied().collect();
        self.inside
            .iter()
            .filter(|&&(x, y)| holds(x, y) && y > 0 && inside.contains(&(x, y - 1)))
            .min_by_key(|&&(x, y)| (x.abs_diff(near.0), y.abs_diff(near.1), x))
            .map(|&(x, y)| (x as f32 + 0.5, y as f32 + 1.0))
    }
}

/// The eight neighbours of a tile.
const NEIGHBOURS: [(i64, i64); 8] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// Does a room end at this tile (its frame)?
pub fn is_frame(tile: Tile) -> bool {
    tile.is_solid() || tile.is_door() || tile.is_platform()
}

/// The room around `(x, y)` and what it lacks to be a house by `rules`; `has_wall(x, y)`
/// says whether a background wall stands behind a tile.
pub fn check(
    world: &World,
    x: i64,
    y: i64,
    rules: &Housing,
    has_wall: impl Fn(usize, usize) -> bool,
) -> Room {
    let mut room = Room {
        inside: Vec::new(),
        size: 0,
        lacks: Vec::new(),
    };
    match world.get(x, y) {
        Some(t) if !is_frame(t) => {}
        _ => {
            room.lacks.push(Lack::NoRoom);
            return room;
        }
    }
    let (mut seen, mut frame) = (HashSet::new(), HashSet::new());
    let mut todo = vec![(x, y)];
    seen.insert((x, y));
    while let Some((cx, cy)) = todo.pop() {
        room.inside.push((cx as usize, cy as usize));
        if room.inside.len() > rules.max_tiles as usize {
            room.lacks.push(Lack::TooBig(rules.max_tiles));
            return room;
        }
        // The fill goes to the four neighbours; the frame is every frame tile of the
        // eight (its corners count, as Terraria counts them).
        for (dx, dy) in NEIGHBOURS {
            let (nx, ny) = (cx + dx, cy + dy);
            let Some(t) = world.get(nx, ny) else {
                room.lacks.push(Lack::Open);
                return room;
            };
            if is_frame(t) {
                frame.insert((nx, ny));
            } else if (dx == 0 || dy == 0) && seen.insert((nx, ny)) {
                todo.push((nx, ny));
            }
        }
    }
    room.size = (room.inside.len() + frame.len()) as u32;
    if room.size > rules.max_tiles {
        room.lacks.push(Lack::TooBig(rules.max_tiles));
    }
    if room.size < rules.min_tiles {
        room.lacks.push(Lack::TooSmall(room.size, rules.min_tiles));
    }
    let bare = room
        .inside
        .iter()
        .filter(|&&(x, y)| !has_wall(x, y))
        .count();
    if bare > 0 {
        room.lacks.push(Lack::Walls(bare as u32));
    }
    let holds = |list: &[Tile]| {
        room.inside
            .iter()
            .any(|&(x, y)| list.contains(&world.tile(x, y)))
    };
    for (list, lack) in [
        (&rules.lights, Lack::Light),
        (&rules.flat, Lack::Flat),
        (&rules.comfort, Lack::Comfort),
    ] {
        if !holds(list) {
            room.lacks.push(lack);
        }
    }
    let entrance = frame.iter().any(|&(fx, fy)| {
        world
            .get(fx, fy)
            .is_some_and(|t| t.is_door() || t.is_platform())
    });
    if !entrance {
        room.lacks.push(Lack::Entrance);
    }
    room
}

/// What the housing query says of a room: that it is a house, or everything it lacks.
pub fn describe(room: &Room) -> String {
    if room.is_house() {
        return format!(
            "This is a house ({} tiles): someone could live here",
            room.size
        );
    }
    let lacks: Vec<String> = room.lacks.iter().map(|l| l.to_string()).collect();
    format!("Not a house: {}", lacks.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in content, as a session without mods plays by.
    fn content() -> crate::content::config::Content {
        crate::content::config::Content::builtin()
    }

    /// A room 10 wide and 5 tall inside a stone frame (12 x 7 = 84 tiles), a door on its
    /// left wall, a torch, a table and a chair; ground below and sky above.
    const HOUSE: [&str; 10] = [
        "                ",
        "                ",
        "  ############  ",
        "  #   t      #  ",
        "  #          #  ",
        "  #          #  ",
        "  d          #  ",
        "  d  T r     #  ",
        "################",
        "################",
    ];

    fn world(rows: &[&str]) -> World {
        World::from_ascii(rows).expect("valid art")
    }

    fn walls(_: usize, _: usize) -> bool {
        true
    }

    fn lacks(rows: &[&str], x: i64, y: i64) -> Vec<Lack> {
        check(&world(rows), x, y, &content().town.housing, walls).lacks
    }

    /// `HOUSE` with the characters at `(x, y)` changed.
    fn edited(changes: &[(usize, usize, char)]) -> Vec<String> {
        let mut rows: Vec<String> = HOUSE.iter().map(|r| r.to_string()).collect();
        for &(x, y, c) in changes {
            let mut chars: Vec<char> = rows[y].chars().collect();
            chars[x] = c;
            rows[y] = chars.into_iter().collect();
        }
        rows
    }

    fn lacks_of(rows: &[String]) -> Vec<Lack> {
        let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
        lacks(&rows, 6, 5)
    }

    #[test]
    fn a_closed_room_with_walls_light_table_chair_and_door_is_a_house() {
        let w = world(&HOUSE);
        let room = check(&w, 6, 5, &content().town.housing, walls);
        assert_eq!(room.lacks, vec![], "{}", describe(&room));
        assert_eq!(room.inside.len(), 50);
        assert_eq!(room.size, 84, "10 x 5 inside, the frame counted");
        assert!(describe(&room).starts_with("This is a house (84 tiles)"));
        // Asked from any tile inside, the same room; the feet of whoever lives here stand
        // on its floor.
        assert_eq!(check(&w, 12, 7, &content().town.housing, walls).size, 84);
        assert_eq!(room.floor_spot(&w, (6, 5)), Some((6.5, 8.0)));
    }

    #[test]
    fn a_platform_is_a_way_in_as_a_door_is() {
        let rows = edited(&[(2, 6, '#'), (2, 7, '#'), (7, 2, '-'), (8, 2, '-')]);
        assert_eq!(lacks_of(&rows), vec![]);
        let rows = edited(&[(2, 6, '#'), (2, 7, '#')]);
        assert_eq!(lacks_of(&rows), vec![Lack::Entrance]);
    }

    #[test]
    fn each_thing_missing_is_named() {
        assert_eq!(lacks_of(&edited(&[(6, 3, ' ')])), vec![Lack::Light]);
        assert_eq!(lacks_of(&edited(&[(5, 7, ' ')])), vec![Lack::Flat]);
        assert_eq!(
            lacks_of(&edited(&[(5, 7, 'B')])),
            vec![],
            "a workbench is flat"
        );
        assert_eq!(lacks_of(&edited(&[(7, 7, ' ')])), vec![Lack::Comfort]);
        assert_eq!(
            lacks_of(&edited(&[(6, 3, ' '), (7, 7, ' ')])),
            vec![Lack::Light, Lack::Comfort]
        );
        let m = describe(&check(
            &world(&HOUSE.map(|r| {
                if r.contains('t') {
                    "  #          #  "
                } else {
                    r
                }
            })),
            6,
            5,
            &content().town.housing,
            walls,
        ));
        assert_eq!(m, "Not a house: no light source");
    }

    #[test]
    fn every_tile_inside_needs_a_wall_behind_it() {
        let w = world(&HOUSE);
        let none = check(&w, 6, 5, &content().town.housing, |_, _| false);
        assert_eq!(none.lacks, vec![Lack::Walls(50)]);
        // Walls only in the left half of the room.
        let half = check(&w, 6, 5, &content().town.housing, |x, _| x < 8);
        assert_eq!(half.lacks, vec![Lack::Walls(25)]);
    }

    #[test]
    fn too_small_a_room_is_refused_with_its_size() {
        // 4 x 3 inside a frame: 6 x 5 = 30 tiles.
        let small = [
            "        ", " ###### ", " #t   # ", " d    # ", " d T r# ", "########",
        ];
        assert_eq!(lacks(&small, 3, 3), vec![Lack::TooSmall(30, 60)]);
    }

    #[test]
    fn a_room_open_to_the_sky_or_too_big_is_no_house() {
        // A hole in the roof: the fill leaves through the sky to the world's edge.
        let open = edited(&[(9, 2, ' ')]);
        assert_eq!(lacks_of(&open), vec![Lack::Open]);
        // A hall 60 wide and 14 tall inside: 840 tiles, past 750.
        let mut rows = vec!["#".repeat(62)];
        for y in 0..14 {
            let inside: String = (0..60)
                .map(|x| match (x, y) {
                    (3, 13) => 'T',
                    (5, 13) => 'r',
                    (8, 0) => 't',
                    _ => ' ',
                })
                .collect();
            rows.push(format!("d{inside}#"));
        }
        rows.push("#".repeat(62));
        let rows: Vec<&str> = rows.iter().map(|r| r.as_str()).collect();
        assert_eq!(lacks(&rows, 10, 5), vec![Lack::TooBig(750)]);
    }

    #[test]
    fn asking_about_a_block_is_no_room() {
        assert_eq!(lacks(&HOUSE, 2, 2), vec![Lack::NoRoom]);
        assert_eq!(lacks(&HOUSE, 2, 6), vec![Lack::NoRoom], "a door is frame");
        assert_eq!(
            lacks(&HOUSE, -1, 5),
            vec![Lack::NoRoom],
            "outside the world"
        );
    }
}
