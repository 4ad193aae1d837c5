/*
 * The projector's alignment in the pre-round table check (referee/ref_projcheck.h,
 * docs/setup-checks.md) and the table check `watch` runs at its start:
 *   - `table-check --simulate-projector` on the demo: the simulated projector
 *     (datasets/ds_light) lights its marks onto the demo's picture; go, the
 *     residual far under the limit;
 *   - the same with a calibration whose projector mapping is shifted 3 mm
 *     along x and 2 mm along y (a projector moved by 3.6 mm): no-go, exit 1,
 *     naming the projector's alignment, the figure and the calibration;
 *   - the marks stay clear of every base and board tag;
 *   - `watch` on the demo (before.jpg, then after.jpg, as a picture
 *     sequence): a `table_check` event (go) at the start, with every check's
 *     figure, then the call; with another camera's calibration: a
 *     `table_check` no-go naming the calibration and 0 calls.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base_json.h"
#include "calib_file.h"
#include "cli_run.h"
#include "fixture_demo.h"
#include "ds_calibview.h"
#include "ref_projcheck.h"
#include "ref_setup.h"
#include "ref_snapshot.h"
#include "tableref_config.h"
#include "vision_test_util.h"

static void setup(void)
{
    cr_assert_not_null(fxd_scratch_make("projcheck"));
}

static void teardown(void)
{
    (void)fxd_scratch_remove();
}

TestSuite(projcheck, .init = setup, .fini = teardown, .timeout = 240);

/* The demo's calibration with the simulated projector's mapping (ds_projector_default over the demo's 700 x 500 mm
 * board) moved: the calibration puts board point b where the projector really lights b + (dx, dy). */
static void make_projector_calib(const char *out, double dx, double dy)
{
    base_error err = {0};
    calib_file c;
    cr_assert_eq(calib_file_load(fxd_demo("calib.json"), &c, &err), 0, "%s", err.msg);
    ds_projector pj;
    ds_projector_default(&pj, 700, 500);
    double H[9];
    ds_projector_board_to_px(&pj, H);
    c.projector.present = 1;
    c.projector.width = pj.width, c.projector.height = pj.height;
    for (int r = 0; r < 3; r++) { /* H * [[1 0 dx] [0 1 dy] [0 0 1]] */
        c.projector.H[3 * r + 0] = H[3 * r + 0];
        c.projector.H[3 * r + 1] = H[3 * r + 1];
        c.projector.H[3 * r + 2] = H[3 * r + 0] * dx + H[3 * r + 1] * dy + H[3 * r + 2];
    }
    const double n = c.projector.H[8];
    for (int i = 0; i < 9; i++)
        c.projector.H[i] /= n;
    cr_assert_eq(calib_file_save(&c, out, &err), 0, "%s", err.msg);
}

static cli_result res;

static int table_check(const char *calib, const char *extra)
{
    cr_assert_eq(fxd_table_check(&res, fxd_demo("before.jpg"), calib, extra), 0);
    return res.status;
}

static const cJSON *projector_of(const cJSON *j)
{
    const cJSON *p = cJSON_GetObjectItem(j, "projector");
    cr_assert(cJSON_IsObject(p), "%s", res.out);
    return p;
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(o, k);
    cr_assert(cJSON_IsNumber(v), "%s missing", k);
    return v->valuedouble;
}

Test(projcheck, simulated_projector_goes_on_the_demo)
{
    cr_assert_eq(table_check(fxd_demo("calib.json"), "--simulate-projector"), 0, "%s%s", res.out, res.err);
    cr_assert_not_null(strstr(res.out, "table-check: GO"), "%s", res.out);
    cr_assert_not_null(strstr(res.out, "\ngo     projector       0."), "%s", res.out);
    cr_assert_not_null(strstr(res.out, " mm median, worst 0."), "%s", res.out);
    cr_assert_not_null(strstr(res.out, "(limit 2.0 mm), 37/37 marks found (simulated projector)\n"), "%s", res.out);
}

