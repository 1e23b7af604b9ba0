/*
 * dispatch.c - the per-statement CPU/GPU decision (see vsgpu_dispatch.h).
 *
 * The table below says which operations have a GPU pipeline and from what
 * measured size AUTO takes it. CUDA is probed lazily, once per process, and
 * only when the answer can change the decision (GPU mode, or AUTO above a
 * finite crossover), so that the reason a user reads names the actual
 * cause (no CUDA in this build, no driver or device, no GPU kernel for the
 * operation) without a statement paying CUDA's start-up for nothing.
 */
#include "vsgpu_dispatch.h"

#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>

#ifdef VSGPU_HAVE_CUDA
#include "vsgpu_cuda.h"
#endif

static const char *const mode_names[] = {"AUTO", "CPU", "GPU"};

int vsg_exec_mode_parse(const char *text, vsg_exec_mode *out)
{
    if (!text || !out)
        return -1;
    for (int m = 0; m < 3; m++) {
        if (strcasecmp(text, mode_names[m]) == 0) {
            *out = (vsg_exec_mode)m;
            return 0;
        }
    }
    return -1;
}

const char *vsg_exec_mode_name(vsg_exec_mode m)
{
    return (m >= VSG_MODE_AUTO && m <= VSG_MODE_GPU) ? mode_names[m] : "?";
}

const char *vsg_runtime_name(vsg_runtime r)
{
    return r == VSG_RUNTIME_GPU ? "GPU" : "CPU";
}

const char *vsg_operation_name(vsg_operation op)
{
    switch (op) {
    case VSG_OP_INTERSECTION: return "ST_Intersection";
    case VSG_OP_CLIP: return "ST_Clip";
    case VSG_OP_CLIP_RECT: return "ST_ClipByRect";
    case VSG_OP_UNION: return "ST_Union";
    }
    return "operation";
}

/* The CUDA probe runs once per process, and its answer does not change
 * while we run. It is the quick one: the driver's start-up is left to the
 * warm-up thread (cuda/runtime_probe.cu says when it asks the full probe). */
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int probe_devices;
static char probe_message[200];

static void probe_cuda(void)
{
#ifdef VSGPU_HAVE_CUDA
    probe_devices = vsg_cuda_probe_quick(probe_message, sizeof probe_message);
#else
    probe_devices = 0;
    snprintf(probe_message, sizeof probe_message,
             "this build of VSGPU has no CUDA engine (built with VSGPU_CUDA=OFF or without nvcc)");
#endif
}

/* Which operations have a GPU pipeline, and from what input size (rows)
 * AUTO prefers it to the CPU engine. ST_ClipByRect runs entirely on the
 * GPU; ST_Intersection (and the PostGIS join) and ST_Clip run bounds,
 * candidate search and containment classes on the GPU and refine the rest
 * on the CPU engine. ST_Union (dissolve) runs the coverage union stage on
 * the GPU for the groups that provably are coverages and GEOS for the
 * rest.
 *
 * Crossover of the rectangle clip: measured on the GPU host (NVIDIA H200
 * and H100, 16 cores, 2026-11-21 to 24; docs/gpu-validation.md,
 * "Crossover"; scripts/gpu-host-check.sh and scripts/bench-gpu-host.sh):
 * through ogr2ogr, its GPU pipeline did not beat the CPU engine on all
 * cores at any measured size, from 250 rows up to 233,000 rows (10.5 M
 * input vertices). Its GPU stages are fast (~2 G vertices/s) but each
 * statement pays ~0.33 s of CUDA start-up and teardown, and reading and
 * writing through GDAL dominate the rest. So AUTO keeps the CPU engine
 * (VSG_NO_CROSSOVER); VSGPU_EXECUTION_MODE=GPU runs the pipeline. A build
 * can set a measured figure with -DVSG_CROSSOVER_CLIP_RECT_ROWS=N /
 * -DVSG_CROSSOVER_OVERLAY_ROWS=N / -DVSG_CROSSOVER_UNION_ROWS=N. */
