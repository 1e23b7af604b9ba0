/*
 * vsgbench_pinned - what page-locked (pinned) host memory would buy the
 * GPU pipeline's copies, and what it costs to get: for each size, the
 * host-to-device and device-to-host copy rates from ordinary (pageable)
 * memory, as the pipeline copies today (cuda/transfer.cu), and from
 * pinned memory, beside the time to allocate and first touch each kind
 * (a statement's arrays are fresh memory), and to pin memory already
 * written (cudaHostRegister).
 *
 *   vsgbench_pinned [MiB ...]     (default 16 64 256)
 *
 * One line per size: "size <MiB> <part> <seconds> [<GB/s>]". Every copy
 * is timed to its end (cudaStreamSynchronize), the best of three.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t e_ = (call);                                                 \
        if (e_ != cudaSuccess) {                                                 \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));         \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

/* The best of three copies of bytes, in seconds. */
static double copy_time(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                        cudaStream_t s)
{
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        CHECK(cudaMemcpyAsync(dst, src, bytes, kind, s));
        CHECK(cudaStreamSynchronize(s));
        double t = now() - t0;
        best = t < best ? t : best;
    }
    return best;
}

static void line(size_t mib, const char *part, double s, size_t bytes)
{
    if (bytes)
        printf("size %zu %-22s %.4f %.1f\n", mib, part, s, (double)bytes / s / 1e9);
    else
        printf("size %zu %-22s %.4f\n", mib, part, s);
}

static void one_size(size_t mib, cudaStream_t s)
{
    size_t bytes = mib << 20;
    void *dev = NULL;
    CHECK(cudaMalloc(&dev, bytes));

    double t0 = now();
    char *pageable = malloc(bytes);
    if (!pageable)
        exit(1);
    memset(pageable, 1, bytes);
    line(mib, "malloc+touch", now() - t0, 0);
    line(mib, "h2d pageable", copy_time(dev, pageable, bytes, cudaMemcpyHostToDevice, s), bytes);
    line(mib, "d2h pageable", copy_time(pageable, dev, bytes, cudaMemcpyDeviceToHost, s), bytes);

    t0 = now();
    char *pinned = NULL;
    CHECK(cudaHostAlloc((void **)&pinned, bytes, cudaHostAllocDefault));
    line(mib, "hostalloc", now() - t0, 0);
    t0 = now();
    memset(pinned, 1, bytes);
    line(mib, "hostalloc touch", now() - t0, 0);
    line(mib, "h2d pinned", copy_time(dev, pinned, bytes, cudaMemcpyHostToDevice, s), bytes);
    line(mib, "d2h pinned", copy_time(pinned, dev, bytes, cudaMemcpyDeviceToHost, s), bytes);
    t0 = now();
    CHECK(cudaFreeHost(pinned));
    line(mib, "freehost", now() - t0, 0);

    t0 = now();
    CHECK(cudaHostRegister(pageable, bytes, cudaHostRegisterDefault));
    line(mib, "register (written)", now() - t0, 0);
    line(mib, "h2d registered", copy_time(dev, pageable, bytes, cudaMemcpyHostToDevice, s), bytes);
    t0 = now();
    CHECK(cudaHostUnregister(pageable));
    line(mib, "unregister", now() - t0, 0);
    free(pageable);
    CHECK(cudaFree(dev));
}

int main(int argc, char **argv)
{
    double t0 = now();
    CHECK(cudaFree(NULL));   /* the context, before anything is timed */
    printf("context %.4f\n", now() - t0);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    if (argc < 2) {
        static const size_t sizes[] = {16, 64, 256};
        for (size_t i = 0; i < 3; i++)
            one_size(sizes[i], s);
    }
    for (int i = 1; i < argc; i++)
        one_size((size_t)strtoul(argv[i], NULL, 10), s);
    CHECK(cudaStreamDestroy(s));
    return 0;
}
