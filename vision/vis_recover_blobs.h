/*
 * vis_recover_blobs: where the hidden-unit search (vis_recover_hidden.h)
 * looks, and what it finds there before reading anything: candidates for
 * tags apriltag could not segment (dark squares the size of a tag's black
 * square, white rings the size of its printed border) on a shrunk copy of
 * the picture. The whole picture, or, when the picture is read only where it
 * changed since a reading that did not have any of the units looked for,
 * only there and within the reach of such a unit: a unit unseen then, whose
 * part of the picture did not change, cannot have appeared in it. Not part
 * of the vision library's interface.
 *
 * How to use (inside vis_recover_hidden.c, missing[] one flag per roster unit):
 *   vis_tag_region *boxes; size_t nb;
 *   if (vis_recover_search_boxes(det, &cam, missing, &boxes, &nb) < 0) ... out of memory ...
 *   vis_blob *blobs = malloc(cap * sizeof *blobs);
 *   size_t searched_px = 0;
 *   long n = vis_recover_find_blobs(det, &image, boxes, nb, black, white, blobs, cap, &searched_px);
 *   free(boxes);
 */
#ifndef VIS_RECOVER_BLOBS_H
#define VIS_RECOVER_BLOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "base_image.h"
#include "vis_camera.h"
#include "vis_detect_types.h"
#include "vis_tag.h"

typedef struct vis_blob {
    double px[2];       /* its centre, full-frame px */
    double ext_px[2];   /* its box's longer and shorter side, pixels */
    bool ring;          /* a white ring (the printed border), not a dark blob */
} vis_blob;

/*
 * The boxes to search for the units flagged in missing[]: one covering the
 * whole picture (its core empty) unless the detector reads the picture only
 * where it changed (d->changed) and every missing unit is one the reading
 * it changed from did not have, of models standing in one block (not loose);
 * then each changed part's core grown by the farthest such a unit's tags can
 * stand from one another (its block of bases, files by ranks, diagonally)
 * as the core, searched with a margin of two tags' widths. *boxes is
 * malloc'ed (the caller frees it). Returns 0, or -1 when out of memory.
 */
int vis_recover_search_boxes(const vis_detector *d, const vis_camera *cam, const bool *missing,
                             vis_tag_region **boxes, size_t *n);

/*
 * Dark blobs darker than black + 0.45 (white - black) the size of a black
 * square, whole or bitten, then white rings brighter than black + 0.7
 * (white - black) the size of a printed tag with a hole in it, found in each
 * box (on two threads) and kept when centred in its core (an empty core:
 * anywhere) and in no earlier box's core; at most cap / 2 of each kind.
 * Adds the pixels searched to *searched_px. Returns their count, -1 when
 * out of memory.
 */
long vis_recover_find_blobs(const vis_detector *d, const base_view *im, const vis_tag_region *boxes, size_t n,
                            double black, double white, vis_blob *blobs, size_t cap, size_t *searched_px);

#endif
