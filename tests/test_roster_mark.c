/*
 * Rim labels in the roster (roster/roster_mark.h, docs/formats.md "Marks on
 * the bases"): their cells, the cell `tags layout` gives each base, the
 * false-match distance of their codes, and the roster's `tag.layout` read
 * and written strictly.
 *   - A 20x20 base in 2 mm cells: 10 x 10 cells, 64 printed (rings 0 and 1),
 *     16 of them the corner blocks', 48 code cells, 4 turns; every one of
 *     the 36 data cells of the code shows at least once.
 *   - Any two of tag36h11's 587 codes, as labels, differ in at least 11
 *     code cells in every turn the label can lie in (and a code differs from
 *     itself turned): exact, over every pair, for 20x20, 25x25 and 25x50.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <apriltag/tag36h11.h>

#include "base_json.h"
#include "roster.h"
#include "roster_mark.h"

Test(roster_mark, a_20mm_label_has_48_code_cells_carrying_every_data_cell)
{
    roster_rim rim;
    base_error err;
    cr_assert_eq(roster_rim_make(20, 20, 2.0, &rim, &err), 0, "%s", err.msg);
    cr_expect_eq(rim.nx, 10);
    cr_expect_eq(rim.ny, 10);
    cr_expect_eq(rim.n, 64);
    cr_expect_eq(rim.n_code, 48);
    cr_expect_eq(rim.turns, 4);
    int shown[36] = {0};
    for (size_t k = 0; k < rim.n; k++)
        if (rim.cells[k].kind == ROSTER_RIM_CODE)
            shown[rim.cells[k].row * 6 + rim.cells[k].col]++;
    for (int d = 0; d < 36; d++)
        cr_expect(shown[d] >= 1, "data cell %d never printed", d);
    /* Cells lie within the base: the front-left corner cell's centre 1 mm in from the front and the left. */
    cr_expect_float_eq(rim.cells[0].x, 9.0, 1e-9);
    cr_expect_float_eq(rim.cells[0].y, 9.0, 1e-9);
    cr_expect_eq(rim.cells[0].kind, ROSTER_RIM_BLACK);
    roster_rim_clear(&rim);
}

Test(roster_mark, the_cell_tags_layout_gives_each_base)
{
    static const struct { double w, d, cell; } want[] = {
        {20, 20, 2.0}, {25, 25, 2.5}, {25, 50, 2.77}, {40, 40, 4.0}, {50, 50, 5.0}, {50, 100, 5.55}, {15, 15, 0}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        cr_expect_float_eq(roster_rim_cell_for(want[k].w, want[k].d, false), want[k].cell, 1e-9, "%gx%g", want[k].w,
                           want[k].d);
    cr_expect_eq(roster_rim_cell_for(25, 25, true), 0, "a round base keeps a square tag");
    cr_expect(!roster_rim_fits(20, 20, 2.5), "8 cells a side are too few");
    cr_expect_float_eq(roster_square_tag_size(20, 20, false), 12.0, 1e-9);
    cr_expect_float_eq(roster_square_tag_size(25, 25, false), 16.0, 1e-9);
}

enum { WORDS = 4 };

/* The 6 x 6 data cells of tag36h11 code `id` as printed (a white border cell, a black one, then the data; 1 white). */
static void code_data(apriltag_family_t *fam, uint32_t id, unsigned char data[36])
{
    image_u8_t *im = apriltag_to_image(fam, id);
    cr_assert_not_null(im);
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++)
            data[r * 6 + c] = im->buf[(r + 2) * im->stride + c + 2] != 0;
    image_u8_destroy(im);
}

/* Label colours of every tag36h11 code (bit k: code cell k white) in each turn. */
static size_t label_codes(const roster_rim *rim, uint64_t (*out)[4][WORDS])
{
    apriltag_family_t *fam = tag36h11_create();
    size_t *code_of = calloc(rim->n, sizeof *code_of), n_code = 0;
    for (size_t k = 0; k < rim->n; k++)
        code_of[k] = rim->cells[k].kind == ROSTER_RIM_CODE ? n_code++ : (size_t)-1;
    cr_assert(n_code <= 64 * WORDS);
    for (uint32_t id = 0; id < fam->ncodes; id++) {
        unsigned char data[36];
        code_data(fam, id, data);
        for (int t = 0; t < rim->turns; t++)
            for (size_t k = 0; k < rim->n; k++) {
                if (code_of[k] == (size_t)-1)
                    continue;
                const size_t from = rim->cells[k].turned[t];
                cr_assert(from < rim->n && rim->cells[from].kind == ROSTER_RIM_CODE);
                if (roster_rim_colour(&rim->cells[from], data))
                    out[id][t][code_of[k] / 64] |= 1ull << (code_of[k] % 64);
            }
    }
    const size_t n = fam->ncodes;
    tag36h11_destroy(fam);
    free(code_of);
    return n;
}

static int closest_pair(double w, double d)
{
    roster_rim rim;
    base_error err;
    cr_assert_eq(roster_rim_make(w, d, roster_rim_cell_for(w, d, false), &rim, &err), 0, "%s", err.msg);
    uint64_t(*codes)[4][WORDS] = calloc(587, sizeof *codes);
    const size_t n = label_codes(&rim, codes);
    int least = 1000;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a; b < n; b++)
            for (int t = 0; t < rim.turns; t++) {
                if (a == b && t == 0)
                    continue;
                int dist = 0;
                for (int q = 0; q < WORDS; q++)
                    dist += __builtin_popcountll(codes[a][0][q] ^ codes[b][t][q]);
                least = dist < least ? dist : least;
            }
    free(codes);
    roster_rim_clear(&rim);
    return least;
}

