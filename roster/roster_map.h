/*
 * roster_map: what the camera needs of a roster, and only that: which tag
 * is which model of which unit, where each tag sits on its base (the
 * mount), the bases and the listing order that give a hidden model its
 * slot, and the board's own reference tags. vision/ takes this map, never
 * the whole roster (names, the army's header, what is still unresolved are
 * for people); the units' characteristics (Advance and March Rates,
 * Mobility, status) reach a reading only inside `start`, the snapshot every
 * reading begins from, made by the roster module (roster.h,
 * roster_map_new): vision copies it and places the models.
 *
 * Tag frame: "up" is the direction from the bitmap's bottom row to its top
 * row as printed; a tag's heading is that direction on the board. On a
 * base, the tag's centre is `offset` from the base centre in the base frame
 * (x along the model's facing, y to its left) and its heading is the
 * model's facing + `rotation`. Sizes are the black square's edge
 * (apriltag's "tag size"); the white border is another cell on each side.
 *
 * How to use:
 *   roster_map *m = roster_map_new(roster, &err);             // roster.h: the map of a roster read
 *   const roster_map_model *rm = roster_map_find_model_tag(m, 17);
 *   const roster_map_mark *mast = roster_map_find_mark_tag(m, 600);   // its carrier: m->models[mast->model]
 *   rules_snapshot *s = roster_map_new_snapshot(m);           // the units, no models yet
 *   roster_tag_mount_unplace(&m->units[rm->unit].mount, tag_centre, tag_heading, &pos, &facing);
 *   roster_map_free(m);
 */
#ifndef ROSTER_MAP_H
#define ROSTER_MAP_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "base_geom.h"
#include "roster_mark.h"
#include "rules_snapshot.h"

/* A roster's ids may be longer than a snapshot's while written (an army list's names); the reader takes
 * RULES_ID_MAX - 1 characters at most. */
#define ROSTER_ID_MAX 112

/* How a tag is mounted on its base. A rim label (layout ROSTER_MARK_RIM, roster_mark.h) covers the whole
 * base top, centred and unturned (offset 0, rotation 0), in cells of `cell` mm; its size is the base's. */
typedef struct roster_tag_mount {
    base_vec2 offset;   /* mm, base frame: x forward, y left */
    double rotation;    /* rad, tag heading minus model facing */
    double height;      /* mm above the board (base thickness + print) */
    double size;        /* mm, black square edge; 0 while unknown (an army list's unresolved base) and for a rim */
    roster_mark_layout layout;  /* ROSTER_MARK_SQUARE (0, every older roster) or ROSTER_MARK_RIM */
    double cell;        /* mm, a rim label's cell; 0 for a square tag */
} roster_tag_mount;

/* A reference tag fixed to the board. */
typedef struct roster_board_tag {
    int id;
    double x, y, z;     /* tag centre, board mm (z: height above the board) */
    double rotation;    /* rad, tag heading */
    double size;        /* mm */
} roster_board_tag;

typedef struct roster_map_model {
    char id[ROSTER_ID_MAX];
    int tag_id;
    size_t unit;        /* index into units */
    int file, rank;     /* nominal slot from the listing order and the unit's files */
    double base_width, base_depth;  /* mm, the model's own base when not its unit's; 0 otherwise */
    bool attachable;    /* an Attachable Model (a character, which may join a unit) */
} roster_map_model;

/* A mast (roster.h, roster_unit_mark): a square tag held `mount.height` above the surface its carrier's base stands
 * on, placed on that base as a square tag is (roster_tag_mount_unplace); its rod may lean it `sway` mm off. */
typedef struct roster_map_mark {
    int tag_id;
    size_t model;              /* index into models: the carrier */
    roster_tag_mount mount;    /* layout ROSTER_MARK_SQUARE */
    double sway;               /* mm */
} roster_map_mark;

typedef struct roster_map_unit {
    char id[ROSTER_ID_MAX];
    char side[ROSTER_ID_MAX];
    double base_width, base_depth;          /* mm */
    int files;                              /* models per rank in the listing order */
    bool loose;                             /* its models stand apart: each placed by its own mark, none inferred */
    roster_tag_mount mount;
    size_t first_model, n_models;           /* range in the map's models */
} roster_map_unit;

typedef struct roster_map {
    char family[32];
    double board_width, board_depth;  /* mm */
    roster_map_unit *units;
    size_t n_units;
    roster_map_model *models;
    size_t n_models;
    roster_board_tag *board_tags;
    size_t n_board_tags;
    roster_map_mark *marks;   /* masts, in the roster's order */
    size_t n_marks;
    rules_snapshot *start;  /* the board and every unit (side, base, rates, status), no models; owned */
} roster_map;

/* A deep copy; NULL when out of memory. */
roster_map *roster_map_clone(const roster_map *m);
void roster_map_free(roster_map *m);

/* The model carrying tag `id`, or NULL. */
const roster_map_model *roster_map_find_model_tag(const roster_map *m, int id);
/* The mast carrying tag `id`, or NULL. */
const roster_map_mark *roster_map_find_mark_tag(const roster_map *m, int id);
/* The board reference tag `id`, or NULL. */
const roster_board_tag *roster_map_find_board_tag(const roster_map *m, int id);

/* A copy of `start`: the board and every unit (rates, status) but no models yet. Caller frees; NULL when out of
 * memory. */
rules_snapshot *roster_map_new_snapshot(const roster_map *m);
/* Copies what the map knows of one model into its snapshot model (its own base, attachable). */
void roster_map_model_apply(const roster_map_model *rm, rules_model *m);

/* Board position and heading of a tag mounted on a model at (pos, facing). */
void roster_tag_mount_place(const roster_tag_mount *m, base_vec2 pos, double facing, base_vec2 *tag_centre,
                            double *tag_heading);
/* Inverse: the model's base centre and facing from a tag's centre and heading. */
void roster_tag_mount_unplace(const roster_tag_mount *m, base_vec2 tag_centre, double tag_heading, base_vec2 *pos,
                              double *facing);

/* How many codes a tag family tableref reads has (tag36h11: 587, tagStandard41h12: 2115); 0 for any other name
 * (NULL included). */
int roster_family_codes(const char *family);

#endif
