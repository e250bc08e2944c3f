#!/usr/bin/env bash
# The game loop's window test: a new player's first steps, made with real X input (xdotool
# keys and clicks) in the real release game under Xvfb, each checked in the game's log.
#
# In a hand-drawn world (`gen --from-ascii`): a tree beside the spawn, a stone hill holding
# iron ore, silver ore in the ground. The player holds the left button on the trunk (the
# tree comes down: 16 wood), opens the inventory (I) and crafts a workbench (Enter), picks
# it in the hotbar and places it (right click); digs 15 stone, crafts a furnace at the
# workbench (a click on its row) and places it; digs 45 iron ore, smelts 15 iron bars at
# the furnace (Enter, Enter, ...), crafts an anvil and places it; finds that the copper
# pickaxe cannot mine the silver ore, crafts an iron pickaxe at the anvil and mines it.
# Then, in a meadow where slimes come (STRATA_RULES: one at a time), the player picks the
# sword (2), walks toward the slime and swings until it dies and drops gel.
#
# The game writes `felled ..`, `dug ..`, `placed ..`, `refused: ..`, `crafting panel: ..`
# (the rows in order, `+` on what can be made now), `crafted ..`, `creatures: ..` and
# `killed a ..` lines at the debug level (RUST_LOG=strata=debug, set here). Screenshots of
# each step are left in the scratch folder.
#
#   tests/window_loop.sh       # needs: Xvfb xdotool xwd (x11-apps) netpbm, a release build
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="game loop window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window-loop.XXXXXX)
GAME_LOG=$OUT/game.log
export STRATA_HOME=$OUT/home
export RUST_LOG=strata=debug
mkdir -p "$OUT/cwd"
start=$(date +%s)

need_tools Xvfb xdotool xwd xwdtopnm pnmtopng
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:96}" 1280x720 "$OUT/xvfb.log"

# --- The world: 96x48, ground from row 24, the player's spawn at column 48 (feet on row
# 24, body centre 23.1). Everything to dig lies within reach (6 tiles from the centre; 5.9
# here) without moving, and is listed in plan.txt as `KIND X Y` in digging order: 45 iron
# ore (the hill's side and two under the feet), 15 stone, 1 silver ore. The workbench,
# furnace and anvil go on the ground at columns 50, 51 and 49, whose row 24 stays.
awk -v art="$OUT/loop.txt" -v plan="$OUT/plan.txt" 'BEGIN {
  W = 96; H = 48; g = 24; cx = 48; cy = 23.1; iron = 0; stone = 0
  for (y = 0; y < H; y++) {
    row = ""
    for (x = 0; x < W; x++) {
      c = (y >= g || (x >= 36 && x <= 46 && y >= 18)) ? "#" : " "
      if (x == 53 && y >= 8 && y < g) c = "|"
      else if (x >= 50 && x <= 56 && y >= 5 && y <= 9) c = "%"
      d = sqrt((x + 0.5 - cx) ^ 2 + (y + 0.5 - cy) ^ 2)
      hill = x <= 46 && y >= 18
      under = x >= 47 && y >= 25
      if (d <= 5.9 && (hill || under)) {
        if (x == 50 && y == 26) { c = "v"; silver = x " " y }
        else if (iron < 45 && (hill || y == 25 && x <= 48)) { c = "i"; iron++; print "iron_ore", x, y > plan }
        else if (under && stone < 15) { stone++; print "stone", x, y > plan }
      }
      row = row c
    }
    print row > art
  }
  print "silver_ore", silver > plan
  if (iron != 45 || stone != 15) { print "the plan has " iron " iron ore and " stone " stone" > "/dev/stderr"; exit 1 }
}' || fail "could not draw the world"
"$BIN" gen --from-ascii "$OUT/loop.txt" --seed 11 --save "$OUT/loop.strata" >/dev/null || fail "gen --from-ascii failed"

