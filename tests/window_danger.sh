#!/usr/bin/env bash
# Danger's window test: hits, knockback and falls, with real X input (xdotool keys) in the
# real release game under Xvfb, each checked in the game's log.
#
# 1. In a meadow where one slime at a time comes (STRATA_RULES), the player stands still:
#    the slime's touch hurts once, throws the player away from it (the `player at` lines
#    move away from the slime's side), and no second touch hurts inside the invincibility
#    window (the `hurt by .. at T s` lines are at least 0.67 s apart). Screenshots of the
#    moments after the hit show the player blinking (in some, not drawn).
# 2. On a ledge 26 rows above the ground, the player walks off (D held): the fall costs 10,
#    leaving 90 of 100 (`fell 26 tiles for 10: health 90`). Where a tile's fall costs 100,
#    the player dies there, and the death screen shows no body and no outline under the
#    pointer (their boxes on the screenshot match the sky three tiles along).
# 3. The player stands in a shaft two tiles deep, its head below the meadow's grass, the
#    sword picked (2), the button held toward the slime's side: the swing's arc hits the
#    slime above the player (`swing hit 1: slime at X Y` with its feet above the player's
#    head) and kills it (`killed a slime`); its heart (STRATA_RULES: always one) flies to
#    the player (`picked up a heart`).
# 4. A right-click on a bed sets the spawn point (`spawn point set at 44 35`); the player
#    walks into lava and dies: the death screen says `You were burned by lava` and counts
#    down (`death screen: ..; Respawning in 3..`, then 2, 1), and the player wakes in the
#    bed (`respawned at the bed 44.5 36.0`).
# 5. W held on a rope climbs it (the feet above row 29, where a jump alone never stays),
#    released it hangs on, S climbs back down to the ground.
# 6. Pinned against a wall by a demon eye: the ground's right half is rock to the sky, the
#    player stands against it at night, and every spawn is a demon eye (STRATA_RULES
#    demon_eye_one_in 1) coming from the left. Its hit throws the player straight up
#    (`thrown 0.0 -N`; the `player at` feet leave the floor), and in the 3 s from the first
#    hit at most two land (the eye bounces off; one creature hurts once per its cooldown).
#    Then H, the quick heal, drinks one of the two potions given (`gen --give`): `drank a
#    potion: +N, health M` with M above the health of the last hit, and one potion left.
#
# The game writes `hurt by ..`, `fell ..` and `player at ..` lines at the debug level
# (RUST_LOG=strata=debug, set here). Screenshots are left in the scratch folder.
#
#   tests/window_danger.sh     # needs: Xvfb xdotool xwd (x11-apps) netpbm, a release build
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="danger window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window-danger.XXXXXX)
export STRATA_HOME=$OUT/home
export RUST_LOG=strata=debug
mkdir -p "$OUT/cwd"
start=$(date +%s)

need_tools Xvfb xdotool xwd xwdtopnm pnmtopng pamcut pamarith pamsumm
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:95}" 1280x720 "$OUT/xvfb.log"

count() { grep -c -- "$1" "$GAME_LOG" || true; }
last() { grep -- "$1" "$GAME_LOG" | tail -n 1 | sed 's/^strata: //'; }
step() { echo "$(($(date +%s) - start)) s: $*"; }

