/*
 * roster_mark: where every cell of a base's mark lies, from the roster
 * alone (docs/formats.md, "Marks on the bases"). A unit's `tag.layout`
 * says which mark its bases carry:
 *   - "square" (the default, and every roster written before rim labels):
 *     one AprilTag of `size_mm` at `offset_mm`, turned by `rotation_deg`;
 *   - "rim": a label the size of the base whose code lies in a band two
 *     cells wide around the figure's feet, where a real miniature leaves
 *     its base uncovered. It holds the data cells of the same tag36h11
 *     code the model's tag ID names, rearranged around the rim, so every
 *     two labels (and every label and itself turned) differ in at least
 *     11 cells, as the tags do; a reader decodes it among the roster's IDs
 *     with the cells a figure covers left out.
 *
 * The rim label, seen from above with the model's front at the top: cells
 * of `cell_mm` in columns i (from the left) and rows j (from the front),
 * nx = floor(width / cell) by ny = floor(depth / cell), centred on the base
 * (the rest a white margin). A cell's ring is its distance in cells from
 * the label's edge; rings 0 and 1 are printed, the inside is cut out for
 * the figure. At each corner a 2 x 2 block is fixed: the corner cell and
 * the one diagonally inside it black, the other two white (a checkerboard
 * corner the camera finds wherever one corner shows). Every other printed
 * cell is a code cell carrying the colour of one data cell of the printed
 * tag36h11 bitmap (6 x 6 data cells, row 0 its top row); which one is
 * fixed by the layout so that turning the label (a quarter turn for a
 * square label, a half turn for an oblong one) turns the code with it.
 *
 * How to use:
 *   roster_rim rim;
 *   if (roster_rim_make(20, 20, 2.0, &rim) == 0) {                  // 10 x 10 cells, 4 turns
 *       for (size_t k = 0; k < rim.n; k++) ... rim.cells[k].x, .y, .kind, .row, .col ...
 *       size_t from = rim.cells[k].turned[t];    // the cell whose colour lands on k when the label lies turned t
 *       roster_rim_clear(&rim);
 *   }
 *   double cell = roster_rim_cell_for(20, 20);                      // the cell `tags layout` chooses: 2.0
 *   if (roster_rim_on_front_mark(across / cell, back / cell)) ...   // the front mark: the other colour there
 *   roster_mark_layout_fill(roster, &opts, &changed);                // `tableref tags layout`
 */
#ifndef ROSTER_MARK_H
#define ROSTER_MARK_H

#include <stdbool.h>
#include <stddef.h>

#include "base_error.h"

/* What marks a base carries (roster_tag_mount.layout). */
typedef enum roster_mark_layout {
    ROSTER_MARK_SQUARE = 0,  /* one AprilTag (size, offset, rotation) */
    ROSTER_MARK_RIM = 1,     /* a rim label over the whole base top */
} roster_mark_layout;

/* "square", "rim"; NULL for anything else. */
const char *roster_mark_layout_word(roster_mark_layout l);
/* The layout a word names; -1 when none. */
int roster_mark_layout_from_word(const char *w);

typedef enum roster_rim_kind { ROSTER_RIM_BLACK = 0, ROSTER_RIM_WHITE = 1, ROSTER_RIM_CODE = 2 } roster_rim_kind;

/* The turns a rim label can lie in: a square one four, an oblong one two. */
enum { ROSTER_RIM_MAX_TURNS = 4 };

typedef struct roster_rim_cell {
    int i, j;              /* column from the label's left, row from its front edge */
    int ring;              /* 0 (the edge) or 1 */
    double x, y;           /* centre, base frame mm: x along the model's facing, y to its left */
    roster_rim_kind kind;
    int row, col;          /* code cells: the tag36h11 data cell (0..5, row 0 the printed top) it shows */
    int orbit;             /* code cells: which of the label's orbits (cells turned into each other) */
    /* The cell whose colour lies here when the label is turned by t steps of 360 / turns degrees
     * anticlockwise seen from above (t = 0: itself). */
    size_t turned[ROSTER_RIM_MAX_TURNS];
} roster_rim_cell;

typedef struct roster_rim {
    double width, depth, cell;   /* the label (the base), mm; its cells' side */
    int nx, ny;
    double margin_x, margin_y;   /* white beyond the cells at each side, mm */
    int turns;                   /* 4 when nx == ny, else 2 */
    roster_rim_cell *cells;      /* printed cells, ring 0 then ring 1, each clockwise from the front-left corner */
    size_t n, n_code;
    int orbits;                  /* code orbits; every one of the code's own orbits appears in at least one */
} roster_rim;

/* The smallest label sides (in cells) that carry every data cell of the code at least once. */
#define ROSTER_RIM_MIN_CELLS 9
/* Cell sides `tags layout` chooses between, mm: large enough for a 4K webcam (0.6 mm a pixel) to read. */
#define ROSTER_RIM_MIN_CELL_MM 2.0
#define ROSTER_RIM_MAX_CELL_MM 6.0

/*
 * The label of a width x depth base with cells of `cell` mm. -1 with err
 * when the cells do not fit (fewer than ROSTER_RIM_MIN_CELLS along a side,
 * or too few for every data cell of the code) or out of memory.
 */
int roster_rim_make(double width, double depth, double cell, roster_rim *out, base_error *err);
void roster_rim_clear(roster_rim *r);
/* Does a rim label of these cells fit a width x depth base (roster_rim_make would succeed)? */
bool roster_rim_fits(double width, double depth, double cell);
/* The cell `tags layout` gives a base: a tenth of a square base's side, a ninth of an oblong one's shorter side (its
 * longer side at least 1.5 times it), 2 to 6 mm, down to the hundredth; 0 when no rim fits (a base under 18 mm, or
 * a round one: pass round true). 20x20: 2, 25x25: 2.5, 25x50: 2.77, 40x40: 4, 50x50: 5, 50x100: 5.55. */
double roster_rim_cell_for(double width, double depth, bool round);

/*
 * The front mark: a triangle pointing forward, its apex on the label's
 * front edge at the middle, ROSTER_RIM_FRONT_DEPTH of a cell deep and four
 * times that wide at its base (1.44 x 0.36 mm on 2 mm cells, 3.6 x 0.9 on
 * 5 mm), printed in the other colour of the cells under it. It lies on the
 * rim (it survives cutting out the figure's place) in the outer 0.18 of the
 * front row, clear of where a reader samples a cell (its middle half; at
 * 12 MP a quarter of a cell deep already reached those samples through the
 * camera's blur: one label of 60 on a test crop lost its decisive read).
 */
#define ROSTER_RIM_FRONT_DEPTH 0.18
/* Is the point `across` cells right of the label's middle and `back` cells behind its front edge on the front mark? */
bool roster_rim_on_front_mark(double across, double back);

/* The colour of a rim cell on the label of a code whose printed data cells are `data` (6 x 6, row by row
 * from the printed top, 1 white): 1 white, 0 black. */
int roster_rim_colour(const roster_rim_cell *c, const unsigned char data[36]);

#endif
