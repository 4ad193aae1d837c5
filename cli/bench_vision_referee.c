#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include "bench_vision_referee.h"

#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "media_image_read.h"
#include "ref_setup.h"
#include "ref_snapshot_vision.h"
#include "vis_detect.h"

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

/* Runs a tableref command in this process with its stdout and stderr thrown away (the bench prints figures,
 * not the referee's words); returns its exit status. */
static int run_quietly(int (*cmd)(int, char **), int argc, char **argv)
{
    fflush(stdout), fflush(stderr);
    int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO), devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0)
        dup2(devnull, STDOUT_FILENO), dup2(devnull, STDERR_FILENO), close(devnull);
    int status = cmd(argc, argv);
    fflush(stdout), fflush(stderr);
    if (saved_out >= 0)
        dup2(saved_out, STDOUT_FILENO), close(saved_out);
    if (saved_err >= 0)
        dup2(saved_err, STDERR_FILENO), close(saved_err);
    return status;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* The referee's detector, as its set-up builds it, on the two pictures: the seconds their reading (JPEG decode)
 * and vis_detector_run took, wall and CPU. */
static int time_detection(const char *dir, bv_referee_time *t, base_error *err)
{
    char calib[4200], roster[4200], pic[2][4200];
    snprintf(calib, sizeof calib, "%s/calib.json", dir);
    snprintf(roster, sizeof roster, "%s/roster.json", dir);
    snprintf(pic[0], sizeof pic[0], "%s/image.jpg", dir);
    snprintf(pic[1], sizeof pic[1], "%s/after/image.jpg", dir);
    ref_setup *s = ref_setup_new(NULL, calib, roster, err);
    if (!s)
        return -1;
    int rc = 0;
    t->detect_s = t->detect_cpu_s = t->decode_s = t->decode_cpu_s = 0;
    for (int k = 0; k < 2 && rc == 0; k++) {
        double t0 = wall_s(), c0 = cpu_s();
        base_image *im = media_image_load(pic[k], MEDIA_IMAGE_GRAY, err);
        t->decode_s += wall_s() - t0, t->decode_cpu_s += cpu_s() - c0;
        if (!im) {
            rc = -1;
            break;
        }
        rules_snapshot *snap = NULL;
        vis_report rep = {0};
        t0 = wall_s(), c0 = cpu_s();
        rc = vis_detector_run(ref_setup_detector(s), im->data, im->width, im->height, im->stride, NULL, &snap, &rep,
                              err);
        t->detect_s += wall_s() - t0, t->detect_cpu_s += cpu_s() - c0;
        t->width = im->width, t->height = im->height;
        rules_snapshot_free(snap);
        vis_report_clear(&rep);
        base_image_free(im);
    }
    ref_setup_free(s);
    return rc;
}

static double median3(double a, double b, double c)
{
    return fmax(fmin(a, b), fmin(fmax(a, b), c));
}

/* One whole `tableref referee` on the pair in dir, then one whole `tableref detect` on its AFTER picture, both in
 * this process: their wall and CPU seconds into *t (exit_status the referee's). */
static int time_commands(int table, const char *dir, bv_referee_time *t, base_error *err)
{
    char before[4200], after[4200], calib[4200], roster[4200], out[4200], snap[4300];
    snprintf(before, sizeof before, "%s/image.jpg", dir);
    snprintf(after, sizeof after, "%s/after/image.jpg", dir);
    snprintf(calib, sizeof calib, "%s/calib.json", dir);
    snprintf(roster, sizeof roster, "%s/roster.json", dir);
    snprintf(out, sizeof out, "%s/referee", dir);
    snprintf(snap, sizeof snap, "%s/detect.json", dir);
    char *referee_argv[] = {"referee", before, after, "--calib", calib, "--roster", roster, "--out", out, NULL};
    double w0 = wall_s(), c0 = cpu_s();
    t->exit_status = run_quietly(cmd_referee, 9, referee_argv);
    t->wall_s = wall_s() - w0, t->cpu_s = cpu_s() - c0;
    if (t->exit_status != EXIT_LEGAL && t->exit_status != EXIT_ILLEGAL)
        return base_error_set(err, "tableref referee on hard table %d's pair exited %d", table, t->exit_status);
    /* The command the issue compares with: `tableref detect` on the AFTER picture, whole but for the process's
     * start (as the referee above), its snapshot written. */
    char *detect_argv[] = {"detect", after, "--calib", calib, "--roster", roster, "--out", snap, NULL};
    w0 = wall_s(), c0 = cpu_s();
    int st = run_quietly(cmd_detect, 8, detect_argv);
    t->detect_cmd_s = wall_s() - w0, t->detect_cmd_cpu_s = cpu_s() - c0;
    if (st != 0)
        return base_error_set(err, "tableref detect on hard table %d's AFTER picture exited %d", table, st);
    return 0;
}

