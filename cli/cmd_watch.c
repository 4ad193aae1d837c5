/*
 * tableref watch: referee a game live from the overhead camera (or replay a
 * recording). The options become a watch_session (watch/), which does the
 * watching. tableref watch-ctl sends a judge's command to a running watch.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base_file.h"
#include "base_plan.h"
#include "tableref_config.h"

#include "calib_file.h"
#include "ds_light.h"
#include "ds_loop_source.h"
#include "cli_args.h"
#include "commands.h"
#include "cap_rows.h"
#include "cap_source.h"
#include "ref_setup.h"
#include "roster.h"
#include "table_file.h"
#include "watch_control.h"
#include "watch_session.h"
#include "watch_source.h"
#include "cmd_watch_feed.h"

static volatile sig_atomic_t g_stop;
static void on_signal(int sig) { g_stop = sig; }

/* The help's head: the usage, then SRC as capture's table of sources has it (every row, registered ones too). */
static char doc_head[8192];
static void doc_head_fill(void)
{
    char rows[6144];
    cap_rows_help(rows, sizeof rows, "     ");
    snprintf(doc_head, sizeof doc_head, "%s%s\noptions:\n",
             "usage: tableref watch --source SRC --calib C.json --roster R.json [OPTIONS]\n"
             "       tableref watch --table T.json [OPTIONS]\n"
             "\n"
             "Watches the table and referees every move: when the table settles (nothing\n"
             "moves for --settle-ms and no hand hides tags), it takes a snapshot, checks the\n"
             "move against the previous one (move type inferred) and calls it.\n"
             "\n"
             "SRC, one of capture's sources (docs/formats.md, \"capture\"):\n",
             rows);
}

static const cli_doc doc = {
    "watch",
    doc_head,
    "\n"
    "Judge's commands are also read from stdin when it is a terminal or a pipe, one\n"
    "per line: `overrule [MOVE] [REASON]` (the move stands), `confirm [MOVE] [REASON]`,\n"
    "`undo [REASON]` (the last snapshot is undone), `status UNIT engaged|fleeing|shaken|\n"
    "charging[,...]|clear [REASON]` (the unit's status from now on), `reach UNIT [march|advance]`\n"
    "(where the unit can legally end, drawn on the video and projector until it moves; `reach clear`),\n"
    "`stop`. Every command is logged with\n"
    "who sent it and why; with --mqtt, judges' overrule, confirm and undo come from\n"
    "the venue's page too (logged as by \"mqtt:JUDGE\"). The event log and the subtitles are documented in\n"
    "docs/formats.md (\"Event log and subtitles\").\n"
    "\n"
    "Exit status: 0 every call legal (or overruled by the judge), 1 an illegal call\n"
    "stands, 2 bad input, no camera, or frames the calibration does not fit, 3 the\n"
    "camera was lost mid-game (what was recorded is kept).\n",
};

/* Beside FILE.mp4: FILE.ext; -1 (said on stderr) when it does not fit: a path is never cut. */
static int sibling(const char *path, const char *ext, char *out, size_t cap)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
    int n = snprintf(out, cap, "%.*s%s", (int)stem, path, ext);
    if (n < 0 || (size_t)n >= cap) {
        fprintf(stderr, "tableref watch: --record: the path is too long (over %zu bytes with %s)\n", cap - 1, ext);
        return -1;
    }
    return 0;
}

static int parse_size(const char *text, int *w, int *h)
{
    char tail;
    if (!text || sscanf(text, "%dx%d%c", w, h, &tail) != 2 || *w < 16 || *h < 16 || *w > 20000 || *h > 20000) {
        fprintf(stderr, "tableref watch: --size takes WIDTHxHEIGHT in pixels, e.g. 4056x3040 (got '%s')\n",
                text ? text : "");
        return -1;
    }
    return 0;
}

/* Commands from stdin (when someone can type or pipe into it) and from the control pipe. */
static int open_command_sources(watch_session *s, const char *control, int *fifo_fd)
{
    base_error err;
    struct stat st;
    /* stdin only when someone can type or pipe into it: /dev/null or a file would read as the end at once. */
    if ((isatty(STDIN_FILENO) || (fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))) &&
        watch_control_add_fd(watch_session_control(s), STDIN_FILENO, "stdin", &err) < 0)
        fprintf(stderr, "tableref watch: %s\n", err.msg);
    if (!control)
        return 0;
    if ((*fifo_fd = watch_control_open_fifo(control, &err)) < 0 ||
        watch_control_add_fd(watch_session_control(s), *fifo_fd, "control", &err) < 0) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* --table, given once or twice: a whole number is the venue table number, anything else the table file. */
