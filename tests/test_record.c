/*
 * The recorder on its own (watch/watch_record.h), through tests/record_driver:
 * kill -9 mid-recording, a full disk (a 64 KB tmpfs), a stalled disk (an
 * ext4 loop image frozen with fsfreeze), evidence clips. Each recording is
 * checked by ffprobe decoding every frame. The disk tests need root (mount)
 * and skip cleanly without it.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "video_test_util.h"
#include "vision_test_util.h"

static const char *driver(void) { return vt_env("RECORD_DRIVER", "record_driver"); }

/* How much slower than this machine's own the programs run (TABLEREF_TEST_TIME_SCALE: scripts/test-arm64.sh
 * sets its timeout multiplier under qemu-user; 1 natively). The driver's pace is slowed by it (kill -9, full disk,
 * clips; the stalled disk measures the caller's own gaps and keeps its pace): these tests need
 * an encoder faster than the frames come (a live queue drops what it cannot encode, and a fragment of 1 s of
 * video then holds fewer than 10 frames), and under qemu the encoder is 10-20x slower. */
static double time_scale(void)
{
    const char *v = getenv("TABLEREF_TEST_TIME_SCALE");
    const double s = v ? atof(v) : 1;
    return s > 1 ? s : 1;
}

static int scaled_ms(int ms) { return (int)(ms * time_scale()); }

/* Under emulation even the slower pace can outrun an encoder that shares a busy machine: there the driver also
 * waits for a free slot (--wait) instead of dropping, so that every fragment holds its 10 frames. */
