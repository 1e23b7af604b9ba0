/*
 * candidates.c - the candidates stage (stages/stages.h): every pair of
 * boxes (a row i, b row j) that meet, sorted by (i, j), each once.
 *
 * A uniform-grid join over b (elements/filter/grid.h says why a grid and how the
 * pairs come out unique). The orchestrator is written once against
 * exec/exec.h; each per-element step is a host loop or a launcher of
 * cuda/launch_candidates.cu over the same element functions. Three waits
 * read the sizes of the allocations that depend on the data (grid entries
 * and items together, chunks of candidates, pairs); nothing else waits
 * for the device.
 *
 *   Phase 1  statistics of b -> the grid (kept in backend memory)
 *   Phase 2  count b's entries and each a row's items (one per grid row
 *            of its cells: one run of the cell-sorted entries each),
 *            scan both, one wait for both totals; fill (cell, j), sort
 *            by cell, gather the entries' boxes, find each cell's start
 *   Phase 3  each item cut into chunks of at most VSG_GRID_CHUNK
 *            candidates, scan; one chunk per thread, so no thread's work
 *            grows with a box or a cell: count each chunk's pairs and
 *            mark them in its 32 hit bits, scan, write keys
 *            (i << bbits | j) from the bits
 *   Phase 4  sort the keys (a row's pairs come from several cells), unless
 *            the caller orders them itself or needs no order; decode
 *
 * The CPU engine's own host backend takes candidates_host.c instead: the
 * same grid in one pass, shaped for one core.
 */
#include "stages/stages.h"
#include "stages/step.h"

#include "elements/filter/grid.h"
#include "stages/filter/candidates_host.h"

#ifdef VSGPU_HAVE_CUDA
#include "filter/launch_candidates.h"
#endif

/* Cells at most: about two per b box, and a fixed ceiling so that the cell
 * table stays small next to the entries. */
static int64_t cell_cap(int64_t nb)
{
    int64_t cap = 2 * nb;
    if (cap > ((int64_t)1 << 26))
        cap = (int64_t)1 << 26;
    return cap < 1 ? 1 : cap;
}

static vsg_status step_grid(vsg_exec *x, const double *boxes_b, int64_t nb, int64_t cap,
                            vsg_grid *grid)
{
    vsg_status launched = vsg_exec_launch(x, "candidates grid");
    if (launched != VSG_OK)
        return launched;
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cand_grid(vsg_exec_gpu(x), boxes_b, nb, cap, grid));
    vsg_grid_stats s;
    vsg_grid_stats_init(&s);
    for (int64_t j = 0; j < nb; j++)
        vsg_grid_stats_add(&s, boxes_b + 4 * j);
    vsg_grid_make(&s, cap, grid);
    return VSG_OK;
}

static vsg_status step_b_count(vsg_exec *x, const vsg_grid *grid, const double *boxes_b,
                               int64_t nb, int64_t *cnt)
{
    vsg_status launched = vsg_exec_launch(x, "candidates count");
    if (launched != VSG_OK)
        return launched;
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cand_b_count(vsg_exec_gpu(x), grid, boxes_b, nb, cnt));
    for (int64_t j = 0; j < nb; j++)
        cnt[j] = vsg_grid_b_count(grid, boxes_b + 4 * j);
    return VSG_OK;
}

static vsg_status step_b_fill(vsg_exec *x, const vsg_grid *grid, const double *boxes_b,
                              int64_t nb, const int64_t *off, uint64_t *ekeys, int64_t *eids)
{
    vsg_status launched = vsg_exec_launch(x, "candidates fill");
    if (launched != VSG_OK)
        return launched;
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cand_b_fill(vsg_exec_gpu(x), grid, boxes_b, nb, off, ekeys, eids));
    for (int64_t j = 0; j < nb; j++)
        vsg_grid_b_fill(grid, boxes_b + 4 * j, j, off[j], ekeys, eids);
    return VSG_OK;
}