static int split_table_args(const cli_list *l, const char **table_path, int *number)
{
    for (int i = 0; i < l->n; i++) {
        const char *v = l->items[i];
        size_t digits = strspn(v, "0123456789");
        if (digits > 0 && v[digits] == 0) {
            if (*number || digits > 6 || atoi(v) < 1) {
                fprintf(stderr, "tableref watch: --table N takes one table number from 1 to 999999 (got '%s')\n", v);
                return -1;
            }
            *number = atoi(v);
        } else if (*table_path) {
            fprintf(stderr, "tableref watch: --table T.json given twice ('%s', '%s')\n", *table_path, v);
            return -1;
        } else {
            *table_path = v;
        }
    }
    return 0;
}

/* The event log and subtitles beside the recording unless named; -1 (said) when a path would not fit. */
static int beside_recording(watch_session_config *cfg, char *jsonl_buf, char *vtt_buf, size_t cap)
{
    if (cfg->record_path && !cfg->log_path) {
        if (sibling(cfg->record_path, ".events.jsonl", jsonl_buf, cap) < 0)
            return -1;
        cfg->log_path = jsonl_buf;
        base_plan_add(BASE_PLAN_APPEND, jsonl_buf, "--record", cfg->record_path);
    }
    if (cfg->record_path && !cfg->vtt_path) {
        if (sibling(cfg->record_path, ".vtt", vtt_buf, cap) < 0)
            return -1;
        cfg->vtt_path = vtt_buf;
        base_plan_add(BASE_PLAN_APPEND, vtt_buf, "--record", cfg->record_path);
    }
    char clips[4200];
    if (cfg->record_path && sibling(cfg->record_path, ".clips/move-*.mp4", clips, sizeof clips) == 0)
        base_plan_add(BASE_PLAN_WRITE, clips, "--record", cfg->record_path);
    return 0;
}

/* Ctrl-C and kill end the watch cleanly (the recording is closed); a judge's page going away does not. */
static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* What the command line says: the session's and the camera's configurations, the files, the feed. */
typedef struct watch_args {
    watch_session_config cfg;
    cap_source_config ccfg;
    const char *source, *calib_path, *roster_path, *control, *size, *table_path;
    feed_opts feed;
    int with_feed; /* 1: attach the venue feed */
    const char *sim_frames; /* sim: write the camera's frames here (ccfg.sim_frames) */
} watch_args;

/* What the options read as numbers and flags (cli_parse's doubles and ints), before they go into the configurations. */
typedef struct watch_words {
    double settle, jitter, fps, timeout, sim_light;
    int projector, realtime, quiet, replace;
    cli_list tables;
} watch_words;

