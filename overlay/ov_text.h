/*
 * ov_text: text on a target, laid out by Pango (pangocairo): measuring,
 * wrapping at a width, font fallback for glyphs a face lacks (the ✓ ✗ ±
 * marks), and drawing with an optional halo. Internal to overlay/.
 *
 * How to use:
 *   ov_text tx;
 *   if (ov_text_init(&tx, t, "✗ spears: March", 16.0, true, 0) == 0) {   // 16 device units, bold, one line
 *       ... tx.w, tx.h: its logical size ...
 *       cairo_save(cr); cairo_translate(cr, x, y); cairo_rotate(cr, a);   // any transform
 *       ov_text_draw(t, &tx, 0, 0, fg, 1.0, halo_rgba, halo_w);           // top-left corner at (0, 0)
 *       cairo_restore(cr);
 *       ov_text_free(&tx);
 *   }
 * On an SVG report the glyphs are not painted: each line becomes a <text>
 * element (ov_target keeps them and writes them into the file), so the
 * words stay words. On PDF, Pango's glyphs carry their text already.
 */
#ifndef OV_TEXT_H
#define OV_TEXT_H

#include <stdbool.h>

#include <pango/pangocairo.h>

typedef struct ov_target ov_target;

/* The families tried in order; fontconfig falls back further for any glyph they lack. */
#define OV_TEXT_FAMILIES "DejaVu Sans, Noto Sans, Nimbus Sans, sans-serif"

typedef struct ov_text {
    PangoLayout *layout;
    double w, h;      /* logical size, device units */
    double px;        /* font size (em), device units */
    bool bold;
} ov_text;

/* A context for a target's Cairo context: hinting off, so sizes are the same on every surface. */
PangoContext *ov_text_context_new(cairo_t *cr);

/* Lays `s` (UTF-8) out at `px` device units; wrap_w > 0 wraps at that width (words, then characters). */
int ov_text_init(ov_text *tx, ov_target *t, const char *s, double px, bool bold, double wrap_w);
/* As ov_text_init, from Pango markup (<b>, <span foreground="#rrggbb">, ...). */
int ov_text_init_markup(ov_text *tx, ov_target *t, const char *markup, double px, double wrap_w);
/* Centre each line (after init). */
void ov_text_centre(ov_text *tx);
void ov_text_free(ov_text *tx);

/*
 * Draws the text with its top-left corner at (x, y) of the current user
 * space. halo (RGBA, may be NULL) is stroked around the glyphs first,
 * halo_w device units wide.
 */
void ov_text_draw(ov_target *t, const ov_text *tx, double x, double y, const double fg[3], double alpha,
                  const double halo[4], double halo_w);

/* Width of a one-line text at px (device units). */
double ov_text_width(ov_target *t, const char *s, double px, bool bold);

#endif
