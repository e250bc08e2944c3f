#!/usr/bin/env bash
# The window test: starts the real game under Xvfb, waits for its window, takes a
# screenshot, presses R as a player would (a real X key event), waits for the new world,
# takes another screenshot, and checks that the picture changed and the game is still
# running. Then it plays: holds D and checks the player moved, taps Space eight times for
# 12 ms each and checks it jumped eight times, holds the left mouse button on the tile under
# the player's feet and checks it was dug, presses F5 and checks a save file appeared,
# presses F9 and checks the save was loaded. It digs again and presses R: the game must ask
# before replacing a world with unsaved edits; S saves it (keeping the save before as
# `.bak`) and goes on, and the dug world loads again from the load list. It truncates the
# save and checks F9 refuses it with the game still running. It types the same seed
# again, saves the new world of that seed and checks the first world's save and backup
# are untouched and F9 loads the new one's. It loads a save of another preset and seed from the load
# list (L), touches the watched preset file and checks the loaded world stays, that C copies its
# seed and that the preset menu regenerates at it. It opens the pause menu (Esc), changes the
# frame cap in its settings and checks settings.ron has it (and that the settings file it
# started with, which did not load as written, is kept as settings.ron.bak and its binding
# kept), and opens the help screen (F1). Characters: in a fresh
# home, the start screen makes a character (1, a typed name, Enter) and a new world (1); it
# digs, presses R (S saves the dug world) and the new world's `character NAME in world ID
# carrying ...` line carries what it kept leaving the first; it quits, starts again, picks
# the character (1) and the first world (1): the same world, carrying the same. In a hand-drawn world (`gen
# --from-ascii`) it digs a pool's wall into a tunnel, then the tunnel's far wall into a
# cave, and checks the pool pours through; it right-clicks a chest there open and clicks
# the torches into it; then it closes the window as a window manager's
# close button does (tests/close_window.py) with those edits unsaved, and checks the game
# saved them (the chest's torches too) and quit with exit code 0. The game writes `player at X Y screen SX SY zoom
# Z`, `jumps ..`, `dug ..`, `saved PATH`, `loaded PATH`, `seed N copied` and `water at rest
# ..` lines to its log at the debug level (RUST_LOG=strata=debug, set here). Then checks
# `--frames N --screenshot PATH` writes a PNG and exits 0, and, without RUST_LOG, says nothing.
#
#   tests/window.sh            # needs: Xvfb xdotool xwd (x11-apps) netpbm python3, a release build
#
# Debian: apt-get install -y xvfb xdotool x11-apps netpbm python3 libgl1 libgl1-mesa-dri libxi6 libxkbcommon0
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TEST_NAME="window test"
# shellcheck source=tests/xvfb.sh
. "$ROOT/tests/xvfb.sh"
OUT=$(mktemp -d /tmp/strata-window.XXXXXX)
GAME_LOG=$OUT/game.log
# The player's files (saves, presets, settings) go to the scratch folder, never the real
# home; the game runs from another folder, so nothing may depend on the working folder.
export STRATA_HOME=$OUT
# The lines this test reads: digs, jumps, positions, saves, loads, worlds on screen.
export RUST_LOG=strata=debug
mkdir -p "$OUT/cwd"

need_tools Xvfb xdotool xwd xwdtopnm pnmtopng cmp python3
release_bin
start_xvfb "${STRATA_TEST_DISPLAY:-:99}" 1280x720 "$OUT/xvfb.log"

# The watched preset is a copy, so the test can touch it.
mkdir -p "$OUT/presets"
cp "$ROOT/config/presets/classic.ron" "$OUT/presets/classic.ron"
# No creatures while the test walks, digs and loads (a slime's touch throws the player
# back); tests/window_loop.sh fights one.
echo "(creature_cap: 0)" >"$OUT/calm.ron"
export STRATA_RULES="$OUT/calm.ron"

