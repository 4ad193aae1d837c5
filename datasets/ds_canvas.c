/* ds_canvas: the helpers every drawer of the canvas shares (ds_canvas.h). Internal to datasets/. */
#include "ds_canvas.h"

#include <stdlib.h>
#include <string.h>

const roster_model *ds_roster_model(const roster_file *roster, const char *id)
{
    for (size_t k = 0; k < roster->n_models; k++)
        if (strcmp(roster->models[k].id, id) == 0)
            return &roster->models[k];
    return NULL;
}

/* Convex hull (monotone chain) of canvas points, in place; returns the count. */
static int cmp_pt(const void *a, const void *b)
{
    const double *p = a, *q = b;
    if (p[0] != q[0])
        return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}
static double cross3(const double *o, const double *a, const double *b)
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}
int ds_canvas_hull(double *pts, int n, double *out)
{
    if (n < 3) {
        memcpy(out, pts, sizeof(double) * 2 * (size_t)(n > 0 ? n : 0));
        return n;
    }
    qsort(pts, (size_t)n, 2 * sizeof(double), cmp_pt);
    int k = 0;
    for (int i = 0; i < n; i++) {
        while (k >= 2 && cross3(out + 2 * (k - 2), out + 2 * (k - 1), pts + 2 * i) <= 0)
            k--;
        out[2 * k] = pts[2 * i], out[2 * k + 1] = pts[2 * i + 1], k++;
    }
    for (int i = n - 2, t = k + 1; i >= 0; i--) {
        while (k >= t && cross3(out + 2 * (k - 2), out + 2 * (k - 1), pts + 2 * i) <= 0)
            k--;
        out[2 * k] = pts[2 * i], out[2 * k + 1] = pts[2 * i + 1], k++;
    }
    return k - 1;
}
