/* tableref tags layout: the marks of a roster laid out from its bases (rim labels where they fit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "commands.h"
#include "roster.h"

static const cli_doc doc = {
    "tags layout",
    "usage: tableref tags layout ROSTER.json --out ROSTER2.json [--redo]\n"
    "\n"
    "Lays out the marks of every unit whose `tag` names no `layout` (every\n"
    "unit with --redo), from its bases: a rim label (docs/formats.md, \"Marks on\n"
    "the bases\") on every base that takes one, its code in the two outer rings\n"
    "of cells round the figure's feet, cells a tenth of a square base's side\n"
    "(20x20: 2 mm, 25x25: 2.5 mm) or a ninth of an oblong one's shorter side\n"
    "(25x50: 2.77 mm); a square tag on a round base or one under 18 mm, at the\n"
    "size it has. The unit's footprint, its models and their tag IDs are\n"
    "unchanged. Writes ROSTER2.json and says how many units it laid out.\n"
    "\n",
    "\nExit status: 0 done, 2 bad input or usage.\n",
    "ROSTER",
};

int cmd_tags_layout(int argc, char **argv)
{
    const char *out = NULL, *pos[1];
    int redo = 0;
    const cli_opt opts[] = {
        CLI_OUTPUT("--out", &out, "ROSTER2.json", "the roster with its marks laid out"),
        CLI_FLAG("--redo", &redo, 1, "lay out every unit, also those whose layout the roster names"),
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
    roster_layout_marks(r, redo != 0, &changed);
    for (size_t i = 0; i < r->n_units; i++)
        rim += r->units[i].mount.layout == ROSTER_MARK_RIM;
    int rc = EXIT_BAD_INPUT;
    if (roster_save(r, out, &err) < 0) {
        fprintf(stderr, "tableref tags layout: %s\n", err.msg);
    } else {
        printf("wrote %s: %zu of %zu units laid out; %zu carry rim labels, %zu square tags\n", out, changed, r->n_units,
               rim, r->n_units - rim);
        rc = 0;
    }
    roster_free(r);
    return rc;
}