# A settings file that does not load as written (a value out of range beside a binding):
# the binding is kept, and the first change in the settings menu keeps the file as
# settings.ron.bak (below).
printf '(\n  keys: (fit: ["J"]),\n  ui_scale: 9,\n)\n' >"$OUT/settings.ron"
cp "$OUT/settings.ron" "$OUT/settings-before.ron"

# F5 saves into $STRATA_HOME/saves, whatever the working folder.
start_game "$OUT/cwd" play --preset "$OUT/presets/classic.ron" --seed 1
game_window 20
echo "window $WIN"
# Wait for the first world (the game logs when a world reaches the screen).
wait_for "on screen" 1 10 || fail "no world on screen within 10 s"
sleep 0.5
shot "$OUT/before.png"

# A real key press through XTEST, as a player's keyboard would send it: without a window
# manager the keyboard follows the pointer, so put the pointer on the window first.
xdotool windowfocus "$WIN" 2>/dev/null || true
xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2))
sleep 0.2
xdotool key r
wait_for "on screen" 2 10 || fail "R did not bring a new world within 10 s"
sleep 0.5
shot "$OUT/after.png"

alive || fail "game is not running after R"
if cmp -s "$OUT/before.png" "$OUT/after.png"; then fail "the picture did not change after R"; fi
echo "R changed the picture: $(md5sum "$OUT/before.png" | cut -c1-8) -> $(md5sum "$OUT/after.png" | cut -c1-8)"

# --- Play. The latest `player at X Y screen SX SY zoom Z` line (fields 3..9 after "strata:").
last_pos() { grep "player at" "$OUT/game.log" | tail -n 1; }
field() { last_pos | awk -v f="$1" '{ print $f }'; }
wait_for "player at" 1 10 || fail "the game never said where the player is"
sleep 1.5 # let the new player land and the camera settle
x_before=$(field 4)
moved=""
for key in d a; do # right, or left if a cliff blocks the way
  xdotool keydown "$key"; sleep 1.2; xdotool keyup "$key"
  sleep 1.5
  x_after=$(field 4)
  if awk -v a="$x_before" -v b="$x_after" 'BEGIN { d = b - a; exit !(d > 1 || d < -1) }'; then moved=1; break; fi
done
[ -n "$moved" ] || fail "holding D (or A) did not move the player (x $x_before -> $x_after)"
echo "walked: x $x_before -> $x_after"

# Quick taps of Space, each pressed and released within 12 ms (often between two frames):
# every tap must jump.
jumps() { { grep "jumps " "$OUT/game.log" || true; } | tail -n 1 | awk '{ print $3 }'; }
# The player is at rest once no new `player at` line came for 0.6 s (it is written when
# the position changes): each tap is made standing, not mid-air from the walk or a hop.
wait_still() {
  local n
  for _ in $(seq 30); do
    n=$(grep -c "player at" "$OUT/game.log")
    sleep 0.6
    [ "$(grep -c "player at" "$OUT/game.log")" = "$n" ] && return 0
  done
  fail "the player never came to rest"
}
jumps_before=$(jumps); jumps_before=${jumps_before:-0}
for _ in $(seq 8); do
  wait_still
  xdotool keydown space sleep 0.012 keyup space
  sleep 0.3
done
wait_still
jumps_after=$(jumps); jumps_after=${jumps_after:-0}
[ $((jumps_after - jumps_before)) -eq 8 ] || fail "8 taps of Space (12 ms each) made $((jumps_after - jumps_before)) jumps"
echo "tapped: 8 taps of 12 ms, 8 jumps"