static const char *wait_if_emulated(void) { return time_scale() > 1 ? "--wait" : NULL; }

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void make_dir(char *dir, size_t cap)
{
    snprintf(dir, cap, "/tmp/tableref-record-XXXXXX");
    cr_assert(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

static void remove_dir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

/* The driver's output of a whole run (no pipe games): its exit status and stdout. */
static int run_driver(const char *args, char *out, size_t cap)
{
    char cmd[2048], outpath[64] = "/tmp/tableref-record-out-XXXXXX";
    int fd = mkstemp(outpath);
    cr_assert(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>&1", driver(), args, outpath);
    int st = vt_exit_status(system(cmd));
    vt_file_head(outpath, out, cap);
    unlink(outpath);
    return st;
}

/* A running driver whose stdout we read line by line. */
typedef struct child {
    pid_t pid;
    FILE *out;
} child;

static void start_driver(child *c, char *const argv[])
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    const char *program = driver(); /* before the fork: the child only dups, closes and execs */
    c->pid = fork();
    cr_assert(c->pid >= 0);
    if (c->pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execv(program, argv);
        _exit(127);
    }
    close(fds[1]);
    c->out = fdopen(fds[0], "r");
    cr_assert(c->out);
}

/* Reads lines until one holds "fragments N" with N >= want; returns that N (-1 at end of output), and in *kept
 * the frames that line says the whole fragments hold. */
static long wait_fragments(child *c, long want, long *kept)
{
    char line[1024];
    long f = -1;
    *kept = -1;
    while (fgets(line, sizeof line, c->out)) {
        const char *p = strstr(line, "fragments ");
        if (p && sscanf(p, "fragments %ld", &f) == 1 && f >= want) {
            const char *k = strstr(line, " kept ");
            if (k)
                sscanf(k, " kept %ld", kept);
            return f;
        }
    }
    return -1;
}

/* The driver's closing figures ("encoded N dropped N fragments N playable_ms MS kept N in N"); false when absent. */
typedef struct closing {
    long encoded, dropped, fragments, kept, in;
} closing;

static bool closing_of(const char *out, closing *c)
{
    const char *p = strstr(out, "encoded ");
    double ms;
    return p && sscanf(p, "encoded %ld dropped %ld fragments %ld playable_ms %lf kept %ld in %ld", &c->encoded,
                       &c->dropped, &c->fragments, &ms, &c->kept, &c->in) == 6;
}

Test(record, a_finished_recording_plays_every_frame, .timeout = 60)
{
    char dir[64], path[128], args[512], out[8192], errors[2048];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/ok.mp4", dir);
    snprintf(args, sizeof args, "'%s' --frames 45 --fps 10 --size 321x241", path);
    cr_assert_eq(run_driver(args, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "closed 0"), "%s", out);
    cr_expect_eq(vid_probe_frames(path, errors, sizeof errors), 45, "every frame plays: %s", errors);
    cr_expect_str_empty(errors);
    /* Gray frames record too. */
    snprintf(path, sizeof path, "%s/gray.mp4", dir);
    snprintf(args, sizeof args, "'%s' --frames 12 --fps 4 --gray", path);
    cr_assert_eq(run_driver(args, out, sizeof out), 0, "%s", out);
    cr_expect_eq(vid_probe_frames(path, errors, sizeof errors), 12, "%s", errors);
    remove_dir(dir);
}

Test(record, a_replay_waits_for_the_encoder_and_drops_nothing, .timeout = 60)
{
    char dir[64], path[128], args[512], out[8192], errors[2048];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/replay.mp4", dir);
    /* 60 frames of 1280x960 as fast as they come, two queue slots: faster than the encoder, so a live queue drops... */
    snprintf(args, sizeof args, "'%s' --frames 60 --fps 10 --size 1280x960 --queue 2", path);
    cr_assert_eq(run_driver(args, out, sizeof out), 0, "%s", out);
    const char *summary = strstr(out, "encoded") ? strstr(out, "encoded") : out;
    cr_expect(!strstr(out, "dropped 0 "), "a live queue drops frames: %s", summary);
    /* ... and a replay waits for the encoder instead. */
    snprintf(args, sizeof args, "'%s' --frames 60 --fps 10 --size 1280x960 --queue 2 --wait --replace", path);
    cr_assert_eq(run_driver(args, out, sizeof out), 0, "%s", out);
    summary = strstr(out, "encoded") ? strstr(out, "encoded") : out;
    cr_expect(strstr(out, "encoded 60 dropped 0"), "every frame encoded: %s", summary);
    cr_expect_eq(vid_probe_frames(path, errors, sizeof errors), 60, "every frame plays: %s", errors);
    cr_expect_str_empty(errors);
    remove_dir(dir);
}

Test(record, an_existing_recording_is_never_overwritten, .timeout = 30)
{
    char dir[64], path[128], args[512], out[8192];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/game.mp4", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("the first game", f);
    fclose(f);
    snprintf(args, sizeof args, "'%s' --frames 5", path);
    cr_expect_eq(run_driver(args, out, sizeof out), 1);
    cr_expect(strstr(out, "already exists"), "%s", out);
    char head[32];
    cr_expect_eq(vt_file_head(path, head, sizeof head), 14, "the first game's file is untouched");
    snprintf(args, sizeof args, "'%s' --frames 5 --replace", path);
    cr_expect_eq(run_driver(args, out, sizeof out), 0, "%s", out);
    remove_dir(dir);
}

Test(record, kill_9_keeps_every_whole_fragment, .timeout = 60)
{
    char dir[64], path[128], errors[2048];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/killed.mp4", dir);
    /* 10 frames a second of video, 25 a second of wall time: a fragment every 0.4 s. */
    char pace[16];
    snprintf(pace, sizeof pace, "%d", scaled_ms(40));
    char *argv[] = {(char *)driver(), path, "--frames", "1000", "--fps", "10", "--sleep-ms", pace,
                    (char *)wait_if_emulated(), NULL};
    child c;
    start_driver(&c, argv);
    long kept;
    long fragments = wait_fragments(&c, 3, &kept);
    cr_assert_geq(fragments, 3, "the driver recorded three fragments");
    cr_assert_eq(kill(c.pid, SIGKILL), 0);
    int st;
    waitpid(c.pid, &st, 0);
    fclose(c.out);
    cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    long frames = vid_probe_frames(path, errors, sizeof errors);
    cr_expect_geq(kept, fragments * 10, "the paced driver's whole fragments hold their 10 frames each (%ld)", kept);
    cr_expect_geq(frames, kept, "every whole fragment plays after kill -9 (%ld frames, %ld fragments of %ld): %s",
                  frames, fragments, kept, errors);
    cr_expect_str_empty(errors, "ffprobe reads the file without an error");
    remove_dir(dir);
}

Test(record, a_full_disk_cuts_back_to_the_last_whole_fragment_and_says_so, .timeout = 60)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to mount a small tmpfs");
    char dir[64], path[128], args[512], out[16384], errors[2048];
    make_dir(dir, sizeof dir);
    if (mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0) {
        rmdir(dir);
        cr_skip_test("cannot mount a tmpfs here: %s", strerror(errno));
    }
    snprintf(path, sizeof path, "%s/full.mp4", dir);
    snprintf(args, sizeof args, "'%s' --frames 100 --fps 10 --sleep-ms %d %s", path, scaled_ms(10),
             wait_if_emulated() ? wait_if_emulated() : "");
    int status = run_driver(args, out, sizeof out);
    long frames = vid_probe_frames(path, errors, sizeof errors);
    closing end = {-1, -1, -1, -1, -1};
    const bool said = closing_of(out, &end);
    umount2(dir, MNT_DETACH);
    rmdir(dir);
    cr_expect_eq(status, 1, "a failed recording is an error: %s", out);
    cr_expect(strstr(out, "error ") && strstr(out, "disk full at"), "the first frame after says so: %s", out);
    cr_expect(strstr(out, "closed -1") && strstr(out, "stay playable"), "close says what is kept: %s", out);
    cr_assert(said, "the driver's closing figures: %s", out);
    cr_expect_gt(end.fragments, 0, "%s", out);
    cr_expect_eq(end.kept, end.fragments * 10, "its whole fragments hold 10 frames each: %ld in %ld", end.kept,
                 end.fragments);
    cr_expect_eq(frames, end.kept, "the file ends at its last whole fragment: %ld frames, %ld fragments of %ld (%s)",
                 frames, end.fragments, end.kept, errors);
    cr_expect_eq(end.in, 100);
    cr_expect_eq(end.encoded + end.dropped, end.in, "every frame encoded or counted as dropped (after the failure): "
                 "%ld + %ld of %ld", end.encoded, end.dropped, end.in);
    cr_expect_str_empty(errors);
}

/* Runs a shell command made from fmt and one argument used everywhere it appears as %1$s; its exit status. */
static int sh(const char *fmt, const char *a)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, fmt, a);
    return vt_exit_status(system(cmd));
}

