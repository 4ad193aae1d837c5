/*
 * `tableref tags sheet`: the PDF rendered by poppler (pdftoppm, as a printer
 * driver would) and every tag decoded by the stock apriltag detector at the
 * printed size: each model's tag and the board's corner tags found once,
 * with the roster's ID, where the layout says and at the roster's size in
 * millimetres; the 100 mm check bar 100 mm long. The roster comes from a
 * real list (datasets/armylists/nr-text-undying-dynasties-2.txt) imported by
 * `tableref roster import`, bases and rates given with --set; --square-tags
 * where the square tags are tested (the import lays out rim labels unless
 * told so), and the rim labels as the import and `tags layout` lay them out.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <apriltag/apriltag.h>
#include <apriltag/tag36h11.h>
#include <cjson/cJSON.h>

#include "cvshim.h"
#include "rules_json.h"
#include "media_image_read.h"
#include "roster.h"
#include "vision_test_util.h"

#define DPI 300.0
static char dir[256];

static int sh(const char *cmd)
{
    char full[8192];
    snprintf(full, sizeof full, "cd '%s' && %s >>'%s/log.txt' 2>&1", vt_env("TABLEREF_SOURCE_ROOT", "."), cmd, dir);
    return vt_exit_status(system(full));
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-sheet-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
}

static void print_sheet(const char *name, const char *paper);

/* The Undying Dynasties list of the New Recruit report, with the army book's bases and rates given by hand. */
static void import_roster(const char *name, const char *marks)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' roster import datasets/armylists/nr-text-undying-dynasties-2.txt --army 2 --out '%s/%s.json' "
             "--set 'Death Cult Hierarch:base=20x20' --set 'Death Cult Hierarch:adv=4' --set 'Death Cult Hierarch:mar=8' "
             "--set 'Nomarch:base=20x20' --set 'Nomarch:adv=4' --set 'Nomarch:mar=8' "
             "--set 'Skeleton Chariots:base=50x100' --set 'Skeleton Chariots:adv=8' --set 'Skeleton Chariots:mar=10' "
             "--set 'Skeleton Cavalry:base=25x50' --set 'Skeleton Cavalry:adv=8' --set 'Skeleton Cavalry:mar=16' "
             "--set 'Tomb Cataphracts:base=50x100' --set 'Tomb Cataphracts:adv=7' --set 'Tomb Cataphracts:mar=14' "
             "--set 'Necropolis Guard:base=20x20' --set 'Necropolis Guard:adv=4' --set 'Necropolis Guard:mar=8' "
             /* A player who put the Sphinxes on 60 mm round bases: a round label. */
             "--set 'Dread Sphinx:base=60o' --set 'Dread Sphinx:adv=6' --set 'Dread Sphinx:mar=12' "
             "--set 'Scarab Swarms:base=40x40' --set 'Scarab Swarms:adv=5' --set 'Scarab Swarms:mar=10' %s",
             vt_tableref_bin(), dir, name, marks);
    cr_assert_eq(sh(cmd), 0, "roster import failed (see %s/log.txt)", dir);
}

static void make_roster(const char *paper, const char *marks)
{
    import_roster("ud", marks);
    print_sheet("ud", paper);
}

/* `tags sheet` of DIR/NAME.json into DIR/ud.pdf and DIR/layout.json, every page by pdftoppm into DIR/page-N.png. */
static void print_sheet(const char *name, const char *paper)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' tags sheet '%s/%s.json' --out '%s/ud.pdf' --paper %s --layout '%s/layout.json'",
             vt_tableref_bin(), dir, name, dir, paper, dir);
    cr_assert_eq(sh(cmd), 0, "tags sheet failed (see %s/log.txt)", dir);
    snprintf(cmd, sizeof cmd, "pdftoppm -r %.0f -gray -png '%s/ud.pdf' '%s/page'", DPI, dir, dir);
    cr_assert_eq(sh(cmd), 0, "pdftoppm failed: is poppler-utils installed? (scripts/setup-debian.sh)");
}

