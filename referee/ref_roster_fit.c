/* ref_roster_fit: does the roster describe the table the camera sees (see the header)? */
#include "ref_roster_fit.h"

#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_geom.h"
#include "vis_camera.h"

size_t ref_unit_models_seen(const rules_snapshot *snap, const char *unit_id)
{
    const rules_unit *u = snap ? rules_snapshot_find_unit(snap, unit_id) : NULL;
    size_t n = 0;
    for (size_t k = 0; u && k < u->n_models; k++)
        n += u->models[k].evidence != RULES_EVIDENCE_INFERRED;
    return n;
}

/* What the findings say, appended while it fits. */
typedef struct fit_words {
    char *buf;
    size_t cap, off;
    size_t found;
} fit_words;

static void say(fit_words *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void say(fit_words *w, const char *fmt, ...)
{
    if (w->off + 1 >= w->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(w->buf + w->off, w->cap - w->off, fmt, ap);
    va_end(ap);
    if (n > 0)
        w->off = w->off + (size_t)n < w->cap ? w->off + (size_t)n : w->cap - 1;
}

static double sigma_of(const rules_model *m) { return isnan(m->sigma_mm) ? 0 : m->sigma_mm; }

static size_t find_root(size_t *parent, size_t i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* The unit's seen models in groups no gap its `unseen` models could fill joins: the number of groups; the first
 * group's and another's nearest models in *a, *b. parent: room for u->n_models. */
static size_t places(const rules_unit *u, size_t unseen, size_t *parent, size_t *a, size_t *b)
{
    double widest = 0;
    for (size_t k = 0; k < u->n_models; k++) {
        const base_obb o = rules_model_base(u, &u->models[k]);
        widest = fmax(widest, fmax(o.width, o.depth));
        parent[k] = k;
    }
    for (size_t i = 0; i < u->n_models; i++)
        for (size_t j = i + 1; j < u->n_models; j++) {
            const rules_model *p = &u->models[i], *q = &u->models[j];
            if (p->evidence == RULES_EVIDENCE_INFERRED || q->evidence == RULES_EVIDENCE_INFERRED)
                continue;
            const base_obb op = rules_model_base(u, p), oq = rules_model_base(u, q);
            const double reach = REF_FIT_GAP_MM + 3 * hypot(sigma_of(p), sigma_of(q)) + (double)unseen * widest;
            if (base_obb_dist(&op, &oq) <= reach)
                parent[find_root(parent, i)] = find_root(parent, j);
        }
    size_t groups = 0, first = SIZE_MAX;
    double nearest = INFINITY;
    for (size_t i = 0; i < u->n_models; i++) {
        if (u->models[i].evidence == RULES_EVIDENCE_INFERRED || find_root(parent, i) != i)
            continue;
        groups++;
        first = first == SIZE_MAX ? i : first;
    }
    for (size_t i = 0; groups > 1 && i < u->n_models; i++)
        for (size_t j = 0; j < u->n_models; j++) {
            const rules_model *p = &u->models[i], *q = &u->models[j];
            if (p->evidence == RULES_EVIDENCE_INFERRED || q->evidence == RULES_EVIDENCE_INFERRED ||
                find_root(parent, i) != first || find_root(parent, j) == first)
                continue;
            const double d = base_v2_dist(p->pos, q->pos);
            if (d < nearest)
                nearest = d, *a = i, *b = j;
        }
    return groups;
}

/* Two of the unit's seen bases, as the roster sizes them, overlapping by more than their uncertainty: true with
 * the pair in *a, *b. */
static bool bases_overlap(const rules_unit *u, size_t *a, size_t *b)
{
    for (size_t i = 0; i < u->n_models; i++)
        for (size_t j = i + 1; j < u->n_models; j++) {
            const rules_model *p = &u->models[i], *q = &u->models[j];
            if (p->evidence == RULES_EVIDENCE_INFERRED || q->evidence == RULES_EVIDENCE_INFERRED)
                continue;
            base_obb op = rules_model_base(u, p), oq = rules_model_base(u, q);
            const double sp = REF_FIT_OVERLAP_MM + 3 * sigma_of(p), sq = REF_FIT_OVERLAP_MM + 3 * sigma_of(q);
            op.width -= 2 * sp, op.depth -= 2 * sp, oq.width -= 2 * sq, oq.depth -= 2 * sq;
            if (op.width > 0 && op.depth > 0 && oq.width > 0 && oq.depth > 0 && base_obb_dist(&op, &oq) <= 0) {
                *a = i, *b = j;
                return true;
            }
        }
    return false;
}

static const char *model_tag(const ref_setup *s, const rules_model *m, char *buf, size_t cap)
{
    for (size_t k = 0; k < s->roster->n_models; k++)
        if (strcmp(s->roster->models[k].id, m->id) == 0) {
            snprintf(buf, cap, "%s (tag %d)", m->id, s->roster->models[k].tag_id);
            return buf;
        }
    return m->id;
}

/* One roster unit against the table: its findings said, each naming the roster file the unit came from. */
static void fit_unit(const ref_setup *s, size_t ui, const rules_unit *u, size_t *parent, fit_words *w)
{
    const roster_unit *ru = &s->roster->units[ui];
    size_t seen = 0, a = 0, b = 0;
    for (size_t k = 0; k < u->n_models; k++)
        seen += u->models[k].evidence != RULES_EVIDENCE_INFERRED;
    const size_t unseen = ru->n_models > seen ? ru->n_models - seen : 0;
    char ta[96], tb[96];
    /* Skirmishers (a loose unit) stand apart by the rules: no gap between them says the roster is another's. */
    if (seen > 1 && !ru->loose && places(u, unseen, parent, &a, &b) > 1) {
        char gap[96] = "every model of it seen";
        if (unseen)
            snprintf(gap, sizeof gap, "more than its %zu models unseen could fill", unseen);
        say(w, "%sunit %s of %s stands in two places: %s and %s are %.0f mm apart (%s)", w->found ? "; " : "", ru->id,
            ref_setup_roster_of(s, ui), model_tag(s, &u->models[a], ta, sizeof ta),
            model_tag(s, &u->models[b], tb, sizeof tb), base_v2_dist(u->models[a].pos, u->models[b].pos), gap);
        w->found++;
    }
    if (seen > 1 && bases_overlap(u, &a, &b)) {
        const base_obb o = rules_model_base(u, &u->models[a]);
        say(w, "%sunit %s of %s: the bases of %s and %s overlap as %s sizes them (%.0fx%.0f mm)", w->found ? "; " : "",
            ru->id, ref_setup_roster_of(s, ui), model_tag(s, &u->models[a], ta, sizeof ta),
            model_tag(s, &u->models[b], tb, sizeof tb), ref_setup_roster_of(s, ui), o.width, o.depth);
        w->found++;
    }
}

/* An issue about a tag the roster does not hold, seen on the board (through the calibration's pose, at the board's
 * level): a tag beside the board (a neighbouring table, a tag sheet) is none of this roster's business. */
static bool unknown_on_board(const ref_setup *s, const vis_camera *cam, const vis_issue *is)
{
    double at[3];
    return is->kind == VIS_ISSUE_UNKNOWN_ID && !isnan(is->px[0]) && vis_camera_pixel_to_plane(cam, is->px, 4, at) &&
           at[0] >= 0 && at[1] >= 0 && at[0] <= s->roster->board_width && at[1] <= s->roster->board_depth;
}

/* Tags read on the board that the roster does not hold (vision ignored them): said, their IDs listed while they
 * fit. */
static void unknown_tags(const ref_setup *s, const vis_report *rep, fit_words *w)
{
    vis_camera cam;
    vis_camera_init(&cam, &s->calib);
    size_t n = 0;
    for (size_t i = 0; i < rep->n; i++)
        n += unknown_on_board(s, &cam, &rep->items[i]);
    if (!n)
        return;
    say(w, "%s%zu tag%s read on the board that %s does not hold (", w->found ? "; " : "", n, n == 1 ? "" : "s",
        s->roster_path);
    size_t listed = 0;
    for (size_t i = 0; i < rep->n && listed < 12; i++)
        if (unknown_on_board(s, &cam, &rep->items[i]))
            say(w, "%s%d", listed++ ? ", " : "", rep->items[i].tag_id);
    say(w, "%s)", n > listed ? ", ..." : "");
    w->found += n;
}

void ref_roster_fit(const ref_setup *s, const rules_snapshot *snap, const vis_report *rep, const char *picture,
                    ref_check_result *out)
{
    const ref_check_rule *rule = &ref_check_rules[REF_CHECK_ROSTER_FIT];
    char found[sizeof out->msg - 400];
    fit_words w = {found, sizeof found, 0, 0};
    found[0] = 0;
    size_t most = 1;
    for (size_t i = 0; i < snap->n_units; i++)
        most = snap->units[i].n_models > most ? snap->units[i].n_models : most;
    size_t *parent = malloc(most * sizeof *parent);
    const bool measured = parent != NULL;
    for (size_t i = 0; parent && i < s->roster->n_units; i++) {
        const rules_unit *u = rules_snapshot_find_unit(snap, s->roster->units[i].id);
        if (u)
            fit_unit(s, i, u, parent, &w);
    }
    free(parent);
    unknown_tags(s, rep, &w);
    out->id = REF_CHECK_ROSTER_FIT;
    out->measured = measured;
    out->value = (double)w.found;
    out->ok = !out->measured || !(out->value > rule->limit);
    out->where[0] = 0;
    if (!out->ok)
        snprintf(out->msg, sizeof out->msg,
                 "%s: the roster does not describe this table: %s. Is %s the roster of this table (another list of "
                 "the same army?), and its units' tags on their models?",
                 picture, found, s->roster_path);
    else
        snprintf(out->msg, sizeof out->msg, "%s: %s %.0f", picture, rule->name, out->value);
}
