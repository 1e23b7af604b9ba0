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

#define TRY(call)                \
    do {                         \
        st = (call);             \
        if (st != VSG_OK)        \
            goto done;           \
    } while (0)

#endif
