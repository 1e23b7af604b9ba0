/*
 * result.c - vsg_result: parallel arrays grown by doubling.
 */
#include "result.h"

#include "core/fault.h"

#include <stdlib.h>
#include <string.h>

void vsg_result_init(vsg_result *r)
{
    if (r)
        memset(r, 0, sizeof *r);
}

void vsg_result_clear(vsg_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->count; i++)
        free(r->wkb[i]);
    free(r->input_index);
    free(r->method_index);
    free(r->wkb);
    free(r->size);
    vsg_result_init(r);
}

/* Grows one array; the old block stays valid if realloc fails, so the
 * caller can leave r consistent. */
static int grow(void **p, size_t elem, size_t capacity)
{
    void *q = vsg_realloc(*p, elem * capacity);
    if (!q)
        return -1;
    *p = q;
    return 0;
}

vsg_status vsg_result_reserve(vsg_result *r, size_t capacity)
{
    if (capacity <= r->capacity)
        return VSG_OK;
    if (capacity > SIZE_MAX / sizeof(int64_t))
        return VSG_ERR_NOMEM;
    /* Each array is grown to the new capacity; a failure part way leaves
     * some arrays larger than r->capacity, which is harmless. */
    if (grow((void **)&r->input_index, sizeof *r->input_index, capacity) ||
        grow((void **)&r->method_index, sizeof *r->method_index, capacity) ||
        grow((void **)&r->wkb, sizeof *r->wkb, capacity) ||
        grow((void **)&r->size, sizeof *r->size, capacity))
        return VSG_ERR_NOMEM;
    r->capacity = capacity;
    return VSG_OK;
}

vsg_status vsg_result_push(vsg_result *r, int64_t input_index,
                           int64_t method_index, unsigned char *wkb,
                           size_t size)
{
    if (r->count == r->capacity) {
        vsg_status st = vsg_result_reserve(r, r->capacity ? 2 * r->capacity : 64);
        if (st != VSG_OK)
            return st;
    }
    r->input_index[r->count] = input_index;
    r->method_index[r->count] = method_index;
    r->wkb[r->count] = wkb;
    r->size[r->count] = size;
    r->count++;
    return VSG_OK;
}