Test(projcheck, simulated_projector_figures_in_json)
{
    cr_assert_eq(table_check(fxd_demo("calib.json"), "--simulate-projector --json"), 0, "%s%s", res.out, res.err);
    cJSON *j = cJSON_Parse(res.out);
    cr_assert_not_null(j, "%s", res.out);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "go")));
    const cJSON *p = projector_of(j);
    cr_assert_str_eq(cJSON_GetObjectItem(p, "status")->valuestring, "checked");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(p, "simulated")));
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(p, "ok")));
    cr_assert_eq(num(p, "marks"), 37);
    cr_assert_eq(num(p, "found"), 37);
    /* The exact mapping: what is left is the camera's centroid noise, ~0.1 mm (0.09 median, 0.16 worst measured). */
    cr_assert_lt(num(p, "median_mm"), 0.3);
    cr_assert_lt(num(p, "worst_mm"), 0.5);
    cr_assert_eq(num(p, "limit_mm"), 2.0);
    cJSON_Delete(j);
}

Test(projcheck, shifted_projector_is_no_go_with_the_figure)
{
    make_projector_calib(fxd_tmp("moved.json"), 3, 2);
    cr_assert_eq(table_check(fxd_tmp("moved.json"), "--simulate-projector"), 1, "%s%s", res.out, res.err);
    cr_assert_not_null(strstr(res.out, "table-check: NO-GO"), "%s", res.out);
    char want[1024];
    snprintf(want, sizeof want, "\nNO-GO  projector       the projector's marks land 3.6 mm (median; worst 3.");
    cr_assert_not_null(strstr(res.out, want), "%s", res.out);
    snprintf(want, sizeof want, "mm) from where %s's projector mapping puts them (limit 2.0 mm): the projector has "
                                "moved: calibrate it again (tableref calibrate projector) (simulated projector)\n",
             fxd_tmp("moved.json"));
    cr_assert_not_null(strstr(res.out, want), "%s", res.out);
    cr_assert_not_null(strstr(res.err, "tableref table-check: no-go: the projector's marks land 3.6 mm (median; "),
                       "%s", res.err);
    /* Every other check still holds: the projector alone is named. */
    cr_assert_eq(strstr(res.out, "NO-GO") - res.out, strstr(res.out, "NO-GO  projector") - res.out, "%s", res.out);
}

Test(projcheck, shifted_projector_json_gives_the_shift)
{
    make_projector_calib(fxd_tmp("moved.json"), 3, 2);
    cr_assert_eq(table_check(fxd_tmp("moved.json"), "--simulate-projector --json"), 1, "%s%s", res.out, res.err);
    cJSON *j = cJSON_Parse(res.out);
    cr_assert_not_null(j, "%s", res.out);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(j, "go")));
    cr_assert_not_null(strstr(cJSON_GetObjectItem(j, "reason")->valuestring, "the projector's marks land 3.6 mm"));
    const cJSON *p = projector_of(j);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(p, "ok")));
    /* sqrt(3^2 + 2^2) = 3.61 mm; the light lands at b + (3, 2): the shift is measured to 0.3 mm. */
    cr_assert_float_eq(num(p, "median_mm"), 3.606, 0.3);
    const cJSON *shift = cJSON_GetObjectItem(p, "shift_mm");
    cr_assert_float_eq(cJSON_GetArrayItem(shift, 0)->valuedouble, 3.0, 0.3);
    cr_assert_float_eq(cJSON_GetArrayItem(shift, 1)->valuedouble, 2.0, 0.3);
    cJSON_Delete(j);
}

Test(projcheck, mapped_projector_not_thrown_is_said)
{
    make_projector_calib(fxd_tmp("mapped.json"), 0, 0);
    cr_assert_eq(table_check(fxd_tmp("mapped.json"), ""), 0, "%s%s", res.out, res.err);
    cr_assert_not_null(strstr(res.out, "\n-      projector       mapped, not checked (--projector throws its marks, "
                                       "--simulate-projector simulates them)\n"),
                       "%s", res.out);
}

