/*
 * ov_map: the one board -> target mapping every overlay drawing goes
 * through. Three kinds: a calibrated camera (pose, pinhole, OpenCV's lens
 * distortion), a projector (a plane homography), and a top-down page
 * (scale and flip: board y runs up the page).
 *
 * How to use:
 *   ov_map m; ov_map_init_camera(&m, &calib);      // or _homography / _page
 *   double px[2];
 *   if (ov_map_point(&m, base_v2(x, y), px)) ... px in target pixels
 *   double s = ov_map_scale(&m, p);                 // px per mm around p
 * Plain data, nothing to free. Pixels use OpenCV's convention (centre of the
 * top-left pixel = (0, 0)). Straight board lines are curves under a lens:
 * callers subdivide (ov_map_step_mm_at gives a step fine enough about a point).
 *
 * On a table with relief (ov_map_set_relief: its terrain, borrowed), every
 * point is mapped at the height of the surface under it (rules_relief.h): a
 * camera sees a point on a hill's top where the top is; a projector lights
 * it along its ray through that point, which meets the board plane its
 * homography maps further out (ov_map_set_source: the projector's optical
 * centre, calib_projector.position_mm; without it a projector map stays on
 * the board plane). A top-down page is the same with or without.
 *   ov_map_set_relief(&m, snap->terrain, snap->n_terrain);
 *   ov_map_set_source(&m, calib.projector.position_mm);   // a projector's, when the calibration states it
 */
#ifndef OV_MAP_H
#define OV_MAP_H

#include <stdbool.h>

#include "calib_file.h"
#include "base_geom.h"
#include "rules_snapshot.h"

typedef enum ov_map_kind {
    OV_MAP_CAMERA = 0,
    OV_MAP_HOMOGRAPHY,
    OV_MAP_PAGE,
} ov_map_kind;

typedef struct ov_map {
    ov_map_kind kind;
    /* camera */
    double R[9], t[3];
    double fx, fy, cx, cy, dist[5];
    /* homography: board mm -> px, row-major */
    double H[9];
    /* page: px = (x - x0) * s + ox, py = (y0 + d - y) * s + oy */
    double x0, y0, d, s, ox, oy;
    /* relief: the terrain whose hills raise the surface (borrowed; NULL: flat), the light's source */
    const rules_terrain *terrain;
    size_t n_terrain;
    bool has_source;
    double source[3];
} ov_map;

void ov_map_init_camera(ov_map *m, const calib_file *c);
/* The same camera seen in a frame of width x height (another size than calibrated: the intrinsics
 * scaled, same lens resampled). */
void ov_map_init_camera_sized(ov_map *m, const calib_file *c, int width, int height);
/* Returns -1 when H is singular (not a mapping). */
int ov_map_init_homography(ov_map *m, const double H[9]);
/* The board window [x0, x0 + w] x [y0, y0 + d] drawn at `px_per_mm`, offset by (ox, oy) px on the page. */
void ov_map_init_page(ov_map *m, double x0, double y0, double d, double px_per_mm, double ox, double oy);

/* The table's relief: points are mapped at the surface's height (terrain borrowed: it must outlive the map's
 * use; NULL, 0: flat). */
void ov_map_set_relief(ov_map *m, const rules_terrain *terrain, size_t n);
/* A projector map's light source, board mm (its optical centre, z above the board). */
void ov_map_set_source(ov_map *m, const double source[3]);
/* The surface's height at a board point (0 without relief). */
double ov_map_height(const ov_map *m, base_vec2 board);

/* Board point on the table's surface (the board plane, z = 0, unless relief raises it) -> target px. False when
 * it cannot be seen (behind the camera). */
bool ov_map_point(const ov_map *m, base_vec2 board, double px[2]);
/* The same at a height of its own (mm above the board). */
bool ov_map_point_at(const ov_map *m, base_vec2 board, double z_mm, double px[2]);
/* Local scale (px per board mm) about p: the mean of the Jacobian's singular values. 0 when unmappable. */
double ov_map_scale(const ov_map *m, base_vec2 p);
/* Subdivision step (mm) so a mapped chord strays under ~0.05 px from the true curve: 2 mm for
 * cameras (distortion bends slowly) and for any map over relief (a line bends where it climbs), unlimited for
 * homographies and pages (lines stay lines). */
double ov_map_step_mm(const ov_map *m);
/* The step about p for a chord of a few pixels: a camera's picture shrunk to a screen's size (1352 px across
 * 1830 mm) draws a board line as a point every 1.5 px at 2 mm, and stroking those points (their joins) was most
 * of the camera drawing's time. Without relief a camera's step is at least 8 px there (its chord strays under
 * 0.02 px: a lens bends a line over hundreds of pixels); over relief, and for the other maps, ov_map_step_mm. */
double ov_map_step_mm_at(const ov_map *m, base_vec2 p);

#endif