# --- 1. A slime's hit. A meadow 80 tiles wide: slimes spawn off screen, at either end.
play_drawn meadow '(creature_cap: 1, home_day_cap: 1, spawn_every_day: 0.2, spawn_every_night: 0.2)' < <(meadow_art)
xdotool mousemove $((X + WIDTH / 2)) $((Y + 120))
wait_for "a slime appeared at" 1 15 || fail "no slime came within 15 s"
step "$(last "appeared at")"
# The player stands; the slime hops over. A real key first (the sword, 2), so the game
# has had keyboard input.
xdotool key 2
wait_for "hurt by a slime" 1 30 || fail "the slime never touched the player: $(last "creatures:")"
for i in 1 2 3 4 5 6; do shot "$OUT/01-hit-$i.png"; sleep 0.05; done
hit=$(last "hurt by a slime")
step "$hit"
sleep 2
# Where the player stood when hit, and where it went: away from the slime.
first_hit_line=$(grep -n -- "hurt by a slime" "$GAME_LOG" | head -n 1 | cut -d: -f1)
before=$(head -n "$first_hit_line" "$GAME_LOG" | grep "player at" | tail -n 1 | awk '{ print $4 }')
after=$(tail -n +"$first_hit_line" "$GAME_LOG" | grep "player at" | head -n 12 | awk '{ print $4 }' | tr '\n' ' ')
from=$(grep -- "hurt by a slime" "$GAME_LOG" | head -n 1 | sed 's/.* from \([0-9.]*\):.*/\1/')
echo "  slime at $from, player at $before, then $after"
moved=$(awk -v b="$before" -v f="$from" -v a="$after" 'BEGIN { n = split(a, xs, " "); best = 0
  for (i = 1; i <= n; i++) { d = (xs[i] - b) * (b < f ? -1 : 1); if (d > best) best = d }
  print best }')
awk -v m="$moved" 'BEGIN { exit !(m >= 1.0) }' || fail "the player was not thrown away from the slime: $before, then $after (slime at $from)"
step "thrown $moved tiles away from the slime"
# Every two hits at least the window apart.
times=$(grep -- "hurt by a slime" "$GAME_LOG" | sed 's/.* at \([0-9.]*\) s from.*/\1/' | tr '\n' ' ')
awk -v t="$times" 'BEGIN { n = split(t, a, " "); for (i = 2; i <= n; i++) if (a[i] - a[i - 1] < 0.66) exit 1 }' ||
  fail "two hits inside the invincibility window: $times"
step "$(count "hurt by a slime") hits at $times s"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game

# --- 2. A 26-tile fall. A ledge at row 10 under the spawn column (48), the ground at row
# 36: walking off the ledge's right end drops the feet from row 10 to row 36.
ledge_art() {
  awk 'BEGIN { for (y = 0; y < 48; y++) { row = ""; for (x = 0; x < 96; x++) {
    c = " "; if (y >= 36 || (y >= 10 && y < 12 && x >= 40 && x <= 50)) c = "#"; row = row c }; print row } }'
}
play_drawn ledge '(creature_cap: 0)' < <(ledge_art)
sleep 1
xdotool keydown d
wait_for "fell " 1 10 || { xdotool keyup d; fail "no hurting fall: $(last "player at")"; }
xdotool keyup d
fell=$(last "fell ")
sleep 0.3
shot "$OUT/02-fell.png"
[ "$fell" = "fell 26 tiles for 10: health 90" ] || fail "the fall gave '$fell', not 26 tiles for 10 (health 90)"
step "$fell"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game
# --- 2b. The same fall where a tile's fall costs 100: the player dies where it lands, and
# the death screen shows no body there (nor an outline under the pointer). The sky over
# the head, and a tile of sky under the pointer, are the same pixels as the sky three
# tiles along.
play_drawn deadly '(creature_cap: 0, fall_damage: 100.0, respawn_seconds: 6.0)' < <(ledge_art)
sleep 1
xdotool keydown d
wait_for "died of a fall" 1 10 || { xdotool keyup d; fail "the fall did not kill: $(last "player at")"; }
xdotool keyup d
sleep 0.5
read -r px py sx sy zoom < <(grep "player at" "$GAME_LOG" | tail -n 1 | awk '{ print $4, $5, $7, $8, $10 }')
# Pixel boxes (left top width height) on the screenshot: the head (the top of a 1.8-tile
# body), the pointer's tile (six along, two up: clear of the death screen's lines), and
# each three tiles to the right.
boxes=$(awk -v sx="$sx" -v sy="$sy" -v px="$px" -v z="$zoom" -v ox="$X" -v oy="$Y" 'BEGIN {
  hl = ox + sx - 0.4 * z; ht = oy + sy - 1.75 * z; tl = ox + sx + (int(px) + 6 - px) * z; tt = oy + sy - 2 * z
  printf "%d %d %d %d %d %d %d", hl, ht, 0.8 * z, 0.55 * z, tl, tt, z }')
