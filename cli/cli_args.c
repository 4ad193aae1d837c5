#include "cli_args.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base_error.h"
#include "base_plan.h"

#include <sys/stat.h>

/* The widest "--name ARG" that still has its help beside it; longer ones push their help two spaces on. */
#define CLI_HELP_COLUMN 22

/* "tableref COMMAND: " (or "tableref: " for the options every command takes) and the message. */
static void say(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void say(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tableref%s%s: ", command && *command ? " " : "", command ? command : "");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

static bool is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

bool cli_dumping(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--options-dump") == 0)
            return true;
    return false;
}

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (is_help(argv[i]))
            return true;
    return false;
}

bool cli_is_option(const char *arg)
{
    return arg[0] == '-' && arg[1] != '\0';
}

static bool is_number_kind(cli_opt_kind k)
{
    return k == CLI_OPT_NUMBER || k == CLI_OPT_WHOLE;
}

int cli_number_in(const char *command, const cli_opt *opt, const char *text, double *out)
{
    const bool whole = opt->kind == CLI_OPT_WHOLE;
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || (whole && v != floor(v))) {
        say(command, "%s: expected %s, got '%s' (range %.15g to %.15g)\n", opt->name,
                opt->what ? opt->what : whole ? "a whole number" : "a number", text, opt->min, opt->max);
        return -1;
    }
    if (!(v >= opt->min && v <= opt->max)) {
        say(command, "%s: %s is out of range (%.15g to %.15g)\n", opt->name, text, opt->min, opt->max);
        return -1;
    }
    *out = v;
    return 0;
}

/* The option `arg` names ("--name" or "--name=VALUE"), or NULL; *value points past the '=' when there is one. */
static const cli_opt *find_option(const char *arg, const cli_opt *opts, int n_opts, const char **value)
{
    *value = NULL;
    for (int k = 0; k < n_opts; k++) {
        if (opts[k].kind == CLI_OPT_TEXT)
            continue;
        size_t n = strlen(opts[k].name);
        if (strncmp(arg, opts[k].name, n) != 0)
            continue;
        if (arg[n] == '\0')
            return &opts[k];
        if (arg[n] == '=' && opts[k].kind != CLI_OPT_FLAG) {
            *value = arg + n + 1;
            return &opts[k];
        }
    }
    return NULL;
}

/* Stores option o's value v in its destination; -1 with a message when it does not fit. */
static int store(const char *command, const cli_opt *o, const char *v)
{
    switch (o->kind) {
    case CLI_OPT_STRING:
        *(const char **)o->dest = v;
        return 0;
    case CLI_OPT_LIST: {
        cli_list *l = o->dest;
        if (l->n >= CLI_LIST_MAX) {
            say(command, "%s given more than %d times\n", o->name, CLI_LIST_MAX);
            return -1;
        }
        l->items[l->n++] = v;
        return 0;
    }
    case CLI_OPT_NUMBER:
    case CLI_OPT_WHOLE:
        return cli_number_in(command, o, v, o->dest);
    case CLI_OPT_FLAG:
        *(int *)o->dest = o->value;
        return 0;
    case CLI_OPT_TEXT:
        break;
    }
    return -1;
}

/* Reads the option at argv[*i] (advancing *i past its value): 1 when it is one of opts, 0 when not, -1 on an error. */
static int read_option(const char *command, int argc, char **argv, int *i, const cli_opt *opts, int n_opts)
{
    const char *v;
    const cli_opt *o = find_option(argv[*i], opts, n_opts, &v);
    if (!o)
        return 0;
    if (o->kind != CLI_OPT_FLAG && !v) {
        if (*i + 1 >= argc) {
            say(command, "option %s needs a value\n", o->name);
            return -1;
        }
        v = argv[++*i];
    }
    return store(command, o, v) < 0 ? -1 : 1;
}

