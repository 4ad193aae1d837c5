/* ov_options: the drawing options' defaults (see the header). */
#include "ov_options.h"

#include <string.h>

#include "rules_pairing.h"

void ov_options_default(ov_options *o)
{
    memset(o, 0, sizeof *o);
    o->coverage = RULES_COVERAGE_DEFAULT;
    o->size = 1.0;
    o->bases = o->arrows = o->outlines = o->arcs = o->path = o->limits = o->gaps = o->legend = o->others = true;
}