Test(roster_mark, any_two_labels_differ_in_at_least_11_cells_in_any_turn)
{
    const int d20 = closest_pair(20, 20), d25 = closest_pair(25, 25), d50 = closest_pair(25, 50);
    cr_log_info("closest pair of labels: 20x20 %d cells, 25x25 %d, 25x50 %d", d20, d25, d50);
    cr_expect_geq(d20, 11);
    cr_expect_geq(d25, 11);
    cr_expect_geq(d50, 11);
}

static const char *ROSTER_RIM =
    "{\"format\":\"tableref.roster\",\"version\":1,\"family\":\"tag36h11\",\"board\":{\"width_mm\":1800,"
    "\"depth_mm\":1200,\"tags\":[]},\"units\":[{\"id\":\"spears\",\"side\":\"red\",\"base_mm\":[20,20],"
    "\"advance_in\":5,\"march_in\":10,\"tag\":{\"layout\":\"rim\",\"height_mm\":4,\"cell_mm\":2},"
    "\"models\":[{\"id\":\"s1\",\"tag_id\":10},{\"id\":\"s2\",\"tag_id\":11}]},"
    "{\"id\":\"scouts\",\"side\":\"red\",\"base_mm\":[25,25],\"advance_in\":5,\"march_in\":10,\"loose\":true,"
    "\"tag\":{\"height_mm\":4,\"size_mm\":16},\"models\":[{\"id\":\"c1\",\"tag_id\":20}]}]}";

static roster_file *parse(const char *text, base_error *err)
{
    cJSON *j = cJSON_Parse(text);
    cr_assert_not_null(j);
    roster_file *r = roster_from_json(j, "roster.json", err);
    cJSON_Delete(j);
    return r;
}

Test(roster_mark, a_rim_layout_read_written_and_read_again)
{
    base_error err;
    roster_file *r = parse(ROSTER_RIM, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_expect_eq(r->units[0].mount.layout, ROSTER_MARK_RIM);
    cr_expect_float_eq(r->units[0].mount.cell, 2.0, 1e-9);
    cr_expect_eq(r->units[1].mount.layout, ROSTER_MARK_SQUARE);
    cr_expect(r->units[1].loose);
    cJSON *j = roster_to_json(r);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    roster_free(r);
    r = parse(text, &err);
    free(text);
    cr_assert_not_null(r, "%s", err.msg);
    cr_expect_eq(r->units[0].mount.layout, ROSTER_MARK_RIM);
    cr_expect_float_eq(r->units[0].mount.cell, 2.0, 1e-9);
    cr_expect(r->units[1].loose);
    roster_free(r);
}

Test(roster_mark, a_rim_with_a_square_tags_fields_or_too_large_cells_is_refused)
{
    static const struct { const char *from, *to, *why; } bad[] = {
        {"\"cell_mm\":2}", "\"cell_mm\":2,\"size_mm\":12}", "units[0].tag.size_mm"},
        {"\"cell_mm\":2}", "\"cell_mm\":2.5}", "units[0].tag.cell_mm"},
        {"\"layout\":\"rim\"", "\"layout\":\"ring\"", "units[0].tag.layout"},
        {"\"size_mm\":16}", "\"size_mm\":16,\"cell_mm\":2}", "units[1].tag.cell_mm"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *at = strstr(ROSTER_RIM, bad[k].from);
        cr_assert_not_null(at);
        char text[2048];
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - ROSTER_RIM), ROSTER_RIM, bad[k].to,
                 at + strlen(bad[k].from));
        base_error err;
        roster_file *r = parse(text, &err);
        cr_expect_null(r, "case %zu read", k);
        if (!r)
            cr_expect(strstr(err.msg, bad[k].why) != NULL, "case %zu: %s", k, err.msg);
        roster_free(r);
    }
}

Test(roster_mark, tags_layout_gives_rim_labels_and_keeps_round_bases_square)
{
    base_error err;
    roster_file *r = parse(ROSTER_RIM, &err);
    cr_assert_not_null(r, "%s", err.msg);
    r->units[1].round_base = true;
    size_t changed;
    /* The bases' marks alone (masts: test_roster_masts.c). */
    const roster_layout_options bases_only = {false, true, 0, 0, -1};
    roster_layout_marks_with(r, &bases_only, &changed, NULL);
    cr_expect_eq(changed, 1, "the rim unit named its layout: kept");
    cr_expect_eq(r->units[1].mount.layout, ROSTER_MARK_SQUARE);
    cr_expect_float_eq(r->units[1].mount.size, 16, 1e-9);
    r->units[1].round_base = false;
    const roster_layout_options redo = {true, true, 0, 0, -1};
    roster_layout_marks_with(r, &redo, &changed, NULL);
    cr_expect_eq(changed, 2);
    cr_expect_eq(r->n_marks, 0);
    cr_expect_eq(r->units[1].mount.layout, ROSTER_MARK_RIM);
    cr_expect_float_eq(r->units[1].mount.cell, 2.5, 1e-9);
    roster_free(r);
}