typedef struct found {
    int id, page;
    double x_mm, y_mm, size_mm;
    int count;
} found;

/* Every tag on every page, by the stock detector (apriltag's defaults). */
static int decode_pages(int pages, found *out, int cap, double paper_w, double paper_h)
{
    apriltag_family_t *tf = tag36h11_create();
    apriltag_detector_t *td = apriltag_detector_create();
    apriltag_detector_add_family(td, tf);
    int n = 0;
    const double mm = 25.4 / DPI;
    for (int p = 1; p <= pages; p++) {
        char path[512];
        snprintf(path, sizeof path, "%s/page-%d.png", dir, p);
        if (access(path, F_OK) != 0)
            snprintf(path, sizeof path, "%s/page-%02d.png", dir, p);
        base_error err;
        base_image *img = media_image_load(path, MEDIA_IMAGE_GRAY, &err);
        cr_assert_not_null(img, "%s", err.msg);
        cr_assert_float_eq(img->width * mm, paper_w, 0.2, "page %d is %d px wide", p, img->width);
        cr_assert_float_eq(img->height * mm, paper_h, 0.2);
        image_u8_t im = {img->width, img->height, (int32_t)img->stride, img->data};
        zarray_t *dets = apriltag_detector_detect(td, &im);
        for (int i = 0; i < zarray_size(dets); i++) {
            apriltag_detection_t *d;
            zarray_get(dets, i, &d);
            cr_assert_eq(d->hamming, 0, "tag %d decoded with %d bit errors", d->id, d->hamming);
            double edge = 0;
            for (int k = 0; k < 4; k++)
                edge += hypot(d->p[(k + 1) % 4][0] - d->p[k][0], d->p[(k + 1) % 4][1] - d->p[k][1]) / 4;
            cr_assert_lt(n, cap);
            /* apriltag's pixel centres are at +0.5: the page mm of a pixel coordinate is (u) * mm. */
            out[n++] = (found){d->id, p, d->c[0] * mm, d->c[1] * mm, edge * mm, 1};
        }
        apriltag_detections_destroy(dets);
        base_image_free(img);
    }
    apriltag_detector_destroy(td);
    tag36h11_destroy(tf);
    return n;
}

/* The check bar's black length along its middle row. */
static double bar_length(int page, double x_mm, double y_mm)
{
    char path[512];
    snprintf(path, sizeof path, "%s/page-%d.png", dir, page);
    if (access(path, F_OK) != 0)
        snprintf(path, sizeof path, "%s/page-%02d.png", dir, page);
    base_error err;
    base_image *img = media_image_load(path, MEDIA_IMAGE_GRAY, &err);
    cr_assert_not_null(img, "%s", err.msg);
    const int v = (int)(y_mm / 25.4 * DPI);
    const uint8_t *row = img->data + (size_t)v * img->stride;
    int u0 = (int)((x_mm - 5) / 25.4 * DPI), u = u0;
    while (u < img->width && row[u] > 128)
        u++;
    /* Sub-pixel ends from the grey levels of the edge pixels. */
    double left = u - (255 - row[u - 1]) / 255.0;
    int w = u;
    while (w < img->width && row[w] <= 128)
        w++;
    double right = w + (255 - row[w]) / 255.0;
    base_image_free(img);
    return (right - left) * 25.4 / DPI;
}

