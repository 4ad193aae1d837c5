/*
 * vis_rim: reading rim labels (roster/roster_mark.h), the marks real
 * miniatures leave readable: a band of cells two wide round the base's
 * edge, a checkerboard block at each corner, the other cells the data cells
 * of the model's tag36h11 code rearranged round the rim.
 *
 * A figure covers most of its base, so most labels show only some of their
 * cells: the corners (the cells farthest from the feet) most often. The
 * reader therefore:
 *   1. finds the label's pose from its four corner blocks alone (whatever
 *      its code), near a guess: each block's white cells against its black
 *      ones, a covered block adding nothing;
 *   2. takes paper and ink from the blocks it sees, reads every code cell
 *      (four samples in the cell's middle; a cell is trusted when they agree
 *      and sit clearly on one side), and matches the trusted cells against
 *      the candidates' codes in every turn the label can lie in (four for a
 *      square label, two for an oblong one): the cells a figure covers are
 *      left out, not guessed;
 *   3. with the code known, fits the pose again on every cell it trusts.
 * Two labels differ in at least 11 code cells in any turn (the code's own
 * distance; roster_mark.h), so a read with few errors among many trusted
 * cells and every other candidate many cells worse names its model: see
 * vis_rim_decisive.
 *
 * How to use:
 *   vis_rim_book book;
 *   vis_rim_book_make(tag_detector, map, &book);                 // every rim layout of the roster, every code
 *   const vis_rim_layout *L = vis_rim_book_layout(&book, model);  // the layout of roster model `model`
 *   vis_rim_params p; vis_rim_params_default(&p);
 *   vis_rim_read rd;                                              // one turn (bit 0) among every model of L:
 *   if (vis_rim_read_at(&cam, &image, L, P, heading, 1u, &p, NULL, &rd) &&
 *       vis_rim_decisive(&rd.dec, 4, 12)) ... rd.model, rd.label.centre, rd.facing
 *   vis_rim_book_clear(&book);
 * The book is read-only once made: reads may run on several threads.
 */
#ifndef VIS_RIM_H
#define VIS_RIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base_image.h"
#include "roster_map.h"
#include "vis_camera.h"
#include "vis_tag.h"

/* Code cells a layout may have (a 200 mm base in 5 mm cells has 288; larger labels are not read). */
#define VIS_RIM_WORDS 5
#define VIS_RIM_MAX_CODE (64 * VIS_RIM_WORDS)

/* One rim layout of the roster (a base size and a cell) and the codes of the models that carry it. */
typedef struct vis_rim_layout {
    roster_rim rim;
    double z;                 /* mm: where its labels are looked for without a guess (its units' median height) */
    size_t n_models;
    size_t *models;           /* roster model indices */
    int *ids;                 /* their tag ids */
    /* Per model and turn: the code cells' colours (bit k: the k-th code cell of rim.cells, 1 white). */
    uint64_t (*pred)[ROSTER_RIM_MAX_TURNS][VIS_RIM_WORDS];
    int *code_bit;            /* per printed cell: its code cell index, -1 for a corner block's */
} vis_rim_layout;

typedef struct vis_rim_book {
    vis_rim_layout *layouts;
    size_t n;
    long *layout_of;          /* per roster model: its layout, -1 when it carries a square tag */
    size_t n_models;
} vis_rim_book;

/* Every rim layout of the map. 0; -1 when out of memory or the family is not tag36h11 with rim units. */
int vis_rim_book_make(const vis_tag_detector *td, const roster_map *map, vis_rim_book *out);
void vis_rim_book_clear(vis_rim_book *b);
/* The layout roster model `model` carries; NULL for a square tag. */
const vis_rim_layout *vis_rim_book_layout(const vis_rim_book *b, size_t model);

typedef struct vis_rim_params {
    double search_mm;     /* the centre within +- this of the guess (default 3) */
    double search_rad;    /* the heading within +- this (default 6 degrees) */
    double min_contrast;  /* grey levels between the corner blocks' white and black (default 30) */
    double expect_contrast;  /* paper white minus ink black in this frame (0 unknown): a quick look first */
} vis_rim_params;

void vis_rim_params_default(vis_rim_params *p);

/*
 * What the code cells of a label show, as evidence: for each code cell the
 * log-likelihood (nats) of its grey if the cell is paper over if it is ink,
 * allowing that a figure may cover it. Paper and ink are the label's own
 * (its corner blocks'); the figure's greys are sampled in the label's
 * middle, where the figure stands. On a table of painted miniatures a
 * figure's dark clothes, hair and shadows look like ink far more often
 * than anything looks like paper (hard set: 56% of figure pixels within 8%
 * of ink, 5% of paper), and a cell whose samples straddle an edge is no
 * evidence at all: so a dark cell under a dark figure says little, a white
 * one much.
 */
typedef struct vis_rim_obs {
    float d[VIS_RIM_MAX_CODE];   /* per code cell: paper over ink, nats (+: paper), within +-8 */
    int n;                       /* code cells */
    int n_white, n_black;        /* cells saying paper (d > 2), ink (d < -2) */
} vis_rim_obs;

/* A label found in the picture, whatever its code: its pose and what its cells show. */
typedef struct vis_rim_label {
    const vis_rim_layout *layout;
    double centre[3];     /* the label's centre (the base's), board mm; [2] its height */
    double heading;       /* rad: one of the label's turns (the front of some reading of it) */
    int corners;          /* corner blocks seen (of 4) */
    int contradicted;     /* corner blocks that cannot be there (an ink cell of theirs shows clean paper) */
    double contrast;      /* white minus black of the corner blocks seen */
    double black, white;  /* ink and paper */
    double clean;         /* share of its printed cells whose samples agree on paper's or ink's level */
    vis_rim_obs obs;
    double px[2];         /* the centre in the picture */
} vis_rim_label;

