/*
 * venue_https: the judge's page over https (`tableref venue serve`), HTTP/1.1
 * only. Mosquitto 2.0.11's own page server cannot do it: on a TLS listener
 * its libwebsockets offers HTTP/2 by ALPN, a browser takes it, and Mosquitto
 * answers with raw "HTTP/1.0 200" header bytes inside HTTP/2 frames, which
 * Chromium refuses (ERR_HTTP2_PROTOCOL_ERROR; curl --http1.1 gets the page).
 * This server selects "http/1.1" by ALPN and serves the files of one folder
 * (the set-up's www/: the page and venue.json) to GET and HEAD, one request
 * per connection, each connection on its own thread (at most max_clients at a
 * time, each given timeout_ms), nothing outside the folder, no listing.
 *
 * How to use (cli/cmd_venue.c):
 *   venue_https_options o; venue_https_options_default(&o);
 *   o.root = "DIR/www"; o.bind = "0.0.0.0"; o.port = 8443; o.cert = "DIR/tls/cert.pem"; o.key = "DIR/tls/key.pem";
 *   venue_https *s = venue_https_new(&o, &err);     // binds the port and loads the certificate
 *   ... drop root here (setuid): the files are read later, the key was read ...
 *   venue_https_run(s, &stop);                       // serves until stop is set (a signal handler)
 *   venue_https_free(s);
 */
#ifndef VENUE_HTTPS_H
#define VENUE_HTTPS_H

#include <signal.h>

#include "base_error.h"

typedef struct venue_https_options {
    const char *root;   /* the folder served ("/" is its index.html) */
    const char *bind;   /* an IPv4 or IPv6 address or a host name */
    int port;           /* 0: the kernel picks (venue_https_port says which) */
    const char *cert;   /* PEM: the certificate (with its chain) */
    const char *key;    /* PEM: its private key */
    int max_clients;    /* 64 connections at a time; more are closed at once */
    int timeout_ms;     /* 10000: a connection that is silent this long is closed */
} venue_https_options;

typedef struct venue_https venue_https;

void venue_https_options_default(venue_https_options *o);
/* Checks the folder, loads the certificate and key, binds and listens. NULL with err naming what failed. */
venue_https *venue_https_new(const venue_https_options *o, base_error *err);
/* The port listened on. */
int venue_https_port(const venue_https *s);
/* Serves until *stop is non-zero (checked every 200 ms). 0, or -1 when accepting failed for good. */
int venue_https_run(venue_https *s, volatile sig_atomic_t *stop);
/* Stops listening, waits (a few seconds at most) for the connections being served, frees. NULL is fine. */
void venue_https_free(venue_https *s);

#endif
