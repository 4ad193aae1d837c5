/*
 * ds_hard: the hard scene set: tables as crowded and as badly lit as real
 * ones, made from seeds when a test or the benchmark needs them (never
 * stored as pictures). Every table has:
 *   - about 250 models in two armies of mixed units: infantry 25x40 mm with
 *     16 mm tags, heavy infantry 30x45 (20 mm), cavalry 25x60 (18 mm),
 *     monstrous infantry 40x50 (24 mm), monsters 50x75 (32 mm); tags 3-5 mm
 *     above the board (base thickness);
 *   - incomplete rear ranks as players place them: centred (most), left- or
 *     right-aligned, or with gaps; the roster lists models front rank first,
 *     left to right, and knows nothing of that alignment (as an army list);
 *   - a 25-35 mm figure on each base (riders and ogres taller), leaning,
 *     with spears, shields, halberds and banners, drawn in the real style
 *     (ds_render.h) with its Bayer sensor, shot and read noise, gamma, JPEG;
 *   - 2-6 hands with their arms from the players' edges;
 *   - a camera 1.2-1.6 m up, tilted 7-15 degrees, lens k1 -0.1..-0.3, its
 *     focal length chosen so the board fills the frame: the 4056x3040 of a
 *     12 MP Raspberry Pi HQ camera, or the 3840x2160 (16:9) of a 4K USB
 *     webcam (~0.6 mm/px, 16 mm tags ~24-27 px), each with its own sensor,
 *     processing and JPEG (ds_hard_camera below).
 * The exact calibration and the roster are part of the table. With hills
 * (ds_hard_params.hills, the "hills:K" tables): hills laid out first
 * (ds_hill.h), a unit placed wholly on each top where one fits, every
 * other unit clear of the hills' feet and of the board a hill hides.
 *
 * How to use:
 *   ds_hard_params hp; ds_hard_preset(1, &hp);          // the bench's table 1 (of ds_hard_preset_count())
 *   ds_hard_table *t = ds_hard_generate(&hp, &err);
 *   ds_render(t->scene->snapshot, t->scene->roster, &t->scene->calib, &t->scene->render, &img, &truth, &err);
 *   ds_hard_free(t);
 * Tests that cannot afford 12 MP render a crop of the same camera
 * (ds_hard_crop): the same lens, tilt and tag sizes in pixels, fewer pixels.
 */
#ifndef DS_HARD_H
#define DS_HARD_H

#include <stdint.h>

#include "calib_file.h"
#include "ds_scene.h"
#include "base_error.h"
#include "rules_snapshot.h"

/*
 * The camera a table is seen through: its sensor, image processor and JPEG,
 * set into the render parameters by ds_hard_camera_apply (the frame size
 * is the table's own, ds_hard_params.width x height).
 *   DS_HARD_CAMERA_HQ12: the Raspberry Pi HQ camera (IMX477, 1.55 um), a
 *     good lens, fixed exposure, JPEG 92 (cvs_sensor_default).
 *   DS_HARD_CAMERA_WEBCAM4K: a cheap 4K USB webcam: a small sensor in a dim
 *     room (a third of the HQ camera's photo-electrons, twice its read
 *     noise, 10-bit), a soft plastic lens with strong vignetting, heavy
 *     sharpening, auto exposure metering every frame (gain, not time: at 30
 *     fps indoors the exposure time is already at its longest, so the gain
 *     amplifies the noise), and MJPEG at quality 75 as such webcams send.
 */
typedef enum ds_hard_camera { DS_HARD_CAMERA_HQ12 = 0, DS_HARD_CAMERA_WEBCAM4K = 1 } ds_hard_camera;
const char *ds_hard_camera_name(ds_hard_camera c);
void ds_hard_camera_apply(ds_hard_camera c, ds_render_params *p);

/*
 * What the bases carry (ds_hard_params.marks; the miniatures set, ds_hard_minis_preset):
 *   DS_HARD_MARKS_TAGS: the tags of the hard set (a tag ahead of the figure, per unit type);
 *   DS_HARD_MARKS_SHEET: a square tag as `roster import` sizes it and `tags sheet` prints it today: the
 *     largest black square leaving 2.5 mm front and rear and 0.8 mm at the sides, in the base's middle;
 *   DS_HARD_MARKS_RIM: rim labels as `tableref tags layout --no-masts` lays them out (roster/roster_mark.h);
 *   DS_HARD_MARKS_MAST: rim labels and masts as `tableref tags layout` lays them out (roster.h,
 *     roster_unit_mark): a tag on a clear rod above the figures, on a ranked unit's front corners and on
 *     every skirmisher, character and monster.
 */
typedef enum ds_hard_marks {
    DS_HARD_MARKS_TAGS = 0,
    DS_HARD_MARKS_SHEET = 1,
    DS_HARD_MARKS_RIM = 2,
    DS_HARD_MARKS_MAST = 3,
} ds_hard_marks;
const char *ds_hard_marks_name(ds_hard_marks m);

