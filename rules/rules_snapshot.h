/*
 * rules_snapshot: the table at one moment, in board millimetres.
 *
 * Model positions are the primary data (that is what a camera sees); unit
 * poses and formations are derived from them by rules_formation.
 *
 * How to use:
 *   rules_snapshot *s = rules_snapshot_new(1828.8, 1219.2);
 *   rules_unit *u = rules_snapshot_add_unit(s, "spears", "red");
 *   rules_unit_add_model(u, "spears-1", base_v2(100, 200), 0.0);
 *   ...
 *   rules_snapshot_free(s);
 * Pointers returned by the add functions stay valid until the next add to
 * the same array (they may reallocate) or until the snapshot is freed.
 * The JSON form is read and written by rules_json.
 */
#ifndef RULES_SNAPSHOT_H
#define RULES_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"
#include "base_geom.h"
#include "rules_dice.h"
#include "rules_ruleset.h"

#define RULES_ID_MAX 64

/* Status words of units and models ("status": ["charging", ...]). */
enum {
    RULES_STATUS_CHARGING = 1u << 0,
    RULES_STATUS_ENGAGED = 1u << 1,
    RULES_STATUS_FLEEING = 1u << 2,
    RULES_STATUS_SHAKEN = 1u << 3,
};
/* Status bit for a word, or 0 when the word is unknown. */
unsigned rules_status_from_word(const char *word);
/* Word for a single status bit, or NULL. */
const char *rules_status_word(unsigned bit);

/*
 * How a camera knew where a model is (vision; "evidence" in JSON). A model
 * written by hand is SEEN with an unknown (NAN) sigma: exact.
 */
typedef enum rules_evidence {
    RULES_EVIDENCE_SEEN = 0,  /* its tag was read cleanly */
    RULES_EVIDENCE_ROUGH,     /* its tag was read but partly hidden: placed to a millimetre or so */
    RULES_EVIDENCE_INFERRED,  /* not seen: placed from its unit's formation or an earlier frame */
} rules_evidence;
const char *rules_evidence_word(rules_evidence e);
/* 0 and *out set for "seen", "rough", "inferred"; -1 otherwise. */
int rules_evidence_from_word(const char *word, rules_evidence *out);

typedef struct rules_model {
    char id[RULES_ID_MAX];
    base_vec2 pos;   /* base centre, mm */
    double facing;    /* rad, counter-clockwise from +x */
    unsigned status;  /* RULES_STATUS_* of this model only */
    bool inferred;    /* not seen: placed from its unit's fitted formation (vision); == (evidence == INFERRED) */
    bool attachable;  /* an Attachable Model (a character joined to the unit): Combat Reforms keep it in contact */
    rules_evidence evidence;
    double sigma_mm;  /* one standard deviation of the base centre, mm; NAN when not stated (exact) */
    double base_width, base_depth;  /* mm, this model's own base (a character on a larger one); 0: the unit's */
} rules_model;

/*
 * One alternative placement of a unit's inferred models that the evidence
 * allows as well as the one in `models` (e.g. its incomplete rear rank
 * centred, left- or right-aligned). Only the models placed differently are
 * listed; every other model stands where `models` has it.
 */
typedef struct rules_placed_model {
    char id[RULES_ID_MAX];
    base_vec2 pos;
    double facing;
    double sigma_mm;  /* NAN when not stated */
} rules_placed_model;

#define RULES_LABEL_MAX 96
typedef struct rules_placement {
    char label[RULES_LABEL_MAX];  /* e.g. "rear rank left-aligned" */
    rules_placed_model *models;
    size_t n_models, cap_models;
} rules_placement;

/* A unit the roster knows but the camera saw nothing of ("unseen_units" in JSON). */
typedef struct rules_unseen_unit {
    char id[RULES_ID_MAX];
    char side[RULES_ID_MAX];
    size_t n_models;  /* models the roster gives it */
} rules_unseen_unit;