/* ---- the files an option names ---------------------------------------------------- */

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The files option o puts into folder v (o->files) into the plan. -1 when out of memory. */
static int plan_folder(const cli_opt *o, const char *v)
{
    for (const char *f = o->files ? o->files : ""; *f;) {
        size_t n = strcspn(f, " ");
        if (n) {
            char *path = malloc(strlen(v) + n + 2);
            if (!path)
                return -1;
            sprintf(path, "%s%s%.*s", v, v[0] && v[strlen(v) - 1] == '/' ? "" : "/", (int)n, f);
            int rc = base_plan_add(BASE_PLAN_WRITE, path, o->name, v);
            free(path);
            if (rc < 0)
                return -1;
        }
        f += n + (f[n] == ' ');
    }
    return 0;
}

/* Option o's value v into the plan. -1 when out of memory. */
static int plan_value(const cli_opt *o, const char *v)
{
    struct stat st;
    switch (o->io) {
    case CLI_IO_IN:
        return base_plan_add(BASE_PLAN_READ, v, o->name, NULL);
    case CLI_IO_SOURCE: {
        /* A camera's name or a URL is no file; "sim:SEQ.json" names one after its scheme. */
        const char *colon = strchr(v, ':');
        if (exists(v))
            return base_plan_add(BASE_PLAN_READ, v, o->name, NULL);
        if (colon && colon[1] && exists(colon + 1))
            return base_plan_add(BASE_PLAN_READ, colon + 1, o->name, v);
        return 0;
    }
    case CLI_IO_OUT:
        if (o->same_as)
            base_plan_allow(o->name, o->same_as);
        /* With files: a folder that exists receives them (roster import --all --out DIR). */
        if (o->files && stat(v, &st) == 0 && S_ISDIR(st.st_mode))
            return plan_folder(o, v);
        return base_plan_add(BASE_PLAN_WRITE, v, o->name, NULL);
    case CLI_IO_APPEND:
        return base_plan_add(BASE_PLAN_APPEND, v, o->name, NULL);
    case CLI_IO_OUT_DIR:
        return plan_folder(o, v);
    case CLI_IO_NONE:
        break;
    }
    return 0;
}

/* The positionals doc->inputs names ("BEFORE AFTER", "IMAGES...") into the plan. */
static int plan_positionals(const cli_doc *doc, const char **pos, int n_pos)
{
    const char *names = doc->inputs;
    for (int i = 0; names && i < n_pos; i++) {
        char name[64];
        size_t n = strcspn(names, " ");
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), names);
        char *dots = strstr(name, "...");
        if (dots)
            *dots = '\0'; /* takes the rest */
        else if (names[n] == ' ')
            names += n + 1;
        else if (i + 1 < n_pos)
            names = NULL; /* more positionals than file names: the rest are no files */
        if (base_plan_add(BASE_PLAN_READ, pos[i], name, NULL) < 0)
            return -1;
    }
    return 0;
}

int cli_plan_check(const char *command)
{
    base_error err = {0};
    if (base_plan_check(&err) == 0)
        return 0;
    say(command, "%s\n", err.msg);
    return -1;
}

/* Every file the options and positionals name into a new plan, checked. 0, or CLI_ERROR (said). */
static int plan_files(const cli_doc *doc, const cli_opt *opts, int n_opts, const char **pos, int n_pos)
{
    base_plan_reset();
    int rc = plan_positionals(doc, pos, n_pos);
    for (int k = 0; rc == 0 && k < n_opts; k++) {
        const cli_opt *o = &opts[k];
        if (o->io == CLI_IO_NONE || !o->dest)
            continue;
        if (o->kind == CLI_OPT_STRING && *(const char **)o->dest)
            rc = plan_value(o, *(const char **)o->dest);
        else if (o->kind == CLI_OPT_LIST)
            for (int i = 0; rc == 0 && i < ((const cli_list *)o->dest)->n; i++)
                rc = plan_value(o, ((const cli_list *)o->dest)->items[i]);
    }
    if (rc < 0) {
        say(doc->command, "out of memory\n");
        return CLI_ERROR;
    }
    return cli_plan_check(doc->command) < 0 ? CLI_ERROR : 0;
}