static void check_sheet(const char *paper, double pw, double ph)
{
    make_roster(paper, "--square-tags");
    char path[512];
    snprintf(path, sizeof path, "%s/layout.json", dir);
    base_error err;
    cJSON *layout = base_json_parse_file(path, &err);
    cr_assert_not_null(layout, "%s", err.msg);
    const cJSON *tags = cJSON_GetObjectItemCaseSensitive(layout, "tags"), *t;
    int pages = 0, n_layout = 0;
    cJSON_ArrayForEach(t, tags)
    {
        pages = fmax(pages, cJSON_GetObjectItemCaseSensitive(t, "page")->valueint);
        n_layout++;
    }
    /* Masts (units[].marks[]; --square-tags lays out none) would print as square tags too. */
    snprintf(path, sizeof path, "%s/ud.json", dir);
    cJSON *roster = base_json_parse_file(path, &err);
    cr_assert_not_null(roster, "%s", err.msg);
    int masts = 0;
    const cJSON *ru;
    cJSON_ArrayForEach(ru, cJSON_GetObjectItemCaseSensitive(roster, "units"))
        masts += cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ru, "marks"));
    cJSON_Delete(roster);
    cr_assert_eq(n_layout, 69 + 4 + masts, "69 models, %d masts and 4 corner tags in the layout, got %d", masts,
                 n_layout);
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(layout, "check_bars"))
        pages = fmax(pages, cJSON_GetObjectItemCaseSensitive(t, "page")->valueint);
    char probe[512];
    snprintf(probe, sizeof probe, "%s/page-%d.png", dir, pages + 1);
    cr_assert_neq(access(probe, F_OK), 0, "poppler rendered more pages than the layout says");
    static found f[200];
    int n = decode_pages(pages, f, 200, pw, ph);
    cr_assert_eq(n, n_layout, "decoded %d tags, the sheet holds %d", n, n_layout);
    /* Every tag of the layout decoded once, at its place and size. */
    cJSON_ArrayForEach(t, tags)
    {
        const int id = cJSON_GetObjectItemCaseSensitive(t, "id")->valueint;
        const int page = cJSON_GetObjectItemCaseSensitive(t, "page")->valueint;
        const double x = cJSON_GetObjectItemCaseSensitive(t, "x_mm")->valuedouble;
        const double y = cJSON_GetObjectItemCaseSensitive(t, "y_mm")->valuedouble;
        const double size = cJSON_GetObjectItemCaseSensitive(t, "size_mm")->valuedouble;
        int hits = 0;
        for (int i = 0; i < n; i++) {
            if (f[i].id != id)
                continue;
            hits++;
            cr_assert_eq(f[i].page, page, "tag %d on page %d, expected %d", id, f[i].page, page);
            cr_assert_lt(hypot(f[i].x_mm - x, f[i].y_mm - y), 0.15, "tag %d at (%.3f, %.3f) mm, expected (%.3f, %.3f)",
                         id, f[i].x_mm, f[i].y_mm, x, y);
            cr_assert_float_eq(f[i].size_mm, size, 0.1, "tag %d printed %.3f mm, the roster says %.3f", id,
                               f[i].size_mm, size);
        }
        cr_assert_eq(hits, 1, "tag %d decoded %d times", id, hits);
    }
    /* Odd IDs for army 2, and never a board tag's. */
    for (int i = 0; i < n; i++)
        cr_assert(f[i].id < 4 || f[i].id % 2 == 1, "army 2 prints odd IDs, found %d", f[i].id);
    const cJSON *bars = cJSON_GetObjectItemCaseSensitive(layout, "check_bars"), *b;
    int n_bars = 0;
    cJSON_ArrayForEach(b, bars)
    {
        double len = bar_length(cJSON_GetObjectItemCaseSensitive(b, "page")->valueint,
                                cJSON_GetObjectItemCaseSensitive(b, "x_mm")->valuedouble,
                                cJSON_GetObjectItemCaseSensitive(b, "y_mm")->valuedouble);
        cr_assert_float_eq(len, 100.0, 0.2, "the check bar is %.3f mm", len);
        n_bars++;
    }
    cr_assert_eq(n_bars, pages, "a check bar on every page");
    cJSON_Delete(layout);
}

Test(sheet, a4_every_tag_decodes_at_its_printed_size, .init = setup, .fini = teardown, .timeout = 240)
{
    check_sheet("a4", 210, 297);
}

