/*
 * venue_payload: the venue feed's topics and payloads (docs/formats.md,
 * "Venue feed (MQTT)"): topic names, the status message, the event as
 * published, and the table's retained state folded from the events.
 * Pure C over cJSON; no network. Used by venue_feed and its tests.
 *
 * How to use:
 *   char topic[256]; venue_topic(topic, sizeof topic, "gt-2026", 7, "state");
 *   venue_state st; venue_state_init(&st, "gt-2026", 7);
 *   venue_state_apply(&st, ev);                       // per event; 1 when the state changed
 *   venue_state_number_call(&st, "alert", 7, run);    // the feed numbered that call
 *   char *json = venue_state_print(&st, queued, dropped);   // free()
 *   venue_state_clear(&st);
 * And for the watch loop, before the call goes to the log and the feed:
 *   venue_call_add_distances(move_checked_ev, &report);   // each unit's distances in inches
 *   venue_call_add_words(move_checked_ev, &report, before, after);   // each unit's sentence (rules_words.h)
 */
#ifndef VENUE_PAYLOAD_H
#define VENUE_PAYLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "rules_report.h"
#include "rules_snapshot.h"

#define VENUE_TOPIC_ROOT "tableref"
#define VENUE_STATE_FORMAT "tableref.venue.state"
#define VENUE_STATUS_FORMAT "tableref.venue.status"
#define VENUE_FORMAT_VERSION 1

/* "tableref/{event}/table/{n}/{leaf}" (leaf may be NULL: no trailing part). -1 when it does not fit. */
int venue_topic(char *buf, size_t cap, const char *event, int table, const char *leaf);

/* UTC wall-clock time "2026-11-22T10:00:00.123Z" into buf (>= 32 bytes). */
void venue_wall_now(char *buf, size_t cap);

/*
 * The retained status payload (malloc'ed JSON text): online or offline, a
 * cause word and a sentence. `will`: the last-will form, which has no time
 * (it is written at connection and sent by the broker later).
 */
char *venue_status_payload(const char *event, int table, bool online, const char *cause, const char *reason,
                           bool will);

/*
 * The last will (malloc'ed JSON text), set before each connection: offline,
 * cause "connection", "will": true, and what the table can say at connect
 * time about when it will have gone: "connected" (now, the table's clock),
 * "heartbeat_s" (the table's state is published again at least this often
 * while it runs) and "keepalive_s" (the broker sends the will at most 1.5 x
 * this after the table's last packet). A page takes the table's last word
 * (this "connected", or a later state's "wall") + heartbeat_s as the time
 * it was offline at the latest (docs/formats.md).
 */
char *venue_will_payload(const char *event, int table, int heartbeat_s, int keepalive_s);

/* The event as published: a deep copy without "snapshot", with "table". NULL when out of memory. */
cJSON *venue_event_for_feed(const cJSON *ev, int table);

/* Each unit of a snapshot (tableref.snapshot JSON) in brief: id, side, models, inferred, centre, facing. */
cJSON *venue_units_from_snapshot(const cJSON *snapshot);

/*
 * Adds to each unit of a move_checked event ("units": [{"unit": ...}]) what
 * its report measured, in inches: "distance": {"path_in", "rate_in",
 * "farthest_in", "farthest_model", "centre_in"} (a member is absent when
 * not measured), and "verdict" / "why" when the event has none yet.
 * -1 when out of memory.
 */
int venue_call_add_distances(cJSON *ev, const rules_report *r);
/*
 * Sets each unit's "sentence" of a move_checked or alert event ("units":
 * [{"unit": ...}], or the event itself when it names one "unit") to the
 * call in words: rules_words_call with the +/- of the two snapshots judged,
 * the words the terminal, the report's JSON, the event log and the
 * subtitles carry. -1 when out of memory.
 */
int venue_call_add_words(cJSON *ev, const rules_report *r, const rules_snapshot *before, const rules_snapshot *after);

/* One ILLEGAL call of the session and what the judges ruled on it (venue_state's illegal_standing). */
typedef struct venue_illegal_call {
    int move;
    bool overruled;     /* an applied overrule (a later confirm makes it stand again) */
    bool undone;        /* an applied undo of that move */
} venue_illegal_call;

typedef struct venue_state {
    char event[64];
    int table;
    long rev;           /* +1 at each change: a subscriber can tell a newer state */
    long calls;         /* move_checked events seen */
    cJSON *session;     /* from "started": source, source_kind, fps, wall */
    cJSON *board;       /* from the latest snapshot */
    cJSON *units;       /* venue_units_from_snapshot of the latest snapshot */
    cJSON *settled, *last_call, *last_alert;
    cJSON *last_correction; /* the latest APPLIED correction: the table's ruling (a refused one never changes it) */
    cJSON *last_refused;    /* the latest refused command, for information only */
    cJSON *last_ruling;     /* the latest APPLIED overrule, confirm or undo: what the judges ruled */
    venue_illegal_call *illegal; /* every ILLEGAL call of the session, in order */
    size_t n_illegal, cap_illegal;
    cJSON *picture;     /* {"move", "width", "height", "wall"} */
    cJSON *table_check; /* the latest "table_check" event: the pre-round check's verdict and figures */
    long call_no;       /* the feed's number of its latest call (venue_state_number_call); kept across sessions */
    char run[24];       /* the feed's run: a new one at each start of the table's process */
} venue_state;

void venue_state_init(venue_state *s, const char *event, int table);
void venue_state_clear(venue_state *s);
/* Folds one watch event in. 1 when the retained state changed, 0 when not, -1 when out of memory. */
int venue_state_apply(venue_state *s, const cJSON *ev);
/* How many ILLEGAL calls of the session stand after the judges' applied rulings (not overruled, not undone). */
int venue_state_illegal_standing(const venue_state *s);
/*
 * The feed numbered the call event of `kind` (move_checked, alert, correction) just applied: call_no and run go
 * into the state and into what it kept of that event (last_call, last_alert, last_correction or last_refused,
 * last_ruling), as they are in the published event.
 */
void venue_state_number_call(venue_state *s, const char *kind, long call_no, const char *run);
/* The picture now retained describes call `move`, width x height. */
int venue_state_set_picture(venue_state *s, int move, int width, int height);
/* The retained payload (malloc'ed JSON text) with the feed's counters; NULL when out of memory. */
char *venue_state_print(const venue_state *s, size_t queued, long dropped);

#endif
