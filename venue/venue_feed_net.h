/*
 * venue_feed_net: the feed's two threads and libmosquitto's callbacks
 * (venue_feed_net.c), started by the caller's side (venue_feed.c). Internal
 * to venue/.
 *
 * How to use (venue_feed.c, once the client is made):
 *   venue_feed_install_callbacks(f);
 *   pthread_create(&f->net_thread, NULL, venue_feed_net_main, f);
 *   pthread_create(&f->send_thread, NULL, venue_feed_send_main, f);
 * and to stop: set f->stop_net (the network thread) and f->stop_send under mu (the sender), then join both.
 */
#ifndef VENUE_FEED_NET_H
#define VENUE_FEED_NET_H

#include "venue_feed_shared.h"

/* libmosquitto's connect, disconnect, publish and message callbacks on f->mosq. */
void venue_feed_install_callbacks(venue_feed *f);
/* The network thread: libmosquitto's loop, connecting and reconnecting with back-off until stop_net. */
void *venue_feed_net_main(void *arg);
/* The sender thread: queued messages and retained slots to libmosquitto while connected, the picture encoded. */
void *venue_feed_send_main(void *arg);

#endif
