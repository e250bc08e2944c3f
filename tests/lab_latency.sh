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
BIN=${STRATA_BIN:-${CARGO_TARGET_DIR:-target}/release/strata}
case "$BIN" in /*) ;; *) BIN="$ROOT/$BIN" ;; esac
PRESET=${1:-large}
MOVES=${2:-12}
DISPLAY_NUM=${STRATA_TEST_DISPLAY:-:97}
OUT=$(mktemp -d /tmp/strata-lab-latency.XXXXXX)
export STRATA_HOME=$OUT/home
export RUST_LOG=strata=debug
Xvfb "$DISPLAY_NUM" -screen 0 1280x720x24 +extension GLX -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
GAME_PID=""
trap 'kill $GAME_PID $XVFB_PID 2>/dev/null || true' EXIT
export DISPLAY=$DISPLAY_NUM
for _ in $(seq 100); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done
"$BIN" play --preset "$PRESET" --seed 5 >"$OUT/game.log" 2>&1 &
GAME_PID=$!
WIN=$(timeout 30 xdotool search --sync --name '^Strata$' | head -n1)
for _ in $(seq 300); do grep -q "on screen" "$OUT/game.log" && break; sleep 0.1; done
eval "$(xdotool getwindowgeometry --shell "$WIN")"
xdotool mousemove $((X + 300)) $((Y + 300)); sleep 0.3
xdotool key F2; sleep 1
for i in $(seq "$MOVES"); do
  n=$(grep -c "lab world" "$OUT/game.log" || true)
  # The persistence row's track (see tests/window_lab.sh), at 60% and 80% of it in turn.
  xdotool mousemove $((X + 820 + 184 + 83 + (i % 2) * 28)) $((Y + 82 + 8 * 19 + 9)) click 1
  for _ in $(seq 100); do [ "$(grep -c "lab world" "$OUT/game.log" || true)" -gt "$n" ] && break; sleep 0.1; done
  sleep 0.5
done
grep "on screen" "$OUT/game.log" | tail -n "$MOVES" |
  sed -n 's/.*on screen \([0-9]*\) ms after the request.*/\1/p' | sort -n >"$OUT/ms"
echo "request -> on screen, ms (sorted): $(tr '\n' ' ' <"$OUT/ms")"
echo "median: $(awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' "$OUT/ms") ms over $(wc -l <"$OUT/ms") moves"
grep "on screen" "$OUT/game.log" | tail -n 3