# Dig the tile under the player's feet with a real mouse click: its centre on screen is
# half a tile below the feet. The body (0.8 tiles wide) may stand at a ledge with only one
# of the two columns under it solid, so the column of the feet's centre is tried first,
# then the other columns the body may cover (the logged x is rounded to a tenth, so its
# edges are taken 0.45 out: a body at x 512.6 can stand on column 513's corner).
dig_under_feet() {
  local px py sx sy zoom dug_before targets mx my
  read -r px py sx sy zoom < <(last_pos | awk '{ print $4, $5, $7, $8, $10 }')
  dug_before=$(grep -c "dug " "$OUT/game.log" || true)
  # The centre's column, then the columns either side that the body may cover.
  targets=$(awk -v px="$px" -v sx="$sx" -v sy="$sy" -v z="$zoom" -v ox="$X" -v oy="$Y" 'BEGIN {
    a = int(px); l = int(px - 0.45); r = int(px + 0.45)
    printf "%d %d\n", ox + sx + (a + 0.5 - px) * z, oy + sy + z / 2
    if (l != a) printf "%d %d\n", ox + sx + (l + 0.5 - px) * z, oy + sy + z / 2
    if (r != a) printf "%d %d\n", ox + sx + (r + 0.5 - px) * z, oy + sy + z / 2 }')
  while read -r mx my; do
    xdotool mousemove "$mx" "$my"
    sleep 0.3
    xdotool mousedown 1; sleep 1.5; xdotool mouseup 1
    if wait_for "dug " $((dug_before + 1)) 3; then return 0; fi
  done <<< "$targets"
  fail "a held left click under the player at $px,$py dug nothing"
}
dig_under_feet
echo "dug: $(grep "dug " "$OUT/game.log" | head -n 1 | sed 's/^strata: //')"
shot "$OUT/dug.png"

xdotool key F5
wait_for "saved " 1 20 || fail "F5 did not save"
save_file=$(grep "saved " "$OUT/game.log" | tail -n 1 | sed 's/^strata: saved //')
[ "$(dirname "$save_file")" = "$OUT/saves" ] || fail "F5 saved $save_file, not in \$STRATA_HOME/saves"
[ -s "$save_file" ] || fail "F5 said saved $save_file but there is no such file"
echo "saved $save_file ($(wc -c <"$save_file") bytes)"

xdotool key F9
wait_for "loaded " 1 20 || fail "F9 did not load the save"
sleep 0.5
alive || fail "game is not running after F9"
grep -q "load failed" "$OUT/game.log" && fail "F9 failed to load"
echo "loaded: $(grep "loaded " "$OUT/game.log" | tail -n 1 | sed 's/^strata: //')"

# Nothing is lost: dig, press R, and the game asks before it replaces a world with unsaved
# edits; answering S saves it (keeping the save before as a backup), then makes the new
# world; the dug world is still there in the load list (L, then 1: the newest save).
seed_before=$(grep "on screen" "$OUT/game.log" | tail -n 1 | awk '{ print $3 }')
wait_still
dig_under_feet
worlds=$(grep -c "on screen" "$OUT/game.log")
saves=$(grep -c "saved " "$OUT/game.log")
xdotool key r
sleep 1.5
shot "$OUT/question.png"
[ "$(grep -c "on screen" "$OUT/game.log")" -eq "$worlds" ] || fail "R replaced a world with unsaved edits without asking"
xdotool key s
wait_for "saved " $((saves + 1)) 20 || fail "answering S to the question did not save"
wait_for "on screen" $((worlds + 1)) 30 || fail "answering S did not go on to a new world"
grep "saved " "$OUT/game.log" | tail -n 1 | grep -q "$save_file" || fail "the question saved $(grep "saved " "$OUT/game.log" | tail -n 1)"
[ -s "$save_file.bak" ] || fail "the save kept no backup of the save before it ($save_file.bak)"
cmp -s "$save_file" "$save_file.bak" && fail "the backup is the new save, not the one before"
loads=$(grep -c "loaded " "$OUT/game.log")
xdotool key l
sleep 1
xdotool key 1
wait_for "loaded " $((loads + 1)) 20 || fail "the load list did not load the world saved by the question"
grep "loaded " "$OUT/game.log" | tail -n 1 | grep -q "$save_file" || fail "the load list loaded $(grep "loaded " "$OUT/game.log" | tail -n 1)"
grep "on screen" "$OUT/game.log" | tail -n 1 | grep -q "seed $seed_before " || fail "the reloaded world is not seed $seed_before"
echo "R asked, S saved the dug world (the save before kept as $save_file.bak), and it loads again"

