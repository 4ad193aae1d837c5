/*
 * tableref watch: referee a game live from the overhead camera (or replay a
 * recording). The options become a watch_session (watch/), which does the
 * watching. tableref watch-ctl sends a judge's command to a running watch.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base_file.h"
#include "tableref_config.h"

#include "calib_file.h"
#include "cli_args.h"
#include "commands.h"
#include "cap_source.h"
#include "table_file.h"
#include "vis_roster.h"
#include "watch_control.h"
#include "watch_session.h"

static volatile sig_atomic_t g_stop;
static void on_signal(int sig) { g_stop = sig; }

static void watch_usage(FILE *out)
{
    fprintf(out,
            "usage: tableref watch --source SRC --calib C.json --roster R.json [OPTIONS]\n"
            "       tableref watch --table T.json [OPTIONS]\n"
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
            "  --table T.json      the table file (docs/formats.md): calibration, rosters,\n"
            "                      ruleset with house rules, terrain, and the camera and its\n"
            "                      size; --source, --calib and --roster then come from it\n"
            "  --record FILE.mp4   write the annotated video (H.264, fragmented MP4: a kill or\n"
            "                      a full disk loses at most the last second), with FILE.vtt\n"
            "                      subtitles (one cue per move and call), FILE.events.jsonl and\n"
            "                      FILE.clips/move-N.mp4 beside it: an evidence clip of each\n"
            "                      ILLEGAL or CANNOT TELL call (from 5 s before the table last\n"
            "                      moved to 1 s after it settled)\n"
            "  --clip-url URL      where a judge's page finds FILE.clips/ (e.g. served over\n"
            "                      HTTP): the call's events then carry URL/move-N.mp4 too\n"
            "  --log FILE.jsonl    the event log (appended to, never truncated; one JSON\n"
            "                      line per event, fsync'ed)\n"
            "  --vtt FILE.vtt      subtitles without a recording\n"
            "  --replace           overwrite an existing recording and subtitles (by\n"
            "                      default an existing file is an error: it is an earlier game)\n"
            "  --projector         show the annotated table fullscreen (needs a display);\n"
            "                      keys: o overrule the last call, c confirm it, u undo it, q quit\n"
            "  --size WxH          ask the camera for this frame size (default: the size the\n"
            "                      calibration was made at); every frame must match the calibration\n"
            "  --settle-ms N       still time before a snapshot (default 1000)\n"
            "  --jitter-mm X       a unit moved less than this did not move (default 2)\n"
            "  --control FIFO      read judge's commands from a named pipe (created if missing);\n"
            "                      send them with `tableref watch-ctl FIFO overrule|confirm|undo|stop`\n"
            "  --fps N             frame rate of an image sequence (default 5)\n"
            "  --timeout-ms N      a camera silent this long is lost (default 3000)\n"
            "  --realtime          replay a recording at its own frame rate (as if live)\n"
            "  --quiet             no per-frame progress on stderr\n"
            "\n"
            "The venue feed (docs/venue.md; topics and payloads in docs/formats.md):\n"
            "  --mqtt HOST[:PORT]  publish every event, the table's state and the overlay\n"
            "                      picture to the venue's MQTT broker (default port 1883),\n"
            "                      and take judges' commands from it; a broker that cannot\n"
            "                      be reached is said once and retried, never waited for\n"
            "  --event NAME        the tournament, as in the topics (letters, digits . _ -)\n"
            "  --table N           this table's number (a whole number; --table T.json is\n"
            "                      the table file: both may be given)\n"
            "  --mqtt-user NAME    the broker user (the venue's ACL: \"tables\")\n"
            "  --mqtt-password-file FILE  its password, the file's first line\n"
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
            "camera was lost mid-game (what was recorded is kept).\n");
}

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

typedef struct feed_opts {
    const char *mqtt, *event, *user, *password_file;
    int table;
} feed_opts;

#if TABLEREF_HAVE_VENUE
/* The password: the file's first line without its line end. */
static int read_password(const char *path, char *out, size_t cap)
{
    /* A regular file only: a FIFO would wait for ever. */
    char *text = NULL;
    size_t len = 0;
    base_error err;
    if (base_file_read_all(path, 64 << 10, "a password file", &text, &len, &err) < 0) {
        fprintf(stderr, "tableref watch: --mqtt-password-file %s\n", err.msg);
        return -1;
    }
    size_t line = strcspn(text, "\r\n");
    if (line < cap)
        memcpy(out, text, line);
    out[line < cap ? line : 0] = 0;
    memset(text, 0, len);
    free(text);
    if (line >= cap) {
        fprintf(stderr, "tableref watch: --mqtt-password-file %s: the first line is over %zu bytes\n", path, cap - 1);
        return -1;
    }
    if (!out[0]) {
        fprintf(stderr, "tableref watch: --mqtt-password-file %s: empty (the password is its first line)\n", path);
        return -1;
    }
    return 0;
}

