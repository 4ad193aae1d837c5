/*
 * tableref watch on a rendered game turn: the settled moments, the calls
 * (against rules_move_check on the exact truth), the recording, the event
 * log surviving a kill, corrections, and plain errors without a camera.
 *
 * The turn (datasets/sequences/turn: spearmen advance 3", archers reform,
 * cavalry march 11" with a March Rate of 10") is rendered once per build at
 * test time, small and fast (supersample 1, 1.2 s holds, 0.6 s moves).
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <stdarg.h>

#include <cjson/cJSON.h>

#include "cap_video.h"
#include "cvshim.h"
#include "ds_sequence.h"
#include "rules_json.h"
#include "rules_move.h"
#include "tableref_config.h"
#include "cap_source.h"
#include "vision_test_util.h"
#if TABLEREF_HAVE_LIBCAMERA
#include "cap_libcamera.h"
#endif

#include "watch_test_util.h"
#include "media.h"

Test(watch, finds_exactly_the_settled_moments_and_the_right_calls, .timeout = 120)
{
    wt_ensure_run();
    char path[2300];
    wt_path_in(path, sizeof path, "status.txt");
    FILE *f = fopen(path, "r");
    int status = -1;
    cr_assert(f && fscanf(f, "%d", &status) == 1);
    fclose(f);
    cr_expect_eq(status, 1, "watch exits 1 when an illegal call stands (got %d)", status);

    ds_sequence *q = wt_load_sequence();
    const long settle_frames = SETTLE_MS / 200;  /* 5 fps */
    wt_path_in(path, sizeof path, "game.events.jsonl");
    size_t n;
    cJSON **ev = wt_read_jsonl(path, &n);
    cr_assert_gt(n, 2);
    cr_expect_str_eq(wt_event_of(ev[0]), "started");
    cr_expect_str_eq(wt_event_of(ev[n - 1]), "stopped");
    size_t settles = 0, checks = 0;
    for (size_t i = 0; i < n; i++) {
        const char *k = wt_event_of(ev[i]);
        cr_expect(cJSON_IsNumber(cJSON_GetObjectItem(ev[i], "seq")) && wt_num_of(ev[i], "seq") == (double)(i + 1),
                  "events numbered 1, 2, ... in order");
        if (strcmp(k, "settled") == 0) {
            /* The k-th settle is settle_ms into the k-th still run: not earlier (hands), not later. */
            long expect = ds_sequence_hold_start(q, settles) + settle_frames;
            cr_expect_eq((long)wt_num_of(ev[i], "frame"), expect, "settle %zu at frame %ld, expected %ld", settles,
                         (long)wt_num_of(ev[i], "frame"), expect);
            cr_expect_eq(cJSON_IsTrue(cJSON_GetObjectItem(ev[i], "moved")), settles > 0,
                         "every settle after the first follows a move");
            settles++;
        }
        if (strcmp(k, "move_checked") == 0) {
            checks++;
            /* The truth: the same check on the exact snapshots before and after the move. */
            base_error err;
            rules_snapshot *a = ds_sequence_keyframe(q, checks - 1, &err), *b = ds_sequence_keyframe(q, checks, &err);
            cr_assert(a && b);
            rules_check_options opt;
            rules_check_options_default(&opt);
            rules_report truth;
            rules_report_init(&truth);
            cr_assert_eq(rules_move_check(a, b, &opt, &truth, &err), 0, "%s", err.msg);
            cr_expect_eq((int)wt_num_of(ev[i], "move"), (int)checks);
            cr_expect_eq(cJSON_IsTrue(cJSON_GetObjectItem(ev[i], "legal")), truth.legal, "move %zu verdict", checks);
            const cJSON *units = cJSON_GetObjectItem(ev[i], "units");
            cr_assert_eq((size_t)cJSON_GetArraySize(units), truth.n_units, "move %zu: units judged", checks);
            for (size_t u = 0; u < truth.n_units; u++) {
                const cJSON *ju = cJSON_GetArrayItem(units, (int)u);
                const rules_unit_report *tu = &truth.units[u];
                cr_expect_str_eq(cJSON_GetObjectItem(ju, "unit")->valuestring, tu->unit_id);
                cr_expect_str_eq(cJSON_GetObjectItem(ju, "move")->valuestring, rules_move_word(tu->move));
                cr_expect_eq(cJSON_IsTrue(cJSON_GetObjectItem(ju, "legal")), tu->legal);
                const cJSON *codes = cJSON_GetObjectItem(ju, "codes");
                cr_expect_eq((size_t)cJSON_GetArraySize(codes), tu->n_violations, "move %zu: violations", checks);
                for (size_t v = 0; v < tu->n_violations && v < (size_t)cJSON_GetArraySize(codes); v++)
                    cr_expect_str_eq(cJSON_GetArrayItem(codes, (int)v)->valuestring, tu->violations[v].code);
            }
            rules_report_clear(&truth);
            rules_snapshot_free(a);
            rules_snapshot_free(b);
        }
    }
    cr_expect_eq(settles, q->n_moves + 1, "one settle at the start and one per move");
    cr_expect_eq(checks, q->n_moves, "one call per move");
    wt_free_jsonl(ev, n);
    ds_sequence_free(q);
}