# A damaged save of this world is refused in the game, which keeps its world.
cp "$save_file" "$OUT/good.strata"
head -c 100 "$OUT/good.strata" >"$save_file"
xdotool key F9
wait_for "load failed" 1 20 || fail "F9 on a damaged save did not report it"
sleep 0.5
alive || fail "game died on a damaged save"
echo "refused: $(grep "load failed" "$OUT/game.log" | tail -n 1 | sed 's/^strata: //')"

# Two worlds of one seed: the world on screen (its save put back) gets a dig, and its seed
# is typed again (T); S saves it to its file and makes the new world of that seed, whose
# two F5 saves go to a file of its own: the first world's save and backup stay as they
# were, F9 loads the new world's save, and the load list shows both.
cp "$OUT/good.strata" "$save_file"
wait_still
dig_under_feet
saves=$(grep -c "saved " "$OUT/game.log")
worlds=$(grep -c "on screen" "$OUT/game.log")
xdotool key t
sleep 0.3
xdotool type --delay 60 "$seed_before"
xdotool key Return
sleep 1
[ "$(grep -c "on screen" "$OUT/game.log")" -eq "$worlds" ] || fail "the seed box replaced a world with unsaved edits without asking"
xdotool key s
wait_for "saved " $((saves + 1)) 20 || fail "answering S to the seed box's question did not save"
grep "saved " "$OUT/game.log" | tail -n 1 | grep -q "$save_file" || fail "the question saved $(grep "saved " "$OUT/game.log" | tail -n 1), not $save_file"
wait_for "on screen" $((worlds + 1)) 30 || fail "the seed box made no new world"
grep "on screen" "$OUT/game.log" | tail -n 1 | grep -q "seed $seed_before " || fail "the seed box did not make seed $seed_before"
cp "$save_file" "$OUT/first.strata"
cp "$save_file.bak" "$OUT/first.strata.bak"
sleep 1.5
for _ in 1 2; do
  wait_still
  dig_under_feet
  saves=$(grep -c "saved " "$OUT/game.log")
  xdotool key F5
  wait_for "saved " $((saves + 1)) 20 || fail "F5 did not save the second world of seed $seed_before"
done
twin=$(grep "saved " "$OUT/game.log" | tail -n 1 | sed 's/^strata: saved //')
[ "$twin" != "$save_file" ] || fail "the new world of seed $seed_before saved over the first one's file $save_file"
[ -s "$twin.bak" ] || fail "the second F5 kept no backup ($twin.bak)"
cmp -s "$save_file" "$OUT/first.strata" || fail "the first world's save $save_file changed"
cmp -s "$save_file.bak" "$OUT/first.strata.bak" || fail "the first world's backup $save_file.bak changed"
loads=$(grep -c "loaded " "$OUT/game.log")
xdotool key F9
wait_for "loaded " $((loads + 1)) 20 || fail "F9 did not load the second world's save"
grep "loaded " "$OUT/game.log" | tail -n 1 | grep -q "$twin" || fail "F9 loaded $(grep "loaded " "$OUT/game.log" | tail -n 1), not $twin"
xdotool key l
sleep 1
shot "$OUT/twins.png"
xdotool key Escape
sleep 0.3
echo "two worlds of seed $seed_before: $(basename "$save_file") kept as it was, $(basename "$twin") the second, F9 loads it"

