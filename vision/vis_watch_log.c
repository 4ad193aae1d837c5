#include "vis_watch_log.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "rules_geom.h"
#include "rules_json.h"
#include "rules_path.h"

struct vis_watch_log {
    FILE *jsonl, *vtt;
    char jsonl_path[1024], vtt_path[1024];
    long seq, cues;
};

/* Flush to the kernel, then to the disk: the record must survive a power cut, not just a crash. */
static int sync_file(FILE *f, const char *path, rules_error *err)
{
    if (fflush(f) != 0 || fsync(fileno(f)) != 0)
        return rules_error_set(err, "%s: cannot write: %s", path, strerror(errno));
    return 0;
}

vis_watch_log *vis_watch_log_open(const char *jsonl_path, const char *vtt_path, rules_error *err)
{
    vis_watch_log *log = calloc(1, sizeof *log);
    if (!log) {
        rules_error_set(err, "out of memory");
        return NULL;
    }
    if (jsonl_path) {
        snprintf(log->jsonl_path, sizeof log->jsonl_path, "%s", jsonl_path);
        if (!(log->jsonl = fopen(jsonl_path, "w"))) {
            rules_error_set(err, "%s: cannot create: %s", jsonl_path, strerror(errno));
            goto fail;
        }
    }
    if (vtt_path) {
        snprintf(log->vtt_path, sizeof log->vtt_path, "%s", vtt_path);
        if (!(log->vtt = fopen(vtt_path, "w"))) {
            rules_error_set(err, "%s: cannot create: %s", vtt_path, strerror(errno));
            goto fail;
        }
        fputs("WEBVTT - tableref calls\n\n", log->vtt);
        if (sync_file(log->vtt, vtt_path, err) < 0)
            goto fail;
    }
    return log;
fail:
    vis_watch_log_close(log);
    return NULL;
}

void vis_watch_log_close(vis_watch_log *log)
{
    if (!log)
        return;
    if (log->jsonl)
        fclose(log->jsonl);
    if (log->vtt)
        fclose(log->vtt);
    free(log);
}

cJSON *vis_watch_log_event_new(const char *kind, double t_ms, long frame)
{
    cJSON *ev = cJSON_CreateObject();
    if (!ev)
        return NULL;
    cJSON_AddStringToObject(ev, "event", kind);
    rules_json_add_number(ev, "t_ms", t_ms, 1);
    cJSON_AddNumberToObject(ev, "frame", (double)frame);
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char wall[40], full[48];
    strftime(wall, sizeof wall, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(full, sizeof full, "%s.%03dZ", wall, (int)(tv.tv_usec / 1000));
    cJSON_AddStringToObject(ev, "wall", full);
    return ev;
}

int vis_watch_log_write(vis_watch_log *log, cJSON *ev, rules_error *err)
{
    if (!ev) {
        cJSON_Delete(ev);
        return rules_error_set(err, "out of memory");
    }
    if (!log || !log->jsonl) {
        cJSON_Delete(ev);
        return 0;
    }
    /* seq first in the line: a reader sees gaps at a glance. */
    cJSON *seq = cJSON_CreateNumber((double)++log->seq);
    if (!seq || !cJSON_InsertItemInArray(ev, 0, seq)) {
        cJSON_Delete(seq);
        cJSON_Delete(ev);
        return rules_error_set(err, "out of memory");
    }
    seq->string = strdup("seq");
    char *line = seq->string ? cJSON_PrintUnformatted(ev) : NULL;
    cJSON_Delete(ev);
    if (!line)
        return rules_error_set(err, "out of memory");
    /* One write of the whole line: a crash leaves whole lines only, except at worst the last. */
    size_t n = strlen(line);
    line[n] = '\n';
    int rc = fwrite(line, 1, n + 1, log->jsonl) == n + 1 ? 0 : -1;
    free(line);
    if (rc < 0)
        return rules_error_set(err, "%s: cannot write: %s", log->jsonl_path, strerror(errno));
    return sync_file(log->jsonl, log->jsonl_path, err);
}

static void vtt_time(double ms, char *buf, size_t cap)
{
    if (!(ms > 0))
        ms = 0;
    long t = lround(ms);
    snprintf(buf, cap, "%02ld:%02ld:%02ld.%03ld", t / 3600000, t / 60000 % 60, t / 1000 % 60, t % 1000);
}

int vis_watch_log_cue(vis_watch_log *log, double t0_ms, double t1_ms, const char *text, rules_error *err)
{
    if (!log || !log->vtt)
        return 0;
    char a[32], b[32];
    vtt_time(t0_ms, a, sizeof a);
    vtt_time(t1_ms > t0_ms ? t1_ms : t0_ms + 1, b, sizeof b);
    /* A blank line ends a cue, and "-->" starts a timing line: keep both out of the text. */
    fprintf(log->vtt, "%ld\n%s --> %s\n", ++log->cues, a, b);
    int blank = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n' && blank)
            continue;
        if (p[0] == '-' && p[1] == '-' && p[2] == '>') {
            fputs("->", log->vtt);
            p += 2;
            blank = 0;
            continue;
        }
        fputc(*p, log->vtt);
        blank = *p == '\n';
    }
    fputs(blank ? "\n" : "\n\n", log->vtt);
    return sync_file(log->vtt, log->vtt_path, err);
}

