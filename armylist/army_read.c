/* army_read: tells the list formats apart by content and reads each. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <zip.h>

#include "base_json.h"
#include "army_list.h"
#include "base_file.h"
#include "base_text.h"
#include "army_read.h"
#include "army_text.h"
#include "army_tree.h"

/* A roster or data file larger than this is refused (a real T9A catalogue is ~0.5 MB). */
#define ARMY_MAX_BYTES (64u << 20)

int army_read_whole_file(const char *path, char **data, size_t *size, base_error *err)
{
    /* A regular file only (a FIFO in a catalogue folder would wait for ever), under the cap. */
    return base_file_read_all(path, ARMY_MAX_BYTES, "an army list or catalogue", data, size, err);
}

/* ---- zip ---------------------------------------------------------------- */

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

int army_unzip_first(const void *data, size_t size, const char *name, const char *const *suffixes, char **out,
                     size_t *out_size, char *entry_name, size_t entry_cap, base_error *err)
{
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(data, size, 0, &ze);
    zip_t *z = src ? zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze) : NULL;
    if (!z) {
        base_error_set(err, "%s: not a readable zip archive (%s)", name, zip_error_strerror(&ze));
        zip_error_fini(&ze);
        if (src)
            zip_source_free(src);
        return -1;
    }
    zip_error_fini(&ze);
    zip_int64_t n = zip_get_num_entries(z, 0), pick = -1;
    for (zip_int64_t i = 0; i < n && pick < 0; i++) {
        const char *en = zip_get_name(z, (zip_uint64_t)i, 0);
        for (size_t k = 0; en && suffixes[k] && pick < 0; k++)
            if (ends_with(en, suffixes[k]))
                pick = i;
    }
    if (pick < 0) {
        zip_close(z);
        return base_error_set(err, "%s: the archive holds no %s file", name, suffixes[0]);
    }
    zip_stat_t st;
    if (zip_stat_index(z, (zip_uint64_t)pick, 0, &st) < 0 || !(st.valid & ZIP_STAT_SIZE) || st.size > ARMY_MAX_BYTES) {
        zip_close(z);
        return base_error_set(err, "%s: the archive's %s entry is unreadable or larger than %u MB", name,
                               suffixes[0], ARMY_MAX_BYTES >> 20);
    }
    snprintf(entry_name, entry_cap, "%s", st.name ? st.name : "?");
    char *buf = malloc(st.size + 1);
    zip_file_t *zf = buf ? zip_fopen_index(z, (zip_uint64_t)pick, 0) : NULL;
    zip_int64_t got = zf ? zip_fread(zf, buf, st.size) : -1;
    /* libzip checks the CRC only when a read reaches the end of the entry: ask for one byte more. */
    char extra;
    int bad = !zf || got != (zip_int64_t)st.size || zip_fread(zf, &extra, 1) != 0;
    char why[160] = "";
    if (bad)
        army_name_copy(why, sizeof why, zf ? zip_error_strerror(zip_file_get_error(zf)) : zip_error_strerror(zip_get_error(z)));
    if (zf && zip_fclose(zf) != 0 && !bad) {
        bad = 1;
        snprintf(why, sizeof why, "checksum mismatch");
    }
    zip_close(z);
    if (bad) {
        free(buf);
        return base_error_set(err, "%s: cannot unpack %s from the archive (%s): the file is damaged", name, entry_name,
                               why);
    }
    buf[st.size] = '\0';
    *out = buf;
    *out_size = st.size;
    return 0;
}

/* ---- XML ---------------------------------------------------------------- */

