/*
 * Capture's table of sources (capture/cap_rows.h): a source of the test's
 * own, defined in this file and nowhere else, registered as a layer above
 * capture registers its rows, is taken by every reader of the table: the
 * table file's "source", cap_source_open (its frames, its is-live answer,
 * its timing), `tableref cameras`' listing, and the watch's door
 * (watch/watch_source.h) and session. A URL is never made a path; the
 * built-in rows and the simulator's answer as they always did.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cap_rows.h"
#include "cap_source.h"
#include "calib_file.h"
#include "ds_loop_source.h"
#include "fixture_demo.h"
#include "media_image_read.h"
#include "table_file.h"
#include "roster.h"
#include "watch_session.h"
#include "watch_source.h"

/* ---- the test's own sources: one row each, in this file only ---- */

/* What a test source is: `frames` frames of the demo's BEFORE picture; a live one on a clock of its own. */
typedef struct test_source {
    base_image *picture;
    long frames, next;
    int projected; /* pictures handed to it (it sees the projector) */
} test_source;

static int test_projected; /* the last closed test source's count, read after the close */

static int test_read(void *self, cap_backend_frame *f, base_error *err)
{
    (void)err;
    test_source *s = self;
    if (s->next >= s->frames)
        return 0;
    f->image = s->picture;
    f->clock_ms = 1000 + 30.0 * (double)s->next++; /* a camera's clock: 30 ms a frame, from 1 s */
    return 1;
}

static void test_project(void *self, const base_image *picture, double t_ms)
{
    (void)t_ms;
    test_source *s = self;
    s->projected += picture != NULL;
}

static void test_close(void *self)
{
    test_source *s = self;
    test_projected = s->projected;
    base_image_free(s->picture);
    free(s);
}

static int test_start(const char *picture, long frames, cap_backend *out, base_error *err)
{
    test_source *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    if (!(s->picture = media_image_load(picture, MEDIA_IMAGE_GRAY, err))) {
        free(s);
        return -1;
    }
    s->frames = frames;
    *out = (cap_backend){.self = s, .read = test_read, .close = test_close, .project = test_project,
                         .frame_count = frames};
    return 0;
}

/* testcam:N, a live camera of N frames; it lists one device, testcam:3, and sees the projector. */
static int testcam_open(const char *source, const cap_source_config *cfg, cap_backend *out, base_error *err)
{
    char *end;
    long n = strtol(source + strlen("testcam:"), &end, 10);
    if (*end || n < 1)
        return base_error_setc(err, BASE_E_NOT_FOUND, "%s: no such test camera", source);
    if (test_start(fxd_demo("before.jpg"), n, out, err) < 0)
        return -1;
    out->fps = cfg->fps;
    out->frame_count = -1;
    snprintf(out->desc, sizeof out->desc, "test camera %ld", n);
    return 0;
}

static int testcam_list(cap_source_info *out, int cap, base_error *err)
{
    (void)err;
    if (cap < 1)
        return 0;
    memset(out, 0, sizeof *out);
    snprintf(out->source, sizeof out->source, "testcam:3");
    snprintf(out->name, sizeof out->name, "the test's camera");
    return 1;
}

static const cap_row testcam_row = {
    .name = "testcam", .scheme = "testcam", .usage = "testcam:N", .about = "a test camera of N frames",
    .live = CAP_LIVE, .arg = CAP_ARG_NAME, .options = CAP_OPT_FPS, .kind = CAP_SOURCE_OTHER,
    .open = testcam_open, .list = testcam_list,
};

/* testreel:PICTURE, a recording of three frames of PICTURE at 2 fps (its argument is a path). */
static int testreel_open(const char *source, const cap_source_config *cfg, cap_backend *out, base_error *err)
{
    (void)cfg;
    if (test_start(source + strlen("testreel:"), 3, out, err) < 0)
        return -1;
    out->project = NULL; /* a recording does not see the projector */
    out->fps = 2;
    snprintf(out->desc, sizeof out->desc, "test reel %s", source + strlen("testreel:"));
    return 0;
}

static const cap_row testreel_row = {
    .name = "testreel", .scheme = "testreel", .usage = "testreel:PICTURE", .about = "a test recording",
    .live = CAP_RECORDING, .arg = CAP_ARG_PATH, .options = 0, .kind = CAP_SOURCE_OTHER, .open = testreel_open,
};

