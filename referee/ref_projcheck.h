/*
 * ref_projcheck: is the projector still where its calibration says? The
 * pre-round check (`tableref table-check`, and `watch` at its start) throws
 * marks -- white discs at known board points, on bare board away from every
 * base and board tag -- finds them in the camera's picture, casts each
 * centre onto the board through the camera's calibration and gives how far
 * from where the calibration's projector mapping put it the light landed:
 * the median and the worst, in mm, against a limit (docs/setup-checks.md).
 *
 * The marks are found as the difference between a frame lit by them and a
 * frame lit by the projector's black (the board, the bases and the room's
 * light cancel out); each is looked for within REF_PROJ_SEARCH_MM of where it
 * should be. The projector and the camera are the caller's, through the
 * projector-camera loop calibrate projector --camera measures its latency with
 * (calib_projector_loop.h: show, grab, now): a live projector window and
 * camera, the table simulator, or a still picture lit by a simulated
 * projector. Each picture is shown, then frames are read until one was taken
 * at least the projector's latency after the show, and `extra_frames` more
 * (a live camera's frame time may be its exposure's start: 1; a recording or
 * a simulator whose frames are lit by what was due at their time: 0).
 *
 * How to use:
 *   ref_proj_marks m;
 *   ref_proj_marks_place(roster, snap, &calib, &m, &err);     // snap: the table as detected
 *   ref_proj_result r;                                         // ref_snapshot.h: thrown and read back
 *   ref_snapshot_proj_check(setup, shot, &calib, &m, &loop, ref_proj_latency_ms(&calib.projector), 1, "C.json", &r, &err);
 *   if (!r.ok) puts(r.msg);                                    // names the calibration and the figure
 *   cJSON *j = ref_proj_result_to_json(&r);
 *   ref_proj_marks_clear(&m);
 */
#ifndef REF_PROJCHECK_H
#define REF_PROJCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "base_error.h"
#include "base_geom.h"
#include "base_image.h"
#include "calib_file.h"
#include "calib_projector_loop.h"
#include "roster.h"
#include "rules_snapshot.h"

#define REF_PROJ_MARK_RADIUS_MM 4.0   /* a mark: a disc 8 mm across on the board */
#define REF_PROJ_CLEAR_MM 15.0        /* a mark's edge stays this far from any base or board tag */
#define REF_PROJ_SEARCH_MM 20.0       /* a mark further than this from its place is not found */
#define REF_PROJ_MAX_MARKS 40
#define REF_PROJ_MIN_STEP 8.0         /* grey levels a mark must raise the board by to be seen */
#define REF_PROJ_MIN_FOUND 0.5        /* share of the marks that must be found */
#define REF_PROJ_DEFAULT_LIMIT_MM 2.0 /* the limit for a calibration stating no residual */
#define REF_PROJ_MIN_LIMIT_MM 1.0     /* never below this: the camera's own error on the board */
#define REF_PROJ_DEFAULT_LATENCY_MS 250.0 /* the wait after a show when the calibration measured none */

typedef struct ref_proj_marks {
    base_vec2 *at;        /* board mm */
    size_t n;
    double radius_mm;
} ref_proj_marks;

/* Up to REF_PROJ_MAX_MARKS marks spread over the board, each clear of every model's base and board tag, inside
 * the projector's picture and the camera's. 0 (possibly with no mark: say so), or -1 when out of memory. */
int ref_proj_marks_place(const roster_file *r, const rules_snapshot *snap, const calib_file *c, ref_proj_marks *out,
                         base_error *err);
void ref_proj_marks_clear(ref_proj_marks *m);
/* The projector picture (projector-sized, gray): black with the marks white, through the projector mapping. */
base_image *ref_proj_marks_draw(const calib_projector *p, const ref_proj_marks *m, base_error *err);

/* The residual allowed: the projector calibration's own error (max_mm, else 3 x rms_mm, else
 * REF_PROJ_DEFAULT_LIMIT_MM), the keep-out margin the projector picture is drawn with (overlay/ov_keepout.h),
 * and never below REF_PROJ_MIN_LIMIT_MM. */
double ref_proj_limit_mm(const calib_projector *p);
/* The wait after a show: the calibration's measured latency, else REF_PROJ_DEFAULT_LATENCY_MS. */
double ref_proj_latency_ms(const calib_projector *p);

typedef struct ref_proj_result {
    bool measured;        /* marks were thrown and looked for */
    bool ok;              /* measured and within the limit, or not measured */
    size_t marks, found;
    double median_mm, worst_mm, limit_mm;
    base_vec2 worst_at;   /* board mm of the worst mark */
    base_vec2 shift;      /* median shift, board mm: where the light landed minus where it should */
    double ms;            /* the time the check took (shows and waits included) */
    double measure_ms;    /* of which finding the marks in the two frames and measuring them */
    char msg[600];        /* the figure as a sentence; a failure names the calibration and what to do */
} ref_proj_result;

/* {"measured", "ok", "marks", "found", "median_mm", "worst_mm", "worst_at_mm", "shift_mm", "limit_mm", "ms",
 * "measure_ms", "message"}. */
cJSON *ref_proj_result_to_json(const ref_proj_result *r);

#endif
