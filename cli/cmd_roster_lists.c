/*
 * cmd_roster_lists: the lists of a file holding several (a tournament pack) for `tableref roster import`: the
 * table of them, --list's pick (a player's name or any part of it, case and accents ignored) (see cmd_roster_lists.h).
 */
#include "cmd_roster_lists.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "army_names.h"
#include "base_text.h"

/* A name from a list as the terminal shows it: controls and escapes as text ("\x1b"), cut to `width`
 * bytes on a character boundary (0: whole). Returns a static buffer: one name per printf. */
const char *roster_shown(const char *name, size_t width, int slot)
{
    static char buf[3][512];
    char *esc = base_text_escape_terminal(name);
    const char *s = esc ? esc : "?";
    base_text_copy(buf[slot], width && width < sizeof buf[slot] ? width + 1 : sizeof buf[slot], s);
    free(esc);
    return buf[slot];
}

static int list_models(const army_list *a)
{
    long n = 0; /* each unit within ARMY_MAX_MODELS, at most ARMY_MAX_UNITS of them */
    for (size_t u = 0; u < a->n_units; u++)
        n += a->units[u].models;
    return (int)n;
}

static long list_points(const army_list *a)
{
    long n = 0;
    for (size_t u = 0; u < a->n_units; u++)
        n += a->units[u].points;
    return n;
}

/* `text` cut to `width` characters and padded to it (a character is one column, whatever its bytes). */
static void print_padded(FILE *to, const char *text, size_t width)
{
    size_t cols = 0;
    const char *p = text;
    for (; *p; p++) {
        if (((unsigned char)*p & 0xC0) == 0x80)
            continue;
        if (cols == width)
            break;
        cols++;
    }
    fprintf(to, "%.*s%*s", (int)(p - text), text, (int)(width - cols), "");
}

static void print_lists(const army_file *f, FILE *to)
{
    fprintf(to, "  %3s  %-30s %-26s %5s %6s %6s %6s  %s\n", "#", "player", "army", "units", "models", "total", "sum",
            "line");
    for (size_t a = 0; a < f->n_armies; a++) {
        const army_list *al = &f->armies[a];
        fprintf(to, "  %3zu  ", a + 1);
        print_padded(to, roster_shown(al->player[0] ? al->player : "-", 0, 0), 30);
        fprintf(to, " ");
        print_padded(to, roster_shown(al->name[0] ? al->name : "?", 0, 1), 26);
        fprintf(to, " %5zu %6d %6d %6ld  %d\n", al->n_units, list_models(al), al->points, list_points(al), al->line);
    }
}

/* --list N or --list NAME (a player's name or any part of it, case and accents ignored; else the army's): the
 * index, or -1. */
static long pick_list(const army_file *f, const char *arg, const char *path)
{
    char *end;
    long n = strtol(arg, &end, 10);
    if (end != arg && *end == '\0') {
        if (n >= 1 && (size_t)n <= f->n_armies)
            return n - 1;
        fprintf(stderr, "tableref roster import: --list %s: %s holds %zu list%s\n", arg, path, f->n_armies,
                f->n_armies == 1 ? "" : "s");
        return -1;
    }
    long hit = -1;
    int hits = 0;
    for (int pass = 0; pass < 2 && hits == 0; pass++) /* players first, then armies */
        for (size_t a = 0; a < f->n_armies; a++)
            if (army_names_contains(pass == 0 ? f->armies[a].player : f->armies[a].name, arg))
                hit = (long)a, hits++;
    if (hits == 1)
        return hit;
    fprintf(stderr, "tableref roster import: --list %s: %s in %s; the lists:\n", roster_shown(arg, 60, 2),
            hits ? "more than one list matches" : "no player or army matches", path);
    print_lists(f, stderr);
    return -1;
}

/* Which lists to write: *pick the one of --list, -1 for all (--all, or a file of one or two lists).
 * -1 with a message when a pack is given without --list or --all, or --list matches none or several. */
int roster_choose_lists(const army_file *f, const char *list_arg, int all, const char *out, const char *path,
                        long *pick)
{
    *pick = -1;
    if (list_arg && all) {
        fprintf(stderr, "tableref roster import: give --list or --all, not both\n");
        return -1;
    }
    if (list_arg && (*pick = pick_list(f, list_arg, path)) < 0)
        return -1;
    /* A pack (many players' lists in one text) becomes one roster per player, never one army. */
    if (!list_arg && !all && (f->n_armies > 2 || (f->format == ARMY_FORMAT_TEXT && f->n_armies > 1))) {
        fprintf(stderr, "tableref roster import: %s holds %zu lists (a tournament pack): pick one with --list N or "
                        "--list NAME, or write one roster each with --all --out DIR:\n",
                path, f->n_armies);
        print_lists(f, stderr);
        return -1;
    }
    if (all && mkdir(out, 0777) < 0 && errno != EEXIST) {
        fprintf(stderr, "tableref roster import: --out %s: cannot make the folder: %s\n", out, strerror(errno));
        return -1;
    }
    return 0;
}

