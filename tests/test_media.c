/*
 * media/: pictures written with libpng and TurboJPEG and read back through
 * the checked loader, videos made with ffmpeg at test time and read through
 * FFmpeg, the V4L2 camera's error paths and luma extraction (there is no
 * camera here), and the X11 window without a display and on Xvfb.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <linux/videodev2.h>
#include <turbojpeg.h>

#include "cli_run.h"
#include "cvshim.h"
#include "media.h"
#include "cap_source.h"
#include "cap_v4l2.h"
#include "cap_video.h"
#include "media_image_read.h"

static char g_dir[64];

static void make_dir(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/tableref-media-XXXXXX");
    cr_assert(mkdtemp(g_dir), "mkdtemp: %s", strerror(errno));
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(media, .init = make_dir, .fini = remove_dir, .timeout = 60);

static const char *in_dir(const char *name)
{
    static char path[2][256];
    static int k;
    k ^= 1;
    snprintf(path[k], sizeof path[k], "%s/%s", g_dir, name);
    return path[k];
}

/* A picture with a padded stride; smooth ones for JPEG, busy ones for PNG. */
static base_image *pattern(int w, int h, int channels, int smooth)
{
    base_image *img = base_image_new(w, h, channels, 0);
    cr_assert(img);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < channels; c++) {
                double s = 128 + 90 * sin(x / 9.0 + c) * cos(y / 7.0 - c);
                img->data[y * img->stride + x * channels + c] =
                    (uint8_t)(smooth ? lround(s) : (x * 7 + y * 13 + c * 101) & 255);
            }
    return img;
}

static int max_diff(const base_image *a, const base_image *b, double *mean)
{
    cr_assert_eq(a->width, b->width);
    cr_assert_eq(a->height, b->height);
    cr_assert_eq(a->channels, b->channels);
    int worst = 0;
    double sum = 0;
    for (int y = 0; y < a->height; y++)
        for (int x = 0; x < a->width * a->channels; x++) {
            int d = abs(a->data[y * a->stride + x] - b->data[y * b->stride + x]);
            worst = d > worst ? d : worst;
            sum += d;
        }
    if (mean)
        *mean = sum / ((double)a->width * a->height * a->channels);
    return worst;
}

static void png_round_trip(int channels)
{
    base_error err;
    base_image *img = pattern(37, 23, channels, 0);
    const char *path = in_dir(channels == 1 ? "gray.png" : "bgr.png");
    cr_assert_eq(media_image_save(img, path, 0, &err), 0, "%s", err.msg);
    base_image *back = media_image_load(path, MEDIA_IMAGE_AS_STORED, &err);
    cr_assert(back, "%s", err.msg);
    cr_expect_eq(max_diff(img, back, NULL), 0, "PNG is lossless");
    base_image_free(back);
    base_image_free(img);
}

Test(media, png_writes_gray_and_bgr_exactly) { png_round_trip(1); png_round_trip(3); }

Test(media, jpeg_round_trip_is_within_the_stated_tolerance)
{
    base_error err;
    for (int channels = 1; channels <= 3; channels += 2) {
        base_image *img = pattern(64, 48, channels, 1);
        const char *path = in_dir("smooth.jpg");
        cr_assert_eq(media_image_save(img, path, 95, &err), 0, "%s", err.msg);
        base_image *back = media_image_load(path, MEDIA_IMAGE_AS_STORED, &err);
        cr_assert(back, "%s", err.msg);
        double mean;
        int worst = max_diff(img, back, &mean);
        /* Quality 95 on a smooth picture: gray within 3 levels; colour loses
         * chroma detail to 4:2:0 (as cameras write), within 12, mean under 2. */
        cr_expect_leq(worst, channels == 1 ? 3 : 12, "worst %d levels (%d channels)", worst, channels);
        cr_expect_lt(mean, channels == 1 ? 0.8 : 2.0, "mean %.3f levels", mean);
        /* The in-memory round trip is the same codec both ways: the same pixels. */
        base_image *mem = base_image_clone(img);
        cr_assert_eq(media_image_jpeg_roundtrip(mem, 95, &err), 0, "%s", err.msg);
        cr_expect_eq(max_diff(mem, back, NULL), 0);
        base_image_free(mem);
        base_image_free(back);
        base_image_free(img);
    }
}

