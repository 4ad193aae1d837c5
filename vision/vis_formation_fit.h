/*
 * vis_formation_fit: the grid of one unit fitted to its observed models
 * (internal to vis_formation). Facing: the weighted circular mean of their
 * facings (seen 1, carried from a prior frame 0.5, rough 0.3; a base
 * located, its facing not read, none), again without those 15 degrees
 * off; each facing held to 0.15 degree at best, a mast's (a card on a
 * rod, over a base) to half a degree. Ranks, then files, by walking neighbours:
 * each step counts as round(step / pitch) places, so gaps between bases
 * never add up; the rear rank seen may sit on half steps. Pitches measured
 * from neighbours one place apart, then origin and pitches by weighted
 * least squares (a pitch off 0.9..1.3 x the base keeps the estimate; a
 * located base's place weighs as a seen one's), and the fit's own spread:
 * residual RMS (at least 0.3 mm), origin and pitch sigmas. Two models in
 * one place: the better seen claims the slot.
 * The heading is then turned towards the one the models' places tell (the
 * grid's files and ranks fitted with a common turn, on the models seen and
 * located), each weighted by its variance: a unit seen by a few tags in one
 * long file or rank gets its facing from the line they stand on, not only
 * from their tags' headings; a unit read by one mast and located by a few
 * bases, from where those bases stand (the mast's facing 1 degree off
 * turned minis table 3's blue-7 so that its pitch along came out under
 * its base).
 *
 * How to use (inside vis_formation.c):
 *   vis_fit F = {.in = in, .o = malloc(measured * sizeof *F.o)};
 *   vis_formation_fit_grid(in, &F);     // 0, or -1 when out of memory
 */
#ifndef VIS_FORMATION_FIT_H
#define VIS_FORMATION_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "vis_formation_types.h"

/* One model the grid is fitted to, in the provisional local frame (u right, v forward). */
typedef struct vis_fit_obs {
    size_t model;     /* index into the input */
    double u, v;      /* mm */
    double w;         /* weight in the fit */
    double x;         /* file position from the reference model, in pitches (x.5 in a rear rank) */
    int r;            /* rank behind the front-most observed one */
    bool slotted;     /* claims a slot (false: a second model found in the same place) */
} vis_fit_obs;

typedef struct vis_fit {
    const vis_formation_input *in;
    base_frame f0;   /* provisional frame at the first observed model, heading = unit facing */
    vis_fit_obs *o;   /* the observed models (caller allocates one per measured model) */
    size_t n;
    double pa, pd;    /* pitches */
    double au, av;    /* local position of relative slot (0, 0) */
    double sig_res, sig_a, sig_pa, sig_pd, xbar, rbar;
    int rmax;
    double xmin, xmax;
} vis_fit;

/* Seen, rough or carried: it tells where the unit is. */
bool vis_formation_is_measured(vis_formation_evidence e);
/* Distance of x from the nearest integer. */
double vis_formation_off_int(double x);
int vis_formation_fit_grid(const vis_formation_input *in, vis_fit *F);

#endif
