/*
 * launch_candidates.cu - the per-element steps of the candidate join on
 * the device (elements/filter/grid.h); stages/filter/candidates.c orchestrates them.
 * Every kernel is a grid-stride loop over one kind of item (b box, entry,
 * cell, a box, item, chunk of an item's candidates, pair); the grid statistics are a two-level reduction whose
 * result stays in device memory.
 */
#include "filter/launch_candidates.h"

#include "gpu_internal.h"

namespace {

constexpr int kBlock = 256;
constexpr int kMaxStatBlocks = 1024;

#define GRID_STRIDE(i, n)                                                       \
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (n); \
         i += (int64_t)gridDim.x * blockDim.x)

/* Tree reduction of the block's statistics in shared memory; fixed order,
 * so the result does not depend on timing. */
__device__ void block_reduce(vsg_grid_stats *sh, vsg_grid_stats mine)
{
    sh[threadIdx.x] = mine;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            vsg_grid_stats_merge(&sh[threadIdx.x], &sh[threadIdx.x + s]);
        __syncthreads();
    }
}

__global__ void grid_stats_partial(const double *boxes, int64_t n, vsg_grid_stats *partial)
{
    __shared__ vsg_grid_stats sh[kBlock];
    vsg_grid_stats mine;
    vsg_grid_stats_init(&mine);
    GRID_STRIDE(j, n)
        vsg_grid_stats_add(&mine, boxes + 4 * j);
    block_reduce(sh, mine);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = sh[0];
}

__global__ void grid_stats_final(const vsg_grid_stats *partial, int nparts, int64_t cap,
                                 vsg_grid *grid)
{
    __shared__ vsg_grid_stats sh[kBlock];
    vsg_grid_stats mine;
    vsg_grid_stats_init(&mine);
    for (int k = threadIdx.x; k < nparts; k += blockDim.x)
        vsg_grid_stats_merge(&mine, &partial[k]);
    block_reduce(sh, mine);
    if (threadIdx.x == 0)
        vsg_grid_make(&sh[0], cap, grid);
}

__global__ void b_count(const vsg_grid *grid, const double *boxes, int64_t n, int64_t *cnt)
{
    const vsg_grid gr = *grid;
    GRID_STRIDE(j, n)
        cnt[j] = vsg_grid_b_count(&gr, boxes + 4 * j);
}

__global__ void b_fill(const vsg_grid *grid, const double *boxes, int64_t n, const int64_t *off,
                       uint64_t *ekeys, int64_t *eids)
{
    const vsg_grid gr = *grid;
    GRID_STRIDE(j, n)
        vsg_grid_b_fill(&gr, boxes + 4 * j, j, off[j], ekeys, eids);
}

/* one thread per coordinate of an entry's box: coalesced writes */
__global__ void gather_boxes(const double *boxes, const int64_t *eids, int64_t ne, double *ebox)
{
    GRID_STRIDE(t, 4 * ne)
        ebox[t] = boxes[4 * eids[t >> 2] + (t & 3)];
}

__global__ void cell_starts(const uint64_t *ekeys, int64_t ne, int64_t slots, int64_t *start)
{
    GRID_STRIDE(c, slots)
        start[c] = vsg_grid_lower_bound(ekeys, ne, (uint64_t)c);
}

__global__ void items(const vsg_grid *grid, const double *boxes_a, int64_t na, int64_t *blk)
{
    const vsg_grid gr = *grid;
    GRID_STRIDE(i, na)
        blk[i] = vsg_grid_row_items(&gr, boxes_a + 4 * i);
}

__global__ void item_chunks(const vsg_grid *grid, const double *boxes_a, int64_t na,
                            const int64_t *blk_off, int64_t ni, const int64_t *cell_start,
                            int64_t *it_row, int64_t *nch)
{
    const vsg_grid gr = *grid;
    GRID_STRIDE(t, ni) {
        int64_t i = vsg_grid_item_row(blk_off, na, t), cy, e0, e1, b0, b1;
        it_row[t] = i;
        nch[t] = vsg_grid_chunks(vsg_grid_item_runs(&gr, boxes_a + 4 * i, t - blk_off[i],
                                                    cell_start, &cy, &e0, &e1, &b0, &b1));
    }
}

