/*
 * vis_detect: one camera frame in, one snapshot out.
 *
 * Pipeline: tags (apriltag, tuned from the known tag size) -> board pose
 * refined from the board's reference tags -> each tag's corners undistorted
 * and cast onto the plane at the tag's own height (its mount's over the
 * surface its base stands on: vis_relief.h) -> base centre and facing
 * from the roster's mount -> units rebuilt, unseen models inferred
 * (vis_units) -> every unit's height cross-checked with its tags'
 * apparent size (vis_height.h). Unknown IDs, duplicates and tags off the board are reported,
 * never used. With the image at hand (vis_detector_run*), a unit of which no
 * tag was decoded is looked for by its tags' printed patterns (see
 * recover_hidden_units below) before it is given up.
 *
 * How to use:
 *   roster_map *map = roster_map_new(roster, &err);               // roster/roster.h: all vision takes of a roster
 *   vis_detector *d = vis_detector_new(map, &calib, &err);       // both copied: free the map when you like
 *   vis_detector_set_relief(d, table->terrain, table->n_terrain, &err);   // optional: a table with hills
 *   rules_snapshot *snap = NULL; vis_report rep = {0};
 *   vis_detector_run(d, gray, w, h, stride, prior_or_NULL, &snap, &rep, &err);
 *   ... rules_json_save_snapshot(snap, ...); rules_snapshot_free(snap); vis_report_clear(&rep);
 *   vis_detector_free(d);
 * Per frame: create once, run per frame (a tracker passes the previous
 * snapshot as `prior`), free at the end. Where a run's time went:
 * d->times (vis_detect_types.h).
 */
#ifndef VIS_DETECT_H
#define VIS_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "calib_file.h"
#include "base_error.h"
#include "base_image.h"
#include "rules_snapshot.h"
#include "vis_detect_types.h"
#include "vis_report.h"

/* Tag detection tuned from the roster's smallest tag and the camera: decimation
 * keeps >= 16 px per tag, vis_detector_threads() threads, a light blur
 * against sensor noise. The map (roster_map.h) and the calibration are
 * copied. */
vis_detector *vis_detector_new(const roster_map *r, const calib_file *c, base_error *err);
void vis_detector_free(vis_detector *d);
/* The table's relief (its terrain; only the hills count, copied): every tag is placed at the height it
 * stands at (vis_relief.h) and every unit's height cross-checked (vis_height.h). 0, or -1 when out of memory. */
int vis_detector_set_relief(vis_detector *d, const rules_terrain *t, size_t n, base_error *err);

/*
 * The worker threads of every detector made from now on: its tag search
 * and its pattern readers (vis_parallel). Default 2 (the Raspberry Pi
 * class has 4 cores and the camera needs one). Set once at start-up,
 * before any thread, as media_image_set_max_pixels: a bench's `--cores N`
 * sets N, so the referee and the watch it runs use N too. Values < 1
 * restore the default. A detector's own d->tags->cfg.threads may still be
 * tuned after vis_detector_new.
 */
void vis_detector_set_threads(int threads);
int vis_detector_threads(void);

/* Detects, locates and rebuilds. *out is the caller's. Returns 0 or -1. */
int vis_detector_run(vis_detector *d, const uint8_t *gray, int width, int height, size_t stride,
                     const rules_snapshot *prior, rules_snapshot **out, vis_report *rep, base_error *err);

/* The same, and the tag detections it used (cleared first; the caller's). */
int vis_detector_run_tags(vis_detector *d, const uint8_t *gray, int width, int height, size_t stride,
                          const rules_snapshot *prior, rules_snapshot **out, vis_report *rep, vis_tag_list *tags,
                          base_error *err);

/*
 * The tags in parts of the frame only (a tracker's changed regions; full-frame
 * px, each with its core), found as vis_detector_run_tags finds them on the
 * whole frame: each region is cut along the plan's regions and each piece
 * searched at that plan region's decimation, from a corner on the plan
 * region's own pixel grid (a multiple of the decimation's threshold tiles
 * away), so a tag inside a piece is read as the whole frame reads it. A tag
 * is kept when its centre lies in the region's core and in the plan region's.
 * Without a plan (cfg.use_plan 0) the regions are searched at the detector's
 * decimation. *out is cleared first. Returns 0 or -1.
 */
int vis_detector_detect_in(vis_detector *d, const base_view *im, const vis_tag_region *regions, size_t n,
                           vis_tag_list *out, base_error *err);

/* The same from detections already made (tests, or another detector): no reading from the picture. */
int vis_detector_from_tags(vis_detector *d, const vis_tag_detection *tags, size_t n, const rules_snapshot *prior,
                           rules_snapshot **out, vis_report *rep, base_error *err);
/*
 * From detections already made (e.g. only in the parts of the picture that
 * changed), with the picture at hand for what the detections missed (tags
 * read at their formation's free places, hidden units). `im` may be NULL.
 */
int vis_detector_run_on_tags(vis_detector *d, const base_view *im, const vis_tag_detection *tags, size_t n,
                             const rules_snapshot *prior, rules_snapshot **out, vis_report *rep, base_error *err);
/*
 * The same, reading from the picture only for the units flagged in `focus`
 * (one flag per roster unit; NULL: all): a tracker that knows which part
 * of the table changed pays only for that part. `changed` (NULL: not known)
 * says where the picture changed since the reading `prior` comes from: a
 * unit of which nothing is seen now is looked for there (and within its
 * reach) and where `prior` placed it only (vis_recover_blobs.h).
 */
int vis_detector_run_focused(vis_detector *d, const base_view *im, const vis_tag_detection *tags, size_t n,
                             const rules_snapshot *prior, const unsigned char *focus, const vis_changed *changed,
                             rules_snapshot **out, vis_report *rep, base_error *err);

#endif