Test(sheet, letter_every_tag_decodes_at_its_printed_size, .init = setup, .fini = teardown, .timeout = 240)
{
    check_sheet("letter", 215.9, 279.4);
}

Test(sheet, incomplete_roster_is_refused_by_name, .init = setup, .fini = teardown, .timeout = 60)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' roster import datasets/armylists/MagicItems60.rosz --out '%s/tk.json' </dev/null",
             vt_tableref_bin(), dir);
    cr_assert_eq(sh(cmd), 1);
    snprintf(cmd, sizeof cmd, "'%s' tags sheet '%s/tk.json' --out '%s/tk.pdf'", vt_tableref_bin(), dir, dir);
    cr_assert_eq(sh(cmd), 2);
    char log[4096] = "";
    snprintf(cmd, sizeof cmd, "%s/log.txt", dir);
    FILE *fl = fopen(cmd, "r");
    cr_assert_not_null(fl);
    size_t got = fread(log, 1, sizeof log - 1, fl);
    log[got] = '\0';
    fclose(fl);
    cr_assert(strstr(log, "still unknown values (first: Tomb King)") != NULL, "%s", log);
    snprintf(cmd, sizeof cmd, "%s/tk.pdf", dir);
    cr_assert_neq(access(cmd, F_OK), 0, "no PDF written");
}

static void read_log(char *log, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/log.txt", dir);
    FILE *fl = fopen(path, "r");
    cr_assert_not_null(fl);
    size_t got = fread(log, 1, cap - 1, fl);
    log[got] = '\0';
    fclose(fl);
}

/* Issue 21: tags print as soon as the bases are known; the rates are asked for before judging. */
Test(sheet, tags_print_before_the_rates_are_known, .init = setup, .fini = teardown, .timeout = 120)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' roster import datasets/armylists/nr-text-undying-dynasties-2.txt --army 2 --out '%s/ud.json' "
             "--set 'Death Cult Hierarch:base=20x20' --set 'Death Cult Hierarch:adv=4' --set 'Death Cult Hierarch:mar=8' "
             "--set 'Nomarch:base=20x20' --set 'Skeleton Chariots:base=50x100' --set 'Skeleton Cavalry:base=25x50' "
             "--set 'Skeleton Cavalry:adv=8' --set 'Tomb Cataphracts:base=50x100' --set 'Necropolis Guard:base=20x20' "
             "--set 'Dread Sphinx:base=60o' --set 'Dread Sphinx:adv=6' --set 'Dread Sphinx:mar=12' "
             "--set 'Scarab Swarms:base=40x40' --square-tags </dev/null",
             vt_tableref_bin(), dir);
    cr_assert_eq(sh(cmd), 1, "written, with rates still unknown");
    snprintf(cmd, sizeof cmd, "'%s' tags sheet '%s/ud.json' --out '%s/ud.pdf'", vt_tableref_bin(), dir, dir);
    cr_assert_eq(sh(cmd), 0, "the sheet prints with the bases known and rates not");
    char log[16384];
    read_log(log, sizeof log);
    cr_assert(strstr(log, "wrote ") && strstr(log, "69 model tags"), "%s", log);
    cr_assert(strstr(log, "9 units have no Advance/March Rate yet (left off their labels)") != NULL, "%s", log);
    /* The rates, where known, on the labels and in the headings (pdftotext reads what Pango wrote). */
    snprintf(cmd, sizeof cmd, "pdftotext -layout '%s/ud.pdf' '%s/ud.txt'", dir, dir);
    cr_assert_eq(sh(cmd), 0, "pdftotext failed: is poppler-utils installed?");
    char path[512], text[65536];
    snprintf(path, sizeof path, "%s/ud.txt", dir);
    FILE *ft = fopen(path, "r");
    cr_assert_not_null(ft);
    size_t got = fread(text, 1, sizeof text - 1, ft);
    text[got] = '\0';
    fclose(ft);
    cr_assert(strstr(text, "IDs 11\xE2\x80\x93" "11, Adv/Mar 4\"/8\"") != NULL, "the hierarch's heading has its rates");
    cr_assert(strstr(text, "IDs 13\xE2\x80\x93" "13, Adv/Mar ?") != NULL, "a nomarch's are not known yet");
    cr_assert(strstr(text, "Adv/Mar 8\"/-") != NULL, "the cavalry's Advance without its March");
    cr_assert(strstr(text, "1 \xC2\xB7 #133 \xC2\xB7 6\"/12\"") != NULL, "a round label has its rates after its ID");
    int on_labels = 0;
    for (const char *p = text; (p = strstr(p, "\n4\"/8\"")); p++)
        on_labels++;
    cr_assert_eq(on_labels, 1, "the hierarch's label carries 4\"/8\" once, got %d", on_labels);
    int cavalry = 0;
    for (const char *p = text; (p = strstr(p, "8\"/-")); p++)
        cavalry++;
    cr_assert_eq(cavalry, 14 + 1, "14 cavalry labels and their heading, got %d", cavalry);
    /* Judging needs them: detect refuses the roster, naming every unit without rates and how to give them. */
    snprintf(cmd, sizeof cmd,
             "'%s' detect datasets/demo/after.jpg --calib datasets/demo/calib.json --roster '%s/ud.json' --out '%s/s.json'",
             vt_tableref_bin(), dir, dir);
    cr_assert_eq(sh(cmd), 2);
    read_log(log, sizeof log);
    cr_assert(strstr(log, "ud.json: 8 units have no Advance or March Rate, needed to judge a move: nomarch-1 (Nomarch), "
                          "nomarch-2 (Nomarch), skeleton-chariots-1 (Skeleton Chariots)") != NULL,
              "%s", log);
    cr_assert(strstr(log, "--set 'Nomarch:adv=N' --set 'Nomarch:mar=N'") != NULL, "%s", log);
    snprintf(path, sizeof path, "%s/s.json", dir);
    cr_assert_neq(access(path, F_OK), 0, "no snapshot written");
}