/* The option table, read into *a and *w: cli_parse's answer. */
static int watch_args_read(int argc, char **argv, watch_args *a, watch_words *w)
{
    const cli_opt opts[] = {
        CLI_SOURCE("--source", &a->source, "SRC", "the camera, video or pictures (above)"),
        CLI_CALIB_OPT(&a->calib_path),
        CLI_ROSTER_OPT(&a->roster_path),
        CLI_INPUTS("--table", &w->tables, "T.json|N",
                 "the table file (docs/formats.md): calibration, rosters,\n"
                 "ruleset with house rules, terrain, and the camera and its\n"
                 "size; --source, --calib and --roster then come from it.\n"
                 "A whole number N (1 to 999999) is this table's number for\n"
                 "the venue feed (below): both may be given"),
        CLI_APPEND("--record", &a->cfg.record_path, "FILE.mp4",
                   "write the annotated video (H.264, fragmented MP4: a kill or\n"
                   "a full disk loses at most the last second), with FILE.vtt\n"
                   "subtitles (one cue per move and call), FILE.events.jsonl and\n"
                   "FILE.clips/move-N.mp4 beside it: an evidence clip of each\n"
                   "ILLEGAL or CANNOT TELL call (from 5 s before the table last\n"
                   "moved to 1 s after it settled)"),
        CLI_STRING("--clip-url", &a->cfg.clip_url, "URL",
                   "where a judge's page finds FILE.clips/ (e.g. served over\n"
                   "HTTP): the call's events then carry URL/move-N.mp4 too"),
        CLI_APPEND("--log", &a->cfg.log_path, "FILE.jsonl",
                   "the event log (appended to, never truncated; one JSON\n"
                   "line per event, fsync'ed)"),
        CLI_APPEND("--vtt", &a->cfg.vtt_path, "FILE.vtt", "subtitles without a recording"),
        CLI_FLAG("--replace", &w->replace, 1,
                 "overwrite an existing recording and subtitles (by\n"
                 "default an existing file is an error: it is an earlier game)"),
        CLI_FLAG("--projector", &w->projector, 1,
                 "show the annotated table fullscreen (needs a display and\n"
                 "the calibration's projector section, not stale: refused\n"
                 "otherwise, docs/formats.md);\n"
                 "keys: o overrule the last call, c confirm it, u undo it, q quit"),
        CLI_STRING("--size", &a->size, "WxH",
                   "ask the camera for this frame size (default: the size the\n"
                   "calibration was made at); every frame must match the calibration"),
        CLI_NUMBER("--settle-ms", &w->settle, "N", 0, 600000, "still time before a snapshot (default 1000)"),
        CLI_NUMBER("--jitter-mm", &w->jitter, "X", 0, 1000, "a unit moved less than this did not move (default 2)"),
        CLI_INPUT("--control", &a->control, "FIFO",
                   "read judge's commands from a named pipe (created if missing);\n"
                   "send them with `tableref watch-ctl FIFO overrule|confirm|undo|stop`"),
        CLI_NUMBER("--fps", &w->fps, "N", 0.01, 1000, "frame rate of an image sequence (default 5)"),
        CLI_WHOLE("--timeout-ms", &w->timeout, "N", 1, 600000, "a camera silent this long is lost (default 3000)"),
        CLI_FLAG("--realtime", &w->realtime, 1, "replay a recording at its own frame rate (as if live)"),
        CLI_FLAG("--quiet", &w->quiet, 1, "no per-frame progress on stderr"),
        CLI_NUMBER("--sim-light", &w->sim_light, "X", 0, 10,
                   "with --source sim:SEQ.json: the simulated projector's white\n"
                   "against the room's light (default 2.5; 0: the projector off)"),
        CLI_OUT_DIR("--sim-frames", &a->sim_frames, "DIR", "*.jpg calib.json roster.json",
                   "with --source sim:SEQ.json: also write the simulated camera's\n"
                   "frames to DIR (created) as NNNNNN.jpg, with its calibration\n"
                   "and roster (DIR/calib.json, DIR/roster.json): the same game\n"
                   "can then be watched from the folder"),
        CLI_TEXT("\nThe venue feed (docs/venue.md; topics and payloads in docs/formats.md):"),
        CLI_STRING("--mqtt", &a->feed.mqtt, "HOST[:PORT]",
                   "publish every event, the table's state and the overlay\n"
                   "picture to the venue's MQTT broker (default port 1883),\n"
                   "and take judges' commands from it; a broker that cannot\n"
                   "be reached is said once and retried, never waited for"),
        CLI_STRING("--event", &a->feed.event, "NAME", "the tournament, as in the topics (letters, digits . _ -)"),
        CLI_STRING("--mqtt-user", &a->feed.user, "NAME",
                   "the broker user: this table's own account, table-N (tableref venue setup)"),
        CLI_INPUT("--mqtt-password-file", &a->feed.password_file, "FILE", "its password, the file's first line"),
    };
    return cli_parse(&doc, argc, argv, opts, CLI_N(opts), NULL, 0);
}

/*
 * An option the source cannot honour is refused, never silently ignored: a source that brings its own set-up
 * (sim:, its row says) takes no --calib, --roster, table file, nor a camera option its row does not read; the
 * simulator's own options go with it only. 0, or -1 (said).
 */
