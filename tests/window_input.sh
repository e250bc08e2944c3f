#!/usr/bin/env bash
# The input window test: what the game does with real X input (xdotool) between frames
# and outside play, in the real release game under Xvfb, each checked in the game's log.
#
# In a meadow where slimes come (STRATA_RULES: up to three, tried every 0.2 s), it checks
# that the slimes move while the world runs, then that the world stands still, its day's
# clock, creatures and the player's health with it, while the world lab's panel is open
# (F2) and while another window (xmessage) has the keyboard focus: the game logs `world
# stands still (WHY) at day clock T` and `world runs again at day clock T`, and no
# `creatures: ..` or `hurt by ..` line may come in between. In the settings menu (Esc, 2)
# it sends 25 taps of Down with no delay between them (many fall within one frame) and
# checks the game's `menu Settings row N` line says 25, then 9 quick Up taps, row 16. It
# rebinds Move left as a player does (Esc, 2, 6 for the row, Enter as the row says, J) and
# checks settings.ron binds J to it and Enter to nothing. Last it starts the game with a
# settings.ron asking for a 16384x16384 window and checks `--frames 5 --screenshot` ends
# with a picture no larger than the 1280x720 display. Between them, a held jump from a
# one-wide, two-deep hole rises at least 5 tiles.
#
#   tests/window_input.sh      # needs: Xvfb xdotool xmessage (x11-utils) xwd (x11-apps) netpbm python3, a release build
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="input window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window-input.XXXXXX)
GAME_LOG=$OUT/game.log
export STRATA_HOME=$OUT/home
export RUST_LOG=strata=debug
mkdir -p "$OUT/cwd" "$STRATA_HOME"
start=$(date +%s)

need_tools Xvfb xdotool xmessage xwd xwdtopnm pnmtopng python3
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:94}" 1280x720 "$OUT/xvfb.log"

count() { grep -c -- "$1" "$GAME_LOG" || true; }
last() { grep -- "$1" "$GAME_LOG" | tail -n 1 | sed 's/^strata: //'; }
step() { echo "$(($(date +%s) - start)) s: $*"; }
moves() { count "creatures: "; }
hurts() { count "hurt by "; }
# The day clock of the latest `world stands still` or `world runs again` line.
clock() { last "$1" | awk '{ print $NF }'; }

# --- A meadow 80 tiles wide: slimes spawn off screen, at either end.
awk 'BEGIN { for (y = 0; y < 40; y++) { row = ""; for (x = 0; x < 80; x++) row = row (y < 20 ? " " : y == 20 ? "w" : y < 24 ? "." : "#"); print row } }' >"$OUT/meadow.txt"
"$BIN" gen --from-ascii "$OUT/meadow.txt" --seed 12 --save "$OUT/meadow.strata" >/dev/null || fail "gen --from-ascii failed for the meadow"
printf '(creature_cap: 3, spawn_every_day: 0.2, spawn_every_night: 0.2)\n' >"$OUT/slimes.ron"
export STRATA_RULES="$OUT/slimes.ron"
start_game "$OUT/cwd" play --load "$OUT/meadow.strata"
game_window 20
wait_for "on screen" 1 20 || fail "the meadow did not come up"
timeout 10 xdotool windowfocus --sync "$WIN" || fail "could not give the game's window the keyboard"
xdotool mousemove $((X + WIDTH / 2)) $((Y + 120))
wait_for "a slime appeared at" 1 15 || fail "no slime came within 15 s"
step "$(last "appeared at")"

# The slimes move while the world runs (so the checks below can fail).
running() {
  local n
  n=$(moves)
  wait_for "creatures: " $((n + 2)) 5 || fail "the slimes did not move with the world running ($1)"
}
running "at the start"

# still WHY DO UNDO: DO stops the world for WHY; for 3 s no creature moves and no touch
# hurts; UNDO runs it again at the same day clock.
still() {
  local why=$1 n h before after
  eval "$2"
  sleep 0.5
  n=$(moves)
  h=$(hurts)
  sleep 3
  [ "$(moves)" = "$n" ] || fail "$why: the slimes moved while the world should stand still: $(last "creatures: ")"
  [ "$(hurts)" = "$h" ] || fail "$why: the player was hurt while the world should stand still: $(last "hurt by")"
  [ "$(count "world stands still ($why)")" -ge 1 ] || fail "$why: the game did not say the world stands still"
  before=$(clock "world stands still")
  n=$(count "world runs again")
  eval "$3"
  wait_for "world runs again" $((n + 1)) 5 || fail "$why: the world did not run again"
  after=$(clock "world runs again")
  [ "$before" = "$after" ] || fail "$why: the day clock moved from $before to $after while the world stood still"
  step "$why: 3 s without a move or a touch; day clock $before before and after"
  running "after $why"
}

# 1. The world lab's panel (F2, and F2 closes it); V back to the play camera after.
still Lab "xdotool key F2" "xdotool key F2"
xdotool key v
sleep 0.5

# 2. Another window takes the keyboard, then the game's window again.
xmessage -title strata-other-window "another window" 2>/dev/null &
other_pid=$!
other=$(timeout 10 xdotool search --sync --name '^strata-other-window$' | head -n1) || fail "xmessage made no window"
still Unfocused "timeout 10 xdotool windowfocus --sync $other" "timeout 10 xdotool windowfocus --sync $WIN"
kill "$other_pid" 2>/dev/null || true
xdotool mousemove $((X + WIDTH / 2)) $((Y + 120))

