/*
 * The checked picture loader (vision/media_image_read.h) and the detector's own
 * guard against tiny pictures (vis_tag_detect). Every picture is made here,
 * in a fresh temporary folder.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image_test_util.h"
#include "media_image_read.h"
#include "vis_tag.h"

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tableref-image-XXXXXX");
    cr_assert(mkdtemp(dir));
    media_image_set_max_pixels(0);
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
    media_image_set_max_pixels(0);
}

TestSuite(image, .init = setup, .fini = teardown, .timeout = 60);

static const char *in_dir(const char *name)
{
    static char paths[8][160];
    static int k;
    char *p = paths[k++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

/* Loads `path` expecting a refusal of kind `fault` whose message is exactly `want` after "path: ". */
static void expect_refused(const char *path, media_image_fault fault, const char *want)
{
    base_error err = {0};
    media_image_fault got;
    base_image *img = media_image_read(path, MEDIA_IMAGE_GRAY, &got, &err);
    cr_assert_null(img, "%s was accepted", path);
    cr_expect_eq(got, fault, "%s: fault %d, wanted %d (%s)", path, got, fault, err.msg);
    char full[600];
    snprintf(full, sizeof full, "%s: %s", path, want);
    cr_expect(strncmp(err.msg, full, strlen(full)) == 0, "message\n  '%s'\nshould start\n  '%s'", err.msg, full);
}

Test(image, pictures_under_10_px_a_side_are_refused_from_the_header)
{
    static const int sizes[][2] = {{1, 1}, {2, 2}, {1000, 2}, {2, 1000}, {9, 9}, {9, 400}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int jpeg = 0; jpeg < 2; jpeg++) {
            char name[64], want[160];
            snprintf(name, sizeof name, "t%dx%d.%s", sizes[i][0], sizes[i][1], jpeg ? "jpg" : "png");
            const char *p = in_dir(name);
            cr_assert_eq(it_write_flat(p, sizes[i][0], sizes[i][1], 128), 0);
            snprintf(want, sizeof want, "%d x %d px is too small: a picture must be at least 10 x 10 px", sizes[i][0],
                     sizes[i][1]);
            expect_refused(p, MEDIA_IMAGE_FAULT_SIZE, want);
        }
    base_error err;
    for (int jpeg = 0; jpeg < 2; jpeg++) {
        const char *p = in_dir(jpeg ? "ten.jpg" : "ten.png");
        cr_assert_eq(it_write_flat(p, 10, 10, 128), 0);
        base_image *img = media_image_load(p, MEDIA_IMAGE_GRAY, &err);
        cr_assert(img, "10 x 10 is the smallest accepted: %s", err.msg);
        cr_expect_eq(img->width, 10);
        cr_expect_eq(img->data[55], 128);
        base_image_free(img);
    }
}

Test(image, a_picture_claiming_400_mp_is_refused_before_decoding)
{
    const char *png = in_dir("bomb.png"), *small = in_dir("small.jpg"), *jpg = in_dir("bomb.jpg");
    cr_assert_eq(it_write_png_header_only(png, 20000, 20000), 0);
    struct stat st;
    cr_assert_eq(stat(png, &st), 0);
    cr_assert_lt(st.st_size, 200, "the whole file is a few bytes");
    const char *want = "20000 x 20000 px = 400000000 px is over the cap of 100000000 px, refused before decoding; "
                       "if the picture is real, raise the cap with --max-pixels 400000000";
    expect_refused(png, MEDIA_IMAGE_FAULT_SIZE, want);
    cr_assert_eq(it_write_flat(small, 64, 48, 90), 0);
    cr_assert_eq(it_write_jpeg_resized_header(small, jpg, 20000, 20000), 0);
    expect_refused(jpg, MEDIA_IMAGE_FAULT_SIZE, want);
    /* The header alone tells the size. */
    size_t n;
    uint8_t *b = it_read(png, &n);
    media_image_info info;
    base_error err;
    cr_expect_eq(media_image_probe(b, n, "bomb.png", 1LL << 40, &info, &err), 0, "%s", err.msg);
    cr_expect_eq(info.width, 20000);
    cr_expect_str_eq(info.format, "PNG");
    free(b);
}

Test(image, the_cap_is_exact_and_can_be_moved)
{
    const char *p = in_dir("c.png");
    cr_assert_eq(it_write_flat(p, 100, 100, 7), 0);
    base_error err;
    media_image_set_max_pixels(9999);
    expect_refused(p, MEDIA_IMAGE_FAULT_SIZE,
                   "100 x 100 px = 10000 px is over the cap of 9999 px, refused before decoding; "
                   "if the picture is real, raise the cap with --max-pixels 10000");
    media_image_set_max_pixels(10000);
    base_image *img = media_image_load(p, MEDIA_IMAGE_GRAY, &err);
    cr_expect(img, "exactly at the cap is accepted: %s", err.msg);
    base_image_free(img);
    media_image_set_max_pixels(0);
    cr_expect_eq(media_image_max_pixels(), MEDIA_IMAGE_DEFAULT_MAX_PIXELS);
}

