/*
 * vis_patch: each model's tag as the camera saw it at a settle, to tell
 * at a later settle whether a tag the detector did not read there is still
 * exactly where it was (its pixels unchanged) or hidden (a hand, a figure
 * moved over it).
 *
 * Why: a tag the camera reads only just (a 4K webcam's 24 px tag, partly
 * under its figure's overhang) is read at one settle and not at the next,
 * with nothing on the table changed. Taken for a hand, it stops the watch
 * from settling, and a move is never called. The tag's own pixels are the
 * evidence: sampled on a grid in the tag's plane at the model's pose, they
 * correlate (zero-mean, normalised: the camera's gain and the room's light
 * may change) with what was seen when the tag was read only if the same
 * tag still lies there; a hand, an empty board, another tag or the same
 * tag moved by a millimetre do not. The projector never lights a label
 * (ov_keepout), so the watch's own light does not change these pixels.
 * The watch reaches it only through the referee's reading of a frame
 * (referee/ref_snapshot.h: ref_read_options.since).
 *
 * How to use:
 *   vis_patches *p = vis_patches_take(map, &cam, relief, snapshot, &gray, NULL);   // at a settle (map: roster_map.h)
 *   ...
 *   vis_patch_fit f;
 *   if (vis_patches_still(p, model_index, &gray, &f)) ...   // later: the tag lies where it was seen
 *   vis_patches_free(p);
 */
#ifndef VIS_PATCH_H
#define VIS_PATCH_H

#include <stddef.h>

#include "base_image.h"
#include "rules_snapshot.h"
#include "vis_camera.h"
#include "vis_relief.h"
#include "roster_map.h"

/* A tag lies where it was seen when its patch correlates at VIS_PATCH_SAME or more there, and no place within
 * 3 mm and 6 degrees correlates better than one within VIS_PATCH_SHIFT_MM and VIS_PATCH_TURN_DEG (half the
 * watch's jitter: a bigger tag's cells are bigger, so the correlation alone falls slower as it moves).
 * vis_patch.c gives the figures. */
#define VIS_PATCH_SAME 0.85
#define VIS_PATCH_SHIFT_MM 1.0
#define VIS_PATCH_TURN_DEG 2.0

/* How a tag's pixels now fit its patch. */
typedef struct vis_patch_fit {
    double at_pose;   /* correlation at the pose the patch was taken at (NAN: no evidence) */
    double best;      /* the best correlation of the search */
    double shift_mm;  /* where the best lies: moved by this much */
    double turn_rad;  /* and turned by this much */
} vis_patch_fit;

typedef struct vis_patches vis_patches;

/*
 * The tags of every model `s` places from its tag (not inferred), sampled in `gray` (one channel, the camera's
 * full frame) at their poses in `s`, each tag at its height over the table's relief (NULL: flat); models `s` does not place from a tag keep their patch from `keep` (may be
 * NULL). NULL when out of memory.
 */
vis_patches *vis_patches_take(const roster_map *r, const vis_camera *cam, const vis_relief *relief,
                              const rules_snapshot *s, const base_view *gray, const vis_patches *keep);

/* The correlation (-1..1) of roster model `model`'s tag now in `gray`, at the pose its patch was taken, with the
 * patch; NAN when it has no patch or the patch has no contrast (no evidence either way). */
double vis_patches_match(const vis_patches *p, size_t model, const base_view *gray);

/* Does roster model `model`'s tag lie where its patch was taken (see VIS_PATCH_SAME)? `fit` says how well. */
bool vis_patches_still(const vis_patches *p, size_t model, const base_view *gray, vis_patch_fit *fit);

/* The pose a model's patch was taken at (false when it has none). */
bool vis_patches_pose(const vis_patches *p, size_t model, base_vec2 *pos, double *facing);

void vis_patches_free(vis_patches *p);

#endif
