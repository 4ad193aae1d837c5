/*
 * ds_score: how well a detected snapshot (and the tags read for it) matches
 * the renderer's truth, in the figures a referee needs:
 *   - the headline: models placed within 5 mm of the truth, of all models on
 *     the table (in view: their tag inside the frame);
 *   - beside it: the same of the models whose tag no hand hides (a model
 *     under a hand cannot be seen in that frame);
 *   - wrong ids: models placed more than 5 mm off (a wrong call waiting to
 *     happen), and how many of them are under a hand; an inferred model
 *     placed off but whose true place is one of its unit's alternative
 *     placements (within 5 mm) is not wrong but "among alternatives": the
 *     snapshot says honestly that it cannot tell which, and the referee
 *     judges every one (rules_robust);
 *   - p99 (and median, max) centre error over the models placed within
 *     5 mm, and over those placed from their own tag; facing p99;
 *   - tags at least 90% visible (black square, inside the frame) that were
 *     read: a read counts when its id is the tag's and its centre is within
 *     max(3 px, 10% of the tag's edge) of the truth; a read with no tag of
 *     its id there is a wrong read. Fully visible tags (white border too)
 *     are counted apart: what any quad finder should read.
 * Frames add up: score every frame of a set into one ds_score.
 *
 * How to use:
 *   ds_score sc; ds_score_init(&sc);
 *   ds_score_models(&sc, truth_snap, &truth, detected);            // per frame
 *   ds_score_models_on(&raised, truth_snap, &truth, detected, DS_SCORE_RAISED);   // on hills only
 *   ds_score_tags(&sc, &truth, ids, centres, n);                     // per frame, any detector
 *   printf("%.1f%%\n", ds_score_pct(sc.placed5, sc.models));
 *   double p99 = ds_score_p99_mm(&sc);
 *   ds_score_clear(&sc);
 */
#ifndef DS_SCORE_H
#define DS_SCORE_H

#include <stddef.h>
#include <stdio.h>

#include "ds_render.h"
#include "rules_snapshot.h"

#define DS_SCORE_PLACED_MM 5.0
#define DS_SCORE_VISIBLE 0.9

typedef struct ds_score {
    /* models */
    size_t models;          /* in view (tag inside the frame) */
    size_t placed5;         /* placed within 5 mm */
    size_t free_models;     /* in view, no hand over their tag */
    size_t free_placed5;
    size_t hand_models;     /* in view, a hand over their tag */
    size_t hand_placed5;
    size_t wrong;           /* placed more than 5 mm off, and no alternative of its unit holds it */
    size_t among_alternatives; /* inferred, placed off, but an alternative places it within 5 mm */
    size_t hand_wrong;      /* ... of them under a hand */
    size_t unplaced;        /* in view, not in the snapshot */
    size_t seen5, inferred5;/* placed within 5 mm from their own tag / inferred */
    /* tags */
    size_t tags90;          /* >= 90% visible, inside the frame */
    size_t tags90_read;
    size_t tags_full;       /* fully visible: nothing of the printed tag, white border included, hidden */
    size_t tags_full_read;
    size_t reads, wrong_reads;
    /* errors of the models placed within 5 mm (mm, degrees) and of those seen */
    double *err_mm, *err_deg, *seen_mm;
    size_t n_err, n_seen, cap;
} ds_score;

void ds_score_init(ds_score *s);
void ds_score_clear(ds_score *s);

/* Adds one frame's models. `detected` may be NULL (nothing placed). Returns 0 or -1 (out of memory). */
int ds_score_models(ds_score *s, const rules_snapshot *truth_snap, const ds_truth *truth,
                    const rules_snapshot *detected);
/* Which models: all, those standing on the relief (a hill's top or slope under the base's true centre), those
 * on the board. */
typedef enum ds_score_ground { DS_SCORE_ALL = 0, DS_SCORE_RAISED, DS_SCORE_FLAT } ds_score_ground;
/* The same, of the models standing on `ground` only (raised and flat models scored apart). */
int ds_score_models_on(ds_score *s, const rules_snapshot *truth_snap, const ds_truth *truth,
                       const rules_snapshot *detected, ds_score_ground ground);
/* Adds one frame's tag reads (ids and centres in px, OpenCV convention). */
void ds_score_tags(ds_score *s, const ds_truth *truth, const int *ids, const double (*centres)[2], size_t n);

/* 100 * a / b, 0 when b is 0. */
double ds_score_pct(size_t a, size_t b);
double ds_score_p99_mm(const ds_score *s);       /* over the models placed within 5 mm; NAN when none */
double ds_score_median_mm(const ds_score *s);
double ds_score_max_mm(const ds_score *s);
double ds_score_seen_p99_mm(const ds_score *s);  /* over those placed from their own tag */
double ds_score_facing_p99_deg(const ds_score *s);

/* One line of the headline figures, prefixed by `label`. */
void ds_score_print(FILE *out, const char *label, const ds_score *s);

#endif