/*
 * Finds the label of layout L near P (board mm; P[2] its height) with a
 * front near `heading`, from its corner blocks alone, and reads its cells.
 * False when no label's corner blocks stand out there.
 */
bool vis_rim_locate(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                    double heading, const vis_rim_params *p, vis_rim_label *out);

/*
 * The corner blocks of a label of cells `rim` at P (heading its front) that
 * show, without searching: each white cell at least min_contrast above
 * each black one. *which gets a bit per block (bit 0: front left, 1: front
 * right, 2: back left, 3: back right, seen from above, front at the top).
 */
int vis_rim_blocks_seen(const vis_camera *cam, const base_view *im, const roster_rim *rim, const double P[3],
                        double heading, double min_contrast, unsigned *which);

/*
 * Is a label of layout L standing at P (board mm, P[2] its height) with a
 * front near `heading`, whatever its code? Its corner blocks searched within
 * search_mm: true when two or more show and none is contradicted, its centre
 * within search_mm of P. A base whose code cells a figure covers still shows
 * its corners at the rank's outer edge (vis_units_rear.h).
 */
bool vis_rim_label_present(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                           double heading, double search_mm);
/* The same, and at (when not NULL, and true is returned) the label's centre as its corner blocks place it (board mm,
 * at P's height): a base measured where its code is not read. */
bool vis_rim_label_at(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                      double heading, double search_mm, double at[2]);
/* Less than a label: one corner block or more shows near P and none is contradicted, the centre within search_mm.
 * Alone it is no evidence of a base (a chance checkerboard of a neighbour's code cells shows one as often): it only
 * tells apart places the labels seen leave equal (vis_units_rear.h). */
bool vis_rim_label_hint(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                        double heading, double search_mm);

/* Is a base of roster model `model`'s rim layout standing at pos (board mm, its mark at height z) facing `facing`?
 * Its label's corner blocks searched within a fifth of the base: min_corners 2, vis_rim_label_at (true and *at, when
 * not NULL, the base's centre as the blocks place it); 1, vis_rim_label_hint (*at untouched). False for a model
 * carrying no rim label. What vis_detect answers vis_units_options.base_at and base_hint with. */
bool vis_rim_base_at(const vis_rim_book *book, const roster_map *map, const vis_camera *cam, const base_view *im,
                     size_t model, base_vec2 pos, double facing, double z, int min_corners, base_vec2 *at);

/* The misfit of reading a label as model m of its layout lying turned t (of L->rim.turns, anticlockwise from the
 * label's heading): the evidence against it, nats (the sum of the cells' log-likelihoods that disagree with it). */
double vis_rim_misfit(const vis_rim_layout *L, const vis_rim_obs *o, size_t m, int t);

/* The two readings that fit best among the candidates (one flag per L->models entry; NULL: all) and turns (bit t
 * set: turn t allowed). */
typedef struct vis_rim_decoded {
    long m;               /* index into L->models; -1 when no candidate */
    int turn;
    double misfit;        /* nats */
    long m2;              /* the runner-up (another model, or the same one in another turn); -1 when none */
    int turn2;
    double misfit2;
} vis_rim_decoded;
void vis_rim_decode(const vis_rim_layout *L, const vis_rim_obs *o, const unsigned char *candidates, unsigned turns,
                    vis_rim_decoded *out);

/* The label's pose again on every cell it shows, with its code known (model m, turn t); its cells read there. */
void vis_rim_refine(const vis_camera *cam, const base_view *im, vis_rim_label *lab, size_t m, int t);

/* The model's facing from a label read in turn t: its heading turned t steps. */
double vis_rim_facing(const vis_rim_label *lab, int t);

/* Reads the label expected at P with its front at `heading` among the candidates in the turns allowed:
 * vis_rim_locate, vis_rim_decode, vis_rim_refine. False when no label is there. */
typedef struct vis_rim_read {
    vis_rim_label label;
    vis_rim_decoded dec;
    long model;           /* the roster model of dec.m; -1 when nothing was read */
    int id;
    double facing;        /* rad */
} vis_rim_read;
bool vis_rim_read_at(const vis_camera *cam, const base_view *im, const vis_rim_layout *L, const double P[3],
                     double heading, unsigned turns, const vis_rim_params *p, const unsigned char *candidates,
                     vis_rim_read *out);

/* Labels found in a picture (vis_rim_find). */
typedef struct vis_rim_found {
    vis_rim_label *items;
    size_t n, cap;
} vis_rim_found;

/*
 * Every label of the book's layouts in the picture part roi (x0, y0, x1,
 * y1 px), whatever its code (vis_rim_find.c): its pose and what its cells
 * show, at most one label a place. `threads` for the corner search. 0, or
 * -1 when out of memory.
 */
int vis_rim_find(const vis_camera *cam, const base_view *im, const vis_rim_book *book, const vis_rim_params *p,
                 int threads, const int roi[4], vis_rim_found *out);
void vis_rim_found_clear(vis_rim_found *f);

/* A reading clear enough to name its model: a misfit of at most max_misfit nats and every other reading among the
 * candidates at least `margin` nats worse. */
bool vis_rim_decisive(const vis_rim_decoded *d, double max_misfit, double margin);

#endif
