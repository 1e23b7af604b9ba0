/*
 * chunking.c - see chunking.h.
 */
#include "chunking.h"

#include "core/fault.h"

#include <stdlib.h>

/* Spreads the low 15 bits of v to the even bit positions. */
static uint32_t spread(uint32_t v)
{
    v &= 0x7FFF;
    v = (v | (v << 8)) & 0x00FF00FF;
    v = (v | (v << 4)) & 0x0F0F0F0F;
    v = (v | (v << 2)) & 0x33333333;
    v = (v | (v << 1)) & 0x55555555;
    return v;
}

static uint32_t quantise(double v, double lo, double hi)
{
    if (!(hi > lo))
        return 0;
    double t = (v - lo) / (hi - lo);
    if (!(t > 0.0))
        return 0;
    if (t >= 1.0)
        return 0x7FFF;
    return (uint32_t)(t * 32767.0);
}

uint32_t vsg_morton_code(double x, double y, const double extent[4])
{
    return spread(quantise(x, extent[0], extent[2])) |
           spread(quantise(y, extent[1], extent[3])) << 1;
}

typedef struct {
    uint32_t code;
    int64_t member;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *p = a, *q = b;
    if (p->code != q->code)
        return p->code < q->code ? -1 : 1;
    return (p->member > q->member) - (p->member < q->member);
}

int vsg_morton_sort(int64_t *members, size_t n, const double *boxes)
{
    if (n < 2)
        return 0;
    keyed *k = vsg_malloc(n * sizeof *k);
    if (!k)
        return -1;
    double ext[4];
    for (size_t i = 0; i < n; i++) {
        const double *b = boxes + 4 * members[i];
        double cx = 0.5 * (b[0] + b[2]), cy = 0.5 * (b[1] + b[3]);
        if (i == 0) {
            ext[0] = ext[2] = cx;
            ext[1] = ext[3] = cy;
        }
        if (cx < ext[0]) ext[0] = cx;
        if (cy < ext[1]) ext[1] = cy;
        if (cx > ext[2]) ext[2] = cx;
        if (cy > ext[3]) ext[3] = cy;
    }
    for (size_t i = 0; i < n; i++) {
        const double *b = boxes + 4 * members[i];
        k[i].code = vsg_morton_code(0.5 * (b[0] + b[2]), 0.5 * (b[1] + b[3]), ext);
        k[i].member = members[i];
    }
    qsort(k, n, sizeof *k, cmp_keyed);
    for (size_t i = 0; i < n; i++)
        members[i] = k[i].member;
    free(k);
    return 0;
}
