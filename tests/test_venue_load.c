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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

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
    long alerts = field(r.out, "alerts_published=");
    cr_assert_gt(alerts, 20, "about 100 alerts expected (500 settles, one call in five illegal)");
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
    cr_assert_gt(field(r.out, "alerts_published="), 20);
    cr_assert_eq(field(r.out, "lost_alerts="), 0);
    cr_assert_eq(field(r.out, "dropped_by_queue="), 0);
    cr_assert_geq(field(r.out, "acknowledged="), field(r.out, "messages_published="), "every message acknowledged");
}
