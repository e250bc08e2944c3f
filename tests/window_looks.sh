#!/usr/bin/env bash
# The looks window test: screenshots of the real release game under Xvfb, read pixel by
# pixel, with no creatures about; the tile under a pixel comes from the game's `player at
# X Y screen SX SY zoom Z` line. A hand-drawn world (`gen --from-ascii`, 80x44: a meadow
# with grass on row 20 over dirt and stone, and a sealed room in the stone, columns 50-68
# and rows 25-37, a torch in its middle at (59, 31)) and the default world:
#
# 1. A new default world (seed 42) at noon and at midnight (STRATA_RULES start_time 0.5
#    and 0.0): the sky above the spawn is bright and blue at noon, and dark at midnight
#    (its brightness at most half of noon's), read along the screen's top edge.
# 2. In the drawn world, the torch's light in the sealed room is round, not a diamond: the mean
#    brightness of the room's tiles 5 tiles off the torch straight across (4 of them) and
#    of those as far off on the diagonals ((3, 4) and (4, 3), 8 of them) are within 12%
#    (a diamond falloff, one level lost per tile straight or across, leaves the diagonal
#    ones about 20% darker); and the room is lit at all (brighter near the torch than 5
#    tiles off, and than the rock).
# 3. The same room with stone brick walls behind it (`gen --wall`): a cave with walls shows
#    them behind the air: the bricks' mortar lines ripple the brightness of the room's
#    rows of pixels at least three times as much as in the bare room (which shows the
#    cave's smooth backdrop there).
# 4. A torch placed with a real right click in open cave air against a wall stays: a
#    sealed cave room (columns 30-50, rows 14-30 of solid stone, the player spawning on
#    its floor at (40, 31)) with stone brick walls behind it (`gen --wall`), slot 3 (the
#    torches) and a right click on (44, 27), three tiles from anything solid: the game
#    says `placed torch at 44 27`, and 2 s later the tile shows the torch's warm flame and
#    the tiles round it are lit (brighter than before the click, and than as far off on
#    the room's other side). The same click in the same room without walls is refused
#    ("nothing to attach it to") and places nothing.
#
# Screenshots are left in the scratch folder on failure.
#
#   tests/window_looks.sh      # needs: Xvfb xdotool xwd (x11-apps) netpbm python3, a release build
#   STRATA_TEST_DISPLAY=:N     # the X display to use (default :96)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="looks window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-looks.XXXXXX)
GAME_LOG=$OUT/game.log
export STRATA_HOME=$OUT/home
export RUST_LOG=strata=debug
mkdir -p "$OUT/cwd"

need_tools Xvfb xdotool xwd xwdtopnm pnmtopng pngtopnm python3
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:96}" 1280x720 "$OUT/xvfb.log"

awk 'BEGIN { W = 80; H = 44
  for (y = 0; y < H; y++) {
    row = ""
    for (x = 0; x < W; x++) {
      c = (y < 20 ? " " : y == 20 ? "w" : y < 24 ? "." : "#")
      if (y >= 25 && y <= 37 && x >= 50 && x <= 68) c = " "
      if (y == 31 && x == 59) c = "t"
      row = row c
    }
    print row
  } }' >"$OUT/room.txt"

"$BIN" gen --from-ascii "$OUT/room.txt" --seed 12 --save "$OUT/room.strata" >/dev/null ||
  fail "gen --from-ascii refused the room world"
"$BIN" gen --from-ascii "$OUT/room.txt" --seed 12 --wall stone_brick:50,25,68,37 \
  --save "$OUT/walled.strata" >/dev/null || fail "gen --from-ascii --wall refused the walled room"

