#include "base_error.h"
#include "base_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void set_va(base_error *err, base_error_code code, const char *fmt, va_list ap)
{
    err->code = code;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    base_text_trim_cut(err->msg); /* a message cut at its size stays valid UTF-8 */
}

int base_error_set(base_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        set_va(err, BASE_E_INVALID, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int base_error_setc(base_error *err, base_error_code code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        set_va(err, code, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void base_error_clear(base_error *err)
{
    if (err) {
        err->code = BASE_OK;
        err->msg[0] = '\0';
    }
}

void base_error_prefix(base_error *err, const char *prefix)
{
    if (!err || !prefix)
        return;
    /* Shift the message right and write the prefix in front; truncation keeps the prefix. */
    size_t plen = strlen(prefix) + 2, mlen = strlen(err->msg);
    if (plen >= BASE_ERROR_MAX)
        plen = BASE_ERROR_MAX - 1;
    if (plen + mlen >= BASE_ERROR_MAX)
        mlen = BASE_ERROR_MAX - 1 - plen;
    memmove(err->msg + plen, err->msg, mlen);
    err->msg[plen + mlen] = '\0';
    memcpy(err->msg, prefix, plen - 2);
    err->msg[plen - 2] = ':';
    err->msg[plen - 1] = ' ';
    base_text_trim_cut(err->msg);
}

const char *base_error_code_name(base_error_code code)
{
    static const char *const names[] = {
        [BASE_OK] = "ok",
        [BASE_E_INVALID] = "invalid",
        [BASE_E_IO] = "io",
        [BASE_E_NOT_FOUND] = "not-found",
        [BASE_E_NOMEM] = "out-of-memory",
        [BASE_E_TOO_LARGE] = "too-large",
        [BASE_E_NOT_REGULAR] = "not-a-regular-file",
        [BASE_E_REFUSED] = "refused",
        [BASE_E_DEVICE] = "device",
        [BASE_E_UNSUPPORTED] = "unsupported",
        [BASE_E_INTERNAL] = "internal",
    };
    if ((unsigned)code < sizeof names / sizeof names[0] && names[code])
        return names[code];
    return "unknown";
}

int base_exit_for(const base_error *err)
{
    return err && err->code == BASE_E_DEVICE ? BASE_EXIT_SOURCE_LOST : BASE_EXIT_BAD_INPUT;
}
