/*
 * A bounded load test: `tableref bench venue` with 100 tables settling every
 * second (twice the fastest a real table settles: a hand must move, then the
 * table stay still for a second) through one Mosquitto on loopback, two
 * judge pages taking everything at QoS 1. No alert may be lost, nothing may
 * be dropped, every message must be acknowledged. The figures (latency,
 * load) are printed by the bench; they are not asserted here. The bench's
 * table workers are tableref started again (fork and exec at once), so this
 * runs under qemu-user too (docs/arm64.md).
 */
#include <criterion/criterion.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

/* How much slower than this machine's own the programs run (TABLEREF_TEST_TIME_SCALE: scripts/test-arm64.sh sets it
 * under qemu-user, where a table's settle, its overlay picture JPEG-encoded, takes 10-20x as long; 1 natively). */
static double time_scale(void)
{
    const char *v = getenv("TABLEREF_TEST_TIME_SCALE");
    const double s = v ? atof(v) : 1;
    return s > 1 ? s : 1;
}

/* One call in five is illegal, drawn at random: the alerts are about settles / 5, and not 4 standard deviations
 * (binomial, 0.4 * sqrt(settles)) fewer; at least one. */
static bool alerts_as_drawn(long alerts, long settles)
{
    const double short_of = settles / 5.0 - (double)alerts;
    return alerts > 0 && (short_of <= 0 || short_of * short_of < 16 * 0.16 * (double)settles);
}

static long field(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    cr_assert_not_null(p, "\"%s\" missing in:\n%s", key, text);
    return strtol(p + strlen(key), NULL, 10);
}

Test(venue_load, hundred_tables_one_broker_no_alert_lost, .timeout = 120)
{
    static cli_result r;
    cr_assert_eq(cli_run("bench venue --tables 100 --seconds 5 --settle-s 1 --subscribers 2", &r), 0);
    fprintf(stderr, "%s", r.out);
    cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
    /* 100 tables settling every second (+-50 %) for 5 s: about 500 settles, as many as the workers keep up with
     * (under emulation far fewer); one call in five illegal, each an alert. */
    long settles = field(r.out, "settles="), alerts = field(r.out, "alerts_published=");
    cr_assert_geq(settles, (long)(250 / time_scale()), "about 500 settles expected (%.0fx slower here)", time_scale());
    cr_assert(alerts_as_drawn(alerts, settles), "one call in five illegal: %ld alerts in %ld settles", alerts, settles);
    cr_assert_eq(field(r.out, "lost_alerts="), 0);
    cr_assert_eq(field(r.out, "dropped_by_queue="), 0);
    /* The status published at connection may be acknowledged inside the window without being counted in it. */
    cr_assert_geq(field(r.out, "acknowledged="), field(r.out, "messages_published="), "every message acknowledged");
}

/* The same with the broker from `tableref venue setup` (issue 20): every table logs in with its own account, the
 * pages as judges, client ids bound to accounts; still no alert lost. */
Test(venue_load, hundred_tables_with_their_own_accounts_no_alert_lost, .timeout = 120)
{
    static cli_result r;
    cr_assert_eq(cli_run("bench venue --tables 100 --seconds 5 --settle-s 1 --subscribers 2 --accounts", &r), 0);
    fprintf(stderr, "%s", r.out);
    cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
    cr_assert(strstr(r.out, "accounts=per table"), "%s", r.out);
    long settles = field(r.out, "settles="), alerts = field(r.out, "alerts_published=");
    cr_assert_geq(settles, (long)(250 / time_scale()), "about 500 settles expected (%.0fx slower here)", time_scale());
    cr_assert(alerts_as_drawn(alerts, settles), "one call in five illegal: %ld alerts in %ld settles", alerts, settles);
    cr_assert_eq(field(r.out, "lost_alerts="), 0);
    cr_assert_eq(field(r.out, "dropped_by_queue="), 0);
    cr_assert_geq(field(r.out, "acknowledged="), field(r.out, "messages_published="), "every message acknowledged");
}