# A save of another preset at another seed, picked from the load list (L, then 1: the
# newest), and then a `touch` of the watched preset file must leave the loaded world
# alone; C copies the loaded world's seed, and the preset menu regenerates at it.
"$BIN" gen --preset "$ROOT/config/presets/plains.ron" --size 400x200 --seed 4242 \
  --save "$OUT/saves/other.strata" || fail "gen --save failed"
touch -d '+2 seconds' "$OUT/saves/other.strata"
loads=$(grep -c "loaded " "$OUT/game.log")
xdotool key l
sleep 1
shot "$OUT/loadlist.png"
xdotool key 1
wait_for "loaded " $((loads + 1)) 20 || fail "the load list did not load the other preset's save"
grep "loaded " "$OUT/game.log" | tail -n 1 | grep -q "other.strata" || fail "F9 loaded $(grep "loaded " "$OUT/game.log" | tail -n 1)"
grep "on screen" "$OUT/game.log" | tail -n 1 | grep -q "seed 4242 " || fail "the loaded world is not seed 4242"
worlds=$(grep -c "on screen" "$OUT/game.log")
sleep 0.5
touch "$OUT/presets/classic.ron"
sleep 2.5 # the watcher polls twice a second
[ "$(grep -c "on screen" "$OUT/game.log")" -eq "$worlds" ] || fail "touching the preset file replaced the loaded world: $(grep "on screen" "$OUT/game.log" | tail -n 1)"
xdotool key c
wait_for "copied" 1 5 || fail "C copied nothing"
grep "copied" "$OUT/game.log" | tail -n 1 | grep -q "seed 4242 copied" || fail "C copied $(grep "copied" "$OUT/game.log" | tail -n 1)"
xdotool key p
sleep 0.5
xdotool key 1
wait_for "on screen" $((worlds + 1)) 30 || fail "the preset menu made no world"
grep "on screen" "$OUT/game.log" | tail -n 1 | grep -q "seed 4242 " || fail "the preset menu did not keep the loaded seed: $(grep "on screen" "$OUT/game.log" | tail -n 1)"
echo "a touch kept the loaded world; C and the preset menu used its seed 4242"

# Esc opens the pause menu; its Settings (2) change the frame cap (down to its row, right
# arrow), which is written to $STRATA_HOME/settings.ron at once; F1 shows the controls.
press() { for k in "$@"; do xdotool key "$k"; sleep 0.25; done; }
press Escape
shot "$OUT/pause.png"
press 2 Down Right
sleep 0.3
shot "$OUT/settings.png"
[ -f "$OUT/settings.ron" ] || fail "changing a setting wrote no $OUT/settings.ron"
grep -q "max_fps: 90," "$OUT/settings.ron" || fail "the frame cap 60 -> 90 is not in settings.ron: $(grep max_fps "$OUT/settings.ron")"
cmp -s "$OUT/settings.ron.bak" "$OUT/settings-before.ron" || fail "the settings file that did not load was not kept as settings.ron.bak"
grep -q 'fit: \["J"\]' "$OUT/settings.ron" || fail "the binding that loaded (fit: J) was not written back: $(grep "fit:" "$OUT/settings.ron")"
press Escape Escape F1
shot "$OUT/help.png"
press Escape
alive || fail "the game died in the pause, settings or help screens"
echo "Esc, the settings menu (frame cap written to settings.ron) and F1 help work"

# Without a window manager there is no close button to press: end the game the way a
# session ends it. It must still be running here (a crash would have ended it already).
kill -TERM "$GAME_PID"
for _ in $(seq 50); do alive || break; sleep 0.1; done
if alive; then kill -KILL "$GAME_PID"; fail "the game ignored SIGTERM"; fi
grep -q "panicked" "$OUT/game.log" && fail "the game panicked"
GAME_PID=""

