/* The judge's part of the tracker (watch_tracker.h): rulings on calls, undo, the last call, statuses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_judge.h"
#include "watch_tracker_int.h"

/* The call on `move` (0: the latest still in the history), or NULL with *why set. */
static call_record *find_call(watch_tracker *w, int move, int *move_out, const char **why)
{
    const char *dummy;
    why = why ? why : &dummy;
    if (move == 0) {
        move = w->n_hist >= 2 ? w->hist[w->n_hist - 1].move : 0;
        if (move <= 0) {
            *why = "no call has been made yet";
            return NULL;
        }
    }
    if (move < 0 || (size_t)move >= w->cap_calls || !w->calls[move].made) {
        *why = "no such move";
        return NULL;
    }
    if (w->calls[move].undone) {
        *why = "that move was undone";
        return NULL;
    }
    *move_out = move;
    return &w->calls[move];
}

int watch_tracker_overrule(watch_tracker *w, int move, const char **why)
{
    int m = 0;
    call_record *c = find_call(w, move, &m, why);
    if (!c)
        return 0;
    c->ruling = WATCH_RULING_OVERRULED;
    return m;
}

int watch_tracker_confirm(watch_tracker *w, int move, const char **why)
{
    int m = 0;
    call_record *c = find_call(w, move, &m, why);
    if (!c)
        return 0;
    c->ruling = WATCH_RULING_CONFIRMED;
    return m;
}

watch_call_ruling watch_tracker_ruling(const watch_tracker *w, int move)
{
    return move > 0 && (size_t)move < w->cap_calls ? w->calls[move].ruling : WATCH_RULING_NONE;
}

int watch_tracker_illegal_standing(const watch_tracker *w)
{
    int n = 0;
    for (size_t m = 1; m < w->cap_calls; m++) {
        const call_record *c = &w->calls[m];
        n += c->made && c->illegal && !c->undone && c->ruling != WATCH_RULING_OVERRULED;
    }
    return n;
}

int watch_tracker_undo(watch_tracker *w)
{
    if (w->n_hist < 2)
        return 0;
    entry *top = &w->hist[--w->n_hist];
    int m = top->move;
    if (m > 0 && (size_t)m < w->cap_calls)
        w->calls[m].undone = true;
    watch_tracker_entry_clear(top);
    /* Judge the next settle against the restored snapshot; the table itself
     * has not changed yet, so wait for motion first. */
    w->state = WATCH_TRACKER_SETTLED;
    return m;
}

int watch_tracker_last_call(const watch_tracker *w, const rules_snapshot **before, const rules_snapshot **after,
                        const rules_report **report)
{
    if (w->n_hist < 2)
        return 0;
    const entry *top = &w->hist[w->n_hist - 1];
    if (before)
        *before = w->hist[w->n_hist - 2].read->snap;
    if (after)
        *after = top->read->snap;
    if (report)
        *report = &top->report;
    return top->move;
}

int watch_tracker_set_status(watch_tracker *w, const char *unit_id, unsigned bits, base_error *err)
{
    const rules_snapshot *now = watch_tracker_snapshot(w);
    if (!now || !rules_snapshot_find_unit(now, unit_id)) {
        bool known = false;
        for (size_t i = 0; i < w->roster->n_units && !known; i++)
            known = strcmp(w->roster->units[i].id, unit_id) == 0;
        if (!known)
            return base_error_set(err, "no unit '%s' in the roster", unit_id);
    }
    size_t i = 0;
    while (i < w->n_statuses && strcmp(w->statuses[i].unit, unit_id) != 0)
        i++;
    if (i == w->n_statuses) {
        unit_status *a = realloc(w->statuses, (w->n_statuses + 1) * sizeof *a);
        if (!a)
            return base_error_set(err, "out of memory");
        w->statuses = a;
        ref_status *refs = realloc(w->status_refs, (w->n_statuses + 1) * sizeof *refs);
        if (!refs)
            return base_error_set(err, "out of memory");
        w->status_refs = refs;
        snprintf(a[w->n_statuses].unit, sizeof a[w->n_statuses].unit, "%s", unit_id);
        w->n_statuses++;
    }
    w->statuses[i].bits = bits;
    for (size_t k = 0; k < w->n_statuses; k++) /* the referee's view: the units point into `statuses` */
        w->status_refs[k] = (ref_status){w->statuses[k].unit, w->statuses[k].bits};
    /* The table as it stands now carries it too: the next move is judged from it. */
    if (w->n_hist)
        ref_statuses_apply(w->status_refs, w->n_statuses, w->hist[w->n_hist - 1].read->snap);
    return 0;
}