echo "(creature_cap: 0)" >"$OUT/calm.ron"
export STRATA_RULES="$OUT/calm.ron"
start_game "$OUT/cwd" play --load "$OUT/loop.strata"
game_window 20
wait_for "on screen" 1 20 || fail "the hand-drawn world did not come up"
wait_for "player at" 1 10 || fail "the game never said where the player is"
xdotool mousemove $((X + WIDTH / 2)) $((Y + 120))
sleep 1 # the camera settles on the player

# The latest `player at X Y screen SX SY zoom Z`: feet in tiles, feet on screen, zoom.
read_pos() { read -r px py sx sy zoom < <(grep "player at" "$GAME_LOG" | tail -n 1 | awk '{ print $4, $5, $7, $8, $10 }'); }
read_pos
[ "$px $py" = "48.0 24.0" ] || fail "the player stands at $px $py, not on the spawn at 48.0 24.0"
# on_screen: "TX TY" lines in, "TX TY MX MY" out: tile (TX, TY)'s centre on the screen,
# from the latest read_pos.
on_screen() {
  awk -v px="$px" -v py="$py" -v sx="$sx" -v sy="$sy" -v z="$zoom" -v ox="$X" -v oy="$Y" \
    '{ printf "%d %d %d %d\n", $1, $2, ox + sx + ($1 + 0.5 - px) * z, oy + sy + ($2 + 0.5 - py) * z }'
}
# aim TX TY: the pointer on the centre of tile (TX, TY), where the player is now.
aim() {
  local mx my
  read_pos
  read -r _ _ mx my < <(echo "$1 $2" | on_screen)
  xdotool mousemove "$mx" "$my"
}
count() { grep -c -- "$1" "$GAME_LOG" || true; }
last() { grep -- "$1" "$GAME_LOG" | tail -n 1 | sed 's/^strata: //'; }
step() { echo "$(($(date +%s) - start)) s: $*"; }

# dig KIND: holds the left button and moves it over the plan's tiles of KIND, one after
# the other as each is dug (a tile takes its dig time with the best pickaxe carried). The
# player stands still meanwhile, so the tiles' places on screen are worked out once.
dig() {
  local kind=$1 tx ty mx my n=0
  read_pos
  while read -r tx ty mx my; do
    xdotool mousemove "$mx" "$my"
    [ "$n" = 0 ] && xdotool mousedown 1
    wait_for "dug $kind at $tx $ty\( \|$\)" 1 5 || { xdotool mouseup 1; fail "holding the button on $kind at $tx $ty dug nothing"; }
    n=$((n + 1))
  done < <(awk -v k="$kind" '$1 == k { print $2, $3 }' "$OUT/plan.txt" | on_screen)
  xdotool mouseup 1
  # What was dug lies in the world a moment and flies to the player (16 tiles/s, from at
  # most the reach): it is in the inventory well within a second.
  sleep 1
  step "dug $n $kind"
}

# place SLOT NAME TX TY: picks hotbar slot SLOT (its key) and right-clicks tile (TX, TY).
place() {
  xdotool key "$1"
  sleep 0.3
  aim "$3" "$4"
  sleep 0.2
  xdotool click 3
  local tries=1
  until wait_for "placed $2 at $3 $4\( \|$\)" 1 5; do
    # The Guide walks about the spawn point, and a right-click on him talks instead of
    # placing: once he has walked on, the same click again (he may stand a while).
    [ "$tries" -lt 6 ] || fail "slot $1 and a right click at $3 $4 placed no $2 in $tries tries: $(last "placed \|refused\|guide says")"
    tries=$((tries + 1))
    sleep 1.5
    aim "$3" "$4"
    xdotool click 3
  done
  step "placed the $2 at $3 $4"
}

