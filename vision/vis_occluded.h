/*
 * vis_occluded: rim labels of a unit under a hand. A hand (or a sleeve)
 * laid over a ranked unit hides most of its labels; the few that show do
 * so only in part, often a lone label or two at the unit's edge, which
 * vis_rim_units cannot tell: a block of labels is told by the unit that
 * explains it among every unit, a lone one only among characters and loose
 * units. This module reads what is left, after the bases' marks were read
 * and before the masts (a model seen here lets vis_mast read its unit's
 * mast where the unit puts it):
 *   1. the units of which nothing at all is seen (no model seen, rough or
 *      doubted) are the candidates; when there are none, nothing is done
 *      (no picture searched: the common frame costs nothing);
 *   2. every rim label in the picture is found again (vis_rim_find, its
 *      code unknown) and each one standing on no model already seen is
 *      decoded twice: among the candidates' models, and among every model
 *      of its layout (vis_rim_decode, the cells a figure or a hand covers
 *      left out as unknown, never guessed);
 *   3. a label names a candidate model when that is also its best reading
 *      among the whole layout, its misfit is at most VIS_OCCLUDED_MAX_MISFIT
 *      nats, and every other reading (any other model of the layout, in any
 *      turn, and the same model in another turn) is at least
 *      VIS_OCCLUDED_MARGIN nats worse. The margin is a likelihood ratio of
 *      e^24 (~2.6e10) between the name taken and any other: with ~300 labels
 *      a frame and ~40 codes a layout the chance that some label names a
 *      wrong model is under 1e-6 a frame (vis_occluded.c says how the nats
 *      are measured). Two labels naming one model name none;
 *   4. the label's pose is fitted again on every cell it shows with its code
 *      known (vis_rim_refine) and its model is seen there (certain). A unit
 *      with fewer than three models named is partial: only those are
 *      placed (vis_units), unless its masts then tell its formation
 *      (vis_mast).
 *
 * How to use (vis_detect, after vis_rim_units_place, before vis_mast_place):
 *   vis_occluded_stats st;
 *   if (vis_occluded_place(&cam, &image, &book, map, threads, seen, partial, &st) < 0) ... out of memory
 */
#ifndef VIS_OCCLUDED_H
#define VIS_OCCLUDED_H

#include <stddef.h>

#include "base_image.h"
#include "roster_map.h"
#include "vis_camera.h"
#include "vis_rim.h"
#include "vis_units.h"

#define VIS_OCCLUDED_MARGIN 20.0     /* nats between a label's name and any other reading of it */
#define VIS_OCCLUDED_MAX_MISFIT 8.0  /* nats a label's name may disagree with what its cells show */

typedef struct vis_occluded_stats {
    size_t candidates;   /* units of which nothing was seen */
    size_t labels;       /* labels found in the picture (0 when there was no candidate) */
    size_t models;       /* models named */
} vis_occluded_stats;

/*
 * Names models of the units of which nothing is seen in seen[] (one entry per roster model: seen, certain, pos,
 * facing) from the rim labels found in the picture, as above; partial[unit] set for a unit with fewer than three
 * models named. 0, or -1 when out of memory.
 */
int vis_occluded_place(const vis_camera *cam, const base_view *im, const vis_rim_book *book, const roster_map *map,
                       int threads, vis_seen_model *seen, unsigned char *partial, vis_occluded_stats *st);

#endif
