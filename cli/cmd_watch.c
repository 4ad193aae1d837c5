/*
 * tableref watch: referee a game live from the overhead camera (or replay a
 * recording): snapshot the table each time it settles, judge each move,
 * call it on stdout, in an fsync'ed event log, on a projector and in an
 * annotated recording with subtitles. tableref watch-ctl sends a judge's
 * correction to a running watch.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calib_file.h"
#include "cli_args.h"
#include "commands.h"
#include "cvshim.h"
#include "rules_json.h"
#include "vis_capture.h"
#include "vis_roster.h"
#include "vis_watch.h"
#include "vis_watch_log.h"
#if TABLEREF_HAVE_OVERLAY
#include "ov_draw.h"
#endif

/* A camera lost mid-game: what was recorded is kept, but the game was not watched to its end. */
#define EXIT_CAMERA_LOST 3
/* How long a call stays on screen in the subtitles, ms. */
#define CUE_MS 6000.0

static volatile sig_atomic_t g_stop;

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static void on_signal(int sig) { g_stop = sig; }

static void watch_usage(FILE *out)
{
    fprintf(out,
            "usage: tableref watch --source SRC --calib C.json --roster R.json [OPTIONS]\n"
            "\n"
            "Watches the table and referees every move: when the table settles (nothing\n"
            "moves for --settle-ms and no hand hides tags), it takes a snapshot, checks the\n"
            "move against the previous one (move type inferred) and calls it.\n"
            "\n"
            "SRC: libcamera[:N]  a libcamera camera (Raspberry Pi)\n"
            "     v4l2:/dev/videoN  a USB webcam\n"
            "     DIR | frames/%%04d.jpg  an image sequence (timestamps from --fps)\n"
            "     FILE  a video file (timestamps from its frame rate)\n"
            "\n"
            "options:\n"
            "  --record FILE.mp4   write the annotated video, with FILE.vtt subtitles (one\n"
            "                      cue per move and call) and FILE.events.jsonl beside it\n"
            "  --log FILE.jsonl    the event log (append-only JSON lines, fsync'ed per event)\n"
            "  --vtt FILE.vtt      subtitles without a recording\n"
            "  --projector         show the annotated table fullscreen (needs a display);\n"
            "                      keys: a accept the last call, u undo it, q quit\n"
            "  --settle-ms N       still time before a snapshot (default 1000)\n"
            "  --jitter-mm X       a unit moved less than this did not move (default 2)\n"
            "  --control FIFO      read corrections from a named pipe (created if missing);\n"
            "                      send them with `tableref watch-ctl FIFO accept|undo|stop`\n"
            "  --fps N             frame rate of an image sequence (default 5)\n"
            "  --timeout-ms N      a camera silent this long is lost (default 3000)\n"
            "  --realtime          replay a recording at its own frame rate (as if live)\n"
            "  --quiet             no per-frame progress on stderr\n"
            "\n"
            "Corrections are also read from stdin (lines `accept`, `undo`, `stop`) when it is\n"
            "a terminal or a pipe. The event log and the subtitles are documented in\n"
            "docs/formats.md (\"Event log and subtitles\").\n"
            "\n"
            "Exit status: 0 every call legal (or accepted by the judge), 1 an illegal call\n"
            "stands, 2 bad input or no camera, 3 the camera was lost mid-game (what was\n"
            "recorded is kept).\n");
}

typedef struct watch_ctx {
    vis_watch *w;
    vis_watch_log *log;
    const vis_roster *roster;
    calib_file calib;
    cvs_video_writer *writer;
    int illegal_calls;       /* illegal calls not accepted */
    int calls;
    double last_t;
    long last_frame;
    double cue_open_t;       /* t of the last call cue, to let the next replace it */
    /* What the recording and the projector show: the latest call until the table moves again. */
    int show_move;
    bool showing;
    bool quiet;
#if TABLEREF_HAVE_OVERLAY
    ov_target *ov;
    ov_options ovo;
    uint8_t *layer;          /* premultiplied BGR of the annotation */
    uint8_t *layer_keep;     /* 255 * (1 - alpha) per pixel */
    int layer_w, layer_h;
    long layer_key;
    bool overlay_failed;
    /* The projector's own picture: the call in projector pixels (calibration's "projector" section). */
    ov_target *proj_ov;
    cvs_image *proj_image;
    long proj_key;
#endif
    long generation;         /* bumped whenever what is shown may change */
    cvs_image *annotated;
    bool projector;
    bool projector_failed;
    /* per move: was it illegal? (for the exit status after corrections) */
    bool *illegal;
    size_t cap_illegal;
} watch_ctx;

