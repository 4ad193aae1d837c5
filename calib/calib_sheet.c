#include "base_file.h"
#include "base_text.h"
#include "calib_sheet.h"
#include "calib_sheet_draw.h"
#include "calib_sheet_mast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>
#include <apriltag/tagStandard41h12.h>
#include <cairo-pdf.h>
#include <cairo.h>
#include <pango/pangocairo.h>

#include "base_geom.h"
#include "rules_json.h"

/* Room a label keeps around its tag: the front mark and the name, as the importer sizes tags. */
#define END_MM 2.5
#define NAME_MM 1.5   /* name text height */
#define HEAD_MM 7.0   /* a unit's heading line */
#define BAR_ZONE_MM 10.0

void calib_sheet_options_default(calib_sheet_options *o)
{
    *o = (calib_sheet_options){.paper_w_mm = 210, .paper_h_mm = 297, .margin_mm = 12, .gap_mm = 3, .board_page = 1};
}

int calib_sheet_paper(const char *name, double *w_mm, double *h_mm)
{
    if (strcasecmp(name, "a4") == 0)
        *w_mm = 210, *h_mm = 297;
    else if (strcasecmp(name, "letter") == 0)
        *w_mm = 215.9, *h_mm = 279.4;
    else
        return -1;
    return 0;
}


/* ---- pages ---------------------------------------------------------------- */

static void check_bar(sheet *s)
{
    const calib_sheet_options *o = s->o;
    const double x = o->margin_mm, y = o->paper_h_mm - o->margin_mm - 4, len = 100;
    cairo_t *cr = s->cr;
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, x, y, len, 1.0);
    cairo_fill(cr);
    cairo_set_line_width(cr, 0.2);
    for (int k = 0; k <= 10; k++) {
        cairo_move_to(cr, x + 10 * k + (k == 10 ? -0.1 : k == 0 ? 0.1 : 0), y - (k % 5 == 0 ? 2.0 : 1.0));
        cairo_line_to(cr, x + 10 * k + (k == 10 ? -0.1 : k == 0 ? 0.1 : 0), y);
        cairo_stroke(cr);
    }
    sheet_text(s, x + len + 3, y - 2.2, o->paper_w_mm - 2 * o->margin_mm - len - 3, 2.4, 0, 0,
         "\xE2\x86\x90 100 mm: check it with a ruler (print at actual size)");
    if (s->bars) {
        cJSON *b = cJSON_CreateObject();
        cJSON_AddNumberToObject(b, "page", s->page);
        cJSON_AddNumberToObject(b, "x_mm", x);
        cJSON_AddNumberToObject(b, "y_mm", y + 0.5);
        cJSON_AddNumberToObject(b, "length_mm", len);
        cJSON_AddItemToArray(s->bars, b);
    }
}

static void new_page(sheet *s)
{
    if (s->page > 0)
        cairo_show_page(s->cr);
    s->page++;
    const calib_sheet_options *o = s->o;
    char head[320];
    base_text_format(head, sizeof head, "%s \xE2\x80\x94 page %d", s->title, s->page);
    cairo_set_source_rgb(s->cr, 0, 0, 0);
    sheet_text(s, o->margin_mm, o->margin_mm, o->paper_w_mm - 2 * o->margin_mm, 3.2, 1, 0, head);
    check_bar(s);
    s->y = o->margin_mm + 7;
}

static double page_bottom(const sheet *s) { return s->o->paper_h_mm - s->o->margin_mm - BAR_ZONE_MM; }

/* ---- a rim label ------------------------------------------------------------ */

/*
 * A rim label (roster_mark.h) filling the w x h label at (x, y): its black
 * cells where roster_rim_make puts them, and a dashed cut line round its
 * inside, the figure's place (cut it out and slip the label over the
 * figure's feet). tag36h11 codes only (checked by draw_unit).
 */