# shot_at NAME START_TIME ARGS...: plays by rules starting at START_TIME (no creatures),
# 40 frames once the world is on screen, its last frame to OUT/NAME.ppm and the player's
# line to OUT/NAME.at.
shot_at() {
  local name=$1
  printf '(creature_cap: 0, start_time: %s)\n' "$2" >"$OUT/$name.ron"
  shift 2
  GAME_LOG=$OUT/$name.log
  STRATA_RULES="$OUT/$name.ron" start_game "$OUT/cwd" play "$@" --frames 40 \
    --screenshot "$OUT/$name.png"
  local rc=0
  wait "$GAME_PID" || rc=$?
  GAME_PID=""
  [ "$rc" -eq 0 ] || fail "the game exited with $rc ($name)"
  [ -s "$OUT/$name.png" ] || fail "no screenshot ($name)"
  pngtopnm "$OUT/$name.png" >"$OUT/$name.ppm"
  grep -o 'player at .*' "$GAME_LOG" | tail -n 1 >"$OUT/$name.at" ||
    fail "no 'player at' line ($name)"
}
# A new world starts at the rules' start time (a save keeps its own time of day).
shot_at noon 0.5 --preset "$ROOT/config/presets/default.ron" --seed 42
shot_at midnight 0.0 --preset "$ROOT/config/presets/default.ron" --seed 42
shot_at room 0.3 --load "$OUT/room.strata"
shot_at walled 0.3 --load "$OUT/walled.strata"

# 4. The sealed cave room, bare and walled, and a torch placed in its air with a right click.
awk 'BEGIN { for (y = 0; y < 44; y++) { row = ""
    for (x = 0; x < 80; x++) row = row ((y >= 14 && y <= 30 && x >= 30 && x <= 50) ? " " : "#")
    print row } }' >"$OUT/cave.txt"
"$BIN" gen --from-ascii "$OUT/cave.txt" --seed 12 --save "$OUT/bare_cave.strata" >/dev/null ||
  fail "gen --from-ascii refused the cave world"
"$BIN" gen --from-ascii "$OUT/cave.txt" --seed 12 --wall stone_brick:30,14,50,30 \
  --save "$OUT/wall_cave.strata" >/dev/null || fail "gen --from-ascii --wall refused the walled cave"

# torch_click NAME WANT: plays OUT/NAME.strata (no creatures), shows the screen in
# OUT/NAME-before.png, picks slot 3 (the torches) and right-clicks tile (44, 27) until the
# game's log has WANT (a right click on the Guide, who walks the room, talks instead:
# then the same click again once he has walked on); 2 s later the screen in
# OUT/NAME-after.png (the pointer in the screen's corner, off the room), and the player's
# line in OUT/NAME.at.
torch_click() {
  local name=$1 want=$2 px py sx sy zoom mx my tries=1
  printf '(creature_cap: 0, start_time: 0.3)\n' >"$OUT/$name.ron"
  GAME_LOG=$OUT/$name.log
  STRATA_RULES="$OUT/$name.ron" start_game "$OUT/cwd" play --load "$OUT/$name.strata"
  game_window 20
  wait_for "on screen" 1 20 || fail "$name did not come up"
  wait_for "player at" 1 10 || fail "the game never said where the player is ($name)"
  xdotool mousemove $((X + WIDTH - 2)) $((Y + 2))
  sleep 1.5 # the camera settles on the player
  shot "$OUT/$name-before.png"
  grep -o 'player at .*' "$GAME_LOG" | tail -n 1 >"$OUT/$name.at"
  read -r px py sx sy zoom < <(awk '{ print $3, $4, $6, $7, $9 }' "$OUT/$name.at")
  [ "$px $py" = "40.0 31.0" ] || fail "the player stands at $px $py, not on the room's floor at 40.0 31.0 ($name)"
  read -r mx my < <(awk -v px="$px" -v py="$py" -v sx="$sx" -v sy="$sy" -v z="$zoom" -v ox="$X" -v oy="$Y" \
    'BEGIN { printf "%d %d\n", ox + sx + (44.5 - px) * z, oy + sy + (27.5 - py) * z }')
  xdotool key 3
  sleep 0.3
  xdotool mousemove "$mx" "$my"
  sleep 0.3
  xdotool click 3
  until wait_for "$want" 1 3; do
    [ "$tries" -lt 6 ] || fail "a right click at 44 27 with the torches said no '$want' in $tries tries ($name)"
    tries=$((tries + 1))
    sleep 1.5
    xdotool click 3
  done
  xdotool mousemove $((X + WIDTH - 2)) $((Y + 2))
  sleep 2
  shot "$OUT/$name-after.png"
  stop_game
}
torch_click wall_cave "placed torch at 44 27"
torch_click bare_cave "refused: nothing to attach it to"
grep -q "placed torch" "$OUT/bare_cave.log" && fail "a torch was placed in the bare room's air"
grep -q "placed torch at 44 27" "$OUT/wall_cave.log" || fail "no torch placed in the walled room"

