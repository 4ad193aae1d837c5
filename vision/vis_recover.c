#include "vis_recover.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules_formation.h"
#include "vis_tagread.h"
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

/*
 * Could models at (ax, ay) facing fa and (bx, by) facing fb stand in one
 * block of this unit's bases? Facings within 6 degrees; b within 4 mm of a
 * grid place counted from a: whole base depths along the facing, whole or
 * half base widths across (an incomplete rank centred).
 */
static bool on_one_grid(const vis_roster_unit *ru, double ax, double ay, double fa, double bx, double by, double fb)
{
    if (fabs(rules_angle_wrap(fb - fa)) > rules_deg_to_rad(6))
        return false;
    const double dx = bx - ax, dy = by - ay, c = cos(fa), s = sin(fa);
    const double along = dx * c + dy * s, across = -dx * s + dy * c;
    const double pa = ru->base_width, pd = ru->base_depth;
    const double e_along = along - pd * round(along / pd), e_across = across - pa / 2 * round(2 * across / pa);
    return hypot(e_along, e_across) <= 4.0;
}

/* The data cells of the detector's family (36 for tag36h11). */
static int codes_cells(const vis_tagread_codes *c) { return (c->tw - 4) * (c->tw - 4); }

/*
 * Reads a tag with this unit's mount near a dark blob: the blob's centroid
 * is biased by what hides the tag, and its orientation unknown, so the
 * outline is searched over +-4 mm and every heading.
 */
static bool read_blob(const vis_camera *cam, const vis_image *im, const blob *bl, const vis_tag_mount *m,
                      const vis_tagread_codes *codes, double contrast, vis_tagread *out)
{
    double P[3];
    if (!vis_camera_pixel_to_plane(cam, bl->px, m->height, P))
        return false;
    vis_tagread_params p;
    vis_tagread_params_default(&p);
    p.search_mm = 4;
    p.any_rotation = true;
    p.expect_contrast = contrast;
    return vis_tagread_at(cam, im, P, 0, m->size, &p, codes, out);
}

/*
 * For each roster unit of which nothing was seen, looks for its tags among
 * dark blobs nobody explains and marks the models of a consistent set
 * `rough` in seen[]. Returns 0, or -1 when out of memory.
 */
