/*
 * candidates_host.c - the candidates stage on the CPU engine's own host
 * backend (exec.h, vsg_exec_host_plain): the same grid and element
 * functions as candidates.c (elements/filter/grid.h), in one pass.
 *
 * The device's path is shaped for a GPU: count then fill, a radix sort of
 * the entries by cell, a binary search per cell and per probe item, and a
 * global radix sort of the pairs. One core wants none of that: it buckets
 * the entries by a counting sort (stable, so the entries of a cell keep
 * the same order), walks the a rows in order, probes each row's cell
 * blocks once into a growing buffer (sized per block from the cells'
 * entry counts, so nothing is probed twice) and sorts each row's pairs by
 * b (a few: in place; many: the backend's sort). Same pairs, same order. The other host backends (CI's stand-in for
 * the GPU pipeline) keep running the device's path.
 */
#include "stages/filter/candidates_host.h"

#include <string.h>

#include "elements/filter/grid.h"

typedef struct {
    vsg_exec *x;
    uint64_t *keys;     /* (i << bbits) | j                 */
    int64_t *b;         /* j, written by the probe too       */
    int64_t n, cap;
} pair_buf;

static vsg_status reserve(pair_buf *p, int64_t more)
{
    if (p->n + more <= p->cap)
        return VSG_OK;
    int64_t cap = p->cap * 2 > p->n + more ? p->cap * 2 : p->n + more;
    uint64_t *k = NULL;
    int64_t *b = NULL;
    vsg_status st = vsg_exec_alloc(p->x, (size_t)cap * sizeof *k, (void **)&k);
    if (st == VSG_OK)
        st = vsg_exec_alloc(p->x, (size_t)cap * sizeof *b, (void **)&b);
    if (st != VSG_OK) {
        vsg_exec_free(p->x, k);
        return st;
    }
    if (p->n) {
        memcpy(k, p->keys, (size_t)p->n * sizeof *k);
        memcpy(b, p->b, (size_t)p->n * sizeof *b);
    }
    vsg_exec_free(p->x, p->keys);
    vsg_exec_free(p->x, p->b);
    p->keys = k;
    p->b = b;
    p->cap = cap;
    return VSG_OK;
}

/* The most pairs block blk of box a can give: the entries of its cells
 * (and the big cell's, for block 0). */
static int64_t block_bound(const vsg_grid *g, const double *a, int64_t blk,
                           const int64_t *cell_start)
{
    int64_t cx0, cy0, cx1, cy1;
    vsg_grid_range(g, a, &cx0, &cy0, &cx1, &cy1);
    int64_t w = cx1 - cx0 + 1, cells = w * (cy1 - cy0 + 1);
    int64_t t0 = blk * VSG_GRID_PROBE_CELLS;
    int64_t t1 = t0 + VSG_GRID_PROBE_CELLS < cells ? t0 + VSG_GRID_PROBE_CELLS : cells;
    int64_t n = blk == 0 ? cell_start[g->big + 1] - cell_start[g->big] : 0;
    for (int64_t t = t0; t < t1; t++) {
        int64_t c = (cy0 + t / w) * g->gx + cx0 + t % w;
        n += cell_start[c + 1] - cell_start[c];
    }
    return n;
}

/* A row's few keys in order (nearly sorted: an insertion sort; the
 * caller hands long rows to the backend's sort). */
static void sort_few(uint64_t *k, int64_t n)
{
    for (int64_t i = 1; i < n; i++) {
        uint64_t v = k[i];
        int64_t j = i;
        for (; j > 0 && k[j - 1] > v; j--)
            k[j] = k[j - 1];
        k[j] = v;
    }
}

/* b's entries bucketed by cell: eids/ebox in cell order (a counting sort,
 * stable: within a cell, by b row as the device's stable radix sort
 * leaves them), cell_start[c] the first entry of cell c, c < slots. */
