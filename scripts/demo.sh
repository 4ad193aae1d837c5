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
echo "== tableref referee datasets/demo/before.jpg datasets/demo/after.jpg --calib datasets/demo/calib.json --roster datasets/demo/roster.json --out $out"
rc=0
./build/cli/tableref referee datasets/demo/before.jpg datasets/demo/after.jpg \
  --calib datasets/demo/calib.json --roster datasets/demo/roster.json --out "$out" || rc=$?
case $rc in
  0) echo "demo: every move legal (the demo turn should have had an illegal one)" ;;
  1) echo "demo: the referee found an illegal move (exit status 1), as the demo turn intends" ;;
  *) echo "demo: tableref referee failed with exit status $rc" >&2; exit "$rc" ;;
esac
echo
echo "The verdict, drawn:"
for f in camera.png projector.png report.png report.svg report.pdf report.json; do
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
rm -f "$seq"/game.*   # a fresh game: watch never overwrites a recording, and its event log appends
./build/cli/tableref watch --source "$seq/frames" --calib "$seq/calib.json" --roster "$seq/roster.json" \
  --record "$seq/game.mp4" --quiet </dev/null || rc=$?
case $rc in
  1) echo "demo: watch called the cavalry's 11\" March illegal (exit status 1), as the filmed turn intends" ;;
  0) echo "demo: watch found every move legal (the filmed turn should have had an illegal one)" ;;
  *) echo "demo: tableref watch failed with exit status $rc" >&2; exit "$rc" ;;
esac
echo "  $(pwd)/$seq/game.mp4 (+ game.vtt subtitles, game.events.jsonl event log)"
