/*
 * vis_parallel: run independent pieces of work on a few threads.
 *
 * The readers of tags (vis_tagread) look at the picture and write only their
 * own result, so a loop over candidates splits across threads with nothing
 * shared but a counter. Items are handed out one at a time (reads differ
 * a lot in cost: an empty place stops early, a tag runs every stage).
 *
 * How to use:
 *   static void read_one(void *ctx, size_t i) { my_ctx *c = ctx; c->out[i] = ...; }
 *   vis_parallel_for(2, n, read_one, &ctx);   // returns when all n are done
 * With threads <= 1, n < 2, or when a thread cannot start, the remaining
 * items run on the calling thread: the result never depends on the threads.
 */
#ifndef VIS_PARALLEL_H
#define VIS_PARALLEL_H

#include <stddef.h>

typedef void (*vis_parallel_fn)(void *ctx, size_t i);

/* Calls fn(ctx, i) once for every i in [0, n), on up to `threads` threads (the caller's included). */
void vis_parallel_for(int threads, size_t n, vis_parallel_fn fn, void *ctx);

#endif
