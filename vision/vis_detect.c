#include "vis_detect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vis_board.h"
#include "vis_camera.h"
#include "vis_height.h"
#include "vis_mast.h"
#include "vis_occluded.h"
#include "vis_recover.h"
#include "vis_recover_hidden.h"
#include "vis_rim_units.h"
#include "vis_units.h"
#include "rules_formation.h"

/* A moment on the wall clock and in the process's CPU time (every thread), ms: where a run's time goes
 * (vis_detect_times). */
typedef struct stamp {
    double wall, cpu;
} stamp;

static stamp stamp_now(void)
{
    struct timespec w, c;
    clock_gettime(CLOCK_MONOTONIC, &w);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
    return (stamp){w.tv_sec * 1e3 + w.tv_nsec / 1e6, c.tv_sec * 1e3 + c.tv_nsec / 1e6};
}

/* The time since t0 added to *wall and *cpu. */
static void stamp_add(stamp t0, double *wall, double *cpu)
{
    const stamp t = stamp_now();
    *wall += t.wall - t0.wall;
    *cpu += t.cpu - t0.cpu;
}

/* The frame's grey spread, its 98th percentile less its 2nd, from every 8th pixel of every 8th row. */
static int grey_spread(const uint8_t *gray, int width, int height, size_t stride)
{
    size_t hist[256] = {0}, total = 0;
    for (int y = 0; y < height; y += 8)
        for (int x = 0; x < width; x += 8, total++)
            hist[gray[(size_t)y * stride + (size_t)x]]++;
    size_t below = 0;
    int lo = -1, hi = 255;
    for (int v = 0; v < 256; v++) {
        below += hist[v];
        if (lo < 0 && below * 50 > total)
            lo = v;
        if (below * 50 >= total * 49) {
            hi = v;
            break;
        }
    }
    return lo < 0 ? 0 : hi - lo;
}

/* The quad finder on the regions (the plan's, or a tracker's changed parts), its time counted. The blind
 * pass's contrast floor (vis_tag_config_blind) skips the noise of a well-lit frame; on a dim one (a dark
 * venue, a camera stopped down) the tags' own contrast is under it, so the floor follows the frame: a third
 * of its grey spread, never under apriltag's own 5, never over the configured floor. */
static int first_pass(vis_detector *d, const uint8_t *gray, int width, int height, size_t stride,
                      const vis_tag_region *regions, size_t n, vis_tag_list *out, base_error *err)
{
    const stamp t0 = stamp_now();
    const int floor = d->tags->cfg.min_contrast;
    if (floor > 5) {
        const int adapted = (int)lround(grey_spread(gray, width, height, stride) / 3.0);
        d->tags->cfg.min_contrast = adapted < 5 ? 5 : adapted < floor ? adapted : floor;
    }
    int rc = vis_tag_detect_regions(d->tags, gray, width, height, stride, regions, n, out, err);
    d->tags->cfg.min_contrast = floor;
    stamp_add(t0, &d->times.first_pass_ms, &d->times.first_pass_cpu_ms);
    d->times.runs++;
    return rc;
}

/* vis_units_build(_ex), its time counted as the formation fit's. */
static int units_build(vis_detector *d, const vis_seen_model *seen, const rules_snapshot *prior,
                       const vis_units_options *uo, rules_snapshot **out, vis_report *rep, base_error *err)
{
    const stamp t0 = stamp_now();
    int rc = vis_units_build_ex(d->map, seen, prior, uo, out, rep, err);
    stamp_add(t0, &d->times.fit_ms, &d->times.fit_cpu_ms);
    return rc;
}

/* Every detector's threads (vis_detector_set_threads): 2 unless a program said otherwise at start-up. */
enum { DEFAULT_THREADS = 2 };
static int detector_threads = DEFAULT_THREADS;

void vis_detector_set_threads(int threads) { detector_threads = threads >= 1 ? threads : DEFAULT_THREADS; }

int vis_detector_threads(void) { return detector_threads; }

