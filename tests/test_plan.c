/*
 * Nothing a user gave is overwritten (issue 31, points 1, 2 and 6), each case the issue found, on the demo set-up:
 * referee's calibration or AFTER picture inside its --out folder, a watch logging onto its calibration or writing
 * subtitles over a frame of its source folder, calibrate projector's pattern over its photo, two outputs given one
 * file, an output that is a symbolic link: each refused before any work, exit 2, naming both, the file kept byte for
 * byte. A referee killed by a full disk mid-write leaves the earlier call's folder byte-identical. A FIFO, a folder
 * or a read-only place given as an output (the event log too) is refused at the start; a legal 250-byte output
 * name is written (the temporary name never makes it too long).
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_run.h"
#include "fixture_demo.h"

static void setup(void)
{
    cr_assert_not_null(fxd_scratch_make("plan"));
}

static void teardown(void)
{
    (void)fxd_scratch_remove();
}

TestSuite(plan, .init = setup, .fini = teardown, .timeout = 240);

static cli_result res;

/* Runs tableref with args made from fmt (%1$s the scratch folder, %2$s the demo folder): its exit status. */
static int run(const char *fmt)
{
    char demo[1024], args[8192];
    snprintf(demo, sizeof demo, "%s", fxd_demo(""));
    demo[strlen(demo) - 1] = '\0'; /* no trailing slash */
    snprintf(args, sizeof args, fmt, fxd_dir(), demo);
    cr_assert_eq(cli_run(args, &res), 0, "%s", args);
    return res.status;
}

static int sh(const char *fmt)
{
    char demo[1024], cmd[8192];
    snprintf(demo, sizeof demo, "%s", fxd_demo(""));
    demo[strlen(demo) - 1] = '\0';
    snprintf(cmd, sizeof cmd, fmt, fxd_dir(), demo);
    return system(cmd);
}

/* The file's bytes equal the demo's `name`. */
static bool same_as_demo(const char *path, const char *name)
{
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", path, fxd_demo(name));
    return system(cmd) == 0;
}

#define REFEREE "referee %2$s/before.jpg %2$s/after.jpg --roster %2$s/roster.json"

Test(plan, referee_calibration_inside_its_out_folder_is_kept)
{
    cr_assert_eq(sh("mkdir -p %1$s/o && cp %2$s/calib.json %1$s/o/report.json"), 0);
    cr_assert_eq(run(REFEREE " --calib %1$s/o/report.json --out %1$s/o"), 2, "%s", res.err);
    cr_expect(strstr(res.err, "--out") && strstr(res.err, "is also --calib") && strstr(res.err, "report.json"), "%s",
              res.err);
    cr_expect(same_as_demo(fxd_tmp("o/report.json"), "calib.json"), "the calibration is kept");
    cr_expect(access(fxd_tmp("o/camera.png"), F_OK) != 0, "nothing else was written");
}

Test(plan, referee_after_picture_as_its_camera_png_is_kept)
{
    cr_assert_eq(sh("mkdir -p %1$s/o && cp %2$s/after.jpg %1$s/o/camera.png"), 0);
    cr_assert_eq(run("referee %2$s/before.jpg %1$s/o/camera.png --calib %2$s/calib.json --roster %2$s/roster.json "
                     "--out %1$s/o"),
                 2, "%s", res.err);
    cr_expect(strstr(res.err, "is also AFTER"), "%s", res.err);
    cr_expect(same_as_demo(fxd_tmp("o/camera.png"), "after.jpg"));
}

Test(plan, watch_never_logs_onto_its_calibration)
{
    cr_assert_eq(sh("cp %2$s/calib.json %1$s/c.json"), 0);
    cr_assert_eq(run("watch --source %2$s/before.jpg --calib %1$s/c.json --roster %2$s/roster.json --log %1$s/c.json "
                     "--quiet </dev/null"),
                 2, "%s", res.err);
    cr_expect(strstr(res.err, "--log") && strstr(res.err, "is also --calib"), "%s", res.err);
    cr_expect(same_as_demo(fxd_tmp("c.json"), "calib.json"));
}

/* The source folder's frames are inputs once the source is opened, before the subtitles are: --replace replaces no
 * frame. */
