/*
 * roster: the roster format ("tableref.roster" version 1, docs/formats.md)
 * in one module: read and checked (roster_read.c), written (roster_write.c),
 * and handed on: the camera's part as a roster_map (roster_map.h, all that
 * vision/ takes), the units' characteristics as a snapshot's units
 * (roster_new_snapshot). A rate may be dice (random movement:
 * `advance_dice`, `march_dice`, "3D6"), judged against the roll a player
 * declares. armylist/ writes the rosters it imports through
 * roster_save, table/ and referee/ hold a roster. A unit's Advance and
 * March Rate are read here (inches, 0 to 30), written here, and put into a
 * snapshot here: nowhere else.
 *
 * How to use:
 *   base_error err;
 *   roster_file *r = roster_load("roster.json", &err);
 *   if (!r) { fprintf(stderr, "%s\n", err.msg); return 2; }      // "roster.json: units[1].tag.size_mm: missing"
 *   const roster_model *m = roster_find_model_tag(r, 17);
 *   const roster_unit_mark *k = roster_find_mark_tag(r, 600);        // a mast (units[].marks[]), or NULL
 *   roster_map *map = roster_map_new(r, &err);                    // what vision takes
 *   ...
 *   roster_save(r, "copy.json", &err);                            // the same roster, complete or not
 *   roster_map_free(map);
 *   roster_free(r);
 * A roster being made (armylist/, datasets/, tests): roster_new(n_units, n_models, n_board_tags), fill
 * units[], models[] and board_tags[] counting n_* up, then roster_to_json or roster_save. A roster with
 * values still unknown (a unit without base_mm or models, a tag without size_mm: 0; rates NAN) is written
 * as it is, with `unresolved` saying what is missing; the reader refuses it.
 */
#ifndef ROSTER_H
#define ROSTER_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "base_error.h"
#include "base_geom.h"
#include "roster_map.h"
#include "rules_snapshot.h"

#define ROSTER_FORMAT "tableref.roster"
#define ROSTER_VERSION 1
#define ROSTER_NAME_MAX 96
#define ROSTER_TEXT_MAX 192

/* What a mark a unit carries besides its bases' is (`units[].marks[].kind`). */
typedef enum roster_unit_mark_kind {
    ROSTER_UNIT_MARK_MAST = 0,  /* "mast": a square AprilTag held above the figures on a clear rod on a base */
} roster_unit_mark_kind;

/*
 * A mark a unit carries besides its bases' (`units[].marks[]`,
 * docs/formats.md). A mast: a square AprilTag of the roster's family carried
 * above the figures on a thin clear rod standing on one model's base (the
 * carrier), so the camera sees it whole over any figure. Its mount is a
 * square tag's: the tag's centre `offset` from the carrier's base centre in
 * its base frame, its heading the carrier's facing + `rotation`, `height`
 * the print's height above the surface the base stands on, `size` the black
 * square's edge. `sway`: how far a rod may lean the tag off its declared
 * place (mm; the reader's default 0.02 x height), added to the carrier's
 * position sigma so that no verdict depends on a straight rod.
 */
typedef struct roster_unit_mark {
    roster_unit_mark_kind kind;
    size_t unit;              /* index into units */
    size_t model;             /* index into models: the carrier, one of the unit's models */
    int tag_id;               /* unique across the roster with the board's and the models' tags */
    roster_tag_mount mount;   /* layout ROSTER_MARK_SQUARE */
    double sway;              /* mm */
} roster_unit_mark;

/* A mast's height above its base (0 .. this, mm) and how far its rod may sway (0 .. this, mm). */
#define ROSTER_MAST_MAX_HEIGHT_MM 250.0
#define ROSTER_MAST_MAX_SWAY_MM 25.0
/* The sway a roster that gives none declares: this times the mast's height. */
#define ROSTER_MAST_SWAY_PER_MM 0.02

typedef struct roster_model {
    char id[ROSTER_ID_MAX];
    int tag_id;
    size_t unit;        /* index into units */
    int file, rank;     /* nominal slot from the listing order and the unit's files */
    double base_width, base_depth;  /* mm, the model's own base when not its unit's; 0 otherwise */
    bool attachable;    /* an Attachable Model (a character, which may join a unit) */
    char name[ROSTER_NAME_MAX];  /* "Standard Bearer"; "" when the model is named by its unit */
} roster_model;