/* The tag36h11 data cells of code `id` (1 white). */
static void code_data(apriltag_family_t *fam, int id, unsigned char data[36])
{
    image_u8_t *im = apriltag_to_image(fam, (uint32_t)id);
    cr_assert_not_null(im);
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++)
            data[r * 6 + c] = im->buf[(r + 2) * im->stride + c + 2] != 0;
    image_u8_destroy(im);
}

/* The colour of every cell of a rim label printed at (x, y) page mm: cells right, cells in all. */
static void check_rim(const base_image *img, apriltag_family_t *fam, const roster_unit *u, const roster_model *m,
                      double x, double y, long *right, long *cells)
{
    const double w = m->base_width > 0 ? m->base_width : u->base_width, d = m->base_width > 0 ? m->base_depth : u->base_depth;
    roster_rim rim;
    base_error err;
    cr_assert_eq(roster_rim_make(w, d, u->mount.cell, &rim, &err), 0, "%s", err.msg);
    unsigned char data[36];
    code_data(fam, m->tag_id, data);
    const double px = DPI / 25.4;
    for (size_t k = 0; k < rim.n; k++) {
        /* Base frame x forward (up the page), y left (left on the page). */
        const int u_px = (int)floor((x - rim.cells[k].y) * px), v_px = (int)floor((y - rim.cells[k].x) * px);
        cr_assert(u_px >= 0 && v_px >= 0 && u_px < img->width && v_px < img->height);
        const int grey = img->data[(size_t)v_px * img->stride + (size_t)u_px];
        (*cells)++;
        *right += (grey > 128) == (roster_rim_colour(&rim.cells[k], data) == 1);
    }
    /* The front mark on the rim: at the front edge's middle, a tenth of a cell in, the other colour of the cell
     * there; half a cell to either side of it the cell's own colour (a mark, not a smudge). */
    const double front_x = (d / 2 - rim.margin_y) - 0.1 * u->mount.cell;
    for (int side = -1; side <= 1; side++) {
        const double across = (side ? side * 0.45 : 0.05) * u->mount.cell;
        size_t under = rim.n;
        for (size_t k = 0; k < rim.n; k++)
            if (rim.cells[k].j == 0 && fabs(-rim.cells[k].y - across) <= u->mount.cell / 2)
                under = k;
        cr_assert(under < rim.n);
        const int u_px = (int)floor((x + across) * px), v_px = (int)floor((y - front_x) * px);
        const int white = img->data[(size_t)v_px * img->stride + (size_t)u_px] > 128;
        const int cell_white = roster_rim_colour(&rim.cells[under], data) == 1;
        (*cells)++;
        *right += side == 0 ? white != cell_white : white == cell_white;
    }
    roster_rim_clear(&rim);
}