Test(projcheck, both_projector_options_are_refused)
{
    cr_assert_eq(table_check(fxd_demo("calib.json"), "--projector --simulate-projector"), 2, "%s", res.err);
    cr_assert_str_eq(res.err, "tableref table-check: give --projector or --simulate-projector, not both\n");
}

/* The marks keep REF_PROJ_CLEAR_MM off every base (its half-diagonal) and board tag. */
Test(projcheck, marks_stay_clear_of_bases_and_board_tags)
{
    make_projector_calib(fxd_tmp("mapped.json"), 0, 0);
    base_error err = {0};
    ref_setup *s = ref_setup_new(NULL, fxd_tmp("mapped.json"), fxd_demo("roster.json"), &err);
    cr_assert_not_null(s, "%s", err.msg);
    ref_snapshot *f = ref_snapshot_new(s, fxd_demo("before.jpg"), NULL, &err);
    cr_assert_not_null(f, "%s", err.msg);
    ref_proj_marks m;
    cr_assert_eq(ref_proj_marks_place(s->roster, f->snap, &s->calib, &m, &err), 0, "%s", err.msg);
    cr_assert_eq(m.n, 37);
    for (size_t i = 0; i < m.n; i++) {
        for (size_t u = 0; u < f->snap->n_units; u++) {
            const rules_unit *un = &f->snap->units[u];
            for (size_t k = 0; k < un->n_models; k++)
                cr_assert_geq(hypot(m.at[i].x - un->models[k].pos.x, m.at[i].y - un->models[k].pos.y),
                              0.5 * hypot(un->base_width, un->base_depth) + REF_PROJ_CLEAR_MM + m.radius_mm);
        }
        for (size_t b = 0; b < s->roster->n_board_tags; b++)
            cr_assert_geq(hypot(m.at[i].x - s->roster->board_tags[b].x, m.at[i].y - s->roster->board_tags[b].y),
                          s->roster->board_tags[b].size + REF_PROJ_CLEAR_MM);
    }
    /* Drawn: a lit pixel at each mark's place in the projector's picture, black far from every mark. */
    base_image *pic = ref_proj_marks_draw(&s->calib.projector, &m, &err);
    cr_assert_not_null(pic, "%s", err.msg);
    size_t lit = 0;
    for (int y = 0; y < pic->height; y++)
        for (int x = 0; x < pic->width; x++)
            lit += pic->data[(size_t)y * pic->stride + x] > 0;
    /* 37 discs of 4 mm radius, ~0.55 mm per projector pixel: ~165 px each, plus their anti-aliased rims. */
    cr_assert_gt(lit, 37 * 120);
    cr_assert_lt(lit, 37 * 260);
    base_image_free(pic);
    ref_proj_marks_clear(&m);
    ref_snapshot_free(f);
    ref_setup_free(s);
}

/* ---- watch: the table check at the start ---- */

/* DIR/seq: the demo's BEFORE 12 times, then its AFTER 12 times (a spears' march, ILLEGAL), as a picture sequence. */
static const char *demo_sequence(void)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s/seq' && for i in $(seq 10 21); do ln -s '%s' '%s/seq/f'$i'.jpg'; done && "
             "for i in $(seq 22 33); do ln -s '%s' '%s/seq/f'$i'.jpg'; done",
             fxd_dir(), fxd_demo("before.jpg"), fxd_dir(), fxd_demo("after.jpg"), fxd_dir());
    cr_assert_eq(system(cmd), 0);
    return fxd_tmp("seq");
}