/* ebox[e] = the box of entry e; cell_start[c] = first entry of cell c, for
 * c in [0, slots). */
static vsg_status step_cells(vsg_exec *x, const double *boxes_b, const uint64_t *ekeys,
                             const int64_t *eids, int64_t ne, int64_t slots, double *ebox,
                             int64_t *cell_start)
{
    vsg_status launched = vsg_exec_launch(x, "candidates cells");
    if (launched != VSG_OK)
        return launched;
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cand_cells(vsg_exec_gpu(x), boxes_b, ekeys, eids, ne, slots, ebox,
                                     cell_start));
    for (int64_t e = 0; e < ne; e++)
        for (int k = 0; k < 4; k++)
            ebox[4 * e + k] = boxes_b[4 * eids[e] + k];
    for (int64_t c = 0; c < slots; c++)
        cell_start[c] = vsg_grid_lower_bound(ekeys, ne, (uint64_t)c);
    return VSG_OK;
}

/* blk[i] = items of row i (the grid rows its cells span). */
static vsg_status step_items(vsg_exec *x, const vsg_grid *grid, const double *boxes_a,
                             int64_t na, int64_t *blk)
{
    vsg_status launched = vsg_exec_launch(x, "candidates items");
    if (launched != VSG_OK)
        return launched;
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cand_items(vsg_exec_gpu(x), grid, boxes_a, na, blk));
    for (int64_t i = 0; i < na; i++)
        blk[i] = vsg_grid_row_items(grid, boxes_a + 4 * i);
    return VSG_OK;
}

/* it_row[t] = the row of item t, nch[t] = its chunks (its candidates: its
 * row's run and, for a box's first item, the big cell's). */
static vsg_status step_item_chunks(vsg_exec *x, const vsg_grid *grid, const double *boxes_a,
                                   int64_t na, const int64_t *blk_off, int64_t ni,
                                   const int64_t *cell_start, int64_t *it_row, int64_t *nch)
{
    vsg_status launched = vsg_exec_launch(x, "candidates chunks");
    if (launched != VSG_OK)
        return launched;
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cand_item_chunks(vsg_exec_gpu(x), grid, boxes_a, na, blk_off, ni,
                                           cell_start, it_row, nch));
    for (int64_t t = 0; t < ni; t++) {
        int64_t i = vsg_grid_item_row(blk_off, na, t), cy, e0, e1, b0, b1;
        it_row[t] = i;
        nch[t] = vsg_grid_chunks(vsg_grid_item_runs(grid, boxes_a + 4 * i, t - blk_off[i],
                                                    cell_start, &cy, &e0, &e1, &b0, &b1));
    }
    return VSG_OK;
}

/* One chunk of an item's candidates per thread (elements/filter/grid.h,
 * the device-shaped probe): cnt[k] = pairs of chunk k, hits[k] their
 * positions, item[k] the chunk's item (so the fill needs no search). */
static vsg_status step_probe(vsg_exec *x, const vsg_grid *grid, const double *boxes_a,
                             const int64_t *blk_off, const int64_t *it_row, int64_t ni,
                             const int64_t *coff, int64_t nk, const int64_t *cell_start,
                             const uint64_t *ekeys, const double *ebox, const int64_t *eids,
                             vsg_grid_want want, int64_t *cnt, uint32_t *hits, int64_t *item)
{
    vsg_status launched = vsg_exec_launch(x, "candidates probe");
    if (launched != VSG_OK)
        return launched;
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cand_probe(vsg_exec_gpu(x), grid, boxes_a, blk_off, it_row, ni, coff,
                                     nk, cell_start, ekeys, ebox, eids, want, cnt, hits, item));
    int64_t most = 0;
    for (int64_t k = 0; k < nk; k++) {
        int64_t t = vsg_grid_item_row(coff, ni, k), i = it_row[t], w = 0;
        item[k] = t;
        cnt[k] = vsg_grid_probe_chunk(grid, boxes_a + 4 * i, i, t - blk_off[i], k - coff[t],
                                      cell_start, ekeys, ebox, eids, want, hits + k, &w);
        most = w + 1 > most ? w + 1 : most;   /* the candidates and the item */
    }
    vsg_exec_note_work(x, most);
    return VSG_OK;
}

