#include "base_array.h"

#include <stdint.h>
#include <stdlib.h>

int base_array_reserve(void **items, size_t *cap, size_t need, size_t elem_size, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : (first ? first : 1);
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return -1;
        n *= 2;
    }
    if (elem_size && n > SIZE_MAX / elem_size)
        return -1;
    void *p = realloc(*items, n * elem_size);
    if (!p)
        return -1;
    *items = p;
    *cap = n;
    return 0;
}
