#!/usr/bin/env python3
"""Draws assets/tiles.png, Strata's tile atlas: 16x16 pixels per picture, a row per tile in
the order of the Tile discriminants (Air, Dirt, Stone, Grass, IronOre, GoldOre, DiamondOre,
Water, Torch, Sand, Sandstone, Snow, Ice, Mud, JungleGrass, Ash, Lava, Obsidian, CopperOre,
SilverOre, Hellstone, Trunk, Leaves, Cactus, Wood, Workbench, Furnace, Anvil, Chest,
ClosedDoor, OpenDoor, Platform, Table, Chair, Bed, LifeCrystal, Rope, EyeTrophy, TinOre,
LeadOre, TungstenOre, PlatinumOre, HardenedSand, a spare, CorruptGrass, Ebonstone,
DemoniteOre, ShadowOrb, DungeonBrick, Spike, Cloud, a spare, Marble, Granite, MushroomGrass,
GlowMushroom, Hive, Honey, Cobweb, Clay, Silt, ObsidianBrick, Amethyst, Topaz, Sapphire,
Emerald, Ruby, PiggyBank). Only the standard library is used.

Each row holds 141 pictures: 47 frames in three variants each, at column frame * 3 +
variant. Frames 0..16 are the 16 neighbour masks (bit 1: the tile above connects, 2:
right, 4: below, 8: left; see frame_mask in src/game/draw/render.rs); frames 16..47 are the
masks with inner corners, a diagonal neighbour open where both sides beside it connect
(corner bit 1: up-left, 2: up-right, 4: down-right, 8: down-left; see FRAME_KEYS, the same
order as frame_index in src/game/draw/render.rs). A block's exposed sides get an outline and a
lit lip, two exposed sides meeting a rounded corner, an open diagonal an inner corner (the
outline of the two neighbours beside it turning through the tile's corner pixel), soft ground (dirt, sand, mud, snow, ash, leaves) a
ragged edge, grass its turf on every exposed side; a liquid a bright surface where open
above. Decorations and furniture repeat one picture. The three variants of a block are the
same material drawn from different noise and mirrored, so a face of stone is never a grid.
Each block's base picture is shifted so its mean colour equals Tile::color() in
src/base/tile.rs, so the near-zoom atlas (mask 15, all neighbours, is the most common frame)
and the far-zoom one-pixel-per-tile chunk textures agree.

    python3 assets/make_tiles.py        # rewrites assets/tiles.png
"""
import os

from pngwrite import png

T = 16
# Tile::color() from src/base/tile.rs, in discriminant order (Air is transparent here).
COLORS = [
    None,
    (151, 107, 75),   # dirt
    (118, 118, 124),  # stone
    (86, 170, 62),    # grass
    (196, 140, 110),  # iron ore
    (236, 200, 64),   # gold ore
    (120, 232, 244),  # diamond ore
    (52, 104, 220),   # water
    (255, 196, 72),   # torch
    (222, 200, 140),  # sand
    (186, 148, 96),   # sandstone
    (232, 240, 250),  # snow
    (150, 200, 242),  # ice
    (94, 70, 66),     # mud
    (40, 156, 104),   # jungle grass
    (86, 80, 88),     # ash
    (250, 104, 32),   # lava
    (58, 42, 84),     # obsidian
    (204, 112, 60),   # copper ore
    (204, 208, 218),  # silver ore
    (172, 52, 40),    # hellstone
    (122, 86, 52),    # tree trunk
    (52, 132, 52),    # leaves
    (92, 162, 72),    # cactus
    (172, 122, 72),   # wood
    (150, 104, 60),   # workbench
    (110, 98, 96),    # furnace
    (92, 96, 108),    # anvil
    (176, 128, 56),   # chest
    (140, 98, 58),    # closed door
    (132, 92, 54),    # open door
    (166, 118, 70),   # platform
    (158, 110, 64),   # table
    (150, 104, 62),   # chair
    (170, 96, 90),    # bed
    (232, 40, 92),    # life crystal
    (176, 146, 96),   # rope
    (157, 123, 102),  # Eye trophy
    (190, 176, 132),  # tin ore
    (94, 104, 124),   # lead ore
    (120, 176, 130),  # tungsten ore
    (196, 214, 226),  # platinum ore
    (204, 168, 112),  # hardened sand
    None,             # 43: spare
    (124, 110, 170),  # corrupt grass
    (98, 84, 122),    # ebonstone
    (110, 70, 170),   # demonite ore
    (150, 60, 200),   # shadow orb
    (66, 84, 150),    # dungeon brick
    (150, 150, 162),  # spike
    (236, 240, 248),  # cloud
    None,             # 51: spare
    (200, 200, 206),  # marble
    (66, 62, 82),     # granite
    (64, 92, 196),    # mushroom grass
    (96, 150, 255),   # glow mushroom
    (214, 150, 40),   # hive
    (248, 174, 30),   # honey
    (214, 214, 220),  # cobweb
    (164, 84, 64),    # clay
    (110, 104, 100),  # silt
    (74, 56, 98),     # obsidian brick
    (164, 72, 220),   # amethyst
    (236, 172, 40),   # topaz
    (48, 92, 232),    # sapphire
    (40, 196, 96),    # emerald
    (224, 32, 48),    # ruby
    (236, 150, 170),  # piggy bank
]


