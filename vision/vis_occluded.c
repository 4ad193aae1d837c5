/*
 * vis_occluded: a unit under a hand, read from the rim labels that show (vis_occluded.h).
 *
 * The nats: vis_rim_obs gives each code cell the log-likelihood of its grey if it is paper over if it is ink, a
 * cell a figure or a hand may cover counting for little and each capped at 8 nats; a reading's misfit is the sum
 * of what its disagreeing cells say against it, and the margin to the runner-up the log of their likelihood ratio.
 * The cells are not independent (a figure's edge spans two), so the margin is set from what the labels found on
 * the minis set do (vis_occluded.h, 3), not from e^-20 alone: twice the margin any wrong reading reached there.
 */
#include "vis_occluded.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base_geom.h"
#include "vis_rim.h"
#include "vis_tagread.h"

typedef struct ctx {
    const vis_rim_book *book;
    const roster_map *map;
    vis_seen_model *seen;
    unsigned char *candidate_unit;  /* per roster unit */
} ctx;

/* The units of which nothing at all is seen: no model seen, rough, certain or doubted. */
static size_t find_candidates(ctx *c)
{
    size_t n = 0;
    for (size_t u = 0; u < c->map->n_units; u++) {
        const roster_map_unit *ru = &c->map->units[u];
        bool any = false;
        for (size_t q = 0; q < ru->n_models && !any; q++) {
            const vis_seen_model *s = &c->seen[ru->first_model + q];
            any = s->seen || s->rough || s->certain || s->doubted;
        }
        c->candidate_unit[u] = !any && ru->n_models > 0;
        n += c->candidate_unit[u];
    }
    return n;
}

/* Whether layout L carries a model of a candidate unit; flags[j] set per L->models entry that is one. */
static bool layout_candidates(const ctx *c, const vis_rim_layout *L, unsigned char *flags)
{
    bool any = false;
    for (size_t j = 0; j < L->n_models; j++) {
        flags[j] = c->candidate_unit[c->map->models[L->models[j]].unit];
        any |= flags[j];
    }
    return any;
}

/* Whether a label stands on a model already seen: its centre nearer that model's than 0.4 of the sum of their
 * smaller sides (a label touching a seen base, side by side, stands 0.5 off; two half-depth labels taken for one
 * stand 0.25 off each of theirs). It is that model's, a false find beside it, or two of its neighbours' labels. */
static bool on_seen_model(const ctx *c, const vis_rim_label *lab)
{
    const double own = fmin(lab->layout->rim.width, lab->layout->rim.depth);
    for (size_t i = 0; i < c->map->n_models; i++) {
        const vis_seen_model *s = &c->seen[i];
        if (!(s->seen || s->rough))
            continue;
        const roster_map_model *rm = &c->map->models[i];
        const roster_map_unit *ru = &c->map->units[rm->unit];
        const double w = rm->base_width > 0 ? rm->base_width : ru->base_width;
        const double d = rm->base_depth > 0 ? rm->base_depth : ru->base_depth;
        if (hypot(s->pos.x - lab->centre[0], s->pos.y - lab->centre[1]) < 0.4 * (own + fmin(w, d)))
            return true;
    }
    return false;
}

/* The roster model a label names (its index in the layout's models in *j, its turn in *t), or -1: vis_occluded.h, 3.
 * flags: the layout's candidates. */
static long name_label(const vis_rim_label *lab, const unsigned char *flags, long *j, int *t)
{
    const vis_rim_layout *L = lab->layout;
    const unsigned turns = (1u << L->rim.turns) - 1;
    vis_rim_decoded all, among;
    vis_rim_decode(L, &lab->obs, NULL, turns, &all);
    vis_rim_decode(L, &lab->obs, flags, turns, &among);
    if (all.m < 0 || among.m != all.m || among.turn != all.turn ||
        !vis_rim_decisive(&all, VIS_OCCLUDED_MAX_MISFIT, VIS_OCCLUDED_MARGIN))
        return -1;
    *j = all.m, *t = all.turn;
    return (long)L->models[all.m];
}

/* What a frame's reading keeps per roster model: the label naming it (-1 none, -2 two), its layout index and turn. */
typedef struct naming {
    long label, j;
    int turn;
    int masts;              /* masts read for it (vis_occluded.h, 4): 1 places it from `mast` */
    vis_seen_model mast;
} naming;

