/*
 * ov_target: what the overlay draws on. A camera frame (through the
 * calibration, lens distortion included), a projector frame (a board ->
 * projector homography: what the players see on the table), or a report
 * (top-down pages of A4 or Letter, as PNG, SVG or PDF).
 *
 * How to use:
 *   ov_target *t = ov_target_new_camera(&calib, w, h, frame_bgr, OV_PIX_BGR24, w * 3, &err);
 *   ... ov_draw_verdict(t, ...) (ov_draw.h) ...
 *   ov_target_write_png(t, "camera.png", &err);
 *   ov_target_free(t);
 * Reports: ov_target_new_report_view(x0, y0, w, d, OV_PAPER_A4, OV_FORMAT_PDF, "report.pdf", &err),
 * draw, ov_target_finish() (writes the file; free also finishes).
 * Video, once per frame on one target: ov_target_set_background(t, frame, ...), draw,
 * ov_target_copy_pixels(t, out, ...). A new background also forgets where the last frame's
 * labels were.
 *
 * The formats, pixel layouts and papers are ov_options.h's (included).
 *
 * Pixel convention: OpenCV's (the centre of the top-left pixel is (0, 0)),
 * as in vision/ and calib/. Every function returning int returns 0, or -1
 * with `err` set. *_free accepts NULL.
 */
#ifndef OV_TARGET_H
#define OV_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base_error.h"
#include "base_geom.h"
#include "calib_file.h"
#include "ov_map.h"
#include "ov_options.h"

/* "a4" or "letter" (any case); -1 otherwise. */
int ov_paper_from_word(const char *word, ov_paper *out);

typedef struct ov_layout ov_layout;

/* Camera frame; `background` (may be NULL: black) is copied. A frame of another size than the
 * calibrated one scales the intrinsics (same lens, resampled). */
ov_target *ov_target_new_camera(const calib_file *calib, int width, int height, const uint8_t *background,
                                ov_pixfmt fmt, size_t stride, base_error *err);
/* Projector frame: board mm -> projector px by H (row-major, as calib_projector.H). Black is "no light". */
ov_target *ov_target_new_projector(const double H[9], int width, int height, base_error *err);
/*
 * A report of the board window [x0, x0 + w] x [y0, y0 + d] (mm) on pages of
 * `paper`: a title, the window scaled to fit the page's width (board y up),
 * then the legend and the text, on more pages when they need them (PDF;
 * PNG and SVG stack the pages). PNG is 150 dpi; SVG and PDF are in points.
 * SVG and PDF (and PNG, when given) are written to `path` when finished.
 */
ov_target *ov_target_new_report_view(double x0, double y0, double w, double d, ov_paper paper, ov_format format,
                                     const char *path, base_error *err);
/* A report's PNG pictures: 150 dpi unless asked (ov_target_new_report_png), from 36 to 600 dpi. */
enum { OV_REPORT_DPI = 150, OV_REPORT_DPI_MIN = 36, OV_REPORT_DPI_MAX = 600 };
/* A PNG report drawn directly at `dpi` pixels per inch (96: an A4 page 794 x 1123 px, as a full-HD screen shows
 * it). NULL (err set) outside OV_REPORT_DPI_MIN..MAX. The referee replays its PDF's pages instead
 * (ov_target_write_report_png); this one is kept as the reference that replay is checked against
 * (tests/test_overlay_report). */
ov_target *ov_target_new_report_png(double x0, double y0, double w, double d, ov_paper paper, double dpi,
                                    const char *path, base_error *err);
/* The whole board. */
ov_target *ov_target_new_report(double board_w, double board_d, ov_paper paper, ov_format format, const char *path,
                                base_error *err);
/* Finishes an SVG/PDF file (or writes a PNG report to its path). Idempotent. */
int ov_target_finish(ov_target *t, base_error *err);
/* Finishes (errors ignored: call ov_target_finish first to see them) and frees. */
void ov_target_free(ov_target *t);

/*
 * The table's relief (its terrain, copied: the hills count): everything is then drawn at the height of the
 * surface it falls on (ov_map.h). Drawing a scene sets it from the scene's table when that has relief
 * (ov_scene_draw, and so ov_draw_verdict and ov_draw_snapshot). NULL, 0: flat. 0, or -1 when out of memory.
 */
int ov_target_set_relief(ov_target *t, const rules_terrain *terrain, size_t n, base_error *err);
/* A projector target's light source: the projector's optical centre (board mm; calib_projector.position_mm),
 * which a point on a hill is lit along. Without it a projector target draws on the board plane. */
void ov_target_set_light_source(ov_target *t, const double source[3]);

/* The target's mapping (board mm -> device units), valid while the target lives. */
const ov_map *ov_target_map(const ov_target *t);
/* Size of the raster: camera and projector frames; reports: every page stacked, at 150 dpi for PNG,
 * in points for SVG and PDF. */
void ov_target_size(const ov_target *t, int *width, int *height);
/* Pages of a report (1 for other targets). */
int ov_target_pages(const ov_target *t);
/* What is on the picture so far: bases, base centres, numbers and placed labels in device units
 * (the layout's geometry, for tests). */
const ov_layout *ov_target_layout(const ov_target *t);

/* Replaces the picture under the drawing (camera and projector targets); size must match. */
int ov_target_set_background(ov_target *t, const uint8_t *pixels, ov_pixfmt fmt, size_t stride,
                             base_error *err);
/* A projector's keep-out (ov_keepout.h), copied: applied last every time pixels leave the target (PNG,
 * copy), whatever was drawn. NULL removes it. Projector targets only. */
struct ov_keepout;
int ov_target_set_keepout(ov_target *t, const struct ov_keepout *k, base_error *err);
/* The keep-out of these printed labels (referee/ref_labels.h), with the margins of projector calibration
 * `proj` (ov_keepout_params_from_calib: NULL or not present, the defaults), set on projector target t:
 * the projector never lights a label. */
int ov_target_keep_labels_dark(ov_target *t, const calib_projector *proj, const base_label *labels, size_t n,
                               base_error *err);
/* Writes a raster target (camera, projector, any report) as PNG. */
int ov_target_write_png(ov_target *t, const char *path, base_error *err);
/*
 * A PDF report's pages as a PNG at `dpi` (OV_REPORT_DPI_MIN..MAX): the pages drawn once in points, replayed at
 * dpi / 72 pixels a point (the text as the PDF's glyphs, unhinted as every report's), instead of drawing the scene
 * again on a PNG report target. Before or after ov_target_finish. (An SVG target's pages hold no text.)
 */
int ov_target_write_report_png(ov_target *t, double dpi, const char *path, base_error *err);
/* Copies a raster target's pixels out (ov_target_size) in `fmt`. */
int ov_target_copy_pixels(ov_target *t, uint8_t *dst, ov_pixfmt fmt, size_t stride, base_error *err);

#endif
