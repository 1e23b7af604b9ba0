/*
 * warmup.cu - starts CUDA (driver, primary context, module loading: about
 * 0.3 s on an H200 host) on a helper thread as soon as a statement has
 * chosen the GPU, so that it overlaps with GDAL reading the sources instead
 * of delaying the first GPU stage. vsg_gpu_open waits for it. The thread
 * also loads the step kernels of the refine and the unions (a few ms),
 * which CUDA would otherwise load at each one's first launch.
 *
 * One warm-up per process (the primary context then stays for later
 * statements); the thread is joined, never detached, so no CUDA call is in
 * flight when the process exits.
 */
#include <pthread.h>

#include <cuda_runtime.h>

#include "vsgpu_cuda.h"
#include "columnar/launch_gather.h"
#include "overlay/launch_refine.h"
#include "union/launch_coverage.h"
#include "union/launch_arrange.h"

namespace
{
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_t g_thread;
bool g_started = false;   /* a thread was started and not yet joined */
bool g_done = false;      /* warm-up ran (or was tried) in this process */
int g_device = 0;

void *warm(void *)
{
    /* Errors are not reported here: vsg_gpu_open repeats these calls and
     * reports whatever fails. */
    if (cudaSetDevice(g_device) == cudaSuccess && cudaFree(nullptr) == cudaSuccess) {
        vsg_launch_ref_preload();
        vsg_launch_cov_preload();
        vsg_launch_arr_preload();
        vsg_launch_gather_preload();
    }
    cudaGetLastError();
    return nullptr;
}
}  // namespace

extern "C" void vsg_cuda_warmup_start(int device)
{
    pthread_mutex_lock(&g_lock);
    if (!g_done && !g_started)
    {
        g_device = device;
        g_started = pthread_create(&g_thread, nullptr, warm, nullptr) == 0;
        g_done = true;
    }
    pthread_mutex_unlock(&g_lock);
}

extern "C" void vsg_cuda_warmup_wait(void)
{
    pthread_mutex_lock(&g_lock);
    if (g_started)
    {
        pthread_join(g_thread, nullptr);
        g_started = false;
    }
    pthread_mutex_unlock(&g_lock);
}