Test(watch, recording_opens_with_every_frame_and_subtitles_mark_each_call, .timeout = 120)
{
    wt_ensure_run();
    ds_sequence *q = wt_load_sequence();
    char path[2300];
    wt_path_in(path, sizeof path, "game.mp4");
    base_error err;
    cap_video *r = cap_video_open(path, CAP_VIDEO_BGR, &err);
    cr_assert(r, "the recording does not open: %s", err.msg);
    base_view img;
    long frames = 0;
    int rc;
    while ((rc = cap_video_read(r, NULL, &img, &err)) == 1) {
        cr_expect_eq(img.width, 1280);
        cr_expect_eq(img.height, 960);
        frames++;
    }
    cr_expect_eq(rc, 0, "the recording reads to its end: %s", rc < 0 ? err.msg : "");
    cr_expect_eq(frames, ds_sequence_frame_count(q), "%ld frames recorded, %ld watched", frames,
                 ds_sequence_frame_count(q));
    cr_expect_eq(cap_video_frame_count(r), ds_sequence_frame_count(q));
    cap_video_free(r);

    /* WebVTT: the header, then one cue for the first settle and one per call, in time order. */
    wt_path_in(path, sizeof path, "game.vtt");
    FILE *f = fopen(path, "r");
    cr_assert(f);
    char line[1024];
    cr_assert(fgets(line, sizeof line, f));
    cr_expect(strncmp(line, "WEBVTT", 6) == 0);
    int cues = 0, h0, m0, s0, ms0, h1, m1, s1, ms1;
    double last = -1;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "%d:%d:%d.%d --> %d:%d:%d.%d", &h0, &m0, &s0, &ms0, &h1, &m1, &s1, &ms1) == 8) {
            double t0 = ((h0 * 60 + m0) * 60 + s0) * 1000.0 + ms0, t1 = ((h1 * 60 + m1) * 60 + s1) * 1000.0 + ms1;
            cr_expect_gt(t1, t0);
            cr_expect_gt(t0, last);
            last = t0;
            cues++;
            if (cues == 4) {
                cr_assert(fgets(line, sizeof line, f));
                cr_expect(strstr(line, "cavalry") && strstr(line, "ILLEGAL"), "the last cue calls the cavalry: %s",
                          line);
            }
        }
    }
    fclose(f);
    cr_expect_eq(cues, (int)q->n_moves + 1);
    ds_sequence_free(q);
}