#define VSG_NO_CROSSOVER INT64_MAX
#ifndef VSG_CROSSOVER_CLIP_RECT_ROWS
#define VSG_CROSSOVER_CLIP_RECT_ROWS VSG_NO_CROSSOVER
#endif
/* ST_Intersection and ST_Clip, with the exact GPU refine (the default
 * since 2026-11-24): measured on the GPU host (H100, 16 cores, 2026-11-24,
 * scripts/bench-refine.sh and scripts/bench-tiled.sh clip at growing
 * sizes; docs/fallback.md, "Crossover"): on tiled US counties and states
 * the GPU lost at 13,144 rows read (input and method: 0.66 s against
 * 0.46 s for intersection) and won from 52,576 rows (1.45 s against 1.85
 * s; clip 1.78 against 1.84 s and 0.80 against 1.41 s), up to 1.45x at
 * 397,606 rows; on the synthetic cells of gpu-host-check.sh it won from
 * 16,000 input rows. AUTO takes it from 50,000 rows read. Measured again
 * on the H200 host (2026-11-28, run R, docs/fallback.md): the GPU lost at
 * 29,574 rows read and tied or led from 52,576. */
#ifndef VSG_CROSSOVER_OVERLAY_ROWS
#define VSG_CROSSOVER_OVERLAY_ROWS 50000
#endif
/* ST_Union (dissolve): measured on the GPU host (H200, 16 cores,
 * 2026-11-28, run Q of docs/gpu-validation.md, .device/xoverQ.sh; table
 * in docs/fallback.md): the tiled US counties by (tile, state), a
 * coverage, tied at 116,280 rows (GPU 0.53-0.56 s, CPU engine 0.48-0.56
 * s) and the GPU led from 206,720 (0.76-0.79 against 0.83-0.87 s); circles
 * around the counties dissolved by state (tiled_buffers, dense overlaps,
 * which the CPU engine leaves to GEOS) tied at 51,680 rows and the GPU led
 * 2.4x at 158,270. AUTO takes the GPU from the coverage's tie. (It was
 * 390,000 rows, the one size measured on 2026-11-24, H100.) */
#ifndef VSG_CROSSOVER_UNION_ROWS
#define VSG_CROSSOVER_UNION_ROWS 120000
#endif

/* Large rows (polygons of about 1,000 vertices and more, 16 KiB of WKB:
 * the validity screen's large rows too, pipeline/screen.c): the CPU
 * engine checks, unions and clips each on one thread, where the GPU
 * pipeline spreads it over the device, so the GPU wins from far fewer
 * rows than the row crossovers say. Measured on the GPU host (H200, 16
 * cores, 2026-11-28; `.device/xover.sh` and `.device/xover2.sh`, kept with
 * their logs in bench/results/2026-11-28-session15/xover-h200/ and
 * xover2-h200/; docs/fallback.md): the NYC boroughs (about 15,000
 * vertices a row) tiled to growing sizes against their grid, through
 * ogr2ogr, best of two, CPU engine on 16 threads against the GPU
 * pipeline:
 *   dissolve by tile       tie at 2 M vertices (0.48 / 0.52 s), GPU from
 *                          4 M (0.76 / 0.62 s), 10 M 1.62 / 0.72 s;
 *   intersection           boroughs x grid: tie at 2 M (0.50 / 0.48 s),
 *                          GPU from 4 M; grid x boroughs (the large rows
 *                          the method's): tie at 2 M (0.61 / 0.59 s), GPU
 *                          from 4 M (0.90 / 0.66 s), 10 M 2.14 / 1.23 s;
 *   clip                   boroughs by grid: tie at 1 M (0.63 / 0.65 s),
 *                          GPU from 2 M (1.11 / 0.60 s), 10 M 4.10 /
 *                          0.88 s; grid by boroughs: tie at 1 M, GPU from
 *                          2 M (0.79 / 0.59 s).
 * So AUTO takes the GPU where the large rows of the input and method
 * layers add up to 3 M vertices of WKB (48 MiB) for dissolve and
 * intersection and 1.5 M (24 MiB) for clip: between each tie and win. */
