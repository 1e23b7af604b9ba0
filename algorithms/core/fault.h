/*
 * fault.h - fault injection, for the tests only. Builds with
 * VSGPU_FAULT_INJECTION (test builds: -DVSGPU_BUILD_TESTS=ON, the default)
 * count events of four kinds and can make one of them fail; other builds
 * compile every hook to "no fault" and the allocation wrappers to plain
 * malloc/calloc/realloc.
 *
 * Environment, read once per process at the first event:
 *
 *   VSGPU_FAULT=<kind>:<n>     the n-th event of <kind> (1-based, counted
 *                              from the start of the process, all threads
 *                              together) fails; every other one succeeds
 *   VSGPU_FAULT_COUNT=<path>   at exit, the process writes one line
 *                              "<kind> <count>" per kind to <path>
 *
 * Kinds and what a failure looks like:
 *
 *   host_alloc  the engine's host allocations on its hot paths (batches,
 *               results, columnar arrays, the pipeline's host buffers, the
 *               host backend's memory and sort scratch, dissolve's
 *               arrays): vsg_malloc/vsg_calloc/vsg_realloc return NULL
 *   dev_alloc   vsg_exec_alloc on either backend: VSG_ERR_GPU_OOM, as the
 *               device pool answers when it is exhausted
 *   gpu_call    each backend call of exec.h (memset, upload, download,
 *               copy, sync, scan, sort) and each stage launch
 *               (vsg_exec_launch): VSG_ERR_GPU_KERNEL, as a CUDA error
 *   geos        each GEOS overlay made through the worker's doors
 *               (core/worker.h: intersection, clip by rectangle, union,
 *               unary union): NULL and a GEOS-like message, as a
 *               TopologyException
 *
 * Counting uses atomics: with several threads the n-th event is still
 * exactly one event, but which one depends on scheduling; with one thread
 * (VSGPU_NUM_THREADS=1) a run is deterministic.
 */
#ifndef VSG_CORE_FAULT_H
#define VSG_CORE_FAULT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef enum {
    VSG_FAULT_HOST_ALLOC = 0,
    VSG_FAULT_DEV_ALLOC,
    VSG_FAULT_GPU_CALL,
    VSG_FAULT_GEOS,
    VSG_FAULT_KINDS
} vsg_fault_kind;

#ifdef VSGPU_FAULT_INJECTION

/* Counts one event of `kind`; returns its number (>= 1) when it is the one
 * to fail, 0 otherwise. */
int64_t vsg_fault_hit(vsg_fault_kind kind);
/* "host_alloc", "dev_alloc", "gpu_call", "geos". */
const char *vsg_fault_kind_name(vsg_fault_kind kind);

void *vsg_malloc(size_t bytes);
void *vsg_calloc(size_t n, size_t size);
void *vsg_realloc(void *p, size_t bytes);

/* A work gauge, not a fault: the largest operand (coordinates) of any GEOS
 * intersection the overlays make (overlay/preclip.c, which counts the
 * operands anyway), written to the VSGPU_FAULT_COUNT file as
 * "geos_overlay_max_coords <n>", so that tests can check that work does
 * not grow with one geometry (the pre-clip of overlay/preclip.h) by
 * counting it, never by timing it. */
void vsg_fault_gauge_overlay(int64_t coords);

#else

static inline void vsg_fault_gauge_overlay(int64_t coords) { (void)coords; }

static inline int64_t vsg_fault_hit(vsg_fault_kind kind)
{
    (void)kind;
    return 0;
}
static inline void *vsg_malloc(size_t bytes) { return malloc(bytes); }
static inline void *vsg_calloc(size_t n, size_t size) { return calloc(n, size); }
static inline void *vsg_realloc(void *p, size_t bytes) { return realloc(p, bytes); }
/* no event ever fails here, so nothing names one; declared for the
 * callers that name the kind of a failed event */
static inline const char *vsg_fault_kind_name(vsg_fault_kind kind)
{
    (void)kind;
    return "";
}

#endif

#endif
