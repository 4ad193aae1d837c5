/*
 * ds_mat3: 3x3 matrices (row-major double[9]) for the renderers' plane
 * homographies (ds_render.c, ds_calibview.c).
 *
 * How to use:
 *   double H[9];
 *   ds_mat3_mul(K, P, H);   // H = K P; out may be a or b
 */
#ifndef DS_MAT3_H
#define DS_MAT3_H

#include <string.h>

/* out = a b; out may alias a or b. */
static inline void ds_mat3_mul(const double a[9], const double b[9], double out[9])
{
    double t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    memcpy(out, t, sizeof t);
}

#endif
