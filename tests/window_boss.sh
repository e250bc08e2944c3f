#!/usr/bin/env bash
# The bosses' window test: the Eye summoned, fought and beaten, then Skeletron, the Eater of
# Worlds and the Wall of Flesh called, in the real release game under Xvfb with real X
# input (xdotool), checked in the game's log and in screenshots.
#
# The meadow at night, by rules (STRATA_RULES) that give a new player a gold sword and a
# suspicious looking eye besides the usual tools (`start_items`, hotbar slots 4 and 5), let
# no creature spawn but the Eye's servants, and make the Eye quick to fight: 300 health
# and a touch of 1 (everything else as in play).
# 1. The eye is picked (5) and used (left click): the Eye comes (`the Eye came at`), its
#    music plays (`music: Boss`), and its health bar is on screen: a row across the middle
#    of the top of the screen (hud::boss_bar_rect: 30 px down at scale 1) is mostly the
#    bar's full red.
# 2. The gold sword is picked (4) and the button held to the player's right: the Eye's
#    dashes come through the player and its swings hit (`swing hit the Eye: health N`)
#    until at half health it opens its mouth (`the Eye opens its mouth: phase two`); the
#    bar then shows its right half emptied (dark red where it was full).
# 3. Swinging on, the Eye falls: `killed the Eye` with its demonite ore and its trophy,
#    and the world's announcement "The Eye has been defeated!" once; the bar is gone.
#
# 4. Skeletron: a meadow with a dungeon brick tower (columns 36-38, rows 12-19) at night;
#    the Old Man stands on the grass beside it (column 35, the Guide right of the spawn) and a right-click on him calls
#    Skeletron (`Skeletron came at`): its bar is up (under its name) and its hands reach
#    the player (`hurt by Skeletron`).
# 5. The Eater of Worlds: corrupt grass over ebonstone, the player carrying a gold sword and
#    worm food (slots 4 and 5) by rules that make the Eater weak (`eater_health: 288`, a
#    tenth: a body segment 12, under one sword hit); the worm food used (left click) calls
#    it (`The Eater of Worlds came at`), its bar is up, the sword held down hits its
#    segments as it passes through the player (`hit The Eater of Worlds`) and a cut body
#    splits it (`The Eater of Worlds is cut in two`).
# 6. The Wall of Flesh: an ash shelf by a lava pool in the underworld (a world 400
#    tiles high, the player on row 386); the guide voodoo doll (slot 4) thrown (G) into the
#    lava burns (`a guide voodoo doll burnt`) and calls the Wall (`The Wall of Flesh came
#    at`): its bar is up and its flesh, on screen, moves between two grabs a second apart.
#
# The game writes the Eye's lines at the debug level (RUST_LOG=strata=debug, set here).
# Screenshots are left in the scratch folder (docs/skeletron.png, docs/eater.png and
# docs/wall.png are 04-skeletron.png, 05-eater.png and 06-wall.png of a run).
#
#   tests/window_boss.sh     # needs: Xvfb xdotool xwd (x11-apps) netpbm python3, a release build
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="boss window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window-boss.XXXXXX)
export STRATA_HOME=$OUT/home
export RUST_LOG=strata=debug
mkdir -p "$OUT/cwd"
start=$(date +%s)

need_tools Xvfb xdotool xwd xwdtopnm pnmtopng python3
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:94}" 1280x720 "$OUT/xvfb.log"

last() { grep -- "$1" "$GAME_LOG" | tail -n 1 | sed 's/^strata: //'; }
step() { echo "$(($(date +%s) - start)) s: $*"; }

