/*
 * cap_source: frames from a camera or a recording, one interface for all.
 *
 * The SRC of `tableref watch --source SRC` (and of capture, calibrate and
 * a table file's "source") is looked up in capture's table of sources
 * (cap_rows.h), one row per kind of source:
 *   libcamera, libcamera:N   camera N of libcamera (Raspberry Pi cameras); needs TABLEREF_HAVE_LIBCAMERA
 *   v4l2:/dev/videoN, v4l2:N a V4L2 device (USB webcams), read directly: its Y plane as it comes
 *   rtsp://..., http://...   a network stream: not supported in this build (said so; never read as a path)
 *   frames/%04d.jpg          a printf pattern, from index 0 (or 1) until a file is missing
 *   DIR                      every .jpg/.jpeg/.png in DIR, in name order
 *   FILE.jpg                 one picture
 *   game.mp4 (any other file) a video file through FFmpeg
 * and the rows a program registers from above at its start (`sim:SEQ.json`,
 * the table simulator, datasets/ds_loop_source.h). The row answers whether
 * the source is live (a camera: its own clock, a frame not read is gone), a
 * recording (timed index / fps, replayed as fast as it is read) or a
 * simulation (a recording made by a program); cap_source_is_live and
 * cap_source_is_simulated give its answers.
 *
 * How to use:
 *   cap_source_config cfg; cap_source_config_default(&cfg);
 *   cap_source *cap = cap_source_open("v4l2:/dev/video0", &cfg, &err);
 *   if (!cap) { fprintf(stderr, "%s\n", err.msg); return 2; }  // "cannot open /dev/video0: no such device"
 *   cap_frame f;
 *   while ((r = cap_source_read(cap, &f, &err)) == 1) ... f.gray, f.image, f.t_ms ...
 *   if (r == -1) ... the camera was lost (err says why); r == -2: a frame of a size no camera gives;
 *   r == 0: the recording ended
 *   if (cap_source_is_live(cap)) ... a camera: keep pace with it
 *   cap_source_close(cap);
 * A frame's pixels belong to the capture and stay valid until the next read.
 * No call waits longer than cfg.timeout_ms for a camera.
 */
#ifndef CAP_SOURCE_H
#define CAP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base_image.h"
#include "base_error.h"
#include "cap_rows.h" /* cap_source_config, cap_source_kind, cap_source_info: the words rows and readers share */

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
 * Frames are timed like a recording's: index / fps. The source is a
 * simulation (cap_source_is_simulated).
 */
typedef struct cap_source_callbacks {
    int (*read)(void *ctx, long index, const base_image **image, base_error *err);
    void *ctx;
    double fps;               /* > 0 */
    long frame_count;         /* -1 unknown */
    const char *describe;     /* one line for people */
} cap_source_callbacks;
cap_source *cap_source_open_callbacks(const cap_source_callbacks *cb, base_error *err);

/* Through the row that takes `source` (cap_rows.h). NULL with a plain message naming the source. */
cap_source *cap_source_open(const char *source, const cap_source_config *cfg, base_error *err);
/*
 * 1 a frame, 0 the recording ended, -1 the source was lost (err says why),
 * -2 a frame of an image sequence has a size no camera gives (too small or
 * over the pixel cap, vision/media_image_read.h: bad input, err names the file). A
 * frame cut short, corrupt or gone is -1: a camera dying mid-write.
 */
int cap_source_read(cap_source *c, cap_frame *out, base_error *err);
cap_source_kind cap_source_kind_of(const cap_source *c);
/* The row's answers: a camera (frames on its own clock, one not read is gone); frames a program makes. */
bool cap_source_is_live(const cap_source *c);
bool cap_source_is_simulated(const cap_source *c);
/* The row it was opened through (cap_rows.h). */
const cap_row *cap_source_row(const cap_source *c);
/* The object `row`'s open made (cap_backend.self) when c was opened through `row`; NULL otherwise. For the
 * layer that registered a row, to reach what its source brings (datasets/ds_loop_source.h). */
void *cap_source_backend_of(const cap_source *c, const cap_row *row);
/* Whether its frames see what is projected (a simulated table: its row gives cap_backend.project). */
bool cap_source_sees_projector(const cap_source *c);
/* Hands it the picture projected from t_ms on (copied); nothing for a source that does not see the projector.
 * Made to be watch_session_config.project with the source as its ctx. */
void cap_source_project(void *c, const base_image *picture, double t_ms);
/* Frames per second (the container's, the sequence's, or the camera's; 0 unknown). */
double cap_source_fps(const cap_source *c);
/* Frames in a recording, -1 for cameras or when unknown. */
long cap_source_frame_count(const cap_source *c);
/* One line for people: "image sequence demo/ (50 frames at 5 fps)". */
const char *cap_source_describe(const cap_source *c);
/* NULL is fine. */
void cap_source_close(cap_source *c);


/*
 * The cameras attached, row by row of the table (cap_row.list): libcamera's
 * (when built with it), then every V4L2 device that can capture video
 * (/dev/video*, asked for its name and frame sizes). Returns how many were
 * written to out (at most cap), 0 with none, -1 only when a row's listing
 * itself fails (libcamera cannot start; err says why).
 */
int cap_source_list(cap_source_info *out, int cap, base_error *err);

/* Appended to every camera error: how to see which cameras there are. */
#define CAP_SOURCE_LIST_HINT "list the cameras with `tableref cameras`"


#endif
