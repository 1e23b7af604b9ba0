/*
 * threads.h - n pieces of work at once, for the few places below the
 * engine's pool that split a large job themselves (the pre-fault of fresh
 * buffers, the WKB decoder's slices): piece 0 on the calling thread, the
 * others on threads of their own; a piece whose thread does not start is
 * run by the caller afterwards, so the work is always done.
 */
#ifndef VSG_CORE_THREADS_H
#define VSG_CORE_THREADS_H

#include <stddef.h>

enum { VSG_THREADS_MAX = 64 };

/* fn(items + k * item_size) for k in [0, n), n <= VSG_THREADS_MAX (more
 * are run on the caller), all finished on return. */
void vsg_run_threads(void (*fn)(void *item), void *items, size_t item_size, int n);

#endif
