/*
 * vis_tag: AprilTag detection, tuned for many small tags on large frames.
 *
 * How to use:
 *   vis_tag_detector *d = vis_tag_detector_new("tag36h11");  // defaults filled in
 *   d->cfg.decimate = vis_tag_decimate_for(36.0);             // optional tuning
 *   vis_tag_config_blind(&d->cfg, 1, 2);                      // or the detector's blind first pass
 *   vis_tag_list tags = {0};
 *   if (vis_tag_detect(d, gray, width, height, stride, &tags, &err) < 0) ...
 *   for (size_t i = 0; i < tags.n; i++) use tags.items[i];
 *   vis_tag_list_clear(&tags);
 *   vis_tag_detector_free(d);
 * Changes to d->cfg take effect at the next vis_tag_detect. The list is the
 * caller's: it stays valid until cleared, whatever the detector does next.
 *
 * Corner convention: OpenCV's (the centre of the top-left pixel is (0, 0)).
 * apriltag itself reports +0.5 px from that; vis_tag_corner_offset() tells
 * printers that want apriltag's own convention (e.g. `tableref tags`).
 */
#ifndef VIS_TAG_H
#define VIS_TAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base_error.h"

typedef struct vis_tag_config {
    /* Downsampling before quad search (1 = none). Faster roughly as 1/d^2,
     * but a tag must stay ~12 px wide after it, so 2 is the most for 24 px
     * tags and 3 for 36 px tags. Default 2 (apriltag's). */
    double decimate;
    /* Gaussian blur before segmentation, px (0 = none). A little (0.5-0.8)
     * removes sensor noise that would otherwise split edges into many
     * candidate quads (time grows with noise); too much merges small tags.
     * Default 0. */
    double sigma;
    /* The blur of a region searched at full resolution (decimate 1), px; 0: `sigma`. apriltag blurs the
     * decimated picture, so `sigma` at decimate 1.5 or 2 spans 1.5-2x as many of the camera's pixels as at
     * 1: the same noise wants less at full resolution. Default 0. */
    double sigma_full;
    /* Worker threads. Default 2 (the target Raspberry Pi class has 4 cores
     * and the camera thread needs one). */
    int threads;
    /* Refine quad edges on the full-resolution image: needed for sub-pixel
     * corners when decimating; costs little. Default 1. */
    int refine_edges;
    /* Most bit errors corrected. 0 or 1 keeps false IDs away (the maintainers'
     * advice); 2 recovers worn prints at more false-positive risk. Default 1. */
    int max_hamming;
    /* Detections with a lower decision margin are dropped (contrast of the
     * weakest data bit, grey levels). Low values accept blurred tags but also
     * noise. Default 20. */
    double min_margin;
    /* Least grey-level step between a tile's darkest and brightest pixel for
     * its pixels to be called black or white (apriltag's
     * min_white_black_diff; 0: the library's 5). A flat patch of a noisy
     * sensor then stays "unknown" and spawns no component, no edge cluster,
     * no candidate quad: a printed tag's step is 60-200 levels. */
    int min_contrast;
    /* Fewest edge pixels a candidate quad's cluster may have (apriltag's
     * min_cluster_pixels; 0: the library's 5). A tag `min_px` wide after
     * decimation has about 8 * min_px; the few-pixel clusters noise makes
     * are dropped before the costly quad fit. */
    int min_cluster_px;
} vis_tag_config;

typedef struct vis_tag_detection {
    int id;
    int hamming;          /* bits corrected */
    double margin;        /* decision margin */
    double corners[4][2]; /* px, OpenCV convention, apriltag's order (counter-clockwise in the tag frame) */
    double centre[2];     /* px */
} vis_tag_detection;

typedef struct vis_tag_list {
    vis_tag_detection *items;
    size_t n, cap;
} vis_tag_list;

typedef struct vis_tag_detector {
    vis_tag_config cfg;
    void *priv;   /* apriltag detector and family */
    size_t quads; /* candidate quads the last vis_tag_detect(_regions) tried to decode: each is one more chance
                   * for a wrong id (vis_tag_config_blind) */
} vis_tag_detector;

/* Family names: "tag36h11" (default when NULL), "tagStandard41h12". NULL when unknown or out of memory. */
vis_tag_detector *vis_tag_detector_new(const char *family);
/* NULL is fine. */
void vis_tag_detector_free(vis_tag_detector *d);

