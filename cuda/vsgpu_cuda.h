/*
 * vsgpu_cuda.h - C-callable entry points of cuda/'s runtime. Plain C
 * header: the rest of the project never includes CUDA headers. The stage
 * launchers are declared in their own headers (launch_<stage>.h).
 *
 * One vsg_gpu per statement: a device, one non-blocking stream, the memory
 * tiers of docs/architecture.md ("Memory tiers"), CUDA-event stage timers
 * and pool statistics. Every CUDA call is checked; a failure becomes a
 * vsg_status and a message naming file, line, call and CUDA error, kept in
 * vsg_gpu_last_error. Nothing here calls cudaDeviceSynchronize.
 */
#ifndef VSGPU_CUDA_H
#define VSGPU_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "base/vsg_settings.h"
#include "base/vsg_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Asks the CUDA runtime for devices. Returns the number of usable devices
 * (> 0) and writes the first one's name and compute capability to msg, or
 * returns 0 and writes why there is none ("CUDA driver is insufficient or
 * missing", "no CUDA device", ...). Never aborts; safe without a driver. */
int vsg_cuda_probe(char *msg, size_t msg_len);

/* The dispatch's probe: 1 where the NVIDIA driver library loads and its
 * device nodes exist, without initialising the driver (the warm-up
 * thread does, in the background); otherwise vsg_cuda_probe's answer. */
int vsg_cuda_probe_quick(char *msg, size_t msg_len);

/* Starts CUDA on s's device on a helper thread (once per process) so that
 * its start-up overlaps with other work; vsg_cuda_warmup_wait joins it.
 * With a pool reserve in s the thread also makes the next statement's
 * memory pool and grows it to the reserve, at most the pool limit and a
 * quarter of the device's free memory, none with managed memory
 * (vsg_gpu_open takes it; a statement that did not open the device drops
 * it: vsg_cuda_warm_pool_drop, which also joins). All are safe to call any
 * number of times, and without a driver. */
void vsg_cuda_warmup_start(const vsg_gpu_settings *s);
void vsg_cuda_warmup_wait(void);
void vsg_cuda_warm_pool_drop(void);

typedef struct vsg_gpu vsg_gpu;

/* Settings and statistics: vsg_gpu_settings, vsg_gpu_stats (base/). */

/* VSG_ERR_NO_GPU (reason in msg) when the device cannot be used. */
vsg_status vsg_gpu_open(const vsg_gpu_settings *args, vsg_gpu **out, char *msg,
                        size_t msg_len);
void vsg_gpu_close(vsg_gpu *g);          /* waits for the stream, frees all */
const char *vsg_gpu_last_error(const vsg_gpu *g);
const char *vsg_gpu_device_name(const vsg_gpu *g);
void vsg_gpu_get_stats(const vsg_gpu *g, vsg_gpu_stats *s);

/* Stream-ordered device memory from the current tier. A request that would
 * pass pool_limit fails like an out-of-memory (VSG_ERR_GPU_OOM) after tier
 * B's retries. */
vsg_status vsg_gpu_alloc(vsg_gpu *g, size_t bytes, void **out);
void vsg_gpu_free(vsg_gpu *g, void *p);
vsg_status vsg_gpu_memset(vsg_gpu *g, void *p, int value, size_t bytes);
/* Asynchronous copies on the stream. Pageable host memory is staged by
 * CUDA: the call has read (h2d) or written (d2h) the host buffer when it
 * returns. Page-locked host memory must stay untouched until a sync.
 * d2d regions must not overlap. */
vsg_status vsg_gpu_h2d(vsg_gpu *g, void *dst, const void *src, size_t bytes);
vsg_status vsg_gpu_d2h(vsg_gpu *g, void *dst, const void *src, size_t bytes);
vsg_status vsg_gpu_d2d(vsg_gpu *g, void *dst, const void *src, size_t bytes);
vsg_status vsg_gpu_sync(vsg_gpu *g);     /* cudaStreamSynchronize         */

/* CUB on the stream, scratch from the pool. */
vsg_status vsg_gpu_scan_i64(vsg_gpu *g, const int64_t *in, int64_t *out, int64_t n);
/* out[i] = max(in[0..i]) (inclusive; in and out may not alias). */
vsg_status vsg_gpu_max_scan_i64(vsg_gpu *g, const int64_t *in, int64_t *out, int64_t n);
vsg_status vsg_gpu_sort_u64_i64(vsg_gpu *g, uint64_t *keys, int64_t *vals, int64_t n,
                                int key_bits);

/* Stage timers: events recorded on the stream (no sync); NVTX push/pop
 * when nvtx was asked. Up to 256 stages between flushes. */
void vsg_gpu_stage_begin(vsg_gpu *g, const char *stage);
void vsg_gpu_stage_end(vsg_gpu *g, int64_t rows_in, int64_t rows_out);
/* After vsg_gpu_sync: number of stages timed since the last reset, and
 * stage i's name, elapsed seconds and rows. */
int vsg_gpu_stage_count(const vsg_gpu *g);
int vsg_gpu_stage_get(vsg_gpu *g, int i, const char **stage, double *elapsed_s,
                      int64_t *rows_in, int64_t *rows_out);
void vsg_gpu_stage_reset(vsg_gpu *g);

/* Step marks (VSGPU_PROFILE_STEPS): records mark i (0 <= i < VSG_STEP_MARKS_MAX) on
 * the stream, without waiting; 0 if it could not. After vsg_gpu_sync,
 * the device seconds from mark i to mark j. */
int vsg_gpu_mark(vsg_gpu *g, int i);
int vsg_gpu_mark_elapsed(vsg_gpu *g, int i, int j, double *seconds);

#ifdef __cplusplus
}
#endif
#endif /* VSGPU_CUDA_H */