/* The event log's lines, parsed (at most 64). */
static size_t read_log(const char *path, cJSON **ev, size_t cap)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    static char line[1 << 16];
    size_t n = 0;
    while (n < cap && fgets(line, sizeof line, f)) {
        ev[n] = cJSON_Parse(line);
        cr_assert_not_null(ev[n], "%s", line);
        n++;
    }
    fclose(f);
    return n;
}

static const char *kind(const cJSON *e) { return cJSON_GetObjectItem(e, "event")->valuestring; }

static int watch_demo(const char *calib, const char *log)
{
    char args[4096];
    snprintf(args, sizeof args, "watch --source '%s' --calib '%s' --roster '%s' --fps 5 --settle-ms 600 --log '%s' --quiet",
             demo_sequence(), calib, fxd_demo("roster.json"), log);
    cr_assert_eq(cli_run(args, &res), 0);
    return res.status;
}

Test(projcheck, watch_says_the_table_check_at_the_start)
{
    cr_assert_eq(watch_demo(fxd_demo("calib.json"), fxd_tmp("w.jsonl")), 1, "%s%s", res.out, res.err);
    cr_assert_eq(strncmp(res.out, "[     0.0 s] table check: GO\n", 29), 0, "%s", res.out);
    cJSON *ev[64];
    size_t n = read_log(fxd_tmp("w.jsonl"), ev, 64);
    cr_assert_geq(n, 3);
    cr_assert_str_eq(kind(ev[0]), "started");
    cr_assert_str_eq(kind(ev[1]), "table_check");
    const cJSON *tc = ev[1];
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(tc, "go")));
    cr_assert_eq(num(tc, "frame"), 0);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(tc, "checks")), 7, "six, and roster_fit (issue 29)");
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(tc, "checks"))
    {
        cr_assert(cJSON_IsNumber(cJSON_GetObjectItem(c, "value")));
        cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(c, "ok")), "%s", cJSON_GetObjectItem(c, "name")->valuestring);
    }
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(tc, "resolution"), "ok")));
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(tc, "units")), 3);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(tc, "projector"), "status")->valuestring, "not mapped");
    size_t calls = 0, setup = 0;
    for (size_t i = 0; i < n; i++) {
        calls += strcmp(kind(ev[i]), "move_checked") == 0;
        setup += strcmp(kind(ev[i]), "setup") == 0;
    }
    cr_assert_eq(calls, 1);
    cr_assert_eq(setup, 0);
    cr_assert_eq(num(ev[n - 1], "calls"), 1);
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(ev[i]);
}

Test(projcheck, watch_with_a_wrong_calibration_says_no_go_and_makes_no_call)
{
    base_error err = {0};
    cJSON *c = base_json_parse_file(fxd_demo("calib.json"), &err);
    cr_assert_not_null(c, "%s", err.msg);
    cJSON *cam = cJSON_GetObjectItem(c, "camera");
    cJSON_SetNumberValue(cJSON_GetObjectItem(cam, "fx"), 1500 * 0.73);
    cJSON_SetNumberValue(cJSON_GetObjectItem(cam, "fy"), 1500 * 0.73);
    cr_assert_eq(base_json_write_file(c, fxd_tmp("calib073.json"), &err), 0, "%s", err.msg);
    cJSON_Delete(c);
    cr_assert_eq(watch_demo(fxd_tmp("calib073.json"), fxd_tmp("w.jsonl")), 0, "%s%s", res.out, res.err);
    char want[2048];
    snprintf(want, sizeof want,
             "[     0.0 s] table check: NO-GO: the frame at 0.0 s: the board tags are 161 px from where the roster's "
             "board puts them (limit 10 px): is %s the roster of this table, and %s the calibration of this camera?: "
             "cannot judge: set-up, until it holds\n",
             fxd_demo("roster.json"), fxd_tmp("calib073.json"));
    cr_assert_eq(strncmp(res.out, want, strlen(want)), 0, "%s", res.out);
    cr_assert_not_null(strstr(res.out, "watch: 24 frames, 0 calls, 0 illegal standing (end of recording)\n"), "%s",
                       res.out);
    cJSON *ev[64];
    size_t n = read_log(fxd_tmp("w.jsonl"), ev, 64);
    cr_assert_str_eq(kind(ev[1]), "table_check");
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(ev[1], "go")));
    cr_assert_not_null(strstr(cJSON_GetObjectItem(ev[1], "reason")->valuestring, "the board tags are 161 px"));
    const cJSON *off = cJSON_GetArrayItem(cJSON_GetObjectItem(ev[1], "checks"), 2);
    cr_assert_str_eq(cJSON_GetObjectItem(off, "name")->valuestring, "board_offset");
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(off, "ok")));
    cr_assert_float_eq(num(off, "value"), 161, 1);
    cr_assert_str_eq(kind(ev[2]), "setup");
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(ev[2], "holds")));
    cr_assert_str_eq(cJSON_GetObjectItem(ev[2], "state")->valuestring, "cannot judge: set-up");
    for (size_t i = 0; i < n; i++) {
        cr_assert_str_neq(kind(ev[i]), "move_checked");
        cr_assert_str_neq(kind(ev[i]), "settled");
    }
    cr_assert_str_eq(kind(ev[n - 1]), "stopped");
    cr_assert_eq(num(ev[n - 1], "calls"), 0);
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(ev[i]);
}

