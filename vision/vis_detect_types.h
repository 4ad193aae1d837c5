/*
 * vis_detect_types: the detector's settings and state (vis_detect_config,
 * vis_detector), shared by vis_detect (which builds and runs it) and the
 * readers it calls (vis_recover, vis_recover_hidden): they read the
 * settings and the roster through it and call nothing of vis_detect, so
 * vis_detect stands above them.
 *
 * How to use: include vis_detect.h to build and run a detector; this
 * header alone to read one's settings (d->cfg, d->map, d->calib).
 * Where the time goes (a bench):
 *   d->times = (vis_detect_times){0};  vis_detector_run(d, ...);
 *   printf("first pass %.0f ms\n", d->times.first_pass_ms);
 */
#ifndef VIS_DETECT_TYPES_H
#define VIS_DETECT_TYPES_H

#include <stddef.h>

#include "calib_file.h"
#include "base_image.h"
#include "vis_plan.h"
#include "vis_relief.h"
#include "roster_map.h"
#include "vis_tag.h"

typedef struct vis_detect_config {
    /* Minimum board tags for refining the pose from the image; below that
     * the calibration's pose is used as is. 0 disables refinement. Default
     * 3 (fewer, coplanar and far apart, make a poorly conditioned PnP). */
    int refine_pose_min_tags;
    /* The calibration's pose is kept while it reprojects the board tags
     * within this RMS (px); a bumped camera exceeds it. Default 0.3. */
    double refine_pose_above_px;
    /* A tag this far outside the board (mm) is reported and ignored. Default 10. */
    double off_board_mm;
    /* A model tag whose measured edge differs from the roster by more than
     * this fraction is a misread or the wrong print: ignored. Default 0.15. */
    double size_tolerance;
    /* A tag whose four corners on the board miss the best-fitting square by
     * more than this (mm) is partly hidden or misfitted: its model is
     * inferred instead. Default 0.35 mm (a clean 36 px tag fits to ~0.05). */
    double max_square_residual_mm;
    /*
     * Recovery of units the tag detector found nothing of (every tag partly
     * hidden), from the image (vis_detector_run only). Dark square blobs
     * away from every placed model are fitted with the roster's tag outline
     * (size, board plane), their data bits read and decoded to the nearest
     * code of the whole family in any rotation; a decode counts only when it
     * is unique, within `recover_max_bit_error` of the visible bits, and its
     * ID belongs to a unit with nothing seen. A unit is placed whole (its
     * other models inferred) only when at least `recover_min_tags` (and a
     * third of its models) of those tags agree on one formation: facing
     * within 6 degrees, slots within 4 mm. Short of that, its formation
     * cannot be told: only its reads beyond doubt (one_read_* below) are
     * placed and the rest reported not seen (a unit of one model is whole
     * with one such read). Anything less (bits unreadable, no read beyond
     * doubt, disagreeing reads) leaves the unit out. 0 disables; default 1.
     */
    int recover_hidden_units;
    /*
     * When the picture is read only where it changed (vis_reread.h), the
     * hidden-unit search looks there (within a unit's reach) and where the
     * earlier reading placed the units it looks for (vis_recover_blobs.h):
     * 1, the default; 0 looks in the whole picture every time (the same
     * rule, to compare against).
     */
    int hidden_where_changed;
    /*
     * Reading tags the quad finder missed at the places their unit's
     * formation leaves free (vis_recover_read_slots): 0 disables; default 1.
     * A read names a model when at least read_min_cells data cells are
     * trusted, at most read_max_bit_error of them disagree with its code,
     * and every other roster code is read_margin cells worse. Defaults 12,
     * 0.1, 5.
     */
    /*
     * Where to search and at what level of detail (vis_plan): each part of
     * the frame at the coarsest decimation that keeps the smallest tag it
     * can hold plan_min_tag_px wide; parts the board does not reach are
     * skipped. 0: the whole frame at tags->cfg.decimate. Default 1, 13 px:
     * apriltag finds a tag's square down to 11 px, but decodes more of them
     * blind from 13 (the hard set's 12 MP tables: 25-35 px tags searched at
     * 1.5, not 2, read 108 of 213 clear tags blind against 92, and stock
     * apriltag at decimate 1 reads 105). plan_full_res_px (default 22): a
     * part whose smallest tag is predicted under that is searched at full
     * resolution whatever plan_min_tag_px allows (vis_plan.h): the hard
     * set's 4K webcam (a small blurry sensor) reads 144 of its 213 clear
     * tags blind so, against 98 with 1.5 and 2 where 13 px allowed them
     * (stock apriltag at decimate 1: 142); its 12 MP tables' plans, which
     * predict 22.8 px and more, are unchanged. plan_unblurred_px (default
     * 15.5): a part searched at decimate 2 (3, 4) whose smallest tag is
     * predicted under that after decimation is searched without the blur
     * (tags->cfg.sigma), which merges the cells of a tag under 31 px there
     * (vis_plan.c): the hard set's table 3 reads 116 of its 191 clear tags
     * blind so, against 109 (stock apriltag at decimate 1: 114).
     */
    int use_plan;
    double plan_min_tag_px;
    double plan_full_res_px;
    double plan_unblurred_px;
    int read_slots;
    int read_min_cells;
    double read_max_bit_error;
    int read_margin;
    int recover_min_tags;         /* default 3 */
    double recover_max_bit_error; /* share of the visible data bits, default 0.25 */
    /*
     * One read beyond doubt (vis_recover_one_read_enough): a tag read by
     * its pattern alone that names its model with no second read to agree
     * with it (the only model of its unit, or a unit too hidden for its
     * formation to be told). At least one_read_min_cells data cells trusted
     * (of 36), at most one_read_max_errors of them wrong, every other code
     * of the family in every rotation one_read_margin cells worse than that,
     * and at least one_read_min_outline of the outline's samples on the
     * right side (white border, black ring). Defaults 30, 2, 7, 0.85.
     * Why: tag36h11 codes differ in 11 cells or more, so a real tag read as
     * another code is off in at least 9 trusted cells against 2. Measured on
     * the hard set (1114 reads of blobs the quad finder left, every code in
     * every rotation, 208 of them wrong): no wrong read had a margin above
     * 2 or passed this bar; 763 of the 906 right reads pass it.
     */
    int one_read_min_cells;
    int one_read_max_errors;
    int one_read_margin;
    double one_read_min_outline;
    /*
     * The cross-check of every unit's height (vis_height.h): a unit whose
     * tags read, by their apparent size, as standing elsewhere in height
     * than the table's relief puts them (the median over its cleanly read
     * tags off by more than height_min_mm and height_sigmas standard errors
     * of that median) is warned of and its height left unsettled: no call
     * rests on where it stands. Defaults 12 mm, 4. 0 sigmas disables.
     */
    double height_min_mm;
    double height_sigmas;
} vis_detect_config;

