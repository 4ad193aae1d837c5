#include "army_tree.h"
#include "army_costs.h"
#include "army_rates.h"
#include "base_text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>
#include <libxml/tree.h>

#define ARMY_STR2(x) #x
#define ARMY_STR(x) ARMY_STR2(x)

/* ---- the tree -------------------------------------------------------- */

static void node_clear(army_node *n)
{
    free(n->name);
    free(n->type);
    free(n->extra);
    for (size_t p = 0; p < n->n_profiles; p++) {
        army_profile *pr = &n->profiles[p];
        for (size_t c = 0; c < pr->n_chars; c++) {
            free(pr->chars[c].name);
            free(pr->chars[c].value);
        }
        free(pr->chars);
        free(pr->name);
        free(pr->type_name);
    }
    free(n->profiles);
    for (size_t c = 0; c < n->n_categories; c++)
        free(n->categories[c]);
    free(n->categories);
    for (size_t c = 0; c < n->n_children; c++)
        node_clear(&n->children[c]);
    free(n->children);
}

void army_tree_free(army_node *n)
{
    if (!n)
        return;
    node_clear(n);
    free(n);
}

static char *dup_or_empty(const char *s) { return strdup(s ? s : ""); }

static army_node *add_child(army_node *parent, army_node_kind kind)
{
    army_node *c = army_grow(parent->children, parent->n_children, sizeof *c);
    if (!c)
        return NULL;
    parent->children = c;
    c = &parent->children[parent->n_children++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->number = 1;
    c->min_sel = c->max_sel = -1;
    return c;
}

static army_profile *add_profile(army_node *n, const char *name, const char *type_name)
{
    army_profile *p = army_grow(n->profiles, n->n_profiles, sizeof *p);
    if (!p)
        return NULL;
    n->profiles = p;
    p = &n->profiles[n->n_profiles++];
    memset(p, 0, sizeof *p);
    p->name = dup_or_empty(name);
    p->type_name = dup_or_empty(type_name);
    return p;
}

static int add_char(army_profile *p, const char *name, const char *value)
{
    army_char *c = army_grow(p->chars, p->n_chars, sizeof *c);
    if (!c)
        return -1;
    p->chars = c;
    c[p->n_chars].name = dup_or_empty(name);
    c[p->n_chars].value = dup_or_empty(value);
    p->n_chars++;
    return 0;
}

static int add_category(army_node *n, const char *name)
{
    char **c = army_grow(n->categories, n->n_categories, sizeof *c);
    if (!c)
        return -1;
    n->categories = c;
    c[n->n_categories++] = dup_or_empty(name);
    return 0;
}

/* ---- counts ------------------------------------------------------------ */

static void set_number(army_node *n, double v, const char *why_not_whole)
{
    /* Checked in range before it becomes an int: 2,000,000,000 models must not overflow a sum. */
    if (why_not_whole)
        n->number = -1, n->number_why = why_not_whole;
    else if (!(v >= 0 && v <= ARMY_MAX_MODELS))
        n->number = -1, n->number_why = "out of range (0.." ARMY_STR(ARMY_MAX_MODELS) ")";
    else if (v != floor(v))
        n->number = -1, n->number_why = "not a whole number";
    else
        n->number = (int)v;
}

static void set_number_text(army_node *n, const char *text)
{
    char *end;
    double v = strtod(text, &end);
    while (*end == ' ')
        end++;
    set_number(n, v, end == text || *end ? "not a number" : NULL);
}

/* ---- from XML (libxml2) ----------------------------------------------- */

static int is(const xmlNode *x, const char *name) { return x->type == XML_ELEMENT_NODE && xmlStrEqual(x->name, BAD_CAST name); }

static char *xattr(const xmlNode *x, const char *name)
{
    xmlChar *v = xmlGetProp((xmlNode *)x, BAD_CAST name);
    char *s = strdup(v ? (const char *)v : "");
    xmlFree(v);
    return s;
}

static void xml_profile(const xmlNode *x, army_node *into)
{
    char *name = xattr(x, "name"), *tn = xattr(x, "typeName");
    army_profile *p = add_profile(into, name, tn);
    free(name);
    free(tn);
    if (!p)
        return;
    for (const xmlNode *cs = x->children; cs; cs = cs->next) {
        if (!is(cs, "characteristics"))
            continue;
        for (const xmlNode *c = cs->children; c; c = c->next) {
            if (!is(c, "characteristic"))
                continue;
            char *cn = xattr(c, "name");
            xmlChar *v = xmlNodeGetContent((xmlNode *)c);
            add_char(p, cn, v ? (const char *)v : "");
            xmlFree(v);
            free(cn);
        }
    }
}

static void xml_walk(const xmlNode *x, army_node *into);

static void xml_element(const xmlNode *x, army_node *into)
{
    static const struct {
        const char *tag;
        army_node_kind kind;
    } nodes[] = {
        {"roster", ARMY_NODE_ROSTER},           {"force", ARMY_NODE_FORCE},
        {"selection", ARMY_NODE_SELECTION},     {"selectionEntry", ARMY_NODE_SELECTION},
        {"selectionEntryGroup", ARMY_NODE_GROUP}, {"entryLink", ARMY_NODE_LINK},
        {"catalogue", ARMY_NODE_OTHER},         {"gameSystem", ARMY_NODE_OTHER},
        {"sharedSelectionEntries", ARMY_NODE_OTHER}, {"sharedSelectionEntryGroups", ARMY_NODE_OTHER},
        {"categoryEntry", ARMY_NODE_CATEGORY},
    };
    if (is(x, "profile")) {
        xml_profile(x, into);
        return;
    }
    if (is(x, "category") || is(x, "categoryLink")) {
        char *n = xattr(x, "name"), *target = xattr(x, "targetId");
        add_category(into, n);
        if (target[0] && is(x, "categoryLink")) {
            /* Data files often name the link "New CategoryLink": the category's own name is found by its id. */
            char buf[128];
            snprintf(buf, sizeof buf, "#%s", target);
            add_category(into, buf);
        }
        free(n);
        free(target);
        return;
    }
    /* Rules texts carry nothing a referee reads; costs, constraints and modifiers are read by army_costs. */
    static const char *skipped[] = {"rules", "costs", "costLimits", "constraints", "modifiers", "modifierGroups",
                                    "conditions", "conditionGroups", "infoLinks", "publications", "repeats",
                                    "characteristicTypes", "profileTypes", "costTypes", "forceEntries",
                                    "sharedRules", "sharedInfoGroups", "readme", "comment"};
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        if (is(x, skipped[i]))
            return;
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
        if (!is(x, nodes[i].tag))
            continue;
        army_node *c = add_child(into, nodes[i].kind);
        if (!c)
            return;
        c->name = xattr(x, "name");
        c->type = xattr(x, "type");
        char *num = xattr(x, "number");
        if (num[0])
            set_number_text(c, num);
        free(num);
        if (nodes[i].kind == ARMY_NODE_FORCE)
            c->extra = xattr(x, "catalogueName");
        else if (nodes[i].kind == ARMY_NODE_ROSTER)
            c->extra = xattr(x, "gameSystemName");
        else if (nodes[i].kind == ARMY_NODE_LINK)
            c->extra = xattr(x, "targetId"); /* resolved only inside one data file set */
        else if (nodes[i].kind == ARMY_NODE_SELECTION || nodes[i].kind == ARMY_NODE_CATEGORY ||
                 nodes[i].kind == ARMY_NODE_GROUP)
            c->extra = xattr(x, "id");        /* a data file's own links point at it */
        else
            c->extra = strdup("");
        if (nodes[i].kind == ARMY_NODE_SELECTION || nodes[i].kind == ARMY_NODE_GROUP || nodes[i].kind == ARMY_NODE_LINK)
            army_costs_from_xml(x, c);
        xml_walk(x->children, c);
        return;
    }
    /* A plain container (selections, forces, selectionEntries, profiles, ...). */
    xml_walk(x->children, into);
}