/* Mounts a fresh 16 MB ext4 loop image on dir; false (nothing mounted) when this machine cannot. */
static bool mount_loop(const char *dir)
{
    if (sh("truncate -s 16M '%1$s.img' && mkfs.ext4 -q -F '%1$s.img' >/dev/null 2>&1 && "
           "mount -o loop '%1$s.img' '%1$s' 2>/dev/null",
           dir) != 0)
        return false;
    /* Never freeze anything but this image: a freeze of the file system around dir would stop the machine. */
    if (sh("mountpoint -q '%1$s'", dir) != 0)
        return false;
    return true;
}

Test(record, a_stalled_disk_never_blocks_the_caller, .timeout = 90)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to mount and freeze a loop file system");
    char dir[64], path[128], errors[2048];
    make_dir(dir, sizeof dir);
    if (!mount_loop(dir)) {
        sh("rm -f '%1$s.img'; rmdir '%1$s'", dir);
        cr_skip_test("cannot mount an ext4 loop image here");
    }
    snprintf(path, sizeof path, "%s/stalled.mp4", dir);
    char *argv[] = {(char *)driver(), path, "--frames", "40", "--fps", "10", "--sleep-ms", "50",
                    "--close-timeout-ms", "1500", NULL};
    child c;
    start_driver(&c, argv);
    long kept_before = -1;
    if (wait_fragments(&c, 1, &kept_before) < 1) { /* unmount before failing: an assertion ends the test here */
        kill(c.pid, SIGKILL);
        waitpid(c.pid, NULL, 0);
        fclose(c.out);
        sh("umount '%1$s'; rm -f '%1$s.img'; rmdir '%1$s'", dir);
        cr_assert_fail("the driver never completed a fragment on the loop disk");
    }
    /* A safety thaw in case this test dies while the disk is frozen. */
    pid_t guard = fork();
    if (guard == 0) {
        sleep(40);
        execlp("fsfreeze", "fsfreeze", "-u", dir, (char *)NULL);
        _exit(1);
    }
    const int froze = sh("fsfreeze -f '%1$s'", dir);
    const double frozen = now_ms();
    char line[1024], closed[1024] = "", figures[1024] = "";
    double worst_gap = 0, prev = frozen;
    while (fgets(line, sizeof line, c.out)) {
        double t = now_ms();
        if (strncmp(line, "frame ", 6) == 0) {
            worst_gap = t - prev > worst_gap ? t - prev : worst_gap;
            prev = t;
        }
        if (strncmp(line, "encoded ", 8) == 0)
            snprintf(figures, sizeof figures, "%s", line);
        if (strncmp(line, "closed", 6) == 0) {
            snprintf(closed, sizeof closed, "%s", line);
            break;
        }
    }
    const double to_close = now_ms() - frozen;
    sh("fsfreeze -u '%1$s'", dir);
    kill(guard, SIGKILL);
    waitpid(guard, NULL, 0);
    int st;
    waitpid(c.pid, &st, 0);
    fclose(c.out);
    long frames = vid_probe_frames(path, errors, sizeof errors);
    sh("umount '%1$s'; rm -f '%1$s.img'; rmdir '%1$s'", dir);
    cr_assert_eq(froze, 0, "fsfreeze froze the loop image");
    cr_expect(strstr(closed, "closed -1") && strstr(closed, "did not take the video within 1500 ms"),
              "close gives up on the stalled disk and says so: %s", closed);
    cr_expect_lt(worst_gap, 1000, "frames kept coming while the disk was frozen (worst gap %.0f ms)", worst_gap);
    cr_expect_lt(to_close, 40 * 50 + 1500 + 3000, "the caller was never held by the disk (%.0f ms)", to_close);
    /* Not paced by TABLEREF_TEST_TIME_SCALE, nor waiting for the encoder: it is the caller's own pace that is measured.
     * A slow encoder (qemu's, 10-20x) drops frames behind the live pace: then the fragment before the stall holds
     * fewer than 10 frames, and the drops are counted. Every frame is accounted for: in whole fragments on disk
     * before the stall (and they play), encoded, dropped, or still in the 4-frame queue when the disk stalled. */
    closing end = {-1, -1, -1, -1, -1};
    cr_assert(closing_of(figures, &end), "the driver's closing figures: %s", figures);
    cr_expect_gt(kept_before, 0, "a whole fragment was on disk before the stall");
    cr_expect_geq(frames, kept_before, "what was written before the stall plays: %ld frames of the %ld kept (%s)",
                  frames, kept_before, errors);
    cr_expect_eq(end.in, 40);
    cr_expect_gt(end.dropped, 0, "the frames the stalled disk could not take are counted as dropped: %s", figures);
    cr_expect_leq(end.in - end.encoded - end.dropped, 4, "no frame unaccounted for but the queue's: %s", figures);
    cr_expect_geq(end.in - end.encoded - end.dropped, 0, "%s", figures);
}

