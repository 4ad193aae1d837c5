/*
 * record_driver: drives watch_record on its own, for the recording tests
 * (tests/test_record.c) and by hand. Synthetic frames (a gradient, a moving
 * bar and the frame number in blocks), at frame times index / fps.
 *
 *   record_driver OUT.mp4 [--frames N] [--fps F] [--size WxH] [--gray]
 *                 [--sleep-ms MS] [--keep-s S] [--close-timeout-ms MS] [--replace]
 *                 [--clip AT_FRAME FROM_MS TO_MS PATH]...
 * A clip is asked for when frame AT_FRAME is given (as the watch loop asks
 * at a settled moment).
 *
 * Prints one line per frame, flushed ("frame 12 fragments 2 playable_ms
 * 1000 bytes 34567 failed 0 kept 20 dropped 0": kept, the frames in whole
 * fragments on disk) so a test can kill it at a known moment, "clip PATH
 * ok|failed FROM TO MESSAGE" as each clip is done, and at the end "encoded N
 * dropped N fragments N playable_ms MS kept N in N", "closed 0|-1 MESSAGE"
 * and "cpu_s TOTAL drawing_s DRAW" (the process's CPU time, and the part the
 * driver spent drawing its frames: the rest is the recorder's, to measure
 * its encoder's cost per frame with --wait).
 * Exit 0, or 1 when the recording failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "watch_record.h"

static void draw(uint8_t *img, int w, int h, int ch, long i)
{
    const int bar = (int)((i * 7) % w);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t v = (uint8_t)((x + y + i) & 0xff);
            if (abs(x - bar) < 6)
                v = 255;
            /* The frame number as 16 black/white blocks along the top. */
            if (y < 16 && x < 16 * 16)
                v = ((i >> (x / 16)) & 1) ? 255 : 0;
            for (int c = 0; c < ch; c++)
                img[((size_t)y * w + x) * ch + c] = (uint8_t)(v + 40 * c);
        }
}

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double process_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static void report_clips(watch_record *r)
{
    watch_record_clip_result res[8];
    size_t n;
    while ((n = watch_record_clips_done(r, res, 8)) > 0)
        for (size_t i = 0; i < n; i++)
            printf("clip %s %s %.0f %.0f %s\n", res[i].path, res[i].ok ? "ok" : "failed", res[i].from_ms, res[i].to_ms,
                   res[i].message);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: record_driver OUT.mp4 [--frames N] [--fps F] [--size WxH] [--gray] [--sleep-ms MS] "
                        "[--queue N] [--wait] [--keep-s S] [--close-timeout-ms MS] [--replace] "
                        "[--clip AT FROM TO PATH]...\n");
        return 2;
    }
    watch_record_config cfg;
    watch_record_config_default(&cfg);
    cfg.width = 320, cfg.height = 240;
    long frames = 50;
    int ch = 3, sleep_ms = 0, queue = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atol(argv[++i]);
        else if (!strcmp(argv[i], "--fps") && i + 1 < argc)
            cfg.fps = atof(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            sscanf(argv[++i], "%dx%d", &cfg.width, &cfg.height);
        else if (!strcmp(argv[i], "--gray"))
            ch = 1;
        else if (!strcmp(argv[i], "--sleep-ms") && i + 1 < argc)
            sleep_ms = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--wait"))
            cfg.wait_when_full = true;
        else if (!strcmp(argv[i], "--queue") && i + 1 < argc)
            queue = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--replace"))
            cfg.replace = true;
        else if (!strcmp(argv[i], "--keep-s") && i + 1 < argc)
            cfg.clip_keep_s = atof(argv[++i]);
        else if (!strcmp(argv[i], "--close-timeout-ms") && i + 1 < argc)
            cfg.close_timeout_ms = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--clip") && i + 4 < argc)
            i += 4; /* asked for in the frame loop */
        else {
            fprintf(stderr, "record_driver: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    /* The driver must not be slower than the encoder in these tests: a deep queue drops nothing. */
    cfg.queue_frames = queue > 0 ? queue : sleep_ms ? 4 : (int)frames + 1;
    base_error err;
    watch_record *r = watch_record_open(argv[1], &cfg, &err);
    if (!r) {
        printf("open failed %s\n", err.msg);
        return 1;
    }
    uint8_t *img = malloc((size_t)cfg.width * cfg.height * ch);
    int told = 0;
    double drawing_s = 0;
    for (long i = 0; i < frames && img; i++) {
        for (int k = 2; k < argc; k++)
            if (!strcmp(argv[k], "--clip") && k + 4 < argc && atol(argv[k + 1]) == i &&
                watch_record_clip(r, atof(argv[k + 2]), atof(argv[k + 3]), argv[k + 4], &err) < 0)
                printf("clip request refused %s\n", err.msg);
        const double d0 = thread_cpu_s();
        draw(img, cfg.width, cfg.height, ch, i);
        drawing_s += thread_cpu_s() - d0;
        if (watch_record_frame(r, img, cfg.width, cfg.height, (size_t)cfg.width * ch, ch, i * 1000.0 / cfg.fps, &err) < 0 && !told) {
            printf("error %s\n", err.msg);
            told = 1;
        }
        watch_record_stats st;
        watch_record_get_stats(r, &st);
        printf("frame %ld fragments %ld playable_ms %.0f bytes %lld failed %d kept %ld dropped %ld\n", i, st.fragments,
               st.playable_ms, (long long)st.bytes, st.failed, st.frames_kept, st.frames_dropped);
        report_clips(r);
        fflush(stdout);
        if (sleep_ms) {
            struct timespec ts = {sleep_ms / 1000, (long)(sleep_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    free(img);
    watch_record_stats st;
    int rc = watch_record_close(r, &err);
    report_clips(r); /* clips that end after the last frame are written at close */
    watch_record_get_stats(r, &st);
    watch_record_free(r);
    printf("encoded %ld dropped %ld fragments %ld playable_ms %.0f kept %ld in %ld\n", st.frames_encoded,
           st.frames_dropped, st.fragments, st.playable_ms, st.frames_kept, st.frames_in);
    printf("closed %d %s\n", rc, rc < 0 ? err.msg : "");
    printf("cpu_s %.3f drawing_s %.3f\n", process_cpu_s(), drawing_s);
    fflush(stdout); /* before exit: a thread stuck on a stalled disk may hold the exit itself */
    return rc < 0 ? 1 : 0;
}
