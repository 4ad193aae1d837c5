/*
 * ov_scene_words: one unit's labels (its verdict, the models that matter,
 * each model's distance in its base, its sentences) and its part of the
 * report's text; and ov_sc_add_unit, which puts a unit's marks and words
 * into the scene. The path's words and every +/- are rules_words' (the
 * terminal, the report's JSON, the event log and the venue feed print the
 * same figures, and leave out the same tiny steps).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ov_unit_int.h"
#include "rules_words.h"

/* More models than this in one state (broke a rule, or cannot tell) and only the farthest of them gets a
 * pill, naming how many others share it: the others keep their X and their number in the base. */
#define MAX_MODEL_PILLS 3

/* How many models of the unit are in state s, and which of them went farthest (index into u->ua). */
static size_t count_state(const unit_ctx *u, model_state s, size_t *worst)
{
    size_t n = 0;
    double far = -1;
    for (size_t i = 0; i < u->ua->n_models; i++) {
        const rules_model_move *mm = ovu_model_move(u->ur, u->ua->models[i].id);
        if (!mm || ovu_state_of(u, u->ua->models[i].id) != s)
            continue;
        n++;
        if (mm->distance_mm > far)
            far = mm->distance_mm, *worst = i;
    }
    return n;
}

/* Labels of the models that matter; every other model's distance written in its base (FULL). */
static void model_labels(unit_ctx *u)
{
    const rules_unit_report *ur = u->ur;
    size_t worst[3] = {0, 0, 0}, n_state[3] = {0, 0, 0};
    for (int s = M_UNSURE; s <= M_BAD; s++)
        n_state[s] = count_state(u, (model_state)s, &worst[s]);
    for (size_t i = 0; i < u->ua->n_models; i++) {
        const rules_model *m = &u->ua->models[i];
        const rules_model_move *mm = ovu_model_move(ur, m->id);
        if (!mm)
            continue;
        model_state s = ovu_state_of(u, m->id);
        bool is_far = u->far >= 0 && strcmp(ur->models[u->far].id, m->id) == 0;
        bool key = s != M_FINE || is_far || ovu_over_limit(u, mm);
        bool crowd = s != M_FINE && n_state[s] > MAX_MODEL_PILLS;
        if (crowd && i != worst[s])
            key = false;
        base_obb b = rules_model_base(u->ua, m);
        if (key) {
            char d[64];
            rules_words_length(mm->distance_mm, ovu_model_pm(u, m->id), d, sizeof d);
            ov_label *l = ovu_label(u, OV_LABEL_PILL, "", m->pos, s == M_FINE ? P_FAR : P_BAD, ovu_state_ink(u, s));
            if (!l)
                continue;
            const char *mark = s == M_BAD ? "\xE2\x9C\x97 " : s == M_UNSURE ? "? " : "";
            const char *tail = mm->inferred ? " (not seen)" : "";
            if (s == M_FINE)
                l->text = ov_sc_strf(u->sc, "farthest %s%s", d, tail);
            else if (crowd)
                l->text = ov_sc_strf(u->sc, "%s%s%s (%zu models)", mark, d, tail, n_state[s]);
            else
                l->text = ov_sc_strf(u->sc, "%s%s%s", mark, d, tail);
            l->clear_mm = 0.5 * fmin(b.width, b.depth);
        } else if (!u->brief) {
            char d[24];
            snprintf(d, sizeof d, "%.2f", base_mm_to_in(mm->distance_mm));
            ov_label *l = ovu_label(u, OV_LABEL_NUMBER, d, m->pos, 0, OV_INK_NEUTRAL);
            if (l)
                l->size = OV_SIZE_SMALL, l->base = b;
        }
    }
}

static void headline(unit_ctx *u)
{
    const rules_unit_report *ur = u->ur;
    const rules_formation *f = u->have_fa ? &u->fa : u->have_fb ? &u->fb : NULL;
    if (!f)
        return;
    ov_label *l = ovu_label(u, OV_LABEL_PILL, "", f->centre, P_HEADLINE, u->ink);
    if (!l)
        return;
    switch (ur->verdict) {
    case RULES_VERDICT_NOT_SEEN:
        l->text = ov_sc_strf(u->sc, "%s \xC2\xB7 not seen, cannot judge", ur->unit_id);
        break;
    default:
        l->text = ov_sc_strf(u->sc, "%s %s \xC2\xB7 %s \xC2\xB7 %s",
                             ur->verdict == RULES_VERDICT_LEGAL     ? "\xE2\x9C\x93"
                             : ur->verdict == RULES_VERDICT_ILLEGAL ? "\xE2\x9C\x97"
                                                                    : "?",
                             ur->unit_id, rules_words_move_title(ur->move), rules_words_call_title(ur));
        break;
    }
    l->size = OV_SIZE_HEADLINE;
    l->clear_mm = 0.5 * fmin(f->boundary.width, f->boundary.depth);
}