static void xml_walk(const xmlNode *x, army_node *into)
{
    for (; x; x = x->next)
        if (x->type == XML_ELEMENT_NODE)
            xml_element(x, into);
}

army_node *army_tree_from_xml(const void *xml_root)
{
    army_node *top = calloc(1, sizeof *top);
    if (!top)
        return NULL;
    top->kind = ARMY_NODE_OTHER;
    top->number = 1;
    xml_element((const xmlNode *)xml_root, top);
    return top;
}

/* ---- from New Recruit JSON ------------------------------------------- */

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static void json_selection(const cJSON *o, army_node *into, army_node_kind kind);

static void json_children(const cJSON *o, army_node *n)
{
    const cJSON *item;
    const cJSON *profiles = cJSON_GetObjectItemCaseSensitive(o, "profiles");
    cJSON_ArrayForEach(item, profiles)
    {
        army_profile *p = add_profile(n, jstr(item, "name"), jstr(item, "typeName"));
        const cJSON *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(item, "characteristics"))
        {
            /* New Recruit writes the XML text node as "$text". */
            const char *v = jstr(c, "$text");
            if (!v[0])
                v = jstr(c, "value");
            if (p)
                add_char(p, jstr(c, "name"), v);
        }
    }
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o, "categories"))
        add_category(n, jstr(item, "name"));
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o, "forces"))
        json_selection(item, n, ARMY_NODE_FORCE);
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(o, "selections"))
        json_selection(item, n, ARMY_NODE_SELECTION);
}

