#!/usr/bin/env bash
# The sound window test: what the real release game plays, captured. ALSA's default device
# is pointed at a file (an .asoundrc in a HOME of its own: a `type file` PCM over the null
# device, raw 16-bit stereo at 22050 Hz), the music is turned down to nothing in the
# settings (so only effects are heard), and the game is played with xdotool on a flat
# meadow. sox stats reads each stretch of the capture: silent before any action, not
# silent while the player digs and jumps, silent again after the mute key (F8) while the
# player digs and jumps on. Then, with the music up, the capture is not silent without an
# action (the day's piece plays), silent behind the pause menu and heard again after it; at
# night (a rules file whose days are almost all night) the night's piece plays.
#
# Last, with ALSA's library hidden (a mount namespace binds /dev/null over it, as root),
# `strata gen` still runs and the game still plays its frames, saying once that the sound
# is off: no audio library is needed to start.
#
#   tests/window_sound.sh      # needs: Xvfb xdotool sox python3 libasound2, a release build
#   STRATA_TEST_DISPLAY=:N     # the X display to use (default :93)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="sound window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window-sound.XXXXXX)
GAME_LOG=$OUT/game.log
export STRATA_HOME=$OUT/home
export RUST_LOG=strata=debug
mkdir -p "$OUT/cwd" "$STRATA_HOME" "$OUT/alsa"
RAW=$OUT/out.raw
export HOME=$OUT/alsa
cat >"$HOME/.asoundrc" <<EOF
pcm.!default { type file; slave.pcm "null"; file "$RAW"; format "raw" }
EOF
start=$(date +%s)
step() { echo "$(($(date +%s) - start)) s: $*"; }

need_tools Xvfb xdotool sox python3
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:93}" 1280x720 "$OUT/xvfb.log"

# A meadow 80 tiles wide and no creatures.
awk 'BEGIN { for (y = 0; y < 40; y++) { row = ""; for (x = 0; x < 80; x++) row = row (y < 20 ? " " : y == 20 ? "w" : y < 24 ? "." : "#"); print row } }' >"$OUT/meadow.txt"
"$BIN" gen --from-ascii "$OUT/meadow.txt" --seed 12 --save "$OUT/meadow.strata" >/dev/null || fail "gen --from-ascii failed for the meadow"
printf '(creature_cap: 0)\n' >"$OUT/rules.ron"
export STRATA_RULES="$OUT/rules.ron"
printf '(music_volume: 0.0)\n' >"$STRATA_HOME/settings.ron"

size() { stat -c %s "$RAW" 2>/dev/null || echo 0; }
# peak FROM TO: the loudest sample of the capture's bytes FROM..TO (sox stats' Pk lev dB;
# -inf for silence).
peak() {
  local from=$1 to=$2
  [ "$to" -gt "$from" ] || fail "the capture did not grow ($from to $to bytes): is the sound thread writing?"
  tail -c +$((from + 1)) "$RAW" | head -c $((to - from)) >"$OUT/part.raw"
  sox -t raw -r 22050 -e signed -b 16 -c 2 "$OUT/part.raw" -n stats 2>&1 | awk '/^Pk lev dB/ { print $4 }'
}
silent() { [ "$1" = "-inf" ]; }
loud() { ! silent "$1" && python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > -40 else 1)" "$1"; }

start_game "$OUT/cwd" play --load "$OUT/meadow.strata"
game_window 20
wait_for "on screen" 1 20 || fail "the meadow did not come up"
wait_for "sound on" 1 10 || fail "the game did not open the file device: $(grep 'sound' "$GAME_LOG" | head -n 3)"
timeout 10 xdotool windowfocus --sync "$WIN" || fail "could not give the game's window the keyboard"
wait_for "player at" 1 10 || fail "no player position"
# The player's feet on screen and the zoom: the tile under the feet is half a tile lower.
read -r sx sy zoom < <(grep "player at" "$GAME_LOG" | tail -n 1 | awk '{ for (i = 1; i <= NF; i++) if ($i == "screen") print $(i + 1), $(i + 2), $(i + 4) }')
dig_x=$((X + ${sx%.*} + ${zoom%.*} * 3 / 2))
dig_y=$((Y + ${sy%.*} + ${zoom%.*} / 2))
xdotool mousemove "$dig_x" "$dig_y"
sleep 2

# 1. Nothing done: silence.
a=$(size)
sleep 2
b=$(size)
quiet=$(peak "$a" "$b")
silent "$quiet" || fail "the capture is not silent before any action: peak $quiet dB"
step "before any action: $(((b - a) / 4)) frames captured, peak $quiet dB"