static int refuse_unread_options(const watch_args *a, const watch_words *w)
{
    const cap_row *row = a->source ? cap_rows_find(a->source) : NULL;
    const int reads = row ? row->options : 0;
    const char *refused = NULL;
    if (watch_source_brings_setup(a->source)) {
        refused = a->calib_path ? "--calib" : a->roster_path ? "--roster" : a->table_path ? "--table T.json"
                  : a->size && !(reads & CAP_OPT_SIZE) ? "--size" : !isnan(w->fps) && !(reads & CAP_OPT_FPS) ? "--fps"
                  : !isnan(w->timeout) && !(reads & CAP_OPT_TIMEOUT) ? "--timeout-ms" : NULL;
        if (refused) {
            fprintf(stderr, "tableref watch: %s cannot be honoured: %s brings its own camera, calibration and "
                            "roster\n", refused, a->source);
            return -1;
        }
    } else if (!isnan(w->sim_light) || a->sim_frames) {
        fprintf(stderr, "tableref watch: %s goes with a simulated table (--source sim:SEQ.json) only\n",
                a->sim_frames ? "--sim-frames" : "--sim-light");
        return -1;
    }
    return 0;
}

/* argv into *a: 0, or CLI_DONE (the help was printed) or CLI_ERROR (a message was). */
static int watch_args_parse(int argc, char **argv, watch_args *a)
{
    memset(a, 0, sizeof *a);
    watch_session_config_default(&a->cfg);
    cap_source_config_default(&a->ccfg);
    /* The camera's options start unset (NAN), so that one given to a source that cannot honour it is refused. */
    watch_words w = {.settle = a->cfg.tracker.settle_ms, .jitter = a->cfg.tracker.jitter_mm, .fps = NAN,
                     .timeout = NAN, .sim_light = NAN};
    int n_pos = watch_args_read(argc, argv, a, &w);
    if (n_pos < 0)
        return n_pos;
    if (split_table_args(&w.tables, &a->table_path, &a->feed.table) < 0 || refuse_unread_options(a, &w) < 0)
        return CLI_ERROR;
    a->with_feed = watch_feed_check(&a->feed);
    if (a->with_feed < 0)
        return CLI_ERROR;
    /* A source that brings its own calibration and roster (sim:) needs neither: its row says. */
    const char *missing = a->table_path || watch_source_brings_setup(a->source) ? NULL
                          : !a->source ? "--source SRC (or --table T.json)"
                          : !a->calib_path ? "--calib C.json (or --table T.json)"
                          : !a->roster_path ? "--roster R.json (or --table T.json)" : NULL;
    if (missing) {
        fprintf(stderr, "tableref watch: missing %s (try --help)\n", missing);
        return CLI_ERROR;
    }
    watch_session_config *cfg = &a->cfg;
    cfg->tracker.settle_ms = w.settle, cfg->tracker.jitter_mm = w.jitter;
    cfg->projector = w.projector, cfg->realtime = w.realtime, cfg->quiet = w.quiet, cfg->replace = w.replace;
    cfg->source = a->source, cfg->calib_path = a->calib_path, cfg->roster_path = a->roster_path;
    a->ccfg.fps = isnan(w.fps) ? a->ccfg.fps : w.fps;
    a->ccfg.timeout_ms = isnan(w.timeout) ? a->ccfg.timeout_ms : (int)w.timeout;
    a->ccfg.sim_light = isnan(w.sim_light) ? DS_LIGHT_RATIO_DEFAULT : w.sim_light, a->ccfg.sim_frames = a->sim_frames;
    return 0;
}

/* --projector needs the calibration's projector section, made through this camera (calib_file_projector_stale's
 * rule): else the watch does not start. A section without a stamp is used with a warning. */
static bool projector_refused(const calib_file *calib, const char *calib_path, const roster_file *roster, int w, int h)
{
    char why[256];
    int st = calib_file_projector_stale(calib, w, h, roster->board_width, roster->board_depth, why, sizeof why);
    if (st == CALIB_PROJ_OK)
        return false;
    fprintf(stderr, "tableref watch: %s: %sprojector: %s\n", calib_path, st == CALIB_PROJ_UNSTAMPED ? "warning: " : "",
            why);
    return st != CALIB_PROJ_UNSTAMPED;
}

/* The session over its source until it ends, is lost or is stopped, with the judge's commands (stdin, --control)
 * and the venue feed (--mqtt): a camera, a recording or the simulated table alike. Its exit status. */
static int run_session(watch_session *s, cap_source *cap, const watch_args *a)
{
    int rc = EXIT_BAD_INPUT, fifo_fd = -1;
    if (open_command_sources(s, a->control, &fifo_fd) < 0)
        goto done;
    if (a->with_feed && watch_feed_attach(s, &a->feed) < 0)
        goto done;
    catch_signals();
    rc = watch_session_run(s, cap, &g_stop);
done:
    if (fifo_fd >= 0)
        close(fifo_fd);
    return rc;
}

