/* roster_mark: the cells of a rim label (see the header; docs/formats.md, "Marks on the bases"). */
#include "roster_mark.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *roster_mark_layout_word(roster_mark_layout l)
{
    return l == ROSTER_MARK_SQUARE ? "square" : l == ROSTER_MARK_RIM ? "rim" : NULL;
}

int roster_mark_layout_from_word(const char *w)
{
    if (w && strcmp(w, "square") == 0)
        return ROSTER_MARK_SQUARE;
    if (w && strcmp(w, "rim") == 0)
        return ROSTER_MARK_RIM;
    return -1;
}

/* Cells along a side: exact multiples count whole (20 / 2.0 is 10, not 9.999). */
static int cells_along(double side, double cell) { return cell > 0 ? (int)floor(side / cell + 1e-6) : 0; }

/* Printed cells of an nx x ny label: rings 0 and 1 (4 (nx + ny) - 16 of them), minus the corner blocks' 16. */
static int code_cells(int nx, int ny) { return 4 * (nx + ny) - 16 - 16; }

/* Code orbits of the tag36h11 data grid: 9 under quarter turns, 18 under half turns. */
static int grid_orbits(int turns) { return 36 / turns; }

bool roster_rim_fits(double width, double depth, double cell)
{
    const int nx = cells_along(width, cell), ny = cells_along(depth, cell);
    if (!(cell > 0) || nx < ROSTER_RIM_MIN_CELLS || ny < ROSTER_RIM_MIN_CELLS || nx > 200 || ny > 200)
        return false;
    const int turns = nx == ny ? 4 : 2;
    return code_cells(nx, ny) / turns >= grid_orbits(turns);
}

double roster_rim_cell_for(double width, double depth, bool round)
{
    if (round)
        return 0;
    /* An oblong base takes nine cells across its short side, a square one ten: two square labels side by side never
     * make the corners of an oblong one in cells of the same size (a reader would take them for it). */
    const bool oblong = fmax(width, depth) >= 1.5 * fmin(width, depth);
    double cell = fmin(width, depth) / (oblong ? 9 : 10);
    cell = fmax(ROSTER_RIM_MIN_CELL_MM, fmin(ROSTER_RIM_MAX_CELL_MM, cell));
    cell = floor(cell * 100 + 1e-6) / 100; /* a printable 0.01 mm, never above a tenth of the side */
    return roster_rim_fits(width, depth, cell) ? cell : 0;
}

int roster_rim_colour(const roster_rim_cell *c, const unsigned char data[36])
{
    if (c->kind == ROSTER_RIM_CODE)
        return data[c->row * 6 + c->col] ? 1 : 0;
    return c->kind == ROSTER_RIM_WHITE;
}

/* A cell's place in doubled units from the label's centre, front and left positive (exact integers). */
static void doubled_place(int i, int j, int nx, int ny, int *x2, int *y2)
{
    *x2 = ny - 1 - 2 * j;
    *y2 = nx - 1 - 2 * i;
}

/* The place a quarter turn anticlockwise (seen from above) takes (x, y) to: (-y, x); `steps` of them. */
static void turn_place(int *x2, int *y2, int steps)
{
    for (int s = 0; s < (steps % 4 + 4) % 4; s++) {
        const int x = *x2;
        *x2 = -*y2;
        *y2 = x;
    }
}

/* The corner block's colour of cell (i, j), or -1 when it is not in a corner block. */
static int corner_colour(int i, int j, int nx, int ny)
{
    const int a = i < 2 ? i : i >= nx - 2 ? nx - 1 - i : -1;
    const int b = j < 2 ? j : j >= ny - 2 ? ny - 1 - j : -1;
    if (a < 0 || b < 0)
        return -1;
    return a == b ? ROSTER_RIM_BLACK : ROSTER_RIM_WHITE;
}

/* Ring r of an nx x ny grid, clockwise from above from its front-left cell: its cells' (i, j) into out. */
static int ring_walk(int nx, int ny, int r, int (*out)[2])
{
    int n = 0;
    const int i0 = r, i1 = nx - 1 - r, j0 = r, j1 = ny - 1 - r;
    if (i1 < i0 || j1 < j0)
        return 0;
    for (int i = i0; i <= i1; i++)
        out[n][0] = i, out[n][1] = j0, n++;
    for (int j = j0 + 1; j <= j1; j++)
        out[n][0] = i1, out[n][1] = j, n++;
    for (int i = i1 - 1; i >= i0 && j1 > j0; i--)
        out[n][0] = i, out[n][1] = j1, n++;
    for (int j = j1 - 1; j > j0 && i1 > i0; j--)
        out[n][0] = i0, out[n][1] = j, n++;
    return n;
}

/*
 * The tag36h11 data grid's orbits under `turns`: for each orbit its
 * representative (the first of its cells met walking rings 0, 1, 2
 * clockwise from the top-left); orbit k's member m is the representative
 * turned m steps.
 */
