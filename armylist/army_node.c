/* army_node: reading a roster tree's profiles (army_node.h). */
#include "army_node.h"

#include <string.h>
#include <strings.h>

const char *army_node_char(const army_node *n, const char *name)
{
    for (size_t p = 0; p < n->n_profiles; p++)
        for (size_t c = 0; c < n->profiles[p].n_chars; c++)
            if (strcasecmp(n->profiles[p].chars[c].name, name) == 0)
                return n->profiles[p].chars[c].value;
    return NULL;
}

/* Case-insensitive substring test (strcasestr is a GNU extension). */
static int contains_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (; *s; s++)
        if (strncasecmp(s, word, n) == 0)
            return 1;
    return 0;
}

int army_node_is_character(const army_node *n)
{
    for (size_t c = 0; c < n->n_categories; c++)
        if (strncasecmp(n->categories[c], "character", 9) == 0)
            return 1;
    const char *type = army_node_char(n, "Type");
    return type && contains_word(type, "character");
}

const char *army_node_base_char(const army_node *n)
{
    const char *b = army_node_char(n, "Base");
    return b ? b : army_node_char(n, "Base Size");
}

int army_node_is_model(const army_node *n)
{
    return n->kind == ARMY_NODE_SELECTION && (strcmp(n->type, "model") == 0 || strcmp(n->type, "crew") == 0);
}

const char *army_node_find_char(const army_node *n, const char *name)
{
    const char *v = army_node_char(n, name);
    if (v)
        return v;
    for (size_t c = 0; c < n->n_children; c++) {
        const army_node *k = &n->children[c];
        if (k->kind == ARMY_NODE_SELECTION && !army_node_is_model(k) && army_node_base_char(k))
            continue; /* a mount's characteristics are read on purpose, not by accident */
        if ((v = army_node_find_char(k, name)))
            return v;
    }
    return NULL;
}