int vis_recover_hidden_units(const vis_detector *d, const vis_camera *cam, const vis_image *im,
                             const vis_tag_detection *tags, size_t n, const rules_snapshot *prior, vis_seen_model *seen,
                             unsigned char *seeded, vis_report *rep)
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
        missing[ui] = !any && u->n_models > 0 && vis_detector_in_focus(d, ui);
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
    vis_tagread_codes codes = {0};
    vis_tagread *reads = NULL;
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
    /* Any code of the family, in any rotation: a blob may be anything; only this unit's IDs are kept. */
    if (vis_tagread_codes_family(d->tags, &codes) < 0) {
        rc = 0; /* a family this reader does not handle: nothing recovered */
        goto out;
    }
    reads = malloc((kept ? kept : 1) * sizeof *reads);
    if (!reads)
        goto out;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        if (!missing[ui])
            continue;
        const vis_roster_unit *ru = &r->units[ui];
        /* Read every unexplained blob with this unit's mount; keep reads of its own IDs. */
        size_t nr = 0;
        for (size_t b = 0; b < kept; b++) {
            vis_tagread t;
            if (!read_blob(cam, im, &blobs[b], &ru->mount, &codes, white - black, &t))
                continue;
            const vis_roster_model *rm = vis_roster_find_model_tag(r, t.id);
            if (!rm || rm->unit != ui ||
                !vis_tagread_decisive(&t, codes_cells(&codes) / 2, d->cfg.recover_max_bit_error, 2))
                continue;
            /* Two blobs read as one ID (the same tag found twice, or a misread): keep the better read. */
            size_t j = 0;
            while (j < nr && reads[j].id != t.id)
                j++;
            if (j < nr) {
                if (hypot(reads[j].centre[0] - t.centre[0], reads[j].centre[1] - t.centre[1]) > 2 * ru->mount.size)
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
        /*
         * The reads must agree on one formation: the same facing, and each
         * where a grid of the unit's bases puts a model (whole pitches along
         * the files, whole or half pitches across: any slot, whatever the
         * roster's listing order says).
         */
        double *ox = malloc(3 * nr * sizeof *ox);
        if (!ox)
            goto out;
        double *oy = ox + nr, *fa = ox + 2 * nr;
        for (size_t j = 0; j < nr; j++) {
            rules_vec2 pos;
            vis_tag_mount_unplace(&ru->mount, rules_v2(reads[j].centre[0], reads[j].centre[1]), reads[j].heading, &pos,
                                  &fa[j]);
            ox[j] = pos.x, oy[j] = pos.y;
        }
        size_t best_in = 0, best_ref = 0;
        for (size_t a = 0; a < nr; a++) {
            size_t in = 0;
            for (size_t b = 0; b < nr; b++)
                in += on_one_grid(ru, ox[a], oy[a], fa[a], ox[b], oy[b], fa[b]);
            if (in > best_in)
                best_in = in, best_ref = a;
        }
        /* Two reads that agree seed the unit; vis_recover_confirm decides once its free places are read. */
        if (best_in < 2 || best_in < 2 * (nr - best_in)) {
            vis_report_add(rep, VIS_ISSUE_MISSING, -1, NULL, NULL,
                           "unit %s: %zu partly hidden tags read, only %zu agree on one formation: not placed", ru->id,
                           nr, best_in);
            free(ox);
            continue;
        }
        seeded[ui] = 1;
        for (size_t j = 0; j < nr; j++) {
            if (!on_one_grid(ru, ox[best_ref], oy[best_ref], fa[best_ref], ox[j], oy[j], fa[j]))
                continue;
            const vis_roster_model *rm = vis_roster_find_model_tag(r, reads[j].id);
            vis_seen_model *s = &seen[rm - r->models];
            s->rough = true;
            vis_tag_mount_unplace(&ru->mount, rules_v2(reads[j].centre[0], reads[j].centre[1]), reads[j].heading, &s->pos,
                                  &s->facing);
            vis_report_add(rep, VIS_ISSUE_RECOVERED, reads[j].id, rm->id, reads[j].px,
                           "tag %d (%s) partly hidden: read with %d of %d visible bits wrong (next code %d), in its "
                           "unit's formation with %zu others",
                           reads[j].id, rm->id, reads[j].errors, reads[j].visible, reads[j].runner_up, best_in - 1);
        }
        free(ox);
    }
    rc = 0;
out:
    rules_snapshot_free(placed);
    free(blobs);
    vis_tagread_codes_clear(&codes);
    free(reads);
    free(missing);
    return rc;
}


/* ---- Tags the quad finder missed, read where the formation puts a model ---- */

typedef struct slot_read {
    vis_tagread rd;
    size_t model;          /* roster model index */
    bool dropped;
} slot_read;

/*
 * Places of the unit's fitted formation: its files and ranks, one rank
 * behind, and half steps in the last two ranks (an incomplete rear rank
 * centred on an odd number of models).
 */
static size_t unit_slots(const rules_formation *f, int n_models, rules_vec2 *out, size_t cap)
{
    size_t n = 0;
    const int files = f->files > 0 ? f->files : 1;
    const int ranks = f->ranks > 0 ? f->ranks : (n_models + files - 1) / files;
    for (int k = 0; k <= ranks; k++)
        for (int half = 0; half < 2; half++)
            for (int fi = 0; fi < files; fi++) {
                if (half && (k < ranks - 1 || fi == files - 1))
                    continue;
                if (n < cap)
                    out[n++] = rules_formation_slot_position(f, fi, k, half ? 0.5 : 0);
            }
    return n;
}

/* A place taken by a model already seen (or read roughly). */
static bool near_seen(const vis_roster_unit *ru, const vis_seen_model *seen, rules_vec2 p)
{
    const double clear = 0.5 * fmin(ru->base_width, ru->base_depth);
    for (size_t k = 0; k < ru->n_models; k++) {
        const vis_seen_model *s = &seen[ru->first_model + k];
        if ((s->seen || s->rough) && rules_v2_dist(s->pos, p) < clear)
            return true;
    }
    return false;
}

/*
 * Reads every free place of one unit's formation; keeps reads that name an
 * unread model of the unit decisively. Two places read as one model: the
 * better read, or neither when they are apart. Returns the reads kept.
 */
