#!/usr/bin/env bash
# The guide's pictures of marked bases (docs/getting-started.md, "Sticking
# the labels on"): an infantry unit on 20x20 bases, cavalry on 25x50, a
# monster on 50x50 and skirmishers standing apart, each as the renderer draws
# it from the roster `tableref tags layout` writes (rim labels, figures
# standing as real miniatures do, seen from straight above at 10 pixels a
# millimetre), beside its label as `tableref tags sheet` prints it.
# Called by make-guide-pictures.sh; needs a built tableref (build/),
# poppler-utils (pdftoppm) and cairo's headers. Writes OUTDIR/marked-*.png.
set -euo pipefail
cd "$(dirname "$0")/.."
T=./build/cli/tableref
out=${1:-docs/pictures}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
cc -O2 -Wall scripts/guide_pictures.c $(pkg-config --cflags --libs cairo) -lm -o "$tmp/guide_pictures"

# The roster (square tags, as before rim labels), the table and one scene a unit; the marks laid out.
python3 scripts/guide_marked_bases.py "$tmp"
$T tags layout "$tmp/roster.json" --out "$tmp/roster-laid-out.json"
$T tags sheet "$tmp/roster-laid-out.json" --out "$tmp/sheet.pdf" --no-board --layout "$tmp/layout.json" >/dev/null

# Each unit's first label, cut from the sheet at 508 dpi (20 px a mm, twice the renders' scale), 0.5 mm round it.
label_png() { # UNIT -> $tmp/label-UNIT.png
  read -r page x y w h < <(python3 - "$tmp" "$1" <<'PY'
import json, sys
t, unit = sys.argv[1], sys.argv[2]
lay = json.load(open(f"{t}/layout.json"))
ro = json.load(open(f"{t}/roster-laid-out.json"))
u = next(u for u in ro["units"] if u["id"] == unit)
w, d = u["base_mm"]
tag = next(g for g in lay["tags"] if g.get("model") == u["models"][0]["id"])
k, m = 20.0, 0.5  # px a mm, margin mm
print(tag["page"], round((tag["x_mm"] - w / 2 - m) * k), round((tag["y_mm"] - d / 2 - m) * k),
      round((w + 2 * m) * k), round((d + 2 * m) * k))
PY
)
  pdftoppm -r 508 -png -f "$page" -l "$page" -x "$x" -y "$y" -W "$w" -H "$h" -singlefile "$tmp/sheet.pdf" "$tmp/label-$1"
}

for unit in infantry cavalry monster skirmishers; do
  $T render "$tmp/scene-$unit.json" --out "$tmp/r-$unit" >/dev/null
  label_png "$unit"
  case $unit in
    infantry) caption="Infantry on 20x20 bases: 2 mm cells; the triangle on each label's front edge points the way the model faces." ;;
    cavalry) caption="Cavalry on 25x50 bases: 2.77 mm cells round the horse and rider." ;;
    monster) caption="A monster on a 50x50 base: 5 mm cells; the code shows between its wings, tail and feet." ;;
    skirmishers) caption="Skirmishers on 20x20 bases standing apart: each placed by its own label." ;;
  esac
  "$tmp/guide_pictures" --beside "$out/marked-$unit.png" "$caption" "$tmp/label-$unit.png" "$tmp/r-$unit/image.png" 0.6
done
ls -la "$out"/marked-*.png
