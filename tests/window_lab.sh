#!/usr/bin/env bash
# The world lab's window test: starts the real game under Xvfb, opens the lab (F2), moves
# the surface's persistence slider with a real mouse click, checks a different world comes up with
# the same seed (the game logs `seed N ... hash H` for every world it puts on screen),
# saves the tuned preset (Ctrl+S, a typed name, Enter) into $STRATA_HOME/presets, closes
# the lab, picks the saved preset in the preset menu (P, 1) and checks the world is the one
# that was on screen (same seed, same hash).
#
#   tests/window_lab.sh        # needs: Xvfb xdotool xwd (x11-apps) netpbm, a release build
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="lab window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window-lab.XXXXXX)
GAME_LOG=$OUT/game.log
export STRATA_HOME=$OUT/home
# The lines this test reads: the lab's requests, saved presets, worlds on screen.
export RUST_LOG=strata=debug

need_tools Xvfb xdotool xwd xwdtopnm pnmtopng cmp
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:98}" 1280x720 "$OUT/xvfb.log"

worlds() { grep -c "on screen .* hash " "$OUT/game.log" || true; }
# `seed N` and `hash H` of the latest world on screen.
last_world() { grep "on screen .* hash " "$OUT/game.log" | tail -n 1 | awk '{ print $3, $NF }'; }
# A key with its modifier held across a frame (a quick xdotool chord can fall within one).
chord() { xdotool keydown "$1"; sleep 0.15; xdotool key "$2"; sleep 0.15; xdotool keyup "$1"; }
slow_keys() { for k in "$@"; do xdotool key "$k"; sleep 0.08; done; }

mkdir -p "$OUT/cwd"
start_game "$OUT/cwd" play --preset classic --seed 31
game_window 20
wait_for "on screen" 1 20 || fail "no world on screen within 20 s"
read -r seed0 hash0 <<<"$(last_world)"
xdotool windowfocus "$WIN" 2>/dev/null || true
xdotool mousemove $((X + 300)) $((Y + 300))
sleep 0.3

# Open the lab and move the surface's persistence slider to three quarters of its track.
xdotool key F2
sleep 0.8
shot "$OUT/lab-open.png"
n=$(worlds)
# The panel is 460 px wide at 1280x720; its rows start 82 px down, 19 px apart; the
# persistence row is row 8 (size, width, height, surface, base_height, amplitude,
# frequency, octaves before it); its track runs from 40% to 70% of the panel's width.
xdotool mousemove $((X + 820 + 184 + 104)) $((Y + 82 + 8 * 19 + 9))
sleep 0.2
xdotool click 1
wait_for "lab asks for seed" 1 10 || fail "moving the slider asked for no world"
grep "lab asks for seed" "$OUT/game.log" | tail -n 1
wait_for "on screen .* hash " $((n + 1)) 30 || fail "no new world after the slider moved"
read -r seed1 hash1 <<<"$(last_world)"
sleep 0.5
shot "$OUT/lab-moved.png"
[ "$seed1" = "$seed0" ] || fail "the lab's world has seed $seed1, not the seed on screen $seed0"
[ "$hash1" != "$hash0" ] || fail "the slider did not change the world (hash $hash1)"
cmp -s "$OUT/lab-open.png" "$OUT/lab-moved.png" && fail "the picture did not change after the slider moved"
echo "slider: seed $seed0, world $hash0 -> $hash1"

# Save as preset: Ctrl+S opens the name box (filled with a name to start from).
chord ctrl s
sleep 0.3
slow_keys $(for _ in $(seq 24); do echo BackSpace; done)
xdotool type --delay 60 "Lab test"
sleep 0.2
xdotool key Return
wait_for "saved preset" 1 10 || fail "the lab saved no preset"
saved=$(grep "saved preset" "$OUT/game.log" | tail -n 1 | sed 's/^strata: saved preset //')
[ "$saved" = "$STRATA_HOME/presets/lab_test.ron" ] || fail "the preset went to $saved, not \$STRATA_HOME/presets/lab_test.ron"
head -n 1 "$saved" | grep -q "^// Lab test: " || fail "the saved preset does not open with its name: $(head -n 1 "$saved")"
grep -q "persistence: 0.75," "$saved" || fail "the saved preset does not have the slider's persistence: $(grep persistence "$saved")"
echo "saved $saved"

# Close the lab, pick the saved preset in the menu (the player's presets come first).
xdotool key F2
sleep 0.3
n=$(worlds)
xdotool key p
sleep 0.5
shot "$OUT/menu.png"
xdotool key 1
wait_for "on screen .* hash " $((n + 1)) 30 || fail "picking the saved preset made no world"
read -r seed2 hash2 <<<"$(last_world)"
[ "$seed2" = "$seed1" ] && [ "$hash2" = "$hash1" ] || fail "the saved preset made seed $seed2 hash $hash2, not the lab's seed $seed1 hash $hash1"
grep "on screen .* hash " "$OUT/game.log" | tail -n 1 | grep -q "(Lab test)" || fail "the world on screen is not the saved preset's"
alive || fail "the game is not running"
grep -q "panicked" "$OUT/game.log" && fail "the game panicked"
echo "lab window test passed: the saved preset gives world $hash2 again (pictures in $OUT)"