# craft NAME [click]: opens the inventory (I), finds NAME's row in the panel's log line
# (it must be marked `+`, makeable now), crafts it with Down and Enter, or with a click on
# the row, and closes the inventory. A click is one press whatever the frame rate.
panel() { last "crafting panel:"; }
craft() {
  local name=$1 how=${2:-keys} panels row n
  panels=$(count "crafting panel:")
  xdotool key i
  wait_for "crafting panel:" $((panels + 1)) 5 || fail "I opened no inventory"
  row=$(panel | awk -v want="$name+" '{ for (i = 3; i <= NF; i++) if ($i == want) { print i - 3; exit } }')
  [ -n "$row" ] || fail "the crafting panel offers no $name to make now: $(panel)"
  n=$(count "crafted $name ")
  if [ "$how" = click ]; then
    # The panel's rows at 1280x720: from x 648, the first 191 px down (under the armour
    # row), 34 px apart.
    xdotool mousemove $((X + 648 + 120)) $((Y + 191 + 34 * row + 16))
    sleep 0.2
    xdotool click 1
  else
    for _ in $(seq "$row"); do xdotool key Down; sleep 0.3; done
    xdotool key Return
  fi
  wait_for "crafted $name " $((n + 1)) 5 || fail "crafting $name (row $row, by $how) made nothing: $(last "crafted")"
  sleep 0.3
  shot "$OUT/craft-$name.png"
  xdotool key i
  sleep 0.3
  step "crafted $name (row $row of the panel, by $how)"
}

# 1. Cut the tree: the trunk's lowest tile; the whole tree comes down for wood.
shot "$OUT/01-start.png"
aim 53 23
xdotool mousedown 1
wait_for "felled " 1 5 || { xdotool mouseup 1; fail "holding the button on the trunk at 53 23 felled nothing"; }
xdotool mouseup 1
felled=$(last "felled ")
[ "$felled" = "felled 16 wood at 53 23" ] || fail "cutting the trunk gave '$felled', not 16 wood"
sleep 0.5
shot "$OUT/02-felled.png"
step "$felled"
# The crown's leaves fall to the ground and fly to the player, into the first free slot
# (5); what is crafted then goes after them. Waited for, so that the slots are the same
# however fast this machine is (a workbench crafted before they land would take slot 5).
if wait_for "picked up [0-9]* leaves" 1 10; then FREE=6; else FREE=5; fi
step "the crown's leaves: $(last "picked up [0-9]* leaves" || true) (crafted things from slot $FREE)"

# 2. The workbench, from 8 wood, anywhere: I, Enter. It goes into the first free slot ($FREE:
#    pickaxe, sword, torches, wood and the leaves come first).
craft workbench
place $FREE workbench 50 23

# 3. The furnace (15 stone, 4 wood, 3 torches) at the workbench, by a click on its row.
dig stone
craft furnace click
place $FREE furnace 51 23
shot "$OUT/03-furnace.png"

# 4. 45 iron ore; 15 iron bars at the furnace, Enter for each (3 ore a bar).
dig iron_ore
panels=$(count "crafting panel:")
xdotool key i
wait_for "crafting panel:" $((panels + 1)) 5 || fail "I opened no inventory"
# Down to the iron bar's row once; the highlight then follows the recipe just made.
row=$(panel | awk '{ for (i = 3; i <= NF; i++) if ($i == "iron_bar+") { print i - 3; exit } }')
[ -n "$row" ] || fail "the panel offers no iron_bar+ to make now: $(panel)"
for _ in $(seq "$row"); do xdotool key Down; sleep 0.3; done
for i in $(seq 15); do
  panel | grep -q " iron_bar+" || fail "bar $i: the panel offers no iron_bar+: $(panel)"
  xdotool key Return
  wait_for "crafted iron_bar " "$i" 5 || fail "Enter made no iron bar $i"
done
sleep 0.3
shot "$OUT/04-bars.png"
xdotool key i
sleep 0.3
step "smelted 15 iron bars"

# 5. The anvil (5 iron bars) at the workbench, by a click, into slot $FREE (the ore is gone).
craft anvil click
place $FREE anvil 49 23
xdotool key 1 # the copper pickaxe again, so the left button digs
sleep 0.3

