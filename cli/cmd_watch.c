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

#include "calib_file.h"
#include "cli_args.h"
#include "commands.h"
#include "vis_capture.h"
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
            "  --record FILE.mp4   write the annotated video, with FILE.vtt subtitles (one\n"
            "                      cue per move and call) and FILE.events.jsonl beside it\n"
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
            "Judge's commands are also read from stdin when it is a terminal or a pipe, one\n"
            "per line: `overrule [MOVE] [REASON]` (the move stands), `confirm [MOVE] [REASON]`,\n"
            "`undo [REASON]` (the last snapshot is undone), `status UNIT engaged|fleeing|shaken|\n"
            "charging[,...]|clear [REASON]` (the unit's status from now on), `stop`. Every command is logged with\n"
            "who sent it and why. The event log and the subtitles are documented in\n"
            "docs/formats.md (\"Event log and subtitles\").\n"
            "\n"
            "Exit status: 0 every call legal (or overruled by the judge), 1 an illegal call\n"
            "stands, 2 bad input, no camera, or frames the calibration does not fit, 3 the\n"
            "camera was lost mid-game (what was recorded is kept).\n");
}

/* Beside FILE.mp4: FILE.ext. */
static void sibling(const char *path, const char *ext, char *out, size_t cap)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
    snprintf(out, cap, "%.*s%s", (int)stem, path, ext);
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
    rules_error err;
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

int cmd_watch(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        watch_usage(stdout);
        return 0;
    }
    watch_session_config cfg;
    watch_session_config_default(&cfg);
    vis_capture_config ccfg;
    vis_capture_config_default(&ccfg);
    const char *source = NULL, *calib_path = NULL, *roster_path = NULL, *control = NULL, *size = NULL,
               *table_path = NULL;
    double settle = cfg.tracker.settle_ms, jitter = cfg.tracker.jitter_mm, fps = ccfg.fps, timeout = ccfg.timeout_ms;
    int projector = 0, realtime = 0, quiet = 0, replace = 0;
    const cli_opt opts[] = {
        {"--source", CLI_OPT_STRING, &source, 0},     {"--calib", CLI_OPT_STRING, &calib_path, 0},
        {"--table", CLI_OPT_STRING, &table_path, 0},
        {"--roster", CLI_OPT_STRING, &roster_path, 0}, {"--record", CLI_OPT_STRING, &cfg.record_path, 0},
        {"--log", CLI_OPT_STRING, &cfg.log_path, 0},   {"--vtt", CLI_OPT_STRING, &cfg.vtt_path, 0},
        {"--control", CLI_OPT_STRING, &control, 0},   {"--size", CLI_OPT_STRING, &size, 0},
        {"--settle-ms", CLI_OPT_NUMBER, &settle, 0},  {"--jitter-mm", CLI_OPT_NUMBER, &jitter, 0},
        {"--fps", CLI_OPT_NUMBER, &fps, 0},           {"--timeout-ms", CLI_OPT_NUMBER, &timeout, 0},
        {"--projector", CLI_OPT_FLAG, &projector, 1}, {"--realtime", CLI_OPT_FLAG, &realtime, 1},
        {"--quiet", CLI_OPT_FLAG, &quiet, 1},         {"--replace", CLI_OPT_FLAG, &replace, 1},
    };
    if (cli_parse("watch", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), NULL, 0) < 0)
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

    rules_error err;
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
    if (cfg.record_path && !cfg.log_path) {
        sibling(cfg.record_path, ".events.jsonl", jsonl_buf, sizeof jsonl_buf);
        cfg.log_path = jsonl_buf;
    }
    if (cfg.record_path && !cfg.vtt_path) {
        sibling(cfg.record_path, ".vtt", vtt_buf, sizeof vtt_buf);
        cfg.vtt_path = vtt_buf;
    }

    if (table_path) {
        roster = table.roster;
    } else if (!(roster = vis_roster_load(roster_path, &err))) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    int rc = EXIT_BAD_INPUT, fifo_fd = -1;
    vis_capture *cap = NULL;
    watch_session *s = watch_session_new(roster, &calib, &cfg, &err);
    if (!s || !(cap = vis_capture_open(source, &ccfg, &err))) {
        fprintf(stderr, "tableref watch: %s\n", err.msg);
        goto done;
    }
    if (open_command_sources(s, control, &fifo_fd) < 0)
        goto done;
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
    vis_capture_close(cap);
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
