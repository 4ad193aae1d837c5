/*
 * ov_draw: the referee's verdict drawn from board coordinates onto a camera
 * frame, a projector frame, or a top-down report (PNG, SVG, PDF).
 *
 * Everything is drawn in board millimetres and pushed through one mapping
 * (ov_map) point by point; lines and arcs are subdivided first, so a lens's
 * distortion bends them the way it bends the table. Text is sized in board
 * millimetres (options.text_mm, 9 mm by default: legible from a metre away
 * on a projected table) and never smaller than the target's minimum.
 *
 * How to use (one picture):
 *   ov_target *t = ov_target_new_camera(&calib, w, h, frame_bgr, OV_PIX_BGR24, w * 3, &err);
 *   ov_options o; ov_options_default(&o); o.uncert = &u;   // optional: +/- and "too close to call"
 *   ov_draw_verdict(t, before, after, &report, &o, &err);
 *   ov_target_write_png(t, "camera.png", &err);
 *   ov_target_free(t);
 * Report files: ov_target_new_report(..., OV_FORMAT_PDF, "report.pdf", ...),
 * draw, then ov_target_finish() (writes the file; free also finishes).
 *
 * How to use (video, once per frame; create the target once):
 *   ov_target_set_background(t, frame, OV_PIX_BGR24, stride, &err);
 *   ov_draw_verdict(t, ...);                     // or ov_draw_snapshot for "no verdict yet"
 *   ov_target_copy_pixels(t, out, OV_PIX_BGR24, stride);   // burn into the frame
 *
 * Pixel convention of every pixel coordinate here: OpenCV's (the centre of
 * the top-left pixel is (0, 0)), the same as vision/ and calib/.
 * Every function returning int returns 0, or -1 with `err` set. Objects are
 * the caller's; *_free accepts NULL. The snapshots and report are borrowed
 * for the duration of the call only.
 */
#ifndef OV_DRAW_H
#define OV_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calib_file.h"
#include "ov_map.h"
#include "ov_uncert.h"
#include "rules_error.h"
#include "rules_report.h"
#include "rules_snapshot.h"

typedef enum ov_format {
    OV_FORMAT_PNG = 0, /* raster, written by ov_target_write_png or ov_target_finish */
    OV_FORMAT_SVG,
    OV_FORMAT_PDF,
} ov_format;

/* Layout of caller pixel buffers (8 bits per channel, rows `stride` bytes apart). */
typedef enum ov_pixfmt {
    OV_PIX_GRAY8 = 0,
    OV_PIX_RGB24,
    OV_PIX_BGR24,  /* OpenCV's order: what cv::VideoWriter takes */
    OV_PIX_RGBA32, /* straight (not premultiplied) alpha */
} ov_pixfmt;

typedef struct ov_target ov_target;

/*
 * Camera frame: board -> image through the calibration (pose, intrinsics,
 * lens distortion). `background` (may be NULL: black) is copied.
 */
ov_target *ov_target_new_camera(const calib_file *calib, int width, int height, const uint8_t *background,
                                ov_pixfmt fmt, size_t stride, rules_error *err);
/*
 * Projector frame: board mm -> projector px by the homography H (row-major,
 * as calib_projector.H). Black background: a projector adds light, black is
 * "nothing".
 */
ov_target *ov_target_new_projector(const double H[9], int width, int height, rules_error *err);
/*
 * Top-down report of the board region [x0, x0 + w] x [y0, y0 + d] (mm) at
 * px_per_mm, board y up on the page, with a text panel below the board.
 * PNG keeps the picture in memory until written; SVG and PDF write to `path`
 * (needed for those, ignored for PNG) when finished.
 */
ov_target *ov_target_new_report_view(double x0, double y0, double w, double d, double px_per_mm,
                                     ov_format format, const char *path, rules_error *err);
/* The whole board. */
ov_target *ov_target_new_report(double board_w, double board_d, double px_per_mm, ov_format format,
                                const char *path, rules_error *err);
/* Finishes an SVG/PDF file (or writes a PNG report to its path). Idempotent. */
int ov_target_finish(ov_target *t, rules_error *err);
/* Finishes (errors ignored: call ov_target_finish first to see them) and frees. */
void ov_target_free(ov_target *t);

/* The target's mapping (board mm -> target px), valid while the target lives. */
const ov_map *ov_target_map(const ov_target *t);
/* Pixel size of raster targets (report: the whole page, panel included). */
void ov_target_size(const ov_target *t, int *width, int *height);

/* Replaces the picture under the drawing (camera and projector targets); size must match. */
int ov_target_set_background(ov_target *t, const uint8_t *pixels, ov_pixfmt fmt, size_t stride,
                             rules_error *err);
/* Writes a raster target (camera, projector, PNG report) as PNG. */
int ov_target_write_png(ov_target *t, const char *path, rules_error *err);
/* Copies a raster target's pixels out (width x height) in `fmt`. */
int ov_target_copy_pixels(ov_target *t, uint8_t *dst, ov_pixfmt fmt, size_t stride, rules_error *err);

/* What to draw; ov_options_default gives every layer on. */
typedef struct ov_options {
    double text_mm;        /* label height on the table, mm (default 9) */
    double line_mm;        /* main line width on the table, mm (default 1.2) */
    double min_text_px;    /* never smaller than this on the target (0: the target's own minimum) */
    const char *unit_id;   /* only this unit's verdict (NULL: every unit in the report) */
    const ov_uncert *uncert;  /* per-model uncertainty (NULL: none shown, nothing flagged) */
    const char *title;     /* report panel title (NULL: "tableref referee") */
    bool bases;            /* bases before (dashed) and after (filled) */
    bool arrows;           /* per-model arrow and distance */
    bool outlines;         /* unit boundaries, facing, centre, front centre */
    bool arcs;             /* the four Arcs (lines at 135 degrees from the boundary corners) */
    bool path;             /* the shortest legal path, wheels as arcs */
    bool limits;           /* rate circles around the start of the models that matter */
    bool gaps;             /* smallest gap to another unit when under Unit Spacing */
    bool legend;           /* sentences, convention, uncertainty model (panel or on-table box) */
    bool others;           /* units not in the report, drawn faintly for context */
} ov_options;

void ov_options_default(ov_options *o);

/*
 * Draws the verdict on `report` (from rules_move_check on before/after).
 * The snapshots give bases and other units; the report gives distances,
 * paths, violations. Draws over what the target already holds.
 */
int ov_draw_verdict(ov_target *t, const rules_snapshot *before, const rules_snapshot *after,
                    const rules_report *report, const ov_options *opt, rules_error *err);

/* Just the bases of one snapshot with unit outlines (tracking frames with no verdict). */
int ov_draw_snapshot(ov_target *t, const rules_snapshot *s, const ov_options *opt, rules_error *err);

/*
 * A filled disc of `radius_mm` on the board at `centre`, mapped point by
 * point (so it lands where the table point is seen). For a caller's own
 * marks, and the overlay's landing-pixel tests. rgb 0..1.
 */
int ov_draw_disc(ov_target *t, rules_vec2 centre, double radius_mm, const double rgb[3], rules_error *err);

/* The colours (Okabe-Ito, colour-blind safe), RGB 0..1, for callers drawing their own marks. */
extern const double ov_colour_illegal[3];  /* vermillion #D55E00 */
extern const double ov_colour_legal[3];    /* bluish green #009E73 */
extern const double ov_colour_unsure[3];   /* orange #E69F00: too close to call */
extern const double ov_colour_path[3];     /* blue #0072B2 */
extern const double ov_colour_limit[3];    /* sky blue #56B4E9 */

#endif