typedef struct ds_hard_params {
    uint32_t seed;
    int width, height;           /* frame, px (even) */
    double board_width, board_depth;  /* mm */
    double camera_height_mm;     /* 1200..1600 */
    double tilt_deg, tilt_dir_deg;
    double k1;                   /* -0.1..-0.3; k2 = -0.35 k1 keeps the lens monotonic over the frame */
    int hands;                   /* 0..10 */
    int target_models;           /* the armies are filled up to about this many */
    int palette;                 /* the board's mat: 0 grass, 1 desert, 2 grey */
    double jitter_mm;            /* hand placement error of each base (0.3) */
    ds_hard_camera camera;       /* the sensor, its processing and its JPEG */
    /* Real miniatures (the minis set): real bases (infantry 20x20 and 25x25, cavalry 25x50, monstrous
     * infantry 40x40, monsters 50x50 and 50x100), skirmishers standing apart (their units `loose`) and
     * characters on their own bases, figures as real ones stand (ds_render_params.miniatures). */
    int miniatures;
    ds_hard_marks marks;
    int hills;                   /* hills on the table (0: none; 3: 70, 50 and 30 mm, 4: and 80 mm): ds_hill.h */
} ds_hard_params;

/* The bench's tables, k = 1 .. ds_hard_preset_count(); anything else gives table 1. */
int ds_hard_preset_count(void);
void ds_hard_preset(int k, ds_hard_params *p);
/* The miniatures set's tables (datasets/hard/README.md), k = 1 .. ds_hard_minis_count(), marked `marks`:
 * tables 1-3 through the 12 MP camera, table 4 through the 4K webcam (ds_hard_minis.c). */
int ds_hard_minis_count(void);
void ds_hard_minis_preset(int k, ds_hard_marks marks, ds_hard_params *p);
/* The same tables with hills ("hills:K"): three, of 70 (its foot near a long edge), 50 and 30 mm, a unit of each
 * army on the tops where one fits; the camera, the light and the armies' mix as table k's. */
void ds_hard_preset_hills(int k, ds_hard_params *p);

typedef enum ds_rank_align { DS_RANK_FULL, DS_RANK_CENTRED, DS_RANK_LEFT, DS_RANK_RIGHT, DS_RANK_GAPS } ds_rank_align;
const char *ds_rank_align_name(ds_rank_align a);

/* Where a model stands in its unit: file from the left (half steps in a centred rank), rank from the front. */
typedef struct ds_hard_slot {
    double file;
    int rank;
} ds_hard_slot;

typedef struct ds_hard_table {
    ds_scene *scene;             /* snapshot, roster, calibration, render parameters (real style) */
    ds_hard_slot *slots;         /* per roster model */
    ds_rank_align *align;        /* per roster unit: its rear rank */
    const char **kind;           /* per roster unit: "infantry", "heavy infantry", "cavalry", ... (static strings) */
    int reserved;                /* units placed with room ahead for the pairs */
} ds_hard_table;

/* The table of p: its camera, its hills, its armies (laid out in ds_hard_armies.c). NULL with err. */
ds_hard_table *ds_hard_generate(const ds_hard_params *p, base_error *err);
/* The table's camera: the longest focal length (px) that keeps the board in the frame. 0 or -1. */
int ds_hard_fit_camera(const ds_hard_params *p, calib_file *out, base_error *err);
void ds_hard_free(ds_hard_table *t);

/*
 * A crop of the camera's frame: pixel (x0, y0) becomes (0, 0), the frame is
 * w x h (even). The lens and pose are unchanged, so a crop shows exactly
 * what that part of the full frame shows. The principal point may then lie
 * outside the frame, which calib_file_validate refuses: a crop is for use in
 * process (tests, the benchmark); `tableref render --crop` checks it.
 */
int ds_hard_crop(calib_file *cam, int x0, int y0, int w, int h, base_error *err);

/*
 * A before/after pair of one table: the after snapshot has one infantry
 * unit advanced 4.5" straight ahead (Advance 5": legal) and another marched
 * 11" (March 10": illegal); nothing else moves. The after frame has other
 * hands (its own frame seed). Fails when no two units have room.
 */
typedef struct ds_hard_move {
    char unit[RULES_ID_MAX];
    double forward_mm;
    double rate_mm;              /* the rate it is judged against */
    const char *rate;            /* "advance" or "march" */
    int legal;
} ds_hard_move;
typedef struct ds_hard_pair {
    rules_snapshot *after;
    ds_hard_move moves[2];
    uint32_t after_frame_seed;
} ds_hard_pair;
int ds_hard_pair_make(const ds_hard_table *t, ds_hard_pair *out, base_error *err);
void ds_hard_pair_clear(ds_hard_pair *p);

#endif
