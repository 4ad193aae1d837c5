#include "vis_recover.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules_formation.h"
#include "vis_units.h"


static double pix(const vis_image *im, double x, double y)
{
    if (x < 0)
        x = 0;
    if (y < 0)
        y = 0;
    if (x > im->width - 1.001)
        x = im->width - 1.001;
    if (y > im->height - 1.001)
        y = im->height - 1.001;
    const int x0 = (int)x, y0 = (int)y;
    const double fx = x - x0, fy = y - y0;
    const uint8_t *p = im->gray + (size_t)y0 * im->stride + x0;
    return (p[0] * (1 - fx) + p[1] * fx) * (1 - fy) + (p[im->stride] * (1 - fx) + p[im->stride + 1] * fx) * fy;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Ink and paper grey levels from the cleanly decoded tags (their black ring and white border). */
static bool paper_levels(const vis_image *im, const vis_tag_detection *tags, size_t n, double *black, double *white)
{
    double kb[64], kw[64];
    size_t used = 0;
    for (size_t i = 0; i < n && used < 64; i++) {
        const vis_tag_detection *t = &tags[i];
        double b[32], w[40];
        size_t nb = 0, nw = 0;
        for (int e = 0; e < 4; e++)
            for (int j = 0; j < 10; j++)
                for (int ring = 0; ring < 2; ring++) {
                    /* Cell centres along each side: ring at +-7/8, border at +-9/8 (tag units, corners at +-1). */
                    if (ring && j >= 8)
                        continue;
                    const double edge = ring ? 7.0 / 8 : 9.0 / 8, along = ring ? (-7 + 2 * j) / 8.0 : (-9 + 2 * j) / 8.0;
                    const double a = e == 0 ? along : e == 1 ? edge : e == 2 ? -along : -edge;
                    const double c = e == 0 ? -edge : e == 1 ? along : e == 2 ? edge : -along;
                    const double s = (a + 1) / 2, u = (c + 1) / 2;
                    const double x = (1 - s) * (1 - u) * t->corners[0][0] + s * (1 - u) * t->corners[1][0] +
                                     s * u * t->corners[2][0] + (1 - s) * u * t->corners[3][0];
                    const double y = (1 - s) * (1 - u) * t->corners[0][1] + s * (1 - u) * t->corners[1][1] +
                                     s * u * t->corners[2][1] + (1 - s) * u * t->corners[3][1];
                    if (ring)
                        b[nb++] = pix(im, x, y);
                    else
                        w[nw++] = pix(im, x, y);
                }
        kb[used] = median_of(b, nb);
        kw[used] = median_of(w, nw);
        used++;
    }
    if (used == 0)
        return false;
    *black = median_of(kb, used);
    *white = median_of(kw, used);
    return *white - *black > 30;
}

typedef struct blob {
    double px[2];
} blob;

/*
 * Dark blobs the size of a tag's black square (whole or bitten), on a
 * box-averaged copy of the image: candidates for tags apriltag could not
 * segment. Returns the count (at most cap), -1 when out of memory.
 */
static long dark_blobs(const vis_image *im, double tag_px, double threshold, blob *out, size_t cap)
{
    const int f = tag_px >= 18 ? (int)floor(tag_px / 10) : 1;
    const int sw = im->width / f, sh = im->height / f;
    uint8_t *dark = malloc((size_t)sw * sh);
    int32_t *stack = malloc((size_t)sw * sh * sizeof *stack);
    if (!dark || !stack) {
        free(dark);
        free(stack);
        return -1;
    }
    const int lim = (int)(threshold * f * f);
    for (int y = 0; y < sh; y++)
        for (int x = 0; x < sw; x++) {
            int sum = 0;
            for (int v = 0; v < f; v++) {
                const uint8_t *p = im->gray + (size_t)(y * f + v) * im->stride + (size_t)x * f;
                for (int u = 0; u < f; u++)
                    sum += p[u];
            }
            dark[(size_t)y * sw + x] = sum < lim;
        }
    const double tp = tag_px / f;
    size_t n = 0;
    for (int y0 = 0; y0 < sh; y0++)
        for (int x0 = 0; x0 < sw; x0++) {
            if (!dark[(size_t)y0 * sw + x0])
                continue;
            size_t top = 0, area = 0;
            double sx = 0, sy = 0;
            int minx = x0, maxx = x0, miny = y0, maxy = y0;
            stack[top++] = y0 * sw + x0;
            dark[(size_t)y0 * sw + x0] = 0;
            while (top) {
                const int32_t k = stack[--top];
                const int x = k % sw, y = k / sw;
                area++, sx += x, sy += y;
                minx = x < minx ? x : minx, maxx = x > maxx ? x : maxx;
                miny = y < miny ? y : miny, maxy = y > maxy ? y : maxy;
                const int nb[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
                for (int q = 0; q < 4; q++) {
                    const int xx = nb[q][0], yy = nb[q][1];
                    if (xx < 0 || yy < 0 || xx >= sw || yy >= sh || !dark[(size_t)yy * sw + xx])
                        continue;
                    dark[(size_t)yy * sw + xx] = 0;
                    stack[top++] = yy * sw + xx;
                }
            }
            const double ext = fmax(maxx - minx + 1, maxy - miny + 1), ext2 = fmin(maxx - minx + 1, maxy - miny + 1);
            if (area < 0.15 * tp * tp || area > 1.2 * tp * tp || ext < 0.5 * tp || ext > 1.6 * tp || ext2 < 0.4 * tp)
                continue;
            if (n < cap) {
                out[n].px[0] = (sx / area + 0.5) * f - 0.5;
                out[n].px[1] = (sy / area + 0.5) * f - 0.5;
                n++;
            }
        }
    free(dark);
    free(stack);
    return (long)n;
}

/* A tag hypothesis on the board: centre (mm, on the plane of its height) and heading. */
typedef struct tag_frame {
    double P[3];    /* linearisation point, board mm */
    double px0[2];  /* its pixel */
    double J[2][2]; /* px per board mm */
    double S;       /* whole printed bitmap, mm */
    int tw;         /* cells per side */
} tag_frame;

static bool tag_frame_init(const vis_camera *cam, const double P[3], double size, int tw, tag_frame *tf)
{
    double a[2], b[2];
    const double Px[3] = {P[0] + 1, P[1], P[2]}, Py[3] = {P[0], P[1] + 1, P[2]};
    if (!vis_camera_project(cam, P, tf->px0) || !vis_camera_project(cam, Px, a) || !vis_camera_project(cam, Py, b))
        return false;
    memcpy(tf->P, P, sizeof tf->P);
    tf->J[0][0] = a[0] - tf->px0[0], tf->J[1][0] = a[1] - tf->px0[1];
    tf->J[0][1] = b[0] - tf->px0[0], tf->J[1][1] = b[1] - tf->px0[1];
    tf->S = size * tw / (tw - 2);
    tf->tw = tw;
    return true;
}

/* Mean grey of cell (u, v) (row v from the printed top) of a tag centred at c (mm) with heading h; `sub` 1 or 2. */
static double cell_grey(const vis_image *im, const tag_frame *tf, double cx, double cy, double ch, double sh, int u,
                        int v, int sub)
{
    const double k = tf->S / tf->tw;
    double sum = 0;
    for (int i = 0; i < sub; i++)
        for (int j = 0; j < sub; j++) {
            const double du = sub == 1 ? 0.5 : 0.2 + 0.6 * i, dv = sub == 1 ? 0.5 : 0.2 + 0.6 * j;
            const double a = (u + du) * k - tf->S / 2, b = tf->S / 2 - (v + dv) * k;
            /* right = (sin h, -cos h), up = (cos h, sin h) */
            const double X = cx + a * sh + b * ch - tf->P[0], Y = cy - a * ch + b * sh - tf->P[1];
            sum += pix(im, tf->px0[0] + tf->J[0][0] * X + tf->J[0][1] * Y, tf->px0[1] + tf->J[1][0] * X + tf->J[1][1] * Y);
        }
    return sum / (sub * sub);
}

/* The outline's sample points (white border, then black ring; sub x sub per cell) as pixel offsets for heading h. */
typedef struct outline_pts {
    double off[256][2];
    int n_white, n;
} outline_pts;

static void outline_points(const tag_frame *tf, double h, int sub, outline_pts *o)
{
    const double ch = cos(h), sh = sin(h), k = tf->S / tf->tw;
    const int tw = tf->tw;
    o->n = 0;
    for (int ring = 0; ring < 2; ring++) {
        for (int v = 0; v < tw; v++)
            for (int u = 0; u < tw; u++) {
                const int c = (u == 0 || v == 0 || u == tw - 1 || v == tw - 1) ? 0
                              : (u == 1 || v == 1 || u == tw - 2 || v == tw - 2) ? 1
                                                                                 : -1;
                if (c != ring)
                    continue;
                for (int i = 0; i < sub; i++)
                    for (int j = 0; j < sub; j++) {
                        if (o->n >= 256)
                            continue;
                        const double du = sub == 1 ? 0.5 : 0.2 + 0.6 * i, dv = sub == 1 ? 0.5 : 0.2 + 0.6 * j;
                        const double a = (u + du) * k - tf->S / 2, b = tf->S / 2 - (v + dv) * k;
                        const double X = a * sh + b * ch, Y = -a * ch + b * sh;
                        o->off[o->n][0] = tf->J[0][0] * X + tf->J[0][1] * Y;
                        o->off[o->n][1] = tf->J[1][0] * X + tf->J[1][1] * Y;
                        o->n++;
                    }
            }
        if (ring == 0)
            o->n_white = o->n;
    }
}

/* How much the tag outline (white border around a black ring) stands out with its centre at (cx, cy) mm. */
static double outline_score(const vis_image *im, const tag_frame *tf, const outline_pts *o, double cx, double cy)
{
    const double X = cx - tf->P[0], Y = cy - tf->P[1];
    const double x0 = tf->px0[0] + tf->J[0][0] * X + tf->J[0][1] * Y, y0 = tf->px0[1] + tf->J[1][0] * X + tf->J[1][1] * Y;
    double w = 0, b = 0;
    for (int i = 0; i < o->n_white; i++)
        w += pix(im, x0 + o->off[i][0], y0 + o->off[i][1]);
    for (int i = o->n_white; i < o->n; i++)
        b += pix(im, x0 + o->off[i][0], y0 + o->off[i][1]);
    return w / o->n_white - b / (o->n - o->n_white);
}

typedef struct tag_read {
    int id;
    double c[2], heading;  /* tag centre on its plane (mm) and heading */
    int errors, visible, runner_up;
    double px[2];
} tag_read;

/*
 * Fits the roster's tag outline near a dark blob and decodes its data bits
 * against every code of the family in every rotation. False when no outline
 * or no unique nearest code.
 */
static bool read_hidden_tag(const vis_detector *d, const vis_camera *cam, const vis_image *im, const blob *bl,
                            const vis_tag_mount *m, const uint64_t *codes, int ncodes, int tw, double d_contrast,
                            tag_read *out)
{
    double P[3];
    if (!vis_camera_pixel_to_plane(cam, bl->px, m->height, P))
        return false;
    tag_frame tf;
    if (!tag_frame_init(cam, P, m->size, tw, &tf))
        return false;
    /* Orientation of the square's edges (mod 90 degrees) from the blob's gradients, weighted by strength. */
    const double r = 0.8 * d->expected_tag_px;
    double c4 = 0, s4 = 0;
    for (int y = (int)(bl->px[1] - r); y <= (int)(bl->px[1] + r); y++)
        for (int x = (int)(bl->px[0] - r); x <= (int)(bl->px[0] + r); x++) {
            if (x < 1 || y < 1 || x >= im->width - 1 || y >= im->height - 1)
                continue;
            const uint8_t *p = im->gray + (size_t)y * im->stride + x;
            const double gx = p[1] - p[-1], gy = (double)p[im->stride] - p[-(ptrdiff_t)im->stride];
            const double m2 = gx * gx + gy * gy, phi = atan2(gy, gx);
            c4 += m2 * cos(4 * phi), s4 += m2 * sin(4 * phi);
        }
    const double th_img = atan2(s4, c4) / 4;
    /* The image direction back onto the board (inverse of J). */
    const double det = tf.J[0][0] * tf.J[1][1] - tf.J[0][1] * tf.J[1][0];
    if (fabs(det) < 1e-9)
        return false;
    const double dx = cos(th_img), dy = sin(th_img);
    const double vx = (tf.J[1][1] * dx - tf.J[0][1] * dy) / det, vy = (-tf.J[1][0] * dx + tf.J[0][0] * dy) / det;
    double bh = atan2(vy, vx), bx = P[0], by = P[1], best = -1e9;
    /* Coarse then fine search of the outline (the blob's centroid is biased by what hides the tag). */
    const double steps[3][4] = {{1.0, 3, 3, 2}, {0.25, 4, 1, 1}, {0.1, 2, 0.5, 1}}; /* mm step, n, deg step, n */
    outline_pts op;
    for (int s = 0; s < 3; s++) {
        const double cx0 = bx, cy0 = by, h0 = bh;
        for (int k = -(int)steps[s][3]; k <= (int)steps[s][3]; k++) {
            const double h = h0 + rules_deg_to_rad(k * steps[s][2]);
            outline_points(&tf, h, 2, &op);
            for (int i = -(int)steps[s][1]; i <= (int)steps[s][1]; i++)
                for (int j = -(int)steps[s][1]; j <= (int)steps[s][1]; j++) {
                    const double cx = cx0 + i * steps[s][0], cy = cy0 + j * steps[s][0];
                    const double sc = outline_score(im, &tf, &op, cx, cy);
                    if (sc > best)
                        best = sc, bx = cx, by = cy, bh = h;
                }
        }
        /* No outline of the roster's size here (a dark figure, a shadow): stop early. */
        if (s == 0 && best < 0.3 * d_contrast)
            return false;
    }
    /* Levels from this tag's own outline; data cells read in the four rotations. */
    const double ch = cos(bh), sh = sin(bh);
    double ring[64], border[64];
    int nr = 0, nbo = 0;
    for (int v = 0; v < tw; v++)
        for (int u = 0; u < tw; u++) {
            const bool isb = u == 0 || v == 0 || u == tw - 1 || v == tw - 1;
            const bool isr = !isb && (u == 1 || v == 1 || u == tw - 2 || v == tw - 2);
            if ((isb && nbo >= 64) || (isr && nr >= 64))
                continue;
            if (isb)
                border[nbo++] = cell_grey(im, &tf, bx, by, ch, sh, u, v, 2);
            else if (isr)
                ring[nr++] = cell_grey(im, &tf, bx, by, ch, sh, u, v, 2);
        }
    const double black = median_of(ring, nr), white = median_of(border, nbo), contrast = white - black;
    if (contrast < 30)
        return false;
    const double thr = (black + white) / 2, sure = 0.2 * contrast;
    const int nd = tw - 4;
    uint64_t obs[4], conf[4];
    for (int rot = 0; rot < 4; rot++) {
        const double h = bh + rot * RULES_PI / 2, c = cos(h), s_ = sin(h);
        obs[rot] = conf[rot] = 0;
        for (int v = 0; v < nd; v++)
            for (int u = 0; u < nd; u++) {
                const double g = cell_grey(im, &tf, bx, by, c, s_, u + 2, v + 2, 2);
                obs[rot] = obs[rot] << 1 | (g > thr);
                conf[rot] = conf[rot] << 1 | (fabs(g - thr) >= sure);
            }
    }
    int best_e = 1 << 30, second = 1 << 30, best_id = -1, best_rot = 0;
    for (int id = 0; id < ncodes; id++)
        for (int rot = 0; rot < 4; rot++) {
            const int e = __builtin_popcountll((obs[rot] ^ codes[id]) & conf[rot]);
            if (e < best_e)
                second = best_e, best_e = e, best_id = id, best_rot = rot;
            else if (e < second)
                second = e;
        }
    out->id = best_id;
    out->c[0] = bx, out->c[1] = by;
    out->heading = rules_angle_wrap(bh + best_rot * RULES_PI / 2);
    out->errors = best_e;
    out->visible = __builtin_popcountll(conf[best_rot]);
    out->runner_up = second;
    const double X[3] = {bx, by, m->height};
    if (!vis_camera_project(cam, X, out->px))
        out->px[0] = bl->px[0], out->px[1] = bl->px[1];
    return best_id >= 0;
}

/*
 * For each roster unit of which nothing was seen, looks for its tags among
 * dark blobs nobody explains and marks the models of a consistent set
 * `rough` in seen[]. Returns 0, or -1 when out of memory.
 */
int vis_recover_hidden_units(const vis_detector *d, const vis_camera *cam, const vis_image *im,
                                const vis_tag_detection *tags, size_t n, const rules_snapshot *prior,
                                vis_seen_model *seen, vis_report *rep)
{
    const vis_roster *r = d->roster;
    bool *missing = calloc(r->n_units ? r->n_units : 1, sizeof *missing);
    if (!missing)
        return -1;
    size_t n_missing = 0;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        const vis_roster_unit *u = &r->units[ui];
        bool any = false;
        for (size_t k = 0; k < u->n_models && !any; k++) {
            const vis_seen_model *s = &seen[u->first_model + k];
            any = s->seen || s->rough;
            /* A tag of it read but refused (duplicate, bad size...) is not "nothing seen". */
            for (size_t i = 0; i < n && !any; i++)
                any = tags[i].id == r->models[u->first_model + k].tag_id;
        }
        missing[ui] = !any && u->n_models > 0;
        n_missing += missing[ui];
    }
    double black, white;
    if (n_missing == 0 || !paper_levels(im, tags, n, &black, &white)) {
        free(missing);
        return 0;
    }
    int rc = -1;
    rules_snapshot *placed = NULL;
    blob *blobs = NULL;
    uint64_t *codes = NULL;
    tag_read *reads = NULL;
    /* Where every other unit is: their tags' dark squares are not candidates. */
    {
        vis_report tmp = {0};
        rules_error e2;
        vis_seen_model *others = malloc(r->n_models * sizeof *others);
        if (!others)
            goto out;
        memcpy(others, seen, r->n_models * sizeof *others);
        int brc = vis_units_build(r, others, prior, &placed, &tmp, &e2);
        free(others);
        vis_report_clear(&tmp);
        if (brc < 0)
            goto out;
    }
    const size_t cap = 4096;
    blobs = malloc(cap * sizeof *blobs);
    if (!blobs)
        goto out;
    long nb = dark_blobs(im, d->expected_tag_px, black + 0.45 * (white - black), blobs, cap);
    if (nb < 0)
        goto out;
    /* Drop blobs explained by a decoded tag or a placed model of another unit. */
    const double near_px = 0.8 * d->expected_tag_px;
    size_t n_known = 0;
    double(*known)[2] = malloc((n + r->n_models + 1) * sizeof *known);
    if (!known)
        goto out;
    for (size_t i = 0; i < n; i++)
        known[n_known][0] = tags[i].centre[0], known[n_known++][1] = tags[i].centre[1];
    for (size_t ui = 0; ui < r->n_units; ui++) {
        const vis_roster_unit *ru = &r->units[ui];
        const rules_unit *pu = missing[ui] ? NULL : rules_snapshot_find_unit(placed, ru->id);
        for (size_t m = 0; pu && m < pu->n_models; m++) {
            rules_vec2 tc;
            double th;
            vis_tag_mount_place(&ru->mount, pu->models[m].pos, pu->models[m].facing, &tc, &th);
            const double X[3] = {tc.x, tc.y, ru->mount.height};
            if (vis_camera_project(cam, X, known[n_known]))
                n_known++;
        }
    }
    size_t kept = 0;
    for (long b = 0; b < nb; b++) {
        bool explained = false;
        for (size_t i = 0; i < n_known && !explained; i++)
            explained = hypot(known[i][0] - blobs[b].px[0], known[i][1] - blobs[b].px[1]) < near_px;
        if (!explained)
            blobs[kept++] = blobs[b];
    }
    free(known);
    /* The family's codes as the data cells read row by row from the printed top. */
    const int ncodes = vis_tag_family_codes(d->tags);
    codes = malloc((ncodes ? ncodes : 1) * sizeof *codes);
    reads = malloc((kept ? kept : 1) * sizeof *reads);
    if (!codes || !reads)
        goto out;
    int tw = 0;
    for (int id = 0; id < ncodes; id++) {
        uint8_t cells[256];
        if (!vis_tag_bitmap(d->tags, id, cells, &tw) || tw < 5 || (tw - 4) * (tw - 4) > 64) {
            rc = 0; /* a family this reader does not handle: nothing recovered */
            goto out;
        }
        uint64_t c = 0;
        for (int v = 2; v < tw - 2; v++)
            for (int u = 2; u < tw - 2; u++)
                c = c << 1 | cells[v * tw + u];
        codes[id] = c;
    }
    for (size_t ui = 0; ui < r->n_units; ui++) {
        if (!missing[ui])
            continue;
        const vis_roster_unit *ru = &r->units[ui];
        /* Read every unexplained blob with this unit's mount; keep reads of its own IDs. */
        size_t nr = 0;
        for (size_t b = 0; b < kept; b++) {
            tag_read t;
            if (!read_hidden_tag(d, cam, im, &blobs[b], &ru->mount, codes, ncodes, tw, white - black, &t))
                continue;
            const vis_roster_model *rm = vis_roster_find_model_tag(r, t.id);
            if (!rm || rm->unit != ui || t.visible < (tw - 4) * (tw - 4) / 2 ||
                t.errors > d->cfg.recover_max_bit_error * t.visible || t.runner_up < t.errors + 2)
                continue;
            /* Two blobs read as one ID (the same tag found twice, or a misread): keep the better read. */
            size_t j = 0;
            while (j < nr && reads[j].id != t.id)
                j++;
            if (j < nr) {
                if (hypot(reads[j].c[0] - t.c[0], reads[j].c[1] - t.c[1]) > 2 * ru->mount.size)
                    reads[j].errors = 1 << 20; /* two places: neither is trusted */
                else if (t.errors < reads[j].errors)
                    reads[j] = t;
                continue;
            }
            reads[nr++] = t;
        }
        size_t w = 0;
        for (size_t j = 0; j < nr; j++)
            if (reads[j].errors < (1 << 20))
                reads[w++] = reads[j];
        nr = w;
        if (nr == 0)
            continue;
        /* The reads must agree on one formation: each proposes the unit's facing and front-left slot. */
        double *ox = malloc(3 * nr * sizeof *ox);
        if (!ox)
            goto out;
        double *oy = ox + nr, *fa = ox + 2 * nr;
        for (size_t j = 0; j < nr; j++) {
            const vis_roster_model *rm = vis_roster_find_model_tag(r, reads[j].id);
            rules_vec2 pos;
            double facing;
            vis_tag_mount_unplace(&ru->mount, rules_v2(reads[j].c[0], reads[j].c[1]), reads[j].heading, &pos, &facing);
            rules_formation f = {0};
            f.frame.heading = facing;
            f.pitch_across = ru->base_width, f.pitch_along = ru->base_depth;
            rules_vec2 slot = rules_formation_slot_position(&f, rm->file, rm->rank, 0);
            ox[j] = pos.x - slot.x, oy[j] = pos.y - slot.y, fa[j] = facing;
        }
        size_t best_in = 0, best_ref = 0;
        for (size_t a = 0; a < nr; a++) {
            size_t in = 0;
            for (size_t b = 0; b < nr; b++)
                in += fabs(rules_angle_wrap(fa[b] - fa[a])) <= rules_deg_to_rad(6) &&
                      hypot(ox[b] - ox[a], oy[b] - oy[a]) <= 5.0;
            if (in > best_in)
                best_in = in, best_ref = a;
        }
        const size_t need = (size_t)fmax(d->cfg.recover_min_tags, ceil(ru->n_models / 3.0));
        if (best_in < need || best_in < 2 * (nr - best_in)) {
            vis_report_add(rep, VIS_ISSUE_MISSING, -1, NULL, NULL,
                           "unit %s: %zu partly hidden tags read, only %zu agree on one formation (%zu needed): "
                           "not placed",
                           ru->id, nr, best_in, need);
            free(ox);
            continue;
        }
        for (size_t j = 0; j < nr; j++) {
            if (!(fabs(rules_angle_wrap(fa[j] - fa[best_ref])) <= rules_deg_to_rad(6) &&
                  hypot(ox[j] - ox[best_ref], oy[j] - oy[best_ref]) <= 5.0))
                continue;
            const vis_roster_model *rm = vis_roster_find_model_tag(r, reads[j].id);
            vis_seen_model *s = &seen[rm - r->models];
            s->rough = true;
            vis_tag_mount_unplace(&ru->mount, rules_v2(reads[j].c[0], reads[j].c[1]), reads[j].heading, &s->pos,
                                  &s->facing);
            vis_report_add(rep, VIS_ISSUE_RECOVERED, reads[j].id, rm->id, reads[j].px,
                           "tag %d (%s) partly hidden: read with %d of %d visible bits wrong (next code %d), in its "
                           "unit's formation with %zu others: its unit is placed from them",
                           reads[j].id, rm->id, reads[j].errors, reads[j].visible, reads[j].runner_up, best_in - 1);
        }
        free(ox);
    }
    rc = 0;
out:
    rules_snapshot_free(placed);
    free(blobs);
    free(codes);
    free(reads);
    free(missing);
    return rc;
}