static vsg_status bucket(vsg_exec *x, const vsg_grid *g, const double *boxes_b, int64_t nb,
                         int64_t slots, int64_t **eids, double **ebox, int64_t **cell_start)
{
    vsg_status st = vsg_exec_launch(x, "candidates cells");
    int64_t *off = NULL, *next = NULL, *ids = NULL, ne = 0;
    uint64_t *keys = NULL;
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)(nb + 1) * sizeof *off, (void **)&off);
    for (int64_t j = 0; st == VSG_OK && j < nb; j++) {
        off[j] = ne;
        ne += vsg_grid_b_count(g, boxes_b + 4 * j);
    }
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)ne * sizeof *keys, (void **)&keys);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)ne * sizeof *ids, (void **)&ids);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)slots * sizeof *next, (void **)&next);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)ne * sizeof **eids, (void **)eids);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)ne * 4 * sizeof **ebox, (void **)ebox);
    if (st == VSG_OK)
        st = vsg_exec_alloc(x, (size_t)slots * sizeof **cell_start, (void **)cell_start);
    if (st == VSG_OK) {
        int64_t *cs = *cell_start;
        for (int64_t j = 0; j < nb; j++)
            vsg_grid_b_fill(g, boxes_b + 4 * j, j, off[j], keys, ids);
        /* keys are cells 0 .. big (< slots - 1): counts, then starts */
        memset(next, 0, (size_t)slots * sizeof *next);
        for (int64_t e = 0; e < ne; e++)
            next[keys[e]]++;
        for (int64_t c = 0, sum = 0; c < slots; c++) {
            cs[c] = sum;
            sum += next[c];
            next[c] = cs[c];
        }
        for (int64_t e = 0; e < ne; e++) {
            int64_t d = next[keys[e]]++, j = ids[e];
            (*eids)[d] = j;
            memcpy(*ebox + 4 * d, boxes_b + 4 * j, 4 * sizeof **ebox);
        }
    }
    vsg_exec_free(x, off);
    vsg_exec_free(x, keys);
    vsg_exec_free(x, ids);
    vsg_exec_free(x, next);
    return st;
}

/* Every a row's pairs, row by row, each row sorted by b (if sorted). */
static vsg_status probe_rows(vsg_exec *x, const vsg_grid *g, const double *boxes_a, int64_t na,
                             const int64_t *cell_start, const double *ebox,
                             const int64_t *eids, vsg_grid_want want, int abits, int bbits,
                             int sorted, pair_buf *p)
{
    vsg_status st = vsg_exec_launch(x, "candidates probe");
    int64_t most = 0;
    for (int64_t i = 0; st == VSG_OK && i < na; i++) {
        const double *a = boxes_a + 4 * i;
        int64_t blocks = vsg_grid_probe_blocks(g, a), row = p->n;
        for (int64_t blk = 0; st == VSG_OK && blk < blocks; blk++) {
            st = reserve(p, block_bound(g, a, blk, cell_start));
            int64_t w = 0;
            if (st == VSG_OK)
                p->n += vsg_grid_probe(g, a, i, blk, cell_start, ebox, eids, want, bbits, p->n,
                                       p->keys, p->b, &w);
            most = w > most ? w : most;
        }
        /* the row's pairs by b (the b column follows; it is rewritten
         * from the keys at the end) */
        int64_t k = p->n - row;
        if (st == VSG_OK && sorted && k > 32)
            st = vsg_exec_sort_u64_i64(x, p->keys + row, p->b + row, k, abits + bbits);
        else if (st == VSG_OK && sorted)
            sort_few(p->keys + row, k);
    }
    vsg_exec_note_work(x, most);
    return st;
}

vsg_status vsg_candidates_host_run(vsg_exec *x, const double *boxes_a, int64_t na,
                                   const double *boxes_b, int64_t nb, int64_t cap,
                                   int sorted, vsg_grid_want want, vsg_pairs *out)
{
    const int abits = vsg_grid_bits(na), bbits = vsg_grid_bits(nb);
    if (abits + bbits > 64)
        return VSG_ERR_INVALID_ARG;
    const int64_t slots = cap + 2;   /* cells, the big cell, the end */
    vsg_grid g;
    int64_t *eids = NULL, *cell_start = NULL;
    double *ebox = NULL;
    pair_buf p = {x, NULL, NULL, 0, 0};
    vsg_status st = vsg_exec_launch(x, "candidates grid");
    if (st == VSG_OK) {
        vsg_grid_stats s;
        vsg_grid_stats_init(&s);
        for (int64_t j = 0; j < nb; j++)
            vsg_grid_stats_add(&s, boxes_b + 4 * j);
        vsg_grid_make(&s, cap, &g);
        st = bucket(x, &g, boxes_b, nb, slots, &eids, &ebox, &cell_start);
    }
    if (st == VSG_OK)
        st = reserve(&p, na + 16);
    if (st == VSG_OK)
        st = probe_rows(x, &g, boxes_a, na, cell_start, ebox, eids, want, abits, bbits, sorted,
                        &p);
    vsg_exec_free(x, eids);
    vsg_exec_free(x, ebox);
    vsg_exec_free(x, cell_start);
    if (st == VSG_OK && p.n > 0)
        st = vsg_exec_alloc(x, (size_t)p.n * sizeof *out->a, (void **)&out->a);
    if (st == VSG_OK && p.n > 0) {
        /* the b column is the probe's; the a column from the sorted keys,
         * whose low bits are b again */
        const uint64_t mask = bbits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bbits) - 1);
        for (int64_t k = 0; k < p.n; k++) {
            out->a[k] = (int64_t)(p.keys[k] >> bbits);
            p.b[k] = (int64_t)(p.keys[k] & mask);
        }
        out->b = p.b;
        p.b = NULL;
        out->n = p.n;
    }
    vsg_exec_free(x, p.keys);
    vsg_exec_free(x, p.b);
    return st;
}
