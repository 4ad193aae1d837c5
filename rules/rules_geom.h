/*
 * rules_geom: plane geometry on the board.
 *
 * Board frame (documented once, here and in docs/formats.md): the origin is
 * the board's front-left corner as seen by the player on the long edge at
 * y = 0; x runs along the long edge, y across the board, both in millimetres.
 * Angles are radians, counter-clockwise from +x. Inches and degrees exist only
 * at the edges (JSON, text output) through the conversions below.
 *
 * How to use: build rules_obb values for bases and unit boundaries, turn them
 * into corner lists with rules_obb_corners(), and ask distances or overlap
 * through the polygon functions. Everything here is pure and allocation-free.
 */
#ifndef RULES_GEOM_H
#define RULES_GEOM_H

#include <stdbool.h>
#include <stddef.h>
#include <math.h>

#define RULES_MM_PER_INCH 25.4
#define RULES_PI 3.14159265358979323846

static inline double rules_in_to_mm(double in) { return in * RULES_MM_PER_INCH; }
static inline double rules_mm_to_in(double mm) { return mm / RULES_MM_PER_INCH; }
static inline double rules_deg_to_rad(double deg) { return deg * (RULES_PI / 180.0); }
static inline double rules_rad_to_deg(double rad) { return rad * (180.0 / RULES_PI); }

typedef struct rules_vec2 {
    double x, y;
} rules_vec2;

static inline rules_vec2 rules_v2(double x, double y) { return (rules_vec2){x, y}; }
static inline rules_vec2 rules_v2_add(rules_vec2 a, rules_vec2 b) { return rules_v2(a.x + b.x, a.y + b.y); }
static inline rules_vec2 rules_v2_sub(rules_vec2 a, rules_vec2 b) { return rules_v2(a.x - b.x, a.y - b.y); }
static inline rules_vec2 rules_v2_scale(rules_vec2 a, double s) { return rules_v2(a.x * s, a.y * s); }
static inline double rules_v2_dot(rules_vec2 a, rules_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline double rules_v2_cross(rules_vec2 a, rules_vec2 b) { return a.x * b.y - a.y * b.x; }
/* sqrt, not hypot: board millimetres never overflow a square, and hypot costs several times more. */
static inline double rules_v2_len(rules_vec2 a) { return sqrt(a.x * a.x + a.y * a.y); }
static inline double rules_v2_dist(rules_vec2 a, rules_vec2 b) { return rules_v2_len(rules_v2_sub(a, b)); }
/* Unit vector of heading `angle`. */
static inline rules_vec2 rules_v2_dir(double angle) { return rules_v2(cos(angle), sin(angle)); }
/* `a` rotated counter-clockwise by `angle`. */
static inline rules_vec2 rules_v2_rot(rules_vec2 a, double angle)
{
    double c = cos(angle), s = sin(angle);
    return rules_v2(c * a.x - s * a.y, s * a.x + c * a.y);
}

/* Angle wrapped into (-pi, pi]. */
double rules_angle_wrap(double a);
/* Angle wrapped into [0, 2*pi). */
double rules_angle_wrap_2pi(double a);

/*
 * A pose in a unit's own frame: `origin` plus `heading`. Local coordinates
 * are (u, v): u to the right of the heading, v along it. Converting between
 * board and local frames is the one place the handedness is decided.
 */
typedef struct rules_frame {
    rules_vec2 origin;
    double heading;
} rules_frame;

rules_vec2 rules_frame_to_local(rules_frame f, rules_vec2 board_pt);
rules_vec2 rules_frame_to_board(rules_frame f, rules_vec2 local_pt);

/*
 * An oriented rectangle: a base or a unit boundary. `width` runs along the
 * front (perpendicular to `heading`), `depth` along the heading.
 */
typedef struct rules_obb {
    rules_vec2 centre;
    double heading;
    double width, depth;
} rules_obb;

/*
 * Corners in counter-clockwise order starting at the front-left corner:
 * front-left, rear-left, rear-right, front-right.
 */
void rules_obb_corners(const rules_obb *box, rules_vec2 out[4]);
/* Centre of the front edge. */
rules_vec2 rules_obb_front_centre(const rules_obb *box);

/* Distance from point p to the segment ab. */
double rules_seg_point_dist(rules_vec2 a, rules_vec2 b, rules_vec2 p);
/* Shortest distance between segments ab and cd (0 when they cross). */
double rules_seg_seg_dist(rules_vec2 a, rules_vec2 b, rules_vec2 c, rules_vec2 d);
/* True when the segments ab and cd share a point. */
bool rules_seg_intersect(rules_vec2 a, rules_vec2 b, rules_vec2 c, rules_vec2 d);

/* Point in a simple polygon (any winding, convex or not); boundary counts as inside. */
bool rules_poly_contains(const rules_vec2 *poly, size_t n, rules_vec2 p);
/* True when two simple polygons share any point (touching counts). */
bool rules_poly_overlap(const rules_vec2 *a, size_t na, const rules_vec2 *b, size_t nb);
/* Shortest distance between two simple polygons; 0 when they overlap or touch. */
double rules_poly_dist(const rules_vec2 *a, size_t na, const rules_vec2 *b, size_t nb);
/* Signed area (counter-clockwise positive). */
double rules_poly_area(const rules_vec2 *poly, size_t n);

/* Distance between two oriented rectangles (0 when they overlap). */
double rules_obb_dist(const rules_obb *a, const rules_obb *b);
/* The same for two rectangles given by their corners (rules_obb_corners order); no trigonometry. */
double rules_quad_dist(const rules_vec2 a[4], const rules_vec2 b[4]);

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
unsigned rules_obb_arcs_of(const rules_obb *box, rules_vec2 p, double tol_mm);
/* Human-readable name of a single arc bit ("front", "rear", "left flank", "right flank"). */
const char *rules_arc_name(unsigned arc);

#endif
