/*
 * chunking.h - cutting a large dissolve group into spatially coherent
 * chunks, so that one huge group (dissolve all) still feeds every thread.
 *
 * Members are ordered along a Morton (Z-order) curve of their envelope
 * centres, then cut into runs of VSG_DISSOLVE_CHUNK. The chunk size is a
 * constant, never derived from the thread count: the union tree, hence the
 * output bytes, must not depend on how many threads run it.
 */
#ifndef VSG_DISSOLVE_CHUNKING_H
#define VSG_DISSOLVE_CHUNKING_H

#include <stddef.h>
#include <stdint.h>

#define VSG_DISSOLVE_CHUNK 32

/* Reorders members[0, n) (geometry indexes) along the Morton curve of the
 * centres of boxes[4*member]. Ties keep index order. Returns 0, or -1 when
 * out of memory (members then unchanged). */
int vsg_morton_sort(int64_t *members, size_t n, const double *boxes);

/* 30 bits of Morton code (15 per axis) for a point in the box `extent`. */
uint32_t vsg_morton_code(double x, double y, const double extent[4]);

#endif
