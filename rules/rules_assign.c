#include "rules_assign.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* Potentials u (rows) and v (columns); p[j]: the row in column j; way: the augmenting path. */
int rules_assign_min_cost(const double *cost, size_t n, size_t *col_of_row)
{
    double *u = calloc(4 * (n + 1), sizeof *u);
    size_t *p = calloc(2 * (n + 1), sizeof *p);
    bool *used = calloc(n + 1, sizeof *used);
    if (!u || !p || !used) {
        free(u), free(p), free(used);
        return -1;
    }
    double *v = u + (n + 1), *minv = u + 2 * (n + 1);
    size_t *way = p + (n + 1);
    for (size_t i = 1; i <= n; i++) {
        p[0] = i;
        size_t j0 = 0;
        for (size_t j = 0; j <= n; j++)
            minv[j] = INFINITY, used[j] = false;
        do {
            used[j0] = true;
            size_t i0 = p[j0], j1 = 0;
            double delta = INFINITY;
            for (size_t j = 1; j <= n; j++) {
                if (used[j])
                    continue;
                double cur = cost[(i0 - 1) * n + (j - 1)] - u[i0] - v[j];
                if (cur < minv[j])
                    minv[j] = cur, way[j] = j0;
                if (minv[j] < delta)
                    delta = minv[j], j1 = j;
            }
            for (size_t j = 0; j <= n; j++) {
                if (used[j])
                    u[p[j]] += delta, v[j] -= delta;
                else
                    minv[j] -= delta;
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            size_t j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    for (size_t j = 1; j <= n; j++)
        col_of_row[p[j] - 1] = j - 1;
    free(u), free(p), free(used);
    return 0;
}
