/*
 * ds_loop: the closed-loop table simulator. Renders each frame of a game
 * turn (ds_sequence.h: the table, the hands, the moves) lit by what the
 * watch is projecting at that moment, after the projector's latency: the
 * referee's own light comes back in its camera, so the feedback loop itself
 * runs, not a sequence fixed in advance.
 *
 * The watch reaches it through two plain interfaces, so watch/ never
 * includes datasets/: a callback frame source (capture's
 * cap_source_open_callbacks; ds_loop_read) and the watch's projector sink
 * (watch_session_config.project; ds_loop_project). `tableref watch --source
 * sim:SEQ.json` takes it as a row of capture's table of sources instead
 * (ds_loop_source.h), which wraps both.
 *
 * The projector: the calibration's "projector" section when it has one,
 * otherwise a simulated one (ds_projector_default: 1280x800 beside the
 * camera; ds_loop_calib adds it to the camera's calibration so the watch
 * draws for the same projector). Its light is DS_LIGHT_RATIO_DEFAULT
 * (2.5x) the room's and it shows a picture DS_LOOP_LATENCY_MS after it was
 * drawn, unless the calibration measured them (ds_loop_params_from_calib).
 *
 * How to use:
 *   ds_sequence *q = ds_sequence_load("datasets/sequences/turn/sequence.json", &err);
 *   calib_file cam; double P[3];
 *   ds_loop_calib(q, &cam, P, &err);                      // the scene's camera + its projector
 *   ds_loop_params lp; ds_loop_params_default(&lp); ds_loop_params_from_calib(&cam, &lp);
 *   ds_loop *L = ds_loop_new(q, &cam, P, &lp, &err);
 *   cap_source *cap = cap_source_open_callbacks(&(cap_source_callbacks){ds_loop_read, L, q->fps,
 *                                               ds_sequence_frame_count(q), "simulated table"}, &err);
 *   cfg.project = ds_loop_project; cfg.project_ctx = L;   // watch_session_config
 *   watch_session *s = watch_session_new(q->scene->roster, &cam, &cfg, &err); watch_session_run(s, cap, NULL);
 *   ds_loop_free(L);
 * Deterministic: the same sequence, parameters and watch give the same frames.
 */
#ifndef DS_LOOP_H
#define DS_LOOP_H

#include "base_error.h"
#include "base_image.h"
#include "calib_file.h"
#include "ds_sequence.h"

/* From a new projector picture to the camera seeing it when nothing measured it: a projector's frame
 * buffering (2-3 frames at 60 Hz) and the camera's exposure and read-out. */
#define DS_LOOP_LATENCY_MS 100.0

typedef struct ds_loop_params {
    double ratio;        /* projected white against the room's light; 0: the projector is off */
    double black;        /* the projector's black, a share of its white (DS_LIGHT_BLACK) */
    double latency_ms;   /* a picture drawn at t lights the frames from t + latency_ms */
    int supersample;     /* > 0: overrides the scene's (1 is fastest) */
    const char *save_dir; /* non-NULL: every frame is also written there as NNNNNN.jpg (the folder must exist) */
} ds_loop_params;

void ds_loop_params_default(ds_loop_params *p);
/* The projector's measured latency and brightness from the calibration's projector section when it holds
 * them (`calibrate projector --camera`); p unchanged otherwise. */
void ds_loop_params_from_calib(const calib_file *cam, ds_loop_params *p);

/* The sequence's camera with a projector section (the simulated projector unless it has one) and the
 * projector's lens, board mm. 0 or -1. */
int ds_loop_calib(const ds_sequence *q, calib_file *cam, double projector_centre[3], base_error *err);

typedef struct ds_loop ds_loop;

/* q and cam are borrowed (they must outlive the loop); cam must have a projector section. */
ds_loop *ds_loop_new(const ds_sequence *q, const calib_file *cam, const double projector_centre[3],
                     const ds_loop_params *p, base_error *err);
void ds_loop_free(ds_loop *L);
/* cap_source_callbacks.read: frame `index` of the sequence, lit by the picture due then. */
int ds_loop_read(void *loop, long index, const base_image **image, base_error *err);
/* watch_session_config.project: the watch's projector picture for the frame at t_ms (copied). */
void ds_loop_project(void *loop, const base_image *picture, double t_ms);
/* Frames rendered so far with some projected light (a picture not all black), for tests and benches. */
long ds_loop_frames_lit(const ds_loop *L);
/* 1 when frame `index` was rendered with some projected light. */
int ds_loop_was_lit(const ds_loop *L, long index);

#endif
