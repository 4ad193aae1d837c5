/* army_costs: a unit's points bounded from the army's data (see army_costs.h for what the bounds mean). */
#include "army_costs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/tree.h>

#include "base_text.h"

/* ---- reading ------------------------------------------------------------ */

static int is(const xmlNode *x, const char *name) { return x->type == XML_ELEMENT_NODE && xmlStrEqual(x->name, BAD_CAST name); }

/* The attribute as a number; `fallback` when absent or not a number. */
static double num_attr(const xmlNode *x, const char *name, double fallback)
{
    xmlChar *v = xmlGetProp((xmlNode *)x, BAD_CAST name);
    double d = fallback;
    if (v) {
        char *end;
        d = strtod((const char *)v, &end);
        if (end == (char *)v || !isfinite(d))
            d = fallback;
    }
    xmlFree(v);
    return d;
}

static int attr_is(const xmlNode *x, const char *name, const char *want)
{
    xmlChar *v = xmlGetProp((xmlNode *)x, BAD_CAST name);
    int eq = v && strcasecmp((const char *)v, want) == 0;
    xmlFree(v);
    return eq;
}

/* The element's "pts" cost; *type_id gets the cost type's id (modifiers name it). */
static void read_costs(const xmlNode *x, army_node *n, char *type_id, size_t cap)
{
    for (const xmlNode *cs = x->children; cs; cs = cs->next) {
        if (!is(cs, "costs"))
            continue;
        for (const xmlNode *c = cs->children; c; c = c->next) {
            if (!is(c, "cost") || !attr_is(c, "name", "pts"))
                continue;
            n->cost_lo = n->cost_hi = num_attr(c, "value", 0);
            n->has_cost = 1;
            xmlChar *id = xmlGetProp((xmlNode *)c, BAD_CAST "typeId");
            snprintf(type_id, cap, "%s", id ? (const char *)id : "");
            xmlFree(id);
        }
    }
}

/* min/max constraints on how often the entry is selected in its parent. */
static void read_constraints(const xmlNode *x, army_node *n)
{
    for (const xmlNode *cs = x->children; cs; cs = cs->next) {
        if (!is(cs, "constraints"))
            continue;
        for (const xmlNode *c = cs->children; c; c = c->next) {
            if (!is(c, "constraint") || !attr_is(c, "field", "selections") || !attr_is(c, "scope", "parent"))
                continue;
            double v = num_attr(c, "value", -1);
            int k = v < 0 ? -1 : v > 100000 ? 100000 : (int)v;
            if (attr_is(c, "type", "max"))
                n->max_sel = k;
            else if (attr_is(c, "type", "min"))
                n->min_sel = k;
        }
    }
}

/* Whether a modifier's field is the points cost: the cost type's id, or (an element without costs of its own,
 * such as a link) any field that is not hidden/name/category nor one of the element's constraints. */
static int field_is_points(const xmlNode *x, const xmlNode *mod, const char *type_id)
{
    xmlChar *f = xmlGetProp((xmlNode *)mod, BAD_CAST "field");
    int yes = 0;
    if (f && type_id[0])
        yes = strcmp((const char *)f, type_id) == 0;
    else if (f && strcmp((const char *)f, "hidden") && strcmp((const char *)f, "name") &&
             strcmp((const char *)f, "category") && strcmp((const char *)f, "annotation")) {
        yes = 1;
        for (const xmlNode *cs = x->children; cs && yes; cs = cs->next)
            for (const xmlNode *c = is(cs, "constraints") ? cs->children : NULL; c && yes; c = c->next)
                yes = !(is(c, "constraint") && attr_is(c, "id", (const char *)f));
    }
    xmlFree(f);
    return yes;
}

/* Per selection repeated over ("for every model"): value x repeats / repeat value; 0 when not repeated. */
static double repeat_rate(const xmlNode *mod)
{
    for (const xmlNode *rs = mod->children; rs; rs = rs->next)
        for (const xmlNode *r = is(rs, "repeats") ? rs->children : NULL; r; r = r->next)
            if (is(r, "repeat")) {
                double every = num_attr(r, "value", 1), times = num_attr(r, "repeats", 1);
                return every > 0 ? times / every : times;
            }
    return 0;
}

