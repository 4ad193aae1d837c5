/*
 * ds_sequence: a rendered video of a game turn, with its exact truth, for
 * `tableref watch` to referee: the table stands still, a hand reaches in
 * and moves one unit, the hand leaves, the table stands still again, ...
 *
 * A sequence file ("format": "tableref.sequence", version 1; docs/formats.md)
 * names a scene (datasets/ds_scene.h: the starting table, roster, camera,
 * render settings) and the moves, each a rigid motion of one unit in its
 * own frame:
 *   {"format": "tableref.sequence", "version": 1, "scene": "scene.json",
 *    "fps": 5, "hold_s": 2.0, "move_s": 1.2,
 *    "moves": [{"unit": "spearmen", "forward_mm": 76.2, "left_mm": 0, "rotate_deg": 0,
 *               "says": "advance 3\" forward: legal"}]}
 * rotate_deg turns the unit about its centre (after the translation).
 *
 * How to use:
 *   ds_sequence *q = ds_sequence_load("datasets/sequences/turn/sequence.json", &err);
 *   ds_sequence_render(q, "out/", 0, &err);   // out/frames/000000.jpg ..., out/truth/, out/frames.json
 *   rules_snapshot *s = ds_sequence_keyframe(q, 2, &err);   // the table after two moves
 *   rules_snapshot_free(s); ds_sequence_free(q);
 * The frames are rendered when asked (never stored in the repository); the
 * same file gives the same frames.
 */
#ifndef DS_SEQUENCE_H
#define DS_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "ds_scene.h"
#include "base_error.h"
#include "rules_snapshot.h"

typedef struct ds_sequence_move {
    char unit[RULES_ID_MAX];
    double forward_mm, left_mm;  /* in the unit's frame at the start of the move */
    double rotate_rad;           /* about the unit's centre, counter-clockwise */
    char says[160];              /* what the move is meant to be, for people */
} ds_sequence_move;

typedef struct ds_sequence {
    ds_scene *scene;
    double fps;                  /* frames per second */
    double hold_s;               /* the table still before the first move and after each */
    double move_s;               /* a hand over the table, moving one unit */
    ds_sequence_move *moves;
    size_t n_moves;
} ds_sequence;

ds_sequence *ds_sequence_load(const char *path, base_error *err);
void ds_sequence_free(ds_sequence *q);

/* The table after the first k moves (k = 0 .. n_moves). Caller frees. */
rules_snapshot *ds_sequence_keyframe(const ds_sequence *q, size_t k, base_error *err);

/* The table `alpha` (0..1) of the way through the move into keyframe k (1 .. n_moves), and where the hand
 * carrying the unit is (board mm; may be NULL). Caller frees. */
rules_snapshot *ds_sequence_moving(const ds_sequence *q, size_t k, double alpha, base_vec2 *hand_at, base_error *err);

/* Frame counts of the schedule: hold and move phases. */
long ds_sequence_hold_frames(const ds_sequence *q);
long ds_sequence_move_frames(const ds_sequence *q);
long ds_sequence_frame_count(const ds_sequence *q);
/*
 * The first frame of still run k (k = 0 .. n_moves): the table stands
 * still at keyframe k, with no hand, for ds_sequence_hold_frames(q) frames
 * from there.
 */
long ds_sequence_hold_start(const ds_sequence *q, size_t k);

/*
 * Renders every frame into dir/frames/NNNNNN.jpg (created), and writes
 * dir/calib.json, dir/roster.json, dir/truth/keyframe-K.json (the snapshot
 * after K moves) and dir/frames.json (each frame's time, phase and hand).
 * `supersample` > 0 overrides the scene's supersampling (1 is fastest). Prints
 * nothing. Returns 0 or -1.
 */
int ds_sequence_render(const ds_sequence *q, const char *dir, int supersample, base_error *err);

/*
 * A short turn on hard table `table` (ds_hard.h, real style): its pair's two
 * moves, a 4.5" advance (Advance 5": legal) and an 11" march (March 10":
 * illegal), 5 fps, 1.2 s still between them, 1 s for each move with a hand
 * carrying the unit. `crop` ("WxH+X+Y", or NULL for the whole 12 MP frame)
 * renders part of the frame; the principal point must stay inside it.
 */
ds_sequence *ds_sequence_hard(int table, const char *crop, base_error *err);

/*
 * The same turn on the miniatures set's table `table` (1 .. ds_hard_minis_count(): figures standing as real ones
 * do, hands, rim labels and masts as `tags layout` lays them out, ds_hard_minis_preset): what the projector's
 * light does to marks read around and above the figures.
 */
ds_sequence *ds_sequence_minis(int table, const char *crop, base_error *err);

/*
 * A turn on a hill (ds_climb.h's table: a 50 mm hill towards the edge of hard table 1's view, the spears before
 * it, two units standing by): the spears advance 3.5" onto it (Advance 4": legal), 3.9" along its top (legal),
 * then march 8.5" down off its far side (March 8": illegal), each carried by a hand; 5 fps, 1.2 s still between
 * moves, 1 s each move. `crop`: the frame cut to the hill, every keyframe's units and the principal point.
 */
ds_sequence *ds_sequence_climb(bool crop, base_error *err);

/* Draws a hand and forearm reaching from the near edge to `at` (board mm), 150 mm above the table, over `img`. */
int ds_sequence_draw_hand(base_image *img, const calib_file *cam, base_vec2 at, base_error *err);

#endif