/* The tag widths the detector's cfg asks its plan for. */
static vis_plan_sizes plan_sizes(const vis_detector *d)
{
    return (vis_plan_sizes){d->cfg.plan_min_tag_px, d->cfg.plan_full_res_px, d->cfg.plan_unblurred_px};
}

vis_detector *vis_detector_new(const roster_map *r, const calib_file *c, base_error *err)
{
    vis_detector *d = calloc(1, sizeof *d);
    if (!d) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    d->tags = vis_tag_detector_new(r->family);
    if (!d->tags) {
        base_error_set(err, "tag family %s unavailable", r->family);
        free(d);
        return NULL;
    }
    if (!(d->map = roster_map_clone(r))) {
        base_error_set(err, "out of memory");
        vis_tag_detector_free(d->tags);
        free(d);
        return NULL;
    }
    d->calib = *c;
    d->cfg.refine_pose_min_tags = 3;
    d->cfg.refine_pose_above_px = 0.3;
    d->cfg.off_board_mm = 10;
    d->cfg.size_tolerance = 0.15;
    d->cfg.max_square_residual_mm = 0.35;
    d->cfg.recover_hidden_units = 1;
    d->cfg.hidden_where_changed = 1;
    d->cfg.recover_min_tags = 3;
    d->cfg.recover_max_bit_error = 0.25;
    d->cfg.use_plan = 1;
    d->cfg.plan_min_tag_px = 13;
    d->cfg.plan_full_res_px = 22;
    d->cfg.plan_unblurred_px = 15.5;
    d->cfg.read_slots = 1;
    d->cfg.read_min_cells = 12;
    d->cfg.read_max_bit_error = 0.1;
    d->cfg.read_margin = 5;
    d->cfg.one_read_min_cells = 30;
    d->cfg.one_read_max_errors = 2;
    d->cfg.one_read_margin = 7;
    d->cfg.one_read_min_outline = 0.85;
    d->cfg.height_min_mm = 12;
    d->cfg.height_sigmas = 4;
    vis_relief_init(&d->relief);
    /* The smallest tag at the distance of the board centre decides decimation. */
    double smallest = INFINITY;
    for (size_t i = 0; i < r->n_units; i++)
        if (r->units[i].mount.size > 0) /* 0: a rim label's unit (roster_mark.h), not a square tag */
            smallest = fmin(smallest, r->units[i].mount.size);
    if (!isfinite(smallest))
        smallest = 16;
    vis_camera cam;
    vis_camera_init(&cam, c);
    double centre[3] = {r->board_width / 2, r->board_depth / 2, 0};
    double dist = sqrt(pow(centre[0] - cam.centre[0], 2) + pow(centre[1] - cam.centre[1], 2) + pow(cam.centre[2], 2));
    d->expected_tag_px = c->fx * smallest / dist;
    vis_tag_config_blind(&d->tags->cfg, vis_tag_decimate_for(d->expected_tag_px), detector_threads);
    /* A light blur against sensor noise where a frame's tags are large enough to decimate; lighter on the
     * plan's full-resolution regions (sigma_full, vis_tag.h): the hard set's 4K webcam, searched at 1, read 138
     * of its 213 clear tags blind at 0.6, 144 at 0.5 (at 0 as many, 143, for twice the time: noise). */
    d->tags->cfg.sigma = d->tags->cfg.decimate > 1 ? 0.6 : 0.0;
    d->tags->cfg.sigma_full = d->tags->cfg.decimate > 1 ? 0.5 : 0.0;
    vis_tag_detector_prepare(d->tags);
    const vis_plan_sizes sizes = plan_sizes(d);
    if (vis_plan_make(c, r, &sizes, &d->plan, err) < 0) {
        vis_detector_free(d);
        return NULL;
    }
    return d;
}

void vis_detector_free(vis_detector *d)
{
    if (!d)
        return;
    vis_tag_detector_free(d->tags);
    vis_plan_clear(&d->plan);
    vis_relief_clear(&d->relief);
    roster_map_free(d->map);
    free(d);
}

int vis_detector_set_relief(vis_detector *d, const rules_terrain *t, size_t n, base_error *err)
{
    return vis_relief_set(&d->relief, t, n, err);
}

