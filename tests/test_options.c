/*
 * Every number of every command has a range in its option table, and the
 * parser holds it: for every number option `tableref --options-dump` lists,
 * a value beyond either end, NaN and the infinities exit 2 with one message
 * naming the option and the range, and the two ends themselves are taken
 * (they never draw a range message). Plus the cases the issue named:
 * `watch --fps 1e-300` and `watch --settle-ms 1e308`.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "options_dump.h"

static od_table table;
static cli_result r;

/* `tableref COMMAND OPTION 'VALUE'` exits 2 with one line naming the option and its range. */
static void expect_refused(const od_option *o, const char *value)
{
    char args[256], range[96];
    snprintf(args, sizeof args, "%s %s '%s'", o->command, o->name, value);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_expect_eq(r.status, 2, "tableref %s: exit %d (%s)", args, r.status, r.err);
    snprintf(range, sizeof range, "(range %s to %s)", o->min, o->max);
    char range2[96];
    snprintf(range2, sizeof range2, "out of range (%s to %s)", o->min, o->max);
    cr_expect(strstr(r.err, o->name) != NULL, "tableref %s: the message does not name %s: %s", args, o->name, r.err);
    cr_expect(strstr(r.err, range) != NULL || strstr(r.err, range2) != NULL,
              "tableref %s: the message does not give the range %s to %s: %s", args, o->min, o->max, r.err);
    cr_expect(strchr(r.err, '\n') == strrchr(r.err, '\n'), "tableref %s: one line, got: %s", args, r.err);
}

/* `tableref COMMAND OPTION VALUE` does not refuse VALUE for its range (it may stop later for a missing argument). */
static void expect_taken(const od_option *o, const char *value)
{
    char args[256];
    snprintf(args, sizeof args, "%s %s %s", o->command, o->name, value);
    cr_assert_eq(cli_run(args, &r), 0);
    cr_expect(strstr(r.err, "out of range") == NULL && strstr(r.err, "expected") == NULL,
              "tableref %s: the end of the range is refused: %s", args, r.err);
}

Test(options, every_number_refuses_values_outside_its_range, .timeout = 600)
{
    cr_assert_eq(od_read(&table), 0, "tableref --options-dump");
    int numbers = 0;
    for (int i = 0; i < table.n_options; i++) {
        od_option o = table.options[i];
        if (!od_is_number(&o))
            continue;
        if (strcmp(o.command, "*") == 0)
            snprintf(o.command, sizeof o.command, "tags"); /* the options every command takes, through one */
        numbers++;
        const double lo = strtod(o.min, NULL), hi = strtod(o.max, NULL);
        cr_assert(isfinite(lo) && isfinite(hi) && lo < hi, "%s %s: range %s..%s", o.command, o.name, o.min, o.max);
        char below[64], above[64];
        snprintf(below, sizeof below, "%.17g", lo - (fabs(lo) > 1 ? fabs(lo) : 1));
        snprintf(above, sizeof above, "%.17g", hi + (fabs(hi) > 1 ? fabs(hi) : 1));
        static const char *const always[] = {"nan", "inf", "-inf", "1e308", "-1e308", "x"};
        for (size_t k = 0; k < sizeof always / sizeof always[0]; k++)
            expect_refused(&o, always[k]);
        expect_refused(&o, below);
        expect_refused(&o, above);
        if (strcmp(o.kind, "whole") == 0 && hi - lo >= 1) {
            char half[64];
            snprintf(half, sizeof half, "%.17g", lo + 0.5);
            expect_refused(&o, half);
        }
        /* The ends are taken; a bench would run with them, so benches are left out here. */
        if (strncmp(o.command, "bench", 5) != 0) {
            expect_taken(&o, o.min);
            expect_taken(&o, o.max);
        }
    }
    cr_assert_geq(numbers, 40, "%d number options", numbers);
}

Test(options, watch_fps_and_settle_ms_out_of_range, .timeout = 60)
{
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"watch --fps 1e-300", "--fps: 1e-300 is out of range (0.01 to 1000)"},
        {"watch --settle-ms 1e308", "--settle-ms: 1e308 is out of range (0 to 600000)"},
        {"watch --settle-ms -1", "--settle-ms: -1 is out of range (0 to 600000)"},
        {"watch --fps=nan", "--fps: expected a number, got 'nan' (range 0.01 to 1000)"},
        {"watch --timeout-ms 2.5", "--timeout-ms: expected a whole number, got '2.5' (range 1 to 600000)"},
        {"tags x.png --max-pixels inf",
         "--max-pixels: expected a whole number of pixels >= 1, got 'inf' (range 1 to 1000000000000)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_assert_eq(cli_run(cases[i].args, &r), 0);
        cr_expect_eq(r.status, 2, "tableref %s: exit %d", cases[i].args, r.status);
        cr_expect(strstr(r.err, cases[i].says) != NULL, "tableref %s: expected \"%s\" in: %s", cases[i].args,
                  cases[i].says, r.err);
    }
}