static size_t read_unit_slots(const vis_detector *d, const vis_camera *cam, const vis_image *im,
                              const vis_tagread_codes *codes, double contrast, size_t ui, const rules_unit *est,
                              const vis_seen_model *seen, slot_read *reads, size_t cap)
{
    const vis_roster *r = d->roster;
    const vis_roster_unit *ru = &r->units[ui];
    rules_formation f;
    if (rules_formation_fit(est, NULL, &f, NULL) < 0)
        return 0;
    rules_vec2 slots[512];
    const size_t ns = unit_slots(&f, (int)ru->n_models, slots, 512);
    vis_tagread_params p;
    vis_tagread_params_default(&p);
    p.expect_contrast = contrast;
    size_t nr = 0;
    for (size_t i = 0; i < ns && nr < cap; i++) {
        if (near_seen(ru, seen, slots[i]))
            continue;
        rules_vec2 tc;
        double th;
        vis_tag_mount_place(&ru->mount, slots[i], f.heading, &tc, &th);
        const double P[3] = {tc.x, tc.y, ru->mount.height};
        vis_tagread rd;
        if (!vis_tagread_at(cam, im, P, th, ru->mount.size, &p, codes, &rd))
            continue;
        const vis_roster_model *rm = vis_roster_find_model_tag(r, rd.id);
        if (!rm || rm->unit != ui || seen[rm - r->models].seen || seen[rm - r->models].rough ||
            !vis_tagread_decisive(&rd, d->cfg.read_min_cells, d->cfg.read_max_bit_error, d->cfg.read_margin))
            continue;
        size_t j = 0;
        while (j < nr && reads[j].model != (size_t)(rm - r->models))
            j++;
        if (j < nr) {
            if (hypot(reads[j].rd.centre[0] - rd.centre[0], reads[j].rd.centre[1] - rd.centre[1]) > 2)
                reads[j].dropped = true; /* one tag in two places: trust neither */
            else if (rd.errors < reads[j].rd.errors)
                reads[j].rd = rd;
            continue;
        }
        reads[nr++] = (slot_read){rd, (size_t)(rm - r->models), false};
    }
    return nr;
}

int vis_recover_read_slots(const vis_detector *d, const vis_camera *cam, const vis_image *im,
                           const vis_tag_detection *tags, size_t n_tags, const rules_snapshot *estimate,
                           const unsigned char *only, vis_seen_model *seen, vis_report *rep)
{
    const vis_roster *r = d->roster;
    double black, white;
    const double contrast = paper_levels(im, tags, n_tags, &black, &white) ? white - black : 0;
    vis_tagread_codes codes;
    if (vis_tagread_codes_roster(d->tags, r, &codes) < 0)
        return 0; /* a family the reader does not handle: nothing to add */
    slot_read *reads = malloc(256 * sizeof *reads);
    if (!reads) {
        vis_tagread_codes_clear(&codes);
        return -1;
    }
    int added = 0;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        const vis_roster_unit *ru = &r->units[ui];
        size_t known = 0;
        for (size_t k = 0; k < ru->n_models; k++)
            known += seen[ru->first_model + k].seen || seen[ru->first_model + k].rough;
        const rules_unit *est = rules_snapshot_find_unit(estimate, ru->id);
        if ((only && !only[ui]) || !vis_detector_in_focus(d, ui) || known == 0 || known == ru->n_models || !est ||
            est->n_models == 0)
            continue;
        const size_t nr = read_unit_slots(d, cam, im, &codes, contrast, ui, est, seen, reads, 256);
        for (size_t j = 0; j < nr; j++) {
            if (reads[j].dropped)
                continue;
            const vis_tagread *rd = &reads[j].rd;
            const vis_roster_model *rm = &r->models[reads[j].model];
            vis_seen_model *s = &seen[reads[j].model];
            s->seen = true;
            s->rough = false;
            vis_tag_mount_unplace(&ru->mount, rules_v2(rd->centre[0], rd->centre[1]), rd->heading, &s->pos, &s->facing);
            rep->tags_read++;
            vis_report_add(rep, VIS_ISSUE_READ, rm->tag_id, rm->id, rd->px,
                           "tag %d (%s) read by its pattern where its unit's formation has a place: %d of %d "
                           "visible cells wrong, next code %d wrong; outline %.0f%% visible",
                           rm->tag_id, rm->id, rd->errors, rd->visible, rd->runner_up, 100 * rd->outline_score);
            added++;
        }
    }
    free(reads);
    vis_tagread_codes_clear(&codes);
    return added;
}

