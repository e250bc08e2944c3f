#!/usr/bin/env bash
# The memory window test: the game's peak memory (VmHWM, as the kernel counts it) with
# decorations on screen, under Xvfb.
#
# 1. A 64x48 world that is all leaves above eight rows of stone (3,072 decorations on
#    screen), 3 s after it is on screen: at most LEAVES_MB (300) MB. Each decoration used to cost two
#    macroquad draw calls, each with buffers of its own kept for good: 5.7 GB here.
# 2. A Large world (config/presets/large.ron, seed 42) with the sky around the spawn filled
#    with tree trunks, leaves and torches and a row of chests and torches on the ground,
#    played for PLAY_SECONDS (120): walking both ways, jumping, zooming out through the
#    widest view that draws the tile pictures and back, the overlay, the inventory, the
#    minimap and the help screen, torches placed: at most LARGE_MB (600) MB.
#
#   tests/window_memory.sh     # needs: Xvfb xdotool python3, a release build
#   STRATA_TEST_DISPLAY=:N     # the X display to use (default :98)
#   PLAY_SECONDS=30            # a shorter play
#   KEEP=1                     # keep the scratch folder (its screenshots large.png, playing.png)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="memory window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-memory.XXXXXX)
GAME_LOG=$OUT/game.log
export STRATA_HOME=$OUT
# No creatures: a slime's touch would throw the walking player about.
echo "(creature_cap: 0)" >"$OUT/calm.ron"
export STRATA_RULES="$OUT/calm.ron"
LEAVES_MB=${LEAVES_MB:-300}
LARGE_MB=${LARGE_MB:-600}
PLAY_SECONDS=${PLAY_SECONDS:-120}

need_tools Xvfb xdotool python3
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:98}" 1280x720 "$OUT/xvfb.log"

# Peak memory of the game under test in MB (the game must be running).
peak_mb() { awk '/^VmHWM:/ { print int($2 / 1024) }' "/proc/$GAME_PID/status"; }
# The lines this test waits for ("on screen" when a world is shown).
export RUST_LOG=strata=debug

# --- 1. The leaves world.
python3 -c "print(('%'*64+'\n')*40+('#'*64+'\n')*8,end='')" >"$OUT/leaves.txt"
"$BIN" gen --from-ascii "$OUT/leaves.txt" --save "$OUT/leaves.strata" >/dev/null ||
  fail "gen --from-ascii refused the leaves world"
start_game "$OUT" play --load "$OUT/leaves.strata"
wait_for "on screen" 1 30 || fail "the leaves world was not on screen within 30 s"
sleep 3
leaves=$(peak_mb)
stop_game
echo "leaves world (3,072 leaves on screen), 3 s: peak $leaves MB"
[ "$leaves" -le "$LEAVES_MB" ] || fail "the leaves world peaked at $leaves MB (at most $LEAVES_MB)"

# --- 2. Large, with trees, torches and chests around the spawn.
"$BIN" gen --preset "$ROOT/config/presets/large.ron" --seed 42 --ascii "$OUT/large.txt" >/dev/null
python3 - "$OUT/large.txt" <<'EOF'
import sys
path = sys.argv[1]
rows = [list(r) for r in open(path).read().split("\n") if r]
width, mid = len(rows[0]), len(rows[0]) // 2
for x in range(mid - 300, mid + 300):
    # The ground: the first tile from the top that is not air nor a tree.
    top = next(y for y in range(len(rows)) if rows[y][x] not in " |%")
    # A chest or a torch on every third column of the ground, headroom above it.
    if rows[top - 1][x] == " " and x % 3 != 1:
        rows[top - 1][x] = "C" if x % 3 == 0 else "t"
    for y in range(max(0, top - 90), top - 5):
        if rows[y][x] == " ":
            rows[y][x] = "|" if x % 7 == 0 else "t" if (x + y) % 11 == 0 else "%"
open(path, "w").write("\n".join("".join(r) for r in rows) + "\n")
EOF
"$BIN" gen --preset "$ROOT/config/presets/large.ron" --seed 42 --from-ascii "$OUT/large.txt" \
  --save "$OUT/large.strata" >/dev/null || fail "gen --from-ascii refused the Large world"
rm -f "$OUT/large.txt"
start_game "$OUT" play --load "$OUT/large.strata"
game_window 30
wait_for "on screen" 1 60 || fail "the Large world was not on screen within 60 s"
xdotool windowfocus "$WIN" 2>/dev/null || true
xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2))
sleep 1
echo "Large on screen: peak $(peak_mb) MB"
shot "$OUT/large.png"
end=$((SECONDS + PLAY_SECONDS))
round=0
while [ "$SECONDS" -lt "$end" ]; do
  round=$((round + 1))
  xdotool keydown d; sleep 2; xdotool keyup d
  xdotool key space; sleep 0.5
  xdotool keydown a; sleep 2; xdotool keyup a
  # Slot 3 holds the torches: place one beside the player.
  xdotool key 3 mousemove $((X + WIDTH / 2 + 40)) $((Y + HEIGHT / 2)) click 3
  # Out through the widest view that draws tile pictures, and back in.
  xdotool keydown minus; sleep 1.5; xdotool keyup minus
  xdotool keydown equal; sleep 1.5; xdotool keyup equal
  case $((round % 4)) in
    0) xdotool key F3; sleep 1; xdotool key F3 ;;
    1) xdotool key i; sleep 1; xdotool key i ;;
    2) xdotool key m; sleep 1 ;;
    3) xdotool key F1; sleep 1; xdotool key F1 ;;
  esac
  alive || fail "the game died while playing"
  [ "$round" -ne 2 ] || shot "$OUT/playing.png"
done
large=$(peak_mb)
stop_game
echo "Large with trees, torches and chests on screen, ${PLAY_SECONDS} s of play ($round rounds): peak $large MB"
[ "$large" -le "$LARGE_MB" ] || fail "Large peaked at $large MB after ${PLAY_SECONDS} s of play (at most $LARGE_MB)"
echo "memory window test passed"
[ -n "${KEEP:-}" ] || rm -rf "$OUT"
