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

/* An "io" line: the option's role on disk; an "inputs" line: the command's positionals that are files. */
static int read_io(od_table *t, const char *line)
{
    char command[48], name[48];
    if (strncmp(line, "inputs\t", 7) == 0) {
        if (field(line, 1, command, sizeof command) < 0)
            return -1;
        for (int i = 0; i < t->n_commands; i++)
            if (strcmp(t->commands[i], command) == 0)
                return field(line, 2, t->inputs[i], sizeof t->inputs[i]);
        return -1;
    }
    if (field(line, 1, command, sizeof command) < 0 || field(line, 2, name, sizeof name) < 0)
        return -1;
    od_option *o = (od_option *)od_find(t, command, name);
    if (!o || field(line, 3, o->io, sizeof o->io) < 0 || field(line, 4, o->files, sizeof o->files) < 0 ||
        field(line, 5, o->same_as, sizeof o->same_as) < 0)
        return -1;
    return 0;
}

const od_option *od_find(const od_table *t, const char *command, const char *name)
{
    for (int i = 0; i < t->n_options; i++)
        if (strcmp(t->options[i].command, command) == 0 && strcmp(t->options[i].name, name) == 0)
            return &t->options[i];
    return NULL;
}

static int read_line(od_table *t, const char *line)
{
    if (strncmp(line, "io\t", 3) == 0 || strncmp(line, "inputs\t", 7) == 0)
        return read_io(t, line);
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
