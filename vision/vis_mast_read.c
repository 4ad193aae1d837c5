/* vis_mast_read: masts read where their units put them (see the header). */
#include "vis_mast_read.h"

#include <math.h>

#include "vis_recover_common.h"
#include "vis_relief.h"
#include "vis_tagread.h"

/* How many times tag `id` was decoded by the first pass. */
static int copies_of(const vis_tag_detection *tags, size_t n, int id)
{
    int copies = 0;
    for (size_t j = 0; j < n; j++)
        copies += tags[j].id == id;
    return copies;
}

/* Model `id` of unit `unit` in the estimate, or NULL. */
static const rules_model *estimated(const rules_snapshot *s, const char *unit, const char *id)
{
    const rules_unit *u = s ? rules_snapshot_find_unit(s, unit) : NULL;
    return u ? rules_unit_find_model(u, id) : NULL;
}

/*
 * Where mark mk's carrier is expected (*pos, *facing) and how far around it the tag must be searched (mm): a rough
 * read of the mast itself (its corners off a square, its place good to a millimetre or two), else the estimate's
 * model, searched over its sigma twice over. Beyond VIS_MAST_READ_MAX_SEARCH_MM, or nothing estimated: false.
 */
static bool predicted_place(const roster_map *r, const roster_map_mark *mk, const vis_seen_model *read,
                            const rules_snapshot *estimate, base_vec2 *pos, double *facing, double *search_mm)
{
    const double base = 3.0 + mk->sway; /* the reader's own reach, and the rod's lean */
    if (read->rough) {
        *pos = read->pos, *facing = read->facing, *search_mm = base;
        return true;
    }
    const roster_map_model *rm = &r->models[mk->model];
    const rules_model *m = estimated(estimate, r->units[rm->unit].id, rm->id);
    if (!m)
        return false;
    const double sigma = isfinite(m->sigma_mm) ? m->sigma_mm : 0;
    *pos = m->pos, *facing = m->facing, *search_mm = base + 2 * sigma;
    return *search_mm <= VIS_MAST_READ_MAX_SEARCH_MM;
}

/* A read that names mark mk's tag decisively and stands on the board: its carrier in *out. */
static bool accept_read(const vis_detector *d, const roster_map_mark *mk, const vis_tagread *rd, vis_seen_model *out)
{
    const roster_map *r = d->map;
    if (rd->id != mk->tag_id ||
        !vis_tagread_decisive(rd, d->cfg.read_min_cells, d->cfg.read_max_bit_error, d->cfg.read_margin))
        return false;
    vis_seen_model m = {.seen = true, .sway_mm = mk->sway, .mark_height_mm = mk->mount.height};
    m.certain = vis_recover_one_read_enough(&d->cfg, rd);
    roster_tag_mount_unplace(&mk->mount, base_v2(rd->centre[0], rd->centre[1]), rd->heading, &m.pos, &m.facing);
    const double tol = d->cfg.off_board_mm;
    if (m.pos.x < -tol || m.pos.y < -tol || m.pos.x > r->board_width + tol || m.pos.y > r->board_depth + tol)
        return false;
    *out = m;
    return true;
}

int vis_mast_read_predicted(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                            const vis_tag_detection *tags, size_t n, const rules_snapshot *estimate,
                            vis_seen_model *mast, vis_report *rep)
{
    const roster_map *r = d->map;
    const double contrast = vis_paper_contrast(paper);
    vis_tagread_codes codes;
    if (vis_tagread_codes_roster(d->tags, r, &codes) < 0)
        return 0; /* a family the reader does not handle: the blind reads alone */
    int added = 0;
    for (size_t k = 0; k < r->n_marks; k++) {
        const roster_map_mark *mk = &r->marks[k];
        const int copies = copies_of(tags, n, mk->tag_id);
        if (mast[k].seen || copies > 1 || !vis_detector_in_focus(d, r->models[mk->model].unit))
            continue; /* read already, or its tag seen twice (vis_detect.c reports it) */
        base_vec2 pos;
        double facing, search_mm;
        if (!predicted_place(r, mk, &mast[k], estimate, &pos, &facing, &search_mm))
            continue;
        base_vec2 tc;
        double th;
        roster_tag_mount_place(&mk->mount, pos, facing, &tc, &th);
        const double P[3] = {tc.x, tc.y, vis_relief_tag_z(&d->relief, &mk->mount, pos)};
        vis_tagread_params p;
        vis_tagread_params_default(&p);
        p.search_mm = search_mm;
        p.expect_contrast = contrast;
        vis_tagread rd;
        if (!vis_tagread_at(cam, im, P, th, mk->mount.size, &p, &codes, &rd) || !accept_read(d, mk, &rd, &mast[k]))
            continue;
        const roster_map_model *rm = &r->models[mk->model];
        rep->tags_read++;
        vis_report_add(rep, VIS_ISSUE_READ, mk->tag_id, rm->id, rd.px,
                       "mast %d (%s) read by its pattern where its unit puts it: %d of %d visible cells wrong, next "
                       "code %d wrong; outline %.0f%% visible, %d edges fitted",
                       mk->tag_id, rm->id, rd.errors, rd.visible, rd.runner_up, 100 * rd.outline_score, rd.edges);
        added++;
    }
    vis_tagread_codes_clear(&codes);
    return added;
}