read -r hl ht hw hh tl tt tw <<<"$boxes"
xdotool mousemove $((tl + tw / 2)) $((tt + tw / 2))
sleep 0.5
xwd -root -silent -display "$DISPLAY" | xwdtopnm 2>/dev/null >"$OUT/06-dead.ppm"
pnmtopng <"$OUT/06-dead.ppm" >"$OUT/06-dead.png"
differs() { # differs LEFT TOP WIDTH HEIGHT: the mean difference from the box 3 tiles right
  pamcut -left "$1" -top "$2" -width "$3" -height "$4" "$OUT/06-dead.ppm" >"$OUT/a.ppm"
  pamcut -left $(($1 + 3 * ${zoom%.*})) -top "$2" -width "$3" -height "$4" "$OUT/06-dead.ppm" >"$OUT/b.ppm"
  pamarith -difference "$OUT/a.ppm" "$OUT/b.ppm" | pamsumm -mean -brief
}
head=$(differs "$hl" "$ht" "$hw" "$hh")
pointer=$(differs "$tl" "$tt" "$tw" "$tw")
awk -v d="$head" 'BEGIN { exit !(d < 2) }' || fail "the body is drawn on the death screen (head box differs by $head from the sky beside it)"
awk -v d="$pointer" 'BEGIN { exit !(d < 2) }' || fail "an outline is drawn under the pointer on the death screen (it differs by $pointer)"
step "$(last "died of"): no body (head box $head off the sky), no outline ($pointer)"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game
# --- 3. A swing kills a slime above the player. The meadow (81 wide) with its grass on row
# 22, a shaft one tile wide at column 40 down to row 24 where the player stands (head top
# 22.2): no hit can throw the player out of it, and no slime can get in beside it.
shaft_art() {
  awk 'BEGIN { for (y = 0; y < 40; y++) { row = ""; for (x = 0; x < 81; x++) {
    c = y < 22 ? " " : y == 22 ? "w" : y < 26 ? "." : "#"
    if (x == 40 && (y == 22 || y == 23)) c = " "
    row = row c }; print row } }'
}
play_drawn shaft '(creature_cap: 1, home_day_cap: 1, spawn_every_day: 0.2, spawn_every_night: 0.2, heart_chance: 1.0)' < <(shaft_art)
read -r px py sx sy zoom < <(grep "player at" "$GAME_LOG" | tail -n 1 | awk '{ print $4, $5, $7, $8, $10 }')
[ "$px $py" = "40.5 24.0" ] || fail "the player stands at $px $py, not in the shaft at 40.5 24.0"
xdotool key 2
wait_for "a slime appeared at" 1 15 || fail "no slime came within 15 s"
pressed=""
for _ in $(seq 300); do
  [ "$(count "killed a slime")" -ge 1 ] && break
  cx=$(grep -o "creatures: slime at [0-9.]*" "$GAME_LOG" | tail -n 1 | awk '{ print $4 }')
  [ -n "$cx" ] || cx=$(last "appeared at" | awk '{ print $5 }')
  # The pointer a tile above the grass on the slime's side (the facing follows it).
  mx=$(awk -v px="$px" -v cx="$cx" -v sx="$sx" -v z="$zoom" -v ox="$X" 'BEGIN { print int(ox + sx + (cx < px ? -1.5 : 1.5) * z) }')
  my=$(awk -v sy="$sy" -v z="$zoom" -v oy="$Y" 'BEGIN { print int(oy + sy - 3 * z) }')
  xdotool mousemove "$mx" "$my"
  if [ -z "$pressed" ]; then xdotool mousedown 1; pressed=1; fi
  if grep -q "swing hit" "$GAME_LOG" && [ ! -f "$OUT/03-swing.png" ]; then shot "$OUT/03-swing.png"; fi
  sleep 0.1
