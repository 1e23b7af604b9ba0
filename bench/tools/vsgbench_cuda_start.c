/*
 * vsgbench_cuda_start - where a GPU statement's fixed CUDA cost goes, part
 * by part, in one process shaped like a statement's: the driver's start
 * (cuInit), the primary context, the warm-up's kernel loading
 * (cuda/warmup.cu), opening the statement's context (stream, pool), some
 * device memory used and given back, closing it, and the process's exit.
 *
 *   vsgbench_cuda_start MODE [BYTES]
 *     MODE  teardown  exit as CUDA's default: the runtime destroys the
 *                     primary context at exit
 *           hold      one more reference to the primary context, never
 *                     given back: the kernel driver reclaims it with the
 *                     process
 *           quick     _exit(0) after the work: no exit handler runs
 *           reset     the primary context reset (cudaDeviceReset) on a
 *                     helper thread while the process "writes"
 *           own       a context of the process's own (cuCtxCreate), not
 *                     the primary one, destroyed on a helper thread while
 *                     the process "writes"
 *     BYTES device memory taken and written once (default 0)
 *
 * Every mode then "writes" for 0.3 s (sleeps, as ogr2ogr writes the last
 * features after the device's last stage) before it exits.
 *
 * Prints one line per part, "part <name> <seconds>", and last "end
 * <seconds since the epoch>", so that the caller, which times the whole
 * process, can tell the exit's cost (scripts/gpu-host-startup.sh).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "vsgpu_cuda.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double part(const char *name, double since)
{
    double t = now();
    printf("part %-9s %.4f\n", name, t - since);
    return t;
}

static void *driver_fn(const char *name)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion(name, &fn, 13000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
        return NULL;
    return fn;
}

static CUcontext g_own;
static double g_release_s = -1;

/* The release of mode reset or own, on a helper thread. */
static void *release(void *arg)
{
    const double t = now();
    if (arg) {
        CUresult (*destroy)(CUcontext) = (CUresult(*)(CUcontext))driver_fn("cuCtxDestroy");
        if (destroy)
            destroy(g_own);
    } else {
        cudaDeviceReset();
    }
    g_release_s = now() - t;
    return NULL;
}

/* The device work of mode own, through the runtime on the current
 * (own) context: vsg_gpu_open would make the primary context current. */
static int own_work(size_t bytes)
{
    void *p = NULL;
    if (bytes && (cudaMalloc(&p, bytes) != cudaSuccess || cudaMemset(p, 1, bytes) != cudaSuccess ||
                  cudaFree(p) != cudaSuccess))
        return 1;
    return cudaStreamSynchronize(0) != cudaSuccess;
}

/* The statement on the runtime's primary context, as the plugin runs it:
 * the context, the warm-up, the statement's own stream and pool. */
static int primary_statement(size_t bytes, int hold, double *t)
{
    if (cudaSetDevice(0) != cudaSuccess || cudaFree(NULL) != cudaSuccess) {
        fprintf(stderr, "no primary context\n");
        return 1;
    }
    *t = part("context", *t);
    if (hold) {
        CUresult (*retain)(CUcontext *, CUdevice) =
            (CUresult(*)(CUcontext *, CUdevice))driver_fn("cuDevicePrimaryCtxRetain");
        CUcontext ctx;
        if (retain)
            retain(&ctx, 0);
    }
    vsg_gpu_settings ws;
    vsg_gpu_settings_init(&ws);
    ws.pool_reserve = 0;
    vsg_cuda_warmup_start(&ws);
    vsg_cuda_warmup_wait();
    *t = part("warmup", *t);

    vsg_gpu_settings s;
    vsg_gpu_settings_init(&s);
    vsg_gpu *g = NULL;
    char msg[256] = "";
    if (vsg_gpu_open(&s, &g, msg, sizeof msg) != VSG_OK) {
        fprintf(stderr, "open: %s\n", msg);
        return 1;
    }
    *t = part("open", *t);
    if (bytes) {
        void *p = NULL;
        if (vsg_gpu_alloc(g, bytes, &p) != VSG_OK || vsg_gpu_memset(g, p, 1, bytes) != VSG_OK) {
            fprintf(stderr, "memory: %s\n", vsg_gpu_last_error(g));
            return 1;
        }
        vsg_gpu_free(g, p);
        if (vsg_gpu_sync(g) != VSG_OK) {
            fprintf(stderr, "sync: %s\n", vsg_gpu_last_error(g));
            return 1;
        }
        *t = part("memory", *t);
    }
    vsg_gpu_close(g);
    *t = part("close", *t);
    return 0;
}

/* The same memory on a context of the process's own. */
static int own_statement(size_t bytes, double *t)
{
    CUresult (*create)(CUcontext *, CUctxCreateParams *, unsigned, CUdevice) =
        (CUresult(*)(CUcontext *, CUctxCreateParams *, unsigned, CUdevice))driver_fn(
            "cuCtxCreate");
    if (!create || create(&g_own, NULL, 0, 0) != CUDA_SUCCESS) {
        fprintf(stderr, "no own context\n");
        return 1;
    }
    *t = part("context", *t);
    if (own_work(bytes)) {
        fprintf(stderr, "own work failed\n");
        return 1;
    }
    *t = part("memory", *t);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const int hold = strcmp(mode, "hold") == 0, own = strcmp(mode, "own") == 0,
              reset = strcmp(mode, "reset") == 0;
    if (!hold && !own && !reset && strcmp(mode, "teardown") != 0 && strcmp(mode, "quick") != 0) {
        fprintf(stderr, "usage: %s teardown|hold|quick|reset|own [BYTES]\n", argv[0]);
        return 2;
    }
    const size_t bytes = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 0;

    double t = now();
    printf("start %.6f\n", t);
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        fprintf(stderr, "no CUDA device\n");
        return 1;
    }
    t = part("cuinit", t);
    if (own ? own_statement(bytes, &t) : primary_statement(bytes, hold, &t))
        return 1;
    /* the release (modes reset and own) beside the writing */
    pthread_t helper;
    const int helped =
        (own || reset) && pthread_create(&helper, NULL, release, own ? &g_own : NULL) == 0;
    struct timespec write_s = {0, 300000000};
    nanosleep(&write_s, NULL);
    if (helped)
        pthread_join(helper, NULL);
    t = part("write", t);
    if (helped)
        printf("part %-9s %.4f\n", "release", g_release_s);
    printf("end %.6f\n", now());
    fflush(stdout);
    if (strcmp(mode, "quick") == 0)
        _exit(0);
    return 0;
}
