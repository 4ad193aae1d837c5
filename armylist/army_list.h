/*
 * army_list: an army list as the players wrote it, read from the exports of
 * New Recruit and BattleScribe, reduced to what a referee needs: the units,
 * their model counts, base sizes, Advance and March Rates, Height, Type and
 * whether a unit is a character. Pure C11 over libxml2, libzip and cJSON.
 *
 * How to use:
 *   base_error err;
 *   army_file *f = army_file_read("list.rosz", &err);     // .ros .rosz NR JSON, NR report, NR text
 *   if (!f) { fprintf(stderr, "%s\n", err.msg); return 2; }  // "list.rosz: not a zip archive ..."
 *   army_catalogue *cat = army_catalogue_load(paths, n, &err);  // optional: BSData .gst/.cat
 *   army_file_fill(f, cat);                                  // missing values from the army's data
 *   for (size_t a = 0; a < f->n_armies; a++)
 *     for (size_t u = 0; u < f->armies[a].n_units; u++)
 *       ... f->armies[a].units[u].name, .models, .adv_in, .groups[g].base ...
 *   army_catalogue_free(cat);
 *   army_file_free(f);
 *
 * Nothing is invented. A value the list does not give and the catalogue
 * does not know is NAN (rates), 0 (model count) or an empty base, and the
 * unit says so in `missing`; `army_unit_missing()` names it. The caller asks
 * for it or flags it. Values are matched on profile and characteristic
 * names (Adv, Mar, Base, Height, Type), never on the data files' ids.
 */
#ifndef ARMY_LIST_H
#define ARMY_LIST_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>

#include "base_error.h"
#include "rules_dice.h"

#define ARMY_NAME_MAX 96
#define ARMY_TEXT_MAX 192
/* Limits checked before any arithmetic on what a list says (a hostile list must not overflow a count):
 * models in one selection or one unit (the largest T9A unit is a few dozen), units in one file
 * (a 30-list tournament pack holds ~600). */
#define ARMY_MAX_MODELS 1000
#define ARMY_MAX_UNITS 10000
#define ARMY_MAX_SAID 100

/* A base as printed in army books: front x side in mm, or a round base's diameter. */
typedef struct army_base {
    double front_mm, side_mm; /* 0 when unknown */
    bool round;               /* "60Ø": front = side = the diameter */
} army_base;

/* Where a value came from, for the import report. */
typedef enum army_origin {
    ARMY_FROM_NONE = 0, /* unknown */
    ARMY_FROM_LIST,     /* the roster's own profiles */
    ARMY_FROM_CATALOGUE,/* the army's data (.gst/.cat) */
    ARMY_FROM_USER,     /* answered at the prompt or given with --set */
} army_origin;
const char *army_origin_word(army_origin o);

/* Models of one kind in a unit (a rank-and-file model, its champion, a character alone). */
typedef struct army_group {
    char name[ARMY_NAME_MAX];
    int count;
    army_base base;
    army_origin base_from;
} army_group;

/* Bits of army_unit.missing. */
enum {
    ARMY_MISSING_COUNT = 1u << 0,
    ARMY_MISSING_BASE = 1u << 1,
    ARMY_MISSING_ADV = 1u << 2,
    ARMY_MISSING_MAR = 1u << 3,
};

typedef struct army_unit {
    char name[ARMY_NAME_MAX];      /* "Goblin Rabble" */
    char mount[ARMY_NAME_MAX];     /* a character's mount, when the list names one with its own profile */
    bool character;
    int models;                    /* total models; 0 when unknown */
    army_group *groups;
    size_t n_groups;
    double adv_in, mar_in;         /* NAN when unknown or not a fixed rate */
    /* Random movement: a rate that is dice ("3D6", rules_dice.h; "" when not), judged against the roll a player
     * declares; and "Mar -", a profile that gives no March Rate (the unit never Marches). Neither is missing. */
    char adv_dice[RULES_DICE_MAX], mar_dice[RULES_DICE_MAX];
    bool mar_none;
    army_origin rates_from;
    char height[24], type[48];     /* "Standard", "Infantry"; "" unknown */
    unsigned missing;              /* ARMY_MISSING_* still unknown after army_file_fill */
    char note[ARMY_TEXT_MAX];      /* why a value is unknown: "Adv is 3D6\" (random movement)" */
    char where[ARMY_TEXT_MAX];     /* where in the file: "line 7", "force 1, selection 3" */
    char options[ARMY_TEXT_MAX];   /* the options as listed (text lists), for the mount search */
    int points;                    /* its cost as listed (text lists), 0 when not given */
    int points_units;              /* units those points pay for ("3 x 10 Corsairs": 3, on the first); 0 means 1 */
    double points_lo, points_hi;   /* the points its model count allows by the catalogue's costs (army_costs.h);
                                      both 0 when not checked, hi INFINITY when the data sets no upper bound */
    bool points_misfit;            /* its points cannot be made from its model count: said in `said` */
    char said[2 * ARMY_TEXT_MAX];  /* what had to be assumed or chosen, said to the user: "count 15 read from ..." */
} army_unit;