static void draw_rim(sheet *s, int id, double cell, double x, double y, double w, double h)
{
    roster_rim rim;
    base_error err;
    image_u8_t *bm = apriltag_to_image(s->fam, (uint32_t)id);
    if (!bm || roster_rim_make(w, h, cell, &rim, &err) < 0) {
        if (bm)
            image_u8_destroy(bm);
        return;
    }
    unsigned char data[36];
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++)
            data[r * 6 + c] = bm->buf[(r + 2) * bm->stride + c + 2] != 0;
    image_u8_destroy(bm);
    cairo_t *cr = s->cr;
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_new_path(cr);
    /* Base frame x forward (up the page), y left (left on the page). */
    for (size_t k = 0; k < rim.n; k++)
        if (!roster_rim_colour(&rim.cells[k], data))
            cairo_rectangle(cr, x + w / 2 - rim.cells[k].y - cell / 2, y + h / 2 - rim.cells[k].x - cell / 2, cell, cell);
    cairo_fill(cr);
    /* The front mark on the rim (roster_mark.h): a triangle at the front edge's middle pointing forward, in the
     * other colour of each front-row cell it crosses, so that it stays on the label when the middle is cut out. */
    const double mid = x + w / 2, front = y + rim.margin_y, d = ROSTER_RIM_FRONT_DEPTH * cell;
    for (size_t k = 0; k < rim.n; k++) {
        const double cl = x + w / 2 - rim.cells[k].y - cell / 2;
        if (rim.cells[k].j != 0 || cl > mid + 2 * d || cl + cell < mid - 2 * d)
            continue;
        const int white = roster_rim_colour(&rim.cells[k], data);
        cairo_save(cr);
        cairo_rectangle(cr, cl, front, cell, cell);
        cairo_clip(cr);
        cairo_set_source_rgb(cr, white ? 0 : 1, white ? 0 : 1, white ? 0 : 1);
        cairo_move_to(cr, mid, front);
        cairo_line_to(cr, mid + 2 * d, front + d);
        cairo_line_to(cr, mid - 2 * d, front + d);
        cairo_close_path(cr);
        cairo_fill(cr);
        cairo_restore(cr);
    }
    const double in = 2 * cell;
    const double dash[2] = {0.8, 0.6};
    cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
    cairo_set_line_width(cr, 0.12);
    cairo_set_dash(cr, dash, 2, 0);
    cairo_rectangle(cr, x + rim.margin_x + in, y + rim.margin_y + in, w - 2 * (rim.margin_x + in),
                    h - 2 * (rim.margin_y + in));
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    roster_rim_clear(&rim);
}

/* ---- a model's label ------------------------------------------------------- */

/* The label's footprint on the page: front across, side down. */
static void label_size(const roster_unit *u, const roster_model *m, double *w, double *h)
{
    *w = m->base_width > 0 ? m->base_width : u->base_width;
    *h = m->base_width > 0 ? m->base_depth : u->base_depth;
}

/* "5\"/10\"" (Advance/March in inches), "5\"/-" with one of them; "" when the roster gives neither. */
static void unit_rates(const roster_unit *u, char *out, size_t cap)
{
    char adv[16] = "-", mar[16] = "-";
    if (!isnan(u->advance_rate))
        snprintf(adv, sizeof adv, "%g\"", round(base_mm_to_in(u->advance_rate) * 10) / 10);
    if (!isnan(u->march_rate))
        snprintf(mar, sizeof mar, "%g\"", round(base_mm_to_in(u->march_rate) * 10) / 10);
    if (isnan(u->advance_rate) && isnan(u->march_rate))
        out[0] = '\0';
    else
        snprintf(out, cap, "%s/%s", adv, mar);
}