/* Starts `tableref watch` with stdout on a pipe; returns its pid. */
static pid_t spawn_watch(char *const extra[], int *out_fd, int *in_fd)
{
    char frames[2300], calib[2300], roster[2300];
    wt_path_in(frames, sizeof frames, "seq/frames");
    wt_path_in(calib, sizeof calib, "seq/calib.json");
    wt_path_in(roster, sizeof roster, "seq/roster.json");
    int po[2], pi[2];
    cr_assert(pipe(po) == 0 && pipe(pi) == 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pi[0], 0);
        close(po[0]), close(po[1]), close(pi[0]), close(pi[1]);
        char *argv[32] = {(char *)vt_tableref_bin(), "watch", "--source", frames, "--calib", calib, "--roster",
                          roster, "--settle-ms", "600", "--realtime", "--quiet"};
        int a = 12;
        for (int k = 0; extra[k] && a < 31; k++)
            argv[a++] = extra[k];
        argv[a] = NULL;
        execv(argv[0], argv);
        _exit(127);
    }
    close(po[1]);
    close(pi[0]);
    *out_fd = po[0];
    *in_fd = pi[1];
    return pid;
}

/* Reads the child's stdout until a line holds `want` (or the deadline passes). */
static bool wait_for_line(int fd, const char *want, double seconds)
{
    static char buf[16384];
    static size_t n;
    time_t end = time(NULL) + (time_t)seconds;
    while (time(NULL) <= end) {
        buf[n] = 0;
        if (strstr(buf, want))
            return true;
        fd_set s;
        FD_ZERO(&s);
        FD_SET(fd, &s);
        struct timeval tv = {1, 0};
        if (select(fd + 1, &s, NULL, NULL, &tv) <= 0)
            continue;
        ssize_t k = read(fd, buf + n, sizeof buf - 1 - n);
        if (k <= 0)
            return strstr(buf, want) != NULL;
        n += (size_t)k;
    }
    return false;
}

Test(watch, event_log_survives_a_kill_after_the_first_call, .timeout = 120)
{
    wt_ensure_run();
    char log[2300];
    wt_path_in(log, sizeof log, "killed.jsonl");
    unlink(log);
    char *extra[] = {"--log", log, NULL};
    int out, in;
    pid_t pid = spawn_watch(extra, &out, &in);
    bool called = wait_for_line(out, "move 1:", 60);
    kill(pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    close(out);
    close(in);
    cr_assert(called, "watch never made its first call");
    cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    size_t n;
    cJSON **ev = wt_read_jsonl(log, &n);  /* asserts every line is complete, valid JSON */
    bool started = false, settled = false, checked = false, stopped = false;
    for (size_t i = 0; i < n; i++) {
        const char *k = wt_event_of(ev[i]);
        started |= strcmp(k, "started") == 0;
        settled |= strcmp(k, "settled") == 0;
        checked |= strcmp(k, "move_checked") == 0 && wt_num_of(ev[i], "move") == 1;
        stopped |= strcmp(k, "stopped") == 0;
    }
    cr_expect(started && settled && checked, "the events before the kill are on disk");
    cr_expect(!stopped, "a killed watch cannot have logged its stop");
    wt_free_jsonl(ev, n);
}

Test(watch, judge_corrections_from_the_control_pipe_and_stdin_are_applied_and_logged, .timeout = 120)
{
    wt_ensure_run();
    char log[2300], fifo[2300], cmd[4800];
    wt_path_in(log, sizeof log, "accepted.jsonl");
    wt_path_in(fifo, sizeof fifo, "control.fifo");
    unlink(fifo);
    unlink(log); /* the log appends: start this game's afresh */
    char *extra[] = {"--log", log, "--control", fifo, NULL};
    int out, in;
    pid_t pid = spawn_watch(extra, &out, &in);
    /* The judge overrules the first call with watch-ctl (the next call comes 1.8 s later)... */
    bool first = wait_for_line(out, "move 1:", 60);
    if (first) {
        wt_cmdf(cmd, sizeof cmd, "'%s' watch-ctl '%s' overrule 1 measured it again", vt_tableref_bin(), fifo);
        cr_expect_eq(wt_run(cmd), 0, "watch-ctl reaches the running watch");
    }
    /* ... and the illegal march from the keyboard (stdin, with the old word "accept"), before the recording ends. */
    bool alert = wait_for_line(out, "ALERT move 3", 60);
    if (alert)
        cr_expect_eq(write(in, "accept\n", 7), 7);
    int st;
    waitpid(pid, &st, 0);
    close(out);
    close(in);
    cr_assert(first && alert, "watch never made its calls");
    cr_expect_eq(vt_exit_status(st), 0, "an overruled call leaves no illegal call standing");
    size_t n;
    cJSON **ev = wt_read_jsonl(log, &n);
    int found = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(wt_event_of(ev[i]), "correction") == 0) {
            const int move = found == 0 ? 1 : 3;
            cr_expect_str_eq(cJSON_GetObjectItem(ev[i], "action")->valuestring, "overrule");
            cr_expect_eq((int)wt_num_of(ev[i], "move"), move);
            if (found == 0)
                cr_expect_str_eq(cJSON_GetObjectItem(ev[i], "reason")->valuestring, "measured it again");
            cr_expect_str_eq(cJSON_GetObjectItem(ev[i], "by")->valuestring, found == 0 ? "control" : "stdin");
            cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(ev[i], "applied")), "correction of move %d applied", move);
            found++;
        }
    cr_expect_eq(found, 2, "both corrections are logged");
    wt_free_jsonl(ev, n);
    /* With no watch listening, watch-ctl says so instead of blocking. */
    wt_cmdf(cmd, sizeof cmd, "'%s' watch-ctl '%s' undo 2>/dev/null", vt_tableref_bin(), fifo);
    cr_expect_eq(wt_run(cmd), 2);
}

