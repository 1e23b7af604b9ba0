/*
 * dispatch.c - the per-statement CPU/GPU decision (see dispatch.h).
 *
 * This build has no GPU kernel for any operation yet (the CUDA engine lands
 * in its own issue), so the decision table below answers CPU for every
 * operation; what it still does for real is probe CUDA lazily, so that the
 * reason a user reads names the actual cause: no CUDA in this build, no
 * driver or device, or no GPU kernel for the operation.
 */
#include "dispatch.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>

#ifdef VSGPU_HAVE_CUDA
#include "vsgpu_cuda.h"
#endif

static const char *const mode_names[] = {"AUTO", "CPU", "GPU"};

int vsg_exec_mode_parse(const char *text, vsg_exec_mode *out)
{
    if (!text || !out)
        return -1;
    for (int m = 0; m < 3; m++) {
        if (strcasecmp(text, mode_names[m]) == 0) {
            *out = (vsg_exec_mode)m;
            return 0;
        }
    }
    return -1;
}

const char *vsg_exec_mode_name(vsg_exec_mode m)
{
    return (m >= VSG_MODE_AUTO && m <= VSG_MODE_GPU) ? mode_names[m] : "?";
}

const char *vsg_runtime_name(vsg_runtime r)
{
    return r == VSG_RUNTIME_GPU ? "GPU" : "CPU";
}

/* The CUDA probe runs once per process: it is the first (and costly) touch
 * of the driver, and its answer does not change while we run. */
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int probe_devices;
static char probe_message[200];

static void probe_cuda(void)
{
#ifdef VSGPU_HAVE_CUDA
    probe_devices = vsg_cuda_probe(probe_message, sizeof probe_message);
#else
    probe_devices = 0;
    snprintf(probe_message, sizeof probe_message,
             "this build of VSGPU has no CUDA engine (built with VSGPU_CUDA=OFF or without nvcc)");
#endif
}

/* Which operations have a GPU kernel in this build, and from what input
 * size the GPU beats the CPU. None yet: every entry lands with its kernel
 * and with the crossover measured on the GPU host. */
static int gpu_kernel_available(const char *operation)
{
    (void)operation;
    return 0;
}

void vsg_dispatch_decide(vsg_exec_mode mode, const char *operation,
                         int64_t input_rows, vsg_dispatch_decision *out)
{
    (void)input_rows;
    memset(out, 0, sizeof *out);
    out->requested = mode;
    out->selected = VSG_RUNTIME_CPU;
    if (!operation)
        operation = "operation";

    if (mode == VSG_MODE_CPU) {
        snprintf(out->reason, sizeof out->reason, "VSGPU_EXECUTION_MODE=CPU");
        return;
    }

    pthread_once(&probe_once, probe_cuda);
    if (probe_devices <= 0) {
        snprintf(out->reason, sizeof out->reason, "%s", probe_message);
    } else if (!gpu_kernel_available(operation)) {
        snprintf(out->reason, sizeof out->reason,
                 "no GPU kernel for %s in this build (device: %s)", operation,
                 probe_message);
    } else {
        out->selected = VSG_RUNTIME_GPU;
        return;
    }

    if (mode == VSG_MODE_GPU)
        out->must_fail = 1;
    else
        out->is_fallback = 1;
}