/* The pairs the probe marked, written from off[k]. */
static vsg_status step_emit(vsg_exec *x, const vsg_grid *grid, const double *boxes_a,
                            const int64_t *blk_off, const int64_t *it_row,
                            const int64_t *coff, int64_t nk, const int64_t *cell_start,
                            const int64_t *eids, const uint32_t *hits, const int64_t *item,
                            int bbits, const int64_t *off, uint64_t *pkeys, int64_t *pb)
{
    vsg_status launched = vsg_exec_launch(x, "candidates emit");
    if (launched != VSG_OK)
        return launched;
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cand_emit(vsg_exec_gpu(x), grid, boxes_a, blk_off, it_row, coff, nk,
                                    cell_start, eids, hits, item, bbits, off, pkeys, pb));
    for (int64_t k = 0; k < nk; k++) {
        if (!hits[k])
            continue;
        int64_t t = item[k], i = it_row[t];
        vsg_grid_emit_chunk(grid, boxes_a + 4 * i, i, t - blk_off[i], k - coff[t], cell_start,
                            eids, hits[k], bbits, off[k], pkeys, pb);
    }
    return VSG_OK;
}

static vsg_status step_decode(vsg_exec *x, const uint64_t *pkeys, int64_t n, int bbits,
                              int64_t *pa)
{
    vsg_status launched = vsg_exec_launch(x, "candidates decode");
    if (launched != VSG_OK)
        return launched;
    if (vsg_step_on_gpu(x))
        GPU_OR(vsg_launch_cand_decode(vsg_exec_gpu(x), pkeys, n, bbits, pa));
    for (int64_t k = 0; k < n; k++)
        pa[k] = (int64_t)(pkeys[k] >> bbits);
    return VSG_OK;
}

/* Scratch of one run, freed together. */
typedef struct {
    vsg_grid *grid;
    int64_t *cnt_b, *off_b, *eids, *cell_start, *blk, *blk_off, *it_row, *nch, *coff, *cnt_a,
        *off_a, *item;
    uint64_t *ekeys, *pkeys;
    uint32_t *hits;
    double *ebox;
} cand_scratch;

static void scratch_free(vsg_exec *x, cand_scratch *s)
{
    vsg_exec_free(x, s->grid);
    vsg_exec_free(x, s->cnt_b);
    vsg_exec_free(x, s->off_b);
    vsg_exec_free(x, s->eids);
    vsg_exec_free(x, s->cell_start);
    vsg_exec_free(x, s->blk);
    vsg_exec_free(x, s->blk_off);
    vsg_exec_free(x, s->it_row);
    vsg_exec_free(x, s->nch);
    vsg_exec_free(x, s->coff);
    vsg_exec_free(x, s->cnt_a);
    vsg_exec_free(x, s->off_a);
    vsg_exec_free(x, s->item);
    vsg_exec_free(x, s->hits);
    vsg_exec_free(x, s->ekeys);
    vsg_exec_free(x, s->pkeys);
    vsg_exec_free(x, s->ebox);
}

