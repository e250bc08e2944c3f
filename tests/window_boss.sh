#!/usr/bin/env bash
# The first boss's window test: the Eye summoned, fought and beaten in the real release game
# under Xvfb with real X input (xdotool), checked in the game's log and in screenshots.
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
#
# The game writes the Eye's lines at the debug level (RUST_LOG=strata=debug, set here).
# Screenshots are left in the scratch folder.
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
data = open(sys.argv[1], "rb").read()
# A binary PPM: P6, width, height, maxval, then the pixels.
parts, at = [], 0
while len(parts) < 4:
    while data[at:at + 1].isspace():
        at += 1
    end = at
    while not data[end:end + 1].isspace():
        end += 1
    parts.append(data[at:end])
    at = end
at += 1
w = int(parts[1])
y, x0, x1 = 37, 512, 768
full = empty = 0
for x in range(x0, x1):
    r, g, b = data[at + (y * w + x) * 3:at + (y * w + x) * 3 + 3]
    if r > 170 and g < 80 and b < 80:
        full += 1
    elif 40 < r < 90 and g < 30 and b < 30:
        empty += 1
n = x1 - x0
print(100 * full // n, 100 * empty // n)
EOF
}

# Night all day but a twentieth (a new save's player starts at 07:12, night by these rules).
# The rules are in force when the meadow's save is made, so its new player carries the
# start items.
rules='(daylight: 0.05, creature_cap: 0, start_items: [("gold_sword", 1), ("suspicious_looking_eye", 1)], eye_health: 300.0, eye_damage: 1.0, eye_damage_two: 1.0)'
printf '%s\n' "$rules" >"$OUT/meadow.ron"
export STRATA_RULES="$OUT/meadow.ron"
play_drawn meadow "$rules" < <(meadow_art)

# --- 1. The summon.
xdotool mousemove $((X + WIDTH / 2 + 120)) $((Y + HEIGHT / 2))
xdotool key 5
sleep 0.3
xdotool click 1
wait_for "the Eye came at" 1 10 || fail "the Eye did not come: $(last "used")"
step "$(last "the Eye came at")"
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
echo "boss window test passed in $(($(date +%s) - start)) s (screenshots in $OUT)"
