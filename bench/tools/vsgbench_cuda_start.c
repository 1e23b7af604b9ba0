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
 *           hold      the warm-up holds the primary context
 *                     (VSGPU_GPU_FAST_EXIT=YES): the kernel driver
 *                     reclaims it with the process
 *           quick     _exit(0) after the work: no exit handler runs (the
 *                     floor of what an exit can cost)
 *     BYTES device memory taken from the statement's pool and written once
 *           (default 0)
 *
 * Prints one line per part, "part <name> <seconds>", and last "end
 * <seconds since the epoch>", so that the caller, which times the whole
 * process, can tell the exit's cost (scripts/gpu-host-startup.sh).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const int hold = strcmp(mode, "hold") == 0;
    if (!hold && strcmp(mode, "teardown") != 0 && strcmp(mode, "quick") != 0) {
        fprintf(stderr, "usage: %s teardown|hold|quick [BYTES]\n", argv[0]);
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
    if (cudaSetDevice(0) != cudaSuccess || cudaFree(NULL) != cudaSuccess) {
        fprintf(stderr, "no primary context\n");
        return 1;
    }
    t = part("context", t);
    vsg_cuda_warmup_start(0, hold);
    vsg_cuda_warmup_wait();
    t = part("warmup", t);

    vsg_gpu_settings s;
    vsg_gpu_settings_init(&s);
    vsg_gpu *g = NULL;
    char msg[256] = "";
    if (vsg_gpu_open(&s, &g, msg, sizeof msg) != VSG_OK) {
        fprintf(stderr, "open: %s\n", msg);
        return 1;
    }
    t = part("open", t);
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
        t = part("memory", t);
    }
    vsg_gpu_close(g);
    t = part("close", t);
    printf("end %.6f\n", now());
    fflush(stdout);
    if (strcmp(mode, "quick") == 0)
        _exit(0);
    return 0;
}
