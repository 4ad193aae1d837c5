/*
 * venue_driver: plays one table for the venue tests, through the venue feed
 * exactly as the watch loop would: a frame loop (33 ms) that publishes the
 * events a script asks for and polls judge commands once per frame.
 *
 *   venue_driver --port P --event NAME --table N [--host H] [--user U --password P] [--apply]
 *                [--root SOURCE_ROOT]
 *
 * Script lines on stdin (one per line):
 *   started | settled | call | call_unsure | alert | picture | camera_lost | stop
 * The calls are real: the bundled demo turn (datasets/demo) checked by the
 * rules core (spears ILLEGAL, knights legal); call_unsure turns them into
 * "cannot tell" and "not seen". The picture is the demo's camera frame with
 * the verdict drawn by overlay/ when Cairo is built in.
 *
 * stdout, one line each, flushed: "ready", then every judge command polled
 * as JSON {"action", "move", "reason", "by", "id", "line", "error"}. With
 * --apply each valid command is answered by a "correction" event, as watch
 * logs an applied command. "stop" (or end of input) publishes "stopped",
 * flushes and exits 0.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <turbojpeg.h>

#include "rules_json.h"
#include "rules_move.h"
#include "tableref_config.h"
#include "venue_feed.h"
#include "venue_payload.h"
#if TABLEREF_HAVE_OVERLAY
#include "calib_file.h"
#include "ov_draw.h"
#endif

typedef struct driver {
    venue_feed *feed;
    const char *root;
    bool apply;
    long seq, frame;
    int move;
    rules_snapshot *before, *after;
    rules_report report;
} driver;

static cJSON *event_new(driver *d, const char *kind)
{
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddNumberToObject(ev, "seq", (double)++d->seq);
    cJSON_AddStringToObject(ev, "event", kind);
    cJSON_AddNumberToObject(ev, "t_ms", (double)d->frame * 200.0);
    cJSON_AddNumberToObject(ev, "frame", (double)d->frame);
    char wall[40];
    venue_wall_now(wall, sizeof wall);
    cJSON_AddStringToObject(ev, "wall", wall);
    return ev;
}

static void publish(driver *d, cJSON *ev)
{
    base_error err;
    if (venue_feed_publish(d->feed, ev, &err) < 0)
        fprintf(stderr, "venue_driver: %s\n", err.msg);
    cJSON_Delete(ev);
}

/* The unit's rule codes, as the watch log writes them (its sentence: venue_call_add_words). */
static void add_codes(cJSON *o, const rules_unit_report *u)
{
    cJSON *codes = cJSON_AddArrayToObject(o, "codes");
    for (size_t k = 0; k < u->n_violations; k++)
        cJSON_AddItemToArray(codes, cJSON_CreateString(u->violations[k].code));
}

/* The move_checked event as the watch log writes it (docs/formats.md), with each unit's distances. */
static void publish_call(driver *d)
{
    cJSON *ev = event_new(d, "move_checked");
    cJSON_AddNumberToObject(ev, "move", ++d->move);
    cJSON_AddBoolToObject(ev, "legal", d->report.legal);
    cJSON *units = cJSON_AddArrayToObject(ev, "units");
    for (size_t i = 0; i < d->report.n_units; i++) {
        const rules_unit_report *u = &d->report.units[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "unit", u->unit_id);
        cJSON_AddStringToObject(o, "side", u->side);
        cJSON_AddStringToObject(o, "move", rules_move_token(u->move));
        cJSON_AddBoolToObject(o, "legal", u->legal);
        cJSON_AddStringToObject(o, "verdict", rules_verdict_word(u->verdict));
        if (u->why[0])
            cJSON_AddStringToObject(o, "why", u->why);
        add_codes(o, u);
        cJSON_AddItemToArray(units, o);
    }
    venue_call_add_distances(ev, &d->report);
    venue_call_add_words(ev, &d->report, d->before, d->after);
    cJSON_AddItemToObject(ev, "snapshot", rules_json_from_snapshot(d->after));
    publish(d, ev);
}

static void publish_alert(driver *d)
{
    for (size_t i = 0; i < d->report.n_units; i++) {
        const rules_unit_report *u = &d->report.units[i];
        if (u->verdict != RULES_VERDICT_ILLEGAL)
            continue;
        cJSON *ev = event_new(d, "alert");
        cJSON_AddNumberToObject(ev, "move", d->move);
        cJSON_AddStringToObject(ev, "unit", u->unit_id);
        add_codes(ev, u);
        venue_call_add_words(ev, &d->report, d->before, d->after);
        publish(d, ev);
    }
}