/* one thread per chunk of an item's candidates (grid.h) */
__global__ void probe(const vsg_grid *grid, const double *boxes_a, const int64_t *blk_off,
                      const int64_t *it_row, int64_t ni, const int64_t *coff, int64_t nk,
                      const int64_t *cell_start, const uint64_t *ekeys, const double *ebox,
                      const int64_t *eids, vsg_grid_want want, int64_t *cnt, uint32_t *hits,
                      int64_t *item)
{
    const vsg_grid gr = *grid;
    GRID_STRIDE(k, nk) {
        int64_t t = vsg_grid_item_row(coff, ni, k), i = it_row[t];
        item[k] = t;
        cnt[k] = vsg_grid_probe_chunk(&gr, boxes_a + 4 * i, i, t - blk_off[i], k - coff[t],
                                      cell_start, ekeys, ebox, eids, want, hits + k, nullptr);
    }
}

__global__ void emit(const vsg_grid *grid, const double *boxes_a, const int64_t *blk_off,
                     const int64_t *it_row, const int64_t *coff, int64_t nk,
                     const int64_t *cell_start, const int64_t *eids, const uint32_t *hits,
                     const int64_t *item, int bbits, const int64_t *off, uint64_t *pkeys,
                     int64_t *pb)
{
    const vsg_grid gr = *grid;
    GRID_STRIDE(k, nk) {
        uint32_t h = hits[k];
        if (!h)
            continue;   // a chunk the count found no pair in
        int64_t t = item[k], i = it_row[t];
        vsg_grid_emit_chunk(&gr, boxes_a + 4 * i, i, t - blk_off[i], k - coff[t], cell_start,
                            eids, h, bbits, off[k], pkeys, pb);
    }
}

__global__ void decode(const uint64_t *pkeys, int64_t n, int bbits, int64_t *pa)
{
    GRID_STRIDE(k, n)
        pa[k] = (int64_t)(pkeys[k] >> bbits);
}

} // namespace

extern "C" vsg_status vsg_launch_cand_grid(vsg_gpu *g, const double *boxes_b, int64_t nb,
                                           int64_t cap, vsg_grid *grid)
{
    int nparts = (int)vsg_gpu_blocks(g, nb, kBlock);
    if (nparts > kMaxStatBlocks)
        nparts = kMaxStatBlocks;
    void *partial = nullptr;
    vsg_status st = vsg_gpu_alloc(g, (size_t)nparts * sizeof(vsg_grid_stats), &partial);
    if (st != VSG_OK)
        return st;
    cudaStream_t s = vsg_gpu_stream(g);
    grid_stats_partial<<<nparts, kBlock, 0, s>>>(boxes_b, nb, (vsg_grid_stats *)partial);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) {
        grid_stats_final<<<1, kBlock, 0, s>>>((const vsg_grid_stats *)partial, nparts, cap, grid);
        e = cudaGetLastError();
    }
    vsg_gpu_free(g, partial);      /* stream-ordered: after the kernels */
    VSG_CUDA_TRY(g, e);
    return VSG_OK;
}

extern "C" vsg_status vsg_launch_cand_b_count(vsg_gpu *g, const vsg_grid *grid,
                                              const double *boxes_b, int64_t nb, int64_t *cnt)
{
    if (nb <= 0)
        return VSG_OK;
    b_count<<<vsg_gpu_blocks(g, nb, kBlock), kBlock, 0, vsg_gpu_stream(g)>>>(grid, boxes_b, nb,
                                                                             cnt);
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}

extern "C" vsg_status vsg_launch_cand_b_fill(vsg_gpu *g, const vsg_grid *grid,
                                             const double *boxes_b, int64_t nb,
                                             const int64_t *off, uint64_t *ekeys, int64_t *eids)
{
    if (nb <= 0)
        return VSG_OK;
    b_fill<<<vsg_gpu_blocks(g, nb, kBlock), kBlock, 0, vsg_gpu_stream(g)>>>(grid, boxes_b, nb,
                                                                            off, ekeys, eids);
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}