static void json_selection(const cJSON *o, army_node *into, army_node_kind kind)
{
    if (!cJSON_IsObject(o))
        return;
    army_node *c = add_child(into, kind);
    if (!c)
        return;
    c->name = strdup(jstr(o, "name"));
    c->type = strdup(jstr(o, "type"));
    const cJSON *num = cJSON_GetObjectItemCaseSensitive(o, "number");
    if (cJSON_IsNumber(num))
        set_number(c, num->valuedouble, NULL);
    else if (num) /* "ten", [10], true, null: a count is a JSON number */
        set_number(c, 0, cJSON_IsString(num) ? "a string, not a number" : "not a number");
    c->extra = strdup(jstr(o, kind == ARMY_NODE_FORCE ? "catalogueName" : kind == ARMY_NODE_ROSTER ? "gameSystemName" : "id"));
    json_children(o, c);
}

army_node *army_tree_from_json(const void *cjson_root)
{
    const cJSON *root = cjson_root;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(root, "roster");
    army_node *top = calloc(1, sizeof *top);
    if (!top)
        return NULL;
    top->kind = ARMY_NODE_OTHER;
    top->number = 1;
    json_selection(cJSON_IsObject(r) ? r : root, top, ARMY_NODE_ROSTER);
    return top;
}

/* ---- reading profiles ------------------------------------------------ */

/* A mount: a non-model descendant with a base of its own (T9A's "0 Size" profile under an option). */
static const army_node *find_mount(const army_node *n)
{
    for (size_t c = 0; c < n->n_children; c++) {
        const army_node *k = &n->children[c];
        if (k->kind != ARMY_NODE_SELECTION || army_node_is_model(k))
            continue;
        if (army_node_base_char(k))
            return k;
        const army_node *m = find_mount(k);
        if (m)
            return m;
    }
    return NULL;
}

/* The model selection called `name` under n (models may sit inside option groups). */
static const army_node *find_model(const army_node *n, const char *name)
{
    for (size_t c = 0; c < n->n_children; c++) {
        const army_node *k = &n->children[c];
        if (army_node_is_model(k) && strcmp(k->name, name) == 0)
            return k;
        const army_node *m = army_node_is_model(k) ? NULL : find_model(k, name);
        if (m)
            return m;
    }
    return NULL;
}

/* A Base in the node's own profiles that differs from `first` ("50x50" and "50x75"), or NULL. */
static const char *other_base(const army_node *n, const char *first)
{
    for (size_t p = 0; p < n->n_profiles; p++)
        for (size_t c = 0; c < n->profiles[p].n_chars; c++) {
            const army_char *ch = &n->profiles[p].chars[c];
            if ((strcasecmp(ch->name, "Base") == 0 || strcasecmp(ch->name, "Base Size") == 0) &&
                strcmp(ch->value, first) != 0)
                return ch->value;
        }
    return NULL;
}

void army_tree_profile_fill(const army_node *n, army_unit *u, army_origin origin)
{
    const army_node *mount = find_mount(n);
    if (mount && u->character && !u->mount[0])
        army_name_copy(u->mount, sizeof u->mount, mount->name);
    const double adv = u->adv_in, mar = u->mar_in;
    army_rates_fill(u, &u->adv_in, u->adv_dice, "Adv", mount, n);
    army_rates_fill(u, &u->mar_in, u->mar_dice, "Mar", mount, n);
    if ((isnan(adv) && (!isnan(u->adv_in) || u->adv_dice[0])) || (isnan(mar) && (!isnan(u->mar_in) || u->mar_dice[0])))
        u->rates_from = origin;
    if (isnan(u->adv_in) && isnan(u->mar_in) && !u->adv_dice[0] && !army_node_find_char(n, "Adv")) {
        const char *m = army_node_find_char(n, "M");
        if (m && !strstr(u->note, "no Adv"))
            army_unit_note(u, "no Adv/Mar characteristic (its profile gives M %s)", m);
    }
    const char *h = mount ? army_node_char(mount, "Height") : NULL;
    if (!u->height[0] && (h || (h = army_node_find_char(n, "Height"))))
        army_name_copy(u->height, sizeof u->height, h);
    const char *t = mount ? army_node_char(mount, "Type") : NULL;
    if (!u->type[0] && (t || (t = army_node_find_char(n, "Type"))))
        army_name_copy(u->type, sizeof u->type, t);
    /* Bases: a group's own model profile, else the mount's, else the unit's. */
    for (size_t g = 0; g < u->n_groups; g++) {
        army_group *gr = &u->groups[g];
        if (gr->base.front_mm > 0)
            continue;
        const army_node *model = find_model(n, gr->name);
        const char *b = model ? army_node_base_char(model) : NULL, *alt = b ? other_base(model, b) : NULL;
        if (!b && mount && (b = army_node_base_char(mount)))
            alt = other_base(mount, b);
        if (!b && (b = army_node_char(n, "Base") ? army_node_char(n, "Base") : army_node_char(n, "Base Size")))
            alt = other_base(n, b);
        if (!b)
            b = army_node_find_char(n, "Base");
        if (!b)
            b = army_node_find_char(n, "Base Size");
        if (alt) { /* two profiles that disagree: said, and left for the user, never the first taken */
            army_unit_note(u, "two base profiles, %s and %s: give the one its models stand on", b, alt);
            continue;
        }
        if (b && army_parse_base(b, &gr->base))
            gr->base_from = origin;
        else if (b)
            army_unit_note(u, "Base is %s: not a size", b);
    }
}