/* Every label found that stands on no model seen named, into names[] (one per roster model). */
static void name_labels(const ctx *c, const vis_rim_found *found, unsigned char *flags, naming *names)
{
    for (size_t i = 0; i < c->map->n_models; i++)
        names[i] = (naming){.label = -1};
    for (size_t i = 0; i < found->n; i++) {
        const vis_rim_label *lab = &found->items[i];
        long j;
        int t;
        if (!layout_candidates(c, lab->layout, flags) || on_seen_model(c, lab))
            continue;
        const long m = name_label(lab, flags, &j, &t);
        if (m < 0)
            continue;
        names[m].label = names[m].label == -1 ? (long)i : -2, names[m].j = j, names[m].turn = t;
    }
}

/* The mast tag carried by model m read where a label taken for m puts it (vis_occluded.h, 4): into names[m]. */
static void read_mast_over(const ctx *c, const vis_camera *cam, const base_view *im, const vis_tagread_codes *codes,
                           const vis_rim_label *lab, size_t m, int turn, naming *names, size_t *tries)
{
    const roster_map *map = c->map;
    /* The surface the base stands on: the label's height less its own above that surface (a hill's too). */
    const double facing = vis_rim_facing(lab, turn);
    const double base_z = lab->centre[2] - map->units[map->models[m].unit].mount.height;
    for (size_t k = 0; k < map->n_marks; k++) {
        const roster_map_mark *mk = &map->marks[k];
        if (mk->model != m)
            continue;
        base_vec2 centre;
        double heading;
        roster_tag_mount_place(&mk->mount, (base_vec2){lab->centre[0], lab->centre[1]}, facing, &centre, &heading);
        const double P[3] = {centre.x, centre.y, base_z + mk->mount.height};
        vis_tagread_params p;
        vis_tagread_params_default(&p);
        /* The label's centre is good to a cell, its turn may be any: the rod's lean and a cell around, any turn. */
        p.any_rotation = true;
        p.search_mm = fmax(p.search_mm, 2 * mk->sway + lab->layout->rim.cell);
        vis_tagread rd;
        ++*tries;
        if (!vis_tagread_at(cam, im, P, heading, mk->mount.size, &p, codes, &rd) || rd.id != mk->tag_id ||
            !vis_tagread_decisive(&rd, VIS_OCCLUDED_MAST_CELLS, 0.0, VIS_OCCLUDED_MAST_MARGIN))
            continue;
        vis_seen_model s = {.seen = true, .certain = true, .mark_height_mm = mk->mount.height, .sway_mm = mk->sway};
        roster_tag_mount_unplace(&mk->mount, (base_vec2){rd.centre[0], rd.centre[1]}, rd.heading, &s.pos, &s.facing);
        /* Two reads of its mast (two labels taken for it) must agree on its place, within the rod's lean. */
        if (names[m].masts == 0 || base_v2_dist(names[m].mast.pos, s.pos) > 2 * mk->sway + 1)
            names[m].masts++;
        names[m].mast = s;
    }
}

/* The labels that name nothing read as the candidate model they fit best (at most VIS_OCCLUDED_GUESS_MISFIT nats):
 * the mast that model carries read over it. */
static void read_masts(const ctx *c, const vis_camera *cam, const base_view *im, const vis_tag_detector *td,
                       const vis_rim_found *found, unsigned char *flags, naming *names, size_t *tries)
{
    bool any = false;
    for (size_t k = 0; k < c->map->n_marks && !any; k++)
        any = c->candidate_unit[c->map->models[c->map->marks[k].model].unit];
    vis_tagread_codes codes = {0};
    if (!any || vis_tagread_codes_roster(td, c->map, &codes) < 0)
        return;
    for (size_t i = 0; i < found->n; i++) {
        const vis_rim_label *lab = &found->items[i];
        if (!layout_candidates(c, lab->layout, flags) || on_seen_model(c, lab))
            continue;
        vis_rim_decoded among;
        vis_rim_decode(lab->layout, &lab->obs, flags, (1u << lab->layout->rim.turns) - 1, &among);
        const size_t m = among.m >= 0 ? lab->layout->models[among.m] : 0;
        if (among.m >= 0 && among.misfit <= VIS_OCCLUDED_GUESS_MISFIT && names[m].label == -1)
            read_mast_over(c, cam, im, &codes, lab, m, among.turn, names, tries);
    }
    vis_tagread_codes_clear(&codes);
}

/* The models named once seen where their labels, fitted again on every cell they show, put them; a unit with fewer
 * than three named partial (only those placed). */
