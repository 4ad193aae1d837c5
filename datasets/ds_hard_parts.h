/*
 * ds_hard_parts: what ds_hard.c (the armies, the camera, the pairs) shares
 * with ds_hard_minis.c (the miniatures set's unit types, its skirmishers
 * and characters, its marks). Internal to datasets/.
 *
 * How to use (inside ds_hard*.c):
 *   const unit_type *types = ds_hard_minis_types(&n);
 *   ds_hard_find_spot(t, p, army, w, d, placed, n_placed, 0, &r, &spot, &kept);
 */
#ifndef DS_HARD_PARTS_H
#define DS_HARD_PARTS_H

#include "ds_canvas.h"
#include "ds_hard.h"

typedef struct unit_type {
    const char *kind;
    double base_w, base_d, tag, tag_fwd;
    int files_lo, files_hi, models_lo, models_hi;
    double advance_in, march_in, weight;
} unit_type;

typedef struct placed_unit {
    base_obb box;   /* its footprint, or the ground kept free ahead of it */
    double margin;   /* later units keep at least this far (0: a random 12-40 mm, as players leave) */
} placed_unit;

/* A whole number in [lo, hi]. */
int ds_hard_rnd_int(ds_rng *r, int lo, int hi);

/*
 * A free spot on table t's board (clear of its hills and what they hide) for a
 * footprint of w x d, facing the enemy; 0 when none was found. With `corridor`
 * > 0 the ground that far ahead must be free too (the pairs' units need room
 * to march), and is kept free of later units.
 */
int ds_hard_find_spot(const ds_hard_table *t, const ds_hard_params *p, int army, double w, double d,
                      const placed_unit *others, int n, double corridor, ds_rng *r, base_obb *out, base_obb *kept);

/* The miniatures set's ranked unit types (ds_hard_minis.c). */
const unit_type *ds_hard_minis_types(int *n);
/* One army's skirmisher units (loose, Dynamic Formations spacing) and characters on their own bases. 0 or -1. */
int ds_hard_minis_loose(ds_hard_table *t, const ds_hard_params *p, int army, int *index, placed_unit *placed,
                        int *n_placed, ds_rng *r, int *tag, base_error *err);
/* Every unit's marks as p->marks asks, and its tags' heights (3-5 mm). */
void ds_hard_minis_marks(ds_hard_table *t, const ds_hard_params *p, ds_rng *r);

#endif
