#include "vis_recover.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules_formation.h"
#include "vis_parallel.h"
#include "vis_tagread.h"
#include "vis_recover_common.h"
#include "vis_units.h"
#include "vis_sample.h"


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
static size_t unit_slots(const rules_formation *f, int n_models, base_vec2 *out, size_t cap)
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
static bool near_seen(const roster_map_unit *ru, const vis_seen_model *seen, base_vec2 p)
{
    const double clear = 0.5 * fmin(ru->base_width, ru->base_depth);
    for (size_t k = 0; k < ru->n_models; k++) {
        const vis_seen_model *s = &seen[ru->first_model + k];
        if ((s->seen || s->rough) && base_v2_dist(s->pos, p) < clear)
            return true;
    }
    return false;
}

typedef struct slot_job {
    const vis_relief *relief;
    const vis_camera *cam;
    const base_view *im;
    const vis_tagread_codes *codes;
    const vis_tagread_params *p;
    const roster_map_unit *ru;
    const vis_seen_model *seen;
    const base_vec2 *slots;
    double heading;
    vis_tagread *out;   /* id -1: a place not read (taken, or nothing there) */
} slot_job;

static void read_slot(void *ctx, size_t i)
{
    const slot_job *j = ctx;
    j->out[i].id = -1;
    if (near_seen(j->ru, j->seen, j->slots[i]))
        return;
    base_vec2 tc;
    double th;
    roster_tag_mount_place(&j->ru->mount, j->slots[i], j->heading, &tc, &th);
    const double P[3] = {tc.x, tc.y, vis_relief_tag_z(j->relief, &j->ru->mount, j->slots[i])};
    if (!vis_tagread_at(j->cam, j->im, P, th, j->ru->mount.size, j->p, j->codes, &j->out[i]))
        j->out[i].id = -1;
}

/* Reads model i's tag where `s` places the model; true when it reads as that model's own ID. */
static bool read_own_tag(const vis_relief *relief, const vis_camera *cam, const base_view *im, const roster_map *r,
                         size_t i, const vis_seen_model *s, const vis_tagread_params *p,
                         const vis_tagread_codes *codes, vis_tagread *rd)
{
    const roster_map_model *rm = &r->models[i];
    const roster_map_unit *ru = &r->units[rm->unit];
    base_vec2 tc;
    double th;
    roster_tag_mount_place(&ru->mount, s->pos, s->facing, &tc, &th);
    const double P[3] = {tc.x, tc.y, vis_relief_tag_z(relief, &ru->mount, s->pos)};
    return vis_tagread_at(cam, im, P, th, ru->mount.size, p, codes, rd) && rd->id == rm->tag_id;
}

typedef struct polish_job {
    const vis_detector *d;
    const vis_camera *cam;
    const base_view *im;
    const vis_tagread_codes *codes;
    const vis_tagread_params *p;
    vis_seen_model *seen;
    unsigned char *done;
} polish_job;

/* One decoded model's pose from its tag's edges; each call writes only its own model. */
static void polish_one(void *ctx, size_t i)
{
    const polish_job *j = ctx;
    const roster_map *r = j->d->map;
    vis_seen_model *s = &j->seen[i];
    if (!s->seen || !vis_detector_in_focus(j->d, r->models[i].unit))
        return;
    const roster_map_unit *ru = &r->units[r->models[i].unit];
    vis_tagread rd;
    if (!read_own_tag(&j->d->relief, j->cam, j->im, r, i, s, j->p, j->codes, &rd) || rd.edges < 3)
        return;
    roster_tag_mount_unplace(&ru->mount, base_v2(rd.centre[0], rd.centre[1]), rd.heading, &s->pos, &s->facing);
    j->done[i] = 1;
}

/*
 * Reads every free place of one unit's formation; keeps reads that name an
 * unread model of the unit decisively. Two places read as one model: the
 * better read, or neither when they are apart. Returns the reads kept.
 */
static size_t read_unit_slots(const vis_detector *d, const vis_camera *cam, const base_view *im,
                              const vis_tagread_codes *codes, double contrast, size_t ui, const rules_unit *est,
                              const vis_seen_model *seen, slot_read *reads, size_t cap)
{
    const roster_map *r = d->map;
    const roster_map_unit *ru = &r->units[ui];
    rules_formation f;
    if (rules_formation_fit(est, NULL, &f, NULL) < 0)
        return 0;
    base_vec2 slots[512];
    const size_t ns = unit_slots(&f, (int)ru->n_models, slots, 512);
    vis_tagread_params p;
    vis_tagread_params_default(&p);
    p.expect_contrast = contrast;
    vis_tagread *rds = malloc((ns ? ns : 1) * sizeof *rds);
    if (!rds)
        return 0;
    slot_job job = {&d->relief, cam, im, codes, &p, ru, seen, slots, f.heading, rds};
    vis_parallel_for(d->tags->cfg.threads, ns, read_slot, &job);
    size_t nr = 0;
    for (size_t i = 0; i < ns && nr < cap; i++) {
        const vis_tagread rd = rds[i];
        if (rd.id < 0)
            continue;
        const roster_map_model *rm = roster_map_find_model_tag(r, rd.id);
        if (!rm || rm->unit != ui || seen[rm - r->models].seen || seen[rm - r->models].rough ||
            seen[rm - r->models].doubted ||
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
    free(rds);
    return nr;
}

int vis_recover_read_slots(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                           const rules_snapshot *estimate, const unsigned char *only, vis_seen_model *seen,
                           vis_report *rep)
{
    const roster_map *r = d->map;
    const double contrast = vis_paper_contrast(paper);
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
        const roster_map_unit *ru = &r->units[ui];
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
            const roster_map_model *rm = &r->models[reads[j].model];
            vis_seen_model *s = &seen[reads[j].model];
            s->seen = true;
            s->rough = false;
            s->certain = vis_recover_one_read_enough(&d->cfg, rd);
            roster_tag_mount_unplace(&ru->mount, base_v2(rd->centre[0], rd->centre[1]), rd->heading, &s->pos, &s->facing);
            rep->tags_read++;
            vis_report_add(rep, VIS_ISSUE_READ, rm->tag_id, rm->id, rd->px,
                           "tag %d (%s) read by its pattern where its unit's formation has a place: %d of %d "
                           "visible cells wrong, next code %d wrong; outline %.0f%% visible, %d edges fitted",
                           rm->tag_id, rm->id, rd->errors, rd->visible, rd->runner_up, 100 * rd->outline_score,
                           rd->edges);
            added++;
        }
    }
    free(reads);
    vis_tagread_codes_clear(&codes);
    return added;
}