static void quiet(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

/* The line of a <!DOCTYPE in the prolog (before the first element), 0 when there is none. One pass. */
static int prolog_doctype_line(const char *data, size_t size)
{
    const char *p = data, *end = data + size;
    int line = 1;
    while (p < end) {
        if (*p == '\n')
            line++;
        if (*p != '<') {
            p++;
            continue;
        }
        const char *close = NULL;
        if (end - p >= 9 && memcmp(p, "<!DOCTYPE", 9) == 0)
            return line;
        if (end - p >= 2 && p[1] == '?')
            close = "?>";
        else if (end - p >= 4 && memcmp(p, "<!--", 4) == 0)
            close = "-->";
        else
            return 0; /* the root element: the prolog is over */
        const char *q = p + 2;
        size_t cl = strlen(close);
        while (q + cl <= end && memcmp(q, close, cl) != 0)
            line += *q++ == '\n';
        p = q + cl;
    }
    return 0;
}

void *army_xml_parse(const char *data, size_t size, const char *name, base_error *err)
{
    /* Rosters and data files never declare a DTD: one declaring entities could expand itself a
     * million-fold (20,000 references to a nested entity). Refused before libxml2 reads it. */
    int doctype = prolog_doctype_line(data, size);
    if (doctype)
        return base_error_set(err, "%s: line %d: a <!DOCTYPE> (entity declarations are refused: a roster "
                                   "or army data file has none)", name, doctype), NULL;
    if (size > INT_MAX)
        return base_error_set(err, "%s: larger than libxml2 reads", name), NULL;
    xmlSetGenericErrorFunc(NULL, quiet);
    xmlResetLastError();
    /* No network, no entity substitution, libxml2's size limits kept (no XML_PARSE_HUGE): a list file
     * cannot reach out or expand itself. */
    xmlDoc *doc = xmlReadMemory(data, (int)size, name, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                                              XML_PARSE_NOBLANKS);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        char msg[200] = "not well-formed XML";
        if (e && e->message) {
            army_name_copy(msg, sizeof msg, e->message);
            size_t n = strlen(msg);
            while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
                msg[--n] = '\0';
        }
        base_error_set(err, "%s: line %d: %s (the file is cut short or is not a roster)", name, e ? e->line : 0, msg);
        return NULL;
    }
    return doc;
}

static int read_ros(const char *data, size_t size, const char *name, army_file *f, base_error *err)
{
    xmlDoc *doc = army_xml_parse(data, size, name, err);
    if (!doc)
        return -1;
    xmlNode *root = xmlDocGetRootElement(doc);
    int rc = -1;
    if (!root || !xmlStrEqual(root->name, BAD_CAST "roster")) {
        const char *what = root ? (const char *)root->name : "nothing";
        if (root && (xmlStrEqual(root->name, BAD_CAST "catalogue") || xmlStrEqual(root->name, BAD_CAST "gameSystem")))
            base_error_set(err, "%s: this is army data (<%s>), not a roster: give it with --catalogue", name, what);
        else
            base_error_set(err, "%s: the root element is <%s>, expected <roster>", name, what);
        xmlFreeDoc(doc);
        return -1;
    }
    army_node *tree = army_tree_from_xml(root);
    xmlFreeDoc(doc);
    if (!tree)
        return base_error_set(err, "%s: out of memory", name);
    rc = army_read_tree(tree, name, f, err);
    army_tree_free(tree);
    return rc;
}

/* -1 with a message naming the selection and its `number` when a selection's count is not a whole
 * number 0..ARMY_MAX_MODELS (checked before any count is added up). */
static int army_tree_check_numbers(const army_node *n, const char *name, base_error *err)
{
    if (n->number_why) {
        char shown[64];
        base_text_copy(shown, sizeof shown, n->name ? n->name : "");
        return base_error_set(err, "%s: selection \"%s\": number: %s: expected a whole number 0..%d", name, shown,
                              n->number_why, ARMY_MAX_MODELS);
    }
    for (size_t c = 0; c < n->n_children; c++)
        if (army_tree_check_numbers(&n->children[c], name, err) < 0)
            return -1;
    return 0;
}

int army_read_tree(const army_node *top, const char *name, army_file *f, base_error *err)
{
    const army_node *roster = top->n_children ? &top->children[0] : NULL;
    if (!roster || roster->kind != ARMY_NODE_ROSTER)
        return base_error_set(err, "%s: no roster in this file", name);
    army_list *a = army_file_add_army(f, "");
    if (!a)
        return base_error_set(err, "%s: out of memory", name);
    army_name_copy(a->game_system, sizeof a->game_system, roster->extra ? roster->extra : "");
    if (army_tree_check_numbers(roster, name, err) < 0)
        return -1;
    if (army_tree_units(roster, a, err) < 0) { /* its messages name the selection: add the file */
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return base_error_set(err, "%s: %s", name, msg);
    }
    if (!a->name[0])
        army_name_copy(a->name, sizeof a->name, roster->name);
    if (a->n_units == 0)
        return base_error_set(err, "%s: the roster \"%s\" holds no unit or model selections", name, roster->name);
    return 0;
}

/* ---- JSON ---------------------------------------------------------------- */

