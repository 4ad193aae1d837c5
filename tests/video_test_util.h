/*
 * video_test_util: what the suites that check recordings share (test_record.c,
 * test_watch_record.c): counting the frames a video really holds.
 *
 * How to use:
 *   char errors[512];
 *   cr_expect_eq(vid_probe_frames("game.mp4", errors, sizeof errors), 45, "%s", errors);
 */
#ifndef VIDEO_TEST_UTIL_H
#define VIDEO_TEST_UTIL_H

#include <stddef.h>

/* Frames ffprobe decodes in `path` (every frame, not the header's claim); -1 when it fails. errors: the start of
 * its stderr. The test fails when ffprobe cannot be started or the path makes too long a command. */
long vid_probe_frames(const char *path, char *errors, size_t cap);

#endif