static void log_event(watch_ctx *c, cJSON *ev)
{
    rules_error err;
    if (vis_watch_log_write(c->log, ev, &err) < 0)
        fprintf(stderr, "tableref watch: event log: %s\n", err.msg);
}

static void cue(watch_ctx *c, double t, const char *text)
{
    rules_error err;
    if (vis_watch_log_cue(c->log, t, t + CUE_MS, text, &err) < 0)
        fprintf(stderr, "tableref watch: subtitles: %s\n", err.msg);
}

static void note_illegal(watch_ctx *c, int move, bool illegal)
{
    if ((size_t)move >= c->cap_illegal) {
        size_t nc = (size_t)move * 2 + 8;
        bool *a = realloc(c->illegal, nc * sizeof *a);
        if (!a)
            return;
        memset(a + c->cap_illegal, 0, (nc - c->cap_illegal) * sizeof *a);
        c->illegal = a, c->cap_illegal = nc;
    }
    c->illegal[move] = illegal;
}

static bool was_illegal(const watch_ctx *c, int move)
{
    return move > 0 && (size_t)move < c->cap_illegal && c->illegal[move];
}

/* Announces a settle and, when a unit moved, the call. */
static void on_settled(watch_ctx *c, const vis_watch_result *r, long frame, double t)
{
    cJSON *ev = vis_watch_log_event_new("settled", t, frame);
    if (ev) {
        cJSON_AddNumberToObject(ev, "tags_seen", (double)r->tags_seen);
        cJSON_AddNumberToObject(ev, "tags_missing", (double)r->tags_missing);
        cJSON_AddBoolToObject(ev, "full_frame", r->full_frame);
        rules_json_add_number(ev, "detect_ms", r->detect_ms, 1);
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
    log_event(c, ev);
    if (r->first) {
        size_t models = 0;
        for (size_t u = 0; u < r->after->n_units; u++)
            models += r->after->units[u].n_models;
        printf("[%8.1f s] table settled: %zu units, %zu models; watching\n", t / 1000, r->after->n_units, models);
        char text[128];
        snprintf(text, sizeof text, "Table settled: %zu units. Watching.", r->after->n_units);
        cue(c, t, text);
        fflush(stdout);
        return;
    }
    if (!r->moved) {
        if (!c->quiet)
            fprintf(stderr, "[%8.1f s] %s\n", t / 1000, r->note[0] ? r->note : "settled: no unit moved");
        return;
    }
    c->calls++;
    note_illegal(c, r->move, !r->report->legal);
    if (!r->report->legal)
        c->illegal_calls++;
    ev = vis_watch_log_event_new("move_checked", t, frame);
    if (ev) {
        vis_watch_log_add_call(ev, r->move, r->report);
        rules_json_add_number(ev, "check_ms", r->check_ms, 2);
        cJSON *after = rules_json_from_snapshot(r->after);
        if (after)
            cJSON_AddItemToObject(ev, "snapshot", after);
    }
    log_event(c, ev);
    char text[2048];
    size_t off = 0;
    for (size_t i = 0; i < r->report->n_units; i++) {
        const rules_unit_report *u = &r->report->units[i];
        char sentence[512];
        vis_watch_log_unit_sentence(u, sentence, sizeof sentence);
        printf("[%8.1f s] move %d: %s\n", t / 1000, r->move, sentence);
        if (off < sizeof text)
            off += (size_t)snprintf(text + off, sizeof text - off, "%sMove %d: %s", off ? "\n" : "", r->move, sentence);
        if (!u->legal) {
            cJSON *al = vis_watch_log_event_new("alert", t, frame);
            if (al) {
                cJSON_AddNumberToObject(al, "move", r->move);
                cJSON_AddStringToObject(al, "unit", u->unit_id);
                cJSON *codes = cJSON_AddArrayToObject(al, "codes");
                for (size_t k = 0; codes && k < u->n_violations; k++)
                    cJSON_AddItemToArray(codes, cJSON_CreateString(u->violations[k].code));
                cJSON_AddStringToObject(al, "sentence", sentence);
            }
            log_event(c, al);
            printf("[%8.1f s] ALERT move %d: %s\n", t / 1000, r->move, sentence);
        }
    }
    fflush(stdout);
    cue(c, t, text);
    c->show_move = r->move;
    c->showing = true;
}

static void correction(watch_ctx *c, const char *cmd, const char *by, long frame, double t)
{
    int m = 0;
    const char *action = NULL;
    if (strcmp(cmd, "accept") == 0) {
        action = "accept";
        m = vis_watch_accept(c->w);
        if (m && was_illegal(c, m))
            c->illegal_calls--;
    } else if (strcmp(cmd, "undo") == 0) {
        action = "undo";
        m = vis_watch_undo(c->w);
        if (m && was_illegal(c, m) && !vis_watch_accepted(c->w, m))
            c->illegal_calls--;
        if (m)
            note_illegal(c, m, false);
        c->showing = false;
    } else if (strcmp(cmd, "stop") == 0 || strcmp(cmd, "quit") == 0) {
        g_stop = SIGTERM;
        return;
    } else {
        fprintf(stderr, "tableref watch: unknown correction '%s' (accept, undo, stop)\n", cmd);
        return;
    }
    c->generation++;
    cJSON *ev = vis_watch_log_event_new("correction", t, frame);
    if (ev) {
        cJSON_AddStringToObject(ev, "action", action);
        cJSON_AddNumberToObject(ev, "move", m);
        cJSON_AddBoolToObject(ev, "applied", m != 0);
        cJSON_AddStringToObject(ev, "by", by);
    }
    log_event(c, ev);
    char text[160];
    if (m)
        snprintf(text, sizeof text, "Judge: move %d %s.", m, strcmp(action, "accept") == 0 ? "accepted" : "undone");
    else
        snprintf(text, sizeof text, "Judge: nothing to %s.", action);
    printf("[%8.1f s] %s\n", t / 1000, text);
    fflush(stdout);
    if (m)
        cue(c, t, text);
}

/* Reads whole lines from a non-blocking descriptor; each complete line is a correction. */
typedef struct line_reader {
    int fd;
    char buf[256];
    size_t n;
    const char *name;
} line_reader;

static void poll_lines(watch_ctx *c, line_reader *lr, long frame, double t)
{
    if (lr->fd < 0)
        return;
    for (;;) {
        struct pollfd p = {lr->fd, POLLIN, 0};
        if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP)))
            return;
        ssize_t k = read(lr->fd, lr->buf + lr->n, sizeof lr->buf - 1 - lr->n);
        if (k <= 0) {
            /* EOF on stdin: stop reading it. A FIFO reopens for the next writer. */
            if (k == 0 && strcmp(lr->name, "stdin") == 0)
                lr->fd = -1;
            return;
        }
        lr->n += (size_t)k;
        lr->buf[lr->n] = 0;
        char *nl;
        while ((nl = strchr(lr->buf, '\n'))) {
            *nl = 0;
            char *s = lr->buf;
            while (*s == ' ' || *s == '\t')
                s++;
            size_t L = strlen(s);
            while (L && (s[L - 1] == '\r' || s[L - 1] == ' '))
                s[--L] = 0;
            if (*s)
                correction(c, s, lr->name, frame, t);
            size_t used = (size_t)(nl + 1 - lr->buf);
            memmove(lr->buf, nl + 1, lr->n - used + 1);
            lr->n -= used;
        }
        if (lr->n == sizeof lr->buf - 1)
            lr->n = 0; /* a line too long to be a command */
    }
}

