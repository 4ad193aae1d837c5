/* ref_survey: the table's hills measured from the camera (see the header). */
#include "ref_survey.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_snapshot.h"
#include "ref_snapshot_vision.h"
#include "rules_relief.h"

/* A heights' change under which the readings have settled (mm). */
#define SETTLED_MM 0.1
/* The frame's scale sigma, at least, when fewer than three units stand on the board to tell it (mm). */
#define SCALE_SIGMA_UNKNOWN_MM 2.0
/* The least standard error a unit's height is weighted with (mm): no unit outweighs the rest alone. */
#define MIN_UNIT_SE_MM 0.2

static const vis_unit_height *unit_height(const vis_report *rep, const char *unit)
{
    for (size_t i = 0; i < rep->n_heights; i++)
        if (strcmp(rep->heights[i].unit, unit) == 0)
            return &rep->heights[i];
    return NULL;
}

/* Does every model of u stand on piece t's flat top? */
static bool wholly_on_top(const rules_unit *u, const rules_terrain *t)
{
    for (size_t m = 0; m < u->n_models; m++)
        if (!(rules_relief_piece_height(t, u->models[m].pos) >= t->height_mm))
            return false;
    return u->n_models > 0;
}

/* The sigma the frame's scale adds: from the units wholly on the board, which should read 0 mm. */
static double scale_sigma(const rules_snapshot *snap, const vis_report *rep, size_t *n_flat)
{
    double sum = 0, sum2 = 0;
    size_t n = 0;
    for (size_t u = 0; u < snap->n_units; u++) {
        const rules_unit *un = &snap->units[u];
        const vis_unit_height *h = unit_height(rep, un->id);
        bool flat = h && un->n_models > 0;
        for (size_t m = 0; flat && m < un->n_models; m++)
            flat = rules_relief_height(snap->terrain, snap->n_terrain, un->models[m].pos, NULL) == 0;
        if (!flat)
            continue;
        const double off = h->seen_mm - h->table_mm;
        sum += off, sum2 += off * off, n++;
    }
    *n_flat = n;
    if (n < 2)
        return SCALE_SIGMA_UNKNOWN_MM;
    const double mean = sum / n, var = fmax(0, (sum2 - n * mean * mean) / (n - 1));
    /* Their mean offset (how far the board reads from 0) and the median's standard error of their spread;
     * the spread of two units tells little (on ds_climb's renders, two units' 0.6 mm for a 3 mm miss). */
    const double s = sqrt(mean * mean + 1.2533 * 1.2533 * var / n);
    return n < 3 ? fmax(s, SCALE_SIGMA_UNKNOWN_MM) : s;
}

/* Each hill measured from one reading (hills[].height_mm etc.; sv->scale_sigma_mm, flat_units). */
static void measure(const rules_snapshot *snap, const vis_report *rep, ref_survey *sv)
{
    sv->scale_sigma_mm = scale_sigma(snap, rep, &sv->flat_units);
    for (size_t i = 0; i < sv->n; i++) {
        ref_survey_hill *h = &sv->hills[i];
        const rules_terrain *t = &snap->terrain[h->piece];
        double wsum = 0, wz = 0;
        h->units = h->tags = 0;
        for (size_t u = 0; u < snap->n_units; u++) {
            const vis_unit_height *uh = unit_height(rep, snap->units[u].id);
            if (!uh || !isfinite(uh->seen_mm) || !wholly_on_top(&snap->units[u], t))
                continue;
            const double se = fmax(uh->se_mm, MIN_UNIT_SE_MM), w = 1 / (se * se);
            wsum += w, wz += w * uh->seen_mm;
            h->units++, h->tags += uh->tags;
        }
        h->height_mm = wsum > 0 ? wz / wsum : NAN;
        h->sigma_mm = wsum > 0 ? sqrt(1 / wsum + sv->scale_sigma_mm * sv->scale_sigma_mm) : NAN;
        const double both = sqrt(h->sigma_mm * h->sigma_mm + h->file_sigma_mm * h->file_sigma_mm);
        h->agrees = isfinite(h->height_mm) && fabs(h->height_mm - h->file_mm) <= 3 * both;
    }
}

