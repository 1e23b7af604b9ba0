/*
 * atomics.h - the few atomic updates element code makes, spelled once for
 * both targets: CUDA atomics on the device, plain read-modify-write on the
 * host (whose loops run one item at a time on one thread).
 *
 * Only operations whose result does not depend on the order the items
 * run in are offered (or, xor, add, min, max on integers), so the device's
 * results equal the host's bit for bit. The one that returns the old value
 * (compare-and-swap) builds hash tables: where a key lands and which member
 * comes first depend on the order, so a table's users read only what does
 * not (how many members a key has, the set of them).
 */
#ifndef VSG_ELEMENTS_ATOMICS_H
#define VSG_ELEMENTS_ATOMICS_H

#include "elements/hd.h"

#if defined(__CUDA_ARCH__)
#define VSG_OR_U32(p, v) atomicOr((unsigned int *)(p), (unsigned int)(v))
#define VSG_XOR_U32(p, v) atomicXor((unsigned int *)(p), (unsigned int)(v))
#define VSG_XOR_U64(p, v) atomicXor((unsigned long long *)(p), (unsigned long long)(v))
#define VSG_ADD_U32(p, v) atomicAdd((unsigned int *)(p), (unsigned int)(v))
#define VSG_ADD_I64(p, v) \
    ((int64_t)atomicAdd((unsigned long long *)(p), (unsigned long long)(int64_t)(v)))
#define VSG_ADD_F64(p, v) atomicAdd((double *)(p), (double)(v))
#define VSG_MIN_U64(p, v) atomicMin((unsigned long long *)(p), (unsigned long long)(v))
#define VSG_MAX_U64(p, v) atomicMax((unsigned long long *)(p), (unsigned long long)(v))
#define VSG_CAS_U64(p, cmp, v) \
    ((uint64_t)atomicCAS((unsigned long long *)(p), (unsigned long long)(cmp), \
                         (unsigned long long)(v)))
#define VSG_CAS_U32(p, cmp, v) \
    ((uint32_t)atomicCAS((unsigned int *)(p), (unsigned int)(cmp), (unsigned int)(v)))
#else
#define VSG_OR_U32(p, v) (*(p) |= (uint32_t)(v))
#define VSG_XOR_U32(p, v) (*(p) ^= (uint32_t)(v))
#define VSG_XOR_U64(p, v) (*(p) ^= (uint64_t)(v))
#define VSG_ADD_U32(p, v) (*(p) += (uint32_t)(v))
#define VSG_ADD_I64(p, v) (*(p) += (int64_t)(v))
#define VSG_ADD_F64(p, v) (*(p) += (double)(v))
#define VSG_MIN_U64(p, v) (*(p) = (uint64_t)(v) < *(p) ? (uint64_t)(v) : *(p))
#define VSG_MAX_U64(p, v) (*(p) = (uint64_t)(v) > *(p) ? (uint64_t)(v) : *(p))
#define VSG_CAS_U64(p, cmp, v) vsg_cas_u64_host((p), (cmp), (v))
#define VSG_CAS_U32(p, cmp, v) vsg_cas_u32_host((p), (cmp), (v))
static inline uint32_t vsg_cas_u32_host(uint32_t *p, uint32_t cmp, uint32_t v)
{
    uint32_t old = *p;
    if (old == cmp)
        *p = v;
    return old;
}
static inline uint64_t vsg_cas_u64_host(uint64_t *p, uint64_t cmp, uint64_t v)
{
    uint64_t old = *p;
    if (old == cmp)
        *p = v;
    return old;
}
#endif

/* the ordered-image min/max of elements/filter/bounds.h */
#define VSG_ORD_MIN(p, v) VSG_MIN_U64(p, v)
#define VSG_ORD_MAX(p, v) VSG_MAX_U64(p, v)

#endif