void army_costs_from_xml(const void *xml_element, army_node *n)
{
    const xmlNode *x = xml_element;
    char type_id[64] = "";
    read_costs(x, n, type_id, sizeof type_id);
    read_constraints(x, n);
    for (const xmlNode *ms = x->children; ms; ms = ms->next)
        for (const xmlNode *m = is(ms, "modifiers") ? ms->children : NULL; m; m = m->next) {
            if (!is(m, "modifier") || !field_is_points(x, m, type_id))
                continue;
            double v = num_attr(m, "value", 0), rate = repeat_rate(m);
            if (attr_is(m, "type", "increment") && v >= 0) {
                if (rate > 0)
                    n->add_per_model += v * rate;
                else
                    n->add_once += v;
            } else if (attr_is(m, "type", "set")) {
                n->cost_lo = fmin(n->cost_lo, v);
                n->cost_hi = fmax(n->cost_hi, v);
            } else { /* a decrement (or a negative increment): lowers it, by an unbounded amount when repeated */
                n->cost_lo = rate > 0 ? -INFINITY : n->cost_lo - fabs(v);
            }
        }
}

/* ---- entries by id --------------------------------------------------------- */

typedef struct id_entry {
    const char *id;
    const army_node *node;
} id_entry;

struct army_cost_index {
    id_entry *items;
    size_t n;
};

army_cost_index *army_cost_index_new(void) { return calloc(1, sizeof(army_cost_index)); }

void army_cost_index_free(army_cost_index *ix)
{
    if (ix)
        free(ix->items);
    free(ix);
}

int army_cost_index_add(army_cost_index *ix, const army_node *n)
{
    if ((n->kind == ARMY_NODE_SELECTION || n->kind == ARMY_NODE_GROUP) && n->extra && n->extra[0]) {
        id_entry *grown = army_grow(ix->items, ix->n, sizeof *grown);
        if (!grown)
            return -1;
        ix->items = grown;
        ix->items[ix->n++] = (id_entry){n->extra, n};
    }
    for (size_t k = 0; k < n->n_children; k++)
        if (army_cost_index_add(ix, &n->children[k]) < 0)
            return -1;
    return 0;
}

static int cmp_id(const void *a, const void *b) { return strcmp(((const id_entry *)a)->id, ((const id_entry *)b)->id); }

void army_cost_index_sort(army_cost_index *ix) { qsort(ix->items, ix->n, sizeof *ix->items, cmp_id); }

static const army_node *find_id(const army_cost_index *ix, const char *id)
{
    if (!ix || !id || !id[0])
        return NULL;
    id_entry key = {id, NULL};
    const id_entry *hit = bsearch(&key, ix->items, ix->n, sizeof *ix->items, cmp_id);
    return hit ? hit->node : NULL;
}

/* ---- the range ----------------------------------------------------------- */

/* What options add to a unit: the most they can lower it (neg <= 0) and raise it (pos >= 0, INFINITY unbounded). */
typedef struct span {
    double neg, pos;
} span;

typedef struct span_walk {
    const army_cost_index *ix;
    int models;
    long budget; /* nodes visited at most: data files link into each other, the walk stays bounded */
} span_walk;

static int is_model(const army_node *n) { return n->kind == ARMY_NODE_SELECTION && strcmp(n->type, "model") == 0; }

static span scale(span s, double k)
{
    span r = {s.neg < 0 ? s.neg * k : 0, s.pos > 0 ? s.pos * k : 0};
    return r;
}

static span entry_span(span_walk *w, const army_node *n, int depth, int once_only);

/* The options under n, each as its own entry_span; a group's as often as it allows (its selections in all), at its
 * dearest selection. */
static span children_span(span_walk *w, const army_node *n, int depth, int as_group, int group_max)
{
    span sum = {0, 0}, worst = {0, 0};
    for (size_t k = 0; k < n->n_children; k++) {
        const army_node *c = &n->children[k];
        if (c->kind != ARMY_NODE_SELECTION && c->kind != ARMY_NODE_GROUP && c->kind != ARMY_NODE_LINK)
            continue;
        span s = entry_span(w, c, depth + 1, as_group && group_max >= 0);
        sum.neg += s.neg, sum.pos += s.pos;
        worst.neg = fmin(worst.neg, s.neg), worst.pos = fmax(worst.pos, s.pos);
    }
    if (as_group && group_max >= 0)
        return scale(worst, group_max == 0 ? 1 : group_max);
    return sum;
}

