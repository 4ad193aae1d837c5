/*
 * base_array: room in a growing array, doubled as it fills, so that every
 * list in tableref (issues, obstacles, keep-outs, ...) grows the same way
 * and checks its multiplication for overflow.
 *
 * How to use:
 *   typedef struct { thing *items; size_t n, cap; } things;
 *   if (base_array_reserve((void **)&t->items, &t->cap, t->n + 1, sizeof *t->items, 16) < 0) return -1;
 *   t->items[t->n++] = x;
 *   ... free(t->items);
 */
#ifndef BASE_ARRAY_H
#define BASE_ARRAY_H

#include <stddef.h>

/* Makes room for `need` elements of `elem_size` bytes in *items (capacity *cap, first growth to `first`
 * elements, then doubling). 0, or -1 when out of memory or too large (*items and *cap unchanged). */
int base_array_reserve(void **items, size_t *cap, size_t need, size_t elem_size, size_t first);

#endif