static void draw_label(sheet *s, const roster_unit *u, const roster_model *m, int round, double x, double y)
{
    double w, h;
    label_size(u, m, &w, &h);
    cairo_t *cr = s->cr;
    /* Cut line: on the label's edge, thin and grey so a slightly wide cut leaves no black. */
    cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
    cairo_set_line_width(cr, 0.12);
    cairo_new_path(cr); /* a text's current point left on the path would draw a line to the arc */
    if (round)
        cairo_arc(cr, x + w / 2, y + h / 2, w / 2, 0, 2 * BASE_PI);
    else
        cairo_rectangle(cr, x, y, w, h);
    cairo_stroke(cr);
    const bool rim = u->mount.layout == ROSTER_MARK_RIM;
    if (rim) {
        draw_rim(s, m->tag_id, u->mount.cell, x, y, w, h);
        sheet_layout_tag(s, m->tag_id, x + w / 2, y + h / 2, 0, 0, "model", m->id);
        if (s->tags) {
            cJSON *t = cJSON_GetArrayItem(s->tags, cJSON_GetArraySize(s->tags) - 1);
            cJSON_AddStringToObject(t, "layout", "rim");
            base_json_add_number(t, "cell_mm", u->mount.cell, 3);
        }
    } else {
        /* The tag: the mount's offset is in the base frame, x forward (up the page), y left (left on the page). */
        const double cx = x + w / 2 - u->mount.offset.y, cy = y + h / 2 - u->mount.offset.x;
        sheet_draw_tag(s, m->tag_id, cx, cy, u->mount.size, u->mount.rotation);
        sheet_layout_tag(s, m->tag_id, cx, cy, u->mount.size, u->mount.rotation, "model", m->id);
    }
    /* Front mark: a small triangle at the front edge's middle, pointing forward. A rim label's goes inside the
     * cut-out too, larger, with the name: the rim's own (draw_rim) is the one that stays on the stuck label. */
    const double tri = 1.4, top = rim ? y + 2 * u->mount.cell + 0.6 : y + (round ? 0.9 : 0.5);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, x + w / 2, top);
    cairo_line_to(cr, x + w / 2 - tri * 0.7, top + tri);
    cairo_line_to(cr, x + w / 2 + tri * 0.7, top + tri);
    cairo_close_path(cr);
    cairo_fill(cr);
    /* The model's id and tag ID along the rear edge; on a round label, the rates after them. */
    char name[160], rates[40];
    unit_rates(u, rates, sizeof rates);
    const char *dash = strrchr(m->id, '-');
    const char *shown = dash && dash[1] && round ? dash + 1 : m->id;
    base_text_format(name, sizeof name, "%.*s \xC2\xB7 #%d%s%s", (int)base_text_cut(shown, 120), shown, m->tag_id,
                     round && rates[0] ? " \xC2\xB7 " : "", round ? rates : "");
    /* A rim label's words inside its cut-out, where no cell is: they go with the cut-out piece. */
    const double band = rim ? 2 * u->mount.cell + 0.3 : 0;
    const double inset = round ? w * 0.22 : 0.4 + band;
    /* A rim label's cut-out is narrow (12 mm on 20x20): its name is set smaller to show whole, down to 0.8 mm. */
    const double name_mm = rim ? sheet_text_fit(s, w - 2 * inset, NAME_MM, 0.8, 0, name) : NAME_MM;
    sheet_text(s, x + inset, y + h - band - name_mm - 0.7 - (NAME_MM - name_mm) / 2, w - 2 * inset, name_mm, 0, 1,
               name);
    /* A square label's rates in its front left corner, beside the front mark, clear of the tag. */
    if (!round && !rim && rates[0])
        sheet_text(s, x + 0.4, y + 0.45, w / 2 - tri - 0.6, NAME_MM, 0, 0, rates);
}

static void draw_masts(sheet *s, const calib_sheet_mast *masts, size_t n, double *x, double *row_h,
                       calib_sheet_stats *st);

/* A unit's masts after its labels, in their row and the next (the roster's marks of kind "mast" on its models, in
 * the roster's order), packed as labels are, each block a card and its rod guide. (*x, *row_h): the row so far. */
static void draw_unit_masts(sheet *s, const roster_file *r, const roster_unit *u, double *x, double *row_h,
                            calib_sheet_stats *st)
{
    calib_sheet_mast masts[32];
    size_t n = 0;
    for (size_t k = 0; k < r->n_marks; k++) {
        const roster_unit_mark *mk = &r->marks[k];
        if (mk->kind != ROSTER_UNIT_MARK_MAST || &r->units[mk->unit] != u)
            continue;
        if (n == sizeof masts / sizeof masts[0]) { /* a unit of many loose models: draw these, then the next ones */
            draw_masts(s, masts, n, x, row_h, st);
            n = 0;
        }
        masts[n++] = (calib_sheet_mast){.model = r->models[mk->model].id, .tag_id = mk->tag_id,
                                        .size = mk->mount.size, .height = mk->mount.height,
                                        .base_top = u->mount.height, .offset_x = mk->mount.offset.x,
                                        .offset_y = mk->mount.offset.y, .rotation = mk->mount.rotation};
    }
    draw_masts(s, masts, n, x, row_h, st);
}