#if TABLEREF_HAVE_OVERLAY
/*
 * The annotation as a layer with alpha, drawn only when what is shown
 * changes (drawing a verdict costs ~200 ms at 1280x960; compositing a few).
 * The overlay draws over opaque backgrounds only, so the layer is drawn
 * twice, over black and over white: Cairo's "over" gives black = a*C and
 * white = a*C + 255*(1 - a), hence 1 - a = (white - black) / 255, and the
 * frame becomes black + frame * (1 - a).
 */
static int draw_layer(watch_ctx *c, int w, int h, rules_error *err)
{
    const size_t n = (size_t)w * h * 3;
    uint8_t *black = calloc(n, 1), *white = malloc(n);
    uint8_t *keep = realloc(c->layer_keep, (size_t)w * h);
    if (keep)
        c->layer_keep = keep;
    if (!black || !white || !keep) {
        free(black);
        free(white);
        return rules_error_set(err, "out of memory");
    }
    memset(white, 255, n);
    const rules_snapshot *now = vis_watch_snapshot(c->w), *before = NULL, *after = NULL;
    const rules_report *rep = NULL;
    const bool verdict = c->showing && vis_watch_last_call(c->w, &before, &after, &rep) == c->show_move;
    uint8_t *bufs[2] = {black, white};
    int rc = 0;
    for (int k = 0; k < 2 && rc == 0; k++) {
        if (!c->ov) {
            c->ov = ov_target_new_camera(&c->calib, w, h, bufs[k], OV_PIX_BGR24, (size_t)w * 3, err);
            if (!c->ov) {
                rc = -1;
                break;
            }
            ov_options_default(&c->ovo);
        } else if ((rc = ov_target_set_background(c->ov, bufs[k], OV_PIX_BGR24, (size_t)w * 3, err)) < 0) {
            break;
        }
        if (verdict)
            rc = ov_draw_verdict(c->ov, before, after, rep, &c->ovo, err);
        else if (now)
            rc = ov_draw_snapshot(c->ov, now, &c->ovo, err);
        if (rc == 0)
            rc = ov_target_copy_pixels(c->ov, bufs[k], OV_PIX_BGR24, (size_t)w * 3, err);
    }
    if (rc == 0) {
        for (size_t i = 0; i < (size_t)w * h; i++) {
            int d = white[3 * i + 1] - black[3 * i + 1];
            c->layer_keep[i] = (uint8_t)(d < 0 ? 0 : d);
        }
        free(c->layer);
        c->layer = black;
        black = NULL;
        c->layer_w = w, c->layer_h = h;
    }
    free(black);
    free(white);
    return rc;
}
#endif