# Added to every noise salt: each variant of a tile is drawn from its own noise.
VARIANT = [0]
VARIANTS = 3
MASKS = 16
UP, RIGHT, DOWN, LEFT = 1, 2, 4, 8
# Inner corners: (corner bit, the two sides that must connect, which pixel corner).
CORNERS = ((1, UP, LEFT, (0, 0)), (2, UP, RIGHT, (1, 0)),
           (4, DOWN, RIGHT, (1, 1)), (8, DOWN, LEFT, (0, 1)))


def allowed_corners(mask):
    """The inner-corner bits a mask can have: both sides beside the corner connect."""
    return sum(bit for bit, a, b, _ in CORNERS if mask & a and mask & b)


# Every frame as (mask, corners): the 16 masks first, then each mask's inner-corner
# combinations (subsets of its allowed corners, in increasing order), mask by mask.
FRAME_KEYS = [(m, 0) for m in range(MASKS)] + [
    (m, c) for m in range(MASKS) for c in range(1, 16) if c & allowed_corners(m) == c]
assert len(FRAME_KEYS) == 47


def noise(x, y, salt):
    """A stable hash of a pixel position in [0, 1)."""
    salt += VARIANT[0] * 7919
    h = (x * 374761393 + y * 668265263 + salt * 2147483647) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    return ((h ^ (h >> 16)) & 0xFFFF) / 65536.0


def shade(c, f):
    return tuple(max(0, min(255, int(round(v * f)))) for v in c)


def mix(a, b, t):
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))


def blank():
    return [[(0, 0, 0, 0)] * T for _ in range(T)]


def speckled(base, salt, lo=0.82, hi=1.14):
    tile = blank()
    for y in range(T):
        for x in range(T):
            n = noise(x, y, salt)
            f = lo if n < 0.18 else hi if n > 0.86 else 1.0
            tile[y][x] = shade(base, f) + (255,)
    return tile


def dirt():
    t = speckled((151, 107, 75), 1)
    for (x, y) in ((3, 4), (10, 2), (12, 11), (5, 12), (8, 7)):  # pebbles
        t[y][x] = (110, 78, 54, 255)
        t[y][x + 1] = (176, 132, 98, 255)
    return t


def stone():
    """Rough natural stone: speckle, a few dark cracks and light flecks (no brick courses,
    which made a face of stone a grid)."""
    t = speckled((118, 118, 124), 2, 0.88, 1.1)
    for y in range(T):
        for x in range(T):
            n = noise(x, y, 60)
            if n > 0.955:
                t[y][x] = (150, 150, 158, 255)
    for k in range(3):  # short cracks
        x, y = int(noise(k, 0, 61) * 13) + 1, int(noise(k, 1, 61) * 13) + 1
        for step in range(3 + int(noise(k, 2, 61) * 3)):
            if 0 <= x < T and 0 <= y < T:
                t[y][x] = (80, 80, 88, 255)
            x += 1 if noise(k, step, 62) > 0.4 else 0
            y += 1 if noise(k, step, 63) > 0.5 else 0
    return t


def ore(gem, salt):
    t = speckled((104, 104, 112), 10 + salt, 0.88, 1.1)
    spots = [(3, 3), (10, 4), (6, 10), (12, 11), (2, 12)]
    for (cx, cy) in spots:
        for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2)):
            x, y = cx + dx, cy + dy
            if x < T and y < T:
                hi = dx + dy <= 1
                t[y][x] = shade(gem, 1.15 if hi else 0.85) + (255,)
        if cx + 2 < T and cy + 2 < T:
            t[cy + 2][cx + 2] = shade(gem, 0.5) + (255,)
    for (cx, cy) in spots[::2]:  # a sparkle on every other nugget
        t[cy][cx] = (255, 255, 240, 255)
    return t


