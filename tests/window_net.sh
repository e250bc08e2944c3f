#!/usr/bin/env bash
# The network window test: a `strata serve` on 127.0.0.1 and two real game windows, each
# on its own Xvfb display, joined to it with `strata play --join` (Ann and Bo). Both must
# show the server's world (`on screen`) and list each other (`chat: .. joined`); then Ann
# digs the tile under her feet with a held left click, and Bo's window must take that tile
# from the server (`server tile X Y: air`, the tile under Ann's feet) within 10 s, and show
# Ann over her head (a screenshot of Bo's window is kept). Then Ann crafts in her inventory
# screen (I, Enter: the first row, from the wood and gel the rules give a joining player):
# the server must do the craft for her (its log's `player N: crafted NAME`, the name her
# window crafted), and her character kept when the server stops must carry it. Bounded:
# every wait has a time limit, and the server, both games and both displays are ended
# when it exits.
#
#   tests/window_net.sh      # needs: Xvfb xdotool xwd (x11-apps) netpbm, a release build
#   STRATA_TEST_DISPLAY=:52 STRATA_TEST_DISPLAY2=:62 tests/window_net.sh
#   STRATA_TEST_DISPLAY=:61 STRATA_TEST_DISPLAY2=:61 STRATA_TEST_PORT=17701 tests/window_net.sh
#     (one display number: one Xvfb with two screens, Bo's window on the second)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="network window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window-net.XXXXXX)
export STRATA_HOME=$OUT
export RUST_LOG=strata=debug
mkdir -p "$OUT/cwd"
need_tools Xvfb xdotool xwd xwdtopnm pnmtopng
release_bin

# The second display and game, and the server, are this script's own (xvfb.sh keeps one
# of each); all end with it.
SERVER_PID=""
XVFB2_PID=""
GAME2_PID=""
end_all() {
  cleanup
  for p in "$GAME2_PID" "$SERVER_PID" "$XVFB2_PID"; do
    if [ -n "$p" ]; then kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; fi
  done
}
trap end_all EXIT

D1=${STRATA_TEST_DISPLAY:-:97}
D2=${STRATA_TEST_DISPLAY2:-:98}
PORT=${STRATA_TEST_PORT:-$((20000 + $$ % 20000))}
# The server and both windows play by these rules: no creatures (a slime's touch throws the
# player off the tile being dug).
# A joining player carries wood and gel (to craft with).
echo '(creature_cap: 0, start_items: [("wood", 20), ("gel", 5)])' >"$OUT/calm.ron"
export STRATA_RULES="$OUT/calm.ron"

"$BIN" serve --preset default --seed 9 --size 800x400 --bind 127.0.0.1 --port "$PORT" \
  --motd "welcome to the test" --save "$OUT/served.strata" --seconds 170 --spawn-protection 0 \
  >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 300); do
  grep -q "serving a" "$OUT/server.log" 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$OUT/server.log" >&2; fail "strata serve exited"; }
  sleep 0.1
done
grep -q "serving a" "$OUT/server.log" || { cat "$OUT/server.log" >&2; fail "strata serve never said it was listening"; }

# Bo's display and window first (xvfb.sh's helpers then serve Ann's). Given one display
# number for both, one Xvfb has two screens: Ann's the first, Bo's the second.
if [ "$D2" = "$D1" ]; then
  if DISPLAY=$D1 xdotool getmouselocation >/dev/null 2>&1; then fail "$D1 is in use: an X server answers there"; fi
  Xvfb "$D1" -screen 0 1280x720x24 -screen 1 1280x720x24 +extension GLX -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
  XVFB2_PID=$!
  up=""
  for _ in $(seq 200); do
    kill -0 "$XVFB2_PID" 2>/dev/null || fail "Xvfb exited (is $D1 in use?): $(tail -n 3 "$OUT/xvfb.log")"
    if DISPLAY=$D1.1 xdotool getmouselocation >/dev/null 2>&1; then up=yes; break; fi
    sleep 0.1
  done
  [ -n "$up" ] || fail "Xvfb did not accept connections within 20 s"
  BO_DISPLAY=$D1.1
  export DISPLAY=$D1.0
else
  start_xvfb "$D2" 1280x720 "$OUT/xvfb2.log"
  XVFB2_PID=$XVFB_PID
  BO_DISPLAY=$D2
fi
BO_LOG=$OUT/bo.log
(cd "$OUT/cwd" && DISPLAY=$BO_DISPLAY exec "$BIN" play --join "127.0.0.1:$PORT" --name Bo --password b) >"$BO_LOG" 2>&1 &
GAME2_PID=$!
XVFB_PID=""
[ "$D2" = "$D1" ] || start_xvfb "$D1" 1280x720 "$OUT/xvfb.log"
GAME_LOG=$OUT/ann.log
start_game "$OUT/cwd" play --join "127.0.0.1:$PORT" --name Ann --password a
if [ "$D2" = "$D1" ]; then
  # Both windows are on one X server: Ann's is found by her game's process.
  WIN=$(timeout 30 xdotool search --sync --pid "$GAME_PID" --name '^Strata$' | head -n1) ||
    fail "no window of Ann's named Strata within 30 s"
  eval "$(xdotool getwindowgeometry --shell "$WIN")"
else
  game_window 30
