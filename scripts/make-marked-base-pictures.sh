#!/usr/bin/env bash
# The guide's pictures of marked bases (docs/getting-started.md, "Sticking
# the labels on"): an infantry unit on 20x20 bases, cavalry on 25x50, a
# monster on 50x50 and skirmishers standing apart, each as the renderer draws
# it from the roster `tableref tags layout` writes (rim labels and masts,
# figures standing as real miniatures do, seen from straight above at 10
# pixels a millimetre), beside its label as `tableref tags sheet` prints it,
# a zoom on the label's front mark and the first mast's card; and the unit
# again with the camera 35 degrees off vertical, to show the rods.
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

# Crops of the sheet by pdftoppm: CROP PAGE X_MM Y_MM W_MM H_MM PX_PER_MM OUT (OUT.png).
crop() {
  local dpi x y w h
  dpi=$(python3 -c "print($6 * 25.4)")
  read -r x y w h < <(python3 -c "k=$6; print(round($2*k), round($3*k), round($4*k), round($5*k))")
  pdftoppm -r "$dpi" -png -f "$1" -l "$1" -x "$x" -y "$y" -W "$w" -H "$h" -singlefile "$tmp/sheet.pdf" "$7"
}

# Each unit's first label (0.5 mm round it), a zoom on its front mark (the triangle on the rim's front edge, three
# cells across), and its first mast's card and backing when it has one: "WHAT PAGE X Y W H K" lines, page mm.
crops() { # UNIT
  python3 - "$tmp" "$1" <<'PY'
import json, sys
t, unit = sys.argv[1], sys.argv[2]
lay = json.load(open(f"{t}/layout.json"))
ro = json.load(open(f"{t}/roster-laid-out.json"))
u = next(u for u in ro["units"] if u["id"] == unit)
w, d = u["base_mm"]
first = u["models"][0]["id"]
tag = next(g for g in lay["tags"] if g.get("model") == first)
x0, y0, m = tag["x_mm"] - w / 2, tag["y_mm"] - d / 2, 0.5
k = 270 / (max(w, d) + 2 * m)  # the label's longer side 270 px before the picture's 1.6 zoom
print("label", tag["page"], x0 - m, y0 - m, w + 2 * m, d + 2 * m, round(k, 3))
cell = u["tag"].get("cell_mm", 2)
print("front", tag["page"], x0 + w / 2 - 1.5 * cell, y0 - 0.3, 3 * cell, 1.2 * cell + 0.3, round(300 / (3 * cell), 3))
mast = next((g for g in lay["tags"] if "mast" in g and any(g["mast"] == mm["id"] for mm in u["models"])), None)
if mast:
    c = mast["card_mm"]
    print("mast", mast["page"], mast["x_mm"] - c / 2 - 0.5, mast["y_mm"] - c / 2 - 0.5, c + 1, 2 * c + 1,
          round(380 / (2 * c + 1), 3))
PY
}

for unit in infantry cavalry monster skirmishers; do
  $T render "$tmp/scene-$unit.json" --out "$tmp/r-$unit" >/dev/null
  # The same at a slant (the camera 35 degrees off vertical): the rods, and the figures and labels under the masts.
  python3 -c "import json, sys; s = json.load(open(sys.argv[1])); s['camera'].update(tilt_deg=35, tilt_dir_deg=270); s['camera']['target_mm'][1] -= 12; json.dump(s, open(sys.argv[2], 'w'))" \
    "$tmp/scene-$unit.json" "$tmp/scene-$unit-slant.json"
  $T render "$tmp/scene-$unit-slant.json" --out "$tmp/s-$unit" >/dev/null
  left=()
  while read -r what page x y w h k; do
    crop "$page" "$x" "$y" "$w" "$h" "$k" "$tmp/$what-$unit"
    case $what in
      label) left+=("$tmp/$what-$unit.png" 1.6 "the label as printed") ;;
      front) left+=("$tmp/$what-$unit.png" 1 "its front edge, zoomed: the front mark") ;;
      mast) left+=("$tmp/$what-$unit.png" 1 "a mast's card, the backing to fold under") ;;
    esac
  done < <(crops "$unit")
  case $unit in
    infantry) caption="Infantry on 20x20 bases: rim labels of 2 mm cells, masts on the front rank's first and last model." ;;
    cavalry) caption="Cavalry on 25x50 bases: rim labels of 2.77 mm cells round horse and rider, masts on the first and last." ;;
    monster) caption="A monster on a 50x50 base: a rim label of 5 mm cells and a mast above its wings and tail." ;;
    skirmishers) caption="Skirmishers on 20x20 bases standing apart: each placed by its own label and its own mast." ;;
  esac
  "$tmp/guide_pictures" --beside "$out/marked-$unit.png" "$caption" \
    "$tmp/r-$unit/image.png" 0.6 "stuck on, the figures standing, seen from above (as the camera does)" \
    "$tmp/s-$unit/image.png" 0.4 "the same at a slant: each mast's rod and the figures under it" -- "${left[@]}"
done
ls -la "$out"/marked-*.png
