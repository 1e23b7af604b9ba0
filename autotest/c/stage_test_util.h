/*
 * stage_test_util.h - what the stage tests share (test_stage_coverage.c,
 * test_stage_refine.c): a seeded xorshift generator, so that random cases
 * are the same on every run, and a bit-for-bit comparison of two host
 * columnars (the device's output against the host backend's).
 */
#ifndef VSG_STAGE_TEST_UTIL_H
#define VSG_STAGE_TEST_UTIL_H

#include <stdint.h>
#include <string.h>

#include "columnar/columnar.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static inline uint64_t rng_u64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static inline double rng01(void) { return (double)(rng_u64() >> 11) / 9007199254740992.0; }

/* Whether two host columnars hold the same arrays, byte for byte. */
static inline int same_columnar(const vsg_columnar *a, const vsg_columnar *b)
{
    if (a->n_geoms != b->n_geoms || a->n_parts != b->n_parts || a->n_rings != b->n_rings ||
        a->n_coords != b->n_coords)
        return 0;
    size_t ng = (size_t)a->n_geoms, np = (size_t)a->n_parts, nr = (size_t)a->n_rings,
           nc = (size_t)a->n_coords;
    return !memcmp(a->type, b->type, ng) && !memcmp(a->flags, b->flags, ng) &&
           !memcmp(a->geom_part, b->geom_part, (ng + 1) * 8) &&
           !memcmp(a->part_ring, b->part_ring, (np + 1) * 8) &&
           !memcmp(a->ring_coord, b->ring_coord, (nr + 1) * 8) && !memcmp(a->x, b->x, nc * 8) &&
           !memcmp(a->y, b->y, nc * 8);
}

#endif
