/*
 * ds_hill: a hill on a rendered table (issue 28): a rectangular flat top,
 * its height, and sides sloping down to a foot the top grown by `slope_mm`
 * (sheer without), added to a snapshot as a terrain piece of relief "hill",
 * open ground (rules_relief.h). And what a table generator needs of them:
 * hills laid out on a table (three or more, 30-80 mm, one near a long
 * edge), whether a unit's footprint stands wholly on a hill's top, whether
 * it keeps clear of every hill and of the board a hill hides from the
 * camera.
 *
 * How to use:
 *   ds_hill h = {"hill-1", base_v2(900, 600), 300, 200, 0, 50, 25};
 *   ds_hill_add(snapshot, &h);                                   // a "hill" terrain piece, open ground
 *   ds_hill_layout(snapshot, heights, 3, &rng);                  // a table's hills, at random
 *   if (ds_hill_holds(&snapshot->terrain[k], &box, 6)) ...       // a unit wholly on its top
 *   if (ds_hill_clear(snapshot, camera_xyz, &box, 25)) ...       // a unit on the board, clear of them all
 */
#ifndef DS_HILL_H
#define DS_HILL_H

#include <stdbool.h>
#include <stddef.h>

#include "base_geom.h"
#include "ds_canvas.h"
#include "rules_snapshot.h"

typedef struct ds_hill {
    char id[32];
    base_vec2 centre;      /* its top's centre, board mm */
    double width, depth;   /* its top, mm */
    double turn;           /* rad: the direction of its width on the board */
    double height_mm;
    double slope_mm;       /* how far its foot runs out beyond its top; 0: sheer sides */
} ds_hill;

/* Adds the hill to the snapshot's terrain: open ground, relief "hill", its foot when it slopes. 0, -1 out of
 * memory. */
int ds_hill_add(rules_snapshot *s, const ds_hill *h);
/* Its top's corners, and its foot's (the top's grown by slope_mm; the top's own when sheer). */
void ds_hill_corners(const ds_hill *h, base_vec2 top[4], base_vec2 foot[4]);

/*
 * `n` hills of `heights` (mm) laid out at random on the snapshot's board, 150 mm apart at their feet and off the
 * board's corners; the tallest with its foot 40-80 mm from a long edge. Returns how many were placed, -1 when
 * out of memory.
 */
int ds_hill_layout(rules_snapshot *s, const double *heights, int n, ds_rng *r);
/* Does the top of terrain piece t hold the box wholly, `inset_mm` inside its outline? */
bool ds_hill_holds(const rules_terrain *t, const base_obb *b, double inset_mm);
/* Does the box keep `margin_mm` clear of every hill's foot, and of the board a hill hides from a camera at
 * `camera` behind it? */
bool ds_hill_clear(const rules_snapshot *s, const double camera[3], const base_obb *b, double margin_mm);

#endif
