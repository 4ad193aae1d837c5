/* vis_mast: masts read into their carriers' places (see the header). */
#include "vis_mast.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "vis_mast_read.h"

/* Does tag `id` appear once among the tags? (vis_detect.c reports the copies.) */
static bool once(const vis_tag_detection *tags, size_t n, int id)
{
    int copies = 0;
    for (size_t j = 0; j < n; j++)
        copies += tags[j].id == id;
    return copies == 1;
}

/* Mast `mk` read from its tag t: its carrier's pose in *m (seen, or rough when its corners are off a square); false,
 * said in the report, when its rays miss the board, it stands off the board or has the wrong size. */
static bool read_mast(const roster_map *r, const vis_relief *rel, const vis_camera *cam, const vis_detect_config *cfg,
                      const vis_tag_detection *t, const roster_map_mark *mk, vis_seen_model *m, vis_report *rep)
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
    *m = (vis_seen_model){.certain = true, .sway_mm = mk->sway, .mark_height_mm = mk->mount.height};
    if (tp.square_residual_mm > cfg->max_square_residual_mm) {
        vis_report_add(rep, VIS_ISSUE_DISTORTED, t->id, rm->id, t->centre,
                       "mast %d (%s): corners %.2f mm off a square (partly hidden?): not used", t->id, rm->id,
                       tp.square_residual_mm);
        m->rough = true;
        m->residual_mm = tp.square_residual_mm;
    } else {
        m->seen = true;
    }
    roster_tag_mount_unplace(&mk->mount, tp.centre, tp.heading, &m->pos, &m->facing);
    return true;
}

/* Was every mast of unit u read clean (mast[k]: mark k's read)? False when it has none. */
static bool all_masts_seen(const roster_map *r, size_t u, const vis_seen_model *mast)
{
    size_t n = 0;
    for (size_t k = 0; k < r->n_marks; k++) {
        if (r->models[r->marks[k].model].unit != u)
            continue;
        if (!mast[k].seen)
            return false;
        n++;
    }
    return n > 0;
}

/* Unit u's front carriers read by their masts (mast[k]: mark k's read, seen when clean): the first file's and the
 * last file's marks in *a, *b (SIZE_MAX when not read). */
static void front_carriers(const roster_map *r, size_t u, const vis_seen_model *mast, size_t *a, size_t *b)
{
    const roster_map_unit *ru = &r->units[u];
    *a = *b = SIZE_MAX;
    for (size_t k = 0; k < r->n_marks; k++) {
        const roster_map_model *m = &r->models[r->marks[k].model];
        if (m->unit != u || m->rank != 0 || !mast[k].seen)
            continue;
        if (m->file == 0)
            *a = k;
        else if (m->file == ru->files - 1)
            *b = k;
    }
}

/*
 * A ranked unit whose two front carriers were read by their masts: its facing from the line between them (a lever
 * of its whole front, where a label's or a tag's own heading is one base wide: a rim label block read 8 degrees
 * off turned a whole unit's inferred ranks up to 86 mm on a test table), given to every model of it read, when the
 * two masts' own headings agree with that line within VIS_MAST_AGREE_DEG (a rod twisted or a misread: left as read).
 */
#define VIS_MAST_AGREE_DEG 4.0
static void face_unit(const roster_map *r, size_t u, const vis_seen_model *mast, vis_seen_model *seen)
{
    const roster_map_unit *ru = &r->units[u];
    size_t a, b;
    if (ru->loose || ru->files < 2)
        return;
    front_carriers(r, u, mast, &a, &b);
    if (a == SIZE_MAX || b == SIZE_MAX)
        return;
    /* File 0 stands on the unit's left: from the last file to the first is the facing turned a quarter left. */
    const base_vec2 left = base_v2_sub(mast[a].pos, mast[b].pos);
    const double facing = base_angle_wrap(atan2(left.y, left.x) - BASE_PI / 2);
    const double agree = base_deg_to_rad(VIS_MAST_AGREE_DEG);
    if (fabs(base_angle_wrap(mast[a].facing - facing)) > agree || fabs(base_angle_wrap(mast[b].facing - facing)) > agree)
        return;
    for (size_t k = 0; k < ru->n_models; k++) {
        vis_seen_model *s = &seen[ru->first_model + k];
        if (s->seen || s->rough)
            s->facing = facing;
    }
}

