/*
 * The simulated table is a camera like any other (issue 32, point 8): the
 * rendered test turn played by `tableref watch --source
 * sim:datasets/sequences/turn/sequence.json` feeds table 1 of a broker from
 * `tableref venue setup` (its own account), writing its frames, calibration
 * and roster with --sim-frames DIR; then `tableref watch --source DIR`
 * (the same game from the folder) feeds table 2. A judge subscribed to both
 * receives the same calls, in the same order, from each: move 1 spearmen
 * legal, move 2 archers legal, move 3 cavalry ILLEGAL (MU-PATH-LENGTH and
 * MU-MODEL-DIST), and one alert each. The simulated projector is off
 * (--sim-light 0). With it on (2.5) the frames written carry its light,
 * and the watch of the folder (no projector in its loop) settles at 4.2 s
 * instead of 1.0 s and misses move 1: measured, not yet explained
 * (docs/venue.md).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cjson/cJSON.h>

#include "venue_site.h"
#include "venue_sub.h"

static venue_site g_site;
static char g_dir[256];

static void teardown(void)
{
    venue_site_stop(&g_site);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (g_dir[0] && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", g_dir);
}

static const char *env(const char *name)
{
    const char *v = getenv(name);
    cr_assert(v && *v, "%s is not set", name);
    return v;
}

/* `tableref watch SOURCE_ARGS` feeding table N; its exit status (1: an illegal call stands). */
static int watch_table(int table, const char *source_args)
{
    char user[32], cmd[4096];
    snprintf(user, sizeof user, "table-%d", table);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' watch %s --log '%s/table-%d.jsonl' --quiet --mqtt 127.0.0.1:%d --event sim --table %d "
             "--mqtt-user %s --mqtt-password-file '%s' 2>'%s/table-%d.err'",
             env("TABLEREF_SOURCE_ROOT"), env("TABLEREF_BIN"), source_args, g_dir, table, g_site.broker.port, table,
             user, venue_site_password_file(&g_site, user), g_dir, table);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Table N's calls as the judge received them: "MOVE UNIT VERDICT CODES|..." in order of arrival. */
static void calls_of(venue_sub *s, int table, char *out, size_t cap)
{
    char topic[96];
    snprintf(topic, sizeof topic, "tableref/sim/table/%d/event/move_checked", table);
    out[0] = 0;
    size_t at = 0;
    const venue_sub_msg *m;
    while ((m = venue_sub_wait_from(s, at, topic, NULL, 0, &at)) != NULL) {
        cJSON *ev = cJSON_Parse(m->payload);
        cr_assert_not_null(ev, "%s", m->payload);
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "%d", cJSON_GetObjectItem(ev, "move")->valueint);
        const cJSON *u;
        cJSON_ArrayForEach(u, cJSON_GetObjectItem(ev, "units")) {
            n = strlen(out);
            snprintf(out + n, cap - n, " %s %s", cJSON_GetObjectItem(u, "unit")->valuestring,
                     cJSON_GetObjectItem(u, "verdict")->valuestring);
            const cJSON *c;
            cJSON_ArrayForEach(c, cJSON_GetObjectItem(u, "codes")) {
                n = strlen(out);
                snprintf(out + n, cap - n, " %s", c->valuestring);
            }
        }
        n = strlen(out);
        snprintf(out + n, cap - n, "|");
        cJSON_Delete(ev);
        at++;
    }
}

Test(watch_sim_venue, a_simulated_game_and_the_same_game_from_a_folder_give_the_judges_the_same_calls,
     .fini = teardown, .timeout = 240)
{
    snprintf(g_dir, sizeof g_dir, "%s/tableref-sim-venue-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    cr_assert_not_null(mkdtemp(g_dir));
    char err[600];
    cr_assert_eq(venue_site_start(&g_site, "sim", 2, "alice", NULL, NULL, err, sizeof err), 0, "%s", err);
    venue_sub *judge = venue_sub_new_as(g_site.broker.port, "tableref/sim/table/+/event/#", 1, NULL, "alice",
                                        venue_site_password(&g_site, "alice"));
    cr_assert_not_null(judge);

    char args[1024];
    snprintf(args, sizeof args, "--source sim:datasets/sequences/turn/sequence.json --sim-light 0 --sim-frames '%s/frames'",
             g_dir);
    cr_assert_eq(watch_table(1, args), 1, "the simulated game (exit 1: its illegal call stands); see %s/table-1.err", g_dir);
    snprintf(args, sizeof args, "--source '%s/frames' --calib '%s/frames/calib.json' --roster '%s/frames/roster.json'",
             g_dir, g_dir, g_dir);
    cr_assert_eq(watch_table(2, args), 1, "the game from the folder; see %s/table-2.err", g_dir);
    cr_assert_not_null(venue_sub_wait(judge, "tableref/sim/table/1/event/stopped", NULL, 10000));
    cr_assert_not_null(venue_sub_wait(judge, "tableref/sim/table/2/event/stopped", NULL, 10000));

    char sim[2048], folder[2048];
    calls_of(judge, 1, sim, sizeof sim);
    calls_of(judge, 2, folder, sizeof folder);
    cr_assert_str_eq(sim, "1 spearmen legal|2 archers legal|3 cavalry illegal MU-PATH-LENGTH MU-MODEL-DIST|",
                     "the simulated game's calls: %s", sim);
    cr_assert_str_eq(folder, sim, "the same game from the folder: %s", folder);
    cr_assert_eq(venue_sub_count_matching(judge, "tableref/sim/table/1/event/alert", "cavalry"), 1);
    cr_assert_eq(venue_sub_count_matching(judge, "tableref/sim/table/2/event/alert", "cavalry"), 1);
    venue_sub_free(judge);
}
