/*
 * threads.c - see threads.h.
 */
#include "core/threads.h"

#include <pthread.h>

typedef struct {
    void (*fn)(void *item);
    void *item;
} piece;

static void *run(void *arg)
{
    piece *p = arg;
    p->fn(p->item);
    return NULL;
}

void vsg_run_threads(void (*fn)(void *item), void *items, size_t item_size, int n)
{
    piece p[VSG_THREADS_MAX];
    pthread_t th[VSG_THREADS_MAX];
    int started[VSG_THREADS_MAX] = {0};
    int t = n < VSG_THREADS_MAX ? n : VSG_THREADS_MAX;
    for (int k = 0; k < t; k++) {
        p[k].fn = fn;
        p[k].item = (char *)items + (size_t)k * item_size;
    }
    for (int k = 1; k < t; k++)
        started[k] = pthread_create(&th[k], NULL, run, &p[k]) == 0;
    if (t > 0)
        fn(p[0].item);
    for (int k = 1; k < t; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            fn(p[k].item);   /* no thread: done here */
    }
    for (int k = t; k < n; k++)
        fn((char *)items + (size_t)k * item_size);
}
