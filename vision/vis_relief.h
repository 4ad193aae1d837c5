/*
 * vis_relief: the table's relief as the camera meets it. A tag stands on
 * its base, and its base on the table's surface (rules_relief.h: the board,
 * or a hill's top or slope under the base's centre); the camera sees the
 * tag along a ray, and where along that ray it stands depends on where it
 * stands. So a tag is placed where its ray first meets the surface raised
 * by the tag's own height above it, the surface taken under the base's
 * centre (a unit straddling a hill's edge has models at two heights): the
 * position <-> height loop solved along the ray, from the top down (the
 * first surface a ray meets is the one the camera sees).
 *
 * Why along the ray and not by iterating from the board: a tag on a hill's
 * top near its edge, read at the board's height, lands beyond the edge
 * (pushed outward from the point under the camera by height x r / (H - h)),
 * where the board is flat: the loop would stop there, 16-60 mm off.
 *
 * A tag's apparent size also tells its height: the same printed square
 * seen from a calibrated camera reads larger the nearer it is
 * (vis_relief_apparent_height), the cross-check of the table's relief
 * (vis_height.h).
 *
 * How to use:
 *   vis_relief rel; vis_relief_init(&rel);
 *   vis_relief_set(&rel, snap->terrain, snap->n_terrain, &err);   // the hills (copied); none: a flat table
 *   double z = vis_relief_tag_z(&rel, &mount, base_centre);         // the tag's plane there
 *   vis_board_tag_pose p; double zt;
 *   vis_relief_place_tag(&rel, &cam, &tag, &mount, &p, &zt);        // where a seen tag stands
 *   vis_relief_clear(&rel);
 * A NULL or empty relief is the flat board: every call then does what the
 * flat table's code did (the tag at its mount's height).
 */
#ifndef VIS_RELIEF_H
#define VIS_RELIEF_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "base_geom.h"
#include "roster_map.h"
#include "rules_snapshot.h"
#include "vis_board.h"
#include "vis_camera.h"
#include "vis_tag.h"

typedef struct vis_relief {
    rules_snapshot *hills;  /* the pieces models stand on (copies, in a snapshot with no units); NULL: flat */
    double top_mm;          /* the highest of them */
} vis_relief;

void vis_relief_init(vis_relief *r);
/* Takes the hills among `t` (copies; buildings and flat pieces count for nothing). 0, or -1 when out of memory. */
int vis_relief_set(vis_relief *r, const rules_terrain *t, size_t n, base_error *err);
/* A copy of `from` into a cleared `to`. 0 or -1 when out of memory. */
int vis_relief_copy(vis_relief *to, const vis_relief *from);
void vis_relief_clear(vis_relief *r);
/* Is there anything to stand on above the board? */
bool vis_relief_any(const vis_relief *r);

/* The surface's height at p (0 on the board); *sigma_mm (optional) its 1 sigma. */
double vis_relief_height(const vis_relief *r, base_vec2 p, double *sigma_mm);
/* The height of the plane of a tag mounted by `m` on a base centred at `base_centre`. */
double vis_relief_tag_z(const vis_relief *r, const roster_tag_mount *m, base_vec2 base_centre);

/* The pose a tag has on the plane z = to_mm, from its pose on z = from_mm: the camera's rays meet parallel
 * planes in figures scaled about the point under the camera (a homothety), so nothing is read again. */
void vis_relief_pose_at(const vis_camera *cam, const vis_board_tag_pose *from, double from_mm, double to_mm,
                        vis_board_tag_pose *to);
/*
 * Where a seen tag stands: its pose on the plane at its height, that height (*tag_z), found along its ray
 * from the top down, the surface taken under its base's centre. False when its rays miss the board.
 */
bool vis_relief_place_tag(const vis_relief *r, const vis_camera *cam, const vis_tag_detection *t,
                          const roster_tag_mount *m, vis_board_tag_pose *out, double *tag_z);
/* The same for a tag already located on the plane of its mount's height (pose `at_mount`). */
double vis_relief_place_pose(const vis_relief *r, const vis_camera *cam, const vis_board_tag_pose *at_mount,
                             const roster_tag_mount *m, vis_board_tag_pose *out);
/* Where a pixel's ray first meets the surface raised by `above_mm` (a tag's height over its base's bottom),
 * the surface taken under the ray's point: out[3], board mm. False when the ray misses. */
bool vis_relief_cast_pixel(const vis_relief *r, const vis_camera *cam, const double px[2], double above_mm,
                           double out[3]);

/*
 * The height (mm) a tag seems to stand at from its apparent size: `pose` was located on the plane z =
 * at_mm and measured `pose->size_mm` there; the printed square is `printed_mm`. The pinhole camera's rays
 * scale sizes on parallel planes by (C_z - z), so z = C_z - (C_z - at_mm) * printed / measured.
 */
double vis_relief_apparent_height(const vis_camera *cam, const vis_board_tag_pose *pose, double at_mm,
                                  double printed_mm);

#endif