static void draw_masts(sheet *s, const calib_sheet_mast *masts, size_t n, double *x, double *row_h,
                       calib_sheet_stats *st)
{
    const calib_sheet_options *o = s->o;
    const double left = o->margin_mm, right = o->paper_w_mm - o->margin_mm;
    for (size_t k = 0; k < n; k++) {
        double w, h;
        const double max_h = page_bottom(s) - (o->margin_mm + 7);  /* a fresh page's room */
        calib_sheet_mast_size(s, &masts[k], max_h, &w, &h);
        if (*x + w > right && *x > left) {
            s->y += *row_h + o->gap_mm;
            *x = left, *row_h = 0;
        }
        if (s->y + h > page_bottom(s)) {
            new_page(s);
            *x = left, *row_h = 0;
        }
        calib_sheet_mast_draw(s, &masts[k], *x, s->y, max_h);
        st->masts++;
        *x += w + o->gap_mm;
        *row_h = fmax(*row_h, h);
    }
}

/* A unit: its heading, then its labels row by row, continuing on new pages. */
static int draw_unit(sheet *s, const roster_file *r, const roster_unit *u, int round, calib_sheet_stats *st,
                     base_error *err)
{
    const calib_sheet_options *o = s->o;
    const double left = o->margin_mm, right = o->paper_w_mm - o->margin_mm;
    double maxh = 0;
    for (size_t k = 0; k < u->n_models; k++) {
        double w, h;
        label_size(u, &r->models[u->first_model + k], &w, &h);
        if (w > right - left || HEAD_MM + h > page_bottom(s) - o->margin_mm - 7)
            return base_error_set(err, "unit %s: a %.0fx%.0f mm label does not fit the page", u->id, w, h);
        maxh = fmax(maxh, h);
    }
    if (u->mount.layout == ROSTER_MARK_RIM && (s->fam->total_width != 10 || s->fam->width_at_border != 8))
        return base_error_set(err, "unit %s: rim labels carry tag36h11 codes only (the roster's family is another)",
                              u->id);
    char head[400], marks[64];
    if (u->mount.layout == ROSTER_MARK_RIM)
        snprintf(marks, sizeof marks, "rim labels of %g mm cells (cut out the middle)", u->mount.cell);
    else
        snprintf(marks, sizeof marks, "%.1f mm tags", u->mount.size);
    const roster_model *first = &r->models[u->first_model], *last = &r->models[u->first_model + u->n_models - 1];
    /* The names cut first (on character boundaries) so the counts and IDs always show. */
    const char *uname = u->name[0] ? u->name : u->id;
    char rates[40];
    unit_rates(u, rates, sizeof rates);
    base_text_format(head, sizeof head,
             "%.*s (%.*s)%s \xE2\x80\x94 %zu model%s, %.0f\xC3\x97%.0f mm base%s, %s, IDs %d\xE2\x80\x93%d, "
             "Adv/Mar %s",
             (int)base_text_cut(uname, 150), uname, (int)base_text_cut(u->id, 80), u->id, u->character ? ", character" : "", u->n_models,
             u->n_models == 1 ? "" : "s", u->base_width, u->base_depth, round ? " (round)" : "", marks,
             first->tag_id, last->tag_id, rates[0] ? rates : "?");
    if (s->y + HEAD_MM + maxh > page_bottom(s))
        new_page(s);
    cairo_set_source_rgb(s->cr, 0, 0, 0);
    sheet_text(s, left, s->y + 1.5, right - left, 2.6, 1, 0, head);
    s->y += HEAD_MM - 2;
    double x = left, row_h = 0;
    for (size_t k = 0; k < u->n_models; k++) {
        const roster_model *m = &r->models[u->first_model + k];
        double w, h;
        label_size(u, m, &w, &h);
        if (x + w > right) {
            s->y += row_h + o->gap_mm;
            x = left, row_h = 0;
        }
        if (s->y + h > page_bottom(s)) {
            new_page(s);
            char cont[440];
            base_text_format(cont, sizeof cont, "%s (continued)", head);
            sheet_text(s, left, s->y + 1.5, right - left, 2.6, 1, 0, cont);
            s->y += HEAD_MM - 2;
            x = left, row_h = 0;
        }
        draw_label(s, u, m, round, x, s->y);
        st->labels++;
        x += w + o->gap_mm;
        row_h = fmax(row_h, h);
    }
    draw_unit_masts(s, r, u, &x, &row_h, st);
    s->y += row_h + o->gap_mm + 2;
    return 0;
}

