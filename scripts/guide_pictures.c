/*
 * Draws the diagrams of docs/getting-started.md that are not pictures
 * tableref makes itself: the camera's height for a lens (camera-height.png),
 * how a label goes on a base (sticking-tags.png) and how a hill is described
 * in the table file (hill.png); and puts a rim label as printed beside its
 * unit rendered from above (--beside, scripts/make-marked-base-pictures.sh).
 * Built and run by scripts/make-guide-pictures.sh; not part of the program.
 *
 *   cc scripts/guide_pictures.c $(pkg-config --cflags --libs cairo) -lm -o guide_pictures
 *   ./guide_pictures OUTDIR
 *   ./guide_pictures --beside OUT.png CAPTION {UNIT.png SCALE TITLE}... -- {LEFT.png SCALE TITLE}...
 */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void label(cairo_t *cr, double x, double y, double size, const char *t)
{
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, t);
}

/* A lens covering a board `board_mm` wide from above: the height it needs. */
static double height_for(double board_mm, double hfov_deg)
{
    return board_mm / 2 / tan(hfov_deg / 2 * M_PI / 180);
}

static void camera_height(const char *path)
{
    const int W = 1060, H = 600;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    /* Side view: a 72" (1829 mm) board plus 10% margin each side, scale 0.38 px/mm. */
    const double k = 0.25, board = 1828.8, x0 = 90, ytable = 540;
    const struct {
        const char *name;
        double hfov;
        double r, g, b;
    } lenses[] = {
        {"Pi Camera Module 3 Wide (120\xC2\xB0 diag, ~102\xC2\xB0 across)", 102, 0.0, 0.45, 0.70},
        {"Pi HQ Camera + 6 mm lens (~63\xC2\xB0 across)", 63, 0.80, 0.40, 0.0},
        {"USB webcam, 1080p (~70\xC2\xB0 across)", 70, 0.0, 0.62, 0.45},
    };
    cairo_set_source_rgb(cr, 0.55, 0.42, 0.28);
    cairo_rectangle(cr, x0, ytable, board * k, 14);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    label(cr, x0 + board * k / 2 - 110, ytable + 40, 16, "board, 72\" = 1829 mm across");
    for (size_t i = 0; i < sizeof lenses / sizeof lenses[0]; i++) {
        /* 5% spare on each side so the corner tags are never at the frame's edge. */
        const double h = height_for(board * 1.1, lenses[i].hfov);
        const double cx = x0 + board * k / 2, cy = ytable - h * k;
        cairo_set_source_rgb(cr, lenses[i].r, lenses[i].g, lenses[i].b);
        cairo_set_line_width(cr, 2);
        const double half = h * tan(lenses[i].hfov / 2 * M_PI / 180) * k;
        cairo_move_to(cr, cx - half, ytable);
        cairo_line_to(cr, cx, cy);
        cairo_line_to(cr, cx + half, ytable);
        cairo_stroke(cr);
        cairo_rectangle(cr, cx - 9, cy - 12, 18, 12);
        cairo_fill(cr);
        char t[160];
        snprintf(t, sizeof t, "%.2f m", h / 1000);
        label(cr, cx + 14, cy - 2, 15, t);
        snprintf(t, sizeof t, "%s: %.2f m above the board", lenses[i].name, h / 1000);
        label(cr, 20, 30 + 24 * i, 16, t);
    }
    /* What a tag becomes in pixels: the frame's width spread over the board plus 10%. */
    const struct {
        const char *cam;
        double px;
    } sensors[] = {{"HQ Camera, 4056 px", 4056}, {"Module 3, 4608 px", 4608}, {"1080p webcam, 1920 px", 1920}};
    cairo_set_source_rgb(cr, 0, 0, 0);
    label(cr, 620, 200, 16, "A 12 mm tag (20x20 base) in the picture:");
    for (int i = 0; i < 3; i++) {
        const double pxmm = sensors[i].px / (board * 1.1);
        char t[160];
        snprintf(t, sizeof t, "%s: %.1f px/mm, %.0f px", sensors[i].cam, pxmm, 12 * pxmm);
        cairo_set_source_rgb(cr, 12 * pxmm >= 24 ? 0.0 : 0.8, 12 * pxmm >= 24 ? 0.45 : 0.1, 12 * pxmm >= 24 ? 0.2 : 0.1);
        label(cr, 620, 228 + 24 * i, 15, t);
    }
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    label(cr, 620, 318, 14, "24 px (3 px per bit) reads reliably at full");
    label(cr, 620, 336, 14, "resolution; below it, use bigger tags (bigger");
    label(cr, 620, 354, 14, "bases) or a camera closer over half the board.");
    label(cr, 20, 110, 14, "Height = (board width x 1.1) / (2 tan(horizontal field of view / 2)): the whole board plus 5% each side.");
    cairo_surface_write_to_png(s, path);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

static void sticking(const char *path)
{
    const int W = 900, H = 380;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    /* From above: a 25x25 base, the model's front up, the label on it with its mark at the front. */
    const double k = 8, bx = 80, by = 60, b = 25 * k;
    cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
    cairo_rectangle(cr, bx - 6, by - 6, b + 12, b + 12);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, bx, by, b, b);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, bx + (25 - 16) / 2.0 * k, by + (25 - 16) / 2.0 * k, 16 * k, 16 * k);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, bx + (25 - 16) / 2.0 * k + 2 * k, by + (25 - 16) / 2.0 * k + 2 * k, 12 * k, 12 * k);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, bx + b / 2, by + 4);
    cairo_line_to(cr, bx + b / 2 - 8, by + 16);
    cairo_line_to(cr, bx + b / 2 + 8, by + 16);
    cairo_close_path(cr);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.8, 0.1, 0.1);
    cairo_set_line_width(cr, 3);
    cairo_move_to(cr, bx + b / 2, by - 12);
    cairo_line_to(cr, bx + b / 2, by - 48);
    cairo_stroke(cr);
    cairo_move_to(cr, bx + b / 2 - 10, by - 36);
    cairo_line_to(cr, bx + b / 2, by - 50);
    cairo_line_to(cr, bx + b / 2 + 10, by - 36);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    const char *lines[] = {
        "Seen from above. The red arrow is the model's front.",
        "1. Print at 100% and measure the 100 mm bar.",
        "2. Cut on the grey line: the label is the base's size.",
        "3. Put the mark (the small triangle) at the model's front.",
        "4. Glue it flat on the base's top. The camera must see the black",
        "   square and its white border: where a figure's feet cover it,",
        "   move the tag (the roster's tag.offset_mm) and print again.",
        "5. Matt paper or a matt varnish: a shiny tag blinds the camera.",
    };
    for (int i = 0; i < 8; i++)
        label(cr, 340, 70 + 30 * i, 17, lines[i]);
    cairo_surface_write_to_png(s, path);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

