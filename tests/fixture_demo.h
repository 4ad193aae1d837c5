/*
 * fixture_demo: what the suites that run tableref on the bundled demo set-up
 * (datasets/demo/) share: a scratch folder per test, made by the suite's
 * init and removed by its fini, the demo's files by name, and `table-check`
 * on the demo's roster.
 *
 *   static void setup(void) { cr_assert_not_null(fxd_scratch_make("checks")); }  // /tmp/tableref-checks-XXXXXX
 *   static void teardown(void) { (void)fxd_scratch_remove(); }                   // rm -rf it: system()'s status
 *   TestSuite(setup_checks, .init = setup, .fini = teardown);
 *   fxd_demo("calib.json")   // $TABLEREF_SOURCE_ROOT/datasets/demo/calib.json
 *   fxd_tmp("out")           // SCRATCH/out
 *   fxd_dir()                // SCRATCH
 *   cli_result res; cr_assert_eq(fxd_table_check(&res, image, calib, "--json"), 0); ... res.status
 *
 * fxd_demo and fxd_tmp answer in one of 8 buffers each, used in turn: up to
 * 8 answers of each may be held at once.
 */
#ifndef TABLEREF_TEST_FIXTURE_DEMO_H
#define TABLEREF_TEST_FIXTURE_DEMO_H

#include "cli_run.h"

/* Makes /tmp/tableref-NAME-XXXXXX (mkdtemp): its path, or NULL when it cannot be made. */
const char *fxd_scratch_make(const char *name);
/* Removes the scratch folder and all in it: system()'s status (0 when removed). */
int fxd_scratch_remove(void);
/* The scratch folder ("" before fxd_scratch_make). */
const char *fxd_dir(void);
/* SCRATCH/name. */
const char *fxd_tmp(const char *name);
/* The demo set-up's file `name`: $TABLEREF_SOURCE_ROOT/datasets/demo/name. */
const char *fxd_demo(const char *name);

/* Runs `tableref table-check 'IMAGE' --calib 'CALIB' --roster DEMO/roster.json EXTRA` (extra may be NULL) into
 * *res: cli_run's answer (0, or -1 when it could not be started). */
int fxd_table_check(cli_result *res, const char *image, const char *calib, const char *extra);

#endif