/* ---- the board's corner tags ------------------------------------------------ */

static void draw_board_page(sheet *s, const roster_file *r, calib_sheet_stats *st)
{
    const calib_sheet_options *o = s->o;
    new_page(s);
    const double left = o->margin_mm, width = o->paper_w_mm - 2 * o->margin_mm;
    sheet_text(s, left, s->y, width, 3.0, 1, 0, "The board's corner tags");
    s->y += 6;
    /* The tags, two to a row, each in its cut square with its number. */
    double x = left, row_h = 0;
    for (size_t i = 0; i < r->n_board_tags; i++) {
        const roster_board_tag *t = &r->board_tags[i];
        const double side = t->size * 10.0 / 8.0 + 8;
        if (x + side > left + width)
            s->y += row_h + o->gap_mm, x = left, row_h = 0;
        cairo_set_source_rgb(s->cr, 0.55, 0.55, 0.55);
        cairo_set_line_width(s->cr, 0.12);
        cairo_rectangle(s->cr, x, s->y, side, side);
        cairo_stroke(s->cr);
        /* Drawn upright: its top row is the top of the page, which goes towards the far edge. */
        sheet_draw_tag(s, t->id, x + side / 2, s->y + side / 2, t->size, 0);
        sheet_layout_tag(s, t->id, x + side / 2, s->y + side / 2, t->size, 0, "board", "corner");
        char lab[64];
        snprintf(lab, sizeof lab, "corner tag %d \xE2\x86\x91 far edge", t->id);
        cairo_set_source_rgb(s->cr, 0, 0, 0);
        sheet_text(s, x, s->y + side - 3.0, side, 2.0, 0, 1, lab);
        st->board_tags++;
        x += side + o->gap_mm;
        row_h = fmax(row_h, side);
    }
    s->y += row_h + 6;
    /* The placement guide: the board from above, the player's edge at the bottom. */
    const double gw = fmin(width, 120), scale = gw / r->board_width, gh = r->board_depth * scale;
    if (s->y + gh + 40 > page_bottom(s))
        new_page(s);
    sheet_text(s, left, s->y, width, 2.6, 1, 0, "Where they go (the board from above, your edge at the bottom):");
    s->y += 5;
    const double gx = left + (width - gw) / 2, gy = s->y;
    cairo_set_source_rgb(s->cr, 0, 0, 0);
    cairo_set_line_width(s->cr, 0.3);
    cairo_rectangle(s->cr, gx, gy, gw, gh);
    cairo_stroke(s->cr);
    for (size_t i = 0; i < r->n_board_tags; i++) {
        const roster_board_tag *t = &r->board_tags[i];
        const double px = gx + t->x * scale, py = gy + gh - t->y * scale, e = fmax(t->size * scale, 2.5);
        cairo_rectangle(s->cr, px - e / 2, py - e / 2, e, e);
        cairo_fill(s->cr);
        char lab[32];
        snprintf(lab, sizeof lab, "%d", t->id);
        sheet_text(s, px + (t->x < r->board_width / 2 ? 1 : -6) * e / 1.5, py - 1.2, 10, 2.4, 1, 0, lab);
    }
    char dims[96];
    snprintf(dims, sizeof dims, "%.0f \xC3\x97 %.0f mm (%.0f\" \xC3\x97 %.0f\")", r->board_width, r->board_depth,
             r->board_width / 25.4, r->board_depth / 25.4);
    sheet_text(s, gx, gy + gh + 1, gw, 2.4, 0, 1, dims);
    s->y = gy + gh + 6;
    char line[400];
    for (size_t i = 0; i < r->n_board_tags && s->y + 4 < page_bottom(s); i++) {
        const roster_board_tag *t = &r->board_tags[i];
        snprintf(line, sizeof line,
                 "Tag %d: its centre %.0f mm from the left edge and %.0f mm from your edge, %s; print side up, flat.",
                 t->id, t->x, t->y,
                 fabs(base_angle_wrap(t->rotation - BASE_PI / 2)) < 0.01 ? "its top row towards the far edge"
                                                                       : "turned as the roster's rotation_deg says");
        sheet_text(s, left, s->y, width, 2.4, 0, 0, line);
        s->y += 4;
    }
    sheet_text(s, left, s->y + 1, width, 2.4, 0, 0,
         "Then run `tableref calibrate board`: it measures where the tags really are and warns when one has moved.");
}