/* The simulated table: the watch throws the projector's marks at its start (the table simulator sees them) and
 * still makes the turn's three calls. */
Test(projcheck, watch_on_the_simulated_table_checks_the_projector)
{
    char args[4096];
    snprintf(args, sizeof args, "watch --source 'sim:%s/datasets/sequences/turn/sequence.json' --log '%s' --quiet",
             vt_source_root(), fxd_tmp("w.jsonl"));
    cr_assert_eq(cli_run(args, &res), 0);
    cr_assert_eq(res.status, 1, "%s%s", res.out, res.err);
    cr_assert_eq(strncmp(res.out, "[     0.0 s] table check: GO (projector: 0.", 43), 0, "%s", res.out);
    cr_assert_not_null(strstr(res.out, "watch: 58 frames, 3 calls, 1 illegal standing"), "%s", res.out);
    cJSON *ev[64];
    size_t n = read_log(fxd_tmp("w.jsonl"), ev, 64);
    const cJSON *p = cJSON_GetObjectItem(ev[1], "projector");
    cr_assert_str_eq(cJSON_GetObjectItem(p, "status")->valuestring, "checked");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(p, "ok")));
    cr_assert_eq(num(p, "found"), num(p, "marks"));
    cr_assert_geq(num(p, "marks"), 20);
    cr_assert_lt(num(p, "worst_mm"), 0.5);
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(ev[i]);
}

#if TABLEREF_HAVE_VENUE
#include "venue_payload.h"

/* The venue's retained state keeps the latest table check; a new session starts without one. */
Test(projcheck, venue_state_carries_the_table_check)
{
    venue_state st;
    venue_state_init(&st, "gt-2026", 7);
    cJSON *started = cJSON_Parse("{\"event\":\"started\",\"t_ms\":0,\"frame\":0}");
    cJSON *check = cJSON_Parse("{\"event\":\"table_check\",\"t_ms\":0,\"frame\":0,\"go\":false,"
                               "\"reason\":\"the frame at 0.0 s: the board tags are 161 px from ...\","
                               "\"checks\":[{\"name\":\"board_offset\",\"value\":161,\"ok\":false}]}");
    cr_assert_eq(venue_state_apply(&st, started), 1);
    char *text = venue_state_print(&st, 0, 0);
    cJSON *j = cJSON_Parse(text);
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "table_check")), "%s", text);
    cJSON_Delete(j), free(text);
    cr_assert_eq(venue_state_apply(&st, check), 1);
    text = venue_state_print(&st, 0, 0);
    j = cJSON_Parse(text);
    const cJSON *tc = cJSON_GetObjectItem(j, "table_check");
    cr_assert(cJSON_IsObject(tc), "%s", text);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(tc, "go")));
    cr_assert_str_eq(cJSON_GetObjectItem(tc, "reason")->valuestring, "the frame at 0.0 s: the board tags are 161 px from ...");
    cr_assert_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(tc, "checks"), 0), "value")->valuedouble, 161);
    cJSON_Delete(j), free(text);
    cr_assert_eq(venue_state_apply(&st, started), 1);
    text = venue_state_print(&st, 0, 0);
    j = cJSON_Parse(text);
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "table_check")), "%s", text);
    cJSON_Delete(j), free(text);
    cJSON_Delete(started), cJSON_Delete(check);
    venue_state_clear(&st);
}
#endif

