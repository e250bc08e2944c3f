#!/usr/bin/env bash
# The refused display's window test: the game opens its window through a stand-in X server
# (tests/x_proxy.py) that passes connections to a real Xvfb but drops the ones it is told
# to, as a loaded X server now and then drops a handshake. The game asks X once before it
# makes its window (cli::check_display), then the window library connects again:
#   - the window library's first connection dropped: the game opens the window at the next
#     try and exits 0 after its frames, where it panicked in XOpenDisplay (exit 101);
#   - every one of the game's tries before its window dropped: one line and exit 1;
#   - every connection of the window library dropped: one line and exit 1, never a panic.
#
#   tests/window_display.sh    # needs: Xvfb xdotool python3, a release build
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="refused display window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window-display.XXXXXX)
GAME_LOG=$OUT/game.log
export STRATA_HOME=$OUT/home
mkdir -p "$OUT/cwd"

need_tools Xvfb xdotool python3
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:97}" 640x480 "$OUT/xvfb.log"
REAL=${DISPLAY#:}
REAL=${REAL%%.*}
PROXY=$((REAL + 500))
PROXY_PID=""
stop_proxy() { if [ -n "$PROXY_PID" ]; then kill "$PROXY_PID" 2>/dev/null || true; wait "$PROXY_PID" 2>/dev/null || true; fi; PROXY_PID=""; }
trap 'stop_proxy; cleanup' EXIT

# play_through REFUSE...: runs `play --frames 2` on the stand-in display that drops the
# connections numbered REFUSE; STATUS is its exit status, $OUT/proxy.log what it saw.
play_through() {
  stop_proxy
  : >"$OUT/proxy.log"
  python3 "$ROOT/tests/x_proxy.py" "$PROXY" "$REAL" "$OUT/proxy.log" "$@" &
  PROXY_PID=$!
  local _
  for _ in $(seq 50); do grep -q listening "$OUT/proxy.log" && break; sleep 0.1; done
  grep -q listening "$OUT/proxy.log" || fail "the stand-in X server did not start"
  STATUS=0
  (cd "$OUT/cwd" && DISPLAY=:$PROXY timeout 60 "$BIN" play --preset classic --seed 3 --frames 2) \
    >"$GAME_LOG" 2>&1 || STATUS=$?
}

# The game's connections: 1 the socket's check, 2 X's check, 3 and on the window library.
play_through 3
[ "$STATUS" = 0 ] || fail "exit $STATUS with the window library's first connection dropped"
grep -q "3 refused" "$OUT/proxy.log" || fail "connection 3 was not dropped: $(cat "$OUT/proxy.log")"
grep -q "4 passed" "$OUT/proxy.log" || fail "the window library did not try again"
grep -q panicked "$GAME_LOG" && fail "a panic was printed"
echo "ok: a dropped connection is tried again and the game runs"

play_through 2 3 4 5 6
[ "$STATUS" = 1 ] || fail "exit $STATUS with X's checks all dropped"
[ "$(wc -l <"$GAME_LOG")" = 1 ] || fail "more than one line"
grep -q "X did not open display :$PROXY (5 tries)" "$GAME_LOG" || fail "the line does not say why"
echo "ok: a display that drops every try is one line: $(cat "$GAME_LOG")"

play_through 3 4 5 6 7 8
[ "$STATUS" = 1 ] || fail "exit $STATUS with the window library's connections all dropped"
[ "$(wc -l <"$GAME_LOG")" = 1 ] || fail "more than one line"
grep -q "the game window did not open on display :$PROXY: X refused the connection (3 tries)" "$GAME_LOG" ||
  fail "the line does not say why"
echo "ok: a window library refused every time is one line: $(cat "$GAME_LOG")"
echo "refused display window test passed"