static int read_json(const char *data, size_t len, const char *name, army_file *f, base_error *err)
{
    /* Read whole as every JSON file is (base_json): a NUL byte or invalid UTF-8 anywhere, or a key given twice, is
     * refused with its place, never the list before a NUL taken for the whole. */
    char *text = malloc(len + 1);
    if (!text)
        return base_error_set(err, "%s: out of memory", name);
    memcpy(text, data, len);
    text[len] = '\0';
    base_error perr = {0};
    cJSON *root = base_json_parse_bytes(text, len, name, &perr);
    free(text);
    if (!root)
        return base_error_set(err, "%s (not valid JSON: the file is cut short or damaged?)", perr.msg);
    int rc = -1;
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(root, "players");
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "roster")) ||
        cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "forces"))) {
        f->format = ARMY_FORMAT_NR_JSON;
        army_node *tree = army_tree_from_json(root);
        rc = tree ? army_read_tree(tree, name, f, err) : base_error_set(err, "%s: out of memory", name);
        army_tree_free(tree);
    } else if (cJSON_IsArray(players)) {
        f->format = ARMY_FORMAT_NR_REPORT;
        rc = 0;
        size_t i = 0;
        const cJSON *p;
        cJSON_ArrayForEach(p, players)
        {
            const cJSON *list = cJSON_GetObjectItemCaseSensitive(p, "exported_list");
            const cJSON *pn = cJSON_GetObjectItemCaseSensitive(p, "name");
            char where[64];
            snprintf(where, sizeof where, "%s: players[%zu].exported_list", name, i++);
            if (!cJSON_IsString(list)) {
                rc = base_error_set(err, "%s: missing (a tournament report without the list text)", where);
                break;
            }
            if ((rc = army_text_read(list->valuestring, where, f, err)) < 0)
                break;
            army_list *a = &f->armies[f->n_armies - 1];
            if (!a->player[0] && cJSON_IsString(pn))
                army_name_copy(a->player, sizeof a->player, pn->valuestring);
        }
        if (rc == 0 && f->n_armies == 0)
            rc = base_error_set(err, "%s: players: no player in this report", name);
    } else {
        rc = base_error_set(err, "%s: JSON, but neither a New Recruit roster (\"roster\") nor a tournament report "
                                  "(\"players\")",
                             name);
    }
    cJSON_Delete(root);
    return rc;
}

/* ---- by content ----------------------------------------------------------- */

static const char *skip_bom_space(const char *p, const char *end)
{
    if (end - p >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
        p += 3;
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    return p;
}

army_file *army_file_parse(const void *data, size_t size, const char *name, base_error *err)
{
    army_file *f = calloc(1, sizeof *f);
    if (!f) {
        base_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    army_name_copy(f->path, sizeof f->path, name);
    const char *d = data, *p = skip_bom_space(d, d + size);
    int rc;
    if (size >= 4 && memcmp(d, "PK\x03\x04", 4) == 0) {
        static const char *const ros[] = {".ros", NULL};
        char *xml = NULL, entry[256];
        size_t n = 0;
        f->format = ARMY_FORMAT_ROSZ;
        rc = army_unzip_first(data, size, name, ros, &xml, &n, entry, sizeof entry, err);
        if (rc == 0) {
            char inner[800];
            snprintf(inner, sizeof inner, "%s:%s", name, entry);
            rc = read_ros(xml, n, inner, f, err);
        }
        free(xml);
    } else if (size >= 2 && (unsigned char)d[0] == 0x1f && (unsigned char)d[1] == 0x8b) {
        rc = base_error_set(err, "%s: a gzip file: unpack it first", name);
    } else if (p < d + size && *p == '<') {
        f->format = ARMY_FORMAT_ROS;
        rc = read_ros(p, (size_t)(d + size - p), name, f, err);
    } else if (p < d + size && *p == '{') {
        rc = read_json(p, (size_t)(d + size - p), name, f, err);
    } else if (memchr(d, '\0', size)) {
        rc = base_error_set(err, "%s: binary data, not an army list (.ros, .rosz, New Recruit JSON or text)", name);
    } else {
        f->format = ARMY_FORMAT_TEXT;
        rc = army_text_read(d, name, f, err);
    }
    if (rc < 0) {
        army_file_free(f);
        return NULL;
    }
    return f;
}

army_file *army_file_read(const char *path, base_error *err)
{
    char *data = NULL;
    size_t size = 0;
    if (army_read_whole_file(path, &data, &size, err) < 0)
        return NULL;
    if (size == 0) {
        free(data);
        base_error_set(err, "%s: empty file", path);
        return NULL;
    }
    army_file *f = army_file_parse(data, size, path, err);
    free(data);
    return f;
}