/* The venue feed on the session: every event out, judges' commands in. */
static int attach_feed(watch_session *s, const feed_opts *o)
{
    venue_config vc;
    venue_config_default(&vc);
    base_error err;
    char password[256] = "";
    if (o->password_file && read_password(o->password_file, password, sizeof password) < 0)
        return -1;
    if (venue_parse_broker(o->mqtt, &vc, &err) < 0) {
        fprintf(stderr, "tableref watch: --mqtt: %s\n", err.msg);
        return -1;
    }
    vc.event = o->event, vc.table = o->table;
    vc.username = o->user, vc.password = password[0] ? password : NULL;
    int rc = watch_session_attach_feed(s, &vc, &err);
    memset(password, 0, sizeof password);
    if (rc < 0)
        fprintf(stderr, "tableref watch: venue feed: %s\n", err.msg);
    return rc;
}
#endif

/* The feed's options together, or none of them; 0 when there is no feed to attach. */
static int check_feed_opts(const feed_opts *o)
{
    if (!o->mqtt) {
        if (o->event || o->user || o->password_file || o->table) {
            fprintf(stderr, "tableref watch: --event, --table N (a number), --mqtt-user and --mqtt-password-file go "
                            "with --mqtt HOST\n");
            return -1;
        }
        return 0;
    }
#if TABLEREF_HAVE_VENUE
    if (!o->event || !o->table) {
        fprintf(stderr, "tableref watch: --mqtt needs --event NAME and --table N (this table's number)\n");
        return -1;
    }
    if (o->password_file && !o->user) {
        fprintf(stderr, "tableref watch: --mqtt-password-file goes with --mqtt-user NAME\n");
        return -1;
    }
    return 1;
#else
    fprintf(stderr, "tableref watch: --mqtt: this tableref was built without the venue feed (libmosquitto)\n");
    return -1;
#endif
}