/* The demo's roster with a unit none of whose tags is on the table (tags 300, 301): removed as casualties. */
static const char *roster_with_a_missing_unit(void)
{
    base_error err = {0};
    cJSON *r = base_json_parse_file(fxd_demo("roster.json"), &err);
    cr_assert_not_null(r, "%s", err.msg);
    cJSON *units = cJSON_GetObjectItem(r, "units");
    cJSON *u = cJSON_Duplicate(cJSON_GetArrayItem(units, 1), 1);
    cJSON_ReplaceItemInObject(u, "id", cJSON_CreateString("ghosts"));
    cJSON_ReplaceItemInObject(u, "files", cJSON_CreateNumber(2));
    cJSON_ReplaceItemInObject(u, "models", cJSON_Parse("[{\"id\": \"ghosts-1\", \"tag_id\": 300}, "
                                                       "{\"id\": \"ghosts-2\", \"tag_id\": 301}]"));
    cJSON_AddItemToArray(units, u);
    cr_assert_eq(base_json_write_file(r, fxd_tmp("roster-ghosts.json"), &err), 0, "%s", err.msg);
    cJSON_Delete(r);
    return fxd_tmp("roster-ghosts.json");
}

/* Before a round every unit must be on the table; a watch may start mid-game, its units gone as casualties. */
Test(projcheck, a_unit_not_seen_is_no_go_for_table_check_not_for_watch)
{
    const char *roster = roster_with_a_missing_unit();
    char args[4096];
    snprintf(args, sizeof args, "table-check '%s' --calib '%s' --roster '%s'", fxd_demo("before.jpg"), fxd_demo("calib.json"),
             roster);
    cr_assert_eq(cli_run(args, &res), 0);
    cr_assert_eq(res.status, 1, "%s%s", res.out, res.err);
    cr_assert_not_null(strstr(res.out, "\nNO-GO  unit ghosts     0/2 models seen ("), "%s", res.out);
    snprintf(args, sizeof args, "watch --source '%s' --calib '%s' --roster '%s' --fps 5 --settle-ms 600 --log '%s' "
                                "--quiet",
             demo_sequence(), fxd_demo("calib.json"), roster, fxd_tmp("w.jsonl"));
    cr_assert_eq(cli_run(args, &res), 0);
    cr_assert_eq(res.status, 1, "%s%s", res.out, res.err);
    cr_assert_eq(strncmp(res.out, "[     0.0 s] table check: GO\n", 29), 0, "%s", res.out);
    cr_assert_not_null(strstr(res.out, "watch: 24 frames, 1 call, 1 illegal standing"), "%s", res.out);
    cJSON *ev[64];
    size_t n = read_log(fxd_tmp("w.jsonl"), ev, 64);
    cr_assert_str_eq(kind(ev[1]), "table_check");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(ev[1], "go")));
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(ev[1], "units_required")));
    const cJSON *ghosts = cJSON_GetArrayItem(cJSON_GetObjectItem(ev[1], "units"), 3);
    cr_assert_str_eq(cJSON_GetObjectItem(ghosts, "unit")->valuestring, "ghosts");
    cr_assert_eq(num(ghosts, "tags_seen"), 0);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(ghosts, "ok")));
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(ev[i]);
}

