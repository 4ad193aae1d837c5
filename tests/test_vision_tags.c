/*
 * `tableref tags` against the apriltag project's own expected detections on
 * its three real photos (tests/data/apriltag-test, CC BY-SA 2.0). The
 * references were made with decimate 1 and edge refinement off, which are
 * the command's defaults; corners in apriltag's convention.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roster_map.h"
#include "vis_tag.h"
#include "vision_test_util.h"

/* Reference agrees with the library to 1e-4 px; 0.15 px allows other builds' float paths. */
#define CORNER_TOL_PX 0.15

typedef struct det {
    int id;
    double xy[8];
    int used;
} det;

static size_t parse(FILE *f, det *out, size_t cap)
{
    char line[512];
    size_t n = 0;
    while (n < cap && fgets(line, sizeof line, f)) {
        det d = {0};
        if (sscanf(line, "%d, (%lf %lf), (%lf %lf), (%lf %lf), (%lf %lf)", &d.id, &d.xy[0], &d.xy[1], &d.xy[2],
                   &d.xy[3], &d.xy[4], &d.xy[5], &d.xy[6], &d.xy[7]) == 9)
            out[n++] = d;
    }
    return n;
}

static void check_photo(const char *stem)
{
    char img[1024], ref[1024], cmd[2300];
    snprintf(img, sizeof img, "%s/tests/data/apriltag-test/%s.jpg", vt_source_root(), stem);
    snprintf(ref, sizeof ref, "%s/tests/data/apriltag-test/%s.txt", vt_source_root(), stem);
    snprintf(cmd, sizeof cmd, "'%s' tags '%s'", vt_tableref_bin(), img);
    det want[64], got[64];
    FILE *f = fopen(ref, "r");
    cr_assert_not_null(f, "cannot open %s", ref);
    size_t nw = parse(f, want, 64);
    fclose(f);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t ng = parse(p, got, 64);
    int status = pclose(p);
    cr_assert_eq(status, 0, "tableref tags failed on %s", img);
    cr_assert_gt(nw, 0);
    cr_assert_eq(ng, nw, "%s: %zu tags found, reference has %zu", stem, ng, nw);
    for (size_t i = 0; i < nw; i++) {
        int matched = 0;
        for (size_t j = 0; j < ng && !matched; j++) {
            if (got[j].used || got[j].id != want[i].id)
                continue;
            double worst = 0;
            for (int k = 0; k < 8; k++)
                worst = fmax(worst, fabs(got[j].xy[k] - want[i].xy[k]));
            if (worst <= CORNER_TOL_PX)
                got[j].used = matched = 1;
        }
        cr_expect(matched, "%s: reference tag %d at (%.2f, %.2f) not found within %.2f px", stem, want[i].id,
                  want[i].xy[0], want[i].xy[1], CORNER_TOL_PX);
    }
}

Test(vision_tags, photo_33369213973_matches_reference) { check_photo("33369213973_9d9bb4cc96_c"); }
Test(vision_tags, photo_34085369442_matches_reference) { check_photo("34085369442_304b6bafd9_c"); }
Test(vision_tags, photo_34139872896_matches_reference) { check_photo("34139872896_defdb2f8d9_c"); }

Test(vision_tags, help_exits_zero)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' tags --help >/dev/null", vt_tableref_bin());
    cr_assert_eq(vt_exit_status(system(cmd)), 0);
}

Test(vision_tags, unknown_family_is_usage_error)
{
    char cmd[2300];
    snprintf(cmd, sizeof cmd, "'%s' tags '%s/tests/data/apriltag-test/33369213973_9d9bb4cc96_c.jpg' --family nope 2>/dev/null",
             vt_tableref_bin(), vt_source_root());
    cr_assert_eq(vt_exit_status(system(cmd)), 2);
}

/* The roster module knows each family's code count without apriltag (roster/roster_map.h): the same as the
 * detector's. */
Test(vision_tags, the_roster_knows_each_familys_codes)
{
    static const char *const families[] = {"tag36h11", "tagStandard41h12"};
    for (size_t i = 0; i < 2; i++) {
        vis_tag_detector *d = vis_tag_detector_new(families[i]);
        cr_assert_not_null(d);
        cr_expect_eq(roster_family_codes(families[i]), vis_tag_family_codes(d), "%s", families[i]);
        vis_tag_detector_free(d);
    }
    cr_expect_eq(roster_family_codes("tag25h9"), 0);
    cr_expect_eq(roster_family_codes(NULL), 0);
}