void vis_recover_confirm(const vis_detector *d, const unsigned char *seeded, vis_seen_model *seen,
                         unsigned char *partial, vis_report *rep)
{
    const roster_map *r = d->map;
    for (size_t ui = 0; ui < r->n_units; ui++) {
        if (!seeded[ui])
            continue;
        const roster_map_unit *ru = &r->units[ui];
        size_t have = 0, sure = 0;
        for (size_t k = 0; k < ru->n_models; k++) {
            const vis_seen_model *s = &seen[ru->first_model + k];
            have += s->seen || s->rough;
            sure += (s->seen || s->rough) && s->certain;
        }
        const size_t need = (size_t)fmax(d->cfg.recover_min_tags, ceil(ru->n_models / 3.0));
        if (have >= need)
            continue;
        /* Too few reads to tell the formation: the reads beyond doubt stand on their own, the rest go. */
        for (size_t k = 0; k < ru->n_models; k++) {
            vis_seen_model *s = &seen[ru->first_model + k];
            if (!s->certain)
                s->seen = s->rough = false;
        }
        if (sure == 0)
            vis_report_add_unit(rep, VIS_ISSUE_MISSING, ru->id,
                                "unit %s: only %zu of its partly hidden tags read in one formation (%zu needed), none "
                                "beyond doubt: not placed",
                                ru->id, have, need);
        else if (sure < ru->n_models) {
            partial[ui] = 1;
            vis_report_add_unit(rep, VIS_ISSUE_MISSING, ru->id,
                                "unit %s: only %zu of its partly hidden tags read in one formation (%zu needed): its "
                                "formation cannot be told; the %zu read beyond doubt placed, its other %zu models "
                                "not seen",
                                ru->id, have, need, sure, ru->n_models - sure);
        }
    }
}

int vis_recover_refine_rough(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                             vis_seen_model *seen, vis_report *rep)
{
    const roster_map *r = d->map;
    vis_tagread_codes codes;
    if (vis_tagread_codes_roster(d->tags, r, &codes) < 0)
        return 0;
    vis_tagread_params p;
    vis_tagread_params_default(&p);
    p.search_mm = 2;
    p.search_rad = base_deg_to_rad(4);
    p.expect_contrast = vis_paper_contrast(paper);
    int fixed = 0;
    for (size_t i = 0; i < r->n_models; i++) {
        vis_seen_model *s = &seen[i];
        if (s->seen || !s->rough || !vis_detector_in_focus(d, r->models[i].unit))
            continue;
        const roster_map_model *rm = &r->models[i];
        const roster_map_unit *ru = &r->units[rm->unit];
        vis_tagread rd;
        if (!read_own_tag(&d->relief, cam, im, r, i, s, &p, &codes, &rd) ||
            !vis_tagread_decisive(&rd, d->cfg.read_min_cells, d->cfg.read_max_bit_error, d->cfg.read_margin))
            continue;
        s->seen = true;
        s->rough = false;
        s->certain = true; /* its ID decoded by the quad finder, its pattern read again at its refitted outline */
        roster_tag_mount_unplace(&ru->mount, base_v2(rd.centre[0], rd.centre[1]), rd.heading, &s->pos, &s->facing);
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

int vis_recover_polish_poses(const vis_detector *d, const vis_camera *cam, const base_view *im,
                                vis_seen_model *seen)
{
    const roster_map *r = d->map;
    vis_tagread_codes codes;
    if (vis_tagread_codes_roster(d->tags, r, &codes) < 0)
        return 0;
    vis_tagread_params p;
    vis_tagread_params_default(&p);
    p.search_mm = 0.5;
    p.search_rad = base_deg_to_rad(2);
    unsigned char *done = calloc(r->n_models + 1, 1);
    if (!done) {
        vis_tagread_codes_clear(&codes);
        return 0;
    }
    polish_job job = {d, cam, im, &codes, &p, seen, done};
    vis_parallel_for(d->tags->cfg.threads, r->n_models, polish_one, &job);
    int n = 0;
    for (size_t i = 0; i < r->n_models; i++)
        n += done[i];
    free(done);
    vis_tagread_codes_clear(&codes);
    return n;
}
