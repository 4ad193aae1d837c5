#include "watch_log.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "base_geom.h"
#include "base_text.h"
#include "rules_json.h"
#include "rules_words.h"

struct watch_log {
    int fd;                 /* -1: writes nothing */
    char path[1024];
    long seq;
    size_t lost;            /* events not written since the last line that was */
    long first_lost_seq;
};

watch_log *watch_log_open(const char *jsonl_path, base_error *err)
{
    watch_log *log = calloc(1, sizeof *log);
    if (!log) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    log->fd = -1;
    if (!jsonl_path)
        return log;
    snprintf(log->path, sizeof log->path, "%s", jsonl_path);
    /* O_APPEND: never truncate an earlier game's events. Never through a link; O_NONBLOCK while opening: a FIFO
     * would wait for a reader (and is refused below: a game's events would go nowhere). */
    log->fd = open(jsonl_path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0644);
    if (log->fd < 0) {
        base_error_set(err, "%s: cannot open the event log: %s", jsonl_path,
                       errno == ELOOP ? "a symbolic link (give the real path)" : strerror(errno));
        free(log);
        return NULL;
    }
    struct stat kind;
    if (fstat(log->fd, &kind) != 0 || !(S_ISREG(kind.st_mode) || S_ISCHR(kind.st_mode))) {
        base_error_setc(err, BASE_E_NOT_REGULAR, "%s: cannot open the event log: not a regular file", jsonl_path);
        watch_log_close(log);
        return NULL;
    }
    fcntl(log->fd, F_SETFL, fcntl(log->fd, F_GETFL) & ~O_NONBLOCK);
    /* A line a crash left unfinished would glue itself to our first line: end it. */
    struct stat st;
    if (fstat(log->fd, &st) == 0 && st.st_size > 0) {
        char last = '\n';
        if (pread(log->fd, &last, 1, st.st_size - 1) == 1 && last != '\n' && write(log->fd, "\n", 1) != 1) {
            base_error_set(err, "%s: cannot write: %s", jsonl_path, strerror(errno));
            watch_log_close(log);
            return NULL;
        }
    }
    return log;
}

void watch_log_close(watch_log *log)
{
    if (!log)
        return;
    if (log->fd >= 0)
        close(log->fd);
    free(log);
}

size_t watch_log_lost(const watch_log *log) { return log ? log->lost : 0; }

cJSON *watch_log_event_new(const char *kind, double t_ms, long frame)
{
    cJSON *ev = cJSON_CreateObject();
    if (!ev)
        return NULL;
    cJSON_AddStringToObject(ev, "event", kind);
    base_json_add_number(ev, "t_ms", t_ms, 1);
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

/*
 * Writes `line` (ending in '\n') in one write() and fsyncs. On a short or
 * failed write the file is cut back to where it was, so it holds whole
 * lines only.
 */
static int write_line(watch_log *log, const char *line, size_t n, base_error *err)
{
    struct stat st;
    off_t before = fstat(log->fd, &st) == 0 ? st.st_size : -1;
    ssize_t w = write(log->fd, line, n);
    if (w == (ssize_t)n && fsync(log->fd) == 0)
        return 0;
    int e = w < 0 || w == (ssize_t)n ? errno : ENOSPC;
    if (w > 0 && before >= 0 && ftruncate(log->fd, before) != 0)
        return base_error_set(err, "%s: cannot write (%s), and a part-written line could not be cut off: %s",
                               log->path, strerror(e), strerror(errno));
    return base_error_set(err, "%s: cannot write: %s", log->path, strerror(e));
}

/* The "log_gap" line that tells a reader how many events are missing before it. */
static int write_gap(watch_log *log, base_error *err)
{
    char line[256];
    int n = snprintf(line, sizeof line,
                     "{\"seq\":%ld,\"event\":\"log_gap\",\"lost\":%zu,\"first_lost_seq\":%ld,"
                     "\"note\":\"events that could not be written (disk full?)\"}\n",
                     ++log->seq, log->lost, log->first_lost_seq);
    if (write_line(log, line, (size_t)n, err) < 0) {
        log->seq--;
        return -1;
    }
    log->lost = 0;
    return 0;
}

int watch_log_write(watch_log *log, cJSON *ev, base_error *err)
{
    if (!ev)
        return base_error_set(err, "out of memory");
    if (!log || log->fd < 0)
        return 0;
    if (log->lost && write_gap(log, err) < 0) {
        log->seq++; /* this event is lost too, under its own number */
        log->lost++;
        return -1;
    }
    /* seq first in the line: a reader sees gaps at a glance. */
    cJSON_DeleteItemFromObject(ev, "seq");
    cJSON *seq = cJSON_CreateNumber((double)(log->seq + 1));
    if (!seq || !cJSON_InsertItemInArray(ev, 0, seq)) {
        cJSON_Delete(seq);
        return base_error_set(err, "out of memory");
    }
    if (!(seq->string = strdup("seq")))
        return base_error_set(err, "out of memory");
    char *line = base_json_print(ev, false); /* DEL and C1 as \u escapes: a log line shown raw moves no cursor */
    if (!line)
        return base_error_set(err, "out of memory");
    size_t n = strlen(line);
    char *full = realloc(line, n + 2);
    if (!full) {
        free(line);
        return base_error_set(err, "out of memory");
    }
    full[n] = '\n';
    full[n + 1] = 0;
    int rc = write_line(log, full, n + 1, err);
    free(full);
    log->seq++;
    if (rc < 0 && log->lost++ == 0)
        log->first_lost_seq = log->seq;
    return rc;
}

void watch_log_unit_sentence(const rules_unit_report *u, const rules_snapshot *before, const rules_snapshot *after,
                             char *buf, size_t cap)
{
    rules_words_call(u, before, after, buf, cap); /* cut on a character boundary: the log stays valid UTF-8 */
}

int watch_log_add_call(cJSON *ev, int move, const rules_report *r, const rules_snapshot *before,
                       const rules_snapshot *after)
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
        cJSON_AddStringToObject(o, "move", rules_move_token(u->move));
        cJSON_AddBoolToObject(o, "legal", u->legal);
        cJSON_AddStringToObject(o, "verdict", rules_verdict_word(u->verdict));
        if (u->why[0])
            cJSON_AddStringToObject(o, "why", u->why);
        rules_report_add_roll_json(o, u); /* random movement: "needs": "roll", or the roll it was judged by */
        cJSON *codes = cJSON_AddArrayToObject(o, "codes");
        for (size_t k = 0; codes && k < u->n_violations; k++)
            cJSON_AddItemToArray(codes, cJSON_CreateString(u->violations[k].code));
        char sentence[RULES_WORDS_MAX];
        rules_words_call(u, before, after, sentence, sizeof sentence);
        cJSON_AddStringToObject(o, "sentence", sentence);
    }
    return 0;
}
