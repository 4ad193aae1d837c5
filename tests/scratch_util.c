/* scratch_util: a test suite's scratch folder (scratch_util.h). */
#define _GNU_SOURCE
#include "scratch_util.h"

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>

#include "base_file.h"

char scr_dir[256];

void scr_make(const char *name)
{
    snprintf(scr_dir, sizeof scr_dir, "/tmp/tableref-%s-XXXXXX", name);
    cr_assert_not_null(mkdtemp(scr_dir));
    base_file_forget_inputs();
}

void scr_remove(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scr_dir);
    cr_expect_eq(system(cmd), 0);
}

char *scr_in(const char *name)
{
    static char buf[6][600];
    static int k;
    k = (k + 1) % 6;
    snprintf(buf[k], sizeof buf[k], "%s/%s", scr_dir, name);
    return buf[k];
}

void scr_put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}
