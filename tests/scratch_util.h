/*
 * scratch_util: a scratch folder for a test suite that writes files
 * (test_base_file.c, test_base_plan.c): made fresh before each test,
 * removed after it.
 *
 * How to use:
 *   static void setup(void) { scr_make("base-file"); }      // /tmp/tableref-base-file-XXXXXX
 *   TestSuite(base_file, .init = setup, .fini = scr_remove);
 *   scr_put(scr_in("a.txt"), "text");                       // scr_in: scr_dir/NAME (six live at once)
 */
#ifndef SCRATCH_UTIL_H
#define SCRATCH_UTIL_H

/* The current test's folder ("" before scr_make). */
extern char scr_dir[256];

/* A fresh folder /tmp/tableref-NAME-XXXXXX in scr_dir, and base_file's inputs forgotten (a new command). */
void scr_make(const char *name);
/* Removes scr_dir and all in it. */
void scr_remove(void);
/* scr_dir/name, in one of six static buffers (the seventh call reuses the first). */
char *scr_in(const char *name);
/* Writes text to path (the test fails when it cannot). */
void scr_put(const char *path, const char *text);

#endif
