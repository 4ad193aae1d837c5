/*
 * vis_board: from tag pixels to board millimetres.
 *
 * How to use:
 *   vis_camera cam; vis_camera_init(&cam, &calib);
 *   vis_board_refine_pose(&cam, map, tags, n, 3, 0.3, &rms_px, &used, &err);  // optional, needs >= 3 board tags
 *   vis_board_tag_pose p;
 *   vis_board_locate_tag(&cam, &tags[i], height_mm, &p);
 * Each tag is located on the plane at its own height: a 4 mm tag seen 35
 * degrees off-axis lands ~3 mm away from where the board plane would put it.
 */
#ifndef VIS_BOARD_H
#define VIS_BOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "base_geom.h"
#include "vis_camera.h"
#include "roster_map.h"
#include "vis_tag.h"

typedef struct vis_board_tag_pose {
    base_vec2 centre;    /* mm on the plane z = height */
    double heading;       /* rad: the tag's "up" on the board */
    double size_mm;       /* mean edge length as measured (a check against the roster) */
    double square_residual_mm;  /* worst corner's distance from the best-fitting square of that size */
} vis_board_tag_pose;

/* Locates one detected tag on the plane z = height_mm. False when a corner's ray misses the plane. */
bool vis_board_locate_tag(const vis_camera *cam, const vis_tag_detection *t, double height_mm,
                          vis_board_tag_pose *out);

/*
 * Re-estimates the board-to-camera pose from the roster's board tags found
 * among `tags` (all four corners of each), starting from cam's pose, and
 * updates cam when at least `min_tags` were found. *used gets the number of
 * board tags used, *rms_px the reprojection RMS (after refinement, or of
 * the given pose when it was kept). A pose whose RMS is already below
 * `keep_below_px` is kept: re-solving would only add corner noise.
 * Returns 1 when refined, 0 when kept or too few tags, -1 on a solver error.
 */
int vis_board_refine_pose(vis_camera *cam, const roster_map *r, const vis_tag_detection *tags, size_t n,
                          int min_tags, double keep_below_px, double *rms_px, int *used, base_error *err);

#endif