Test(watch, lost_camera_is_an_alert_and_keeps_the_recording, .timeout = 120)
{
    wt_ensure_run();
    /* The first 20 frames, then a frame cut short (a camera dying mid-write). */
    char dir[2300], cmd[8192], path[2400];
    wt_path_in(dir, sizeof dir, "lost");
    wt_cmdf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s' && cp '%s'/seq/frames/0000[01]?.jpg '%s'/ && "
             "head -c 5000 '%s/seq/frames/000020.jpg' >'%s/000020.jpg' && cp '%s/seq/frames/000021.jpg' '%s'/",
             dir, dir, wt_work_dir(), dir, wt_work_dir(), dir, wt_work_dir(), dir);
    cr_assert_eq(wt_run(cmd), 0);
    wt_cmdf(cmd, sizeof cmd,
             "'%s' watch --source '%s' --calib '%s/seq/calib.json' --roster '%s/seq/roster.json' --settle-ms 600 "
             "--record '%s/lost.mp4' --quiet </dev/null >/dev/null 2>&1",
             vt_tableref_bin(), dir, wt_work_dir(), wt_work_dir(), dir);
    cr_expect_eq(wt_run(cmd), 3, "exit 3: the camera was lost");
    snprintf(path, sizeof path, "%s/lost.events.jsonl", dir);
    size_t n;
    cJSON **ev = wt_read_jsonl(path, &n);
    bool lost = false, alert = false;
    for (size_t i = 0; i < n; i++) {
        lost |= strcmp(wt_event_of(ev[i]), "camera_lost") == 0;
        alert |= strcmp(wt_event_of(ev[i]), "alert") == 0 && lost;
    }
    cr_expect(lost && alert, "camera_lost and its alert are logged");
    cr_assert_gt(n, 0);
    cr_expect_str_eq(wt_event_of(ev[n - 1]), "stopped", "the log is complete");
    wt_free_jsonl(ev, n);
    snprintf(path, sizeof path, "%s/lost.mp4", dir);
    base_error err;
    cap_video *r = cap_video_open(path, CAP_VIDEO_BGR, &err);
    cr_assert(r, "the recording of a lost camera stays playable: %s", err.msg);
    base_view img;
    long frames = 0;
    while (cap_video_read(r, NULL, &img, &err) == 1)
        frames++;
    cr_expect_eq(frames, 20, "every frame before the loss is in the video");
    cap_video_free(r);
}

