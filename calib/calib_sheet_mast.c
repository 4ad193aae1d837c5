#include "calib_sheet_mast.h"

#include <math.h>
#include <stdio.h>

#include "base_geom.h"
#include "base_text.h"
#include "rules_json.h"

#define GAP_MM 3.0       /* between the card and the rod guide */
#define GUIDE_MIN_MM 56  /* the rod guide's words need this much across */
#define LINE_MM 2.0      /* text height */
#define BAR_MM 1.0       /* the rod bar's thickness */

double calib_sheet_mast_card(const sheet *s, double size)
{
    return size * (s->fam->total_width + 2) / s->fam->width_at_border;
}

static double rod_length(const calib_sheet_mast *m) { return m->height - m->base_top; }

/* Where the rod guide goes: beside the card (1), under it (0); its bar is drawn only when it fits across. */
static int guide_beside(const sheet *s, const calib_sheet_mast *m, double room_w)
{
    const double c = calib_sheet_mast_card(s, m->size);
    return c + GAP_MM + fmax(rod_length(m), GUIDE_MIN_MM) <= room_w;
}

void calib_sheet_mast_size(const sheet *s, const calib_sheet_mast *m, double room_w, double *w, double *h)
{
    const double c = calib_sheet_mast_card(s, m->size), len = rod_length(m);
    if (guide_beside(s, m, room_w)) {
        *w = c + GAP_MM + fmax(len, GUIDE_MIN_MM);
        *h = 2 * c;
    } else {
        *w = fmin(room_w, fmax(c, fmax(len, GUIDE_MIN_MM)));
        *h = 2 * c + GAP_MM + 4 * LINE_MM + BAR_MM + 3;
    }
}

/* The card and its backing: the tag in its quiet zone, the fold, the id and height, the mount cross. */
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
    sheet_text(s, x + 0.5, y + c + 1.2 + LINE_MM, tw, LINE_MM * 0.85, 0, 1, line);
    sheet_text(s, x + 0.5, y + 2 * c - LINE_MM - 1.0, tw, LINE_MM * 0.85, 0, 1, "rod's tip on the +");
}

/* The rod guide at (x, y), `room` mm across: what to cut, a bar of exactly the rod's length, where the hole goes. */
static void draw_guide(sheet *s, const calib_sheet_mast *m, double x, double y, double room)
{
    cairo_t *cr = s->cr;
    const double len = rod_length(m);
    char line[200];
    base_text_format(line, sizeof line, "rod: cut to %.1f mm + its hole's depth", len);
    cairo_set_source_rgb(cr, 0, 0, 0);
    sheet_text(s, x, y, room, LINE_MM, 1, 0, line);
    base_text_format(line, sizeof line, "(mast %.1f mm \xE2\x88\x92 base top %.1f mm)", m->height, m->base_top);
    sheet_text(s, x, y + LINE_MM + 0.4, room, LINE_MM * 0.85, 0, 0, line);
    const double by = y + 2 * LINE_MM + 2.5;
    if (len <= room) {
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_rectangle(cr, x, by, len, BAR_MM);
        cairo_fill(cr);
        /* Ticks every 5 mm under the bar, longer at the ends and every 10 mm; drawn inside its length. */
        cairo_set_line_width(cr, 0.2);
        for (int k = 0; 5.0 * k <= len + 1e-9; k++) {
            const double tx = fmin(fmax(x + 5.0 * k, x + 0.1), x + len - 0.1);
            cairo_move_to(cr, tx, by + BAR_MM);
            cairo_line_to(cr, tx, by + BAR_MM + (k % 2 == 0 ? 1.6 : 0.9));
        }
        cairo_move_to(cr, x + len - 0.1, by + BAR_MM);
        cairo_line_to(cr, x + len - 0.1, by + BAR_MM + 2.2);
        cairo_stroke(cr);
        if (s->rods) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddNumberToObject(r, "page", s->page);
            base_json_add_number(r, "x_mm", x, 4);
            base_json_add_number(r, "y_mm", by + BAR_MM / 2, 4);
            base_json_add_number(r, "length_mm", len, 4);
            cJSON_AddStringToObject(r, "model", m->model);
            cJSON_AddNumberToObject(r, "tag_id", m->tag_id);
            cJSON_AddItemToArray(s->rods, r);
        }
    } else {
        sheet_text(s, x, by - 0.5, room, LINE_MM * 0.85, 0, 0, "longer than the page: measure it with a ruler");
    }
    if (fabs(m->offset_x) > 0.05 || fabs(m->offset_y) > 0.05) {
        base_text_format(line, sizeof line, "hole: %.1f mm forward, %.1f mm left of the base centre", m->offset_x,
                         m->offset_y);
        sheet_text(s, x, by + BAR_MM + 2.8, room, LINE_MM * 0.85, 0, 0, line);
    } else {
        sheet_text(s, x, by + BAR_MM + 2.8, room, LINE_MM * 0.85, 0, 0, "hole: at the base's centre");
    }
}

void calib_sheet_mast_draw(sheet *s, const calib_sheet_mast *m, double x, double y, double room_w)
{
    const double c = calib_sheet_mast_card(s, m->size);
    draw_card(s, m, x, y);
    cJSON *t = sheet_layout_tag(s, m->tag_id, x + c / 2, y + c / 2, m->size, m->rotation, "mast", m->model);
    if (t) {
        base_json_add_number(t, "height_mm", m->height, 3);
        base_json_add_number(t, "card_mm", c, 4);
    }
    if (guide_beside(s, m, room_w))
        draw_guide(s, m, x + c + GAP_MM, y + 1.0, fmax(rod_length(m), GUIDE_MIN_MM));
    else
        draw_guide(s, m, x, y + 2 * c + GAP_MM, room_w);
}
