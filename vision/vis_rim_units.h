/*
 * vis_rim_units: rim labels found in a picture (vis_rim.h) made into seen
 * models of the roster. A label alone shows only part of its code (the
 * figure stands on the rest), so a ranked unit is told by its labels
 * together:
 *   1. labels of one layout that stand side by side (their fronts parallel
 *      to within 8 degrees, centres at most 1.15 bases apart) are one block;
 *   2. the block is the unit u lying in turn t whose codes explain it best:
 *      for each label, the misfit of the best of u's codes in the turn t
 *      gives it, less the misfit of the best code of the whole layout in
 *      any turn (a label of u is best read as one of u's models; a label of
 *      another unit or a false find is not; either counts at most 8 nats),
 *      summed over the block; u is taken when that sum is at most
 *      VIS_RIM_UNIT_EXCESS nats a label and every other unit and turn is
 *      at least VIS_RIM_UNIT_MARGIN nats worse;
 *   3. a label standing alone is a character's or a skirmisher's: the units
 *      of one model and the loose units are its candidates, the same test;
 *   4. within a unit taken, a label names the model of the unit's codes it
 *      fits (misfit at most 4 nats) with every other model of the unit
 *      VIS_RIM_MODEL_MARGIN nats worse; its pose is fitted again on every
 *      cell it shows and the model is seen there (certain). Two labels naming
 *      one model name none;
 *   5. the rest of a ranked unit's labels are read together with its
 *      formation: the block's grid (through the label most others stand
 *      on) is shifted over the unit's files and ranks, each shift costing
 *      what every label costs as the model of the place it lands on; the
 *      cheapest shift is taken when it explains the block (as in 2) and
 *      every other is VIS_RIM_UNIT_MARGIN nats worse, and the models named
 *      in 4 agree with it. A label within VIS_RIM_GRID_TOL bases of its
 *      place on the grid fitted to all the block's labels, clean
 *      (VIS_RIM_MIN_CLEAN) and whose code is not against its place's model
 *      (at most VIS_RIM_GRID_FIT nats worse than its best reading, its pose
 *      fitted again on that code first when it is not) places that model
 *      (seen, not certain); in a rear rank not full (its models may stand
 *      centred or with gaps) a label places the one rear-rank model its
 *      code fits with every other VIS_RIM_MODEL_MARGIN nats worse;
 *   6. labels left over (a fragment of a unit whose neighbours were not
 *      found) that stand so on the grid of one unit taken place its model
 *      the same way. Labels that name no model leave it not seen: the
 *      unit's formation places it (vis_units), or, with fewer than three
 *      models named or in a loose unit, only the named ones are placed
 *      (partial).
 * A block that no unit explains clearly (two units touching, a label
 * misread) names nothing: its models are not seen, never guessed.
 *
 * How to use (vis_detect, after the square tags):
 *   vis_rim_book book;                                 // vis_rim_book_make(td, map, &book)
 *   vis_rim_stats st;
 *   if (vis_rim_units_place(&cam, &image, &book, map, threads, seen, partial, &st, NULL) < 0) ... out of memory
 *   (or &found instead of NULL: the labels handed on, vis_rim_found_clear(&found) after)
 */
#ifndef VIS_RIM_UNITS_H
#define VIS_RIM_UNITS_H

#include <stddef.h>

#include "roster_map.h"
#include "vis_camera.h"
#include "vis_rim.h"
#include "vis_units.h"

#define VIS_RIM_UNIT_MARGIN 20.0   /* nats between the best unit and turn of a block and any other */
#define VIS_RIM_MODEL_MARGIN 12.0  /* nats between a label's model and any other model of its unit */
#define VIS_RIM_GRID_FIT 4.0       /* nats a label placed by its unit's grid may be worse than its best reading */
#define VIS_RIM_GRID_TOL 0.15      /* bases a label placed by its grid may stand off its place (players align by hand) */
#define VIS_RIM_MIN_CLEAN 0.1      /* share of a label's cells on paper's or ink's level for it to be placed by its grid */
#define VIS_RIM_UNIT_EXCESS 3.0    /* nats a label at most, on average, that a block's unit explains worse than its best */

typedef struct vis_rim_stats {
    size_t labels;        /* labels found */
    size_t blocks;        /* blocks of side-by-side labels, lone labels included */
    size_t units;         /* units taken */
    size_t models;        /* models named */
    double ms;            /* time spent, ms */
} vis_rim_stats;

/*
 * Finds the rim labels of the book's layouts in the picture and marks the
 * models they name in seen (one entry per roster model: seen, certain, pos,
 * facing); partial[unit] set for a unit taken with fewer than three models
 * named, and for a loose one. Units with a model already seen are left alone. found_out, when not NULL, is given
 * every label found (the caller clears it with vis_rim_found_clear): vis_occluded reads the same labels again
 * instead of searching the picture twice. 0, or -1 when out of memory.
 */
int vis_rim_units_place(const vis_camera *cam, const base_view *im, const vis_rim_book *book, const roster_map *map,
                        int threads, vis_seen_model *seen, unsigned char *partial, vis_rim_stats *st,
                        vis_rim_found *found_out);

#endif
