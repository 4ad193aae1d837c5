/* vis_relief: the table's relief as the camera meets it (see the header). */
#include "vis_relief.h"

#include <math.h>

#include "rules_relief.h"

/* Steps of the search down a ray: fine enough to meet a hill's slope or edge, then bisected. */
#define CAST_STEP_MM 0.5
#define CAST_BISECTIONS 40

void vis_relief_init(vis_relief *r)
{
    r->hills = NULL;
    r->top_mm = 0;
}

void vis_relief_clear(vis_relief *r)
{
    rules_snapshot_free(r->hills);
    vis_relief_init(r);
}

int vis_relief_set(vis_relief *r, const rules_terrain *t, size_t n, base_error *err)
{
    vis_relief_clear(r);
    if (!rules_relief_any(t, n))
        return 0;
    if (!(r->hills = rules_snapshot_new(1, 1)))
        return base_error_setc(err, BASE_E_NOMEM, "relief: out of memory");
    for (size_t i = 0; i < n; i++)
        if (t[i].relief == RULES_RELIEF_HILL && !rules_snapshot_copy_terrain(r->hills, &t[i])) {
            vis_relief_clear(r);
            return base_error_setc(err, BASE_E_NOMEM, "relief: out of memory");
        }
    r->top_mm = rules_relief_top(t, n);
    return 0;
}

int vis_relief_copy(vis_relief *to, const vis_relief *from)
{
    vis_relief_init(to);
    if (!vis_relief_any(from))
        return 0;
    if (!(to->hills = rules_snapshot_clone(from->hills)))
        return -1;
    to->top_mm = from->top_mm;
    return 0;
}

bool vis_relief_any(const vis_relief *r) { return r && r->hills && r->hills->n_terrain > 0; }

double vis_relief_height(const vis_relief *r, base_vec2 p, double *sigma_mm)
{
    if (!vis_relief_any(r)) {
        if (sigma_mm)
            *sigma_mm = 0;
        return 0;
    }
    return rules_relief_height(r->hills->terrain, r->hills->n_terrain, p, sigma_mm);
}

double vis_relief_tag_z(const vis_relief *r, const roster_tag_mount *m, base_vec2 base_centre)
{
    return vis_relief_height(r, base_centre, NULL) + m->height;
}

void vis_relief_pose_at(const vis_camera *cam, const vis_board_tag_pose *from, double from_mm, double to_mm,
                        vis_board_tag_pose *to)
{
    const double *C = cam->centre, k = (C[2] - to_mm) / (C[2] - from_mm);
    *to = *from;
    to->centre = base_v2(C[0] + (from->centre.x - C[0]) * k, C[1] + (from->centre.y - C[1]) * k);
    to->size_mm = from->size_mm * k;
    to->square_residual_mm = from->square_residual_mm * k;
}

/* How far above the surface under its base a tag would be, were its plane at z: >= 0 once the ray has met it. */
static double clearance(const vis_relief *r, const vis_camera *cam, const vis_board_tag_pose *at_mount,
                        const roster_tag_mount *m, double z)
{
    vis_board_tag_pose p;
    vis_relief_pose_at(cam, at_mount, m->height, z, &p);
    base_vec2 pos;
    double facing;
    roster_tag_mount_unplace(m, p.centre, p.heading, &pos, &facing);
    return vis_relief_height(r, pos, NULL) + m->height - z;
}

/*
 * The highest z down the ray at which f(z) >= 0 (the first surface met from above), between lo and hi with
 * f(lo) >= 0: stepped down from hi, then bisected. f is the clearance, or the pixel's.
 */
typedef double (*ray_gap)(const void *ctx, double z);
static double first_meeting(ray_gap f, const void *ctx, double lo, double hi)
{
    double above = hi;
    if (f(ctx, hi) >= 0)
        return hi;
    for (double z = hi - CAST_STEP_MM;; z -= CAST_STEP_MM) {
        if (z <= lo)
            z = lo;
        if (f(ctx, z) >= 0) {
            double below = z;
            for (int i = 0; i < CAST_BISECTIONS; i++) {
                const double mid = (above + below) / 2;
                if (f(ctx, mid) >= 0)
                    below = mid;
                else
                    above = mid;
            }
            return below;
        }
        if (z == lo)
            return lo;
        above = z;
    }
}

typedef struct tag_ray {
    const vis_relief *r;
    const vis_camera *cam;
    const vis_board_tag_pose *at_mount;
    const roster_tag_mount *m;
} tag_ray;

static double tag_gap(const void *ctx, double z)
{
    const tag_ray *t = ctx;
    return clearance(t->r, t->cam, t->at_mount, t->m, z);
}

double vis_relief_place_pose(const vis_relief *r, const vis_camera *cam, const vis_board_tag_pose *at_mount,
                             const roster_tag_mount *m, vis_board_tag_pose *out)
{
    *out = *at_mount;
    if (!vis_relief_any(r))
        return m->height;
    const tag_ray t = {r, cam, at_mount, m};
    double z = first_meeting(tag_gap, &t, m->height, r->top_mm + m->height + CAST_STEP_MM);
    /* On a flat top (or the board) the plane is exactly the surface's: no bisection's last bit left. */
    vis_relief_pose_at(cam, at_mount, m->height, z, out);
    base_vec2 pos;
    double facing;
    roster_tag_mount_unplace(m, out->centre, out->heading, &pos, &facing);
    const double snapped = vis_relief_height(r, pos, NULL) + m->height;
    if (fabs(snapped - z) < 1e-3) {
        z = snapped;
        vis_relief_pose_at(cam, at_mount, m->height, z, out);
    }
    return z;
}

bool vis_relief_place_tag(const vis_relief *r, const vis_camera *cam, const vis_tag_detection *t,
                          const roster_tag_mount *m, vis_board_tag_pose *out, double *tag_z)
{
    vis_board_tag_pose at;
    if (!vis_board_locate_tag(cam, t, m->height, &at))
        return false;
    const double z = vis_relief_place_pose(r, cam, &at, m, out);
    if (tag_z)
        *tag_z = z;
    return true;
}

typedef struct pixel_ray {
    const vis_relief *r;
    const vis_camera *cam;
    const double *px;
    double above;
} pixel_ray;

static double pixel_gap(const void *ctx, double z)
{
    const pixel_ray *p = ctx;
    double X[3];
    if (!vis_camera_pixel_to_plane(p->cam, p->px, z, X))
        return 1; /* never met: stop here */
    return vis_relief_height(p->r, base_v2(X[0], X[1]), NULL) + p->above - z;
}

bool vis_relief_cast_pixel(const vis_relief *r, const vis_camera *cam, const double px[2], double above_mm,
                           double out[3])
{
    double z = above_mm;
    if (vis_relief_any(r)) {
        const pixel_ray p = {r, cam, px, above_mm};
        z = first_meeting(pixel_gap, &p, above_mm, r->top_mm + above_mm + CAST_STEP_MM);
    }
    return vis_camera_pixel_to_plane(cam, px, z, out);
}

double vis_relief_apparent_height(const vis_camera *cam, const vis_board_tag_pose *pose, double at_mm,
                                  double printed_mm)
{
    const double Cz = cam->centre[2];
    return pose->size_mm > 0 ? Cz - (Cz - at_mm) * printed_mm / pose->size_mm : NAN;
}