typedef struct rules_unit {
    char id[RULES_ID_MAX];
    char side[RULES_ID_MAX];  /* player or army */
    double base_width;        /* mm, along the front */
    double base_depth;        /* mm */
    double advance_rate;      /* mm; NAN when the profile has none */
    double march_rate;        /* mm; NAN when absent */
    double mobility;          /* mm; NAN when absent */
    /* Random movement (rules_dice.h): a rate that is a roll ("3D6"; "" when fixed). Such a rate is the roll
     * declared for this move (roll_mm, NAN until one is): rules_move_unit_rate reads it. */
    char advance_dice[RULES_DICE_MAX], march_dice[RULES_DICE_MAX];
    double roll_mm;
    unsigned status;          /* RULES_STATUS_* of the unit */
    /* Dynamic Formations (seed 002): a unit is one model card. */
    char profile[RULES_ID_MAX]; /* models with the same profile are identical; "" when not given */
    double control_area_mm;   /* Control Area radius about each base centre; NAN when absent */
    bool heroic;              /* Hero, Heroic Mount or Heroic Beast: never in a formation */
    int will;                 /* WILL characteristic; -1 when absent */
    /* Pursuit and Proper Ranks (issue 14); absent in older files. */
    char combat[RULES_ID_MAX];  /* the combat it took part in this Melee Phase (Fleeing: the one it fled from); "" unknown */
    int height;               /* Height 0..5; -1 unknown. Words: standard 1, large 3, gigantic 5 (height_word set) */
    bool height_word;         /* Height was given as a word: written back as one */
    char type[16];            /* Type: "infantry", "beast", "cavalry", "construct"; "" unknown */
    rules_model *models;
    size_t n_models, cap_models;
    /* Vision's other placements of the inferred models (the one in `models`
     * is the likeliest); `placements_complete` is false when there were more
     * than vision keeps, so no call may rely on having seen them all. */
    char placement_label[RULES_LABEL_MAX];  /* how `models` places the inferred ones ("" when no alternative) */
    rules_placement *alternatives;
    size_t n_alternatives, cap_alternatives;
    bool placements_complete;
    /* Vision: its tags read as standing at another height than the table's relief puts them (a hill
     * missing from the table file, a base on a book): where it stands is not settled and no call rests on
     * it (rules_robust). height_seen_mm: the height its tags seem to stand at; height_table_mm: the
     * relief's there. Both NAN when settled ("height_unsettled" in JSON). */
    double height_seen_mm, height_table_mm;
} rules_unit;
/* Is the unit's height unsettled (height_seen_mm set)? */
bool rules_unit_height_unsettled(const rules_unit *u);

typedef enum rules_terrain_kind {
    RULES_TERRAIN_OPEN = 0,
    RULES_TERRAIN_OBSTRUCTION,
    RULES_TERRAIN_IMPASSABLE,
} rules_terrain_kind;
const char *rules_terrain_kind_word(rules_terrain_kind kind);

/*
 * What a piece of terrain is in height (its relief), apart from its rules'
 * kind: a hill is open ground unless the table says otherwise, whatever its
 * height (docs/rules.md, "Relief").
 */
typedef enum rules_relief {
    RULES_RELIEF_FLAT = 0,   /* on the board: nothing stands above it (a field, a forest's base of a few mm) */
    RULES_RELIEF_HILL,       /* models stand on it: a flat top at height_mm, its sides sloping down to its foot */
    RULES_RELIEF_BUILDING,   /* models cannot stand on it: its height hides what is behind it and catches light */
} rules_relief;
const char *rules_relief_word(rules_relief r);
/* 0 and *out set for "flat", "hill", "building"; -1 otherwise. */
int rules_relief_from_word(const char *word, rules_relief *out);

typedef struct rules_terrain {
    char id[RULES_ID_MAX];
    rules_terrain_kind kind;
    base_vec2 *points;  /* simple polygon, board mm; a hill's or a building's top */
    size_t n_points;
    rules_relief relief;
    double height_mm;        /* its top above the board (0 when flat) */
    double height_sigma_mm;  /* 1 sigma of height_mm (a survey's +/-); NAN when not stated */
    base_vec2 *foot;         /* a hill's outline on the board, around its top (sloped sides); NULL: sheer sides */
    size_t n_foot;
} rules_terrain;

/* A declared Dynamic Formation (seed 002): the models acting as one, from one or more cards. */
typedef struct rules_dynform_decl {
    char id[RULES_ID_MAX];
    char (*models)[RULES_ID_MAX];
    size_t n_models;
} rules_dynform_decl;

typedef struct rules_snapshot {
    double board_width;   /* mm along x (the long edge) */
    double board_depth;   /* mm along y */
    rules_ruleset ruleset;   /* copied from the built-in table, possibly overridden */
    bool ruleset_given;      /* the file named one */
    rules_unit *units;
    size_t n_units, cap_units;
    rules_terrain *terrain;
    size_t n_terrain, cap_terrain;
    rules_dynform_decl *dynforms;   /* declared Dynamic Formations ("formations" in JSON) */
    size_t n_dynforms, cap_dynforms;
    rules_unseen_unit *unseen;      /* units the camera saw nothing of (vision) */
    size_t n_unseen, cap_unseen;
} rules_snapshot;

