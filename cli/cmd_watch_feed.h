/*
 * cmd_watch_feed: `tableref watch`'s venue feed options (--mqtt, --event, --table N, --mqtt-user,
 * --mqtt-password-file): checked together, and the feed attached to the session (venue/venue_feed.h), for a
 * camera, a recording or the simulated table alike.
 *
 * How to use (cli/cmd_watch.c):
 *   feed_opts f = {...};  int with = watch_feed_check(&f);   // -1 said, 0 no feed, 1 a feed to attach
 *   if (with == 1 && watch_feed_attach(session, &f) < 0) ... // said on stderr
 */
#ifndef CMD_WATCH_FEED_H
#define CMD_WATCH_FEED_H

#include "watch_session.h"

typedef struct feed_opts {
    const char *mqtt, *event, *user, *password_file;
    int table;
} feed_opts;

/* The feed's options together, or none of them: 1 a feed to attach, 0 none, -1 refused (said on stderr). */
int watch_feed_check(const feed_opts *o);
/* The venue feed on the session: every event out, judges' commands in. 0, or -1 (said on stderr). */
int watch_feed_attach(watch_session *s, const feed_opts *o);

#endif
