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
