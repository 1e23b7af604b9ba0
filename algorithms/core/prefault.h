/*
 * prefault.h - the pages of fresh host buffers faulted in by several
 * threads before one writer fills them: a device-to-host copy, or the WKB
 * decoder (columnar.c does it for every host columnar it allocates).
 *
 * A copy from the device into pageable memory runs through the driver's
 * staging buffers and then into the destination; a destination fresh from
 * malloc (large blocks are new mappings) takes a page fault, and the
 * kernel's zeroing of the page, on every 4 KiB of it, on the one copying
 * thread. Measured on the H100 host (2026-11-26, docs/gpu-runtime.md):
 * 180 MB into fresh memory 142 ms (1.3 GB/s); faulted in first by 8
 * threads 16 ms, then the copy 16 ms. A single thread decoding WKB into
 * fresh arrays pays the same faults.
 */
#ifndef VSG_CORE_PREFAULT_H
#define VSG_CORE_PREFAULT_H

#include <stddef.h>

typedef struct {
    void *p;
    size_t bytes;
} vsg_prefault_span;

/* Writes one byte of every page of the n spans (NULL or empty spans are
 * skipped), split over up to 8 threads when there is enough to share;
 * below a few MiB, or if no thread starts, the caller does it alone. The
 * bytes written are zeros: the buffers are about to be overwritten. */
void vsg_prefault(const vsg_prefault_span *spans, int n);

#endif
