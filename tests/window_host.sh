#!/usr/bin/env bash
# The hosting window test: a real game window plays a world (800x400, seed 9) and opens
# it to the network from the pause menu with real keys (Esc, 6: Open to the network; the
# port field emptied and 127.0.0.1:PORT typed; Enter). Then `strata bots --join` plays in
# it for 5 s (walking, digging, placing) and prints its view's world hash; the window must
# list the bot as joined and left, and the world hash it logs when the bot leaves must be
# the bot's. The pause menu must say "Hosting on port PORT" while open (a screenshot is
# kept), and Close to the network (6 again) must close it with the world still on screen.
# Bounded: every wait has a time limit; the game and the display end when it exits.
#
#   tests/window_host.sh      # needs: Xvfb xdotool xwd (x11-apps) netpbm, a release build
#   STRATA_TEST_DISPLAY=:62 STRATA_TEST_PORT=17850 tests/window_host.sh
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="hosting window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window-host.XXXXXX)
export STRATA_HOME=$OUT
export RUST_LOG=strata=debug
mkdir -p "$OUT/cwd"
need_tools Xvfb xdotool xwd xwdtopnm pnmtopng
release_bin

D=${STRATA_TEST_DISPLAY:-:97}
PORT=${STRATA_TEST_PORT:-$((20000 + $$ % 20000))}
# No creatures: nothing but the players changes the world or hurts them meanwhile.
echo "(creature_cap: 0)" >"$OUT/calm.ron"
export STRATA_RULES="$OUT/calm.ron"

"$BIN" gen --preset default --seed 9 --size 800x400 --save "$OUT/world.strata" >/dev/null ||
  fail "strata gen could not make the world"
start_xvfb "$D" 1280x720 "$OUT/xvfb.log"
GAME_LOG=$OUT/host.log
start_game "$OUT/cwd" play --load "$OUT/world.strata"
game_window 30
wait_for "on screen" 1 60 || fail "the world never came on screen"
xdotool mousemove $((X + WIDTH / 2)) $((Y + 40))
sleep 2

# The pause menu's Open to the network, its form filled in with keys.
press() { for k in "$@"; do xdotool key "$k"; sleep 0.3; done; }
press Escape 6
wait_for "form: Open to the network" 1 5 || fail "Esc, 6 did not open the form: $(grep menu "$GAME_LOG" | tail -n 3)"
press BackSpace BackSpace BackSpace BackSpace
xdotool type --delay 60 "127.0.0.1:$PORT"
sleep 0.3
shot "$OUT/form.png"
press Return
wait_for "open to the network on 127.0.0.1:$PORT as Host" 1 30 ||
  fail "the world was not opened to the network: $(grep -i "network" "$GAME_LOG" | tail -n 3)"
opened=$(grep "open to the network on" "$GAME_LOG" | tail -n 1 | sed 's/^.*open to/open to/')
echo "$opened"
press Escape
shot "$OUT/hosting.png"
echo "the pause menu while open: $OUT/hosting.png"
press Escape

# A bot joins, plays, and says what its world hashes as.
timeout 90 "$BIN" bots --join "127.0.0.1:$PORT" --count 1 --seconds 5 >"$OUT/bots.txt" 2>"$OUT/bots.log" &
BOTS_PID=$!
wait_for "chat: bot1 joined" 1 30 || fail "the window never heard bot1 join: $(tail -n 5 "$OUT/bots.log")"
sleep 3
shot "$OUT/with-bot.png"
echo "the window with the bot: $OUT/with-bot.png"
wait "$BOTS_PID" || fail "the bot did not play to the end: $(cat "$OUT/bots.txt") $(tail -n 5 "$OUT/bots.log")"
echo "bot: $(cat "$OUT/bots.txt")"
bot_hash=$(awk '{ print $3 }' "$OUT/bots.txt")
wait_for "hosting: bot1 left; world hash" 1 20 || fail "the window never heard bot1 leave"
host_hash=$(grep "hosting: bot1 left; world hash" "$GAME_LOG" | tail -n 1 | awk '{ print $NF }')
grep -q "chat: bot1 left" "$GAME_LOG" || fail "the chat did not say bot1 left"
[ "$bot_hash" = "$host_hash" ] || fail "the bot's world hash $bot_hash is not the window's $host_hash"
echo "the bot's world hash is the window's: $host_hash"

# Close to the network: the world stays on screen, and the window plays on.
press Escape 6
wait_for "closed to the network" 1 10 || fail "Close to the network did not close it"
press Escape
sleep 1
shot "$OUT/closed.png"
alive || fail "the game died after closing to the network"
echo "$(grep "closed to the network" "$GAME_LOG" | tail -n 1 | sed 's/^.*closed/closed/')"
echo "hosting window test passed ($OUT)"
