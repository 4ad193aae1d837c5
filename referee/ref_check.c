/* ref_check: the set-up's self-checks on one picture (see the header; limits in docs/setup-checks.md). */
#include "ref_check.h"
#include "ref_check_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The checks as data: change a limit here and in docs/setup-checks.md. */
const ref_check_rule ref_check_rules[REF_CHECK_N] = {
    {REF_CHECK_FOCUS, "focus", "cells", 1.2, true,
     "the worst tag's edge width (its black-white contrast over its steepest gradient), in tag cells"},
    {REF_CHECK_EXPOSURE, "exposure", "", 0.2, true,
     "the share of the tags' pixels clipped white (and the tags' white level must reach 60 of 255)"},
    {REF_CHECK_BOARD_OFFSET, "board_offset", "px", 10.0, true,
     "the worst board tag's distance from where the roster's board puts it, with the pose used"},
    {REF_CHECK_BOARD_SIZE, "board_tag_size", "", 0.15, true,
     "the worst board tag's measured edge against the roster's: |measured / roster - 1|"},
    {REF_CHECK_MODEL_SIZE, "model_tag_size", "", 0.25, true,
     "the share of the model tags decoded whose measured edge is more than 15% off the roster's"},
    {REF_CHECK_ROSTER_SEEN, "roster_seen", "", 0.10, false,
     "the share of the roster's models placed from their own tag"},
    {REF_CHECK_ROSTER_FIT, "roster_fit", "", 0, true,
     "what the picture proves against the roster: a unit's models in two places, its bases overlapping as the "
     "roster sizes them, tags read on the board that the roster does not hold (ref_roster_fit.h)"},
};

/* One tag's picture figures: edge width (px), contrast levels, clipped pixels. */
typedef struct tag_look {
    double edge_px, cell_px, white, black;
    size_t clipped, pixels;
} tag_look;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The level below which `share` of the histogram's n pixels lie. */
static double percentile(const size_t hist[256], size_t n, double share)
{
    size_t want = (size_t)(share * (double)n), acc = 0;
    for (int v = 0; v < 256; v++)
        if ((acc += hist[v]) > want)
            return v;
    return 255;
}

/* Looks at the tag's square (its corners' box): levels, clipping, the steepest edges. False when off the picture. */
static bool look_at_tag(const base_view *im, const vis_tag_detection *t, int cells, tag_look *out)
{
    double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18, edge = 0;
    for (int k = 0; k < 4; k++) {
        const double *a = t->corners[k], *b = t->corners[(k + 1) % 4];
        x0 = fmin(x0, a[0]), y0 = fmin(y0, a[1]), x1 = fmax(x1, a[0]), y1 = fmax(y1, a[1]);
        edge += hypot(b[0] - a[0], b[1] - a[1]) / 4;
    }
    /* The white border around the black square is one cell wide: take it in. */
    double grow = 2 * edge / cells;
    int ix0 = (int)floor(x0 - grow), iy0 = (int)floor(y0 - grow), ix1 = (int)ceil(x1 + grow), iy1 = (int)ceil(y1 + grow);
    if (ix0 < 1 || iy0 < 1 || ix1 >= im->width - 1 || iy1 >= im->height - 1 || edge < 4)
        return false;
    size_t hist[256] = {0}, ghist[256] = {0}, n = 0;
    for (int y = iy0; y <= iy1; y++) {
        const uint8_t *row = im->data + (size_t)y * im->stride;
        for (int x = ix0; x <= ix1; x++, n++) {
            hist[row[x]]++;
            int gx = abs((int)row[x + 1] - (int)row[x - 1]) / 2;
            int gy = abs((int)row[x + (ptrdiff_t)im->stride] - (int)row[x - (ptrdiff_t)im->stride]) / 2;
            ghist[gx > gy ? gx : gy]++;
        }
    }
    out->white = percentile(hist, n, 0.9);
    out->black = percentile(hist, n, 0.1);
    out->clipped = hist[255] + hist[254];
    out->pixels = n;
    /* A sharp edge climbs the whole contrast in ~1 px; a defocused one over several. */
    double steepest = percentile(ghist, n, 0.995);
    out->edge_px = (percentile(hist, n, 0.98) - percentile(hist, n, 0.02)) / fmax(steepest, 1);
    out->cell_px = edge / cells;
    return true;
}

static void set_result(ref_check_result *r, ref_check_id id, double value, bool measured)
{
    const ref_check_rule *rule = &ref_check_rules[id];
    r->id = id;
    r->measured = measured;
    r->value = value;
    r->ok = !measured || (rule->fail_above ? !(value > rule->limit) : !(value < rule->limit));
}

