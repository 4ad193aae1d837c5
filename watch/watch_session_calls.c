/*
 * watch_session's calls: what a settle, a call, an alert and a judge's
 * command become (stdout, the log and the sinks, the subtitles, what is
 * shown). Evidence clips and the overlay picture are asked for here, at the
 * call (watch_session_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_text.h"
#include "rules_json.h"
#include "ref_judge.h"
#include "watch_session_int.h"

/* The first settle: the table as it stands. */
static void on_first(watch_session *s, const watch_tracker_result *r, double t)
{
    size_t models = 0;
    for (size_t u = 0; u < r->after->n_units; u++)
        models += r->after->units[u].n_models;
    printf("[%8.1f s] table settled: %zu units, %zu models; watching\n", t / 1000, r->after->n_units, models);
    fflush(stdout);
    char text[128];
    snprintf(text, sizeof text, "Table settled: %zu units. Watching.", r->after->n_units);
    watch_session_cue(s, t, text);
}

/* "clip": where the evidence clip of this call is written (and "clip_url" with --clip-url); nothing when none. */
static void add_clip(const watch_session *s, cJSON *ev, const char *clip)
{
    if (!clip[0])
        return;
    cJSON_AddStringToObject(ev, "clip", clip);
    if (s->cfg.clip_url) {
        const char *slash = strrchr(clip, '/'), *name = slash ? slash + 1 : clip;
        char url[2048];
        size_t n = strlen(s->cfg.clip_url);
        snprintf(url, sizeof url, "%s%s%s", s->cfg.clip_url, n && s->cfg.clip_url[n - 1] == '/' ? "" : "/", name);
        cJSON_AddStringToObject(ev, "clip_url", url);
    }
}

/* One alert per unit with an illegal call. */
static void alert_unit(watch_session *s, const watch_tracker_result *r, const rules_unit_report *u,
                       const char *sentence, const char *clip, long frame, double t)
{
    cJSON *al = watch_log_event_new("alert", t, frame);
    if (al) {
        cJSON_AddNumberToObject(al, "move", r->move);
        cJSON_AddStringToObject(al, "unit", u->unit_id);
        cJSON *codes = cJSON_AddArrayToObject(al, "codes");
        for (size_t k = 0; codes && k < u->n_violations; k++)
            cJSON_AddItemToArray(codes, cJSON_CreateString(u->violations[k].code));
        cJSON_AddStringToObject(al, "sentence", sentence);
        add_clip(s, al, clip);
    }
    watch_session_emit(s, al);
    char line[RULES_WORDS_MAX + 32];
    snprintf(line, sizeof line, "ALERT move %d: %s", r->move, sentence);
    watch_session_say(t, "%s", line);
}

/* An ILLEGAL or CANNOT TELL call is worth a clip a judge can replay. */
static bool needs_evidence(const rules_report *rep)
{
    for (size_t i = 0; i < rep->n_units; i++)
        if (rep->units[i].verdict == RULES_VERDICT_ILLEGAL || rep->units[i].verdict == RULES_VERDICT_CANNOT_TELL)
            return true;
    return false;
}

/* A judged move: the call on stdout, in the log, as alerts and as a cue. */
static void on_call(watch_session *s, const watch_tracker_result *r, long frame, double t)
{
    s->calls++;
    base_error ignored;
    watch_show_set_reach(s->show, NULL, NULL, &ignored);  /* a reach is shown before a move, not after */
    char clip[1100] = "";
    if (needs_evidence(r->report) && watch_session_record_clip(s, r->move, t, clip, sizeof clip) < 0)
        clip[0] = 0;
    cJSON *ev = watch_log_event_new("move_checked", t, frame);
    if (ev) {
        watch_log_add_call(ev, r->move, r->report, r->before, r->after);
        watch_session_feed_add_distances(ev, r->report);
        add_clip(s, ev, clip);
        base_json_add_number(ev, "check_ms", r->check_ms, 2);
        cJSON *after = rules_json_from_snapshot(r->after);
        if (after)
            cJSON_AddItemToObject(ev, "snapshot", after);
    }
    watch_session_emit(s, ev);
    char text[4096];
    size_t off = 0;
    for (size_t i = 0; i < r->report->n_units; i++) {
        const rules_unit_report *u = &r->report->units[i];
        char sentence[RULES_WORDS_MAX], line[RULES_WORDS_MAX + 32];
        watch_log_unit_sentence(u, r->before, r->after, sentence, sizeof sentence);
        snprintf(line, sizeof line, "move %d: %s", r->move, sentence);
        watch_session_say(t, "%s", line);
        if (off < sizeof text)
            off += (size_t)snprintf(text + off, sizeof text - off, "%sMove %d: %s", off ? "\n" : "", r->move, sentence);
        if (u->verdict == RULES_VERDICT_ILLEGAL)
            alert_unit(s, r, u, sentence, clip, frame, t);
    }
    watch_session_cue(s, t, text);
    s->show_move = r->move;
    s->showing = true;
    s->picture_move = r->move;
}

