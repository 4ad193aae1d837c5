/*
 * The stream row: network streams (rtsp://, http://, any SCHEME://...). Not
 * read in this build (FFmpeg's network demuxers are not wired): opening one
 * says so. The row is here so that a URL is always a URL, to every reader
 * (a table file keeps it as written, never a path under its folder), and so
 * that wiring streams is this file alone.
 */
#include <string.h>

#include "cap_rows.h"

/* SCHEME://... with a scheme of letters, digits, '+', '-' or '.' (RFC 3986), starting with a letter. */
static int claims(const char *source)
{
    const char *sep = strstr(source, "://");
    if (!sep || sep == source || !((source[0] | 32) >= 'a' && (source[0] | 32) <= 'z'))
        return 0;
    static const char scheme_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.";
    return strspn(source, scheme_chars) == (size_t)(sep - source);
}

static int open_stream(const char *url, const cap_source_config *cfg, cap_backend *out, base_error *err)
{
    (void)cfg, (void)out;
    return base_error_setc(err, BASE_E_UNSUPPORTED,
                           "%s: network streams (rtsp://, http://, ...) are not supported in this build: record "
                           "the stream to a file, or give a camera (v4l2:, libcamera)",
                           url);
}

const cap_row cap_row_stream = {
    .name = "stream",
    .claims = claims,
    .usage = "rtsp://... | http://...",
    .about = "a network stream: not supported in this build (said when opened)",
    .live = CAP_LIVE,
    .arg = CAP_ARG_URL,
    .options = 0, /* none read until streams are wired */
    .kind = CAP_SOURCE_OTHER,
    .open = open_stream,
};