void vis_watch_log_unit_sentence(const rules_unit_report *u, char *buf, size_t cap)
{
    char how[160] = "";
    if (u->has_path && u->path.n_steps) {
        size_t off = 0;
        for (size_t i = 0; i < u->path.n_steps && off + 2 < sizeof how; i++) {
            const rules_step *st = &u->path.steps[i];
            /* The search may add vanishing wheels to match the end pose exactly; people need not read them. */
            if (st->length_mm < 1.0 && fabs(st->angle_rad) < rules_deg_to_rad(0.5))
                continue;
            char step[96];
            rules_step_describe(&u->path.steps[i], step, sizeof step);
            off += (size_t)snprintf(how + off, sizeof how - off, "%s%s", off ? ", " : " ", step);
        }
    }
    if (u->legal || u->n_violations == 0)
        snprintf(buf, cap, "%s: %s%s%s, legal.", u->unit_id, rules_move_word(u->move),
                 u->direction ? " " : "", u->direction ? u->direction : "");
    else
        snprintf(buf, cap, "%s: %s, ILLEGAL: %s", u->unit_id, rules_move_word(u->move), u->violations[0].message);
    if (u->legal && how[0]) {
        size_t n = strlen(buf);
        if (n > 0 && n + 1 < cap) {
            buf[n - 1] = 0; /* drop the full stop, add the path */
            snprintf(buf + n - 1, cap - (n - 1), " (%s).", how + 1);
        }
    }
}

int vis_watch_log_add_call(cJSON *ev, int move, const rules_report *r)
{
    cJSON_AddNumberToObject(ev, "move", move);
    cJSON_AddBoolToObject(ev, "legal", r->legal);
    cJSON *units = cJSON_AddArrayToObject(ev, "units");
    if (!units)
        return -1;
    for (size_t i = 0; i < r->n_units; i++) {
        const rules_unit_report *u = &r->units[i];
        cJSON *o = cJSON_CreateObject();
        if (!o)
            return -1;
        cJSON_AddItemToArray(units, o);
        cJSON_AddStringToObject(o, "unit", u->unit_id);
        cJSON_AddStringToObject(o, "side", u->side);
        cJSON_AddStringToObject(o, "move", rules_move_word(u->move));
        cJSON_AddBoolToObject(o, "legal", u->legal);
        cJSON *codes = cJSON_AddArrayToObject(o, "codes");
        for (size_t k = 0; codes && k < u->n_violations; k++)
            cJSON_AddItemToArray(codes, cJSON_CreateString(u->violations[k].code));
        char sentence[512];
        vis_watch_log_unit_sentence(u, sentence, sizeof sentence);
        cJSON_AddStringToObject(o, "sentence", sentence);
    }
    return 0;
}