int cmd_watch(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        watch_usage(stdout);
        return 0;
    }
    watch_session_config cfg;
    watch_session_config_default(&cfg);
    cap_source_config ccfg;
    cap_source_config_default(&ccfg);
    const char *source = NULL, *calib_path = NULL, *roster_path = NULL, *control = NULL, *size = NULL,
               *table_path = NULL;
    double settle = cfg.tracker.settle_ms, jitter = cfg.tracker.jitter_mm, fps = ccfg.fps, timeout = ccfg.timeout_ms;
    int projector = 0, realtime = 0, quiet = 0, replace = 0;
    cli_list tables = {0};
    feed_opts feed = {0};
    const cli_opt opts[] = {
        {"--source", CLI_OPT_STRING, &source, 0},     {"--calib", CLI_OPT_STRING, &calib_path, 0},
        {"--table", CLI_OPT_LIST, &tables, 0},        {"--clip-url", CLI_OPT_STRING, &cfg.clip_url, 0},
        {"--mqtt", CLI_OPT_STRING, &feed.mqtt, 0},    {"--event", CLI_OPT_STRING, &feed.event, 0},
        {"--mqtt-user", CLI_OPT_STRING, &feed.user, 0},
        {"--mqtt-password-file", CLI_OPT_STRING, &feed.password_file, 0},
        {"--roster", CLI_OPT_STRING, &roster_path, 0}, {"--record", CLI_OPT_STRING, &cfg.record_path, 0},
        {"--log", CLI_OPT_STRING, &cfg.log_path, 0},   {"--vtt", CLI_OPT_STRING, &cfg.vtt_path, 0},
        {"--control", CLI_OPT_STRING, &control, 0},   {"--size", CLI_OPT_STRING, &size, 0},
        {"--settle-ms", CLI_OPT_NUMBER, &settle, 0},  {"--jitter-mm", CLI_OPT_NUMBER, &jitter, 0},
        {"--fps", CLI_OPT_NUMBER, &fps, 0},           {"--timeout-ms", CLI_OPT_NUMBER, &timeout, 0},
        {"--projector", CLI_OPT_FLAG, &projector, 1}, {"--realtime", CLI_OPT_FLAG, &realtime, 1},
        {"--quiet", CLI_OPT_FLAG, &quiet, 1},         {"--replace", CLI_OPT_FLAG, &replace, 1},
    };
    if (cli_parse("watch", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), NULL, 0) < 0 ||
        split_table_args(&tables, &table_path, &feed.table) < 0)
        return EXIT_BAD_INPUT;
    const int with_feed = check_feed_opts(&feed);
    if (with_feed < 0)
        return EXIT_BAD_INPUT;
    const char *missing = table_path ? NULL
                          : !source ? "--source SRC (or --table T.json)"
                          : !calib_path ? "--calib C.json (or --table T.json)"
                          : !roster_path ? "--roster R.json (or --table T.json)" : NULL;
    if (missing) {
        fprintf(stderr, "tableref watch: missing %s (try --help)\n", missing);
        return EXIT_BAD_INPUT;
    }
    if (!(settle >= 0) || !(jitter >= 0) || !(fps > 0 && fps <= 1000) || !(timeout >= 1 && timeout <= 600000)) {
        fprintf(stderr, "tableref watch: --settle-ms and --jitter-mm take values >= 0, --fps 0..1000, "
                        "--timeout-ms 1..600000\n");
        return EXIT_BAD_INPUT;
    }
    cfg.tracker.settle_ms = settle, cfg.tracker.jitter_mm = jitter;
    ccfg.fps = fps, ccfg.timeout_ms = (int)timeout;
    cfg.projector = projector, cfg.realtime = realtime, cfg.quiet = quiet, cfg.replace = replace;
    cfg.source = source, cfg.calib_path = calib_path, cfg.roster_path = roster_path;

    base_error err;
    table_file table = {0};
    calib_file calib;
    vis_roster *roster = NULL;
    if (table_path) {
        if (table_file_load(table_path, &table, &err) < 0) {
            fprintf(stderr, "tableref watch: %s\n", err.msg);
            return EXIT_BAD_INPUT;
        }
        if (!source && !table.source[0]) {
            fprintf(stderr, "tableref watch: %s names no camera (\"source\"): give --source SRC\n", table_path);
            table_file_clear(&table);
            return EXIT_BAD_INPUT;
        }
        calib = table.calib;
        source = source ? source : table.source;
        calib_path = calib_path ? calib_path : table_path;
        roster_path = roster_path ? roster_path : table_path;
        cfg.tracker.table = &table;
    } else if (calib_file_load(calib_path, &calib, &err) < 0) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    /* Ask a camera for the calibrated size (or the table's): the intrinsics hold for that size only. */
    ccfg.width = table_path ? table.width : calib.width, ccfg.height = table_path ? table.height : calib.height;
    if (size && parse_size(size, &ccfg.width, &ccfg.height) < 0) {
        table_file_clear(&table);
        return EXIT_BAD_INPUT;
    }
    char jsonl_buf[4096], vtt_buf[4096];
    if ((cfg.record_path && !cfg.log_path && sibling(cfg.record_path, ".events.jsonl", jsonl_buf, sizeof jsonl_buf) < 0) ||
        (cfg.record_path && !cfg.vtt_path && sibling(cfg.record_path, ".vtt", vtt_buf, sizeof vtt_buf) < 0)) {
        table_file_clear(&table);
        return EXIT_BAD_INPUT;
    }
    if (cfg.record_path && !cfg.log_path)
        cfg.log_path = jsonl_buf;
    if (cfg.record_path && !cfg.vtt_path)
        cfg.vtt_path = vtt_buf;

    if (table_path) {
        roster = table.roster;
    } else if (!(roster = vis_roster_load(roster_path, &err))) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    int rc = EXIT_BAD_INPUT, fifo_fd = -1;
    cap_source *cap = NULL;
    watch_session *s = watch_session_new(roster, &calib, &cfg, &err);
    if (!s || !(cap = cap_source_open(source, &ccfg, &err))) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        goto done;
    }
    if (open_command_sources(s, control, &fifo_fd) < 0)
        goto done;
#if TABLEREF_HAVE_VENUE
    if (with_feed && attach_feed(s, &feed) < 0)
        goto done;
#endif
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    rc = watch_session_run(s, cap, &g_stop);
done:
    watch_session_free(s);
    if (fifo_fd >= 0)
        close(fifo_fd);
    cap_source_close(cap);
    if (table_path)
        table_file_clear(&table);
    else
        vis_roster_free(roster);
    return rc;
}

int cmd_watch_ctl(int argc, char **argv)
{
    if (cli_wants_help(argc, argv) || argc < 3) {
        FILE *out = argc >= 3 ? stdout : stderr;
        fprintf(out, "usage: tableref watch-ctl FIFO overrule|confirm [MOVE] [REASON...] | undo [REASON...] | stop\n\n"
                     "Sends a judge's command to the `tableref watch --control FIFO` running on\n"
                     "this machine: overrule the call on a move (default the latest: the move\n"
                     "stands), confirm it, undo the last snapshot, or stop. The reason is logged.\n"
                     "Exit status: 0 sent, 2 no watch is listening or bad usage.\n");
        return cli_wants_help(argc, argv) ? 0 : EXIT_BAD_INPUT;
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