/* The roster's unit, as a snapshot's unit with its dice (to check a roll against). -1 with err when none. */
static int roster_unit_dice(const watch_tracker *w, const char *unit_id, rules_unit *out, base_error *err)
{
    for (size_t i = 0; i < w->roster->n_units; i++) {
        const roster_unit *ru = &w->roster->units[i];
        if (strcmp(ru->id, unit_id) != 0)
            continue;
        /* The roster reader caps a unit's id at the snapshot's size; a longer one is refused, not cut. */
        const size_t len = strlen(ru->id);
        if (len >= sizeof out->id)
            return base_error_set(err, "the roster's unit id '%.32s...' is longer than a snapshot's unit id",
                                  ru->id);
        memset(out, 0, sizeof *out);
        memcpy(out->id, ru->id, len + 1);
        snprintf(out->advance_dice, sizeof out->advance_dice, "%s", ru->advance_dice);
        snprintf(out->march_dice, sizeof out->march_dice, "%s", ru->march_dice);
        return 0;
    }
    return base_error_set(err, "no unit '%s' in the roster", unit_id);
}

/* The latest standing call's entry, when its report needs the roll of `unit_id`; else NULL. */
static entry *call_needing_roll(watch_tracker *w, const char *unit_id)
{
    if (w->n_hist < 2)
        return NULL;
    entry *top = &w->hist[w->n_hist - 1];
    const rules_unit_report *ur = rules_report_find_unit(&top->report, unit_id);
    if (top->move <= 0 || (size_t)top->move >= w->cap_calls || w->calls[top->move].undone || !ur || !ur->needs_roll)
        return NULL;
    return top;
}

int watch_tracker_roll(watch_tracker *w, const char *unit_id, double roll_mm, base_error *err)
{
    rules_unit check;
    if (roster_unit_dice(w, unit_id, &check, err) < 0 || rules_unit_declare_roll(&check, roll_mm, err) < 0)
        return -1;
    entry *top = call_needing_roll(w, unit_id);
    if (!top) { /* held for its next move: one roll per unit, the latest declared */
        size_t i = 0;
        while (i < w->n_rolls && strcmp(w->rolls[i].unit, unit_id) != 0)
            i++;
        if (i == w->n_rolls) {
            unit_roll *a = realloc(w->rolls, (w->n_rolls + 1) * sizeof *a);
            if (!a)
                return base_error_set(err, "out of memory");
            w->rolls = a;
            snprintf(a[w->n_rolls++].unit, sizeof a->unit, "%s", unit_id);
        }
        w->rolls[i].roll_mm = roll_mm;
        return 0;
    }
    /* The move that needed it, judged again as the settle judged it, against the roll. */
    rules_snapshot *before = w->hist[w->n_hist - 2].read->snap;
    rules_unit *bu = rules_snapshot_find_unit(before, unit_id);
    if (!bu || rules_unit_declare_roll(bu, roll_mm, err) < 0)
        return bu ? -1 : base_error_set(err, "unit '%s' is not in the move's before picture", unit_id);
    ref_judge_options jo;
    ref_judge_options_default(&jo);
    jo.check = w->cfg.check;
    jo.jitter_mm = w->cfg.jitter_mm;
    ref_judgement judged;
    ref_judgement_init(&judged);
    const int rc = ref_judge(before, top->read->snap, &jo, &judged, err);
    bu->roll_mm = NAN; /* used: the report keeps it */
    if (rc < 0)
        return -1;
    rules_report_clear(&top->report);
    top->report = judged.report;
    w->calls[top->move].illegal = !top->report.legal;
    return top->move;
}
