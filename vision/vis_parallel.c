#include "vis_parallel.h"

#include <pthread.h>
#include <stdatomic.h>

#define VIS_PARALLEL_MAX 16

typedef struct job {
    atomic_size_t next;
    size_t n;
    vis_parallel_fn fn;
    void *ctx;
} job;

static void *work(void *arg)
{
    job *j = arg;
    for (size_t i; (i = atomic_fetch_add(&j->next, 1)) < j->n;)
        j->fn(j->ctx, i);
    return NULL;
}

void vis_parallel_for(int threads, size_t n, vis_parallel_fn fn, void *ctx)
{
    job j = {.n = n, .fn = fn, .ctx = ctx};
    atomic_init(&j.next, 0);
    pthread_t tid[VIS_PARALLEL_MAX];
    int started = 0;
    const int want = threads < 1 ? 1 : threads > VIS_PARALLEL_MAX ? VIS_PARALLEL_MAX : threads;
    for (int t = 1; t < want && n >= 2; t++)
        if (pthread_create(&tid[started], NULL, work, &j) == 0)
            started++;
    work(&j);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}