/* The hills of the set-up's terrain (as its first reading carries it) into sv->hills. */
static int list_hills(const rules_snapshot *snap, ref_survey *sv, base_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < snap->n_terrain; i++)
        n += snap->terrain[i].relief == RULES_RELIEF_HILL;
    if (!n)
        return base_error_setc(err, BASE_E_INVALID, "the table's terrain has no hill to survey "
                                                    "(a piece with \"relief\": \"hill\")");
    if (!(sv->hills = calloc(n, sizeof *sv->hills)))
        return base_error_set(err, "out of memory");
    for (size_t i = 0; i < snap->n_terrain; i++) {
        const rules_terrain *t = &snap->terrain[i];
        if (t->relief != RULES_RELIEF_HILL)
            continue;
        ref_survey_hill *h = &sv->hills[sv->n++];
        snprintf(h->id, sizeof h->id, "%s", t->id);
        h->piece = i, h->file_mm = t->height_mm, h->file_sigma_mm = rules_relief_sigma(t);
    }
    return 0;
}

static ref_snapshot *read_once(ref_setup *s, const base_view *frame, base_error *err)
{
    ref_read_options o;
    ref_read_options_default(&o);
    o.picture = "the survey's picture";
    o.patches = false;
    return ref_snapshot_read(s, frame, &o, err);
}

/* The hills' heights measured so far given to the detector: the next reading places their tags there. */
static int set_heights(ref_setup *s, rules_snapshot *work, const ref_survey *sv, base_error *err)
{
    ref_survey_apply(sv, work->terrain, work->n_terrain);
    return vis_detector_set_relief(ref_setup_detector(s), work->terrain, work->n_terrain, err);
}

int ref_survey_read(ref_setup *s, const base_view *frame, ref_survey *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    ref_snapshot *shot = read_once(s, frame, err);
    rules_snapshot *orig = shot ? rules_snapshot_new(1, 1) : NULL, *work = orig ? rules_snapshot_new(1, 1) : NULL;
    int rc = shot && work ? 0 : -1;
    if (shot && !work)
        base_error_set(err, "out of memory");
    for (size_t i = 0; rc == 0 && i < shot->snap->n_terrain; i++)
        if (!rules_snapshot_copy_terrain(orig, &shot->snap->terrain[i]) ||
            !rules_snapshot_copy_terrain(work, &shot->snap->terrain[i]))
            rc = base_error_set(err, "out of memory");
    if (rc == 0)
        rc = list_hills(shot->snap, out, err);
    while (rc == 0) {
        out->rounds++;
        double moved = 0; /* the most a hill's measured height differs from the one this reading placed it at */
        measure(shot->snap, ref_snapshot_report(shot), out);
        for (size_t i = 0; i < out->n; i++)
            if (isfinite(out->hills[i].height_mm))
                moved = fmax(moved, fabs(out->hills[i].height_mm - work->terrain[out->hills[i].piece].height_mm));
        if (moved <= SETTLED_MM || out->rounds >= REF_SURVEY_ROUNDS)
            break;
        ref_snapshot_free(shot);
        shot = NULL;
        if ((rc = set_heights(s, work, out, err)) == 0 && !(shot = read_once(s, frame, err)))
            rc = -1;
    }
    /* The set-up's relief as it was. */
    if (orig && vis_detector_set_relief(ref_setup_detector(s), orig->terrain, orig->n_terrain, err) < 0)
        rc = -1;
    ref_snapshot_free(shot);
    rules_snapshot_free(orig);
    rules_snapshot_free(work);
    if (rc < 0)
        ref_survey_clear(out);
    return rc;
}

void ref_survey_apply(const ref_survey *sv, rules_terrain *t, size_t n)
{
    for (size_t i = 0; i < sv->n; i++) {
        const ref_survey_hill *h = &sv->hills[i];
        if (h->piece < n && isfinite(h->height_mm) && h->height_mm > 0)
            t[h->piece].height_mm = h->height_mm, t[h->piece].height_sigma_mm = h->sigma_mm;
    }
}

void ref_survey_clear(ref_survey *sv)
{
    if (!sv)
        return;
    free(sv->hills);
    memset(sv, 0, sizeof *sv);
}
