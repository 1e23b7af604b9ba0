// stage_timer.cu - stage timing on the device's clock: a pair of CUDA events
// recorded on the stream around each stage (recording never waits), read
// after the caller's next vsg_gpu_sync. With VSGPU_NVTX=YES each stage is
// also an NVTX range, so Nsight Systems shows the stage names on the
// timeline (NVTX3 is header-only; without a profiler attached a push or pop
// is a no-op call).
//
// Stages may nest up to VSG_GPU_STAGE_DEPTH deep; past VSG_GPU_MAX_STAGES
// stages between resets, further stages are not timed (counted in
// stages_dropped) but NVTX ranges stay balanced. A timer that fails
// records the error and loses that stage's time, never the run.
#include "gpu_context.h"

#include <nvtx3/nvToolsExt.h>

#include <cstdio>

// Records a CUDA failure of a void entry point in g->error, and says so.
static bool timer_ok(vsg_gpu *g, cudaError_t e, const char *call, int line)
{
    if (e == cudaSuccess)
        return true;
    vsg_gpu_fail(g, e, call, __FILE__, line);
    return false;
}
#define TIMER_TRY(g, call) timer_ok((g), (call), #call, __LINE__)

static bool events_ready(vsg_gpu *g, vsg_gpu_stage *s)
{
    if (!s->begin && !TIMER_TRY(g, cudaEventCreate(&s->begin)))
        return false;
    if (!s->end && !TIMER_TRY(g, cudaEventCreate(&s->end)))
        return false;
    return true;
}

extern "C" void vsg_gpu_stage_begin(vsg_gpu *g, const char *stage)
{
    if (!g)
        return;
    if (g->args.nvtx)
        nvtxRangePushA(stage ? stage : "stage");
    if (g->n_open >= VSG_GPU_STAGE_DEPTH) {
        g->depth_overflow++;
        return;
    }
    int idx = -1;
    if (g->n_stages < VSG_GPU_MAX_STAGES) {
        // The slot is taken even if its events fail, so that stage i is the
        // i-th stage begun (exec_gpu.c pairs its own records by index).
        idx = g->n_stages++;
        vsg_gpu_stage *s = &g->stages[idx];
        std::snprintf(s->name, sizeof s->name, "%s", stage ? stage : "stage");
        s->rows_in = s->rows_out = 0;
        s->ended = false;
        s->timed = vsg_gpu_bind(g) == VSG_OK && events_ready(g, s) &&
                   TIMER_TRY(g, cudaEventRecord(s->begin, g->stream));
    } else {
        g->stages_dropped++;
    }
    g->open[g->n_open++] = idx;
}

extern "C" void vsg_gpu_stage_end(vsg_gpu *g, int64_t rows_in, int64_t rows_out)
{
    if (!g)
        return;
    if (g->args.nvtx && (g->depth_overflow > 0 || g->n_open > 0))
        nvtxRangePop();
    if (g->depth_overflow > 0) {
        g->depth_overflow--;
        return;
    }
    if (g->n_open == 0)
        return;   // an end without a begin: nothing to time
    int idx = g->open[--g->n_open];
    if (idx < 0)
        return;
    vsg_gpu_stage *s = &g->stages[idx];
    s->rows_in = rows_in;
    s->rows_out = rows_out;
    s->ended = true;
    if (s->timed)
        s->timed = vsg_gpu_bind(g) == VSG_OK && TIMER_TRY(g, cudaEventRecord(s->end, g->stream));
}

extern "C" int vsg_gpu_stage_count(const vsg_gpu *g) { return g ? g->n_stages : 0; }

extern "C" int vsg_gpu_stage_get(vsg_gpu *g, int i, const char **stage, double *elapsed_s,
                                 int64_t *rows_in, int64_t *rows_out)
{
    if (!g || i < 0 || i >= g->n_stages || !g->stages[i].ended || !g->stages[i].timed)
        return 0;
    vsg_gpu_stage *s = &g->stages[i];
    float ms = 0.0f;
    // After the caller's sync the event is complete and this returns at
    // once; without one it waits for this stage only.
    if (!TIMER_TRY(g, cudaEventSynchronize(s->end)) ||
        !TIMER_TRY(g, cudaEventElapsedTime(&ms, s->begin, s->end)))
        return 0;
    if (stage)
        *stage = s->name;
    if (elapsed_s)
        *elapsed_s = ms / 1e3;
    if (rows_in)
        *rows_in = s->rows_in;
    if (rows_out)
        *rows_out = s->rows_out;
    return 1;
}

extern "C" void vsg_gpu_stage_reset(vsg_gpu *g)
{
    if (!g)
        return;
    g->n_stages = 0;
    // Stages still open keep running but are no longer timed.
    for (int k = 0; k < g->n_open; k++)
        g->open[k] = -1;
}

void vsg_gpu_stages_destroy(vsg_gpu *g)
{
    for (int i = 0; i < VSG_GPU_MAX_STAGES; i++) {
        if (g->stages[i].begin)
            (void)cudaEventDestroy(g->stages[i].begin);
        if (g->stages[i].end)
            (void)cudaEventDestroy(g->stages[i].end);
        g->stages[i].begin = g->stages[i].end = nullptr;
    }
}
