/*
 * armylist_test_util: what the army list suites (tests/test_armylist*.c)
 * share to read an imported list.
 *
 * How to use:
 *   cr_expect_eq(at_models(&f->armies[0]), 95);           // the models of every unit of one army
 *   cr_expect(at_said(f, "no March Rate"));                // a message of the file holds this text
 */
#ifndef ARMYLIST_TEST_UTIL_H
#define ARMYLIST_TEST_UTIL_H

#include <stdbool.h>

#include "army_list.h"

/* The sum of the units' model counts. */
int at_models(const army_list *a);
/* Whether one of f->said holds `part`. */
bool at_said(const army_file *f, const char *part);

#endif
