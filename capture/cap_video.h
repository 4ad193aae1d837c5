/*
 * cap_video: video files read through FFmpeg (libavformat, libavcodec,
 * libswscale), frame by frame, as gray (the decoder's own Y plane) and/or BGR.
 *
 * How to use:
 *   cap_video *vid = cap_video_open("game.mp4", CAP_VIDEO_GRAY | CAP_VIDEO_BGR, &err);
 *   base_view gray, bgr;
 *   while ((r = cap_video_read(vid, &gray, &bgr, &err)) == 1) ... valid until the next read ...
 *   cap_video_free(vid);          // r == 0: the end; r == -1: a corrupt stream (err says where)
 */
#ifndef CAP_VIDEO_H
#define CAP_VIDEO_H

#include <stddef.h>
#include <stdint.h>

#include "base_error.h"
#include "base_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Video files (cap_video.c) -------------------------------------- */

enum { CAP_VIDEO_GRAY = 1, CAP_VIDEO_BGR = 2 };
typedef struct cap_video cap_video;
/* `want`: CAP_VIDEO_GRAY, CAP_VIDEO_BGR or both. NULL with "cannot open PATH: ..." on error. */
cap_video *cap_video_open(const char *path, int want, base_error *err);
/*
 * The next frame: *gray and/or *bgr (as asked at open; pass NULL for the
 * other) view pixels the reader owns until the next read. Gray is the
 * decoder's own Y plane when the stream is YUV (no conversion). Returns 1,
 * 0 at the end, -1 on a corrupt stream.
 */
int cap_video_read(cap_video *v, base_view *gray, base_view *bgr, base_error *err);
/* Frames per second of the stream (0 when unknown). */
double cap_video_fps(const cap_video *v);
/* Frames the container declares (-1 when it does not say). */
long cap_video_frame_count(const cap_video *v);
void cap_video_free(cap_video *v);


#ifdef __cplusplus
}
#endif

#endif
