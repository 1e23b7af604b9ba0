// runtime_probe.cu - asks the CUDA runtime whether a usable device exists.
// Called lazily by the dispatch decision of the first statement that may use
// the GPU, never at plugin registration.
#include "vsgpu_cuda.h"

#include <cuda_runtime.h>
#include <dirent.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

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

// The full probe above initialises the driver (cuInit: about 0.1 s on the
// GPU host, docs/gpu-runtime.md), on the thread that is dispatching the
// statement. A statement that takes the GPU pays that start-up anyway, on
// the warm-up thread while GDAL reads its sources (warmup.cu). So where
// the driver library loads and the kernel driver's device nodes exist,
// the quick probe answers "a device" without initialising anything, and
// the device is opened for sure by the warm-up; one that then fails to
// open takes the pipeline's failure rule (GPU mode fails the statement,
// AUTO runs the CPU engine with a warning naming the CUDA error). Anything
// less plain (no device node, as under WSL; CUDA_VISIBLE_DEVICES set)
// asks the full probe.
namespace
{
bool has_device_node()
{
    DIR *dev = opendir("/dev");
    if (!dev)
        return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(dev)) != nullptr;)
        found = std::strncmp(e->d_name, "nvidia", 6) == 0 && e->d_name[6] >= '0' &&
                e->d_name[6] <= '9';
    closedir(dev);
    return found;
}

bool has_driver_library()
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (h)
        dlclose(h);   // cudart opens it itself when the warm-up starts CUDA
    return h != nullptr;
}
}  // namespace

extern "C" int vsg_cuda_probe_quick(char *msg, size_t msg_len)
{
    if (std::getenv("CUDA_VISIBLE_DEVICES") == nullptr && has_device_node() &&
        has_driver_library()) {
        if (msg && msg_len)
            std::snprintf(msg, msg_len, "NVIDIA driver present (device opened by the statement)");
        return 1;
    }
    return vsg_cuda_probe(msg, msg_len);
}