/* An Xvfb at a display number it picks itself (-displayfd); its pid in *pid; -1 when it did not start. */
static int start_xvfb(pid_t *pid)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    *pid = fork();
    cr_assert_geq(*pid, 0);
    if (*pid == 0) {
        close(fd[0]);
        char fdarg[16];
        snprintf(fdarg, sizeof fdarg, "%d", fd[1]);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        execlp("Xvfb", "Xvfb", "-displayfd", fdarg, "-screen", "0", "1280x800x24", "-nolisten", "tcp", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    char num[16] = {0}; /* Xvfb writes the number and the newline apart: read up to the newline */
    size_t got = 0;
    while (got < sizeof num - 1 && read(fd[0], num + got, 1) > 0 && num[got] != '\n')
        got++;
    close(fd[0]);
    return got > 0 ? atoi(num) : -1;
}

/* The live loop (`--projector`): the marks on the projector's window (an Xvfb), the frames from the camera source
 * (here pictures that never show them): the projector's marks are not found, no-go naming the calibration. */
Test(projcheck, live_projector_whose_marks_the_camera_never_sees_is_no_go)
{
    if (access("/usr/bin/Xvfb", X_OK) != 0)
        cr_skip_test("Xvfb is not installed (scripts/setup-debian.sh installs it)");
    make_projector_calib(fxd_tmp("mapped.json"), 0, 0);
    pid_t pid;
    int display = start_xvfb(&pid);
    cr_assert_geq(display, 0, "Xvfb did not start");
    char name[32], args[4096];
    snprintf(name, sizeof name, ":%d", display);
    setenv("DISPLAY", name, 1);
    snprintf(args, sizeof args, "table-check '%s' --calib '%s' --roster '%s' --projector --source '%s'",
             fxd_demo("before.jpg"), fxd_tmp("mapped.json"), fxd_demo("roster.json"), demo_sequence());
    int rc = cli_run(args, &res);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    cr_assert_eq(rc, 0);
    cr_assert_eq(res.status, 1, "%s%s", res.out, res.err);
    char want[1024];
    snprintf(want, sizeof want,
             "\nNO-GO  projector       the camera finds 0 of the projector's 37 marks where %s's projector mapping puts "
             "them (within 20 mm): is the projector on, aimed at the table, and calibrated through this "
             "calibration?\n",
             fxd_tmp("mapped.json"));
    cr_assert_not_null(strstr(res.out, want), "%s", res.out);
}

/* --projector with a stale projector section (calibrated through another camera pose), or none: exit 2, before
 * any window. */
Test(projcheck, live_projector_stale_is_refused)
{
    make_projector_calib(fxd_tmp("mapped.json"), 0, 0);
    base_error err = {0};
    calib_file c;
    cr_assert_eq(calib_file_load(fxd_tmp("mapped.json"), &c, &err), 0, "%s", err.msg);
    calib_file_projector_stamp(&c);
    c.projector.made_t[0] += 50; /* the camera has moved 50 mm since */
    cr_assert_eq(calib_file_save(&c, fxd_tmp("stale.json"), &err), 0, "%s", err.msg);
    cr_assert_eq(table_check(fxd_tmp("stale.json"), "--projector --source /nonexistent"), 2, "%s", res.err);
    cr_assert_not_null(strstr(res.err, "tableref table-check: "), "%s", res.err);
    cr_assert_not_null(strstr(res.err, "stale.json: projector: "), "%s", res.err);
    char want[1024];
    snprintf(want, sizeof want, "tableref table-check: %s: projector: no projector section (run `tableref calibrate "
                                "projector`)\n", fxd_demo("calib.json"));
    cr_assert_eq(table_check(fxd_demo("calib.json"), "--projector --source /nonexistent"), 2, "%s", res.err);
    cr_assert_str_eq(res.err, want);
}
