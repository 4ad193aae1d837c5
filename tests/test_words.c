/*
 * words: rules_words, the one sentence per call. The rule for tiny path
 * steps (left out when what they print is zero: under 0.005" of length, a
 * pivot under 0.05 deg), the +/- shown from 0.005" on, and the sentence of
 * each verdict, against exact strings.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "rules_words.h"

#define PM "\xC2\xB1"

Test(words, a_step_is_left_out_only_when_it_prints_as_zero)
{
    cr_expect_not(rules_words_step_shown(&(rules_step){RULES_STEP_FORWARD, 0.12, 0}), "0.12 mm reads 0.00\"");
    cr_expect(rules_words_step_shown(&(rules_step){RULES_STEP_FORWARD, 0.13, 0}), "0.13 mm reads 0.01\"");
    cr_expect(rules_words_step_shown(&(rules_step){RULES_STEP_WHEEL_LEFT, 0.5, 0.004}),
              "a 0.5 mm wheel reads 0.02\" (the watch used to hide wheels under 1 mm)");
    cr_expect(rules_words_step_shown(&(rules_step){RULES_STEP_PIVOT, 0, 0.1745}),
              "a pivot has no length: 10 deg is worth reading (the terminal used to hide every pivot)");
    cr_expect_not(rules_words_step_shown(&(rules_step){RULES_STEP_PIVOT, 0, 0.0005}), "0.03 deg reads 0.0 deg");
}

Test(words, a_length_with_its_plus_minus)
{
    char b[64];
    rules_words_length(263.652, 0.606, b, sizeof b);
    cr_expect_str_eq(b, "10.38\" " PM " 0.02\"");
    rules_words_length(263.652, 0.1, b, sizeof b);
    cr_expect_str_eq(b, "10.38\"", "+/- under 0.005\": not shown");
    rules_words_length(263.652, NAN, b, sizeof b);
    cr_expect_str_eq(b, "10.38\"");
}

/* A unit's report by hand: two models, a March path with a vanishing wheel the search added. */
static void march(rules_unit_report *ur)
{
    rules_unit_report_init(ur, "spears", "red", RULES_MOVE_MARCH, false);
    ur->rate_mm = 254.0;
    ur->has_path = true;
    ur->path.n_steps = 3;
    ur->path.steps[0] = (rules_step){RULES_STEP_WHEEL_RIGHT, 0.1, -0.0012};
    ur->path.steps[1] = (rules_step){RULES_STEP_FORWARD, 127.0, 0};
    ur->path.steps[2] = (rules_step){RULES_STEP_WHEEL_RIGHT, 56.77, -1.135};
    ur->n_models = 2;
    ur->models = calloc(2, sizeof *ur->models);
    ur->models[0] = (rules_model_move){"spears-1", 172.5, false};
    ur->models[1] = (rules_model_move){"spears-7", 200.0, false};
}

Test(words, the_call_of_each_verdict)
{
    rules_unit_report ur;
    char s[RULES_WORDS_MAX], how[RULES_WORDS_MAX];
    march(&ur);
    rules_words_path(&ur, how, sizeof how);
    cr_expect_str_eq(how, "forward 5.00\", wheel 2.24\" about the right front corner (65.0 deg right)");
    rules_words_call(&ur, NULL, NULL, s, sizeof s);
    cr_expect_str_eq(s, "spears: march (forward 5.00\", wheel 2.24\" about the right front corner (65.0 deg right)), "
                        "legal [spears-7 moved 7.87\", limit 10.00\"]");
    rules_violation *v = rules_unit_report_add_violation(&ur, "MU-MODEL-DIST", RULES_QTY_LENGTH, 263.652, 254.0,
                                                         "Model spears-7 ends 10.38\" from where it started.");
    rules_violation_add_model(v, "spears-7");
    rules_words_call(&ur, NULL, NULL, s, sizeof s);
    cr_expect_str_eq(s, "spears: march, ILLEGAL: Model spears-7 ends 10.38\" from where it started. "
                        "[measured 10.38\", limit 10.00\"]");
    rules_unit_report_set_verdict(&ur, RULES_VERDICT_CANNOT_TELL, "spears-7 may end either side of 10\"");
    rules_words_call(&ur, NULL, NULL, s, sizeof s);
    cr_expect_str_eq(s, "spears: march, cannot tell: spears-7 may end either side of 10\" "
                        "[spears-7 moved 7.87\", limit 10.00\"]");
    rules_unit_report_set_verdict(&ur, RULES_VERDICT_NOT_SEEN, "unit spears: not seen in the after picture");
    rules_words_call(&ur, NULL, NULL, s, sizeof s);
    cr_expect_str_eq(s, "spears: not seen, cannot judge: unit spears: not seen in the after picture");
    char small[24];
    rules_words_call(&ur, NULL, NULL, small, sizeof small);
    cr_expect_eq(strlen(small), sizeof small - 1, "cut to fit, never past the buffer");
    rules_unit_report_clear(&ur);
}