void vis_recover_confirm(const vis_detector *d, const unsigned char *seeded, vis_seen_model *seen, vis_report *rep)
{
    const vis_roster *r = d->roster;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        if (!seeded[ui])
            continue;
        const vis_roster_unit *ru = &r->units[ui];
        size_t have = 0;
        for (size_t k = 0; k < ru->n_models; k++)
            have += seen[ru->first_model + k].seen || seen[ru->first_model + k].rough;
        const size_t need = (size_t)fmax(d->cfg.recover_min_tags, ceil(ru->n_models / 3.0));
        if (have >= need)
            continue;
        for (size_t k = 0; k < ru->n_models; k++)
            seen[ru->first_model + k].seen = seen[ru->first_model + k].rough = false;
        vis_report_add(rep, VIS_ISSUE_MISSING, -1, NULL, NULL,
                       "unit %s: only %zu of its partly hidden tags read in one formation (%zu needed): not placed",
                       ru->id, have, need);
    }
}

int vis_recover_refine_rough(const vis_detector *d, const vis_camera *cam, const vis_image *im,
                             const vis_tag_detection *tags, size_t n_tags, vis_seen_model *seen, vis_report *rep)
{
    const vis_roster *r = d->roster;
    vis_tagread_codes codes;
    if (vis_tagread_codes_roster(d->tags, r, &codes) < 0)
        return 0;
    double black, white;
    vis_tagread_params p;
    vis_tagread_params_default(&p);
    p.search_mm = 2;
    p.search_rad = rules_deg_to_rad(4);
    p.expect_contrast = paper_levels(im, tags, n_tags, &black, &white) ? white - black : 0;
    int fixed = 0;
    for (size_t i = 0; i < r->n_models; i++) {
        vis_seen_model *s = &seen[i];
        if (s->seen || !s->rough || !vis_detector_in_focus(d, r->models[i].unit))
            continue;
        const vis_roster_model *rm = &r->models[i];
        const vis_roster_unit *ru = &r->units[rm->unit];
        rules_vec2 tc;
        double th;
        vis_tag_mount_place(&ru->mount, s->pos, s->facing, &tc, &th);
        const double P[3] = {tc.x, tc.y, ru->mount.height};
        vis_tagread rd;
        if (!vis_tagread_at(cam, im, P, th, ru->mount.size, &p, &codes, &rd) || rd.id != rm->tag_id ||
            !vis_tagread_decisive(&rd, d->cfg.read_min_cells, d->cfg.read_max_bit_error, d->cfg.read_margin))
            continue;
        s->seen = true;
        s->rough = false;
        vis_tag_mount_unplace(&ru->mount, rules_v2(rd.centre[0], rd.centre[1]), rd.heading, &s->pos, &s->facing);
        rep->tags_read++;
        vis_report_add(rep, VIS_ISSUE_READ, rm->tag_id, rm->id, rd.px,
                       "tag %d (%s) partly hidden: its outline refitted and its pattern read (%d of %d visible cells "
                       "wrong, next code %d wrong; outline %.0f%% visible)",
                       rm->tag_id, rm->id, rd.errors, rd.visible, rd.runner_up, 100 * rd.outline_score);
        fixed++;
    }
    vis_tagread_codes_clear(&codes);
    return fixed;
}

int vis_recover_polish_poses(const vis_detector *d, const vis_camera *cam, const vis_image *im,
                                vis_seen_model *seen)
{
    const vis_roster *r = d->roster;
    vis_tagread_codes codes;
    if (vis_tagread_codes_roster(d->tags, r, &codes) < 0)
        return 0;
    vis_tagread_params p;
    vis_tagread_params_default(&p);
    p.search_mm = 0.5;
    p.search_rad = rules_deg_to_rad(2);
    int n = 0;
    for (size_t i = 0; i < r->n_models; i++) {
        vis_seen_model *s = &seen[i];
        if (!s->seen || !vis_detector_in_focus(d, r->models[i].unit))
            continue;
        const vis_roster_model *rm = &r->models[i];
        const vis_roster_unit *ru = &r->units[rm->unit];
        rules_vec2 tc;
        double th;
        vis_tag_mount_place(&ru->mount, s->pos, s->facing, &tc, &th);
        const double P[3] = {tc.x, tc.y, ru->mount.height};
        vis_tagread rd;
        if (!vis_tagread_at(cam, im, P, th, ru->mount.size, &p, &codes, &rd) || rd.id != rm->tag_id)
            continue;
        if (rd.edges < 3)
            continue;
        vis_tag_mount_unplace(&ru->mount, rules_v2(rd.centre[0], rd.centre[1]), rd.heading, &s->pos, &s->facing);
        n++;
    }
    vis_tagread_codes_clear(&codes);
    return n;
}