/*
 * `tags layout` then `tags sheet`: every rectangular base of the list gets a
 * rim label (the two Sphinxes on round 60 mm bases keep their square tags),
 * and every printed cell of every rim label, sampled at its
 * centre at 300 dpi, has the colour roster_rim_make gives it (exact: a 2 mm
 * cell is 23 px).
 */
Test(sheet, rim_labels_print_every_cell_where_the_roster_puts_it, .init = setup, .fini = teardown, .timeout = 240)
{
    /* The import lays the marks out as `tags layout` does on the same list imported with square tags. */
    import_roster("square", "--square-tags");
    char cmd[1024], path[512];
    snprintf(cmd, sizeof cmd, "'%s' tags layout '%s/square.json' --out '%s/laid.json'", vt_tableref_bin(), dir, dir);
    cr_assert_eq(sh(cmd), 0, "tags layout failed (see %s/log.txt)", dir);
    make_roster("a4", "");
    base_error err;
    snprintf(path, sizeof path, "%s/laid.json", dir);
    cJSON *laid = base_json_parse_file(path, &err);
    cr_assert_not_null(laid, "%s", err.msg);
    snprintf(path, sizeof path, "%s/ud.json", dir);
    cJSON *imported = base_json_parse_file(path, &err);
    cr_assert_not_null(imported, "%s", err.msg);
    const cJSON *lu = cJSON_GetObjectItemCaseSensitive(laid, "units"), *iu = cJSON_GetObjectItemCaseSensitive(imported, "units");
    cr_assert_eq(cJSON_GetArraySize(lu), cJSON_GetArraySize(iu));
    for (int k = 0; k < cJSON_GetArraySize(lu); k++)
        cr_expect(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(lu, k), "tag"),
                                cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(iu, k), "tag"), true),
                  "unit %d: the import's marks are not tags layout's", k);
    cJSON_Delete(laid);
    cJSON_Delete(imported);
    /* The sheet of the imported roster prints every rim label's cells where the roster says. */
    roster_file *r = roster_load(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    snprintf(path, sizeof path, "%s/layout.json", dir);
    cJSON *layout = base_json_parse_file(path, &err);
    cr_assert_not_null(layout, "%s", err.msg);
    apriltag_family_t *fam = tag36h11_create();
    long right = 0, cells = 0;
    int rims = 0, squares = 0, page_loaded = 0;
    base_image *img = NULL;
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(layout, "tags"))
    {
        const cJSON *who = cJSON_GetObjectItemCaseSensitive(t, "model");
        if (!cJSON_IsString(who))
            continue;
        const int id = cJSON_GetObjectItemCaseSensitive(t, "id")->valueint;
        const roster_model *m = roster_find_model_tag(r, id);
        cr_assert_not_null(m);
        const roster_unit *u = &r->units[m->unit];
        if (u->mount.layout != ROSTER_MARK_RIM) {
            squares++;
            cr_expect(u->round_base, "%s: a rectangular base without a rim label", m->id);
            continue;
        }
        rims++;
        const int page = cJSON_GetObjectItemCaseSensitive(t, "page")->valueint;
        if (page != page_loaded) {
            base_image_free(img);
            snprintf(path, sizeof path, "%s/page-%d.png", dir, page);
            if (access(path, F_OK) != 0)
                snprintf(path, sizeof path, "%s/page-%02d.png", dir, page);
            img = media_image_load(path, MEDIA_IMAGE_GRAY, &err);
            cr_assert_not_null(img, "%s", err.msg);
            page_loaded = page;
        }
        check_rim(img, fam, u, m, cJSON_GetObjectItemCaseSensitive(t, "x_mm")->valuedouble,
                  cJSON_GetObjectItemCaseSensitive(t, "y_mm")->valuedouble, &right, &cells);
    }
    cr_log_info("rim labels %d, square tags %d; cells %ld, of the roster's colour %ld", rims, squares, right, cells);
    cr_expect_eq(squares, 2, "the round Sphinxes alone keep square tags");
    cr_expect_gt(rims, 50);
    cr_expect_eq(right, cells);
    base_image_free(img);
    tag36h11_destroy(fam);
    cJSON_Delete(layout);
    roster_free(r);
}

