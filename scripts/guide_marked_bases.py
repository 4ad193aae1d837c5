#!/usr/bin/env python3
"""The guide's pictures of marked bases (docs/getting-started.md, "Sticking the labels on").

Writes, into the folder given, a roster with no layout (square tags; an infantry
unit on 20x20 bases, cavalry on 25x50, a monster on 50x50, skirmishers on
20x20 standing apart), the snapshot standing them on a small board, and one
scene per unit: a camera straight above it at 10 pixels a millimetre, the
renderer's real style with figures standing as real miniatures do.
make-guide-pictures.sh lays the marks out with `tableref tags layout`, renders
each scene from that roster alone, prints the sheet and puts the label as
printed beside each picture. Not part of the build or the tests.

    python3 scripts/guide_marked_bases.py DIR
"""
import json
import math
import os
import sys

BOARD = (600, 400)
# name, base (front, side), files, ranks, loose, centre (board mm), facing (deg)
UNITS = [
    ("infantry", (20, 20), 4, 2, False, (120, 150)),
    ("cavalry", (25, 50), 3, 1, False, (300, 150)),
    ("monster", (50, 50), 1, 1, False, (470, 150)),
    ("skirmishers", (20, 20), 4, 1, True, (300, 300)),
]
FACING = 90.0  # every unit faces +y: the top of the pictures
# Skirmishers stand apart (seed 002's Dynamic Formations): offsets from the unit's centre, mm.
LOOSE = [(-38, 6), (-9, -14), (19, 10), (44, -8)]


def models(name, base, files, ranks, loose, centre):
    w, d = base
    out = []
    f = math.radians(FACING)
    fx, fy = math.cos(f), math.sin(f)   # forward
    lx, ly = -fy, fx                     # left
    k = 0
    for r in range(ranks):
        for c in range(files):
            if loose:
                dx, dy = LOOSE[c]
                across, along = dx, dy
            else:
                across = (c - (files - 1) / 2) * w
                along = -(r - (ranks - 1) / 2) * d
            # "across" to the right of the facing: minus left.
            x = centre[0] - across * lx + along * fx
            y = centre[1] - across * ly + along * fy
            k += 1
            out.append({"id": f"{name}-{k}", "x_mm": round(x, 3), "y_mm": round(y, 3), "facing_deg": FACING})
    return out


def main(folder):
    os.makedirs(folder, exist_ok=True)
    board_tags = [{"id": i, "x_mm": x, "y_mm": y, "height_mm": 0, "rotation_deg": 0, "size_mm": 30}
                  for i, (x, y) in enumerate([(30, 30), (570, 30), (570, 370), (30, 370)])]
    roster = {"format": "tableref.roster", "version": 1, "family": "tag36h11",
              "board": {"width_mm": BOARD[0], "depth_mm": BOARD[1], "tags": board_tags}, "units": []}
    snap = {"format": "tableref.snapshot", "version": 1, "board": {"width_mm": BOARD[0], "depth_mm": BOARD[1]},
            "ruleset": "t9a-2ed", "units": []}
    tag = 10
    for name, base, files, ranks, loose, centre in UNITS:
        ms = models(name, base, files, ranks, loose, centre)
        ru = {"id": name, "side": "red", "base_mm": list(base), "advance_in": 5, "march_in": 10, "status": [],
              "files": files,
              # As rosters were before rim labels: a square tag sized to the base (tags layout replaces it).
              "tag": {"offset_mm": [0, 0], "rotation_deg": 0, "height_mm": 3.5,
                      "size_mm": math.floor(min(base[0] - 1.6, base[1] - 5) / 1.25 * 2) / 2},
              "models": []}
        if loose:
            ru["loose"] = True
        for m in ms:
            ru["models"].append({"id": m["id"], "tag_id": tag})
            tag += 2
        roster["units"].append(ru)
        snap["units"].append({"id": name, "side": "red", "base_mm": list(base), "advance_in": 5, "march_in": 10,
                              "status": [], "models": ms})
        span = (files * base[0] + 30, ranks * base[1] + 30)
        if loose:
            span = (120, 100)
        size = [int(span[0] * 10) // 8 * 8, int(span[1] * 10) // 8 * 8]
        scene = {"format": "tableref.scene", "version": 1, "snapshot": "snapshot.json", "roster": "roster-laid-out.json",
                 "camera": {"image_size": size, "focal_px": 10000, "height_mm": 1000, "tilt_deg": 0,
                            "tilt_dir_deg": 0, "target_mm": list(centre), "distortion": [0, 0, 0, 0, 0]},
                 "render": {"seed": 3, "supersample": 2, "figures": 1, "style": "real", "miniatures": 1,
                            "hands": 0, "textures": 1, "light_gradient": 0.1, "vignetting": 0, "blur_sigma_px": 0.5,
                            "noise_sigma": 1, "jpeg_quality": 0}}
        json.dump(scene, open(os.path.join(folder, f"scene-{name}.json"), "w"), indent=1)
    json.dump(roster, open(os.path.join(folder, "roster.json"), "w"), indent=1)
    json.dump(snap, open(os.path.join(folder, "snapshot.json"), "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