static void make_unsure(driver *d)
{
    rules_unit_report *spears = rules_report_find_unit(&d->report, "spears");
    rules_unit_report *knights = rules_report_find_unit(&d->report, "knights");
    if (spears)
        rules_unit_report_set_verdict(spears, RULES_VERDICT_CANNOT_TELL,
                                      "spears-7 may end 9.96\" or 10.38\" away: its tag is half hidden by a spear");
    if (knights)
        rules_unit_report_set_verdict(knights, RULES_VERDICT_NOT_SEEN, "no tag of knights seen after the move");
    rules_report_refresh(&d->report);
}

static char *path_in_root(driver *d, const char *rel)
{
    static char buf[2048];
    snprintf(buf, sizeof buf, "%s/%s", d->root, rel);
    return buf;
}

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = size > 0 ? malloc((size_t)size) : NULL;
    *n = buf ? fread(buf, 1, (size_t)size, f) : 0;
    fclose(f);
    return buf;
}

/* The demo's camera frame, with the verdict drawn over it when the overlay is built in. */
static void publish_picture(driver *d)
{
    size_t n = 0;
    uint8_t *jpeg = read_file(path_in_root(d, "datasets/demo/after.jpg"), &n);
    base_error err = {0};
    if (!jpeg) {
        fprintf(stderr, "venue_driver: cannot read datasets/demo/after.jpg\n");
        return;
    }
#if TABLEREF_HAVE_OVERLAY
    tjhandle tj = tjInitDecompress();
    int w = 0, h = 0, ss, cs;
    uint8_t *rgb = NULL;
    calib_file calib;
    if (tj && tjDecompressHeader3(tj, jpeg, (unsigned long)n, &w, &h, &ss, &cs) == 0 &&
        (rgb = malloc((size_t)w * (size_t)h * 3)) &&
        tjDecompress2(tj, jpeg, (unsigned long)n, rgb, w, w * 3, h, TJPF_RGB, 0) == 0 &&
        calib_file_load(path_in_root(d, "datasets/demo/calib.json"), &calib, &err) == 0) {
        ov_target *t = ov_target_new_camera(&calib, w, h, rgb, OV_PIX_RGB24, (size_t)w * 3, &err);
        ov_options o;
        ov_options_default(&o);
        if (t && ov_draw_verdict(t, d->before, d->after, &d->report, &o, &err) == 0 &&
            ov_target_copy_pixels(t, rgb, OV_PIX_RGB24, (size_t)w * 3, &err) == 0) {
            venue_image img = {rgb, w, h, (size_t)w * 3, VENUE_PIX_RGB24};
            if (venue_feed_set_picture(d->feed, &img, d->move, &err) < 0)
                fprintf(stderr, "venue_driver: %s\n", err.msg);
            ov_target_free(t);
            free(rgb);
            tjDestroy(tj);
            free(jpeg);
            return;
        }
        ov_target_free(t);
    }
    fprintf(stderr, "venue_driver: overlay not drawn (%s); sending the camera frame\n", err.msg);
    free(rgb);
    if (tj)
        tjDestroy(tj);
#endif
    if (venue_feed_set_picture_jpeg(d->feed, jpeg, n, d->move, &err) < 0)
        fprintf(stderr, "venue_driver: %s\n", err.msg);
    free(jpeg);
}

static void answer_command(driver *d, const venue_command *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "action", venue_cmd_word(c->action));
    cJSON_AddNumberToObject(o, "move", c->move);
    cJSON_AddStringToObject(o, "reason", c->reason);
    cJSON_AddStringToObject(o, "by", c->by);
    cJSON_AddStringToObject(o, "id", c->id);
    cJSON_AddStringToObject(o, "line", c->line);
    cJSON_AddStringToObject(o, "error", c->error);
    char *text = cJSON_PrintUnformatted(o);
    printf("%s\n", text);
    fflush(stdout);
    free(text);
    cJSON_Delete(o);
    if (!d->apply)
        return;
    /* What watch logs when it applies (or refuses) a judge's command. */
    cJSON *ev = event_new(d, "correction");
    cJSON_AddStringToObject(ev, "action", venue_cmd_word(c->action));
    cJSON_AddNumberToObject(ev, "move", c->move ? c->move : d->move);
    cJSON_AddBoolToObject(ev, "applied", c->action != VENUE_CMD_INVALID);
    char by[80];
    snprintf(by, sizeof by, "mqtt:%s", c->by);
    cJSON_AddStringToObject(ev, "by", by);
    cJSON_AddStringToObject(ev, "reason", c->action != VENUE_CMD_INVALID ? c->reason : c->error);
    if (c->id[0])
        cJSON_AddStringToObject(ev, "id", c->id);
    publish(d, ev);
}

