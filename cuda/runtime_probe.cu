// runtime_probe.cu - asks the CUDA runtime whether a usable device exists.
// Called lazily by the dispatch decision of the first statement that may use
// the GPU, never at plugin registration.
#include "vsgpu_cuda.h"

#include <cuda_runtime.h>
#include <cstdio>

extern "C" int vsg_cuda_probe(char *msg, size_t msg_len)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        // cudaErrorInsufficientDriver is what a machine without an NVIDIA
        // driver reports when cudart is linked statically.
        if (msg && msg_len)
            std::snprintf(msg, msg_len, "no usable CUDA device (%s: %s)",
                          cudaGetErrorName(err), cudaGetErrorString(err));
        (void)cudaGetLastError();  // clear the sticky-free error state
        return 0;
    }
    if (count <= 0) {
        if (msg && msg_len)
            std::snprintf(msg, msg_len, "no CUDA device present");
        return 0;
    }
    cudaDeviceProp prop;
    err = cudaGetDeviceProperties(&prop, 0);
    if (msg && msg_len) {
        if (err == cudaSuccess)
            std::snprintf(msg, msg_len, "%s (compute capability %d.%d)",
                          prop.name, prop.major, prop.minor);
        else
            std::snprintf(msg, msg_len, "CUDA device 0 (properties: %s)",
                          cudaGetErrorString(err));
    }
    return count;
}
