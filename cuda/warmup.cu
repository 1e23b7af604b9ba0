/*
 * warmup.cu - starts CUDA (driver, primary context, module loading: about
 * 0.3 s on an H200 host) on a helper thread as soon as a statement has
 * chosen the GPU, so that it overlaps with GDAL reading the sources instead
 * of delaying the first GPU stage. vsg_gpu_open waits for it. The thread
 * also loads the step kernels of the refine and the unions (a few ms),
 * which CUDA would otherwise load at each one's first launch.
 *
 * One start of CUDA per process (the primary context then stays for later
 * statements). A statement with a pool reserve (VSGPU_GPU_POOL_RESERVE,
 * by default 4 GiB) gets a thread of its own that also makes the
 * statement's memory pool and grows it to the reserve, beside the reading:
 * a pool grows by mapping new device memory at the allocation that finds it
 * short, which the host waits for in the middle of the stages (the step
 * profile's reads after which large arrays are allocated; run AL in
 * docs/benchmarks.md). vsg_gpu_open
 * takes that pool (vsg_cuda_warm_pool_take); one nobody took is destroyed
 * by the next start or by vsg_cuda_warm_pool_drop. The thread is joined,
 * never detached, so no CUDA call is in flight when the process exits.
 */
#include <pthread.h>

#include <cuda_runtime.h>

#include "vsgpu_cuda.h"
#include "gpu_context.h"
#include "columnar/launch_gather.h"
#include "overlay/launch_refine.h"
#include "union/launch_coverage.h"
#include "union/launch_arrange.h"

namespace
{
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_t g_thread;
bool g_started = false;   /* a thread was started and not yet joined */
bool g_done = false;      /* CUDA's start ran (or was tried) in this process */
int g_device = 0;
int64_t g_reserve = 0;    /* bytes the started thread grows a pool to */
bool g_loads = false;     /* the started thread also starts CUDA */
cudaMemPool_t g_pool = nullptr;   /* grown, not yet taken (only the thread
                                     or a holder of g_lock after the join
                                     touches it) */
int g_pool_device = -1;

/* A pool for the next statement, grown by one allocation given back at
 * once: the pool keeps the memory (its release threshold), and the
 * statement's allocations reuse it. At most g_reserve bytes and a quarter
 * of the device's free memory. A failure leaves no pool: vsg_gpu_open
 * makes its own. */
void reserve()
{
    cudaMemPool_t pool = nullptr;
    cudaStream_t s = nullptr;
    void *p = nullptr;
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
        return;
    size_t bytes = (size_t)g_reserve < free_b / 4 ? (size_t)g_reserve : free_b / 4;
    if (bytes == 0 || vsg_gpu_pool_make(g_device, &pool) != cudaSuccess)
        return;
    bool ok = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess &&
              cudaMallocFromPoolAsync(&p, bytes, pool, s) == cudaSuccess &&
              cudaFreeAsync(p, s) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess;
    if (s)
        (void)cudaStreamDestroy(s);
    if (!ok) {
        (void)cudaMemPoolDestroy(pool);
        return;
    }
    g_pool = pool;
    g_pool_device = g_device;
}

void *warm(void *)
{
    /* Errors are not reported here: vsg_gpu_open repeats these calls and
     * reports whatever fails. */
    if (cudaSetDevice(g_device) == cudaSuccess && cudaFree(nullptr) == cudaSuccess) {
        if (g_loads) {
            vsg_launch_ref_preload();
            vsg_launch_cov_preload();
            vsg_launch_arr_preload();
            vsg_launch_gather_preload();
        }
        if (g_reserve > 0)
            reserve();
    }
    cudaGetLastError();
    return nullptr;
}

/* Under g_lock, no thread running: a pool nobody took is given back. */
void drop_pool()
{
    if (g_pool) {
        (void)cudaMemPoolDestroy(g_pool);
        g_pool = nullptr;
        g_pool_device = -1;
    }
}

/* The reserve s asks for: none with managed memory, at most the limit
 * (the free memory's quarter is the thread's to find). */
int64_t reserve_of(const vsg_gpu_settings *s)
{
    int64_t r = s->managed || s->pool_reserve < 0 ? 0 : s->pool_reserve;
    return s->pool_limit > 0 && r > s->pool_limit ? s->pool_limit : r;
}
}  // namespace

extern "C" void vsg_cuda_warmup_start(const vsg_gpu_settings *s)
{
    const int64_t reserve_bytes = reserve_of(s);
    pthread_mutex_lock(&g_lock);
    if (!g_started && (!g_done || reserve_bytes > 0))
    {
        drop_pool();
        g_device = s->device;
        g_reserve = reserve_bytes;
        g_loads = !g_done;
        g_started = pthread_create(&g_thread, nullptr, warm, nullptr) == 0;
        g_done = true;
    }
    pthread_mutex_unlock(&g_lock);
}

cudaMemPool_t vsg_cuda_warm_pool_take(int device)
{
    cudaMemPool_t p = nullptr;
    pthread_mutex_lock(&g_lock);
    if (!g_started && g_pool && g_pool_device == device) {
        p = g_pool;
        g_pool = nullptr;
        g_pool_device = -1;
    }
    pthread_mutex_unlock(&g_lock);
    return p;
}

extern "C" void vsg_cuda_warm_pool_drop(void)
{
    vsg_cuda_warmup_wait();
    pthread_mutex_lock(&g_lock);
    if (!g_started)
        drop_pool();
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