int cli_parse(const cli_doc *doc, int argc, char **argv, const cli_opt *opts, int n_opts, const char **pos,
              int max_pos)
{
    if (cli_dumping(argc, argv)) {
        printf("command\t%s\n", doc->command);
        if (doc->inputs)
            printf("inputs\t%s\t%s\n", doc->command, doc->inputs);
        cli_dump_options(stdout, doc->command, opts, n_opts);
        return CLI_DONE;
    }
    if (cli_wants_help(argc, argv)) {
        cli_help(stdout, doc, opts, n_opts);
        return CLI_DONE;
    }
    int n_pos = 0;
    for (int i = 1; i < argc; i++) {
        int r = read_option(doc->command, argc, argv, &i, opts, n_opts);
        if (r < 0)
            return CLI_ERROR;
        if (r > 0)
            continue;
        if (cli_is_option(argv[i])) {
            fprintf(stderr, "tableref %s: unknown option '%s' (try --help)\n", doc->command, argv[i]);
            return CLI_ERROR;
        }
        if (n_pos >= max_pos) {
            fprintf(stderr, "tableref %s: unexpected argument '%s' (try --help)\n", doc->command, argv[i]);
            return CLI_ERROR;
        }
        pos[n_pos++] = argv[i];
    }
    if (plan_files(doc, opts, n_opts, pos, n_pos) < 0)
        return CLI_ERROR;
    return n_pos;
}

int cli_status(int r)
{
    return r == CLI_DONE ? BASE_EXIT_OK : BASE_EXIT_BAD_INPUT;
}

int cli_take(const char *command, int *argc, char **argv, int from, const cli_opt *opts, int n_opts)
{
    for (int i = from; i < *argc; i++) {
        int at = i;
        int r = read_option(command, *argc, argv, &i, opts, n_opts);
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        int used = i - at + 1;
        memmove(&argv[at], &argv[at + used], (size_t)(*argc - at - used + 1) * sizeof *argv);
        *argc -= used;
        i = at - 1;
    }
    return 0;
}