Test(watch, image_pattern_gives_frame_times_and_a_truncated_frame_is_a_loss)
{
    char dir[] = "/tmp/tableref-watch-XXXXXX";
    cr_assert(mkdtemp(dir));
    base_error err;
    char path[256];
    for (int i = 1; i <= 3; i++) {
        base_image *img = base_image_new(64, 48, 1, (uint8_t)(40 * i));
        snprintf(path, sizeof path, "%s/f%03d.png", dir, i);
        cr_assert_eq(media_image_save(img, path, 0, &err), 0, "%s", err.msg);
        base_image_free(img);
    }
    /* A JPEG cut short: a frame that cannot be trusted. */
    base_image *img = base_image_new(64, 48, 1, 200);
    snprintf(path, sizeof path, "%s/f004.jpg", dir);
    cr_assert_eq(media_image_save(img, path, 90, &err), 0);
    base_image_free(img);
    cr_assert_eq(truncate(path, 100), 0);
    cap_source_config cfg;
    cap_source_config_default(&cfg);
    cfg.fps = 4;
    char pattern[256];
    snprintf(pattern, sizeof pattern, "%s/f%%03d.png", dir);
    cap_source *c = cap_source_open(pattern, &cfg, &err);
    cr_assert(c, "%s", err.msg);
    cr_expect_eq(cap_source_kind_of(c), CAP_SOURCE_IMAGES);
    cr_expect_eq(cap_source_frame_count(c), 3, "the pattern starts at 1 when 0 is missing");
    cap_frame f;
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(cap_source_read(c, &f, &err), 1, "%s", err.msg);
        cr_expect_eq(f.index, i);
        cr_expect_float_eq(f.t_ms, i * 250.0, 1e-9);
        cr_expect_eq(f.gray->data[0], 40 * (i + 1));
    }
    cr_expect_eq(cap_source_read(c, &f, &err), 0, "the end of a recording is not a loss");
    cap_source_close(c);
    /* The directory source sees all four frames and fails on the damaged one. */
    c = cap_source_open(dir, &cfg, &err);
    cr_assert(c, "%s", err.msg);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(cap_source_read(c, &f, &err), 1);
    cr_expect_eq(cap_source_read(c, &f, &err), -1);
    cr_expect(strstr(err.msg, "truncated"), "says why: %s", err.msg);
    cap_source_close(c);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    wt_run(path);
}

/* Runs watch on a camera source; returns the exit status and fills stderr text. Never hangs: timeout(1). */
static int watch_source(const char *src, char *msg, size_t cap)
{
    char cmd[4096], errf[] = "/tmp/tableref-watch-err-XXXXXX";
    int fd = mkstemp(errf);
    cr_assert(fd >= 0);
    close(fd);
    wt_cmdf(cmd, sizeof cmd,
             "LIBCAMERA_LOG_LEVELS='*:ERROR' timeout 20 '%s' watch --source '%s' --calib '%s/seq/calib.json' "
             "--roster '%s/seq/roster.json' --quiet </dev/null >/dev/null 2>'%s'",
             vt_tableref_bin(), src, wt_work_dir(), wt_work_dir(), errf);
    int rc = wt_run(cmd);
    FILE *f = fopen(errf, "r");
    size_t k = f ? fread(msg, 1, cap - 1, f) : 0;
    msg[k] = 0;
    if (f)
        fclose(f);
    unlink(errf);
    return rc;
}

Test(watch, v4l2_without_the_device_says_so_and_exits_2, .timeout = 60)
{
    struct stat st;
    if (stat("/dev/video99", &st) == 0)
        cr_skip_test("/dev/video99 exists on this machine");
    wt_ensure_run();
    char msg[2048];
    int rc = watch_source("v4l2:/dev/video99", msg, sizeof msg);
    cr_expect_eq(rc, 2, "exit 2 (got %d): %s", rc, msg);
    cr_expect(strstr(msg, "cannot open /dev/video99: no such device"), "plain message: %s", msg);
}

Test(watch, libcamera_without_a_camera_says_so_and_exits_2, .timeout = 60)
{
#if TABLEREF_HAVE_LIBCAMERA
    base_error err;
    setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 1);
    if (cap_libcamera_count(&err) > 0)
        cr_skip_test("a libcamera camera is attached");
#endif
    wt_ensure_run();
    char msg[2048];
    int rc = watch_source("libcamera", msg, sizeof msg);
    cr_expect_eq(rc, 2, "exit 2 (got %d): %s", rc, msg);
    cr_expect(strstr(msg, "no libcamera camera found"), "plain message: %s", msg);
}