Test(plan, watch_subtitles_never_replace_a_frame_of_its_source)
{
    cr_assert_eq(sh("mkdir %1$s/frames && for i in 01 02 03; do cp %2$s/before.jpg %1$s/frames/0000$i.jpg; done"), 0);
    cr_assert_eq(run("watch --source %1$s/frames --calib %2$s/calib.json --roster %2$s/roster.json "
                     "--vtt %1$s/frames/000002.jpg --replace --quiet </dev/null"),
                 2, "%s", res.err);
    cr_expect(strstr(res.err, "--vtt") && strstr(res.err, "000002.jpg") && strstr(res.err, "reads"), "%s", res.err);
    cr_expect(same_as_demo(fxd_tmp("frames/000002.jpg"), "before.jpg"), "the frame is kept");
}

Test(plan, calibrate_projector_pattern_never_replaces_its_photo)
{
    cr_assert_eq(sh("cp %2$s/after.jpg %1$s/photo.jpg"), 0);
    cr_assert_eq(run("calibrate projector --image %1$s/photo.jpg --pattern-out %1$s/photo.jpg "
                     "--calib %2$s/calib.json"),
                 2, "%s", res.err);
    cr_expect(strstr(res.err, "--pattern-out") && strstr(res.err, "is also --image"), "%s", res.err);
    cr_expect(same_as_demo(fxd_tmp("photo.jpg"), "after.jpg"));
}

Test(plan, two_outputs_given_one_file_are_refused)
{
    cr_assert_eq(run("check %2$s/before.json %2$s/after.json --out %1$s/x.json --suggest %1$s/x.json"), 2);
    cr_expect(strstr(res.err, "--out") && strstr(res.err, "--suggest") && strstr(res.err, "are one file"), "%s",
              res.err);
    cr_expect(access(fxd_tmp("x.json"), F_OK) != 0);
    cr_assert_eq(run("tags sheet %2$s/roster.json --out %1$s/s.pdf --layout %1$s/s.pdf"), 2);
    cr_expect(strstr(res.err, "--out") && strstr(res.err, "--layout") && strstr(res.err, "are one file"), "%s",
              res.err);
    /* Through a hard link too. */
    cr_assert_eq(sh("echo keep > %1$s/a.json && ln %1$s/a.json %1$s/b.json"), 0);
    cr_assert_eq(run("check %2$s/before.json %2$s/after.json --out %1$s/a.json --suggest %1$s/b.json"), 2);
    cr_expect(strstr(res.err, "are one file"), "%s", res.err);
}

Test(plan, an_output_that_is_a_symlink_is_refused_and_kept)
{
    cr_assert_eq(sh("mkdir %1$s/o && echo precious > %1$s/target && ln -s %1$s/target %1$s/o/camera.png"), 0);
    cr_assert_eq(run(REFEREE " --calib %2$s/calib.json --out %1$s/o"), 2, "%s", res.err);
    cr_expect(strstr(res.err, "camera.png): cannot write: a symbolic link"), "%s", res.err);
    struct stat st;
    cr_expect(lstat(fxd_tmp("o/camera.png"), &st) == 0 && S_ISLNK(st.st_mode));
    cr_expect_eq(sh("grep -qx precious %1$s/target"), 0);
    cr_expect(access(fxd_tmp("o/report.json"), F_OK) != 0, "nothing written");
}