/* The plan made for the current cfg.plan_min_tag_px, plan_full_res_px and plan_unblurred_px (remade when one
 * changed). */
static int plan_up_to_date(vis_detector *d, base_error *err)
{
    const vis_plan_sizes want = plan_sizes(d), *had = &d->plan.sizes;
    if (!d->cfg.use_plan || (had->min_px == want.min_px && had->full_res_px == want.full_res_px &&
                             had->unblurred_px == want.unblurred_px))
        return 0;
    vis_plan_clear(&d->plan);
    return vis_plan_make(&d->calib, d->map, &want, &d->plan, err);
}

/* Pixels a piece's corner may move on the plan region's grid: apriltag's threshold tiles are 4 decimated px
 * (decimation 1.5 maps 3 px to 2), so a multiple of these keeps every tile where the whole frame has it. */
static int grid_step(double decimate) { return decimate > 1 ? (int)lround(4 * decimate) : 4; }

/* Region r cut by plan region p, its corner put back on p's grid; false when they share no core. */
static bool plan_piece(const vis_tag_region *r, const vis_tag_region *p, vis_tag_region *out)
{
    *out = (vis_tag_region){(int)fmax(r->x0, p->x0), (int)fmax(r->y0, p->y0), (int)fmin(r->x1, p->x1),
                            (int)fmin(r->y1, p->y1), p->decimate, fmax(r->core_x0, p->core_x0),
                            fmax(r->core_y0, p->core_y0), fmin(r->core_x1, p->core_x1), fmin(r->core_y1, p->core_y1),
                            p->unblurred};
    if (!(out->core_x1 > out->core_x0 && out->core_y1 > out->core_y0) || out->x1 <= out->x0 || out->y1 <= out->y0)
        return false;
    const int step = grid_step(p->decimate);
    out->x0 = p->x0 + (out->x0 - p->x0) / step * step;
    out->y0 = p->y0 + (out->y0 - p->y0) / step * step;
    return true;
}

static int detect_build(vis_detector *d, const vis_tag_detection *tags, size_t n, const base_view *im,
                        const rules_snapshot *prior, rules_snapshot **out, vis_report *rep, base_error *err);

int vis_detector_run_tags(vis_detector *d, const uint8_t *gray, int width, int height, size_t stride,
                          const rules_snapshot *prior, rules_snapshot **out, vis_report *rep, vis_tag_list *tags,
                          base_error *err)
{
    *out = NULL;
    if (width != d->calib.width || height != d->calib.height)
        return base_error_set(err, "image is %dx%d but the calibration is for %dx%d", width, height,
                               d->calib.width, d->calib.height);
    if (plan_up_to_date(d, err) < 0)
        return -1;
    const vis_tag_region whole = {0, 0, width, height, d->tags->cfg.decimate, 0, 0, 0, 0};
    if ((d->cfg.use_plan ? first_pass(d, gray, width, height, stride, d->plan.regions, d->plan.n, tags, err)
                         : first_pass(d, gray, width, height, stride, &whole, 1, tags, err)) < 0)
        return -1;
    const base_view im = {width, height, 1, stride, gray};
    return detect_build(d, tags->items, tags->n, &im, prior, out, rep, err);
}

int vis_detector_detect_in(vis_detector *d, const base_view *im, const vis_tag_region *regions, size_t n,
                           vis_tag_list *out, base_error *err)
{
    out->n = 0;
    if (plan_up_to_date(d, err) < 0)
        return -1;
    if (!d->cfg.use_plan)
        return first_pass(d, im->data, im->width, im->height, im->stride, regions, n, out, err);
    const size_t most = n * d->plan.n;
    vis_tag_region *pieces = malloc((most > 0 ? most : 1) * sizeof *pieces);
    if (!pieces)
        return base_error_set(err, "out of memory");
    size_t np = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < d->plan.n; k++)
            np += plan_piece(&regions[i], &d->plan.regions[k], &pieces[np]);
    int rc = first_pass(d, im->data, im->width, im->height, im->stride, pieces, np, out, err);
    free(pieces);
    return rc;
}

