/*
 * vsgpu_dispatch.h - the one CPU/GPU decision made per statement, at the
 * boundary: the engine's second public header (with vsgpu_engine.h), the
 * only ones the driver includes.
 *
 * VSGPU_EXECUTION_MODE=AUTO|CPU|GPU. AUTO takes the GPU only where this build
 * has a GPU kernel for the operation, a CUDA device answers, and the input is
 * above the operation's crossover size; otherwise it runs on the CPU and says
 * why (the caller turns the reason into one CE_Warning). GPU forces the GPU
 * and fails, with the reason, where that cannot be done. CPU never touches
 * CUDA.
 */
#ifndef VSGPU_DISPATCH_H
#define VSGPU_DISPATCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { VSG_MODE_AUTO = 0, VSG_MODE_CPU, VSG_MODE_GPU } vsg_exec_mode;

/* The operations, as the engine knows them (the join form of the dialect
 * is an intersection). */
typedef enum {
    VSG_OP_INTERSECTION = 0,
    VSG_OP_CLIP,
    VSG_OP_CLIP_RECT,
    VSG_OP_UNION
} vsg_operation;

/* The user-facing name of an operation, for messages ("ST_Clip", ...). */
const char *vsg_operation_name(vsg_operation op);
typedef enum { VSG_RUNTIME_CPU = 0, VSG_RUNTIME_GPU } vsg_runtime;

typedef struct {
    vsg_exec_mode requested;
    vsg_runtime selected;
    int must_fail;      /* GPU requested and impossible: fail the statement */
    int is_fallback;    /* AUTO chose the CPU for a reason worth a warning   */
    char reason[384];   /* why the CPU was selected ("" when not relevant)   */
} vsg_dispatch_decision;

/* Parses AUTO/CPU/GPU (case-insensitive). Returns 0 on success. */
int vsg_exec_mode_parse(const char *text, vsg_exec_mode *out);
const char *vsg_exec_mode_name(vsg_exec_mode m);
const char *vsg_runtime_name(vsg_runtime r);

/* What the driver knows of a statement's size before reading it.
 * rows: the rows the statement reads: the input layer's feature count,
 * plus the method layer's for intersection and clip (the driver adds it
 * when it is cheaply known); -1 when the input's is not cheaply known
 * (then AUTO does not hold the size against the GPU). layer_rows: each
 * layer's alone, input then method (-1: unknown or none). sample_rows,
 * sample_bytes: each layer's first rows and their WKB bytes, read to
 * size its rows (vsg_dispatch_wants_sample; 0: none read). */
typedef struct {
    int64_t rows;
    int64_t layer_rows[2];
    int64_t sample_rows[2];
    int64_t sample_bytes[2];
} vsg_dispatch_size;

/* host_backend: VSGPU_GPU_BACKEND=HOST, the GPU pipeline run on the host
 * backend (tests): no device is needed; taken in AUTO too (asked for).
 * min_rows: VSGPU_GPU_MIN_ROWS, the crossover to use instead of the
 * measured one (-1: the measured one). min_bytes: VSGPU_GPU_MIN_BYTES,
 * the large rows' crossover in bytes (-1: the operation's measured one).
 * Below the rows' crossover AUTO still takes the GPU where the large rows
 * add up to the large rows' crossover: a layer's rows are large where its
 * sample's average is at least VSG_LARGE_ROW_BYTES of WKB, and they add
 * the sample's average times the layer's rows; a min_rows given without
 * a min_bytes turns that off.
 * Probes CUDA lazily (first call only), and only when the answer matters:
 * GPU mode, or AUTO with an input above a finite crossover. */
void vsg_dispatch_decide(vsg_exec_mode mode, vsg_operation operation,
                         const vsg_dispatch_size *size, int host_backend, int64_t min_rows,
                         int64_t min_bytes, vsg_dispatch_decision *out);

/* 1 where vsg_dispatch_decide would use a sample of the input's rows:
 * AUTO, an operation with a finite crossover, fewer rows than it and the
 * large rows' rule on (the arguments as vsg_dispatch_decide's). */
int vsg_dispatch_wants_sample(vsg_exec_mode mode, vsg_operation operation, int64_t rows,
                              int host_backend, int64_t min_rows, int64_t min_bytes);

/* The rows read from an input's start to size its rows. */
#define VSG_DISPATCH_SAMPLE_ROWS 16

/* The input size from which AUTO takes the GPU for operation (rows); -1
 * when this build has no GPU pipeline for it; INT64_MAX when it has one but
 * no measured size where it wins (AUTO keeps the CPU engine). */
int64_t vsg_dispatch_crossover(vsg_operation operation);

#ifdef __cplusplus
}
#endif
#endif /* VSGPU_DISPATCH_H */