PYTHONPATH=tests python3 - "$OUT" <<'EOF' || fail "see above (screenshots in $OUT)"
import sys
out = sys.argv[1]

from ppm import read as ppm

def load(name):
    w, h, px = ppm(f"{out}/{name}.ppm")
    f = open(f"{out}/{name}.at").read().split()
    # player at X Y screen SX SY zoom Z
    pos, scr, zoom = (float(f[2]), float(f[3])), (float(f[5]), float(f[6])), float(f[8])
    return w, h, px, pos, scr, zoom

def mean(img, box):
    w, _, px = img[:3]
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    s, n = [0, 0, 0], 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            i = (y * w + x) * 3
            for k in range(3):
                s[k] += px[i + k]
            n += 1
    return [v / max(n, 1) for v in s]

def tile_box(img, tx, ty):
    """The middle half of tile (tx, ty) on screen."""
    _, _, _, pos, scr, z = img
    x = scr[0] + (tx - pos[0]) * z
    y = scr[1] + (ty - pos[1]) * z
    return (x + z / 4, y + z / 4, x + 3 * z / 4, y + 3 * z / 4)

def bright(c):
    return sum(c) / 3

noon, night, room = load("noon"), load("midnight"), load("room")
# 1. The sky: the median pixel of the screen's top 9 rows, above the figures overlay
# (which starts 10 px down and is as wide as its longest line) and the hearts; a tree or
# a cloud there is outweighed by the sky round it.
def sky(img):
    w, _, px = img[:3]
    pix = sorted((tuple(px[(y * w + x) * 3:(y * w + x) * 3 + 3]) for y in range(9) for x in range(w)),
                 key=sum)
    return list(pix[len(pix) // 2])
day_sky, night_sky = sky(noon), sky(night)
print(f"sky: noon {[round(v) for v in day_sky]}, midnight {[round(v) for v in night_sky]}")
if not (day_sky[2] > day_sky[0] + 30 and bright(day_sky) > 120):
    print("the noon sky is not bright blue"); sys.exit(1)
if not bright(night_sky) <= bright(day_sky) / 2:
    print("the midnight sky is not dark"); sys.exit(1)

# 2. The torch's light in the sealed room (no sunlight reaches it).
tx, ty = 59, 31
straight = [(5, 0), (-5, 0), (0, 5), (0, -5)]
diagonal = [(a * sx, b * sy) for a, b in ((3, 4), (4, 3)) for sx in (1, -1) for sy in (1, -1)]
def ring(offs):
    return sum(bright(mean(room, tile_box(room, tx + dx, ty + dy))) for dx, dy in offs) / len(offs)
s, d = ring(straight), ring(diagonal)
near = ring([(1, 0), (-1, 0), (0, 1), (0, -1)])
# Rock 5 tiles left of the room, above where the "Loaded" notice shows for a while.
rock = bright(mean(room, tile_box(room, 45, 27)))
print(f"torch light: 1 tile off {near:.1f}, 5 straight {s:.1f}, 5 diagonal {d:.1f}, rock {rock:.1f}")
if not (near > s + 5 and s > rock + 5):
    print("the room is not lit by its torch"); sys.exit(1)
if abs(d - s) > 0.12 * s:
    print(f"the light is not round: the diagonal ring is {d / s:.2f} of the straight one")
    sys.exit(1)
# 3. The walls behind the walled room's air: the bricks' mortar lines make the room's
# rows of pixels rise and fall across the light's smooth falloff. Columns 52-56, rows
# 26-29 of the room, left of and above its torch: each row's mean brightness against the
# mean of the 11 rows round it.
walled = load("walled")
def row_ripple(img):
    w, _, px, pos, scr, z = img
    x0, x1 = (int(scr[0] + (t - pos[0]) * z) for t in (52, 57))
    y0, y1 = (int(scr[1] + (t - pos[1]) * z) for t in (26, 30))
    rows = [sum(bright(px[(y * w + x) * 3:(y * w + x) * 3 + 3]) for x in range(x0, x1)) / (x1 - x0)
            for y in range(y0, y1)]
    near = [rows[max(0, i - 5):i + 6] for i in range(len(rows))]
    return sum(abs(r - sum(n) / len(n)) for r, n in zip(rows, near)) / len(rows)
bare_ripple, wall_ripple = row_ripple(room), row_ripple(walled)
print(f"walls behind the room: row ripple {wall_ripple:.2f} walled, {bare_ripple:.2f} bare")
if not wall_ripple > 3 * bare_ripple + 0.1:
    print("the walled room looks as the bare one: no wall is drawn behind the air"); sys.exit(1)
print("noon sky blue, midnight sky dark, the torch's light round, walls behind a cave's air")
EOF
for f in wall_cave-before wall_cave-after bare_cave-after; do pngtopnm "$OUT/$f.png" >"$OUT/$f.ppm"; done
PYTHONPATH=tests python3 - "$OUT" "$X" "$Y" <<'EOF' || fail "see above (screenshots in $OUT)"
import sys
out, ox, oy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

from ppm import read as ppm

f = open(f"{out}/wall_cave.at").read().split()
pos, scr, z = (float(f[2]), float(f[3])), (float(f[5]), float(f[6])), float(f[8])

def tile(img, tx, ty):
    """The mean colour of the middle half of tile (tx, ty) on the screen."""
    w, _, px = img
    x = ox + scr[0] + (tx - pos[0]) * z
    y = oy + scr[1] + (ty - pos[1]) * z
    s, n = [0, 0, 0], 0
    for yy in range(int(y + z / 4), int(y + 3 * z / 4)):
        for xx in range(int(x + z / 4), int(x + 3 * z / 4)):
            i = (yy * w + xx) * 3
            for k in range(3):
                s[k] += px[i + k]
            n += 1
    return [v / n for v in s]

def bright(c):
    return sum(c) / 3

before, after = ppm(f"{out}/wall_cave-before.ppm"), ppm(f"{out}/wall_cave-after.ppm")
bare = ppm(f"{out}/bare_cave-after.ppm")
# 4. The torch's tile: its flame, warm (more red than blue), where there was none.
t0, t1, tb = tile(before, 44, 27), tile(after, 44, 27), tile(bare, 44, 27)
print(f"torch tile (44, 27): before {[round(v) for v in t0]}, after {[round(v) for v in t1]}, bare room {[round(v) for v in tb]}")
if not (t1[0] > t1[2] + 25 and bright(t1) > bright(t0) + 20):
    print("no torch shows at 44 27 after the click"); sys.exit(1)
if not bright(tb) < bright(t1) - 20:
    print("the bare room shows something as bright as a torch at 44 27"); sys.exit(1)
# Its light: the tiles 2 off it, brighter than before the click and than their mirror
# images across the player (at x = 40.0, whose own light is the same both sides).
ring = [(42, 27), (46, 27), (44, 25), (42, 25), (46, 25)]
lit = sum(bright(tile(after, x, y)) for x, y in ring) / len(ring)
was = sum(bright(tile(before, x, y)) for x, y in ring) / len(ring)
mirror = sum(bright(tile(after, 79 - x, y)) for x, y in ring) / len(ring)
print(f"2 tiles off the torch: {lit:.1f} after, {was:.1f} before, {mirror:.1f} on the room's other side")
if not (lit > was + 10 and lit > mirror + 10):
    print("the torch at 44 27 does not light the tiles round it"); sys.exit(1)
print("a torch placed in the walled room's air stays and lights it; the bare room refuses it")
EOF
echo "looks window test passed"
rm -rf "$OUT"