fi
wait_for "on screen" 1 90 || fail "Ann's window never showed the server's world"
grep -q "joined 127.0.0.1:$PORT as Ann" "$GAME_LOG" || fail "Ann's log does not say she joined"
for _ in $(seq 900); do
  grep -q "on screen" "$BO_LOG" && break
  kill -0 "$GAME2_PID" 2>/dev/null || fail "Bo's game exited: $(tail -n 20 "$BO_LOG")"
  sleep 0.1
done
grep -q "on screen" "$BO_LOG" || fail "Bo's window never showed the server's world: $(tail -n 20 "$BO_LOG")"
echo "both windows show the server's world"
wait_for "chat: welcome to the test" 1 10 || fail "Ann never saw the message of the day"
# Whoever joined first hears of the other: Bo's game starts first but either may connect
# first on a busy machine.
heard() { grep -q "chat: Ann joined" "$BO_LOG" || grep -q "chat: Bo joined" "$GAME_LOG"; }
for _ in $(seq 100); do heard && break; sleep 0.1; done
heard || fail "neither chat said the other joined: Bo's $(grep chat: "$BO_LOG"); Ann's $(grep chat: "$GAME_LOG")"

# Ann lands, then digs under her feet.
last_pos() { grep "player at" "$GAME_LOG" | tail -n 1; }
wait_for "player at" 1 20 || fail "Ann's window logs no position"
sleep 3
read -r px py sx sy zoom < <(last_pos | awk '{ print $4, $5, $7, $8, $10 }')
tx=$(awk -v p="$px" 'BEGIN { print int(p) }')
ty=$(awk -v p="$py" 'BEGIN { print int(p + 0.01) }')
mx=$(awk -v ox="$X" -v sx="$sx" -v p="$px" -v z="$zoom" 'BEGIN { printf "%d", ox + sx + (int(p) + 0.5 - p) * z }')
my=$(awk -v oy="$Y" -v sy="$sy" -v z="$zoom" 'BEGIN { printf "%d", oy + sy + z / 2 }')
echo "Ann stands at $px $py: digging tile $tx $ty at screen $mx $my"
xdotool mousemove "$mx" "$my"
sleep 0.3
xdotool mousedown 1
dug=""
for _ in $(seq 100); do
  if grep -q "server tile $tx $ty: air" "$BO_LOG"; then dug=yes; break; fi
  sleep 0.1
done
xdotool mouseup 1
[ -n "$dug" ] || fail "Bo's window never took Ann's dig at $tx $ty from the server: $(grep "server tile" "$BO_LOG" | tail -n 5)"
# Ann's own window takes it from the server too (in the same tick as Bo's, but it may
# draw a frame later).
for _ in $(seq 50); do grep -q "server tile $tx $ty: air" "$GAME_LOG" && break; sleep 0.1; done
grep -q "server tile $tx $ty: air" "$GAME_LOG" || fail "Ann's own window did not show her dig at $tx $ty"
echo "Ann's dig at $tx $ty is in Bo's window: $(grep "server tile $tx $ty" "$BO_LOG" | head -n 1 | sed 's/^.*server/server/')"
xwd -root -silent -display "$BO_DISPLAY" | xwdtopnm 2>/dev/null | pnmtopng >"$OUT/bo.png"
echo "Bo's window: $OUT/bo.png"
kill -0 "$SERVER_PID" 2>/dev/null || fail "the server died: $(tail -n 20 "$OUT/server.log")"

# Ann crafts the inventory screen's first row; the server does it. (Her window takes the
# keys: on one X server with Bo's, it may not have them.)
xdotool windowfocus "$WIN" 2>/dev/null || true
sleep 0.2
xdotool key i
wait_for "crafting panel:" 1 10 || fail "Ann's inventory screen never opened"
sleep 0.3
xdotool key Return
made=""
for _ in $(seq 100); do
  made=$(grep -oE "player [0-9]+: crafted [a-z_]+" "$OUT/server.log" | head -n 1 | awk '{ print $4 }') || true
  [ -n "$made" ] && break
  sleep 0.1
done
[ -n "$made" ] || fail "the server never crafted for Ann: her window's $(grep -E "crafted|crafting panel" "$GAME_LOG" | tail -n 3)"
grep -q "crafted $made " "$GAME_LOG" || fail "Ann's window did not craft $made: $(grep crafted "$GAME_LOG" | tail -n 3)"
sleep 0.5
shot "$OUT/ann-inventory.png"
echo "the server crafted $made for Ann (her inventory screen: $OUT/ann-inventory.png)"
xdotool key i
# Stopped, the server keeps Ann's character: it carries what she crafted.
kill -TERM "$SERVER_PID"
for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$SERVER_PID" 2>/dev/null && fail "the server did not stop on SIGTERM"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
ANN_FILE=$(grep -l '"Ann"' "$OUT"/served.strata.characters/* 2>/dev/null | head -n 1) || true
[ -n "$ANN_FILE" ] || fail "the server kept no character for Ann: $(ls "$OUT"/served.strata.characters 2>&1)"
grep -q "\"$made\"" "$ANN_FILE" || fail "Ann's kept character lacks the $made she crafted: $(cat "$ANN_FILE")"
echo "Ann's kept character carries her $made"
echo "network window test passed ($OUT)"
