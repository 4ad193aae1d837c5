#!/usr/bin/env bash
# Regenerates the README's pictures (docs/pictures/) from a built tree: the
# demo turn refereed (camera frame, projector picture, first report page),
# and one frame of the watched demo game after its first call. Run after any
# change to what the overlay draws, look at every picture, then commit them.
# Needs: build/ (meson compile -C build), ffmpeg, pdftoppm; ImageMagick's
# convert makes the camera frame a JPEG when present (else it stays PNG).
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/pictures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# The demo's calibration knows no projector: a 1280x800 frame fitted over its 700x500 mm board (1.6 px/mm).
echo '{"width": 1280, "height": 800, "H": [1.6, 0, 80, 0, -1.6, 800, 0, 0, 1]}' >"$tmp/projector.json"
./build/cli/tableref referee datasets/demo/before.jpg datasets/demo/after.jpg \
  --calib datasets/demo/calib.json --roster datasets/demo/roster.json --out "$tmp/ref" --camera-png \
  --projector "$tmp/projector.json" \
  >/dev/null || [ $? -eq 1 ]
if command -v convert >/dev/null; then
  convert "$tmp/ref/camera.png" -quality 88 "$out/demo-camera.jpg"
else
  cp "$tmp/ref/camera.png" "$out/demo-camera.png"
fi
cp "$tmp/ref/projector.png" "$out/demo-projector.png"
pdftoppm -r 100 -png -f 1 -l 1 "$tmp/ref/report.pdf" "$tmp/page"
cp "$tmp"/page-1.png "$out/demo-report.png"

# The reach before a move: the spears' March from the BEFORE picture, on the projector.
./build/cli/tableref referee datasets/demo/before.jpg datasets/demo/after.jpg \
  --calib datasets/demo/calib.json --roster datasets/demo/roster.json --out "$tmp/reach" \
  --reach spears --move march --unit spears --projector "$tmp/projector.json" >/dev/null || [ $? -eq 1 ]
cp "$tmp/reach/projector.png" "$out/demo-reach.png"

seq="$tmp/seq"
./build/cli/tableref render-sequence datasets/sequences/turn/sequence.json --out "$seq" >/dev/null
./build/cli/tableref watch --source "$seq/frames" --calib "$seq/calib.json" --roster "$seq/roster.json" \
  --record "$seq/game.mp4" --quiet </dev/null >/dev/null || [ $? -eq 1 ]
# The frame 0.4 s into the first ILLEGAL call's cue: the call on screen.
start=$(awk '/-->/ {split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3] + 0.4} /ILLEGAL/ && s {print s; exit}' \
  "$seq/game.vtt")
ffmpeg -loglevel error -y -ss "${start:-1}" -i "$seq/game.mp4" -frames:v 1 -q:v 3 "$out/demo-game.jpg"
# The closed loop (issue 18): a camera frame of the simulated table with the watch's own call lit on it,
# 0.6 s after the cavalry's ILLEGAL call (frame 56 of the turn at 5 fps).
./build/cli/tableref watch --source sim:datasets/sequences/turn/sequence.json --sim-light 2.5 \
  --sim-frames "$tmp/loop" --quiet </dev/null >/dev/null 2>&1 || [ $? -eq 1 ]
cp "$tmp/loop/000056.jpg" "$out/loop-camera.jpg"
echo "wrote $out: demo-camera, demo-projector.png, demo-report.png, demo-reach.png, demo-game.jpg, loop-camera.jpg"
