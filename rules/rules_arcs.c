#include "rules_arcs.h"

unsigned rules_obb_arcs_of(const base_obb *box, base_vec2 p, double tol)
{
    base_vec2 q = base_frame_to_local((base_frame){box->centre, box->heading}, p);
    double hw = box->width / 2, hd = box->depth / 2;
    /* Distances beyond each facing (negative when inside that facing's line). */
    double front = q.y - hd, rear = -hd - q.y, right = q.x - hw, left = -hw - q.x;
    if (front < -tol && rear < -tol && right < -tol && left < -tol)
        return 0;
    double side = fmax(0.0, fmax(left, right)), along = fmax(0.0, fmax(front, rear));
    unsigned arcs = 0;
    /* An arc's region: beyond its facing at least as far as beyond either neighbour. */
    if (front >= -tol && front + tol >= side)
        arcs |= RULES_ARC_FRONT;
    if (rear >= -tol && rear + tol >= side)
        arcs |= RULES_ARC_REAR;
    if (left >= -tol && left + tol >= along)
        arcs |= RULES_ARC_LEFT;
    if (right >= -tol && right + tol >= along)
        arcs |= RULES_ARC_RIGHT;
    return arcs;
}

const char *rules_arc_name(unsigned arc)
{
    switch (arc) {
    case RULES_ARC_FRONT: return "front";
    case RULES_ARC_REAR: return "rear";
    case RULES_ARC_LEFT: return "left flank";
    case RULES_ARC_RIGHT: return "right flank";
    default: return "?";
    }
}