/* The black length of the upright bar whose top end is at (x_mm, y_mm) page mm, down that column (sub-pixel ends). */
static double rod_bar_length(const base_image *img, double x_mm, double y_mm)
{
    const int u = (int)(x_mm / 25.4 * DPI);
    const uint8_t *col = img->data + u;
    const size_t st = img->stride;
    int v = (int)((y_mm - 1.0) / 25.4 * DPI);
    while (v < img->height && col[v * st] > 128)
        v++;
    const double top = v - (255 - col[(v - 1) * st]) / 255.0;
    int w = v;
    while (w < img->height && col[w * st] <= 128)
        w++;
    return (w + (255 - col[w * st]) / 255.0 - top) * 25.4 / DPI;
}

/*
 * The masts the import adds: every one of the roster's marks[] prints once,
 * its tag decoded by the stock detector with the roster's ID at the layout's
 * place, its black square size_mm at 300 dpi (20 mm is 236.2 px: within
 * 1.2 px, a tenth of a millimetre), turned as the roster says, tagged with
 * its carrier; and its rod guide a bar of height_mm minus the base top
 * (tag.height_mm), within 0.2 mm.
 */
Test(sheet, masts_print_at_true_size_with_their_rod, .init = setup, .fini = teardown, .timeout = 240)
{
    make_roster("a4", "");
    char path[512];
    base_error err;
    snprintf(path, sizeof path, "%s/ud.json", dir);
    cJSON *roster = base_json_parse_file(path, &err);
    cr_assert_not_null(roster, "%s", err.msg);
    snprintf(path, sizeof path, "%s/layout.json", dir);
    cJSON *layout = base_json_parse_file(path, &err);
    cr_assert_not_null(layout, "%s", err.msg);
    int pages = 0;
    const cJSON *t, *u, *mk;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(layout, "check_bars"))
        pages = fmax(pages, cJSON_GetObjectItemCaseSensitive(t, "page")->valueint);
    static found f[300];
    const int n = decode_pages(pages, f, 300, 210, 297);
    int masts = 0, rods = 0;
    double worst_px = 0, worst_rod = 0;
    cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(roster, "units"))
    {
        const double base_top = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(u, "tag"), "height_mm")->valuedouble;
        cJSON_ArrayForEach(mk, cJSON_GetObjectItemCaseSensitive(u, "marks"))
        {
            cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(mk, "kind")->valuestring, "mast");
            const int id = cJSON_GetObjectItemCaseSensitive(mk, "tag_id")->valueint;
            const char *model = cJSON_GetObjectItemCaseSensitive(mk, "model")->valuestring;
            const double size = cJSON_GetObjectItemCaseSensitive(mk, "size_mm")->valuedouble;
            const double height = cJSON_GetObjectItemCaseSensitive(mk, "height_mm")->valuedouble;
            const cJSON *rot = cJSON_GetObjectItemCaseSensitive(mk, "rotation_deg");
            masts++;
            /* Its layout entry: once, as a mast of its carrier, at the roster's size and turn. */
            const cJSON *lt = NULL, *e;
            int entries = 0;
            cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(layout, "tags"))
                if (cJSON_GetObjectItemCaseSensitive(e, "id")->valueint == id)
                    lt = e, entries++;
            cr_assert_eq(entries, 1, "mast tag %d is %d times in the layout", id, entries);
            cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(lt, "mast")), model);
            cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(lt, "size_mm")->valuedouble, size, 1e-9);
            cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(lt, "rotation_deg")->valuedouble,
                               cJSON_IsNumber(rot) ? rot->valuedouble : 0, 1e-3);
            cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(lt, "card_mm")->valuedouble, size * 1.5, 1e-3);
            const int page = cJSON_GetObjectItemCaseSensitive(lt, "page")->valueint;
            const double x = cJSON_GetObjectItemCaseSensitive(lt, "x_mm")->valuedouble;
            const double y = cJSON_GetObjectItemCaseSensitive(lt, "y_mm")->valuedouble;
            /* Printed: decoded once, with its ID, where the layout says, at size_mm in pixels at 300 dpi. */
            int hits = 0;
            for (int i = 0; i < n; i++) {
                if (f[i].id != id)
                    continue;
                hits++;
                cr_assert_eq(f[i].page, page);
                cr_assert_lt(hypot(f[i].x_mm - x, f[i].y_mm - y), 0.15, "mast %d at (%.3f, %.3f), layout (%.3f, %.3f)",
                             id, f[i].x_mm, f[i].y_mm, x, y);
                const double px = f[i].size_mm / 25.4 * DPI, want = size / 25.4 * DPI;
                cr_assert_float_eq(px, want, 1.2, "mast %d printed %.2f px across, %.0f mm at 300 dpi is %.2f px", id,
                                   px, size, want);
                worst_px = fmax(worst_px, fabs(px - want));
            }
            cr_assert_eq(hits, 1, "mast tag %d decoded %d times", id, hits);
            /* Its rod guide: a bar of the rod's length above the base. */
            const cJSON *rd;
            cJSON_ArrayForEach(rd, cJSON_GetObjectItemCaseSensitive(layout, "rods"))
            {
                if (cJSON_GetObjectItemCaseSensitive(rd, "tag_id")->valueint != id)
                    continue;
                const double want = height - base_top;
                cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(rd, "length_mm")->valuedouble, want, 1e-3);
                const int rp = cJSON_GetObjectItemCaseSensitive(rd, "page")->valueint;
                snprintf(path, sizeof path, "%s/page-%d.png", dir, rp);
                if (access(path, F_OK) != 0)
                    snprintf(path, sizeof path, "%s/page-%02d.png", dir, rp);
                base_image *img = media_image_load(path, MEDIA_IMAGE_GRAY, &err);
                cr_assert_not_null(img, "%s", err.msg);
                const double len = rod_bar_length(img, cJSON_GetObjectItemCaseSensitive(rd, "x_mm")->valuedouble,
                                                  cJSON_GetObjectItemCaseSensitive(rd, "y_mm")->valuedouble);
                base_image_free(img);
                cr_assert_float_eq(len, want, 0.2, "mast %d: its rod bar is %.3f mm, the rod %.3f mm", id, len, want);
                worst_rod = fmax(worst_rod, fabs(len - want));
                rods++;
            }
        }
    }
    cr_log_info("masts %d, rod bars %d; worst size %.2f px, worst rod %.3f mm", masts, rods, worst_px, worst_rod);
    cr_assert_gt(masts, 20, "the import gives a ranked unit two masts and each loose model, character, monster one");
    cr_assert_eq(rods, masts, "every mast's rod bar fits its page on A4");
    cJSON_Delete(layout);
    cJSON_Delete(roster);
}
