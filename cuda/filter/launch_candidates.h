/*
 * launch_candidates.h - C-callable launchers of the candidate join's
 * per-element steps (launch_candidates.cu); the orchestrator is
 * algorithms/stages/filter/candidates.c, the element logic elements/filter/grid.h.
 * Pointers are device memory; every call is ordered on the stream and
 * none waits for it.
 */
#ifndef VSGPU_LAUNCH_CANDIDATES_H
#define VSGPU_LAUNCH_CANDIDATES_H

#include "vsgpu_cuda.h"
#include "elements/filter/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reduces b's boxes to vsg_grid_stats and writes vsg_grid_make(.., cap) to
 * *grid (device memory): two kernels, scratch from the pool. */
vsg_status vsg_launch_cand_grid(vsg_gpu *g, const double *boxes_b, int64_t nb, int64_t cap,
                                vsg_grid *grid);
/* cnt[j] = vsg_grid_b_count for every b box. */
vsg_status vsg_launch_cand_b_count(vsg_gpu *g, const vsg_grid *grid, const double *boxes_b,
                                   int64_t nb, int64_t *cnt);
/* vsg_grid_b_fill for every b box, from off[j]. */
vsg_status vsg_launch_cand_b_fill(vsg_gpu *g, const vsg_grid *grid, const double *boxes_b,
                                  int64_t nb, const int64_t *off, uint64_t *ekeys, int64_t *eids);
/* ebox[e] = boxes_b[eids[e]] for e < ne; cell_start[c] = lower bound of c in
 * ekeys for c < slots. */
vsg_status vsg_launch_cand_cells(vsg_gpu *g, const double *boxes_b, const uint64_t *ekeys,
                                 const int64_t *eids, int64_t ne, int64_t slots, double *ebox,
                                 int64_t *cell_start);
/* blk[i] = vsg_grid_row_items of every a row. */
vsg_status vsg_launch_cand_items(vsg_gpu *g, const vsg_grid *grid, const double *boxes_a,
                                 int64_t na, int64_t *blk);
/* For every item t: it_row[t] = its row (vsg_grid_item_row(blk_off, na,
 * t)), nch[t] = vsg_grid_chunks of its candidates (vsg_grid_item_runs). */
vsg_status vsg_launch_cand_item_chunks(vsg_gpu *g, const vsg_grid *grid, const double *boxes_a,
                                       int64_t na, const int64_t *blk_off, int64_t ni,
                                       const int64_t *cell_start, int64_t *it_row,
                                       int64_t *nch);
/* vsg_grid_probe_chunk for every chunk k (item[k] = t, its item,
 * vsg_grid_item_row(coff, ni, k)): the pairs' count cnt[k] and their
 * bits hits[k]. */
vsg_status vsg_launch_cand_probe(vsg_gpu *g, const vsg_grid *grid, const double *boxes_a,
                                 const int64_t *blk_off, const int64_t *it_row, int64_t ni,
                                 const int64_t *coff, int64_t nk, const int64_t *cell_start,
                                 const uint64_t *ekeys, const double *ebox, const int64_t *eids,
                                 vsg_grid_want want, int64_t *cnt, uint32_t *hits, int64_t *item);
/* vsg_grid_emit_chunk for every chunk k with hits: its pairs into
 * pkeys/pb from off[k]. */
vsg_status vsg_launch_cand_emit(vsg_gpu *g, const vsg_grid *grid, const double *boxes_a,
                                const int64_t *blk_off, const int64_t *it_row,
                                const int64_t *coff, int64_t nk, const int64_t *cell_start,
                                const int64_t *eids, const uint32_t *hits, const int64_t *item,
                                int bbits, const int64_t *off, uint64_t *pkeys, int64_t *pb);
/* pa[k] = pkeys[k] >> bbits. */
vsg_status vsg_launch_cand_decode(vsg_gpu *g, const uint64_t *pkeys, int64_t n, int bbits,
                                  int64_t *pa);

#ifdef __cplusplus
}
#endif
#endif
