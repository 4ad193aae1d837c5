#include "army_catalogue.h"
#include "army_costs.h"
#include "army_names.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libxml/tree.h>

#include "army_read.h"
#include "base_file.h"
#include "base_text.h"
#include "army_tree.h"

typedef struct cat_file {
    char name[160];   /* the data's own name ("Orcs and Goblins 2024") */
    char *path;       /* on the heap: a path is never cut */
    int game_system;  /* a .gst: shared by every army */
    army_node *tree;
} cat_file;

typedef struct cat_entry {
    const army_node *node;
    size_t file;
} cat_entry;

struct army_catalogue {
    cat_file *files;
    size_t n_files;
    cat_entry *entries;
    size_t n_entries;
    army_cost_index *costs; /* entries and groups by id: what links point at, for a unit's points */
    char label[256];
};

void army_catalogue_free(army_catalogue *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_files; i++) {
        army_tree_free(c->files[i].tree);
        free(c->files[i].path);
    }
    free(c->files);
    free(c->entries);
    army_cost_index_free(c->costs);
    free(c);
}

size_t army_catalogue_files(const army_catalogue *c) { return c->n_files; }
size_t army_catalogue_entries(const army_catalogue *c) { return c->n_entries; }

const char *army_catalogue_file_name(const army_catalogue *c, size_t i)
{
    const char *base = strrchr(c->files[i].path, '/');
    const char *file = base ? base + 1 : c->files[i].path;
    /* Both cut on character boundaries: a label is shown and written as UTF-8. */
    snprintf(((army_catalogue *)c)->label, sizeof c->label, "%.*s (%.*s)", (int)base_text_cut(c->files[i].name, 150),
             c->files[i].name, (int)base_text_cut(file, 100), file);
    return c->label;
}

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcasecmp(s + a - b, suf) == 0;
}

static int is_data_file(const char *name)
{
    return has_suffix(name, ".gst") || has_suffix(name, ".cat") || has_suffix(name, ".gstz") ||
           has_suffix(name, ".catz");
}

static int index_entries(army_catalogue *c, const army_node *n, size_t file)
{
    if (n->kind == ARMY_NODE_SELECTION && n->name && n->name[0]) {
        cat_entry *e = realloc(c->entries, (c->n_entries + 1) * sizeof *e);
        if (!e)
            return -1;
        c->entries = e;
        c->entries[c->n_entries++] = (cat_entry){n, file};
    }
    for (size_t k = 0; k < n->n_children; k++)
        if (index_entries(c, &n->children[k], file) < 0)
            return -1;
    return 0;
}

static int load_file(army_catalogue *c, const char *path, base_error *err)
{
    char *data = NULL, *xml = NULL;
    size_t size = 0, xsize = 0;
    if (army_read_whole_file(path, &data, &size, err) < 0)
        return -1;
    const char *text = data;
    xsize = size;
    if (size >= 4 && memcmp(data, "PK\x03\x04", 4) == 0) {
        static const char *const sufs[] = {".gst", ".cat", NULL};
        char entry[256];
        if (army_unzip_first(data, size, path, sufs, &xml, &xsize, entry, sizeof entry, err) < 0) {
            free(data);
            return -1;
        }
        text = xml;
    }
    xmlDoc *doc = army_xml_parse(text, xsize, path, err);
    free(data);
    free(xml);
    if (!doc)
        return -1;
    xmlNode *root = xmlDocGetRootElement(doc);
    int gst = root && xmlStrEqual(root->name, BAD_CAST "gameSystem");
    if (!root || (!gst && !xmlStrEqual(root->name, BAD_CAST "catalogue"))) {
        base_error_set(err, "%s: not a BattleScribe game system or catalogue (root <%s>)", path,
                        root ? (const char *)root->name : "none");
        xmlFreeDoc(doc);
        return -1;
    }
    xmlChar *nm = xmlGetProp(root, BAD_CAST "name");
    army_node *tree = army_tree_from_xml(root);
    char *own_path = strdup(path);
    cat_file *f = tree && own_path ? realloc(c->files, (c->n_files + 1) * sizeof *f) : NULL;
    if (!f) {
        free(own_path);
        xmlFree(nm);
        xmlFreeDoc(doc);
        army_tree_free(tree);
        return base_error_set(err, "%s: out of memory", path);
    }
    c->files = f;
    f = &c->files[c->n_files++];
    memset(f, 0, sizeof *f);
    base_text_copy(f->name, sizeof f->name, nm ? (const char *)nm : "");
    f->path = own_path;
    f->game_system = gst;
    f->tree = tree;
    xmlFree(nm);
    xmlFreeDoc(doc);
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int load_path(army_catalogue *c, const char *path, base_error *err)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return base_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return load_file(c, path, err);
    DIR *d = opendir(path);
    if (!d)
        return base_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) && rc == 0) {
        if (e->d_name[0] == '.' || !is_data_file(e->d_name))
            continue;
        char **nn = realloc(names, (n + 1) * sizeof *nn);
        if (!nn || !(nn[n] = strdup(e->d_name))) {
            names = nn ? nn : names;
            rc = base_error_set(err, "out of memory");
            break;
        }
        names = nn;
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char *full = rc == 0 ? base_file_join(path, names[i]) : NULL;
        if (rc == 0 && !full)
            rc = base_error_setc(err, BASE_E_NOMEM, "%s: out of memory", path);
        if (rc == 0)
            rc = load_file(c, full, err);
        free(full);
        free(names[i]);
    }
    free(names);
    if (rc == 0 && n == 0)
        rc = base_error_set(err, "%s: no .gst or .cat files in this folder", path);
    return rc;
}