Test(media, image_write_errors_name_the_file)
{
    base_error err;
    base_image *img = pattern(16, 16, 1, 0);
    cr_expect_eq(media_image_save(img, "/nonexistent-dir/x.png", 0, &err), -1);
    cr_expect(strstr(err.msg, "/nonexistent-dir/x.png"), "%s", err.msg);
    cr_expect_eq(media_image_save(img, "/nonexistent-dir/x.jpg", 90, &err), -1);
    cr_expect(strstr(err.msg, "/nonexistent-dir/x.jpg: cannot write image"), "%s", err.msg);
    cr_expect_eq(media_image_save(img, in_dir("x.bmp"), 0, &err), -1);
    cr_expect(strstr(err.msg, "must end in .png, .jpg or .jpeg"), "%s", err.msg);
    base_image_free(img);
}

/* ---- video files ---------------------------------------------------------- */

/* 10 frames at 10 fps, 64x48: red on the left half, blue on the right. */
static const char *make_video(const char *name, const char *codec)
{
    const char *path = in_dir(name);
    char cmd[768];
    snprintf(cmd, sizeof cmd,
             "ffmpeg -nostdin -loglevel error -y -f lavfi -i color=c=red:s=64x48:r=10:d=1 "
             "-vf drawbox=x=32:y=0:w=32:h=48:color=blue:t=fill %s -pix_fmt yuv420p '%s'",
             codec, path);
    cr_assert_eq(system(cmd), 0, "ffmpeg could not make %s", path);
    return path;
}

static const uint8_t *px(const base_image *img, int x, int y) { return img->data + y * img->stride + x * img->channels; }

static void read_video(const char *path, int gray_tol, int bgr_tol)
{
    base_error err;
    cap_source *cap = cap_source_open(path, NULL, &err);
    cr_assert(cap, "%s", err.msg);
    cr_expect_eq(cap_source_kind_of(cap), CAP_SOURCE_FILE);
    cr_expect_eq(cap_source_frame_count(cap), 10);
    cr_expect_float_eq(cap_source_fps(cap), 10.0, 1e-9);
    cap_frame f;
    int n = 0, r;
    while ((r = cap_source_read(cap, &f, &err)) == 1) {
        cr_assert_eq(f.image->width, 64);
        cr_assert_eq(f.image->height, 48);
        cr_assert_eq(f.image->channels, 3);
        cr_assert_eq(f.gray->channels, 1);
        cr_expect_float_eq(f.t_ms, n * 100.0, 1e-9);
        /* Luma of pure red 0.299 * 255 = 76, of pure blue 0.114 * 255 = 29. */
        cr_expect_leq(abs(*px(f.gray, 10, 20) - 76), gray_tol, "red's gray %d", *px(f.gray, 10, 20));
        cr_expect_leq(abs(*px(f.gray, 50, 20) - 29), gray_tol, "blue's gray %d", *px(f.gray, 50, 20));
        const uint8_t *red = px(f.image, 10, 20), *blue = px(f.image, 50, 20);
        cr_expect(red[0] <= bgr_tol && red[1] <= bgr_tol && red[2] >= 255 - bgr_tol, "red %d %d %d", red[0], red[1],
                  red[2]);
        cr_expect(blue[0] >= 255 - bgr_tol && blue[1] <= bgr_tol && blue[2] <= bgr_tol, "blue %d %d %d", blue[0],
                  blue[1], blue[2]);
        n++;
    }
    cr_expect_eq(r, 0, "reads to the end: %s", r < 0 ? err.msg : "");
    cr_expect_eq(n, 10);
    cap_source_close(cap);
}

/* FFV1 is lossless: the luma is exact; the colour only loses to YUV rounding. */
Test(media, video_file_lossless_gives_frame_count_and_exact_luma)
{
    read_video(make_video("lossless.mkv", "-c:v ffv1"), 0, 3);
}

Test(media, video_file_h264_mp4_reads_every_frame)
{
    read_video(make_video("game.mp4", "-c:v libx264 -preset ultrafast -crf 10"), 3, 8);
}

