/*
 * ref_labels: where the printed labels are on the board in a snapshot: each
 * model's tag with its white border (from the roster's mount: offset,
 * rotation, height, size; a rim label: the base's top), each mast's tag
 * above its carrier (grown by its rod's sway both ways), and every board tag. What the camera must read,
 * so what the projector must leave dark (overlay/ov_keepout.h). A label's
 * height is its mount's over the surface its model stands on: the table's
 * relief (rules_relief.h), or the height a unit's tags read at when it is
 * unsettled (rules_unit_height_unsettled).
 *
 * How to use:
 *   base_label *labels; size_t n;
 *   if (ref_labels_of(roster, snap, &labels, &n, &err) < 0) ...
 *   ov_target_keep_labels_dark(projector_target, &calib.projector, labels, n, &err);  // overlay/ov_target.h
 *   free(labels);
 */
#ifndef REF_LABELS_H
#define REF_LABELS_H

#include <stddef.h>

#include "base_error.h"
#include "base_geom.h"
#include "rules_snapshot.h"
#include "roster.h"

/* The printed square's side for a tag of black-square edge `tag_size` in `family`: the white border is one
 * more cell on each side (tag36h11: 10/8 of the black square; an unknown family: 8/6, the widest). */
double ref_label_side(const char *family, double tag_size);

/* The label (base_geom.h) of every model of `snap` the roster mounts a tag on, then of every mast whose carrier
 * `snap` holds, then of every board tag. *out is malloc'd (free it);
 * 0, or -1 with err when out of memory. */
int ref_labels_of(const roster_file *roster, const rules_snapshot *snap, base_label **out, size_t *n, base_error *err);

#endif