/* What taking entry n adds, as often as the data allows it (once: `once_only`, a selection of a bounded group). */
static span entry_span(span_walk *w, const army_node *n, int depth, int once_only)
{
    if (--w->budget < 0 || depth > 16)
        return (span){-INFINITY, INFINITY};
    const army_node *link = n->kind == ARMY_NODE_LINK ? n : NULL;
    const army_node *t = link ? find_id(w->ix, link->extra) : n;
    if (!t)
        t = link; /* a target outside the data loaded: the link's own cost only */
    const army_node *priced = link && link->has_cost ? link : t;
    int max = link && link->max_sel >= 0 ? link->max_sel : t->max_sel;
    span once = {0, 0};
    if (!is_model(t)) /* a model's own cost is counted per model by the caller */
        once = (span){fmin(0, priced->cost_lo), fmax(0, priced->cost_hi)};
    once.pos += (t->add_per_model + (link && link != t ? link->add_per_model : 0)) * w->models;
    once.pos += t->add_once + (link && link != t ? link->add_once : 0);
    span kids = children_span(w, t, depth, t->kind == ARMY_NODE_GROUP, max);
    if (is_model(t)) /* what each model carries, for every model */
        return (span){once.neg + kids.neg * w->models, once.pos + kids.pos * w->models};
    if (t->kind == ARMY_NODE_GROUP)
        return (span){once.neg + kids.neg, once.pos + kids.pos};
    span s = {once.neg + kids.neg, once.pos + kids.pos};
    if (once_only)
        return s;
    if (max < 0) /* no limit in the data: unbounded, unless it costs nothing */
        return (span){s.neg < 0 ? -INFINITY : 0, s.pos > 0 ? INFINITY : 0};
    return scale(s, max == 0 ? 1 : max);
}

/* A unit's kinds of model (its rank and file, a champion filed as a model): cost and how many it may have. */
typedef struct model_kind {
    double lo, hi;
    int max; /* -1: no limit */
} model_kind;

/* The unit's model entries (in it, its groups, or behind its links), at most `cap`. */
static void model_kinds(const army_cost_index *ix, const army_node *n, int depth, model_kind *out, int cap, int *found)
{
    for (size_t k = 0; k < n->n_children && depth < 4; k++) {
        const army_node *c = &n->children[k];
        const army_node *t = c->kind == ARMY_NODE_LINK ? find_id(ix, c->extra) : c;
        if (!t)
            continue;
        if (is_model(t) && *found < cap) {
            const army_node *priced = c->kind == ARMY_NODE_LINK && c->has_cost ? c : t;
            int max = c->kind == ARMY_NODE_LINK && c->max_sel >= 0 ? c->max_sel : t->max_sel;
            out[(*found)++] = (model_kind){priced->cost_lo, priced->cost_hi, max};
        } else if (t->kind == ARMY_NODE_GROUP) {
            model_kinds(ix, t, depth + 1, out, cap, found);
        }
    }
}

static int by_lo(const void *a, const void *b)
{
    double x = ((const model_kind *)a)->lo, y = ((const model_kind *)b)->lo;
    return (x > y) - (x < y);
}

/* The least (cheapest first) or the most (dearest first) `models` models can cost, each kind up to its maximum;
 * models past every maximum at the cheapest (dearest) cost, as maxima raised by modifiers are not followed. */
static double models_cost(model_kind *k, int n, int models, int dearest)
{
    qsort(k, (size_t)n, sizeof *k, by_lo);
    double sum = 0;
    int left = models;
    for (int i = 0; i < n && left > 0; i++) {
        const model_kind *m = &k[dearest ? n - 1 - i : i];
        int take = m->max < 0 || m->max > left ? left : m->max;
        sum += take * (dearest ? m->hi : m->lo);
        left -= take;
    }
    return sum + left * (dearest ? k[n - 1].hi : k[0].lo);
}