extern "C" vsg_status vsg_launch_cand_cells(vsg_gpu *g, const double *boxes_b,
                                            const uint64_t *ekeys, const int64_t *eids,
                                            int64_t ne, int64_t slots, double *ebox,
                                            int64_t *cell_start)
{
    cudaStream_t s = vsg_gpu_stream(g);
    if (ne > 0) {
        gather_boxes<<<vsg_gpu_blocks(g, 4 * ne, kBlock), kBlock, 0, s>>>(boxes_b, eids, ne,
                                                                          ebox);
        VSG_CUDA_TRY(g, cudaGetLastError());
    }
    if (slots > 0) {
        cell_starts<<<vsg_gpu_blocks(g, slots, kBlock), kBlock, 0, s>>>(ekeys, ne, slots,
                                                                        cell_start);
        VSG_CUDA_TRY(g, cudaGetLastError());
    }
    return VSG_OK;
}

extern "C" vsg_status vsg_launch_cand_items(vsg_gpu *g, const vsg_grid *grid,
                                            const double *boxes_a, int64_t na, int64_t *blk)
{
    if (na <= 0)
        return VSG_OK;
    items<<<vsg_gpu_blocks(g, na, kBlock), kBlock, 0, vsg_gpu_stream(g)>>>(grid, boxes_a, na,
                                                                           blk);
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}

extern "C" vsg_status vsg_launch_cand_item_chunks(vsg_gpu *g, const vsg_grid *grid,
                                                  const double *boxes_a, int64_t na,
                                                  const int64_t *blk_off, int64_t ni,
                                                  const int64_t *cell_start, int64_t *it_row,
                                                  int64_t *nch)
{
    if (ni <= 0)
        return VSG_OK;
    item_chunks<<<vsg_gpu_blocks(g, ni, kBlock), kBlock, 0, vsg_gpu_stream(g)>>>(
        grid, boxes_a, na, blk_off, ni, cell_start, it_row, nch);
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}

extern "C" vsg_status vsg_launch_cand_probe(vsg_gpu *g, const vsg_grid *grid,
                                            const double *boxes_a, const int64_t *blk_off,
                                            const int64_t *it_row, int64_t ni,
                                            const int64_t *coff, int64_t nk,
                                            const int64_t *cell_start, const uint64_t *ekeys,
                                            const double *ebox, const int64_t *eids,
                                            vsg_grid_want want, int64_t *cnt, uint32_t *hits,
                                            int64_t *item)
{
    if (nk <= 0)
        return VSG_OK;
    probe<<<vsg_gpu_blocks(g, nk, kBlock), kBlock, 0, vsg_gpu_stream(g)>>>(
        grid, boxes_a, blk_off, it_row, ni, coff, nk, cell_start, ekeys, ebox, eids, want, cnt,
        hits, item);
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}

extern "C" vsg_status vsg_launch_cand_emit(vsg_gpu *g, const vsg_grid *grid,
                                           const double *boxes_a, const int64_t *blk_off,
                                           const int64_t *it_row, const int64_t *coff,
                                           int64_t nk, const int64_t *cell_start,
                                           const int64_t *eids, const uint32_t *hits,
                                           const int64_t *item, int bbits, const int64_t *off,
                                           uint64_t *pkeys, int64_t *pb)
{
    if (nk <= 0)
        return VSG_OK;
    emit<<<vsg_gpu_blocks(g, nk, kBlock), kBlock, 0, vsg_gpu_stream(g)>>>(
        grid, boxes_a, blk_off, it_row, coff, nk, cell_start, eids, hits, item, bbits, off,
        pkeys, pb);
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}

extern "C" vsg_status vsg_launch_cand_decode(vsg_gpu *g, const uint64_t *pkeys, int64_t n,
                                             int bbits, int64_t *pa)
{
    if (n <= 0)
        return VSG_OK;
    decode<<<vsg_gpu_blocks(g, n, kBlock), kBlock, 0, vsg_gpu_stream(g)>>>(pkeys, n, bbits, pa);
    VSG_CUDA_TRY(g, cudaGetLastError());
    return VSG_OK;
}