/* The sentences, on the table beside the unit (camera and projector; the report has them in its text). */
static void sentence_box(unit_ctx *u)
{
    const rules_unit_report *ur = u->ur;
    const rules_formation *f = u->have_fa ? &u->fa : u->have_fb ? &u->fb : NULL;
    if (!f || ur->verdict == RULES_VERDICT_LEGAL)
        return;
    char text[1400];
    size_t off = 0;
    if (ur->verdict == RULES_VERDICT_CANNOT_TELL || ur->verdict == RULES_VERDICT_NOT_SEEN) {
        off += (size_t)snprintf(text, sizeof text, "%s%s%s",
                                ur->verdict == RULES_VERDICT_NOT_SEEN ? "Not seen, cannot judge" : "Cannot tell",
                                ur->why[0] ? ": " : ".", ur->why);
    } else {
        for (size_t i = 0; i < ur->n_violations && off < sizeof text; i++)
            off += (size_t)snprintf(text + off, sizeof text - off, "%s%s", off ? "\n" : "", ur->violations[i].message);
    }
    if (!off)
        return;
    ov_label *l = ovu_label(u, OV_LABEL_BOX, text, f->centre, P_BOX, u->ink);
    if (l)
        l->size = OV_SIZE_BODY, l->clear_mm = 0.5 * fmax(f->boundary.width, f->boundary.depth);
}

/* ---- the report's words ---- */

static void report_words(unit_ctx *u)
{
    const rules_unit_report *ur = u->ur;
    ov_scene *sc = u->sc;
    ov_paint ink = ov_paint_of(u->ink, 1), none = ov_paint_of(OV_INK_NEUTRAL, 1);
    char badge[48], head[600], path[400], lim[24];
    snprintf(badge, sizeof badge, "%s %s",
             ur->verdict == RULES_VERDICT_LEGAL     ? "\xE2\x9C\x93"
             : ur->verdict == RULES_VERDICT_ILLEGAL ? "\xE2\x9C\x97"
             : ur->verdict == RULES_VERDICT_CANNOT_TELL ? "?" : "\xE2\x80\x94",
             rules_words_call_title(ur));
    rules_words_path(ur, path, sizeof path); /* the steps worth reading: one rule everywhere */
    ov_fmt_in(lim, sizeof lim, u->limit_mm);
    int n = snprintf(head, sizeof head, "%s (%s): %s%s", ur->unit_id, ur->side, rules_words_move_title(ur->move),
                     ur->declared ? " (declared)" : " (inferred from the positions)");
    if (isfinite(u->limit_mm) && n > 0 && (size_t)n < sizeof head)
        n += snprintf(head + n, sizeof head - (size_t)n, ", %s %s", u->limit_name, lim);
    if (path[0] && n > 0 && (size_t)n < sizeof head) {
        char len[24];
        ov_fmt_in(len, sizeof len, ur->path.length_mm);
        snprintf(head + n, sizeof head - (size_t)n, ". Shortest legal path %s: %s.", len, path);
    } else if (n > 0 && (size_t)n < sizeof head) {
        snprintf(head + n, sizeof head - (size_t)n, ".");
    }
    ov_sc_block(sc, OV_BLOCK_VERDICT, ink, head, badge);
    if (ur->verdict == RULES_VERDICT_CANNOT_TELL)
        ov_sc_block(sc, OV_BLOCK_WARN, ink, ur->why[0] ? ur->why : "within the measurement's uncertainty", "Cannot tell: ");
    else if (ur->verdict == RULES_VERDICT_NOT_SEEN)
        ov_sc_block(sc, OV_BLOCK_WARN, ink, ur->why[0] ? ur->why : "the camera did not see it", "Not seen, cannot judge: ");
    if (ur->n_models) {
        ov_sc_block(sc, OV_BLOCK_HEADROW, none, "model\tmoved\t\xC2\xB1 (2\xCF\x83)\tcall", NULL);
        for (size_t i = 0; i < ur->n_models; i++) {
            const rules_model_move *mm = &ur->models[i];
            model_state s = ovu_state_of(u, mm->id);
            double pm = ovu_model_pm(u, mm->id);
            char d[24], p[24] = "", call[64];
            ov_fmt_in(d, sizeof d, mm->distance_mm);
            if (isfinite(pm))
                ov_fmt_in(p, sizeof p, pm);
            bool over = ovu_over_limit(u, mm);
            snprintf(call, sizeof call, "%s%s%s",
                     s == M_BAD ? "\xE2\x9C\x97 broke a rule" : s == M_UNSURE ? "? cannot tell" : over ? "over" : "\xE2\x9C\x93",
                     (long)i == u->far ? ", farthest" : "", mm->inferred ? ", not seen" : "");
            char row[200];
            snprintf(row, sizeof row, "%s\t%s\t%s\t%s", mm->id, d, p, call);
            ov_sc_block(sc, OV_BLOCK_ROW, ov_paint_of(ovu_state_ink(u, s), 1), row, NULL);
        }
    }
    for (size_t i = 0; i < ur->n_violations; i++) {
        const rules_violation *v = &ur->violations[i];
        double pm = rules_pm_violation(&u->pm, u->before, u->after, ur, v);
        char meas[96] = "", line[RULES_TEXT_MAX + 200];
        if (v->quantity == RULES_QTY_LENGTH) {
            char a[48], b[24];
            rules_words_length(v->measured, pm, a, sizeof a);
            ov_fmt_in(b, sizeof b, v->limit);
            snprintf(meas, sizeof meas, " [%s vs %s]", a, b);
        } else if (v->quantity == RULES_QTY_ANGLE) {
            snprintf(meas, sizeof meas, " [%.1f\xC2\xB0 vs %.1f\xC2\xB0]", base_rad_to_deg(v->measured),
                     base_rad_to_deg(v->limit));
        }
        bool sure = ur->verdict == RULES_VERDICT_ILLEGAL;
        snprintf(line, sizeof line, "%s %s: %s%s%s", sure ? "\xE2\x9C\x97" : "?", v->code, v->message, meas,
                 sure ? "" : " (under some placements only)");
        ov_sc_block(sc, OV_BLOCK_WARN, ov_paint_of(sure ? OV_INK_ILLEGAL : OV_INK_UNSURE, 1), line, NULL);
    }
    for (size_t i = 0; i < ur->n_notes; i++)
        ov_sc_block(sc, OV_BLOCK_NOTE, none, ur->notes[i], NULL);
    const rules_suggestion *sg = &ur->suggestion;
    if (ur->verdict == RULES_VERDICT_ILLEGAL && sg->text[0]) {
        char line[RULES_TEXT_MAX + 64];
        snprintf(line, sizeof line, "Nearest legal move: %s%s", sg->text,
                 sg->found && !sg->remove ? " (drawn dashed)." : ".");
        ov_sc_block(sc, OV_BLOCK_LINE, ov_paint_of(OV_INK_NEUTRAL, 1), line, NULL);
    }
}

