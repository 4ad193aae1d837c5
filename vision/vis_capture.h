/*
 * vis_capture: frames from a camera or a recording, one interface for all.
 *
 * Sources (the SRC of `tableref watch --source SRC`):
 *   libcamera, libcamera:N   camera N of libcamera (Raspberry Pi cameras); needs TABLEREF_HAVE_LIBCAMERA
 *   v4l2:/dev/videoN, v4l2:N a V4L2 device (USB webcams) through OpenCV
 *   DIR                      every .jpg/.jpeg/.png in DIR, in name order
 *   frames/%04d.jpg          a printf pattern, from index 0 (or 1) until a file is missing
 *   game.mp4 (anything else) a video file through FFmpeg
 *
 * How to use:
 *   vis_capture_config cfg; vis_capture_config_default(&cfg);
 *   vis_capture *cap = vis_capture_open("v4l2:/dev/video0", &cfg, &err);
 *   if (!cap) { fprintf(stderr, "%s\n", err.msg); return 2; }  // "cannot open /dev/video0: no such device"
 *   vis_frame f;
 *   while ((r = vis_capture_read(cap, &f, &err)) == 1) ... f.gray, f.image, f.t_ms ...
 *   if (r == -1) ... the camera was lost (err says why); r == -2: a frame of a size no camera gives;
 *   r == 0: the recording ended
 *   vis_capture_close(cap);
 * A frame's pixels belong to the capture and stay valid until the next read.
 * No call waits longer than cfg.timeout_ms for a camera.
 */
#ifndef VIS_CAPTURE_H
#define VIS_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "cvshim.h"
#include "rules_error.h"

typedef enum vis_capture_kind {
    VIS_CAPTURE_FILE = 0,    /* a video file */
    VIS_CAPTURE_IMAGES,      /* a directory or a printf pattern of still images */
    VIS_CAPTURE_V4L2,        /* a V4L2 device */
    VIS_CAPTURE_LIBCAMERA,   /* a libcamera camera */
} vis_capture_kind;

typedef struct vis_capture_config {
    /* Frame rate of an image sequence (its timestamps are index / fps), and
     * the rate asked of a camera (0: the driver's). Default 5. */
    double fps;
    /* Frame size asked of a camera (0: its default). */
    int width, height;
    /* Longest wait for a camera frame, ms: past it the camera counts as
     * lost. Default 3000 (a 12 MP sensor at night exposes up to ~1 s). */
    int timeout_ms;
} vis_capture_config;

void vis_capture_config_default(vis_capture_config *c);

typedef struct vis_frame {
    const cvs_image *image;  /* as delivered: gray or BGR */
    const cvs_image *gray;   /* 8-bit gray view for detection (the same image when gray) */
    long index;              /* 0, 1, 2, ... */
    /* ms since the first frame: index / fps for recordings (so a replay
     * judges the same as the live game), the camera's clock for cameras. */
    double t_ms;
} vis_frame;

typedef struct vis_capture vis_capture;

/* NULL with a plain message naming the source. */
vis_capture *vis_capture_open(const char *source, const vis_capture_config *cfg, rules_error *err);
/*
 * 1 a frame, 0 the recording ended, -1 the source was lost (err says why),
 * -2 a frame of an image sequence has a size no camera gives (too small or
 * over the pixel cap, vision/vis_image.h: bad input, err names the file). A
 * frame cut short, corrupt or gone is -1: a camera dying mid-write.
 */
int vis_capture_read(vis_capture *c, vis_frame *out, rules_error *err);
vis_capture_kind vis_capture_kind_of(const vis_capture *c);
/* Frames per second (the container's, the sequence's, or the camera's; 0 unknown). */
double vis_capture_fps(const vis_capture *c);
/* Frames in a recording, -1 for cameras or when unknown. */
long vis_capture_frame_count(const vis_capture *c);
/* One line for people: "image sequence demo/ (50 frames at 5 fps)". */
const char *vis_capture_describe(const vis_capture *c);
/* NULL is fine. */
void vis_capture_close(vis_capture *c);

/* A camera this machine has, as `tableref cameras` lists it. */
typedef struct vis_source_info {
    char source[64];      /* what --source takes: "libcamera:0", "v4l2:/dev/video0" */
    char name[160];       /* the device's own name: "imx477 /base/soc/i2c0mux/...", "HD Pro Webcam C920 (uvcvideo)" */
    char sizes[256];      /* frame sizes it offers, largest first ("4056x3040 2028x1520"); "" when unknown */
} vis_source_info;

/*
 * The cameras attached: libcamera's (when built with it), then every V4L2
 * device that can capture video (/dev/video*, asked for its name and frame
 * sizes). Returns how many were written to out (at most cap), 0 with none,
 * -1 only when libcamera itself fails to start (err says why).
 */
int vis_capture_list(vis_source_info *out, int cap, rules_error *err);

/* Appended to every camera error: how to see which cameras there are. */
#define VIS_CAPTURE_LIST_HINT "list the cameras with `tableref cameras`"


#endif