/* Announces a settle and, when a unit moved, the call. */
/* Once per game: the camera's exposure leaves no room for the projector's white on the tags. */
static void warn_white_clips(watch_session *s, const watch_tracker_result *r, long frame, double t)
{
    if (!r->white_clips || s->warned_white_clips || !(s->cfg.projector || s->cfg.project))
        return; /* nothing is projected: nothing to clip */
    s->warned_white_clips = true;
    char msg[256];
    snprintf(msg, sizeof msg,
             "the tags' white paper is at %.0f/255: projected white would clip it and the tags under the "
             "light could not be read (lower the camera's exposure, dim the projector, or keep the light off the "
             "tags)",
             r->paper_level);
    fprintf(stderr, "tableref watch: exposure: %s\n", msg);
    cJSON *e = watch_log_event_new("warning", t, frame);
    if (e) {
        cJSON_AddStringToObject(e, "what", "exposure");
        cJSON_AddStringToObject(e, "message", msg);
        base_json_add_number(e, "paper_level", r->paper_level, 1);
    }
    watch_session_emit(s, e);
}

void watch_session_on_settled(watch_session *s, const watch_tracker_result *r, long frame, double t)
{
    warn_white_clips(s, r, frame, t);
    cJSON *ev = watch_log_event_new("settled", t, frame);
    if (ev) {
        cJSON_AddNumberToObject(ev, "tags_seen", (double)r->tags_seen);
        cJSON_AddNumberToObject(ev, "tags_missing", (double)r->tags_missing);
        cJSON_AddNumberToObject(ev, "models_read", (double)r->models_read);
        cJSON_AddBoolToObject(ev, "full_frame", r->full_frame);
        base_json_add_number(ev, "detect_ms", r->detect_ms, 1);
        cJSON_AddBoolToObject(ev, "first", r->first);
        cJSON_AddBoolToObject(ev, "moved", r->moved);
        if (r->note[0])
            cJSON_AddStringToObject(ev, "note", r->note);
        if (r->first && r->after) {
            cJSON *snap = rules_json_from_snapshot(r->after);
            if (snap)
                cJSON_AddItemToObject(ev, "snapshot", snap);
        }
    }
    watch_session_emit(s, ev);
    if (r->first)
        on_first(s, r, t);
    else if (r->moved)
        on_call(s, r, frame, t);
    else if (!s->cfg.quiet)
        fprintf(stderr, "[%8.1f s] %s\n", t / 1000, r->note[0] ? r->note : "settled: no unit moved");
    s->generation++;
}

/*
 * "reach UNIT": where the unit can end its March (or Advance) on the table
 * as last settled, drawn on the video and the projector until it moves or is
 * cleared. Returns 0, or -1 with why.
 */
static int show_reach(watch_session *s, const watch_command *c, char *why, size_t cap)
{
    base_error err;
    if (!c->unit[0]) {
        watch_show_set_reach(s->show, NULL, NULL, &err);  /* clearing cannot fail */
        return 0;
    }
    const rules_snapshot *table = watch_tracker_snapshot(s->tracker);
    const rules_unit *u = table ? rules_snapshot_find_unit(table, c->unit) : NULL;
    if (!u) {
        snprintf(why, cap, "%s", table ? "no such unit on the table" : "the table has not settled yet");
        return -1;
    }
    rules_reach r;
    if (ref_judge_reach(table, c->unit, c->reach_move, &r, &err) < 0) {
        snprintf(why, cap, "%s", err.msg);
        return -1;
    }
    int rc = watch_show_set_reach(s->show, &r, u->side, &err);
    rules_reach_clear(&r);
    if (rc < 0)
        snprintf(why, cap, "%s", err.msg);
    return rc;
}

