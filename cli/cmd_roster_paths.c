/* cmd_roster_paths: the rosters one roster import writes (cmd_roster_paths.h). */
#include "cmd_roster_paths.h"

#include <stdio.h>
#include <string.h>

#include "base_plan.h"
#include "base_text.h"
#include "cli_args.h"

/* OUT.json -> OUT.N.json for a file holding several lists; -1 when it does not fit (never cut). */
static int numbered(const char *out, int n, char *buf, size_t cap)
{
    const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    int w = !dot || (slash && dot < slash) ? snprintf(buf, cap, "%s.%d", out, n)
                                           : snprintf(buf, cap, "%.*s.%d%s", (int)(dot - out), out, n, dot);
    return w < 0 || (size_t)w >= cap ? -1 : 0;
}

/* DIR/NN-player.json for --all: the list's number and its player's (else its army's) name; as army 2,
 * DIR/NN-player.army2.json, so a pack's second-army rosters never replace the first ones (whose tags
 * may be printed already) when both go into one folder. */
static int pack_path(const char *dir, const army_list *a, size_t index, int slot, char *buf, size_t cap)
{
    char slug[48];
    army_slug(a->player[0] ? a->player : a->name[0] ? a->name : "list", slug, sizeof slug);
    int w = snprintf(buf, cap, "%s/%02zu-%s%s.json", dir, index + 1, slug, slot == 2 ? ".army2" : "");
    return w < 0 || (size_t)w >= cap ? -1 : 0;
}

int cmd_roster_paths(const army_file *f, const char *out, long pick, int all, int several, double slot,
                     char (*paths)[CMD_ROSTER_PATH_MAX])
{
    base_plan_drop("--out"); /* the rosters' own names replace what the option table planned */
    for (size_t a = 0; a < f->n_armies; a++) {
        int s = several ? (int)a + 1 : slot > 0 ? (int)slot : 1; /* --all: every list in the one slot given */
        if (pick >= 0 && a != (size_t)pick)
            continue;
        if (all ? pack_path(out, &f->armies[a], a, s, paths[a], sizeof paths[a]) < 0
                : several ? numbered(out, (int)a + 1, paths[a], sizeof paths[a]) < 0
                          : !base_text_copy(paths[a], sizeof paths[a], out)) {
            fprintf(stderr, "tableref roster import: --out: the path is over %zu bytes\n", sizeof paths[a] - 1);
            return -1;
        }
        if (base_plan_add(BASE_PLAN_WRITE, paths[a], "--out", out) < 0) {
            fprintf(stderr, "tableref roster import: out of memory\n");
            return -1;
        }
    }
    return cli_plan_check("roster import");
}