int vis_detector_run(vis_detector *d, const uint8_t *gray, int width, int height, size_t stride,
                     const rules_snapshot *prior, rules_snapshot **out, vis_report *rep, base_error *err)
{
    vis_tag_list tags = {0};
    int rc = vis_detector_run_tags(d, gray, width, height, stride, prior, out, rep, &tags, err);
    vis_tag_list_clear(&tags);
    return rc;
}

int vis_detector_from_tags(vis_detector *d, const vis_tag_detection *tags, size_t n, const rules_snapshot *prior,
                           rules_snapshot **out, vis_report *rep, base_error *err)
{
    return detect_build(d, tags, n, NULL, prior, out, rep, err);
}

int vis_detector_run_on_tags(vis_detector *d, const base_view *im, const vis_tag_detection *tags, size_t n,
                             const rules_snapshot *prior, rules_snapshot **out, vis_report *rep, base_error *err)
{
    return vis_detector_run_focused(d, im, tags, n, prior, NULL, NULL, out, rep, err);
}

int vis_detector_run_focused(vis_detector *d, const base_view *im, const vis_tag_detection *tags, size_t n,
                             const rules_snapshot *prior, const unsigned char *focus, const vis_changed *changed,
                             rules_snapshot **out, vis_report *rep, base_error *err)
{
    *out = NULL;
    if (im && (im->width != d->calib.width || im->height != d->calib.height))
        return base_error_set(err, "image is %dx%d but the calibration is for %dx%d", im->width, im->height,
                               d->calib.width, d->calib.height);
    d->focus = focus;
    d->changed = changed ? *changed : (vis_changed){0};
    int rc = detect_build(d, tags, n, im, prior, out, rep, err);
    d->focus = NULL;
    d->changed = (vis_changed){0};
    return rc;
}

/*
 * Tags the quad finder missed, read where the units rebuilt so far leave a
 * free place; twice, since every model read sharpens its unit's formation.
 */
static int read_missed_tags(vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                            const rules_snapshot *prior,
                            const unsigned char *only, vis_seen_model *seen, vis_report *rep, base_error *err)
{
    for (int pass = 0; pass < 2; pass++) {
        rules_snapshot *estimate = NULL;
        vis_report scratch = {0};
        int rc = units_build(d, seen, prior, NULL, &estimate, &scratch, err);
        vis_report_clear(&scratch);
        if (rc < 0)
            return -1;
        int added = vis_recover_read_slots(d, cam, im, paper, estimate, only, seen, rep);
        rules_snapshot_free(estimate);
        if (added < 0)
            return base_error_set(err, "out of memory");
        if (added == 0)
            break;
    }
    return 0;
}

/*
 * What the picture still tells after the decoded tags: tags read at free
 * places of units already found, then units found only by their partly
 * hidden tags (seeded by two agreeing reads or one beyond doubt, kept
 * whole when enough of their places read, else only their reads beyond
 * doubt: partial[unit] set).
 */
static int recover_from_picture(vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                                const vis_tag_detection *tags, size_t n, const rules_snapshot *prior,
                                vis_seen_model *seen, unsigned char *partial, vis_report *rep, base_error *err)
{
    const roster_map *r = d->map;
    /* A tag's pose from its edges fitted as lines beats the one from its four corners (vis_recover.h). */
    vis_recover_polish_poses(d, cam, im, seen);
    if (d->cfg.read_slots)
        vis_recover_refine_rough(d, cam, im, paper, seen, rep);
    if (d->cfg.read_slots && read_missed_tags(d, cam, im, paper, prior, NULL, seen, rep, err) < 0)
        return -1;
    if (!d->cfg.recover_hidden_units)
        return 0;
    unsigned char *seeded = calloc(r->n_units + 1, 1);
    if (!seeded ||
        vis_recover_hidden_units(d, cam, im, paper, tags, n, prior, seen, seeded, &d->times.hidden_searched_px,
                                 rep) < 0) {
        free(seeded);
        return base_error_set(err, "out of memory");
    }
    int rc = d->cfg.read_slots ? read_missed_tags(d, cam, im, paper, prior, seeded, seen, rep, err) : 0;
    vis_recover_confirm(d, seeded, seen, partial, rep);
    free(seeded);
    return rc;
}

