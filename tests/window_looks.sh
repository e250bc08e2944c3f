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
#
# Screenshots are left in the scratch folder on failure.
#
#   tests/window_looks.sh      # needs: Xvfb xdotool pngtopnm (netpbm) python3, a release build
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

need_tools Xvfb xdotool pngtopnm python3
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

python3 - "$OUT" <<'EOF' || fail "see above (screenshots in $OUT)"
import sys
out = sys.argv[1]

def ppm(path):
    data = open(path, "rb").read()
    fields, at = [], 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        end = at
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[at:end])
        at = end
    return int(fields[1]), int(fields[2]), data[at + 1:]

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
echo "looks window test passed"
rm -rf "$OUT"