/* The figures from the tags' pixels: focus (worst tag), exposure (all tags), resolution (smallest cell). */
static void check_pixels(const vis_detector *det, const char *picture, const base_view *im,
                         const vis_tag_detection *tags, size_t n_tags, ref_checks *c)
{
    int width = 10;
    uint8_t cells_map[256];
    if (n_tags && !vis_tag_bitmap(det->tags, tags[0].id, cells_map, &width))
        width = 10;
    int cells = width - 2; /* the black square: the ring and the data cells */
    double worst_focus = -1, *whites = malloc((n_tags ? n_tags : 1) * sizeof *whites);
    size_t clipped = 0, pixels = 0, n = 0;
    c->min_cell_px = NAN;
    ref_check_result *fr = &c->items[REF_CHECK_FOCUS];
    for (size_t i = 0; whites && i < n_tags; i++) {
        const vis_tag_detection *t = &tags[i];
        if (!roster_map_find_model_tag(det->map, t->id) && !roster_map_find_board_tag(det->map, t->id))
            continue;
        tag_look l;
        if (!look_at_tag(im, t, cells, &l))
            continue;
        whites[n++] = l.white;
        clipped += l.clipped, pixels += l.pixels;
        if (isnan(c->min_cell_px) || l.cell_px < c->min_cell_px)
            c->min_cell_px = l.cell_px;
        double focus = l.edge_px / l.cell_px;
        if (focus > worst_focus) {
            worst_focus = focus;
            snprintf(fr->where, sizeof fr->where, "tag %d at %.0f,%.0f px", t->id, t->centre[0], t->centre[1]);
        }
    }
    c->tags_measured = n;
    set_result(fr, REF_CHECK_FOCUS, worst_focus, n > 0);
    if (n)
        qsort(whites, n, sizeof *whites, cmp_double);
    c->dark_white_level = n ? whites[n / 2] : NAN;
    c->clipped_share = pixels ? (double)clipped / (double)pixels : NAN;
    free(whites);
    ref_check_result *er = &c->items[REF_CHECK_EXPOSURE];
    set_result(er, REF_CHECK_EXPOSURE, c->clipped_share, n > 0);
    if (n && c->dark_white_level < REF_CHECK_DARK_WHITE_LEVEL)
        er->ok = false;
    if (!fr->ok)
        snprintf(fr->msg, sizeof fr->msg,
                 "%s: the picture is out of focus: the tags' edges are %.2f cells wide at %s (limit %.2f): focus "
                 "the camera",
                 picture, worst_focus, fr->where, ref_check_rules[REF_CHECK_FOCUS].limit);
    if (!er->ok && c->clipped_share > ref_check_rules[REF_CHECK_EXPOSURE].limit)
        snprintf(er->msg, sizeof er->msg, "%s: the picture is overexposed: %.0f%% of the tags' pixels are clipped white "
                 "(limit %.0f%%)", picture, 100 * c->clipped_share, 100 * ref_check_rules[REF_CHECK_EXPOSURE].limit);
    else if (!er->ok)
        snprintf(er->msg, sizeof er->msg, "%s: the picture is too dark: the tags' white is at %.0f of 255 (limit %.0f)",
                 picture, c->dark_white_level, REF_CHECK_DARK_WHITE_LEVEL);
}

/* The figures from what detection measured: the board tags, the model tags, the roster seen. */
static void check_detection(const vis_detector *det, const ref_check_names *names, const vis_report *rep,
                            ref_checks *c)
{
    const char *picture = names->picture;
    ref_check_result *r = &c->items[REF_CHECK_BOARD_OFFSET];
    set_result(r, REF_CHECK_BOARD_OFFSET, rep->board_tag_offset_px, rep->board_tags_checked > 0);
    if (!r->ok)
        snprintf(r->msg, sizeof r->msg,
                 "%s: the board tags are %.0f px from where the roster's board puts them (limit %.0f px): is %s the "
                 "roster of this table, and %s the calibration of this camera?",
                 picture, rep->board_tag_offset_px, ref_check_rules[REF_CHECK_BOARD_OFFSET].limit, names->roster,
                 names->calib);
    r = &c->items[REF_CHECK_BOARD_SIZE];
    set_result(r, REF_CHECK_BOARD_SIZE, rep->board_tag_size_error, rep->board_tags_checked > 0);
    if (!r->ok)
        snprintf(r->msg, sizeof r->msg,
                 "%s: a board tag measures %.1f mm where the roster says %.1f mm (limit %.0f%%): is %s the roster of "
                 "this table?",
                 picture, rep->board_tag_size_mm, rep->board_tag_roster_mm,
                 100 * ref_check_rules[REF_CHECK_BOARD_SIZE].limit, names->roster);
    size_t bad = 0;
    for (size_t i = 0; i < rep->n; i++)
        bad += rep->items[i].kind == VIS_ISSUE_BAD_SIZE;
    size_t decoded = bad + rep->models_seen;
    r = &c->items[REF_CHECK_MODEL_SIZE];
    set_result(r, REF_CHECK_MODEL_SIZE, decoded ? (double)bad / (double)decoded : 0, decoded > 0);
    if (!r->ok)
        snprintf(r->msg, sizeof r->msg,
                 "%s: %zu of the %zu model tags read disagree with the roster's sizes (limit %.0f%%): is %s the "
                 "roster of this table?",
                 picture, bad, decoded, 100 * ref_check_rules[REF_CHECK_MODEL_SIZE].limit, names->roster);
    size_t total = det->map->n_models;
    r = &c->items[REF_CHECK_ROSTER_SEEN];
    set_result(r, REF_CHECK_ROSTER_SEEN, total ? (double)rep->models_seen / (double)total : 1, total > 0);
    if (!r->ok)
        snprintf(r->msg, sizeof r->msg,
                 "%s: only %zu of the roster's %zu models are seen (limit %.0f%%), %zu tags decoded: is %s the "
                 "calibration of this camera, and %s the roster of this table?",
                 picture, rep->models_seen, total, 100 * ref_check_rules[REF_CHECK_ROSTER_SEEN].limit,
                 rep->tags_detected, names->calib, names->roster);
}