static void arrow(cairo_t *cr, double x0, double y0, double x1, double y1)
{
    const double a = atan2(y1 - y0, x1 - x0), h = 9;
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, x1, y1);
    cairo_move_to(cr, x1 - h * cos(a - 0.4), y1 - h * sin(a - 0.4));
    cairo_line_to(cr, x1, y1);
    cairo_line_to(cr, x1 - h * cos(a + 0.4), y1 - h * sin(a + 0.4));
    cairo_stroke(cr);
}

/* The hill from above: its top's outline (points_mm), its foot (foot_mm), a unit on its top. 1 px per mm. */
static void hill_from_above(cairo_t *cr)
{
    const double x = 90, y = 110, w = 260, d = 180, slope = 40;
    cairo_set_source_rgb(cr, 0.80, 0.88, 0.74);
    cairo_rectangle(cr, x - slope, y - slope, w + 2 * slope, d + 2 * slope);
    cairo_fill(cr);
    const double dash[] = {8, 5};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_set_line_width(cr, 2);
    cairo_set_source_rgb(cr, 0.2, 0.45, 0.2);
    cairo_rectangle(cr, x - slope, y - slope, w + 2 * slope, d + 2 * slope);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_source_rgb(cr, 0.55, 0.72, 0.45);
    cairo_rectangle(cr, x, y, w, d);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.1, 0.3, 0.1);
    cairo_stroke(cr);
    for (int f = 0; f < 5; f++) /* a unit of 5 x 3 on 25 mm bases, wholly on the top */
        for (int r = 0; r < 3; r++) {
            cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
            cairo_rectangle(cr, x + 70 + 25 * f + 1, y + 55 + 25 * r + 1, 23, 23);
            cairo_fill(cr);
            cairo_set_source_rgb(cr, 1, 1, 1);
            cairo_rectangle(cr, x + 70 + 25 * f + 5, y + 55 + 25 * r + 5, 15, 15);
            cairo_fill(cr);
        }
    cairo_set_source_rgb(cr, 0, 0, 0);
    label(cr, 30, 30, 18, "From above");
    label(cr, x + 6, y + 20, 14, "points_mm: the flat top's corners");
    label(cr, x - slope + 4, y + d + slope + 22, 14, "foot_mm: where the slope meets the board");
    label(cr, x - slope + 4, y + d + slope + 42, 14, "(leave it out for sheer sides)");
}

