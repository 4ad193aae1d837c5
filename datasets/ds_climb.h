/*
 * ds_climb: the four climbs (issue 28) every referee must call as the rules
 * measure them: a 20-model unit
 * (10 files, 2 ranks, 25x40 mm bases, 16 mm tags 4 mm up and 9 mm behind
 * the centre; Advance 4", March 8"; no figures nor hands: these pictures
 * measure the relief, the hard set with hills measures what hides tags) before a 50 mm hill towards the edge of a 6x4 ft table seen by
 * hard table 1's camera (1.4 m up, 14 degrees tilted, a 12 MP frame; the
 * hill ~820 mm from the point under the camera, where a tag on it read as
 * standing on the board is pushed ~30 mm outward):
 *   - ONTO: 3.5" straight ahead from the board onto the hill (its front
 *     rank onto the top, its rear rank onto its 25 mm slope): legal;
 *   - ALONG: 3.9" along the top: legal;
 *   - DOWN: 3.5" from the top's far edge down its slope onto the board
 *     (its rear rank on the slope): legal;
 *   - TOO_FAR: 4.3" onto the top: illegal (Advance 4").
 * Every model moves the same distance (a straight advance, no wheel), away
 * from the point under the camera: the parallax adds to the move. Two
 * units of 10 (archers, guards) stand by on the board either side of the
 * hill: the rest of the table a unit's height is read against
 * (vision/vis_height.h).
 *
 * How to use:
 *   ds_climb c;
 *   if (ds_climb_make(DS_CLIMB_ONTO, 1, &c, &err) < 0) ...   // 1: the camera cropped to the move
 *   ds_render(c.scene->snapshot, ...) (before), ds_render(c.after, ...) with render.frame_seed = c.after_seed
 *   ds_climb_clear(&c);
 */
#ifndef DS_CLIMB_H
#define DS_CLIMB_H

#include <stdbool.h>
#include <stdint.h>

#include "base_error.h"
#include "base_geom.h"
#include "ds_hill.h"
#include "ds_scene.h"
#include "rules_snapshot.h"

typedef enum ds_climb_kind { DS_CLIMB_ONTO = 0, DS_CLIMB_ALONG, DS_CLIMB_DOWN, DS_CLIMB_TOO_FAR, DS_CLIMB_KINDS } ds_climb_kind;
const char *ds_climb_name(ds_climb_kind k);

typedef struct ds_climb {
    ds_scene *scene;         /* the table before: camera, roster, snapshot (terrain: the hill), render parameters */
    rules_snapshot *after;   /* the table after the move */
    ds_hill hill;
    char unit[RULES_ID_MAX];
    double moved_mm;         /* how far every model moved */
    double rate_mm;          /* its Advance Rate */
    bool legal;
    uint32_t after_seed;     /* the after frame's seed (other sensor noise) */
} ds_climb;

/* The climb `k`; crop: the camera's frame cut to the hill and the move (a test's picture). 0 or -1. */
int ds_climb_make(ds_climb_kind k, bool crop, ds_climb *out, base_error *err);
/* The scene's camera cut to the hill and every unit of `tables` (the keyframes of a turn on it), with a margin
 * (ds_hard_crop), and to its principal point too when asked (a calibration that must validate). 0 or -1. */
int ds_climb_crop(ds_scene *scene, const ds_hill *hill, const rules_snapshot *const *tables, size_t n,
                  bool principal_point, base_error *err);
void ds_climb_clear(ds_climb *c);

#endif