# Shares of the bar's row (y 37 of the 1280x720 screen, x from 512 to 768) in the bar's
# full red and in its emptied dark red, as "FULL EMPTY" percentages of the row.
bar() {
  xwd -root -silent -display "$DISPLAY" | xwdtopnm 2>/dev/null >"$OUT/bar.ppm"
  python3 - "$OUT/bar.ppm" <<'EOF'
import sys
sys.path.insert(0, "tests")
import ppm
w, _, px = ppm.read(sys.argv[1])
y, x0, x1 = 37, 512, 768
full = empty = 0
for x in range(x0, x1):
    r, g, b = px[(y * w + x) * 3:(y * w + x) * 3 + 3]
    if r > 170 and g < 80 and b < 80:
        full += 1
    elif 40 < r < 90 and g < 30 and b < 30:
        empty += 1
n = x1 - x0
print(100 * full // n, 100 * empty // n)
EOF
}

# play_ruled NAME RULES < ART: play_drawn with RULES in force already when the save is made,
# so that its new player carries their start items.
play_ruled() {
  printf '%s\n' "$2" >"$OUT/$1.ron"
  export STRATA_RULES="$OUT/$1.ron"
  play_drawn "$1" "$2"
}

# summon PATTERN WHY CLUE: the item in slot 5 used (a left click to the player's right) until
# the log says PATTERN, else fails "WHY: " and the last line saying CLUE.
summon() {
  xdotool mousemove $((X + WIDTH / 2 + 120)) $((Y + HEIGHT / 2))
  xdotool key 5
  sleep 0.3
  xdotool click 1
  wait_for "$1" 1 10 || fail "$2: $(last "$3")"
  step "$(last "$1")"
}

# Night all day but a twentieth (a new save's player starts at 07:12, night by these rules).
rules='(daylight: 0.05, creature_cap: 0, start_items: [("gold_sword", 1), ("suspicious_looking_eye", 1)], eye_health: 300.0, eye_damage: 1.0, eye_damage_two: 1.0)'
play_ruled meadow "$rules" < <(meadow_art)

# --- 1. The summon.
summon "the Eye came at" "the Eye did not come" "used"
sleep 2.5
shot "$OUT/01-came.png"
read -r full empty < <(bar)
step "bar: ${full}% full red, ${empty}% emptied"
[ "$full" -ge 90 ] || fail "no full health bar at the top of the screen (${full}% of its row red, see $OUT/01-came.png)"
wait_for "music: Boss" 1 10 || fail "the Eye's music did not play: $(last "music:")"

# --- 2. Down to half.
xdotool key 4
sleep 0.3
xdotool mousedown 1
wait_for "swing hit the Eye" 1 60 || { xdotool mouseup 1; fail "no swing hit the Eye in 60 s: $(last "the Eye charges")"; }
step "$(last "swing hit the Eye")"
wait_for "the Eye opens its mouth: phase two" 1 90 || { xdotool mouseup 1; fail "the Eye never reached phase two: $(last "swing hit the Eye")"; }
step "$(last "opens its mouth")"
shot "$OUT/02-phase-two.png"
read -r full empty < <(bar)
step "bar: ${full}% full red, ${empty}% emptied"
[ "$full" -le 55 ] && [ "$empty" -ge 40 ] || { xdotool mouseup 1; fail "the bar does not show half health (${full}% red, ${empty}% emptied, see $OUT/02-phase-two.png)"; }

# --- 3. Its fall.
wait_for "killed the Eye" 1 90 || { xdotool mouseup 1; fail "the Eye did not fall: $(last "swing hit the Eye")"; }
xdotool mouseup 1
step "$(last "killed the Eye")"
grep -q "killed the Eye: demonite_ore x30" "$GAME_LOG" || fail "no demonite ore: $(last "killed the Eye")"
grep -q "killed the Eye: .*eye_trophy x1" "$GAME_LOG" || fail "no trophy: $(last "killed the Eye")"
sleep 1
shot "$OUT/03-defeated.png"
read -r full empty < <(bar)
[ "$full" -le 5 ] && [ "$empty" -le 5 ] || fail "the bar is still up after the Eye fell (see $OUT/03-defeated.png)"
n=$(grep -c "told: The Eye has been defeated!" "$GAME_LOG" || true)
[ "$n" -eq 1 ] || fail "the defeat was announced $n times"
stop_game

# --- 4. Skeletron, called by the Old Man at the tower.
tower() {
  meadow_art | awk '{ if (NR - 1 >= 12 && NR - 1 < 20) $0 = substr($0, 1, 36) "UUU" substr($0, 40); print }'
}
play_drawn tower '(daylight: 0.05, creature_cap: 0)' < <(tower)
wait_for "player at" 1 10 || fail "the game never said where the player is"
xdotool mousemove $((X + WIDTH / 2)) $((Y + 120))
sleep 1 # the camera settles on the player
read -r px py sx sy zoom < <(grep "player at" "$GAME_LOG" | tail -n 1 | awk '{ print $4, $5, $7, $8, $10 }')
# The Old Man's body: column 35, the row over the grass.
xdotool mousemove "$(awk -v p="$px" -v s="$sx" -v z="$zoom" -v o="$X" 'BEGIN { printf "%d", o + s + (35.5 - p) * z }')" \
  "$(awk -v p="$py" -v s="$sy" -v z="$zoom" -v o="$Y" 'BEGIN { printf "%d", o + s + (19.5 - p) * z }')"
sleep 0.3
xdotool click 3
wait_for "Skeletron came at" 1 10 || fail "talking to the Old Man did not call Skeletron: $(last "player at")"
step "$(last "Skeletron came at")"
sleep 2.5
shot "$OUT/04-skeletron.png"
read -r full empty < <(bar)
step "bar: ${full}% full red, ${empty}% emptied"
# (Its numbers, 1400/1400, cover more of the row than the Eye's 300/300.)
[ "$full" -ge 85 ] || fail "no health bar for Skeletron (${full}% of its row red, see $OUT/04-skeletron.png)"
wait_for "hurt by Skeletron" 1 30 || fail "Skeletron never reached the player: $(last "Skeletron attacks")"
step "$(last "hurt by Skeletron")"
stop_game

# --- 5. The Eater of Worlds, called by worm food in the evil biome.
# Corrupt grass on row 20 over ebonstone (80x60): every tile near the player is evil.
evil_art() {
  awk 'BEGIN { for (y = 0; y < 60; y++) { row = ""; for (x = 0; x < 80; x++) row = row (y < 20 ? " " : y == 20 ? "q" : "e"); print row } }'
}
play_ruled evil '(creature_cap: 0, start_items: [("gold_sword", 1), ("worm_food", 1)], eater_health: 288.0)' < <(evil_art)
summon "The Eater of Worlds came at" "worm food did not call the Eater" "Worm food"
sleep 2.5 # it rises from 30 tiles under the player
shot "$OUT/05-eater.png"
read -r full empty < <(bar)
step "bar: ${full}% full red, ${empty}% emptied"
[ "$full" -ge 85 ] || fail "no health bar for the Eater (${full}% of its row red, see $OUT/05-eater.png)"
xdotool key 4
sleep 0.3
xdotool mousedown 1
wait_for "hit The Eater of Worlds" 1 20 || { xdotool mouseup 1; fail "no swing hit the Eater in 20 s"; }
step "$(last "hit The Eater of Worlds")"
wait_for "The Eater of Worlds is cut in two" 1 20 || { xdotool mouseup 1; fail "the Eater never split: $(last "hit The Eater of Worlds")"; }
xdotool mouseup 1
step "$(last "is cut in two")"
stop_game

# --- 6. The Wall of Flesh, called by a guide voodoo doll thrown into the underworld's lava.
# 64x400: the underworld begins at row 368 (the default preset's 0.92 of the height); the
# player stands at the right end of an ash shelf (columns 20-32, row 386) between lava pools
# 10 deep, where the Wall's face (its eyes 8 tiles over and under its mouth) is lit; its
# lasers come from the right and throw the player back onto the shelf, not into the lava.
hell_art() {
  awk 'BEGIN { for (y = 0; y < 400; y++) { row = ""; for (x = 0; x < 64; x++) {
    c = " "
    if (y >= 396 || (y >= 386 && (x < 8 || x >= 56 || (x >= 20 && x <= 32)))) c = "a"
    else if (y >= 386) c = "L"
    row = row c }; print row } }'
}
play_ruled hell '(creature_cap: 0, start_items: [("guide_voodoo_doll", 1)])' < <(hell_art)
xdotool key 4
sleep 0.3
xdotool key g # thrown the way a new player faces: right, into the pool
wait_for "a guide voodoo doll burnt in the underworld's lava" 1 10 || fail "the thrown doll did not burn: $(last "doll")"
wait_for "The Wall of Flesh came at" 1 5 || fail "the burnt doll did not call the Wall"
step "$(last "The Wall of Flesh came at")"
# Where its flesh is on screen (mean x of its colour), in two grabs a second apart.
flesh() {
  xwd -root -silent -display "$DISPLAY" | xwdtopnm 2>/dev/null >"$OUT/flesh.ppm"
  python3 - "$OUT/flesh.ppm" <<'EOF2'
import sys
sys.path.insert(0, "tests")
import ppm
w, h, px = ppm.read(sys.argv[1])
xs = []
for y in range(60, h, 4):
    for x in range(0, w, 2):
        r, g, b = px[(y * w + x) * 3:(y * w + x) * 3 + 3]
        if 130 < r < 170 and 25 < g < 55 and 45 < b < 75:
            xs.append(x)
print(len(xs), sum(xs) // len(xs) if xs else -1)
EOF2
}
sleep 2 # onto the screen, before its first lasers come
shot "$OUT/06-wall.png"
read -r full empty < <(bar)
step "bar: ${full}% full red, ${empty}% emptied"
[ "$full" -ge 85 ] || fail "no health bar for the Wall (${full}% of its row red, see $OUT/06-wall.png)"
read -r n1 x1 < <(flesh)
sleep 1
read -r n2 x2 < <(flesh)
step "the Wall's flesh: $n1 pixels about x $x1, then $n2 about x $x2"
[ "$n1" -ge 50 ] && [ "$n2" -ge 50 ] || fail "the Wall's flesh is not on screen (see $OUT/06-wall.png)"
[ "$x1" -ne "$x2" ] || fail "the Wall did not move in a second (its flesh about x $x1)"
stop_game
echo "boss window test passed in $(($(date +%s) - start)) s (screenshots in $OUT)"