/* The hill from the side: height_mm, the slope, a tag on the top and where it lands read as flat. */
static void hill_from_the_side(cairo_t *cr)
{
    const double ground = 330, x = 520, top_w = 300, slope = 60, h = 100; /* 2 px per mm: a 50 mm hill */
    cairo_set_source_rgb(cr, 0.55, 0.72, 0.45);
    cairo_move_to(cr, x, ground);
    cairo_line_to(cr, x + slope, ground - h);
    cairo_line_to(cr, x + slope + top_w, ground - h);
    cairo_line_to(cr, x + 2 * slope + top_w, ground);
    cairo_close_path(cr);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    cairo_set_line_width(cr, 3);
    cairo_move_to(cr, 500, ground);
    cairo_line_to(cr, 1040, ground);
    cairo_stroke(cr);
    const double tag_x = x + slope + top_w - 60, tag_y = ground - h - 8, cam_x = 470, cam_y = 40;
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_rectangle(cr, tag_x - 12, tag_y, 24, 8);
    cairo_fill(cr);
    cairo_set_line_width(cr, 1.5);
    const double t = (ground - cam_y) / (tag_y - cam_y), far_x = cam_x + t * (tag_x - cam_x);
    const double dash[] = {6, 4};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_set_source_rgb(cr, 0.8, 0.1, 0.1);
    cairo_move_to(cr, cam_x, cam_y);
    cairo_line_to(cr, far_x, ground);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_arc(cr, far_x, ground, 5, 0, 2 * M_PI);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    arrow(cr, x + slope + 40, ground, x + slope + 40, ground - h);
    arrow(cr, x + slope + 40, ground - h, x + slope + 40, ground);
    label(cr, x + slope + 50, ground - h / 2 + 5, 15, "height_mm (top above the board)");
    label(cr, 500, 30, 18, "From the side (camera to the left, high up)");
    label(cr, 560, ground + 30, 14, "the model's tag on the top, seen along the red ray:");
    label(cr, 560, ground + 50, 14, "read as if the board were flat it lands at the red dot.");
    label(cr, 560, ground + 70, 14, "Given its hill, it is placed where it stands.");
}

static void hill(const char *path)
{
    const int W = 1060, H = 420;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    hill_from_above(cr);
    hill_from_the_side(cr);
    cairo_surface_write_to_png(s, path);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

/* A column of pictures, each `items` triple PNG SCALE TITLE, from (x, y) down: its size when cr is NULL. */
static int column(cairo_t *cr, double x, double y, int n, char **items, double *w, double *h)
{
    const double title = 20, gap = 7;
    *w = 0, *h = 0;
    for (int i = 0; i < n; i++) {
        cairo_surface_t *a = cairo_image_surface_create_from_png(items[3 * i]);
        const double k = atof(items[3 * i + 1]);
        if (cairo_surface_status(a)) {
            fprintf(stderr, "guide_pictures: cannot read %s\n", items[3 * i]);
            cairo_surface_destroy(a);
            return 1;
        }
        const double aw = cairo_image_surface_get_width(a) * k, ah = cairo_image_surface_get_height(a) * k;
        if (cr) {
            cairo_set_source_rgb(cr, 0, 0, 0);
            label(cr, x, y + *h + title - 6, 14, items[3 * i + 2]);
            cairo_save(cr);
            cairo_translate(cr, x, y + *h + title);
            cairo_scale(cr, k, k);
            cairo_set_source_surface(cr, a, 0, 0);
            cairo_paint(cr);
            cairo_restore(cr);
            /* A thin frame: the crop's edge, not a cut line. */
            cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
            cairo_set_line_width(cr, 1);
            cairo_rectangle(cr, x - 0.5, y + *h + title - 0.5, aw + 1, ah + 1);
            cairo_stroke(cr);
        }
        *w = fmax(*w, aw);
        *h += title + ah + gap;
        cairo_surface_destroy(a);
    }
    return 0;
}

/*
 * Two columns of pictures, each item a triple PNG SCALE TITLE: on the left
 * as printed (the label, a zoom on its front mark, a mast's card), after
 * "--" on the right the unit rendered (from above, and at a slant to show
 * the rods); a caption below.
 */
static int beside(const char *out, const char *caption, int n_right, char **right, int n_left, char **left)
{
    const double pad = 14, foot = 30;
    double lw, lh, rw, rh;
    if (column(NULL, 0, 0, n_left, left, &lw, &lh) || column(NULL, 0, 0, n_right, right, &rw, &rh))
        return 1;
    const int W = (int)ceil(lw + rw + 3 * pad), H = (int)ceil(fmax(lh, rh) + foot + pad);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    column(cr, pad, pad / 2, n_left, left, &lw, &lh);
    column(cr, 2 * pad + lw, pad / 2, n_right, right, &rw, &rh);
    cairo_set_source_rgb(cr, 0, 0, 0);
    label(cr, pad, H - 10, 14, caption);
    const int rc = cairo_surface_write_to_png(s, out) != CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "--beside") == 0) {
        int sep = 4;
        while (sep < argc && strcmp(argv[sep], "--") != 0)
            sep++;
        if (sep < argc && (sep - 4) % 3 == 0 && (argc - sep - 1) % 3 == 0 && sep > 4 && argc > sep + 1)
            return beside(argv[2], argv[3], (sep - 4) / 3, argv + 4, (argc - sep - 1) / 3, argv + sep + 1);
    }
    if (argc != 2) {
        fprintf(stderr, "usage: guide_pictures OUTDIR\n"
                        "       guide_pictures --beside OUT.png CAPTION {UNIT.png SCALE TITLE}... -- {LEFT.png SCALE TITLE}...\n");
        return 2;
    }
    char p[1024];
    snprintf(p, sizeof p, "%s/camera-height.png", argv[1]);
    camera_height(p);
    snprintf(p, sizeof p, "%s/sticking-tags.png", argv[1]);
    sticking(p);
    snprintf(p, sizeof p, "%s/hill.png", argv[1]);
    hill(p);
    return 0;
}
