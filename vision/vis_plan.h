/*
 * vis_plan: where in the frame to look for tags, and at what level of
 * detail. A camera tilted over a 6' x 4' table sees a 16 mm tag 38 px wide
 * on the near side and 24 px on the far side; one decimation for the whole
 * frame either loses the far tags or pays full resolution everywhere. The
 * plan cuts the frame into tiles, works out from the calibration and the
 * roster the smallest tag each tile can hold, and gives each tile the
 * coarsest decimation that still leaves that tag `min_px` wide (a tile
 * whose smallest tag is under `full_res_px`: full resolution). Tiles the
 * board does not reach are not searched at all. Neighbouring tiles with the
 * same decimation are merged into larger regions, each grown by a tag's
 * width so that a tag on a seam is found whole. When one region over all of
 * them at the finest decimation any needs costs at most 1.25x as much (pixels
 * searched after decimation), the plan is that one region: no seam, no pixel
 * searched twice, every tag found at the finer decimation (more tags read
 * blind, before any prediction). Tiles at a whole decimation whose smallest
 * tag is under `unblurred_px` after it are searched without the detector's
 * blur (vis_tag_region.unblurred): their cells are under 2 px there and the
 * blur merges them. They are cut out of the plan the decimations made, never
 * a reason to make it one region.
 *
 * How to use:
 *   vis_plan p;
 *   vis_plan_sizes sizes = {.min_px = 13.0, .full_res_px = 22.0, .unblurred_px = 15.5};
 *   vis_plan_make(&calib, map, &sizes, &p, &err);
 *   vis_tag_detect_regions(tags, gray, w, h, stride, p.regions, p.n, &list, &err);
 *   vis_plan_clear(&p);
 */
#ifndef VIS_PLAN_H
#define VIS_PLAN_H

#include <stddef.h>

#include "calib_file.h"
#include "base_error.h"
#include "roster_map.h"
#include "vis_tag.h"

/* The tag widths (black square, px) a plan is made for. */
typedef struct vis_plan_sizes {
    /* The tag width to keep after decimation (apriltag finds 11-12 px tags reliably). */
    double min_px;
    /* A tile whose smallest tag is under this is searched at full resolution whatever min_px allows: a tag
     * of 3 px per cell or less loses its cells to a small sensor's blur when decimated (0: min_px alone). */
    double full_res_px;
    /* A tile at decimate 2, 3 or 4 whose smallest tag is under this after decimation is searched
     * unblurred (0: none). */
    double unblurred_px;
} vis_plan_sizes;

typedef struct vis_plan {
    vis_tag_region *regions;
    size_t n;
    double min_tag_px, max_tag_px;  /* smallest and largest tag anywhere on the board, px */
    double searched_fraction;       /* share of the frame searched */
    vis_plan_sizes sizes;           /* what the plan was made for */
} vis_plan;

/* Plans for frames of calib->width x calib->height. Returns 0 or -1 (out of memory). */
int vis_plan_make(const calib_file *calib, const roster_map *r, const vis_plan_sizes *sizes, vis_plan *out,
                  base_error *err);
void vis_plan_clear(vis_plan *p);

#endif
