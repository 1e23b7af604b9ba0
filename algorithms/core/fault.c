/*
 * fault.c - see fault.h. Compiled to nothing without VSGPU_FAULT_INJECTION.
 */
#include "core/fault.h"

#ifdef VSGPU_FAULT_INJECTION

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[VSG_FAULT_KINDS] = {"host_alloc", "dev_alloc", "gpu_call",
                                                        "geos"};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int armed_kind = -1;          /* written once, under `once` */
static int64_t armed_n = 0;
static _Atomic int64_t counts[VSG_FAULT_KINDS];

const char *vsg_fault_kind_name(vsg_fault_kind kind)
{
    return kind >= 0 && kind < VSG_FAULT_KINDS ? kind_names[kind] : "?";
}

/* VSGPU_FAULT=<kind>:<n>, n >= 1; anything else arms nothing. */
static void read_env(void)
{
    const char *v = getenv("VSGPU_FAULT");
    if (!v || !*v)
        return;
    const char *colon = strchr(v, ':');
    if (!colon)
        return;
    for (int k = 0; k < VSG_FAULT_KINDS; k++) {
        size_t len = strlen(kind_names[k]);
        if ((size_t)(colon - v) == len && strncmp(v, kind_names[k], len) == 0) {
            char *end;
            long long n = strtoll(colon + 1, &end, 10);
            if (end != colon + 1 && *end == '\0' && n >= 1) {
                armed_kind = k;
                armed_n = n;
            }
            return;
        }
    }
}

int64_t vsg_fault_hit(vsg_fault_kind kind)
{
    pthread_once(&once, read_env);
    int64_t n = atomic_fetch_add(&counts[kind], 1) + 1;
    return (int)kind == armed_kind && n == armed_n ? n : 0;
}

void *vsg_malloc(size_t bytes)
{
    return vsg_fault_hit(VSG_FAULT_HOST_ALLOC) ? NULL : malloc(bytes);
}

void *vsg_calloc(size_t n, size_t size)
{
    return vsg_fault_hit(VSG_FAULT_HOST_ALLOC) ? NULL : calloc(n, size);
}

void *vsg_realloc(void *p, size_t bytes)
{
    return vsg_fault_hit(VSG_FAULT_HOST_ALLOC) ? NULL : realloc(p, bytes);
}

static _Atomic int64_t overlay_max_coords;

void vsg_fault_gauge_overlay(int64_t coords)
{
    int64_t cur = atomic_load(&overlay_max_coords);
    while (coords > cur && !atomic_compare_exchange_weak(&overlay_max_coords, &cur, coords))
        ;
}

/* VSGPU_FAULT_COUNT=<path>: the counts, at exit (or when the plugin is
 * unloaded), for the tests that sweep n over every event of a run. */
__attribute__((destructor)) static void write_counts(void)
{
    const char *path = getenv("VSGPU_FAULT_COUNT");
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    for (int k = 0; k < VSG_FAULT_KINDS; k++)
        fprintf(f, "%s %lld\n", kind_names[k], (long long)atomic_load(&counts[k]));
    fprintf(f, "geos_overlay_max_coords %lld\n", (long long)atomic_load(&overlay_max_coords));
    fclose(f);
}

#else

/* ISO C wants at least one declaration in a translation unit. */
typedef int vsg_fault_unused;

#endif
