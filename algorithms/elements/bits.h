/*
 * bits.h - the bit counts element code takes of a 32-bit mask, spelled
 * once for both targets: CUDA intrinsics on the device, compiler builtins
 * on the host (the same answer either way).
 */
#ifndef VSG_ELEMENTS_BITS_H
#define VSG_ELEMENTS_BITS_H

#include <stdint.h>

#include "elements/hd.h"

/* The set bits of v. */
VSG_HD int vsg_popcount_u32(uint32_t v)
{
#ifdef __CUDA_ARCH__
    return __popc(v);
#else
    return __builtin_popcount(v);
#endif
}

/* The index of the lowest set bit of v (v != 0). */
VSG_HD int vsg_low_bit_u32(uint32_t v)
{
#ifdef __CUDA_ARCH__
    return __ffs((int)v) - 1;
#else
    return __builtin_ctz(v);
#endif
}

#endif
