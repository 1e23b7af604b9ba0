/*
 * exec.h - the execution backend that every columnar stage runs on: the
 * host (plain memory and loops; what CI tests) or a CUDA device (device
 * memory from the tiered pool, one stream). Orchestrators are written once
 * against this interface; only the launchers in cuda/ are GPU-only glue.
 *
 * Ordering: every call is ordered on the backend's one stream. Nothing here
 * synchronises except vsg_exec_sync and vsg_exec_read_i64 (the allocation
 * fence: one scalar read to size the next allocation), so consecutive
 * stages never wait for each other.
 *
 * Errors: vsg_status; the message (file:line of the failing CUDA call for
 * the GPU) from vsg_exec_last_error. After VSG_ERR_GPU_KERNEL the device
 * context may be unusable: callers stop using the backend.
 */
#ifndef VSG_EXEC_H
#define VSG_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "base/vsg_settings.h"
#include "base/vsg_status.h"
#include "vsgpu_engine.h" /* vsg_profile */

typedef struct vsg_exec vsg_exec;

typedef enum { VSG_EXEC_HOST = 0, VSG_EXEC_GPU = 1 } vsg_exec_kind;

/* Settings and pool statistics: vsg_gpu_settings and vsg_gpu_stats
 * (base/vsg_settings.h). */

vsg_status vsg_exec_create_host(vsg_exec **out);
/* The host backend honours a pool limit too (bytes; 0: none), so that the
 * out-of-memory path of the GPU pipeline is tested where there is no GPU. */
void vsg_exec_set_host_limit(vsg_exec *x, int64_t bytes);
/* The host backend counts its uploads and downloads as bus transfers, so
 * that CI tests the GPU pipeline's accounting on it. The CPU engine's own
 * use of the host backend (dissolve's coverage union) turns that off:
 * nothing crosses a bus, and its trace says so. */
void vsg_exec_set_host_plain(vsg_exec *x);
/* Whether x is such a host backend: the CPU engine's own, which no GPU
 * path mirrors, so its stages may take host-only shortcuts (the
 * candidates stage's one-pass join). */
int vsg_exec_host_plain(const vsg_exec *x);
/* Opens the device (CUDA initialised here, never earlier). Without a
 * usable driver or device: VSG_ERR_NO_GPU and the reason in why. Without
 * CUDA in the build: VSG_ERR_NO_GPU. */
vsg_status vsg_exec_create_gpu(const vsg_gpu_settings *cfg, vsg_exec **out, char *why,
                               size_t why_len);
void vsg_exec_destroy(vsg_exec *x);

vsg_exec_kind vsg_exec_kind_of(const vsg_exec *x);
/* The device context behind a GPU backend (NULL for the host): what the
 * stage files hand to their launchers in cuda/. */
struct vsg_gpu *vsg_exec_gpu(vsg_exec *x);
/* "CPU" for the host backend, "GPU" for the device (the profile's device
 * column); vsg_exec_device_label gives the GPU's name. */
const char *vsg_exec_device(const vsg_exec *x);
const char *vsg_exec_device_label(const vsg_exec *x);
const char *vsg_exec_last_error(const vsg_exec *x);
void vsg_exec_get_stats(const vsg_exec *x, vsg_gpu_stats *s);

/* A launcher's status (cuda/launch_*.h) on backend x: when it failed, the
 * CUDA runtime's message becomes x's last error. Returns st. */
vsg_status vsg_exec_gpu_result(vsg_exec *x, vsg_status st);

/* ---- memory (backend memory: device memory for the GPU) --------------- */
vsg_status vsg_exec_alloc(vsg_exec *x, size_t bytes, void **out);   /* 0 bytes: *out NULL, OK */
void vsg_exec_free(vsg_exec *x, void *p);                           /* NULL: no-op */
vsg_status vsg_exec_memset(vsg_exec *x, void *p, int value, size_t bytes);
vsg_status vsg_exec_upload(vsg_exec *x, void *dst, const void *src, size_t bytes);
vsg_status vsg_exec_download(vsg_exec *x, void *dst, const void *src, size_t bytes);
/* backend to backend; the regions may overlap (as memmove) */
vsg_status vsg_exec_copy(vsg_exec *x, void *dst, const void *src, size_t bytes);
vsg_status vsg_exec_sync(vsg_exec *x);
/* One scalar from backend memory, waiting for the stream (a fence). */
vsg_status vsg_exec_read_i64(vsg_exec *x, const int64_t *src, int64_t *out);
/* Two scalars for one wait. */
vsg_status vsg_exec_read2_i64(vsg_exec *x, const int64_t *src_a, int64_t *out_a,
                              const int64_t *src_b, int64_t *out_b);

/* ---- primitives --------------------------------------------------------- */
/* out[0] = 0, out[i+1] = out[i] + in[i], for i < n (out has n + 1 slots;
 * in and out may not alias). */
vsg_status vsg_exec_scan_i64(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n);
/* out[i] = max(in[0..i]), for i < n (in and out may not alias). */
vsg_status vsg_exec_max_scan_i64(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n);
/* Stable sort of (keys, vals) by key, in place; key_bits: the low bits that
 * matter (<= 64). */
vsg_status vsg_exec_sort_u64_i64(vsg_exec *x, uint64_t *keys, int64_t *vals, int64_t n,
                                 int key_bits);

/* ---- stage launches ------------------------------------------------------
 * Each step of a stage calls this before its host loop or its launcher:
 * VSG_OK, or (test builds, VSGPU_FAULT=gpu_call:<n>, core/fault.h) the
 * status a failed launch gives, with the message set. */
vsg_status vsg_exec_launch(vsg_exec *x, const char *stage);
/* The same, for step `step` of a stage's numbered steps (its enum value:
 * the profile's step name ends with it; bench/tools/steps.py names it). */
vsg_status vsg_exec_launch_step(vsg_exec *x, const char *stage, int step);

/* ---- profiling rail ---------------------------------------------------- */
/* Stages are timed on the backend's clock (CUDA events on the GPU; no
 * synchronisation is added) and pushed as NVTX ranges when asked. Stages
 * do not nest: begin, end, begin, end. */
void vsg_exec_stage_begin(vsg_exec *x, const char *stage);
void vsg_exec_stage_end(vsg_exec *x, int64_t rows_in, int64_t rows_out);
/* After a sync: adds one profile record per stage timed since the last
 * flush (device vsg_exec_device(x), bytes moved, pool peak) and forgets
 * them. */
void vsg_exec_flush_profile(vsg_exec *x, vsg_profile *p);
/* Step marks (VSGPU_PROFILE_STEPS): with on, every step of a stage is
 * timed too (an event per step on the GPU), and the flush adds the
 * profile's step records (vsg_profile_add_step). Off by default: the
 * marks cost a few microseconds each. */
void vsg_exec_set_steps(vsg_exec *x, int on);

/* ---- work meter ----------------------------------------------------------
 * The rule of docs/gpu-stages.md: no launch item does work that grows with
 * the size of one geometry or pair. The host loops of the stages report
 * the work of each item (segments or coordinates touched) here, under the
 * stage begun last; the device runs the same element code item for item,
 * so the maxima hold for it too. Tests read them back. */
void vsg_exec_note_work(vsg_exec *x, int64_t units);
/* The largest item of the stages named `stage` since the backend was made
 * (0 if none reported). */
int64_t vsg_exec_max_work(const vsg_exec *x, const char *stage);

#endif
