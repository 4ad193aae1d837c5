/* cli_roll: --roll UNIT=INCHES for check and referee (see the header). */
#include "cli_roll.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_geom.h"

int cli_rolls_apply(const cli_list *rolls, rules_snapshot *before, const char *prog)
{
    for (int i = 0; i < rolls->n; i++) {
        const char *arg = rolls->items[i], *eq = strrchr(arg, '=');
        char unit[RULES_ID_MAX], *end = NULL;
        double in = eq ? strtod(eq + 1, &end) : NAN;
        if (end && *end == '"')
            end++;
        if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof unit || !end || *end || !(in >= 0 && in <= 100)) {
            fprintf(stderr, "tableref %s: --roll: expected UNIT=INCHES (0 to 100), got '%s'\n", prog, arg);
            return -1;
        }
        snprintf(unit, sizeof unit, "%.*s", (int)(eq - arg), arg);
        rules_unit *u = rules_snapshot_find_unit(before, unit);
        base_error err;
        if (!u) {
            fprintf(stderr, "tableref %s: --roll %s: no unit \"%s\" in the before snapshot\n", prog, arg, unit);
            return -1;
        }
        if (rules_unit_declare_roll(u, base_in_to_mm(in), &err) < 0) {
            fprintf(stderr, "tableref %s: --roll %s: %s\n", prog, arg, err.msg);
            return -1;
        }
    }
    return 0;
}