static void setup(void)
{
    cr_assert_not_null(fxd_scratch_make("sources"));
    base_error err = {0};
    cr_assert_eq(cap_rows_register(&testcam_row, &err), 0, "%s", err.msg);
    cr_assert_eq(cap_rows_register(&testreel_row, &err), 0, "%s", err.msg);
}

static void teardown(void) { (void)fxd_scratch_remove(); }

TestSuite(sources, .init = setup, .fini = teardown);

/* ---- reader 1: the table file ---- */

/* The table's capture.source as the table file reads it from folder `dir` (the demo's set-up). */
static void table_source(const char *source, const char *dir, char *out, size_t cap)
{
    char text[2048];
    snprintf(text, sizeof text,
             "{\"format\": \"tableref.table\", \"version\": 1, \"calibration\": \"%s\", \"rosters\": [\"%s\"],"
             " \"capture\": {\"source\": \"%s\"}}",
             fxd_demo("calib.json"), fxd_demo("roster.json"), source);
    cJSON *root = cJSON_Parse(text);
    cr_assert_not_null(root);
    table_file t;
    base_error err = {0};
    cr_assert_eq(table_file_from_json(root, "T.json", dir, &t, &err), 0, "%s", err.msg);
    snprintf(out, cap, "%s", t.source);
    table_file_clear(&t);
    cJSON_Delete(root);
}

Test(sources, the_table_file_reads_a_registered_row)
{
    char got[600];
    table_source("testcam:3", "/tables/7", got, sizeof got);
    cr_expect_str_eq(got, "testcam:3", "a device's name is kept as written");
    table_source("testreel:before.jpg", "/tables/7", got, sizeof got);
    cr_expect_str_eq(got, "testreel:/tables/7/before.jpg", "a path after the scheme is read from the table's folder");
    table_source("testreel:/abs/before.jpg", "/tables/7", got, sizeof got);
    cr_expect_str_eq(got, "testreel:/abs/before.jpg");
}

/* A URL stays a URL: before, "rtsp://cam.local:8554/table" became "/tables/7/rtsp://cam.local:8554/table". */
Test(sources, a_url_is_never_made_a_path)
{
    char got[600];
    table_source("rtsp://cam.local:8554/table", "/tables/7", got, sizeof got);
    cr_expect_str_eq(got, "rtsp://cam.local:8554/table");
    table_source("http://10.0.0.7/stream.mjpg", "/tables/7", got, sizeof got);
    cr_expect_str_eq(got, "http://10.0.0.7/stream.mjpg");
    table_source("before.jpg", "/tables/7", got, sizeof got);
    cr_expect_str_eq(got, "/tables/7/before.jpg", "a file is read from the table's folder, as before");
    table_source("v4l2:/dev/video2", "/tables/7", got, sizeof got);
    cr_expect_str_eq(got, "v4l2:/dev/video2");
    table_source("libcamera", "/tables/7", got, sizeof got);
    cr_expect_str_eq(got, "libcamera");

    const char *arg;
    cr_expect_eq(cap_rows_arg("rtsp://cam.local:8554/table", &arg), CAP_ARG_URL);
    cr_assert_not_null(cap_rows_find("rtsp://cam.local:8554/table"));
    cr_expect_str_eq(cap_rows_find("rtsp://cam.local:8554/table")->name, "stream");
    base_error err = {0};
    cr_expect_null(cap_source_open("rtsp://cam.local:8554/table", NULL, &err));
    cr_expect_eq(err.code, BASE_E_UNSUPPORTED);
    cr_expect_str_eq(err.msg, "rtsp://cam.local:8554/table: network streams (rtsp://, http://, ...) are not "
                              "supported in this build: record the stream to a file, or give a camera (v4l2:, "
                              "libcamera)");
}

/* ---- reader 2: capture (cap_source_open, cap_source_list) ---- */

