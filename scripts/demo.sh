#!/usr/bin/env bash
# Installs what tableref needs, builds it, and runs the main job on the
# bundled demo turn (datasets/demo/): two overhead camera pictures, before
# and after. The referee finds every model, judges the moves and draws the
# verdict. In this turn the `spears` column Marches and wheels, and the wheel
# swings one rear model past the 10" March Rate: illegal, so `tableref
# referee` exits 1, which is what the demo expects.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-debian.sh
bash scripts/setup-web.sh    # the judge page's MQTT client and the page test's playwright-core (npm)
if [ -f build/build.ninja ]; then meson setup --reconfigure build; else meson setup build; fi
meson compile -C build

out=build/demo-out   # build/ is git-ignored
echo
echo "== tableref referee datasets/demo/before.jpg datasets/demo/after.jpg --calib datasets/demo/calib.json --roster datasets/demo/roster.json --out $out --png"
rc=0
./build/cli/tableref referee datasets/demo/before.jpg datasets/demo/after.jpg \
  --calib datasets/demo/calib.json --roster datasets/demo/roster.json --out "$out" --png || rc=$?
case $rc in
  0) echo "demo: every move legal (the demo turn should have had an illegal one)" ;;
  1) echo "demo: the referee found an illegal move (exit status 1), as the demo turn intends" ;;
  *) echo "demo: tableref referee failed with exit status $rc" >&2; exit "$rc" ;;
esac
echo
echo "The verdict, drawn:"
# (projector.png only for a calibrated projector or --projector P; report.png only with --png, asked here to
# show the report without a PDF viewer; report.svg only with --svg)
for f in camera.jpg report.png report.pdf report.json; do
  echo "  $(pwd)/$out/$f"
done

# Watching (issue 5): the same kind of turn filmed (a hand moves one unit at a
# time), rendered now at 1280x960, 5 fps, then refereed by `tableref watch` as
# the table settles after each move: annotated MP4, subtitles, event log.
seq=build/demo-watch
echo
echo "== tableref render-sequence datasets/sequences/turn/sequence.json --out $seq && tableref watch --source $seq/frames ..."
./build/cli/tableref render-sequence datasets/sequences/turn/sequence.json --out "$seq"
rc=0
rm -rf "$seq"/game.*   # a fresh game (the recording, its subtitles, event log and clips folder): watch never
                      # overwrites a recording, its event log appends, it keeps an earlier game's clips
./build/cli/tableref watch --source "$seq/frames" --calib "$seq/calib.json" --roster "$seq/roster.json" \
  --record "$seq/game.mp4" --quiet </dev/null || rc=$?
case $rc in
  1) echo "demo: watch called the cavalry's 11\" March illegal (exit status 1), as the filmed turn intends" ;;
  0) echo "demo: watch found every move legal (the filmed turn should have had an illegal one)" ;;
  *) echo "demo: tableref watch failed with exit status $rc" >&2; exit "$rc" ;;
esac
echo "  $(pwd)/$seq/game.mp4 (+ game.vtt subtitles, game.events.jsonl event log)"

# The referee's own light (issue 18): the same turn in the closed loop. Each
# frame is rendered lit by what this watch projects 100 ms earlier (the call
# thrown back onto the table at 2.5x the room's light), so the watch must tell
# its own light from the table moving: the same calls, one settle per move.
loop=build/demo-watch-loop
rm -rf "$loop"; mkdir -p "$loop"
echo
echo "== tableref watch --source sim:datasets/sequences/turn/sequence.json --sim-light 2.5 --sim-frames $loop/frames ..."
rc=0
./build/cli/tableref watch --source sim:datasets/sequences/turn/sequence.json --sim-light 2.5 \
  --sim-frames "$loop/frames" --record "$loop/game.mp4" --quiet </dev/null || rc=$?
case $rc in
  1) echo "demo: with its own call lit on the table, watch still called the cavalry's March illegal (exit status 1)" ;;
  *) echo "demo: the closed-loop watch ended with exit status $rc (1 expected)" >&2; exit 2 ;;
esac
echo "  $(pwd)/$loop/game.mp4, the camera's own frames (the call lit on the table) in $(pwd)/$loop/frames/"

# Setting up a table (issue 11): a real army list (New Recruit's text) becomes a
# roster with a tag for every model and a tag sheet to print; the demo turn is
# refereed again from one table file (calibration, roster, house rules, terrain).
setup=build/demo-setup
mkdir -p "$setup"
echo
echo "== tableref roster import datasets/armylists/nr-text-undying-dynasties-2.txt --army 2 --out $setup/army2.json --set ..."
# Text lists carry no bases or rates: BSData's catalogue gives them (--catalogue), here --set does.
./build/cli/tableref roster import datasets/armylists/nr-text-undying-dynasties-2.txt --army 2 --out "$setup/army2.json" \
  --set 'Death Cult Hierarch:base=20x20' --set 'Death Cult Hierarch:adv=4' --set 'Death Cult Hierarch:mar=8' \
  --set 'Nomarch:base=20x20' --set 'Nomarch:adv=4' --set 'Nomarch:mar=8' \
  --set 'Skeleton Chariots:base=50x100' --set 'Skeleton Chariots:adv=8' --set 'Skeleton Chariots:mar=10' \
  --set 'Skeleton Cavalry:base=25x50' --set 'Skeleton Cavalry:adv=8' --set 'Skeleton Cavalry:mar=16' \
  --set 'Tomb Cataphracts:base=50x100' --set 'Tomb Cataphracts:adv=7' --set 'Tomb Cataphracts:mar=14' \
  --set 'Necropolis Guard:base=20x20' --set 'Necropolis Guard:adv=4' --set 'Necropolis Guard:mar=8' \
  --set 'Dread Sphinx:base=50x100' --set 'Dread Sphinx:adv=6' --set 'Dread Sphinx:mar=12' \
  --set 'Scarab Swarms:base=40x40' --set 'Scarab Swarms:adv=5' --set 'Scarab Swarms:mar=10' </dev/null
./build/cli/tableref tags sheet "$setup/army2.json" --out "$setup/army2-tags.pdf"
echo
echo "== tableref referee datasets/demo/before.jpg datasets/demo/after.jpg --table datasets/demo/table.json --out $setup/referee"
rc=0
./build/cli/tableref referee datasets/demo/before.jpg datasets/demo/after.jpg --table datasets/demo/table.json \
  --out "$setup/referee" >/dev/null || rc=$?
[ "$rc" = 1 ] || { echo "demo: referee --table exited $rc (expected 1, the same illegal wheel)" >&2; exit 1; }
echo "demo: the table file gives the same call (exit 1); the guide is docs/getting-started.md"
echo "  $(pwd)/$setup/army2-tags.pdf (print at 100%, check the 100 mm bar)"
