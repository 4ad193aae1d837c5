/* Shared by the watch suites: the rendered test turn, its one recorded watch run, JSONL reading. */
#define _DEFAULT_SOURCE /* timegm */
#include "watch_test_util.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "vision_test_util.h"


/* A shell command line; the test fails rather than run a truncated one. */

void wt_cmdf(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    cr_assert(n >= 0 && (size_t)n < cap, "command line longer than %zu bytes", cap);
}

static char wt_g_dir[2048];  /* the shared rendered sequence and its watch run */

const char *wt_work_dir(void)
{
    snprintf(wt_g_dir, sizeof wt_g_dir, "%s/tests/watch-turn", vt_env("TABLEREF_BUILD_ROOT", "/tmp"));
    return wt_g_dir;
}

void wt_path_in(char *out, size_t cap, const char *name) { snprintf(out, cap, "%s/%s", wt_work_dir(), name); }

int wt_run(const char *cmd)
{
    int st = system(cmd);
    return vt_exit_status(st);
}

/* The sequence file for the tests: the bundled scene, shorter phases. */
void wt_write_test_sequence(const char *path)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fprintf(f,
            "{\"format\": \"tableref.sequence\", \"version\": 1,\n"
            " \"scene\": \"%s/datasets/sequences/turn/scene.json\",\n"
            " \"fps\": 5, \"hold_s\": 1.2, \"move_s\": 0.6,\n"
            " \"moves\": [{\"unit\": \"spearmen\", \"forward_mm\": 76.2},\n"
            "            {\"unit\": \"archers\", \"rotate_deg\": 90},\n"
            "            {\"unit\": \"cavalry\", \"forward_mm\": 279.4}]}\n",
            vt_source_root());
    fclose(f);
}

/*
 * Renders the frames and runs one recorded watch over them, once per build
 * directory: tests run in parallel processes, so a lock file serialises the
 * work and a marker says it is done.
 */
void wt_ensure_run(void)
{
    char lock[2300], done[2300], cmd[8192], seq[2300];
    mkdir(wt_work_dir(), 0777);
    wt_path_in(lock, sizeof lock, "lock");
    wt_path_in(done, sizeof done, "done");
    int fd = open(lock, O_CREAT | O_RDWR, 0666);
    cr_assert(fd >= 0);
    cr_assert(flock(fd, LOCK_EX) == 0);
    if (access(done, F_OK) != 0) {
        wt_path_in(seq, sizeof seq, "sequence.json");
        wt_write_test_sequence(seq);
        wt_cmdf(cmd, sizeof cmd, "'%s' render-sequence '%s' --out '%s/seq' --supersample 1 >/dev/null",
                 vt_tableref_bin(), seq, wt_work_dir());
        cr_assert_eq(wt_run(cmd), 0, "render-sequence failed: %s", cmd);
        /* A fresh game each time: the event log appends, and an earlier game's clips are kept (renamed around). */
        wt_cmdf(cmd, sizeof cmd,
                "rm -rf '%s'/game.*; '%s' watch --source '%s/seq/frames' --calib '%s/seq/calib.json' "
                "--roster '%s/seq/roster.json' --settle-ms %d --record '%s/game.mp4' --quiet </dev/null "
                ">'%s/stdout.txt' 2>'%s/stderr.txt'; echo $? >'%s/status.txt'",
                wt_work_dir(), vt_tableref_bin(), wt_work_dir(), wt_work_dir(), wt_work_dir(), SETTLE_MS, wt_work_dir(),
                wt_work_dir(), wt_work_dir(), wt_work_dir());
        wt_run(cmd);
        FILE *f = fopen(done, "w");
        cr_assert(f);
        fclose(f);
    }
    flock(fd, LOCK_UN);
    close(fd);
}

ds_sequence *wt_load_sequence(void)
{
    char seq[2300];
    wt_path_in(seq, sizeof seq, "sequence.json");
    base_error err;
    ds_sequence *q = ds_sequence_load(seq, &err);
    cr_assert(q, "%s", err.msg);
    return q;
}

/* Every line of a JSONL file, parsed; each must be valid JSON. */
cJSON **wt_read_jsonl(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot open %s", path);
    cJSON **out = NULL;
    *n = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0) {
        cr_assert_eq(line[len - 1], '\n', "%s: line %zu is not complete", path, *n + 1);
        cJSON *j = cJSON_Parse(line);
        cr_assert(j, "%s: line %zu is not JSON: %s", path, *n + 1, line);
        out = realloc(out, (*n + 1) * sizeof *out);
        out[(*n)++] = j;
    }
    free(line);
    fclose(f);
    return out;
}

void wt_free_jsonl(cJSON **l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(l[i]);
    free(l);
}

const char *wt_event_of(const cJSON *e) { return cJSON_GetObjectItem(e, "event")->valuestring; }
double wt_num_of(const cJSON *e, const char *k) { return cJSON_GetObjectItem(e, k)->valuedouble; }


void wt_make_long_turn(char *dir, size_t cap, int tail, const char *name)
{
    enum { TURN_FRAMES = 33 };
    char seq[2300], cmd[8192];
    wt_path_in(seq, sizeof seq, "seq/frames");
    wt_path_in(dir, cap, name);
    wt_cmdf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    cr_assert_eq(wt_run(cmd), 0);
    for (int i = 0; i < TURN_FRAMES + tail; i++) {
        char from[2400], to[2400];
        snprintf(from, sizeof from, "%s/%06d.jpg", seq, i < TURN_FRAMES ? i : TURN_FRAMES - 1);
        snprintf(to, sizeof to, "%s/%06d.jpg", dir, i);
        cr_assert_eq(symlink(from, to), 0, "%s", to);
    }
}

double wt_wall_ms(const char *iso)
{
    struct tm tm = {0};
    int ms = 0;
    cr_assert(sscanf(iso, "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                     &tm.tm_sec, &ms) == 7, "wall time %s", iso);
    tm.tm_year -= 1900, tm.tm_mon -= 1;
    return (double)timegm(&tm) * 1000.0 + ms;
}
