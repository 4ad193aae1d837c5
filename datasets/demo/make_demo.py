#!/usr/bin/env python3
"""Writes the demo turn's snapshots (before/after), roster and scenes.

One turn on a 700 x 500 mm board seen by a camera 1 m up:
  spears  (red)  a column 2 wide and 4 deep Marches: forward 5", then wheels
                 65 degrees right. The path (forward + the outer front
                 corner's arc) is 7.23", inside the 10" March Rate, but the
                 wheel swings the rear models farther than 10": illegal
                 (MU-MODEL-DIST), the classic deep-column wheel.
  knights (red)  3 wide, Advances forward 3" and wheels 12 degrees left: legal.
  archers (blue) do not move.
Run from anywhere; regenerates the JSON beside this script. The images come
from `tableref render` (see README.md here).
"""
import json, math, os

HERE = os.path.dirname(os.path.abspath(__file__))
IN = 25.4

def block(uid, front, heading_deg, files, n, bw, bd):
    h = math.radians(heading_deg)
    fwd = (math.cos(h), math.sin(h))
    right = (math.sin(h), -math.cos(h))
    out = []
    for k in range(n):
        f, r = k % files, k // files
        a = (f - (files - 1) / 2) * bw
        d = (r + 0.5) * bd
        out.append({"id": f"{uid}-{k + 1}",
                    "x_mm": round(front[0] + right[0] * a - fwd[0] * d, 3),
                    "y_mm": round(front[1] + right[1] * a - fwd[1] * d, 3),
                    "facing_deg": round(heading_deg, 3)})
    return out

def forward(p, dist):
    h = math.radians(p[2])
    return (p[0] + dist * math.cos(h), p[1] + dist * math.sin(h), p[2])

def wheel(p, width, deg):
    """Wheel about the front corner on the side it turns to (deg < 0: right)."""
    h = math.radians(p[2])
    left = (-math.sin(h), math.cos(h))
    side = 1 if deg > 0 else -1
    piv = (p[0] + left[0] * side * width / 2, p[1] + left[1] * side * width / 2)
    a = math.radians(deg)
    dx, dy = p[0] - piv[0], p[1] - piv[1]
    return (piv[0] + dx * math.cos(a) - dy * math.sin(a), piv[1] + dx * math.sin(a) + dy * math.cos(a), p[2] + deg)

UNITS = {
    "spears": dict(side="red", base=(25, 40), adv=5, march=10, files=2, n=8, tag=dict(offset=(9, 0), size=16)),
    "knights": dict(side="red", base=(25, 50), adv=8, march=16, files=3, n=3, tag=dict(offset=(14, 0), size=16)),
    "archers": dict(side="blue", base=(25, 40), adv=5, march=10, files=5, n=10, tag=dict(offset=(9, 0), size=16)),
}

def poses():
    sp0 = (150.0, 200.0, 90.0)
    sp1 = wheel(forward(sp0, 5 * IN), 2 * 25, -65)
    kn0 = (430.0, 120.0, 90.0)
    kn1 = wheel(forward(kn0, 3 * IN), 3 * 25, 12)
    ar = (560.0, 400.0, -90.0)
    return {"before": {"spears": sp0, "knights": kn0, "archers": ar},
            "after": {"spears": sp1, "knights": kn1, "archers": ar}}

def snapshot(which):
    units = []
    for uid, u in UNITS.items():
        p = poses()[which][uid]
        units.append({"id": uid, "side": u["side"], "base_mm": list(u["base"]),
                      "advance_in": u["adv"], "march_in": u["march"], "status": [],
                      "models": block(uid, p[:2], p[2], u["files"], u["n"], *u["base"])})
    return {"format": "tableref.snapshot", "version": 1,
            "board": {"width_mm": 700, "depth_mm": 500}, "ruleset": "t9a-2ed", "units": units}

def roster():
    tags = [{"id": i, "x_mm": x, "y_mm": y, "height_mm": 0, "rotation_deg": 0, "size_mm": 30}
            for i, (x, y) in enumerate([(30, 30), (670, 30), (670, 470), (30, 470)])]
    units, tid = [], 10
    for uid, u in UNITS.items():
        models = []
        for k in range(u["n"]):
            models.append({"id": f"{uid}-{k + 1}", "tag_id": tid})
            tid += 1
        units.append({"id": uid, "side": u["side"], "base_mm": list(u["base"]), "advance_in": u["adv"],
                      "march_in": u["march"], "status": [], "files": u["files"],
                      "tag": {"offset_mm": list(u["tag"]["offset"]), "rotation_deg": 0, "height_mm": 4,
                              "size_mm": u["tag"]["size"]},
                      "models": models})
    return {"format": "tableref.roster", "version": 1, "family": "tag36h11",
            "board": {"width_mm": 700, "depth_mm": 500, "tags": tags}, "units": units}

def scene(which, seed):
    return {"format": "tableref.scene", "version": 1, "snapshot": f"{which}.json", "roster": "roster.json",
            "camera": {"image_size": [1280, 960], "focal_px": 1500, "height_mm": 1000, "tilt_deg": 8,
                       "tilt_dir_deg": 30, "target_mm": [350, 250], "distortion": [-0.1, 0.04, 0.0004, -0.0003, 0]},
            "render": {"seed": seed, "supersample": 2, "figures": 1, "spear_fraction": 0.2, "banner_fraction": 0.05,
                       "hands": 0, "textures": 1, "light_gradient": 0.3, "vignetting": 0.2, "blur_sigma_px": 0.7,
                       "noise_sigma": 2.0, "jpeg_quality": 90}}

def dump(name, obj):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")

if __name__ == "__main__":
    dump("before.json", snapshot("before"))
    dump("after.json", snapshot("after"))
    dump("roster.json", roster())
    dump("scene-before.json", scene("before", 11))
    dump("scene-after.json", scene("after", 12))