/* Mast k's read (mast[k]) given to its carrier, unless the carrier's tag was seen twice, or its base's own mark,
 * nearer the table and on no rod, placed it already (as well: rough beside rough). True when it placed it. */
static bool give_carrier(const roster_map *r, size_t k, const vis_seen_model *mast, vis_seen_model *seen)
{
    vis_seen_model *s = &seen[r->marks[k].model];
    const vis_seen_model *m = &mast[k];
    if (s->doubted || !(m->seen || m->rough) || s->seen || (s->rough && m->rough))
        return false;
    *s = *m;
    return true;
}

/*
 * The masts the blind pass missed, read where the units placed so far put them (vis_mast_read.h); twice, since
 * every carrier placed sharpens its unit's formation. Returns the carriers placed.
 */
static size_t read_predicted(const vis_detector *d, const vis_camera *cam, const base_view *im,
                             const vis_paper *paper, const vis_tag_detection *tags, size_t n, vis_seen_model *mast,
                             vis_seen_model *seen,
                             vis_report *rep)
{
    const roster_map *r = d->map;
    size_t placed = 0;
    unsigned char *had = malloc(r->n_marks);
    if (!had)
        return 0;
    for (int pass = 0; pass < 2; pass++) {
        rules_snapshot *estimate = NULL;
        vis_report scratch = {0};
        base_error err;
        /* Each carrier searched within its own slot's sigma in the likeliest placement. */
        const vis_units_options likeliest = {.likeliest_sigma = true};
        const int rc = vis_units_build_ex(r, seen, NULL, &likeliest, &estimate, &scratch, &err);
        vis_report_clear(&scratch);
        if (rc < 0)
            break;
        for (size_t k = 0; k < r->n_marks; k++)
            had[k] = mast[k].seen;
        const int added = vis_mast_read_predicted(d, cam, im, paper, tags, n, estimate, mast, rep);
        rules_snapshot_free(estimate);
        for (size_t k = 0; k < r->n_marks; k++)
            if (!had[k] && mast[k].seen)
                placed += give_carrier(r, k, mast, seen);
        if (added <= 0)
            break;
    }
    free(had);
    return placed;
}

size_t vis_mast_place(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                      const vis_tag_detection *tags, size_t n, vis_seen_model *seen, unsigned char *partial,
                      vis_report *rep)
{
    const roster_map *r = d->map;
    size_t placed = 0;
    vis_seen_model *mast = r->n_marks ? calloc(r->n_marks, sizeof *mast) : NULL;
    if (!mast)
        return 0; /* no masts, or out of memory: the bases' marks alone */
    for (size_t i = 0; i < n; i++) {
        const roster_map_mark *mk = roster_map_find_mark_tag(r, tags[i].id);
        if (!mk || !once(tags, n, tags[i].id))
            continue;
        const size_t k = (size_t)(mk - r->marks);
        if (seen[mk->model].doubted || !read_mast(r, &d->relief, cam, &d->cfg, &tags[i], mk, &mast[k], rep))
            continue; /* its carrier's tag seen twice, or the mast unusable */
        placed += give_carrier(r, k, mast, seen);
    }
    if (im)
        placed += read_predicted(d, cam, im, paper, tags, n, mast, seen, rep);
    for (size_t u = 0; u < r->n_units; u++) {
        face_unit(r, u, mast, seen);
        if (partial && partial[u] && !r->units[u].loose && all_masts_seen(r, u, mast))
            partial[u] = 0;
    }
    free(mast);
    return placed;
}