/* The frame with the current call (or the tracked table) drawn on it, or the frame as is. */
static const cvs_image *annotate(watch_ctx *c, const vis_frame *f)
{
#if TABLEREF_HAVE_OVERLAY
    rules_error err;
    const int w = f->image->width, h = f->image->height;
    if (!c->annotated || c->annotated->width != w || c->annotated->height != h) {
        cvs_image_free(c->annotated);
        if (!(c->annotated = cvs_image_new(w, h, 3, 0)))
            return f->image;
    }
    const long key = c->generation * 2 + (c->showing ? 1 : 0);
    if ((!c->layer || key != c->layer_key || c->layer_w != w || c->layer_h != h) && !c->overlay_failed) {
        if (draw_layer(c, w, h, &err) < 0) {
            fprintf(stderr, "tableref watch: overlay: %s (recording without annotations)\n", err.msg);
            c->overlay_failed = true;
        }
        c->layer_key = key;
    }
    cvs_image *out = c->annotated;
    for (int r = 0; r < h; r++) {
        const uint8_t *s = f->image->data + (size_t)r * f->image->stride;
        uint8_t *d = out->data + (size_t)r * out->stride;
        const uint8_t *L = c->layer ? c->layer + (size_t)r * w * 3 : NULL;
        const uint8_t *K = c->layer ? c->layer_keep + (size_t)r * w : NULL;
        for (int x = 0; x < w; x++) {
            for (int ch = 0; ch < 3; ch++) {
                int v = f->image->channels == 3 ? s[3 * x + ch] : s[x];
                d[3 * x + ch] = L ? (uint8_t)(L[3 * x + ch] + (v * K[x] + 127) / 255) : (uint8_t)v;
            }
        }
    }
    return out;
#else
    (void)c;
    return f->image;
#endif
}

/*
 * What the projector shows. With a projector mapping in the calibration the
 * call is drawn in projector pixels, so it lands on the table itself; without
 * one the annotated camera frame is shown (useful on a monitor).
 */
