/*
 * rules_table: a snapshot indexed for judging, built once per check.
 *
 * A full check asks, for every unit, "which enemies are within 8"?" and
 * "which units are within 1"?", and looks units and models up by id. Done
 * naively that is every unit against every unit and a string compare per
 * lookup, which grows with the square of the table. The table keeps:
 *   - each unit's fitted formation, its status (unit and models together),
 *     its side as a small integer (interned: no strcmp between sides);
 *   - an id map (hash) from unit id to index;
 *   - a uniform grid of the units' boundaries (bounding boxes), so a
 *     question about the neighbourhood of a box looks at nearby cells only;
 *   - each impassable terrain piece's bounding box.
 *
 * How to use:
 *   rules_table t;
 *   if (rules_table_build(&t, snapshot, &formation_params, NULL, &err) < 0) ...
 *   size_t i = rules_table_find(&t, "spears");            // RULES_TABLE_NONE if absent
 *   size_t near[64]; size_t n = rules_table_near(&t, box_aabb, reach, near, 64, &more);
 *   rules_table_clear(&t);
 * The table points into the snapshot: keep the snapshot alive and unchanged
 * while the table is used (rebuild it after moving units).
 */
#ifndef RULES_TABLE_H
#define RULES_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base_error.h"
#include "rules_formation.h"
#include "rules_snapshot.h"

#define RULES_TABLE_NONE ((size_t)-1)

/* An axis-aligned box on the board, mm. */
typedef struct rules_aabb {
    double x0, y0, x1, y1;
} rules_aabb;

/* The axis-aligned bounds of an oriented box / a polygon. */
rules_aabb rules_aabb_of_obb(const base_obb *b);
rules_aabb rules_aabb_of_poly(const base_vec2 *p, size_t n);
/* The squared distance between two boxes (0 when they overlap). */
double rules_aabb_dist2(const rules_aabb *a, const rules_aabb *b);

typedef struct rules_table {
    const rules_snapshot *s;
    rules_formation *fits;   /* per unit */
    unsigned *status;        /* rules_unit_status per unit */
    int *side;               /* interned side: units with equal sides have equal numbers */
    rules_aabb *box;         /* per unit: its boundary's bounds */
    base_vec2 (*corners)[4];/* per unit: its boundary's corners (base_obb_corners order) */
    rules_aabb *terrain_box; /* per terrain piece */
    /* id map: open addressing, slots hold unit index + 1 (0 = empty) */
    size_t *slots;
    size_t n_slots;
    /* grid of unit bounds: cells in CSR form (cell_start[c] .. cell_start[c+1] into cell_items) */
    double gx0, gy0, cell;
    int nx, ny;
    size_t *cell_start, *cell_items;
    int *cell_range;         /* per unit: its cell range ix0, iy0, ix1, iy1 */
} rules_table;

/*
 * Fits every unit and builds the indexes. `same_as` (may be NULL) is a table
 * of another snapshot, e.g. the table before a move: a unit whose models
 * stand exactly as there takes its fit from it (most units of a turn do not
 * move). -1 (err names the unit) when a unit has no models or out of memory.
 */
int rules_table_build(rules_table *t, const rules_snapshot *s, const rules_formation_params *fp,
                      const rules_table *same_as, base_error *err);
void rules_table_clear(rules_table *t);

/* Index of the unit with this id, or RULES_TABLE_NONE. */
size_t rules_table_find(const rules_table *t, const char *id);

/*
 * Units whose boundary bounds come within `reach` of `q` (a superset of the
 * units within `reach` of anything inside q), each once, in no particular
 * order. Writes at most `cap` indices to `out`; returns how many there are
 * in all (call again with a larger buffer when the return exceeds cap).
 */
size_t rules_table_near(const rules_table *t, const rules_aabb *q, double reach, size_t *out, size_t cap);

#endif