done
xdotool mouseup 1
[ "$(count "killed a slime")" -ge 1 ] || fail "no slime killed within 30 s: $(last "creatures:")"
above=$(grep -- "swing hit" "$GAME_LOG" | awk '{ for (i = 1; i <= NF; i++) if ($i == "at") { y = $(i + 2); sub(",", "", y); if (y + 0 <= 22.3) n++ } } END { print n + 0 }')
[ "$above" -ge 1 ] || fail "no swing hit the slime above the player: $(grep -- "swing hit" "$GAME_LOG" | tr '\n' ';')"
wait_for "picked up a heart" 1 5 || fail "the slime's heart did not come to the player: $(last "killed a slime")"
step "$(last "picked up a heart")"
step "$(last "killed a slime"); $(count "swing hit") hits, $above with the slime above the player's head ($(last "swing hit"))"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game
# --- 4. A bed, a death and the respawn. Ground at row 36 (the spawn column 48 stands on
# it), a bed at column 44 on the ground, a lava pit at columns 56-59 three rows deep. A
# right-click on the bed sets the spawn point; the player walks (D held) into the lava and
# dies: the death screen names the lava and counts down, then the player wakes in the bed.
bed_art() {
  awk 'BEGIN { for (y = 0; y < 48; y++) { row = ""; for (x = 0; x < 96; x++) {
    c = y >= 36 ? "#" : " "
    if (x == 44 && y == 35) c = "b"
    if (x >= 56 && x <= 59 && y >= 36 && y <= 38) c = "L"
    row = row c }; print row } }'
}
play_drawn bed '(creature_cap: 0, respawn_seconds: 3.0)' < <(bed_art)
sleep 1
read -r px py sx sy zoom < <(grep "player at" "$GAME_LOG" | tail -n 1 | awk '{ print $4, $5, $7, $8, $10 }')
bx=$(awk -v px="$px" -v sx="$sx" -v z="$zoom" -v ox="$X" 'BEGIN { print int(ox + sx + (44.5 - px) * z) }')
by=$(awk -v py="$py" -v sy="$sy" -v z="$zoom" -v oy="$Y" 'BEGIN { print int(oy + sy + (35.5 - py) * z) }')
xdotool mousemove "$bx" "$by"
sleep 0.2
xdotool click 3
wait_for "spawn point set at 44 35" 1 5 || fail "the right-click on the bed set no spawn point (player at $px $py): $(last "refused")"
step "$(last "spawn point set")"
xdotool keydown d
wait_for "died of lava" 1 15 || { xdotool keyup d; fail "the player did not die in the lava: $(last "player at")"; }
xdotool keyup d
wait_for "death screen: You were burned by lava; Respawning in" 1 3 || fail "no death screen: $(last "died of")"
sleep 0.5
shot "$OUT/04-death-screen.png"
step "$(last "death screen:")"
wait_for "respawned at the bed 44.5 36.0" 1 6 || fail "the player did not wake in the bed: $(last "respawned at")"
counts=$(grep -o "death screen: .*Respawning in [0-9]" "$GAME_LOG" | awk '{ print $NF }' | tr '\n' ' ')
[ "$counts" = "3 2 1 " ] || fail "the death screen did not count down 3 2 1: $counts"
step "$(last "respawned at") after the countdown $counts"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game
# --- 5. A rope climbed. Ground at row 36, a rope hanging in the spawn column 48 from row
# 14 down to the ground. W held climbs it: the feet rise above row 29 (a held jump alone
# peaks near row 30 and lands again); released, the player hangs on; S climbs back down.
rope_art() {
  awk 'BEGIN { for (y = 0; y < 48; y++) { row = ""; for (x = 0; x < 96; x++) {
    c = y >= 36 ? "#" : " "
    if (x == 48 && y >= 14 && y < 36) c = "R"
    row = row c }; print row } }'
}
feet() { grep "player at" "$GAME_LOG" | tail -n 1 | awk '{ print $5 }'; }
play_drawn rope '(creature_cap: 0)' < <(rope_art)
sleep 1
[ "$(feet)" = "36.0" ] || fail "the player does not stand at the rope's foot: $(last "player at")"
xdotool keydown w
sleep 3
xdotool keyup w
sleep 0.6
up=$(feet)
shot "$OUT/05-rope.png"
awk -v y="$up" 'BEGIN { exit !(y < 29) }' || fail "W held did not climb the rope: feet at $up"
sleep 1
hang=$(feet)
awk -v a="$up" -v b="$hang" 'BEGIN { d = a - b; exit !(d < 0.2 && d > -0.2) }' || fail "the player did not hang on the rope: $up, then $hang"
step "climbed to row $up and hung there ($hang)"
xdotool keydown s
sleep 5
xdotool keyup s
sleep 0.5
[ "$(feet)" = "36.0" ] || fail "S did not climb down to the ground: $(last "player at")"
step "climbed down to $(feet)"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game
# --- 6. Pinned against a wall by a demon eye, then the quick heal (H). Ground at row 36;
# from column 49 rightwards rock from the top of the world down, so the player at the
# spawn point (the middle of the 97 columns, 48.5) stands against it. Demon eyes come in from the far left (spawn spots
# off screen), at night (days 5% daylight), one at a time.
wall_art() {
  awk 'BEGIN { for (y = 0; y < 48; y++) { row = ""; for (x = 0; x < 97; x++) {
    c = (y >= 36 || x >= 49) ? "#" : " "; row = row c }; print row } }'
}
play_drawn pinned '(creature_cap: 1, daylight: 0.05, spawn_every_night: 0.2, demon_eye_one_in: 1)' \
  --give lesser_healing_potion:2 < <(wall_art)
