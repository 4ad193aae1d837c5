/*
 * vis_recover_blobs: where the hidden-unit search (vis_recover_hidden.h)
 * looks, and what it finds there before reading anything: candidates for
 * tags apriltag could not segment (dark squares the size of a tag's black
 * square, white rings the size of its printed border) on a shrunk copy of
 * the picture. The whole picture, or, when the picture is read only where it
 * changed since an earlier reading, only there (within the reach of a unit
 * looked for) and where that reading placed the units looked for: a unit
 * cannot have appeared where nothing changed. Not part of the vision
 * library's interface.
 *
 * How to use (inside vis_recover_hidden.c, missing[] one flag per roster unit):
 *   vis_tag_region *boxes; size_t nb;
 *   if (vis_recover_search_boxes(det, &cam, missing, prior, &boxes, &nb) < 0) ... out of memory ...
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
#include "rules_snapshot.h"
#include "vis_camera.h"
#include "vis_detect_types.h"
#include "vis_tag.h"

typedef struct vis_blob {
    double px[2];       /* its centre, full-frame px */
    double ext_px[2];   /* its box's longer and shorter side, pixels */
    bool ring;          /* a white ring (the printed border), not a dark blob */
} vis_blob;

/*
 * The boxes to search for the units flagged in missing[] (nothing of them
 * seen): one covering the whole picture (its core empty) unless the
 * detector reads the picture only where it changed since the reading
 * `prior` comes from (d->changed), its cfg.hidden_where_changed is set and
 * no missing unit is loose; then each
 * changed part's core grown by the farthest two tags of a missing unit can
 * stand apart in its block of bases (files by ranks, diagonally), and the
 * box of the places `prior` gives each missing unit's tags (their pixels
 * there did not change), each searched with a margin a blob centred in it
 * cannot reach past. A unit `prior`
 * did not have cannot have appeared where nothing changed; one it had
 * stands where it stood or moved within what changed. *boxes is malloc'ed
 * (the caller frees it). Returns 0, or -1 when out of memory.
 */
int vis_recover_search_boxes(const vis_detector *d, const vis_camera *cam, const bool *missing,
                             const rules_snapshot *prior, vis_tag_region **boxes, size_t *n);

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