/* --sim-frames DIR: the simulated camera's calibration and roster beside its frames (DIR/calib.json, roster.json),
 * so that the same game can be watched again from the folder, as a camera's frames are. */
static int save_sim_setup(const char *dir, const ds_loop_setup *su, base_error *err)
{
    if (!dir)
        return 0;
    char *calib = base_file_join(dir, "calib.json"), *roster = base_file_join(dir, "roster.json");
    int rc = !calib || !roster ? base_error_setc(err, BASE_E_NOMEM, "out of memory")
             : calib_file_save(su->camera, calib, err) < 0 || roster_save(su->roster, roster, err) < 0 ? -1 : 0;
    free(calib);
    free(roster);
    return rc;
}

/* A source that brings its own table (sim:SEQ.json, the table simulator): its camera's calibration and its
 * roster come with it, and it sees what this watch projects (watch_source_open closes the loop). Everything
 * else is a camera's: the event log and subtitles beside the recording, clips, commands, the venue feed. */
static int watch_simulated(const watch_args *a)
{
    base_error err;
    watch_session_config cfg = a->cfg;
    char jsonl_buf[4096], vtt_buf[4096];
    if (beside_recording(&cfg, jsonl_buf, vtt_buf, sizeof jsonl_buf) < 0)
        return EXIT_BAD_INPUT;
    ds_loop_setup su;
    cap_source *cap = watch_source_open(a->source, &a->ccfg, &cfg, &err);
    /* The sequence and its scene are read now: checked before anything is written. */
    if (cap && cli_plan_check("watch") < 0) {
        cap_source_close(cap);
        return EXIT_BAD_INPUT;
    }
    const bool setup = cap && ds_loop_source_setup(cap, &su) == 0;
    if (cap && !setup) /* a row with a set-up of its own that is not the simulator's */
        base_error_setc(&err, BASE_E_UNSUPPORTED, "%s: this watch takes a set-up only from sim: sources",
                        a->source);
    int rc = EXIT_BAD_INPUT;
    /* The simulated table's set-up: its camera, roster and terrain (hills and all), as a table file gives them. */
    ref_setup *rs = setup && save_sim_setup(a->sim_frames, &su, &err) == 0
                        ? ref_setup_wrap(su.camera, su.roster, cfg.calib_path, cfg.roster_path, &err) : NULL;
    if (rs && ref_setup_set_terrain(rs, su.table->terrain, su.table->n_terrain, &err) < 0) {
        ref_setup_free(rs);
        rs = NULL;
    }
    watch_session *s = rs ? watch_session_new_setup(rs, &cfg, &err) : NULL;
    if (!s)
        fprintf(stderr, "tableref watch: %s\n", err.msg);
    else
        rc = run_session(s, cap, a);
    watch_session_free(s);
    ref_setup_free(rs);
    cap_source_close(cap);
    return rc;
}

/* What a live watch reads before it starts: its set-up (the table file, or the calibration and the roster, opened
 * as every command opens them: referee/ref_setup.h) and the files beside the recording. */
typedef struct watch_inputs {
    ref_setup *setup;
    char jsonl_buf[4096], vtt_buf[4096]; /* the event log and subtitles beside the recording */
} watch_inputs;

static void watch_inputs_clear(watch_inputs *in)
{
    ref_setup_free(in->setup);
    in->setup = NULL;
}

/* The set-up; the camera's size; the files beside the recording. Fills in what the table file gives into *a. 0, or
 * EXIT_BAD_INPUT (said on stderr) with nothing left to free. */
