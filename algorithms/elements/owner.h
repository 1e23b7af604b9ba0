/*
 * owner.h - the owner of an item in a flattened list: with off the
 * exclusive scan of the owners' item counts, item t belongs to the last
 * owner i with off[i] <= t. A binary search, so an item finds its owner in
 * bounded work whatever the owners' sizes (the grid join's probe items and
 * chunks, the columnar gather's parts, rings and coordinates).
 */
#ifndef VSG_ELEMENTS_OWNER_H
#define VSG_ELEMENTS_OWNER_H

#include "elements/hd.h"

/* The last i in [0, n) with off[i] <= t (off ascending, off[0] <= t). */
VSG_HD int64_t vsg_owner(const int64_t *off, int64_t n, int64_t t)
{
    int64_t lo = 0, hi = n;   /* off[lo] <= t, and the answer is < hi */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (off[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

#endif
