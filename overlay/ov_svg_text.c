/*
 * ov_svg_text: the SVG report's lines of text, kept as ov_text draws them
 * (a page's recording keeps only glyphs); ov_page writes them into the
 * file as <text> elements. Below both, so neither calls the other back.
 */
#include <stdlib.h>
#include <string.h>

#include "ov_internal.h"

void ov_target_svg_text(ov_target *t, const cairo_matrix_t *m, double x, double y, const char *s, size_t len,
                        double px, bool bold, const double fg[3], double alpha, const double halo[4], double halo_w)
{
    if (t->n_svg == t->cap_svg) {
        size_t cap = t->cap_svg ? 2 * t->cap_svg : 64;
        ov_svg_run *r = realloc(t->svg, cap * sizeof *r);
        if (!r)
            return;
        t->svg = r;
        t->cap_svg = cap;
    }
    char *text = malloc(len + 1);
    if (!text)
        return;
    memcpy(text, s, len);
    text[len] = 0;
    ov_svg_run *r = &t->svg[t->n_svg++];
    memset(r, 0, sizeof *r);
    r->page = (int)t->n_pages - 1;
    r->m[0] = m->xx, r->m[1] = m->yx, r->m[2] = m->xy, r->m[3] = m->yy, r->m[4] = m->x0, r->m[5] = m->y0;
    r->x = x, r->y = y, r->text = text, r->px = px, r->bold = bold, r->alpha = alpha;
    memcpy(r->fg, fg, sizeof r->fg);
    if (halo) {
        memcpy(r->halo, halo, sizeof r->halo);
        r->halo_w = halo_w;
    }
}