/* A new empty snapshot with the default ruleset. NULL only when out of memory. */
rules_snapshot *rules_snapshot_new(double board_width_mm, double board_depth_mm);
/* Frees the snapshot and everything it owns; NULL is fine. */
void rules_snapshot_free(rules_snapshot *s);
/* A deep copy; NULL when out of memory. */
rules_snapshot *rules_snapshot_clone(const rules_snapshot *s);

/* Appends a unit with no models, rates NAN, status 0; NULL when out of memory. */
rules_unit *rules_snapshot_add_unit(rules_snapshot *s, const char *id, const char *side);
/* Appends a model (seen, sigma NAN); NULL when out of memory. */
rules_model *rules_unit_add_model(rules_unit *u, const char *id, base_vec2 pos, double facing);
/* Appends an empty alternative placement; NULL when out of memory. Valid until the next add. */
rules_placement *rules_unit_add_alternative(rules_unit *u, const char *label);
/* Appends one model's place to an alternative; -1 when out of memory. */
int rules_placement_add_model(rules_placement *p, const char *id, base_vec2 pos, double facing, double sigma_mm);
/* Frees a unit's alternatives (placements_complete set back to true). */
void rules_unit_clear_alternatives(rules_unit *u);
/* Lists a unit as unseen; NULL when out of memory. */
rules_unseen_unit *rules_snapshot_add_unseen(rules_snapshot *s, const char *id, const char *side, size_t n_models);
const rules_unseen_unit *rules_snapshot_find_unseen(const rules_snapshot *s, const char *id);
/* Appends a terrain piece, copying `n` points; flat (no relief). NULL when out of memory. */
rules_terrain *rules_snapshot_add_terrain(rules_snapshot *s, const char *id, rules_terrain_kind kind,
                                          const base_vec2 *points, size_t n);
/* Gives a piece its relief, copying the foot (`n_foot` points; NULL, 0: sheer sides). -1 when out of memory. */
int rules_terrain_set_relief(rules_terrain *t, rules_relief relief, double height_mm, double height_sigma_mm,
                             const base_vec2 *foot, size_t n_foot);
/* Appends a copy of `t` (relief and all); NULL when out of memory. */
rules_terrain *rules_snapshot_copy_terrain(rules_snapshot *s, const rules_terrain *t);

/* Appends an empty declared formation; NULL when out of memory. Valid until the next add. */
rules_dynform_decl *rules_snapshot_add_dynform(rules_snapshot *s, const char *id);
/* Appends a model id to a declared formation; -1 when out of memory. */
int rules_dynform_decl_add_model(rules_dynform_decl *f, const char *model_id);

rules_unit *rules_snapshot_find_unit(const rules_snapshot *s, const char *id);
/* The model with this id anywhere on the table; *unit_out (if non-NULL) gets its unit. */
rules_model *rules_snapshot_find_model(const rules_snapshot *s, const char *id, rules_unit **unit_out);
rules_model *rules_unit_find_model(const rules_unit *u, const char *id);
/* Vision placed only the models it measured and left the others out, their formation not to be told from the
 * models read: placements incomplete, no model inferred, no alternative (a unit read in part). */
bool rules_unit_partly_placed(const rules_unit *u);

/*
 * The id rules of a table, in O(n log n): unit ids unique (listed unseen
 * too), model ids unique across the table, terrain and formation ids unique,
 * each formation member a model on the table and in one formation at most,
 * each alternative placement's models its own unit's, each once. The error
 * names both places ("units[3].models[1].id: duplicate model id \"x\" (also
 * units[0].models[4].id)"). Returns 0 or -1.
 */
int rules_snapshot_check_ids(const rules_snapshot *s, base_error *err);

/* The base of a model as an oriented rectangle: its own base when it has one, else its unit's. */
base_obb rules_model_base(const rules_unit *u, const rules_model *m);
/*
 * The roll a player declares for a unit whose rate is dice (random movement), for its next move: 0, or -1 with
 * err when the unit has no rate of dice, or `roll_mm` is no roll of them ("a roll of 20.00\" is not one of 3D6:
 * 3\" to 18\""). NAN clears it.
 */
int rules_unit_declare_roll(rules_unit *u, double roll_mm, base_error *err);
/* Union of model statuses and the unit's own. */
unsigned rules_unit_status(const rules_unit *u);

#endif
