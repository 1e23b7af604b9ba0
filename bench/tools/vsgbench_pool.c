/*
 * vsgbench_pool - what growing the statement's memory pool costs, and what
 * a reserve made beforehand saves (VSGPU_GPU_POOL_RESERVE, cuda/warmup.cu).
 *
 *   vsgbench_pool RESERVE_BYTES
 *
 * Opens the device as a statement does (the warm-up, with the reserve when
 * RESERVE_BYTES > 0, then vsg_gpu_open), then runs one sequence of
 * allocations shaped like a batch's stages twice: 96 blocks of 1 to 80 MiB
 * (a fixed pseudo-random sequence, about 3.9 GB in all), each touched by a
 * small memset, all given back at the end. The first pass finds the pool
 * short (unless reserved), the second reuses what the first left.
 *
 * Prints "part <name> <seconds>": the warm-up (with its reserve), the open,
 * and for each pass the host's time in the allocation calls (sum and the
 * slowest one) and the synchronisation after them.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "vsgpu_cuda.h"

#define N_BLOCKS 96

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int pass(vsg_gpu *g, int k)
{
    void *p[N_BLOCKS];
    unsigned lcg = 12345u;
    double sum = 0, slowest = 0, total = 0;
    for (int i = 0; i < N_BLOCKS; i++) {
        lcg = lcg * 1103515245u + 12345u;
        size_t mib = 1 + (lcg >> 16) % 80;
        double t = now();
        if (vsg_gpu_alloc(g, mib << 20, &p[i]) != VSG_OK) {
            fprintf(stderr, "alloc: %s\n", vsg_gpu_last_error(g));
            return 1;
        }
        t = now() - t;
        sum += t;
        slowest = t > slowest ? t : slowest;
        total += (double)(mib << 20);
        if (vsg_gpu_memset(g, p[i], 1, 4) != VSG_OK)
            return 1;
    }
    double t = now();
    if (vsg_gpu_sync(g) != VSG_OK)
        return 1;
    double sync = now() - t;
    for (int i = 0; i < N_BLOCKS; i++)
        vsg_gpu_free(g, p[i]);
    if (vsg_gpu_sync(g) != VSG_OK)
        return 1;
    printf("part pass%d_alloc %.5f\npart pass%d_slowest %.5f\npart pass%d_sync %.5f\n"
           "part pass%d_gb %.2f\n",
           k, sum, k, slowest, k, sync, k, total / 1e9);
    return 0;
}

int main(int argc, char **argv)
{
    const long long reserve = argc > 1 ? strtoll(argv[1], NULL, 10) : 0;
    vsg_gpu_settings s;
    vsg_gpu_settings_init(&s);
    s.pool_reserve = reserve;
    double t = now();
    vsg_cuda_warmup_start(&s);
    vsg_cuda_warmup_wait();
    printf("part warmup %.5f\n", now() - t);
    vsg_gpu *g = NULL;
    char msg[256] = "";
    t = now();
    if (vsg_gpu_open(&s, &g, msg, sizeof msg) != VSG_OK) {
        fprintf(stderr, "open: %s\n", msg);
        return 1;
    }
    printf("part open %.5f\n", now() - t);
    int bad = pass(g, 1) || pass(g, 2);
    vsg_gpu_close(g);
    return bad;
}
