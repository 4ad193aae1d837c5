/* tableref tags layout: the marks of a roster laid out from its bases (rim labels where they fit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "roster.h"

static const cli_doc doc = {
    "tags layout",
    "usage: tableref tags layout ROSTER.json --out ROSTER2.json [--redo] [--no-masts]\n"
    "\n"
    "Lays out the marks of every unit whose `tag` names no `layout` (every\n"
    "unit with --redo), from its bases: a rim label (docs/formats.md, \"Marks on\n"
    "the bases\") on every base that takes one, its code in the two outer rings\n"
    "of cells round the figure's feet, cells a tenth of a square base's side\n"
    "(20x20: 2 mm, 25x25: 2.5 mm) or a ninth of an oblong one's shorter side\n"
    "(25x50: 2.77 mm); a square tag on a round base or one under 18 mm, at the\n"
    "size it has. And masts (`units[].marks[]`): a square tag on a clear rod\n"
    "above the figures, on a ranked unit's front-rank first and last file, on\n"
    "every model of skirmishers, characters and monsters; tags 20 mm on bases\n"
    "up to 25 mm, 24 mm up to 50, 30 mm on larger; as high as the tallest\n"
    "figure + 15 mm (infantry 49 mm, cavalry on 25x50 63.6 mm); their tag IDs\n"
    "the free ones above the roster's highest (of the models' parity when they\n"
    "have one, an army slot's; never 300-399). A unit that has marks keeps\n"
    "them. The unit's footprint, its models and their tag IDs are unchanged.\n"
    "Writes ROSTER2.json and says how many units it laid out.\n"
    "\n",
    "\nExit status: 0 done, 2 bad input or usage.\n",
    "ROSTER",
};

int cmd_tags_layout(int argc, char **argv)
{
    const char *out = NULL, *pos[1];
    int redo = 0, no_masts = 0;
    const cli_opt opts[] = {
        CLI_OUTPUT("--out", &out, "ROSTER2.json", "the roster with its marks laid out"),
        CLI_FLAG("--redo", &redo, 1, "lay out every unit, also those whose layout the roster names"),
        CLI_FLAG("--no-masts", &no_masts, 1, "give no unit masts (the bases' marks only)"),
    };
    int n = cli_parse(&doc, argc, argv, opts, CLI_N(opts), pos, 1);
    if (n < 0)
        return cli_status(n);
    if (n == 0)
        return cli_missing("tags layout", "the roster (ROSTER.json)"), EXIT_BAD_INPUT;
    if (!out)
        return cli_missing("tags layout", "--out ROSTER2.json (where to write the roster)"), EXIT_BAD_INPUT;
    base_error err;
    roster_file *r = roster_load(pos[0], &err);
    if (!r) {
        fprintf(stderr, "tableref tags layout: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    size_t changed, rim = 0;
    const roster_layout_options lo = {redo != 0, no_masts != 0, 0, ROSTER_LAYOUT_SKIP_LO, ROSTER_LAYOUT_SKIP_HI};
    int rc = EXIT_BAD_INPUT;
    if (roster_layout_marks_with(r, &lo, &changed, &err) < 0) {
        fprintf(stderr, "tableref tags layout: %s: %s\n", pos[0], err.msg);
        roster_free(r);
        return rc;
    }
    for (size_t i = 0; i < r->n_units; i++)
        rim += r->units[i].mount.layout == ROSTER_MARK_RIM;
    if (roster_save(r, out, &err) < 0) {
        fprintf(stderr, "tableref tags layout: %s\n", err.msg);
    } else {
        printf("wrote %s: %zu of %zu units laid out; %zu carry rim labels, %zu square tags; %zu masts\n", out, changed,
               r->n_units, rim, r->n_units - rim, r->n_marks);
        rc = 0;
    }
    roster_free(r);
    return rc;
}