def water():
    t = blank()
    for y in range(T):
        for x in range(T):
            wave = (x + (y // 4) * 3) % 8 in (0, 1) and y % 4 == 1
            t[y][x] = (shade((52, 104, 220), 1.35 if wave else 1.0)) + (255,)
    return t


def torch():
    t = blank()
    for y in range(7, 15):  # stick
        t[y][7] = (120, 78, 40, 255)
        t[y][8] = (92, 58, 30, 255)
    flame = {3: (7, 8), 4: (6, 9), 5: (6, 9), 6: (7, 8)}
    for y, (x0, x1) in flame.items():
        for x in range(x0, x1 + 1):
            inner = y >= 4 and x0 < x < x1
            t[y][x] = ((255, 240, 150) if inner else (255, 160, 40)) + (255,)
    t[2][7] = (255, 120, 30, 255)
    return t


def sand(base, salt):
    t = speckled(base, salt, 0.88, 1.1)
    for y in range(T):
        for x in range(T):
            if noise(x, y, salt + 50) > 0.93:
                t[y][x] = shade(base, 0.75) + (255,)
    return t


def sandstone():
    t = speckled((186, 148, 96), 21, 0.9, 1.08)
    for y in (4, 10, 15):  # bedding planes
        for x in range(T):
            if noise(x, y, 22) > 0.15:
                t[y][x] = (150, 114, 70, 255)
    return t


def hardened_sand():
    """Packed sand: sand's grain, darker, with wavy compacted bands."""
    t = sand((204, 168, 112), 60)
    for y in range(T):
        for x in range(T):
            if (y + (x // 5)) % 6 == 0 and noise(x, y, 61) > 0.2:
                t[y][x] = (168, 132, 82, 255)
    return t


def snow():
    t = speckled((232, 240, 250), 23, 0.94, 1.03)
    for y in range(T):
        for x in range(T):
            if noise(x, y, 24) > 0.9:
                t[y][x] = (196, 214, 238, 255)
    return t


def ice():
    t = speckled((150, 200, 242), 25, 0.95, 1.05)
    for y in range(T):
        for x in range(T):
            if (x + y) % 9 == 0 or (x + y) % 9 == 1 and y < 8:
                t[y][x] = (214, 238, 255, 255)
    return t


def mud():
    t = speckled((94, 70, 66), 26, 0.8, 1.15)
    for (x, y) in ((2, 3), (9, 6), (13, 12), (5, 11)):
        t[y][x] = (70, 50, 48, 255)
        t[y][x + 1] = (70, 50, 48, 255)
    return t


def liquid(base, salt, bright):
    t = blank()
    for y in range(T):
        for x in range(T):
            wave = (x + (y // 4) * 3) % 8 in (0, 1) and y % 4 == 1
            glow = noise(x, y, salt) > 0.9
            t[y][x] = shade(base, bright if wave or glow else 1.0) + (255,)
    return t


def obsidian():
    t = speckled((58, 42, 84), 29, 0.85, 1.2)
    for i in range(3, 13):
        t[i][15 - i] = (120, 96, 160, 255)  # a glassy glint
    return t


def trunk():
    t = blank()
    for y in range(T):
        for x in range(4, 12):
            groove = x in (6, 9) or noise(x, y, 30) > 0.9
            t[y][x] = ((96, 66, 40) if groove else (132, 94, 58)) + (255,)
        t[y][4] = (92, 62, 36, 255)
        t[y][11] = (92, 62, 36, 255)
    return t


def leaves():
    t = blank()
    for y in range(T):
        for x in range(T):
            n = noise(x, y, 31)
            if n > 0.12:
                t[y][x] = ((80, 170, 70) if n > 0.8 else (44, 120, 46)) + (255,)
    return t


def cactus():
    t = blank()
    for y in range(T):
        for x in range(3, 13):
            rib = x in (5, 8, 11)
            t[y][x] = ((70, 136, 56) if rib else (100, 176, 80)) + (255,)
        if y % 5 == 2:
            t[y][2] = (230, 230, 200, 255)  # spines
            t[y][13] = (230, 230, 200, 255)
    return t


def wood():
    t = speckled((172, 122, 72), 32, 0.92, 1.06)
    for y in range(T):
        for x in range(T):
            if y % 4 == 3 or (x + (y // 4) * 5) % 16 == 0:
                t[y][x] = (120, 82, 46, 255)  # plank seams
    return t


def workbench():
    """A plank table top on two legs."""
    t = blank()
    for x in range(1, 15):
        for y in range(5, 9):
            t[y][x] = ((120, 82, 46) if y == 8 or x % 5 == 0 else (172, 122, 72)) + (255,)
    for y in range(9, 16):
        for x in (2, 3, 12, 13):
            t[y][x] = (110, 74, 42, 255)
    return t


def furnace():
    """A stone dome with a glowing mouth."""
    t = blank()
    for y in range(2, 16):
        half = min(7, 3 + y)
        for x in range(8 - half, 8 + half):
            n = noise(x, y, 40)
            t[y][x] = ((96, 96, 102) if n < 0.3 else (132, 132, 138)) + (255,)
    for y in range(9, 14):
        for x in range(5, 11):
            t[y][x] = ((255, 170, 50) if y > 10 else (230, 90, 30)) + (255,)
    return t


def anvil():
    """An iron anvil: a horn and face on a narrow waist and a wide foot."""
    t = blank()
    for x in range(1, 15):
        for y in range(5, 8):
            t[y][x] = ((140, 144, 156) if y == 5 else (96, 100, 112)) + (255,)
    for y in range(8, 12):
        for x in range(5, 11):
            t[y][x] = (80, 84, 96, 255)
    for y in range(12, 16):
        for x in range(3, 13):
            t[y][x] = (88, 92, 104, 255)
    return t


def chest():
    """A wooden chest with a gold lock and bands."""
    t = blank()
    for y in range(4, 16):
        for x in range(1, 15):
            band = x in (1, 14) or y in (4, 15, 8)
            t[y][x] = ((120, 82, 40) if band else (186, 134, 64)) + (255,)
    for y in range(7, 11):
        for x in range(7, 9):
            t[y][x] = (250, 210, 70, 255)
    return t


def piggy_bank():
    """A pink pig on its feet, a coin slot on its back and a snout."""
    t = blank()
    for y in range(7, 14):
        for x in range(3, 13):
            if (x in (3, 12)) and y in (7, 13):
                continue
            t[y][x] = (240, 156, 176, 255)
    for y in range(9, 12):
        for x in range(12, 15):
            t[y][x] = (226, 120, 146, 255)
    for x, y in ((4, 14), (5, 14), (10, 14), (11, 14)):
        t[y][x] = (200, 104, 128, 255)
    for x in range(6, 10):
        t[7][x] = (120, 60, 76, 255)
    t[9][11] = (40, 30, 36, 255)
    return t


def match_mean(tile, target):
    """Shifts every opaque pixel so the tile's mean colour is `target`. Pixels clipped at 0
    or 255 shift less than asked, so the shift is repeated until the mean settles."""
    for _ in range(8):
        px = [p for row in tile for p in row if p[3]]
        mean = [sum(p[i] for p in px) / len(px) for i in range(3)]
        for y in range(T):
            for x in range(T):
                r, g, b, a = tile[y][x]
                if a:
                    tile[y][x] = tuple(max(0, min(255, int(round(v + target[i] - mean[i]))))
                                       for i, v in enumerate((r, g, b))) + (a,)
    return tile


def mirrored(tile, v):
    """Variant v of a base picture: as drawn, mirrored left to right, or top to bottom."""
    if v == 1:
        return [row[::-1] for row in tile]
    if v == 2:
        return tile[::-1]
    return tile


def side_depths(mask, x, y, ragged, salt):
    """How deep pixel (x, y) lies inside each exposed side of a tile with neighbour `mask`
    (sides whose neighbour connects are left out). A ragged side wanders 0..1 pixel in."""
    out = []
    for bit, d, along, k in ((UP, y, x, 0), (RIGHT, T - 1 - x, y, 1),
                             (DOWN, T - 1 - y, x, 2), (LEFT, x, y, 3)):
        if not mask & bit:
            if ragged and noise(along, k, salt) > 0.62:
                d -= 1
            out.append((bit, d))
    return out


def corner_cut(mask, x, y):
    """The three pixels of each outer corner (two exposed sides meeting) are cut away."""
    for (a, b, cx, cy) in ((UP, LEFT, x, y), (UP, RIGHT, T - 1 - x, y),
                           (DOWN, LEFT, x, T - 1 - y), (DOWN, RIGHT, T - 1 - x, T - 1 - y)):
        if not mask & a and not mask & b and cx + cy <= 1:
            return True
    return False


def inner_corner(t, corners, turf):
    """Draws the inner corners `corners` over a framed block `t`: the corner pixel is
    outline (it joins the outlines of the two neighbours beside the open diagonal), the
    three pixels next to it the lip, lit beside a top corner's row."""
    for bit, _, _, (fx, fy) in CORNERS:
        if not corners & bit:
            continue
        for cy in range(2):
            for cx in range(2):
                x, y = (T - 1 - cx if fx else cx), (T - 1 - cy if fy else cy)
                r, g, b, a = t[y][x]
                if not a:
                    continue
                if turf is not None:
                    dark, main, _ = turf
                    c = dark if cx + cy == 0 else main
                elif cx + cy == 0:
                    c = shade((r, g, b), 0.55)
                elif not fy and cx == 0:
                    c = shade((r, g, b), 1.22)
                else:
                    c = shade((r, g, b), 0.82)
                t[y][x] = c + (255,)
    return t


def frame_block(base, mask, ragged, salt, turf=None, corners=0):
    """A block's picture for a neighbour mask: cut corners, an outline on each exposed side,
    a lit lip on top and a shaded one below and on the sides, and the inner `corners`;
    with `turf` (its colours: dark, main, light) grass grows over every exposed side,
    deepest on top."""
    return inner_corner(frame_sides(base, mask, ragged, salt, turf), corners, turf)


def frame_sides(base, mask, ragged, salt, turf):
    """[`frame_block`] without the inner corners."""
    t = blank()
    for y in range(T):
        for x in range(T):
            if corner_cut(mask, x, y):
                continue
            sides = side_depths(mask, x, y, ragged, salt)
            d = min((d for _, d in sides), default=T)
            if d < 0:
                continue
            r, g, b, a = base[y][x]
            if not a:
                continue  # the base's own holes (between leaves)
            c = (r, g, b)
            # Pixels beside a cut corner are outline too, so the corner reads round.
            near_cut = any(corner_cut(mask, x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                           if 0 <= x + dx < T and 0 <= y + dy < T)
            top = [dd for bit, dd in sides if bit == UP]
            if turf is not None:
                depth_top = 4 + int(noise(x, 0, salt + 5) * 3)
                grows = (top and top[0] < depth_top) or any(dd < 2 for bit, dd in sides if bit != UP)
                if grows:
                    dark, main, light = turf
                    if d == 0 or near_cut:
                        c = dark
                    elif top and top[0] == 1:
                        c = light
                    else:
                        c = light if noise(x, y, salt + 6) > 0.8 else main
                    t[y][x] = c + (255,)
                    continue
            if d == 0 or near_cut:
                c = shade(c, 0.55)
            elif d == 1:
                c = shade(c, 1.22 if top and top[0] == 1 else 0.82)
            elif d == 2 and not top:
                c = shade(c, 0.92)
            t[y][x] = c + (255,)
    return t


def frame_liquid(base, mask):
    """A liquid's picture: a bright surface line when nothing is above it."""
    t = [row[:] for row in base]
    if not mask & UP:
        for x in range(T):
            t[0][x] = shade(t[0][x][:3], 1.45) + (255,)
            t[1][x] = shade(t[1][x][:3], 1.2) + (255,)
    return t


GRASS_TURF = ((40, 112, 32), (70, 160, 48), (120, 205, 80))
JUNGLE_TURF = ((20, 100, 64), (30, 140, 90), (80, 200, 130))
CORRUPT_TURF = ((70, 52, 110), (112, 92, 168), (160, 140, 210))
MUSHROOM_TURF = ((30, 50, 140), (60, 100, 220), (140, 190, 255))
# dirt, sand, snow, mud, ash, grass, jungle grass, corrupt grass, cloud, mushroom grass, clay,
# silt
RAGGED = {1, 9, 11, 13, 15, 3, 14, 44, 50, 54, 59, 60}
# iron, gold, diamond, copper, silver, their twins, gems: nuggets of the palette colour
ORES = {4, 5, 6, 18, 19, 38, 39, 40, 41, 62, 63, 64, 65, 66}
LIQUIDS = {7, 16, 57}
LEAVES = 22


def closed_door():
    """One of a door's two tiles: vertical planks in a dark frame, an iron handle."""
    t = blank()
    for y in range(T):
        for x in range(2, 14):
            frame = x in (2, 13) or y in (0, 15)
            seam = x in (6, 10)
            c = (96, 64, 36) if frame else (120, 84, 48) if seam else (164, 116, 68)
            t[y][x] = c + (255,)
    for y in range(7, 10):
        t[y][11] = (60, 60, 66, 255)
    return t


def open_door():
    """An open door seen edge on: a narrow slab against its hinge side."""
    t = blank()
    for y in range(T):
        for x in range(1, 5):
            t[y][x] = ((96, 64, 36) if x in (1, 4) or y in (0, 15) else (164, 116, 68)) + (255,)
    return t


def platform():
    """A plank walked on: a board along the top, brackets under it."""
    t = blank()
    for x in range(T):
        for y in range(0, 4):
            t[y][x] = ((120, 82, 46) if y == 3 or x % 8 == 7 else (182, 132, 80)) + (255,)
    for y in range(4, 7):
        for x in (3, 12):
            t[y][x] = (120, 82, 46, 255)
    return t


def table():
    """A table: a thin top over a leg at each end."""
    t = blank()
    for x in range(0, 16):
        for y in range(6, 9):
            t[y][x] = ((196, 146, 92) if y == 6 else (140, 96, 56)) + (255,)
    for y in range(9, 16):
        for x in (1, 2, 13, 14):
            t[y][x] = (120, 82, 46, 255)
    return t


def chair():
    """A chair facing right: a tall back, a seat, two legs."""
    t = blank()
    for y in range(1, 16):
        for x in (3, 4):
            t[y][x] = (120, 82, 46, 255)
    for y in range(2, 8):
        t[y][5] = (172, 122, 72, 255)
    for x in range(3, 13):
        for y in range(8, 10):
            t[y][x] = (180, 130, 78, 255)
    for y in range(10, 16):
        t[y][11] = (120, 82, 46, 255)
        t[y][12] = (120, 82, 46, 255)
    return t


def bed():
    """A bed: a headboard, a white pillow, a red blanket on a wooden frame."""
    t = blank()
    for y in range(3, 16):
        for x in (0, 1):
            t[y][x] = (120, 82, 46, 255)
    for y in range(7, 10):
        for x in range(2, 6):
            t[y][x] = (236, 232, 220, 255)
    for y in range(7, 11):
        for x in range(6, 16):
            t[y][x] = ((200, 60, 56) if y < 10 else (160, 44, 44)) + (255,)
    for y in range(10, 13):
        for x in range(2, 16):
            if y > 10 or x < 6:
                t[y][x] = (150, 104, 60, 255)
    for y in range(13, 16):
        for x in (2, 14, 15):
            t[y][x] = (120, 82, 46, 255)
    return t


def life_crystal():
    """A life crystal: a red heart-shaped gem on a grey stone foot, lit on its left."""
    t = blank()
    heart = [
        "..XX..XX..",
        ".XXXXXXXX.",
        "XXXXXXXXXX",
        "XXXXXXXXXX",
        ".XXXXXXXX.",
        "..XXXXXX..",
        "...XXXX...",
        "....XX....",
    ]
    for dy, row in enumerate(heart):
        for dx, c in enumerate(row):
            if c == "X":
                lit = dx < 4 and dy < 4
                t[3 + dy][3 + dx] = ((255, 120, 150) if lit else (214, 28, 78)) + (255,)
    for y in range(12, 16):
        for x in range(4, 12):
            if y > 12 or 5 <= x <= 10:
                t[y][x] = (112, 112, 120, 255)
    return t


def rope():
    """A rope hanging down the middle of the tile: two twisted strands."""
    t = blank()
    for y in range(T):
        for x in (7, 8):
            light = (x + y // 2) % 2 == 0
            t[y][x] = ((206, 176, 120) if light else (150, 118, 72)) + (255,)
    return t


def eye_trophy():
    """The Eye's trophy: a wooden plaque with a dark rim, the Eye on it, its white veined
    in red round a blue iris, lit from the upper left as the other furniture."""
    t = blank()
    for y in range(1, 15):
        for x in range(1, 15):
            # The plaque's corners cut off, a darker rim and a lit top-left edge.
            if (x in (1, 14) and y in (1, 14)):
                continue
            rim = x in (1, 14) or y in (1, 14)
            lit = (x == 2 or y == 2) and not rim
            t[y][x] = ((96, 62, 38) if rim else (190, 138, 86) if lit else (150, 104, 62)) + (255,)
    # W white, w its shade, r a vein, B the iris, K the pupil, G its glint.
    eye = [
        "...WWWW...",
        ".rWWWWWww.",
        ".WrWBBWww.",
        "WWWBGKBwwr",
        "WWWBKKBwrw",
        "rrWWBBWwww",
        ".WWWWWwww.",
        ".WWWWwwrw.",
        "...wwww...",
    ]
    paint = {"W": (236, 230, 220), "w": (200, 190, 182), "r": (200, 40, 48),
             "B": (62, 96, 190), "K": (20, 20, 28), "G": (220, 232, 250)}
    for dy, row in enumerate(eye):
        for dx, c in enumerate(row):
            if c in paint:
                t[3 + dy][3 + dx] = paint[c] + (255,)
    return t


def ebonstone():
    """The evil biome's stone: stone's cracks in a bruised purple."""
    t = speckled((98, 84, 122), 70, 0.86, 1.12)
    for y in range(T):
        for x in range(T):
            if noise(x, y, 71) > 0.93:
                t[y][x] = (132, 104, 160, 255)
            elif noise(x, y, 72) < 0.05:
                t[y][x] = (64, 52, 84, 255)
    return t


def demonite():
    """Demonite ore: violet nuggets in ebonstone."""
    t = ebonstone()
    for (cx, cy) in [(3, 3), (10, 4), (6, 10), (12, 11), (2, 12)]:
        for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2)):
            x, y = cx + dx, cy + dy
            if x < T and y < T:
                t[y][x] = ((170, 110, 240) if dx + dy <= 1 else (96, 50, 150)) + (255,)
    return t


def shadow_orb():
    """A shadow orb: a dark violet sphere with a pale glint, glowing at its rim."""
    t = blank()
    for y in range(T):
        for x in range(T):
            d = ((x - 7.5) ** 2 + (y - 8.5) ** 2) ** 0.5
            if d < 6.5:
                lit = max(0.0, 1.0 - ((x - 5.0) ** 2 + (y - 6.0) ** 2) ** 0.5 / 7.0)
                c = mix((70, 20, 100), (190, 110, 240), lit)
                if d > 5.5:
                    c = (150, 60, 200)
                t[y][x] = c + (255,)
    t[5][5] = (240, 220, 255, 255)
    t[5][6] = (220, 190, 250, 255)
    return t


def dungeon_brick():
    """Blue dungeon bricks in courses, dark mortar between."""
    t = speckled((66, 84, 150), 73, 0.9, 1.08)
    for y in range(T):
        for x in range(T):
            joint = (x + (4 if (y // 4) % 2 else 0)) % 8 == 0
            if y % 4 == 3 or joint:
                t[y][x] = (36, 44, 84, 255)
    return t


def spike():
    """A bed of grey spikes on a dark base."""
    t = blank()
    for y in range(11, T):
        for x in range(T):
            t[y][x] = (84, 84, 96, 255)
    for k in range(4):
        cx = 2 + 4 * k
        for y in range(1, 11):
            half = (y - 1) // 4
            for x in range(cx - half, cx + half + 1):
                if 0 <= x < T:
                    t[y][x] = ((206, 206, 218) if x <= cx else (128, 128, 142)) + (255,)
    return t


def cloud():
    """Clouds: white with faint grey puffs."""
    t = speckled((236, 240, 248), 74, 0.95, 1.03)
    for y in range(T):
        for x in range(T):
            if noise(x, y, 75) > 0.88:
                t[y][x] = (206, 214, 232, 255)
    return t


def marble():
    """White stone in wavy grey veins."""
    t = speckled((200, 200, 206), 70, 0.94, 1.04)
    for x in range(T):
        for vein in (4, 11):
            y = vein + int(2 * noise(x // 3, vein, 71))
            if 0 <= y < T:
                t[y][x] = (150, 150, 160, 255)
    return t


def granite():
    """Dark stone flecked with pale crystals."""
    t = speckled((66, 62, 82), 72, 0.85, 1.15)
    for y in range(T):
        for x in range(T):
            n = noise(x, y, 73)
            if n > 0.93:
                t[y][x] = (150, 146, 170, 255)
            elif n < 0.05:
                t[y][x] = (30, 28, 40, 255)
    return t


def glow_mushroom():
    t = blank()
    for y in range(9, 16):  # stem
        t[y][7] = (190, 200, 230, 255)
        t[y][8] = (160, 172, 210, 255)
    cap = {5: (5, 10), 6: (3, 12), 7: (2, 13), 8: (3, 12)}
    for y, (x0, x1) in cap.items():
        for x in range(x0, x1 + 1):
            spot = (x + y) % 4 == 0 and y < 8
            t[y][x] = ((200, 235, 255) if spot else (70, 130, 255)) + (255,)
    return t


def hive():
    """Honeycomb: amber cells in darker rims."""
    t = speckled((214, 150, 40), 74, 0.95, 1.05)
    for y in range(T):
        for x in range(T):
            row = y // 4
            cx = (x + 2 * (row % 2)) % 4
            if y % 4 == 0 or cx == 0:
                t[y][x] = (150, 96, 20, 255)
    return t


def cobweb():
    t = blank()
    for i in range(T):
        for (x, y) in ((i, i), (15 - i, i), (7, i), (i, 8)):
            t[y][x] = (230, 230, 236, 255)
    for r in (3, 6):
        for i in range(-r, r + 1):
            for (x, y) in ((7 + i, 8 - r), (7 + i, 8 + r), (7 - r, 8 + i), (7 + r, 8 + i)):
                if 0 <= x < T and 0 <= y < T and noise(x, y, 75) > 0.3:
                    t[y][x] = (200, 200, 210, 255)
    return t


def obsidian_brick():
    t = speckled((74, 56, 98), 76, 0.9, 1.1)
    for y in range(T):
        for x in range(T):
            joint = (x + 4 * ((y // 4) % 2)) % 8 == 0
            if y % 4 == 3 or joint:
                t[y][x] = (40, 28, 56, 255)
    return t




def bases():
    """Every tile's base picture for the current VARIANT, in discriminant order."""
    return [blank(), dirt(), stone(), dirt(), ore(COLORS[4], 1),
            ore(COLORS[5], 2), ore(COLORS[6], 3), water(), torch(),
            sand((222, 200, 140), 20), sandstone(), snow(), ice(), mud(), mud(),
            sand((86, 80, 88), 33), liquid((250, 104, 32), 34, 1.3), obsidian(),
            ore(COLORS[18], 4), ore(COLORS[19], 5), ore((255, 90, 30), 6),
            trunk(), leaves(), cactus(), wood(), workbench(), furnace(), anvil(), chest(),
            closed_door(), open_door(), platform(), table(), chair(), bed(), life_crystal(),
            rope(), eye_trophy(), ore(COLORS[38], 7), ore(COLORS[39], 8),
            ore(COLORS[40], 9), ore(COLORS[41], 10), hardened_sand(), blank(),
            dirt(), ebonstone(), demonite(), shadow_orb(), dungeon_brick(), spike(), cloud(),
            blank(), marble(), granite(), mud(), glow_mushroom(), hive(),
            liquid((248, 174, 30), 78, 1.2), cobweb(), speckled((164, 84, 64), 79, 0.88, 1.1),
            sand((110, 104, 100), 80), obsidian_brick()] + [
            ore(COLORS[62 + k], 81 + k) for k in range(5)] + [piggy_bank()]


BLOCKS = {1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 24, 38, 39, 40, 41, 42,
          44, 45, 46, 48, 50, 52, 53, 54, 56, 59, 60, 61, 62, 63, 64, 65, 66}


def frames_of(i, variants):
    """Tile i's 141 pictures (FRAME_KEYS order, then variant) from its base pictures, one
    a variant."""
    out = []
    for mask, corners in FRAME_KEYS:
        for v in range(VARIANTS):
            base = mirrored(variants[v], v)
            salt = 100 + i * 7 + v
            if i in BLOCKS:
                turf = {3: GRASS_TURF, 14: JUNGLE_TURF, 44: CORRUPT_TURF,
                        54: MUSHROOM_TURF}.get(i)
                out.append(frame_block(base, mask, i in RAGGED, salt, turf, corners))
            elif i == LEAVES:
                out.append(frame_block(base, mask, True, salt, corners=corners))
            elif i in LIQUIDS:
                out.append(frame_liquid(variants[v], mask))
            else:
                out.append(variants[0])  # decorations and furniture: one picture
    return out


def main():
    variants = []
    for v in range(VARIANTS):
        VARIANT[0] = v
        tiles = bases()
        for i, color in enumerate(COLORS):
            # The torch keeps its own colours; grass is its soil until framed; ores keep
            # grey stone round nuggets of their colour (shifting the stone to the ore's
            # mean made copper look like dirt).
            if color is not None and i not in (3, 8, 14, 44) and i not in ORES:
                match_mean(tiles[i], color)
        variants.append(tiles)
    VARIANT[0] = 0
    rows = []
    for i in range(len(COLORS)):
        frames = frames_of(i, [variants[v][i] for v in range(VARIANTS)])
        rows.extend([p for f in frames for p in f[y]] for y in range(T))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiles.png")
    with open(out, "wb") as f:
        f.write(png(T * len(FRAME_KEYS) * VARIANTS, T * len(COLORS), rows))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
