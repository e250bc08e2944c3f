#!/usr/bin/env bash
# The night window test: a Large world (seed 42) at night, by a rules file whose days are
# almost all night, its last frame's screenshot read pixel by pixel. Unlit ground below the
# spawn (a band of the screen under the surface, above the hotbar) must be black, as it is
# by day: the night tints only what sunlight reaches (it used to tint the unlit rock navy).
# The night sky must still be tinted blue.
#
#   tests/window_night.sh      # needs: Xvfb xdotool pngtopnm (netpbm) python3, a release build
#   STRATA_TEST_DISPLAY=:N     # the X display to use (default :97)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="night window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-night.XXXXXX)
GAME_LOG=$OUT/game.log
export STRATA_HOME=$OUT
# Night from the first frame (07:12 of a day with 5% daylight), no creatures.
echo "(creature_cap: 0, daylight: 0.05)" >"$OUT/night.ron"
export STRATA_RULES="$OUT/night.ron"

need_tools Xvfb xdotool pngtopnm python3
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:97}" 1280x720 "$OUT/xvfb.log"

start_game "$OUT" play --preset "$ROOT/config/presets/large.ron" --seed 42 --frames 20 \
  --screenshot "$OUT/night.png"
rc=0
wait "$GAME_PID" || rc=$?
GAME_PID=""
[ "$rc" -eq 0 ] || fail "the game exited with $rc"
[ -s "$OUT/night.png" ] || fail "no screenshot"
pngtopnm "$OUT/night.png" >"$OUT/night.ppm"

PYTHONPATH=tests python3 - "$OUT/night.ppm" <<'EOF' || fail "see above (screenshot: $OUT/night.png)"
import sys
from ppm import read
w, h, pixels = read(sys.argv[1])
def px(x, y):
    i = (y * w + x) * 3
    return tuple(pixels[i:i + 3])
# The ground 230 to 260 px under the spawn's surface (the player stands at mid-height),
# under the overlay's legend and above the hotbar: sunlight never reaches it, day or night.
ground = [px(x, y) for x in range(300, 1000, 7) for y in range(590, 622, 4)]
blue = [p for p in ground if p != (0, 0, 0)]
if blue:
    print(f"{len(blue)} of {len(ground)} unlit ground pixels are not black, e.g. {blue[0]}")
    sys.exit(1)
# The sky to the right of the overlay: tinted blue.
sky = [px(x, y) for x in range(1250, 1280, 3) for y in range(60, 200, 10)]
tinted = [p for p in sky if p[2] > p[0] + 20]
if len(tinted) < len(sky) // 2:
    print(f"the night sky is not blue: {sky[:4]}")
    sys.exit(1)
print(f"unlit ground black ({len(ground)} pixels), night sky blue ({len(tinted)} of {len(sky)})")
EOF
echo "night window test passed"
rm -rf "$OUT"