# Characters apart from worlds, in a home of their own: the start screen (no --seed) makes
# a character and a new world; what it gathers there goes with it into the world R makes,
# and after a restart the character and the first world have it all.
CH=$OUT/chars
mkdir -p "$CH"
carrying() { { grep "character Ann in world" "$GAME_LOG" || true; } | tail -n 1 | sed 's/.* carrying //'; }
world_of_ann() { { grep "character Ann in world" "$GAME_LOG" || true; } | tail -n 1 | awk '{ print $6 }'; }
STRATA_HOME=$CH start_game "$OUT/cwd" play --preset "$OUT/presets/classic.ron"
game_window 20
xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2))
sleep 1.5
[ "$(grep -c "on screen" "$GAME_LOG")" -eq 0 ] || fail "plain play made a world before a character was picked"
shot "$OUT/start.png"
xdotool key 1; sleep 0.4 # New character (the only row but none)
xdotool type --delay 80 "Ann"; sleep 0.3
xdotool key Return; sleep 0.6
shot "$OUT/worlds.png"
xdotool key 1 # New world (no saves yet)
wait_for "on screen" 1 30 || fail "the start screen's New world made no world"
wait_for "character Ann in world" 1 10 || fail "Ann did not walk into the new world"
first_world=$(world_of_ann)
kit=$(carrying)
wait_for "player at" 1 10 || fail "the game never said where Ann is"
sleep 1.5
wait_still
dig_under_feet
sleep 1.5 # the dug block is picked up
saves=$(grep -c "saved " "$GAME_LOG" || true)
xdotool key r
sleep 1
xdotool key s # save the dug world, then the new one
wait_for "saved " $((saves + 1)) 20 || fail "S to R's question did not save Ann's first world"
wait_for "character Ann in world" 2 30 || fail "Ann did not walk into the world R made"
second_world=$(world_of_ann)
[ "$second_world" != "$first_world" ] || fail "R put Ann back in world $first_world"
left=$({ grep "kept Ann carrying" "$GAME_LOG" || true; } | tail -n 1 | sed 's/.*kept Ann carrying \(.*\) in .*/\1/')
[ "$(carrying)" = "$left" ] || fail "Ann left world $first_world carrying '$left' but came into $second_world carrying '$(carrying)'"
[ "$(carrying)" != "$kit" ] || fail "Ann gathered nothing in the first world (still '$kit')"
[ -s "$CH/characters/ann.json" ] || fail "no character file $CH/characters/ann.json"
echo "characters: Ann gathered in $first_world ('$kit' -> '$left') and carried it into $second_world"
python3 "$ROOT/tests/close_window.py" "$WIN" || fail "could not send the close request"
for _ in $(seq 100); do alive || break; sleep 0.1; done
alive && fail "the game did not quit on the close request"
GAME_PID=""
STRATA_HOME=$CH start_game "$OUT/cwd" play --preset "$OUT/presets/classic.ron"
game_window 20
xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2))
sleep 1.5
xdotool key 1; sleep 0.6 # Ann
xdotool key 1 # the first world: the only one saved
wait_for "character Ann in world" 1 30 || fail "Ann did not walk into a world after the restart"
back=$(world_of_ann)
[ "$back" = "$first_world" ] || fail "the restart's first world is $back, not $first_world"
[ "$(carrying)" = "$left" ] || fail "after the restart Ann carries '$(carrying)', not '$left'"
grep -q "loaded .*world-$first_world.strata" "$GAME_LOG" || fail "the first world's save was not loaded"
kill -TERM "$GAME_PID"
for _ in $(seq 50); do alive || break; sleep 0.1; done
GAME_PID=""
echo "characters: after a restart Ann is back in $first_world carrying '$left'"

