/*
 * ds_hard_parts: what ds_hard.c (where units may stand, the camera, the
 * pairs), ds_hard_minis.c (the miniatures set's unit types, its
 * skirmishers and characters, its marks) and ds_hard_armies.c (the armies
 * laid out, above both) share. Internal to datasets/.
 *
 * How to use (inside ds_hard*.c):
 *   const unit_type *types = ds_hard_minis_types(&n);
 *   ds_hard_find_spot(t, p, army, w, d, placed, n_placed, 0, &r, &spot, &kept);
 *   const spot_ctx x = ds_hard_spot_ctx(t, p);     // many spots on one table: its camera found once
 *   ds_hard_spot_find(&x, army, w, d, hill, placed, n_placed, 0, &r, &spot, &kept);
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

/* Where a table's units may stand: its board, its hills, the camera that sees them. */
typedef struct spot_ctx {
    const ds_hard_params *p;
    const rules_snapshot *s;   /* its terrain: the hills */
    double camera[3];          /* the camera's centre, board mm */
} spot_ctx;

/* Where table t's units may stand, for t being laid out (its terrain and its camera). */
spot_ctx ds_hard_spot_ctx(const ds_hard_table *t, const ds_hard_params *p);
/*
 * A free spot for a footprint of w x d, facing the enemy, on the board or wholly on the top of hill `on` (NULL:
 * the board); 0 when none was found. `corridor` as for ds_hard_find_spot.
 */
int ds_hard_spot_find(const spot_ctx *x, int army, double w, double d, const rules_terrain *on,
                      const placed_unit *others, int n, double corridor, ds_rng *r, base_obb *out, base_obb *kept);

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
