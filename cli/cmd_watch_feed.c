/* tableref watch's venue feed: its options and the feed on the session (cmd_watch_feed.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_file.h"
#include "cmd_watch_feed.h"
#include "tableref_config.h"
#if TABLEREF_HAVE_VENUE
#include "venue_feed.h"
#endif


#if TABLEREF_HAVE_VENUE
/* The password: the file's first line without its line end. */
static int read_password(const char *path, char *out, size_t cap)
{
    /* A regular file only: a FIFO would wait for ever. */
    char *text = NULL;
    size_t len = 0;
    base_error err;
    if (base_file_read_all(path, 64 << 10, "a password file", &text, &len, &err) < 0) {
        fprintf(stderr, "tableref watch: --mqtt-password-file %s\n", err.msg);
        return -1;
    }
    size_t line = strcspn(text, "\r\n");
    if (line < cap)
        memcpy(out, text, line);
    out[line < cap ? line : 0] = 0;
    memset(text, 0, len);
    free(text);
    if (line >= cap) {
        fprintf(stderr, "tableref watch: --mqtt-password-file %s: the first line is over %zu bytes\n", path, cap - 1);
        return -1;
    }
    if (!out[0]) {
        fprintf(stderr, "tableref watch: --mqtt-password-file %s: empty (the password is its first line)\n", path);
        return -1;
    }
    return 0;
}

int watch_feed_attach(watch_session *s, const feed_opts *o)
{
    venue_config vc;
    venue_config_default(&vc);
    base_error err;
    /* MQTT allows 65535 bytes; 4 KB is far above any generated or typed password, and one over it is an error. */
    static char password[4096];
    password[0] = 0;
    if (o->password_file && read_password(o->password_file, password, sizeof password) < 0)
        return -1;
    if (venue_parse_broker(o->mqtt, &vc, &err) < 0) {
        fprintf(stderr, "tableref watch: --mqtt: %s\n", err.msg);
        return -1;
    }
    vc.event = o->event, vc.table = o->table;
    vc.username = o->user, vc.password = password[0] ? password : NULL;
    int rc = watch_session_attach_feed(s, &vc, &err);
    memset(password, 0, sizeof password);
    if (rc < 0)
        fprintf(stderr, "tableref watch: venue feed: %s\n", err.msg);
    return rc;
}
#endif

int watch_feed_check(const feed_opts *o)
{
    if (!o->mqtt) {
        if (o->event || o->user || o->password_file || o->table) {
            fprintf(stderr, "tableref watch: --event, --table N (a number), --mqtt-user and --mqtt-password-file go "
                            "with --mqtt HOST\n");
            return -1;
        }
        return 0;
    }
#if TABLEREF_HAVE_VENUE
    if (!o->event || !o->table) {
        fprintf(stderr, "tableref watch: --mqtt needs --event NAME and --table N (this table's number)\n");
        return -1;
    }
    if (o->password_file && !o->user) {
        fprintf(stderr, "tableref watch: --mqtt-password-file goes with --mqtt-user NAME\n");
        return -1;
    }
    return 1;
#else
    fprintf(stderr, "tableref watch: --mqtt: this tableref was built without the venue feed (libmosquitto)\n");
    return -1;
#endif
}

#if !TABLEREF_HAVE_VENUE
int watch_feed_attach(watch_session *s, const feed_opts *o)
{
    (void)s, (void)o;
    return -1;
}
#endif
