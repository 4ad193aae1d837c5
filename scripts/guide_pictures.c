/*
 * Draws the two diagrams of docs/getting-started.md that are not pictures
 * tableref makes itself: the camera's height for a lens (camera-height.png)
 * and how a label goes on a base (sticking-tags.png). Built and run by
 * scripts/make-guide-pictures.sh; not part of the program.
 *
 *   cc scripts/guide_pictures.c $(pkg-config --cflags --libs cairo) -lm -o guide_pictures
 *   ./guide_pictures OUTDIR
 */
#include <cairo.h>
#include <math.h>
#include <stdio.h>

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

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: guide_pictures OUTDIR\n");
        return 2;
    }
    char p[1024];
    snprintf(p, sizeof p, "%s/camera-height.png", argv[1]);
    camera_height(p);
    snprintf(p, sizeof p, "%s/sticking-tags.png", argv[1]);
    sticking(p);
    return 0;
}
