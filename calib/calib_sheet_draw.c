#include "calib_sheet_draw.h"

#include <stdlib.h>

#include <pango/pangocairo.h>

#include "base_geom.h"
#include "base_text.h"
#include "rules_json.h"

/* ---- text ------------------------------------------------------------------ */

/* A one-line layout of `t` at `size_mm`, unhinted (metrics hinted at screen sizes space the letters oddly at these
 * small millimetre sizes). */
static PangoLayout *text_layout(sheet *s, double size_mm, int bold, const char *t)
{
    PangoLayout *l = pango_cairo_create_layout(s->cr);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(pango_layout_get_context(l), fo);
    cairo_font_options_destroy(fo);
    pango_context_set_round_glyph_positions(pango_layout_get_context(l), FALSE);
    pango_layout_context_changed(l);
    PangoFontDescription *fd = pango_font_description_from_string(bold ? "DejaVu Sans Bold" : "DejaVu Sans");
    pango_font_description_set_absolute_size(fd, size_mm * PANGO_SCALE);
    pango_layout_set_font_description(l, fd);
    pango_font_description_free(fd);
    pango_layout_set_text(l, t, -1);
    return l;
}

/* Text of height `size_mm` at (x, y) (top-left), at most `width` wide (ellipsized), aligned left/centre. */
void sheet_text(sheet *s, double x, double y, double width, double size_mm, int bold, int centre, const char *t)
{
    /* Pango warns on invalid UTF-8 and shows nothing, and draws a control as a box: what comes from a
     * roster is made valid and visible here ("\x1b"). */
    char *valid = base_text_escape_visible(t);
    PangoLayout *l = text_layout(s, size_mm, bold, valid ? valid : t);
    pango_layout_set_width(l, (int)(width * PANGO_SCALE));
    pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_MIDDLE);
    pango_layout_set_alignment(l, centre ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT);
    cairo_move_to(s->cr, x, y);
    pango_cairo_show_layout(s->cr, l);
    g_object_unref(l);
    free(valid);
}

double sheet_text_fit(sheet *s, double width, double size_mm, double min_mm, int bold, const char *t)
{
    char *valid = base_text_escape_visible(t);
    PangoLayout *l = text_layout(s, size_mm, bold, valid ? valid : t);
    int w_pango, h_pango;
    pango_layout_get_size(l, &w_pango, &h_pango);
    g_object_unref(l);
    free(valid);
    const double w = (double)w_pango / PANGO_SCALE;
    return w <= width ? size_mm : fmax(min_mm, size_mm * width / w * 0.98);
}

/* ---- a tag ----------------------------------------------------------------- */

/* The tag's black cells, centred at (cx, cy), black square `size`, turned `rot` (rad, counter-clockwise on the board). */
void sheet_draw_tag(sheet *s, int id, double cx, double cy, double size, double rot)
{
    image_u8_t *bm = apriltag_to_image(s->fam, (uint32_t)id);
    if (!bm)
        return;
    const int wb = s->fam->width_at_border, tw = s->fam->total_width;
    const double cell = size / wb, half = tw * cell / 2;
    cairo_t *cr = s->cr;
    cairo_save(cr);
    cairo_translate(cr, cx, cy);
    cairo_rotate(cr, -rot); /* the page's y runs down: a counter-clockwise turn on the board is clockwise here */
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (int y = 0; y < tw; y++)
        for (int x = 0; x < tw; x++)
            if (!bm->buf[y * bm->stride + x])
                cairo_rectangle(cr, -half + x * cell, -half + y * cell, cell, cell);
    cairo_fill(cr);
    cairo_restore(cr);
    image_u8_destroy(bm);
}

cJSON *sheet_layout_tag(sheet *s, int id, double cx, double cy, double size, double rot, const char *key,
                        const char *who)
{
    if (!s->tags)
        return NULL;
    cJSON *t = cJSON_CreateObject();
    cJSON_AddNumberToObject(t, "id", id);
    cJSON_AddNumberToObject(t, "page", s->page);
    base_json_add_number(t, "x_mm", cx, 4);
    base_json_add_number(t, "y_mm", cy, 4);
    cJSON_AddNumberToObject(t, "size_mm", size);
    base_json_add_number(t, "rotation_deg", base_rad_to_deg(rot), 3);
    cJSON_AddStringToObject(t, key, who);
    cJSON_AddItemToArray(s->tags, t);
    return t;
}
