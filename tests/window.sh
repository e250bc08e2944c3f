#!/usr/bin/env bash
# The window test: starts the real game under Xvfb, waits for its window, takes a
# screenshot, presses R as a player would (a real X key event), waits for the new world,
# takes another screenshot, and checks that the picture changed and the game is still
# running. Then checks `--frames N --screenshot PATH` writes a PNG and exits 0.
#
#   tests/window.sh            # needs: Xvfb xdotool xwd (x11-apps) netpbm, a release build
#
# Debian: apt-get install -y xvfb xdotool x11-apps netpbm libgl1 libgl1-mesa-dri libxi6 libxkbcommon0
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${STRATA_BIN:-${CARGO_TARGET_DIR:-target}/release/strata}
DISPLAY_NUM=${STRATA_TEST_DISPLAY:-:99}
OUT=$(mktemp -d /tmp/strata-window.XXXXXX)
GAME_PID=""
XVFB_PID=""

fail() { echo "window test FAILED: $*" >&2; [ -f "$OUT/game.log" ] && sed 's/^/  game: /' "$OUT/game.log" >&2; exit 1; }
cleanup() {
  if [ -n "$GAME_PID" ]; then kill "$GAME_PID" 2>/dev/null || true; fi
  if [ -n "$XVFB_PID" ]; then kill "$XVFB_PID" 2>/dev/null || true; wait "$XVFB_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT

for tool in Xvfb xdotool xwd xwdtopnm pnmtopng cmp; do
  command -v "$tool" >/dev/null || fail "$tool is not installed"
done
[ -x "$BIN" ] || fail "$BIN not found: run cargo build --release first"

Xvfb "$DISPLAY_NUM" -screen 0 1280x720x24 +extension GLX -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
export DISPLAY=$DISPLAY_NUM
ready=""
for _ in $(seq 200); do
  kill -0 "$XVFB_PID" 2>/dev/null || fail "Xvfb exited (is $DISPLAY_NUM in use?): $(tail -n 3 "$OUT/xvfb.log")"
  if xdotool getmouselocation >/dev/null 2>&1; then ready=1; break; fi
  sleep 0.1
done
[ -n "$ready" ] || fail "Xvfb did not accept connections within 20 s"

shot() { xwd -root -silent -display "$DISPLAY_NUM" | xwdtopnm 2>/dev/null | pnmtopng >"$1"; }
alive() { kill -0 "$GAME_PID" 2>/dev/null; }

# A freshly started Xvfb on a busy machine now and then refuses a connection it accepted a
# moment before; a game that could not open the display is started again (three tries).
for try in 1 2 3; do
  "$BIN" play --preset config/presets/classic.ron --seed 1 >"$OUT/game.log" 2>&1 &
  GAME_PID=$!
  sleep 1
  if alive || ! grep -q "XOpenDisplay" "$OUT/game.log"; then break; fi
  echo "the game could not open $DISPLAY_NUM (try $try), starting it again"
  sleep 1
done

WIN=$(timeout 20 xdotool search --sync --name '^Strata$' | head -n1) || fail "no window named Strata within 20 s"
echo "window $WIN"
# Wait for the first world (the game logs when a world reaches the screen).
for _ in $(seq 100); do grep -q "on screen" "$OUT/game.log" && break; alive || fail "game exited early"; sleep 0.1; done
grep -q "on screen" "$OUT/game.log" || fail "no world on screen within 10 s"
sleep 0.5
shot "$OUT/before.png"

# A real key press through XTEST, as a player's keyboard would send it: without a window
# manager the keyboard follows the pointer, so put the pointer on the window first.
xdotool windowfocus "$WIN" 2>/dev/null || true
eval "$(xdotool getwindowgeometry --shell "$WIN")"
xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2))
sleep 0.2
xdotool key r
for _ in $(seq 100); do [ "$(grep -c "on screen" "$OUT/game.log")" -ge 2 ] && break; alive || fail "game died after R"; sleep 0.1; done
[ "$(grep -c "on screen" "$OUT/game.log")" -ge 2 ] || fail "R did not bring a new world within 10 s"
sleep 0.5
shot "$OUT/after.png"

alive || fail "game is not running after R"
if cmp -s "$OUT/before.png" "$OUT/after.png"; then fail "the picture did not change after R"; fi
echo "R changed the picture: $(md5sum "$OUT/before.png" | cut -c1-8) -> $(md5sum "$OUT/after.png" | cut -c1-8)"

# Without a window manager there is no close button to press: end the game the way a
# session ends it. It must still be running here (a crash would have ended it already).
kill -TERM "$GAME_PID"
for _ in $(seq 50); do alive || break; sleep 0.1; done
if alive; then kill -KILL "$GAME_PID"; fail "the game ignored SIGTERM"; fi
grep -q "panicked" "$OUT/game.log" && fail "the game panicked"
GAME_PID=""

# --frames/--screenshot: render, write the PNG, exit 0.
for try in 1 2 3; do
  rc=0
  timeout 60 "$BIN" play --preset config/presets/classic.ron --seed 2 --frames 10 --screenshot "$OUT/frames.png" \
    >"$OUT/frames.log" 2>&1 || rc=$?
  if [ $rc = 0 ] || ! grep -q "XOpenDisplay" "$OUT/frames.log"; then break; fi
  sleep 1
done
[ $rc = 0 ] || { sed 's/^/  frames: /' "$OUT/frames.log" >&2; fail "--frames run exited with $rc"; }
[ "$(head -c 8 "$OUT/frames.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "--screenshot wrote no PNG"

echo "window test passed (pictures in $OUT)"
