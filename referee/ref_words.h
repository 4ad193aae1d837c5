/*
 * ref_words: a judged move in words, once: each unit's call in one
 * sentence with the +/- of what it measured, and the report around it
 * (text and JSON). The sentence is rules_words_call's (rules/rules_words.h,
 * below the overlay and the venue feed, which print it too): every place
 * that describes a move (the terminal, the report's JSON, the event log,
 * the subtitles, the venue feed) says the same thing in the same words.
 *
 * How to use:
 *   char s[REF_WORDS_MAX];
 *   ref_words_unit(j, i, s, sizeof s);   // j: a ref_judgement (ref_judge.h), i: a unit of j->report
 *   ref_words_print(j, stdout);          // the readable report; each unit's "call:" line is its sentence
 *   cJSON *json = ref_words_json(j);     // the report's JSON; each unit's "sentence"; cJSON_Delete
 */
#ifndef REF_WORDS_H
#define REF_WORDS_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "ref_judge.h"
#include "rules_words.h"

#define REF_WORDS_MAX RULES_WORDS_MAX

/* Unit `i` of the judgement's report in one sentence (rules_words_call with the judged snapshots). */
void ref_words_unit(const ref_judgement *j, size_t i, char *buf, size_t cap);
/* The report as a readable table (rules_report_print) with each unit's sentence. */
void ref_words_print(const ref_judgement *j, FILE *out);
/* The report's JSON (docs/formats.md) with each unit's sentence; NULL when out of memory. */
cJSON *ref_words_json(const ref_judgement *j);

#endif