/*
 * The smallest picture side detection takes, px. apriltag's quad search
 * needs a few rows to work with (1- and 2-pixel-high pictures crash it),
 * and no tag fits in less.
 */
#define VIS_TAG_MIN_SIDE 8

/*
 * Detects tags in an 8-bit gray image (borrowed; not kept), into out
 * (cleared first), sorted by id. An image under VIS_TAG_MIN_SIDE either way
 * is an error.
 */
int vis_tag_detect(vis_tag_detector *d, const uint8_t *gray, int width, int height, size_t stride,
                   vis_tag_list *out, base_error *err);

/*
 * A part of the frame searched at its own level of detail: a far, small tag
 * needs full resolution where a near one is found as well at decimate 2, at
 * a quarter of the cost. Only tags centred in the core are kept, so regions
 * that overlap by a tag's width find every tag once.
 */
typedef struct vis_tag_region {
    int x0, y0, x1, y1;     /* px, [x0, x1) x [y0, y1): the picture apriltag sees */
    double decimate;        /* 0: the detector's cfg.decimate */
    double core_x0, core_y0, core_x1, core_y1;  /* keep tags centred here; an empty core keeps all */
    int unblurred;          /* 1: searched without cfg.sigma's blur (a plan's small decimated tags, vis_plan.h) */
} vis_tag_region;

/* Detects in each region (clipped to the image; regions under VIS_TAG_MIN_SIDE skipped), as vis_tag_detect. */
int vis_tag_detect_regions(vis_tag_detector *d, const uint8_t *gray, int width, int height, size_t stride,
                           const vis_tag_region *regions, size_t n_regions, vis_tag_list *out, base_error *err);

/* Builds the family's decode table now (it is built at the first detection otherwise): keeps it out of a timed call. */
void vis_tag_detector_prepare(vis_tag_detector *d);
void vis_tag_list_clear(vis_tag_list *l);

/*
 * The printed bitmap of code `id` of the detector's family: *width x *width
 * cells (10 for tag36h11: white border, black ring, 6x6 data), row 0 the top
 * row as printed (the tag's "up" side), 1 = white. cells needs 16x16. False
 * when id is not in the family or the family is reversed-border.
 */
bool vis_tag_bitmap(const vis_tag_detector *d, int id, uint8_t cells[256], int *width);
/* Number of codes in the detector's family (0 on error). */
int vis_tag_family_codes(const vis_tag_detector *d);

/* A detection's black square edge in the picture, px: the mean of its four sides. */
double vis_tag_edge_px(const vis_tag_detection *t);

/* The largest safe decimation for tags about `tag_px` wide (black square edge, px). */
double vis_tag_decimate_for(double tag_px);

/* Add this to a corner to get apriltag's own convention ((0,0) = top-left of the first pixel). */
double vis_tag_corner_offset(void);

/*
 * The stock apriltag detector with the library's own defaults (decimate 2,
 * sigma 0, refine on, 1 thread unless `threads`), for comparison only.
 */
void vis_tag_config_stock(vis_tag_config *cfg, int threads);

/*
 * The blind first pass's settings (vis_detector's, before any roster or
 * prediction helps), `decimate` as given:
 *   - 1 corrected bit and a decision margin of 20, so that a blind read is
 *     never a wrong id: tag36h11's codes lie at least 11 bits apart, so a
 *     read 1 bit from a code is 10 bits from any other, and a chance
 *     pattern, tried in its 4 rotations, lands within 1 bit of one of the
 *     587 codes once in ~800 000 (within 2 bits once in ~44 000);
 *   - contrast 80 and clusters of 60 edge pixels: a flat or noisy patch
 *     spawns no candidate quad (a tag 11 px wide after decimation has ~90
 *     edge pixels). The hard set's tags, hand shadows and the webcam's
 *     vignetting included, step far above it: recall unchanged, the first
 *     pass 4-5x faster (at 60 the webcam searched at full resolution took
 *     twice as long, for the same 144 tags). vis_detector lowers the
 *     contrast floor on a dim frame (a third of its grey spread);
 *   - edges refined, no blur (vis_detector adds its own: sigma, sigma_full).
 */
void vis_tag_config_blind(vis_tag_config *cfg, double decimate, int threads);

#endif