#define VSG_LARGE_ROW_BYTES ((int64_t)16 << 10)
#ifndef VSG_CROSSOVER_LARGE_BYTES
#define VSG_CROSSOVER_LARGE_BYTES ((int64_t)48 << 20)
#endif
#ifndef VSG_CROSSOVER_CLIP_LARGE_BYTES
#define VSG_CROSSOVER_CLIP_LARGE_BYTES ((int64_t)24 << 20)
#endif

/* The operations with a GPU pipeline, and their crossovers (rows; bytes
 * of large rows). */
typedef struct {
    vsg_operation operation;
    int64_t crossover;
    int64_t large_bytes;
} pipeline_entry;

static const pipeline_entry pipelines[] = {
    {VSG_OP_CLIP_RECT, VSG_CROSSOVER_CLIP_RECT_ROWS, VSG_NO_CROSSOVER},
    {VSG_OP_INTERSECTION, VSG_CROSSOVER_OVERLAY_ROWS, VSG_CROSSOVER_LARGE_BYTES},
    {VSG_OP_CLIP, VSG_CROSSOVER_OVERLAY_ROWS, VSG_CROSSOVER_CLIP_LARGE_BYTES},
    {VSG_OP_UNION, VSG_CROSSOVER_UNION_ROWS, VSG_CROSSOVER_LARGE_BYTES},
};

/* The operation's entry, or NULL when it has no pipeline. The pipeline
 * exists in every build; only the CUDA backend needs CUDA. */
static const pipeline_entry *pipeline_of(vsg_operation operation)
{
    for (size_t i = 0; i < sizeof pipelines / sizeof pipelines[0]; i++)
        if (operation == pipelines[i].operation)
            return &pipelines[i];
    return NULL;
}

/* The operation's crossover in rows, or -1 when it has no pipeline. */
static int64_t pipeline_crossover(vsg_operation operation)
{
    const pipeline_entry *p = pipeline_of(operation);
    return p ? p->crossover : -1;
}

/* The operation's crossover in bytes of large rows (VSG_NO_CROSSOVER:
 * none). */
static int64_t large_crossover(vsg_operation operation)
{
    const pipeline_entry *p = pipeline_of(operation);
    return p ? p->large_bytes : VSG_NO_CROSSOVER;
}

int64_t vsg_dispatch_crossover(vsg_operation operation)
{
#ifdef VSGPU_HAVE_CUDA
    return pipeline_crossover(operation);
#else
    (void)operation;
    return -1;
#endif
}


/* The row crossover AUTO uses (VSGPU_GPU_MIN_ROWS or the measured one). */
static int64_t auto_crossover(vsg_operation op, int64_t min_rows)
{
    int64_t crossover = vsg_dispatch_crossover(op);
    if (crossover >= 0 && min_rows >= 0)
        crossover = min_rows;   /* VSGPU_GPU_MIN_ROWS */
    return crossover;
}

/* The large rows' rule is on unless rows alone were asked for
 * (VSGPU_GPU_MIN_ROWS without VSGPU_GPU_MIN_BYTES). */
static int large_rule_on(int64_t min_rows, int64_t min_bytes)
{
    return min_rows < 0 || min_bytes >= 0;
}

int vsg_dispatch_wants_sample(vsg_exec_mode mode, vsg_operation op, int64_t rows,
                              int host_backend, int64_t min_rows, int64_t min_bytes)
{
    int64_t crossover = auto_crossover(op, min_rows);
    return mode == VSG_MODE_AUTO && !host_backend && crossover >= 0 &&
           crossover != VSG_NO_CROSSOVER && rows >= 0 && rows < crossover &&
           large_rule_on(min_rows, min_bytes) &&
           (min_bytes >= 0 || large_crossover(op) != VSG_NO_CROSSOVER);
}

/* The estimated WKB bytes of the layers whose rows are large (their
 * sample's average times their rows), -1 where none is. */
static int64_t large_bytes(const vsg_dispatch_size *size)
{
    int64_t total = -1;
    for (int l = 0; l < 2; l++) {
        int64_t n = size->sample_rows[l], rows = size->layer_rows[l];
        int64_t per_row = n > 0 ? size->sample_bytes[l] / n : 0;
        if (rows <= 0 || per_row < VSG_LARGE_ROW_BYTES)
            continue;
        int64_t b = per_row > INT64_MAX / rows ? INT64_MAX : per_row * rows;
        total = total < 0 ? b : (b > INT64_MAX - total ? INT64_MAX : total + b);
    }
    return total;
}