/* Replaces "#id" categories (data-file links) by the category's own name. */
static void name_categories(army_node *n, const army_catalogue *c)
{
    for (size_t i = 0; i < n->n_categories; i++) {
        if (n->categories[i][0] != '#')
            continue;
        for (size_t f = 0; f < c->n_files; f++)
            for (size_t k = 0; k < c->files[f].tree->n_children; k++) {
                const army_node *top = &c->files[f].tree->children[k];
                for (size_t j = 0; j < top->n_children; j++) {
                    const army_node *ce = &top->children[j];
                    if (ce->kind == ARMY_NODE_CATEGORY && ce->extra && strcmp(ce->extra, n->categories[i] + 1) == 0) {
                        char *nm = strdup(ce->name);
                        if (nm) {
                            free(n->categories[i]);
                            n->categories[i] = nm;
                        }
                    }
                }
            }
    }
    for (size_t k = 0; k < n->n_children; k++)
        name_categories(&n->children[k], c);
}

army_catalogue *army_catalogue_load(const char *const *paths, size_t n, base_error *err)
{
    army_catalogue *c = calloc(1, sizeof *c);
    if (!c) {
        base_error_set(err, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (load_path(c, paths[i], err) < 0) {
            army_catalogue_free(c);
            return NULL;
        }
    for (size_t f = 0; f < c->n_files; f++)
        name_categories(c->files[f].tree, c);
    c->costs = army_cost_index_new();
    for (size_t f = 0; f < c->n_files; f++)
        if (!c->costs || index_entries(c, c->files[f].tree, f) < 0 || army_cost_index_add(c->costs, c->files[f].tree) < 0) {
            army_catalogue_free(c);
            base_error_set(err, "out of memory");
            return NULL;
        }
    army_cost_index_sort(c->costs);
    return c;
}

/* ---- filling a list ------------------------------------------------------- */

/* "Barbarian Horsemen (Core)" -> "Barbarian Horsemen". */
static void strip_brackets(const char *s, char *out, size_t cap)
{
    snprintf(out, cap, "%s", s);
    size_t n = strlen(out);
    while (n && out[n - 1] == ' ')
        out[--n] = '\0';
    if (n && out[n - 1] == ')') {
        char *open = strrchr(out, '(');
        if (open) {
            *open = '\0';
            n = strlen(out);
            while (n && out[n - 1] == ' ')
                out[--n] = '\0';
        }
    }
}

/* Whether file f is one the army may use: the game system, or a catalogue named after the army. */
static int army_file_matches(const cat_file *f, const char *army)
{
    size_t n = strlen(army);
    return n > 0 && strncasecmp(f->name, army, n) == 0;
}

static int entry_is_unit(const army_node *n)
{
    return strcmp(n->type, "unit") == 0 || strcmp(n->type, "model") == 0;
}

/* How a list's name met the data's: said to the user unless exact. */
typedef struct name_match {
    char name[ARMY_NAME_MAX]; /* the data's name */
    const char *how;          /* NULL exact; "alias", "spelling", "closest name", or how_buf (a renaming) */
    int ambiguous;            /* the closest names are two or more different ones */
    char other[ARMY_NAME_MAX];
    char how_buf[192];        /* "renamed since Dread Elves 2020; armylist/army_renames.def, BSData caff6e9" */
} name_match;

static int entry_allowed(const army_catalogue *c, size_t i, const char *army, int any_army_file, int units_only)
{
    const cat_file *f = &c->files[c->entries[i].file];
    if (any_army_file && !f->game_system && !army_file_matches(f, army))
        return 0;
    return !units_only || entry_is_unit(c->entries[i].node);
}

/* Pass 0 exact, 1 without "(Core)", 2 an alias or an older book's name (army_renames.def), 3 the same key (case,
 * spaces, plural): the entries. */
static size_t exact_pass(const army_catalogue *c, const char *army, int any_army_file, int units_only, int pass,
                         const char *want, const army_node **out, size_t cap)
{
    char have[ARMY_NAME_MAX], key[ARMY_NAME_MAX];
    size_t n = 0;
    for (size_t i = 0; i < c->n_entries && n < cap; i++) {
        if (!entry_allowed(c, i, army, any_army_file, units_only))
            continue;
        const army_node *e = c->entries[i].node;
        if (pass == 3) {
            strip_brackets(e->name, have, sizeof have);
            army_names_key(have, key, sizeof key);
            if (strcmp(key, want) != 0)
                continue;
        } else if (pass == 1) {
            strip_brackets(e->name, have, sizeof have);
            if (strcasecmp(have, want) != 0)
                continue;
        } else if (strcasecmp(e->name, want) != 0) {
            continue;
        }
        out[n++] = e;
    }
    return n;
}

/* The closest names within two edits (keys of six letters or more): the entries of the one closest, or none
 * and m->ambiguous when two different names are as close. */
static size_t closest_pass(const army_catalogue *c, const char *army, int any_army_file, const char *want_key,
                           const army_node **out, size_t cap, name_match *m)
{
    char have[ARMY_NAME_MAX], key[ARMY_NAME_MAX];
    int best = 3;
    size_t n = 0;
    if (strlen(want_key) < 6)
        return 0;
    for (size_t i = 0; i < c->n_entries; i++) {
        if (!entry_allowed(c, i, army, any_army_file, 1))
            continue;
        const army_node *e = c->entries[i].node;
        strip_brackets(e->name, have, sizeof have);
        army_names_key(have, key, sizeof key);
        int d = army_names_distance(want_key, key, 2);
        if (d > 2 || d > best)
            continue;
        if (d < best)
            best = d, n = 0, m->ambiguous = 0;
        if (n > 0 && strcasecmp(out[0]->name, e->name) != 0 && !m->ambiguous) {
            m->ambiguous = 1;
            army_name_copy(m->other, sizeof m->other, e->name);
        }
        if (n < cap)
            out[n++] = e;
    }
    return m->ambiguous ? 0 : n;
}

/* Entries named `name` that the army may use; units and models before upgrades when `units_only`, which
 * also allows the closest-name search. m says how the name was met. */
static size_t find_entries(const army_catalogue *c, const char *army, const char *name, int units_only,
                           const army_node **out, size_t cap, name_match *m)
{
    static const char *how[] = {NULL, NULL, "alias", "spelling"};
    int any_army_file = 0;
    for (size_t f = 0; f < c->n_files; f++)
        any_army_file |= !c->files[f].game_system && army_file_matches(&c->files[f], army);
    memset(m, 0, sizeof *m);
    char want[ARMY_NAME_MAX];
    size_t n = 0;
    for (int pass = 0; pass < 4 && n == 0; pass++) {
        const char *alias = pass == 2 ? army_names_alias(name) : NULL;
        const army_rename *renamed = pass == 2 && !alias ? army_names_renamed(army, name) : NULL;
        if (renamed) {
            alias = renamed->now;
            snprintf(m->how_buf, sizeof m->how_buf, "renamed since %s%s; armylist/army_renames.def, BSData %s",
                     renamed->book, strcasecmp(renamed->old, name) == 0 ? "" : ", spelt otherwise here", renamed->commit);
        }
        if (pass == 0)
            army_name_copy(want, sizeof want, name);
        else if (pass == 1)
            strip_brackets(name, want, sizeof want);
        else if (pass == 2 && !alias)
            continue;
        else if (pass == 2)
            army_name_copy(want, sizeof want, alias);
        else
            army_names_key(name, want, sizeof want);
        n = exact_pass(c, army, any_army_file, units_only, pass, want, out, cap);
        m->how = renamed ? m->how_buf : how[pass];
    }
    if (n == 0 && units_only) {
        army_names_key(name, want, sizeof want);
        n = closest_pass(c, army, any_army_file, want, out, cap, m);
        m->how = "closest name";
    }
    if (n > 0)
        army_name_copy(m->name, sizeof m->name, out[0]->name);
    return n;
}

/* The unit as entry e would fill it (a scratch copy of u's groups). */
static void fill_from(const army_node *e, const army_unit *u, army_unit *out)
{
    *out = *u;
    out->groups = malloc((u->n_groups ? u->n_groups : 1) * sizeof *out->groups);
    if (!out->groups) {
        out->n_groups = 0;
        return;
    }
    memcpy(out->groups, u->groups, u->n_groups * sizeof *u->groups);
    out->note[0] = '\0';
    if (army_node_is_character(e))
        out->character = true;
    army_tree_profile_fill(e, out, ARMY_FROM_CATALOGUE);
}

static int same_values(const army_unit *a, const army_unit *b)
{
    if (!((isnan(a->adv_in) && isnan(b->adv_in)) || a->adv_in == b->adv_in) ||
        !((isnan(a->mar_in) && isnan(b->mar_in)) || a->mar_in == b->mar_in) || a->n_groups != b->n_groups)
        return 0;
    for (size_t g = 0; g < a->n_groups; g++)
        if (a->groups[g].base.front_mm != b->groups[g].base.front_mm ||
            a->groups[g].base.side_mm != b->groups[g].base.side_mm)
            return 0;
    return 1;
}

/* A mount named among a text list's options ("..., Black Steed, ..."): its base and rates. */
static void fill_mount(const army_catalogue *c, const char *army, army_unit *u)
{
    char opt[ARMY_NAME_MAX];
    const char *p = u->options;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        int depth = 0;
        const char *e = p;
        for (; *e && !(*e == ',' && depth == 0); e++)
            depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
        army_span_copy(opt, sizeof opt, p, (size_t)(e - p));
        p = e;
        size_t n = strlen(opt);
        while (n && opt[n - 1] == ' ')
            opt[--n] = '\0';
        if (!opt[0])
            continue;
        const army_node *hits[4];
        name_match m;
        size_t k = find_entries(c, army, opt, 0, hits, 4, &m);
        for (size_t i = 0; i < k; i++) {
            const char *b = army_node_char(hits[i], "Base");
            army_base base;
            if (entry_is_unit(hits[i]) || !b || !army_parse_base(b, &base))
                continue;
            /* The mount carries the rider: its base, and its rates when it has fixed ones. */
            army_name_copy(u->mount, sizeof u->mount, hits[i]->name);
            if (m.how)
                army_unit_say(u, "mount \"%s\" -> \"%s\" (%s)", opt, hits[i]->name, m.how);
            for (size_t g = 0; g < u->n_groups; g++)
                if (!(u->groups[g].base.front_mm > 0))
                    u->groups[g].base = base, u->groups[g].base_from = ARMY_FROM_CATALOGUE;
            double v;
            const char *t = army_node_char(hits[i], "Adv");
            if (isnan(u->adv_in) && t && army_parse_rate(t, &v, NULL) == 1)
                u->adv_in = v, u->rates_from = ARMY_FROM_CATALOGUE;
            t = army_node_char(hits[i], "Mar");
            if (isnan(u->mar_in) && t && army_parse_rate(t, &v, NULL) == 1)
                u->mar_in = v, u->rates_from = ARMY_FROM_CATALOGUE;
            const char *h = army_node_char(hits[i], "Height"), *ty = army_node_char(hits[i], "Type");
            if (h)
                army_name_copy(u->height, sizeof u->height, h);
            if (ty)
                army_name_copy(u->type, sizeof u->type, ty);
            return;
        }
    }
}

/* The catalogue file holding entry e. */
static size_t hit_file(const army_catalogue *c, const army_node *e)
{
    for (size_t i = 0; i < c->n_entries; i++)
        if (c->entries[i].node == e)
            return c->entries[i].file;
    return 0;
}

/* A listed cost against what the entries allow for the unit's model count (army_costs_check): tallied, and the
 * data file named for the summary when it does not fit. */
static void check_points(const army_catalogue *c, const army_node *const *hits, size_t n, army_unit *u,
                         army_fill_report *rep)
{
    /* the counts that would fit (a search) for the first units only: a hostile list is still read in bounded time */
    int fit = army_costs_check(hits, n, c->costs, u, rep->units_points_misfit < ARMY_MAX_SAID);
    if (fit < 0)
        return;
    rep->units_points_checked++;
    if (fit != 0)
        return;
    const char *file = army_catalogue_file_name(c, hit_file(c, hits[0]));
    if (++rep->units_points_misfit == 1)
        snprintf(rep->points_data, sizeof rep->points_data, "%s", file);
    else if (strcmp(rep->points_data, file) != 0)
        rep->points_data_more = 1;
}

static void fill_unit(const army_catalogue *c, const char *army, army_unit *u, army_fill_report *rep)
{
    const unsigned before = u->missing;
    const army_node *hits[16];
    name_match m;
    size_t n = find_entries(c, army, u->name, 1, hits, 16, &m);
    if (n == 0 && m.ambiguous) { /* never guessed: listed, for the user to give */
        rep->units_ambiguous++;
        snprintf(u->note, sizeof u->note, "\"%.*s\" is as close to \"%.*s\" as to \"%.*s\": give its values",
                 (int)base_text_cut(u->name, 50), u->name, (int)base_text_cut(hits[0] ? hits[0]->name : "?", 50),
                 hits[0] ? hits[0]->name : "?", (int)base_text_cut(m.other, 50), m.other);
        army_unit_update_missing(u);
        return;
    }
    if (n == 0) {
        rep->units_not_found++;
        if (!u->note[0])
            snprintf(u->note, sizeof u->note, "no entry named \"%s\" in the catalogues", u->name);
        army_unit_update_missing(u);
        return;
    }
    if (m.how)
        army_unit_say(u, "\"%s\" -> \"%s\" (%s)", u->name, m.name, m.how);
    /* A character's mount, named among its options, wins over the rider's own base and rates. */
    if (army_node_is_character(hits[0]))
        u->character = true;
    if (u->character && u->options[0])
        fill_mount(c, army, u);
    army_unit first, other;
    fill_from(hits[0], u, &first);
    for (size_t i = 1; i < n; i++) {
        fill_from(hits[i], u, &other);
        int same = same_values(&first, &other);
        free(other.groups);
        if (!same) {
            rep->units_ambiguous++;
            snprintf(u->note, sizeof u->note, "%zu catalogue entries named \"%s\" disagree: left for you to give", n,
                     u->name);
            free(first.groups);
            army_unit_update_missing(u);
            return;
        }
    }
    free(u->groups);
    *u = first;
    check_points(c, hits, n, u, rep);
    army_unit_update_missing(u);
    if (u->missing != before)
        rep->units_filled++;
    else if (u->missing && !u->note[0])
        snprintf(u->note, sizeof u->note, "the catalogue's \"%.*s\" gives no Adv, Mar or Base",
                 (int)base_text_cut(hits[0]->name, 60), hits[0]->name);
}

void army_file_fill_list(army_file *f, long only, const army_catalogue *c, army_fill_report *rep)
{
    army_fill_report dummy;
    if (!rep)
        rep = &dummy;
    memset(rep, 0, sizeof *rep);
    for (size_t a = 0; a < f->n_armies; a++)
        for (size_t i = 0; i < f->armies[a].n_units && (only < 0 || (size_t)only == a); i++) {
            army_unit *u = &f->armies[a].units[i];
            army_unit_update_missing(u);
            /* A roster's own character flag and values stand; only the gaps are filled. */
            if (u->missing != 0 || f->format == ARMY_FORMAT_TEXT || f->format == ARMY_FORMAT_NR_REPORT)
                fill_unit(c, f->armies[a].name, u, rep);
            rep->units++;
            if (u->missing)
                rep->units_incomplete++;
            else
                rep->units_complete++;
        }
}

void army_file_fill(army_file *f, const army_catalogue *c, army_fill_report *rep)
{
    army_file_fill_list(f, -1, c, rep);
}
