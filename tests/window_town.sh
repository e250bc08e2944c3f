#!/usr/bin/env bash
# The town's window test: the Guide and a house, with real X input (xdotool keys and
# clicks) in the real release game under Xvfb, each step checked in the game's log.
#
# In a hand-drawn world (`gen --from-ascii`) at night (STRATA_RULES: days almost all night, no
# creatures): a tree beside the spawn, the Guide standing four tiles to its right, and a
# wooden house further right (a door in its left wall, a platform in its roof, wood walls
# behind it (`gen --wall`), a table, a chair, a workbench and a bed inside, but no light),
# a second house and a third left of the spawn; the player carries 60 silver and a life
# crystal (`gen --give`). The player right-clicks the Guide (at night, homeless, he asks
# for a house), fells the tree, and right-clicks him again holding the wood (he names what
# wood makes, the workbench first); points into the house and presses X (not a house: no
# light), walks to it and places a torch inside, and X again (a house: the Guide moves in),
# and the Guide walks home through its door. X in the second house: it is free and the
# player carries 50 silver, so the Merchant arrives and moves in; a right-click on him opens
# his shop, a click buys a torch and a right-click on the wood sells it. The life crystal
# used (most health 120) and X in the third house: the Nurse arrives and moves in.
#
# The game writes `guide at ..`, `guide says: ..`, `housing: ..`, `felled ..`, `bought ..` lines at the
# debug level (RUST_LOG=strata=debug, set here). Screenshots are left in the scratch folder.
#
#   tests/window_town.sh       # needs: Xvfb xdotool xwd (x11-apps) netpbm, a release build
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="town window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window-town.XXXXXX)
GAME_LOG=$OUT/game.log
export STRATA_HOME=$OUT/home
export RUST_LOG=strata=debug
mkdir -p "$OUT/cwd"

need_tools Xvfb xdotool xwd xwdtopnm pnmtopng
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:97}" 1280x720 "$OUT/xvfb.log"

# --- The world: 96x48, grass on row 24, the spawn at column 48 (feet on row 24). A tree
# at column 45; the house's frame from column 56 to 67 and row 17 to the ground, its door
# at column 56 (rows 22-23).
awk -v art="$OUT/town.txt" 'BEGIN {
  W = 96; H = 48; g = 24
  for (y = 0; y < H; y++) {
    row = ""
    for (x = 0; x < W; x++) {
      c = y > g ? "#" : y == g ? "w" : " "
      if (x == 45 && y >= 17 && y < g) c = "|"
      else if (x >= 43 && x <= 47 && y >= 12 && y <= 16) c = "%"
      if (y >= 17 && y < g && (x == 56 || x == 67)) c = "W"
      if (y == 17 && x >= 56 && x <= 67) c = (x == 61 || x == 62) ? "-" : "W"
      if (x == 56 && (y == 22 || y == 23)) c = "d"
      if (y == 23 && x == 59) c = "T"
      if (y == 23 && x == 60) c = "r"
      if (y == 23 && x == 63) c = "B"
      if (y == 23 && x == 64) c = "b"
      # The second house, for the Merchant: columns 28-39, its door in its right wall.
      if (y >= 17 && y < g && (x == 28 || x == 39)) c = "W"
      if (y == 17 && x >= 28 && x <= 39) c = "W"
      if (x == 39 && (y == 22 || y == 23)) c = "d"
      if (y == 19 && x == 33) c = "t"
      if (y == 23 && x == 31) c = "T"
      if (y == 23 && x == 32) c = "r"
      # The third house, for the Nurse: columns 14-25, its door in its right wall.
      if (y >= 17 && y < g && (x == 14 || x == 25)) c = "W"
      if (y == 17 && x >= 14 && x <= 25) c = "W"
      if (x == 25 && (y == 22 || y == 23)) c = "d"
      if (y == 19 && x == 19) c = "t"
      if (y == 23 && x == 17) c = "T"
      if (y == 23 && x == 18) c = "r"
      row = row c
    }
    print row > art
  }
}' || fail "could not draw the world"
# The houses' background walls: wood behind every tile inside (columns 57-66, 29-38 and
# 15-24, rows 18-23); the player carries 60 silver (the Merchant comes to one who has 50),
# in slot 4, and a life crystal (the Nurse comes once one is used), in slot 5.
"$BIN" gen --from-ascii "$OUT/town.txt" --wall wood:57,18,66,23 --wall wood:29,18,38,23 \
  --wall wood:15,18,24,23 --give silver_coin:60 --give life_crystal:1 --seed 13 \
  --save "$OUT/town.strata" >/dev/null || fail "gen --from-ascii failed"

