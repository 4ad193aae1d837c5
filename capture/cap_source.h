/*
 * cap_source: frames from a camera or a recording, one interface for all.
 *
 * Sources (the SRC of `tableref watch --source SRC`):
 *   libcamera, libcamera:N   camera N of libcamera (Raspberry Pi cameras); needs TABLEREF_HAVE_LIBCAMERA
 *   v4l2:/dev/videoN, v4l2:N a V4L2 device (USB webcams), read directly: its Y plane as it comes
 *   DIR                      every .jpg/.jpeg/.png in DIR, in name order
 *   frames/%04d.jpg          a printf pattern, from index 0 (or 1) until a file is missing
 *   game.mp4 (anything else) a video file through FFmpeg
 *
 * How to use:
 *   cap_source_config cfg; cap_source_config_default(&cfg);
 *   cap_source *cap = cap_source_open("v4l2:/dev/video0", &cfg, &err);
 *   if (!cap) { fprintf(stderr, "%s\n", err.msg); return 2; }  // "cannot open /dev/video0: no such device"
 *   cap_frame f;
 *   while ((r = cap_source_read(cap, &f, &err)) == 1) ... f.gray, f.image, f.t_ms ...
 *   if (r == -1) ... the camera was lost (err says why); r == -2: a frame of a size no camera gives;
 *   r == 0: the recording ended
 *   cap_source_close(cap);
 * A frame's pixels belong to the capture and stay valid until the next read.
 * No call waits longer than cfg.timeout_ms for a camera.
 */
#ifndef CAP_SOURCE_H
#define CAP_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "base_image.h"
#include "base_error.h"

typedef enum cap_source_kind {
    CAP_SOURCE_FILE = 0,    /* a video file */
    CAP_SOURCE_IMAGES,      /* a directory or a printf pattern of still images */
    CAP_SOURCE_V4L2,        /* a V4L2 device */
    CAP_SOURCE_LIBCAMERA,   /* a libcamera camera */
    CAP_SOURCE_CALLBACK,    /* frames a caller makes (the table simulator, datasets/ds_loop.h) */
} cap_source_kind;

typedef struct cap_source_config {
    /* Frame rate of an image sequence (its timestamps are index / fps), and
     * the rate asked of a camera (0: the driver's). Default 5. */
    double fps;
    /* Frame size asked of a camera (0: its default). */
    int width, height;
    /* Longest wait for a camera frame, ms: past it the camera counts as
     * lost. Default 3000 (a 12 MP sensor at night exposes up to ~1 s). */
    int timeout_ms;
} cap_source_config;

void cap_source_config_default(cap_source_config *c);

typedef struct cap_frame {
    const base_image *image;  /* as delivered: gray or BGR */
    const base_image *gray;   /* 8-bit gray view for detection (the same image when gray) */
    long index;              /* 0, 1, 2, ... */
    /* ms since the first frame: index / fps for recordings (so a replay
     * judges the same as the live game), the camera's clock for cameras. */
    double t_ms;
} cap_frame;

typedef struct cap_source cap_source;

/*
 * A source whose frames a caller makes: read(ctx, index, &image, err) gives
 * frame `index` (0, 1, ...; gray or BGR, the caller's, valid until its next
 * call) and returns 1, 0 at the end, -1 with err set (the source is lost).
 * Frames are timed like a recording's: index / fps.
 */
typedef struct cap_source_callbacks {
    int (*read)(void *ctx, long index, const base_image **image, base_error *err);
    void *ctx;
    double fps;               /* > 0 */
    long frame_count;         /* -1 unknown */
    const char *describe;     /* one line for people */
} cap_source_callbacks;
cap_source *cap_source_open_callbacks(const cap_source_callbacks *cb, base_error *err);

/* NULL with a plain message naming the source. */
cap_source *cap_source_open(const char *source, const cap_source_config *cfg, base_error *err);
/*
 * 1 a frame, 0 the recording ended, -1 the source was lost (err says why),
 * -2 a frame of an image sequence has a size no camera gives (too small or
 * over the pixel cap, vision/media_image_read.h: bad input, err names the file). A
 * frame cut short, corrupt or gone is -1: a camera dying mid-write.
 */
int cap_source_read(cap_source *c, cap_frame *out, base_error *err);
cap_source_kind cap_source_kind_of(const cap_source *c);
/* Frames per second (the container's, the sequence's, or the camera's; 0 unknown). */
double cap_source_fps(const cap_source *c);
/* Frames in a recording, -1 for cameras or when unknown. */
long cap_source_frame_count(const cap_source *c);
/* One line for people: "image sequence demo/ (50 frames at 5 fps)". */
const char *cap_source_describe(const cap_source *c);
/* NULL is fine. */
void cap_source_close(cap_source *c);

/* A camera this machine has, as `tableref cameras` lists it. */
typedef struct cap_source_info {
    char source[64];      /* what --source takes: "libcamera:0", "v4l2:/dev/video0" */
    char name[160];       /* the device's own name: "imx477 /base/soc/i2c0mux/...", "HD Pro Webcam C920 (uvcvideo)" */
    char sizes[256];      /* frame sizes it offers, largest first ("4056x3040 2028x1520"); "" when unknown */
} cap_source_info;

/*
 * The cameras attached: libcamera's (when built with it), then every V4L2
 * device that can capture video (/dev/video*, asked for its name and frame
 * sizes). Returns how many were written to out (at most cap), 0 with none,
 * -1 only when libcamera itself fails to start (err says why).
 */
int cap_source_list(cap_source_info *out, int cap, base_error *err);

/* Appended to every camera error: how to see which cameras there are. */
#define CAP_SOURCE_LIST_HINT "list the cameras with `tableref cameras`"


#endif
