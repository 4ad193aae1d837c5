/*
 * ds_math: the generators' libm calls that must give the same last bit on every machine.
 *
 * How to use:
 *   #include "ds_math.h"
 *   double r = ds_hypot(dx, dy);   // what x86-64 glibc's hypot returns, on x86-64 and arm64 alike
 *
 * Why: the synthetic tables (ds_hard*.c, ds_figures.c, ds_render.c, ...) keep or throw away a candidate on a
 * distance and then draw the random stream further or not, so a last bit turns into another table. glibc's
 * hypot is not correctly rounded, and its arm64 build (the fma kernel) returns a result 1 ulp away from the
 * x86-64 build's in about 13% of calls (docs/arm64.md). ds_hypot is glibc 2.36's hypot without fma
 * (sysdeps/ieee754/dbl-64/e_hypot.c, LGPL-2.1-or-later: one square root and a correction step): only
 * +, -, *, / and sqrt, each IEEE-exact, and the project builds with -ffp-contract=off, so it gives the same bits
 * everywhere, and the very bits x86-64's libm gave: the tables x86-64 drew before stay the same.
 */
#ifndef DS_MATH_H
#define DS_MATH_H

#include <math.h>

/* ax >= ay >= 0, neither square overflowing or underflowing: sqrt(ax^2 + ay^2) corrected by its own error. */
static inline double ds_hypot_kernel(double ax, double ay)
{
    double h = sqrt(ax * ax + ay * ay), t1, t2;
    if (h <= 2.0 * ay) {
        const double delta = h - ay;
        t1 = ax * (2.0 * delta - ax);
        t2 = (delta - 2.0 * (ax - ay)) * delta;
    } else {
        const double delta = h - ax;
        t1 = 2.0 * delta * (ax - 2.0 * ay);
        t2 = (4.0 * delta - ay) * ay + delta * delta;
    }
    return h - (t1 + t2) / (2.0 * h);
}

static inline double ds_hypot(double x, double y)
{
    if (!isfinite(x) || !isfinite(y))
        return isinf(x) || isinf(y) ? INFINITY : x + y;
    x = fabs(x), y = fabs(y);
    const double ax = x < y ? y : x, ay = x < y ? x : y;
    if (ay <= ax * 0x1p-54) /* also ay == 0 */
        return ax + ay;
    if (ax > 0x1p+511)
        return ds_hypot_kernel(ax * 0x1p-600, ay * 0x1p-600) / 0x1p-600;
    if (ay < 0x1p-511)
        return ds_hypot_kernel(ax / 0x1p-600, ay / 0x1p-600) * 0x1p-600;
    return ds_hypot_kernel(ax, ay);
}

#endif