static const cvs_image *projector_picture(watch_ctx *c, const cvs_image *camera_annotated)
{
#if TABLEREF_HAVE_OVERLAY
    const calib_projector *p = &c->calib.projector;
    if (!p->present || c->overlay_failed)
        return camera_annotated;
    rules_error err;
    if (!c->proj_ov) {
        c->proj_ov = ov_target_new_projector(p->H, p->width, p->height, &err);
        c->proj_image = c->proj_ov ? cvs_image_new(p->width, p->height, 3, 0) : NULL;
        if (!c->proj_ov || !c->proj_image) {
            fprintf(stderr, "tableref watch: projector picture: %s; showing the camera view\n",
                    c->proj_ov ? "out of memory" : err.msg);
            c->overlay_failed = true;
            return camera_annotated;
        }
        ov_options_default(&c->ovo);
        c->proj_key = -1;
    }
    const long key = c->generation * 2 + (c->showing ? 1 : 0);
    if (key != c->proj_key) {
        const rules_snapshot *now = vis_watch_snapshot(c->w), *before = NULL, *after = NULL;
        const rules_report *rep = NULL;
        const bool verdict = c->showing && vis_watch_last_call(c->w, &before, &after, &rep) == c->show_move;
        memset(c->proj_image->data, 0, (size_t)c->proj_image->stride * c->proj_image->height);
        int rc = ov_target_set_background(c->proj_ov, c->proj_image->data, OV_PIX_BGR24, c->proj_image->stride, &err);
        if (rc == 0 && verdict)
            rc = ov_draw_verdict(c->proj_ov, before, after, rep, &c->ovo, &err);
        else if (rc == 0 && now)
            rc = ov_draw_snapshot(c->proj_ov, now, &c->ovo, &err);
        if (rc == 0)
            rc = ov_target_copy_pixels(c->proj_ov, c->proj_image->data, OV_PIX_BGR24, c->proj_image->stride, &err);
        if (rc < 0)
            fprintf(stderr, "tableref watch: projector picture: %s\n", err.msg);
        c->proj_key = key;
    }
    return c->proj_image;
#else
    (void)c;
    return camera_annotated;
#endif
}

/* Beside FILE.mp4: FILE.ext. */
static void sibling(const char *path, const char *ext, char *out, size_t cap)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
    snprintf(out, cap, "%.*s%s", (int)stem, path, ext);
}

static int open_fifo(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        if (mkfifo(path, 0600) < 0) {
            fprintf(stderr, "tableref watch: %s: cannot create the control pipe: %s\n", path, strerror(errno));
            return -1;
        }
    } else if (!S_ISFIFO(st.st_mode)) {
        fprintf(stderr, "tableref watch: %s: exists and is not a named pipe\n", path);
        return -1;
    }
    /* O_RDWR keeps a writer open ourselves, so the pipe never reports EOF between watch-ctl calls. */
    int fd = open(path, O_RDWR | O_NONBLOCK);
    if (fd < 0)
        fprintf(stderr, "tableref watch: %s: cannot open: %s\n", path, strerror(errno));
    return fd;
}