echo "(creature_cap: 0, daylight: 0.05)" >"$OUT/night.ron"
export STRATA_RULES="$OUT/night.ron"
start_game "$OUT/cwd" play --load "$OUT/town.strata"
game_window 20
wait_for "on screen" 1 20 || fail "the hand-drawn world did not come up"
wait_for "player at" 1 10 || fail "the game never said where the player is"
wait_for "guide at 52 24" 1 10 || fail "the Guide is not beside the spawn: $(grep "guide at" "$GAME_LOG" | tail -n 1)"
xdotool mousemove $((X + WIDTH / 2)) $((Y + 120))
sleep 1 # the camera settles on the player

read_pos() { read -r px py sx sy zoom < <(grep "player at" "$GAME_LOG" | tail -n 1 | awk '{ print $4, $5, $7, $8, $10 }'); }
# aim TX TY: the pointer on the centre of tile (TX, TY).
aim() {
  read_pos
  xdotool mousemove "$(awk -v t="$1" -v p="$px" -v s="$sx" -v z="$zoom" -v o="$X" 'BEGIN { printf "%d", o + s + (t + 0.5 - p) * z }')" \
    "$(awk -v t="$2" -v p="$py" -v s="$sy" -v z="$zoom" -v o="$Y" 'BEGIN { printf "%d", o + s + (t + 0.5 - p) * z }')"
}
count() { grep -c -- "$1" "$GAME_LOG" || true; }
last() { grep -- "$1" "$GAME_LOG" | tail -n 1 | sed 's/^strata: //'; }
# talk: right-clicks the Guide's body (he stands at column 52 at night, homeless) and
# waits for what he says.
talk() {
  local n
  n=$(count "guide says:")
  aim 52 23
  sleep 0.2
  xdotool click 3
  wait_for "guide says:" $((n + 1)) 5 || fail "a right click on the Guide said nothing"
}

# --- At night, homeless, he asks for a house.
talk
last "guide says:" | grep -q "Build a house" || fail "at night the homeless Guide said: $(last "guide says:")"
shot "$OUT/1-night.png"

# --- The tree comes down for wood; holding it (slot 6: the coins are in 4, the crystal in
# 5), he names what wood makes.
aim 45 23
xdotool mousedown 1
wait_for "felled [0-9]* wood" 1 10 || { xdotool mouseup 1; fail "holding the button on the trunk felled nothing"; }
xdotool mouseup 1
xdotool key 6
sleep 0.3
talk
last "guide says:" | grep -q "wood makes: workbench (8)" || fail "holding wood the Guide said: $(last "guide says:")"

# --- X in the house: no light, so not a house. The player walks up to its door and places
# a torch on the wall inside (slot 3), and X again: it is one, and the Guide moves in; he
# walks home through the door.
aim 60 21
sleep 0.2
xdotool key x
wait_for "housing: Not a house: no light source" 1 5 || fail "X in the unlit house said: $(last "housing:")"
xdotool keydown d
wait_for "player at 5[2-5]\.[0-9] 24" 1 10 || { xdotool keyup d; fail "the player did not walk to the house: $(last "player at")"; }
xdotool keyup d
sleep 0.5
xdotool key 3
sleep 0.2
aim 57 22
sleep 0.2
xdotool click 3
wait_for "placed torch at 57 22" 1 5 || fail "no torch was placed in the house: $(last "placed\|refused\|player at")"
aim 60 21
sleep 0.2
xdotool key x
wait_for "housing: This is a house" 1 5 || fail "X in the lit house said: $(last "housing:")"
wait_for "the Guide moves into the house" 1 5 || fail "the Guide did not move in"
wait_for "guide at \(5[7-9]\|6[0-6]\) 24" 1 20 || fail "the Guide never got home: $(last "guide at")"
shot "$OUT/2-home.png"
# Over the grass outside, X says what is not a house.
aim 50 26
sleep 0.2
xdotool key x
wait_for "housing: Not a house: that is a block, not a room" 1 5 || fail "X on the ground said: $(last "housing:")"

# --- The Merchant: X in the second house (free, and 60 silver carried): he arrives there.
aim 37 21
sleep 0.2
xdotool key x
wait_for "housing: This is a house" 2 5 || fail "X in the second house said: $(last "housing:")"
wait_for "the Merchant arrives at the house at 37 21" 1 5 || fail "the Merchant did not come: $(last "housing:")"
wait_for "merchant at 3[5-8]\.[0-9] 24\.0" 1 5 || fail "the Merchant is not in his house: $(last "guide at")"
# Walk left to the house's door, then right-click him: his shop opens in the inventory.
xdotool keydown a
wait_for "player at 4[01]\.[0-9] 24" 1 10 || { xdotool keyup a; fail "the player did not walk to the door: $(last "player at")"; }
xdotool keyup a
sleep 0.5
mx=$(last "merchant at" | sed 's/.*merchant at \([0-9]*\)\..*/\1/')
aim "$mx" 23
sleep 0.2
xdotool click 3
wait_for "shop open: carrying 60 silver" 1 5 || fail "a right click on the Merchant opened no shop: $(last "shop open\|guide says\|player at")"
sleep 0.5
shot "$OUT/3-shop.png"
# The wares' rows at 1280x720 are the crafting panel's: from x 648, the first 191 px down
# (under the armour row). Row 0 is the torch: a click buys one for 50 copper.
xdotool mousemove $((X + 648 + 120)) $((Y + 191 + 16))
sleep 0.2
xdotool click 1
wait_for "bought torch for 50 copper, 59 silver 50 copper left" 1 5 || fail "clicking the torch bought: $(last "bought\|Can't")"
# A right-click on hotbar slot 6 (the wood; the slots from x 200, 119 px down, 48 apart)
# sells the stack for a fifth of its price.
xdotool mousemove $((X + 200 + 48 * 5 + 22)) $((Y + 119 + 22))
sleep 0.2
xdotool click 3
wait_for "sold [0-9]* wood for [0-9]* copper" 1 5 || fail "right-clicking the wood sold nothing: $(last "sold\|Can't")"
sleep 0.3
shot "$OUT/4-sold.png"
xdotool key Escape
sleep 0.3