/*
 * Where a detector's time went, summed over its runs since the caller last
 * zeroed it (d->times = (vis_detect_times){0}): wall clock and the
 * process's CPU time (every thread's), ms. Benches print it; nothing
 * decides on it. What a run spends outside these three (the board pose, a
 * decoded tag placed, the tags carried over) is the rest of its time.
 */
typedef struct vis_detect_times {
    double first_pass_ms, first_pass_cpu_ms;  /* the quad finder (vis_tag) on the plan's regions or the changed parts */
    double reads_ms, reads_cpu_ms;  /* the picture read where tags are predicted: poses polished, free places, hidden units */
    double fit_ms, fit_cpu_ms;      /* the units rebuilt from what was seen: formations fitted, the unseen inferred */
    size_t runs;                    /* first passes counted */
    size_t hidden_searched_px;      /* pixels the hidden-unit search looked at for candidates (vis_recover_blobs.h) */
} vis_detect_times;

/*
 * Where the picture changed since the reading the prior comes from (a tracker
 * that rereads only those parts, vis_reread.h): its parts, full-frame px,
 * with cores. Nothing can have appeared elsewhere.
 */
typedef struct vis_changed {
    const vis_tag_region *regions;  /* NULL: not known (the whole picture may have changed) */
    size_t n;
} vis_changed;

typedef struct vis_detector {
    vis_detect_config cfg;
    vis_tag_detector *tags;    /* its cfg may be tuned after vis_detector_new */
    roster_map *map;           /* a copy of the map it was built with; owned */
    calib_file calib;
    vis_relief relief;         /* the table's hills (vis_detector_set_relief); none: a flat table. Owned */
    double expected_tag_px;    /* smallest model tag's size in the image, px, at the view centre */
    vis_plan plan;             /* made by vis_detector_new for cfg.plan_min_tag_px (remade when that changes) */
    /* During one vis_detector_run_on_tags: the roster units whose tags are read from the picture
     * (one flag per unit); NULL (always, outside that call): every unit. */
    const unsigned char *focus;
    /* During that call too: where the picture changed since the prior's reading ({0}: not known). */
    vis_changed changed;
    vis_detect_times times;    /* summed over runs; zeroed by vis_detector_new and by whoever reads it */
} vis_detector;

/* Is roster unit `unit` read from the picture in this run? */
static inline int vis_detector_in_focus(const vis_detector *d, size_t unit) { return !d->focus || d->focus[unit]; }

#endif
