#include "calib_sheet_mast.h"

#include <math.h>
#include <stdio.h>

#include "base_geom.h"
#include "base_text.h"
#include "rules_json.h"

#define GAP_MM 2.0       /* between the card and the rod bar */
#define LINE_MM 2.0      /* text height */
#define SMALL_MM 1.7     /* the smaller lines */
#define BAR_MM 1.0       /* the rod bar's thickness */
#define TICKS_MM 1.8     /* room for the ticks beside the bar */

double calib_sheet_mast_card(const sheet *s, double size)
{
    return size * (s->fam->total_width + 2) / s->fam->width_at_border;
}

static double rod_length(const calib_sheet_mast *m) { return m->height - m->base_top; }

void calib_sheet_mast_size(const sheet *s, const calib_sheet_mast *m, double max_h, double *w, double *h)
{
    const double c = calib_sheet_mast_card(s, m->size), len = rod_length(m);
    *w = c + GAP_MM + BAR_MM + TICKS_MM + 0.6 + 2 * LINE_MM + 0.6;
    *h = len <= max_h ? fmax(2 * c, len) : 2 * c;
}

/* The card and its backing: the tag in its quiet zone, the fold, the id and height, the mount cross, the hole. */
static void draw_card(sheet *s, const calib_sheet_mast *m, double x, double y)
{
    cairo_t *cr = s->cr;
    const double c = calib_sheet_mast_card(s, m->size);
    /* Cut line round card and backing, grey and thin as a label's. */
    cairo_new_path(cr);
    cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
    cairo_set_line_width(cr, 0.12);
    cairo_rectangle(cr, x, y, c, 2 * c);
    cairo_stroke(cr);
    sheet_draw_tag(s, m->tag_id, x + c / 2, y + c / 2, m->size, m->rotation);
    /* The fold: dash-dot, darker than a cut line, along the card's rear edge. */
    const double dash[4] = {1.6, 0.6, 0.3, 0.6};
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    cairo_set_line_width(cr, 0.2);
    cairo_set_dash(cr, dash, 4, 0);
    cairo_move_to(cr, x, y + c);
    cairo_line_to(cr, x + c, y + c);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    /* The mount cross on the backing: folded under, it lies under the tag's centre. */
    const double mx = x + c / 2, my = y + 1.5 * c, arm = fmin(3.0, c / 8);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.25);
    cairo_move_to(cr, mx - arm, my);
    cairo_line_to(cr, mx + arm, my);
    cairo_move_to(cr, mx, my - arm);
    cairo_line_to(cr, mx, my + arm);
    cairo_stroke(cr);
    cairo_arc(cr, mx, my, arm / 2.5, 0, 2 * BASE_PI);
    cairo_stroke(cr);
    char line[200];
    const double tw = c - 1.0;
    base_text_format(line, sizeof line, "%.*s \xC2\xB7 #%d", (int)base_text_cut(m->model, 120), m->model, m->tag_id);
    const double name_mm = sheet_text_fit(s, tw, LINE_MM, 1.2, 1, line);
    sheet_text(s, x + 0.5, y + c + 1.0 + (LINE_MM - name_mm) / 2, tw, name_mm, 1, 1, line);
    base_text_format(line, sizeof line, "mast %g mm \xC2\xB7 fold under", round(m->height * 10) / 10);
    sheet_text(s, x + 0.5, y + c + 1.2 + LINE_MM, tw, SMALL_MM, 0, 1, line);
    sheet_text(s, x + 0.5, y + 2 * c - 2 * SMALL_MM - 1.4, tw, SMALL_MM, 0, 1, "rod's tip on the +");
    if (fabs(m->offset_x) > 0.05 || fabs(m->offset_y) > 0.05)
        base_text_format(line, sizeof line, "hole %.1f fwd, %.1f left of centre", m->offset_x, m->offset_y);
    else
        base_text_format(line, sizeof line, "hole at the base's centre");
    sheet_text(s, x + 0.5, y + 2 * c - SMALL_MM - 1.0, tw, SMALL_MM, 0, 1, line);
}

/* The rod guide down the card's right side from (x, y): a bar of exactly the rod's length with ticks every 5 mm,
 * and beside it, turned to read upwards, what to cut; only the words when the rod is longer than `max_h`. */
static void draw_guide(sheet *s, const calib_sheet_mast *m, double x, double y, double h, double max_h)
{
    cairo_t *cr = s->cr;
    const double len = rod_length(m);
    cairo_set_source_rgb(cr, 0, 0, 0);
    if (len <= max_h) {
        cairo_rectangle(cr, x, y, BAR_MM, len);
        cairo_fill(cr);
        cairo_set_line_width(cr, 0.2);
        for (int k = 0; 5.0 * k <= len + 1e-9; k++) {
            const double ty = fmin(fmax(y + 5.0 * k, y + 0.1), y + len - 0.1);
            cairo_move_to(cr, x + BAR_MM, ty);
            cairo_line_to(cr, x + BAR_MM + (k % 2 == 0 ? 1.4 : 0.8), ty);
        }
        cairo_move_to(cr, x + BAR_MM, y + len - 0.1);
        cairo_line_to(cr, x + BAR_MM + TICKS_MM, y + len - 0.1);
        cairo_stroke(cr);
        if (s->rods) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddNumberToObject(r, "page", s->page);
            base_json_add_number(r, "x_mm", x + BAR_MM / 2, 4);
            base_json_add_number(r, "y_mm", y, 4);
            base_json_add_number(r, "length_mm", len, 4);
            cJSON_AddStringToObject(r, "model", m->model);
            cJSON_AddNumberToObject(r, "tag_id", m->tag_id);
            cJSON_AddItemToArray(s->rods, r);
        }
    }
    char line[200], why[120];
    base_text_format(line, sizeof line, "rod %.1f mm + its hole%s", len, len <= max_h ? "" : " (longer than the page)");
    base_text_format(why, sizeof why, "mast %g \xE2\x88\x92 base top %g mm", round(m->height * 10) / 10,
                     round(m->base_top * 10) / 10);
    /* Turned a quarter anticlockwise: read from the bottom up, along the bar. */
    cairo_save(cr);
    cairo_translate(cr, x + BAR_MM + TICKS_MM + 0.6, y + h);
    cairo_rotate(cr, -BASE_PI / 2);
    sheet_text(s, 0, 0, h, LINE_MM * 0.9, 1, 0, line);
    sheet_text(s, 0, LINE_MM, h, SMALL_MM, 0, 0, why);
    cairo_restore(cr);
}

void calib_sheet_mast_draw(sheet *s, const calib_sheet_mast *m, double x, double y, double max_h)
{
    const double c = calib_sheet_mast_card(s, m->size);
    double w, h;
    calib_sheet_mast_size(s, m, max_h, &w, &h);
    draw_card(s, m, x, y);
    cJSON *t = sheet_layout_tag(s, m->tag_id, x + c / 2, y + c / 2, m->size, m->rotation, "mast", m->model);
    if (t) {
        base_json_add_number(t, "height_mm", m->height, 3);
        base_json_add_number(t, "card_mm", c, 4);
    }
    draw_guide(s, m, x + c + GAP_MM, y, h, max_h);
}
