/*
 * ref_proj_parts: the projector's alignment (ref_projcheck.h) from the
 * parts of a reading, in vision's own types: the camera with the board pose
 * the detection used, and the marks measured through it. ref_snapshot.c
 * takes them from a reading (ref_snapshot_proj_check). The watch never
 * includes this header.
 *
 * How to use:
 *   vis_camera cam; ref_proj_camera(det, tags, n_tags, &cam);   // the pose the detection used
 *   ref_proj_run(&cam, &calib.projector, &marks, &loop, latency, 1, "C.json", &result, &err);
 */
#ifndef REF_PROJ_PARTS_H
#define REF_PROJ_PARTS_H

#include <stddef.h>

#include "base_error.h"
#include "base_image.h"
#include "calib_file.h"
#include "calib_projector_loop.h"
#include "ref_projcheck.h"
#include "vis_camera.h"
#include "vis_detect.h"
#include "vis_tag.h"

/* The camera with the board pose the detection uses for these tags (re-solved from the board tags when the
 * calibration's pose no longer fits them, as vis_detect does). */
void ref_proj_camera(const vis_detector *det, const vis_tag_detection *tags, size_t n_tags, vis_camera *out);
/* The figures from a frame lit by the projector's black and one lit by the marks (gray, camera-sized). */
int ref_proj_measure(const vis_camera *cam, const calib_projector *p, const ref_proj_marks *m, const base_image *dark,
                     const base_image *lit, const char *calib_name, ref_proj_result *out, base_error *err);
/* Shows black, reads the dark frame; shows the marks, reads the lit frame; leaves the projector black; measures.
 * At most 300 frames per wait. 0, or -1 with err (the loop failed: nothing measured). */
int ref_proj_run(const vis_camera *cam, const calib_projector *p, const ref_proj_marks *m, const calib_loop *loop,
                 double latency_ms, int extra_frames, const char *calib_name, ref_proj_result *out, base_error *err);

#endif
