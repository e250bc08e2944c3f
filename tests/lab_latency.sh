#!/usr/bin/env bash
# Measures the world lab's slider → screen time on a preset (default: large): opens the
# lab under Xvfb, clicks the surface's persistence slider at alternating places N times, and prints
# the game's own figures for each move: request → new world on screen (worker start to
# swap), and the ready time inside it. Not part of CI (timings belong in BENCHMARKS.md).
#
#   tests/lab_latency.sh [PRESET] [MOVES]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="lab latency"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
PRESET=${1:-large}
MOVES=${2:-12}
OUT=$(mktemp -d /tmp/strata-lab-latency.XXXXXX)
GAME_LOG=$OUT/game.log
export STRATA_HOME=$OUT/home
export RUST_LOG=strata=debug
need_tools Xvfb xdotool
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:97}" 1280x720 "$OUT/xvfb.log"
start_game "$ROOT" play --preset "$PRESET" --seed 5
game_window 30
wait_for "on screen" 1 30 || fail "no world on screen within 30 s"
xdotool mousemove $((X + 300)) $((Y + 300)); sleep 0.3
xdotool key F2; sleep 1
for i in $(seq "$MOVES"); do
  n=$(grep -c "lab world" "$OUT/game.log" || true)
  # The persistence row's track (see tests/window_lab.sh), at 60% and 80% of it in turn.
  xdotool mousemove $((X + 820 + 184 + 83 + (i % 2) * 28)) $((Y + 82 + 8 * 19 + 9)) click 1
  wait_for "lab world" $((n + 1)) 10 || true
  sleep 0.5
done
# Only the worlds' own lines: each move also logs a `lab world .. on screen` line.
grep "on screen [0-9]* ms after the request" "$OUT/game.log" | tail -n "$MOVES" |
  sed -n 's/.*on screen \([0-9]*\) ms after the request.*/\1/p' | sort -n >"$OUT/ms"
echo "request -> on screen, ms (sorted): $(tr '\n' ' ' <"$OUT/ms")"
echo "median: $(awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' "$OUT/ms") ms over $(wc -l <"$OUT/ms") moves"
grep "on screen" "$OUT/game.log" | tail -n 3
