#include "venue_payload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "base_geom.h"
#include "rules_json.h"
#include "rules_words.h"

int venue_topic(char *buf, size_t cap, const char *event, int table, const char *leaf)
{
    int n = leaf ? snprintf(buf, cap, VENUE_TOPIC_ROOT "/%s/table/%d/%s", event, table, leaf)
                 : snprintf(buf, cap, VENUE_TOPIC_ROOT "/%s/table/%d", event, table);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

void venue_wall_now(char *buf, size_t cap)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char wall[32];
    strftime(wall, sizeof wall, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, cap, "%s.%03dZ", wall, (int)(tv.tv_usec / 1000));
}

static void add_head(cJSON *o, const char *format, const char *event, int table)
{
    cJSON_AddStringToObject(o, "format", format);
    cJSON_AddNumberToObject(o, "version", VENUE_FORMAT_VERSION);
    cJSON_AddStringToObject(o, "event_name", event);
    cJSON_AddNumberToObject(o, "table", table);
}

char *venue_status_payload(const char *event, int table, bool online, const char *cause, const char *reason,
                           bool will)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_head(o, VENUE_STATUS_FORMAT, event, table);
    cJSON_AddStringToObject(o, "state", online ? "online" : "offline");
    cJSON_AddStringToObject(o, "cause", cause ? cause : "");
    cJSON_AddStringToObject(o, "reason", reason ? reason : "");
    if (will) {
        cJSON_AddBoolToObject(o, "will", true);
    } else {
        char wall[40];
        venue_wall_now(wall, sizeof wall);
        cJSON_AddStringToObject(o, "wall", wall);
    }
    char *text = base_json_print(o, false);
    cJSON_Delete(o);
    return text;
}

char *venue_will_payload(const char *event, int table, int heartbeat_s, int keepalive_s)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_head(o, VENUE_STATUS_FORMAT, event, table);
    cJSON_AddStringToObject(o, "state", "offline");
    cJSON_AddStringToObject(o, "cause", "connection");
    cJSON_AddStringToObject(o, "reason", "the table's watch stopped answering (process or network gone)");
    cJSON_AddBoolToObject(o, "will", true);
    char wall[40];
    venue_wall_now(wall, sizeof wall);
    cJSON_AddStringToObject(o, "connected", wall);
    cJSON_AddNumberToObject(o, "heartbeat_s", heartbeat_s);
    cJSON_AddNumberToObject(o, "keepalive_s", keepalive_s);
    char *text = base_json_print(o, false);
    cJSON_Delete(o);
    return text;
}

cJSON *venue_event_for_feed(const cJSON *ev, int table)
{
    cJSON *copy = cJSON_Duplicate(ev, 1);
    if (!copy)
        return NULL;
    /* The table after the move is in the retained state (units); the events stay small. */
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "snapshot");
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "table");
    cJSON_AddNumberToObject(copy, "table", table);
    return copy;
}

static double number_or(const cJSON *o, const char *key, double fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

/* One unit of a snapshot in brief; NULL when it is not a unit object. */
static cJSON *unit_brief(const cJSON *u)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(u, "id");
    const cJSON *side = cJSON_GetObjectItemCaseSensitive(u, "side");
    const cJSON *models = cJSON_GetObjectItemCaseSensitive(u, "models");
    if (!cJSON_IsString(id) || !cJSON_IsArray(models))
        return NULL;
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "unit", id->valuestring);
    cJSON_AddStringToObject(o, "side", cJSON_IsString(side) ? side->valuestring : "");
    int n = 0, inferred = 0;
    double sx = 0, sy = 0, fx = 0, fy = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, models)
    {
        double x = number_or(m, "x_mm", NAN), y = number_or(m, "y_mm", NAN);
        if (!isfinite(x) || !isfinite(y))
            continue;
        double f = base_deg_to_rad(number_or(m, "facing_deg", 0));
        n++;
        sx += x;
        sy += y;
        fx += cos(f);
        fy += sin(f);
        inferred += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "inferred"));
    }
    cJSON_AddNumberToObject(o, "models", n);
    cJSON_AddNumberToObject(o, "inferred", inferred);
    if (n > 0) {
        double c[2] = {round(sx / n * 10) / 10, round(sy / n * 10) / 10};
        cJSON_AddItemToObject(o, "centre_mm", cJSON_CreateDoubleArray(c, 2));
        /* Rounded first, so that a hair under 360 reads 0, not 360. */
        double deg = round(fmod(base_rad_to_deg(atan2(fy, fx)) + 360.0, 360.0) * 10) / 10;
        cJSON_AddNumberToObject(o, "facing_deg", deg >= 360.0 ? 0.0 : deg);
    }
    return o;
}

