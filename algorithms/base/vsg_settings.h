/*
 * vsg_settings.h - the GPU settings and the GPU pool statistics, declared
 * once for every layer: the driver resolves the settings from its options,
 * the engine carries them, the execution backend opens the device with
 * them, and cuda/ fills the statistics that travel back up to the
 * statement's metadata (docs/gpu-runtime.md). Bottom target: includes
 * nothing of the project.
 */
#ifndef VSG_BASE_SETTINGS_H
#define VSG_BASE_SETTINGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the GPU pipeline runs. */
typedef enum {
    VSG_GPU_BACKEND_CUDA = 0,     /* the CUDA device (the product)          */
    VSG_GPU_BACKEND_HOST          /* the same pipeline on the host backend:
                                     how CI, which has no GPU, runs it     */
} vsg_gpu_backend;

/* The pool reserve when none is given: 4 GiB (the tiled 10 M-vertex
 * workloads' pools peak at 3.5 to 6.7 GB). */
#define VSG_GPU_POOL_RESERVE_DEFAULT ((int64_t)4 << 30)

/* The device and its memory tiers (configuration options of the same
 * names, docs/options.md). */
typedef struct {
    int device;           /* VSGPU_GPU_DEVICE: ordinal, default 0            */
    int64_t pool_limit;   /* VSGPU_GPU_POOL_LIMIT: bytes the pool may hold;
                             0: no cap (tier A)                              */
    int64_t pool_reserve; /* VSGPU_GPU_POOL_RESERVE: bytes the pool is grown
                             to beside the reading, before the first stage
                             (at most a quarter of the free memory); 0: none
                             (it grows as the stages ask)                   */
    int oom_safety;       /* VSGPU_GPU_OOM_SAFETY: tier B, on failure trim,
                             sync and retry (bounded)                        */
    int managed;          /* VSGPU_GPU_MANAGED_MEMORY: tier C, managed memory
                             with prefetch                                   */
    int nvtx;             /* VSGPU_NVTX: NVTX ranges around stages           */
    int steps;            /* VSGPU_PROFILE_STEPS: every step of a stage timed */
} vsg_gpu_settings;

/* Step marks kept between two flushes of the profile (VSGPU_PROFILE_STEPS):
 * the execution backend's labels and the CUDA runtime's events. */
#define VSG_STEP_MARKS_MAX 16384

static inline void vsg_gpu_settings_init(vsg_gpu_settings *s)
{
    s->device = 0;
    s->pool_limit = 0;
    s->pool_reserve = VSG_GPU_POOL_RESERVE_DEFAULT;
    s->oom_safety = 0;
    s->managed = 0;
    s->nvtx = 0;
    s->steps = 0;
}

/* The memory pool of a backend over its life. */
typedef struct {
    int64_t bytes_in_use;
    int64_t peak_bytes;
    int64_t allocations;
    int64_t retries;          /* tier B retries after a failed allocation */
    int64_t failed;           /* allocations that failed for good          */
    int64_t bytes_h2d;
    int64_t bytes_d2h;
    int64_t capacity_bytes;   /* what the backend may hand out at most: the
                                 pool limit, else (GPU) the device's free
                                 memory when it was opened; 0: unknown   */
} vsg_gpu_stats;

#ifdef __cplusplus
}
#endif
#endif
