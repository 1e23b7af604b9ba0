// runtime.cu - the device context of one statement: device choice, the
// non-blocking stream, the tier A memory pool, errors and statistics.
//
// CUDA is first touched here (vsg_gpu_open, on the first statement that
// runs on the GPU), never at plugin registration. A machine without a
// driver or device gets VSG_ERR_NO_GPU and a reason: a CPU reason, not an
// error. Every CUDA call is checked; a failure becomes a vsg_status and a
// "file:line: call: cudaErrorX: text" message (vsg_gpu_fail).
// Nothing here calls cudaDeviceSynchronize or cudaDeviceReset: the process
// may hold other CUDA work (GDAL, QGIS plugins) on the same device.
#include "gpu_context.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

static void put_msg(char *msg, size_t msg_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put_msg(char *msg, size_t msg_len, const char *fmt, ...)
{
    if (!msg || !msg_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, msg_len, fmt, ap);
    va_end(ap);
}

static const char *base_name(const char *path)
{
    const char *s = std::strrchr(path, '/');
    return s ? s + 1 : path;
}

vsg_status vsg_gpu_fail(vsg_gpu *g, cudaError_t err, const char *call, const char *file,
                        int line)
{
    // Clears the error if it is not sticky, so that the next call on a
    // healthy context does not report this one again.
    (void)cudaGetLastError();
    if (g)
        std::snprintf(g->error, sizeof g->error, "%s:%d: %s: %s: %s", base_name(file), line,
                      call, cudaGetErrorName(err), cudaGetErrorString(err));
    switch (err) {
    case cudaErrorMemoryAllocation:
        return VSG_ERR_GPU_OOM;
    case cudaErrorInsufficientDriver:
    case cudaErrorNoDevice:
    case cudaErrorInvalidDevice:
        return VSG_ERR_NO_GPU;
    default:
        return VSG_ERR_GPU_KERNEL;
    }
}

vsg_status vsg_gpu_failf(vsg_gpu *g, vsg_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(g->error, sizeof g->error, fmt, ap);
    va_end(ap);
    return st;
}

vsg_status vsg_gpu_bind(vsg_gpu *g)
{
    int cur = -1;
    VSG_CUDA_TRY(g, cudaGetDevice(&cur));
    if (cur != g->device)
        VSG_CUDA_TRY(g, cudaSetDevice(g->device));
    return VSG_OK;
}

cudaStream_t vsg_gpu_stream(vsg_gpu *g) { return g->stream; }

unsigned vsg_gpu_blocks(vsg_gpu *g, int64_t n, int block)
{
    if (n <= 0 || block <= 0)
        return 1;
    int64_t need = (n + block - 1) / block;
    // Four waves of fully resident blocks: enough to hide tail effects of a
    // grid-stride loop, few enough that each thread does real work.
    int per_sm = g->threads_per_sm / block;
    int64_t cap = (int64_t)g->sm_count * (per_sm > 0 ? per_sm : 1) * 4;
    if (cap < 1)
        cap = 1;
    int64_t b = need < cap ? need : cap;
    return (unsigned)(b < 1 ? 1 : b);
}

cudaError_t vsg_gpu_pool_make(int device, cudaMemPool_t *out)
{
    cudaMemPoolProps props;
    std::memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    *out = nullptr;
    cudaMemPool_t p = nullptr;
    cudaError_t e = cudaMemPoolCreate(&p, &props);
    if (e != cudaSuccess)
        return e;
    // The release threshold keeps freed memory in the pool for reuse
    // instead of returning it at every synchronisation.
    uint64_t threshold = UINT64_MAX;
    e = cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &threshold);
    if (e != cudaSuccess) {
        (void)cudaMemPoolDestroy(p);
        return e;
    }
    *out = p;
    return cudaSuccess;
}

// Releases what a (partly) opened context holds; errors are ignored: this
// runs on failure paths and at close, where nothing can be reported.
static void teardown(vsg_gpu *g)
{
    if (g->stream) {
        (void)cudaStreamSynchronize(g->stream);
        if (g->blocks)
            vsg_gpu_memory_release_all(g);
        vsg_gpu_stages_destroy(g);
        vsg_gpu_marks_destroy(g);
        (void)cudaStreamDestroy(g->stream);
    }
    if (g->pool)
        (void)cudaMemPoolDestroy(g->pool);
    (void)cudaGetLastError();
    delete g->blocks;
    delete g->deferred;
    delete g;
}

// Open-time failures are all "this device cannot be used": VSG_ERR_NO_GPU
// with the failing call in msg, so that AUTO takes the CPU path.
#define OPEN_TRY(call)                                                          \
    do {                                                                        \
        cudaError_t e_ = (call);                                                \
        if (e_ != cudaSuccess) {                                                \
            (void)cudaGetLastError();                                           \
            put_msg(msg, msg_len, "CUDA device %d unusable: %s:%d: %s: %s: %s", \
                    a.device, base_name(__FILE__), __LINE__, #call,             \
                    cudaGetErrorName(e_), cudaGetErrorString(e_));              \
            teardown(g);                                                        \
            return VSG_ERR_NO_GPU;                                              \
        }                                                                       \
    } while (0)