static void tally(ref_checks *out, const char *picture);

void ref_check_parts(const vis_detector *det, const ref_check_names *names, const base_view *image,
                     const vis_tag_detection *tags, size_t n_tags, const vis_report *rep, ref_checks *out)
{
    const char *picture = names->picture;
    memset(out, 0, sizeof *out);
    check_detection(det, names, rep, out);
    check_pixels(det, picture, image, tags, n_tags, out);
    out->items[REF_CHECK_ROSTER_FIT].id = REF_CHECK_ROSTER_FIT; /* from the snapshot: ref_checks_set */
    out->items[REF_CHECK_ROSTER_FIT].ok = true;
    tally(out, picture);
}

void ref_checks_set(ref_checks *c, const ref_check_result *r, const char *picture)
{
    c->items[r->id] = *r;
    tally(c, picture);
}

/* ok and n_failed from the items; an item that holds without words gets its figure. */
static void tally(ref_checks *out, const char *picture)
{
    out->ok = true;
    out->n_failed = 0;
    for (int i = 0; i < REF_CHECK_N; i++) {
        ref_check_result *r = &out->items[i];
        if (r->ok && !r->msg[0])
            snprintf(r->msg, sizeof r->msg, "%s: %s %.3g%s%s", picture, ref_check_rules[i].name, r->value,
                     ref_check_rules[i].unit[0] ? " " : "", ref_check_rules[i].unit);
        if (!r->ok) {
            out->ok = false;
            out->n_failed++;
        }
    }
}

size_t ref_check_mark_duplicates(const roster_file *roster, const char *picture, const vis_report *rep,
                                 rules_report *r, FILE *warn, const char *prog)
{
    size_t marked = 0;
    for (size_t i = 0; i < rep->n; i++) {
        const vis_issue *is = &rep->items[i];
        const roster_model *m = is->kind == VIS_ISSUE_DUPLICATE_ID ? roster_find_model_tag(roster, is->tag_id)
                                                                        : NULL;
        if (!m)
            continue;
        const char *unit = roster->units[m->unit].id;
        for (size_t k = 0; k < r->n_units; k++) {
            rules_unit_report *ur = &r->units[k];
            if (strcmp(ur->unit_id, unit) != 0 || ur->verdict == RULES_VERDICT_NOT_SEEN)
                continue;
            if (ur->verdict != RULES_VERDICT_CANNOT_TELL || !strstr(ur->why, "seen twice")) {
                rules_unit_report_set_verdict(ur, RULES_VERDICT_CANNOT_TELL,
                                              "tag %d (%s) is seen twice on the table in %s: both placements "
                                              "dropped, the unit cannot be judged",
                                              is->tag_id, m->id, picture);
                marked++;
                if (warn)
                    fprintf(warn, "%s: %s: warning: tag %d (%s) seen twice on the table: both placements dropped; "
                                  "unit %s: cannot tell\n",
                            prog, picture, is->tag_id, m->id, unit);
            }
        }
    }
    if (marked)
        rules_report_refresh(r);
    return marked;
}

const ref_check_result *ref_checks_first_failure(const ref_checks *c)
{
    for (int i = 0; i < REF_CHECK_N; i++)
        if (!c->items[i].ok)
            return &c->items[i];
    return NULL;
}

cJSON *ref_checks_to_json(const ref_checks *c)
{
    cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "checks");
    cJSON_AddBoolToObject(o, "ok", c->ok);
    for (int i = 0; i < REF_CHECK_N; i++) {
        const ref_check_result *r = &c->items[i];
        const ref_check_rule *rule = &ref_check_rules[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", rule->name);
        if (r->measured)
            cJSON_AddNumberToObject(j, "value", round(r->value * 1e4) / 1e4);
        cJSON_AddStringToObject(j, "unit", rule->unit);
        cJSON_AddNumberToObject(j, "limit", rule->limit);
        cJSON_AddBoolToObject(j, "measured", r->measured);
        cJSON_AddBoolToObject(j, "ok", r->ok);
        if (r->where[0])
            cJSON_AddStringToObject(j, "where", r->where);
        cJSON_AddStringToObject(j, "message", r->msg);
        cJSON_AddItemToArray(arr, j);
    }
    return o;
}