typedef struct roster_unit {
    char id[ROSTER_ID_MAX];
    char name[ROSTER_NAME_MAX];            /* as the army list writes it ("Goblin Rabble"); "" when not given */
    bool character;
    char side[ROSTER_ID_MAX];
    double base_width, base_depth;         /* mm; 0 while unknown */
    double advance_rate, march_rate, mobility;  /* mm; NAN when absent */
    char advance_dice[RULES_DICE_MAX], march_dice[RULES_DICE_MAX];  /* a rate that is dice ("3D6"); "" when not */
    unsigned status;
    int files;                              /* models per rank in the listing order */
    bool loose;                             /* models stand apart (skirmishers): each placed by its own mark */
    roster_tag_mount mount;
    bool layout_given;                      /* the roster names its marks' layout (`tag.layout`) */
    size_t first_model, n_models;           /* range in the roster's models */
    /* For people (written by `roster import`, kept as read): a character's mount, the profile's Height and
     * Type ("" when not given), a round base (base_mm is then its diameter twice). */
    char mount_name[ROSTER_NAME_MAX], height[24], type[48];
    bool round_base;
} roster_unit;

/* The army's header `roster import` writes (docs/formats.md), for people. */
typedef struct roster_army {
    bool present;
    char name[ROSTER_NAME_MAX], player[ROSTER_NAME_MAX], game_system[ROSTER_NAME_MAX];
    int points;          /* 0: not given */
    int slot;            /* 1 or 2; 0: not given */
    char tag_ids[ROSTER_NAME_MAX];   /* in words: "even IDs from 10, skipping 300-399" */
    char source[512], source_format[32];  /* the list it came from ("": not given) */
} roster_army;

/* Bits of roster_unresolved.missing, in the order the format lists them. */
enum {
    ROSTER_MISSING_MODELS = 1u << 0,
    ROSTER_MISSING_BASE = 1u << 1,
    ROSTER_MISSING_ADVANCE = 1u << 2,
    ROSTER_MISSING_MARCH = 1u << 3,
};

/* A value the list, the catalogue and the user did not give (`unresolved[]`). */
typedef struct roster_unresolved {
    char unit[ROSTER_ID_MAX], name[ROSTER_NAME_MAX];
    unsigned missing;    /* ROSTER_MISSING_* */
    char why[ROSTER_TEXT_MAX], where[ROSTER_TEXT_MAX];
} roster_unresolved;

typedef struct roster_file {
    char family[32];
    double board_width, board_depth;  /* mm */
    roster_unit *units;
    size_t n_units;
    roster_model *models;
    size_t n_models;
    roster_board_tag *board_tags;
    size_t n_board_tags;
    roster_unit_mark *marks;          /* every unit's `marks`, in the order read or added (roster_add_mark) */
    size_t n_marks;
    roster_army army;
    roster_unresolved *unresolved;
    size_t n_unresolved;
} roster_file;

/* An empty roster with room for that many units, models and board tags (family "tag36h11"); NULL when out
 * of memory. */
roster_file *roster_new(size_t units, size_t models, size_t board_tags);
void roster_free(roster_file *r);
/* A deep copy; NULL when out of memory. */
roster_file *roster_clone(const roster_file *r);

/* Adds a mark (a copy of *m); -1 when out of memory. */
int roster_add_mark(roster_file *r, const roster_unit_mark *m);
/* How many marks unit `unit` carries. */
size_t roster_unit_mark_count(const roster_file *r, size_t unit);
/* The mark carrying tag `id`, or NULL. */
const roster_unit_mark *roster_find_mark_tag(const roster_file *r, int id);

/* Reads and checks (roster_read.c). NULL with err naming the file and the field. */
roster_file *roster_load(const char *path, base_error *err);
/* From parsed JSON; `name` prefixes errors. Checks IDs are unique. */
roster_file *roster_from_json(const cJSON *root, const char *name, base_error *err);

/* Writes (roster_write.c): everything the roster holds, the army's header and `unresolved` included. */
cJSON *roster_to_json(const roster_file *r);
int roster_save(const roster_file *r, const char *path, base_error *err);