extern "C" vsg_status vsg_gpu_open(const vsg_gpu_settings *args, vsg_gpu **out, char *msg,
                                   size_t msg_len)
{
    if (!out)
        return VSG_ERR_INVALID_ARG;
    *out = nullptr;
    vsg_gpu_settings a;
    std::memset(&a, 0, sizeof a);
    if (args)
        a = *args;
    if (a.pool_limit < 0) {
        put_msg(msg, msg_len, "VSGPU_GPU_POOL_LIMIT must be >= 0 bytes (got %lld)",
                (long long)a.pool_limit);
        return VSG_ERR_INVALID_ARG;
    }

    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        // cudaErrorInsufficientDriver: no NVIDIA driver (cudart is static).
        (void)cudaGetLastError();
        put_msg(msg, msg_len, "no usable CUDA device (%s: %s)", cudaGetErrorName(err),
                cudaGetErrorString(err));
        return VSG_ERR_NO_GPU;
    }
    if (count <= 0) {
        put_msg(msg, msg_len, "no CUDA device present");
        return VSG_ERR_NO_GPU;
    }
    if (a.device < 0 || a.device >= count) {
        put_msg(msg, msg_len,
                "VSGPU_GPU_DEVICE=%d is out of range: this machine has %d CUDA device%s "
                "(0 to %d)",
                a.device, count, count == 1 ? "" : "s", count - 1);
        return VSG_ERR_NO_GPU;
    }

    vsg_gpu *g = new (std::nothrow) vsg_gpu();
    if (!g) {
        put_msg(msg, msg_len, "out of host memory");
        return VSG_ERR_NOMEM;
    }
    g->args = a;
    g->device = a.device;
    g->blocks = new (std::nothrow) std::unordered_map<void *, vsg_gpu_block>();
    g->deferred = new (std::nothrow) std::vector<std::pair<void *, size_t>>();
    if (!g->blocks || !g->deferred) {
        put_msg(msg, msg_len, "out of host memory");
        teardown(g);
        return VSG_ERR_NOMEM;
    }

    OPEN_TRY(cudaSetDevice(a.device));
    cudaDeviceProp prop;
    OPEN_TRY(cudaGetDeviceProperties(&prop, a.device));
    std::snprintf(g->name, sizeof g->name, "%s", prop.name);
    int pools = 0, managed = 0, concurrent = 0;
    OPEN_TRY(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, a.device));
    OPEN_TRY(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, a.device));
    OPEN_TRY(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess,
                                    a.device));
    g->sm_count = prop.multiProcessorCount;
    g->threads_per_sm = prop.maxThreadsPerMultiProcessor;
    g->prefetch_ok = concurrent != 0;
    if (!pools) {
        put_msg(msg, msg_len,
                "CUDA device %d (%s) does not support stream-ordered memory pools", a.device,
                g->name);
        teardown(g);
        return VSG_ERR_NO_GPU;
    }
    if (a.managed && !managed) {
        put_msg(msg, msg_len,
                "VSGPU_GPU_MANAGED_MEMORY=YES but CUDA device %d (%s) has no managed memory",
                a.device, g->name);
        teardown(g);
        return VSG_ERR_NO_GPU;
    }

    // Non-blocking: the stream never waits for the legacy default stream
    // that other libraries in the process may use.
    OPEN_TRY(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));

    // Tier A: our own pool (the device's default pool is shared with the
    // rest of the process), grown beforehand by the warm-up where the
    // statement asked for a reserve.
    g->pool = vsg_cuda_warm_pool_take(a.device);
    if (!g->pool)
        OPEN_TRY(vsg_gpu_pool_make(a.device, &g->pool));

    // What callers may plan their batches against (vsg_gpu_stats): the
    // limit, else what the device had free when we opened it, the pool's
    // reserve included.
    size_t free_b = 0, total_b = 0;
    OPEN_TRY(cudaMemGetInfo(&free_b, &total_b));
    uint64_t reserved = 0;
    OPEN_TRY(cudaMemPoolGetAttribute(g->pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
    free_b += (size_t)reserved;
    g->stats.capacity_bytes = a.pool_limit > 0 && (size_t)a.pool_limit < free_b
                                  ? a.pool_limit
                                  : (int64_t)free_b;

    *out = g;
    return VSG_OK;
}

extern "C" void vsg_gpu_close(vsg_gpu *g)
{
    if (!g)
        return;
    (void)vsg_gpu_bind(g);
    teardown(g);
}

extern "C" vsg_status vsg_gpu_sync(vsg_gpu *g)
{
    vsg_status st = vsg_gpu_bind(g);
    if (st != VSG_OK)
        return st;
    VSG_CUDA_TRY(g, cudaStreamSynchronize(g->stream));
    vsg_gpu_memory_release_deferred(g);
    return VSG_OK;
}

extern "C" const char *vsg_gpu_last_error(const vsg_gpu *g) { return g ? g->error : ""; }

extern "C" const char *vsg_gpu_device_name(const vsg_gpu *g) { return g ? g->name : ""; }

extern "C" void vsg_gpu_get_stats(const vsg_gpu *g, vsg_gpu_stats *s)
{
    if (g)
        *s = g->stats;
    else
        std::memset(s, 0, sizeof *s);
}
