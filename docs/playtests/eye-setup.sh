#!/bin/bash
# eye-setup.sh NAME LOG: starts strata (./strata, rules.ron beside it) with a new character
# NAME on seed 11, puts on the iron armour, uses the life crystals up to 200 health and moves
# the suspicious looking eye to hotbar slot 5 and the iron bow to slot 6 (the inventory's
# cells at 1280x720, UI scale 1).
export DISPLAY=:79
cd /tmp/eye
(STRATA_RULES=/tmp/eye/rules.ron RUST_LOG=strata=debug ./strata play --home /tmp/eye/home --character $1 --seed 11 > $2 2>&1 &)
for i in $(seq 50); do grep -q "player at" $2 2>/dev/null && break; sleep 0.2; done
xdotool mousemove 700 300
for k in 5 6 7; do xdotool key $k; sleep 0.2; xdotool click 3; sleep 0.3; done
xdotool key 9; sleep 0.2
for i in $(seq 12); do grep -q "most health 200" $2 && break; xdotool click 1; sleep 0.8; done
xdotool key i; sleep 0.5
xdotool mousemove 222 197 click 1; sleep 0.2; xdotool mousemove 413 140 click 1; sleep 0.2
xdotool mousemove 268 197 click 1; sleep 0.2; xdotool mousemove 461 140 click 1; sleep 0.2
xdotool key i; sleep 0.3
