/*
 * rules_pairing: which model is which between two frames, when the camera
 * did not see some of them. Models of one unit are interchangeable on the
 * table and a camera tells them apart only by their tags; the rules measure
 * each model's own distance. The decision (rules_robust.h): a block keeps
 * its slots. The unit's motion is fitted to the models measured in both
 * frames (without any, to its two fitted formations), and the models
 * inferred in a frame are re-paired with that frame's inferred places so
 * that each stands where the motion carries its place in the other frame
 * (least squares over the pairing, rules_assign).
 *
 * How to use (u0, u1: working copies of one unit before and after):
 *   rules_motion mo;
 *   rules_motion_fit(&params, u0, u1, &mo);
 *   rules_pairing_pair(u0, u1, &mo, mo.rigid);        // swaps inferred models' places
 *   if (rules_pairing_still(&params, u0, u1, &mo)) ... // the unit did not move
 */
#ifndef RULES_PAIRING_H
#define RULES_PAIRING_H

#include <stdbool.h>
#include <stddef.h>

#include "base_geom.h"
#include "rules_snapshot.h"

/* How sure a measurement is, by default: the one source for rules_robust (which judges with it) and
 * rules_plusminus (which shows it), so that the +/- printed is the reach judged. */
#define RULES_COVERAGE_DEFAULT 2.0          /* sigmas a measurement may be off by (about 95 %) */
#define RULES_SIGMA_ROUGH_MM_DEFAULT 1.0    /* a rough model that states no sigma */
#define RULES_SIGMA_INFERRED_MM_DEFAULT 1.5 /* an inferred one */

typedef struct rules_pairing_params {
    double rigid_mm;           /* a model this far (plus its reach) from where the motion carries it left its slot */
    double coverage;           /* a model's reach: this many sigmas */
    double jitter_mm;          /* moved less than max(this, reach) ... */
    double jitter_rad;         /* ... and turned less than this: did not move */
    double sigma_rough_mm;     /* for a rough model that states no sigma */
    double sigma_inferred_mm;  /* for an inferred one */
} rules_pairing_params;

/* The model's sigma: its own, else by evidence (a seen model that states none is exact). */
double rules_pairing_sigma(const rules_pairing_params *p, const rules_model *m);
/* Seen or rough: its tag was read in that frame. */
bool rules_pairing_measured(const rules_model *m);

typedef struct rules_motion {
    double rot;
    base_vec2 trans;
    bool rigid;         /* the unit moved as a block, as far as its measured models show */
    size_t n_measured;  /* models measured in both frames */
} rules_motion;

base_vec2 rules_motion_carry(const rules_motion *mo, base_vec2 p);
base_vec2 rules_motion_uncarry(const rules_motion *mo, base_vec2 p);
void rules_motion_fit(const rules_pairing_params *p, const rules_unit *u0, const rules_unit *u1, rules_motion *mo);

/*
 * Re-pairs the inferred models of both frames: first those inferred before
 * with their counterparts measured after, then those inferred after with
 * where their before place goes (through the motion when `through_motion`,
 * else where it was). Only places (pos, facing, sigma) move between models.
 * Returns 0, or -1 when out of memory.
 */
int rules_pairing_pair(rules_unit *u0, rules_unit *u1, const rules_motion *mo, bool through_motion);
/* Every model inferred in a frame stands where the motion carries it: the block kept its slots. */
bool rules_pairing_slots_kept(const rules_pairing_params *p, const rules_unit *u0, const rules_unit *u1,
                              const rules_motion *mo);
/* Every model moved less than max(jitter, its reach) and the unit turned less than jitter_rad. */
bool rules_pairing_still(const rules_pairing_params *p, const rules_unit *u0, const rules_unit *u1,
                         const rules_motion *mo);

#endif