int cmd_watch(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        watch_usage(stdout);
        return 0;
    }
    const char *source = NULL, *calib_path = NULL, *roster_path = NULL, *record = NULL, *log_path = NULL,
               *vtt_path = NULL, *control = NULL, *v;
    bool projector = false, quiet = false, realtime = false;
    vis_watch_config cfg;
    vis_watch_config_default(&cfg);
    vis_capture_config ccfg;
    vis_capture_config_default(&ccfg);
    for (int i = 1; i < argc; i++) {
        int r;
        double num;
        if ((r = cli_value(argc, argv, &i, "--source", &v)) != 0) {
            if (r < 0)
                return EXIT_BAD_INPUT;
            source = v;
        } else if ((r = cli_value(argc, argv, &i, "--calib", &v)) != 0) {
            if (r < 0)
                return EXIT_BAD_INPUT;
            calib_path = v;
        } else if ((r = cli_value(argc, argv, &i, "--roster", &v)) != 0) {
            if (r < 0)
                return EXIT_BAD_INPUT;
            roster_path = v;
        } else if ((r = cli_value(argc, argv, &i, "--record", &v)) != 0) {
            if (r < 0)
                return EXIT_BAD_INPUT;
            record = v;
        } else if ((r = cli_value(argc, argv, &i, "--log", &v)) != 0) {
            if (r < 0)
                return EXIT_BAD_INPUT;
            log_path = v;
        } else if ((r = cli_value(argc, argv, &i, "--vtt", &v)) != 0) {
            if (r < 0)
                return EXIT_BAD_INPUT;
            vtt_path = v;
        } else if ((r = cli_value(argc, argv, &i, "--control", &v)) != 0) {
            if (r < 0)
                return EXIT_BAD_INPUT;
            control = v;
        } else if ((r = cli_value(argc, argv, &i, "--settle-ms", &v)) != 0) {
            if (r < 0 || cli_number("--settle-ms", v, &num) < 0 || num < 0)
                return EXIT_BAD_INPUT;
            cfg.settle_ms = num;
        } else if ((r = cli_value(argc, argv, &i, "--jitter-mm", &v)) != 0) {
            if (r < 0 || cli_number("--jitter-mm", v, &num) < 0 || num < 0)
                return EXIT_BAD_INPUT;
            cfg.jitter_mm = num;
        } else if ((r = cli_value(argc, argv, &i, "--fps", &v)) != 0) {
            if (r < 0 || cli_number("--fps", v, &num) < 0 || !(num > 0 && num <= 1000)) {
                fprintf(stderr, "tableref watch: --fps takes a rate in 0..1000\n");
                return EXIT_BAD_INPUT;
            }
            ccfg.fps = num;
        } else if ((r = cli_value(argc, argv, &i, "--timeout-ms", &v)) != 0) {
            if (r < 0 || cli_number("--timeout-ms", v, &num) < 0 || !(num >= 1 && num <= 600000))
                return EXIT_BAD_INPUT;
            ccfg.timeout_ms = (int)num;
        } else if (strcmp(argv[i], "--projector") == 0) {
            projector = true;
        } else if (strcmp(argv[i], "--realtime") == 0) {
            realtime = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else {
            fprintf(stderr, "tableref watch: unexpected argument '%s' (try --help)\n", argv[i]);
            return EXIT_BAD_INPUT;
        }
    }
    if (!source || !calib_path || !roster_path) {
        watch_usage(stderr);
        return EXIT_BAD_INPUT;
    }
    rules_error err;
    watch_ctx c;
    memset(&c, 0, sizeof c);
    c.quiet = quiet;
    c.projector = projector;
    if (calib_file_load(calib_path, &c.calib, &err) < 0) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    vis_roster *roster = vis_roster_load(roster_path, &err);
    if (!roster) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    c.roster = roster;
    vis_capture *cap = vis_capture_open(source, &ccfg, &err);
    if (!cap) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        vis_roster_free(roster);
        return EXIT_BAD_INPUT;
    }
    int rc = EXIT_BAD_INPUT;
    char jsonl_buf[4096], vtt_buf[4096];
    if (record && !log_path) {
        sibling(record, ".events.jsonl", jsonl_buf, sizeof jsonl_buf);
        log_path = jsonl_buf;
    }
    if (record && !vtt_path) {
        sibling(record, ".vtt", vtt_buf, sizeof vtt_buf);
        vtt_path = vtt_buf;
    }
    line_reader in = {-1, {0}, 0, "stdin"}, fifo = {-1, {0}, 0, "control"};
    struct stat st;
    /* stdin only when someone can type or pipe into it: /dev/null or a file would read as "stop" at EOF. */
    if (isatty(STDIN_FILENO) || (fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))) {
        in.fd = STDIN_FILENO;
        fcntl(in.fd, F_SETFL, fcntl(in.fd, F_GETFL) | O_NONBLOCK);
    }
    if (control && (fifo.fd = open_fifo(control)) < 0)
        goto done;
    if (!(c.w = vis_watch_new(roster, &c.calib, &cfg, &err)) ||
        !(c.log = vis_watch_log_open(log_path, vtt_path, &err))) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        goto done;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    cJSON *ev = vis_watch_log_event_new("started", 0, 0);
    if (ev) {
        cJSON_AddStringToObject(ev, "format", VIS_WATCH_LOG_FORMAT);
        cJSON_AddNumberToObject(ev, "version", VIS_WATCH_LOG_VERSION);
        cJSON_AddStringToObject(ev, "source", source);
        cJSON_AddStringToObject(ev, "source_kind", vis_capture_describe(cap));
        rules_json_add_number(ev, "fps", vis_capture_fps(cap), 3);
        cJSON_AddNumberToObject(ev, "settle_ms", cfg.settle_ms);
        cJSON_AddNumberToObject(ev, "jitter_mm", cfg.jitter_mm);
        cJSON_AddStringToObject(ev, "calib", calib_path);
        cJSON_AddStringToObject(ev, "roster", roster_path);
        if (record)
            cJSON_AddStringToObject(ev, "record", record);
    }
    log_event(&c, ev);
    if (!quiet)
        fprintf(stderr, "tableref watch: %s\n", vis_capture_describe(cap));

    const char *reason = "end of recording";
    bool lost = false;
    vis_frame f;
    long frames = 0;
    const double start_ms = mono_ms();
    for (;;) {
        if (g_stop) {
            reason = g_stop == SIGINT ? "interrupted (SIGINT)" : "stopped (SIGTERM or stop command)";
            break;
        }
        int r = vis_capture_read(cap, &f, &err);
        if (r == 0)
            break;
        if (r < 0) {
            lost = true;
            reason = "camera lost";
            cJSON *e = vis_watch_log_event_new("camera_lost", c.last_t, c.last_frame);
            if (e)
                cJSON_AddStringToObject(e, "reason", err.msg);
            log_event(&c, e);
            cJSON *al = vis_watch_log_event_new("alert", c.last_t, c.last_frame);
            if (al)
                cJSON_AddStringToObject(al, "sentence", "The camera was lost: the game is no longer watched.");
            log_event(&c, al);
            char text[640];
            snprintf(text, sizeof text, "Camera lost: %s", err.msg);
            cue(&c, c.last_t, text);
            printf("[%8.1f s] ALERT camera lost: %s\n", c.last_t / 1000, err.msg);
            fflush(stdout);
            break;
        }
        frames++;
        c.last_t = f.t_ms, c.last_frame = f.index;
        if (realtime) {
            /* Frame times of a recording start at 0: wait until this one is due. */
            double due = start_ms + f.t_ms, now = mono_ms();
            if (due > now) {
                struct timespec ts = {(time_t)((due - now) / 1000), (long)(fmod(due - now, 1000.0) * 1e6)};
                nanosleep(&ts, NULL);
            }
        }
        vis_watch_result res;
        if (vis_watch_frame(c.w, f.gray->data, f.gray->width, f.gray->height, f.gray->stride, f.t_ms, &res, &err) <
            0) {
            fprintf(stderr, "tableref watch: frame %ld: %s\n", f.index, err.msg);
            reason = "error";
            break;
        }
        if (res.state == VIS_WATCH_MOVING)
            c.showing = false;
        if (res.settled) {
            on_settled(&c, &res, f.index, f.t_ms);
            c.generation++;
        }
        else if (res.note[0] && !quiet)
            fprintf(stderr, "[%8.1f s] %s\n", f.t_ms / 1000, res.note);
        poll_lines(&c, &in, f.index, f.t_ms);
        poll_lines(&c, &fifo, f.index, f.t_ms);

        if (record || (projector && !c.projector_failed)) {
            const cvs_image *shown = annotate(&c, &f);
            if (record && !c.writer) {
                char codec[8] = "";
                double fps = vis_capture_fps(cap);
                c.writer = cvs_video_writer_open(record, shown->width, shown->height, fps > 0 ? fps : 5, codec, &err);
                if (!c.writer) {
                    fprintf(stderr, "tableref watch: %s\n", err.msg);
                    record = NULL;
                } else if (!quiet) {
                    fprintf(stderr, "tableref watch: recording %s (%s)\n", record, codec);
                }
            }
            if (c.writer && cvs_video_write(c.writer, shown, &err) < 0)
                fprintf(stderr, "tableref watch: recording: %s\n", err.msg);
            if (projector && !c.projector_failed) {
                if (cvs_window_show("tableref", projector_picture(&c, shown), 1, &err) < 0) {
                    fprintf(stderr, "tableref watch: projector: %s; continuing without it\n", err.msg);
                    c.projector_failed = true;
                } else {
                    int key = cvs_window_key(1);
                    if (key == 'a')
                        correction(&c, "accept", "keyboard", f.index, f.t_ms);
                    else if (key == 'u')
                        correction(&c, "undo", "keyboard", f.index, f.t_ms);
                    else if (key == 'q' || key == 27)
                        g_stop = SIGTERM;
                }
            }
        }
    }
    /* Finish the recording first: its index makes the MP4 playable. */
    cvs_video_writer_close(c.writer);
    c.writer = NULL;
    if (projector && !c.projector_failed)
        cvs_window_close("tableref");
    ev = vis_watch_log_event_new("stopped", c.last_t, c.last_frame);
    if (ev) {
        cJSON_AddStringToObject(ev, "reason", reason);
        cJSON_AddNumberToObject(ev, "frames", (double)frames);
        cJSON_AddNumberToObject(ev, "calls", c.calls);
        cJSON_AddNumberToObject(ev, "illegal_standing", c.illegal_calls);
    }
    log_event(&c, ev);
    printf("watch: %ld frames, %d call%s, %d illegal standing (%s)\n", frames, c.calls, c.calls == 1 ? "" : "s",
           c.illegal_calls, reason);
    rc = lost ? EXIT_CAMERA_LOST : c.illegal_calls > 0 ? EXIT_ILLEGAL : EXIT_LEGAL;
