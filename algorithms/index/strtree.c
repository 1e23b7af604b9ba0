/*
 * strtree.c - see strtree.h.
 *
 * Layout: every level of the tree is stored in one array `node`, leaves
 * (the entries themselves) first, the root last. An entry holds its box
 * and its id; an inner node holds its box and the range [first,
 * first+count) of its children in the level below. STR packs a level of m
 * entries into P = ceil(m / C) nodes: sort by x-centre, cut into S =
 * ceil(sqrt(P)) vertical slices of S*C entries, sort each slice by
 * y-centre, and group runs of C. The parent level is packed the same way
 * until a single root remains.
 */
#include "strtree.h"

#include "elements/box.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double box[4];
    int64_t first;   /* entry: its id; inner node: first child index */
    int64_t count;   /* entry: 0; inner node: number of children     */
} node_t;

struct vsg_strtree {
    node_t *node;
    size_t n_nodes;
    size_t n_entries;   /* node[0, n_entries) are the entries */
    size_t root;
};

void vsg_id_list_free(vsg_id_list *l)
{
    free(l->ids);
    l->ids = NULL;
    l->n = l->cap = 0;
}

/* qsort comparators on box centres; ties broken on the children range so
 * that the packing does not depend on qsort's (unstable) order. */
static int cmp_x(const void *a, const void *b)
{
    const node_t *p = a, *q = b;
    double cp = p->box[0] + p->box[2], cq = q->box[0] + q->box[2];
    if (cp != cq)
        return cp < cq ? -1 : 1;
    return (p->first > q->first) - (p->first < q->first);
}

static int cmp_y(const void *a, const void *b)
{
    const node_t *p = a, *q = b;
    double cp = p->box[1] + p->box[3], cq = q->box[1] + q->box[3];
    if (cp != cq)
        return cp < cq ? -1 : 1;
    return (p->first > q->first) - (p->first < q->first);
}

/* Sorts level[0, m) in STR order (in place) and writes the parents into
 * parent[0, *n_parents); `base` is the index of level[0] in the final
 * node array. */
static void pack_level(node_t *level, size_t m, size_t base, node_t *parent,
                       size_t *n_parents)
{
    const size_t C = VSG_STRTREE_NODE_CAPACITY;
    size_t P = (m + C - 1) / C;
    size_t S = (size_t)ceil(sqrt((double)P));
    size_t slice = S * C;

    qsort(level, m, sizeof *level, cmp_x);
    for (size_t s = 0; s < m; s += slice) {
        size_t len = m - s < slice ? m - s : slice;
        qsort(level + s, len, sizeof *level, cmp_y);
    }

    size_t np = 0;
    for (size_t s = 0; s < m; s += C) {
        size_t len = m - s < C ? m - s : C;
        node_t *n = &parent[np++];
        n->first = (int64_t)(base + s);
        n->count = (int64_t)len;
        memcpy(n->box, level[s].box, sizeof n->box);
        for (size_t k = 1; k < len; k++) {
            const double *b = level[s + k].box;
            if (b[0] < n->box[0]) n->box[0] = b[0];
            if (b[1] < n->box[1]) n->box[1] = b[1];
            if (b[2] > n->box[2]) n->box[2] = b[2];
            if (b[3] > n->box[3]) n->box[3] = b[3];
        }
    }
    *n_parents = np;
}

vsg_status vsg_strtree_build(const double *boxes, const unsigned char *include,
                             size_t n, vsg_strtree **out)
{
    *out = NULL;
    vsg_strtree *t = calloc(1, sizeof *t);
    if (!t)
        return VSG_ERR_NOMEM;

    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += !include || include[i];
    t->n_entries = m;
    if (m == 0) {
        *out = t;
        return VSG_OK;
    }

    /* Total nodes: m entries + ceil(m/C) + ... + 1; 2m + levels bounds it
     * for C >= 2. */
    size_t cap = 2 * m + 64;
    t->node = malloc(cap * sizeof *t->node);
    if (!t->node) {
        free(t);
        return VSG_ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (include && !include[i])
            continue;
        memcpy(t->node[k].box, boxes + 4 * i, sizeof t->node[k].box);
        t->node[k].first = (int64_t)i;
        t->node[k].count = 0;
        k++;
    }

    size_t level = 0, level_len = m, used = m;
    for (;;) {
        size_t np;
        pack_level(t->node + level, level_len, level, t->node + used, &np);
        level = used;
        level_len = np;
        used += np;
        if (np == 1)
            break;
    }
    t->n_nodes = used;
    t->root = used - 1;
    *out = t;
    return VSG_OK;
}

void vsg_strtree_destroy(vsg_strtree *t)
{
    if (!t)
        return;
    free(t->node);
    free(t);
}

size_t vsg_strtree_size(const vsg_strtree *t)
{
    return t ? t->n_entries : 0;
}


static int cmp_id(const void *a, const void *b)
{
    int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;
    return (p > q) - (p < q);
}

vsg_status vsg_id_list_push(vsg_id_list *l, int64_t id)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 32;
        int64_t *q = realloc(l->ids, cap * sizeof *q);
        if (!q)
            return VSG_ERR_NOMEM;
        l->ids = q;
        l->cap = cap;
    }
    l->ids[l->n++] = id;
    return VSG_OK;
}

vsg_status vsg_strtree_query(const vsg_strtree *t, const double box[4],
                             vsg_id_list *out)
{
    out->n = 0;
    if (!t || t->n_entries == 0)
        return VSG_OK;
    /* Depth-first with an explicit stack: at most C children pushed per
     * level, and a tree of C=16 holding 2^63 entries has < 16 levels. */
    size_t stack[VSG_STRTREE_NODE_CAPACITY * 20];
    size_t top = 0;
    if (!vsg_box_meets(t->node[t->root].box, box))
        return VSG_OK;
    stack[top++] = t->root;
    while (top > 0) {
        const node_t *nd = &t->node[stack[--top]];
        if (nd->count == 0) {   /* an entry: its box was tested by its parent */
            if (vsg_id_list_push(out, nd->first) != VSG_OK)
                return VSG_ERR_NOMEM;
            continue;
        }
        for (int64_t c = nd->first; c < nd->first + nd->count; c++)
            if (vsg_box_meets(t->node[c].box, box))
                stack[top++] = (size_t)c;
    }
    if (out->n > 1)
        qsort(out->ids, out->n, sizeof *out->ids, cmp_id);
    return VSG_OK;
}
