/*
 * calib_sheet: the tags of a roster, printed to stick on the bases. Every
 * model gets a label the size of its base (front across the page, side down
 * it) holding its AprilTag at the roster's size and offset, a mark at the
 * front edge (the model's facing), its id and tag ID, and a cut line round
 * it; units are headed by their name, base and tag size. A unit with rim
 * labels (roster_mark.h) gets them instead, each the size of its base with
 * every cell where roster_rim_make puts it, the rim's front mark (a small
 * triangle at the front edge, roster_rim_on_front_mark: it stays when the
 * middle is cut out), a dashed cut line round the figure's place and a
 * larger front mark and the name inside it; the layout JSON
 * says "layout": "rim" and its cell_mm. A unit's masts (roster marks of
 * kind "mast": a tag carried above the figures on a rod) follow its labels,
 * each a card with the tag at true size in its quiet zone, a backing to fold
 * under it with the carrier's id, the mast's height and a cross where the
 * rod's tip goes, and a rod guide down its side: a bar exactly as long as
 * the rod above the base (calib_sheet_mast.h). Every page carries
 * a 100 mm check bar. The board's corner tags come on a page of their own
 * with a placement guide. Cairo PDF, text through Pango.
 *
 * How to use:
 *   calib_sheet_options o; calib_sheet_options_default(&o);   // A4
 *   calib_sheet_paper("letter", &o.paper_w_mm, &o.paper_h_mm);
 *   calib_sheet_stats st;
 *   cJSON *layout = NULL;                                       // optional: where every tag landed
 *   if (calib_sheet_write_pdf(roster, &o, "army.pdf", &st, &layout, &err) < 0) ...
 *   cJSON_Delete(layout);
 *
 * The page frame (mm): origin at the page's top-left corner, x right, y
 * down. A tag is drawn with its top row towards the label's front edge (the
 * top of the page) turned by the mount's rotation, so a label stuck with
 * its front mark at the model's front gives the heading the roster says.
 */
#ifndef CALIB_SHEET_H
#define CALIB_SHEET_H

#include <cjson/cJSON.h>

#include "base_error.h"
#include "roster.h"

typedef struct calib_sheet_options {
    double paper_w_mm, paper_h_mm;  /* default A4 portrait */
    double margin_mm;               /* unprinted border; default 12 (most printers need 5) */
    double gap_mm;                  /* between labels; default 3 */
    int board_page;                 /* 1: add the corner tags page (when the roster has board tags); default 1 */
    const char *title;              /* heading; NULL: from the roster's army */
} calib_sheet_options;

void calib_sheet_options_default(calib_sheet_options *o);
/* "a4", "letter" (any case): the page size; -1 for anything else. */
int calib_sheet_paper(const char *name, double *w_mm, double *h_mm);

typedef struct calib_sheet_stats {
    int pages, labels, masts, board_tags;
} calib_sheet_stats;

/*
 * Writes the PDF: the heading from the roster's army (roster_army, as
 * `roster import` writes it), round labels for units with `round_base`.
 * When `layout` is not NULL it gets a
 * new JSON object: {"paper_mm": [w, h], "tags": [{"id", "page", "x_mm",
 * "y_mm", "size_mm", "rotation_deg", "model"|"board"|"mast"}] (a mast's
 * also "height_mm" and "card_mm"), "check_bars": [{"page", "x_mm", "y_mm",
 * "length_mm"}], "rods": [{"page", "x_mm", "y_mm", "length_mm", "model",
 * "tag_id"}]} (page from 1, centres in the page frame; a rod's bar runs down
 * the page from its top end, x the middle of the bar). -1 with a message when a label does not fit the page or the file
 * cannot be written.
 */
int calib_sheet_write_pdf(const roster_file *r, const calib_sheet_options *o, const char *path, calib_sheet_stats *stats,
                          cJSON **layout, base_error *err);

#endif
