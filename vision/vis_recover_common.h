/*
 * vis_recover_common: what the two halves of vis_recover (reading free
 * places, vis_recover.c; finding hidden units, vis_recover_hidden.c) share,
 * in a file of its own below both, so that neither calls the other. Not part
 * of the vision library's interface.
 *
 * How to use (vis_detect.c, once a frame; the reads in vis_recover*.c and vis_mast_read.c):
 *   const vis_paper paper = vis_recover_paper(&image, tags, n);   // then ... vis_paper_contrast(&paper) ...
 *   double black, white;
 *   if (vis_recover_paper_levels(&image, tags, n, &black, &white)) ... contrast white - black ...
 *   if (vis_recover_one_read_enough(&det->cfg, &read)) ... the read names its model alone ...
 */
#ifndef VIS_RECOVER_COMMON_H
#define VIS_RECOVER_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include "base_image.h"

#include "vis_detect_types.h"
#include "vis_tag.h"
#include "vis_tagread.h"
#include "vis_units.h"

/* The paper's levels in one picture, measured once a frame (vis_recover_paper) and handed to every read of it. */
typedef struct vis_paper {
    bool known;           /* false: no decoded tag gives them, or their contrast is under 30 levels */
    double black, white;  /* grey levels of the ink and the paper */
} vis_paper;

/* This frame's paper (vis_recover_paper_levels); the reads' expected contrast: white - black, 0 when not known. */
vis_paper vis_recover_paper(const base_view *im, const vis_tag_detection *tags, size_t n);
double vis_paper_contrast(const vis_paper *p);

/*
 * The paper's black and white in this picture, from the decoded tags (the
 * median of their black squares and of their white borders). False when no
 * tag gives them or their contrast is under 30 levels.
 */
bool vis_recover_paper_levels(const base_view *im, const vis_tag_detection *tags, size_t n, double *black,
                              double *white);

/*
 * Is this read enough on its own to name its model (no second read to agree
 * with it)? The bar is vis_detect_config's one_read_* (and why it is safe).
 */
bool vis_recover_one_read_enough(const vis_detect_config *cfg, const vis_tagread *rd);

#endif