/* The board's pose refined on the board tags in view, when asked for; why not, in the report. */
static void refine_board_pose(vis_detector *d, vis_camera *cam, const vis_tag_detection *tags, size_t n,
                              vis_report *rep)
{
    int used = 0;
    double rms = NAN;
    base_error perr;
    int prc = vis_board_refine_pose(cam, d->map, tags, n, d->cfg.refine_pose_min_tags, d->cfg.refine_pose_above_px,
                                    &rms, &used, &perr);
    rep->board_tags_used = (size_t)used;
    rep->pose_rms_px = rms;
    if (prc > 0)
        rep->pose_refined = 1;
    else if (prc < 0)
        vis_report_add(rep, VIS_ISSUE_POSE, -1, NULL, NULL, "board pose not refined: %s", perr.msg);
}

/* The board tags seen, with the pose used: their offset from where the roster puts them and their size. */
static void check_board_tags(const vis_detector *d, const vis_camera *cam, const vis_tag_detection *tags, size_t n,
                             vis_report *rep)
{
    for (size_t i = 0; i < n; i++) {
        const roster_board_tag *b = roster_map_find_board_tag(d->map, tags[i].id);
        vis_board_tag_pose tp;
        double X[3] = {b ? b->x : 0, b ? b->y : 0, b ? b->z : 0}, px[2];
        if (!b || !vis_board_locate_tag(cam, &tags[i], b->z, &tp) || !vis_camera_project(cam, X, px))
            continue;
        double off = hypot(px[0] - tags[i].centre[0], px[1] - tags[i].centre[1]);
        double size_err = fabs(tp.size_mm / b->size - 1);
        if (!rep->board_tags_checked || off > rep->board_tag_offset_px)
            rep->board_tag_offset_px = off;
        if (!rep->board_tags_checked || size_err > rep->board_tag_size_error) {
            rep->board_tag_size_error = size_err;
            rep->board_tag_size_mm = tp.size_mm;
            rep->board_tag_roster_mm = b->size;
        }
        rep->board_tags_checked++;
    }
}

/* Whether a decoded tag is one roster model's, once, on the board: when not,
 * the reason goes into the report and the tag is ignored. */
static const roster_map_model *usable_model_tag(const vis_detector *d, const vis_tag_detection *tags, size_t n,
                                                const vis_tag_detection *t, vis_report *rep)
{
    const roster_map *r = d->map;
    int copies = 0;
    for (size_t j = 0; j < n; j++)
        copies += tags[j].id == t->id;
    const roster_map_model *rm = roster_map_find_model_tag(r, t->id);
    if (copies > 1) {
        vis_report_add(rep, VIS_ISSUE_DUPLICATE_ID, t->id, rm ? rm->id : NULL, t->centre,
                       "tag %d seen %d times (this one at %.0f,%.0f px): all copies ignored", t->id, copies,
                       t->centre[0], t->centre[1]);
        return NULL;
    }
    if (roster_map_find_board_tag(r, t->id) || roster_map_find_mark_tag(r, t->id))
        return NULL; /* a mast places its carrier after the bases' marks (vis_mast.h) */
    if (!rm)
        vis_report_add(rep, VIS_ISSUE_UNKNOWN_ID, t->id, NULL, t->centre,
                       "tag %d at %.0f,%.0f px is not in the roster: ignored", t->id, t->centre[0], t->centre[1]);
    return rm;
}

/* The models whose tag was decoded more than once: "all copies ignored" (usable_model_tag), and no read of their ID
 * may place them later (vis_seen_model.doubted). */
static void mark_doubted(const roster_map *r, const vis_tag_detection *tags, size_t n, vis_seen_model *seen)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (tags[i].id == tags[j].id) {
                const roster_map_model *rm = roster_map_find_model_tag(r, tags[i].id);
                if (rm)
                    seen[rm - r->models].doubted = true;
            }
}

/* Places a model by its decoded tag: seen, or rough when the corners are off
 * a square (partly hidden); ignored, with the reason in the report, when its
 * rays miss the board, it stands off the board or it has the wrong size. */