static int watch_inputs_load(watch_args *a, watch_inputs *in)
{
    base_error err;
    memset(in, 0, sizeof *in);
    /* A watch judges only units that move: a unit without rates is taken (REF_SETUP_RATES_LATER). With --table,
     * --calib and --roster only name the files in the events. */
    in->setup = ref_setup_open(a->table_path, a->table_path ? NULL : a->calib_path,
                               a->table_path ? NULL : a->roster_path, REF_SETUP_RATES_LATER, &err);
    if (!in->setup) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    const table_file *t = in->setup->table;
    if (t) {
        if (!a->source && !t->source[0]) {
            fprintf(stderr, "tableref watch: %s names no camera (\"source\"): give --source SRC\n", a->table_path);
            watch_inputs_clear(in);
            return EXIT_BAD_INPUT;
        }
        a->source = a->source ? a->source : t->source;
        a->calib_path = a->calib_path ? a->calib_path : a->table_path;
        a->roster_path = a->roster_path ? a->roster_path : a->table_path;
    }
    /* Ask a camera for the calibrated size (or the table's): the intrinsics hold for that size only. */
    a->ccfg.width = t ? t->width : in->setup->calib.width;
    a->ccfg.height = t ? t->height : in->setup->calib.height;
    if ((a->size && parse_size(a->size, &a->ccfg.width, &a->ccfg.height) < 0) ||
        beside_recording(&a->cfg, in->jsonl_buf, in->vtt_buf, sizeof in->jsonl_buf) < 0) {
        watch_inputs_clear(in);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

/* The live watch over the camera until it ends, is lost or is stopped: its exit status. */
static int watch_live(const watch_args *a, watch_inputs *in)
{
    base_error err;
    int rc = EXIT_BAD_INPUT;
    cap_source *cap = NULL;
    watch_session *s = NULL;
    if (a->cfg.projector &&
        projector_refused(&in->setup->calib, a->calib_path, in->setup->roster, a->ccfg.width, a->ccfg.height))
        goto done;
    /* A camera or a recording: it sees the real projector, if any, not the session's pictures (cfg NULL). The
     * source first: its files (a folder's frames) are inputs no output may land on, checked before the session
     * opens its log, subtitles and recording. */
    if (!(cap = watch_source_open(a->source, &a->ccfg, NULL, &err))) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        goto done;
    }
    if (cli_plan_check("watch") < 0)
        goto done;
    if (!(s = watch_session_new_setup(in->setup, &a->cfg, &err))) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        goto done;
    }
    rc = run_session(s, cap, a);
done:
    watch_session_free(s);
    cap_source_close(cap);
    return rc;
}

int cmd_watch(int argc, char **argv)
{
    doc_head_fill();
    watch_args a;
    int r = watch_args_parse(argc, argv, &a);
    if (r < 0)
        return cli_status(r);
    if (watch_source_brings_setup(a.source))
        return watch_simulated(&a);
    watch_inputs in;
    if (watch_inputs_load(&a, &in) != 0)
        return EXIT_BAD_INPUT;
    int rc = watch_live(&a, &in);
    watch_inputs_clear(&in);
    return rc;
}

static const cli_doc ctl_doc = {
    "watch-ctl",
    "usage: tableref watch-ctl FIFO overrule|confirm [MOVE] [REASON...] | undo [REASON...] | stop\n\n"
    "Sends a judge's command to the `tableref watch --control FIFO` running on\n"
    "this machine: overrule the call on a move (default the latest: the move\n"
    "stands), confirm it, undo the last snapshot, or stop. The reason is logged.\n",
    "Exit status: 0 sent, 2 no watch is listening or bad usage.\n",
};

int cmd_watch_ctl(int argc, char **argv)
{
    /* The words after FIFO are the command as typed (a reason may hold anything): no options but the help. */
    if (cli_wants_help(argc, argv) || cli_dumping(argc, argv))
        return cli_status(cli_parse(&ctl_doc, argc, argv, NULL, 0, NULL, 0));
    if (argc < 3) {
        cli_help(stderr, &ctl_doc, NULL, 0);
        return EXIT_BAD_INPUT;
    }
    char line[512];
    size_t off = 0;
    for (int i = 2; i < argc && off < sizeof line; i++)
        off += (size_t)snprintf(line + off, sizeof line - off, "%s%s", i > 2 ? " " : "", argv[i]);
    watch_command c;
    if (watch_command_parse(line, "watch-ctl", &c) < 0) {
        fprintf(stderr, "tableref watch-ctl: %s\n", c.error);
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
    /* One write of at most PIPE_BUF bytes arrives whole, never mixed with another writer's. */
    size_t n = strlen(line);
    line[n < sizeof line - 1 ? n : sizeof line - 2] = '\n';
    n = n < sizeof line - 1 ? n + 1 : sizeof line - 1;
    ssize_t w = write(fd, line, n);
    close(fd);
    if (w != (ssize_t)n) {
        fprintf(stderr, "tableref watch-ctl: %s: cannot write: %s\n", argv[1], strerror(errno));
        return EXIT_BAD_INPUT;
    }
    return 0;
}