/* A real-looking JPEG: texture, so that its entropy-coded data is long. */
static void textured_jpeg(const char *path, int channels)
{
    const int w = 320, h = 240;
    uint8_t *px = malloc((size_t)w * h * channels);
    for (int i = 0; i < w * h * channels; i++)
        px[i] = (uint8_t)((i * 2654435761u) >> 24);
    cr_assert_eq(it_write_jpeg(path, w, h, channels, px), 0);
    free(px);
}

Test(image, a_jpeg_cut_short_is_refused_naming_the_file)
{
    const char *full = in_dir("full.jpg"), *half_eoi = in_dir("half-eoi.jpg"), *half = in_dir("half.jpg");
    textured_jpeg(full, 3);
    size_t n;
    free(it_read(full, &n));
    static const uint8_t eoi[2] = {0xFF, 0xD9};
    /* Cut in half with an end marker appended: libjpeg only warns and fills the rest grey. */
    cr_assert_eq(it_write_cut(full, half_eoi, (long)n / 2, eoi, 2), 0);
    expect_refused(half_eoi, MEDIA_IMAGE_FAULT_CORRUPT,
                   "corrupt or truncated JPEG: Corrupt JPEG data: premature end of data segment");
    cr_assert_eq(it_write_cut(full, half, (long)n / 2, NULL, 0), 0);
    expect_refused(half, MEDIA_IMAGE_FAULT_CORRUPT, "corrupt or truncated JPEG: ");
    /* A header cut inside: still named. */
    cr_assert_eq(it_write_cut(full, half, 40, NULL, 0), 0);
    expect_refused(half, MEDIA_IMAGE_FAULT_CORRUPT, "corrupt or truncated JPEG: ");
    base_error err;
    base_image *img = media_image_load(full, MEDIA_IMAGE_AS_STORED, &err);
    cr_assert(img, "the whole file reads: %s", err.msg);
    cr_expect_eq(img->channels, 3);
    base_image_free(img);
}

Test(image, a_png_cut_short_or_damaged_is_refused_naming_the_file)
{
    const int w = 64, h = 64;
    uint8_t px[64 * 64 * 3];
    for (int i = 0; i < w * h * 3; i++)
        px[i] = (uint8_t)((i * 2654435761u) >> 24);
    const char *full = in_dir("full.png"), *cut = in_dir("cut.png");
    cr_assert_eq(it_write_png(full, w, h, 3, 8, false, px), 0);
    size_t n;
    uint8_t *b = it_read(full, &n);
    cr_assert_eq(it_write_cut(full, cut, (long)n / 2, NULL, 0), 0);
    expect_refused(cut, MEDIA_IMAGE_FAULT_CORRUPT, "corrupt or truncated PNG: ");
    cr_assert_eq(it_write_cut(full, cut, -12, NULL, 0), 0); /* everything but IEND */
    expect_refused(cut, MEDIA_IMAGE_FAULT_CORRUPT, "corrupt or truncated PNG: ");
    b[n / 2] ^= 0x55; /* a damaged byte inside IDAT: its CRC no longer matches */
    cr_assert_eq(it_write(cut, b, n), 0);
    expect_refused(cut, MEDIA_IMAGE_FAULT_CORRUPT, "corrupt or truncated PNG: ");
    free(b);
}

Test(image, what_is_not_a_picture_is_refused_at_once, .timeout = 20)
{
    const char *empty = in_dir("empty.png"), *text = in_dir("notes.jpg"), *fifo = in_dir("pipe.png");
    cr_assert_eq(it_write(empty, (const uint8_t *)"", 0), 0);
    expect_refused(empty, MEDIA_IMAGE_FAULT_CORRUPT, "empty file, not a JPEG or PNG picture");
    cr_assert_eq(it_write(text, (const uint8_t *)"hello", 5), 0);
    expect_refused(text, MEDIA_IMAGE_FAULT_CORRUPT, "not a JPEG or PNG picture");
    expect_refused(dir, MEDIA_IMAGE_FAULT_UNREADABLE, "a directory, not a JPEG or PNG picture");
    expect_refused(in_dir("missing.png"), MEDIA_IMAGE_FAULT_UNREADABLE, "cannot open: No such file or directory");
    /* A FIFO with no writer would block a plain read for ever. */
    cr_assert_eq(mkfifo(fifo, 0600), 0, "%s", strerror(errno));
    expect_refused(fifo, MEDIA_IMAGE_FAULT_UNREADABLE, "not a regular file, not a JPEG or PNG picture");
}

/* OpenCV's BT.601 fixed point, which the old loader's gray pictures had. */
static uint8_t luma(int r, int g, int b) { return (uint8_t)((r * 4899 + g * 9617 + b * 1868 + 8192) >> 14); }

