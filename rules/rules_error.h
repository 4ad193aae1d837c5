/*
 * rules_error: the one error type every tableref module fills in.
 *
 * Functions that can fail take a `rules_error *err` (may be NULL) and return
 * a negative value; the message names the file and the field at fault, e.g.
 * "after.json: units[2].models[0].x_mm: expected a finite number".
 */
#ifndef RULES_ERROR_H
#define RULES_ERROR_H

#define RULES_ERROR_MAX 512

typedef struct rules_error {
    char msg[RULES_ERROR_MAX];
} rules_error;

/* printf-style; a NULL err is ignored. Always returns -1 so callers can `return rules_error_set(...)`. */
int rules_error_set(rules_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prefix the existing message with "prefix: " (used to add a file name). */
void rules_error_prefix(rules_error *err, const char *prefix);

#endif
