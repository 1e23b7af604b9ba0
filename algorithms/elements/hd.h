/*
 * hd.h - how a per-element function is declared so that the same source
 * compiles as C11 for the host backend (and CI, which has no GPU) and as
 * CUDA C++ for the device.
 *
 * Rules for code under elements/: header-only, plain C that is also valid
 * C++17 (no designated initialisers, no implicit void* conversions, no
 * `restrict`, no VLAs), no allocation, no libc beyond <math.h>/<stdint.h>,
 * every index checked against the counts it is given.
 */
#ifndef VSG_ELEMENTS_HD_H
#define VSG_ELEMENTS_HD_H

#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define VSG_HD static inline __host__ __device__
#else
#define VSG_HD static inline
#endif

#endif
