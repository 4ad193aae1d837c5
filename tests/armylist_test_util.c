/* armylist_test_util: the army list suites' shared reading (armylist_test_util.h). */
#include "armylist_test_util.h"

#include <string.h>

int at_models(const army_list *a)
{
    int n = 0;
    for (size_t i = 0; i < a->n_units; i++)
        n += a->units[i].models;
    return n;
}

bool at_said(const army_file *f, const char *part)
{
    for (size_t i = 0; i < f->n_said; i++)
        if (strstr(f->said[i], part))
            return true;
    return false;
}
