/*
 * rules_assign: the least-cost pairing of n things with n places (the
 * Hungarian method, O(n^3)), used to pair models whose identity the camera
 * did not see with the places their unit's formation leaves (rules_robust).
 *
 * How to use:
 *   double cost[n * n];            // cost[i * n + j]: thing i in place j
 *   size_t place_of[n];
 *   if (rules_assign_min_cost(cost, n, place_of) < 0) -> out of memory
 */
#ifndef RULES_ASSIGN_H
#define RULES_ASSIGN_H

#include <stddef.h>

/* Pairs rows with columns minimising the summed cost (row-major n x n, finite); 0, or -1 when out of memory. */
int rules_assign_min_cost(const double *cost, size_t n, size_t *col_of_row);

#endif