Test(sources, capture_opens_a_registered_live_row_on_its_clock)
{
    base_error err = {0};
    cap_source *cap = cap_source_open("testcam:3", NULL, &err);
    cr_assert_not_null(cap, "%s", err.msg);
    cr_expect_eq(cap_source_row(cap), &testcam_row);
    cr_expect(cap_source_is_live(cap));
    cr_expect_not(cap_source_is_simulated(cap));
    cr_expect_eq(cap_source_kind_of(cap), CAP_SOURCE_OTHER);
    cr_expect_str_eq(cap_source_describe(cap), "test camera 3");
    cr_expect(cap_source_sees_projector(cap));
    cap_frame f;
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(cap_source_read(cap, &f, &err), 1, "%s", err.msg);
        cr_expect_eq(f.index, i);
        cr_expect_float_eq(f.t_ms, 30.0 * i, 1e-9, "a live source is timed by its clock from its first frame");
        cr_expect_eq(f.gray, f.image, "a gray frame is its own gray view");
    }
    cr_expect_eq(cap_source_read(cap, &f, &err), 0);
    cap_source_close(cap);

    /* The row's own error, and as a camera's (it lists devices) how to find the right one. */
    cr_expect_null(cap_source_open("testcam:x", NULL, &err));
    cr_expect_eq(err.code, BASE_E_DEVICE);
    cr_expect_str_eq(err.msg, "testcam:x: no such test camera (" CAP_SOURCE_LIST_HINT ")");
}

Test(sources, capture_opens_a_registered_recording_by_its_index)
{
    char src[600];
    snprintf(src, sizeof src, "testreel:%s", fxd_demo("after.jpg"));
    base_error err = {0};
    cap_source *cap = cap_source_open(src, NULL, &err);
    cr_assert_not_null(cap, "%s", err.msg);
    cr_expect_not(cap_source_is_live(cap));
    cr_expect_not(cap_source_sees_projector(cap));
    cr_expect_float_eq(cap_source_fps(cap), 2, 1e-12);
    cr_expect_eq(cap_source_frame_count(cap), 3);
    cap_frame f;
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(cap_source_read(cap, &f, &err), 1, "%s", err.msg);
        cr_expect_float_eq(f.t_ms, 500.0 * i, 1e-9, "a recording is timed index / fps");
    }
    cr_expect_eq(cap_source_read(cap, &f, &err), 0);
    cap_source_close(cap);
}

Test(sources, the_cameras_list_takes_a_registered_rows_devices)
{
    cap_source_info list[64];
    base_error err = {0};
    int n = cap_source_list(list, 64, &err);
    cr_assert_geq(n, 1, "%s", err.msg);
    int found = 0;
    for (int i = 0; i < n; i++)
        found += strcmp(list[i].source, "testcam:3") == 0 && strcmp(list[i].name, "the test's camera") == 0;
    cr_expect_eq(found, 1);
}

/* ---- reader 3: the watch (its door and its session) ---- */

/* The watch over `source` with the demo's set-up; the "started" and "stopped" events of its log. */
static int watch_over(const char *source, bool with_cfg, char *kind, size_t kind_cap, double *stopped_t,
                      long *frames)
{
    base_error err = {0};
    calib_file calib;
    cr_assert_eq(calib_file_load(fxd_demo("calib.json"), &calib, &err), 0, "%s", err.msg);
    roster_file *roster = roster_load(fxd_demo("roster.json"), &err);
    cr_assert_not_null(roster, "%s", err.msg);
    watch_session_config cfg;
    watch_session_config_default(&cfg);
    cfg.quiet = true;
    cfg.log_path = fxd_tmp("events.jsonl");
    remove(cfg.log_path); /* the log is appended to: this run's events only */
    cr_expect_not(watch_source_brings_setup(source), "its set-up comes from the table, not the source");
    cap_source *cap = watch_source_open(source, NULL, with_cfg ? &cfg : NULL, &err);
    cr_assert_not_null(cap, "%s", err.msg);
    cr_expect_null(cfg.project, "a source that does not see the projector leaves the session's hook alone");
    watch_session *s = watch_session_new(roster, &calib, &cfg, &err);
    cr_assert_not_null(s, "%s", err.msg);
    int status = watch_session_run(s, cap, NULL);
    watch_session_free(s);
    cap_source_close(cap);
    roster_free(roster);
    FILE *f = fopen(cfg.log_path, "r");
    cr_assert_not_null(f);
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        cJSON *ev = cJSON_Parse(line);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "event");
        if (cJSON_IsString(name) && strcmp(name->valuestring, "started") == 0)
            snprintf(kind, kind_cap, "%s", cJSON_GetObjectItemCaseSensitive(ev, "source_kind")->valuestring);
        if (cJSON_IsString(name) && strcmp(name->valuestring, "stopped") == 0) {
            *stopped_t = cJSON_GetObjectItemCaseSensitive(ev, "t_ms")->valuedouble;
            *frames = (long)cJSON_GetObjectItemCaseSensitive(ev, "frames")->valuedouble;
        }
        cJSON_Delete(ev);
    }
    fclose(f);
    return status;
}

