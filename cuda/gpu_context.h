/*
 * gpu_context.h - the state behind a vsg_gpu, shared by the runtime's own
 * files (runtime.cu, memory.cu, primitives.cu, stage_timer.cu). Stage
 * launchers do not include it: they use gpu_internal.h.
 *
 * All state of one statement's device context lives in this one struct.
 * A vsg_gpu is used by one host thread at a time (the statement's
 * orchestrator); nothing here locks.
 */
#ifndef VSGPU_GPU_CONTEXT_H
#define VSGPU_GPU_CONTEXT_H

#include <cuda_runtime.h>

#include <unordered_map>
#include <utility>
#include <vector>

#include "gpu_internal.h"

#define VSG_GPU_MAX_STAGES 256
#define VSG_GPU_STAGE_DEPTH 8     /* stages open inside each other        */
#define VSG_GPU_OOM_RETRIES 3     /* tier B: retries after a failed alloc */

/* One live block: its size for the byte accounting, and which tier made
 * it (pool blocks are freed on the stream, managed ones with cudaFree). */
struct vsg_gpu_block {
    size_t bytes;
    bool managed;
};

struct vsg_gpu_stage {
    char name[64];
    cudaEvent_t begin, end;     /* created on first use, reused after resets */
    int64_t rows_in, rows_out;
    bool ended;
    bool timed;                 /* both events recorded without error       */
};

struct vsg_gpu {
    vsg_gpu_settings args;
    int device;
    char name[256];
    int sm_count;
    int threads_per_sm;
    bool prefetch_ok;           /* concurrentManagedAccess: prefetch allowed */
    cudaStream_t stream;
    cudaMemPool_t pool;

    /* Memory accounting (memory.cu): every live block by address, and the
     * managed blocks freed since the last fence, released at the next
     * vsg_gpu_sync (cudaFree would synchronise the whole device). */
    std::unordered_map<void *, vsg_gpu_block> *blocks;
    std::vector<std::pair<void *, size_t>> *deferred;
    vsg_gpu_stats stats;

    /* Stage timers (stage_timer.cu). */
    vsg_gpu_stage stages[VSG_GPU_MAX_STAGES];
    int n_stages;
    int open[VSG_GPU_STAGE_DEPTH];
    int n_open;
    int depth_overflow;         /* begun deeper than VSG_GPU_STAGE_DEPTH    */
    int64_t stages_dropped;     /* begun past the capacity: not timed       */

    /* Step marks (step_timer.cu): events made on first use. */
    cudaEvent_t *marks;

    char error[512];
};

/* runtime.cu: a memory pool of tier A on the device (pinned device memory,
 * freed memory kept while the pool lives). */
cudaError_t vsg_gpu_pool_make(int device, cudaMemPool_t *out);
/* warmup.cu: the pool the warm-up grew for this device, now the caller's
 * (nullptr: none ready). */
cudaMemPool_t vsg_cuda_warm_pool_take(int device);
/* memory.cu: releases everything the context holds (close). */
void vsg_gpu_memory_release_all(vsg_gpu *g);
/* memory.cu: frees the managed blocks whose release waited for a fence;
 * call only after the stream is synchronised. */
void vsg_gpu_memory_release_deferred(vsg_gpu *g);
/* stage_timer.cu: destroys the events (close). */
void vsg_gpu_stages_destroy(vsg_gpu *g);
/* step_timer.cu: destroys the step marks' events (close). */
void vsg_gpu_marks_destroy(vsg_gpu *g);
/* runtime.cu: makes g's device current for this host thread (CUDA's
 * current device is per thread; statements may run on any thread). */
vsg_status vsg_gpu_bind(vsg_gpu *g);
/* runtime.cu: records a message that is not a CUDA error. */
vsg_status vsg_gpu_failf(vsg_gpu *g, vsg_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