sleep 1
[ "$(feet)" = "36.0" ] || fail "the player does not stand at the wall's foot: $(last "player at")"
xdotool key 1
wait_for "hurt by a demon eye" 1 40 || fail "no demon eye hit the player within 40 s: $(last "creatures:")"
sleep 3.5
first=$(grep -- "hurt by" "$GAME_LOG" | head -n 1 | sed 's/.* at \([0-9.]*\) s from.*/\1/')
times=$(grep -- "hurt by" "$GAME_LOG" | sed 's/.* at \([0-9.]*\) s from.*/\1/' | tr '\n' ' ')
within=$(awk -v f="$first" -v t="$times" 'BEGIN { n = split(t, a, " "); c = 0; for (i = 1; i <= n; i++) if (a[i] - f < 3.0) c++; print c }')
[ "$within" -le 2 ] || fail "$within hits in the 3 s from the first, pinned against the wall: $times"
first_hit_line=$(grep -n -- "hurt by" "$GAME_LOG" | head -n 1 | cut -d: -f1)
# Thrown straight up (the wall behind): the feet leave the floor (the `player at` lines,
# four a second, catch the rise of about a tile on its way).
grep -- "hurt by" "$GAME_LOG" | head -n 1 | grep -q "thrown 0.0 -" ||
  fail "the first hit did not throw the pinned player straight up: $(grep -- "hurt by" "$GAME_LOG" | head -n 1)"
top=$(tail -n +"$first_hit_line" "$GAME_LOG" | grep "player at" | head -n 12 | awk 'BEGIN { m = 99 } { if ($5 < m) m = $5 } END { print m }')
awk -v t="$top" 'BEGIN { exit !(t <= 35.5) }' || fail "the pinned player was not thrown clear of the floor: feet at best $top ($(grep -- "hurt by" "$GAME_LOG" | head -n 1))"
shot "$OUT/06-pinned.png"
step "pinned: $within hits in 3 s from the first ($times), thrown up to feet $top: $(grep -- "hurt by" "$GAME_LOG" | head -n 1 | sed 's/^strata: //')"
before=$(grep -- "hurt by" "$GAME_LOG" | tail -n 1 | sed 's/.*: health \([0-9]*\),.*/\1/')
xdotool key h
wait_for "drank a potion" 1 5 || fail "H drank no potion: $(last "quick heal")$(last "Can't")"
drank=$(last "drank a potion")
after=$(echo "$drank" | sed 's/.*health \([0-9]*\).*/\1/')
[ "$after" -gt "$before" ] || fail "the quick heal did not raise the health: $before, then '$drank'"
shot "$OUT/06-healed.png"
step "H: $drank (health $before before)"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game
echo "danger window test passed in $(($(date +%s) - start)) s (screenshots in $OUT)"