# Water: a hand-drawn world where the player stands over a 2-high tunnel with a pool of 21
# water tiles behind its right wall and a cave behind its left wall. Digging the right wall
# lets the pool into the tunnel; digging the left wall must then drain it into the cave.
CX=48
awk -v cx=$CX 'BEGIN {
  for (y = 0; y < 48; y++) {
    row = ""
    for (x = 0; x < 96; x++) {
      c = "#"
      if (y < 10) c = " "
      else if (x >= cx + 2 && x <= cx + 8 && y >= 11 && y <= 13) c = "~"
      else if (x >= cx - 3 && x <= cx && y >= 12 && y <= 13) c = " "
      else if (x >= cx - 12 && x <= cx - 5 && y >= 12 && y <= 20) c = " "
      if (x == cx + 3 && y == 9) c = "C"
      row = row c
    }
    print row
  }
}' >"$OUT/pool.txt"
"$BIN" gen --from-ascii "$OUT/pool.txt" --seed 7 --save "$OUT/pool.strata" || fail "gen --from-ascii failed"
start_game "$OUT/cwd" play --load "$OUT/pool.strata"
game_window 20
wait_for "on screen" 1 20 || fail "the pool world did not come up"
wait_for "player at" 1 10 || fail "the game never said where the player is"
sleep 1
xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2))
read -r px py sx sy zoom < <(last_pos | awk '{ print $4, $5, $7, $8, $10 }')
dig_at() { # dig_at TX TY: hold the left button on tile (TX, TY) until it is dug
  local mx my n
  read -r mx my < <(awk -v tx="$1" -v ty="$2" -v px="$px" -v py="$py" -v sx="$sx" -v sy="$sy" -v z="$zoom" -v ox="$X" -v oy="$Y" \
    'BEGIN { printf "%d %d\n", ox + sx + (tx + 0.5 - px) * z, oy + sy + (ty + 0.5 - py) * z }')
  n=$(grep -c "dug " "$OUT/game.log" || true)
  xdotool mousemove "$mx" "$my"; sleep 0.3
  xdotool mousedown 1; sleep 1.2; xdotool mouseup 1
  wait_for "dug .* at $1 $2" 1 3 || fail "holding the button on ($1, $2) at $mx,$my dug nothing"
}
rests() { grep -c "water at rest" "$OUT/game.log" || true; }
dig_at $((CX + 1)) 13
wait_for "water at rest" 1 10 || fail "the pool did not come to rest after the right wall was dug"
first=$(grep "water at rest" "$OUT/game.log" | tail -n 1 | awk '{ print $8 }')
[ "$first" -ge 8 ] || fail "the pool moved only $first tiles into the 2-high tunnel"
dig_at $((CX - 4)) 13
wait_for "water at rest" 2 15 || fail "the water did not come to rest after the left wall was dug"
second=$(grep "water at rest" "$OUT/game.log" | tail -n 1 | awk '{ print $8 }')
[ "$second" -ge 21 ] || fail "breaking into the cave moved only $second tiles (the pool holds 21)"
echo "water: the tunnel took $first moves, the cave drained the pool in $second"
shot "$OUT/drained.png"
# A chest on the ground beside the player: a right-click opens it beside the inventory, a
# click on the torches (inventory slot 3) and one on the chest's first slot put them in.
read -r mx my < <(awk -v tx=$((CX + 3)) -v ty=9 -v px="$px" -v py="$py" -v sx="$sx" -v sy="$sy" -v z="$zoom" -v ox="$X" -v oy="$Y" \
  'BEGIN { printf "%d %d\n", ox + sx + (tx + 0.5 - px) * z, oy + sy + (ty + 0.5 - py) * z }')
# The Guide wanders about the spawn: when he stands in front of the chest the click talks to
# him (as it should), so a click he answered is tried again once he has moved on.
xdotool mousemove "$mx" "$my"; sleep 0.3
opened=""
for _ in 1 2 3 4 5 6; do
  talks=$(grep -c "guide says" "$OUT/game.log" || true)
  xdotool click 3
  if wait_for "opened a chest at $((CX + 3)) 9 holding 0 stacks" 1 3; then opened=1; break; fi
  [ "$(grep -c "guide says" "$OUT/game.log" || true)" -gt "$talks" ] || break
  sleep 1.5
