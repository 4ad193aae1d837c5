/*
 * rules_arcs: the four Arcs of a unit boundary (Front, Rear, Left and Right
 * Flank), the game's division of the plane around a unit.
 *
 * How to use:
 *   unsigned arcs = rules_obb_arcs_of(&boundary, point, 0.5);   // a bit set of RULES_ARC_*
 *   if (arcs & RULES_ARC_FRONT) ... rules_arc_name(RULES_ARC_FRONT) -> "front"
 */
#ifndef RULES_ARCS_H
#define RULES_ARCS_H

#include "base_geom.h"

/*
 * The four Arcs of a unit boundary. They are bounded by lines leaving the
 * boundary's corners at 135 degrees to the Facings (i.e. the corner
 * diagonals). A point on a dividing line lies in both Arcs, hence a bit set.
 */
enum {
    RULES_ARC_FRONT = 1u << 0,
    RULES_ARC_REAR = 1u << 1,
    RULES_ARC_LEFT = 1u << 2,
    RULES_ARC_RIGHT = 1u << 3,
};
/* Arcs of `box` containing `p`, within `tol_mm` of a dividing line. 0 when p is inside the box. */
unsigned rules_obb_arcs_of(const base_obb *box, base_vec2 p, double tol_mm);
/* Human-readable name of a single arc bit ("front", "rear", "left flank", "right flank"). */
const char *rules_arc_name(unsigned arc);

#endif
