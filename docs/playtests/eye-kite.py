#!/usr/bin/env python3
"""A scripted player for the Eye playtest in a real window (docs/playtests/eye-iron.md):
kites as Terraria players do, running back and forth SPAN tiles either side of where it
starts so that each dash (aimed where the player stood when it began) misses; holds the
bow's button with the mouse on the nearest creature within 9 tiles (the `creatures:` log
line), else AIMX tiles behind and AIMY tiles over the player's head, where the hovering
Eye trails; jumps when the run is blocked; presses H (the quick heal) on every hit that
leaves less than 125 health. It reads only the game's debug log (RUST_LOG=strata=debug)
and drives the game with xdotool on DISPLAY (default :79).
Usage: eye-kite.py LOG SPAN AIMX AIMY      (the playtest: LOG 8 1.0 9)"""
import re, subprocess, sys, time

log, span = sys.argv[1], float(sys.argv[2])
AIMX, AIMY = float(sys.argv[3]), float(sys.argv[4])
import os
env = {"DISPLAY": os.environ.get("DISPLAY", ":79")}


def x(*a):
    subprocess.run(["xdotool", *map(str, a)], env=env)


f = open(log)
f.seek(0, 2)
start = time.time()
px, py, zoom = 640, 378, 20.0
ppx = None
home = None
going = "d"
last_heal = -100
hurts = hits = 0
foes = []
last_x, stuck_since = None, time.time()
x("keydown", going)
x("mousemove", px - 40, py - 10)
x("mousedown", 1)
while time.time() - start < 240:
    line = f.readline()
    t = time.time() - start
    if not line:
        time.sleep(0.01)
        if ppx is not None and time.time() - stuck_since > 0.25:
            x("key", "space")
            stuck_since = time.time()
        continue
    m = re.search(r"player at ([\d.]+) ([\d.]+) screen (\d+) (\d+) zoom ([\d.]+)", line)
    if m:
        nx = float(m[1])
        ppy = float(m[2])
        px, py, zoom = int(m[3]), int(m[4]), float(m[5])
        if home is None:
            home = nx
        if ppx is None or abs(nx - ppx) > 0.05:
            stuck_since = time.time()
        ppx = nx
        turn = (going == "d" and ppx > home + span) or (going == "a" and ppx < home - span)
        if turn:
            x("keyup", going)
            going = "a" if going == "d" else "d"
            x("keydown", going)
        back = -1 if going == "d" else 1
        near = [c for c in foes if abs(c[0] - ppx) < 9 and abs(c[1] - ppy) < 9]
        if near:
            cx, cy = min(near, key=lambda c: (c[0] - ppx) ** 2 + (c[1] - ppy) ** 2)
            d = abs(cx - ppx)
            # Aim a little over it: the arrow falls on the way.
            x("mousemove", px + int((cx - ppx) * zoom), py + int((cy - 0.6 - ppy - d * 0.15) * zoom))
        else:
            x("mousemove", px + back * int(AIMX * zoom), py - int(AIMY * zoom))
        continue
    if line.startswith("strata: creatures:"):
        foes = [(float(a), float(b)) for a, b in re.findall(r" at ([\d.]+) ([\d.]+)", line)]
        continue
    m = re.search(r"hurt by (.+?) for (\d+): health (\d+)", line)
    if m:
        health = int(m[3])
        hurts += 1
        print(f"{t:6.1f} hurt by {m[1]} for {m[2]}: health {health}", flush=True)
        if health < 125:
            x("key", "h")
            last_heal = t
        continue
    if "hit the Eye" in line:
        hits += 1
        if hits % 10 == 0:
            print(f"{t:6.1f} {line.strip()}", flush=True)
        continue
    if any(s in line for s in ("phase two", "killed the Eye", "died of", "the Eye leaves", "drank", "charges from")):
        print(f"{t:6.1f} {line.strip()}", flush=True)
    if "killed the Eye" in line or "died of" in line or "the Eye leaves" in line:
        break
x("mouseup", 1)
x("keyup", going)
print(f"end {time.time() - start:.1f} s: hurts {hurts}, hits {hits}")
