/*
 * base_error: the one error type every tableref module fills in, and the
 * process exit statuses, defined once.
 *
 * Functions that can fail take a `base_error *err` (may be NULL) and return
 * a negative value. The caller branches on `err->code` (what went wrong,
 * a value that never changes meaning); the message is for people and names
 * the file and the field at fault, e.g.
 * "after.json: units[2].models[0].x_mm: expected a finite number".
 * Never branch on the message's text.
 *
 * How to use:
 *   base_error err = {0};
 *   if (base_json_number(obj, "x_mm", "units[2]", true, &x, &err) < 0) {
 *       fprintf(stderr, "%s\n", err.msg);
 *       return base_exit_for(&err);          // 2 for bad input
 *   }
 *   // inside a function that fails:
 *   return base_error_setc(err, BASE_E_IO, "cannot read %s: %s", path, strerror(errno));
 *   return base_error_set(err, "%s: width_mm: %g is out of range", name, w);   // BASE_E_INVALID
 */
#ifndef BASE_ERROR_H
#define BASE_ERROR_H

#define BASE_ERROR_MAX 512

/* What went wrong. New codes are appended; a code never changes meaning. */
typedef enum base_error_code {
    BASE_OK = 0,
    BASE_E_INVALID,     /* bad input: malformed, out of range, contradicting itself or the set-up */
    BASE_E_IO,          /* a file or device could not be read or written */
    BASE_E_NOT_FOUND,   /* a file, camera, id or field that is not there */
    BASE_E_NOMEM,       /* out of memory */
    BASE_E_TOO_LARGE,   /* over a documented size cap (file, picture, message) */
    BASE_E_NOT_REGULAR, /* not a regular file where one is expected (a FIFO, a device, a folder) */
    BASE_E_REFUSED,     /* an output that would overwrite an input, evidence or something not ours */
    BASE_E_DEVICE,      /* a camera or other device failed or was lost */
    BASE_E_UNSUPPORTED, /* a feature this build or this device does not have */
    BASE_E_INTERNAL,    /* a bug: please report it */
} base_error_code;

typedef struct base_error {
    base_error_code code;
    char msg[BASE_ERROR_MAX];
} base_error;

/* Process exit statuses, for every command (README, man page). */
enum base_exit {
    BASE_EXIT_OK = 0,          /* done; every move judged legal */
    BASE_EXIT_ILLEGAL = 1,     /* a rule was broken (or a table-check said no-go) */
    BASE_EXIT_BAD_INPUT = 2,   /* bad input or usage */
    BASE_EXIT_SOURCE_LOST = 3, /* watch: the camera or recording was lost */
};

/* printf-style with code BASE_E_INVALID; a NULL err is ignored. Always returns -1 so callers can
 * `return base_error_set(...)`. */
int base_error_set(base_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The same with an explicit code. */
int base_error_setc(base_error *err, base_error_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Prefix the existing message with "prefix: " (used to add a file name); the code is kept. */
void base_error_prefix(base_error *err, const char *prefix);

/* Empties err (code BASE_OK, message ""). */
void base_error_clear(base_error *err);

/* A short stable name of a code ("invalid", "io", ...), for logs and JSON. */
const char *base_error_code_name(base_error_code code);

/* The exit status a command ends with when it stops on this error: a lost device is
 * BASE_EXIT_SOURCE_LOST, everything else BASE_EXIT_BAD_INPUT. */
int base_exit_for(const base_error *err);

#endif