static int grid_reps(int turns, int reps[18][2])
{
    int taken[6][6] = {{0}}, walk[20][2], n = 0;
    for (int r = 0; r < 3; r++) {
        const int len = ring_walk(6, 6, r, walk);
        for (int k = 0; k < len; k++) {
            const int i = walk[k][0], j = walk[k][1];
            if (taken[j][i])
                continue;
            reps[n][0] = i, reps[n][1] = j, n++;
            for (int m = 0; m < turns; m++) {
                int x2, y2;
                doubled_place(i, j, 6, 6, &x2, &y2);
                turn_place(&x2, &y2, m * 4 / turns);
                taken[(5 - x2) / 2][(5 - y2) / 2] = 1;
            }
        }
    }
    return n;
}

/* The index of the printed cell at doubled place (x2, y2), or (size_t)-1. */
static size_t cell_at(const roster_rim *r, const int *index, int x2, int y2)
{
    const int j = (r->ny - 1 - x2), i = (r->nx - 1 - y2);
    if (j % 2 || i % 2 || j < 0 || i < 0 || j / 2 >= r->ny || i / 2 >= r->nx)
        return (size_t)-1;
    const int k = index[(j / 2) * r->nx + i / 2];
    return k < 0 ? (size_t)-1 : (size_t)k;
}

/* Code orbits and the data cell each code cell shows; every cell's turned[] places. */
static void assign_codes(roster_rim *r, const int *index)
{
    int reps[18][2];
    const int n_grid = grid_reps(r->turns, reps), step = 4 / r->turns;
    for (size_t k = 0; k < r->n; k++)
        r->cells[k].orbit = -1;
    r->orbits = 0;
    for (size_t k = 0; k < r->n; k++) {
        roster_rim_cell *c = &r->cells[k];
        if (c->kind != ROSTER_RIM_CODE || c->orbit >= 0)
            continue;
        const int o = r->orbits++, g = o % n_grid;
        for (int m = 0; m < r->turns; m++) {
            int x2, y2, gx2, gy2;
            doubled_place(c->i, c->j, r->nx, r->ny, &x2, &y2);
            turn_place(&x2, &y2, m * step);
            doubled_place(reps[g][0], reps[g][1], 6, 6, &gx2, &gy2);
            turn_place(&gx2, &gy2, m * step);
            roster_rim_cell *member = &r->cells[cell_at(r, index, x2, y2)];
            member->orbit = o;
            member->row = (5 - gx2) / 2, member->col = (5 - gy2) / 2;
        }
    }
    for (size_t k = 0; k < r->n; k++)
        for (int t = 0; t < r->turns; t++) {
            int x2, y2;
            doubled_place(r->cells[k].i, r->cells[k].j, r->nx, r->ny, &x2, &y2);
            turn_place(&x2, &y2, -t * step); /* lying turned t: this place shows what was t steps back */
            r->cells[k].turned[t] = cell_at(r, index, x2, y2);
        }
}

int roster_rim_make(double width, double depth, double cell, roster_rim *out, base_error *err)
{
    memset(out, 0, sizeof *out);
    if (!roster_rim_fits(width, depth, cell))
        return base_error_set(err, "a rim label of %g mm cells does not fit a %g x %g mm base (at least %d cells a "
                                   "side)", cell, width, depth, ROSTER_RIM_MIN_CELLS);
    out->width = width, out->depth = depth, out->cell = cell;
    out->nx = cells_along(width, cell), out->ny = cells_along(depth, cell);
    out->margin_x = (width - out->nx * cell) / 2, out->margin_y = (depth - out->ny * cell) / 2;
    out->turns = out->nx == out->ny ? 4 : 2;
    const size_t most = (size_t)(4 * (out->nx + out->ny));
    int *index = malloc((size_t)out->nx * (size_t)out->ny * sizeof *index);
    int(*walk)[2] = malloc(most * sizeof *walk);
    out->cells = calloc(most, sizeof *out->cells);
    if (!index || !walk || !out->cells) {
        free(index), free(walk);
        roster_rim_clear(out);
        return base_error_set(err, "out of memory");
    }
    for (int k = 0; k < out->nx * out->ny; k++)
        index[k] = -1;
    for (int ring = 0; ring < 2; ring++) {
        const int len = ring_walk(out->nx, out->ny, ring, walk);
        for (int k = 0; k < len; k++) {
            roster_rim_cell *c = &out->cells[out->n];
            const int i = walk[k][0], j = walk[k][1], corner = corner_colour(i, j, out->nx, out->ny);
            c->i = i, c->j = j, c->ring = ring;
            c->x = depth / 2 - out->margin_y - (j + 0.5) * cell;
            c->y = width / 2 - out->margin_x - (i + 0.5) * cell;
            c->kind = corner >= 0 ? (roster_rim_kind)corner : ROSTER_RIM_CODE;
            c->row = c->col = -1;
            out->n_code += c->kind == ROSTER_RIM_CODE;
            index[j * out->nx + i] = (int)out->n++;
        }
    }
    assign_codes(out, index);
    free(index);
    free(walk);
    return 0;
}

void roster_rim_clear(roster_rim *r)
{
    if (!r)
        return;
    free(r->cells);
    memset(r, 0, sizeof *r);
}

bool roster_rim_on_front_mark(double across, double back)
{
    return back >= 0 && back <= ROSTER_RIM_FRONT_DEPTH && fabs(across) <= 2 * back;
}
