# The window tests' shared harness, sourced (not run) by tests/window.sh,
# tests/window_lab.sh, tests/window_loop.sh, tests/window_memory.sh, tests/window_night.sh, tests/window_looks.sh,
# tests/window_display.sh, tests/install.sh and tests/lab_latency.sh:
# one Xvfb and one game under test at a time, both ended when the script exits.
#
# The sourcing script sets, before it calls anything here:
#   TEST_NAME  how its failures begin: "window test" fails as "window test FAILED: ..."
#   GAME_LOG   the game's standard error (start_game writes it; fail prints it; alive,
#              wait_for read it); may change between games
#   BIN        the strata to run (release_bin sets the release build's)
#
#   fail MESSAGE               prints TEST_NAME FAILED: MESSAGE, then the game's log; exits 1
#   need_tools TOOL...         fails "TOOL is not installed" for the first one missing
#   release_bin                BIN: $STRATA_BIN, else the release build (fails if missing)
#   start_xvfb DISPLAY SIZE LOG  starts Xvfb (SIZE: 1280x720), exports DISPLAY, waits
#                              until it takes connections
#   start_game DIR ARGS...     runs "$BIN" ARGS in folder DIR (GAME_PID), again when it
#                              could not open the display (a fresh Xvfb now and then refuses)
#   game_window [SECONDS]      WIN: the game's window, and its X Y WIDTH HEIGHT
#   alive                      is the game running?
#   wait_for PATTERN COUNT SECONDS  until GAME_LOG has COUNT lines matching; 1 if it never
#                              does, fails if the game dies meanwhile
#   stop_game                  ends the game and waits for it
#   shot PATH                  a PNG of the whole screen
#   meadow_art                 prints the meadow (80x40, grass on row 20) as ASCII art
#   play_drawn NAME RULES [GEN_ARGS...]  reads ASCII art on standard input, makes it a
#                              world (OUT/NAME.strata; GEN_ARGS go to `gen`, as --give
#                              ITEM:N), plays it by the rules text RULES (STRATA_RULES),
#                              GAME_LOG=OUT/NAME.log; waits until it is on screen (needs
#                              OUT and a cwd folder in it)
# shellcheck shell=bash

GAME_PID=""
XVFB_PID=""
GAME_LOG=${GAME_LOG:-}
TEST_NAME=${TEST_NAME:-window test}

fail() {
  echo "$TEST_NAME FAILED: $*" >&2
  if [ -n "$GAME_LOG" ] && [ -f "$GAME_LOG" ]; then sed 's/^/  game: /' "$GAME_LOG" >&2; fi
  exit 1
}

cleanup() {
  if [ -n "$GAME_PID" ]; then kill "$GAME_PID" 2>/dev/null || true; fi
  if [ -n "$XVFB_PID" ]; then kill "$XVFB_PID" 2>/dev/null || true; wait "$XVFB_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT

need_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || fail "$tool is not installed"
  done
}

release_bin() {
  BIN=${STRATA_BIN:-${CARGO_TARGET_DIR:-target}/release/strata}
  case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
  [ -x "$BIN" ] || fail "$BIN not found: run cargo build --release first"
}

start_xvfb() { # start_xvfb DISPLAY SIZE LOG
  # Another server on the display would take the game (and this Xvfb would exit at once).
  if DISPLAY=$1 xdotool getmouselocation >/dev/null 2>&1; then fail "$1 is in use: an X server answers there"; fi
  Xvfb "$1" -screen 0 "$2x24" +extension GLX -nolisten tcp >"$3" 2>&1 &
  XVFB_PID=$!
  export DISPLAY=$1
  local _
  for _ in $(seq 200); do
    kill -0 "$XVFB_PID" 2>/dev/null || fail "Xvfb exited (is $1 in use?): $(tail -n 3 "$3")"
    if xdotool getmouselocation >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  fail "Xvfb did not accept connections within 20 s"
}

alive() { [ -n "$GAME_PID" ] && kill -0 "$GAME_PID" 2>/dev/null; }

start_game() { # start_game DIR ARGS...
  local dir=$1 try
  shift
  for try in 1 2 3; do
    (cd "$dir" && exec "$BIN" "$@") >"$GAME_LOG" 2>&1 &
    GAME_PID=$!
    sleep 1
    if alive || ! grep -q "XOpenDisplay" "$GAME_LOG"; then return 0; fi
    echo "the game could not open $DISPLAY (try $try), starting it again"
    sleep 1
  done
}

game_window() { # game_window [SECONDS]
  local secs=${1:-20}
  WIN=$(timeout "$secs" xdotool search --sync --name '^Strata$' | head -n1) ||
    fail "no window named Strata within $secs s"
  eval "$(xdotool getwindowgeometry --shell "$WIN")"
}

wait_for() { # wait_for PATTERN COUNT SECONDS
  local _ n
  for _ in $(seq $(($3 * 10))); do
    n=$(grep -c -- "$1" "$GAME_LOG" 2>/dev/null || true)
    [ "${n:-0}" -ge "$2" ] && return 0
    alive || fail "game died waiting for '$1'"
    sleep 0.1
  done
  return 1
}

stop_game() {
  if [ -n "$GAME_PID" ]; then
    kill "$GAME_PID" 2>/dev/null || true
    wait "$GAME_PID" 2>/dev/null || true
  fi
  GAME_PID=""
}

shot() { xwd -root -silent -display "$DISPLAY" | xwdtopnm 2>/dev/null | pnmtopng >"$1"; }

meadow_art() {
  awk 'BEGIN { for (y = 0; y < 40; y++) { row = ""; for (x = 0; x < 80; x++) row = row (y < 20 ? " " : y == 20 ? "w" : y < 24 ? "." : "#"); print row } }'
}

play_drawn() { # play_drawn NAME RULES [GEN_ARGS...] < ART
  cat >"$OUT/$1.txt"
  "$BIN" gen --from-ascii "$OUT/$1.txt" --seed 12 --save "$OUT/$1.strata" "${@:3}" >/dev/null || fail "gen --from-ascii failed for $1"
  printf '%s\n' "$2" >"$OUT/$1.ron"
  export STRATA_RULES="$OUT/$1.ron"
  GAME_LOG=$OUT/$1.log
  start_game "$OUT/cwd" play --load "$OUT/$1.strata"
  game_window 20
  wait_for "on screen" 1 20 || fail "$1 did not come up"
}