Test(media, video_reader_gives_gray_straight_and_refuses_non_videos)
{
    base_error err;
    const char *path = make_video("gray.mkv", "-c:v ffv1");
    cap_video *v = cap_video_open(path, CAP_VIDEO_GRAY, &err);
    cr_assert(v, "%s", err.msg);
    base_view gray, bgr = {0};
    cr_assert_eq(cap_video_read(v, &gray, &bgr, &err), 1, "%s", err.msg);
    cr_expect_eq(gray.channels, 1);
    cr_expect_eq(gray.data[20 * gray.stride + 10], 76);
    cr_expect_null(bgr.data, "no colour asked, none made");
    cap_video_free(v);

    FILE *f = fopen(in_dir("noise.mp4"), "wb");
    cr_assert(f);
    for (int i = 0; i < 4096; i++)
        fputc((i * 7919) & 255, f);
    fclose(f);
    cr_expect_null(cap_video_open(in_dir("noise.mp4"), CAP_VIDEO_GRAY, &err));
    cr_expect(strstr(err.msg, "noise.mp4: not a video FFmpeg can read"), "%s", err.msg);
    cr_expect_null(cap_video_open(in_dir("missing.mp4"), CAP_VIDEO_GRAY, &err));
    cr_expect(strstr(err.msg, "missing.mp4: No such file or directory"), "%s", err.msg);
}

/* ---- V4L2 cameras ---------------------------------------------------------- */

Test(media, v4l2_without_a_device_is_a_clear_error)
{
    base_error err;
    cr_expect_null(cap_source_open("v4l2:/dev/video97", NULL, &err));
    cr_expect_str_eq(err.msg, "cannot open /dev/video97: no such device (list the cameras with `tableref cameras`)");
    cr_expect_null(cap_source_open("v4l2:/dev/null", NULL, &err));
    cr_expect_str_eq(err.msg, "cannot open /dev/null: not a V4L2 device (list the cameras with `tableref cameras`)");
    cr_expect_null(cap_v4l2_open("/etc/hostname", 0, 0, 0, 100, &err));
    cr_expect_str_eq(err.msg, "cannot open /etc/hostname: not a video device");

    cli_result r;
    cr_assert_eq(cli_run("capture --source v4l2:/dev/video97 --out /tmp/never-written", &r), 0);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "cannot open /dev/video97: no such device"), "%s", r.err);
}

Test(media, camera_luma_is_the_y_plane_of_each_format)
{
    base_error err;
    uint8_t out[2][4];
    /* 4x2 frames with 2 bytes of row padding. */
    const uint8_t yuyv[] = {10, 128, 11, 129, 12, 130, 13, 131, 0, 0, 20, 128, 21, 129, 22, 130, 23, 131, 0, 0};
    const uint8_t uyvy[] = {128, 10, 129, 11, 130, 12, 131, 13, 0, 0, 128, 20, 129, 21, 130, 22, 131, 23, 0, 0};
    const uint8_t nv12[] = {10, 11, 12, 13, 0, 0, 20, 21, 22, 23, 0, 0, 128, 128, 128, 128};
    const uint8_t want[2][4] = {{10, 11, 12, 13}, {20, 21, 22, 23}};
    cr_assert_eq(cap_v4l2_luma(V4L2_PIX_FMT_YUYV, yuyv, sizeof yuyv, 4, 2, 10, &out[0][0], 4, &err), 0, "%s", err.msg);
    cr_expect_arr_eq(out, want, sizeof want);
    cr_assert_eq(cap_v4l2_luma(V4L2_PIX_FMT_UYVY, uyvy, sizeof uyvy, 4, 2, 10, &out[0][0], 4, &err), 0, "%s", err.msg);
    cr_expect_arr_eq(out, want, sizeof want);
    cr_assert_eq(cap_v4l2_luma(V4L2_PIX_FMT_NV12, nv12, sizeof nv12, 4, 2, 6, &out[0][0], 4, &err), 0, "%s", err.msg);
    cr_expect_arr_eq(out, want, sizeof want);
    cr_assert_eq(cap_v4l2_luma(V4L2_PIX_FMT_GREY, nv12, 10, 4, 2, 6, &out[0][0], 4, &err), 0, "%s", err.msg);
    cr_expect_arr_eq(out, want, sizeof want);

    cr_expect_eq(cap_v4l2_luma(V4L2_PIX_FMT_YUYV, yuyv, 12, 4, 2, 10, &out[0][0], 4, &err), -1);
    cr_expect_str_eq(err.msg, "camera frame of 12 bytes is short for 4x2 YUYV");
    cr_expect_eq(cap_v4l2_luma(V4L2_PIX_FMT_RGB24, yuyv, sizeof yuyv, 4, 2, 12, &out[0][0], 4, &err), -1);
    cr_expect_str_eq(err.msg, "camera format RGB3 is not one tableref reads");
}