/* One script line; false on "stop". */
static bool run_line(driver *d, char *line)
{
    line[strcspn(line, "\r\n")] = 0;
    if (strcmp(line, "started") == 0) {
        cJSON *ev = event_new(d, "started");
        cJSON_AddStringToObject(ev, "format", "tableref.events");
        cJSON_AddNumberToObject(ev, "version", 1);
        cJSON_AddStringToObject(ev, "source", "venue_driver");
        cJSON_AddStringToObject(ev, "source_kind", "script");
        cJSON_AddNumberToObject(ev, "fps", 30);
        publish(d, ev);
    } else if (strcmp(line, "settled") == 0) {
        cJSON *ev = event_new(d, "settled");
        cJSON_AddBoolToObject(ev, "first", d->move == 0);
        cJSON_AddItemToObject(ev, "snapshot", rules_json_from_snapshot(d->move ? d->after : d->before));
        publish(d, ev);
    } else if (strcmp(line, "call") == 0 || strcmp(line, "call_unsure") == 0) {
        if (line[4] == '_')
            make_unsure(d);
        publish_call(d);
    } else if (strcmp(line, "alert") == 0) {
        publish_alert(d);
    } else if (strcmp(line, "picture") == 0) {
        publish_picture(d);
    } else if (strcmp(line, "camera_lost") == 0) {
        cJSON *ev = event_new(d, "camera_lost");
        cJSON_AddStringToObject(ev, "reason", "no frame within 2 s (device gone)");
        publish(d, ev);
    } else if (strcmp(line, "stop") == 0) {
        return false;
    } else if (line[0]) {
        fprintf(stderr, "venue_driver: unknown script line \"%s\"\n", line);
    }
    return true;
}

static int load_turn(driver *d)
{
    base_error err;
    d->before = rules_json_load_snapshot(path_in_root(d, "datasets/demo/before.json"), &err);
    d->after = d->before ? rules_json_load_snapshot(path_in_root(d, "datasets/demo/after.json"), &err) : NULL;
    rules_check_options opt;
    rules_check_options_default(&opt);
    rules_report_init(&d->report);
    if (!d->after || rules_move_check(d->before, d->after, &opt, &d->report, &err) < 0) {
        fprintf(stderr, "venue_driver: %s\n", err.msg);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    venue_config cfg;
    venue_config_default(&cfg);
    driver d = {0};
    d.root = getenv("TABLEREF_SOURCE_ROOT") ? getenv("TABLEREF_SOURCE_ROOT") : ".";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--apply") == 0) { d.apply = true; continue; }
        if (!v) { fprintf(stderr, "venue_driver: %s needs a value\n", a); return 2; }
        if (strcmp(a, "--port") == 0) cfg.port = atoi(v);
        else if (strcmp(a, "--host") == 0) snprintf(cfg.host, sizeof cfg.host, "%s", v);
        else if (strcmp(a, "--event") == 0) cfg.event = v;
        else if (strcmp(a, "--table") == 0) cfg.table = atoi(v);
        else if (strcmp(a, "--root") == 0) d.root = v;
        else if (strcmp(a, "--user") == 0) cfg.username = v;
        else if (strcmp(a, "--password") == 0) cfg.password = v;
        else { fprintf(stderr, "venue_driver: unknown option %s\n", a); return 2; }
        i++;
    }
    base_error err;
    if (load_turn(&d) < 0)
        return 2;
    d.feed = venue_feed_new(&cfg, &err);
    if (!d.feed) {
        fprintf(stderr, "venue_driver: %s\n", err.msg);
        return 2;
    }
    printf("ready\n");
    fflush(stdout);
    char line[512];
    size_t have = 0;
    bool running = true;
    while (running) {
        struct pollfd p = {STDIN_FILENO, POLLIN, 0};
        if (poll(&p, 1, 33) > 0) {
            ssize_t n = read(STDIN_FILENO, line + have, sizeof line - 1 - have);
            if (n <= 0)
                break; /* end of input: stop */
            have += (size_t)n;
            line[have] = 0;
            char *nl;
            while (running && (nl = strchr(line, '\n'))) {
                *nl = 0;
                running = run_line(&d, line);
                memmove(line, nl + 1, have - (size_t)(nl + 1 - line) + 1);
                have -= (size_t)(nl + 1 - line);
            }
            if (have == sizeof line - 1)
                have = 0; /* an over-long line: dropped */
        }
        d.frame++;
        venue_command c;
        while (venue_feed_poll_command(d.feed, &c) == 1)
            answer_command(&d, &c);
    }
    cJSON *ev = event_new(&d, "stopped");
    cJSON_AddStringToObject(ev, "reason", "stopped (script)");
    publish(&d, ev);
    venue_feed_flush(d.feed, 2000);
    venue_feed_free(d.feed);
    rules_report_clear(&d.report);
    rules_snapshot_free(d.before);
    rules_snapshot_free(d.after);
    return 0;
}
