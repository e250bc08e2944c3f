#!/usr/bin/env bash
# The installed program test: `cargo install --path . --root SCRATCH/root`, then, from
# folders outside the repository with STRATA_HOME=SCRATCH/home (never the real home):
#   - `strata --version` is Cargo.toml's version;
#   - `strata gen --stats` and `strata gen --preset large --stats` make the default and the
#     Large world with no config/ folder anywhere near;
#   - `strata presets` lists every shipped preset (config/presets/*.ron) and the presets
#     folder in STRATA_HOME, and `--preset NAME` finds a preset put there;
#   - in a real window (Xvfb, xdotool), F5 in the game started from one folder writes a save
#     into STRATA_HOME/saves, and F9 in the game started from another folder loads it.
#
#   tests/install.sh     # needs: Xvfb xdotool (as tests/window.sh); cargo reuses the
#                        # release build in the target folder when there is one
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="install test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
SCRATCH=$(mktemp -d /tmp/strata-install.XXXXXX)
export STRATA_HOME=$SCRATCH/home
export RUST_LOG=strata=info # the game's `on screen`, `saved` and `loaded` lines

start=$(date +%s)
cargo install --quiet --locked --path "$ROOT" --root "$SCRATCH/root" || fail "cargo install failed"
BIN=$SCRATCH/root/bin/strata
[ -x "$BIN" ] || fail "cargo install put no strata in $SCRATCH/root/bin"
echo "installed $BIN in $(($(date +%s) - start)) s"

mkdir -p "$SCRATCH/a" "$SCRATCH/b"
cd "$SCRATCH/a"
[ ! -e config ] || fail "the scratch folder has a config/ folder"

want="strata $(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/Cargo.toml" | head -n 1)"
[ "$("$BIN" --version)" = "$want" ] || fail "--version says '$("$BIN" --version)', not '$want'"

# stats FIELD OF JSON: the value of a top-level number or string field.
field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p" <<<"$2"; }
stats=$("$BIN" gen --seed 7 --stats) || fail "gen --stats failed"
[ "$(field preset "$stats")/$(field width "$stats")x$(field height "$stats")" = "Default/6400x1800" ] ||
  fail "gen --stats made $(field preset "$stats") $(field width "$stats")x$(field height "$stats")"
stats=$("$BIN" gen --preset large --seed 7 --stats) || fail "gen --preset large --stats failed"
[ "$(field preset "$stats")/$(field width "$stats")x$(field height "$stats")" = "Large/8400x2400" ] ||
  fail "gen --preset large --stats made $(field preset "$stats") $(field width "$stats")x$(field height "$stats")"
echo "gen --stats: Default 6400x1800 and Large 8400x2400, hash $(field hash "$stats")"

listing=$("$BIN" presets) || fail "strata presets failed"
for f in "$ROOT"/config/presets/*.ron; do
  name=$(basename "$f" .ron)
  grep -q "^  $name " <<<"$listing" || fail "strata presets does not list $name: $listing"
done
grep -q "$STRATA_HOME/presets" <<<"$listing" || fail "strata presets does not name $STRATA_HOME/presets: $listing"
mkdir -p "$STRATA_HOME/presets"
printf '(name: "Mine", width: 120, height: 60)\n' >"$STRATA_HOME/presets/mine.ron"
stats=$("$BIN" gen --preset mine --stats) || fail "gen --preset mine failed"
[ "$(field preset "$stats")" = "Mine" ] || fail "--preset mine made $(field preset "$stats")"
"$BIN" presets | grep -q "mine.ron" || fail "strata presets does not list the player's mine.ron"
echo "strata presets lists the $(ls "$ROOT"/config/presets/*.ron | wc -l) built-in presets and the player's"

# --- F5 in one folder, F9 in another, in the installed game's window.
need_tools Xvfb xdotool
start_xvfb "${STRATA_TEST_DISPLAY:-:97}" 1024x640 "$SCRATCH/xvfb.log"
# seen PATTERN: waits for the game's first line matching PATTERN.
seen() { wait_for "$1" 1 "$2" || fail "no '$1' within $2 s: $(tail -n 3 "$GAME_LOG")"; }
# play FOLDER KEY LOG: starts the game in FOLDER, waits for its world, presses KEY.
play() {
  GAME_LOG=$3
  start_game "$1" play --preset classic --seed 77
  game_window 20
  seen "on screen" 30
  sleep 0.5
  xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2))
  sleep 0.2
  xdotool key "$2"
}

play "$SCRATCH/a" F5 "$SCRATCH/a.log"
seen "saved " 20
saved=$(grep "saved " "$SCRATCH/a.log" | tail -n 1 | sed 's/^strata: saved //')
stop_game
[ "$(dirname "$saved")" = "$STRATA_HOME/saves" ] || fail "F5 saved $saved, not into $STRATA_HOME/saves"
[ -s "$saved" ] || fail "F5 said saved $saved but there is no such file"
find "$SCRATCH/a" "$SCRATCH/b" -name '*.strata' | grep -q . && fail "a save landed in a working folder"

play "$SCRATCH/b" F9 "$SCRATCH/b.log"
seen "loaded " 20
loaded=$(grep "loaded " "$SCRATCH/b.log" | tail -n 1 | sed 's/^strata: loaded //')
stop_game
[ "$loaded" = "$saved" ] || fail "F9 in another folder loaded '$loaded', not '$saved'"
echo "F5 from $SCRATCH/a saved $saved; F9 from $SCRATCH/b loaded it"
rm -rf "$SCRATCH"
echo "install test passed in $(($(date +%s) - start)) s"