done:
    cvs_video_writer_close(c.writer);
#if TABLEREF_HAVE_OVERLAY
    ov_target_free(c.ov);
    ov_target_free(c.proj_ov);
    cvs_image_free(c.proj_image);
    free(c.layer);
    free(c.layer_keep);
#endif
    cvs_image_free(c.annotated);
    free(c.illegal);
    vis_watch_log_close(c.log);
    vis_watch_free(c.w);
    if (fifo.fd >= 0)
        close(fifo.fd);
    vis_capture_close(cap);
    vis_roster_free(roster);
    return rc;
}

int cmd_watch_ctl(int argc, char **argv)
{
    if (cli_wants_help(argc, argv) || argc != 3) {
        FILE *out = argc == 3 ? stdout : stderr;
        fprintf(out, "usage: tableref watch-ctl FIFO accept|undo|stop\n\n"
                     "Sends a judge's correction to the `tableref watch --control FIFO` running\n"
                     "on this machine: accept the last call, undo the last snapshot, or stop.\n"
                     "Exit status: 0 sent, 2 no watch is listening or bad usage.\n");
        return cli_wants_help(argc, argv) ? 0 : EXIT_BAD_INPUT;
    }
    const char *cmd = argv[2];
    if (strcmp(cmd, "accept") != 0 && strcmp(cmd, "undo") != 0 && strcmp(cmd, "stop") != 0) {
        fprintf(stderr, "tableref watch-ctl: unknown command '%s' (accept, undo, stop)\n", cmd);
        return EXIT_BAD_INPUT;
    }
    struct stat st;
    if (stat(argv[1], &st) < 0 || !S_ISFIFO(st.st_mode)) {
        fprintf(stderr, "tableref watch-ctl: %s: not a control pipe (start tableref watch --control %s)\n", argv[1],
                argv[1]);
        return EXIT_BAD_INPUT;
    }
    /* Non-blocking: with no watch reading, open fails with ENXIO instead of waiting forever. */
    int fd = open(argv[1], O_WRONLY | O_NONBLOCK);
    if (fd < 0) {
        fprintf(stderr, "tableref watch-ctl: %s: no watch is listening (%s)\n", argv[1], strerror(errno));
        return EXIT_BAD_INPUT;
    }
    char line[32];
    int n = snprintf(line, sizeof line, "%s\n", cmd);
    ssize_t w = write(fd, line, (size_t)n);
    close(fd);
    if (w != n) {
        fprintf(stderr, "tableref watch-ctl: %s: cannot write: %s\n", argv[1], strerror(errno));
        return EXIT_BAD_INPUT;
    }
    return 0;
}