/* Point 6: a FIFO as the event log is refused before the watch starts (it used to run the whole game without it). */
Test(plan, a_fifo_folder_or_read_only_place_is_refused_at_the_start)
{
    cr_assert_eq(mkfifo(fxd_tmp("fifo"), 0600), 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cr_assert_eq(run("watch --table %2$s/table.json --log %1$s/fifo --quiet </dev/null"), 2, "%s", res.err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_expect(strstr(res.err, "--log") && strstr(res.err, "not a regular file (a FIFO"), "%s", res.err);
    cr_expect_lt((double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9, 2.0, "refused at once");
    cr_expect_eq(strstr(res.out, "table_check") || strstr(res.err, "settle"), NULL, "no game started: %s", res.out);
    cr_assert_eq(mkdir(fxd_tmp("dir"), 0700), 0);
    cr_assert_eq(run("check %2$s/before.json %2$s/after.json --out %1$s/dir"), 2);
    cr_expect(strstr(res.err, "--out") && strstr(res.err, "cannot write: a directory"), "%s", res.err);
    cr_assert_eq(run("check %2$s/before.json %2$s/after.json --out %2$s/before.json/x.json"), 2);
    cr_expect(strstr(res.err, "a part of the path is a file, not a folder"), "%s", res.err);
    /* A folder that cannot be written in: a read-only mount (root ignores permissions), else a mode. */
    cr_assert_eq(mkdir(fxd_tmp("ro"), 0500), 0);
    const bool mounted = geteuid() == 0 && mount("tmpfs", fxd_tmp("ro"), "tmpfs", MS_RDONLY, "size=64k") == 0;
    if (geteuid() == 0 && !mounted)
        cr_skip_test("root and no read-only tmpfs: cannot make a folder root may not write in");
    run("check %2$s/before.json %2$s/after.json --out %1$s/ro/x.json --suggest %1$s/ok.json");
    if (mounted)
        umount2(fxd_tmp("ro"), MNT_DETACH);
    cr_expect_eq(res.status, 2, "%s", res.err);
    cr_expect(strstr(res.err, "--out") && strstr(res.err, "cannot write in"), "%s", res.err);
    cr_expect(access(fxd_tmp("ok.json"), F_OK) != 0, "the other output was not written either");
}

Test(plan, a_250_byte_output_name_is_written)
{
    char name[251];
    memset(name, 'n', 245);
    memcpy(name + 245, ".json", 6);
    cr_assert_eq(strlen(name), 250);
    char fmt[1024];
    snprintf(fmt, sizeof fmt, "check %%2$s/before.json %%2$s/after.json --out %%1$s/%s", name);
    const int rc = run(fmt);
    cr_expect_eq(rc, 1, "the demo's move is illegal, and the report written: %s", res.err);
    cr_expect_eq(access(fxd_tmp(name), F_OK), 0, "%s", res.err);
    cr_expect_eq(sh("test -z \"$(ls -A %1$s | grep tmp)\""), 0, "no temporary file left");
}

/* ---- a full disk mid-write ---------------------------------------------------------------------- */

/* Total bytes of the files in dir. */
static long folder_bytes(const char *dir)
{
    char cmd[1200], line[64] = "";
    snprintf(cmd, sizeof cmd, "du -sb --apparent-size '%s' | cut -f1", dir);
    FILE *p = popen(cmd, "r");
    if (p && fgets(line, sizeof line, p) == NULL)
        line[0] = '\0';
    if (p)
        pclose(p);
    return atol(line);
}

/*
 * The referee's folder on a small disk: a first call fills most of it; a second call (another report: only the
 * knights, the whole board) runs out of space while writing its pictures. Its report.json was already written when
 * the disk filled, yet the folder holds the first call's eight files byte for byte, and no temporary file.
 */
Test(plan, a_referee_killed_by_a_full_disk_leaves_the_earlier_call_whole)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to mount a small tmpfs");
    cr_assert_eq(run(REFEREE " --calib %2$s/calib.json --out %1$s/sizing"), 1, "%s", res.err);
    const long total = folder_bytes(fxd_tmp("sizing"));
    cr_assert_gt(total, 100000);
    cr_assert_eq(mkdir(fxd_tmp("disk"), 0700), 0);
    char opts[64];
    snprintf(opts, sizeof opts, "size=%ld", total + total / 2 + 65536); /* one call fits, two do not */
    if (mount("tmpfs", fxd_tmp("disk"), "tmpfs", 0, opts) != 0)
        cr_skip_test("cannot mount a tmpfs here: %s", strerror(errno));
    int first = run(REFEREE " --calib %2$s/calib.json --out %1$s/disk/o");
    int keep = sh("mkdir %1$s/kept && cp -a %1$s/disk/o/. %1$s/kept/");
    int second = run(REFEREE " --calib %2$s/calib.json --out %1$s/disk/o --unit knights --report-view board");
    static char said[sizeof res.err];
    memcpy(said, res.err, sizeof said);
    int same = sh("diff -r %1$s/kept %1$s/disk/o >/dev/null");
    int clean = sh("test -z \"$(ls -A %1$s/disk/o | grep tmp)\"");
    umount2(fxd_tmp("disk"), MNT_DETACH);
    cr_assert_eq(first, 1, "the first call fits");
    cr_assert_eq(keep, 0);
    cr_expect_eq(second, 2, "the second call fails: %s", said);
    cr_expect(strstr(said, "cannot write"), "said: %s", said);
    cr_expect_eq(same, 0, "the earlier call's folder is byte-identical");
    cr_expect_eq(clean, 0, "no temporary file left");
    /* The second call would have written other files: the comparison could have failed. */
    cr_assert_eq(run(REFEREE " --calib %2$s/calib.json --out %1$s/other --unit knights --report-view board"), 0,
                 "%s", res.err);
    cr_expect_neq(sh("cmp -s %1$s/kept/report.json %1$s/other/report.json"), 0);
}
