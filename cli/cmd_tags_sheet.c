/* tableref tags sheet: a roster's tags, printed at their true size to stick on the bases. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_sheet.h"
#include "cli_args.h"
#include "commands.h"
#include "rules_json.h"
#include "roster.h"

static const cli_doc doc = {
    "tags sheet",
    "usage: tableref tags sheet ROSTER.json --out TAGS.pdf [--paper a4|letter]\n"
    "                           [--no-board] [--layout LAYOUT.json]\n"
    "\n"
    "Prints every model's tag on a label the size of its base (front x side),\n"
    "with a mark at the front edge (stick it with the mark at the model's front),\n"
    "the model's id and tag ID, its Advance/March Rates when the roster gives them\n"
    "(a sheet prints as soon as the bases are known: rates are needed only to\n"
    "judge), a grey cut line round it, and the unit's name, base and tag size\n"
    "above each unit; a 100 mm check bar on every page; and the board's corner\n"
    "tags with a guide to where they go. Print at 100% (\"actual size\"), measure\n"
    "the bar, cut on the grey lines. A unit with rim labels (`tags layout`) gets\n"
    "them instead, with a dashed line round the figure's place to cut out.\n"
    "A mast (a tag on a rod above the figures, `tags layout`) prints after its\n"
    "unit's labels as a card at true size with a backing to fold under it\n"
    "(the carrier's id, the mast's height, a cross where the rod's tip goes,\n"
    "where the hole goes) and a rod guide down its side: a bar exactly as long\n"
    "as the rod above the base.\n"
    "\n",
    "\n"
    "Two armies never share a tag: `tableref roster import --army 1|2` gives the\n"
    "first army even IDs and the second odd ones.\n"
    "\n"
    "Exit status: 0 done, 2 bad input or usage.\n",
    "ROSTER",
};

/* A label needs the base and the model count; the rates can come later (they are asked for before
 * judging). Counts the roster's "unresolved" units that lack one or the other; the first name of the former. */
static const char *count_unresolved(const cJSON *root, int *for_labels, int *without_rates)
{
    const char *first = NULL;
    const cJSON *un;
    cJSON_ArrayForEach(un, cJSON_GetObjectItemCaseSensitive(root, "unresolved"))
    {
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(un, "name"), *m;
        int label = 0, rate = 0;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(un, "missing"))
        {
            bool needed = cJSON_IsString(m) &&
                          (strcmp(m->valuestring, "base_mm") == 0 || strcmp(m->valuestring, "models") == 0);
            label += needed;
            rate += cJSON_IsString(m) && !needed;
        }
        if (label && (*for_labels)++ == 0)
            first = cJSON_IsString(nm) ? nm->valuestring : "?";
        *without_rates += rate > 0;
    }
    return first;
}

int cmd_tags_sheet(int argc, char **argv)
{
    const char *out = NULL, *paper = "a4", *layout_path = NULL, *pos[1];
    int no_board = 0;
    const cli_opt opts[] = {
        CLI_OUTPUT("--out", &out, "TAGS.pdf", "the sheet (PDF)"),
        CLI_CHOICE("--paper", &paper, "a4|letter", "a4 letter", "page size (default a4)"),
        CLI_FLAG("--no-board", &no_board, 1, "leave out the corner tags page (print it once per table)"),
        CLI_OUTPUT("--layout", &layout_path, "F", "also write where every tag landed (JSON, page mm)"),
    };
    int n = cli_parse(&doc, argc, argv, opts, CLI_N(opts), pos, 1);
    if (n < 0)
        return cli_status(n);
    if (n == 0) {
        fprintf(stderr, "tableref tags sheet: missing the roster (ROSTER.json, from `tableref roster import`); "
                        "try --help\n");
        return EXIT_BAD_INPUT;
    }
    if (!out) {
        fprintf(stderr, "tableref tags sheet: missing --out TAGS.pdf (where to write the sheet)\n");
        return EXIT_BAD_INPUT;
    }
    calib_sheet_options o;
    calib_sheet_options_default(&o);
    o.board_page = !no_board;
    if (calib_sheet_paper(paper, &o.paper_w_mm, &o.paper_h_mm) < 0) {
        fprintf(stderr, "tableref tags sheet: --paper: expected a4 or letter, got '%s'\n", paper);
        return EXIT_BAD_INPUT;
    }
    base_error err;
    cJSON *root = base_json_parse_file(pos[0], &err);
    if (!root) {
        fprintf(stderr, "tableref tags sheet: %s\n", err.msg);
        return EXIT_BAD_INPUT;
    }
    int for_labels = 0, without_rates = 0;
    const char *first = count_unresolved(root, &for_labels, &without_rates);
    if (for_labels > 0) {
        fprintf(stderr,
                "tableref tags sheet: %s: %d unit%s still unknown values (first: %s): no base size or model count, which a label "
                "needs: give them (tableref roster import ... --set 'NAME:base=WxD' or --catalogue); the rates can "
                "come later\n",
                pos[0], for_labels, for_labels == 1 ? " has" : "s have", first);
        cJSON_Delete(root);
        return EXIT_BAD_INPUT;
    }
    roster_file *r = roster_from_json(root, pos[0], &err);
    int rc = EXIT_BAD_INPUT;
    cJSON *layout = NULL;
    calib_sheet_stats st;
    if (!r) {
        fprintf(stderr, "tableref tags sheet: %s\n", err.msg);
    } else if (calib_sheet_write_pdf(r, &o, out, &st, layout_path ? &layout : NULL, &err) < 0 ||
               (layout && base_json_write_file(layout, layout_path, &err) < 0)) {
        fprintf(stderr, "tableref tags sheet: %s\n", err.msg);
    } else {
        char masts[48] = "";
        if (st.masts)
            snprintf(masts, sizeof masts, ", %d mast%s", st.masts, st.masts == 1 ? "" : "s");
        printf("wrote %s: %d page%s, %d model tags%s%s, %s paper\n", out, st.pages, st.pages == 1 ? "" : "s",
               st.labels, masts, st.board_tags ? " and the board's corner tags" : "", paper);
        if (layout_path)
            printf("wrote %s (where every tag landed)\n", layout_path);
        if (without_rates)
            printf("%d unit%s no Advance/March Rate yet (left off their labels): give them before judging "
                   "(tableref roster import ... --set 'UNIT:adv=N' --set 'UNIT:mar=N', or edit the roster).\n",
                   without_rates, without_rates == 1 ? " has" : "s have");
        printf("Print at 100%% (actual size) and check the 100 mm bar with a ruler before cutting.\n");
        rc = 0;
    }
    cJSON_Delete(layout);
    roster_free(r);
    cJSON_Delete(root);
    return rc;
}