done
[ -n "$opened" ] || fail "right-clicking the chest at $mx,$my did not open it"
# The slots at 1280x720: the inventory's from x 200, the chest's from x 648, 48 px apart,
# the first row from 119 px down (under the room kept for a message at the top).
xdotool mousemove $((X + 318)) $((Y + 141)); sleep 0.3; xdotool click 1; sleep 0.3
xdotool mousemove $((X + 670)) $((Y + 141)); sleep 0.3; xdotool click 1
wait_for "chest at $((CX + 3)) 9 slot 0" 1 5 || fail "clicking the chest's first slot with the torches held put nothing in it"
shot "$OUT/chest.png"
xdotool key Escape; sleep 0.3
echo "chest: opened with a right-click, the torches put in its first slot"
# Close the window (as a window manager's close button asks) with the dug walls unsaved:
# the game saves them, then quits, and the save is in the saves folder.
saves=$(grep -c "saved " "$OUT/game.log" || true)
python3 "$ROOT/tests/close_window.py" "$WIN" || fail "could not send the close request"
for _ in $(seq 100); do alive || break; sleep 0.1; done
alive && fail "the game did not quit on the close request"
rc=0; wait "$GAME_PID" || rc=$?
GAME_PID=""
[ $rc = 0 ] || fail "the game exited with $rc on the close request"
grep -q "panicked" "$OUT/game.log" && fail "the game panicked"
[ "$(grep -c "saved " "$OUT/game.log")" -gt "$saves" ] || fail "closing the window with unsaved edits saved nothing"
grep -q "quit after saving the edits" "$OUT/game.log" || fail "the game did not say it saved before quitting"
autosave=$(grep "saved " "$OUT/game.log" | tail -n 1 | sed 's/^strata: saved //')
[ "$(head -c 7 "$autosave" | od -An -tx1 | tr -d ' \n')" = "53545241544100" ] || fail "no save at $autosave after the close request"
echo "closing the window saved the edits to $autosave"
# The save keeps the chest's torches (its chests section names them).
python3 - "$autosave" <<'PY' || fail "the save at $autosave keeps no chest holding torches"
import sys
b = open(sys.argv[1], "rb").read()
at = b.find(b"CHST")
sys.exit(0 if at > 0 and b.find(b"\x05torch", at) > at else 1)
PY

# --frames/--screenshot: render, write the PNG, exit 0.
for try in 1 2 3; do
  rc=0
  env -u RUST_LOG timeout 60 "$BIN" play --preset config/presets/classic.ron --seed 2 --frames 10 \
    --screenshot "$OUT/frames.png" >"$OUT/frames.log" 2>&1 || rc=$?
  if [ $rc = 0 ] || ! grep -q "XOpenDisplay" "$OUT/frames.log"; then break; fi
  # Seen now and then after the runs above: this Xvfb keeps refusing the game while it
  # still answers xdotool, and a fresh one takes it. This is the last use of the display.
  echo "the --frames run could not open $DISPLAY (try $try): a fresh Xvfb"
  kill "$XVFB_PID" 2>/dev/null || true
  wait "$XVFB_PID" 2>/dev/null || true
  start_xvfb "$DISPLAY" 1280x720 "$OUT/xvfb.log"
done
[ $rc = 0 ] || { sed 's/^/  frames: /' "$OUT/frames.log" >&2; fail "--frames run exited with $rc"; }
[ "$(head -c 8 "$OUT/frames.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "--screenshot wrote no PNG"
# Normal play is quiet: no `strata:` line without RUST_LOG (a world on screen is info).
if grep -q "^strata: " "$OUT/frames.log"; then fail "play without RUST_LOG wrote: $(grep "^strata: " "$OUT/frames.log" | head -n 3)"; fi

echo "window test passed (pictures in $OUT)"
