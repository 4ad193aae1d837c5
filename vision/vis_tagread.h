/*
 * vis_tagread: reading one tag straight from the picture, where we expect
 * it to be, without apriltag's quad finder. A tag half covered by a leaning
 * figure has no clean black square left to find, but its visible cells
 * still carry its code.
 *
 * The reader fits the printed tag (white border around a black ring, of the
 * roster's size, on the plane of the tag's height) near a guessed pose,
 * then fits the black square's visible edges as lines for the final pose
 * (a 28 px tag's heading to ~0.05 degree rms, its centre to ~0.015 mm),
 * takes black and white from that outline, reads the 6 x 6 data cells,
 * and compares the cells it can trust with the codes it is given. A cell is
 * trusted when its four samples agree and sit clearly on one side of the
 * threshold: an occluding figure's edge crossing a cell, or a grey cell,
 * is left out rather than guessed.
 *
 * How to use:
 *   vis_tagread_codes codes;
 *   vis_tagread_codes_roster(tags, roster, &codes);             // the roster's IDs (or _family: every code)
 *   vis_tagread_params p; vis_tagread_params_default(&p);
 *   vis_tagread rd;
 *   if (vis_tagread_at(&cam, &image, P, heading, size_mm, &p, &codes, &rd) && rd.id >= 0 && ...) use rd
 *   vis_tagread_codes_clear(&codes);
 * Decide on rd.errors, rd.visible and rd.runner_up (the next code's errors)
 * whether the read is clear enough: see vis_tagread_decisive().
 */
#ifndef VIS_TAGREAD_H
#define VIS_TAGREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "vis_camera.h"
#include "base_image.h"
#include "roster_map.h"
#include "vis_tag.h"

/* Codes to compare with: the data cells of each tag, row by row from the printed top, MSB first. */
typedef struct vis_tagread_codes {
    uint64_t *codes;
    int *ids;
    int n;
    int tw;       /* cells per side of the printed tag (10 for tag36h11) */
} vis_tagread_codes;

/* The codes of every tag the roster names (models, board and masts). 0, or -1 (family not handled, out of memory). */
int vis_tagread_codes_roster(const vis_tag_detector *td, const roster_map *r, vis_tagread_codes *out);
/* Every code of the family. */
int vis_tagread_codes_family(const vis_tag_detector *td, vis_tagread_codes *out);
void vis_tagread_codes_clear(vis_tagread_codes *c);

typedef struct vis_tagread_params {
    double search_mm;     /* the centre is searched within +- this of the guess (default 3) */
    double search_rad;    /* the heading within +- this (default 6 degrees) */
    bool any_rotation;    /* the heading is known only modulo 90 degrees (try all four readings) */
    double min_contrast;  /* grey levels between the outline's white and black (default 30) */
    /* Paper white minus ink black of the tags decoded in this frame (0: unknown). A place whose
     * best coarse outline reaches less than a third of it holds no tag: the search stops there. */
    double expect_contrast;
} vis_tagread_params;

void vis_tagread_params_default(vis_tagread_params *p);

typedef struct vis_tagread {
    int id;               /* the nearest code's tag id; -1 when nothing was read */
    double centre[2];     /* board mm, on the tag's plane */
    double heading;       /* rad: the tag's printed "up" on the board */
    int errors;           /* trusted cells that disagree with that code */
    int visible;          /* trusted data cells (of 36 for tag36h11) */
    int runner_up;        /* errors of the next nearest code (in any rotation tried) */
    double contrast;      /* outline white minus black, grey levels */
    double outline_score; /* the fitted outline's contrast over `contrast`: 1 fully visible, less when covered */
    double px[2];         /* the centre in the picture */
    int edges;            /* edges of the black square fitted as lines for the pose (0: outline only, 2-4) */
} vis_tagread;

/*
 * Reads the tag expected at P (board mm; P[2] its height) with printed
 * heading `heading` (rad) and black-square edge `size_mm`. False when no
 * outline of that size stands out there (out->id = -1).
 */
bool vis_tagread_at(const vis_camera *cam, const base_view *im, const double P[3], double heading, double size_mm,
                    const vis_tagread_params *p, const vis_tagread_codes *codes, vis_tagread *out);

/*
 * A read clear enough to name a tag: enough trusted cells, few errors
 * among them, and every other code clearly worse. tag36h11 codes differ in
 * at least 11 of 36 cells, so with half the cells visible a runner-up
 * `margin` cells worse than the best is not chance.
 */
bool vis_tagread_decisive(const vis_tagread *rd, int min_visible, double max_error_fraction, int margin);

#endif
