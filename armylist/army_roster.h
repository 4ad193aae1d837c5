/*
 * army_roster: an imported army list turned into tableref's roster
 * ("tableref.roster" v1, docs/formats.md): a tag for every model, sized to
 * its base, the board's corner tags, and everything still unknown listed in
 * "unresolved" instead of guessed. The roster is made as roster/'s type and
 * written by roster/ (roster_to_json, roster_save): the format has one
 * writer.
 *
 * How to use:
 *   army_roster_options o; army_roster_options_default(&o);
 *   o.army_slot = 2;                                   // the second army at the table
 *   roster_file *r = army_roster_of(&f->armies[0], f, &o, &err);
 *   if (!r) { fprintf(stderr, "%s\n", err.msg); return 2; }
 *   roster_save(r, "army.json", &err);                 // roster.h
 *   roster_free(r);
 *   cJSON *j = army_roster_json(&f->armies[0], f, &o, &err);   // or the same as JSON (roster_to_json)
 *   o.lay_out_marks = true;                            // rim labels where they fit (`tags layout`), as
 *                                                      // `roster import` does unless --square-tags
 *
 * Tag IDs: the board's corner tags are 0-3. Army slot 1 takes the even IDs
 * from 10, slot 2 the odd IDs from 11, both skipping 300-399 (the
 * calibration target of `tableref target`); so two armies never share a
 * tag whatever their sizes, and the same army prints the same tags every
 * game. tag36h11 holds 238 models per army this way (239 in slot 1), tagStandard41h12 1000+.
 */
#ifndef ARMY_ROSTER_H
#define ARMY_ROSTER_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "army_list.h"
#include "roster.h"

typedef struct army_roster_options {
    int army_slot;              /* 1 or 2 */
    char family[32];            /* "tag36h11" (default) or "tagStandard41h12" */
    double tag_height_mm;       /* printed tag above the board: base thickness + paper; default 3.5 */
    double board_w_mm, board_d_mm;  /* default 72" x 48" */
    double corner_tag_mm;       /* corner tags' black square; default 40 */
    double corner_inset_mm;     /* corner tag centre from both edges; default 35 */
    const char *side;           /* the side's name in snapshots; NULL: army_roster_side's */
    const char *prefix;         /* prepended to every unit id (two armies with the same units); NULL none */
    bool lay_out_marks;         /* lay the marks out from the bases (roster_layout_marks, `tableref tags layout`):
                                 * rim labels where a figure covers the base; default false: square tags
                                 * (`roster import` sets it unless --square-tags). Only with tag36h11. */
    bool no_masts;              /* with lay_out_marks: no masts above the figures (`roster import --no-masts`) */
} army_roster_options;

void army_roster_options_default(army_roster_options *o);

/*
 * The side an army's units are on (rules_unit.side: units of other sides are its enemies): o->side when given,
 * else the player's name as an id ("Lasse Lindström" -> "lasse-lindstrom"), else the army's slot ("army-2").
 * Never the army's name: two lists of one army at a table (a mirror match) are each other's enemies.
 */
void army_roster_side(const army_list *a, const army_roster_options *o, char *out, size_t cap);
/* The roster of one army. NULL with a message when its models do not fit the slot's tag IDs. */
roster_file *army_roster_of(const army_list *a, const army_file *f, const army_roster_options *o, base_error *err);
/* The same written as JSON (roster_to_json). */
cJSON *army_roster_json(const army_list *a, const army_file *f, const army_roster_options *o, base_error *err);

/* The k-th model tag ID (k from 0) of army slot 1 or 2; -1 past the family's last ID. */
int army_tag_id(int slot, int k, const char *family);
/* IDs a slot holds in a family. */
int army_tag_capacity(int slot, const char *family);

/*
 * The black square (mm) of the tag printed for a base: the largest that
 * leaves, around the tag's white border, 2.5 mm at the front (the facing
 * mark) and at the rear (the model's name) and 0.8 mm at the sides; in
 * 0.5 mm steps, at most 50 mm. 0 when the base is unknown.
 */
double army_tag_size_mm(const army_base *b, const char *family);
/* Printed extent of a tag (black square + its white border) for a black square of `size`. */
double army_tag_extent_mm(double size, const char *family);

#endif
