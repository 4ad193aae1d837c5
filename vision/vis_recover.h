/*
 * vis_recover: reading tags that apriltag's quad finder could not, from the
 * picture itself. A tag partly covered by a leaning figure or a hand loses
 * the clean black square the quad finder needs, but its visible cells still
 * carry its code: fitting the roster's tag outline near a dark blob and
 * reading the visible data cells against the family's codes recovers it.
 *
 * Today: units of which no tag at all was decoded (every tag partly hidden)
 * are looked for among dark square blobs that no placed model explains;
 * their models are placed only when several reads agree on one formation
 * (vis_detect_config.recover_*).
 *
 * How to use (inside vis_detect; `seen` has one entry per roster model):
 *   vis_recover_hidden_units(det, &cam, &image, tags, n, prior, seen, &report);
 * Models recovered are marked `rough` in seen[] and reported as
 * VIS_ISSUE_RECOVERED.
 */
#ifndef VIS_RECOVER_H
#define VIS_RECOVER_H

#include <stddef.h>

#include "rules_snapshot.h"
#include "vis_camera.h"
#include "vis_detect.h"
#include "vis_report.h"
#include "vis_tag.h"
#include "vis_units.h"

/* Returns 0, or -1 when out of memory. */
int vis_recover_hidden_units(const vis_detector *d, const vis_camera *cam, const vis_image *im,
                             const vis_tag_detection *tags, size_t n, const rules_snapshot *prior, vis_seen_model *seen,
                             vis_report *rep);

#endif
