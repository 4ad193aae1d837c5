/*
 * rules_suggest_int: the search for the nearest legal position of a unit,
 * shared by the rules that suggest one (not a public API: include
 * rules_suggest.h).
 *
 *   rules_suggest_search.c  the search over end poses, and the sentence
 *   rules_suggest.c         Moving Units and Reform Move: what is legal, the table
 *
 * A finder moves a template (the unit's models in a formation, at pose
 * tmpl_ref) rigidly to candidate poses, measures each against where the
 * player put the models (`target`) and asks `legal` whether the unit may
 * end there.
 */
#ifndef RULES_SUGGEST_INT_H
#define RULES_SUGGEST_INT_H

#include <stdbool.h>

#include "rules_formation.h"
#include "rules_suggest.h"

/* The move ending with model k at pos[k], every facing turned by `turn` from before the move, is legal. */
typedef bool (*sg_oracle)(void *ctx, const base_vec2 *pos, double turn);

typedef struct sg_finder {
    sg_oracle legal;
    void *ctx;
    size_t n;
    base_vec2 *target;     /* where the player put model k */
    base_vec2 *tmpl;       /* the formation carried: model k when the Front is at tmpl_ref */
    rules_pose tmpl_ref;
    base_vec2 tmpl_centre; /* the template's unit centre */
    rules_pose start;       /* the unit before the move */
    base_vec2 start_centre;
    rules_pose player;      /* the player's end pose (of the template) */
    rules_formation form;   /* the unit's fitted formation before the move */
    double width;           /* its front width */
    const rules_ruleset *rs;
    bool keeps_centre;      /* Reform, Reform Move: seeds about the start Centre; else along the path */
    double radius;          /* the farthest model from tmpl_ref's front centre: turns are scaled by it */
    base_vec2 *pos;        /* scratch */
} sg_finder;

/* Model positions of the template at pose q, and the turn of every facing from before the move. */
void sg_place(const sg_finder *f, rules_pose q, base_vec2 *pos, double *turn);
/*
 * The nearest legal pose (docs/rules.md, "The nearest legal move"); false
 * when no legal pose was found to start from. *path_cut > 0 when it is the
 * player's own path cut short by that much.
 */
bool sg_search(sg_finder *f, rules_pose *out, double *path_cut);
/* The rigid motion that best carries `a` onto `b` (2-D Kabsch), applied to pose p. */
rules_pose sg_carried(const base_vec2 *a, const base_vec2 *b, size_t n, rules_pose p);
/* The suggestion's sentence (pose, shift set): what to do from where the player put the unit. */
void sg_describe(rules_suggestion *s, const sg_finder *f, const char *unit, rules_pose player, double cut);

#endif