static void place_model_by_tag(const vis_detector *d, const vis_camera *cam, const vis_tag_detection *t,
                               const roster_map_model *rm, vis_seen_model *seen, vis_report *rep)
{
    const roster_map *r = d->map;
    const roster_map_unit *ru = &r->units[rm->unit];
    vis_board_tag_pose tp;
    double z;
    if (!vis_relief_place_tag(&d->relief, cam, t, &ru->mount, &tp, &z)) {
        vis_report_add(rep, VIS_ISSUE_OFF_BOARD, t->id, rm->id, t->centre,
                       "tag %d (%s): its rays miss the board plane: ignored", t->id, rm->id);
        return;
    }
    const double tol = d->cfg.off_board_mm;
    if (tp.centre.x < -tol || tp.centre.y < -tol || tp.centre.x > r->board_width + tol ||
        tp.centre.y > r->board_depth + tol) {
        vis_report_add(rep, VIS_ISSUE_OFF_BOARD, t->id, rm->id, t->centre,
                       "tag %d (%s) at %.0f,%.0f mm is off the board: ignored", t->id, rm->id, tp.centre.x,
                       tp.centre.y);
        return;
    }
    if (fabs(tp.size_mm / ru->mount.size - 1) > d->cfg.size_tolerance) {
        vis_report_add(rep, VIS_ISSUE_BAD_SIZE, t->id, rm->id, t->centre,
                       "tag %d (%s) measures %.1f mm, roster says %.1f mm: ignored", t->id, rm->id, tp.size_mm,
                       ru->mount.size);
        return;
    }
    vis_seen_model *s = &seen[rm - r->models];
    if (tp.square_residual_mm > d->cfg.max_square_residual_mm) {
        vis_report_add(rep, VIS_ISSUE_DISTORTED, t->id, rm->id, t->centre,
                       "tag %d (%s): corners %.2f mm off a square (partly hidden?): not used", t->id, rm->id,
                       tp.square_residual_mm);
        s->rough = true;
        s->residual_mm = tp.square_residual_mm;
    } else {
        s->seen = true;
        s->sized = true;
        s->tag_z = z;
        s->size_ratio = tp.size_mm / ru->mount.size;
        s->edge_px = vis_tag_edge_px(t);
    }
    s->certain = true; /* decoded by the quad finder: its ID is not in doubt, even when its corners are */
    roster_tag_mount_unplace(&ru->mount, tp.centre, tp.heading, &s->pos, &s->facing);
}

/* The marks beside the square tags, in this order: the rim labels, their units told by their labels together
 * (vis_rim_units.h; book made here, the caller clears it), the masts, then what a hand leaves of a unit nothing of is
 * seen (vis_occluded.h), from the labels already found. 0, or -1 when out of memory. */
static int read_marks(const vis_detector *d, const vis_camera *cam, const base_view *im, const vis_paper *paper,
                      const vis_tag_detection *tags, size_t n, vis_rim_book *book, vis_seen_model *seen,
                      unsigned char *partial, vis_report *rep)
{
    vis_rim_found labels = {0};
    vis_rim_stats st = {0};
    const int threads = d->tags->cfg.threads;
    if (im && (vis_rim_book_make(d->tags, d->map, book) < 0 ||
               (book->n && vis_rim_units_place(cam, im, book, d->map, threads, seen, partial, &st, &labels) < 0)))
        return -1;
    rep->rim_labels = st.labels, rep->rim_models = st.models, rep->rim_ms = st.ms;
    vis_mast_place(d, cam, im, paper, tags, n, seen, partial, rep);
    vis_occluded_stats occ = {0};
    const int rc = im && book->n ? vis_occluded_place(cam, im, book, d->tags, d->map, threads, &labels, seen, partial,
                                                      &occ)
                                 : 0;
    vis_rim_found_clear(&labels);
    return rc;
}

/* vis_units_options.base_at's context: a rim label's corner blocks where a formation puts a base not read. */
typedef struct base_look {
    const vis_detector *d;
    const vis_camera *cam;
    const base_view *im;
    const vis_rim_book *book;
} base_look;

