/*
 * box.h - the two tests on axis-aligned boxes (xmin, ymin, xmax, ymax)
 * that the CPU engine's STR tree, the GPU stages and the orchestrators
 * share, so that "meets" means the same everywhere: boxes are closed
 * (touching counts), and a box with a NaN bound meets and covers nothing.
 * An inverted box (+inf, +inf, -inf, -inf) meets nothing.
 */
#ifndef VSG_ELEMENTS_BOX_H
#define VSG_ELEMENTS_BOX_H

#include "elements/hd.h"

VSG_HD int vsg_box_meets(const double *a, const double *b)
{
    return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/* box a covers box b */
VSG_HD int vsg_box_covers(const double *a, const double *b)
{
    return a[0] <= b[0] && a[1] <= b[1] && a[2] >= b[2] && a[3] >= b[3];
}

#endif
