#include "rules_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int rules_error_set(rules_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void rules_error_prefix(rules_error *err, const char *prefix)
{
    if (!err || !prefix)
        return;
    /* Shift the message right and write the prefix in front; truncation keeps the prefix. */
    size_t plen = strlen(prefix) + 2, mlen = strlen(err->msg);
    if (plen >= RULES_ERROR_MAX)
        plen = RULES_ERROR_MAX - 1;
    if (plen + mlen >= RULES_ERROR_MAX)
        mlen = RULES_ERROR_MAX - 1 - plen;
    memmove(err->msg + plen, err->msg, mlen);
    err->msg[plen + mlen] = '\0';
    memcpy(err->msg, prefix, plen - 2);
    err->msg[plen - 2] = ':';
    err->msg[plen - 1] = ' ';
}
