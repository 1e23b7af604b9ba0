/*
 * vsgpu_engine.h - the public C interface of algorithms/: the geometry
 * engine that executes the operations of a bound VSGPU statement.
 *
 * The engine knows nothing of GDAL: it takes geometries as WKB (ISO or
 * extended, little or big endian) and returns WKB (ISO, little endian).
 * Attributes, schemas and feature ids stay in driver/, which refers to
 * inputs by their index in the arrays it passed in.
 *
 * Error convention (one for this layer): every function returns a
 * vsg_status; on failure a message naming the feature index and the cause
 * is available from vsg_engine_last_error(). Nothing here calls CPLError,
 * prints, or ends the process.
 *
 * Determinism: every output array is ordered by input index, then method
 * index (intersection), or by group index (dissolve), whatever the thread
 * count.
 */
#ifndef VSGPU_ENGINE_H
#define VSGPU_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "base/vsg_settings.h"
#include "base/vsg_status.h"

#ifdef __cplusplus
extern "C" {
#endif


/* ---- options --------------------------------------------------------- */
typedef enum {
    VSG_INVALID_REPAIR = 0,  /* GEOSMakeValid, counted (default)            */
    VSG_INVALID_SKIP,        /* drop the feature, counted                   */
    VSG_INVALID_ERROR        /* fail the statement (VSG_ERR_INVALID_GEOMETRY)*/
} vsg_invalid_policy;

/* The GPU pipeline (columnar stages of algorithms/stages/); backend and
 * settings are declared in base/vsg_settings.h. */
typedef struct {
    int enabled;                  /* run the stages that have a GPU kernel
                                     on the GPU pipeline                    */
    int strict;                   /* VSGPU_EXECUTION_MODE=GPU: a GPU failure
                                     fails the call; otherwise the rows are
                                     re-run on the CPU engine and counted   */
    vsg_gpu_backend backend;
    vsg_gpu_settings settings;    /* device and memory tiers                */
} vsg_gpu_options;

typedef struct {
    int num_threads;              /* >= 1; 0 means all cores                */
    vsg_invalid_policy invalid;
    int skip_failures;            /* SKIP_FAILURES                          */
    int promote_to_multi;         /* PROMOTE_TO_MULTI                       */
    int keep_lower_dim;           /* KEEP_LOWER_DIMENSION_GEOMETRIES: 0 keeps
                                     only the parts of the result whose
                                     dimension is min(dim input, dim method)
                                     and drops results with none (counted)  */
    int coverage_union;           /* dissolve: the exact coverage union of
                                     the pipeline (GPU or host backend)
                                     before GEOS; 0: GEOS only (default 1) */
    int repair_clusters;          /* dissolve: a repaired member that does
                                     not fit its neighbours is unioned with
                                     them by GEOS before the group union
                                     (dissolve/clusters.h); 0: set aside and
                                     merged after, as before 2026-11-26
                                     (default 1)                            */
    int gpu_refine;               /* intersection and clip: the GPU
                                     pipeline's exact refine of the undecided
                                     pairs (stages/overlay/refine.c) and
                                     clip's union of pieces before GEOS; 0:
                                     GEOS refines them (the driver's default
                                     is 1)                                  */
    int valid_screen;             /* the GPU pipeline's validity screen
                                     before GEOS's IsValid (pipeline/
                                     screen.h): 0 never, 1 on a CUDA device
                                     and large rows only (default), 2 every
                                     row, the host backend too (tests)      */
    vsg_gpu_options gpu;          /* all zero: the CPU engine only          */
} vsg_engine_options;

void vsg_engine_options_init(vsg_engine_options *opts); /* the defaults   */

/* ---- inputs and outputs ---------------------------------------------- */

/* count geometries as WKB; wkb[i] == NULL is a null geometry. */
typedef struct {
    size_t count;
    const unsigned char *const *wkb;
    const size_t *size;
} vsg_wkb_array;

/* Results, owned by the engine until vsg_result_clear(). For dissolve,
 * input_index is the group index and method_index is -1. For clip,
 * method_index is -1. wkb[i] is never NULL except for a dissolve group
 * whose geometries are all null (then size[i] == 0). */
typedef struct {
    size_t count;
    int64_t *input_index;
    int64_t *method_index;
    unsigned char **wkb;
    size_t *size;
    size_t capacity;
} vsg_result;

void vsg_result_init(vsg_result *r);
void vsg_result_clear(vsg_result *r);   /* frees, then re-inits            */

/* Counters accumulated over the life of an engine (one statement). Every
 * input feature is in the output or in one of these. */
typedef struct {
    int64_t input_rows;          /* input geometries seen                    */
    int64_t method_rows;         /* method geometries seen                   */
    int64_t null_geometries;     /* null: take part in nothing, not an error */
    int64_t empty_geometries;    /* empty: intersect nothing                 */
    int64_t invalid_repaired;    /* made valid (VSGPU_INVALID=REPAIR)        */
    int64_t invalid_skipped;     /* dropped (SKIP, or not repairable)        */
    int64_t rings_closed;        /* unclosed rings closed before reading     */
    int64_t corrupt_skipped;     /* unreadable WKB, dropped                  */
    int64_t unsupported_skipped; /* well-formed WKB of a type the engine does
                                    not take (TIN, PolyhedralSurface,
                                    Triangle, curves), dropped               */
    int64_t nonfinite_skipped;   /* NaN/Inf coordinates, dropped             */
    int64_t failures_skipped;    /* GEOS failures skipped (SKIP_FAILURES)    */
    int64_t lower_dim_dropped;   /* results of lower dimension, dropped      */
    int64_t type_skipped;        /* dissolve: parts of another dimension than
                                    the group's, dropped                     */
    int64_t candidate_pairs;     /* envelope candidates (intersection/clip)  */
    int64_t contained_shortcuts; /* pairs decided by containment, no overlay */
    int64_t output_rows;
    int64_t coverage_union_groups;
    int64_t unary_union_groups;
    int64_t gpu_rows;            /* input rows whose GPU stages ran          */
    int64_t gpu_rows_rerun_on_cpu; /* rows the GPU pipeline handed to the CPU
                                    engine (unsupported type, Z, undecided,
                                    or a GPU failure in AUTO mode)           */
    int64_t gpu_pairs;           /* intersection: pairs the GPU refine
                                    settled (VSGPU_GPU_REFINE=YES)           */
    int64_t gpu_pairs_rerun_on_cpu; /* pairs it handed back to GEOS         */
    int64_t gpu_pairs_rerun_why[16]; /* of those, by reason bit (a pair may
                                    have several): bits 0-7 the coverage
                                    union's VSG_COV_BAD_*, 8-13 the refine's
                                    VSG_REF_BAD_* (debug output only)        */
    int64_t gpu_groups;          /* dissolve: groups the GPU union settled   */
    int64_t gpu_groups_rerun_on_cpu; /* dissolve: groups of the GPU pipeline
                                    that GEOS dissolved (not a provable
                                    coverage, or a GPU failure in AUTO)      */
} vsg_counts;

/* ---- profiling rail (VSGPU_PROFILE) ------------------------------------ */
typedef struct vsg_profile vsg_profile;

/* Accumulates one record per (stage, device): repeated calls add elapsed
 * time and rows; bytes add; pool_peak keeps the maximum. Called at the
 * stage's end: the trace also keeps its span (the elapsed time up to now,
 * on this thread). */
void vsg_profile_add(vsg_profile *p, const char *stage, const char *device,
                     double elapsed_s, int64_t rows_in, int64_t rows_out,
                     int64_t bytes_h2d, int64_t bytes_d2h, int64_t pool_peak);
/* The same record without a span: totals added after the fact (the
 * executor's stages, features built over a whole batch). */
void vsg_profile_add_total(vsg_profile *p, const char *stage, const char *device,
                           double elapsed_s, int64_t rows_in, int64_t rows_out,
                           int64_t bytes_h2d, int64_t bytes_d2h, int64_t pool_peak);
/* A stage that ran from t0 to t1 (vsg_now_s) on thread (vsg_profile_thread_id
 * of the thread that ran it), added by whichever thread holds the profile
 * now: the driver's reader hands its times over this way. */
void vsg_profile_add_span(vsg_profile *p, const char *stage, const char *device, double t0,
                          double t1, uint64_t thread, int64_t rows_in, int64_t rows_out);
uint64_t vsg_profile_thread_id(void);
double vsg_now_s(void);          /* monotonic clock, seconds               */
size_t vsg_profile_count(const vsg_profile *p);
/* Steps of the stages (VSGPU_PROFILE_STEPS): seconds and calls added to
 * the record of (name, device), kept apart from the stages (not in
 * total_s); written as the trace's "steps". */
void vsg_profile_add_step(vsg_profile *p, const char *name, const char *device,
                          double elapsed_s, int64_t calls);
size_t vsg_profile_step_count(const vsg_profile *p);
int vsg_profile_get_step(const vsg_profile *p, size_t i, const char **name,
                         const char **device, double *elapsed_s, int64_t *calls);
/* Record i; strings owned by the profile. Returns 0 if i is out of range. */
int vsg_profile_get(const vsg_profile *p, size_t i, const char **stage,
                    const char **device, double *elapsed_s, int64_t *rows_in,
                    int64_t *rows_out, int64_t *bytes_h2d, int64_t *bytes_d2h,
                    int64_t *pool_peak);
/* Writes the trace (schema in docs/profiling.md). meta: NULL-terminated
 * array of "KEY=VALUE" strings written as the "statement" object. */
vsg_status vsg_profile_write_json(const vsg_profile *p, const char *path,
                                  const char *const *meta);

/* ---- the engine -------------------------------------------------------- */
typedef struct vsg_engine vsg_engine;
typedef struct vsg_method_index vsg_method_index;

/* Creates the engine: a thread pool and a GEOS context per thread. */
vsg_status vsg_engine_create(const vsg_engine_options *opts, vsg_engine **out);
void vsg_engine_destroy(vsg_engine *e);
const char *vsg_engine_last_error(const vsg_engine *e);
const vsg_counts *vsg_engine_counts(const vsg_engine *e);
vsg_profile *vsg_engine_profile(vsg_engine *e);
int vsg_engine_num_threads(const vsg_engine *e);
/* Runs fn(ctx, task, worker) once for every task in [0, n_tasks) on the
 * engine's worker threads (the calling thread works too, as worker 0) and
 * returns when all have finished: for the caller's own work between
 * engine calls (the driver builds output features there), on threads that
 * live as long as the engine. One run at a time, from the thread that
 * drives the engine, never while an engine call runs; fn must not fail
 * loudly. */
void vsg_engine_parallel(vsg_engine *e, size_t n_tasks,
                         void (*fn)(void *ctx, size_t task, int worker), void *ctx);
/* Why rows left the GPU pipeline for the CPU engine during this engine's
 * life ("" when none did): the first reason, for the one warning the
 * driver emits. */
const char *vsg_engine_gpu_note(const vsg_engine *e);
/* Progress of vsg_dissolve, the one call long enough to need it: fn gets
 * the number of groups whose union is finished, of n_groups. It is called
 * on the thread that called vsg_dissolve (between the tasks that thread
 * runs itself and after each stage), never from the pool's threads, and
 * only when the count moved; done is non-decreasing and the last call has
 * done == total. fn returns nonzero to go on, 0 to stop: the call then ends
 * with VSG_ERR_INTERRUPTED as soon as the running tasks return. fn NULL
 * (the default) turns it off; the setting lasts for the engine's life. */
typedef int (*vsg_progress_fn)(int64_t done, int64_t total, void *data);
void vsg_engine_set_progress(vsg_engine *e, vsg_progress_fn fn, void *data);
/* The device the GPU pipeline ran on ("" when it did not run). */
const char *vsg_engine_gpu_device(const vsg_engine *e);



/* Fills out and returns 1 when the GPU pipeline ran; 0 (out zeroed) if not. */
/* The GPU memory pool over the engine's life (docs/gpu-runtime.md). */
int vsg_engine_gpu_report(const vsg_engine *e, vsg_gpu_stats *out);
/* Batch-relative index of the input (dissolve: of the geometry) that made
 * the last call fail, -1 when the failure names none. */
int64_t vsg_engine_error_input_index(const vsg_engine *e);
/* Index of the method feature named by the last failure, -1 if none. */
int64_t vsg_engine_error_method_index(const vsg_engine *e);

/* Reads, checks and repairs (per policy) the method geometries and builds
 * an STR tree over their envelopes. The index keeps no pointer into
 * method: the caller may free the WKB afterwards. */
vsg_status vsg_method_index_build(vsg_engine *e, const vsg_wkb_array *method,
                                  vsg_method_index **out);
void vsg_method_index_destroy(vsg_method_index *idx);
/* Dimension of the method layer's geometries (0, 1, 2; -1 if none). */
int vsg_method_index_dimension(const vsg_method_index *idx);

/* Every operation below replaces the contents of out (vsg_result_clear
 * first): out holds the results of one batch only. On failure out is
 * empty. Indexes in out and in error messages are batch-relative. */

/* OGRLayer::Intersection semantics for one batch of input geometries:
 * one result per (input, method) pair whose intersection is not empty. */
vsg_status vsg_intersection_batch(vsg_engine *e, const vsg_method_index *idx,
                                  const vsg_wkb_array *input, vsg_result *out);

/* OGRLayer::Clip semantics: one result per input geometry whose
 * intersection with the union of the method geometries is not empty. */
vsg_status vsg_clip_batch(vsg_engine *e, const vsg_method_index *idx,
                          const vsg_wkb_array *input, vsg_result *out);

/* GEOSClipByRect semantics; rect = xmin, ymin, xmax, ymax. */
vsg_status vsg_clip_rect_batch(vsg_engine *e, const double rect[4],
                               const vsg_wkb_array *input, vsg_result *out);

/* Union of geoms grouped by group_of[i] in [0, n_groups): one result per
 * group, in group order, each a valid Multi* geometry of the group's
 * highest dimension (an empty MultiPolygon for a group of empties; wkb
 * NULL only when every geometry of the group is null). Coverage union where
 * the group is a valid coverage, unary union otherwise.
 * "Highest dimension" is taken over the whole call (the layer), so that a
 * polygon layer only ever yields MultiPolygons: parts of a lower dimension
 * are dropped and counted in type_skipped, and a group left with none
 * yields an empty Multi of that dimension. */
vsg_status vsg_dissolve(vsg_engine *e, const vsg_wkb_array *geoms,
                        const int64_t *group_of, int64_t n_groups,
                        vsg_result *out);

#ifdef __cplusplus
}
#endif
#endif /* VSGPU_ENGINE_H */
