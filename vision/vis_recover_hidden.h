/*
 * vis_recover_hidden: units of which no tag at all was decoded (every tag
 * partly hidden), found among the dark square blobs no placed model
 * explains (see vis_recover.h for the whole recovery, vis_recover_blobs.h
 * for where it looks, and the .c file for how). Shares its helpers with
 * vis_recover.c through vis_recover_common.h; neither half calls the other,
 * vis_detect calls both.
 *
 * How to use (inside vis_detect, after the free places were read):
 *   unsigned char *seeded = calloc(roster->n_units, 1);
 *   size_t searched_px = 0;
 *   vis_recover_hidden_units(det, &cam, &image, &paper, tags, n, prior, seen, seeded, &searched_px, &report);
 *   ... vis_recover_read_slots(..., seeded, ...); vis_recover_confirm(det, seeded, seen, partial, &report);
 */
#ifndef VIS_RECOVER_HIDDEN_H
#define VIS_RECOVER_HIDDEN_H

#include <stddef.h>

#include "rules_snapshot.h"
#include "vis_camera.h"
#include "vis_detect_types.h"
#include "vis_recover_common.h"
#include "vis_report.h"
#include "vis_tag.h"
#include "vis_units.h"

/*
 * Seeds units of which nothing was decoded: when two or more tags read
 * among unexplained dark blobs agree on one formation (or, short of that,
 * the reads beyond doubt agree with each other: a unit of one model needs
 * one), they are marked `rough` in seen[] (`certain` when beyond doubt) and
 * seeded[unit] is set (seeded has one entry per roster unit). The blobs
 * are looked for in the whole picture, or, when the picture changed only in
 * parts since the reading `prior` comes from (d->changed), there (and
 * within a unit's reach) and where `prior` placed the units looked for
 * (vis_recover_blobs.h); the pixels looked at are added to *searched_px.
 * paper: this frame's ink and white (vis_recover_paper, measured once a
 * frame); nothing is looked for when it is not known. Returns 0, or -1 when
 * out of memory.
 */
int vis_recover_hidden_units(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                             const vis_tag_detection *tags, size_t n, const rules_snapshot *prior, vis_seen_model *seen,
                             unsigned char *seeded, size_t *searched_px, vis_report *rep);

#endif
