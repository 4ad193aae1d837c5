/*
 * rules_bisect: the boundary between legal and illegal along a line of
 * candidate positions (a wheel's angle, a column of the reach, a family of
 * poses), found by bisection. Inline: the searches call it in their loops.
 *
 * How to use:
 *   static bool still_legal(void *ctx, double x) { ... }
 *   double last = rules_bisect(good, bad, span_mm, 0.1, still_legal, &ctx);
 */
#ifndef RULES_BISECT_H
#define RULES_BISECT_H

#include <math.h>
#include <stdbool.h>

/* Whether the candidate at x passes (is legal). */
typedef bool (*rules_bisect_test)(void *ctx, double x);

/* The last x that passes, between `good` (passes) and `bad` (fails), once the
 * interval is within tol_mm of travel (a step of 1 in x travels span_mm). */
static inline double rules_bisect(double good, double bad, double span_mm, double tol_mm, rules_bisect_test passes,
                                  void *ctx)
{
    while (fabs(bad - good) * span_mm > tol_mm) {
        double m = (good + bad) / 2;
        if (passes(ctx, m))
            good = m;
        else
            bad = m;
    }
    return good;
}

#endif