# 6. The copper pickaxe cannot mine silver ore; the iron pickaxe (10 iron bars, 3 wood) at
#    the anvil can.
read -r _ sx_ sy_ < <(awk '$1 == "silver_ore"' "$OUT/plan.txt")
refusals=$(count "refused: ")
aim "$sx_" "$sy_"
sleep 0.2
xdotool mousedown 1
wait_for "refused: " $((refusals + 1)) 5 || { xdotool mouseup 1; fail "the copper pickaxe was not refused on silver ore"; }
sleep 1.2 # more than silver ore's dig time: nothing may come of holding on
shot "$OUT/05-too-weak.png"
xdotool mouseup 1
[ "$(count "dug silver_ore")" = 0 ] || fail "the copper pickaxe mined silver ore"
refused=$(last "refused: ")
step "$refused"
craft iron_pickaxe
aim "$sx_" "$sy_"
sleep 0.2
xdotool mousedown 1
wait_for "dug silver_ore at $sx_ $sy_\( \|$\)" 1 5 || { xdotool mouseup 1; fail "the iron pickaxe did not mine the silver ore at $sx_ $sy_"; }
xdotool mouseup 1
sleep 0.5
shot "$OUT/06-silver.png"
step "the iron pickaxe mined the silver ore"
alive || fail "the game is not running"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game

# --- A slime. A meadow 80 tiles wide: slimes spawn off screen (more than 34 tiles away at
# this zoom), so only at either end; one at a time, tried every 0.2 s.
play_drawn meadow '(creature_cap: 1, spawn_every_day: 0.2, spawn_every_night: 0.2)' < <(meadow_art)
xdotool mousemove $((X + WIDTH / 2)) $((Y + 120))
wait_for "a slime appeared at" 1 15 || fail "no slime came within 15 s"
step "$(last "appeared at")"
xdotool key 2
sleep 0.3
# Walk toward the slime while it is more than 3 tiles away, the pointer 2 tiles beyond
# the player on its side, the button held: the sword swings every 0.4 s toward the pointer.
held=""
pressed=""
for _ in $(seq 300); do
  [ "$(count "killed a slime")" -ge 1 ] && break
  alive || fail "the game died in the fight"
  read_pos
  cx=$(grep -o "creatures: slime at [0-9.]*" "$GAME_LOG" | tail -n 1 | awk '{ print $4 }')
  [ -n "$cx" ] || cx=$(last "appeared at" | awk '{ print $5 }')
  read -r key tx < <(awk -v px="$px" -v cx="$cx" 'BEGIN { d = cx - px; k = d < 0 ? "a" : "d"; if (d < 3 && d > -3) k = "-"; print k, int(px + (d < 0 ? -2 : 2)) }')
  aim "$tx" "$(awk -v py="$py" 'BEGIN { print int(py - 1) }')"
  if [ -z "$pressed" ]; then xdotool mousedown 1; pressed=1; fi
  if [ "$key" != "${held:--}" ]; then
    [ -n "$held" ] && xdotool keyup "$held"
    held=""
    if [ "$key" != "-" ]; then xdotool keydown "$key"; held=$key; fi
  fi
  sleep 0.1
done
[ -n "$held" ] && xdotool keyup "$held"
xdotool mouseup 1
[ "$(count "killed a slime")" -ge 1 ] || fail "the sword killed no slime within 30 s: $(last "creatures:")"
killed=$(last "killed a slime")
gel=$(sed -n 's/.*gel x\([0-9]*\)$/\1/p' <<<"$killed")
[ "${gel:-0}" -ge 1 ] || fail "the slime dropped no gel: $killed"
sleep 0.3
shot "$OUT/07-slime.png"
step "$killed ($(count "swing hit") hits, $(count "hurt by") touches taken)"
alive || fail "the game is not running after the fight"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game

echo "game loop window test passed in $(($(date +%s) - start)) s (pictures in $OUT)"
