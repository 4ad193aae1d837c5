/* vis_mast: masts read into their carriers' places (see the header). */
#include "vis_mast.h"

#include <math.h>

/* Does tag `id` appear once among the tags? (vis_detect.c reports the copies.) */
static bool once(const vis_tag_detection *tags, size_t n, int id)
{
    int copies = 0;
    for (size_t j = 0; j < n; j++)
        copies += tags[j].id == id;
    return copies == 1;
}

/* Places the carrier of mast `mk` by its tag t; true when placed (seen or rough). */
static bool place_carrier(const roster_map *r, const vis_relief *rel, const vis_camera *cam,
                          const vis_detect_config *cfg, const vis_tag_detection *t, const roster_map_mark *mk,
                          vis_seen_model *s, vis_report *rep)
{
    const roster_map_model *rm = &r->models[mk->model];
    vis_board_tag_pose tp;
    double z;
    if (!vis_relief_place_tag(rel, cam, t, &mk->mount, &tp, &z)) {
        vis_report_add(rep, VIS_ISSUE_OFF_BOARD, t->id, rm->id, t->centre,
                       "mast %d (%s): its rays miss the board plane: ignored", t->id, rm->id);
        return false;
    }
    const double tol = cfg->off_board_mm;
    if (tp.centre.x < -tol || tp.centre.y < -tol || tp.centre.x > r->board_width + tol ||
        tp.centre.y > r->board_depth + tol) {
        vis_report_add(rep, VIS_ISSUE_OFF_BOARD, t->id, rm->id, t->centre,
                       "mast %d (%s) at %.0f,%.0f mm is off the board: ignored", t->id, rm->id, tp.centre.x,
                       tp.centre.y);
        return false;
    }
    if (fabs(tp.size_mm / mk->mount.size - 1) > cfg->size_tolerance) {
        vis_report_add(rep, VIS_ISSUE_BAD_SIZE, t->id, rm->id, t->centre,
                       "mast %d (%s) measures %.1f mm, roster says %.1f mm: ignored", t->id, rm->id, tp.size_mm,
                       mk->mount.size);
        return false;
    }
    vis_seen_model m = {.certain = true, .sway_mm = mk->sway, .mark_height_mm = mk->mount.height};
    if (tp.square_residual_mm > cfg->max_square_residual_mm) {
        vis_report_add(rep, VIS_ISSUE_DISTORTED, t->id, rm->id, t->centre,
                       "mast %d (%s): corners %.2f mm off a square (partly hidden?): not used", t->id, rm->id,
                       tp.square_residual_mm);
        if (s->rough)
            return false; /* its base's own rough read is nearer the table */
        m.rough = true;
        m.residual_mm = tp.square_residual_mm;
    } else {
        m.seen = true;
    }
    roster_tag_mount_unplace(&mk->mount, tp.centre, tp.heading, &m.pos, &m.facing);
    *s = m;
    return true;
}

/* Did every mast of unit u place its carrier (seen)? False when it has none. */
static bool all_masts_seen(const roster_map *r, size_t u, const vis_seen_model *seen)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_marks; i++) {
        const size_t g = r->marks[i].model;
        if (r->models[g].unit != u)
            continue;
        if (!seen[g].seen || !(seen[g].mark_height_mm > 0))
            return false;
        n++;
    }
    return n > 0;
}

size_t vis_mast_place(const roster_map *r, const vis_relief *rel, const vis_camera *cam, const vis_detect_config *cfg,
                      const vis_tag_detection *tags, size_t n, vis_seen_model *seen, unsigned char *partial,
                      vis_report *rep)
{
    size_t placed = 0;
    if (r->n_marks == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        const roster_map_mark *mk = roster_map_find_mark_tag(r, tags[i].id);
        if (!mk || !once(tags, n, tags[i].id))
            continue;
        vis_seen_model *s = &seen[mk->model];
        if (s->seen || s->doubted)
            continue; /* its base's mark read (nearer the table, no rod), or its tag seen twice */
        placed += place_carrier(r, rel, cam, cfg, &tags[i], mk, s, rep);
    }
    for (size_t u = 0; partial && u < r->n_units; u++)
        if (partial[u] && !r->units[u].loose && all_masts_seen(r, u, seen))
            partial[u] = 0;
    return placed;
}
