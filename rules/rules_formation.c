#include "rules_formation.h"
#include "rules_arcs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Least-squares line y = a + b x; falls back to slope `b_default` when x does not vary. */
static void fit_line(const double *x, const double *y, size_t n, double b_default, double *a, double *b)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    double den = n * sxx - sx * sx;
    if (n < 2 || fabs(den) < 1e-9) {
        *b = b_default;
        *a = (sy - b_default * sx) / (double)n;
        return;
    }
    *b = (n * sxy - sx * sy) / den;
    *a = (sy - *b * sx) / (double)n;
}

typedef struct {
    double key;
    size_t i;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    double x = ((const keyed *)a)->key, y = ((const keyed *)b)->key;
    return (x > y) - (x < y);
}

/* Stable sort by key: insertion for the few models of a real unit, qsort (stable merge sort in glibc) beyond. */
static void sort_keyed(keyed *a, size_t n)
{
    if (n > 32) {
        qsort(a, n, sizeof *a, cmp_keyed);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        keyed x = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1].key > x.key; j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The unit's facing: the circular mean of the models' facings (no
 * trigonometry when they all agree); MIXED_FACING when one is off it by more than ftol. */
static double mean_heading(const rules_unit *u, double ftol, unsigned *issues)
{
    const size_t n = u->n_models;
    bool same = true;
    for (size_t i = 1; i < n && same; i++)
        same = u->models[i].facing == u->models[0].facing;
    double heading = u->models[0].facing;
    if (same)
        return heading;
    double sc = 0, ss = 0;
    for (size_t i = 0; i < n; i++) {
        sc += cos(u->models[i].facing);
        ss += sin(u->models[i].facing);
    }
    heading = atan2(ss, sc);
    for (size_t i = 0; i < n; i++)
        if (fabs(base_angle_wrap(u->models[i].facing - heading)) > ftol)
            *issues |= RULES_FORMATION_MIXED_FACING;
    return heading;
}

/* Ranks by walking neighbours front to back: each step counts as
 * round(step / base) places, so small gaps between bases never add up
 * across a deep unit the way dividing absolute offsets would. Returns the
 * number of ranks. */
static int assign_ranks(const double *lv, size_t n, double d, keyed *ord, rules_slot *slots)
{
    for (size_t i = 0; i < n; i++)
        ord[i] = (keyed){-lv[i], i};
    sort_keyed(ord, n);
    int ranks = 1;
    slots[ord[0].i].rank = 0;
    for (size_t k = 1; k < n; k++) {
        double step = ord[k].key - ord[k - 1].key;
        if (step > 0.5 * d)
            ranks += (int)fmax(1.0, round(step / d));
        slots[ord[k].i].rank = ranks - 1;
    }
    return ranks;
}

/* Files, left to right within each rank, the same way as the ranks; the
 * rear rank (of several) may sit on half steps of the measured pitch. */
static void assign_files(const double *lu, size_t n, double w, int ranks, keyed *ord, rules_slot *slots)
{
    const int last = ranks - 1;
    /* The full ranks are all but the last, unless there is only one. */
    double umin = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (ranks == 1 || slots[i].rank < last)
            umin = fmin(umin, lu[i]);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        ord[m++] = (keyed){slots[i].rank * 1e7 + lu[i], i}; /* by rank, then left to right */
    sort_keyed(ord, m);
    double step_sum = 0;
    int step_count = 0;
    for (size_t k = 1; k < n; k++) {
        size_t a = ord[k - 1].i, b = ord[k].i;
        double step = lu[b] - lu[a];
        if (slots[a].rank == slots[b].rank && step > 0.5 * w && step < 1.5 * w) {
            step_sum += step;
            step_count++;
        }
    }
    const double pu_est = step_count ? step_sum / step_count : w;
    for (size_t k = 0; k < n; k++) {
        size_t b = ord[k].i;
        bool full = ranks == 1 || slots[b].rank < last;
        slots[b].offset = 0;
        if (!full) {
            double q = round(2 * (lu[b] - umin) / pu_est) / 2; /* the rear rank may sit on half steps */
            slots[b].file = (int)floor(q);
            slots[b].offset = q - floor(q);
        } else if (k == 0 || slots[ord[k - 1].i].rank != slots[b].rank) {
            slots[b].file = (int)lround((lu[b] - umin) / pu_est);
        } else {
            size_t a = ord[k - 1].i;
            double step = lu[b] - lu[a];
            slots[b].file = slots[a].file + (step < 0.5 * w ? 0 : (int)fmax(1.0, round(step / pu_est)));
        }
    }
}

/* The grid's origin and pitch along one axis: a least-squares line of the
 * positions pos[] against the slot indices idx[]; a pitch far from the base
 * size means the indices were wrong, so then the nominal pitch and the
 * median origin (tmp: n doubles of scratch). */
static void fit_axis(const double *idx, const double *pos, size_t n, double nominal, double *tmp, double *origin,
                     double *pitch)
{
    fit_line(idx, pos, n, nominal, origin, pitch);
    if (!(*pitch < 0.5 * nominal || *pitch > 1.5 * nominal))
        return;
    *pitch = nominal;
    for (size_t i = 0; i < n; i++)
        tmp[i] = pos[i] - nominal * idx[i];
    qsort(tmp, n, sizeof *tmp, cmp_double);
    *origin = tmp[n / 2];
}

/* Occupancy: full ranks must be complete, no two models in one place, no
 * model outside the files. Returns the number of files; *rear the models of the last rank. */
static int check_occupancy(const rules_slot *slots, size_t n, int ranks, int *rear, unsigned *issues)
{
    const int last = ranks - 1;
    int files = 0;
    for (size_t i = 0; i < n; i++)
        if (ranks == 1 || slots[i].rank < last)
            files = slots[i].file + 1 > files ? slots[i].file + 1 : files;
    *rear = 0;
    for (size_t i = 0; i < n; i++) {
        if (slots[i].rank == last)
            (*rear)++;
        if (slots[i].file < 0 || slots[i].file + slots[i].offset > files - 1 + 1e-9)
            *issues |= RULES_FORMATION_OFF_GRID;
        for (size_t j = 0; j < i; j++)
            if (slots[j].rank == slots[i].rank && slots[j].file == slots[i].file &&
                slots[j].offset == slots[i].offset)
                *issues |= RULES_FORMATION_STACKED;
    }
    size_t full_models = n - (ranks > 1 ? (size_t)*rear : 0);
    if (ranks > 1 && full_models < (size_t)files * (size_t)(ranks - 1))
        *issues |= RULES_FORMATION_GAP;
    if (ranks == 1 && (size_t)files > n)
        *issues |= RULES_FORMATION_GAP;
    return files;
}

/* The formation's frame and boundary from the fitted grid (origin (a_u, a_v) in the frame f0). */
static void set_boundary(rules_formation *out, base_frame f0, double a_u, double a_v, double w, double d)
{
    out->frame = (base_frame){base_frame_to_board(f0, base_v2(a_u, a_v)), out->heading};
    double left = -w / 2, right = (out->files - 1) * out->pitch_across + w / 2;
    double front = d / 2, back = -(out->ranks - 1) * out->pitch_along - d / 2;
    out->boundary = (base_obb){
        .centre = base_frame_to_board(out->frame, base_v2((left + right) / 2, (front + back) / 2)),
        .heading = out->heading,
        .width = right - left,
        .depth = front - back,
    };
    out->centre = out->boundary.centre;
    out->front_centre = base_obb_front_centre(&out->boundary);
}

int rules_formation_fit(const rules_unit *u, const rules_formation_params *params, rules_formation *out,
                        rules_slot *slots_out)
{
    const size_t n = u->n_models;
    memset(out, 0, sizeof *out);
    if (n == 0)
        return -1;
    const double tol = params ? params->position_tolerance_mm : RULES_FORMATION_POSITION_TOLERANCE_MM;
    const double ftol = params ? params->facing_tolerance_rad : RULES_FORMATION_FACING_TOLERANCE_RAD;
    const double w = u->base_width, d = u->base_depth;
    const double heading = mean_heading(u, ftol, &out->issues);

    /* Scratch space: on the stack for any real unit, one heap block beyond that. */
    enum { SMALL = 64 };
    rules_slot stack_slots[SMALL];
    double stack_buf[4 * SMALL];
    keyed stack_ord[SMALL];
    void *heap = NULL;
    rules_slot *slots = slots_out ? slots_out : stack_slots;
    double *buf = stack_buf;
    keyed *ord = stack_ord;
    if (n > SMALL) {
        heap = malloc(n * (4 * sizeof *buf + sizeof *ord + sizeof *slots));
        if (!heap)
            return -1;
        buf = heap;
        ord = (keyed *)(buf + 4 * n);
        if (!slots_out)
            slots = (rules_slot *)(ord + n);
    }
    double *lu = buf, *lv = buf + n, *idx = buf + 2 * n, *tmp = buf + 3 * n;

    /* Provisional local frame at the first model. */
    const base_frame f0 = {u->models[0].pos, heading};
    const double hc = cos(heading), hs = sin(heading); /* base_frame_to_local, one sincos for all models */
    for (size_t i = 0; i < n; i++) {
        base_vec2 r = base_v2_sub(u->models[i].pos, f0.origin);
        lu[i] = r.x * hs - r.y * hc;
        lv[i] = r.x * hc + r.y * hs;
    }
    const int ranks = assign_ranks(lv, n, d, ord, slots);
    assign_files(lu, n, w, ranks, ord, slots);

    /* Measured pitch and origin, each axis on its own. */
    double a_u, p_u, a_v, p_v;
    for (size_t i = 0; i < n; i++)
        idx[i] = slots[i].file + slots[i].offset;
    fit_axis(idx, lu, n, w, tmp, &a_u, &p_u);
    for (size_t i = 0; i < n; i++)
        idx[i] = -slots[i].rank;
    fit_axis(idx, lv, n, d, tmp, &a_v, &p_v);
    if (p_u < w - tol || p_v < d - tol)
        out->issues |= RULES_FORMATION_OVERLAP;

    out->max_residual_mm = 0;
    for (size_t i = 0; i < n; i++) {
        double du = lu[i] - (a_u + p_u * (slots[i].file + slots[i].offset));
        double dv = lv[i] - (a_v - p_v * slots[i].rank);
        slots[i].residual_mm = sqrt(du * du + dv * dv);
        if (slots[i].residual_mm > out->max_residual_mm) {
            out->max_residual_mm = slots[i].residual_mm;
            out->worst_model = i;
        }
    }
    if (out->max_residual_mm > tol)
        out->issues |= RULES_FORMATION_OFF_GRID;

    int rear;
    out->files = check_occupancy(slots, n, ranks, &rear, &out->issues);
    out->heading = heading;
    out->ranks = ranks;
    out->rear_rank_models = ranks == 1 ? (int)n : rear;
    out->pitch_across = p_u;
    out->pitch_along = p_v;
    set_boundary(out, f0, a_u, a_v, w, d);
    free(heap);
    return 0;
}

base_vec2 rules_formation_slot_position(const rules_formation *f, int file, int rank, double offset)
{
    return base_frame_to_board(f->frame, base_v2((file + offset) * f->pitch_across, -rank * f->pitch_along));
}

int rules_formation_place(rules_unit *u, base_vec2 front_centre, double heading, int files, int n_models)
{
    if (files < 1)
        return -1;
    const double w = u->base_width, d = u->base_depth;
    const int ranks = (n_models + files - 1) / files;
    const base_frame f = {front_centre, heading};
    for (int k = 0; k < n_models; k++) {
        int rank = k / files, file = k % files;
        int in_rank = rank == ranks - 1 ? n_models - rank * files : files;
        double shift = (files - in_rank) / 2.0; /* centres an incomplete last rank */
        base_vec2 local = base_v2((file + shift - (files - 1) / 2.0) * w, -d / 2 - rank * d);
        char id[RULES_ID_MAX + 16];
        snprintf(id, sizeof id, "%s-%d", u->id, k + 1);
        if (!rules_unit_add_model(u, id, base_frame_to_board(f, local), heading))
            return -1;
    }
    return 0;
}

int rules_formation_proper_rank(const rules_ruleset *rs, const rules_unit *u)
{
    if (u->height < 0)
        return rs->proper_rank_width;
    if (u->height >= rs->height_gigantic_from)
        return rs->proper_rank_width_gigantic;
    if (u->height >= rs->height_large_from)
        return rs->proper_rank_width_large;
    return rs->proper_rank_width;
}

bool rules_formation_too_deep(const rules_ruleset *rs, const rules_unit *u, const rules_formation *f, int *proper)
{
    const int width = rules_formation_proper_rank(rs, u);
    if (proper)
        *proper = width;
    return rs->ranks_at_most_files && f->ranks > f->files && f->files < width;
}

const char *rules_formation_height_class(const rules_ruleset *rs, const rules_unit *u)
{
    return u->height < 0                            ? ""
           : u->height >= rs->height_gigantic_from ? "gigantic"
           : u->height >= rs->height_large_from    ? "large"
                                                    : "standard";
}

unsigned rules_formation_arcs_of(const rules_formation *f, base_vec2 p, double tol_mm)
{
    return rules_obb_arcs_of(&f->boundary, p, tol_mm);
}

void rules_formation_describe(const rules_formation *f, const rules_unit *u, char *buf, size_t cap)
{
    buf[0] = '\0';
    size_t len = 0;
#define ADD(...)                                                                                             \
    do {                                                                                                     \
        if (len < cap) {                                                                                     \
            int k = snprintf(buf + len, cap - len, __VA_ARGS__);                                             \
            len += k > 0 ? (size_t)k : 0;                                                                    \
        }                                                                                                    \
    } while (0)
    if (f->issues & RULES_FORMATION_MIXED_FACING)
        ADD("%smodels do not all face the same way", len ? "; " : "");
    if (f->issues & RULES_FORMATION_OFF_GRID)
        ADD("%smodel %s is %.1f mm out of line with its rank and file", len ? "; " : "",
            u->models[f->worst_model].id, f->max_residual_mm);
    if (f->issues & RULES_FORMATION_GAP)
        ADD("%sa rank other than the last has an empty place", len ? "; " : "");
    if (f->issues & RULES_FORMATION_STACKED)
        ADD("%stwo models stand in the same place", len ? "; " : "");
    if (f->issues & RULES_FORMATION_OVERLAP)
        ADD("%sbases overlap", len ? "; " : "");
#undef ADD
}