/* ---- units of a roster ------------------------------------------------ */

/* A node whose own profile describes a body on the table (a model or a mount), not a weapon or a rule. */
static int has_body(const army_node *n)
{
    return army_node_base_char(n) || army_node_char(n, "Adv") || army_node_char(n, "M");
}

static void add_group(army_unit *u, const army_node *k)
{
    for (size_t i = 0; i < u->n_groups; i++)
        if (strcmp(u->groups[i].name, k->name) == 0) {
            /* Each number is within 0..ARMY_MAX_MODELS (checked); the sum is held just above the limit. */
            long long sum = (long long)u->groups[i].count + k->number;
            u->groups[i].count = sum > ARMY_MAX_MODELS ? ARMY_MAX_MODELS + 1 : (int)sum;
            return;
        }
    army_unit_add_group(u, k->name, k->number);
}

/*
 * Sums `number` over the model selections (type model or crew), not
 * descending into a model: its upgrades repeat its count. With `bodies`,
 * option selections that carry a body's profile count as models too (data
 * files that file the models of a unit as upgrades, e.g. T9A's Feldraks).
 */
static void add_groups(const army_node *n, army_unit *u, int bodies)
{
    for (size_t c = 0; c < n->n_children; c++) {
        const army_node *k = &n->children[c];
        if (k->kind != ARMY_NODE_SELECTION)
            continue;
        if (army_node_is_model(k) || (bodies && has_body(k)))
            add_group(u, k);
        else
            add_groups(k, u, bodies);
    }
}

static int force_units(const army_node *force, army_list *list, int force_no, base_error *err)
{
    int sel_no = 0;
    for (size_t c = 0; c < force->n_children; c++) {
        const army_node *s = &force->children[c];
        if (s->kind == ARMY_NODE_FORCE) {
            if (force_units(s, list, force_no, err) < 0)
                return -1;
            continue;
        }
        if (s->kind != ARMY_NODE_SELECTION)
            continue;
        sel_no++;
        /* Army-wide options (battle traits, the general's choices) are upgrades, not units. */
        if (strcmp(s->type, "unit") != 0 && strcmp(s->type, "model") != 0)
            continue;
        if (list->n_units >= ARMY_MAX_UNITS)
            return base_error_set(err, "force %d, selection %d: more than %d units: not an army list", force_no, sel_no,
                                  ARMY_MAX_UNITS);
        army_unit *u = army_list_add_unit(list, s->name);
        if (!u)
            return base_error_set(err, "out of memory");
        snprintf(u->where, sizeof u->where, "force %d, selection %d (\"%.*s\")", force_no, sel_no,
                 (int)base_text_cut(s->name, 100), s->name);
        u->character = army_node_is_character(s);
        if (strcmp(s->type, "model") == 0)
            army_unit_add_group(u, s->name, s->number); /* and any models that come with it, below */
        add_groups(s, u, 0);
        /* No model selections, and no body of its own: its models were filed as options. */
        if (u->n_groups == 0 && !has_body(s))
            add_groups(s, u, 1);
        /* A unit entry with no model selections is one model (a character, a monster). */
        if (u->n_groups == 0)
            army_unit_add_group(u, s->name, s->number > 0 ? s->number : 1);
        for (size_t g = 0; g < u->n_groups; g++)
            if (u->groups[g].count > ARMY_MAX_MODELS)
                return base_error_set(err, "%s: more than %d models of \"%s\"", u->where, ARMY_MAX_MODELS,
                                      u->groups[g].name);
        army_tree_profile_fill(s, u, ARMY_FROM_LIST);
        army_unit_update_missing(u);
    }
    return 0;
}

int army_tree_units(const army_node *roster, army_list *list, base_error *err)
{
    int force_no = 0;
    for (size_t c = 0; c < roster->n_children; c++) {
        const army_node *f = &roster->children[c];
        if (f->kind != ARMY_NODE_FORCE)
            continue;
        force_no++;
        if (!list->name[0] && f->extra && f->extra[0])
            army_name_copy(list->name, sizeof list->name, f->extra);
        if (force_units(f, list, force_no, err) < 0)
            return -1;
    }
    return 0;
}
