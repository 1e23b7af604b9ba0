/*
 * strtree.h - a packed, static R-tree over axis-aligned boxes, built by
 * Sort-Tile-Recursive (Leutenegger, Lopez and Edgington, 1997).
 *
 * Read-only once built: any number of threads may query it at once
 * without locks (unlike GEOSSTRtree, whose lazy build mutates on the first
 * query). A query returns the ids whose box meets the query box (closed
 * boxes: touching counts), sorted ascending so that callers visit
 * candidates in a fixed order.
 */
#ifndef VSG_INDEX_STRTREE_H
#define VSG_INDEX_STRTREE_H

#include <stddef.h>
#include <stdint.h>

#include "vsgpu_engine.h"

#define VSG_STRTREE_NODE_CAPACITY 16

typedef struct vsg_strtree vsg_strtree;

/* A growable list of ids, reused between queries to avoid allocations. */
typedef struct {
    int64_t *ids;
    size_t n, cap;
} vsg_id_list;

void vsg_id_list_free(vsg_id_list *l);
/* Appends id, growing the list; VSG_ERR_NOMEM (list unchanged) on failure. */
vsg_status vsg_id_list_push(vsg_id_list *l, int64_t id);

/* boxes: n entries of xmin, ymin, xmax, ymax. Entry i gets id i; entries
 * with include[i] == 0 (include may be NULL) are left out. Boxes must be
 * finite. On failure returns VSG_ERR_NOMEM and *out is NULL. */
vsg_status vsg_strtree_build(const double *boxes, const unsigned char *include,
                             size_t n, vsg_strtree **out);
void vsg_strtree_destroy(vsg_strtree *t);

/* Number of entries indexed. */
size_t vsg_strtree_size(const vsg_strtree *t);

/* Replaces out's contents with the ids whose box meets box, ascending.
 * Returns VSG_ERR_NOMEM (out then holds a partial list) or VSG_OK. */
vsg_status vsg_strtree_query(const vsg_strtree *t, const double box[4],
                             vsg_id_list *out);

#endif
