/*
 * watch_session's venue feed (venue/venue_feed.h): every event goes to the
 * broker through a sink, the judges' commands come back into the control
 * queue (by "mqtt:JUDGE", with their id), and each call's overlay picture
 * is sent once it is drawn. The feed never blocks the loop: it queues and
 * reconnects on its own thread; the loop only says on stderr when it cannot
 * reach the broker (once) and when it can again.
 */
#include <stdio.h>
#include <string.h>

#include "watch_session_int.h"

#if TABLEREF_HAVE_VENUE
#include "venue_payload.h"

/* From the feed's network thread: the control queue is thread-safe. */
static void command_to_control(void *ctx, const venue_command *vc)
{
    watch_control *ctl = ctx;
    char by[64];
    snprintf(by, sizeof by, "mqtt:%.58s", vc->by);
    watch_command c;
    watch_command_parse(vc->line, by, &c);
    if (vc->action == VENUE_CMD_INVALID) {
        /* The feed refused it (no reason, retained, unreadable): keep its word, whatever the line would parse to. */
        memset(&c, 0, sizeof c);
        c.action = WATCH_CMD_INVALID;
        snprintf(c.by, sizeof c.by, "%s", by);
        snprintf(c.error, sizeof c.error, "%.*s", (int)sizeof c.error - 1, vc->error);
        snprintf(c.line, sizeof c.line, "%.*s", (int)sizeof c.line - 1, vc->line);
    }
    snprintf(c.id, sizeof c.id, "%s", vc->id);
    watch_control_push(ctl, &c);
}

int watch_session_attach_feed(watch_session *s, const venue_config *cfg, base_error *err)
{
    if (s->feed)
        return base_error_set(err, "the venue feed is already attached");
    venue_config c = *cfg;
    c.on_command = command_to_control;
    c.on_command_ctx = s->control;
    if (!(s->feed = venue_feed_new(&c, err)))
        return -1;
    if (watch_session_add_sink(s, &(watch_sink){venue_feed_sink_event, s->feed}, err) < 0) {
        venue_feed_free(s->feed);
        s->feed = NULL;
        return -1;
    }
    snprintf(s->feed_where, sizeof s->feed_where, "%s:%d, event %s, table %d", cfg->host, cfg->port, cfg->event,
             cfg->table);
    return 0;
}

void watch_session_feed_add_distances(cJSON *ev, const rules_report *r)
{
    if (ev)
        venue_call_add_distances(ev, r);
}

bool watch_session_feed_wants_picture(const watch_session *s) { return s->feed && s->picture_move > 0; }

void watch_session_feed_picture(watch_session *s, const base_image *shown)
{
    venue_image img = {shown->data, shown->width, shown->height, shown->stride,
                       shown->channels == 1 ? VENUE_PIX_GRAY8 : VENUE_PIX_BGR24};
    base_error err;
    if (venue_feed_set_picture(s->feed, &img, s->picture_move, &err) < 0 && !s->cfg.quiet)
        fprintf(stderr, "tableref watch: venue feed: picture of move %d: %s\n", s->picture_move, err.msg);
    s->picture_move = 0;
}

void watch_session_feed_poll(watch_session *s)
{
    if (!s->feed)
        return;
    venue_stats st;
    venue_feed_stats(s->feed, &st);
    if (st.connected && !s->feed_connected)
        fprintf(stderr, "tableref watch: venue feed: connected (%s)\n", s->feed_where);
    else if (!st.connected && st.last_error[0] && (s->feed_connected || !s->feed_told_down))
        fprintf(stderr, "tableref watch: venue feed: %s; watching goes on, the feed keeps what it cannot send and "
                        "retries on its own\n", st.last_error);
    if (!st.connected && st.last_error[0])
        s->feed_told_down = true;
    s->feed_connected = st.connected;
}

void watch_session_feed_close(watch_session *s)
{
    if (!s->feed)
        return;
    const size_t left = venue_feed_flush(s->feed, 2000);
    if (left > 0)
        fprintf(stderr, "tableref watch: venue feed: %zu event%s did not reach the broker (%s)\n", left,
                left == 1 ? "" : "s", s->feed_where);
    venue_feed_free(s->feed);
    s->feed = NULL;
}

#else /* built without the venue feed */

void watch_session_feed_add_distances(cJSON *ev, const rules_report *r) { (void)ev, (void)r; }
bool watch_session_feed_wants_picture(const watch_session *s) { (void)s; return false; }
void watch_session_feed_picture(watch_session *s, const base_image *shown) { (void)s, (void)shown; }
void watch_session_feed_poll(watch_session *s) { (void)s; }
void watch_session_feed_close(watch_session *s) { (void)s; }

#endif