Test(media, camera_mjpeg_is_decoded_to_gray)
{
    base_error err;
    uint8_t flat[8 * 16], out[8 * 16];
    memset(flat, 200, sizeof flat);
    tjhandle tj = tjInitCompress();
    unsigned char *jpeg = NULL;
    unsigned long len = 0;
    cr_assert_eq(tjCompress2(tj, flat, 16, 16, 8, TJPF_GRAY, &jpeg, &len, TJSAMP_GRAY, 100, 0), 0);
    tjDestroy(tj);
    cr_assert_eq(cap_v4l2_luma(V4L2_PIX_FMT_MJPEG, jpeg, len, 16, 8, 0, out, 16, &err), 0, "%s", err.msg);
    cr_expect_arr_eq(out, flat, sizeof flat, "a flat picture survives JPEG exactly");
    cr_expect_eq(cap_v4l2_luma(V4L2_PIX_FMT_MJPEG, jpeg, len, 32, 8, 0, out, 16, &err), -1);
    cr_expect_str_eq(err.msg, "MJPEG frame is 16x8, the camera said 32x8");
    cr_expect_eq(cap_v4l2_luma(V4L2_PIX_FMT_MJPEG, jpeg, 20, 16, 8, 0, out, 16, &err), -1);
    cr_expect_str_eq(err.msg, "MJPEG frame: no picture in its 20 bytes");
    /* Cut short after the header: a damaged frame, not a half-grey picture. */
    cr_expect_eq(cap_v4l2_luma(V4L2_PIX_FMT_MJPEG, jpeg, len - 40, 16, 8, 0, out, 16, &err), -1);
    cr_expect(strncmp(err.msg, "MJPEG frame: ", 13) == 0, "%s", err.msg);
    tjFree(jpeg);
}

/* ---- the window ------------------------------------------------------------ */

Test(media, window_without_a_display_is_a_clear_error)
{
    base_error err;
    unsetenv("DISPLAY");
    cr_expect_not(media_window_available());
    cr_expect_null(media_window_open("t", 0, 0, 1, &err));
    cr_expect_str_eq(err.msg, "no display (DISPLAY is not set)");
    base_image *img = pattern(8, 8, 1, 0);
    cr_expect_eq(media_screen_show("tableref", img, 1, &err), -1);
    cr_expect_str_eq(err.msg, "no display (DISPLAY is not set)");
    base_image_free(img);
    cli_result r;
    cr_assert_eq(cli_run("calibrate projector --show --calib datasets/demo/calib.json", &r), 0);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "projector: no display (DISPLAY is not set); use --pattern-out"), "%s", r.err);

    setenv("DISPLAY", ":9973", 1);
    cr_expect_null(media_window_open("t", 0, 0, 1, &err));
    cr_expect_str_eq(err.msg, "cannot open display :9973");
    cr_assert_eq(cli_run("calibrate projector --show --calib datasets/demo/calib.json", &r), 0);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "projector: cannot open display :9973; use --pattern-out"), "%s", r.err);
}