int army_cost_range_of(const army_node *unit, int models, const army_cost_index *ix, army_cost_range *out)
{
    memset(out, 0, sizeof *out);
    model_kind kinds[16];
    int found = 0;
    model_kinds(ix, unit, 0, kinds, 16, &found);
    if (!unit->has_cost && !found)
        return -1;
    out->base = unit->has_cost ? unit->cost_lo : 0;
    out->per_model = found > 0;
    span_walk w = {ix, models > 0 ? models : 1, 20000};
    span opts = children_span(&w, unit, 0, 0, -1);
    opts.pos += unit->add_per_model * w.models + unit->add_once;
    out->lo = out->base + opts.neg + (found ? models_cost(kinds, found, w.models, 0) : 0);
    out->hi = (unit->has_cost ? unit->cost_hi : 0) + opts.pos + (found ? models_cost(kinds, found, w.models, 1) : 0);
    if (found) { /* by_lo sorted them: the cheapest and the dearest kind */
        out->per_model_lo = kinds[0].lo;
        out->per_model_hi = kinds[0].hi;
        for (int i = 1; i < found; i++)
            out->per_model_hi = fmax(out->per_model_hi, kinds[i].hi);
    }
    return 0;
}

bool army_cost_fits(const army_cost_range *r, int points)
{
    return !(points < r->lo - 0.5) && !(points > r->hi + 0.5);
}

/* ---- a unit's listed points ------------------------------------------------ */

/* What entries (all of one name) allow for `models` models, as one range: lowest and highest of theirs. */
static int entries_range(const army_cost_index *ix, const army_node *const *hits, size_t n, int models,
                         army_cost_range *all)
{
    army_cost_range r;
    int got = 0, units = 0;
    for (size_t i = 0; i < n; i++)
        units += strcmp(hits[i]->type, "unit") == 0;
    for (size_t i = 0; i < n; i++) {
        /* "Skeleton Cavalry" names the unit and its model: the unit's entry prices the unit */
        if ((units && strcmp(hits[i]->type, "unit") != 0) || army_cost_range_of(hits[i], models, ix, &r) < 0)
            continue;
        if (!got++)
            *all = r;
        all->lo = fmin(all->lo, r.lo), all->hi = fmax(all->hi, r.hi);
    }
    return got;
}

/* The model counts whose range holds `points` (for `units` units): "; 200 points fit 1 model", or "". Counts are
 * tried upwards until even the least is over the points. */
static void counts_that_fit(const army_cost_index *ix, const army_node *const *hits, size_t n, int units, int points,
                            char *out, size_t cap)
{
    int first = 0, last = 0;
    army_cost_range r;
    for (int k = 1; k <= ARMY_MAX_MODELS && entries_range(ix, hits, n, k, &r) && r.per_model; k++) {
        r.lo *= units, r.hi *= units;
        if (army_cost_fits(&r, points))
            last = k, first = first ? first : k;
        if (r.lo > points + 0.5 && r.per_model_lo > 0)
            break;
    }
    if (first && first == last)
        snprintf(out, cap, "; %d points fit %d model%s", points, first, first == 1 ? "" : "s");
    else if (first)
        snprintf(out, cap, "; %d points fit %d to %d models", points, first, last);
    else
        snprintf(out, cap, "; no model count fits them");
}

/* A listed cost against what the entries allow for the unit's model count: said when it cannot be made
 * ("line 7: 660 points do not fit 1 model ..."), never corrected. */
int army_costs_check(const army_node *const *hits, size_t n, const army_cost_index *ix, army_unit *u, bool counts)
{
    const int units = u->points_units > 1 ? u->points_units : 1;
    army_cost_range all;
    if (u->points <= 0 || u->models <= 0 || !entries_range(ix, hits, n, u->models, &all))
        return -1;
    u->points_lo = all.lo * units, u->points_hi = all.hi * units;
    army_cost_range whole = all;
    whole.lo = u->points_lo, whole.hi = u->points_hi;
    if (army_cost_fits(&whole, u->points))
        return 1;
    u->points_misfit = true;
    char most[32] = "no upper bound", fit[64] = "";
    if (isfinite(u->points_hi))
        snprintf(most, sizeof most, "at most %.0f", u->points_hi);
    if (all.per_model && counts)
        counts_that_fit(ix, hits, n, units, u->points, fit, sizeof fit);
    army_unit_say(u, "%s: %d points do not fit %d model%s%s: by the catalogue's \"%.*s\" %s cost at least %.0f, %s%s",
                  u->where, u->points, u->models, u->models == 1 ? "" : "s", units > 1 ? " in each unit" : "",
                  (int)base_text_cut(hits[0]->name, 40), hits[0]->name, u->models == 1 ? "it would" : "they would",
                  u->points_lo, most, fit);
    return 0;
}
