#include "cli_args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_value(int argc, char **argv, int *i, const char *name, const char **out)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '=') {
        *out = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "tableref %s: option %s needs a value\n", argv[0], name);
        return -1;
    }
    *out = argv[++*i];
    return 1;
}

int cli_parse(const char *command, int argc, char **argv, const cli_opt *opts, int n_opts, const char **pos,
              int max_pos)
{
    int n_pos = 0;
    for (int i = 1; i < argc; i++) {
        int k = 0, r = 0;
        const char *v = NULL;
        for (; k < n_opts; k++) {
            if (opts[k].kind == CLI_OPT_FLAG) {
                if (strcmp(argv[i], opts[k].name) == 0) {
                    *(int *)opts[k].dest = opts[k].value;
                    break;
                }
            } else if (strcmp(argv[i], opts[k].name) == 0 && i + 1 >= argc) {
                fprintf(stderr, "tableref %s: option %s needs a value\n", command, opts[k].name);
                return -1;
            } else if ((r = cli_value(argc, argv, &i, opts[k].name, &v)) != 0) {
                if (r < 0)
                    return -1;
                if (opts[k].kind == CLI_OPT_STRING) {
                    *(const char **)opts[k].dest = v;
                } else if (opts[k].kind == CLI_OPT_LIST) {
                    cli_list *l = opts[k].dest;
                    if (l->n >= CLI_LIST_MAX) {
                        fprintf(stderr, "tableref %s: %s given more than %d times\n", command, opts[k].name,
                                CLI_LIST_MAX);
                        return -1;
                    }
                    l->items[l->n++] = v;
                }
                else if (opts[k].kind == CLI_OPT_NUMBER && cli_number(opts[k].name, v, opts[k].dest) < 0)
                    return -1;
                break;
            }
        }
        if (k < n_opts)
            continue;
        if (cli_is_option(argv[i])) {
            fprintf(stderr, "tableref %s: unknown option '%s' (try --help)\n", command, argv[i]);
            return -1;
        }
        if (n_pos >= max_pos) {
            fprintf(stderr, "tableref %s: unexpected argument '%s' (try --help)\n", command, argv[i]);
            return -1;
        }
        pos[n_pos++] = argv[i];
    }
    return n_pos;
}

bool cli_is_option(const char *arg)
{
    return arg[0] == '-' && arg[1] != '\0';
}

int cli_number(const char *option, const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end != '\0' || !isfinite(v)) {
        fprintf(stderr, "tableref: %s: expected a number, got '%s'\n", option, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_missing(const char *command, const char *what)
{
    fprintf(stderr, "tableref %s: missing %s (try 'tableref %s --help')\n", command, what, command);
    return -1;
}
