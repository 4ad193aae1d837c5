/*
 * ref_labels: where the printed labels are on the board in a snapshot: each
 * model's tag with its white border (from the roster's mount: offset,
 * rotation, height, size) and every board tag. What the camera must read,
 * so what the projector must leave dark (overlay/ov_keepout.h).
 *
 * How to use:
 *   ref_label *labels; size_t n;
 *   if (ref_labels_of(roster, snap, &labels, &n, &err) < 0) ...
 *   for (i < n) ov_keepout_add_label(k, labels[i].centre, labels[i].heading, labels[i].side_mm,
 *                                    labels[i].height_mm, labels[i].sigma_mm);
 *   free(labels);
 */
#ifndef REF_LABELS_H
#define REF_LABELS_H

#include <stddef.h>

#include "base_error.h"
#include "base_geom.h"
#include "rules_snapshot.h"
#include "vis_roster.h"

typedef struct ref_label {
    char model_id[RULES_ID_MAX];  /* "" for a board tag */
    int tag_id;
    base_vec2 centre;             /* board mm */
    double heading;               /* rad */
    double side_mm;               /* the printed square: black tag and its white border */
    double height_mm;             /* above the board */
    double sigma_mm;              /* the model's position sigma (NAN: exact); board tags 0 */
} ref_label;

/* The printed square's side for a tag of black-square edge `tag_size` in `family`: the white border is one
 * more cell on each side (tag36h11: 10/8 of the black square; an unknown family: 8/6, the widest). */
double ref_label_side(const char *family, double tag_size);

/* Every model of `snap` the roster mounts a tag on, then every board tag. *out is malloc'd (free it);
 * 0, or -1 with err when out of memory. */
int ref_labels_of(const vis_roster *roster, const rules_snapshot *snap, ref_label **out, size_t *n, base_error *err);

#endif