cJSON *venue_units_from_snapshot(const cJSON *snapshot)
{
    cJSON *out = cJSON_CreateArray();
    const cJSON *units = cJSON_GetObjectItemCaseSensitive(snapshot, "units");
    const cJSON *u;
    cJSON_ArrayForEach(u, units)
    {
        cJSON *b = unit_brief(u);
        if (b)
            cJSON_AddItemToArray(out, b);
    }
    return out;
}

static void add_inches(cJSON *o, const char *key, double mm)
{
    if (isfinite(mm))
        base_json_add_number(o, key, base_mm_to_in(mm), 2);
}

static cJSON *distances(const rules_unit_report *u)
{
    cJSON *d = cJSON_CreateObject();
    if (!d)
        return NULL;
    if (u->has_path)
        add_inches(d, "path_in", u->path.length_mm);
    if (u->rate_mm > 0)
        add_inches(d, "rate_in", u->rate_mm);
    const rules_model_move *far = NULL;
    for (size_t i = 0; i < u->n_models; i++)
        if (isfinite(u->models[i].distance_mm) && (!far || u->models[i].distance_mm > far->distance_mm))
            far = &u->models[i];
    if (far) {
        add_inches(d, "farthest_in", far->distance_mm);
        cJSON_AddStringToObject(d, "farthest_model", far->id);
    }
    add_inches(d, "centre_in", u->centre_displacement_mm);
    return d;
}

int venue_call_add_distances(cJSON *ev, const rules_report *r)
{
    cJSON *units = cJSON_GetObjectItemCaseSensitive(ev, "units");
    cJSON *o;
    cJSON_ArrayForEach(o, units)
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "unit");
        if (!cJSON_IsString(name))
            continue;
        const rules_unit_report *u = rules_report_find_unit(r, name->valuestring);
        if (!u)
            continue;
        cJSON *d = distances(u);
        if (!d)
            return -1;
        cJSON_DeleteItemFromObjectCaseSensitive(o, "distance");
        cJSON_AddItemToObject(o, "distance", d);
        if (!cJSON_GetObjectItemCaseSensitive(o, "verdict"))
            cJSON_AddStringToObject(o, "verdict", rules_verdict_word(u->verdict));
        if (u->why[0] && !cJSON_GetObjectItemCaseSensitive(o, "why"))
            cJSON_AddStringToObject(o, "why", u->why);
    }
    return 0;
}

/* One unit object's "sentence", from the report's call on the unit it names (nothing when not in the report). */
static int set_words(cJSON *o, const rules_report *r, const rules_snapshot *before, const rules_snapshot *after)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "unit");
    const rules_unit_report *u = cJSON_IsString(name) ? rules_report_find_unit(r, name->valuestring) : NULL;
    if (!u)
        return 0;
    char sentence[RULES_WORDS_MAX];
    rules_words_call(u, before, after, sentence, sizeof sentence);
    cJSON_DeleteItemFromObjectCaseSensitive(o, "sentence");
    return cJSON_AddStringToObject(o, "sentence", sentence) ? 0 : -1;
}

int venue_call_add_words(cJSON *ev, const rules_report *r, const rules_snapshot *before, const rules_snapshot *after)
{
    cJSON *units = cJSON_GetObjectItemCaseSensitive(ev, "units");
    if (!units)
        return set_words(ev, r, before, after);
    cJSON *o;
    cJSON_ArrayForEach(o, units)
    {
        if (set_words(o, r, before, after) < 0)
            return -1;
    }
    return 0;
}

void venue_state_init(venue_state *s, const char *event, int table)
{
    memset(s, 0, sizeof *s);
    snprintf(s->event, sizeof s->event, "%s", event);
    s->table = table;
}

static void replace(cJSON **slot, cJSON *value)
{
    cJSON_Delete(*slot);
    *slot = value;
}

static int keep(cJSON **slot, const cJSON *ev);

void venue_state_clear(venue_state *s)
{
    cJSON **slots[] = {&s->session,         &s->board,        &s->units,   &s->settled,
                       &s->last_call,       &s->last_alert,   &s->picture, &s->table_check,
                       &s->last_correction, &s->last_refused, &s->last_ruling};
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
        replace(slots[i], NULL);
    free(s->illegal);
    s->illegal = NULL;
    s->n_illegal = s->cap_illegal = 0;
}

