/*
 * Units of which no tag decoded (vis_recover_hidden.h):
 * candidates for their tags on a shrunk copy of the picture (dark squares,
 * white rings: vis_recover_blobs.h, where the picture may have changed),
 * each read once per tag size on two threads, and a unit seeded where its
 * reads stand on one grid of its bases.
 */
#include "vis_recover_hidden.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_formation.h"
#include "vis_parallel.h"
#include "vis_recover_blobs.h"
#include "vis_recover_common.h"
#include "vis_tagread.h"
#include "vis_units.h"

/*
 * Could models at (ax, ay) facing fa and (bx, by) facing fb stand in one
 * block of this unit's bases? Facings within 6 degrees; b within 4 mm of a
 * grid place counted from a: whole base depths along the facing, whole or
 * half base widths across (an incomplete rank centred).
 */
static bool on_one_grid(const roster_map_unit *ru, double ax, double ay, double fa, double bx, double by, double fb)
{
    if (fabs(base_angle_wrap(fb - fa)) > base_deg_to_rad(6))
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
static bool read_blob(const vis_relief *relief, const vis_camera *cam, const base_view *im, const vis_blob *bl,
                      const roster_tag_mount *m, const vis_tagread_codes *codes, double contrast, vis_tagread *out)
{
    double P[3];
    if (!vis_relief_cast_pixel(relief, cam, bl->px, m->height, P))
        return false;
    vis_tagread_params p;
    vis_tagread_params_default(&p);
    p.search_mm = 4;
    p.any_rotation = true;
    p.expect_contrast = contrast;
    return vis_tagread_at(cam, im, P, 0, m->size, &p, codes, out);
}

/*
 * Tags read alike: the same printed size, at heights a few mm apart (at
 * 1 m and more, a few mm of height change the tag's picture by well under
 * 1%; where on the base does not change the read at all). The centre is
 * then taken back to each unit's own height (reread_height).
 */
static bool same_mount(const roster_tag_mount *a, const roster_tag_mount *b)
{
    return fabs(a->size - b->size) < 1e-6 && fabs(a->height - b->height) <= 5;
}

/* A read made at another height: its centre where its pixel's ray meets the surface raised by this mount's
 * height. */
static void reread_height(const vis_relief *relief, const vis_camera *cam, double height, vis_tagread *t)
{
    double P[3];
    if (vis_relief_cast_pixel(relief, cam, t->px, height, P))
        t->centre[0] = P[0], t->centre[1] = P[1];
}

/*
 * Could this candidate be a tag of this mount, by its size in the picture?
 * The black square's box is its side s to s sqrt 2 with its turn, less when
 * something bites it (down to about half); the white ring's box is 10/8 of
 * that, and a spear or a figure cuts it without shrinking it much.
 */
static bool fits_mount(const vis_relief *relief, const vis_camera *cam, const vis_blob *bl, const roster_tag_mount *m)
{
    double P[3], Q[3];
    const double px2[2] = {bl->px[0] + 10, bl->px[1]}, px3[2] = {bl->px[0], bl->px[1] + 10};
    if (!vis_relief_cast_pixel(relief, cam, bl->px, m->height, P) || !vis_camera_pixel_to_plane(cam, px2, P[2], Q))
        return true;
    const double mm_x = hypot(Q[0] - P[0], Q[1] - P[1]) / 10;
    if (!vis_camera_pixel_to_plane(cam, px3, P[2], Q))
        return true;
    const double mm_y = hypot(Q[0] - P[0], Q[1] - P[1]) / 10;
    const double lo_px = m->size / fmax(mm_x, mm_y), hi_px = m->size / fmin(mm_x, mm_y);
    if (bl->ring)
        return bl->ext_px[0] >= 0.7 * 1.25 * lo_px && bl->ext_px[0] <= 1.55 * 1.25 * hi_px + 4 &&
               bl->ext_px[1] >= 0.6 * 1.25 * lo_px;
    return bl->ext_px[0] >= 0.4 * lo_px && bl->ext_px[0] <= 1.6 * hi_px + 4;
}

/*
 * Reads every candidate as a tag of this mount. Entry b has id -1 unless
 * candidate b decoded decisively as a roster code. Returns a malloc'ed
 * array of n (at least 1) entries, NULL when out of memory.
 */
typedef struct candidate_job {
    const vis_detector *d;
    const vis_camera *cam;
    const base_view *im;
    const vis_blob *blobs;
    const roster_tag_mount *m;
    const vis_tagread_codes *codes;
    double contrast;
    vis_tagread *out;
} candidate_job;

static void read_candidate(void *ctx, size_t b)
{
    const candidate_job *j = ctx;
    vis_tagread *t = &j->out[b];
    t->id = -1;
    if (!fits_mount(&j->d->relief, j->cam, &j->blobs[b], j->m) ||
        !read_blob(&j->d->relief, j->cam, j->im, &j->blobs[b], j->m, j->codes, j->contrast, t) ||
        !roster_map_find_model_tag(j->d->map, t->id) ||
        !vis_tagread_decisive(t, codes_cells(j->codes) / 2, j->d->cfg.recover_max_bit_error, 2))
        t->id = -1;
}

static vis_tagread *read_candidates(const vis_detector *d, const vis_camera *cam, const base_view *im,
                                    const vis_blob *blobs, size_t n, const roster_tag_mount *m,
                                    const vis_tagread_codes *codes, double contrast)
{
    vis_tagread *out = malloc((n ? n : 1) * sizeof *out);
    if (!out)
        return NULL;
    candidate_job j = {d, cam, im, blobs, m, codes, contrast, out};
    vis_parallel_for(d->tags->cfg.threads, n, read_candidate, &j);
    return out;
}

/* Units of which nothing was seen, no tag read (even refused) and in focus: missing[] and their count. */
static size_t mark_missing_units(const vis_detector *d, const vis_tag_detection *tags, size_t n,
                                 const vis_seen_model *seen, bool *missing)
{
    const roster_map *r = d->map;
    size_t n_missing = 0;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        const roster_map_unit *u = &r->units[ui];
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
    return n_missing;
}

/* Where every other unit is (built from a copy of seen[]): their tags' dark squares are not candidates. */
static int place_seen_units(const roster_map *r, const vis_seen_model *seen, const rules_snapshot *prior,
                            rules_snapshot **placed)
{
    vis_report tmp = {0};
    base_error e2;
    vis_seen_model *others = malloc(r->n_models * sizeof *others);
    if (!others)
        return -1;
    memcpy(others, seen, r->n_models * sizeof *others);
    int brc = vis_units_build(r, others, prior, placed, &tmp, &e2);
    free(others);
    vis_report_clear(&tmp);
    return brc < 0 ? -1 : 0;
}

/* Drops the blobs a decoded tag or a placed model of another unit explains.
 * Returns how many are kept (at the front of blobs[]), -1 when out of memory. */
static long drop_explained_blobs(const vis_detector *d, const vis_camera *cam, const vis_tag_detection *tags,
                                 size_t n, const bool *missing, const rules_snapshot *placed, vis_blob *blobs, long nb)
{
    const roster_map *r = d->map;
    const double near_px = 0.8 * d->expected_tag_px;
    size_t n_known = 0;
    double(*known)[2] = malloc((n + r->n_models + 1) * sizeof *known);
    if (!known)
        return -1;
    for (size_t i = 0; i < n; i++)
        known[n_known][0] = tags[i].centre[0], known[n_known++][1] = tags[i].centre[1];
    for (size_t ui = 0; ui < r->n_units; ui++) {
        const roster_map_unit *ru = &r->units[ui];
        const rules_unit *pu = missing[ui] ? NULL : rules_snapshot_find_unit(placed, ru->id);
        for (size_t m = 0; pu && m < pu->n_models; m++) {
            base_vec2 tc;
            double th;
            roster_tag_mount_place(&ru->mount, pu->models[m].pos, pu->models[m].facing, &tc, &th);
            const double X[3] = {tc.x, tc.y, vis_relief_tag_z(&d->relief, &ru->mount, pu->models[m].pos)};
            if (vis_camera_project(cam, X, known[n_known]))
                n_known++;
        }
    }
    long kept = 0;
    for (long b = 0; b < nb; b++) {
        bool explained = false;
        for (size_t i = 0; i < n_known && !explained; i++)
            explained = hypot(known[i][0] - blobs[b].px[0], known[i][1] - blobs[b].px[1]) < near_px;
        if (!explained)
            blobs[kept++] = blobs[b];
    }
    free(known);
    return kept;
}

/* The reads (of the candidates read for group g's mount) of unit ui's own
 * IDs, one per ID, into reads[]; returns their count. */
static size_t own_reads(const roster_map *r, const vis_relief *relief, const vis_camera *cam, size_t ui, size_t g,
                        const vis_tagread *all,
                        size_t kept, vis_tagread *reads)
{
    const roster_map_unit *ru = &r->units[ui];
    size_t nr = 0;
    for (size_t b = 0; b < kept; b++) {
        vis_tagread t = all[b];
        const roster_map_model *rm = t.id >= 0 ? roster_map_find_model_tag(r, t.id) : NULL;
        if (!rm || rm->unit != ui)
            continue;
        if (r->units[g].mount.height != ru->mount.height)
            reread_height(relief, cam, ru->mount.height, &t);
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
    return w;
}

/* The read that most of the others (those with use[b] set) stand on one grid with, and how many do (itself too). */
static size_t best_grid(const roster_map_unit *ru, const double *ox, const double *oy, const double *fa,
                        const bool *use, size_t nr, size_t *ref)
{
    size_t best_in = 0;
    *ref = 0;
    for (size_t a = 0; a < nr; a++) {
        size_t in = 0;
        for (size_t b = 0; b < nr && use[a]; b++)
            in += use[b] && on_one_grid(ru, ox[a], oy[a], fa[a], ox[b], oy[b], fa[b]);
        if (in > best_in)
            best_in = in, *ref = a;
    }
    return best_in;
}

/*
 * The reads must agree on one formation: the same facing, and each where a
 * grid of the unit's bases puts a model (whole pitches along the files, whole
 * or half pitches across: any slot, whatever the roster's listing order
 * says). Two reads that agree seed the unit (rough models in seen[]); short
 * of that, the reads beyond doubt (vis_recover_one_read_enough) do when
 * they all agree with each other, the others being left out. A unit's
 * only model needs one such read. vis_recover_confirm decides once its
 * free places are read. Returns 0, or -1 when out of memory.
 */
static int seed_unit(const vis_detector *d, size_t ui, const vis_tagread *reads, size_t nr, vis_seen_model *seen,
                     unsigned char *seeded, vis_report *rep)
{
    const roster_map *r = d->map;
    const roster_map_unit *ru = &r->units[ui];
    double *ox = malloc(3 * nr * sizeof *ox);
    bool *sure = malloc(2 * nr * sizeof *sure);
    if (!ox || !sure) {
        free(ox);
        free(sure);
        return -1;
    }
    double *oy = ox + nr, *fa = ox + 2 * nr;
    bool *all = sure + nr;
    size_t n_sure = 0;
    for (size_t j = 0; j < nr; j++) {
        base_vec2 pos;
        roster_tag_mount_unplace(&ru->mount, base_v2(reads[j].centre[0], reads[j].centre[1]), reads[j].heading, &pos,
                              &fa[j]);
        ox[j] = pos.x, oy[j] = pos.y;
        all[j] = true;
        n_sure += sure[j] = vis_recover_one_read_enough(&d->cfg, &reads[j]);
    }
    size_t ref, in = best_grid(ru, ox, oy, fa, all, nr, &ref);
    const bool *use = all;
    if (in < 2 || in < 2 * (nr - in)) {
        in = n_sure ? best_grid(ru, ox, oy, fa, sure, nr, &ref) : 0;
        use = sure;
        if (n_sure == 0 || in < n_sure) {
            vis_report_add_unit(rep, VIS_ISSUE_MISSING, ru->id,
                                "unit %s: %zu partly hidden tags read, only %zu agree on one formation, %zu beyond "
                                "doubt%s: not placed",
                                ru->id, nr, in, n_sure, n_sure > 1 ? " and those disagree" : "");
            free(ox);
            free(sure);
            return 0;
        }
    }
    seeded[ui] = 1;
    for (size_t j = 0; j < nr; j++) {
        if (!use[j] || !on_one_grid(ru, ox[ref], oy[ref], fa[ref], ox[j], oy[j], fa[j]))
            continue;
        const roster_map_model *rm = roster_map_find_model_tag(r, reads[j].id);
        vis_seen_model *s = &seen[rm - r->models];
        s->rough = true;
        s->certain = sure[j];
        roster_tag_mount_unplace(&ru->mount, base_v2(reads[j].centre[0], reads[j].centre[1]), reads[j].heading, &s->pos,
                              &s->facing);
        char with[64] = "";
        if (in > 1)
            snprintf(with, sizeof with, ", in one formation with %zu other%s", in - 1, in == 2 ? "" : "s");
        vis_report_add(rep, VIS_ISSUE_RECOVERED, reads[j].id, rm->id, reads[j].px,
                       "tag %d (%s) read by its pattern: %d of %d visible cells wrong (next code %d), outline %.0f%% "
                       "visible%s%s",
                       reads[j].id, rm->id, reads[j].errors, reads[j].visible, reads[j].runner_up,
                       100 * reads[j].outline_score, sure[j] ? ", beyond doubt" : "", with);
    }
    free(ox);
    free(sure);
    return 0;
}

/*
 * For each roster unit of which nothing was seen, looks for its tags among
 * dark blobs nobody explains and marks the models of a consistent set
 * `rough` in seen[]. Returns 0, or -1 when out of memory.
 */
int vis_recover_hidden_units(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                             const vis_tag_detection *tags, size_t n, const rules_snapshot *prior, vis_seen_model *seen,
                             unsigned char *seeded, size_t *searched_px, vis_report *rep)
{
    const roster_map *r = d->map;
    bool *missing = calloc(r->n_units ? r->n_units : 1, sizeof *missing);
    if (!missing)
        return -1;
    if (mark_missing_units(d, tags, n, seen, missing) == 0 || !paper->known) {
        free(missing);
        return 0;
    }
    int rc = -1;
    rules_snapshot *placed = NULL;
    vis_blob *blobs = NULL;
    vis_tagread_codes codes = {0};
    vis_tagread *reads = NULL;
    vis_tagread **group_reads = NULL;
    if (place_seen_units(r, seen, prior, &placed) < 0)
        goto out;
    const size_t cap = 4096;
    blobs = malloc(cap * sizeof *blobs);
    vis_tag_region *boxes = NULL;
    size_t n_boxes = 0;
    long nb = blobs && vis_recover_search_boxes(d, cam, missing, prior, &boxes, &n_boxes) == 0
                  ? vis_recover_find_blobs(d, im, boxes, n_boxes, paper->black, paper->white, blobs, cap, searched_px)
                  : -1;
    free(boxes);
    long kept = nb < 0 ? -1 : drop_explained_blobs(d, cam, tags, n, missing, placed, blobs, nb);
    if (kept < 0)
        goto out;
    /* Any code of the family, in any rotation: a blob may be anything; only this unit's IDs are kept. */
    if (vis_tagread_codes_family(d->tags, &codes) < 0) {
        rc = 0; /* a family this reader does not handle: nothing recovered */
        goto out;
    }
    reads = malloc((kept ? (size_t)kept : 1) * sizeof *reads);
    group_reads = calloc(r->n_units ? r->n_units : 1, sizeof *group_reads);
    if (!reads || !group_reads)
        goto out;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        if (!missing[ui])
            continue;
        const roster_map_unit *ru = &r->units[ui];
        /* Every unexplained candidate read once per mount: units that share a mount share the reads. */
        size_t g = 0;
        while (g < ui && !(missing[g] && same_mount(&r->units[g].mount, &ru->mount)))
            g++;
        if (!group_reads[g] &&
            !(group_reads[g] = read_candidates(d, cam, im, blobs, (size_t)kept, &ru->mount, &codes,
                                               paper->white - paper->black)))
            goto out;
        size_t nr = own_reads(r, &d->relief, cam, ui, g, group_reads[g], (size_t)kept, reads);
        if (nr > 0 && seed_unit(d, ui, reads, nr, seen, seeded, rep) < 0)
            goto out;
    }
    rc = 0;
out:
    rules_snapshot_free(placed);
    free(blobs);
    vis_tagread_codes_clear(&codes);
    free(reads);
    for (size_t g = 0; group_reads && g < r->n_units; g++)
        free(group_reads[g]);
    free(group_reads);
    free(missing);
    return rc;
}
