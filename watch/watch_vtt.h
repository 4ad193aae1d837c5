/*
 * watch_vtt: WebVTT subtitles for the recorded video, one cue per moment
 * worth reading (the table settled, a call, a judge's decision, a lost
 * camera).
 *
 * A cue lasts until the next one starts, or until the video ends: so cues
 * never overlap and never run past the end. That means a cue is written
 * when the next one starts (or at close, with the video's last frame time),
 * and each write is flushed and fsync'ed. A kill loses at most the cue on
 * screen; the event log has every call.
 *
 * How to use:
 *   watch_vtt *v = watch_vtt_open("game.vtt", false, &err);
 *   watch_vtt_cue(v, t_ms, "Move 1: spears: march, legal.", &err);
 *   ...
 *   watch_vtt_close(v, last_frame_t_ms, &err);   // writes the last cue, frees
 */
#ifndef WATCH_VTT_H
#define WATCH_VTT_H

#include <stdbool.h>

#include "base_error.h"

typedef struct watch_vtt watch_vtt;

/*
 * Creates the file. An existing file is an error unless `replace`: subtitles
 * belong to one recording, and an old game's must not be lost. NULL path:
 * a watch_vtt that writes nothing.
 */
watch_vtt *watch_vtt_open(const char *path, bool replace, base_error *err);
/* Starts a cue at t_ms (video time), ending the previous one there. Text may hold newlines. */
int watch_vtt_cue(watch_vtt *v, double t_ms, const char *text, base_error *err);
/* Ends the open cue at end_ms, closes and frees; NULL is fine. Returns 0 or -1. */
int watch_vtt_close(watch_vtt *v, double end_ms, base_error *err);

#endif