/* "--name ARG" as the help and the dump show it. */
static void option_label(const cli_opt *o, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* One option's lines of help: the label, its help (continuation lines aligned), the range. */
static void help_option(FILE *out, const cli_opt *o, int column)
{
    char label[128];
    option_label(o, label, sizeof label);
    int len = (int)strlen(label);
    fprintf(out, "  %-*s  ", column, label);
    if (len > column)
        column = len;
    const char *h = o->help ? o->help : "";
    for (const char *nl; (nl = strchr(h, '\n')) != NULL; h = nl + 1)
        fprintf(out, "%.*s\n%*s", (int)(nl - h), h, column + 4, "");
    fprintf(out, "%s", h);
    if (is_number_kind(o->kind))
        fprintf(out, "%s[%.15g..%.15g]", *h ? " " : "", o->min, o->max);
    fputc('\n', out);
}

void cli_help(FILE *out, const cli_doc *doc, const cli_opt *opts, int n_opts)
{
    fputs(doc->head ? doc->head : "", out);
    int column = 0;
    for (int k = 0; k < n_opts; k++) {
        char label[128];
        if (opts[k].kind == CLI_OPT_TEXT)
            continue;
        option_label(&opts[k], label, sizeof label);
        int len = (int)strlen(label);
        if (len <= CLI_HELP_COLUMN && len > column)
            column = len;
    }
    for (int k = 0; k < n_opts; k++) {
        if (opts[k].kind == CLI_OPT_TEXT)
            fprintf(out, "%s\n", opts[k].help);
        else
            help_option(out, &opts[k], column);
    }
    fputs(doc->tail ? doc->tail : "", out);
}

static const char *kind_word(cli_opt_kind k)
{
    static const char *const words[] = {"string", "number", "whole", "flag", "list", "text"};
    return words[k];
}

void cli_dump_options(FILE *out, const char *command, const cli_opt *opts, int n_opts)
{
    for (int k = 0; k < n_opts; k++) {
        const cli_opt *o = &opts[k];
        if (o->kind == CLI_OPT_TEXT)
            continue;
        fprintf(out, "option\t%s\t%s\t%s\t%s\t", command, o->name, kind_word(o->kind), o->arg ? o->arg : "");
        if (is_number_kind(o->kind))
            fprintf(out, "%.15g\t%.15g\t", o->min, o->max);
        else
            fputs("\t\t", out);
        fprintf(out, "%s\t", o->values ? o->values : "");
        for (const char *h = o->help ? o->help : ""; *h; h++)
            fputc(*h == '\n' || *h == '\t' ? ' ' : *h, out);
        fputc('\n', out);
        static const char *const roles[] = {"", "in", "source", "out", "append", "outdir"};
        if (o->io != CLI_IO_NONE)
            fprintf(out, "io\t%s\t%s\t%s\t%s\t%s\n", command, o->name, roles[o->io], o->files ? o->files : "",
                    o->same_as ? o->same_as : "");
    }
}

int cli_dump_steps(const char *command, const cli_step *steps, int n_steps)
{
    printf("steps\t%s\t", command);
    for (int i = 0; i < n_steps; i++)
        printf("%s%s", i ? " " : "", steps[i].name);
    printf("\n");
    fflush(stdout);
    for (int i = 0; i < n_steps; i++) {
        int rc = cli_run_options_dump(steps[i].name, steps[i].run);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int cli_run_options_dump(const char *name, int (*run)(int argc, char **argv))
{
    char arg0[64], dump[] = "--options-dump";
    snprintf(arg0, sizeof arg0, "%s", name);
    char *args[] = {arg0, dump, NULL};
    int rc = run(2, args);
    fflush(stdout);
    return rc;
}

int cli_dispatch(const cli_doc *doc, const cli_step *steps, int n_steps, int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--options-dump") == 0) {
        printf("command\t%s\n", doc->command);
        return cli_dump_steps(doc->command, steps, n_steps);
    }
    if (argc < 2 || is_help(argv[1])) {
        FILE *out = argc < 2 ? stderr : stdout;
        fputs(doc->head, out);
        for (int i = 0; i < n_steps; i++)
            fprintf(out, "  %-10s %s\n", steps[i].name, steps[i].what);
        fputs(doc->tail ? doc->tail : "", out);
        return argc < 2 ? BASE_EXIT_BAD_INPUT : BASE_EXIT_OK;
    }
    for (int i = 0; i < n_steps; i++)
        if (strcmp(argv[1], steps[i].name) == 0)
            return steps[i].run(argc - 1, argv + 1);
    fprintf(stderr, "tableref %s: unknown step '%s' (try 'tableref %s --help')\n", doc->command, argv[1],
            doc->command);
    return BASE_EXIT_BAD_INPUT;
}

int cli_missing(const char *command, const char *what)
{
    fprintf(stderr, "tableref %s: missing %s (try 'tableref %s --help')\n", command, what, command);
    return -1;
}

void cli_wrap(char *text, size_t width)
{
    size_t line = 0;  /* where the current line starts */
    char *space = NULL; /* the last space on it */
    for (char *p = text; *p; p++) {
        if (*p == '\n') {
            line = (size_t)(p - text) + 1, space = NULL;
            continue;
        }
        if (*p == ' ')
            space = p;
        if ((size_t)(p - text) - line >= width && space) {
            *space = '\n';
            line = (size_t)(space - text) + 1, space = NULL;
        }
    }
}
