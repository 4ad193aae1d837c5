/*
 * watch_source: the watch's one door to its source. Every source a watch
 * takes (a camera, a recording, pictures, the table simulator, a row a
 * program registered) is opened here through capture's table of sources
 * (capture/cap_rows.h), and what the watch does with it is the row's
 * answer, never a test of the source's text: whether it brings its own
 * calibration and roster (the simulator's sim:, CAP_ROW_OWN_SETUP), whether
 * it sees what the watch projects (the closed loop: the session's projector
 * pictures go to it), whether it is live (watch_session_run keeps pace with
 * a camera and replays a recording as fast as it reads).
 *
 * How to use (cli/cmd_watch.c):
 *   if (watch_source_brings_setup(src)) ... no --calib, --roster: they come with the source
 *   watch_session_config cfg; watch_session_config_default(&cfg); ...
 *   cap_source *cap = watch_source_open(src, &ccfg, &cfg, &err);   // before watch_session_new(..., &cfg, ...)
 *   if (!cap) { fprintf(stderr, "tableref watch: %s\n", err.msg); return 2; }
 *   ... watch_session_run(s, cap, &stop); cap_source_close(cap);
 */
#ifndef WATCH_SOURCE_H
#define WATCH_SOURCE_H

#include <stdbool.h>

#include "base_error.h"
#include "cap_source.h"
#include "watch_session.h"

/* The source's row brings its own set-up (its calibration and roster come with it). False for NULL or a source
 * no row takes. */
bool watch_source_brings_setup(const char *source);

/*
 * Opens `source` with the camera options `ccfg` (NULL: the defaults). When the source sees what is projected (a
 * simulated table), cfg (a session's configuration not yet given to watch_session_new; may be NULL) gets the
 * projector hook that hands it the session's projector pictures: the loop is closed. NULL with err naming the
 * source (a camera's error says how to list the cameras).
 */
cap_source *watch_source_open(const char *source, const cap_source_config *ccfg, watch_session_config *cfg,
                              base_error *err);

#endif