/* ---- the document --------------------------------------------------------- */

static cairo_status_t write_to(void *closure, const unsigned char *data, unsigned int len)
{
    return base_file_writer_write(closure, data, len) == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

int calib_sheet_write_pdf(const roster_file *r, const calib_sheet_options *o, const char *path, calib_sheet_stats *stats,
                          cJSON **layout, base_error *err)
{
    calib_sheet_stats st = {0};
    const double pt = 72.0 / 25.4;
    sheet s = {0};
    s.o = o;
    /* Through a temporary renamed over the target: a failed write (a full disk, /dev/full) leaves
     * what was there, and nothing but our own temporary file is ever removed. */
    base_file_writer *w = base_file_writer_open(path, "the PDF", err);
    if (!w)
        return -1;
    s.surface = cairo_pdf_surface_create_for_stream(write_to, w, o->paper_w_mm * pt, o->paper_h_mm * pt);
    if (cairo_surface_status(s.surface) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s.surface);
        base_file_writer_abort(w);
        return base_error_set(err, "%s: cannot write the PDF", path);
    }
    s.cr = cairo_create(s.surface);
    cairo_scale(s.cr, pt, pt); /* draw in mm */
    const int is41 = strcmp(r->family, "tagStandard41h12") == 0;
    s.fam = is41 ? tagStandard41h12_create() : tag36h11_create();
    cJSON *lay = layout ? cJSON_CreateObject() : NULL;
    if (lay) {
        double paper[2] = {o->paper_w_mm, o->paper_h_mm};
        cJSON_AddItemToObject(lay, "paper_mm", cJSON_CreateDoubleArray(paper, 2));
        cJSON_AddStringToObject(lay, "family", r->family);
        s.tags = cJSON_AddArrayToObject(lay, "tags");
        s.bars = cJSON_AddArrayToObject(lay, "check_bars");
        s.rods = cJSON_AddArrayToObject(lay, "rods");
    }
    const roster_army *army = &r->army; /* the heading: the army and its player, as `roster import` wrote them */
    const char *army_name = o->title ? o->title : army->present ? army->name : "tableref tags";
    const bool player = army->present && army->player[0];
    base_text_format(s.title, sizeof s.title, "%.*s%s%.*s%s \xE2\x80\x94 %s tags", (int)base_text_cut(army_name, 120),
                     army_name, player ? " (" : "", (int)base_text_cut(army->player, 60), army->player, player ? ")" : "",
                     r->family);
    if (army->present && army->slot) {
        size_t n = strlen(s.title);
        base_text_format(s.title + n, sizeof s.title - n, ", army %d (%s IDs)", army->slot,
                         army->slot == 2 ? "odd" : "even");
    }
    int rc = 0;
    new_page(&s);
    for (size_t i = 0; i < r->n_units && rc == 0; i++)
        rc = draw_unit(&s, r, &r->units[i], r->units[i].round_base, &st, err);
    if (rc == 0 && o->board_page && r->n_board_tags > 0)
        draw_board_page(&s, r, &st);
    (is41 ? tagStandard41h12_destroy : tag36h11_destroy)(s.fam);
    cairo_show_page(s.cr);
    cairo_destroy(s.cr);
    cairo_surface_finish(s.surface);
    cairo_status_t cs = cairo_surface_status(s.surface);
    cairo_surface_destroy(s.surface);
    if (rc == 0 && cs == CAIRO_STATUS_WRITE_ERROR) {
        base_file_writer_commit(w, err); /* fails: says why the device or disk refused ("No space left") */
        w = NULL;
        rc = -1;
    } else if (rc == 0 && cs != CAIRO_STATUS_SUCCESS) {
        rc = base_error_set(err, "%s: cannot write the PDF: %s", path, cairo_status_to_string(cs));
    }
    st.pages = s.page;
    if (stats)
        *stats = st;
    if (rc < 0)
        base_file_writer_abort(w); /* NULL: already closed */
    else if (base_file_writer_commit(w, err) < 0)
        rc = -1;
    if (rc < 0) {
        cJSON_Delete(lay);
        return -1;
    }
    if (layout)
        *layout = lay;
    return 0;
}
