/*
 * vis_roster: which AprilTag belongs to which model of which unit, where the
 * tag sits on its base, and the board's own reference tags. JSON format
 * "tableref.roster" version 1, documented in docs/formats.md.
 *
 * How to use:
 *   base_error err;
 *   vis_roster *r = vis_roster_load("roster.json", &err);
 *   if (!r) { fprintf(stderr, "%s\n", err.msg); return 2; }
 *   const vis_roster_model *m = vis_roster_find_model_tag(r, 17);
 *   ...
 *   vis_roster_free(r);
 *
 * Tag frame: "up" is the direction from the bitmap's bottom row to its top
 * row as printed; a tag's heading is that direction on the board. On a base,
 * the tag's centre is `offset` from the base centre in the base frame
 * (x along the model's facing, y to its left) and its heading is the model's
 * facing + `rotation`. Sizes are the black square's edge (apriltag's
 * "tag size"); the white border around it is another cell on each side.
 */
#ifndef VIS_ROSTER_H
#define VIS_ROSTER_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "base_error.h"
#include "base_geom.h"
#include "rules_snapshot.h"

#define VIS_ROSTER_FORMAT "tableref.roster"
#define VIS_ROSTER_VERSION 1

/* How a tag is mounted on its base. */
typedef struct vis_tag_mount {
    base_vec2 offset;  /* mm, base frame: x forward, y left */
    double rotation;    /* rad, tag heading minus model facing */
    double height;      /* mm above the board (base thickness + print) */
    double size;        /* mm, black square edge */
} vis_tag_mount;

typedef struct vis_roster_model {
    char id[RULES_ID_MAX];
    int tag_id;
    size_t unit;        /* index into units */
    int file, rank;     /* nominal slot from the listing order and the unit's files */
    double base_width, base_depth;  /* mm, the model's own base when not its unit's; 0 otherwise */
    bool attachable;    /* an Attachable Model (a character, which may join a unit) */
    char name[RULES_ID_MAX];  /* "Standard Bearer"; "" when the model is named by its unit */
} vis_roster_model;

typedef struct vis_roster_unit {
    char id[RULES_ID_MAX];
    char name[96];                          /* as the army list writes it ("Goblin Rabble"); "" when not given */
    bool character;
    char side[RULES_ID_MAX];
    double base_width, base_depth;         /* mm */
    double advance_rate, march_rate, mobility;  /* mm; NAN when absent */
    unsigned status;
    int files;                              /* models per rank in the listing order */
    vis_tag_mount mount;
    size_t first_model, n_models;           /* range in the roster's models */
} vis_roster_unit;

typedef struct vis_board_tag {
    int id;
    double x, y, z;     /* tag centre, board mm (z: height above the board) */
    double rotation;    /* rad, tag heading */
    double size;        /* mm */
} vis_board_tag;

typedef struct vis_roster {
    char family[32];
    double board_width, board_depth;  /* mm */
    vis_roster_unit *units;
    size_t n_units;
    vis_roster_model *models;
    size_t n_models;
    vis_board_tag *board_tags;
    size_t n_board_tags;
} vis_roster;

vis_roster *vis_roster_load(const char *path, base_error *err);
/* From parsed JSON; `name` prefixes errors. Checks IDs are unique. */
vis_roster *vis_roster_from_json(const cJSON *root, const char *name, base_error *err);
void vis_roster_free(vis_roster *r);
cJSON *vis_roster_to_json(const vis_roster *r);
int vis_roster_save(const vis_roster *r, const char *path, base_error *err);

/* The model carrying tag `id`, or NULL. */
const vis_roster_model *vis_roster_find_model_tag(const vis_roster *r, int id);
/* The board reference tag `id`, or NULL. */
const vis_board_tag *vis_roster_find_board_tag(const vis_roster *r, int id);

/* A snapshot with the board and every unit (rates, status) but no models yet. Caller frees. */
rules_snapshot *vis_roster_new_snapshot(const vis_roster *r);

/* Copies what the roster knows of one model into its snapshot model (its own base, attachable). */
void vis_roster_model_apply(const vis_roster_model *rm, rules_model *m);

/* Board position and heading of a tag mounted on a model at (pos, facing). */
void vis_tag_mount_place(const vis_tag_mount *m, base_vec2 pos, double facing, base_vec2 *tag_centre,
                         double *tag_heading);
/* Inverse: the model's base centre and facing from a tag's centre and heading. */
void vis_tag_mount_unplace(const vis_tag_mount *m, base_vec2 tag_centre, double tag_heading, base_vec2 *pos,
                           double *facing);

#endif