/* A string member that is valid UTF-8 whatever bytes arrived (a judge's name, reason or line from the
 * network): invalid bytes written as "\xNN", so the log stays valid JSON text. */
static void add_text(cJSON *ev, const char *key, const char *text)
{
    if (base_text_valid(text, strlen(text))) {
        cJSON_AddStringToObject(ev, key, text);
        return;
    }
    char *clean = base_text_escape_invalid(text);
    cJSON_AddStringToObject(ev, key, clean ? clean : "(out of memory)");
    free(clean);
}

/* The command in the session's log: what was asked, by whom, whether it was applied and, if not, why. */
static void log_correction(watch_session *s, const watch_command *c, int m, bool applied, const char *why, long frame,
                           double t)
{
    cJSON *ev = watch_log_event_new("correction", t, frame);
    if (ev) {
        cJSON_AddStringToObject(ev, "action", watch_cmd_word(c->action));
        cJSON_AddNumberToObject(ev, "move", m);
        cJSON_AddBoolToObject(ev, "applied", applied);
        if (c->action == WATCH_CMD_REACH) {
            add_text(ev, "unit", c->unit);
            if (c->unit[0])
                cJSON_AddStringToObject(ev, "reach_move", rules_move_token(c->reach_move));
        }
        if (c->action == WATCH_CMD_ROLL) {
            add_text(ev, "unit", c->unit);
            base_json_add_number(ev, "roll_in", c->roll_in, 2);
        }
        if (c->action == WATCH_CMD_STATUS) {
            add_text(ev, "unit", c->unit);
            cJSON *words = cJSON_AddArrayToObject(ev, "status");
            for (unsigned bit = 1; words && bit && bit <= c->status; bit <<= 1)
                if ((c->status & bit) && rules_status_word(bit))
                    cJSON_AddItemToArray(words, cJSON_CreateString(rules_status_word(bit)));
        }
        add_text(ev, "by", c->by);
        if (c->reason[0])
            add_text(ev, "reason", c->reason);
        if (c->id[0])
            add_text(ev, "id", c->id);
        if (why)
            add_text(ev, "why_not", why);
        if (c->action == WATCH_CMD_INVALID)
            add_text(ev, "line", c->line);
        if (c->refused_count > 0)
            cJSON_AddNumberToObject(ev, "refused_count", (double)c->refused_count);
    }
    watch_session_emit(s, ev);
}

/* The command said back to the table (and cued on the screen when applied). */
static void say_correction(watch_session *s, const watch_command *c, int m, bool status_set, bool applied,
                           const char *why, double t)
{
    char text[512];
    static const char *done[] = {"", "overruled: the move stands", "confirmed", "undone"};
    if (c->action == WATCH_CMD_ROLL && applied)
        snprintf(text, sizeof text, "Judge (%s): %s rolled %.2f\"%s%s%s%s.", c->by, c->unit, c->roll_in,
                 m ? ": move judged again by it" : ": held for its next move", c->reason[0] ? " (" : "", c->reason,
                 c->reason[0] ? ")" : "");
    else if (status_set) {
        char words[96] = "without status";
        for (unsigned bit = 1, off = 0; bit && bit <= c->status; bit <<= 1)
            if ((c->status & bit) && rules_status_word(bit) && off < sizeof words)
                off += (unsigned)snprintf(words + off, sizeof words - off, "%s%s", off ? ", " : "",
                                          rules_status_word(bit));
        snprintf(text, sizeof text, "Judge (%s): %s is now %s%s%s.", c->by, c->unit, words, c->reason[0] ? ": " : "",
                 c->reason);
    }
    else if (m && c->action != WATCH_CMD_ROLL)
        snprintf(text, sizeof text, "Judge (%s): move %d %s%s%s.", c->by, m, done[c->action], c->reason[0] ? ": " : "",
                 c->reason);
    else
        snprintf(text, sizeof text, "Judge (%s): '%s' not applied: %s.", c->by, c->line, why ? why : "?");
    watch_session_say(t, "%s", text);
    if (applied)
        watch_session_cue(s, t, text);
}