void vsg_dispatch_decide(vsg_exec_mode mode, vsg_operation op, const vsg_dispatch_size *size,
                         int host_backend, int64_t min_rows, int64_t min_bytes,
                         vsg_dispatch_decision *out)
{
    memset(out, 0, sizeof *out);
    out->requested = mode;
    out->selected = VSG_RUNTIME_CPU;
    const char *operation = vsg_operation_name(op);
    int64_t input_rows = size->rows;

    if (mode == VSG_MODE_CPU) {
        snprintf(out->reason, sizeof out->reason, "VSGPU_EXECUTION_MODE=CPU");
        return;
    }

    if (host_backend) {
        /* Asked for explicitly (a testing aid): the pipeline runs on the
         * host backend whenever the operation has one, with the failure
         * rule of the mode (GPU: fail; AUTO: rows re-run on the CPU). */
        if (pipeline_crossover(op) >= 0) {
            out->selected = VSG_RUNTIME_GPU;
            return;
        }
        snprintf(out->reason, sizeof out->reason, "no GPU pipeline for %s", operation);
        if (mode == VSG_MODE_GPU)
            out->must_fail = 1;
        else
            out->is_fallback = 1;
        return;
    }

    int64_t crossover = auto_crossover(op, min_rows);

    /* AUTO decides what it can without touching CUDA: a statement that
     * would not take the GPU anyway must not pay the driver's start-up
     * (~0.1 s, and ~0.05 s more at exit, on the GPU host). */
    if (mode == VSG_MODE_AUTO) {
        if (crossover < 0) {
#ifdef VSGPU_HAVE_CUDA
            snprintf(out->reason, sizeof out->reason, "no GPU kernel for %s in this build",
                     operation);
#else
            pthread_once(&probe_once, probe_cuda);   /* no CUDA: just the message */
            snprintf(out->reason, sizeof out->reason, "%s", probe_message);
#endif
            out->is_fallback = 1;
            return;
        }
        if (crossover == VSG_NO_CROSSOVER) {
            snprintf(out->reason, sizeof out->reason,
                     "no GPU crossover for %s: its GPU pipeline did not beat the CPU engine "
                     "end to end at any size measured on the GPU host; "
                     "VSGPU_EXECUTION_MODE=GPU runs it",
                     operation);
            return;   /* a policy, not a fallback: no warning */
        }
        if (input_rows >= 0 && input_rows < crossover) {
            int64_t big = large_rule_on(min_rows, min_bytes) ? large_bytes(size) : -1;
            int64_t big_crossover = min_bytes >= 0 ? min_bytes : large_crossover(op);
            if (big < 0) {
                snprintf(out->reason, sizeof out->reason,
                         "%lld rows to read, below the GPU crossover of %lld rows for %s",
                         (long long)input_rows, (long long)crossover, operation);
                return;   /* a size decision, not a fallback: no warning */
            }
            if (big < big_crossover) {
                snprintf(out->reason, sizeof out->reason,
                         "%lld rows to read, below the GPU crossover of %lld rows for %s, "
                         "and about %lld bytes of large rows, below its crossover of %lld "
                         "bytes for rows of %lld bytes of WKB or more",
                         (long long)input_rows, (long long)crossover, operation,
                         (long long)big, (long long)big_crossover,
                         (long long)VSG_LARGE_ROW_BYTES);
                return;
            }
            /* large rows, and enough of them: the GPU, as above the crossover */
        }
    }

    pthread_once(&probe_once, probe_cuda);
    if (probe_devices <= 0) {
        snprintf(out->reason, sizeof out->reason, "%s", probe_message);
    } else if (crossover < 0) {
        snprintf(out->reason, sizeof out->reason,
                 "no GPU kernel for %s in this build (device: %s)", operation, probe_message);
    } else {
        out->selected = VSG_RUNTIME_GPU;
        return;
    }
    if (mode == VSG_MODE_GPU)
        out->must_fail = 1;
    else
        out->is_fallback = 1;
}