/* An Xvfb of w x h at a display number it picks itself (-displayfd); its pid in *pid. */
static int start_xvfb(int w, int h, pid_t *pid)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    *pid = fork();
    cr_assert_geq(*pid, 0);
    if (*pid == 0) {
        close(fd[0]);
        char fdarg[16], screen[32];
        snprintf(fdarg, sizeof fdarg, "%d", fd[1]);
        snprintf(screen, sizeof screen, "%dx%dx24", w, h);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        execlp("Xvfb", "Xvfb", "-displayfd", fdarg, "-screen", "0", screen, "-nolisten", "tcp", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    /* Xvfb writes the number and the newline apart, and dies if the pipe
     * closes in between: read up to the newline (or its exit). */
    char num[16] = {0};
    size_t got = 0;
    ssize_t n;
    while (got < sizeof num - 1 && (n = read(fd[0], num + got, 1)) > 0 && num[got] != '\n')
        got++;
    close(fd[0]);
    return got > 0 ? atoi(num) : -1;
}

static unsigned long root_pixel(Display *d, int x, int y)
{
    XImage *im = XGetImage(d, DefaultRootWindow(d), x, y, 1, 1, AllPlanes, ZPixmap);
    cr_assert(im);
    unsigned long p = XGetPixel(im, 0, 0) & 0xffffff;
    XDestroyImage(im);
    return p;
}

Test(media, window_on_xvfb_shows_the_picture_scaled_and_reads_keys)
{
    if (access("/usr/bin/Xvfb", X_OK) != 0)
        cr_skip_test("Xvfb is not installed (scripts/setup-debian.sh installs it)");
    pid_t pid;
    int display = start_xvfb(320, 240, &pid);
    cr_assert_geq(display, 0, "Xvfb did not start");
    char name[32];
    snprintf(name, sizeof name, ":%d", display);
    setenv("DISPLAY", name, 1);
    base_error err;
    media_window *w = media_window_open("tableref test", 0, 0, 1, &err);
    cr_assert(w, "%s", err.msg);
    int ww, wh;
    media_window_size(w, &ww, &wh);
    cr_expect_eq(ww, 320, "fullscreen without a window manager: the screen's size");
    cr_expect_eq(wh, 240);
    /* 4x2 BGR quadrants, shown 80x120 px each. */
    uint8_t px8[2][4][3] = {{{0, 0, 255}, {0, 255, 0}, {255, 0, 0}, {40, 80, 120}},
                            {{255, 255, 255}, {0, 0, 0}, {10, 20, 30}, {200, 100, 50}}};
    base_view v = {4, 2, 3, 12, &px8[0][0][0]};
    cr_assert_eq(media_window_show(w, &v, &err), 0, "%s", err.msg);
    Display *d = XOpenDisplay(name);
    cr_assert(d);
    cr_expect_eq(root_pixel(d, 40, 60), 0xff0000ul, "red (top-left)");
    cr_expect_eq(root_pixel(d, 119, 60), 0x00ff00ul, "green");
    cr_expect_eq(root_pixel(d, 200, 10), 0x0000fful, "blue");
    cr_expect_eq(root_pixel(d, 319, 119), 0x785028ul, "BGR 40 80 120");
    cr_expect_eq(root_pixel(d, 300, 239), 0x3264c8ul, "BGR 200 100 50 (bottom-right)");
    /* A key pressed in the window. */
    Window win = 0, root_ret, parent, *kids = NULL;
    unsigned nk = 0;
    XQueryTree(d, DefaultRootWindow(d), &root_ret, &parent, &kids, &nk);
    cr_assert_eq(nk, 1u, "one window on the screen");
    win = kids[0];
    XFree(kids);
    XKeyEvent k = {.type = KeyPress, .display = d, .window = win, .root = DefaultRootWindow(d), .same_screen = True,
                   .keycode = XKeysymToKeycode(d, 'q')};
    XSendEvent(d, win, True, KeyPressMask, (XEvent *)&k);
    XFlush(d);
    cr_expect_eq(media_window_key(w, 2000), 'q');
    cr_expect_eq(media_window_key(w, 1), -1, "one press, one key");
    media_window_free(w);

    /* The projector (calibrate projector --show) and watch's window go through the same window. */
    base_image *gray = base_image_new(2, 1, 1, 0);
    gray->data[1] = 255;
    cr_assert_eq(media_projector_show(gray, 0, 0, 1, &err), 0, "%s", err.msg);
    cr_expect_eq(root_pixel(d, 100, 100), 0x000000ul, "left half black");
    cr_expect_eq(root_pixel(d, 200, 100), 0xfffffful, "right half white");
    media_projector_close();
    cr_assert_eq(media_screen_show("tableref", gray, 1, &err), 0, "%s", err.msg);
    cr_expect_eq(root_pixel(d, 200, 100), 0xfffffful);
    cr_expect_eq(media_screen_key(1), -1);
    media_screen_close("tableref");
    base_image_free(gray);
    XCloseDisplay(d);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
}

/* base_image_to_gray (capture's colour picture folders, no OpenCV) is OpenCV's cvtColor, bit for bit. */
Test(media, gray_of_a_colour_picture_is_opencvs_to_the_bit)
{
    base_image *bgr = base_image_new(97, 31, 3, 0);
    cr_assert(bgr);
    unsigned seed = 12345;
    for (int r = 0; r < bgr->height; r++)
        for (size_t c = 0; c < (size_t)bgr->width * 3; c++) {
            seed = seed * 1103515245u + 12345u;
            bgr->data[(size_t)r * bgr->stride + c] = (uint8_t)(seed >> 16);
        }
    base_error err;
    base_image *ours = base_image_to_gray(bgr), *cv = cvs_image_to_gray(bgr, &err);
    cr_assert(ours && cv);
    int differ = 0;
    for (int r = 0; r < bgr->height; r++)
        differ += memcmp(ours->data + (size_t)r * ours->stride, cv->data + (size_t)r * cv->stride, (size_t)bgr->width) != 0;
    cr_expect_eq(differ, 0, "%d rows differ from OpenCV's", differ);
    base_image_free(ours);
    base_image_free(cv);
    base_image_free(bgr);
}
