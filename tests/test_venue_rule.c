/*
 * Only a judge rules (issue 32, points 1 and 2), against a real Mosquitto
 * started from `tableref venue setup`'s own output (tests/venue_site.c:
 * 127.0.0.1, free ports, stopped by pid), as a player sitting at table 1
 * whose computer holds the table's password file (passwords/table-1):
 *   - first an anonymous login naming the running table's client id, and
 *     one with a wrong password (both refused: the refused-login trick that
 *     unhooked the table's session on Mosquitto 2.0.11), then a second
 *     login with table-1's own account and password;
 *   - that login writes command/alice, command/table-1, command/obs and a
 *     retained command/alice to table 1, and command/alice to table 2: no
 *     command reaches either table (the ACL gives a table's account no
 *     command topic), while alice's own command, sent after them, reaches
 *     table 1 as hers, first;
 *   - the table stays connected on its one connection (connects 1) and its
 *     last will never fires: the second login took nothing from it.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fixture_venue.h"
#include "venue_feed.h"
#include "venue_site.h"
#include "venue_sub.h"

static venue_site g_site;

static void teardown(void)
{
    venue_site_stop(&g_site);
}

static venue_sub *log_in(const char *pattern, const char *client_id, const char *user, const char *password)
{
    return venue_sub_new_as(g_site.broker.port, pattern, 1, client_id, user, password);
}

Test(venue_rule, the_tables_password_file_commands_nothing_and_silences_nothing, .fini = teardown, .timeout = 90)
{
    char err[600];
    cr_assert_eq(venue_site_start(&g_site, "rule", 2, "alice", "obs", NULL, err, sizeof err), 0, "%s", err);
    const char *pw1 = venue_site_password(&g_site, "table-1");
    base_error e;
    venue_feed *t1 = fxv_table_feed(g_site.broker.port, "rule", 1, pw1, 15000, &e);
    venue_feed *t2 = fxv_table_feed(g_site.broker.port, "rule", 2, venue_site_password(&g_site, "table-2"), 15000, &e);
    cr_assert(t1 && t2, "%s", e.msg);
    venue_sub *alice = log_in("tableref/rule/table/+/status", NULL, "alice", venue_site_password(&g_site, "alice"));
    cr_assert_not_null(alice);
    cr_assert_not_null(venue_sub_wait(alice, "tableref/rule/table/1/status", "\"online\"", 15000));

    /* The refused-login trick: the running table's own client id, anonymously and with a wrong password. */
    const char *id = venue_feed_client_id(t1);
    cr_assert(strncmp(id, "tableref-rule-table-1-", 22) == 0 && strlen(id) == 22 + 16, "client id %s", id);
    cr_assert_null(log_in("tableref/#", id, NULL, NULL), "an anonymous login was let in");
    cr_assert_null(log_in("tableref/#", id, "table-1", "not-the-password"), "a wrong password was let in");

    /* The player's own login with the table's password file: let in, and then? */
    venue_sub *player = log_in("tableref/rule/table/1/command/#", NULL, "table-1", pw1);
    cr_assert_not_null(player, "the table's password no longer logs in");
    static const char *const forged[][2] = {
        {"tableref/rule/table/1/command/alice", "overrule 1 forged as alice"},
        {"tableref/rule/table/1/command/table-1", "overrule 1 forged as the table"},
        {"tableref/rule/table/1/command/obs", "overrule 1 forged as a streamer"},
        {"tableref/rule/table/2/command/alice", "overrule 1 forged on table 2"},
    };
    for (size_t i = 0; i < sizeof forged / sizeof forged[0]; i++)
        venue_sub_publish(player, forged[i][0], forged[i][1], false);
    venue_sub_publish(player, forged[0][0], "overrule 1 forged and retained", true);
    venue_sub *ref = log_in("tableref/rule/table/1/command/#", NULL, "alice", venue_site_password(&g_site, "alice"));
    cr_assert_not_null(ref);
    cr_assert_eq(venue_sub_publish(ref, "tableref/rule/table/1/command/alice", "overrule 1 measured again", false), 0);

    venue_command cmd;
    cr_assert(fxv_poll_command(t1, &cmd, 5000), "alice's own command did not reach table 1");
    cr_assert_str_eq(cmd.by, "alice");
    cr_assert_str_eq(cmd.reason, "measured again", "the first command to reach table 1 was %s", cmd.line);
    cr_assert_not(fxv_poll_command(t1, &cmd, 1500), "a forged command reached table 1: %s", cmd.line);
    cr_assert_not(fxv_poll_command(t2, &cmd, 500), "a forged command reached table 2: %s", cmd.line);
    cr_assert_eq(venue_sub_count_matching(ref, NULL, "forged"), 0, "a forged command reached the broker's topic");

    /* Table 1 kept its one connection, and its will never fired. */
    venue_stats st;
    venue_feed_stats(t1, &st);
    cr_assert(st.connected, "table 1 is not connected");
    cr_assert_eq(st.connects, 1, "table 1 was kicked off (%ld connections)", st.connects);
    cr_assert_eq(venue_sub_count_matching(alice, "tableref/rule/table/1/status", "\"offline\""), 0,
                 "table 1's last will fired");
    venue_sub_free(player);
    venue_sub_free(ref);
    venue_sub_free(alice);
    venue_feed_free(t1);
    venue_feed_free(t2);
}