Test(sources, the_watch_opens_a_registered_row_through_its_door, .timeout = 120)
{
    char src[600], kind[600] = "";
    double t = NAN;
    long frames = -1;
    snprintf(src, sizeof src, "testreel:%s", fxd_demo("before.jpg"));
    cr_expect_eq(watch_over(src, true, kind, sizeof kind, &t, &frames), 0);
    char want[700];
    snprintf(want, sizeof want, "test reel %s", fxd_demo("before.jpg"));
    cr_expect_str_eq(kind, want, "the session reads the row's description");
    cr_expect_eq(frames, 3);
    cr_expect_float_eq(t, 1000, 1e-9, "the last of 3 frames of a recording at 2 fps");

    kind[0] = 0;
    cr_expect_eq(watch_over("testcam:4", false, kind, sizeof kind, &t, &frames), 0);
    cr_expect_str_eq(kind, "test camera 4");
    cr_expect_eq(frames, 4);
    cr_expect_float_eq(t, 90, 1e-9, "the last of 4 frames of a live camera, on its clock (30 ms a frame)");
}

Test(sources, the_watch_closes_the_loop_for_a_row_that_sees_the_projector)
{
    watch_session_config cfg;
    watch_session_config_default(&cfg);
    base_error err = {0};
    cap_source *cap = watch_source_open("testcam:2", NULL, &cfg, &err);
    cr_assert_not_null(cap, "%s", err.msg);
    cr_expect_eq((void *)cfg.project, (void *)cap_source_project);
    cr_expect_eq(cfg.project_ctx, cap);
    base_image *pic = base_image_new(8, 8, 1, 255);
    cfg.project(cfg.project_ctx, pic, 0);
    cfg.project(cfg.project_ctx, pic, 200);
    base_image_free(pic);
    cap_source_close(cap);
    cr_expect_eq(test_projected, 2, "both projector pictures reached the source");
}

/* ---- the rows' answers, and the registration's rules ---- */

static const cap_row *row_named(const char *name)
{
    for (size_t i = 0; i < cap_rows_count(); i++)
        if (strcmp(cap_rows_at(i)->name, name) == 0)
            return cap_rows_at(i);
    return NULL;
}

/* The one is-live answer per row: what capture, the watch's replay, its start check and `capture` all read. */
Test(sources, every_built_in_row_answers_as_the_checks_it_replaced)
{
    static const struct {
        const char *name;
        cap_live live;
        cap_arg arg;
        cap_source_kind kind;
    } want[] = {
        {"libcamera", CAP_LIVE, CAP_ARG_NAME, CAP_SOURCE_LIBCAMERA},
        {"v4l2", CAP_LIVE, CAP_ARG_NAME, CAP_SOURCE_V4L2},
        {"stream", CAP_LIVE, CAP_ARG_URL, CAP_SOURCE_OTHER},
        {"pattern", CAP_RECORDING, CAP_ARG_PATH, CAP_SOURCE_IMAGES},
        {"folder", CAP_RECORDING, CAP_ARG_PATH, CAP_SOURCE_IMAGES},
        {"picture", CAP_RECORDING, CAP_ARG_PATH, CAP_SOURCE_IMAGES},
        {"video", CAP_RECORDING, CAP_ARG_PATH, CAP_SOURCE_FILE},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const cap_row *r = row_named(want[i].name);
        cr_assert_not_null(r, "%s", want[i].name);
        cr_expect_eq(r->live, want[i].live, "%s", want[i].name);
        cr_expect_eq(r->arg, want[i].arg, "%s", want[i].name);
        cr_expect_eq(r->kind, want[i].kind, "%s", want[i].name);
        cr_expect_eq(r, cap_rows_builtin[i], "%s: the table's order", want[i].name);
    }
    cr_expect_null(cap_rows_builtin[sizeof want / sizeof want[0]]);
    cr_expect_str_eq(cap_rows_find("libcamera")->name, "libcamera");
    cr_expect_str_eq(cap_rows_find("libcamera:1")->name, "libcamera");
    cr_expect_str_eq(cap_rows_find("v4l2:0")->name, "v4l2");
    cr_expect_str_eq(cap_rows_find("frames/%04d.jpg")->name, "pattern");
    cr_expect_str_eq(cap_rows_find(fxd_dir())->name, "folder");
    cr_expect_str_eq(cap_rows_find(fxd_demo("before.jpg"))->name, "picture");
    cr_expect_str_eq(cap_rows_find(fxd_demo("calib.json"))->name, "video", "any other file is a video");
    cr_expect_null(cap_rows_find("/no/such/file"));
    base_error err = {0};
    cr_expect_null(cap_source_open("/no/such/file", NULL, &err));
    cr_expect_str_eq(err.msg, "cannot open /no/such/file: No such file or directory");

    /* A folder is a recording: timed by index, replayed by the watch, not waited on by table-check. */
    cap_source *cap = cap_source_open(fxd_demo(""), NULL, &err);
    cr_assert_not_null(cap, "%s", err.msg);
    cr_expect_not(cap_source_is_live(cap));
    cr_expect_eq(cap_source_kind_of(cap), CAP_SOURCE_IMAGES);
    cap_source_close(cap);
}