Test(record, clips_are_cut_from_the_kept_video_without_reencoding, .timeout = 60)
{
    char dir[64], path[128], c1[128], c2[128], c3[128], args[1024], out[16384], errors[2048];
    make_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/game.mp4", dir);
    snprintf(c1, sizeof c1, "%s/move-1.mp4", dir);
    snprintf(c2, sizeof c2, "%s/move-2.mp4", dir);
    snprintf(c3, sizeof c3, "%s/move-3.mp4", dir);
    /* Asked for at frame 30 (3.0 s): 2.5 s .. 4.0 s, reaching into the future; at the end: past the last frame. */
    snprintf(args, sizeof args, "'%s' --frames 80 --fps 10 --clip 30 2500 4000 '%s' --clip 79 7000 9000 '%s'", path, c1,
             c2);
    cr_assert_eq(run_driver(args, out, sizeof out), 0, "%s", out);
    char want[256];
    snprintf(want, sizeof want, "clip %s ok 2000 4000", c1);
    cr_expect(strstr(out, want), "the clip starts at the keyframe before 2.5 s and ends at 4.0 s: %s", out);
    cr_expect_eq(vid_probe_frames(c1, errors, sizeof errors), 21, "%s", errors);
    snprintf(want, sizeof want, "clip %s ok 7000 7900", c2);
    cr_expect(strstr(out, want), "a clip past the end ends with the recording: %s", out);
    cr_expect_eq(vid_probe_frames(c2, errors, sizeof errors), 10, "%s", errors);
    /* Only 1 s kept: a clip asked for late starts late, one wholly before the kept video fails. */
    snprintf(path, sizeof path, "%s/short.mp4", dir);
    snprintf(args, sizeof args,
             "'%s' --frames 80 --fps 10 --sleep-ms %d %s --keep-s 1 --clip 79 5000 7000 '%s' --clip 79 1000 2000 '%s'",
             path, scaled_ms(15), wait_if_emulated() ? wait_if_emulated() : "", c3, c1);
    cr_assert_eq(run_driver(args, out, sizeof out), 0, "%s", out);
    snprintf(want, sizeof want, "clip %s ok", c3);
    cr_expect(strstr(out, want) && strstr(out, "late: older video is no longer kept"), "%s", out);
    snprintf(want, sizeof want, "clip %s failed", c1);
    cr_expect(strstr(out, want) && strstr(out, "no recorded video is kept"), "%s", out);
    remove_dir(dir);
}
