#!/usr/bin/env bash
# Regenerates the pictures of docs/getting-started.md (docs/pictures/) from
# tableref itself and three diagrams (scripts/guide_pictures.c). Needs a built
# tableref (build/), poppler-utils and ImageMagick's `convert` for cropping
# and joining. Not part of the build or the tests; run it after changing
# what the pictures show, look at them, and commit them.
set -euo pipefail
cd "$(dirname "$0")/.."
T=./build/cli/tableref
out=docs/pictures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# Diagrams: camera height per lens, how a label goes on a base, a hill in the table file.
cc -O2 -Wall scripts/guide_pictures.c $(pkg-config --cflags --libs cairo) -lm -o "$tmp/guide_pictures"
"$tmp/guide_pictures" "$out"

# Marked bases: an infantry unit, cavalry, a monster and skirmishers with their rim labels, rendered from the
# roster `tags layout` writes, beside the label as printed (make-marked-base-pictures.sh).
bash scripts/make-marked-base-pictures.sh "$out"

# Tag sizes per base: one model on each common base, imported the way a list is, printed.
cat > "$tmp/bases.txt" <<'LIST'
Base sizes
10 - 2 Infantry 20x20
10 - 2 Infantry 25x25
10 - Cavalry 25x50
10 - Large infantry 40x40
10 - Monster 50x50
10 - Chariot 50x100
10 - Round 60
LIST
sets=()
for u in "Infantry 20x20:20x20" "Infantry 25x25:25x25" "Cavalry 25x50:25x50" "Large infantry 40x40:40x40" \
         "Monster 50x50:50x50" "Chariot 50x100:50x100" "Round 60:60o"; do
  name=${u%%:*}; base=${u##*:}
  sets+=(--set "$name:base=$base" --set "$name:adv=5" --set "$name:mar=10")
done
$T roster import "$tmp/bases.txt" --out "$tmp/bases.json" --square-tags "${sets[@]}" >/dev/null
$T tags sheet "$tmp/bases.json" --out "$tmp/bases.pdf" --no-board >/dev/null
pdftoppm -r 80 -f 1 -l 1 -png "$tmp/bases.pdf" "$tmp/bases"
cp "$(ls "$tmp"/bases-*.png | head -1)" "$out/tag-sizes.png"

# The calibration target, small.
$T target --out "$tmp/target.png" --dpi 50 >/dev/null
convert "$tmp/target.png" -bordercolor '#999' -border 1 "$out/target.png"

# Lighting: the demo table under even light and under a strong side light, what detect then finds.
python3 - "$tmp" <<'PY'
import json, os, sys
t = sys.argv[1]
for name, grad, noise, blur in (("even", 0.1, 1.5, 0.7), ("dim", 0.3, 12.0, 1.6)):
    s = json.load(open("datasets/demo/scene-after.json"))
    for k in ("snapshot", "roster", "camera"):
        if isinstance(s.get(k), str):
            s[k] = os.path.abspath(os.path.join("datasets/demo", s[k]))
    s["render"]["light_gradient"] = grad
    s["render"]["noise_sigma"] = noise
    s["render"]["blur_sigma_px"] = blur
    json.dump(s, open(f"{t}/scene-{name}.json", "w"))
PY
for name in even dim; do
  $T render "$tmp/scene-$name.json" --out "$tmp/r-$name" >/dev/null
  seen=$($T detect "$tmp/r-$name/image.jpg" --calib datasets/demo/calib.json --roster datasets/demo/roster.json \
           --out "$tmp/s-$name.json" 2>&1 | sed -n 's/^detect: .*, \([0-9]*\) models seen.*/\1/p')
  convert "$tmp/r-$name/image.jpg" -resize 50% -gravity south -background white -splice 0x28 \
    -pointsize 18 -annotate +0+4 "$([ $name = even ] && echo 'bright, even light' || echo 'dim light: a noisy, soft picture'): $seen of 21 models seen" "$tmp/l-$name.png"
done
convert "$tmp/l-even.png" "$tmp/l-dim.png" +append "$out/lighting.png"

# A first game: the demo turn refereed, the verdict on the camera picture and the top-down report.
$T referee datasets/demo/before.jpg datasets/demo/after.jpg --table datasets/demo/table.json --out "$tmp/ref" \
  --camera-png --png --report-dpi 150 >/dev/null || true
convert "$tmp/ref/camera.png" -resize 50% "$out/first-game-camera.png"
convert "$tmp/ref/report.png" -resize 60% "$out/first-game-report.png"
ls -la "$out"
