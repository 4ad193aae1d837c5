/*
 * rule_dummy: a rule only a test build has (meson setup -Dtest_rule=true):
 * the row RULES_MOVE_DUMMY_MOVE of rules_moves.def ("dummy-move", said
 * "dummy move"), to show that a rule added as a file pair and a row reaches
 * every interface (tests/test_rule_table.c walks them). Its judge calls the
 * move a Dummy Move and judges it as a March (each model within its March
 * Rate, the path, the formation kept).
 *
 * How to use: nothing calls it by name; its row does (rules_rulebook.h):
 *   tableref check BEFORE.json AFTER.json --move dummy-move
 */
#ifndef RULE_DUMMY_H
#define RULE_DUMMY_H

#include "rules_rule.h"

int rules_rule_dummy_move(const rules_judge_input *in, rules_report *out, base_error *err);

#endif