static venue_illegal_call *find_illegal(venue_state *s, int move)
{
    for (size_t i = 0; i < s->n_illegal; i++)
        if (s->illegal[i].move == move)
            return &s->illegal[i];
    return NULL;
}

/* An ILLEGAL call ("legal": false) joins the calls that stand until a judge rules. -1 when out of memory. */
static int note_call(venue_state *s, const cJSON *ev)
{
    const cJSON *move = cJSON_GetObjectItemCaseSensitive(ev, "move");
    if (!cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(ev, "legal")) || !cJSON_IsNumber(move))
        return 0;
    venue_illegal_call *c = find_illegal(s, move->valueint);
    if (!c) {
        if (s->n_illegal == s->cap_illegal) {
            size_t cap = s->cap_illegal ? s->cap_illegal * 2 : 16;
            venue_illegal_call *grown = realloc(s->illegal, cap * sizeof *grown);
            if (!grown)
                return -1;
            s->illegal = grown, s->cap_illegal = cap;
        }
        c = &s->illegal[s->n_illegal++];
    }
    *c = (venue_illegal_call){.move = move->valueint};
    return 0;
}

/* A correction the table APPLIED: overrule, confirm and undo are rulings on a call (as the watch's tracker
 * counts them: watch_tracker_illegal_standing); status, reach and stop are not. -1 when out of memory. */
static int note_ruling(venue_state *s, const cJSON *ev)
{
    const cJSON *action = cJSON_GetObjectItemCaseSensitive(ev, "action");
    const cJSON *move = cJSON_GetObjectItemCaseSensitive(ev, "move");
    if (!cJSON_IsString(action))
        return 0;
    const char *a = action->valuestring;
    bool overrule = strcmp(a, "overrule") == 0 || strcmp(a, "accept") == 0;
    bool confirm = strcmp(a, "confirm") == 0, undo = strcmp(a, "undo") == 0;
    if (!overrule && !confirm && !undo)
        return 0;
    venue_illegal_call *c = cJSON_IsNumber(move) ? find_illegal(s, move->valueint) : NULL;
    if (c && undo)
        c->undone = true;
    else if (c)
        c->overruled = overrule;
    return keep(&s->last_ruling, ev);
}

int venue_state_illegal_standing(const venue_state *s)
{
    int n = 0;
    for (size_t i = 0; i < s->n_illegal; i++)
        n += !s->illegal[i].overruled && !s->illegal[i].undone;
    return n;
}

/* Units and board from the event's snapshot, when it has one. */
static int take_snapshot(venue_state *s, const cJSON *ev)
{
    const cJSON *snap = cJSON_GetObjectItemCaseSensitive(ev, "snapshot");
    if (!cJSON_IsObject(snap))
        return 0;
    cJSON *units = venue_units_from_snapshot(snap);
    if (!units)
        return -1;
    replace(&s->units, units);
    const cJSON *board = cJSON_GetObjectItemCaseSensitive(snap, "board");
    if (board) {
        cJSON *b = cJSON_Duplicate(board, 1);
        if (!b)
            return -1;
        replace(&s->board, b);
    }
    return 0;
}

static int keep(cJSON **slot, const cJSON *ev)
{
    cJSON *copy = venue_event_for_feed(ev, 0);
    if (!copy)
        return -1;
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "table");
    replace(slot, copy);
    return 0;
}

int venue_state_apply(venue_state *s, const cJSON *ev)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(ev, "event");
    if (!cJSON_IsString(kind))
        return 0;
    const char *k = kind->valuestring;
    int rc = 0;
    if (strcmp(k, "started") == 0) {
        /* A new session on this table: what the last one called no longer stands. */
        venue_state_clear(s);
        s->calls = 0;
        rc = keep(&s->session, ev);
    } else if (strcmp(k, "settled") == 0) {
        rc = keep(&s->settled, ev) < 0 || take_snapshot(s, ev) < 0 ? -1 : 0;
    } else if (strcmp(k, "move_checked") == 0) {
        s->calls++;
        rc = keep(&s->last_call, ev) < 0 || take_snapshot(s, ev) < 0 || note_call(s, ev) < 0 ? -1 : 0;
    } else if (strcmp(k, "table_check") == 0) {
        rc = keep(&s->table_check, ev);
    } else if (strcmp(k, "alert") == 0) {
        rc = keep(&s->last_alert, ev);
    } else if (strcmp(k, "correction") == 0) {
        /* Only what the table applied is its ruling: a refused command (a judge's typo, a forgery, a
         * retained or overflowing one) is kept apart, so that no page shows it as the call. */
        bool applied = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "applied"));
        rc = keep(applied ? &s->last_correction : &s->last_refused, ev);
        if (rc == 0 && applied)
            rc = note_ruling(s, ev);
    } else {
        return 0; /* camera_lost, stopped: the status says it; others are events only */
    }
    if (rc < 0)
        return -1;
    s->rev++;
    return 1;
}

