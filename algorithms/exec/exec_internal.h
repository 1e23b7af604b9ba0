/*
 * exec_internal.h - the backend object behind exec.h: its state, and the
 * table of methods each backend provides (in the manner of SQLite's
 * sqlite3_mem_methods): exec_host.c, exec_gpu.c.
 */
#ifndef VSG_EXEC_INTERNAL_H
#define VSG_EXEC_INTERNAL_H

#include "exec/exec.h"

#define VSG_EXEC_MAX_STAGES 64
#define VSG_EXEC_MAX_WORK 32
#define VSG_EXEC_HOST_CACHE 64

typedef struct {
    char name[48];
    double t0;              /* host backend: wall clock at begin          */
    double elapsed_s;
    int64_t rows_in, rows_out;
    int64_t h2d0, d2h0;     /* byte counters at begin                     */
    int64_t bytes_h2d, bytes_d2h;
} vsg_exec_stage_rec;

typedef struct vsg_exec_methods vsg_exec_methods;

struct vsg_exec {
    const vsg_exec_methods *m;
    vsg_exec_kind kind;
    char error[512];
    char label[160];        /* "CPU (host backend)" or the GPU's name      */
    vsg_gpu_stats stats;   /* host backend; the GPU's come from cuda/     */
    int64_t host_limit;     /* host backend: bytes in use allowed, 0: any  */
    int host_plain;         /* host backend: copies are not transfers      */
    /* host backend: freed blocks kept for its next allocations
     * (exec_host.c) */
    void *cache[VSG_EXEC_HOST_CACHE];
    int n_cache;
    size_t cache_bytes;
    vsg_exec_stage_rec stages[VSG_EXEC_MAX_STAGES];
    int n_stages;
    int open_stage;         /* index of the stage begun and not ended, -1  */
    struct vsg_gpu *gpu;    /* GPU backend only                            */
    /* the work meter (vsg_exec_note_work): the stage begun last, and the
     * largest item per stage name */
    char cur_stage[48];
    int in_stage;           /* cur_stage is begun and not ended            */
    struct {
        char name[48];
        int64_t max;
    } work[VSG_EXEC_MAX_WORK];
    int n_work;
    /* step marks (vsg_exec_set_steps, VSGPU_PROFILE_STEPS): mark i's step
     * name, made on first use; the host backend's wall clock of each (the
     * GPU's are events of the CUDA runtime) */
    int steps_on;
    int n_marks;
    int64_t marks_dropped;
    char (*mark_label)[128];
    double *mark_t;
};


/* Sets x->error (printf style) and returns st. */
vsg_status vsg_exec_fail(vsg_exec *x, vsg_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- the backends, as tables of methods ----------------------------------
 * exec.c checks the arguments every backend shares (sizes of 0, negative
 * counts) and then calls through x->m; each method sets x->error on
 * failure. */
struct vsg_exec_methods {
    const char *device;   /* the profile's device column: "CPU", "GPU"     */
    void (*close)(vsg_exec *x);
    vsg_status (*alloc)(vsg_exec *x, size_t bytes, void **out);     /* bytes > 0 */
    void (*free)(vsg_exec *x, void *p);                             /* p != NULL */
    vsg_status (*memset)(vsg_exec *x, void *p, int value, size_t bytes);
    vsg_status (*upload)(vsg_exec *x, void *dst, const void *src, size_t bytes);
    vsg_status (*download)(vsg_exec *x, void *dst, const void *src, size_t bytes);
    vsg_status (*copy)(vsg_exec *x, void *dst, const void *src, size_t bytes);
    vsg_status (*sync)(vsg_exec *x);
    vsg_status (*scan_i64)(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n);
    vsg_status (*max_scan_i64)(vsg_exec *x, const int64_t *in, int64_t *out, int64_t n);
    vsg_status (*sort_u64_i64)(vsg_exec *x, uint64_t *keys, int64_t *vals, int64_t n,
                               int key_bits);
    void (*stage_begin)(vsg_exec *x, const char *stage);
    void (*stage_end)(vsg_exec *x, int64_t rows_in, int64_t rows_out);
    /* After a sync: the stages timed since the last flush, into p. */
    void (*flush_profile)(vsg_exec *x, vsg_profile *p);
    void (*get_stats)(const vsg_exec *x, vsg_gpu_stats *s);
    /* Records step mark i (no wait; 0 if it could not), and after a sync
     * the seconds from mark i to mark j. */
    int (*mark)(vsg_exec *x, int i);
    int (*mark_elapsed)(vsg_exec *x, int i, int j, double *seconds);
};

extern const vsg_exec_methods vsg_exec_host_methods;   /* exec_host.c */
#ifdef VSGPU_HAVE_CUDA
extern const vsg_exec_methods vsg_exec_gpu_methods;    /* exec_gpu.c  */
#endif

/* Opens the device for a GPU backend (exec_gpu.c): VSG_ERR_NO_GPU, with
 * the reason, when it cannot (always, in a build without CUDA). */
vsg_status vsg_exec_gpu_open(vsg_exec *x, const vsg_gpu_settings *cfg, char *why, size_t why_len);

#endif