/*
 * `tableref tags layout` (roster_layout.c): the marks of every unit whose
 * layout the roster does not name (every unit with `redo`) laid out from
 * its bases: a rim label (roster_mark.h) of roster_rim_cell_for's cells on
 * every base it fits, the unit's and each model's own; a square tag on a
 * round base or one too small, at the size it has (or, when it has none,
 * the largest that leaves 2.5 mm at the front and rear and 0.8 mm at the
 * sides, as `roster import` sizes them).
 *
 * And masts (roster_unit_mark) for every unit that carries no mark yet
 * (`redo` keeps the masts a roster has: their tag ids stay): a ranked unit
 * carries two, on its front rank's first and last file (one when it has one
 * file); a loose unit (skirmishers), a character and a monster (a base 40 mm
 * or wider) one on every model. Each stands at the base centre, unturned,
 * its tag roster_mast_size_for's size, at roster_mast_height_for's height,
 * swaying the default 0.02 x height. Its tag id is the next free one above
 * the highest the roster uses (board, models, marks), `id_step` apart (0:
 * 2 when every model's tag id has one parity, an army slot's as `roster
 * import` gives them, else 1), skipping [skip_lo, skip_hi] (the calibration
 * target's 300-399 by default). *changed
 * counts the units laid out (rim or square, or given masts).
 * 0; -1 with err when the family has no free id left (the roster is then
 * as it was before masts: the bases' layout kept) or out of memory.
 */
typedef struct roster_layout_options {
    bool redo;             /* lay out every unit's bases, also those whose layout the roster names */
    bool no_masts;         /* give no masts (`tags layout --no-masts`) */
    int id_step;           /* masts' ids this far apart; 0: the models' parity kept when they have one */
    int skip_lo, skip_hi;  /* ids never given a mast (skip_hi < skip_lo: none) */
} roster_layout_options;

/* The ids roster_layout_marks never gives a mast: the calibration target's. */
#define ROSTER_LAYOUT_SKIP_LO 300
#define ROSTER_LAYOUT_SKIP_HI 399

int roster_layout_marks_with(roster_file *r, const roster_layout_options *o, size_t *changed, base_error *err);
/* roster_layout_marks_with(r, {redo, masts, parity kept, 300-399 skipped}, changed, NULL). */
int roster_layout_marks(roster_file *r, bool redo, size_t *changed);
/* A mast's tag on a w x d base (round: a disc of diameter w): 20 mm on bases up to 25 mm a side, 24 mm on larger
 * ones narrower than 50 mm (25x50, 40x40), 30 mm on 50 mm and wider (50x50, 50x100). */
double roster_mast_size_for(double w, double d);
/*
 * A mast's height on a w x d base: the tallest figure the renderer
 * (datasets/ds_figures.c, real miniatures) stands on such a base + 15 mm,
 * so the tag clears every head and shoulder on the carrier and its
 * neighbours (a spear or a banner may still cross it): infantry (under 40 mm,
 * not oblong) 34 + 15 = 49 mm; cavalry (depth at least 1.8 x width)
 * 0.972 x depth + 15 (25x50: 63.6 mm); a monster on 40 mm up to 50 mm
 * 48 + 15 = 63 mm; a beast on 50 mm or more 0.6 x depth + 15, at least 63 mm
 * (50x50: 63 mm, 50x100: 75 mm).
 */
double roster_mast_height_for(double w, double d);
/* The square tag `roster import` gives a w x d base (round: a disc of diameter w): the largest black square, in
 * 0.5 mm steps up to 50 mm, leaving 2.5 mm at the front and rear and 0.8 mm at the sides round its white border
 * (tag36h11: one cell of eight). 20x20: 12 mm, 25x25: 16 mm, 25x50: 18.5 mm. */
double roster_square_tag_size(double w, double d, bool round);

/* The model carrying tag `id`, or NULL. */
const roster_model *roster_find_model_tag(const roster_file *r, int id);
/* The board reference tag `id`, or NULL. */
const roster_board_tag *roster_find_board_tag(const roster_file *r, int id);

/* A snapshot with the board and every unit (side, base, rates, status) but no models yet. Caller frees. */
rules_snapshot *roster_new_snapshot(const roster_file *r);
/* Copies what the roster knows of one model into its snapshot model (its own base, attachable). */
void roster_model_apply(const roster_model *rm, rules_model *m);

/* What vision takes (roster_map.h): a copy of the camera's part and the units' snapshot. NULL with err
 * when out of memory. */
roster_map *roster_map_new(const roster_file *r, base_error *err);

#endif
