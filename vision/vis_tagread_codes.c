/* vis_tagread's code tables (vis_tagread.h): each ID's data bits as one word, for the roster's tags or a
 * whole family; the reader compares the cells it reads against them. */
#include "vis_tagread.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int code_of(const vis_tag_detector *td, int id, uint64_t *code, int *tw)
{
    uint8_t cells[256];
    if (!vis_tag_bitmap(td, id, cells, tw) || *tw < 5 || (*tw - 4) * (*tw - 4) > 64)
        return -1;
    uint64_t c = 0;
    for (int v = 2; v < *tw - 2; v++)
        for (int u = 2; u < *tw - 2; u++)
            c = c << 1 | cells[v * *tw + u];
    *code = c;
    return 0;
}

static int codes_alloc(vis_tagread_codes *out, int n)
{
    memset(out, 0, sizeof *out);
    out->codes = malloc((size_t)(n > 0 ? n : 1) * sizeof *out->codes);
    out->ids = malloc((size_t)(n > 0 ? n : 1) * sizeof *out->ids);
    if (!out->codes || !out->ids) {
        vis_tagread_codes_clear(out);
        return -1;
    }
    return 0;
}

static int codes_add(vis_tagread_codes *out, const vis_tag_detector *td, int id)
{
    if (code_of(td, id, &out->codes[out->n], &out->tw) < 0)
        return -1;
    out->ids[out->n++] = id;
    return 0;
}

int vis_tagread_codes_roster(const vis_tag_detector *td, const roster_map *r, vis_tagread_codes *out)
{
    if (codes_alloc(out, (int)(r->n_models + r->n_board_tags + r->n_marks)) < 0)
        return -1;
    for (size_t i = 0; i < r->n_models; i++)
        if (codes_add(out, td, r->models[i].tag_id) < 0)
            goto fail;
    for (size_t i = 0; i < r->n_board_tags; i++)
        if (codes_add(out, td, r->board_tags[i].id) < 0)
            goto fail;
    /* The masts' tags too: a mast is read where it is predicted (vis_mast.h), and no read may take one for a model. */
    for (size_t i = 0; i < r->n_marks; i++)
        if (codes_add(out, td, r->marks[i].tag_id) < 0)
            goto fail;
    return 0;
fail:
    vis_tagread_codes_clear(out);
    return -1;
}

int vis_tagread_codes_family(const vis_tag_detector *td, vis_tagread_codes *out)
{
    const int n = vis_tag_family_codes(td);
    if (n <= 0 || codes_alloc(out, n) < 0)
        return -1;
    for (int id = 0; id < n; id++)
        if (codes_add(out, td, id) < 0) {
            vis_tagread_codes_clear(out);
            return -1;
        }
    return 0;
}

void vis_tagread_codes_clear(vis_tagread_codes *c)
{
    free(c->codes);
    free(c->ids);
    memset(c, 0, sizeof *c);
}