static void number_slot(cJSON *slot, long call_no, const char *run)
{
    if (!slot || cJSON_GetObjectItemCaseSensitive(slot, "call_no"))
        return; /* an older call keeps its own number */
    cJSON_AddNumberToObject(slot, "call_no", (double)call_no);
    cJSON_AddStringToObject(slot, "run", run);
}

void venue_state_number_call(venue_state *s, const char *kind, long call_no, const char *run)
{
    s->call_no = call_no;
    snprintf(s->run, sizeof s->run, "%s", run);
    if (strcmp(kind, "move_checked") == 0) {
        number_slot(s->last_call, call_no, run);
    } else if (strcmp(kind, "alert") == 0) {
        number_slot(s->last_alert, call_no, run);
    } else if (strcmp(kind, "correction") == 0) {
        number_slot(s->last_correction, call_no, run);
        number_slot(s->last_refused, call_no, run);
        number_slot(s->last_ruling, call_no, run);
    }
}

int venue_state_set_picture(venue_state *s, int move, int width, int height)
{
    cJSON *p = cJSON_CreateObject();
    if (!p)
        return -1;
    cJSON_AddNumberToObject(p, "move", move);
    cJSON_AddNumberToObject(p, "width", width);
    cJSON_AddNumberToObject(p, "height", height);
    cJSON_AddStringToObject(p, "type", "image/jpeg");
    char wall[40];
    venue_wall_now(wall, sizeof wall);
    cJSON_AddStringToObject(p, "wall", wall);
    replace(&s->picture, p);
    s->rev++;
    return 0;
}

static void add_copy_or_null(cJSON *o, const char *key, const cJSON *value)
{
    cJSON *copy = value ? cJSON_Duplicate(value, 1) : NULL;
    if (copy)
        cJSON_AddItemToObject(o, key, copy);
    else
        cJSON_AddNullToObject(o, key);
}

char *venue_state_print(const venue_state *s, size_t queued, long dropped)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    add_head(o, VENUE_STATE_FORMAT, s->event, s->table);
    cJSON_AddNumberToObject(o, "rev", (double)s->rev);
    char wall[40];
    venue_wall_now(wall, sizeof wall);
    cJSON_AddStringToObject(o, "wall", wall);
    cJSON_AddNumberToObject(o, "calls", (double)s->calls);
    /* The number of the table's latest call and its run: a subscriber that saw fewer fetches call/N (docs/formats.md). */
    cJSON_AddNumberToObject(o, "call_no", (double)s->call_no);
    if (s->run[0])
        cJSON_AddStringToObject(o, "run", s->run);
    add_copy_or_null(o, "session", s->session);
    add_copy_or_null(o, "board", s->board);
    if (s->units)
        add_copy_or_null(o, "units", s->units);
    else
        cJSON_AddItemToObject(o, "units", cJSON_CreateArray());
    add_copy_or_null(o, "settled", s->settled);
    add_copy_or_null(o, "last_call", s->last_call);
    add_copy_or_null(o, "last_alert", s->last_alert);
    add_copy_or_null(o, "last_correction", s->last_correction);
    add_copy_or_null(o, "last_refused", s->last_refused);
    /* What stands after the judges' rulings, so that a page opened at any time shows it (docs/formats.md). */
    add_copy_or_null(o, "last_ruling", s->last_ruling);
    cJSON_AddNumberToObject(o, "illegal_standing", venue_state_illegal_standing(s));
    add_copy_or_null(o, "picture", s->picture);
    add_copy_or_null(o, "table_check", s->table_check);
    cJSON *feed = cJSON_AddObjectToObject(o, "feed");
    if (feed) {
        cJSON_AddNumberToObject(feed, "queued", (double)queued);
        cJSON_AddNumberToObject(feed, "dropped", (double)dropped);
    }
    char *text = base_json_print(o, false);
    cJSON_Delete(o);
    return text;
}
