// primitives.cu - the bulk primitives every stage builds on, from CUB,
// on the context's stream with scratch from the context's memory tiers:
//
//   scan: out[0] = 0, out[i + 1] = out[i] + in[i] (n + 1 outputs: the last
//         one is the total, which count-then-fill reads as the size of the
//         next allocation);
//   max scan: out[i] = max(in[0..i]) (the refine's labels fill runs);
//   sort: stable LSD radix sort of (u64 key, i64 value) pairs, in place,
//         on the low key_bits bits.
//
// CUB's two-phase protocol (with_scratch): ask for the scratch size,
// allocate it, run.
// Scratch and the sort's alternate buffers are freed stream-ordered right
// after the launch: the pool reuses them for the next stage without a sync.
#include "gpu_context.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

// CUB's two-phase protocol once for every primitive: call(scratch, bytes)
// runs the CUB function (sizing it when scratch is null). At least one
// byte of scratch: a null pointer would make CUB only size again.
template <class Call>
static vsg_status with_scratch(vsg_gpu *g, const char *what, Call call)
{
    size_t scratch_bytes = 0;
    cudaError_t e = call(nullptr, scratch_bytes);
    if (e != cudaSuccess)
        return vsg_gpu_fail(g, e, what, __FILE__, __LINE__);
    void *scratch = nullptr;
    vsg_status st = vsg_gpu_alloc(g, scratch_bytes ? scratch_bytes : 1, &scratch);
    if (st != VSG_OK)
        return st;
    e = call(scratch, scratch_bytes);
    vsg_gpu_free(g, scratch);
    if (e != cudaSuccess)
        return vsg_gpu_fail(g, e, what, __FILE__, __LINE__);
    return VSG_OK;
}

extern "C" vsg_status vsg_gpu_scan_i64(vsg_gpu *g, const int64_t *in, int64_t *out, int64_t n)
{
    if (n < 0 || !out || (n > 0 && !in))
        return vsg_gpu_failf(g, VSG_ERR_INVALID_ARG, "scan of %lld items", (long long)n);
    vsg_status st = vsg_gpu_bind(g);
    if (st != VSG_OK)
        return st;
    // The exclusive scan with its total is an inclusive scan shifted by one.
    VSG_CUDA_TRY(g, cudaMemsetAsync(out, 0, sizeof *out, g->stream));
    if (n == 0)
        return VSG_OK;
    return with_scratch(g, "cub::DeviceScan::InclusiveSum", [&](void *scratch, size_t &bytes) {
        return cub::DeviceScan::InclusiveSum(scratch, bytes, in, out + 1, n, g->stream);
    });
}

namespace {
struct max_i64 {
    __device__ __forceinline__ int64_t operator()(int64_t a, int64_t b) const
    {
        return a > b ? a : b;
    }
};
}  // namespace

extern "C" vsg_status vsg_gpu_max_scan_i64(vsg_gpu *g, const int64_t *in, int64_t *out,
                                           int64_t n)
{
    if (n < 0 || (n > 0 && (!in || !out)))
        return vsg_gpu_failf(g, VSG_ERR_INVALID_ARG, "max scan of %lld items", (long long)n);
    vsg_status st = vsg_gpu_bind(g);
    if (st != VSG_OK || n == 0)
        return st;
    return with_scratch(g, "cub::DeviceScan::InclusiveScan (max)",
                        [&](void *scratch, size_t &bytes) {
                            return cub::DeviceScan::InclusiveScan(scratch, bytes, in, out,
                                                                  max_i64{}, n, g->stream);
                        });
}

// The sort proper, given the alternate buffers. Double buffers: CUB
// ping-pongs between the caller's arrays and the alternates (less scratch
// than the copying overload) and says where the result landed; a copy back
// makes the sort in place.
static vsg_status sort_pairs(vsg_gpu *g, uint64_t *keys, int64_t *vals, uint64_t *keys_alt,
                             int64_t *vals_alt, int64_t n, int key_bits)
{
    cub::DoubleBuffer<uint64_t> kb(keys, keys_alt);
    cub::DoubleBuffer<int64_t> vb(vals, vals_alt);
    vsg_status st = with_scratch(g, "cub::DeviceRadixSort::SortPairs",
                                 [&](void *scratch, size_t &bytes) {
                                     return cub::DeviceRadixSort::SortPairs(
                                         scratch, bytes, kb, vb, n, 0, key_bits, g->stream);
                                 });
    if (st != VSG_OK)
        return st;
    if (kb.Current() != keys) {
        size_t bytes = (size_t)n * sizeof *keys;
        VSG_CUDA_TRY(g, cudaMemcpyAsync(keys, kb.Current(), bytes, cudaMemcpyDeviceToDevice,
                                        g->stream));
        VSG_CUDA_TRY(g, cudaMemcpyAsync(vals, vb.Current(), bytes, cudaMemcpyDeviceToDevice,
                                        g->stream));
    }
    return VSG_OK;
}

extern "C" vsg_status vsg_gpu_sort_u64_i64(vsg_gpu *g, uint64_t *keys, int64_t *vals,
                                           int64_t n, int key_bits)
{
    if (n < 0 || key_bits < 0 || key_bits > 64 || (n > 0 && (!keys || !vals)))
        return vsg_gpu_failf(g, VSG_ERR_INVALID_ARG, "sort of %lld items on %d bits",
                             (long long)n, key_bits);
    if (n < 2 || key_bits == 0)
        return VSG_OK;
    vsg_status st = vsg_gpu_bind(g);
    if (st != VSG_OK)
        return st;
    size_t item_bytes = (size_t)n * sizeof(uint64_t);
    void *keys_alt = nullptr, *vals_alt = nullptr;
    st = vsg_gpu_alloc(g, item_bytes, &keys_alt);
    if (st == VSG_OK)
        st = vsg_gpu_alloc(g, item_bytes, &vals_alt);
    if (st == VSG_OK)
        st = sort_pairs(g, keys, vals, static_cast<uint64_t *>(keys_alt),
                        static_cast<int64_t *>(vals_alt), n, key_bits);
    vsg_gpu_free(g, vals_alt);
    vsg_gpu_free(g, keys_alt);
    return st;
}