# 2. Dig beside the player and jump: heard.
act() {
  local n
  n=$(grep -c "dug " "$GAME_LOG" || true)
  xdotool mousedown 1
  sleep 1.5
  xdotool mouseup 1
  for _ in 1 2 3; do
    xdotool keydown space
    sleep 0.25
    xdotool keyup space
    sleep 0.5
  done
  wait_for "dug " $((n + 1)) 5 || fail "holding the button beside the player dug nothing"
}
act
sleep 0.5
c=$(size)
heard=$(peak "$b" "$c")
loud "$heard" || fail "digging and jumping made no sound: peak $heard dB"
# The game's `sound CUE N at gain G pan P` lines: the grass under the pick sounds soft, the
# tile gives way, the jumps are heard.
for cue in dig_soft break_soft jump; do
  grep -q "sound $cue " "$GAME_LOG" || fail "no $cue sound played: $(grep -o 'sound [a-z_]* ' "$GAME_LOG" | sort | uniq -c | tr '\n' ' ')"
done
step "digging and jumping: peak $heard dB; cues: $(grep -o 'sound [a-z_]* ' "$GAME_LOG" | sort | uniq -c | awk '{ printf "%s x%s ", $3, $1 }')"

# 3. The mute key: silence while the player goes on.
xdotool key F8
wait_for "sound off (mute key)" 1 5 || fail "F8 did not mute"
sleep 0.5
d=$(size)
dig_x=$((dig_x + ${zoom%.*}))
xdotool mousemove "$dig_x" "$dig_y"
act
sleep 0.5
e=$(size)
muted=$(peak "$d" "$e")
silent "$muted" || fail "the capture is not silent after the mute key: peak $muted dB"
grep -q 'muted: true' "$STRATA_HOME/settings.ron" || fail "the settings file does not keep the mute"
step "muted: digging and jumping peak $muted dB, settings.ron says muted"
grep -q "panicked" "$GAME_LOG" && fail "the game panicked"
stop_game

# 4. Music up, no action: the day's piece plays.
printf '(music_volume: 0.6)\n' >"$STRATA_HOME/settings.ron"
GAME_LOG=$OUT/music.log
rm -f "$RAW"
start_game "$OUT/cwd" play --load "$OUT/meadow.strata"
game_window 20
timeout 10 xdotool windowfocus --sync "$WIN" || fail "could not give the game's window the keyboard"
wait_for "music: Day" 1 20 || fail "no day music on the surface by day"
sleep 4
a=$(size)
sleep 2
music=$(peak "$a" "$(size)")
loud "$music" || fail "the day's music is not heard: peak $music dB"
step "music up, no action: peak $music dB"
# The pause menu silences it (quiet_when_paused, on by default), and Esc brings it back.
xdotool key Escape
wait_for "world stands still (Menu)" 1 5 || fail "Esc did not pause"
sleep 0.5
a=$(size)
sleep 1.5
paused=$(peak "$a" "$(size)")
silent "$paused" || fail "the capture is not silent behind the pause menu: peak $paused dB"
xdotool key Escape
sleep 0.5
a=$(size)
sleep 1.5
again=$(peak "$a" "$(size)")
loud "$again" || fail "the music did not come back after the pause: peak $again dB"
step "paused: peak $paused dB; resumed: peak $again dB"
stop_game

# 5. Night on the surface plays the night's piece.
printf '(creature_cap: 0, daylight: 0.05)\n' >"$OUT/rules.ron"
GAME_LOG=$OUT/night.log
start_game "$OUT/cwd" play --load "$OUT/meadow.strata"
wait_for "music: " 1 20 || fail "no music at night"
grep -q "music: Night" "$GAME_LOG" || fail "not the night's piece at night: $(grep 'music: ' "$GAME_LOG" | head -n 1)"
step "at night: $(grep -o 'music: .*' "$GAME_LOG" | head -n 1)"
stop_game

# 6. No ALSA library at all: the library's file replaced by /dev/null for these runs.
lib=$(python3 -c 'import ctypes.util; print(ctypes.util.find_library("asound") or "")')
path=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')
if [ -n "$path" ] && [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
  real=$(readlink -f "$path")
  GAME_LOG=$OUT/nolib.log
  unshare -m bash -c "mount --bind /dev/null '$real' &&
    '$BIN' gen --preset default --seed 3 --size 400x200 --stats >'$OUT/gen.json' &&
    cd '$OUT/cwd' && exec timeout 120 '$BIN' play --load '$OUT/meadow.strata' --frames 30" >"$GAME_LOG" 2>&1 ||
    fail "with no ALSA library, gen or play --frames 30 failed"
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$OUT/gen.json" || fail "gen wrote no stats without the library"
  grep -q "sound off: no ALSA library" "$GAME_LOG" || fail "the game did not say the sound is off"
  [ "$(grep -c "sound off" "$GAME_LOG")" = 1 ] || fail "more than one line about the missing sound"
  step "no ALSA library: gen ran, play ran 30 frames: $(grep "sound off" "$GAME_LOG" | sed 's/^.*sound off/sound off/')"
else
  echo "no ALSA library found, or not root: the missing-library check was skipped"
fi

echo "sound window test passed in $(($(date +%s) - start)) s"
rm -rf "$OUT"
