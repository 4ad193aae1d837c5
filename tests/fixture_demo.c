/* fixture_demo: the scratch folder and the demo set-up's files for the suites (see the header). */
#include "fixture_demo.h"

#include <stdio.h>
#include <stdlib.h>

#include "vision_test_util.h"

static char scratch[256];

const char *fxd_scratch_make(const char *name)
{
    snprintf(scratch, sizeof scratch, "/tmp/tableref-%s-XXXXXX", name);
    return mkdtemp(scratch);
}

int fxd_scratch_remove(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    return system(cmd);
}

const char *fxd_dir(void) { return scratch; }

const char *fxd_tmp(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", scratch, name);
    return buf[k];
}

const char *fxd_demo(const char *name)
{
    static char buf[8][1024];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/datasets/demo/%s", vt_source_root(), name);
    return buf[k];
}

int fxd_table_check(cli_result *res, const char *image, const char *calib, const char *extra)
{
    char args[4096];
    snprintf(args, sizeof args, "table-check '%s' --calib '%s' --roster '%s' %s", image, calib,
             fxd_demo("roster.json"), extra ? extra : "");
    return cli_run(args, res);
}
