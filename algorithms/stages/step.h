/*
 * step.h - what the stage orchestrators share to run one step on either
 * backend: the host loop or the CUDA launcher (GPU_OR returns the
 * launcher's status, or VSG_ERR_NO_GPU in a build without CUDA), and the
 * TRY of a step sequence that frees its scratch at `done`.
 */
#ifndef VSG_STAGES_STEP_H
#define VSG_STAGES_STEP_H

#include "exec/exec.h"

static inline int vsg_step_on_gpu(vsg_exec *x) { return vsg_exec_kind_of(x) == VSG_EXEC_GPU; }

/* (every caller names its backend x: the launcher's failure message is
 * copied into it, so vsg_exec_last_error says which CUDA call failed) */
#ifdef VSGPU_HAVE_CUDA
#define GPU_OR(call) return vsg_exec_gpu_result(x, (call))
#else
#define GPU_OR(call) return VSG_ERR_NO_GPU
#endif

/* The body of a stage's step over n items of one dispatcher: the fault
 * hook (a launch that may fail as a CUDA launch would; s is the step's
 * number, for the step profile), then the device
 * launcher `launch`, or the host loop over `item` (an expression of the
 * item index i) noting the largest item's work. */
#define VSG_STEP_BODY(x, name, s, n, launch, item)                  \
    do {                                                            \
        vsg_status step_st_ = vsg_exec_launch_step((x), (name), (s)); \
        if (step_st_ != VSG_OK)                                     \
            return step_st_;                                        \
        if (vsg_step_on_gpu(x))                                     \
            GPU_OR(launch);                                         \
        int64_t step_most_ = 0;                                     \
        for (int64_t i = 0; i < (n); i++) {                         \
            int64_t step_w_ = (item);                               \
            step_most_ = step_w_ > step_most_ ? step_w_ : step_most_; \
        }                                                           \
        vsg_exec_note_work((x), step_most_);                        \
        return VSG_OK;                                              \
    } while (0)

/* The scratch arrays of one stage call, freed together (newest first). */
typedef struct {
    void *p[128];
    int n;
} vsg_scratch;

/* *out = bytes of backend memory, remembered in s (0 bytes: a valid
 * pointer all the same, so that offsets never read NULL). */
static inline vsg_status vsg_scratch_alloc(vsg_exec *x, vsg_scratch *s, size_t bytes, void **out)
{
    *out = NULL;
    if (s->n == (int)(sizeof s->p / sizeof s->p[0]))
        return VSG_ERR_NOMEM;   /* more arrays than slots: a stage to split */
    vsg_status st = vsg_exec_alloc(x, bytes ? bytes : 8, out);
    if (st == VSG_OK)
        s->p[s->n++] = *out;
    return st;
}

static inline void vsg_scratch_free(vsg_exec *x, vsg_scratch *s)
{
    for (int k = s->n - 1; k >= 0; k--)
        vsg_exec_free(x, s->p[k]);
    s->n = 0;
}

/* Scans counts (n) into offs (n + 1) and reads the total: the allocation
 * fence of count-then-fill. */
static inline vsg_status vsg_scan_total(vsg_exec *x, const int64_t *counts, int64_t *offs,
                                        int64_t n, int64_t *total)
{
    vsg_status st = vsg_exec_scan_i64(x, counts, offs, n);
    return st == VSG_OK ? vsg_exec_read_i64(x, offs + n, total) : st;
}

/* The key bits a radix sort needs for values in [0, n). */
static inline int vsg_bits_below(int64_t n)
{
    int b = 0;
    while (b < 63 && ((int64_t)1 << b) < n)
        b++;
    return b;
}

#define TRY(call)                \
    do {                         \
        st = (call);             \
        if (st != VSG_OK)        \
            goto done;           \
    } while (0)

#endif