/* sim: is registered from above (datasets/), as the program does at its start, and read like any row. */
Test(sources, the_simulator_registers_from_above)
{
    base_error err = {0};
    cr_expect_null(cap_rows_find("sim:turn.json"), "not in capture's own table");
    cr_assert_eq(ds_loop_source_register(&err), 0, "%s", err.msg);
    cr_assert_eq(ds_loop_source_register(&err), 0, "again is fine");
    const cap_row *r = cap_rows_find("sim:turn.json");
    cr_assert_eq(r, &ds_loop_source_row);
    cr_expect_eq(r->live, CAP_SIMULATION);
    cr_expect_eq(r->flags & CAP_ROW_OWN_SETUP, CAP_ROW_OWN_SETUP);
    cr_expect(watch_source_brings_setup("sim:turn.json"));
    char got[600];
    table_source("sim:sequences/turn.json", "/tables/7", got, sizeof got);
    cr_expect_str_eq(got, "sim:/tables/7/sequences/turn.json");
}

Test(sources, a_scheme_is_one_rows)
{
    static const cap_row twin = {.name = "twin", .scheme = "testcam", .usage = "testcam:N", .about = "a twin",
                                 .open = testcam_open};
    static const cap_row no_open = {.name = "lazy", .scheme = "lazy", .usage = "lazy:", .about = "no open"};
    static const cap_row v4l2_again = {.name = "v4l2 again", .scheme = "v4l2", .usage = "v4l2:", .about = "",
                                       .open = testcam_open};
    base_error err = {0};
    cr_expect_eq(cap_rows_register(&testcam_row, &err), 0, "the same row again is fine");
    cr_expect_eq(cap_rows_register(&twin, &err), -1);
    cr_expect_str_eq(err.msg, "source row twin: the scheme testcam: is row testcam's");
    cr_expect_eq(cap_rows_register(&v4l2_again, &err), -1);
    cr_expect_str_eq(err.msg, "source row v4l2 again: the scheme v4l2: is row v4l2's");
    cr_expect_eq(cap_rows_register(&no_open, &err), -1);
    cr_expect_str_eq(err.msg, "source row lazy: needs an open and a scheme or a claims function");
}

/* The help lists every row, registered ones too, under one another. */
Test(sources, the_help_lists_every_row)
{
    char help[8192];
    cap_rows_help(help, sizeof help, "  ");
    cr_expect_not_null(strstr(help, "  libcamera[:N]  a libcamera camera (Raspberry Pi)\n"), "%s", help);
    cr_expect_not_null(strstr(help, "  testcam:N  a test camera of N frames\n"), "%s", help);
    char usages[1024];
    cap_rows_usages(usages, sizeof usages, 0, 1000);
    cr_expect_str_eq(usages, "libcamera[:N], v4l2:/dev/videoN, rtsp://... | http://..., frames/%04d.jpg, DIR, "
                             "FILE.jpg, FILE, testcam:N, testreel:PICTURE");
}