void ov_sc_add_unit(ov_scene *sc, const rules_snapshot *before, const rules_snapshot *after,
                    const rules_unit_report *ur, const rules_ruleset *rs)
{
    const ov_options *o = &sc->opt;
    unit_ctx u;
    memset(&u, 0, sizeof u);
    u.sc = sc, u.before = before, u.after = after, u.ur = ur, u.rs = rs;
    u.ub = before ? rules_snapshot_find_unit(before, ur->unit_id) : NULL;
    u.ua = after ? rules_snapshot_find_unit(after, ur->unit_id) : NULL;
    u.have_fb = u.ub && u.ub->n_models && rules_formation_fit(u.ub, NULL, &u.fb, NULL) == 0;
    u.have_fa = u.ua && u.ua->n_models && rules_formation_fit(u.ua, NULL, &u.fa, NULL) == 0;
    u.side = ov_sc_side(sc, ur->side);
    u.labels = !ov_sc_faded(sc, ur->unit_id);
    u.fade = u.labels ? 1.0 : 0.3;
    u.brief = o->detail == OV_DETAIL_BRIEF;
    rules_pm_params_default(&u.pm);
    if (o->coverage > 0)
        u.pm.coverage = o->coverage;
    if (o->sigma_rough_mm > 0)
        u.pm.sigma_rough_mm = o->sigma_rough_mm;
    if (o->sigma_inferred_mm > 0)
        u.pm.sigma_inferred_mm = o->sigma_inferred_mm;
    u.far = ur->n_models ? 0 : -1;
    for (size_t i = 1; i < ur->n_models; i++)
        if (ur->models[i].distance_mm > ur->models[u.far].distance_mm)
            u.far = (long)i;
    ovu_unit_limit(&u);
    u.ink = ovu_verdict_ink(ur->verdict);
    const bool judged = ur->verdict != RULES_VERDICT_NOT_SEEN;

    if (o->arcs && u.have_fa && judged)
        ovu_arcs(&u);
    if (o->limits && judged)
        ovu_limit_circle(&u);
    if (o->bases && u.ub)
        ovu_before_bases(&u);
    if (o->path && judged)
        ovu_path_marks(&u);
    if (o->bases && u.ua)
        ovu_after_bases(&u);
    if (o->outlines && u.have_fa)
        ovu_outline(&u);
    if (o->arrows && u.ub && u.ua && judged)
        ovu_arrows(&u);
    if (o->gaps && u.have_fa && after && judged)
        ovu_gap(&u);
    if (o->arrows && u.ua && judged)
        model_labels(&u);
    if (o->bases && u.ua)
        ov_sc_add_suggestion(sc, u.ua, ur, u.labels, u.fade);
    headline(&u);
    if (o->legend)
        sentence_box(&u);
    report_words(&u);
}
