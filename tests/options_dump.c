#include "options_dump.h"

#include <stdio.h>
#include <string.h>

#include "cli_run.h"

/* The tab-separated field `k` of `line` (fields may be empty) into out; -1 when there is none. */
static int field(const char *line, int k, char *out, size_t cap)
{
    const char *p = line;
    for (int i = 0; i < k; i++) {
        p = strchr(p, '\t');
        if (!p)
            return -1;
        p++;
    }
    size_t n = strcspn(p, "\t\n");
    if (n >= cap)
        return -1;
    memcpy(out, p, n);
    out[n] = '\0';
    return 0;
}

static int read_line(od_table *t, const char *line)
{
    if (strncmp(line, "command\t", 8) == 0) {
        if (t->n_commands == OD_MAX_COMMANDS)
            return -1;
        return field(line, 1, t->commands[t->n_commands++], sizeof t->commands[0]);
    }
    if (strncmp(line, "option\t", 7) != 0)
        return 0;
    if (t->n_options == OD_MAX_OPTIONS)
        return -1;
    od_option *o = &t->options[t->n_options++];
    if (field(line, 1, o->command, sizeof o->command) < 0 || field(line, 2, o->name, sizeof o->name) < 0 ||
        field(line, 3, o->kind, sizeof o->kind) < 0 || field(line, 5, o->min, sizeof o->min) < 0 ||
        field(line, 6, o->max, sizeof o->max) < 0)
        return -1;
    return 0;
}

int od_read(od_table *t)
{
    static cli_result r;
    memset(t, 0, sizeof *t);
    if (cli_run("--options-dump", &r) < 0 || r.status != 0)
        return -1;
    for (const char *line = r.out; *line;) {
        if (read_line(t, line) < 0)
            return -1;
        const char *nl = strchr(line, '\n');
        if (!nl)
            break;
        line = nl + 1;
    }
    return t->n_commands > 0 ? 0 : -1;
}

int od_is_number(const od_option *o)
{
    return strcmp(o->kind, "number") == 0 || strcmp(o->kind, "whole") == 0;
}
