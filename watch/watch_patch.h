/*
 * watch_patch: each model's tag as the camera saw it at a settle, to tell
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
 *
 * How to use:
 *   watch_patches *p = watch_patches_take(roster, &cam, snapshot, &gray, NULL);   // at a settle
 *   ...
 *   watch_patch_fit f;
 *   if (watch_patches_still(p, model_index, &gray, &f)) ...   // later: the tag lies where it was seen
 *   watch_patches_free(p);
 */
#ifndef WATCH_PATCH_H
#define WATCH_PATCH_H

#include <stddef.h>

#include "base_image.h"
#include "rules_snapshot.h"
#include "vis_camera.h"
#include "roster.h"

/* A tag lies where it was seen when its patch correlates at WATCH_PATCH_SAME or more there, and no place within
 * 3 mm and 6 degrees correlates better than one within WATCH_PATCH_SHIFT_MM and WATCH_PATCH_TURN_DEG (half the
 * watch's jitter: a bigger tag's cells are bigger, so the correlation alone falls slower as it moves).
 * watch_patch.c gives the figures. */
#define WATCH_PATCH_SAME 0.85
#define WATCH_PATCH_SHIFT_MM 1.0
#define WATCH_PATCH_TURN_DEG 2.0

/* How a tag's pixels now fit its patch. */
typedef struct watch_patch_fit {
    double at_pose;   /* correlation at the pose the patch was taken at (NAN: no evidence) */
    double best;      /* the best correlation of the search */
    double shift_mm;  /* where the best lies: moved by this much */
    double turn_rad;  /* and turned by this much */
} watch_patch_fit;

typedef struct watch_patches watch_patches;

/*
 * The tags of every model `s` places from its tag (not inferred), sampled in `gray` (one channel, the camera's
 * full frame) at their poses in `s`; models `s` does not place from a tag keep their patch from `keep` (may be
 * NULL). NULL when out of memory.
 */
watch_patches *watch_patches_take(const roster_file *r, const vis_camera *cam, const rules_snapshot *s,
                                  const base_view *gray, const watch_patches *keep);

/* The correlation (-1..1) of roster model `model`'s tag now in `gray`, at the pose its patch was taken, with the
 * patch; NAN when it has no patch or the patch has no contrast (no evidence either way). */
double watch_patches_match(const watch_patches *p, size_t model, const base_view *gray);

/* Does roster model `model`'s tag lie where its patch was taken (see WATCH_PATCH_SAME)? `fit` says how well. */
bool watch_patches_still(const watch_patches *p, size_t model, const base_view *gray, watch_patch_fit *fit);

/* The pose a model's patch was taken at (false when it has none). */
bool watch_patches_pose(const watch_patches *p, size_t model, base_vec2 *pos, double *facing);

void watch_patches_free(watch_patches *p);

#endif
