// What a CUDA process pays at exit, by variant (argv[1]):
//   plain   cudart's normal exit
//   retain  one more reference on the primary context through libcuda, never released
//   quick   _exit(0) after the work (no atexit handlers at all)
//   reset   cudaDeviceReset before returning (reference)
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
__global__ void k(int *p) { if (p) p[threadIdx.x] = 1; }
static double now() { timespec t; clock_gettime(CLOCK_REALTIME, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
typedef int (*retain_fn)(void **, int);
int main(int argc, char **argv)
{
    const char *v = argc > 1 ? argv[1] : "plain";
    double t0 = now();
    cudaSetDevice(0);
    cudaFree(0);
    double t1 = now();
    int *d = 0;
    cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMemPool_t pool; cudaMemPoolProps props; memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned; props.location.type = cudaMemLocationTypeDevice; props.location.id = 0;
    cudaMemPoolCreate(&pool, &props);
    cudaMallocFromPoolAsync((void **)&d, 1 << 30, pool, s);
    k<<<1, 32, 0, s>>>(d);
    cudaFreeAsync(d, s);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    cudaMemPoolDestroy(pool);
    double t2 = now();
    if (strstr(v, "retain")) {
        void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        retain_fn f = h ? (retain_fn)dlsym(h, "cuDevicePrimaryCtxRetain") : 0;
        void *ctx = 0;
        int rc = f ? f(&ctx, 0) : -1;
        if (rc) printf("retain failed %d\n", rc);
    }
    if (strstr(v, "reset")) cudaDeviceReset();
    double t3 = now();
    printf("%s init %.3f work %.3f end %.6f\n", v, t1 - t0, t2 - t1, t3);
    fflush(stdout);
    if (strstr(v, "quick")) _exit(0);
    return 0;
}