static size_t place_named(const ctx *c, const vis_camera *cam, const base_view *im, vis_rim_found *found,
                          const naming *names, unsigned char *partial, size_t *by_mast)
{
    size_t placed = 0;
    for (size_t m = 0; m < c->map->n_models; m++) {
        if (names[m].label == -1 && names[m].masts == 1) {
            c->seen[m] = names[m].mast;
            placed++, (*by_mast)++;
            continue;
        }
        if (names[m].label < 0)
            continue;
        vis_rim_label *lab = &found->items[names[m].label];
        vis_rim_refine(cam, im, lab, (size_t)names[m].j, names[m].turn);
        c->seen[m] = (vis_seen_model){.seen = true, .certain = true, .pos = {lab->centre[0], lab->centre[1]},
                                      .facing = vis_rim_facing(lab, names[m].turn)};
        placed++;
    }
    for (size_t u = 0; u < c->map->n_units && partial; u++) {
        const roster_map_unit *ru = &c->map->units[u];
        size_t n = 0;
        for (size_t q = 0; q < ru->n_models; q++)
            n += names[ru->first_model + q].label >= 0 || (names[ru->first_model + q].label == -1 &&
                                                          names[ru->first_model + q].masts == 1);
        if (n > 0 && (n < 3 || ru->loose) && ru->n_models > n)
            partial[u] = 1;
    }
    return placed;
}

/* The book's layouts that carry a candidate's model: searching only these costs a fraction of the whole book's
 * search. Two labels of half the depth, front and back, look like one of these to vis_rim_find when their layout is
 * not searched with it; such a pair stands on two models, and the labels on models seen are left out
 * (on_seen_model). A shallow copy (its layouts share the book's arrays): free its `layouts` only. */
static int candidate_book(const ctx *c, unsigned char *flags, vis_rim_book *sub)
{
    const vis_rim_book *b = c->book;
    *sub = (vis_rim_book){.layouts = malloc((b->n + 1) * sizeof *sub->layouts), .layout_of = b->layout_of,
                          .n_models = b->n_models};
    if (!sub->layouts)
        return -1;
    for (size_t k = 0; k < b->n; k++)
        if (layout_candidates(c, &b->layouts[k], flags))
            sub->layouts[sub->n++] = b->layouts[k];
    return 0;
}

int vis_occluded_place(const vis_camera *cam, const base_view *im, const vis_rim_book *book,
                       const vis_tag_detector *td, const roster_map *map, int threads, vis_rim_found *given,
                       vis_seen_model *seen, unsigned char *partial, vis_occluded_stats *st)
{
    memset(st, 0, sizeof *st);
    if (book->n == 0 || !im)
        return 0;
    size_t most = 0;
    for (size_t k = 0; k < book->n; k++)
        most = book->layouts[k].n_models > most ? book->layouts[k].n_models : most;
    ctx c = {book, map, seen, calloc(map->n_units + 1, 1)};
    unsigned char *flags = malloc(most + 1);
    naming *names = malloc((map->n_models + 1) * sizeof *names);
    int rc = c.candidate_unit && flags && names ? 0 : -1;
    bool any = false;
    if (rc == 0 && (st->candidates = find_candidates(&c)) > 0)
        for (size_t k = 0; k < book->n; k++)
            any |= layout_candidates(&c, &book->layouts[k], flags);
    vis_rim_found searched = {0};
    vis_rim_book sub = {0};
    if (any && !given) {
        vis_rim_params p;
        vis_rim_params_default(&p);
        /* As vis_rim_units: a corner's junction already puts the label within a cell. */
        p.search_mm = 0.6, p.search_rad = base_deg_to_rad(4);
        const int roi[4] = {0, 0, im->width, im->height};
        rc = candidate_book(&c, flags, &sub);
        if (rc == 0)
            rc = vis_rim_find(cam, im, &sub, &p, threads, roi, &searched);
    }
    /* The labels found once with every layout (given) instead of a second search: each place holds the label of the
     * layout it fits best among all of them, so a pair of half-depth labels is not taken for one of a candidate's;
     * labels of layouts no candidate has are passed over (layout_candidates). */
    vis_rim_found *found = given ? given : &searched;
    if (any && rc == 0) {
        st->labels = found->n;
        name_labels(&c, found, flags, names);
        read_masts(&c, cam, im, td, found, flags, names, &st->mast_tries);
        st->models = place_named(&c, cam, im, found, names, partial, &st->masts);
    }
    vis_rim_found_clear(&searched);
    free(sub.layouts);
    free(c.candidate_unit);
    free(flags);
    free(names);
    return rc;
}
