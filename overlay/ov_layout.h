/*
 * ov_layout: where the labels go. A greedy label placer over convex
 * quadrilaterals in a target's device space (pixels or page units): it
 * keeps each label off everything already on the picture and inside the
 * picture, and draws a leader when a label has to stand away from what it
 * names.
 *
 * What a label may not cover (hard): another label, a number written in a
 * base, a model's base centre (where its tag is), anything outside the
 * bounds (the image, or the report's board window). What it should not
 * cover (soft, weighted by area): bases, the board's edge, the marks a
 * caller adds as soft obstacles. Candidates: 16 directions around the
 * anchor, on rings from the anchor's clearance outwards (the nearest free
 * one wins; a label further off gets a leader); failing those, every free
 * spot of a coarse grid over the bounds, nearest first. A label that fits
 * nowhere is not placed (`placed` false): the caller says so elsewhere.
 *
 * How to use:
 *   ov_layout *L = ov_layout_new((ov_box){0, 0, w, h}, board_quad_or_NULL);
 *   ov_layout_add(L, &base_quad, OV_OBST_BASE);      // bases (soft), centres and numbers (hard) ...
 *   ov_label_req q = {.ax = x, .ay = y, .w = 120, .h = 20, .angle = 0, .clear = 12, .leader_ok = true};
 *   ov_label_place p;
 *   ov_layout_place(L, &q, &p);                       // p.placed, p.box, p.leader ...; p.box is now an obstacle
 *   ov_layout_free(L);
 * Deterministic; labels are placed in call order (most important first).
 */
#ifndef OV_LAYOUT_H
#define OV_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

/* An axis-aligned box in device units. */
typedef struct ov_box {
    double x0, y0, x1, y1;
} ov_box;

/* A convex quadrilateral, corners in order (either turn). */
typedef struct ov_quad {
    double x[4], y[4];
} ov_quad;

typedef enum ov_obstacle_kind {
    OV_OBST_LABEL = 0, /* hard: a placed label */
    OV_OBST_NUMBER,    /* hard: a number written in a base */
    OV_OBST_CENTRE,    /* hard: a base centre (a small square around it) */
    OV_OBST_BASE,      /* soft: a base */
    OV_OBST_MARK,      /* soft, light: a line or mark worth keeping readable */
    OV_OBST_KEEPOUT,   /* soft, heavy: a label the projector leaves dark (text there would be cut) */
} ov_obstacle_kind;

typedef struct ov_obstacle {
    ov_quad q;
    ov_box bb;
    ov_obstacle_kind kind;
    int owner;         /* labels: the request's owner (the overlay: its player's side index); else -1 */
} ov_obstacle;

typedef struct ov_label_req {
    double ax, ay;     /* the anchor: what the label names */
    double w, h;       /* the label's size in its own (reading) frame */
    double angle;      /* reading direction, rad, device space (0: left to right) */
    double clear;      /* keep the label's nearest edge at least this far from the anchor */
    bool leader_ok;    /* may stand away with a leader line (else only the first ring is tried) */
    int owner;         /* kept with the placed label (ov_obstacle.owner) */
} ov_label_req;

typedef struct ov_label_place {
    bool placed;
    ov_quad box;       /* corners: top-left, top-right, bottom-right, bottom-left in reading frame */
    double cx, cy;     /* its centre */
    bool leader;       /* draw a line from the anchor to (lx, ly) on the box's edge */
    double lx, ly;
    double cost;       /* soft overlap it had to accept (0: none) */
} ov_label_place;

typedef struct ov_layout ov_layout;

/* bounds: labels stay inside (hard). board (optional): the table's outline; crossing it is soft. */
ov_layout *ov_layout_new(ov_box bounds, const ov_quad *board);
void ov_layout_free(ov_layout *L);
/* Changes where labels may go. */
void ov_layout_set_bounds(ov_layout *L, ov_box bounds);
/* Sets (or, with NULL, clears) the board's outline. */
void ov_layout_set_board(ov_layout *L, const ov_quad *board);
/* What a label at q would cost now: INFINITY when it covers a hard obstacle or leaves the bounds,
 * else the share of its area over bases and marks (and off the board). */
double ov_layout_cost(const ov_layout *L, const ov_quad *q);
/* Forgets every obstacle and label (a new frame). */
void ov_layout_reset(ov_layout *L);

/* Adds an obstacle. Returns 0, -1 when out of memory. */
int ov_layout_add(ov_layout *L, const ov_quad *q, ov_obstacle_kind kind);
/* A point obstacle (base centre) of half-size r. */
int ov_layout_add_point(ov_layout *L, double x, double y, double r, ov_obstacle_kind kind);
/* Places one label; a placed label becomes an OV_OBST_LABEL obstacle. Returns 0, -1 when out of memory. */
int ov_layout_place(ov_layout *L, const ov_label_req *q, ov_label_place *out);

/* What is on the picture so far (tests check the geometry with these). */
size_t ov_layout_count(const ov_layout *L);
const ov_obstacle *ov_layout_get(const ov_layout *L, size_t i);
ov_box ov_layout_bounds(const ov_layout *L);

/* Geometry helpers (also for tests). */
ov_quad ov_quad_rect(double cx, double cy, double w, double h, double angle);
ov_quad ov_quad_box(ov_box b);
ov_box ov_quad_bbox(const ov_quad *q);
/* Interiors overlap by more than `eps` (separating-axis test with the quads shrunk by eps). */
bool ov_quad_overlap(const ov_quad *a, const ov_quad *b, double eps);
/* Area of the intersection of two convex quads. */
double ov_quad_overlap_area(const ov_quad *a, const ov_quad *b);
bool ov_quad_contains(const ov_quad *q, double x, double y);
double ov_quad_area(const ov_quad *q);

#endif
