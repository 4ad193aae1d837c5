#include "base_text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length (1-4) of the well-formed UTF-8 character at s with `avail` bytes left, or 0 when the
 * byte at s does not start one (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF). */
static size_t char_len(const unsigned char *s, size_t avail)
{
    const unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0; /* overlong */
        else if (c == 0xED)
            hi = 0x9F; /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90; /* overlong */
        else if (c == 0xF4)
            hi = 0x8F; /* past U+10FFFF */
    } else {
        return 0;
    }
    if (avail < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

size_t base_text_valid_prefix(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        size_t n = char_len(p + i, len - i);
        if (n == 0)
            break;
        i += n;
    }
    return i;
}

bool base_text_valid(const char *s, size_t len)
{
    return base_text_valid_prefix(s, len) == len;
}

size_t base_text_cut(const char *s, size_t budget)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s), i = 0;
    while (i < len) {
        size_t n = char_len(p + i, len - i);
        if (n == 0)
            n = 1;
        if (i + n > budget)
            break;
        i += n;
    }
    return i;
}

bool base_text_copy(char *out, size_t cap, const char *src)
{
    if (cap == 0)
        return src[0] == '\0';
    size_t n = base_text_cut(src, cap - 1);
    memmove(out, src, n);
    out[n] = '\0';
    return src[n] == '\0';
}

void base_text_trim_cut(char *s)
{
    /* Back over at most three continuation bytes to a lead byte; drop it if its character is cut. */
    size_t len = strlen(s), start = len;
    while (start > 0 && len - start < 3 && ((unsigned char)s[start - 1] & 0xC0) == 0x80)
        start--;
    if (start > 0 && ((unsigned char)s[start - 1] & 0xC0) == 0xC0) {
        start--;
        if (char_len((const unsigned char *)s + start, len - start) == 0)
            s[start] = '\0';
    }
}

bool base_text_format(char *out, size_t cap, const char *fmt, ...)
{
    if (cap == 0)
        return false;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, cap, fmt, ap);
    va_end(ap);
    if (n < 0) {
        out[0] = '\0';
        return false;
    }
    if ((size_t)n < cap)
        return true;
    base_text_trim_cut(out);
    return false;
}

/* A growing string; `bad` is set when memory ran out. */
typedef struct text_buf {
    char *s;
    size_t len, cap;
    bool bad;
} text_buf;

static void put(text_buf *b, const char *s, size_t n)
{
    if (b->bad)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->bad = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void put_hex(text_buf *b, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
    put(b, e, 4);
}

static char *finish(text_buf *b)
{
    if (b->bad) {
        free(b->s);
        return NULL;
    }
    if (!b->s)
        put(b, "", 0);
    return b->bad ? NULL : b->s;
}

/* What to do with each character: the modes of the escapers below. */
enum escape_mode { ESCAPE_INVALID, ESCAPE_VISIBLE, ESCAPE_TERMINAL, ESCAPE_MARKUP };

static bool is_control(const unsigned char *p, size_t n)
{
    if (n == 1)
        return p[0] < 0x20 || p[0] == 0x7F;
    return n == 2 && p[0] == 0xC2 && p[1] <= 0x9F; /* U+0080..U+009F */
}

static char *escape(const char *src, enum escape_mode mode)
{
    text_buf b = {0};
    const unsigned char *p = (const unsigned char *)src;
    size_t len = strlen(src), i = 0;
    while (i < len && !b.bad) {
        size_t n = char_len(p + i, len - i);
        if (n == 0) {
            put_hex(&b, p[i]);
            i++;
            continue;
        }
        if (mode != ESCAPE_INVALID && is_control(p + i, n) && !(mode == ESCAPE_VISIBLE && p[i] == '\n')) {
            for (size_t k = 0; k < n; k++)
                put_hex(&b, p[i + k]);
        } else if (mode == ESCAPE_TERMINAL && p[i] == '\\') {
            put(&b, "\\\\", 2);
        } else if (mode == ESCAPE_MARKUP && strchr("&<>\"'", p[i]) && n == 1) {
            const char *ent = p[i] == '&' ? "&amp;" : p[i] == '<' ? "&lt;" : p[i] == '>' ? "&gt;"
                            : p[i] == '"' ? "&quot;" : "&apos;";
            put(&b, ent, strlen(ent));
        } else {
            put(&b, (const char *)p + i, n);
        }
        i += n;
    }
    return finish(&b);
}

char *base_text_escape_invalid(const char *src)
{
    return escape(src, ESCAPE_INVALID);
}

char *base_text_escape_visible(const char *src)
{
    return escape(src, ESCAPE_VISIBLE);
}

char *base_text_escape_terminal(const char *src)
{
    return escape(src, ESCAPE_TERMINAL);
}

char *base_text_escape_markup(const char *src)
{
    return escape(src, ESCAPE_MARKUP);
}