# --- The Nurse: the life crystal used (slot 5, the left button) raises the most health to
# 120; X in the third house (free): she arrives and moves in.
xdotool key 5
sleep 0.2
aim 30 20
xdotool click 1
wait_for "used a life crystal: most health 120" 1 5 || fail "the life crystal was not used: $(last "used\|Can't")"
aim 20 21
sleep 0.2
xdotool key x
wait_for "housing: This is a house" 3 5 || fail "X in the third house said: $(last "housing:")"
wait_for "the Nurse arrives at the house at 20 21" 1 5 || fail "the Nurse did not come: $(last "housing:")"
wait_for "nurse at \(1[5-9]\|2[0-4]\)\.[0-9] 24\.0" 1 5 || fail "the Nurse is not in her house: $(last "guide at")"
sleep 0.5
shot "$OUT/5-nurse.png"

# --- Glyphs that never mis-draw: the pointer on hotbar slot 1 (at 1280x720 the nine
# slots from x 426, 642 px down, 48 apart) shows its tooltip; ten screenshots, the camera
# zoomed in or out before each (the names over the townsfolk's heads take other sizes).
# Inside the tooltip's border every screenshot has the same letters: no pixel differs by
# more than the 6% of the world its box lets through (a wrong glyph differs by ~200).
xdotool key 1
xdotool mousemove $((X + 426 + 22)) $((Y + 642 + 22))
for i in $(seq 0 9); do
  key=$([ $((i % 2)) = 0 ] && echo equal || echo minus)
  n=$(count "player at")
  xdotool keydown "$key"
  wait_for "player at" $((n + 1)) 5 || { xdotool keyup "$key"; fail "$key did not zoom: $(last "player at")"; }
  xdotool keyup "$key"
  xwd -root -silent -display "$DISPLAY" | xwdtopnm 2>/dev/null >"$OUT/glyphs-$i.ppm"
done
PYTHONPATH=tests python3 - "$OUT" <<'PY' || fail "the tooltip's letters changed between frames"
import re, sys, ppm
out = sys.argv[1]
crops = []
for i in range(10):
    w, h, px = ppm.read(f"{out}/glyphs-{i}.ppm")
    at = lambda x, y: px[3 * (y * w + x):3 * (y * w + x) + 3]
    # The tooltip's border colour (0.6, 0.55, 0.8): its box is where those pixels are.
    edge = [((m.start() // 3) % w, m.start() // 3 // w)
            for m in re.finditer(re.escape(bytes((153, 140, 204))), px) if m.start() % 3 == 0]
    # Beside the pointer (the box is drawn right of it and kept on the screen).
    edge = [(x, y) for x, y in edge if x >= 440 and y >= 480]
    if len(edge) < 40:
        sys.exit(f"shot {i}: no tooltip border")
    x0, x1 = min(p[0] for p in edge) + 3, max(p[0] for p in edge) - 3
    y0, y1 = min(p[1] for p in edge) + 3, max(p[1] for p in edge) - 3
    crops.append(((x0, y0, x1, y1), [bytes(at(x, y)) for y in range(y0, y1) for x in range(x0, x1)]))
box, first = crops[0]
bright = sum(1 for p in first if min(p) > 200)
if bright < 30:
    sys.exit(f"the tooltip at {box} has {bright} bright pixels: no text")
for i, (b, c) in enumerate(crops[1:], 1):
    if b != box:
        sys.exit(f"shot {i}: the tooltip moved from {box} to {b}")
    worst = max(max(abs(p - q) for p, q in zip(a, z)) for a, z in zip(first, c))
    if worst > 40:
        sys.exit(f"shot {i}: a pixel in the tooltip differs by {worst}")
print(f"the tooltip's {bright} bright pixels at {box} are the same in 10 frames")
PY

stop_game
echo "town window test passed (screenshots in $OUT)"
