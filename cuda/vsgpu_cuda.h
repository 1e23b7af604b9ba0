/*
 * vsgpu_cuda.h - C-callable entry points of cuda/. Plain C header: the rest
 * of the project never includes CUDA headers.
 */
#ifndef VSGPU_CUDA_H
#define VSGPU_CUDA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Asks the CUDA runtime for devices. Returns the number of usable devices
 * (> 0) and writes the first one's name and compute capability to msg, or
 * returns 0 and writes why there is none ("CUDA driver is insufficient or
 * missing", "no CUDA device", ...). Never aborts; safe without a driver. */
int vsg_cuda_probe(char *msg, size_t msg_len);

#ifdef __cplusplus
}
#endif
#endif /* VSGPU_CUDA_H */
