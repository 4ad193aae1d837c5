/*
 * ov_style: how things look on each kind of target.
 *
 * Camera frames: sizes in pixels, scaled with the frame's height (a 960-row
 * frame is the reference); marks carry a dark halo so they read on any
 * table. Reports: sizes in points on paper; a white halo. Projectors: sizes
 * in millimetres on the table (lines 2 mm, a unit's verdict 20 mm tall,
 * other labels 14 mm), never under 12 px (below that glyphs break up);
 * brighter colours, because a projector only adds light to a lit table
 * (black is "no light", so no halo, and labels are bright cards with dark
 * letters: the letters are the table itself, so texture does not hide them).
 */
#include <math.h>

#include "ov_internal.h"

const double ov_colour_illegal[3] = {0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0};
const double ov_colour_legal[3] = {0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0};
const double ov_colour_unsure[3] = {0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0};
const double ov_colour_path[3] = {0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0};
const double ov_colour_limit[3] = {0xF0 / 255.0, 0xE4 / 255.0, 0x42 / 255.0};

#define RGB(r, g, b) {(r) / 255.0, (g) / 255.0, (b) / 255.0}

/* Per ink: camera, report, projector. */
static const double inks[][3][3] = {
    [OV_INK_NEUTRAL] = {RGB(255, 255, 255), RGB(70, 70, 70), RGB(235, 235, 235)},
    [OV_INK_LEGAL] = {RGB(0x00, 0x9E, 0x73), RGB(0x00, 0x9E, 0x73), RGB(60, 255, 170)},
    [OV_INK_ILLEGAL] = {RGB(0xD5, 0x5E, 0x00), RGB(0xD5, 0x5E, 0x00), RGB(255, 110, 40)},
    [OV_INK_UNSURE] = {RGB(0xE6, 0x9F, 0x00), RGB(0xE6, 0x9F, 0x00), RGB(255, 200, 0)},
    [OV_INK_NOT_SEEN] = {RGB(170, 170, 170), RGB(130, 130, 130), RGB(190, 190, 190)},
    [OV_INK_PATH] = {RGB(0x00, 0x72, 0xB2), RGB(0x00, 0x72, 0xB2), RGB(90, 170, 255)},
    [OV_INK_LIMIT] = {RGB(0xF0, 0xE4, 0x42), RGB(0xB8, 0xA2, 0x00), RGB(255, 240, 80)},
    [OV_INK_GHOST] = {RGB(0x7F, 0xE0, 0xC0), RGB(0x00, 0x7A, 0x58), RGB(140, 255, 210)},
};

/* Players' colours (ov_paint.side is a slot here, ov_scene picks it by the side's name): sky blue and
 * reddish purple (Okabe-Ito), then greys. None is a verdict's colour. */
static const double side_inks[4][3][3] = {
    {RGB(0x56, 0xB4, 0xE9), RGB(0x2F, 0x8F, 0xC8), RGB(110, 200, 255)},
    {RGB(0xCC, 0x79, 0xA7), RGB(0xB0, 0x5A, 0x8A), RGB(255, 140, 210)},
    {RGB(0xDD, 0xDD, 0xDD), RGB(0x55, 0x55, 0x55), RGB(220, 220, 220)},
    {RGB(0x99, 0x99, 0x99), RGB(0x99, 0x99, 0x99), RGB(160, 160, 160)},
};

static int column(const ov_target *t)
{
    return t->kind == OV_TARGET_CAMERA ? 0 : t->kind == OV_TARGET_REPORT ? 1 : 2;
}

void ov_style_rgb(const ov_target *t, const ov_paint *p, double rgb[3])
{
    const double *c;
    if (p->ink == OV_INK_RGB)
        c = p->rgb;
    else if (p->ink == OV_INK_SIDE)
        c = side_inks[p->side < 0 || p->side > 3 ? 3 : p->side][column(t)];
    else if ((unsigned)p->ink <= OV_INK_GHOST)
        c = inks[p->ink][column(t)];
    else
        c = inks[OV_INK_NEUTRAL][column(t)];
    rgb[0] = c[0], rgb[1] = c[1], rgb[2] = c[2];
}

void ov_style_halo(const ov_target *t, double rgba[4])
{
    static const double h[3][4] = {{0, 0, 0, 0.7}, {1, 1, 1, 0.85}, {0, 0, 0, 0}};
    for (int i = 0; i < 4; i++)
        rgba[i] = h[column(t)][i];
}

/* Table millimetres -> projector pixels where the board is smallest. */
static double proj_px_per_mm(const ov_target *t)
{
    return t->table_px_per_mm > 0 ? t->table_px_per_mm : ov_map_scale(&t->map, base_v2(0, 0));
}

double ov_style_min_text(const ov_target *t)
{
    return t->kind == OV_TARGET_REPORT ? 5.5 * t->unit : 12.0;
}

double ov_style_text(const ov_target *t, ov_size s, double factor)
{
    /* camera px at 960 rows, report pt, projector mm on the table */
    static const double size[3][5] = {
        {19, 15, 12.5, 14, 20},
        {10, 8.5, 6.5, 9, 15},
        {20, 14, 10, 12, 24},
    };
    double f = factor > 0 ? factor : 1.0, v = size[column(t)][s] * f;
    if (t->kind == OV_TARGET_PROJECTOR)
        v *= proj_px_per_mm(t);
    else
        v *= t->unit;
    return fmax(v, ov_style_min_text(t));
}

double ov_style_line(const ov_target *t, double factor)
{
    double f = factor > 0 ? factor : 1.0;
    switch (t->kind) {
    case OV_TARGET_CAMERA:
        return fmax(2.0 * t->unit * f, 1.5);
    case OV_TARGET_REPORT:
        return 0.9 * t->unit * f;
    default:
        /* 2 mm on the table; a pixel at least, so it is never lost between pixels. */
        return fmax(2.0 * f * proj_px_per_mm(t), 1.0);
    }
}

void ov_style_dash(const ov_target *t, ov_dash d, double w, double pat[2], int *n)
{
    *n = 0;
    if (d == OV_DASH_SOLID)
        return;
    /* A projector's dashes are long: short ones vanish in a table's texture. */
    double k = t->kind == OV_TARGET_PROJECTOR ? 2.0 : 1.0;
    w = fmax(w, 1.0);
    switch (d) {
    case OV_DASH_DASHED:
        pat[0] = 3.5 * w * k, pat[1] = 2.5 * w * k;
        break;
    case OV_DASH_DOTTED:
        pat[0] = 0.8 * w, pat[1] = 1.8 * w * k;
        break;
    default:
        pat[0] = 2.0 * w * k, pat[1] = 2.5 * w * k;
        break;
    }
    *n = 2;
}

static double linear(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

/* WCAG's relative luminance: black letters beat white ones above 0.179. */
void ov_style_ink_on(const double bg[3], double fg[3])
{
    double lum = 0.2126 * linear(bg[0]) + 0.7152 * linear(bg[1]) + 0.0722 * linear(bg[2]);
    double v = lum > 0.179 ? 0.0 : 1.0;
    fg[0] = fg[1] = fg[2] = v;
}