typedef struct army_list {
    char name[ARMY_NAME_MAX];      /* the army: "Orcs and Goblins" */
    char player[ARMY_NAME_MAX];    /* "" when the file does not say */
    char game_system[ARMY_NAME_MAX];
    int points;                    /* total as listed, 0 unknown */
    int line;                      /* text lists: the line of its header (or first unit), 0 otherwise */
    int player_line, total_line;   /* text lists: the lines its player and its total were read from (0: none, or
                                      the header's own line) */
    army_unit *units;
    size_t n_units;
} army_list;

typedef enum army_format {
    ARMY_FORMAT_ROS = 0,     /* BattleScribe/New Recruit roster XML */
    ARMY_FORMAT_ROSZ,        /* the same, zipped */
    ARMY_FORMAT_NR_JSON,     /* New Recruit's JSON roster (the roster schema in JSON) */
    ARMY_FORMAT_NR_REPORT,   /* a New Recruit tournament report (players[].exported_list) */
    ARMY_FORMAT_TEXT,        /* New Recruit's text export */
} army_format;
const char *army_format_word(army_format f);

typedef struct army_file {
    char path[512];
    army_format format;
    army_list *armies;
    size_t n_armies;
    char (*said)[2 * ARMY_TEXT_MAX]; /* lines not read and lists that could not be: never dropped silently */
    size_t n_said;
} army_file;

/* Reads any of the formats above, told apart by content. NULL with a message naming the file. */
army_file *army_file_read(const char *path, base_error *err);
/* The same from memory; `name` names it in errors. */
army_file *army_file_parse(const void *data, size_t size, const char *name, base_error *err);
void army_file_free(army_file *f);

/* "base size, Advance Rate" for the bits of u->missing; "" when complete. */
const char *army_unit_missing(const army_unit *u, char *buf, size_t cap);
/* Recomputes u->missing from the values. */
void army_unit_update_missing(army_unit *u);

/* ---- values as army books write them --------------------------------- */

/*
 * A movement rate in inches: `7"`, `7`, `6" (8")` (ground, fly in brackets),
 * `Ground 7", Fly 7"`, typographic quotes. 1 with *out set, 0 when the text
 * is not a fixed rate (`3D6"`, `-`, `C`, empty: *why says which), -1 never.
 */
int army_parse_rate(const char *text, double *out, const char **why);
/* `20×20`, `20x20`, `25 x 50`, `60Ø`, `40mm round`: 1 with *out set, 0 when not a base. */
int army_parse_base(const char *text, army_base *out);
/* "goblin-rabble" from "Goblin Rabble"; ASCII letters and digits, '-' between words. */
void army_slug(const char *name, char *out, size_t cap);

/* ---- building (used by the readers) ------------------------------------ */
/* Copies a name or text from a list into a field: invalid UTF-8 bytes written as "\xNN", cut on a
 * character boundary, so what is stored is always valid UTF-8. */
void army_name_copy(char *dst, size_t cap, const char *src);
/* The same for the first n bytes of src (a span of a line). */
void army_span_copy(char *dst, size_t cap, const char *src, size_t n);
army_list *army_file_add_army(army_file *f, const char *name);
army_unit *army_list_add_unit(army_list *a, const char *name);
/* Adds a message to f->said (at most ARMY_MAX_SAID; then one "and more" line). */
void army_file_say(army_file *f, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends "; " and the printf-style text to the NUL-terminated buf of cap bytes, cut on a character
 * boundary; nothing when buf is (nearly) full. The one way a unit's notes grow. */
void army_text_appendv(char *buf, size_t cap, const char *fmt, va_list ap);
/* Appends to u->said ("; " between), cut between characters when it is full. */
void army_unit_say(army_unit *u, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends to u->note the same way (what could not be read: shown as the unit's note). */
void army_unit_note(army_unit *u, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
army_group *army_unit_add_group(army_unit *u, const char *name, int count);
/* Room for one more element in an array of n grown by doubling (linear time over many appends):
 * the array, moved when it had to grow; NULL when out of memory (the old array is kept). */
void *army_grow(void *array, size_t n, size_t elem_size);

#endif