/* One field made valid UTF-8 in place (invalid bytes as "\xNN", cut on a character boundary). */
static void clean_field(char *field, size_t cap)
{
    base_text_trim_cut(field); /* a fixed-size copy upstream may have split the last character */
    if (base_text_valid(field, strlen(field)))
        return;
    char *clean = base_text_escape_invalid(field);
    if (clean)
        base_text_copy(field, cap, clean);
    free(clean);
}

/* "roll UNIT INCHES": the latest call, when it needs that roll, judged again (its move number); else the roll held
 * for the unit's next move (0). -1 with why. */
static int declare_roll(watch_session *s, const watch_command *c, char *why, size_t cap)
{
    base_error err;
    int m = watch_tracker_roll(s->tracker, c->unit, base_in_to_mm(c->roll_in), &err);
    if (m < 0)
        snprintf(why, cap, "%s", err.msg);
    return m;
}

/* The call judged again by a roll, said anew (after the roll that made it: the log reads in order). */
static void say_call_again(watch_session *s, long frame, double t)
{
    watch_tracker_result r = {.settled = true, .moved = true};
    r.move = watch_tracker_last_call(s->tracker, &r.before, &r.after, &r.report);
    if (r.move > 0)
        on_call(s, &r, frame, t);
}

/* Applies one judge's command and records it (applied or not, and why). */
static void apply_command(watch_session *s, const watch_command *raw, long frame, double t)
{
    /* What came from the network goes into the log, the subtitles and on screen: valid UTF-8 only. */
    watch_command clean = *raw;
    const watch_command *c = &clean;
    clean_field(clean.by, sizeof clean.by);
    clean_field(clean.reason, sizeof clean.reason);
    clean_field(clean.line, sizeof clean.line);
    clean_field(clean.id, sizeof clean.id);
    clean_field(clean.error, sizeof clean.error);
    clean_field(clean.unit, sizeof clean.unit);
    int m = 0;
    const char *why = NULL;
    bool status_set = false;
    char status_why[BASE_ERROR_MAX];
    switch (c->action) {
    case WATCH_CMD_STOP: s->stop_requested = true; break;
    case WATCH_CMD_OVERRULE: m = watch_tracker_overrule(s->tracker, c->move, &why); break;
    case WATCH_CMD_CONFIRM: m = watch_tracker_confirm(s->tracker, c->move, &why); break;
    case WATCH_CMD_UNDO:
        if (!(m = watch_tracker_undo(s->tracker)))
            why = "nothing to undo";
        s->showing = false;
        break;
    case WATCH_CMD_STATUS: {
        base_error err;
        if (watch_tracker_set_status(s->tracker, c->unit, c->status, &err) == 0)
            status_set = true;
        else
            snprintf(status_why, sizeof status_why, "%s", err.msg), why = status_why;
        break;
    }
    case WATCH_CMD_REACH:
        if (show_reach(s, c, status_why, sizeof status_why) == 0)
            status_set = true;
        else
            why = status_why;
        break;
    case WATCH_CMD_ROLL:
        if ((m = declare_roll(s, c, status_why, sizeof status_why)) < 0)
            why = status_why, m = 0;
        else
            status_set = true;
        break;
    case WATCH_CMD_INVALID: why = c->error; break;
    }
    const bool applied = m != 0 || c->action == WATCH_CMD_STOP || status_set;
    s->generation++;
    log_correction(s, c, m, applied, why, frame, t);
    if (c->action == WATCH_CMD_STOP)
        return;
    say_correction(s, c, m, status_set, applied, why, t);
    if (c->action == WATCH_CMD_ROLL && m > 0)
        say_call_again(s, frame, t);
    if (c->action == WATCH_CMD_INVALID)
        fprintf(stderr, "tableref watch: %s: %s\n", c->by, c->error);
}

void watch_session_poll_commands(watch_session *s, long frame, double t)
{
    watch_command c;
    while (watch_control_poll(s->control, &c) == 1)
        apply_command(s, &c, frame, t);
}

