/*
 * base_geom: plane geometry on the board.
 *
 * Board frame (documented once, here and in docs/formats.md): the origin is
 * the board's front-left corner as seen by the player on the long edge at
 * y = 0; x runs along the long edge, y across the board, both in millimetres.
 * Angles are radians, counter-clockwise from +x. Inches and degrees exist only
 * at the edges (JSON, text output) through the conversions below.
 *
 * How to use: build base_obb values for bases and unit boundaries, turn them
 * into corner lists with base_obb_corners(), and ask distances or overlap
 * through the polygon functions. Everything here is pure and allocation-free.
 */
#ifndef BASE_GEOM_H
#define BASE_GEOM_H

#include <stdbool.h>
#include <stddef.h>
#include <math.h>

#define BASE_MM_PER_INCH 25.4
#define BASE_PI 3.14159265358979323846

static inline double base_in_to_mm(double in) { return in * BASE_MM_PER_INCH; }
static inline double base_mm_to_in(double mm) { return mm / BASE_MM_PER_INCH; }
static inline double base_deg_to_rad(double deg) { return deg * (BASE_PI / 180.0); }
static inline double base_rad_to_deg(double rad) { return rad * (180.0 / BASE_PI); }

typedef struct base_vec2 {
    double x, y;
} base_vec2;

static inline base_vec2 base_v2(double x, double y) { return (base_vec2){x, y}; }
static inline base_vec2 base_v2_add(base_vec2 a, base_vec2 b) { return base_v2(a.x + b.x, a.y + b.y); }
static inline base_vec2 base_v2_sub(base_vec2 a, base_vec2 b) { return base_v2(a.x - b.x, a.y - b.y); }
static inline base_vec2 base_v2_scale(base_vec2 a, double s) { return base_v2(a.x * s, a.y * s); }
static inline double base_v2_dot(base_vec2 a, base_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline double base_v2_cross(base_vec2 a, base_vec2 b) { return a.x * b.y - a.y * b.x; }
/* sqrt, not hypot: board millimetres never overflow a square, and hypot costs several times more. */
static inline double base_v2_len(base_vec2 a) { return sqrt(a.x * a.x + a.y * a.y); }
static inline double base_v2_dist(base_vec2 a, base_vec2 b) { return base_v2_len(base_v2_sub(a, b)); }
/* Unit vector of heading `angle`. */
static inline base_vec2 base_v2_dir(double angle) { return base_v2(cos(angle), sin(angle)); }
/* `a` rotated counter-clockwise by `angle`. */
static inline base_vec2 base_v2_rot(base_vec2 a, double angle)
{
    double c = cos(angle), s = sin(angle);
    return base_v2(c * a.x - s * a.y, s * a.x + c * a.y);
}

/* Angle wrapped into (-pi, pi]. */
double base_angle_wrap(double a);
/* Angle wrapped into [0, 2*pi). */
double base_angle_wrap_2pi(double a);

/*
 * A pose in a unit's own frame: `origin` plus `heading`. Local coordinates
 * are (u, v): u to the right of the heading, v along it. Converting between
 * board and local frames is the one place the handedness is decided.
 */
typedef struct base_frame {
    base_vec2 origin;
    double heading;
} base_frame;

base_vec2 base_frame_to_local(base_frame f, base_vec2 board_pt);
base_vec2 base_frame_to_board(base_frame f, base_vec2 local_pt);

/*
 * An oriented rectangle: a base or a unit boundary. `width` runs along the
 * front (perpendicular to `heading`), `depth` along the heading.
 */
typedef struct base_obb {
    base_vec2 centre;
    double heading;
    double width, depth;
} base_obb;

/*
 * Corners in counter-clockwise order starting at the front-left corner:
 * front-left, rear-left, rear-right, front-right.
 */
void base_obb_corners(const base_obb *box, base_vec2 out[4]);
/* Centre of the front edge. */
base_vec2 base_obb_front_centre(const base_obb *box);

/*
 * A printed label on the board: a tag with its white border, a square the
 * camera must read. referee/ref_labels.h finds them in a snapshot and
 * overlay/ov_keepout.h keeps them dark; here because neither includes the other.
 */
typedef struct base_label {
    base_vec2 centre; /* board mm */
    double heading;   /* rad */
    double side_mm;   /* the printed square: black tag and its white border */
    double height_mm; /* above the board */
    double sigma_mm;  /* its position's sigma (NAN: exact); board tags 0 */
} base_label;

/* Distance from point p to the segment ab. */
double base_seg_point_dist(base_vec2 a, base_vec2 b, base_vec2 p);
/* Shortest distance between segments ab and cd (0 when they cross). */
double base_seg_seg_dist(base_vec2 a, base_vec2 b, base_vec2 c, base_vec2 d);
/* True when the segments ab and cd share a point. */
bool base_seg_intersect(base_vec2 a, base_vec2 b, base_vec2 c, base_vec2 d);

/* Point in a simple polygon (any winding, convex or not); boundary counts as inside. */
bool base_poly_contains(const base_vec2 *poly, size_t n, base_vec2 p);
/* True when two simple polygons share any point (touching counts). */
bool base_poly_overlap(const base_vec2 *a, size_t na, const base_vec2 *b, size_t nb);
/* Shortest distance between two simple polygons; 0 when they overlap or touch. */
double base_poly_dist(const base_vec2 *a, size_t na, const base_vec2 *b, size_t nb);
/* Signed area (counter-clockwise positive). */
double base_poly_area(const base_vec2 *poly, size_t n);

/* Distance between two oriented rectangles (0 when they overlap). */
double base_obb_dist(const base_obb *a, const base_obb *b);
/* The same for two rectangles given by their corners (base_obb_corners order); no trigonometry. */
double base_quad_dist(const base_vec2 a[4], const base_vec2 b[4]);

#endif