# 3. The pause menu stops it too; then the settings menu (2) and taps that come faster
#    than frames.
still Menu "xdotool key Escape" "xdotool key Escape"
xdotool key Escape
sleep 0.3
xdotool key 2
sleep 0.3
taps() { # taps KEY N: N taps of KEY, no delay between them
  local keys=()
  for _ in $(seq "$2"); do keys+=("$1"); done
  xdotool key --delay 0 "${keys[@]}"
}
rows() { last "menu Settings row" | awk '{ print $NF }'; }
n=$(count "menu Settings row")
taps Down 25
wait_for "menu Settings row" $((n + 1)) 5 || fail "25 taps of Down moved no row"
sleep 0.5
[ "$(rows)" = 25 ] || fail "25 quick taps of Down moved the settings menu to row $(rows), not 25"
taps Up 9
sleep 0.5
[ "$(rows)" = 16 ] || fail "9 quick taps of Up after them left the settings menu on row $(rows), not 16"
shot "$OUT/settings-taps.png"
step "25 quick Down taps: row 25; 9 quick Up taps: row 16"

# 4. Rebinding: Esc to the pause menu, Esc to play; then Esc, 2, 6 (Move left's row),
#    Enter as the row says, and J.
xdotool key Escape
sleep 0.2
xdotool key Escape
sleep 0.3
n=$(count "settings saved")
for k in Escape 2 6 Return; do xdotool key "$k"; sleep 0.3; done
shot "$OUT/rebind-waiting.png"
xdotool key j
wait_for "settings saved" $((n + 1)) 5 || fail "Esc, 2, 6, Enter, J saved no settings"
grep -q 'left: \["J", "A", "Left"\]' "$STRATA_HOME/settings.ron" ||
  fail "Esc, 2, 6, Enter, J did not bind J to Move left: $(grep -o 'left: [^]]*]' "$STRATA_HOME/settings.ron")"
if grep -q '"Enter"' "$STRATA_HOME/settings.ron"; then fail "the Enter that opened the wait was bound: $(grep -o '[a-z_]*: \[[^]]*"Enter"[^]]*]' "$STRATA_HOME/settings.ron")"; fi
step "Esc, 2, 6, Enter, J: $(grep -o 'left: [^]]*]' "$STRATA_HOME/settings.ron"), Enter bound to nothing"
alive || fail "the game is not running"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game

# --- 4b. A jump from a one-wide, two-deep hole rises as from flat ground (a playtest
# once saw 1.2 tiles): in a meadow with the hole at column 41, beside the spawn (40.0),
# short taps of D walk the player until it drops in (feet on row 22); Space held then
# lifts the feet above row 17 (at least 5 of the ~6 tiles of a held jump on flat ground).
play_drawn hole "(creature_cap: 0)" < <(meadow_art | awk '{ if (NR == 21 || NR == 22) $0 = substr($0, 1, 41) " " substr($0, 43); print }')
wait_for "player at" 1 10 || fail "the player's position was never logged"
for _ in $(seq 60); do
  last "player at" | grep -q "^player at 41\.[0-9] 22\.0 " && break
  n=$(count "player at")
  xdotool keydown d
  sleep 0.03 # a tap: a few frames of walking
  xdotool keyup d
  wait_for "player at" $((n + 1)) 3 || true # stood still: no new line
done
last "player at" | grep -q "^player at 41\.[0-9] 22\.0 " || fail "the player did not drop into the hole: $(last "player at")"
xdotool keydown space
wait_for "player at [0-9.]* 1[0-6]\.[0-9] " 1 5 || { xdotool keyup space; fail "a held jump from the hole rose to $(grep "player at" "$GAME_LOG" | awk '{ print $5 }' | sort -n | head -n 1) only (from 22)"; }
xdotool keyup space
step "a held jump from a one-wide, two-deep hole: feet from row 22 up to $(grep "player at" "$GAME_LOG" | awk '{ print $5 }' | sort -n | head -n 1)"
stop_game

# --- 5. A settings file asking for a window larger than the display.
printf '(window_width: 16384, window_height: 16384)\n' >"$STRATA_HOME/settings.ron"
GAME_LOG=$OUT/big.log
# GNU time, where installed, says how long the 5 frames took and the peak memory.
timed=()
[ -x /usr/bin/time ] && timed=(/usr/bin/time -f "%e s, %M KB peak")
for try in 1 2 3; do
  rc=0
  (cd "$OUT/cwd" && timeout 120 "${timed[@]}" "$BIN" play --frames 5 --screenshot "$OUT/big.png") >"$GAME_LOG" 2>&1 || rc=$?
  grep -q "XOpenDisplay" "$GAME_LOG" || break
  echo "the game could not open $DISPLAY (try $try), starting it again"
done
[ "$rc" = 0 ] || fail "play --frames 5 with a 16384x16384 window exited $rc"
read -r w h < <(python3 -c 'import struct, sys; d = open(sys.argv[1], "rb").read(24); print(*struct.unpack(">II", d[16:24]))' "$OUT/big.png")
[ "$w" -le 1280 ] && [ "$h" -le 720 ] || fail "settings asking for 16384x16384 opened a ${w}x${h} window on a 1280x720 display"
step "16384x16384 asked: a ${w}x${h} window; $(tail -n 1 "$GAME_LOG")"

echo "input window test passed in $(($(date +%s) - start)) s (pictures in $OUT)"
