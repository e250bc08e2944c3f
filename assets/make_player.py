#!/usr/bin/env python3
"""Draws assets/player.png, Strata's player sprite: eight 16x24 frames in one row (idle,
a run cycle of four, jump, fall, swing), facing right; the game mirrors them for facing
left (src/game/draw/sprite.rs picks them). Only the standard library is used.

    python3 assets/make_player.py        # rewrites assets/player.png
"""
import os

from pngwrite import png

W, H, FRAMES = 16, 24, 8

HAIR = (92, 58, 34, 255)
SKIN = (236, 188, 150, 255)
EYE = (30, 30, 40, 255)
SHIRT = (58, 120, 196, 255)
SHIRT_DARK = (40, 88, 150, 255)
BELT = (70, 48, 30, 255)
PANTS = (70, 64, 90, 255)
BOOT = (54, 38, 28, 255)
OUTLINE = (24, 20, 28, 255)


def rect(img, x0, y0, x1, y1, c):
    """Fills x0..=x1, y0..=y1."""
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            if 0 <= x < W and 0 <= y < H:
                img[y][x] = c


def body(img, arm_dx, legs, bob=0, front_arm=True):
    """The figure; `bob` lifts head and torso by that many pixels (the run's stride)."""
    # Head: hair on top and at the back, face to the right.
    rect(img, 5, 1 - bob, 10, 7 - bob, SKIN)
    rect(img, 5, 1 - bob, 10, 2 - bob, HAIR)
    rect(img, 5, 3 - bob, 6, 5 - bob, HAIR)
    rect(img, 9, 4 - bob, 9, 4 - bob, EYE)
    # Torso and belt.
    rect(img, 5, 8 - bob, 10, 14, SHIRT)
    rect(img, 5, 14, 10, 14, BELT)
    # Back arm behind, front arm swinging by arm_dx.
    rect(img, 4, 9 - bob, 4, 13 - bob, SHIRT_DARK)
    if front_arm:
        ax = 8 + arm_dx
        rect(img, ax, 9 - bob, ax + 1, 13 - bob, SHIRT_DARK)
        rect(img, ax, 14 - bob, ax + 1, 14 - bob, SKIN)
    # Legs: list of (x, top, bottom) per leg, with a boot at the bottom.
    for lx, top, bottom in legs:
        rect(img, lx, top, lx + 1, bottom - 1, PANTS)
        rect(img, lx, bottom, lx + 2, bottom, BOOT)


def outline(img):
    """A dark one-pixel outline around the figure, so it reads on any background."""
    out = [row[:] for row in img]
    for y in range(H):
        for x in range(W):
            if img[y][x][3] == 0:
                near = any(
                    0 <= x + dx < W and 0 <= y + dy < H and img[y + dy][x + dx][3] and
                    img[y + dy][x + dx] != OUTLINE
                    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                )
                if near:
                    out[y][x] = OUTLINE
    return out


def frame(kind):
    img = [[(0, 0, 0, 0)] * W for _ in range(H)]
    if kind == "idle":
        body(img, 0, [(5, 15, 22), (8, 15, 22)])
    elif kind == "run1":  # stride: legs apart, arm forward
        body(img, 2, [(3, 15, 21), (9, 15, 22)])
    elif kind == "run2":  # passing: legs together, lifted
        body(img, 0, [(6, 15, 22), (7, 15, 20)], bob=1)
    elif kind == "run3":  # the other stride, arm back
        body(img, -2, [(8, 15, 21), (4, 15, 22)])
    elif kind == "run4":
        body(img, 0, [(7, 15, 22), (6, 15, 20)], bob=1)
    elif kind == "jump":  # legs tucked, arm up
        body(img, 1, [(4, 15, 20), (9, 15, 21)])
        rect(img, 9, 6, 10, 8, SHIRT_DARK)
    elif kind == "fall":  # legs reaching down, both arms up
        body(img, 0, [(4, 15, 22), (9, 15, 22)], front_arm=False)
        rect(img, 3, 4, 4, 8, SHIRT_DARK)
        rect(img, 10, 4, 11, 8, SHIRT_DARK)
        rect(img, 3, 3, 4, 3, SKIN)
        rect(img, 10, 3, 11, 3, SKIN)
    else:  # swing: the front arm thrust out level at the shoulder
        body(img, 0, [(4, 15, 22), (9, 15, 22)], front_arm=False)
        rect(img, 9, 9, 13, 10, SHIRT_DARK)
        rect(img, 14, 9, 15, 10, SKIN)
    return outline(img)


def main():
    frames = [frame(k) for k in ("idle", "run1", "run2", "run3", "run4", "jump", "fall", "swing")]
    rows = [sum((f[y] for f in frames), []) for y in range(H)]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "player.png")
    with open(path, "wb") as f:
        f.write(png(W * FRAMES, H, rows))


if __name__ == "__main__":
    main()