static vsg_status run(vsg_exec *x, const double *boxes_a, int64_t na, const double *boxes_b,
                      int64_t nb, int sorted, vsg_grid_want want, vsg_pairs *out,
                      cand_scratch *s)
{
    vsg_status st = VSG_OK;
    const int abits = vsg_grid_bits(na), bbits = vsg_grid_bits(nb);
    if (abits + bbits > 64)
        return VSG_ERR_INVALID_ARG;
    const int64_t cap = cell_cap(nb);
    const int64_t slots = cap + 2;          /* cells, the big cell, the end */
    int64_t ne = 0, np = 0, ni = 0, nk = 0;

    /* Phase 1: the grid */
    TRY(vsg_exec_alloc(x, sizeof *s->grid, (void **)&s->grid));
    TRY(step_grid(x, boxes_b, nb, cap, s->grid));

    /* Phase 2: b's entries, grouped by cell; a's items (which need only
     * the grid) counted beside them, so that one wait reads both sizes */
    TRY(vsg_exec_alloc(x, (size_t)nb * sizeof(int64_t), (void **)&s->cnt_b));
    TRY(vsg_exec_alloc(x, (size_t)(nb + 1) * sizeof(int64_t), (void **)&s->off_b));
    TRY(step_b_count(x, s->grid, boxes_b, nb, s->cnt_b));
    TRY(vsg_exec_scan_i64(x, s->cnt_b, s->off_b, nb));
    TRY(vsg_exec_alloc(x, (size_t)na * sizeof(int64_t), (void **)&s->blk));
    TRY(vsg_exec_alloc(x, (size_t)(na + 1) * sizeof(int64_t), (void **)&s->blk_off));
    TRY(step_items(x, s->grid, boxes_a, na, s->blk));
    TRY(vsg_exec_scan_i64(x, s->blk, s->blk_off, na));
    TRY(vsg_exec_read2_i64(x, s->off_b + nb, &ne, s->blk_off + na, &ni));
    vsg_exec_free(x, s->cnt_b);
    s->cnt_b = NULL;
    vsg_exec_free(x, s->blk);
    s->blk = NULL;
    TRY(vsg_exec_alloc(x, (size_t)ne * sizeof(uint64_t), (void **)&s->ekeys));
    TRY(vsg_exec_alloc(x, (size_t)ne * sizeof(int64_t), (void **)&s->eids));
    TRY(step_b_fill(x, s->grid, boxes_b, nb, s->off_b, s->ekeys, s->eids));
    TRY(vsg_exec_sort_u64_i64(x, s->ekeys, s->eids, ne, vsg_grid_bits(slots)));
    TRY(vsg_exec_alloc(x, (size_t)ne * 4 * sizeof(double), (void **)&s->ebox));
    TRY(vsg_exec_alloc(x, (size_t)slots * sizeof(int64_t), (void **)&s->cell_start));
    TRY(step_cells(x, boxes_b, s->ekeys, s->eids, ne, slots, s->ebox, s->cell_start));

    /* Phase 3: items (a row, grid row of its cells), cut into chunks of
     * at most VSG_GRID_CHUNK candidates; pairs per chunk: counted and
     * marked, then written */
    TRY(vsg_exec_alloc(x, (size_t)(ni ? ni : 1) * sizeof(int64_t), (void **)&s->it_row));
    TRY(vsg_exec_alloc(x, (size_t)(ni ? ni : 1) * sizeof(int64_t), (void **)&s->nch));
    TRY(vsg_exec_alloc(x, (size_t)(ni + 1) * sizeof(int64_t), (void **)&s->coff));
    TRY(step_item_chunks(x, s->grid, boxes_a, na, s->blk_off, ni, s->cell_start, s->it_row,
                         s->nch));
    TRY(vsg_exec_scan_i64(x, s->nch, s->coff, ni));
    TRY(vsg_exec_read_i64(x, s->coff + ni, &nk));
    vsg_exec_free(x, s->nch);   /* scanned: the probe's arrays take its place */
    s->nch = NULL;
    TRY(vsg_exec_alloc(x, (size_t)(nk ? nk : 1) * sizeof(int64_t), (void **)&s->cnt_a));
    TRY(vsg_exec_alloc(x, (size_t)(nk + 1) * sizeof(int64_t), (void **)&s->off_a));
    TRY(vsg_exec_alloc(x, (size_t)(nk ? nk : 1) * sizeof(uint32_t), (void **)&s->hits));
    TRY(vsg_exec_alloc(x, (size_t)(nk ? nk : 1) * sizeof(int64_t), (void **)&s->item));
    TRY(step_probe(x, s->grid, boxes_a, s->blk_off, s->it_row, ni, s->coff, nk, s->cell_start,
                   s->ekeys, s->ebox, s->eids, want, s->cnt_a, s->hits, s->item));
    TRY(vsg_exec_scan_i64(x, s->cnt_a, s->off_a, nk));
    TRY(vsg_exec_read_i64(x, s->off_a + nk, &np));
    TRY(vsg_exec_alloc(x, (size_t)np * sizeof(uint64_t), (void **)&s->pkeys));
    TRY(vsg_exec_alloc(x, (size_t)np * sizeof(int64_t), (void **)&out->a));
    TRY(vsg_exec_alloc(x, (size_t)np * sizeof(int64_t), (void **)&out->b));
    TRY(step_emit(x, s->grid, boxes_a, s->blk_off, s->it_row, s->coff, nk, s->cell_start,
                  s->eids, s->hits, s->item, bbits, s->off_a, s->pkeys, out->b));

    /* Phase 4: (i, j) order (else the probe's: by i, then as the cells
     * hold them) */
    if (sorted)
        TRY(vsg_exec_sort_u64_i64(x, s->pkeys, out->b, np, abits + bbits));
    TRY(step_decode(x, s->pkeys, np, bbits, out->a));
    out->n = np;
done:
    return st;
}

