/*
 * vis_occluded: rim labels of a unit under a hand. A hand (or a sleeve)
 * laid over a ranked unit hides most of its labels; the few that show do
 * so only in part, often a lone label or two at the unit's edge, which
 * vis_rim_units cannot tell: a block of labels is told by the unit that
 * explains it among every unit, a lone one only among characters and loose
 * units. This module reads what is left, after the bases' marks and the
 * masts were read:
 *   1. the units of which nothing at all is seen (no model seen, rough or
 *      doubted) are the candidates; when there are none, nothing is done
 *      (no picture searched: the common frame costs nothing);
 *   2. the rim labels of the candidates' layouts are found in the picture
 *      (the labels vis_rim_units found with every layout, handed on; a
 *      search of the candidates' layouts alone, vis_rim_find, when not:
 *      1.0-1.3 s CPU on a 12 MP minis frame) and each one standing on no model already seen
 *      (on_seen_model) is decoded twice: among the candidates' models, and among every model
 *      of its layout (vis_rim_decode, the cells a figure or a hand covers
 *      left out as unknown, never guessed);
 *   3. a label names a candidate model when that is also its best reading
 *      among the whole layout, its misfit is at most VIS_OCCLUDED_MAX_MISFIT
 *      nats, and every other reading (any other model of the layout, in any
 *      turn, and the same model in another turn) is at least
 *      VIS_OCCLUDED_MARGIN nats worse. Measured on the minis set's 4 tables
 *      (3932 labels found, 3534 of them no label or read as another model):
 *      no wrong reading within 8 nats had a margin over 9.4, the count of
 *      wrong ones falling about e-fold a 1.4 nats of margin (238 over 2,
 *      48 over 4, 14 over 6, 3 over 8); at 20 nats that is ~1e-4 a table,
 *      and a wrong one must also read as a model of a unit nothing of is
 *      seen (~1 model in 25): under 1e-5 a frame (vis_occluded.c). Two
 *      labels naming one model name none;
 *   4. a label no name is taken from, read as the candidate model it fits
 *      best (at most VIS_OCCLUDED_GUESS_MISFIT nats), has the mast that
 *      model carries read over it (vis_tagread_at, any turn, searched within
 *      the rod's lean and a cell): the model is seen where the mast puts it
 *      when the mast's own tag reads with at least VIS_OCCLUDED_MAST_CELLS
 *      of its 36 data cells trusted and none wrong, every other code of the
 *      roster VIS_OCCLUDED_MAST_MARGIN cells worse. A chance pattern does
 *      so once in 2^28 / 4 (~7e7) reads; the minis set tries 39-161 a frame
 *      that has a candidate: ~2e-6 a frame. Two reads of it must agree;
 *   5. a label's pose is fitted again on every cell it shows with its code
 *      known (vis_rim_refine) and its model is seen there (certain); a
 *      mast's places its carrier as vis_mast does (its height and sway in
 *      the sigma). A unit with fewer than three models named is partial:
 *      only those are placed (vis_units).
 *
 * How to use (vis_detect, after vis_rim_units_place and vis_mast_place):
 *   vis_occluded_stats st;
 *   if (vis_occluded_place(&cam, &image, &book, tag_detector, map, threads, &found, seen, partial, &st) < 0) ... out of memory
 *   (found: vis_rim_units_place's found_out; NULL searches again)
 */
#ifndef VIS_OCCLUDED_H
#define VIS_OCCLUDED_H

#include <stddef.h>

#include "base_image.h"
#include "roster_map.h"
#include "vis_camera.h"
#include "vis_rim.h"
#include "vis_tag.h"
#include "vis_units.h"

#define VIS_OCCLUDED_MARGIN 20.0     /* nats between a label's name and any other reading of it */
#define VIS_OCCLUDED_MAX_MISFIT 8.0  /* nats a label's name may disagree with what its cells show */
#define VIS_OCCLUDED_GUESS_MISFIT 25.0  /* nats: a label taken for a model only to read its mast over it */
#define VIS_OCCLUDED_MAST_CELLS 28   /* a mast read over a label: trusted data cells (of 36), none wrong */
#define VIS_OCCLUDED_MAST_MARGIN 3   /* ... and every other code of the roster at least this many cells wrong */

typedef struct vis_occluded_stats {
    size_t candidates;   /* units of which nothing was seen */
    size_t labels;       /* labels found in the picture (0 when there was no candidate) */
    size_t models;       /* models named (by a label or by a mast read over one) */
    size_t mast_tries;   /* masts read for over a label (vis_occluded.h, 4) */
    size_t masts;        /* models placed by them */
} vis_occluded_stats;

/*
 * Names models of the units of which nothing is seen in seen[] (one entry per roster model: seen, certain, pos,
 * facing; a mast's height and sway) from the rim labels found in the picture and the masts over them, as above
 * (td: the family's codes); partial[unit] set for a unit with fewer than three
 * models named. `found`: the labels vis_rim_units_place found in this picture with the whole book (its found_out;
 * the poses of the labels named are fitted again in it), or NULL to search the picture for the candidates' layouts here. 0, or -1 when out of memory.
 */
int vis_occluded_place(const vis_camera *cam, const base_view *im, const vis_rim_book *book,
                       const vis_tag_detector *td, const roster_map *map, int threads, vis_rim_found *found,
                       vis_seen_model *seen, unsigned char *partial, vis_occluded_stats *st);

#endif
