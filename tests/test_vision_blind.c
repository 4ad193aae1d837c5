/*
 * The blind first pass's tag settings (vis_tag_config_blind: 1 corrected
 * bit, margin 20, contrast 80, clusters of 60 edge pixels) on the apriltag
 * project's three real photos (tests/data/apriltag-test, CC BY-SA 2.0):
 * every tag of the project's reference read with its id, no other read.
 * The contrast and cluster floors drop the candidate quads of flat and
 * noisy patches; these photos have tags in shade and at a slant, which a
 * floor set too high would lose.
 */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "media_image_read.h"
#include "vis_tag.h"
#include "vision_test_util.h"

/* The reference's ids in order of appearance; their count. */
static size_t reference_ids(const char *stem, int *ids, size_t cap)
{
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/tests/data/apriltag-test/%s.txt", vt_source_root(), stem);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    size_t n = 0;
    while (n < cap && fgets(line, sizeof line, f))
        if (sscanf(line, "%d,", &ids[n]) == 1)
            n++;
    fclose(f);
    return n;
}

/* The photo read with the blind settings at `decimate`: `want_read` of the reference's `want_n` tags read (ids
 * matched one for one), no id the reference does not have. */
static void check_blind(const char *stem, double decimate, size_t want_n, size_t want_read)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/apriltag-test/%s.jpg", vt_source_root(), stem);
    base_error err = {0};
    base_image *img = media_image_load(path, MEDIA_IMAGE_GRAY, &err);
    cr_assert_not_null(img, "%s", err.msg);
    vis_tag_detector *d = vis_tag_detector_new("tag36h11");
    cr_assert_not_null(d);
    vis_tag_config_blind(&d->cfg, decimate, 1);
    vis_tag_list got = {0};
    cr_assert_eq(vis_tag_detect(d, img->data, img->width, img->height, img->stride, &got, &err), 0, "%s", err.msg);
    int want[64];
    bool used[64] = {false};
    const size_t nw = reference_ids(stem, want, 64);
    cr_assert_eq(nw, want_n, "%s: the reference lists %zu tags", stem, nw);
    size_t read = 0, wrong = 0;
    for (size_t i = 0; i < got.n; i++) {
        cr_expect_leq(got.items[i].hamming, 1);
        cr_expect_geq(got.items[i].margin, 20);
        size_t k = 0;
        while (k < nw && (used[k] || want[k] != got.items[i].id))
            k++;
        if (k < nw)
            used[k] = true, read++;
        else
            wrong++;
    }
    cr_expect_eq(read, want_read, "%s: %zu of the reference's %zu tags read blind, want %zu", stem, read, nw, want_read);
    cr_expect_eq(wrong, 0, "%s: %zu ids the reference does not have", stem, wrong);
    vis_tag_list_clear(&got);
    vis_tag_detector_free(d);
    base_image_free(img);
}

Test(vision_blind, photo_33369213973_all_12_tags_read_none_wrong) { check_blind("33369213973_9d9bb4cc96_c", 1, 12, 12); }
/* The two left out need more than 1 corrected bit here (no margin floor reads them back). */
Test(vision_blind, photo_34085369442_23_of_25_tags_read_none_wrong) { check_blind("34085369442_304b6bafd9_c", 1, 25, 23); }
Test(vision_blind, photo_34139872896_all_10_tags_read_none_wrong) { check_blind("34139872896_defdb2f8d9_c", 1, 10, 10); }

Test(vision_blind, the_settings_are_the_ones_documented)
{
    vis_tag_config c;
    vis_tag_config_blind(&c, 0.5, 0);
    cr_assert_eq(c.decimate, 1.0, "a decimation under 1 is 1");
    cr_assert_eq(c.threads, 1);
    cr_assert_eq(c.max_hamming, 1);
    cr_assert_eq(c.min_margin, 20.0);
    cr_assert_eq(c.min_contrast, 80);
    cr_assert_eq(c.min_cluster_px, 60);
    cr_assert_eq(c.sigma, 0.0);
    cr_assert_eq(c.refine_edges, 1);
}