static vsg_status candidates(vsg_exec *x, const double *boxes_a, int64_t na,
                             const double *boxes_b, int64_t nb, int sorted, vsg_grid_want want,
                             vsg_pairs *out)
{
    out->n = 0;
    out->a = out->b = NULL;
    if (na < 0 || nb < 0)
        return VSG_ERR_INVALID_ARG;
    vsg_exec_stage_begin(x, "candidates");
    vsg_status st = VSG_OK;
    if (na > 0 && nb > 0) {
        cand_scratch s = {0};
        /* the CPU engine's own backend: one pass, no device-shaped steps */
        if (vsg_exec_host_plain(x))
            st = vsg_candidates_host_run(x, boxes_a, na, boxes_b, nb, cell_cap(nb), sorted,
                                         want, out);
        else
            st = run(x, boxes_a, na, boxes_b, nb, sorted, want, out, &s);
        scratch_free(x, &s);
        if (st != VSG_OK) {
            vsg_exec_free(x, out->a);
            vsg_exec_free(x, out->b);
            out->a = out->b = NULL;
            out->n = 0;
        }
    }
    vsg_exec_stage_end(x, na + nb, out->n);
    return st;
}

static const vsg_grid_want every = {0, NULL};

vsg_status vsg_stage_candidates(vsg_exec *x, const double *boxes_a, int64_t na,
                                const double *boxes_b, int64_t nb, vsg_pairs *out)
{
    return candidates(x, boxes_a, na, boxes_b, nb, 1, every, out);
}

vsg_status vsg_stage_candidates_unsorted(vsg_exec *x, const double *boxes_a, int64_t na,
                                         const double *boxes_b, int64_t nb, vsg_pairs *out)
{
    return candidates(x, boxes_a, na, boxes_b, nb, 0, every, out);
}

vsg_status vsg_stage_candidates_above(vsg_exec *x, const double *boxes, int64_t n, int64_t gap,
                                      int sorted, vsg_pairs *out)
{
    return vsg_stage_candidates_grouped(x, boxes, NULL, n, gap, sorted, out);
}

vsg_status vsg_stage_candidates_grouped(vsg_exec *x, const double *boxes, const int64_t *group,
                                        int64_t n, int64_t gap, int sorted, vsg_pairs *out)
{
    if (gap < 1)
        return VSG_ERR_INVALID_ARG;
    vsg_grid_want want = {gap, group};
    return candidates(x, boxes, n, boxes, n, sorted, want, out);
}
