/*
 * prefault.c - see prefault.h.
 */
#include "core/prefault.h"

#include "core/threads.h"

#include <stdint.h>
#include <unistd.h>

enum { PAGE = 4096, MAX_THREADS = 8 };
#define MIN_SHARE ((size_t)4 << 20)   /* bytes per thread at least */

typedef struct {
    const vsg_prefault_span *spans;
    int n;
    size_t from, to;   /* byte range over the spans laid end to end */
} share;

static void touch(const share *s)
{
    size_t base = 0;
    for (int i = 0; i < s->n && base < s->to; i++) {
        size_t b = s->spans[i].p ? s->spans[i].bytes : 0;
        size_t lo = s->from > base ? s->from - base : 0;
        size_t hi = s->to - base < b ? s->to - base : b;
        if (lo < hi) {
            /* the range's first byte, then the first byte of each page */
            volatile unsigned char *p = s->spans[i].p;
            uintptr_t a = (uintptr_t)(p + lo), end = (uintptr_t)(p + hi);
            *(volatile unsigned char *)a = 0;
            for (a = (a / PAGE + 1) * PAGE; a < end; a += PAGE)
                *(volatile unsigned char *)a = 0;
        }
        base += b;
    }
}

static void touch_item(void *item)
{
    touch(item);
}

void vsg_prefault(const vsg_prefault_span *spans, int n)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += spans[i].p ? spans[i].bytes : 0;
    if (total == 0)
        return;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int t = (int)(total / MIN_SHARE);
    t = t > MAX_THREADS ? MAX_THREADS : t;
    t = cpus > 0 && t > cpus ? (int)cpus : t;
    t = t < 1 ? 1 : t;
    share sh[MAX_THREADS];
    for (int k = 0; k < t; k++) {
        sh[k].spans = spans;
        sh[k].n = n;
        sh[k].from = total / (size_t)t * (size_t)k;
        sh[k].to = k == t - 1 ? total : total / (size_t)t * (size_t)(k + 1);
    }
    /* share 0 is the caller's; a thread that does not start is done there */
    vsg_run_threads(touch_item, sh, sizeof *sh, t);
}