/* vis_units_options.base_at (two corner blocks) and base_hint (one): a base's rim label where a formation puts it. */
static bool rim_base_look(const base_look *b, size_t model, base_vec2 pos, double facing, int min_corners,
                          base_vec2 *at)
{
    const roster_tag_mount *mt = &b->d->map->units[b->d->map->models[model].unit].mount;
    return vis_rim_base_at(b->book, b->d->map, b->cam, b->im, model, pos, facing,
                           vis_relief_tag_z(&b->d->relief, mt, pos), min_corners, at);
}

static bool rim_base_at(void *ctx, size_t model, base_vec2 pos, double facing, base_vec2 *at)
{
    return rim_base_look(ctx, model, pos, facing, 2, at);
}

static bool rim_base_hint(void *ctx, size_t model, base_vec2 pos, double facing)
{
    return rim_base_look(ctx, model, pos, facing, 1, NULL);
}

static int detect_build(vis_detector *d, const vis_tag_detection *tags, size_t n, const base_view *im,
                        const rules_snapshot *prior, rules_snapshot **out, vis_report *rep, base_error *err)
{
    const roster_map *r = d->map;
    vis_camera cam;
    vis_camera_init(&cam, &d->calib);
    rep->tags_detected = n;
    *out = NULL;
    if (d->cfg.refine_pose_min_tags > 0)
        refine_board_pose(d, &cam, tags, n, rep);
    check_board_tags(d, &cam, tags, n, rep);

    vis_seen_model *seen = calloc(r->n_models ? r->n_models : 1, sizeof *seen);
    unsigned char *partial = calloc(r->n_units + 1, 1);
    if (!seen || !partial) {
        free(seen);
        free(partial);
        return base_error_set(err, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        const roster_map_model *rm = usable_model_tag(d, tags, n, &tags[i], rep);
        if (rm)
            place_model_by_tag(d, &cam, &tags[i], rm, seen, rep);
    }
    mark_doubted(r, tags, n, seen);
    /* The reads' time, less the unit estimates they fit (counted as the fit's). */
    const double fit0 = d->times.fit_ms, fit0_cpu = d->times.fit_cpu_ms;
    const stamp r0 = stamp_now();
    /* The paper's ink and white, measured once for every read of this frame. */
    const vis_paper paper = im ? vis_recover_paper(im, tags, n) : (vis_paper){0};
    int rrc = im ? recover_from_picture(d, &cam, im, &paper, tags, n, prior, seen, partial, rep, err) : 0;
    stamp_add(r0, &d->times.reads_ms, &d->times.reads_cpu_ms);
    d->times.reads_ms -= d->times.fit_ms - fit0, d->times.reads_cpu_ms -= d->times.fit_cpu_ms - fit0_cpu;
    vis_rim_book book = {0};
    if (rrc < 0 || read_marks(d, &cam, im, &paper, tags, n, &book, seen, partial, rep) < 0) {
        vis_rim_book_clear(&book);
        free(seen);
        free(partial);
        return rrc < 0 ? -1 : base_error_set(err, "out of memory"); /* the reads' error says its own */
    }
    /* What was said is what is done: a model whose tag was seen twice is placed from no read of it. */
    for (size_t i = 0; i < r->n_models; i++)
        if (seen[i].doubted)
            seen[i] = (vis_seen_model){.doubted = true};
    /* Each model's sigma from this camera and this frame's board pose (vis_uncert). */
    vis_uncert_source unc;
    vis_uncert_source_default(&unc, &d->calib, rep->pose_rms_px);
    unc.relief = &d->relief;
    base_look look = {d, &cam, im, &book};
    const vis_units_options uo = {.uncert = &unc, .partial = partial, .base_at = im && book.n ? rim_base_at : NULL,
                                  .base_hint = im && book.n ? rim_base_hint : NULL, .base_seen_ctx = &look};
    int rc = units_build(d, seen, prior, &uo, out, rep, err);
    vis_rim_book_clear(&book);
    if (rc == 0)
        vis_height_check(d, &cam, tags, n, seen, *out, rep);
    free(seen);
    free(partial);
    return rc;
}