Test(image, every_png_colour_type_decodes_to_exact_gray_and_bgr)
{
    enum { W = 23, H = 17 };
    uint8_t rgba[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        rgba[i] = (uint8_t)((i * 2654435761u) >> 24);
    for (int channels = 1; channels <= 4; channels++)
        for (int depth = 8; depth <= 16; depth += 8)
            for (int interlace = 0; interlace < 2; interlace++) {
                uint8_t px[W * H * 4];
                for (int i = 0; i < W * H; i++)
                    memcpy(px + i * channels, rgba + i * 4, (size_t)channels);
                char name[64];
                snprintf(name, sizeof name, "c%d-%d-%d.png", channels, depth, interlace);
                const char *p = in_dir(name);
                cr_assert_eq(it_write_png(p, W, H, channels, depth, interlace, px), 0);
                base_error err;
                base_image *g = media_image_load(p, MEDIA_IMAGE_GRAY, &err), *c = media_image_load(p, MEDIA_IMAGE_BGR, &err),
                          *s = media_image_load(p, MEDIA_IMAGE_AS_STORED, &err);
                cr_assert(g && c && s, "%s: %s", name, err.msg);
                const bool colour = channels >= 3;
                cr_expect_eq(s->channels, colour ? 3 : 1, "%s stored as %s", name, colour ? "colour" : "gray");
                for (int i = 0; i < W * H; i++) {
                    const uint8_t *q = px + i * channels;
                    const int r = q[0], gg = colour ? q[1] : q[0], b = colour ? q[2] : q[0];
                    const int x = i % W, y = i / W;
                    cr_assert_eq(g->data[(size_t)y * g->stride + x], colour ? luma(r, gg, b) : r, "%s gray at %d", name, i);
                    const uint8_t *bgr = c->data + (size_t)y * c->stride + 3 * x;
                    cr_assert(bgr[0] == b && bgr[1] == gg && bgr[2] == r, "%s BGR at %d", name, i);
                }
                base_image_free(g), base_image_free(c), base_image_free(s);
            }
    /* A palette picture. */
    uint8_t idx[W * H], pr[4] = {0, 255, 10, 200}, pg[4] = {0, 0, 250, 100}, pb[4] = {0, 0, 30, 50};
    for (int i = 0; i < W * H; i++)
        idx[i] = (uint8_t)(i % 4);
    const char *p = in_dir("pal.png");
    cr_assert_eq(it_write_png_palette(p, W, H, idx, pr, pg, pb, 4), 0);
    base_error err;
    base_image *g = media_image_load(p, MEDIA_IMAGE_GRAY, &err);
    cr_assert(g, "%s", err.msg);
    for (int i = 0; i < W * H; i++)
        cr_assert_eq(g->data[(size_t)(i / W) * g->stride + i % W], luma(pr[i % 4], pg[i % 4], pb[i % 4]));
    base_image_free(g);
}

Test(image, a_gray_jpeg_stays_gray_and_a_colour_one_gives_bgr)
{
    const char *gp = in_dir("g.jpg"), *cp = in_dir("c.jpg");
    textured_jpeg(gp, 1);
    textured_jpeg(cp, 3);
    base_error err;
    base_image *g = media_image_load(gp, MEDIA_IMAGE_AS_STORED, &err);
    base_image *c = media_image_load(cp, MEDIA_IMAGE_AS_STORED, &err);
    base_image *cg = media_image_load(cp, MEDIA_IMAGE_GRAY, &err);
    base_image *gc = media_image_load(gp, MEDIA_IMAGE_BGR, &err);
    cr_assert(g && c && cg && gc, "%s", err.msg);
    cr_expect_eq(g->channels, 1);
    cr_expect_eq(c->channels, 3);
    cr_expect_eq(cg->channels, 1);
    cr_expect_eq(gc->channels, 3);
    cr_expect_eq(gc->data[0], g->data[0], "gray to BGR repeats the gray level");
    cr_expect_eq(gc->data[2], g->data[0]);
    base_image_free(g), base_image_free(c), base_image_free(cg), base_image_free(gc);
}

/* apriltag crashed on pictures under 3 rows after decimation (1x1, 2x2, 1000x2): the detector refuses or copes. */
Test(image, tag_detection_never_crashes_on_tiny_pictures)
{
    vis_tag_detector *d = vis_tag_detector_new("tag36h11");
    cr_assert(d);
    static const double decimations[] = {1, 1.5, 2, 3, 4, 8};
    uint8_t px[40 * 40];
    for (int i = 0; i < 40 * 40; i++)
        px[i] = (uint8_t)((i * 37) & 255);
    for (size_t k = 0; k < sizeof decimations / sizeof decimations[0]; k++)
        for (int h = 1; h <= 40; h += (h < 24 ? 1 : 8))
            for (int w = 1; w <= 40; w += (w < 24 ? 1 : 8)) {
                d->cfg.decimate = decimations[k];
                vis_tag_list tags = {0};
                base_error err;
                int rc = vis_tag_detect(d, px, w, h, (size_t)w, &tags, &err);
                if (w < VIS_TAG_MIN_SIDE || h < VIS_TAG_MIN_SIDE)
                    cr_assert(rc < 0 && strstr(err.msg, "too small"), "%dx%d at %g: %d", w, h, decimations[k], rc);
                else
                    cr_assert_eq(rc, 0, "%dx%d at decimate %g: %s", w, h, decimations[k], err.msg);
                vis_tag_list_clear(&tags);
            }
    vis_tag_detector_free(d);
}
