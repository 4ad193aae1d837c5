/* vis_recover_common: what both halves of vis_recover share (see the header). */
#include "vis_recover_common.h"

#include <stdlib.h>

#include "vis_sample.h"

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Ink and paper grey levels from the cleanly decoded tags (their black ring and white border). */
bool vis_recover_paper_levels(const base_view *im, const vis_tag_detection *tags, size_t n, double *black, double *white)
{
    double kb[64], kw[64];
    size_t used = 0;
    for (size_t i = 0; i < n && used < 64; i++) {
        const vis_tag_detection *t = &tags[i];
        double b[32], w[40];
        size_t nb = 0, nw = 0;
        for (int e = 0; e < 4; e++)
            for (int j = 0; j < 10; j++)
                for (int ring = 0; ring < 2; ring++) {
                    /* Cell centres along each side: ring at +-7/8, border at +-9/8 (tag units, corners at +-1). */
                    if (ring && j >= 8)
                        continue;
                    const double edge = ring ? 7.0 / 8 : 9.0 / 8, along = ring ? (-7 + 2 * j) / 8.0 : (-9 + 2 * j) / 8.0;
                    const double a = e == 0 ? along : e == 1 ? edge : e == 2 ? -along : -edge;
                    const double c = e == 0 ? -edge : e == 1 ? along : e == 2 ? edge : -along;
                    const double s = (a + 1) / 2, u = (c + 1) / 2;
                    const double x = (1 - s) * (1 - u) * t->corners[0][0] + s * (1 - u) * t->corners[1][0] +
                                     s * u * t->corners[2][0] + (1 - s) * u * t->corners[3][0];
                    const double y = (1 - s) * (1 - u) * t->corners[0][1] + s * (1 - u) * t->corners[1][1] +
                                     s * u * t->corners[2][1] + (1 - s) * u * t->corners[3][1];
                    if (ring)
                        b[nb++] = vis_sample_bilinear(im, x, y);
                    else
                        w[nw++] = vis_sample_bilinear(im, x, y);
                }
        kb[used] = median_of(b, nb);
        kw[used] = median_of(w, nw);
        used++;
    }
    if (used == 0)
        return false;
    *black = median_of(kb, used);
    *white = median_of(kw, used);
    return *white - *black > 30;
}

vis_paper vis_recover_paper(const base_view *im, const vis_tag_detection *tags, size_t n)
{
    vis_paper p = {0};
    p.known = vis_recover_paper_levels(im, tags, n, &p.black, &p.white);
    return p;
}

double vis_paper_contrast(const vis_paper *p) { return p && p->known ? p->white - p->black : 0; }

bool vis_recover_one_read_enough(const vis_detect_config *cfg, const vis_tagread *rd)
{
    return rd->id >= 0 && rd->visible >= cfg->one_read_min_cells && rd->errors <= cfg->one_read_max_errors &&
           rd->runner_up - rd->errors >= cfg->one_read_margin && rd->outline_score >= cfg->one_read_min_outline;
}
