#include "watch_vtt.h"

#include "base_text.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct watch_vtt {
    FILE *f;
    char path[1024];
    long cues;
    bool open_cue;          /* a cue has started and waits for its end */
    double open_t;
    char *open_text;
};

static int sync_file(watch_vtt *v, base_error *err)
{
    if (fflush(v->f) != 0 || fsync(fileno(v->f)) != 0)
        return base_error_set(err, "%s: cannot write: %s", v->path, strerror(errno));
    return 0;
}

watch_vtt *watch_vtt_open(const char *path, bool replace, base_error *err)
{
    watch_vtt *v = calloc(1, sizeof *v);
    if (!v) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    if (!path)
        return v;
    snprintf(v->path, sizeof v->path, "%s", path);
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | (replace ? O_TRUNC : O_EXCL), 0644);
    if (fd < 0 || !(v->f = fdopen(fd, "w"))) {
        if (errno == EEXIST)
            base_error_set(err, "%s: exists (the subtitles of an earlier recording?): choose another name, "
                                 "or --replace to overwrite it", path);
        else
            base_error_set(err, "%s: cannot create: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        free(v);
        return NULL;
    }
    fputs("WEBVTT - tableref calls\n\n", v->f);
    if (sync_file(v, err) < 0) {
        fclose(v->f);
        free(v);
        return NULL;
    }
    return v;
}

static void vtt_time(double ms, char *buf, size_t cap)
{
    if (!(ms > 0))
        ms = 0;
    long t = lround(ms);
    snprintf(buf, cap, "%02ld:%02ld:%02ld.%03ld", t / 3600000, t / 60000 % 60, t / 1000 % 60, t % 1000);
}

/* Writes the open cue from its start to end_ms. */
static int flush_cue(watch_vtt *v, double end_ms, base_error *err)
{
    if (!v->open_cue)
        return 0;
    v->open_cue = false;
    char a[32], b[32];
    vtt_time(v->open_t, a, sizeof a);
    /* A cue needs a positive length: a cue replaced within the same millisecond still shows for one. */
    vtt_time(end_ms > v->open_t + 1 ? end_ms : v->open_t + 1, b, sizeof b);
    fprintf(v->f, "%ld\n%s --> %s\n", ++v->cues, a, b);
    /* A blank line ends a cue, and "-->" starts a timing line: keep both out of the text. */
    int blank = 1;
    for (const char *p = v->open_text; *p; p++) {
        if (*p == '\n' && blank)
            continue;
        if (p[0] == '-' && p[1] == '-' && p[2] == '>') {
            fputs("->", v->f);
            p += 2;
            blank = 0;
            continue;
        }
        fputc(*p, v->f);
        blank = *p == '\n';
    }
    fputs(blank ? "\n" : "\n\n", v->f);
    free(v->open_text);
    v->open_text = NULL;
    return sync_file(v, err);
}

int watch_vtt_cue(watch_vtt *v, double t_ms, const char *text, base_error *err)
{
    if (!v || !v->f)
        return 0;
    int rc = flush_cue(v, t_ms, err);
    /* A cue's text is markup (a name's "<" or "&" would start a tag) and is shown to people (a control character from
     * a roster's name is shown as text, never sent to a player's terminal or subtitle renderer raw). */
    if (!(v->open_text = base_text_escape_subtitle(text ? text : "")))
        return base_error_set(err, "out of memory");
    v->open_cue = true;
    v->open_t = t_ms;
    return rc;
}

int watch_vtt_close(watch_vtt *v, double end_ms, base_error *err)
{
    if (!v)
        return 0;
    int rc = 0;
    if (v->f) {
        rc = flush_cue(v, end_ms, err);
        if (fclose(v->f) != 0 && rc == 0)
            rc = base_error_set(err, "%s: cannot write: %s", v->path, strerror(errno));
    }
    free(v->open_text);
    free(v);
    return rc;
}
