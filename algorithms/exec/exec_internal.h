/*
 * exec_internal.h - the backend object behind exec.h. exec.c implements the
 * host backend and routes every call on a GPU backend to the vsg_exec_gpu_*
 * functions of exec_gpu.c (which compiles to "no CUDA in this build" stubs
 * when VSGPU_HAVE_CUDA is not defined).
 */
#ifndef VSG_EXEC_INTERNAL_H
#define VSG_EXEC_INTERNAL_H

#include "exec/exec.h"

#define VSG_EXEC_MAX_STAGES 64

typedef struct {
    char name[48];
    double t0;              /* host backend: wall clock at begin          */
    double elapsed_s;
    int64_t rows_in, rows_out;
    int64_t h2d0, d2h0;     /* byte counters at begin                     */
    int64_t bytes_h2d, bytes_d2h;
} vsg_exec_stage_rec;

struct vsg_exec {
    vsg_exec_kind kind;
    char error[512];
    char label[160];        /* "CPU (host backend)" or the GPU's name      */
    vsg_gpu_stats stats;   /* host backend; the GPU's come from cuda/     */
    int64_t host_limit;     /* host backend: bytes in use allowed, 0: any  */
    vsg_exec_stage_rec stages[VSG_EXEC_MAX_STAGES];
    int n_stages;
    int open_stage;         /* index of the stage begun and not ended, -1  */
    struct vsg_gpu *gpu;    /* GPU backend only                            */
};

/* Sets x->error (printf style) and returns st. */
vsg_status vsg_exec_fail(vsg_exec *x, vsg_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- the GPU backend (exec_gpu.c) ------------------------------------------
 * Each is called only on a backend whose kind is VSG_EXEC_GPU; each sets
 * x->error on failure (from vsg_gpu_last_error). */
vsg_status vsg_exec_gpu_open(vsg_exec *x, const vsg_gpu_settings *cfg, char *why, size_t why_len);
void vsg_exec_gpu_close(vsg_exec *x);
vsg_status vsg_exec_gpu_alloc(vsg_exec *x, size_t bytes, void **out);
void vsg_exec_gpu_free(vsg_exec *x, void *p);
vsg_status vsg_exec_gpu_memset(vsg_exec *x, void *p, int value, size_t bytes);
vsg_status vsg_exec_gpu_upload(vsg_exec *x, void *dst, const void *src, size_t bytes);
vsg_status vsg_exec_gpu_download(vsg_exec *x, void *dst, const void *src, size_t bytes);
vsg_status vsg_exec_gpu_copy(vsg_exec *x, void *dst, const void *src, size_t bytes);
vsg_status vsg_exec_gpu_sync(vsg_exec *x);
vsg_status vsg_exec_gpu_scan_i64(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n);
vsg_status vsg_exec_gpu_sort_u64_i64(vsg_exec *x, uint64_t *keys, int64_t *vals, int64_t n,
                                     int key_bits);
void vsg_exec_gpu_stage_begin(vsg_exec *x, const char *stage);
void vsg_exec_gpu_stage_end(vsg_exec *x, int64_t rows_in, int64_t rows_out);
/* Adds the GPU's timed stages (after a sync) to p, with bytes and pool peak. */
void vsg_exec_gpu_flush_profile(vsg_exec *x, vsg_profile *p);
void vsg_exec_gpu_get_stats(const vsg_exec *x, vsg_gpu_stats *s);

#endif