int bv_referee_measure(int table, bv_referee_time *t, base_error *err)
{
    memset(t, 0, sizeof *t);
    char dir[] = "/tmp/tableref-bench-referee-XXXXXX";
    if (!mkdtemp(dir))
        return base_error_setc(err, BASE_E_IO, "cannot create a temporary folder");
    char gen[32];
    snprintf(gen, sizeof gen, "hard:%d", table);
    char *render_argv[] = {"render", "--generate", gen, "--pair", "--out", dir, NULL};
    int rc = 0;
    bv_referee_time run[BV_REFEREE_RUNS];
    if (run_quietly(cmd_render, 6, render_argv) != 0)
        rc = base_error_set(err, "tableref render --generate %s --pair failed", gen);
    for (int r = 0; r < BV_REFEREE_RUNS && rc == 0; r++)
        rc = time_commands(table, dir, &run[r], err);
    if (rc == 0)
        rc = time_detection(dir, t, err);
    if (rc == 0) {
        /* Each figure the median of its runs (a busy machine's outliers left out); the ratios of each run kept. */
        t->exit_status = run[0].exit_status;
        t->wall_s = median3(run[0].wall_s, run[1].wall_s, run[2].wall_s);
        t->cpu_s = median3(run[0].cpu_s, run[1].cpu_s, run[2].cpu_s);
        t->detect_cmd_s = median3(run[0].detect_cmd_s, run[1].detect_cmd_s, run[2].detect_cmd_s);
        t->detect_cmd_cpu_s = median3(run[0].detect_cmd_cpu_s, run[1].detect_cmd_cpu_s, run[2].detect_cmd_cpu_s);
        for (int r = 0; r < BV_REFEREE_RUNS; r++)
            t->run_ratio[r] = run[r].cpu_s / run[r].detect_cmd_cpu_s;
    }
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return rc;
}

/* The whole `tableref referee` on hard table `table`'s 12 MP pair: its wall time beside detection's share. */
void bv_referee_print(int table)
{
    bv_referee_time ref;
    base_error err = {0};
    if (bv_referee_measure(table, &ref, &err) < 0) {
        printf("referee: not timed: %s\n", err.msg);
        return;
    }
    /* One detect: a picture read from its JPEG file and detected, in this process (no start-up). */
    const double one = (ref.decode_s + ref.detect_s) / 2, one_cpu = (ref.decode_cpu_s + ref.detect_cpu_s) / 2;
    printf("referee: %.2f s on a %.0f MP pair (hard table %d, exit %d, %.2f s of CPU) = %.2fx one detect (%.2f s: "
           "a picture read %.2f s and detected %.2f s; CPU %.2f s, the referee %.2fx that); detection %.0f%% of "
           "the referee's time (timed again)\n",
           ref.wall_s, ref.width * (double)ref.height / 1e6, table, ref.exit_status, ref.cpu_s, ref.wall_s / one,
           one, ref.decode_s / 2, ref.detect_s / 2, one_cpu, ref.cpu_s / one_cpu, 100 * ref.detect_s / ref.wall_s);
    printf("referee: %.2f s of CPU = %.2fx one `tableref detect` command on the AFTER picture (%.2f s of CPU, %.2f s "
           "wall; both run in this process, without the process's start; medians of %d runs, whose ratios were %.2fx, "
           "%.2fx, %.2fx)\n",
           ref.cpu_s, ref.cpu_s / ref.detect_cmd_cpu_s, ref.detect_cmd_cpu_s, ref.detect_cmd_s, BV_REFEREE_RUNS,
           ref.run_ratio[0], ref.run_ratio[1], ref.run_ratio[2]);
}
