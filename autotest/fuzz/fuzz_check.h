/*
 * fuzz_check.h - what every fuzz target of autotest/fuzz shares: the
 * libFuzzer entry point's prototype and FUZZ_CHECK, an invariant that
 * aborts (a crash libFuzzer records) in the fuzzers and in the replay
 * driver alike, whatever NDEBUG says.
 */
#ifndef VSGPU_FUZZ_CHECK_H
#define VSGPU_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#ifdef __cplusplus
}
#endif

#define FUZZ_CHECK(cond)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__,        \
                    __LINE__, #cond);                                         \
            abort();                                                          \
        }                                                                     \
    } while (0)

#endif
